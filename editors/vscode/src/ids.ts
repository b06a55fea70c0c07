// Names shared by the extension and its tests. No `vscode` import: unit tested in plain node.

/** The configuration section, and the language client's id (it reads `omplens.trace.server`). */
export const SECTION = "omplens";

/**
 * The extension's own commands. They must not reuse the server's command names
 * (`SERVER_COMMANDS`): vscode-languageclient registers those itself, and registering a command
 * twice throws.
 */
export const COMMANDS = {
  insertFunction: "omplens.insertDataMappings.function",
  insertFile: "omplens.insertDataMappings.file",
  showPlan: "omplens.showMappingPlan",
  restart: "omplens.restartServer",
  showOutput: "omplens.showOutput",
} as const;

/** `workspace/executeCommand` commands of `omplens lsp` (server/src/lsp/actions.rs). */
export const SERVER_COMMANDS = {
  showPlan: "omplens.showPlan",
  insertFunction: "omplens.insertDataRegion.function",
  insertFile: "omplens.insertDataRegion.file",
} as const;

/** URI scheme of the read-only mapping plan documents. */
export const PLAN_SCHEME = "omplens-plan";

/** The languages the server analyses (VS Code language ids). */
export const LANGUAGES = ["c", "cpp"] as const;
