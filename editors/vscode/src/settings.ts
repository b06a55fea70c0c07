// VS Code settings (`omplens.*`) -> the server's settings object (server/src/lsp/config.rs).
// No `vscode` import: unit tested in plain node.

/** The server's settings, as `initializationOptions` and `workspace/didChangeConfiguration` take them. */
export interface ServerSettings {
  compileCommandsDir?: string;
  flags: string[];
  checks: { select?: string[]; ignore: string[] };
  inlayHints: boolean;
  codeLens: boolean;
  debounceMs: number;
  docsBaseUrl?: string;
}

/** Keys under `omplens.` that are translated and sent to the server. */
export const SERVER_KEYS = [
  "compileCommandsDir",
  "flags",
  "checks.select",
  "checks.ignore",
  "inlayHints",
  "codeLens",
  "debounceMs",
  "docsBaseUrl",
] as const;

/** Keys under `omplens.` that only the extension reads. */
export const CLIENT_KEYS = ["path", "trace.server"] as const;

export type ServerKey = (typeof SERVER_KEYS)[number];

/** The values as read from the configuration: anything a user can write in settings.json. */
export type RawSettings = Partial<Record<ServerKey, unknown>>;

/** What variables expand to. */
export interface ExpandContext {
  workspaceFolder?: string;
  home?: string;
  env: Readonly<Record<string, string | undefined>>;
}

export const DEFAULT_DEBOUNCE_MS = 50;
/** The server caps the debounce at this too. */
export const MAX_DEBOUNCE_MS = 10_000;

export interface Translated {
  settings: ServerSettings;
  /** Settings that were wrong and what was done instead, one sentence each. */
  problems: string[];
}

/** Reads every server key through `get` (for example `k => config.get(k)`). */
export function readRaw(get: (key: ServerKey) => unknown): RawSettings {
  const raw: RawSettings = {};
  for (const key of SERVER_KEYS) {
    raw[key] = get(key);
  }
  return raw;
}

/**
 * Expands `${workspaceFolder}`, `${workspaceFolderBasename}`, `${userHome}`, `${env:NAME}` and a
 * leading `~` in `value`. A variable that cannot be expanded is left as it is, with a problem.
 */
export function expandVariables(
  value: string,
  ctx: ExpandContext,
): { value: string; problems: string[] } {
  const problems: string[] = [];
  let out = value.replace(/\$\{([^}]*)\}/g, (whole, name: string) => {
    let v: string | undefined;
    if (name === "workspaceFolder") {
      v = ctx.workspaceFolder;
    } else if (name === "workspaceFolderBasename") {
      v = ctx.workspaceFolder === undefined ? undefined : basename(ctx.workspaceFolder);
    } else if (name === "userHome") {
      v = ctx.home;
    } else if (name.startsWith("env:")) {
      v = ctx.env[name.slice(4)] ?? "";
      return v;
    } else {
      problems.push(`unknown variable ${whole}`);
      return whole;
    }
    if (v === undefined) {
      problems.push(`${whole} has no value here`);
      return whole;
    }
    return v;
  });
  if ((out === "~" || out.startsWith("~/") || out.startsWith("~\\")) && ctx.home !== undefined) {
    out = ctx.home + out.slice(1);
  }
  return { value: out, problems };
}

function basename(p: string): string {
  const parts = p.split(/[\\/]+/).filter((s) => s.length > 0);
  return parts.length === 0 ? p : parts[parts.length - 1];
}

/** Settings as the server wants them, and what was wrong with the ones given. */
export function toServerSettings(raw: RawSettings, ctx: ExpandContext): Translated {
  const problems: string[] = [];
  const settings: ServerSettings = {
    flags: [],
    checks: { ignore: [] },
    inlayHints: true,
    codeLens: true,
    debounceMs: DEFAULT_DEBOUNCE_MS,
  };

  const dir = optionalString(raw.compileCommandsDir, "compileCommandsDir", problems);
  if (dir !== undefined) {
    const e = expandVariables(dir, ctx);
    problems.push(...e.problems.map((p) => `omplens.compileCommandsDir: ${p}`));
    // A relative directory is fine: the server takes it from the workspace root.
    settings.compileCommandsDir = e.value;
  }

  for (const flag of stringList(raw.flags, "flags", problems)) {
    const e = expandVariables(flag, ctx);
    problems.push(...e.problems.map((p) => `omplens.flags: ${p}`));
    settings.flags.push(e.value);
  }

  const select = selectors(raw["checks.select"], "checks.select", problems);
  // An empty list would select no rule at all on the server; in VS Code it means "all rules".
  if (select.length > 0) {
    settings.checks.select = select;
  }
  settings.checks.ignore = selectors(raw["checks.ignore"], "checks.ignore", problems);

  settings.inlayHints = bool(raw.inlayHints, "inlayHints", true, problems);
  settings.codeLens = bool(raw.codeLens, "codeLens", true, problems);
  settings.debounceMs = debounce(raw.debounceMs, problems);

  const docs = optionalString(raw.docsBaseUrl, "docsBaseUrl", problems);
  if (docs !== undefined) {
    settings.docsBaseUrl = docs;
  }
  return { settings, problems };
}

