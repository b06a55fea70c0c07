// Building the server's command requests and reading their answers.
// No `vscode` import: unit tested in plain node.

import { LANGUAGES, SERVER_COMMANDS } from "./ids";

export interface Position {
  line: number;
  character: number;
}

/** `workspace/executeCommand` parameters. */
export interface CommandRequest {
  command: string;
  arguments: unknown[];
}

/** Whether the server analyses this document: C or C++ saved on disk. */
export function isAnalysable(languageId: string, uriScheme: string): boolean {
  return uriScheme === "file" && (LANGUAGES as readonly string[]).includes(languageId);
}

function checkUri(uri: string): void {
  if (typeof uri !== "string" || uri.length === 0) {
    throw new TypeError("a document URI is needed");
  }
}

/** Insert the data region of the function at `position` of `uri`. */
export function insertFunctionRequest(uri: string, position: Position): CommandRequest {
  checkUri(uri);
  const ok = (n: number) => Number.isInteger(n) && n >= 0;
  if (!ok(position.line) || !ok(position.character)) {
    throw new RangeError(`not a document position: ${JSON.stringify(position)}`);
  }
  return {
    command: SERVER_COMMANDS.insertFunction,
    arguments: [uri, { line: position.line, character: position.character }],
  };
}

/** Insert the data regions of every function of `uri`. */
export function insertFileRequest(uri: string): CommandRequest {
  checkUri(uri);
  return { command: SERVER_COMMANDS.insertFile, arguments: [uri] };
}

/** The plan of `uri` as text, without the server also showing it as a message. */
export function showPlanRequest(uri: string): CommandRequest {
  checkUri(uri);
  return { command: SERVER_COMMANDS.showPlan, arguments: [uri, { show: false }] };
}

export type InsertOutcome =
  | { kind: "applied" }
  | { kind: "nothing"; message: string }
  | { kind: "rejected"; message: string };

/** What the answer `{applied, reason?}` to an insertion means for the user. */
export function interpretInsertResult(result: unknown, scope: "function" | "file"): InsertOutcome {
  const where = scope === "function" ? "this function" : "this file";
  if (typeof result !== "object" || result === null || Array.isArray(result)) {
    return { kind: "rejected", message: `unexpected answer from the server: ${show(result)}` };
  }
  const r = result as { applied?: unknown; reason?: unknown };
  if (r.applied === true) {
    return { kind: "applied" };
  }
  if (r.applied !== false) {
    return { kind: "rejected", message: `unexpected answer from the server: ${show(result)}` };
  }
  if (typeof r.reason === "string" && r.reason.length > 0) {
    // The server's only reason today: the kernels already have every mapping they need.
    return r.reason === "nothing to insert"
      ? { kind: "nothing", message: `No data mappings to insert in ${where}.` }
      : { kind: "nothing", message: `Nothing inserted in ${where}: ${r.reason}.` };
  }
  return {
    kind: "rejected",
    message: `The edit for ${where} was not applied (the document changed meanwhile?). Try again.`,
  };
}

function show(v: unknown): string {
  if (v === undefined) {
    return "nothing";
  }
  // JSON.stringify gives undefined for functions and symbols.
  const s = JSON.stringify(v) ?? typeof v;
  return s.length > 200 ? `${s.slice(0, 199)}…` : s;
}

/** The text of a plan document from the answer to `omplens.showPlan`. */
export function planText(result: unknown): string {
  if (typeof result === "string") {
    return result;
  }
  return `omplens: the server sent no plan (${show(result)}).\n`;
}

/**
 * The server's code lenses and its "Show the mapping plan" action run `omplens.showPlan` with
 * `{show: true}`, which would put the whole plan in a notification. For those, the source URI
 * whose plan to open as a document instead; undefined for every other command.
 */
export function planToOpenInstead(command: string, args: readonly unknown[]): string | undefined {
  if (command !== SERVER_COMMANDS.showPlan) {
    return undefined;
  }
  const [uri, options] = args;
  const show =
    typeof options === "object" && options !== null && (options as { show?: unknown }).show === true;
  return show && typeof uri === "string" && uri.length > 0 ? uri : undefined;
}

/** A readable message from whatever a failed request threw (a ResponseError, an Error, ...). */
export function errorMessage(e: unknown): string {
  if (e instanceof Error) {
    return e.message;
  }
  if (typeof e === "object" && e !== null && typeof (e as { message?: unknown }).message === "string") {
    return (e as { message: string }).message;
  }
  return String(e);
}
