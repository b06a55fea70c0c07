#!/usr/bin/env python3
"""`omplens check` over a whole tree beside `clang -fsyntax-only` on the same files, one run.

Usage: check_tree.py COMPILE_COMMANDS_DIR [--omplens PATH] [--clang PATH] [--jobs 1,2]
                     [--limit N] [--slowest 10] [--json OUT] [--lsp-file PATH [--lsp-edits N]]

For every file of the compile database (CUDA/HIP sources left out), and for each job count:
- omplens: one `omplens check -p DIR -j J --no-config FILES...` over all files (its own
  scheduling), wall time and the peak resident set of the process (getrusage of children);
- clang: `clang -fsyntax-only` with the database's own command line for each file (its
  `-fopenmp` kept, output and dependency flags dropped), J at a time; wall time and the
  largest peak resident set of one clang process.
Then, for the slowest files: each file alone through `omplens check` and clang (per-file
times, the ratio). Prints files/s, the time ratio omplens/clang at each job count, exit
statuses and the slowest files. With --lsp-file, last, the language-server comparison of
`bench/lsp_latency.py --file PATH` (edit -> diagnostics, cold open, memory, beside clangd-19)
for the same omplens. `check` keeps its precompiled system headers in omplens's cache
(`OMPLENS_CACHE_DIR`): empty that directory's `pch-v1` to measure a first run. Only the
Python standard library is used.
"""

import argparse
import concurrent.futures
import json
import os
import resource
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SKIP_EXT = (".cu", ".hip")
# Flags of a build line that make clang write files or need another toolchain.
DROP_WITH_ARG = {"-o", "-MF", "-MT", "-MQ"}
DROP = ("-c", "-MD", "-MMD", "-MP", "-M", "-MM")


def entries(db_dir, limit):
    with open(os.path.join(db_dir, "compile_commands.json")) as f:
        db = json.load(f)
    out, seen = [], set()
    for e in db:
        path = os.path.normpath(os.path.join(e["directory"], e["file"]))
        if path.endswith(SKIP_EXT) or path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        args = e.get("arguments") or shlex.split(e["command"])
        out.append((path, e["directory"], args))
    out.sort()
    return out[:limit] if limit else out


# Flags of other compilers that clang rejects, and their clang spelling (None: dropped), so the
# clang baseline parses what omplens parses instead of stopping at an unknown argument.
TRANSLATE_PREFIX = {
    "-qopenmp": "-fopenmp", "-fiopenmp": "-fopenmp", "--fiopenmp": "-fopenmp",
    "-fopenmp-targets": None, "-Xopenmp-target": None, "--offload-arch": None, "-fsycl": None,
    "-qnextgen": None, "-cxx=": None, "-gpu=": None, "-mp=": None, "-march=sm_": None,
    "-march=gfx": None, "--gcc-toolchain": None, "-fopenmp-target-fast": None,
}


def clang_line(clang, path, cwd, args):
    """The database's command as a syntax-only clang line (first word: the compiler)."""
    line, skip = [clang, "-fsyntax-only"], False
    for a in args[1:]:
        if skip:
            skip = False
            continue
        if a in DROP_WITH_ARG or a == "-Xopenmp-target":
            skip = True
            continue
        if a in DROP or a.startswith(("-o", "-MF")):
            continue
        if os.path.normpath(os.path.join(cwd, a)) == path:
            continue
        prefix = next((k for k in TRANSLATE_PREFIX if a.startswith(k)), None)
        if prefix is not None:
            if TRANSLATE_PREFIX[prefix]:
                line.append(TRANSLATE_PREFIX[prefix])
            continue
        line.append(a)
    line.append(path)
    return line


def run_clang(clang, jobs, files):
    peak = 0
    statuses = {}

    def one(item):
        path, cwd, args = item
        t0 = time.perf_counter()
        p = subprocess.run(clang_line(clang, path, cwd, args), cwd=cwd, capture_output=True)
        return path, p.returncode, time.perf_counter() - t0

    t0 = time.perf_counter()
    per_file = {}
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
        for path, rc, dt in ex.map(one, files):
            statuses[rc] = statuses.get(rc, 0) + 1
            per_file[path] = dt
    wall = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return wall, peak, statuses, per_file