function describe(v: unknown): string {
  if (v === null) {
    return "null";
  }
  if (Array.isArray(v)) {
    return "a list";
  }
  return typeof v === "object" ? "an object" : `${typeof v} ${JSON.stringify(v)}`;
}

/** A trimmed non-empty string, or undefined for unset, empty or wrong values. */
function optionalString(v: unknown, key: string, problems: string[]): string | undefined {
  if (v === undefined || v === null) {
    return undefined;
  }
  if (typeof v !== "string") {
    problems.push(`omplens.${key} must be a string, not ${describe(v)}: ignored`);
    return undefined;
  }
  const t = v.trim();
  return t.length > 0 ? t : undefined;
}

/** The strings of a list; a wrong element is dropped, a single string is taken as a list of one. */
function stringList(v: unknown, key: string, problems: string[]): string[] {
  if (v === undefined || v === null) {
    return [];
  }
  if (typeof v === "string") {
    problems.push(`omplens.${key} must be a list of strings: took "${v}" as a list of one`);
    return v.trim().length > 0 ? [v] : [];
  }
  if (!Array.isArray(v)) {
    problems.push(`omplens.${key} must be a list of strings, not ${describe(v)}: ignored`);
    return [];
  }
  const out: string[] = [];
  for (const item of v as unknown[]) {
    if (typeof item === "string") {
      out.push(item);
    } else {
      problems.push(`omplens.${key}: dropped ${describe(item)} (not a string)`);
    }
  }
  return out;
}

/** Check selectors: trimmed, empty ones dropped, codes upper-cased, duplicates removed. */
function selectors(v: unknown, key: string, problems: string[]): string[] {
  const out: string[] = [];
  for (const s of stringList(v, key, problems)) {
    let t = s.trim();
    if (t.length === 0) {
      continue;
    }
    if (/^omp\d*$/i.test(t)) {
      t = t.toUpperCase();
    }
    if (!out.includes(t)) {
      out.push(t);
    }
  }
  return out;
}

function bool(v: unknown, key: string, dflt: boolean, problems: string[]): boolean {
  if (v === undefined || v === null) {
    return dflt;
  }
  if (typeof v === "boolean") {
    return v;
  }
  problems.push(`omplens.${key} must be true or false, not ${describe(v)}: using ${dflt}`);
  return dflt;
}

/** A whole number of milliseconds in [0, MAX_DEBOUNCE_MS]: the server rejects fractions and negatives. */
function debounce(v: unknown, problems: string[]): number {
  if (v === undefined || v === null) {
    return DEFAULT_DEBOUNCE_MS;
  }
  if (typeof v !== "number" || !Number.isFinite(v)) {
    problems.push(
      `omplens.debounceMs must be a number, not ${describe(v)}: using ${DEFAULT_DEBOUNCE_MS}`,
    );
    return DEFAULT_DEBOUNCE_MS;
  }
  const n = Math.round(v);
  if (n < 0) {
    problems.push(`omplens.debounceMs ${v} is negative: using 0`);
    return 0;
  }
  if (n > MAX_DEBOUNCE_MS) {
    problems.push(`omplens.debounceMs ${v} is more than ${MAX_DEBOUNCE_MS}: using ${MAX_DEBOUNCE_MS}`);
    return MAX_DEBOUNCE_MS;
  }
  return n;
}

/** What a configuration change needs. */
export type ChangeAction = "none" | "notify" | "restart";

/**
 * `affects(section)` is `ConfigurationChangeEvent.affectsConfiguration`. A new executable needs a
 * new server; a server setting is sent to the running one; `trace.server` is applied by the
 * language client itself.
 */
export function classifyChange(affects: (section: string) => boolean): ChangeAction {
  if (affects("omplens.path")) {
    return "restart";
  }
  return SERVER_KEYS.some((k) => affects(`omplens.${k}`)) ? "notify" : "none";
}

/**
 * The answer to a `workspace/configuration` request: the translated settings for the `omplens`
 * section, `undefined` for items that are not ours (the caller asks VS Code for those).
 */
export function configurationAnswer(
  items: readonly { section?: string }[],
  ours: ServerSettings,
): (ServerSettings | undefined)[] {
  return items.map((item) => (item.section === "omplens" ? ours : undefined));
}
