#!/usr/bin/env python3
"""Strip & regenerate on OMPDart's nine evaluation benchmarks, under the host-offload oracle.

For each benchmark of `lmarzen/ompdart` (`evaluation/src`), up to five versions of the file
that holds the kernels are built with clang-19 host offloading (the same oracle as the tests:
`-O1 -g -fopenmp -fopenmp-targets=x86_64-unknown-linux-gnu`, run with
`OMP_TARGET_OFFLOAD=MANDATORY LIBOMPTARGET_INFO=35`) and run on scaled-down arguments:

  expert     the benchmark as published (hand-written mappings)
  ompdart    OMPDart's output as its authors fixed it by hand (`*_ompdart_modified`)
  fix        `omplens fix` on the stripped version (`*_stripped`: every mapping removed)
  replace    `omplens fix --replace` on the expert version
  checkfix   `omplens check --fix` on the expert version

The reference output is the expert built with `-fopenmp` and no offload target (target
regions run on the host); for `fix` it is the stripped version built the same way (LULESH's
stripped file defines VERIFY, which prints every intermediate array: a stricter test). A version is `ok` when it prints the reference (lines that report
times are dropped from both), writes the same output files, exits as the reference does
(XSBench's reduced problem fails its built-in checksum, exit 1, in every version) and no kernel used a
pointer with no device data; `UNMAPPED` when only the last fails; `WRONG` otherwise.
`REFUSED(n)`: omplens wrote nothing and exited n. `NOBUILD`: the written file does not
compile. Bytes are host->device + device->host, from the INFO log, parsed by the tests'
parser (`tests/src/bin/oracle_log.rs`).

Inputs that the benchmarks read from files (bfs's graph, hotspot's grids) are generated
here with a fixed seed, small: the published datasets are a download this machine cannot
reach.

Usage: strip_regenerate.py --ompdart DIR [--omplens BIN] [--oracle-log BIN] [--only NAME...]
       [--versions expert,ompdart,fix,replace,checkfix] [--keep DIR] [--jobs N]
"""

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

CXX = "clang++-19"
OFFLOAD = ["-O1", "-g", "-fopenmp", "-fopenmp-targets=x86_64-unknown-linux-gnu"]
HOST = ["-O1", "-g", "-fopenmp"]
LIBDIR = "/usr/lib/llvm-19/lib"
TIMING = re.compile(r"(?i)(time|elapsed|seconds|\bsec\b|runtime|FOM|throughput|lookups/s|"
                    r"GFLOP|rate|bandwidth|efficiency|performance)")


