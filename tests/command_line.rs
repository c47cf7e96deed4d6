//! The `cardboard` command line as a user meets it, run as a program: where
//! its output goes when the reader has gone or the disk is full, how many
//! threads it starts, and the arguments it refuses.

mod common;

use common::cardboard;
use std::io::Read;
use std::process::{Command, Stdio};

/// A game that never ends: every decision is a pass.
const FOREVER: &str = "(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice ((turn pass))))
 (scoring max (size ((current player) vloc HAND))))
";

/// Writes `text` to a file of this test's folder and returns its path.
fn file(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("command-line");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs cardboard with its standard output a pipe whose reading end is
/// closed at once: the exit code and standard error.
fn with_closed_pipe(args: &[&str]) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardboard"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cardboard");
    drop(child.stdout.take());
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    let status = child.wait().unwrap();
    (status.code().unwrap_or(-1), err)
}

/// Runs cardboard with its standard output on a full disk (`/dev/full`).
fn on_full_disk(args: &[&str]) -> (i32, String) {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full, a device that is always full");
    let out = Command::new(env!("CARGO_BIN_EXE_cardboard"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdout(full)
        .output()
        .expect("run cardboard");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_closed_pipe_ends_the_output_quietly() {
    // Carteso's transcript is far longer than a pipe holds, so the writes
    // meet the closed pipe whenever it closes.
    for args in [
        &["run", "games/carteso.rcy", "--seed", "3"][..],
        &["simulate", "games/agram.rcy", "--games", "40", "--json"],
        &["perft", "games/agram.rcy", "3"],
        &["--help"],
    ] {
        let (code, err) = with_closed_pipe(args);
        assert_eq!(code, 0, "{args:?}: {err}");
        assert!(err.is_empty(), "{args:?} said: {err}");
    }
}

#[test]
fn a_full_disk_is_an_error_and_a_failed_exit() {
    for args in [
        &["run", "games/agram.rcy", "--seed", "3"][..],
        &["simulate", "games/agram.rcy", "--games", "40"],
        &["perft", "games/agram.rcy", "2"],
        &["--help"],
    ] {
        let (code, err) = on_full_disk(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("error: cannot write the output: No space left on device"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    // A run that saves a position still saves it.
    let pos = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("full-disk.pos");
    let _ = std::fs::remove_file(&pos);
    let (code, err) = on_full_disk(&[
        "run",
        "games/agram.rcy",
        "--save-at",
        "3",
        "--save",
        pos.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(pos.is_file(), "{err}");
}

#[test]
fn threads_are_capped_at_the_cores_and_the_work() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let jobs_of = |games: &str, jobs: &str| {
        let (code, out, err) = cardboard(&[
            "simulate",
            "games/agram.rcy",
            "--games",
            games,
            "--jobs",
            jobs,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let report: serde_json::Value = serde_json::from_str(&out).unwrap();
        report["jobs"].as_u64().unwrap() as usize
    };
    assert_eq!(jobs_of("100", "20000"), cores.min(4));
    // 32 games are one chunk: one thread plays them all.
    assert_eq!(jobs_of("32", "20000"), 1);

    let (code, out, err) = cardboard(&["perft", "games/agram.rcy", "2", "--jobs", "20000"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.ends_with(&format!(" nodes/s, {} threads\n", cores.min(6))),
        "{out}"
    );
}

#[test]
fn nothing_to_do_is_refused_with_a_message() {
    let (code, out, err) = cardboard(&["simulate", "games/agram.rcy", "--games", "0"]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("nothing to simulate in 0 games: give at least 1"),
        "{err}"
    );

    for command in ["simulate", "perft"] {
        let mut args = vec![command, "games/agram.rcy", "--jobs", "0"];
        args.extend(if command == "perft" {
            &["1"][..]
        } else {
            &["--games", "1"]
        });
        let (code, _, err) = cardboard(&args);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains("give at least 1 thread"), "{err}");
    }
}

#[test]
fn perft_is_bounded_in_depth_and_counts_a_game_that_never_ends() {
    let forever = file("forever.rcy", FOREVER);
    // Ten thousand moves deep, one node at each depth, on no deep native
    // stack.
    let (code, out, err) = cardboard(&["perft", &forever, "10000"]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("depth 10000: nodes 1 (total 10000)\n"),
        "{}",
        &out[out.len().saturating_sub(200)..]
    );
    // Deeper is refused before anything is counted or allocated.
    for depth in ["10001", "4294967296", "18446744073709551615"] {
        let (code, out, err) = cardboard(&["perft", &forever, depth]);
        assert_eq!(code, 2, "{err}");
        assert!(out.is_empty());
        assert!(
            err.contains("perft counts at most 10000 moves deep"),
            "{err}"
        );
    }
}

#[test]
fn perft_counts_are_the_same_for_any_number_of_threads() {
    let table = |jobs: &str| {
        let (code, out, err) = cardboard(&[
            "perft",
            "games/cartagena.rcy",
            "3",
            "--seed",
            "4",
            "--jobs",
            jobs,
        ]);
        assert_eq!(code, 0, "{err}");
        let (table, time) = out.split_at(out.find("time: ").expect("a time line"));
        assert!(time.contains(" nodes/s, "), "{time}");
        table.to_string()
    };
    let one = table("1");
    assert!(one.starts_with("depth 0: nodes 1 (total 0)\n"), "{one}");
    assert_eq!(one, table("2"));
}

#[test]
fn perft_memory_does_not_grow_with_the_moves_of_the_root() {
    // A first choice of 10,001 options. perft once made a copy of the
    // start for every root move before counting (some 100 KB each: over
    // 1 GB here); now each root move copies it when its turn comes.
    let wide = file(
        "wide.rcy",
        "(game (setup (create players 2))
          (choice ((any (range 0 .. 10000) 'K (set (game sto PICK) 'K))))
          (scoring max 0))",
    );
    let out = Command::new("sh")
        .args([
            "-c",
            "ulimit -v 400000 && exec \"$0\" \"$@\"",
            env!("CARGO_BIN_EXE_cardboard"),
            "perft",
            &wide,
            "1",
            "--jobs",
            "2",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("depth 1: nodes 10001 (total 10001)\n"),
        "{stdout}"
    );
}

#[test]
fn a_setting_the_rules_refuse_before_any_chance_is_one_error_before_any_game() {
    // Cartagena's `require` on VARIANT fails before anything is shuffled,
    // so it would fail alike in every game: simulate says so once.
    let (code, out, err) = cardboard(&[
        "simulate",
        "games/cartagena.rcy",
        "--games",
        "100",
        "--set",
        "VARIANT=4",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(err.matches("the rules require").count(), 1, "{err}");
    assert!(err.contains("line 140, column 13"), "{err}");
}
