import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, describe, it } from "node:test";
import { isExecutableFile, resolveExecutable, type ResolveInput } from "../src/executable";

/** A POSIX machine whose executables are `exes`. */
function posix(exes: string[], over: Partial<ResolveInput> = {}): ResolveInput {
  return {
    env: { PATH: "/usr/local/bin:/usr/bin" },
    platform: "linux",
    workspaceFolder: "/w",
    home: "/home/u",
    isExecutable: (p) => exes.includes(p),
    ...over,
  };
}

describe("resolveExecutable: the omplens.path setting", () => {
  it("takes an absolute path that is executable", () => {
    assert.deepEqual(resolveExecutable(posix(["/opt/omplens"], { configured: "/opt/omplens" })), {
      ok: true,
      path: "/opt/omplens",
      source: "setting",
    });
  });

  it("explains an absolute path that is not executable, without searching PATH", () => {
    const r = resolveExecutable(posix(["/usr/bin/omplens"], { configured: "/opt/nope/omplens" }));
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.message.includes("/opt/nope/omplens is not an executable file"), JSON.stringify(r));
  });

  it("takes a relative path from the workspace folder", () => {
    const r = resolveExecutable(posix(["/w/target/release/omplens"], { configured: "target/release/omplens" }));
    assert.deepEqual(r, { ok: true, path: "/w/target/release/omplens", source: "setting" });
  });

  it("refuses a relative path with no workspace folder", () => {
    const r = resolveExecutable(posix([], { configured: "./omplens", workspaceFolder: undefined }));
    assert.ok(!r.ok && /relative and no workspace folder/.test(r.message), JSON.stringify(r));
  });

  it("searches PATH for a bare name", () => {
    const r = resolveExecutable(posix(["/usr/bin/omplens-dev"], { configured: "omplens-dev" }));
    assert.deepEqual(r, { ok: true, path: "/usr/bin/omplens-dev", source: "setting" });
    const missing = resolveExecutable(posix([], { configured: "omplens-dev" }));
    assert.ok(!missing.ok && missing.message.includes("no executable of that name is on PATH"));
  });

  it("expands ~ and variables", () => {
    const exes = ["/home/u/bin/omplens", "/w/bin/omplens", "/x/omplens"];
    const r = (configured: string, env: Record<string, string> = {}) =>
      resolveExecutable(posix(exes, { configured, env: { PATH: "", ...env } }));
    assert.deepEqual(r("~/bin/omplens"), { ok: true, path: "/home/u/bin/omplens", source: "setting" });
    assert.deepEqual(r("${userHome}/bin/omplens"), { ok: true, path: "/home/u/bin/omplens", source: "setting" });
    assert.deepEqual(r("${workspaceFolder}/bin/omplens"), { ok: true, path: "/w/bin/omplens", source: "setting" });
    assert.deepEqual(r("${env:OMPLENS_DIR}/omplens", { OMPLENS_DIR: "/x" }), {
      ok: true,
      path: "/x/omplens",
      source: "setting",
    });
  });

  it("reports a variable it cannot expand", () => {
    const r = resolveExecutable(posix([], { configured: "${workspaceFolder}/omplens", workspaceFolder: undefined }));
    assert.ok(!r.ok && r.message.includes("${workspaceFolder} has no value"), JSON.stringify(r));
  });

  it("rejects a setting that is not a string", () => {
    const r = resolveExecutable(posix(["/usr/bin/omplens"], { configured: ["/usr/bin/omplens"] }));
    assert.ok(!r.ok && r.message.includes("must be a string"));
  });

  it("searches when the setting is blank", () => {
    for (const configured of [undefined, null, "", "   "]) {
      assert.deepEqual(resolveExecutable(posix(["/usr/bin/omplens"], { configured })), {
        ok: true,
        path: "/usr/bin/omplens",
        source: "PATH",
      });
    }
  });
});

describe("resolveExecutable: searching", () => {
  it("takes the first PATH entry that has it", () => {
    const r = resolveExecutable(posix(["/usr/bin/omplens", "/usr/local/bin/omplens"]));
    assert.deepEqual(r, { ok: true, path: "/usr/local/bin/omplens", source: "PATH" });
  });

  it("never runs one from a relative or empty PATH entry", () => {
    const r = resolveExecutable(
      posix(["omplens", "bin/omplens", "/b/omplens"], { env: { PATH: ":.:bin:/b" } }),
    );
    assert.deepEqual(r, { ok: true, path: "/b/omplens", source: "PATH" });
  });

  it("falls back to ~/.cargo/bin", () => {
    const r = resolveExecutable(posix(["/home/u/.cargo/bin/omplens"]));
    assert.deepEqual(r, { ok: true, path: "/home/u/.cargo/bin/omplens", source: "cargo" });
  });

  it("says what it tried when there is none", () => {
    const r = resolveExecutable(posix([]));
    assert.ok(!r.ok);
    assert.ok(!r.ok && r.message.includes("not found on PATH or in /home/u/.cargo/bin"), r.ok ? "" : r.message);
    assert.ok(!r.ok && r.message.includes("omplens.path"));
    const noHome = resolveExecutable(posix([], { home: undefined, env: {} }));
    assert.ok(!noHome.ok && noHome.message.includes("not found on PATH."));
  });

  it("uses Windows' Path, separators and PATHEXT", () => {
    const win: ResolveInput = {
      env: { Path: "C:\\tools;C:\\bin", PATHEXT: ".COM;.EXE" },
      platform: "win32",
      home: "C:\\Users\\u",
      isExecutable: (p) => p === "C:\\bin\\omplens.exe" || p === "D:\\o\\omplens.exe",
    };
    assert.deepEqual(resolveExecutable(win), { ok: true, path: "C:\\bin\\omplens.exe", source: "PATH" });
    assert.deepEqual(resolveExecutable({ ...win, configured: "D:\\o\\omplens" }), {
      ok: true,
      path: "D:\\o\\omplens.exe",
      source: "setting",
    });
    assert.deepEqual(resolveExecutable({ ...win, env: {} , isExecutable: (p) => p === "C:\\Users\\u\\.cargo\\bin\\omplens.exe" }), {
      ok: true,
      path: "C:\\Users\\u\\.cargo\\bin\\omplens.exe",
      source: "cargo",
    });
  });
});

describe("isExecutableFile (real files)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "omplens-exe-"));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const exe = path.join(dir, "omplens");
  const plain = path.join(dir, "notes.txt");
  fs.writeFileSync(exe, "#!/bin/sh\n");
  fs.chmodSync(exe, 0o755);
  fs.writeFileSync(plain, "x");
  fs.chmodSync(plain, 0o644);

  it("tells executables from other things", { skip: process.platform === "win32" && "no execute bit on Windows" }, () => {
    assert.equal(isExecutableFile(exe), true);
    assert.equal(isExecutableFile(plain), false);
    assert.equal(isExecutableFile(dir), false);
    assert.equal(isExecutableFile(path.join(dir, "missing")), false);
  });

  it("finds a real executable through PATH", { skip: process.platform === "win32" && "POSIX paths" }, () => {
    const r = resolveExecutable({
      env: { PATH: `/nonexistent-omplens-dir:${dir}` },
      platform: process.platform,
      home: path.join(dir, "no-home"),
      isExecutable: isExecutableFile,
    });
    assert.deepEqual(r, { ok: true, path: exe, source: "PATH" });
  });
});