def run_omplens(omplens, db_dir, jobs, files):
    cmd = ["/usr/bin/time", "-f", "omplens-peak-kib %M", omplens, "check", "-p", db_dir, "-j",
           str(jobs), "--no-config", "--format", "json"]
    cmd += [p for p, _, _ in files]
    t0 = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    peak = 0
    for line in p.stderr.splitlines():
        if line.startswith("omplens-peak-kib "):
            peak = int(line.split()[1])
    stderr = [l for l in p.stderr.splitlines() if not l.startswith("omplens-peak-kib ")]
    try:
        findings = json.loads(p.stdout or "[]")
    except json.JSONDecodeError:
        findings = []
    errors = sum(1 for f in findings if f.get("severity") == "error")
    panics = p.stderr.count("panicked")  # internal errors name the panic
    stopped = p.stderr.count("analysis stopped after")
    return {
        "wall_s": wall,
        "exit": p.returncode,
        "findings": len(findings),
        "errors": errors,
        "panics": panics,
        "stopped": stopped,
        "peak_rss_mib": peak / 1024,
        "stderr_tail": stderr[-1:],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("db_dir")
    ap.add_argument("--omplens", default=os.path.join(ROOT, "target/release/omplens"))
    ap.add_argument("--clang", default=shutil.which("clang-19") or "clang-19")
    ap.add_argument("--jobs", default="1,2")
    ap.add_argument("--limit", type=int, default=0, help="only the first N files (sorted)")
    ap.add_argument("--slowest", type=int, default=10)
    ap.add_argument("--json")
    ap.add_argument("--lsp-file", help="also run bench/lsp_latency.py --file on this file")
    ap.add_argument("--lsp-edits", type=int, default=30)
    args = ap.parse_args()

    files = entries(os.path.abspath(args.db_dir), args.limit)
    print(f"{len(files)} files from {args.db_dir}/compile_commands.json (CUDA/HIP left out)")
    res = {"files": len(files), "runs": []}
    per_file_clang = {}
    for j in [int(x) for x in args.jobs.split(",")]:
        o = run_omplens(args.omplens, os.path.abspath(args.db_dir), j, files)
        c_wall, c_peak, c_status, per_file = run_clang(args.clang, j, files)
        per_file_clang = per_file
        run = {"jobs": j, "omplens": o, "clang": {"wall_s": c_wall, "statuses": c_status,
                                                 "peak_rss_mib": c_peak}}
        res["runs"].append(run)
        print(f"-j{j}: omplens {o['wall_s']:.1f} s ({len(files) / o['wall_s']:.1f} files/s, "
              f"exit {o['exit']}, {o['errors']} errors, {o['findings']} findings, "
              f"{o['panics']} panics, {o['stopped']} stopped, peak RSS {o['peak_rss_mib']:.0f} MiB)"
              f"; clang -fsyntax-only {c_wall:.1f} s ({len(files) / c_wall:.1f} files/s, "
              f"exit statuses {c_status}); ratio omplens/clang {o['wall_s'] / c_wall:.2f}x")
        if o["stderr_tail"]:
            print(f"      omplens: {o['stderr_tail'][0]}")

    slow = sorted(per_file_clang.items(), key=lambda kv: -kv[1])[: args.slowest]
    by_path = {p: (cwd, a) for p, cwd, a in files}
    print(f"slowest {len(slow)} files by clang time, each alone:")
    rows = []
    for path, c_dt in slow:
        t0 = time.perf_counter()
        subprocess.run([args.omplens, "check", "-p", os.path.abspath(args.db_dir), "--no-config",
                        path], capture_output=True)
        o_dt = time.perf_counter() - t0
        rows.append({"file": path, "omplens_s": o_dt, "clang_s": c_dt})
        print(f"  {os.path.relpath(path, args.db_dir) if path.startswith('/') else path}: "
              f"omplens {o_dt:.2f} s, clang {c_dt:.2f} s, {o_dt / c_dt:.2f}x")
    res["slowest"] = rows
    if args.lsp_file:
        cmd = [sys.executable, os.path.join(ROOT, "bench", "lsp_latency.py"), "--omplens",
               args.omplens, "--file", args.lsp_file, "--edits", str(args.lsp_edits),
               "--files", "1"]
        p = subprocess.run(cmd, capture_output=True, text=True)
        print(f"language server on {args.lsp_file}:")
        print(p.stdout.rstrip() or p.stderr.rstrip())
        res["lsp"] = p.stdout
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
