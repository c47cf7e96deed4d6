//! Shared helpers for the integration tests: the rules files to test.
#![allow(dead_code)] // each test binary uses a part

pub mod seeded;
pub mod toy;

use std::path::{Path, PathBuf};

/// Every `.rcy` file in `games/`.
pub fn game_files() -> Vec<PathBuf> {
    rcy_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games"))
}

/// Every `.rcy` file in `examples/`: the classic games written to show the
/// language (each also compared with a reading of its rules in its own
/// test, `tests/othello.rs` ...).
pub fn example_files() -> Vec<PathBuf> {
    rcy_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("examples"))
}

/// The corpus of RECYCLE programs by others (CardStock's games) beside the
/// project, `../shared/corpus`, where the project's developers and CI have
/// it; `None` in a clone without it. Then every test binary that asks says
/// so once on the terminal (written to standard error directly, which the
/// test harness does not capture), so that a run whose corpus tests covered
/// the shipped games only cannot pass for a full one.
pub fn corpus_dir() -> Option<PathBuf> {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if corpus.is_dir() {
        return Some(corpus);
    }
    static NOTE: std::sync::Once = std::sync::Once::new();
    NOTE.call_once(|| {
        use std::io::Write;
        let binary = std::env::args().next().unwrap_or_default();
        let binary = Path::new(&binary)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        // Cargo names a test binary `NAME-HASH`.
        let binary = binary.rsplit_once('-').map_or(binary.as_str(), |(n, _)| n);
        let _ = writeln!(
            std::io::stderr(),
            "\nnote ({binary}): no corpus in ../shared/corpus: the corpus tests cover the \
             shipped games only (README.md, Compatibility, tells where the corpus comes from)"
        );
    });
    None
}

/// Every `.rcy` file of the corpus beside the project ([`corpus_dir`]), or
/// none when it is not there.
pub fn corpus_files() -> Vec<PathBuf> {
    let Some(corpus) = corpus_dir() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for sub in ["recycle", "seed"] {
        out.extend(rcy_files(&corpus.join(sub)));
    }
    out
}

fn rcy_files(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "rcy"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Options for one game: its seed and `--set` overrides.
pub fn options(seed: u64, set: &[(&str, &str)]) -> cardboard::engine::GameOptions {
    cardboard::engine::GameOptions {
        seed,
        overrides: set
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
    }
}

/// Runs the `cardboard` command line from the project's folder: its exit
/// code, standard output and standard error.
pub fn cardboard(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cardboard"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("run cardboard");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
