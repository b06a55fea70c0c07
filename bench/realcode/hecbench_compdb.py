#!/usr/bin/env python3
"""Writes a compile_commands.json for HeCBench's `*-omp` benchmarks from their Makefiles.

Usage: hecbench_compdb.py HECBENCH_SRC OUT_DIR [--makefile Makefile]

`bear -- make` cannot be used here: the benchmarks' Makefiles call icpx (or nvc++, amdclang++
for Makefile.nvc, Makefile.aomp), which this machine does not have. So each Makefile is read
the simple way HeCBench writes them, which is not a make implementation:

- variable assignments (`=`, `:=`, `?=`, `+=`), expanded with `$(VAR)` / `${VAR}`, the
  substitution reference `$(VAR:.a=.b)` and `$(wildcard ...)`; `$(EXTRA_CFLAGS)` and other
  unknown variables are empty;
- `ifeq`/`ifneq`/`else`/`endif` evaluated with the Makefile's own defaults (OPTIMIZE=yes,
  DEBUG=no, DEVICE=gpu as HeCBench sets them);
- the sources: the `source` variable (HeCBench's convention; else `SOURCES`, `SRC_FILES` or
  `SRCS`), else the `obj` variable's
  objects mapped back to the sources beside them, plus the first source prerequisite of every
  explicit rule whose recipe compiles (`-c`), else every *.c/*.cpp/*.cc/*.cu of the directory;
- the command: the compile recipe of the source's explicit rule, else of the pattern rule of
  its extension (`%.o: %.c`), with `$<`, `$@`, `$^` and the variables expanded; else
  `$(CC) $(CFLAGS) -c SOURCE`. So a recipe's `-x c++` or own flags are kept.

Each entry is `{directory, file, command}` with the directory absolute, as CMake and bear write
them. Prints how many benchmarks and files it wrote, and which Makefiles it could not read.
"""
import glob
import json
import os
import re
import shlex
import sys

VAR_RE = re.compile(r"\$[({]([^(){}]+)[)}]")

# The variables that list a Makefile's sources, in the order they are looked at.
SOURCE_VARS = ("source", "SOURCES", "SRC_FILES", "SRCS")


def expand(text, env, cwd, depth=0):
    if depth > 20:
        return text
    out = []
    i = 0
    while i < len(text):
        if text.startswith("$(", i) or text.startswith("${", i):
            close = ")" if text[i + 1] == "(" else "}"
            # matching bracket, nested calls allowed
            level, j = 0, i + 1
            while j < len(text):
                if text[j] in "({":
                    level += 1
                elif text[j] in ")}":
                    level -= 1
                    if level == 0:
                        break
                j += 1
            inner = text[i + 2 : j]
            out.append(call(inner, env, cwd, depth))
            i = j + 1
            del close
        elif text.startswith("$$", i):
            out.append("$")
            i += 2
        elif text[i] == "$" and i + 1 < len(text):
            out.append(expand(env.get(text[i + 1], ""), env, cwd, depth + 1))
            i += 2
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def call(inner, env, cwd, depth):
    inner = expand(inner, env, cwd, depth + 1) if "$" in inner else inner
    if inner.startswith("wildcard "):
        pats = inner[len("wildcard ") :].split()
        found = []
        for p in pats:
            found += sorted(os.path.relpath(f, cwd) for f in glob.glob(os.path.join(cwd, p)))
        return " ".join(found)
    if inner.startswith("shell "):
        return ""
    if ":" in inner and "=" in inner.split(":", 1)[1]:
        name, sub = inner.split(":", 1)
        a, b = sub.split("=", 1)
        words = expand(env.get(name, ""), env, cwd, depth + 1).split()
        return " ".join(w[: -len(a)] + b if a and w.endswith(a) else w for w in words)
    return expand(env.get(inner.strip(), ""), env, cwd, depth + 1)


def cond(line, env, cwd):
    """ifeq (a,b) / ifeq "a" "b" / ifneq ..."""
    kw, rest = line.split(None, 1) if " " in line.strip() else (line.strip(), "")
    rest = rest.strip()
    if rest.startswith("(") and rest.endswith(")"):
        a, _, b = rest[1:-1].partition(",")
    else:
        parts = shlex.split(rest) if rest else ["", ""]
        a, b = (parts + ["", ""])[:2]
    eq = expand(a, env, cwd).strip() == expand(b, env, cwd).strip()
    return eq if kw == "ifeq" else not eq


