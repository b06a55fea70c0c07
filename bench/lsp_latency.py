#!/usr/bin/env python3
"""Language-server latency and memory: omplens lsp beside clangd-19, measured in one run.

Usage: python3 bench/lsp_latency.py [--omplens [NAME=]PATH]... [--clangd PATH] [--edits N]
                                    [--lines N] [--files N] [--headers] [--json OUT]
                                    [--file PATH [--edit-in FUNCTION] [--edit-kind KIND]]

--file measures a real file instead of the generated one: its directory is copied to a
temporary one (so its local headers come along), and the edits add and remove a trailing
comment on a statement line inside FUNCTION (default `main`), one line per edit, between its
kernels (with --edit-kind code, a statement `(void)0;` instead). --omplens may be given
several times (NAME=PATH) to compare builds in one run.

Every server is started, then (the servers alternating, edit by edit):
  (a) edit latency: open a generated C++ file of --lines lines with many kernels, wait for
      its first diagnostics, then make --edits one-line edits inside one function (a
      constant in a kernel body changes), each a didChange with an incremental range, and
      time each until publishDiagnostics for that document version arrives. Median, min,
      max. clangd is asked for diagnostics on every change (`wantDiagnostics: true`, its
      protocol extension, so it does not debounce) unless --clangd-auto; omplens runs with
      its default debounce (50 ms) unless --debounce-ms.
  (b) cold open: didOpen to the first diagnostics of a fresh server; then --cold rounds of
      fresh servers (default 5), the servers alternating within each round, medians:
      omplens with an empty disk cache (OMPLENS_CACHE_DIR, as on a first session) and with
      the cache an earlier session left (the precompiled system headers of the file), clangd
      (which keeps nothing between sessions). The edit and memory runs start with an empty
      cache too.
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
    def __init__(self, cmd, cwd, env=None):
        self.proc = subprocess.Popen(
            cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd,
            env=env,
        )
        self.inbox = queue.Queue()
        self.next_id = 1
        self.stderr_lines = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def _read_stderr(self):
        for line in self.proc.stderr:
            self.stderr_lines.append(line.decode(errors="replace").rstrip("\n"))

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


def edit_targets_in(text, function):
    """Statement lines (index, end column) inside the body of `function`, in order."""
    lines = text.split("\n")
    start = None
    for i, l in enumerate(lines):
        stripped = l.strip()
        if (stripped.startswith(("int " + function + "(", "void " + function + "(",
                                 function + "("))
                and not stripped.endswith(";")):
            start = i
            break
    if start is None:
        raise SystemExit(f"no definition of {function} found")
    depth, out = 0, []
    for i in range(start, len(lines)):
        depth += lines[i].count("{") - lines[i].count("}")
        l = lines[i].rstrip()
        if i > start and depth >= 1 and l.endswith(";") and "//" not in l \
                and not l.lstrip().startswith("#"):
            out.append((i, len(l)))
        if i > start and depth == 0:
            break
    if not out:
        raise SystemExit(f"no statement line in {function}")
    return out


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


def profile_split(lines):
    """Medians of the parts `omplens: profile` lines name (libclang, lowering, analysis,
    publication), over the analyses after the first."""
    parts = {}
    for line in lines:
        if not line.startswith("omplens: profile "):
            continue
        for piece in line.split(": ", 2)[-1].split(", "):
            what, _, rest = piece.partition(" ")
            try:
                parts.setdefault(what, []).append(float(rest.split()[0]))
            except (ValueError, IndexError):
                pass
    return {k: statistics.median(v) for k, v in parts.items() if v}


def omplens_env(cache_dir, **extra):
    """The environment of an omplens server whose disk cache is `cache_dir`."""
    return dict(os.environ, OMPLENS_CACHE_DIR=cache_dir, **extra)


def cold_open_once(cmd, root, path, options, env):
    """didOpen to first diagnostics of a fresh server, in ms."""
    c = Client(cmd, root, env)
    try:
        initialize(c, root, options)
        text = open(path).read()
        t0 = time.perf_counter()
        uri = open_doc(c, path, text)
        t1, _ = c.diagnostics(uri, None)
        return (t1 - t0) * 1000
    finally:
        c.close()


def prime_cache(cmd, root, path, options, cache_dir, timeout=30.0):
    """Opens `path` in a server whose cache is `cache_dir` and waits until it has stored the
    precompiled headers of the file (what a later session finds)."""
    c = Client(cmd, root, omplens_env(cache_dir))
    try:
        initialize(c, root, options)
        uri = open_doc(c, path, open(path).read())
        c.diagnostics(uri, None)
        store = os.path.join(cache_dir, "pch-v1")
        end = time.perf_counter() + timeout
        while time.perf_counter() < end:
            if os.path.isdir(store) and any(n.endswith(".pch") for n in os.listdir(store)):
                return True
            time.sleep(0.1)
        return False
    finally:
        c.close()


def cold_opens(servers, path, rounds, scratch):
    """Median cold open per server over `rounds` rounds, the servers alternating within each
    round. `servers`: (label, cmd, options, env maker or None)."""
    root = os.path.dirname(path)
    times = {label: [] for label, *_ in servers}
    for r in range(rounds):
        for label, cmd, options, env_of in servers:
            env = env_of(os.path.join(scratch, f"{label}-{r}")) if env_of else None
            times[label].append(cold_open_once(cmd, root, path, options, env))
    return {label: statistics.median(v) for label, v in times.items()}


class Server:
    """One server of the comparison: how to start it and what to send with each change."""

    def __init__(self, name, cmd, options, change_extra):
        self.name, self.cmd, self.options, self.change_extra = name, cmd, options, change_extra
        self.omplens = name.startswith("omplens")

    def env(self, scratch, **extra):
        # omplens's disk cache starts empty (as on a first session).
        if not self.omplens:
            return None
        return omplens_env(tempfile.mkdtemp(prefix="cache-", dir=scratch), **extra)


def edit_change(k, line, col, piece):
    """Edit k: insert the piece (even k) or remove it again (odd k)."""
    end = col if k % 2 == 0 else col + len(piece)
    return {
        "range": {"start": {"line": line, "character": col},
                  "end": {"line": line, "character": end}},
        "text": piece if k % 2 == 0 else "",
    }


def measure(servers, files, edits, edit_in=None, scratch=None, edit_kind="comment"):
    """(b) cold open and (a) edits on one file, every server alive, the edits alternating
    between them (edit k goes to each server in turn, each waited for), so that a drift of
    the machine's speed falls on all alike; then (c) memory, one server at a time."""
    root = os.path.dirname(files[0])
    text0 = open(files[0]).read()
    if edit_in:
        # The middle statement line of the function: between its kernels in a driver.
        targets = edit_targets_in(text0, edit_in)
        line, col = targets[len(targets) // 2]
        # Either edit changes the function's part of the file for omplens: a new comment
        # inside it becomes a placeholder there, a statement changes its code.
        piece = " // edited" if edit_kind == "comment" else " (void)0;"
    else:
        line, col = edit_targets(text0, edits)
        piece = " + 0.0"
    results, live = [], []
    for srv in servers:
        res = {"server": srv.name}
        # omplens logs where each analysis's time goes.
        c = Client(srv.cmd, root, srv.env(scratch, OMPLENS_PROFILE="1"))
        initialize(c, root, srv.options)
        t0 = time.perf_counter()
        uri = open_doc(c, files[0], text0)
        t1, _ = c.diagnostics(uri, None)
        res["cold_open_ms"] = (t1 - t0) * 1000
        # What the server does in the background after an open (a preamble) must not fall
        # on the next server's open.
        time.sleep(3)
        results.append(res)
        live.append((srv, c, uri, []))
    for k in range(edits):
        for srv, c, uri, lat in live:
            version = k + 2
            params = {"textDocument": {"uri": uri, "version": version},
                      "contentChanges": [edit_change(k, line, col, piece)]}
            params.update(srv.change_extra)
            s = time.perf_counter()
            c.notify("textDocument/didChange", params)
            t, _ = c.diagnostics(uri, version)
            lat.append((t - s) * 1000)
    for res, (srv, c, _, lat) in zip(results, live):
        res["edit_ms"] = {
            "median": statistics.median(lat),
            "min": min(lat),
            "max": max(lat),
            "n": len(lat),
        }
        c.close()
        res["split_ms"] = profile_split(c.stderr_lines[1:])  # the first is the cold open
        res["open_split_ms"] = profile_split(c.stderr_lines[:1])

    # (c) memory after opening every file.
    for res, srv in zip(results, servers):
        c = Client(srv.cmd, root, srv.env(scratch))
        initialize(c, root, srv.options)
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
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--omplens", action="append",
                    help="[NAME=]PATH of an omplens binary; repeat to compare builds "
                         "(default: target/release/omplens)")
    ap.add_argument("--file", help="a real file to measure instead of the generated one")
    ap.add_argument("--edit-in", default="main",
                    help="with --file: the function whose statement lines are edited")
    ap.add_argument("--edit-kind", choices=["comment", "code"], default="comment",
                    help="with --file: each edit adds a trailing comment (default) or a "
                         "statement `(void)0;` to the line")
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
    ap.add_argument("--cold", type=int, default=5,
                    help="rounds of cold opens, each server fresh, alternating (0: none)")
    ap.add_argument("--clangd-auto", action="store_true",
                    help="do not ask clangd for immediate diagnostics (its debounce applies)")
    args = ap.parse_args()

    work = tempfile.mkdtemp(prefix="omplens-lsp-bench-")
    edit_in = None
    if args.file:
        src_dir = os.path.dirname(os.path.abspath(args.file))
        shutil.copytree(src_dir, os.path.join(work, "src"))
        work = os.path.join(work, "src")
        base = os.path.join(work, os.path.basename(args.file))
        edit_in = args.edit_in
    else:
        base = os.path.join(work, "f0.cpp")
        subprocess.run(
            [sys.executable, os.path.join(ROOT, "bench/gen_large.py"), base, "--lines",
             str(args.lines)],
            check=True,
        )
    if args.headers and not args.file:
        with open(base) as f:
            body = f.read()
        with open(base, "w") as f:
            f.write(HEADERS + body)
        cxx = shutil.which("clang++-19")
        if cxx:
            subprocess.run([cxx, "-fsyntax-only", "-fopenmp", "-std=c++17", base], check=True)
    files = [base]
    ext = os.path.splitext(base)[1]
    for i in range(1, args.files):
        p = os.path.join(work, f"omplens_bench_copy{i}{ext}")
        shutil.copy(base, p)
        files.append(p)
    flags = ["-std=c++17", "-fopenmp", "-I" + work]
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
    scratch = tempfile.mkdtemp(prefix="omplens-lsp-bench-cache-")
    opts = {} if args.debounce_ms is None else {"debounceMs": args.debounce_ms}
    builds = []
    for b in args.omplens or [os.path.join(ROOT, "target/release/omplens")]:
        name, _, path = b.rpartition("=")
        builds.append((f"omplens-{name}" if name else "omplens", path))
    clangd_cmd = [args.clangd, "--log=error", "--background-index=false"]
    servers = []
    if args.only in (None, "omplens"):
        servers += [Server(name, [path, "lsp"], opts, {}) for name, path in builds]
    if args.only in (None, "clangd"):
        servers.append(Server("clangd-19", clangd_cmd, {},
                              {} if args.clangd_auto else {"wantDiagnostics": True}))
    results = measure(servers, files, args.edits, edit_in, scratch, args.edit_kind)
    # (b') cold opens again, --cold rounds, the servers alternating in each round: omplens
    # with an empty disk cache (a first session) and with the cache an earlier session left
    # (the precompiled system headers of the file), beside clangd (which keeps nothing).
    cold = {}
    if args.cold > 0:
        servers = []
        if args.only in (None, "omplens"):
            for name, path in builds:
                warm = os.path.join(scratch, f"{name}-warm")
                primed = prime_cache([path, "lsp"], work, base, opts, warm)
                servers.append((f"{name} (empty cache)", [path, "lsp"], opts,
                                lambda d: omplens_env(d)))
                if primed:
                    servers.append((f"{name} (cache of an earlier session)", [path, "lsp"],
                                    opts, lambda d, w=warm: omplens_env(w)))
        if args.only in (None, "clangd"):
            servers.append(("clangd-19", clangd_cmd, {}, None))
        cold = cold_opens(servers, base, args.cold, scratch)
    for r in results:
        e = r["edit_ms"]
        print(f"{r['server']:10} edit->diagnostics median {e['median']:7.1f} ms "
              f"(min {e['min']:.1f}, max {e['max']:.1f}, n={e['n']}); "
              f"cold open {r['cold_open_ms']:7.1f} ms; "
              f"peak RSS after {r['files']} files {r['peak_rss_mib']:7.1f} MiB")
        if r.get("split_ms"):
            parts = ", ".join(f"{k} {v:.1f}" for k, v in r["split_ms"].items())
            print(f"{'':10} median split of an edit's analysis (ms): {parts}")
        if r.get("open_split_ms"):
            parts = ", ".join(f"{k} {v:.1f}" for k, v in r["open_split_ms"].items())
            print(f"{'':10} split of the first analysis (ms): {parts}")
    if cold:
        print(f"cold open, median of {args.cold} fresh servers each, alternating:")
        for label, ms in cold.items():
            ratio = ""
            if "clangd-19" in cold and label != "clangd-19":
                ratio = f" ({ms / cold['clangd-19']:.2f}x clangd)"
            print(f"{'':10} {label:45} {ms:7.1f} ms{ratio}")
    clangd = [r for r in results if r["server"].startswith("clangd")]
    for a in results:
        if clangd and a is not clangd[0]:
            b = clangd[0]
            print(f"ratio {a['server']}/clangd: "
                  f"edit median {a['edit_ms']['median'] / b['edit_ms']['median']:.2f}x, "
                  f"cold open {a['cold_open_ms'] / b['cold_open_ms']:.2f}x, "
                  f"memory {a['peak_rss_mib'] / b['peak_rss_mib']:.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"runs": results, "cold_open_ms": cold}, f, indent=2)
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
