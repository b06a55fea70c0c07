#!/usr/bin/env python3
"""Interleaved wall-clock timing of several commands (stdlib only).

Usage:
  python3 bench/timeit.py [--runs N] [--warmup K] [--json OUT.json] [--title T]
                          --cmd NAME 'COMMAND LINE' [--cmd NAME 'COMMAND LINE' ...]

Each COMMAND LINE is split with shlex (no shell is involved, so no shell start-up
cost is measured); stdout goes to /dev/null, stderr is kept to report failures.
In every run the commands are executed one after another (interleaved), which
reduces the effect of slow drift (thermal, caches, other load) on the ratio.

Prints, per command: median / min / max wall time in milliseconds, and for every
command after the first the ratio of its median to the first command's median
(and the same ratio for min and max). Exit status 0 when every run of every
command exited 0, 1 otherwise, 2 on usage errors.
"""

import argparse
import json
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv):
    t0 = time.perf_counter()
    proc = subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE)
    t1 = time.perf_counter()
    return (t1 - t0) * 1000.0, proc.returncode, proc.stderr


def main(argv):
    ap = argparse.ArgumentParser(description="interleaved command timing")
    ap.add_argument("--runs", type=int, default=7, help="timed runs per command (default 7)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed warm-up runs per command (default 1)")
    ap.add_argument("--cmd", nargs=2, action="append", metavar=("NAME", "COMMAND"), required=True,
                    help="a named command line; give at least one")
    ap.add_argument("--json", help="also write the raw samples and summary to this file")
    ap.add_argument("--title", default="", help="heading printed above the table")
    args = ap.parse_args(argv)
    if args.runs < 1:
        ap.error("--runs must be >= 1")

    cmds = [(name, shlex.split(line)) for name, line in args.cmd]
    samples = {name: [] for name, _ in cmds}
    failures = {}

    def record_failure(name, rc, err):
        if name not in failures:
            failures[name] = (rc, err.decode("utf-8", "replace")[-2000:])

    for _ in range(args.warmup):
        for name, argv_ in cmds:
            _, rc, err = run_once(argv_)
            if rc != 0:
                record_failure(name, rc, err)
    for _ in range(args.runs):
        for name, argv_ in cmds:
            ms, rc, err = run_once(argv_)
            samples[name].append(ms)
            if rc != 0:
                record_failure(name, rc, err)

    summary = {}
    for name, _ in cmds:
        s = samples[name]
        summary[name] = {"median_ms": statistics.median(s), "min_ms": min(s), "max_ms": max(s),
                         "runs": len(s)}

    if args.title:
        print(args.title)
    width = max(len(n) for n, _ in cmds)
    print("  %-*s %11s %11s %11s" % (width, "command", "median ms", "min ms", "max ms"))
    for name, _ in cmds:
        r = summary[name]
        print("  %-*s %11.1f %11.1f %11.1f" % (width, name, r["median_ms"], r["min_ms"], r["max_ms"]))
    base_name = cmds[0][0]
    base = summary[base_name]
    for name, _ in cmds[1:]:
        r = summary[name]
        ratio = {k: (base[k] / r[k] if r[k] > 0 else float("inf")) for k in ("median_ms", "min_ms", "max_ms")}
        summary[name]["ratio_%s_over_this" % base_name] = ratio
        print("  ratio %s/%s: median %.2fx (min %.2fx, max %.2fx)"
              % (base_name, name, ratio["median_ms"], ratio["min_ms"], ratio["max_ms"]))
    for name, (rc, err) in failures.items():
        print("  FAILED: %s exited %d; stderr tail:\n%s" % (name, rc, err), file=sys.stderr)

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"title": args.title, "commands": {n: " ".join(shlex.quote(a) for a in a_)
                                                         for n, a_ in cmds},
                       "samples_ms": samples, "summary": summary,
                       "failed": sorted(failures)}, f, indent=2)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
