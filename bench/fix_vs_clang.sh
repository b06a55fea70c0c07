#!/usr/bin/env bash
# Wall time of `omplens fix FILE -o /dev/null --timings` against `clang -fsyntax-only -fopenmp`
# over every corpus program (tests/corpus/{c,cpp,omp52}) and every input of tests/fix/
# (NAME.c / NAME.cpp; not NAME.expert.* or NAME.fixed.*), or over the FILEs given.
#
# Per file, RUNS interleaved runs (omplens, clang, omplens, clang, ...) after WARMUP untimed
# ones; prints per file and in total: the median wall time of each (ms), the ratio
# omplens/clang, and omplens's own analysis time — analysis_ms + rewrite_ms from its
# `omplens-timings:` line (median) — next to its parse_ms (libclang parse + lowering).
# Totals are sums of the per-file medians; the total ratio is their quotient.
#
# Usage: bench/fix_vs_clang.sh [FILE...]
# Environment:
#   RUNS=N          timed runs per command and file (default 5)
#   WARMUP=K        untimed warm-up runs per command and file (default 1)
#   OMPLENS=PATH    use this omplens binary and skip `cargo build` (OMPLENS_BIN is read when
#                   OMPLENS is unset); default: build and use target/release/omplens
#   CLANG=clang-19 CLANGXX=clang++-19  compilers for the reference side
# C files get -std=gnu17 and C++ files -std=c++17 on both sides; tests/corpus/omp52 files also
# -fopenmp-version=52. `omplens fix` may exit 0 or 1 (1: fixed, with error diagnostics); any
# other status, or a missing timings line, is reported and makes the exit status 1.
# Results are also written as JSON to bench/out/fix_vs_clang.json.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BENCH="$ROOT/bench"
OUTDIR="$BENCH/out"
export RUNS="${RUNS:-5}"
export WARMUP="${WARMUP:-1}"
export CLANG="${CLANG:-clang-19}"
export CLANGXX="${CLANGXX:-clang++-19}"
mkdir -p "$OUTDIR"

OMPLENS="${OMPLENS:-${OMPLENS_BIN:-}}"
if [ -z "$OMPLENS" ]; then
  echo "== building omplens (release)" >&2
  (cd "$ROOT" && cargo build --release -q -p omplens) >&2
  OMPLENS="${CARGO_TARGET_DIR:-$ROOT/target}/release/omplens"
fi
case "$OMPLENS" in
  /*) ;;
  */*) OMPLENS="$PWD/$OMPLENS" ;;
esac
if ! command -v "$OMPLENS" >/dev/null 2>&1; then
  echo "error: OMPLENS=$OMPLENS is not executable" >&2
  exit 1
fi
export OMPLENS