def gen_bfs(d):
    """A connected random graph in Rodinia's format: nodes (start, degree), source, edges."""
    rnd = random.Random(7)
    n = 2000
    adj = [[] for _ in range(n)]
    for i in range(1, n):
        j = rnd.randrange(i)
        adj[i].append(j)
        adj[j].append(i)
    for _ in range(3 * n):
        a, b = rnd.randrange(n), rnd.randrange(n)
        if a != b:
            adj[a].append(b)
            adj[b].append(a)
    lines = [str(n)]
    at = 0
    for a in adj:
        lines.append(f"{at} {len(a)}")
        at += len(a)
    lines += ["", "0", "", str(at)]
    lines += [f"{b} {rnd.randrange(1, 10)}" for a in adj for b in a]
    with open(os.path.join(d, "graph.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")


def gen_hotspot(d, n=64):
    rnd = random.Random(11)
    with open(os.path.join(d, "temp"), "w") as f:
        f.writelines(f"{320 + 20 * rnd.random():.6f}\n" for _ in range(n * n))
    with open(os.path.join(d, "power"), "w") as f:
        f.writelines(f"{0.001 * rnd.random():.6f}\n" for _ in range(n * n))


# name: dir, the file with the kernels, stripped / ompdart versions, other sources, flags,
# run arguments (scaled down from the Makefile's), output files, input generator, and text
# substitutions applied to every version of the main file (sizes a benchmark hard-codes).
BENCHMARKS = {
    "accuracy": dict(dir="accuracy-omp", main="main.cpp", stripped="main_stripped.cpp",
                     ompdart="main_ompdart_modified.cpp", others=[], flags=["-std=c++14"],
                     args=["2048", "1000", "10", "5"]),
    "ace": dict(dir="ace-omp", main="main.cpp", stripped="main_stripped.cpp",
                ompdart="main_ompdart_modified.cpp", others=[], flags=["-std=c++14"],
                args=["10"]),
    "backprop": dict(dir="backprop-omp", main="main.cpp", stripped="main_stripped.cpp",
                     ompdart="main_ompdart_modified.cpp",
                     others=["backprop.cpp", "facetrain.cpp", "imagenet.cpp"],
                     flags=["-std=c++14"], args=["4096"]),
    "bfs": dict(dir="bfs", main="bfs.cpp", stripped="bfs_stripped.cpp",
                ompdart="bfs_ompdart_modified.cpp", others=[], flags=["-DOMP_OFFLOAD"],
                args=["2", "graph.txt"], outputs=["result.txt"], gen=gen_bfs),
    "clenergy": dict(dir="clenergy-omp", main="clenergy.cpp", stripped="clenergy_stripped.cpp",
                     ompdart="clenergy_ompdart_modified.cpp", others=["WKFUtils.cpp"],
                     flags=["-std=c++14"], args=[],
                     subst=[("atomcount = 1000000", "atomcount = 9000"),
                            ("volsize.x = 768", "volsize.x = 64"),
                            ("volsize.y = 768", "volsize.y = 64")]),
    "hotspot": dict(dir="hotspot", main="hotspot_openmp.cpp",
                    stripped="hotspot_openmp_stripped.cpp",
                    ompdart="hotspot_openmp_ompdart_modified.cpp", others=[],
                    flags=["-DOMP_OFFLOAD", "-Wno-writable-strings"],
                    args=["64", "64", "5", "2", "temp", "power", "output.out"],
                    outputs=["output.out"], gen=gen_hotspot),
    "lulesh": dict(dir="lulesh-omp", main="lulesh.cc", stripped="lulesh_stripped.cc",
                   ompdart="lulesh_ompdart_modified.cc",
                   others=["lulesh-init.cc", "lulesh-util.cc", "lulesh-viz.cc"],
                   flags=["-std=c++14"], args=["-i", "20", "-s", "12", "-r", "11", "-b", "1",
                                                "-c", "1"]),
    "nw": dict(dir="nw", main="needle.cpp", stripped="needle_stripped.cpp",
               ompdart="needle_ompdart_modified.cpp", others=[],
               flags=["-DOMP_OFFLOAD", "-Wno-unused-comparison"], args=["256", "10", "2"],
               outputs=["result.txt"]),
    "xsbench": dict(dir="xsbench-omp", main="Simulation.cpp", stripped="Simulation_stripped.cpp",
                    ompdart="Simulation_ompdart_modified.cpp",
                    others=["Main.cu", "io.cu", "GridInit.cu", "Materials.cu", "XSutils.cu"],
                    flags=["-std=c++14"], lang_others="c++",
                    args=["-s", "small", "-m", "event", "-l", "20000", "-g", "200"]),
}
# The stripped LULESH defines VERIFY (every intermediate array printed, copied back for it);
# OMPDart's authors removed that line from their hand-fixed version, whose bytes are the bar.
# This row compares like with like: the same stripped file without it.
BENCHMARKS["lulesh-noverify"] = dict(BENCHMARKS["lulesh"],
                                     subst=[("#define VERIFY\n", "\n")])


def run(cmd, cwd=None, env=None, timeout=600):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True,
                           errors="replace", timeout=timeout)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        return None, e.stdout or "", e.stderr or ""


def clean(text):
    return "\n".join(l for l in text.splitlines() if not TIMING.search(l))


