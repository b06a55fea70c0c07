use super::*;

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

fn dropped(v: &[DroppedFlag]) -> Vec<String> {
    v.iter().map(|d| d.to_string()).collect()
}

#[test]
fn splits_shell_words() {
    assert_eq!(
        split_command(r#"clang -DX="a b" -I 'inc dir' -c f.c"#),
        s(&["clang", "-DX=a b", "-I", "inc dir", "-c", "f.c"])
    );
    assert_eq!(split_command(r"cc a\ b ''"), s(&["cc", "a b", ""]));
}

#[test]
fn keeps_backslashes_inside_double_quotes_as_the_shell_does() {
    // The hand-written splitter turned `\d` into `d` and `\\` into `\` alike.
    assert_eq!(
        split_command(r#"cc "-DDIR=\"C:\dir\"" "-DQ=a\\b" f.c"#),
        s(&["cc", r#"-DDIR="C:\dir""#, r"-DQ=a\b", "f.c"])
    );
    // An open quote: split at whitespace rather than lose the command.
    assert_eq!(split_command(r#"cc "-DX f.c"#), s(&["cc", "\"-DX", "f.c"]));
}

#[test]
fn drops_offload_and_output_flags() {
    let got = sanitize(
        &s(&[
            "-O2",
            "-fopenmp",
            "-fopenmp-targets=nvptx64-nvidia-cuda",
            "--offload-arch=sm_80",
            "-Xopenmp-target",
            "-march=sm_80",
            "-o",
            "x.o",
            "-MD",
            "-MF",
            "x.d",
            "-fplugin=foo.so",
            "-Xclang",
            "-load",
            "-Xclang",
            "p.so",
            "-DN=4",
        ]),
        None,
    );
    assert_eq!(got, s(&["-O2", "-DN=4"]));
}

#[test]
fn makes_include_paths_absolute() {
    let got = sanitize(
        &s(&["-Iinc", "-I", "../x", "-isystem", "/abs", "-isystemsys"]),
        Some(Path::new("/w/b")),
    );
    assert_eq!(
        got,
        s(&[
            "-I/w/b/inc",
            "-I",
            "/w/x",
            "-isystem",
            "/abs",
            "-isystem/w/b/sys"
        ])
    );
}

fn translated(cmd: &str, file: &str) -> Translated {
    translate(
        &split_command(cmd),
        file,
        &Path::new("/w").join(file),
        Path::new("/w"),
    )
}

#[test]
fn intel_flags_are_dropped_and_listed() {
    let t = translated(
        "icpx -std=c++17 -Wall -I../inc -O3 -qopenmp -fiopenmp -fopenmp-targets=spir64 \
         -D__STRICT_ANSI__ -xHost -fp-model=precise -fsycl -qnextgen -Xopenmp-target-backend \"-device pvc\" -c main.cpp -o main.o",
        "main.cpp",
    );
    assert_eq!(
        t.args,
        s(&["-std=c++17", "-Wall", "-I/inc", "-O3", "-D__STRICT_ANSI__"])
    );
    assert_eq!(
        dropped(&t.dropped),
        s(&[
            "-qopenmp (icpx)",
            "-fiopenmp (icpx)",
            "-xHost (icpx)",
            "-fp-model=precise (icpx)",
            "-fsycl (icpx)",
            "-qnextgen (icpx)",
            "-Xopenmp-target-backend -device pvc (icpx)",
        ])
    );
    assert_eq!(t.skip, None);
}

#[test]
fn nvidia_flags_are_dropped_or_translated() {
    let t = translated(
        "/opt/nvidia/bin/nvc++ -mp=gpu -gpu=cc80 -Minfo=mp -Mcuda -tp=host --c++17 -DUSE_GPU main.cpp",
        "main.cpp",
    );
    assert_eq!(t.args, s(&["-std=c++17", "-DUSE_GPU"]));
    assert_eq!(
        dropped(&t.dropped),
        s(&[
            "-mp=gpu (nvc++)",
            "-gpu=cc80 (nvc++)",
            "-Minfo=mp (nvc++)",
            "-Mcuda (nvc++)",
            "-tp=host (nvc++)",
        ])
    );
}

#[test]
fn amd_and_gcc_flags() {
    let t = translated(
        "amdclang++ -fopenmp --offload-arch=gfx90a -fopenmp-target-fast \
         -fopenmp-target-xteam-reduction-blocksize=256 -Xopenmp-target=amdgcn-amd-amdhsa -march=gfx90a \
         -march=gfx908 -O2 main.cpp",
        "main.cpp",
    );
    assert_eq!(t.args, s(&["-O2"]));
    assert_eq!(
        dropped(&t.dropped),
        s(&[
            "-fopenmp-target-xteam-reduction-blocksize=256 (amdclang++)",
            "-march=gfx908 (amdclang++)",
        ])
    );
    let t = translated(
        "g++ -fopenmp -foffload=nvptx-none -fopt-info-vec -fipa-pta -march=native -MMD -MP -c a.cc",
        "a.cc",
    );
    assert_eq!(t.args, s(&["-march=native"]));
    assert_eq!(
        dropped(&t.dropped),
        s(&["-fopt-info-vec (g++)", "-fipa-pta (g++)"])
    );
}

#[test]
fn c_file_given_to_a_cxx_driver_is_cxx() {
    for driver in [
        "clang++",
        "g++",
        "c++",
        "icpx",
        "nvc++",
        "amdclang++",
        "hipcc",
        "CC",
        "/usr/bin/x86_64-linux-gnu-g++-12",
        "clang++-19",
    ] {
        let t = translated(&format!("{driver} -O2 -c main.c"), "main.c");
        assert_eq!(t.args, s(&["-O2", "-x", "c++"]), "{driver}");
    }
    for driver in ["clang", "gcc", "icx", "nvc", "amdclang", "cc"] {
        let t = translated(&format!("{driver} -O2 -c main.c"), "main.c");
        assert_eq!(t.args, s(&["-O2"]), "{driver}");
    }
    // ccache in front of the driver
    let t = translated("ccache g++ -c main.c", "main.c");
    assert_eq!(t.args, s(&["-x", "c++"]));
}

#[test]
fn explicit_language_is_honoured() {
    let t = translated("icx -x c++ -std=c++17 -c main.c", "main.c");
    assert_eq!(t.args, s(&["-std=c++17", "-x", "c++"]));
    let t = translated("clang++ -xc -c main.c", "main.c");
    assert_eq!(t.args, s(&["-x", "c"]));
    // `-x` after the input does not apply to it
    let t = translated("gcc -c main.c -x c++", "main.c");
    assert_eq!(t.args, Vec::<String>::new());
    let t = translated("clang -x cuda -c k.cpp", "k.cpp");
    assert_eq!(t.skip.as_deref(), Some(CUDA_HIP_SKIPPED));
}

#[test]
fn cuda_and_hip_sources_are_skipped() {
    for f in ["k.cu", "k.hip"] {
        let t = translated(&format!("nvcc -arch=sm_80 -Xcompiler -fopenmp -c {f}"), f);
        assert_eq!(t.skip.as_deref(), Some(CUDA_HIP_SKIPPED), "{f}");
    }
}

#[test]
fn dropped_note_lists_each_flag_once() {
    let d = |f: &str, c: &str| DroppedFlag {
        flag: f.into(),
        compiler: c.into(),
    };
    let all = [
        d("-qopenmp", "icpx"),
        d("-mp=gpu", "nvc++"),
        d("-qopenmp", "icpx"),
    ];
    assert_eq!(
        dropped_note(&all).as_deref(),
        Some("omplens: note: dropped compiler flags clang does not accept: -qopenmp (icpx), -mp=gpu (nvc++)")
    );
    assert_eq!(dropped_note(&[]), None);
}

#[test]
fn database_entries_response_files_and_inference() {
    let dir = std::env::temp_dir().join(format!("omplens-flags-{}", std::process::id()));
    let build = dir.join("build");
    std::fs::create_dir_all(&build).unwrap();
    std::fs::write(dir.join("a.c"), "int main(void) { return 0; }\n").unwrap();
    std::fs::write(dir.join("b.c"), "int f(void) { return 0; }\n").unwrap();
    std::fs::write(build.join("flags.rsp"), "-DFROM_RSP=1 -I\"inc dir\"\n").unwrap();
    let db = format!(
        r#"[{{"directory": "{b}", "arguments": ["icpx", "@flags.rsp", "-qopenmp", "-c", "../a.c"], "file": "../a.c"}},
            {{"directory": "{b}", "command": "nvcc -c ../k.cu", "file": "../k.cu"}}]"#,
        b = build.display()
    );
    std::fs::write(build.join("compile_commands.json"), db).unwrap();
    let root = dir.canonicalize().unwrap();
    let found = find_database(&dir.join("a.c"), None).unwrap();
    assert_eq!(found, build.join("compile_commands.json"));
    let database = Database::load(&found).unwrap();
    assert_eq!(
        database.files(),
        vec![lexical(&dir.join("a.c")), lexical(&dir.join("k.cu"))]
    );
    let r = Resolver::new(None);
    let a = r.flags_for(&dir.join("a.c"), &[]).unwrap();
    assert_eq!(
        a.args[..5],
        s(&[
            "-DFROM_RSP=1",
            &format!("-I{}", root.join("build/inc dir").display()),
            "-x",
            "c++",
            "-Wno-unknown-warning-option"
        ])
    );
    assert_eq!(dropped(&a.dropped), s(&["-qopenmp (icpx)"]));
    // b.c has no entry: a.c's flags, inferred, for b.c
    let b = r.flags_for(&dir.join("b.c"), &[]).unwrap();
    assert!(matches!(b.origin, FlagsOrigin::Inferred { .. }));
    assert_eq!(b.args[2..4], s(&["-x", "c++"]));
    // `-p` may name the database file itself
    assert_eq!(
        find_database(&dir.join("a.c"), Some(&found)),
        Some(found.clone())
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn no_database_keeps_the_defaults() {
    let f = flags_for(Path::new("/nonexistent-omplens/x.c"), None, &[]).unwrap();
    assert_eq!(
        f.args,
        s(&[
            OPENMP_MACRO,
            "-Wno-unknown-pragmas",
            "-Wno-source-uses-openmp",
            "-ferror-limit=0"
        ])
    );
    assert_eq!(f.origin, FlagsOrigin::Defaults);
}

/// A database read before is reused while neither it nor its response files changed; a
/// change to either (size or time) is read again.
#[test]
fn a_database_is_read_again_only_when_it_or_a_response_file_changes() {
    let dir = tempfile::tempdir().unwrap();
    let db_path = dir.path().join("compile_commands.json");
    let entry = |extra: &str| {
        format!(
            r#"[{{"directory": "{d}", "arguments": ["clang", "@more.rsp", {extra}"-c", "a.c"], "file": "a.c"}}]"#,
            d = dir.path().display()
        )
    };
    std::fs::write(dir.path().join("a.c"), "int x;\n").unwrap();
    std::fs::write(dir.path().join("more.rsp"), "-DONE=1\n").unwrap();
    std::fs::write(&db_path, entry("")).unwrap();
    let args = |db: &Database| db.flags_for(&dir.path().join("a.c")).unwrap().args;
    let first = Database::load_unchanged(&db_path).unwrap();
    let again = Database::load_unchanged(&db_path).unwrap();
    assert!(Arc::ptr_eq(&first, &again), "read twice while unchanged");
    assert!(args(&again).contains(&"-DONE=1".to_string()));
    // The database changes (another size): read again.
    std::fs::write(&db_path, entry(r#""-DTWO=2", "#)).unwrap();
    let changed = Database::load_unchanged(&db_path).unwrap();
    assert!(!Arc::ptr_eq(&first, &changed));
    assert!(args(&changed).contains(&"-DTWO=2".to_string()));
    // A response file changes: read again.
    std::fs::write(dir.path().join("more.rsp"), "-DONE=1 -DTHREE=3\n").unwrap();
    let rsp = Database::load_unchanged(&db_path).unwrap();
    assert!(!Arc::ptr_eq(&changed, &rsp));
    assert!(args(&rsp).contains(&"-DTHREE=3".to_string()));
    assert!(Arc::ptr_eq(
        &rsp,
        &Database::load_unchanged(&db_path).unwrap()
    ));
}
