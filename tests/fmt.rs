//! `cardboard fmt`'s properties over every rules file at hand: the shipped
//! games and examples, the corpus beside the project (when present; a
//! note says when it is not) and mutants of them made by the fuzzer's
//! mutations (those that still parse): formatting gives a text that parses
//! to the same syntax tree (spans aside) and formats to itself.

mod common;

#[allow(dead_code)]
#[path = "fuzz/lex.rs"]
mod lex;
#[allow(dead_code)]
#[path = "fuzz/mutate.rs"]
mod mutate;

use cardboard::fmt::{format_source, read_forms, same_forms, DEFAULT_WIDTH};
use cardboard::random::{splitmix64, GameRng};
use cardboard::syntax::read;
use std::path::{Path, PathBuf};

/// Mutants made of each file.
const MUTANTS_PER_FILE: u64 = 40;

fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = cardboard::fmt::files::expand(&[root.join("games"), root.join("examples")]);
    files.extend(common::corpus_files());
    files
}

/// The property for one text; an error message when it fails. A text
/// that does not parse must be refused, not formatted.
fn check(name: &str, source: &str, width: usize) -> Result<(), String> {
    // Read as `check` reads (some corpus files have a byte-order mark or
    // an extra `)` at the end, which CardStock's reader ignores).
    let Ok(tree) = read_forms(source) else {
        return match format_source(source, width) {
            Err(_) => Ok(()),
            Ok(_) => Err(format!("{name}: formatted, but it does not parse")),
        };
    };
    let once = format_source(source, width).map_err(|e| format!("{name}: {}", e.message))?;
    let again = read(&once).map_err(|_| format!("{name}: the formatted text does not parse"))?;
    if !same_forms(&tree, &again) {
        return Err(format!("{name}: the formatted text means something else"));
    }
    let twice = format_source(&once, width).map_err(|e| format!("{name}: {}", e.message))?;
    if twice != once {
        return Err(format!(
            "{name}: formatting twice changes the text:\n{once}\n---\n{twice}"
        ));
    }
    Ok(())
}