def read_makefile(path):
    """The variables, and the rules as (targets, prerequisites, recipe lines)."""
    cwd = os.path.dirname(path)
    env = {}
    rules = []
    stack = []  # (active, taken)
    lines = open(path, errors="replace").read().replace("\\\n", " ").splitlines()
    for raw in lines:
        line = raw.split("#", 1)[0] if not raw.startswith("\t") else raw
        s = line.strip()
        active = all(a for a, _ in stack)
        if s.startswith(("ifeq", "ifneq")):
            c = cond(s, env, cwd) if active else False
            stack.append((c, c))
            continue
        if s.startswith(("ifdef", "ifndef")):
            name = s.split(None, 1)[1].strip() if " " in s else ""
            c = bool(env.get(name)) == s.startswith("ifdef")
            stack.append((c and active, c))
            continue
        if s.startswith("else") and stack:
            _, taken = stack.pop()
            rest = s[4:].strip()
            if rest.startswith(("ifeq", "ifneq")) and not taken:
                c = cond(rest, env, cwd)
                stack.append((c, c))
            else:
                stack.append((not taken, True))
            continue
        if s.startswith("endif") and stack:
            stack.pop()
            continue
        if not active:
            continue
        if raw.startswith("\t"):
            if rules:
                rules[-1][2].append(s)
            continue
        m = re.match(r"^\s*(export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(\+=|:=|\?=|::=|=)\s*(.*)$", line)
        if m:
            name, op, value = m.group(2), m.group(3), m.group(4).strip()
            if op == "?=":
                env.setdefault(name, value)
            elif op in (":=", "::="):
                env[name] = expand(value, env, cwd)
            elif op == "+=":
                env[name] = (env.get(name, "") + " " + value).strip()
            else:
                env[name] = value
            continue
        if ":" in s and not re.match(r"^\.[A-Z]", s):
            targets, _, prereqs = s.partition(":")
            rules.append(
                (expand(targets, env, cwd).split(), expand(prereqs, env, cwd).split(), [])
            )
    return env, rules, cwd


SOURCE_EXTS = ("c", "cpp", "cc", "cxx", "cu")


def ext_of(p):
    return p.rsplit(".", 1)[-1] if "." in os.path.basename(p) else ""


def entries_for(makefile):
    env, rules, cwd = read_makefile(makefile)
    cc = expand(env.get("CC", ""), env, cwd).strip() or "icpx"
    flags = expand(env.get("CFLAGS", "") + " " + env.get("CXXFLAGS", ""), env, cwd)

    def compile_line(recipe):
        return next((r.lstrip("@-") for r in recipe if re.search(r"(^|\s)-c(\s|$)", r)), None)

    def command(line, src, obj, prereqs):
        auto = dict(env, **{"<": src, "@": obj, "^": " ".join(prereqs)})
        return shlex.split(expand(line, auto, cwd))

    pattern = {}  # source extension -> compile recipe line
    explicit = {}  # source -> (object, prerequisites, compile recipe line)
    for targets, prereqs, recipe in rules:
        line = compile_line(recipe)
        if not prereqs or line is None:
            continue
        # (`%.o: %.c`, also with directories: `$(OBJ_DIR)/%.o: $(SRC_DIR)/%.cc`.)
        if "%." in prereqs[0] and any("%." in t for t in targets):
            pattern[ext_of(prereqs[0])] = line
            continue
        src = next((p for p in prereqs if ext_of(p) in SOURCE_EXTS), None)
        if src:
            explicit[os.path.normpath(src)] = (targets[0], prereqs, line)
    # (`source` is HeCBench's convention; some Makefiles say SOURCES, SRC_FILES or SRCS.)
    sources = []
    for var in SOURCE_VARS:
        sources = [os.path.normpath(s) for s in expand(env.get(var, ""), env, cwd).split()]
        if sources:
            break
    if not sources:
        for o in expand(env.get("obj", ""), env, cwd).split():
            stem = o[: -len(".o")] if o.endswith(".o") else o
            for e in list(pattern) + list(SOURCE_EXTS):
                if os.path.isfile(os.path.join(cwd, f"{stem}.{e}")):
                    sources.append(os.path.normpath(f"{stem}.{e}"))
                    break
    sources += [s for s in explicit if s not in sources]
    if not sources:
        sources = sorted(
            os.path.relpath(f, cwd)
            for ext in SOURCE_EXTS
            for f in glob.glob(os.path.join(cwd, f"*.{ext}"))
        )
    out = []
    for src in sources:
        if ext_of(src) not in SOURCE_EXTS or not os.path.isfile(os.path.join(cwd, src)):
            continue
        obj = os.path.splitext(src)[0] + ".o"
        if src in explicit:
            obj, prereqs, line = explicit[src]
            words = command(line, src, obj, prereqs)
        elif ext_of(src) in pattern:
            words = command(pattern[ext_of(src)], src, obj, [src])
        else:
            words = [cc] + shlex.split(flags) + ["-c", src, "-o", obj]
        out.append({"directory": cwd, "file": src, "command": shlex.join(words)})
    return out


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    src, out_dir = os.path.abspath(sys.argv[1]), sys.argv[2]
    makefile = "Makefile"
    if "--makefile" in sys.argv:
        makefile = sys.argv[sys.argv.index("--makefile") + 1]
    entries, benches, failed = [], 0, []
    for d in sorted(glob.glob(os.path.join(src, "*-omp"))):
        mk = os.path.join(d, makefile)
        if not os.path.isfile(mk):
            continue
        try:
            e = entries_for(mk)
        except Exception as ex:  # a Makefile this reader does not understand
            failed.append(f"{mk}: {ex}")
            continue
        benches += 1
        entries += e
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "compile_commands.json"), "w") as f:
        json.dump(entries, f, indent=1)
    print(f"{benches} benchmarks, {len(entries)} files -> {out_dir}/compile_commands.json")
    for m in failed:
        print(f"could not read {m}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
