//! Not a regular test: `cargo test -p omplens-tests --test oracle_corpus_scan -- --ignored
//! --nocapture` runs every corpus program through the oracle and prints its verdict, copies
//! and unmapped pointers (a survey, e.g. to see what the oracle says about the corpus).

use omplens_tests::check;
use std::path::Path;

#[test]
#[ignore]
fn survey_corpus() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus");
    for sub in ["c", "cpp"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(sub))
            .unwrap()
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("c" | "cpp")))
            .collect();
        files.sort();
        for f in files {
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            match check(&f, &[]) {
                Ok(v) => println!("{name}: {}", v.summary().lines().next().unwrap_or("")),
                Err(e) => println!(
                    "{name}: ERROR {}",
                    e.to_string().lines().next().unwrap_or("")
                ),
            }
        }
    }
}
