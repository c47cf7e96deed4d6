//! `cardboard test`: snapshot tests for a rules file (docs/authoring.md).
//!
//! A tests file (`NAME.tests`, [`parse`]) beside the rules holds cases:
//! each starts a game (seed and settings, or a position), plays moves,
//! records what it wants pinned (the legal moves, a seat's observation,
//! the table, the outcome, a transcript, a perft table) and checks what
//! must hold (`expect`). [`run_tests`] runs every case ([`case`]) and
//! compares what it recorded with the snapshot stored in `NAME.snap/`
//! ([`snapshot`]): a difference is a failure shown as a diff with the
//! file and line of the case and of the record that changed. `--accept`
//! writes the new snapshots, `--review` asks for each, as `cargo insta`
//! does for Rust.

pub mod case;
pub mod parse;
pub mod snapshot;

use crate::engine::Rules;
use crate::loading::{read_text, LoadError, MAX_DATA_BYTES};
use case::{run_case, CaseRun};
use parse::{Case, TestsFile};
use snapshot::{diff, first_change, read_snap, render_diff, snap_dir, snap_text};
use std::path::{Path, PathBuf};

/// What to do with a snapshot that is new or differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Compare only: a new or different snapshot is a failure.
    Check,
    /// Write every new or different snapshot (`--accept`).
    Accept,
    /// Show each new or different snapshot and ask (`--review`).
    Review,
}

/// What a run of tests came to.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Cases that passed (their snapshot written, with `--accept`, included).
    pub passed: usize,
    /// Cases that failed, and tests files that could not be read as such.
    pub failed: usize,
    /// Snapshots written.
    pub written: usize,
    /// Whether a path could not be read at all.
    pub unreadable: bool,
}

impl Summary {
    /// The exit code: 0 when everything passed, 1 when something failed,
    /// 2 when a path could not be read.
    pub fn exit_code(&self) -> i32 {
        if self.unreadable {
            2
        } else if self.failed > 0 {
            1
        } else {
            0
        }
    }
}

/// How `run_tests` talks: `say` prints, `ask` puts a yes-or-no question
/// to the person reviewing (`--review`) and returns the answer.
pub struct Io<'a> {
    /// Writes text (lines end with `\n`).
    pub say: &'a mut dyn FnMut(&str),
    /// Asks a question; true for yes.
    pub ask: &'a mut dyn FnMut(&str) -> bool,
}

/// Runs the tests files at `paths` (files, or folders searched for
/// `*.tests` files) in `mode`.
pub fn run_tests(paths: &[PathBuf], mode: Mode, io: &mut Io) -> Summary {
    let mut summary = Summary::default();
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let before = files.len();
            collect(path, &mut files);
            if files.len() == before {
                (io.say)(&format!(
                    "error: {}: no tests file (*.tests) in this folder\n",
                    path.display()
                ));
                summary.failed += 1;
            }
        } else if path.exists() {
            files.push(path.clone());
        } else {
            (io.say)(&format!(
                "error: cannot read {}: no such file\n",
                path.display()
            ));
            summary.unreadable = true;
        }
    }
    for file in &files {
        run_file(file, mode, io, &mut summary);
    }
    let mut line = format!(
        "test result: {} passed, {} failed",
        summary.passed, summary.failed
    );
    if summary.written > 0 {
        line.push_str(&format!(", {} snapshots written", summary.written));
    }
    (io.say)(&format!("{line}\n"));
    if summary.failed > 0 && mode == Mode::Check {
        (io.say)("(`cardboard test --accept PATH...` writes the new snapshots; `--review` asks for each)\n");
    }
    summary
}

/// The `*.tests` files under `dir`, in name order (snapshot folders
/// skipped).
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for path in paths {
        let ext = path.extension().and_then(|e| e.to_str());
        if path.is_dir() {
            if ext != Some("snap") {
                collect(&path, files);
            }
        } else if ext == Some("tests") {
            files.push(path);
        }
    }
}

