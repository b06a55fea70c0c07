import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { URI } from "vscode-uri";
import { PLAN_SCHEME } from "../src/ids";
import { planUriFor, sourceOfPlan } from "../src/planUri";

const sources = [
  "file:///work/examples/jacobi.c",
  "file:///home/u/my%20proj/a%25b%23c.cpp",
  "file:///c%3A/Users/u/kern%C3%A9l.c",
  "file:///w/a.c?x=1&y=%2F#frag",
  "untitled:Untitled-1",
  "vscode-remote://ssh-remote%2Bhost/home/u/a.c",
];

describe("plan URIs", () => {
  it("round-trip the source URI", () => {
    for (const s of sources) {
      const parts = planUriFor(s);
      assert.equal(parts.scheme, PLAN_SCHEME);
      assert.equal(sourceOfPlan(parts), s, s);
    }
  });

  it("survive VS Code's URI encoding and parsing (vscode-uri, VS Code's own Uri)", () => {
    for (const s of sources) {
      const uri = URI.from(planUriFor(s));
      const again = URI.parse(uri.toString());
      assert.equal(sourceOfPlan(again), s, s);
      // Encoded or not, the same string: also the same document for VS Code.
      assert.equal(URI.parse(uri.toString(true)).toString(), uri.toString());
      assert.equal(sourceOfPlan(URI.parse(again.toString())), s);
    }
  });

  it("name the tab after the source file", () => {
    assert.equal(planUriFor("file:///work/examples/jacobi.c").path, "/work/examples/jacobi.c.plan.txt");
    assert.equal(planUriFor("file:///home/u/my%20proj/a.c").path, "/home/u/my proj/a.c.plan.txt");
    assert.equal(planUriFor("untitled:Untitled-1").path, "/Untitled-1.plan.txt");
    assert.equal(planUriFor("not a uri").path, "/plan.plan.txt");
    assert.equal(planUriFor("file:///bad%ZZ.c").path, "/plan.plan.txt");
  });

  it("give different documents for different sources", () => {
    const a = URI.from(planUriFor("file:///a/x.c")).toString();
    const b = URI.from(planUriFor("file:///b/x.c")).toString();
    assert.notEqual(a, b);
  });

  it("reject what is not a plan URI", () => {
    const good = planUriFor("file:///w/a.c");
    assert.equal(sourceOfPlan({ scheme: "file", query: good.query }), undefined);
    assert.equal(sourceOfPlan({ scheme: PLAN_SCHEME, query: "" }), undefined);
    assert.equal(sourceOfPlan({ scheme: PLAN_SCHEME, query: "file:///w/a.c" }), undefined);
    assert.equal(sourceOfPlan({ scheme: PLAN_SCHEME, query: `${good.query}=` }), undefined);
    // Valid base64url, but not of a URI.
    assert.equal(sourceOfPlan({ scheme: PLAN_SCHEME, query: Buffer.from("just text").toString("base64url") }), undefined);
    // Not canonical base64url (trailing bits set): does not round-trip.
    assert.equal(sourceOfPlan({ scheme: PLAN_SCHEME, query: "ZmlsZTovL3" }), undefined);
    // Invalid UTF-8.
    assert.equal(sourceOfPlan({ scheme: PLAN_SCHEME, query: Buffer.from([0x66, 0x3a, 0xff]).toString("base64url") }), undefined);
  });
});
