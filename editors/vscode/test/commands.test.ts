import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  errorMessage,
  insertFileRequest,
  insertFunctionRequest,
  interpretInsertResult,
  isAnalysable,
  planText,
  planToOpenInstead,
  showPlanRequest,
} from "../src/commands";
import { SERVER_COMMANDS } from "../src/ids";

const uri = "file:///w/jacobi.c";

describe("isAnalysable", () => {
  it("is C and C++ files on disk", () => {
    assert.equal(isAnalysable("c", "file"), true);
    assert.equal(isAnalysable("cpp", "file"), true);
    assert.equal(isAnalysable("c", "untitled"), false);
    assert.equal(isAnalysable("cpp", "omplens-plan"), false);
    assert.equal(isAnalysable("cuda-cpp", "file"), false);
    assert.equal(isAnalysable("plaintext", "file"), false);
  });
});

describe("command requests", () => {
  it("insert for the function at a position", () => {
    assert.deepEqual(insertFunctionRequest(uri, { line: 11, character: 4 }), {
      command: "omplens.insertDataRegion.function",
      arguments: [uri, { line: 11, character: 4 }],
    });
  });

  it("copies only line and character of the position", () => {
    const pos = { line: 1, character: 2, extra: "x" };
    assert.deepEqual(insertFunctionRequest(uri, pos).arguments[1], { line: 1, character: 2 });
  });

  it("refuses a position that is not one", () => {
    for (const bad of [
      { line: -1, character: 0 },
      { line: 0, character: 1.5 },
      { line: Number.NaN, character: 0 },
    ]) {
      assert.throws(() => insertFunctionRequest(uri, bad), RangeError);
    }
    assert.throws(() => insertFunctionRequest("", { line: 0, character: 0 }), TypeError);
  });

  it("insert for the file", () => {
    assert.deepEqual(insertFileRequest(uri), { command: "omplens.insertDataRegion.file", arguments: [uri] });
    assert.throws(() => insertFileRequest(""), TypeError);
  });

  it("ask for the plan without a notification", () => {
    assert.deepEqual(showPlanRequest(uri), { command: "omplens.showPlan", arguments: [uri, { show: false }] });
  });
});

describe("interpretInsertResult", () => {
  it("reads the server's answers", () => {
    assert.deepEqual(interpretInsertResult({ applied: true }, "file"), { kind: "applied" });
    assert.deepEqual(interpretInsertResult({ applied: false, reason: "nothing to insert" }, "function"), {
      kind: "nothing",
      message: "No data mappings to insert in this function.",
    });
    assert.deepEqual(interpretInsertResult({ applied: false, reason: "no kernels" }, "file"), {
      kind: "nothing",
      message: "Nothing inserted in this file: no kernels.",
    });
    const refused = interpretInsertResult({ applied: false }, "file");
    assert.equal(refused.kind, "rejected");
    assert.match(refused.kind === "rejected" ? refused.message : "", /was not applied/);
  });

  it("says so when the answer is not one", () => {
    for (const odd of [null, undefined, "yes", 1, [], { applied: "true" }, {}]) {
      const r = interpretInsertResult(odd, "function");
      assert.equal(r.kind, "rejected", JSON.stringify(odd));
      assert.match(r.kind === "rejected" ? r.message : "", /unexpected answer/);
    }
    const long = interpretInsertResult({ x: "y".repeat(500) }, "file");
    assert.ok(long.kind === "rejected" && long.message.length < 260);
  });
});

describe("planText", () => {
  it("is the server's text, or says there was none", () => {
    assert.equal(planText("kernel at 12:3\n"), "kernel at 12:3\n");
    assert.equal(planText(""), "");
    assert.match(planText(null), /sent no plan \(null\)/);
    assert.match(planText(undefined), /sent no plan \(nothing\)/);
  });
});

describe("planToOpenInstead", () => {
  it("catches the server's show-plan commands that would notify", () => {
    assert.equal(planToOpenInstead(SERVER_COMMANDS.showPlan, [uri, { show: true }]), uri);
  });

  it("leaves every other command alone", () => {
    assert.equal(planToOpenInstead(SERVER_COMMANDS.showPlan, [uri, { show: false }]), undefined);
    assert.equal(planToOpenInstead(SERVER_COMMANDS.showPlan, [uri]), undefined);
    assert.equal(planToOpenInstead(SERVER_COMMANDS.showPlan, [42, { show: true }]), undefined);
    assert.equal(planToOpenInstead(SERVER_COMMANDS.showPlan, ["", { show: true }]), undefined);
    assert.equal(planToOpenInstead(SERVER_COMMANDS.showPlan, []), undefined);
    assert.equal(planToOpenInstead(SERVER_COMMANDS.insertFile, [uri, { show: true }]), undefined);
  });
});

describe("errorMessage", () => {
  it("reads errors, error-like objects and the rest", () => {
    assert.equal(errorMessage(new Error("boom")), "boom");
    assert.equal(errorMessage({ code: -32602, message: "file:///a.c is not open" }), "file:///a.c is not open");
    assert.equal(errorMessage("plain"), "plain");
    assert.equal(errorMessage(undefined), "undefined");
  });
});