/// Runs one tests file.
fn run_file(path: &Path, mode: Mode, io: &mut Io, summary: &mut Summary) {
    let shown = path.display().to_string();
    let text = match read_text(path, MAX_DATA_BYTES, "a tests file") {
        Ok(text) => text,
        Err(e) => {
            (io.say)(&format!("error: cannot read {shown}: {e}\n"));
            summary.unreadable = true;
            return;
        }
    };
    let file = match parse::parse(&text) {
        Ok(file) => file,
        Err(errors) => {
            for e in errors {
                (io.say)(&format!("error: {shown}:{}: {}\n", e.line, e.message));
            }
            summary.failed += 1;
            return;
        }
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    let rules_path = match &file.rules {
        Some(rules) => dir.join(rules),
        None => path.with_extension("rcy"),
    };
    let rules = match Rules::load(&rules_path) {
        Ok(rules) => rules,
        Err(LoadError::Io(message)) => {
            (io.say)(&format!("error: {shown}: the rules: {message}\n"));
            summary.failed += 1;
            return;
        }
        Err(LoadError::Check(e)) => {
            (io.say)(&format!(
                "error: {shown}: the rules have errors:\n{}",
                e.render()
            ));
            summary.failed += 1;
            return;
        }
    };
    let (passed, failed) = (summary.passed, summary.failed);
    for case in &file.cases {
        let run = run_case(&rules, dir, case);
        judge(path, case, run, mode, io, summary);
    }
    stale_snapshots(path, &file, mode, io);
    (io.say)(&format!(
        "{shown}: {} case{}, {} passed, {} failed\n",
        file.cases.len(),
        if file.cases.len() == 1 { "" } else { "s" },
        summary.passed - passed,
        summary.failed - failed
    ));
}

/// Compares a case's run with its snapshot, tells what failed, and
/// writes the snapshot when `mode` says so.
fn judge(path: &Path, case: &Case, run: CaseRun, mode: Mode, io: &mut Io, summary: &mut Summary) {
    let shown = path.display();
    let head = format!("FAIL {shown}:{}: case `{}`", case.line, case.name);
    let ok = run.failures.is_empty();
    if !ok {
        (io.say)(&format!("{head}\n"));
    }
    for (line, why) in &run.failures {
        (io.say)(&format!("  {shown}:{line}: {}\n", indent(why)));
    }
    if run.body.is_empty() {
        count(summary, ok);
        return;
    }
    let snap_path = snap_dir(path).join(format!("{}.snap", case.slug));
    let name = path
        .file_name()
        .map_or(String::new(), |n| n.to_string_lossy().into_owned());
    let new = snap_text(&case.name, &name, &run.body);
    let old = read_snap(&snap_path);
    if old.as_deref() == Some(new.as_str()) {
        count(summary, ok);
        return;
    }
    let snap_shown = snap_path.display();
    let accept = match mode {
        Mode::Accept => ok,
        Mode::Review if ok => {
            (io.say)(&format!(
                "review {shown}:{}: case `{}` ({snap_shown})\n",
                case.line, case.name
            ));
            (io.say)(&render_diff(old.as_deref().unwrap_or(""), &new, 400));
            (io.ask)(&format!(
                "accept the new snapshot of `{}`? [y/n] ",
                case.name
            ))
        }
        _ => false,
    };
    if accept {
        match write_snap(&snap_path, &new) {
            Ok(()) => {
                (io.say)(&format!("wrote {snap_shown}\n"));
                summary.written += 1;
                count(summary, ok);
            }
            Err(e) => {
                (io.say)(&format!(
                    "FAIL {shown}:{}: cannot write {snap_shown}: {e}\n",
                    case.line
                ));
                summary.failed += 1;
            }
        }
        return;
    }
    if ok {
        (io.say)(&format!("{head}\n"));
    }
    match &old {
        None => (io.say)(&format!(
            "  no snapshot yet ({snap_shown}): run `cardboard test --accept {shown}` to write it\n"
        )),
        Some(old) => {
            let olds: Vec<&str> = old.lines().collect();
            let news: Vec<&str> = new.lines().collect();
            let at = first_change(&diff(&olds, &news)).unwrap_or(0);
            // The snapshot's header is two lines before the body's.
            let body_line = at.saturating_sub(2);
            let line = run
                .sections
                .iter()
                .rev()
                .find(|(start, _)| *start <= body_line)
                .map_or(case.line, |s| s.1);
            (io.say)(&format!(
                "  {shown}:{line}: differs from the snapshot {snap_shown} (- snapshot, + now):\n{}",
                indent_all(&render_diff(old, &new, 200))
            ));
        }
    }
    summary.failed += 1;
}

fn count(summary: &mut Summary, ok: bool) {
    if ok {
        summary.passed += 1;
    } else {
        summary.failed += 1;
    }
}

/// Snapshot files of no case that records: told, and removed by `--accept`.
fn stale_snapshots(path: &Path, file: &TestsFile, mode: Mode, io: &mut Io) {
    let Ok(entries) = std::fs::read_dir(snap_dir(path)) else {
        return;
    };
    let mut stale: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("snap"))
        .filter(|p| {
            let stem = p.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            !file.cases.iter().any(|c| c.slug == stem)
        })
        .collect();
    stale.sort();
    for p in stale {
        if mode == Mode::Accept && std::fs::remove_file(&p).is_ok() {
            (io.say)(&format!(
                "removed {}, the snapshot of no case\n",
                p.display()
            ));
        } else if mode != Mode::Accept {
            (io.say)(&format!(
                "note: {} is the snapshot of no case (--accept removes it)\n",
                p.display()
            ));
        }
    }
}

fn write_snap(path: &Path, text: &str) -> std::io::Result<()> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, text)
}

/// A message's later lines indented under its first.
fn indent(text: &str) -> String {
    text.replace('\n', "\n    ")
}

/// Every line indented by four spaces.
fn indent_all(text: &str) -> String {
    text.lines().map(|l| format!("    {l}\n")).collect()
}