#[test]
fn every_file_formats_to_the_same_tree_and_to_itself() {
    let mut failures = Vec::new();
    let files = shipped();
    for path in &files {
        let source = std::fs::read_to_string(path).expect("readable rules file");
        for width in [DEFAULT_WIDTH, 30] {
            if let Err(e) = check(&path.display().to_string(), &source, width) {
                failures.push(e);
            }
        }
    }
    println!("formatted {} files", files.len());
    assert!(
        !files.is_empty(),
        "the shipped games and examples are found"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn mutants_format_to_the_same_tree_and_to_itself() {
    let mut failures = Vec::new();
    let (mut parsed, mut total) = (0, 0);
    for (f, path) in shipped().iter().enumerate() {
        let source = std::fs::read_to_string(path).expect("readable rules file");
        for i in 0..MUTANTS_PER_FILE {
            let rng = &mut GameRng::new(splitmix64(f as u64, i));
            let mutant = mutate::rules(rng, &source, mutate::Numbers::All);
            total += 1;
            parsed += usize::from(read(&mutant.text).is_ok());
            let name = format!("{} mutant {i}", path.display());
            if let Err(e) = check(&name, &mutant.text, DEFAULT_WIDTH) {
                failures.push(e);
            }
        }
    }
    println!("{parsed} of {total} mutants parse");
    assert!(parsed > 0, "some mutants parse");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The fuzzer does not touch comments: these variants put comments (at
/// the end of a line, on a line of their own), blank lines and commas at
/// random places between tokens.
#[test]
fn comments_blank_lines_and_commas_anywhere_keep_the_properties() {
    use cardboard::random::below;
    let inserts = [" ; note\n", "\n;; own line\n", "\n\n", ", ", "\n", " ;\n"];
    let mut failures = Vec::new();
    let mut parsed = 0;
    for (f, path) in shipped().iter().enumerate() {
        let source = std::fs::read_to_string(path).expect("readable rules file");
        // White space outside comments: a place between tokens.
        let mut places = Vec::new();
        let mut in_comment = false;
        for (i, c) in source.char_indices() {
            match c {
                ';' => in_comment = true,
                '\n' => {
                    in_comment = false;
                    places.push(i);
                }
                ' ' if !in_comment => places.push(i),
                _ => {}
            }
        }
        if places.is_empty() {
            continue;
        }
        for i in 0..MUTANTS_PER_FILE / 4 {
            let rng = &mut GameRng::new(splitmix64(1000 + f as u64, i));
            let mut at: Vec<(usize, &str)> = (0..1 + below(rng, 6))
                .map(|_| {
                    (
                        places[below(rng, places.len())],
                        inserts[below(rng, inserts.len())],
                    )
                })
                .collect();
            at.sort();
            let mut text = source.clone();
            for (place, insert) in at.iter().rev() {
                text.insert_str(*place, insert);
            }
            parsed += usize::from(format_source(&text, DEFAULT_WIDTH).is_ok());
            for width in [DEFAULT_WIDTH, 40] {
                let name = format!("{} variant {i} ({at:?})", path.display());
                if let Err(e) = check(&name, &text, width) {
                    failures.push(e);
                }
            }
        }
    }
    println!("{parsed} variants formatted");
    assert!(parsed > 0, "some variants are formatted");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_shipped_games_and_examples_are_formatted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for path in cardboard::fmt::files::expand(&[root.join("games"), root.join("examples")]) {
        let source = std::fs::read_to_string(&path).expect("readable rules file");
        let text = format_source(&source, DEFAULT_WIDTH).expect("formats");
        assert!(
            text == source,
            "{} is not formatted: run `cardboard fmt` on it",
            path.display()
        );
    }
}

/// The command: `--check` lists what differs and exits 1, a plain run
/// rewrites in place, `--stdout` and `-` print, a file that does not parse
/// is told with file, line and column and left as it is.
#[test]
fn the_command_checks_rewrites_prints_and_refuses() {
    use std::process::{Command, Stdio};
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fmt_command");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let messy = dir.join("messy.rcy");
    let bad = dir.join("bad.rcy");
    let text = "(game   (declare 4 'NUMP) ; four\n)";
    std::fs::write(&messy, text).unwrap();
    std::fs::write(&bad, "(game\n (setup #))\n").unwrap();
    let run = |args: &[&str], input: Option<&str>| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardboard"))
            .arg("fmt")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        if let Some(input) = input {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(input.as_bytes())
                .unwrap();
        }
        drop(child.stdin.take());
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let formatted = format_source(text, DEFAULT_WIDTH).unwrap();
    let m = messy.to_str().unwrap();
    let (code, out, _) = run(&["--check", m], None);
    assert_eq!((code, out.trim()), (Some(1), m));
    assert_eq!(
        std::fs::read_to_string(&messy).unwrap(),
        text,
        "--check changes nothing"
    );
    let (code, out, _) = run(&["--stdout", m], None);
    assert_eq!((code, out.as_str()), (Some(0), formatted.as_str()));
    let (code, out, _) = run(&["-"], Some(text));
    assert_eq!((code, out.as_str()), (Some(0), formatted.as_str()));
    assert_eq!(run(&[m], None).0, Some(0));
    assert_eq!(std::fs::read_to_string(&messy).unwrap(), formatted);
    let (code, out, _) = run(&["--check", dir.to_str().unwrap()], None);
    assert_eq!(code, Some(1), "the bad file");
    assert!(!out.contains("messy"), "{out}");
    let (code, _, err) = run(&[bad.to_str().unwrap()], None);
    assert_eq!(code, Some(1));
    assert!(err.contains("bad.rcy:2:9") && err.contains('#'), "{err}");
    assert_eq!(
        std::fs::read_to_string(&bad).unwrap(),
        "(game\n (setup #))\n"
    );
}
