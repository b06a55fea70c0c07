import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import {
  classifyChange,
  configurationAnswer,
  DEFAULT_DEBOUNCE_MS,
  expandVariables,
  MAX_DEBOUNCE_MS,
  readRaw,
  SERVER_KEYS,
  toServerSettings,
  type ExpandContext,
  type RawSettings,
} from "../src/settings";

const ctx: ExpandContext = {
  workspaceFolder: "/home/u/proj",
  home: "/home/u",
  env: { BUILD: "/tmp/build", EMPTY: "" },
};

function translate(raw: RawSettings, c: ExpandContext = ctx) {
  return toServerSettings(raw, c);
}

describe("toServerSettings", () => {
  it("gives the server's defaults for unset values", () => {
    const { settings, problems } = translate({});
    assert.deepEqual(settings, {
      flags: [],
      checks: { ignore: [] },
      inlayHints: true,
      codeLens: true,
      debounceMs: DEFAULT_DEBOUNCE_MS,
    });
    assert.deepEqual(problems, []);
  });

  it("passes set values through", () => {
    const { settings, problems } = translate({
      compileCommandsDir: "build",
      flags: ["-DN=64", "-fopenmp"],
      "checks.select": ["OMP1"],
      "checks.ignore": ["OMP103", "scalar-map-to"],
      inlayHints: false,
      codeLens: false,
      debounceMs: 200,
      docsBaseUrl: "https://example.org/rules/",
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, {
      compileCommandsDir: "build",
      flags: ["-DN=64", "-fopenmp"],
      checks: { select: ["OMP1"], ignore: ["OMP103", "scalar-map-to"] },
      inlayHints: false,
      codeLens: false,
      debounceMs: 200,
      docsBaseUrl: "https://example.org/rules/",
    });
  });

  it("leaves out an empty select, which would enable nothing on the server", () => {
    const { settings } = translate({ "checks.select": [] });
    assert.equal("select" in settings.checks, false);
    const blank = translate({ "checks.select": ["  ", ""] }).settings;
    assert.equal("select" in blank.checks, false);
  });

  it("normalises selectors: trimmed, codes upper-cased, names kept, duplicates dropped", () => {
    const { settings, problems } = translate({
      "checks.select": [" omp1 ", "OMP1", "Omp201", "stale-host-read", "stale-host-read"],
      "checks.ignore": ["omp208", "", "OMP208"],
    });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings.checks, {
      select: ["OMP1", "OMP201", "stale-host-read"],
      ignore: ["OMP208"],
    });
  });

  it("drops non-string selectors and flags with a problem each", () => {
    const { settings, problems } = translate({
      "checks.ignore": ["OMP2", 208, null],
      flags: ["-DA", { x: 1 }, true],
    });
    assert.deepEqual(settings.checks.ignore, ["OMP2"]);
    assert.deepEqual(settings.flags, ["-DA"]);
    assert.equal(problems.length, 4);
    assert.equal(problems.filter((p) => p.startsWith("omplens.checks.ignore: dropped")).length, 2);
    assert.ok(problems.some((p) => p.includes("omplens.flags") && p.includes("an object")));
  });

  it("takes a single flag string as a list of one, saying so", () => {
    const { settings, problems } = translate({ flags: "-DN=4" });
    assert.deepEqual(settings.flags, ["-DN=4"]);
    assert.equal(problems.length, 1);
    assert.match(problems[0], /omplens\.flags must be a list/);
  });

  it("ignores a flags object", () => {
    const { settings, problems } = translate({ flags: { a: "-DA" } });
    assert.deepEqual(settings.flags, []);
    assert.match(problems[0], /an object/);
  });

  it("expands variables in the directory and the flags", () => {
    const { settings, problems } = translate({
      compileCommandsDir: "${workspaceFolder}/build",
      flags: ["-I${workspaceFolder}/include", "-I${env:BUILD}/gen", "-I~/inc"],
    });
    assert.deepEqual(problems, []);
    assert.equal(settings.compileCommandsDir, "/home/u/proj/build");
    // A `~` inside a flag is not a path of its own: left alone, as a shell would.
    assert.deepEqual(settings.flags, ["-I/home/u/proj/include", "-I/tmp/build/gen", "-I~/inc"]);
    assert.equal(translate({ compileCommandsDir: "~/b" }).settings.compileCommandsDir, "/home/u/b");
  });

  it("reports a variable it cannot expand and keeps the text", () => {
    const noFolder: ExpandContext = { home: "/h", env: {} };
    const { settings, problems } = translate({ compileCommandsDir: "${workspaceFolder}/b" }, noFolder);
    assert.equal(settings.compileCommandsDir, "${workspaceFolder}/b");
    assert.equal(problems.length, 1);
    assert.match(problems[0], /compileCommandsDir.*\$\{workspaceFolder\} has no value/);
    const unknown = translate({ flags: ["-D${config:x}"] });
    assert.deepEqual(unknown.settings.flags, ["-D${config:x}"]);
    assert.match(unknown.problems[0], /unknown variable \$\{config:x\}/);
  });

  it("omits blank strings and rejects non-strings for the directory and docs URL", () => {
    const blank = translate({ compileCommandsDir: "   ", docsBaseUrl: "" });
    assert.equal("compileCommandsDir" in blank.settings, false);
    assert.equal("docsBaseUrl" in blank.settings, false);
    assert.deepEqual(blank.problems, []);
    const wrong = translate({ compileCommandsDir: 3, docsBaseUrl: ["x"] });
    assert.equal("compileCommandsDir" in wrong.settings, false);
    assert.equal("docsBaseUrl" in wrong.settings, false);
    assert.equal(wrong.problems.length, 2);
    assert.equal(translate({ docsBaseUrl: "  https://x.org/r/ " }).settings.docsBaseUrl, "https://x.org/r/");
  });

  it("makes the debounce a whole number of milliseconds in range", () => {
    const d = (v: unknown) => translate({ debounceMs: v });
    assert.equal(d(50.6).settings.debounceMs, 51);
    assert.deepEqual(d(50.6).problems, []);
    assert.equal(d(0).settings.debounceMs, 0);
    assert.equal(d(-5).settings.debounceMs, 0);
    assert.match(d(-5).problems[0], /negative/);
    assert.equal(d(MAX_DEBOUNCE_MS + 1).settings.debounceMs, MAX_DEBOUNCE_MS);
    assert.equal(d(1e12).problems.length, 1);
    for (const bad of ["fast", Number.NaN, Number.POSITIVE_INFINITY, true, [50]]) {
      const r = d(bad);
      assert.equal(r.settings.debounceMs, DEFAULT_DEBOUNCE_MS, String(bad));
      assert.equal(r.problems.length, 1, String(bad));
    }
  });

  it("uses the default for a non-boolean switch, saying so", () => {
    const { settings, problems } = translate({ inlayHints: "no", codeLens: 0 });
    assert.equal(settings.inlayHints, true);
    assert.equal(settings.codeLens, true);
    assert.equal(problems.length, 2);
    assert.match(problems[0], /omplens\.inlayHints must be true or false, not string "no"/);
  });

  it("never throws, whatever the values", () => {
    const junk: unknown[] = [undefined, null, 0, -1, 1.5, "", "x", [], [null], {}, { a: [] }, true, Symbol("s")];
    for (const v of junk) {
      const raw: RawSettings = {};
      for (const k of SERVER_KEYS) {
        raw[k] = v;
      }
      const { settings } = translate(raw);
      // Whatever came in, what goes out is what the server deserialises.
      assert.ok(Array.isArray(settings.flags) && settings.flags.every((f) => typeof f === "string"));
      assert.ok(Number.isInteger(settings.debounceMs) && settings.debounceMs >= 0);
      assert.equal(typeof settings.inlayHints, "boolean");
      assert.doesNotThrow(() => JSON.stringify(settings));
    }
  });
});

