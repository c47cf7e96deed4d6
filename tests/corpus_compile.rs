//! Every RECYCLE program of the corpus beside the project must compile
//! without error.

mod common;

use cardboard::diagnostic::render;
use cardboard::lower::compile;
use std::path::PathBuf;

#[test]
fn every_corpus_program_compiles() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in common::corpus_files() {
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
    let Some(root) = common::corpus_dir() else {
        return;
    };
    let files: Vec<PathBuf> = ["recycle/Cribbage2.rcy", "seed/agram-blog.rcy"]
        .iter()
        .map(|f| root.join(f))
        .filter(|p| p.is_file())
        .collect();
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
