#!/usr/bin/env python3
"""Strip & regenerate over HeCBench's `*-omp` benchmarks, under the host-offload oracle.

The HeCBench part of issue 16, deliverable 6; `strip_regenerate.py` is the OMPDart part and
this script follows it (and imports its `run`, `clean`, compiler flags and `judge`). For every
`src/*-omp` benchmark that is runnable here, three versions are built with clang-19 host
offloading (`-O1 -g -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu`, run with
`OMP_TARGET_OFFLOAD=MANDATORY LIBOMPTARGET_INFO=35`, 2 threads):

  expert     the benchmark as published (hand-written mappings)
  replace    `omplens fix --replace -o - FILE -- FLAGS` on every source file of the benchmark
             with a `#pragma omp target`; if omplens refuses one file (exit status not 0 or
             nothing written) the version is REFUSED(exit) with its gap lines
  checkfix   `omplens check --fix --no-config FILE -- FLAGS` on each such file, in a copy

and judged as `strip_regenerate.py` judges: the reference is the expert built with `-O1 -g
-fopenmp` and no offload target; `ok` = the reference's stdout (lines that report times dropped,
`strip_regenerate.TIMING`), the files the run writes (same rule) and exit status, and no kernel
launched with a pointer that has no device data; `UNMAPPED` when only the last fails; `WRONG`
otherwise; `NOBUILD`; `TIMEOUT`. Bytes: host->device + device->host from the INFO log, counted by
`oracle_log` (`tests/src/bin/oracle_log.rs`).

Runnable: C/C++ sources only (from the compile database that `hecbench_compdb.py` writes from
the Makefiles), at least one `#pragma omp target`, no MPI, a `run` target that runs the program
from its directory (`$(LAUNCHER)` is empty), every file its arguments name present in the
checkout, the reference builds with clang-19 (the Makefile's `-D`/`-U`/`-I`/`-std`/`-x`/
`-include` flags kept, icpx's and optimisation flags dropped; `-l`/`-L` of LDFLAGS kept),
the reference finishes within `--timeout` at the Makefile's arguments or at the arguments
scaled down (`scale_down`: integers >= 100 divided by about 100, then by about 10,000; else
"too slow at its run arguments"), it does not crash, and the expert is `ok` on host offload
(else "expert wrong on host offload", the issue's wording, with its status; "reference output
not deterministic" when a second reference run differs); a reference that exits non-zero with
no byte offloaded by the expert (a data file opened by a fixed name is absent) is skipped too.
Versions on host offload get twice `--timeout`. Build trees go to `--keep` (else a temporary
directory), each result as it comes to KEEP/results.jsonl; `--report KEEP/results.jsonl` prints
the report of such a run again.

Usage: hecbench_regenerate.py [--hecbench SRC] [--compdb DIR] [--omplens BIN]
       [--oracle-log BIN] [--only NAME...] [--versions expert,replace,checkfix] [--jobs N]
       [--keep DIR] [--limit N] [--timeout S] [--report RESULTS_JSONL]
"""

import argparse
import hashlib
import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hecbench_compdb as compdb  # noqa: E402  (Makefile reader)
import strip_regenerate as sr  # noqa: E402  (run, clean, flags, judge)

CC = "clang-19"
TARGET_RE = re.compile(r"^\s*#\s*pragma\s+omp\s+target\b", re.M)
MPI_RE = re.compile(r"#\s*include\s*[<\"]mpi\.h[>\"]")
# Flags of the database's command lines that clang gets as they are (with their argument when
# separate); everything else (icpx's -fiopenmp/-qnextgen/-fopenmp-targets=spir64, -O3,
# -ffast-math, -Wall, -c, -o) is dropped: the oracle's own flags replace them.
KEEP_JOINED = ("-D", "-U", "-I", "-std=", "-include", "-isystem")
KEEP_SEPARATE = {"-D", "-U", "-I", "-x", "-include", "-isystem"}
# Arguments that look like input files (checked for presence before anything is built).
FILEISH = re.compile(r"(/|\.(txt|dat|bin|csv|pgm|ppm|bmp|png|jpg|raw|avi|mtx|inp|in|gr|graph|"
                     r"su|fa|fasta|fastq|xyz|obj|off|json|cfg|conf|mat|h5|tar|gz|zip)$)", re.I)


