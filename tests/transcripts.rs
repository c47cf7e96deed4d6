//! Snapshot of the transcript of one seeded game for every file in `games/`
//! (and every player count or variant the file's header names through
//! `--set`). A rule change shows up as a diff here.

mod common;

use cardboard::drivers::run::transcript;
use cardboard::engine::{GameOptions, Rules};

fn variants(file: &str) -> Vec<Vec<(String, String)>> {
    let set = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect()
    };
    match file {
        "agram" => vec![
            set(&[]),
            set(&[("NUMP", "2")]),
            set(&[("NUMP", "5")]),
            set(&[("NUMP", "6")]),
            set(&[("NUMP", "3"), ("HANDSIZE", "5")]),
        ],
        // A 9 x 9 transcript lists ~80 moves at each of ~86 decisions; the
        // small boards pin the same rules in a readable size.
        "carteso" => vec![set(&[("SIZE", "3")]), set(&[("SIZE", "5")])],
        "cartagena" => vec![
            set(&[("VARIANT", "1"), ("NUMP", "2")]),
            set(&[("VARIANT", "2"), ("NUMP", "2")]),
            set(&[("VARIANT", "3"), ("NUMP", "2")]),
        ],
        "cardbot-derby" => vec![
            set(&[]),
            set(&[("NUMP", "2")]),
            set(&[("NUMP", "3")]),
            set(&[("NUMP", "5"), ("BELT2", "1"), ("TELEPORT", "1")]),
            set(&[
                ("NUMP", "8"),
                ("BELT2", "3"),
                ("STICKY", "1"),
                ("SLIPPERY", "1"),
            ]),
            set(&[("BELT2", "2")]),
        ],
        _ => vec![set(&[])],
    }
}

/// Decisions a transcript may take. A Cardbot Derby game lasts a hundred
/// rounds or more under random play; its first rounds pin the rules (the
/// final table shows where every robot, card and storage is).
fn limit(file: &str) -> u64 {
    match file {
        "cardbot-derby" => 48,
        _ => 10_000,
    }
}

#[test]
fn seeded_transcripts() {
    for path in common::game_files() {
        let stem = path.file_stem().unwrap().to_string_lossy().to_string();
        let rules = Rules::load(&path).unwrap_or_else(|e| panic!("{e}"));
        for overrides in variants(&stem) {
            let name = std::iter::once(stem.clone())
                .chain(overrides.iter().map(|(k, v)| format!("{k}{v}")))
                .collect::<Vec<_>>()
                .join("-");
            let text = transcript(&rules, &GameOptions { seed: 1, overrides }, limit(&stem));
            insta::assert_snapshot!(name, text);
        }
    }
}
