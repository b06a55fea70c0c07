#!/usr/bin/env python3
"""Language-server latency and memory: omplens lsp beside clangd-19, measured in one run.

Usage: python3 bench/lsp_latency.py [--omplens PATH] [--clangd PATH] [--edits N]
                                    [--lines N] [--files N] [--headers] [--json OUT]

For each server (omplens, then clangd):
  (a) edit latency: open a generated C++ file of --lines lines with many kernels, wait for
      its first diagnostics, then make --edits one-line edits inside one function (a
      constant in a kernel body changes), each a didChange with an incremental range, and
      time each until publishDiagnostics for that document version arrives. Median, min,
      max. clangd is asked for diagnostics on every change (`wantDiagnostics: true`, its
      protocol extension, so it does not debounce) unless --clangd-auto; omplens runs with
      its default debounce (50 ms) unless --debounce-ms.
  (b) cold open: didOpen to the first diagnostics of a fresh server.
  (c) memory: the server's peak resident set (VmHWM) after opening --files such files and
      receiving diagnostics for all of them.
With --headers the file starts with heavy C++ standard headers (<vector>, <algorithm>, <map>,
<string>, <iostream>): a fresh parse then spends most of its time in them, which a server
that keeps a precompiled preamble skips on edits. The file is checked to compile with
`clang++-19 -fsyntax-only -fopenmp -std=c++17` first.
Only the Python standard library is used.
"""

import argparse
import json
import os
import queue
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = ("#include <vector>\n#include <algorithm>\n#include <map>\n#include <string>\n"
           "#include <iostream>\n")


class Client:
    def __init__(self, cmd, cwd):
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd
        )
        self.inbox = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        out = self.proc.stdout
        while True:
            headers = {}
            while True:
                line = out.readline()
                if not line:
                    self.inbox.put(None)
                    return
                line = line.strip()
                if not line:
                    break
                k, _, v = line.decode().partition(":")
                headers[k.strip().lower()] = v.strip()
            body = out.read(int(headers["content-length"]))
            self.inbox.put((time.perf_counter(), json.loads(body)))

    def send(self, msg):
        data = json.dumps(msg).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.proc.stdin.flush()

    def request(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == i and "method" not in m)

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait(self, pred, timeout=120.0):
        end = time.perf_counter() + timeout
        while True:
            left = end - time.perf_counter()
            if left <= 0:
                raise TimeoutError("no matching message")
            try:
                item = self.inbox.get(timeout=left)
            except queue.Empty:
                raise TimeoutError("no matching message within the timeout") from None
            if item is None:
                raise RuntimeError("server exited")
            t, m = item
            # Answer server-to-client requests (registrations, progress, configuration).
            if "id" in m and "method" in m:
                result = [] if m["method"] == "workspace/configuration" else None
                self.send({"jsonrpc": "2.0", "id": m["id"], "result": result})
                continue
            if pred(m):
                return t, m

    def diagnostics(self, uri, version=None, timeout=120.0):
        def ok(m):
            if m.get("method") != "textDocument/publishDiagnostics":
                return False
            p = m["params"]
            return p["uri"] == uri and (version is None or p.get("version") == version)

        return self.wait(ok, timeout)

    def peak_rss_kib(self):
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
        return None

    def close(self):
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def initialize(c, root, options):
    c.request(
        "initialize",
        {
            "processId": os.getpid(),
            "rootUri": "file://" + root,
            "capabilities": {
                "textDocument": {
                    "publishDiagnostics": {"versionSupport": True, "relatedInformation": True},
                    "synchronization": {"didSave": True},
                },
                "window": {"workDoneProgress": False},
            },
            "initializationOptions": options,
        },
    )
    c.notify("initialized", {})


def open_doc(c, path, text):
    uri = "file://" + path
    c.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1, "text": text}},
    )
    return uri


def edit_targets(text, count):
    """(line, column, old, new) for one-line edits inside one function: constants in the
    body of the first kernel loop of the file's middle."""
    lines = text.split("\n")
    mid = len(lines) // 2
    for i in range(mid, len(lines)):
        if "#pragma omp target teams distribute parallel for" in lines[i]:
            body = i + 2  # the statement under the `for`
            col = lines[body].find(";")
            if col > 0:
                return body, col
    raise SystemExit("no kernel found in the generated file")