def scale_down(args, steps):
    """The run arguments `steps` steps smaller: each step divides every integer of at least
    100 by 16 when it is a power of two (it stays one), else by 10. Benchmarks take sizes and
    iteration counts this way; a scaling that breaks one shows as a reference that fails or
    an expert that is not ok, and the benchmark is skipped."""
    out = []
    for a in args:
        for _ in range(steps):
            if re.fullmatch(r"\d+", a) and int(a) >= 100:
                n = int(a)
                a = str(n // 16 if n & (n - 1) == 0 else n // 10)
        out.append(a)
    return out


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def translate(words, src_dir, file):
    """Clang flags from a database command line: kept flags, relative include directories
    made absolute when they leave the benchmark's directory (the copy lives elsewhere)."""
    out, i = [], 1
    while i < len(words):
        a = words[i]
        arg = None
        if a in KEEP_SEPARATE and i + 1 < len(words):
            arg = words[i + 1]
            i += 2
        else:
            i += 1
            if not a.startswith(KEEP_JOINED):
                continue
        if a == "-x" or a in ("-D", "-U"):
            out += [a, arg]
            continue
        if arg is None:  # joined: -Ifoo, -std=c++17, -DX=1
            if a.startswith(("-I", "-isystem")) and not a.startswith("-include"):
                flag = "-I" if a.startswith("-I") else "-isystem"
                arg = a[len(flag):]
                a = flag
            else:
                out.append(a)
                continue
        if a in ("-I", "-isystem", "-include") and not os.path.isabs(arg):
            full = os.path.normpath(os.path.join(src_dir, arg))
            if not (full + os.sep).startswith(src_dir + os.sep):
                arg = full
        out += [a, arg]
    if file.endswith(".c") and "-x" not in out and not is_c_driver(words[0]):
        out = ["-x", "c++"] + out  # icpx/clang++ compile .c as C++
    return out


def is_c_driver(cc):
    base = os.path.basename(cc)
    return "++" not in base and base in ("icx", "cc", "gcc", "clang", "mpicc") or \
        re.match(r"^(gcc|clang)-\d+$", base) is not None


class HecBench:
    """One `*-omp` benchmark: its sources with their flags, link libraries and run command.
    Duck-typed for `strip_regenerate.judge` (`tree`, `build`, `execute`)."""

    def __init__(self, name, src, entries, work, timeout):
        self.name, self.src, self.timeout = name, src, timeout
        self.work = os.path.join(work, name)
        self.files = []  # (relative path, clang flags, C driver?)
        for e in entries:
            words = shlex.split(e["command"])
            self.files.append((e["file"], translate(words, src, e["file"]),
                               is_c_driver(words[0]) and e["file"].endswith(".c")))
        self.compilers = {os.path.basename(shlex.split(e["command"])[0]) for e in entries}
        self.libs, self.prog, self.args, self.run_timeout = [], "main", [], timeout
        self.targets = []

    # -- what the Makefile says ---------------------------------------------------------
    def read_makefile(self):
        """None, or why the benchmark is not runnable here."""
        env, rules, cwd = compdb.read_makefile(os.path.join(self.src, "Makefile"))
        env["LAUNCHER"] = ""
        for w in compdb.expand(env.get("LDFLAGS", ""), env, cwd).split():
            if w.startswith(("-l", "-L")):
                self.libs.append(w)
        recipe = next((r for t, _, r in rules if "run" in t), None)
        if recipe is None:
            return "no run target"
        cmds = []
        for line in recipe:
            line = compdb.expand(line.lstrip("@-"), env, cwd)
            cmds += [c.strip() for c in re.split(r"&&|;", line) if c.strip()]
        for c in cmds:
            words = shlex.split(c)
            if not words:
                continue
            if words[0] in ("mpirun", "mpiexec", "srun"):
                return "MPI"
            if words[0] == "cd":
                return "run command changes directory"
            if words[0].startswith("./"):
                if words[0].endswith(".sh"):
                    return "run target runs a script"
                if any(w in ("<", ">", "|", ">>") or w.startswith(("<", ">")) for w in words):
                    return "run command redirects"
                self.prog = words[0][2:]
                self.args = self.orig_args = words[1:]
                break
        else:
            return "no run command for the program"
        for a in self.args:
            if a.startswith("-") or not FILEISH.search(a):
                continue
            if os.path.exists(os.path.normpath(os.path.join(self.src, a))):
                continue
            if not re.search(r"(?i)out|result", os.path.basename(a)):  # not one it writes
                return "data file absent"
        return None

    def static_skip(self):
        if not self.files:
            return "no sources in the compile database"
        bad = [f for f, _, _ in self.files if not f.endswith((".c", ".cpp", ".cc", ".cxx"))]
        if bad:
            return "not C/C++ sources"
        if any(c.startswith("mpi") for c in self.compilers):
            return "MPI"
        texts = {f: open(os.path.join(self.src, f), errors="replace").read()
                 for f, _, _ in self.files}
        if any(MPI_RE.search(t) for t in texts.values()):
            return "MPI"
        self.targets = [f for f, t in texts.items() if TARGET_RE.search(t)]
        if not self.targets:
            return "no target construct"
        return self.read_makefile()

    def flags_of(self, file):
        return next(fl for f, fl, _ in self.files if f == file)

    # -- the interface strip_regenerate.judge uses ---------------------------------------
    def tree(self, tag, texts):
        d = os.path.join(self.work, tag)
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(self.src, d, symlinks=True)
        for f, text in (texts or {}).items():
            with open(os.path.join(d, f), "w", errors="surrogateescape", newline="") as out:
                out.write(text)
        return d

    def build(self, d, flags):
        objs = []
        for f, fl, c in self.files:
            obj = f"_omplens_{len(objs)}.o"
            cmd = [CC if c else sr.CXX] + flags + fl + ["-c", f, "-o", obj]
            rc, _, err = sr.run(cmd, cwd=d, timeout=600)
            if rc != 0:
                return False, err or f"timeout compiling {f}"
            objs.append(obj)
        rc, _, err = sr.run([sr.CXX] + flags + objs + ["-o", self.prog] + self.libs + ["-lm"],
                            cwd=d, timeout=600)
        return rc == 0, err

    def execute(self, d, oracle_log):
        env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY", LIBOMPTARGET_INFO="35",
                   LD_LIBRARY_PATH=sr.LIBDIR + ":" + os.environ.get("LD_LIBRARY_PATH", ""),
                   OMP_NUM_THREADS="2")
        env.pop("LIBOMPTARGET_DEBUG", None)
        before = snapshot(d)
        t0 = time.time()
        rc, out, err = sr.run([os.path.join(d, self.prog)] + self.args, cwd=d, env=env,
                              timeout=self.run_timeout)
        # a run that timed out leaves bytes (subprocess does not decode them)
        out, err = (t.decode(errors="replace") if isinstance(t, bytes) else t for t in (out, err))
        secs = time.time() - t0
        files = {}
        for name, stamp in snapshot(d).items():
            if before.get(name) != stamp:
                files[name] = digest(os.path.join(d, name))
        summary = {}
        if oracle_log:
            p = os.path.join(self.work, os.path.basename(d) + ".stderr.txt")
            with open(p, "w") as f:
                f.write(err)
            _, line, _ = sr.run([oracle_log, p])
            for field in line.split():
                k, _, v = field.partition("=")
                summary[k] = v
        return dict(rc=rc, out=out, files=files, secs=secs, log=summary, err=err)


