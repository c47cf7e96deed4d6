//! Every RECYCLE program of the shared corpus must compile without error.

use cardboard::diagnostic::render;
use cardboard::lower::compile;
use std::path::{Path, PathBuf};

fn rcy_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "rcy"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

#[test]
fn every_corpus_program_compiles() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut checked = 0;
    let mut failures = Vec::new();
    for folder in ["recycle", "seed"] {
        let dir = root.join(folder);
        if !dir.is_dir() {
            println!("note: {} does not exist; skipped", dir.display());
            continue;
        }
        for path in rcy_files(&dir) {
            let source = std::fs::read_to_string(&path).expect("readable corpus file");
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            checked += 1;
            if let Err(errors) = compile(&source) {
                failures.push(format!("{name}:\n{}", render(&name, &source, &errors)));
            }
        }
    }
    println!("compiled {checked} corpus programs");
    assert!(
        failures.is_empty(),
        "{} of {checked} programs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
