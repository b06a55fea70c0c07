// The server's state and how the status bar shows it. No `vscode` import: unit tested in plain node.

export type ServerState = "starting" | "running" | "stopped" | "error";

/** vscode-languageclient's `State` enum values. */
export const CLIENT_STATE = { stopped: 1, running: 2, starting: 3 } as const;

/**
 * Our state from the language client's. A stop nobody asked for (the server exited and the
 * client gave up restarting it) is an error.
 */
export function stateFromClient(clientState: number, stopRequested: boolean): ServerState {
  switch (clientState) {
    case CLIENT_STATE.starting:
      return "starting";
    case CLIENT_STATE.running:
      return "running";
    case CLIENT_STATE.stopped:
      return stopRequested ? "stopped" : "error";
    default:
      return "error";
  }
}

export interface StatusDetail {
  /** The executable (shown in the tooltip). */
  executable?: string;
  /** The server's version from `initialize`. */
  version?: string;
  /** Why it is in the error state. */
  message?: string;
}

export interface StatusView {
  /** With a codicon, e.g. `$(check) omplens`. */
  text: string;
  tooltip: string;
  /** Which theme colour the background takes, if any. */
  background?: "error" | "warning";
}

const ICONS: Record<ServerState, string> = {
  starting: "$(sync~spin)",
  running: "$(check)",
  stopped: "$(circle-slash)",
  error: "$(error)",
};

export function statusView(state: ServerState, detail: StatusDetail = {}): StatusView {
  const name = detail.version === undefined ? "omplens" : `omplens ${detail.version}`;
  const lines = [`${name}: ${state}`];
  if (state === "error") {
    lines[0] += `: ${oneLine(detail.message ?? "the server stopped")}`;
  }
  if (detail.executable !== undefined) {
    lines.push(detail.executable);
  }
  lines.push("Click to show the output.");
  return {
    text: `${ICONS[state]} omplens`,
    tooltip: lines.join("\n"),
    background: state === "error" ? "error" : undefined,
  };
}

/** The first line of `s`, at most 200 characters. */
function oneLine(s: string): string {
  const first = s.split(/\r?\n/, 1)[0].trim();
  return first.length > 200 ? `${first.slice(0, 199)}…` : first;
}