def snapshot(d):
    out = {}
    for root, _, names in os.walk(d):
        for n in names:
            p = os.path.join(root, n)
            try:
                st = os.stat(p)
            except OSError:
                continue
            out[os.path.relpath(p, d)] = (st.st_size, st.st_mtime_ns)
    return out


def digest(path):
    """A written file, compared as `strip_regenerate` compares stdout (time lines dropped)."""
    data = open(path, "rb").read()
    try:
        if len(data) < (16 << 20):
            data = sr.clean(data.decode()).encode()
    except UnicodeDecodeError:
        pass
    return hashlib.sha1(data).hexdigest()


def rewrite(b, omplens, version):
    """({file: text}, 0, notes) that omplens writes for `version`, or (None, exit, lines)."""
    d = b.tree(version + "-in", None)
    texts, notes = {}, []
    for f in b.targets:
        if version == "replace":
            cmd = [omplens, "fix", "--replace", "-o", "-", f]
        else:
            cmd = [omplens, "check", "--fix", "--no-config", f]
        rc, out, err = sr.run(cmd + ["--"] + b.flags_of(f), cwd=d, timeout=600)
        if "panicked" in err:
            notes.append(f"PANIC in {f}: " + next(l for l in err.splitlines() if "panicked" in l))
        if version == "checkfix":
            if rc not in (0, 1):
                return None, rc, [f"{f}: " + l for l in err.splitlines()[-4:]] + notes
            texts[f] = open(os.path.join(d, f), errors="surrogateescape", newline="").read()
        else:
            if rc != 0 or not out:
                gaps = [l for l in err.splitlines() if "gap" in l or "error" in l][:4]
                return None, rc, [f"{f}: " + l for l in (gaps or err.splitlines()[-2:])] + notes
            texts[f] = out
    return texts, 0, notes