class Bench:
    def __init__(self, name, cfg, src_root, work):
        self.name, self.cfg = name, cfg
        self.src = os.path.join(src_root, cfg["dir"])
        self.work = os.path.join(work, name)
        os.makedirs(self.work, exist_ok=True)

    def tree(self, tag, main_text):
        """A copy of the benchmark's directory with `main` replaced by `main_text` (the
        substitutions applied to the main, stripped and ompdart files of the copy)."""
        d = os.path.join(self.work, tag)
        shutil.rmtree(d, ignore_errors=True)
        shutil.copytree(self.src, d)
        if main_text is not None:
            with open(os.path.join(d, self.cfg["main"]), "w") as f:
                f.write(main_text)
        self.write_database(d)
        for name in (self.cfg["main"], self.cfg["stripped"], self.cfg["ompdart"]):
            p = os.path.join(d, name)
            text = open(p, errors="replace").read()
            for old, new in self.cfg.get("subst", []):
                text = text.replace(old, new)
            with open(p, "w") as f:
                f.write(text)
        return d

    def write_database(self, d):
        """The compile database of the build (what `bear -- make` records), so omplens reads
        the benchmark's other files as it would in a user's project."""
        entries = []
        for name in [self.cfg["main"]] + self.cfg["others"]:
            lang = ["-x", self.cfg["lang_others"]] if (
                name != self.cfg["main"] and self.cfg.get("lang_others")) else []
            entries.append({"directory": d, "file": name,
                            "arguments": [CXX, "-fopenmp"] + self.cfg["flags"] + lang
                            + ["-c", name]})
        with open(os.path.join(d, "compile_commands.json"), "w") as f:
            json.dump(entries, f, indent=1)

    def build(self, d, flags):
        sources = [self.cfg["main"]]
        cmd = [CXX] + flags + self.cfg["flags"] + sources
        if self.cfg.get("lang_others"):
            cmd += ["-x", self.cfg["lang_others"]]
        cmd += self.cfg["others"] + ["-lm", "-o", "prog"]
        rc, _, err = run(cmd, cwd=d)
        return rc == 0, err

    def execute(self, d, oracle_log):
        rundir = os.path.join(d, "_omplens_run")
        os.makedirs(rundir, exist_ok=True)
        if self.cfg.get("gen"):
            self.cfg["gen"](rundir)
        env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY", LIBOMPTARGET_INFO="35",
                   LD_LIBRARY_PATH=LIBDIR + ":" + os.environ.get("LD_LIBRARY_PATH", ""),
                   OMP_NUM_THREADS="2")
        env.pop("LIBOMPTARGET_DEBUG", None)
        t0 = time.time()
        rc, out, err = run([os.path.join(d, "prog")] + self.cfg["args"], cwd=rundir, env=env,
                           timeout=180)
        secs = time.time() - t0
        files = {}
        for o in self.cfg.get("outputs", []):
            p = os.path.join(rundir, o)
            files[o] = open(p, errors="replace").read() if os.path.exists(p) else None
        summary = {}
        if oracle_log:
            with open(os.path.join(d, "stderr.txt"), "w") as f:
                f.write(err)
            _, line, _ = run([oracle_log, os.path.join(d, "stderr.txt")])
            for field in line.split():
                k, _, v = field.partition("=")
                summary[k] = v
        return dict(rc=rc, out=out, files=files, secs=secs, log=summary, err=err)


def omplens_rewrite(bench, omplens, version):
    """The text omplens writes for `version`, or (None, exit code, message)."""
    cfg = bench.cfg
    d = bench.tree(version + "-in", None)
    src = os.path.join(d, cfg["main"])
    if version == "fix":
        shutil.copy(os.path.join(d, cfg["stripped"]), src)
        cmd = [omplens, "fix", "-o", "-", cfg["main"]]
    elif version == "replace":
        cmd = [omplens, "fix", "--replace", "-o", "-", cfg["main"]]
    else:
        cmd = [omplens, "check", "--fix", "--no-config", cfg["main"]]
    rc, out, err = run(cmd + ["--"] + cfg["flags"], cwd=d, timeout=300)
    if version == "checkfix":
        text = open(src).read()
        if rc not in (0, 1):
            return None, rc, err
        return text, rc, err
    if rc != 0 or not out:
        return None, rc, err
    return out, rc, err