describe("readRaw", () => {
  it("reads every server key once through the getter", () => {
    const asked: string[] = [];
    const raw = readRaw((k) => {
      asked.push(k);
      return k === "flags" ? ["-DX"] : undefined;
    });
    assert.deepEqual(asked, [...SERVER_KEYS]);
    assert.deepEqual(raw.flags, ["-DX"]);
  });
});

describe("expandVariables", () => {
  it("expands each kind", () => {
    const e = (s: string) => expandVariables(s, ctx);
    assert.deepEqual(e("${workspaceFolderBasename}"), { value: "proj", problems: [] });
    assert.deepEqual(e("${userHome}/x"), { value: "/home/u/x", problems: [] });
    assert.deepEqual(e("~"), { value: "/home/u", problems: [] });
    assert.deepEqual(e("~\\w"), { value: "/home/u\\w", problems: [] });
    assert.deepEqual(e("${env:BUILD}:${env:BUILD}"), { value: "/tmp/build:/tmp/build", problems: [] });
    // Unset variables are empty, as in VS Code's own settings.
    assert.deepEqual(e("a${env:NOPE}b"), { value: "ab", problems: [] });
  });

  it("leaves what is not a variable alone", () => {
    const e = (s: string) => expandVariables(s, ctx).value;
    assert.equal(e("~user/x"), "~user/x");
    assert.equal(e("a/~/b"), "a/~/b");
    assert.equal(e("$HOME/x"), "$HOME/x");
    assert.equal(e("${unclosed"), "${unclosed");
  });

  it("does not expand ~ without a home", () => {
    assert.deepEqual(expandVariables("~/x", { env: {} }), { value: "~/x", problems: [] });
  });
});

