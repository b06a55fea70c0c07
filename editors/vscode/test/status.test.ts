import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CLIENT_STATE, stateFromClient, statusView, type ServerState } from "../src/status";

describe("stateFromClient", () => {
  it("maps the language client's states", () => {
    assert.equal(stateFromClient(CLIENT_STATE.starting, false), "starting");
    assert.equal(stateFromClient(CLIENT_STATE.running, false), "running");
    assert.equal(stateFromClient(CLIENT_STATE.stopped, true), "stopped");
  });

  it("calls a stop nobody asked for an error", () => {
    assert.equal(stateFromClient(CLIENT_STATE.stopped, false), "error");
    assert.equal(stateFromClient(42, true), "error");
  });

  it("agrees with vscode-languageclient's State enum", () => {
    // The enum as vscode-languageclient declares it (its module needs `vscode`, so read the typings).
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const fs = require("node:fs") as typeof import("node:fs");
    const d = fs.readFileSync(require.resolve("vscode-languageclient/lib/common/client.d.ts"), "utf8");
    const m = /export declare enum State \{([^}]*)\}/.exec(d);
    assert.ok(m, "State enum not found");
    const values = Object.fromEntries([...m[1].matchAll(/(\w+) = (\d+)/g)].map((x) => [x[1].toLowerCase(), Number(x[2])]));
    assert.deepEqual(values, { ...CLIENT_STATE });
  });
});

describe("statusView", () => {
  it("has an icon per state and the name", () => {
    const icons = new Set<string>();
    for (const s of ["starting", "running", "stopped", "error"] as ServerState[]) {
      const v = statusView(s);
      assert.match(v.text, /^\$\([a-z~-]+\) omplens$/);
      icons.add(v.text);
      assert.ok(v.tooltip.startsWith(`omplens: ${s}`), v.tooltip);
      assert.ok(v.tooltip.endsWith("Click to show the output."));
    }
    assert.equal(icons.size, 4);
    assert.equal(statusView("starting").text, "$(sync~spin) omplens");
  });

  it("colours only the error state", () => {
    assert.equal(statusView("error").background, "error");
    for (const s of ["starting", "running", "stopped"] as ServerState[]) {
      assert.equal(statusView(s).background, undefined);
    }
  });

  it("shows the version, the executable and the error", () => {
    const v = statusView("running", { version: "0.1.0", executable: "/usr/bin/omplens" });
    assert.equal(v.tooltip, "omplens 0.1.0: running\n/usr/bin/omplens\nClick to show the output.");
    const e = statusView("error", { message: "spawn EACCES\nmore detail" });
    assert.equal(e.tooltip.split("\n")[0], "omplens: error: spawn EACCES");
    assert.equal(statusView("error").tooltip.split("\n")[0], "omplens: error: the server stopped");
    // The message is shown only for errors.
    assert.ok(!statusView("running", { message: "old" }).tooltip.includes("old"));
  });

  it("cuts a long message", () => {
    const e = statusView("error", { message: "x".repeat(1000) });
    assert.ok(e.tooltip.split("\n")[0].length < 230);
    assert.ok(e.tooltip.split("\n")[0].endsWith("…"));
  });
});