def judge(bench, version, text, reference, oracle_log):
    d = bench.tree(version, text)
    ok, err = bench.build(d, OFFLOAD)
    if not ok:
        return dict(status="NOBUILD", detail=err.strip().splitlines()[:3])
    r = bench.execute(d, oracle_log)
    same = (clean(r["out"]) == clean(reference["out"])
            and r["files"] == reference["files"] and r["rc"] == reference["rc"])
    unmapped = r["log"].get("unmapped", "")
    status = "ok" if same and not unmapped else ("UNMAPPED" if same else "WRONG")
    if r["rc"] is None:
        status = "TIMEOUT"
    byts = int(r["log"].get("h2d_bytes", 0)) + int(r["log"].get("d2h_bytes", 0))
    return dict(status=status, bytes=byts, unmapped=unmapped,
                launches=r["log"].get("unmapped_launches", "0"), secs=r["secs"], rc=r["rc"])


def one(name, args, work):
    cfg = BENCHMARKS[name]
    b = Bench(name, cfg, args.ompdart, work)
    d = b.tree("reference", None)
    ok, err = b.build(d, HOST)
    if not ok:
        return name, {"reference": dict(status="NOBUILD", detail=err[-300:])}
    reference = b.execute(d, None)
    # `fix` rewrites the stripped file: its output is what that program prints on the host.
    stripped_ref = reference
    if "fix" in args.versions:
        text = open(os.path.join(d, cfg["stripped"]), errors="replace").read()
        ds = b.tree("reference-stripped", text)
        ok, err = b.build(ds, HOST)
        if not ok:
            return name, {"reference": dict(status="NOBUILD", detail=err[-300:])}
        stripped_ref = b.execute(ds, None)
    row = {}
    for v in args.versions:
        if v == "expert":
            row[v] = judge(b, v, None, reference, args.oracle_log)
        elif v == "ompdart":
            text = open(os.path.join(d, cfg["ompdart"]), errors="replace").read()
            row[v] = judge(b, v, text, reference, args.oracle_log)
        else:
            text, rc, err = omplens_rewrite(b, args.omplens, v)
            if text is None:
                gaps = [l for l in err.splitlines() if "gap" in l or "error" in l][:4]
                row[v] = dict(status=f"REFUSED({rc})", detail=gaps)
            else:
                ref = stripped_ref if v == "fix" else reference
                row[v] = judge(b, v, text, ref, args.oracle_log)
                row[v]["exit"] = rc
    return name, row


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ompdart", required=True, help="lmarzen/ompdart's evaluation/src")
    ap.add_argument("--omplens", default="target/release/omplens")
    ap.add_argument("--oracle-log", default="target/release/oracle_log")
    ap.add_argument("--only", nargs="*", default=list(BENCHMARKS))
    ap.add_argument("--versions", default="expert,ompdart,fix,replace,checkfix")
    ap.add_argument("--keep", help="keep the build trees here")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    args.versions = args.versions.split(",")
    args.omplens = os.path.abspath(args.omplens)
    args.oracle_log = os.path.abspath(args.oracle_log)
    work = args.keep or tempfile.mkdtemp(prefix="omplens-strip-")
    os.makedirs(work, exist_ok=True)
    with ThreadPoolExecutor(args.jobs) as ex:
        rows = dict(ex.map(lambda n: one(n, args, work), args.only))
    cols = args.versions
    print("| benchmark | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    totals = {c: 0 for c in cols}
    for name in args.only:
        row = rows[name]
        cells = []
        for c in cols:
            r = row.get(c) or row.get("reference") or {}
            s = r.get("status", "?")
            if s == "ok":
                totals[c] += 1
            cell = s
            if "bytes" in r:
                cell += f" {r['bytes']:,} B"
            if r.get("unmapped"):
                cell += f" [{r['unmapped'][:60]}]"
            if r.get("exit"):
                cell += f" (exit {r['exit']})"
            cells.append(cell)
        print(f"| {name} | " + " | ".join(cells) + " |")
    print("| **ok** | " + " | ".join(f"{totals[c]} of {len(args.only)}" for c in cols) + " |")
    for name in args.only:
        for c, r in rows[name].items():
            if r.get("detail"):
                print(f"\n{name} {c}:", *r["detail"], sep="\n  ", file=sys.stderr)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
