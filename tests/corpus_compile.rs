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

/// Broken variants of real programs (a line deleted, a word replaced)
/// must give errors or compile, never panic.
#[test]
fn mutated_corpus_programs_never_panic() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let files: Vec<PathBuf> = ["recycle/Cribbage2.rcy", "seed/agram-blog.rcy"]
        .iter()
        .map(|f| root.join(f))
        .filter(|p| p.is_file())
        .collect();
    if files.is_empty() {
        println!("note: corpus not found; skipped");
    }
    let replacements = [
        "top", "'X", "3", "()", "(all)", "player", "game", "HEARTS", "..", "using",
    ];
    for path in files {
        let source = std::fs::read_to_string(&path).expect("readable corpus file");
        let lines: Vec<&str> = source.lines().collect();
        for skip in 0..lines.len() {
            let mut text = String::new();
            for (i, l) in lines.iter().enumerate() {
                if i != skip {
                    text.push_str(l);
                    text.push('\n');
                }
            }
            let _ = compile(&text);
        }
        let words: Vec<(usize, usize)> = word_spans(&source);
        for (n, (start, end)) in words.iter().enumerate().step_by(2) {
            let with = replacements[n % replacements.len()];
            let text = format!("{}{}{}", &source[..*start], with, &source[*end..]);
            let _ = compile(&text);
        }
    }
}

/// Byte ranges of the words and variables of `source` outside comments.
fn word_spans(source: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = None;
    let mut in_comment = false;
    for (i, c) in source.char_indices() {
        let word = c.is_ascii_alphanumeric() || c == '_' || c == '\'';
        if c == '\n' {
            in_comment = false;
        } else if c == ';' {
            in_comment = true;
        }
        match (start, word && !in_comment) {
            (None, true) => start = Some(i),
            (Some(s), false) => {
                spans.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    spans
}
