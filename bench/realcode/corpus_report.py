#!/usr/bin/env python3
"""`omplens check` over the public corpora of issue 15, with counts per corpus.

Usage: corpus_report.py [--omplens PATH] [--hecbench SRC_DIR --hecdb DB_DIR]
                        [--dracc DRACC_OPENMP_SRC] [--ompdart EVALUATION_SRC]
                        [--list] [--code CODE] [--jobs N] [--json OUT]

Each corpus is given by path (the public checkouts are not part of this project):
- HeCBench: every file the compile database (made by hecbench_compdb.py) lists under
  SRC_DIR's `*-omp` benchmarks, with the Makefile's flags (`check -p DB_DIR`).
- DRACC: the OpenMP cases about data mapping (021-034, 049-051), each alone.
- OMPDart: the 9 expert versions of `evaluation/src` (the original, not `_stripped`/`_ompdart`),
  with `-std=c++14` for C++ as their Makefiles give.

Prints, per corpus: files, files with an error, errors, warnings, files stopped by the time
budget, files that could not be checked, and counts per code (errors/warnings). `--list`
prints every error (and with `--code`, every finding of that code) as `file:line: CODE
message`, for triage. Only the Python standard library is used.
"""

import argparse
import collections
import glob
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

OMPDART_EXPERTS = [
    "accuracy-omp/main.cpp",
    "ace-omp/main.cpp",
    "backprop-omp/main.cpp",
    "bfs/bfs.cpp",
    "clenergy-omp/clenergy.cpp",
    "hotspot/hotspot_openmp.cpp",
    "lulesh-omp/lulesh.cc",
    "nw/needle.cpp",
    "xsbench-omp/Simulation.cpp",
]
DRACC_CASES = [f"{n:03d}" for n in list(range(21, 35)) + [49, 50, 51]]


def run_check(omplens, args, jobs):
    cmd = [omplens, "check", "--format", "json", "--no-config", "-j", str(jobs)] + args
    t = time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    took = time.time() - t
    try:
        findings = json.loads(p.stdout) if p.stdout.strip() else []
    except json.JSONDecodeError:
        findings = []
        sys.stderr.write(f"not JSON from {' '.join(cmd[:6])} ...: {p.stdout[:200]}\n")
    return findings, p.returncode, took, p.stderr


def summarize(name, files, findings, rc, took, stderr):
    errors = [f for f in findings if f["severity"] == "error"]
    warnings = [f for f in findings if f["severity"] == "warning"]
    per_code = collections.Counter()
    for f in findings:
        per_code[(f["code"], f["severity"])] += 1
    # Notes that are not findings of a rule (compile errors, time-outs) carry no rule code.
    stopped = sum(1 for f in findings if "analysis stopped" in f["message"])
    unchecked = sum(1 for f in findings if f["code"] in ("", "OMP000") and f["severity"] == "error")
    err_files = {f["file"] for f in errors}
    print(f"## {name}")
    print(f"files {files}  files-with-error {len(err_files)}  errors {len(errors)}  "
          f"warnings {len(warnings)}  stopped {stopped}  exit {rc}  time {took:.1f}s")
    codes = sorted({c for c, _ in per_code})
    print("  " + "  ".join(
        f"{c} {per_code[(c, 'error')]}e/{per_code[(c, 'warning')]}w" for c in codes))
    if "panicked" in stderr:
        print("  PANIC in stderr")
    return {"corpus": name, "files": files, "errors": len(errors), "warnings": len(warnings),
            "files_with_error": len(err_files), "stopped": stopped, "unchecked": unchecked,
            "per_code": {f"{c}/{s}": n for (c, s), n in per_code.items()}}


def listing(findings, code):
    for f in sorted(findings, key=lambda f: (f["file"], f["range"]["start"]["line"])):
        if (code and f["code"] == code) or (not code and f["severity"] == "error"):
            line = f["range"]["start"]["line"]
            print(f"  {f['file']}:{line}: {f['code']} {f['severity']}: {f['message']}")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--omplens", default=os.path.join(ROOT, "target/release/omplens"))
    ap.add_argument("--hecbench")
    ap.add_argument("--hecdb")
    ap.add_argument("--dracc")
    ap.add_argument("--ompdart")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--code")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--json")
    a = ap.parse_args()
    report = []

    if a.dracc:
        files = []
        for n in DRACC_CASES:
            files += sorted(glob.glob(os.path.join(a.dracc, f"DRACC_OMP_{n}_*.c")))
        res = run_check(a.omplens, files, a.jobs)
        report.append(summarize("DRACC (mapping cases)", len(files), *res))
        by_case = collections.defaultdict(list)
        for f in res[0]:
            by_case[os.path.basename(f["file"])[:13]].append(
                f"{f['code']}{'e' if f['severity'] == 'error' else 'w'}:{f['range']['start']['line']}")
        for path in files:
            case = os.path.basename(path)[:13]
            print(f"  {os.path.basename(path)}: {' '.join(by_case[case]) or '-'}")
        if a.list:
            listing(res[0], a.code)

    if a.ompdart:
        files = [os.path.join(a.ompdart, f) for f in OMPDART_EXPERTS]
        all_findings, rc, took, err = [], 0, 0.0, ""
        for path in files:
            flags = ["--", "-std=c++14"] if not path.endswith(".c") else []
            fs, r, t, e = run_check(a.omplens, [path] + flags, a.jobs)
            all_findings += fs
            rc, took, err = max(rc, r), took + t, err + e
        report.append(summarize("OMPDart experts", len(files), all_findings, rc, took, err))
        if a.list:
            listing(all_findings, a.code)

    if a.hecbench and a.hecdb:
        with open(os.path.join(a.hecdb, "compile_commands.json")) as f:
            db = json.load(f)
        files = sorted({os.path.normpath(os.path.join(e["directory"], e["file"])) for e in db
                        if not e["file"].endswith((".cu", ".hip"))})
        files = [p for p in files if os.path.isfile(p) and p.startswith(os.path.abspath(a.hecbench))]
        res = run_check(a.omplens, ["-p", a.hecdb] + files, a.jobs)
        report.append(summarize("HeCBench *-omp (compile database)", len(files), *res))
        if a.list:
            listing(res[0], a.code)

    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)


if __name__ == "__main__":
    main()
