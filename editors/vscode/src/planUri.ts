// URIs of the read-only mapping plan documents: `omplens-plan:<source path>.plan.txt?<source URI>`.
// No `vscode` import: unit tested in plain node.

import { PLAN_SCHEME } from "./ids";

/** The components of a `vscode.Uri` (as `vscode.Uri.from` takes them). */
export interface UriParts {
  scheme: string;
  path: string;
  query: string;
}

/**
 * The plan document of the source document `sourceUri` (a URI string, e.g. `file:///w/a.c`).
 * The source URI travels base64url-encoded in the query: those characters are never
 * percent-encoded, so the value survives however often VS Code encodes and decodes the URI. The
 * path is only for the tab title (`a.c.plan.txt`, which VS Code shows as plain text).
 */
export function planUriFor(sourceUri: string): UriParts {
  return {
    scheme: PLAN_SCHEME,
    path: `${sourcePath(sourceUri)}.plan.txt`,
    query: Buffer.from(sourceUri, "utf8").toString("base64url"),
  };
}

/** The source URI of a plan document, or undefined when `uri` is not one. */
export function sourceOfPlan(uri: { scheme: string; query: string }): string | undefined {
  if (uri.scheme !== PLAN_SCHEME || !/^[A-Za-z0-9_-]+$/.test(uri.query)) {
    return undefined;
  }
  const decoded = Buffer.from(uri.query, "base64url").toString("utf8");
  // Reject what does not round-trip (stray characters) or is not a URI with a scheme.
  if (Buffer.from(decoded, "utf8").toString("base64url") !== uri.query) {
    return undefined;
  }
  return /^[A-Za-z][A-Za-z0-9+.-]*:/.test(decoded) ? decoded : undefined;
}

/** The decoded path of a URI string, `/plan` when it has none. */
function sourcePath(sourceUri: string): string {
  try {
    const path = decodeURIComponent(new URL(sourceUri).pathname);
    if (path.length > 1) {
      return path.startsWith("/") ? path : `/${path}`;
    }
  } catch {
    // Not a URL (or bad percent-encoding): fall through.
  }
  return "/plan";
}