if [ $# -gt 0 ]; then
  FILES=("$@")
else
  mapfile -t FILES < <(
    find "$ROOT/tests/corpus/c" "$ROOT/tests/corpus/cpp" "$ROOT/tests/corpus/omp52" \
      -maxdepth 1 -type f \( -name '*.c' -o -name '*.cpp' \) 2>/dev/null | sort
    find "$ROOT/tests/fix" -maxdepth 1 -type f \( -name '*.c' -o -name '*.cpp' \) 2>/dev/null \
      | grep -Ev '/[^/]*\.[^/]*\.[^/.]+$' | sort
  )
fi
if [ ${#FILES[@]} -eq 0 ]; then
  echo "error: no programs found under tests/corpus or tests/fix" >&2
  exit 1
fi

exec python3 - "$ROOT" "$OUTDIR/fix_vs_clang.json" "${FILES[@]}" <<'PY'
import json, os, re, shlex, statistics, sys

root, json_out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.path.insert(0, os.path.join(root, "bench"))
from timeit import run_once  # bench/timeit.py: (wall ms, exit code, stderr bytes)

runs, warmup = int(os.environ["RUNS"]), int(os.environ["WARMUP"])
if runs < 1:
    sys.exit("error: RUNS must be >= 1")
omplens = shlex.split(os.environ["OMPLENS"])
TIMINGS = re.compile(r"^omplens-timings:(.*)$", re.M)


def timings(stderr):
    """The numbers of the last `omplens-timings:` line, or None."""
    found = TIMINGS.findall(stderr.decode("utf-8", "replace"))
    if not found:
        return None
    fields = dict(kv.split("=", 1) for kv in found[-1].split() if "=" in kv)
    try:
        return {k: float(fields[k]) for k in ("parse_ms", "analysis_ms", "rewrite_ms", "total_ms")}
    except (KeyError, ValueError):
        return None


def commands(path):
    cxx = not path.endswith(".c")
    flags = ["-std=c++17"] if cxx else ["-std=gnu17"]
    if "/tests/corpus/omp52/" in os.path.abspath(path):
        flags.append("-fopenmp-version=52")
    compiler = os.environ["CLANGXX" if cxx else "CLANG"]
    return (omplens + ["fix", path, "-o", os.devnull, "--timings", "--"] + flags,
            [compiler, "-fsyntax-only", "-fopenmp"] + flags + [path])


results, failures = [], []
for n, path in enumerate(files, 1):
    rel = os.path.relpath(os.path.abspath(path), root)
    ocmd, ccmd = commands(path)
    o_ms, c_ms, parse, analysis = [], [], [], []
    problem = None

    def note(msg):
        global problem
        if problem is None:
            problem = msg

    for i in range(warmup + runs):
        ms, rc, err = run_once(ocmd)
        t = timings(err)
        if rc not in (0, 1):
            note("omplens fix exited %d: %s" % (rc, err.decode("utf-8", "replace")[-1500:]))
        elif t is None:
            note("no omplens-timings line on stderr")
        if i >= warmup:
            o_ms.append(ms)
            if t is not None:
                parse.append(t["parse_ms"])
                analysis.append(t["analysis_ms"] + t["rewrite_ms"])
        ms, rc, err = run_once(ccmd)
        if rc != 0:
            note("clang exited %d: %s" % (rc, err.decode("utf-8", "replace")[-1500:]))
        if i >= warmup:
            c_ms.append(ms)
    with open(path, "rb") as f:
        lines = f.read().count(b"\n")
    r = {"file": rel, "lines": lines,
         "omplens_ms": statistics.median(o_ms), "clang_ms": statistics.median(c_ms),
         "parse_ms": statistics.median(parse) if parse else None,
         "analysis_ms": statistics.median(analysis) if analysis else None,
         "samples": {"omplens_ms": o_ms, "clang_ms": c_ms, "parse_ms": parse,
                     "analysis_plus_rewrite_ms": analysis}}
    r["ratio"] = r["omplens_ms"] / r["clang_ms"] if r["clang_ms"] > 0 else float("inf")
    if problem:
        r["failed"] = problem
        failures.append((rel, problem))
    results.append(r)
    print("  [%d/%d] %s" % (n, len(files), rel), file=sys.stderr)


def fmt(v, spec="%.1f"):
    return "-" if v is None else spec % v


def total(key):
    vals = [r[key] for r in results]
    return None if any(v is None for v in vals) else sum(vals)


width = max(len("total (%d files)" % len(results)), *(len(r["file"]) for r in results))
print("omplens fix vs clang -fsyntax-only -fopenmp: medians of %d runs (ms)" % runs)
head = "%-*s %6s %11s %9s %7s %11s %9s" % (width, "file", "lines", "omplens ms", "clang ms",
                                          "ratio", "analysis ms", "parse ms")
print(head)
print("-" * len(head))
for r in results:
    print("%-*s %6d %11.1f %9.1f %6.2fx %11s %9s%s" % (
        width, r["file"], r["lines"], r["omplens_ms"], r["clang_ms"], r["ratio"],
        fmt(r["analysis_ms"], "%.2f"), fmt(r["parse_ms"]), "  FAILED" if "failed" in r else ""))
print("-" * len(head))
t_o, t_c = total("omplens_ms"), total("clang_ms")
t_a, t_p = total("analysis_ms"), total("parse_ms")
t_ratio = t_o / t_c if t_c > 0 else float("inf")
print("%-*s %6d %11.1f %9.1f %6.2fx %11s %9s" % (
    width, "total (%d files)" % len(results), sum(r["lines"] for r in results), t_o, t_c,
    t_ratio, fmt(t_a, "%.2f"), fmt(t_p)))
print()
print("total ratio omplens/clang: %.2fx (%.1f ms / %.1f ms)" % (t_ratio, t_o, t_c))
print("total analysis time (analysis_ms + rewrite_ms): %s ms" % fmt(t_a, "%.2f"))
for rel, msg in failures:
    print("FAILED: %s: %s" % (rel, msg), file=sys.stderr)

with open(json_out, "w") as f:
    json.dump({"runs": runs, "warmup": warmup, "omplens": os.environ["OMPLENS"],
               "files": results,
               "total": {"omplens_ms": t_o, "clang_ms": t_c, "ratio": t_ratio,
                         "analysis_ms": t_a, "parse_ms": t_p},
               "failed": [rel for rel, _ in failures]}, f, indent=2)
sys.exit(1 if failures else 0)
PY