def measure(name, cmd, options, files, edits, change_extra):
    root = os.path.dirname(files[0])
    res = {"server": name}
    text0 = open(files[0]).read()

    # (b) cold open and (a) edits on one file.
    c = Client(cmd, root)
    initialize(c, root, options)
    t0 = time.perf_counter()
    uri = open_doc(c, files[0], text0)
    t1, _ = c.diagnostics(uri, None)
    res["cold_open_ms"] = (t1 - t0) * 1000
    line, col = edit_targets(text0, edits)
    lat = []
    version = 1
    for k in range(edits):
        version += 1
        # Insert ` + 0.0` (even k) or remove it again (odd k) before the `;`.
        if k % 2 == 0:
            change = {
                "range": {"start": {"line": line, "character": col},
                          "end": {"line": line, "character": col}},
                "text": " + 0.0",
            }
        else:
            change = {
                "range": {"start": {"line": line, "character": col},
                          "end": {"line": line, "character": col + 6}},
                "text": "",
            }
        params = {"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}
        params.update(change_extra)
        s = time.perf_counter()
        c.notify("textDocument/didChange", params)
        t, _ = c.diagnostics(uri, version)
        lat.append((t - s) * 1000)
    res["edit_ms"] = {
        "median": statistics.median(lat),
        "min": min(lat),
        "max": max(lat),
        "n": len(lat),
    }
    c.close()

    # (c) memory after opening every file.
    c = Client(cmd, root)
    initialize(c, root, options)
    uris = {open_doc(c, f, open(f).read()) for f in files}
    seen = set()

    def all_seen(m):
        if m.get("method") == "textDocument/publishDiagnostics":
            seen.add(m["params"]["uri"])
        return uris <= seen

    c.wait(all_seen, timeout=600)
    res["peak_rss_mib"] = (c.peak_rss_kib() or 0) / 1024
    res["files"] = len(files)
    c.close()
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--omplens", default=os.path.join(ROOT, "target/release/omplens"))
    ap.add_argument("--clangd", default=shutil.which("clangd-19") or "clangd-19")
    ap.add_argument("--edits", type=int, default=21)
    ap.add_argument("--lines", type=int, default=2500)
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--headers", action="store_true",
                    help="prepend #include <vector>, <algorithm>, <map>, <string>, <iostream>")
    ap.add_argument("--json")
    ap.add_argument("--only", choices=["omplens", "clangd"])
    ap.add_argument("--debounce-ms", type=int,
                    help="omplens debounceMs (default: the server's own, 50 ms)")
    ap.add_argument("--clangd-auto", action="store_true",
                    help="do not ask clangd for immediate diagnostics (its debounce applies)")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="omplens-lsp-bench-")
    base = os.path.join(work, "f0.cpp")
    subprocess.run(
        [sys.executable, os.path.join(ROOT, "bench/gen_large.py"), base, "--lines", str(args.lines)],
        check=True,
    )
    if args.headers:
        with open(base) as f:
            body = f.read()
        with open(base, "w") as f:
            f.write(HEADERS + body)
        cxx = shutil.which("clang++-19")
        if cxx:
            subprocess.run([cxx, "-fsyntax-only", "-fopenmp", "-std=c++17", base], check=True)
    files = [base]
    for i in range(1, args.files):
        p = os.path.join(work, f"f{i}.cpp")
        shutil.copy(base, p)
        files.append(p)
    flags = ["-std=c++17", "-fopenmp"]
    with open(os.path.join(work, "compile_commands.json"), "w") as f:
        json.dump(
            [{"directory": work, "file": p,
              "arguments": ["clang++-19", *flags, "-c", p]} for p in files],
            f,
        )
    lines = sum(1 for _ in open(base))
    print(f"file: {lines} lines{' (with C++ standard headers)' if args.headers else ''}, "
          f"{open(base).read().count('#pragma omp target')} target pragmas; "
          f"{args.edits} edits; {args.files} files for memory")

    results = []
    if args.only in (None, "omplens"):
        opts = {} if args.debounce_ms is None else {"debounceMs": args.debounce_ms}
        results.append(measure("omplens", [args.omplens, "lsp"], opts, files, args.edits, {}))
    if args.only in (None, "clangd"):
        results.append(
            measure("clangd-19", [args.clangd, "--log=error", "--background-index=false"], {},
                    files, args.edits, {} if args.clangd_auto else {"wantDiagnostics": True})
        )
    for r in results:
        e = r["edit_ms"]
        print(f"{r['server']:10} edit->diagnostics median {e['median']:7.1f} ms "
              f"(min {e['min']:.1f}, max {e['max']:.1f}, n={e['n']}); "
              f"cold open {r['cold_open_ms']:7.1f} ms; "
              f"peak RSS after {r['files']} files {r['peak_rss_mib']:7.1f} MiB")
    if len(results) == 2:
        a, b = results
        print(f"ratio omplens/clangd: edit median {a['edit_ms']['median'] / b['edit_ms']['median']:.2f}x, "
              f"cold open {a['cold_open_ms'] / b['cold_open_ms']:.2f}x, "
              f"memory {a['peak_rss_mib'] / b['peak_rss_mib']:.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