def one(name, args, entries, work, state):
    """(status row) or ("SKIP", reason, detail)."""
    with state["lock"]:
        if args.limit and state["runnable"] >= args.limit:
            return None
    src = os.path.join(args.hecbench, name)
    b = HecBench(name, src, entries, work, args.timeout)
    why = b.static_skip()
    if why:
        return ("SKIP", why, "")
    d = b.tree("reference", None)
    ok, err = b.build(d, sr.HOST)
    if not ok:
        m = re.search(r"fatal error: '([^']+)' file not found", err)
        if m:
            return ("SKIP", "reference does not build: header absent", m.group(1))
        first = next((l for l in err.splitlines() if "error" in l), err.strip()[:200])
        return ("SKIP", "reference does not build with clang-19", first[:200])
    reference = b.execute(d, None)
    for steps in (2, 4):  # too slow: scale the arguments down (about 100x, then 10,000x)
        smaller = scale_down(b.orig_args, steps)
        if reference["rc"] is not None or smaller == b.args:
            break
        b.args = smaller
        reference = b.execute(d, None)
    if reference["rc"] is None:
        return ("SKIP", "too slow at its run arguments",
                f"> {args.timeout} s: {shlex.join(b.args)}")
    if reference["rc"] < 0:
        return ("SKIP", "reference crashes", f"signal {-reference['rc']}")
    b.run_timeout = 2 * args.timeout
    row = {"_ref": dict(rc=reference["rc"], secs=reference["secs"], args=b.args,
                        scaled=b.args != b.orig_args)}
    expert = sr.judge(b, "expert", None, reference, args.oracle_log)
    if expert["status"] != "ok":
        if expert["status"] == "WRONG":
            again = b.execute(d, None)
            if sr.clean(again["out"]) != sr.clean(reference["out"]) or \
                    again["files"] != reference["files"]:
                return ("SKIP", "reference output not deterministic", "")
        detail = expert["status"]
        if expert.get("unmapped"):
            detail += " " + expert["unmapped"][:80]
        if expert.get("detail"):
            detail += " " + " ".join(expert["detail"])[:160]
        return ("SKIP", "expert wrong on host offload", detail)
    if reference["rc"] and not expert["bytes"]:
        return ("SKIP", "reference fails at its run arguments, nothing offloaded",
                f"exit {reference['rc']}")
    with state["lock"]:
        if args.limit and state["runnable"] >= args.limit:
            return None
        state["runnable"] += 1
    row["expert"] = expert
    for v in args.versions:
        if v == "expert":
            continue
        texts, rc, notes = rewrite(b, args.omplens, v)
        if texts is None:
            row[v] = dict(status=f"REFUSED({rc})", detail=notes)
        else:
            row[v] = sr.judge(b, v, texts, reference, args.oracle_log)
            if notes:
                row[v]["detail"] = notes + row[v].get("detail", [])
    return row


def cell(r):
    s = r.get("status", "?")
    if "bytes" in r and s not in ("NOBUILD",):
        s += f" {r['bytes']:,} B"
    if r.get("unmapped"):
        s += f" [{r['unmapped'][:50]}]"
    return s


