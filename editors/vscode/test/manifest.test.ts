// package.json against the code, and the code against the server's sources.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { COMMANDS, LANGUAGES, SECTION, SERVER_COMMANDS } from "../src/ids";
import { CLIENT_KEYS, readRaw, SERVER_KEYS, toServerSettings } from "../src/settings";

const root = path.resolve(__dirname, "../..");

interface Manifest {
  name: string;
  version: string;
  main: string;
  license: string;
  repository?: { url?: string };
  engines: { vscode: string };
  activationEvents: string[];
  devDependencies: Record<string, string>;
  dependencies?: Record<string, string>;
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    menus: Record<string, { command: string }[]>;
    configuration: { properties: Record<string, { default?: unknown; type: string }> };
  };
}

const manifest = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as Manifest;
const properties = manifest.contributes.configuration.properties;

describe("package.json", () => {
  it("activates on C and C++", () => {
    assert.deepEqual(
      [...manifest.activationEvents].sort(),
      LANGUAGES.map((l) => `onLanguage:${l}`).sort(),
    );
  });

  it("declares exactly the settings the extension reads", () => {
    const expected = [...SERVER_KEYS, ...CLIENT_KEYS].map((k) => `${SECTION}.${k}`).sort();
    assert.deepEqual(Object.keys(properties).sort(), expected);
  });

  it("has defaults that translate to the server's defaults without problems", () => {
    const raw = readRaw((k) => properties[`${SECTION}.${k}`].default);
    const { settings, problems } = toServerSettings(raw, { env: {} });
    assert.deepEqual(problems, []);
    assert.deepEqual(settings, {
      flags: [],
      checks: { ignore: [] },
      inlayHints: true,
      codeLens: true,
      debounceMs: 50,
    });
  });

  it("contributes exactly the extension's commands, none with a server command's name", () => {
    const ids = manifest.contributes.commands.map((c) => c.command).sort();
    assert.deepEqual(ids, Object.values(COMMANDS).sort());
    for (const id of ids) {
      assert.ok(!(Object.values(SERVER_COMMANDS) as string[]).includes(id), id);
    }
    const titles = manifest.contributes.commands.map((c) => `${c.category}: ${c.title}`).sort();
    assert.deepEqual(titles, [
      "omplens: Insert data mappings (file)",
      "omplens: Insert data mappings (function)",
      "omplens: Restart server",
      "omplens: Show mapping plan",
      "omplens: Show output",
    ]);
  });

  it("has menus that name contributed commands", () => {
    const ids = new Set(manifest.contributes.commands.map((c) => c.command));
    for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
      for (const item of items) {
        assert.ok(ids.has(item.command), `${menu}: ${item.command}`);
      }
    }
  });

  it("bundles its dependencies: nothing is needed at run time but VS Code", () => {
    assert.equal(manifest.main, "./out/extension.js");
    assert.deepEqual(manifest.dependencies ?? {}, {});
    assert.ok("vscode-languageclient" in manifest.devDependencies);
    const ignore = fs.readFileSync(path.join(root, ".vscodeignore"), "utf8");
    assert.match(ignore, /^!out\/extension\.js$/m);
  });

  it("pins every dev dependency", () => {
    for (const [name, version] of Object.entries(manifest.devDependencies)) {
      assert.match(version, /^\d+\.\d+\.\d+$/, name);
    }
  });

  it("targets a VS Code no newer than its @types/vscode", () => {
    // vsce refuses to package otherwise.
    const engine = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(manifest.engines.vscode);
    assert.ok(engine, manifest.engines.vscode);
    const types = manifest.devDependencies["@types/vscode"].split(".").map(Number);
    const min = engine.slice(1).map(Number);
    assert.ok(types[0] < min[0] || (types[0] === min[0] && types[1] <= min[1]), `${types.join(".")} vs ${min.join(".")}`);
  });

  it("has what vsce asks for on a terminal: a repository and a license file", () => {
    assert.ok(manifest.repository?.url);
    const license = fs.readFileSync(path.join(root, "LICENSE"), "utf8");
    assert.match(license, /Apache License\s+Version 2\.0/);
    assert.equal(manifest.license, "Apache-2.0");
  });

  it("has the version of the omplens workspace", () => {
    const cargo = fs.readFileSync(path.join(root, "../../Cargo.toml"), "utf8");
    const m = /\[workspace\.package\][^[]*?version = "([^"]+)"/.exec(cargo);
    assert.ok(m, "workspace version not found");
    assert.equal(manifest.version, m[1]);
    assert.match(cargo, new RegExp(`license = "${manifest.license}"`));
  });
});

describe("the server's command names (server/src/lsp/actions.rs)", () => {
  it("are the ones the extension sends", () => {
    const actions = fs.readFileSync(path.join(root, "../../server/src/lsp/actions.rs"), "utf8");
    const declared = [...actions.matchAll(/pub const \w+: &str = "(omplens\.[^"]+)";/g)].map((m) => m[1]).sort();
    assert.deepEqual(declared, Object.values(SERVER_COMMANDS).sort());
  });
});