/** Like `ConfigurationChangeEvent.affectsConfiguration`: a section or anything above or below it. */
function affectsFor(changed: string[]) {
  return (section: string) =>
    changed.some((c) => c === section || c.startsWith(`${section}.`) || section.startsWith(`${c}.`));
}

describe("classifyChange", () => {
  it("restarts for a new executable, even with other changes", () => {
    assert.equal(classifyChange(affectsFor(["omplens.path"])), "restart");
    assert.equal(classifyChange(affectsFor(["omplens.path", "omplens.flags"])), "restart");
  });

  it("notifies the server of its own settings", () => {
    for (const key of SERVER_KEYS) {
      assert.equal(classifyChange(affectsFor([`omplens.${key}`])), "notify", key);
    }
    assert.equal(classifyChange(affectsFor(["omplens.checks"])), "notify");
  });

  it("does nothing for the trace or other extensions' settings", () => {
    assert.equal(classifyChange(affectsFor(["omplens.trace.server"])), "none");
    assert.equal(classifyChange(affectsFor(["editor.fontSize", "clangd.path"])), "none");
    assert.equal(classifyChange(affectsFor([])), "none");
  });
});

describe("configurationAnswer", () => {
  it("answers the omplens section only", () => {
    const ours = translate({ flags: ["-DX"] }).settings;
    assert.deepEqual(configurationAnswer([{ section: "omplens" }, { section: "editor" }, {}], ours), [
      ours,
      undefined,
      undefined,
    ]);
    assert.deepEqual(configurationAnswer([], ours), []);
  });
});

describe("agreement with the server (server/src/lsp/config.rs)", () => {
  // The extension lives in the omplens repository; the server's settings are read from its source.
  const source = fs.readFileSync(path.resolve(__dirname, "../../../../server/src/lsp/config.rs"), "utf8");

  function fields(structName: string): string[] {
    const m = new RegExp(`struct ${structName} \\{([^}]*)\\}`).exec(source);
    assert.ok(m, `struct ${structName} not found in config.rs`);
    return [...m[1].matchAll(/^\s*(\w+):/gm)].map((f) => f[1]);
  }

  const camel = (s: string) => s.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

  it("sends exactly the fields the server reads", () => {
    const top = fields("Raw").map(camel);
    const checks = fields("RawChecks").map(camel);
    const expected = [...top.filter((f) => f !== "checks"), ...checks.map((c) => `checks.${c}`)].sort();
    assert.deepEqual([...SERVER_KEYS].sort(), expected);
    const full = translate({ compileCommandsDir: "b", "checks.select": ["OMP1"], docsBaseUrl: "u" }).settings;
    assert.deepEqual(Object.keys(full).sort(), [...top].sort());
    assert.deepEqual(Object.keys(full.checks).sort(), [...checks].sort());
  });

  it("has the server's default and cap for the debounce", () => {
    assert.match(source, new RegExp(`DEFAULT_DEBOUNCE_MS: u64 = ${DEFAULT_DEBOUNCE_MS};`));
    assert.match(source, new RegExp(`MAX_DEBOUNCE_MS: u64 = ${MAX_DEBOUNCE_MS.toString().replace(/\B(?=(\d{3})+$)/g, "_")};`));
  });
});