def report(cols, results, total, limit, secs):
    """The table, the totals, the skips by reason and the details of what is not ok."""
    results = sorted(results)
    rows = {n: r for n, r in results if isinstance(r, dict)}
    skips = {n: tuple(r) for n, r in results if isinstance(r, (tuple, list))}
    print("| benchmark | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for n, row in rows.items():
        cells = [cell(row.get(c, {})) for c in cols]
        ref = row["_ref"]
        label = n + (f" `{shlex.join(ref['args'])}`" if ref["scaled"] else "") + \
            (f" (exit {ref['rc']})" if ref["rc"] else "")
        print(f"| {label} | " + " | ".join(cells) + " |")
    print(f"\nRunnable: {len(rows)} of {total} benchmarks"
          f"{' (--limit reached)' if limit and len(rows) >= limit else ''};"
          f" {secs:.0f} s.")
    kinds = ["ok", "UNMAPPED", "WRONG", "NOBUILD", "TIMEOUT", "REFUSED"]
    print("\n| version | " + " | ".join(kinds) + " |")
    print("|---|" + "---|" * len(kinds))
    for c in cols:
        counts = [sum(1 for r in rows.values() if r.get(c, {}).get("status", "").startswith(k))
                  for k in kinds]
        print(f"| {c} | " + " | ".join(map(str, counts)) + " |")
    if "replace" in cols:
        both = [r for r in rows.values() if r.get("replace", {}).get("status") == "ok"]
        le = sum(1 for r in both if r["replace"]["bytes"] <= r["expert"]["bytes"])
        print(f"\nreplace ok: {len(both)}; with bytes <= expert: {le}")
    if "checkfix" in cols:
        both = [r for r in rows.values() if r.get("checkfix", {}).get("status") == "ok"]
        le = sum(1 for r in both if r["checkfix"]["bytes"] <= r["expert"]["bytes"])
        print(f"checkfix ok: {len(both)}; with bytes <= expert: {le}")
    print(f"\nSkipped: {len(skips)}")
    reasons = {}
    for n, (_, why, detail) in skips.items():
        reasons.setdefault(why, []).append((n, detail))
    for why, items in sorted(reasons.items(), key=lambda kv: -len(kv[1])):
        print(f"- {why}: {len(items)}")
        for n, detail in items:
            print(f"    {n}" + (f": {detail}" if detail else ""))
    print("\nNot ok:")
    for n, row in rows.items():
        for c in cols:
            r = row.get(c, {})
            if r.get("status") != "ok" or r.get("detail"):
                print(f"- {n} {c}: {r.get('status')}")
                for l in r.get("detail") or []:
                    print(f"    {l}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hecbench", default="/work/ext/hec/src", help="HeCBench's src directory")
    ap.add_argument("--compdb", default="/tmp/hecdb",
                    help="directory of the compile_commands.json of hecbench_compdb.py")
    ap.add_argument("--omplens", default="target/release/omplens")
    ap.add_argument("--oracle-log", default="target/release/oracle_log")
    ap.add_argument("--only", nargs="*", help="benchmark names (with or without -omp)")
    ap.add_argument("--versions", default="expert,replace,checkfix")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", help="keep the build trees here")
    ap.add_argument("--limit", type=int, help="stop after this many runnable benchmarks")
    ap.add_argument("--timeout", type=int, default=20,
                    help="seconds for a reference run (versions on host offload: twice that)")
    ap.add_argument("--report", metavar="RESULTS_JSONL",
                    help="only print the report of an earlier run (KEEP/results.jsonl)")
    args = ap.parse_args()
    args.versions = args.versions.split(",")
    if args.report:
        results = [tuple(json.loads(l)) for l in open(args.report)]
        versions = [v for v in ("expert", "replace", "checkfix")
                    if any(isinstance(r, dict) and v in r for _, r in results)]
        report(versions, results, len(results), None, 0)
        return
    if "expert" not in args.versions:
        args.versions.insert(0, "expert")  # runnable needs the expert ok
    args.omplens = os.path.abspath(args.omplens)
    args.oracle_log = os.path.abspath(args.oracle_log)
    args.hecbench = os.path.abspath(args.hecbench)
    with open(os.path.join(args.compdb, "compile_commands.json")) as f:
        db = json.load(f)
    by_dir = {}
    for e in db:
        by_dir.setdefault(os.path.basename(e["directory"]), []).append(e)
    names = sorted(n for n in os.listdir(args.hecbench)
                   if n.endswith("-omp") and os.path.isdir(os.path.join(args.hecbench, n)))
    if args.only:
        want = {n if n.endswith("-omp") else n + "-omp" for n in args.only}
        names = [n for n in names if n in want]
    work = args.keep or tempfile.mkdtemp(prefix="omplens-hec-")
    os.makedirs(work, exist_ok=True)
    state = {"lock": threading.Lock(), "runnable": 0}
    if os.path.exists(os.path.join(work, "results.jsonl")):
        os.remove(os.path.join(work, "results.jsonl"))
    t0 = time.time()

    def task(n):
        try:
            r = one(n, args, by_dir.get(n, []), work, state)
        except Exception as ex:  # a benchmark this script does not understand
            r = ("SKIP", "harness error", f"{type(ex).__name__}: {ex}")
        if r is not None:
            with state["lock"], open(os.path.join(work, "results.jsonl"), "a") as f:
                f.write(json.dumps([n, r]) + "\n")
            log(f"[{time.time() - t0:6.0f} s] {n}: " +
                (f"skip: {r[1]} {r[2]}" if isinstance(r, tuple) else
                 " ".join(f"{v}={cell(r[v])}" for v in args.versions if v in r)))
        return n, r

    with ThreadPoolExecutor(args.jobs) as ex:
        results = list(ex.map(task, names))
    report(args.versions, [(n, r) for n, r in results if r is not None], len(names),
           args.limit, time.time() - t0)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
