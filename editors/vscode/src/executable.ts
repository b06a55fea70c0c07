// Finding the `omplens` executable. No `vscode` import: unit tested in plain node.

import * as fs from "node:fs";
import * as path from "node:path";
import { expandVariables, type ExpandContext } from "./settings";

export interface ResolveInput {
  /** The `omplens.path` setting (empty or unset: search). */
  configured?: unknown;
  /** PATH, PATHEXT, and the variables `${env:NAME}` may name. */
  env: Readonly<Record<string, string | undefined>>;
  platform: NodeJS.Platform;
  workspaceFolder?: string;
  home?: string;
  /** Whether `p` is a file this process may execute. */
  isExecutable: (p: string) => boolean;
}

export type Resolved =
  | { ok: true; path: string; source: "setting" | "PATH" | "cargo" }
  | { ok: false; message: string };

const NAME = "omplens";

/**
 * Where the server executable is: `omplens.path` when set (a bare name is searched on PATH), else
 * `omplens` on PATH, else `~/.cargo/bin/omplens` (where `cargo install` puts it; an editor started
 * from a desktop often lacks that in its PATH). The message of a failure says what was tried.
 */
export function resolveExecutable(input: ResolveInput): Resolved {
  const p = input.platform === "win32" ? path.win32 : path.posix;
  const ctx: ExpandContext = {
    workspaceFolder: input.workspaceFolder,
    home: input.home,
    env: input.env,
  };
  if (input.configured !== undefined && input.configured !== null) {
    if (typeof input.configured !== "string") {
      return { ok: false, message: "The setting omplens.path must be a string." };
    }
    const given = input.configured.trim();
    if (given.length > 0) {
      return fromSetting(given, input, ctx, p);
    }
  }
  const onPath = searchPath(NAME, input, p);
  if (onPath !== undefined) {
    return { ok: true, path: onPath, source: "PATH" };
  }
  if (input.home !== undefined) {
    for (const candidate of withExtensions(p.join(input.home, ".cargo", "bin", NAME), input)) {
      if (input.isExecutable(candidate)) {
        return { ok: true, path: candidate, source: "cargo" };
      }
    }
  }
  const where = input.home === undefined ? "" : ` or in ${p.join(input.home, ".cargo", "bin")}`;
  return {
    ok: false,
    message:
      `The omplens executable was not found on PATH${where}. ` +
      "Install it (cargo install --path server in the omplens repository) or set omplens.path.",
  };
}

function fromSetting(
  given: string,
  input: ResolveInput,
  ctx: ExpandContext,
  p: path.PlatformPath,
): Resolved {
  const e = expandVariables(given, ctx);
  if (e.problems.length > 0) {
    return { ok: false, message: `omplens.path "${given}": ${e.problems.join("; ")}.` };
  }
  const value = e.value;
  const hasSeparator = value.includes("/") || (input.platform === "win32" && value.includes("\\"));
  if (!hasSeparator) {
    // A bare name, as a shell would take it.
    const found = searchPath(value, input, p);
    if (found !== undefined) {
      return { ok: true, path: found, source: "setting" };
    }
    return {
      ok: false,
      message: `omplens.path is "${given}", and no executable of that name is on PATH.`,
    };
  }
  let full = value;
  if (!p.isAbsolute(full)) {
    if (input.workspaceFolder === undefined) {
      return {
        ok: false,
        message: `omplens.path "${given}" is relative and no workspace folder is open: use an absolute path.`,
      };
    }
    full = p.join(input.workspaceFolder, full);
  }
  for (const candidate of withExtensions(full, input)) {
    if (input.isExecutable(candidate)) {
      return { ok: true, path: candidate, source: "setting" };
    }
  }
  return {
    ok: false,
    message: `omplens.path is "${given}", but ${full} is not an executable file.`,
  };
}

/** `file` as given, then (on Windows, without an extension) with each of PATHEXT. */
function withExtensions(file: string, input: ResolveInput): string[] {
  if (input.platform !== "win32" || path.win32.extname(file) !== "") {
    return [file];
  }
  const exts = (input.env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD")
    .split(";")
    .filter((x) => x.length > 0);
  return [file, ...exts.map((x) => file + x.toLowerCase())];
}

function searchPath(name: string, input: ResolveInput, p: path.PlatformPath): string | undefined {
  // Windows spells it Path; node's env lookup is case-insensitive there, a plain object is not.
  const value =
    input.env.PATH ??
    Object.entries(input.env).find(([k]) => k.toUpperCase() === "PATH")?.[1] ??
    "";
  for (const dir of value.split(input.platform === "win32" ? ";" : ":")) {
    // An empty entry is the current directory to a shell; never run a server from there.
    if (dir.length === 0 || !p.isAbsolute(dir)) {
      continue;
    }
    for (const candidate of withExtensions(p.join(dir, name), input)) {
      if (input.isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/** Whether `p` is a regular file (following links) that this process may execute. */
export function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) {
      return false;
    }
    // Windows has no execute bit: any file with an extension from PATHEXT will do.
    fs.accessSync(p, process.platform === "win32" ? fs.constants.F_OK : fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
