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
    assert!(err.contains("line 139, column 17"), "{err}");
}

/// `play --save` and `--transcript` to a full disk fail as `run --save`
/// does: the error on standard error, exit code 2.
#[test]
fn play_saving_to_a_full_disk_fails_as_run_does() {
    for (flag, what) in [("--save", "the position"), ("--transcript", "the moves")] {
        let (code, out, err) = cardboard(&[
            "play",
            "games/agram.rcy",
            "--seats",
            "random,random,random,random",
            flag,
            "/dev/full",
        ]);
        assert_eq!(code, 2, "{flag}: {out}\n{err}");
        assert!(
            err.contains(&format!(
                "error: cannot save {what} to /dev/full: No space left on device"
            )),
            "{flag}: {err}"
        );
        assert!(!out.contains("cannot save"), "{flag}: {out}");
    }
    let (code, _, err) = cardboard(&["run", "games/agram.rcy", "--save", "/dev/full"]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("error: cannot write /dev/full: No space left on device"),
        "{err}"
    );
}

/// Input is bounded: a rules file, a position, a record of moves and a
/// report larger than their limit are refused at once (`/dev/zero`, which
/// never ends, after the limit's bytes), and what an error quotes of its
/// input is a short escaped excerpt (a line of a megabyte, a NUL byte).
#[test]
fn input_is_bounded_and_quoted_short() {
    let started = std::time::Instant::now();
    for (args, what) in [
        (
            &["check", "/dev/zero"][..],
            "4194304 bytes, the most a rules file may have",
        ),
        (
            &["run", "games/agram.rcy", "--position", "/dev/zero"],
            "67108864 bytes, the most a position may have",
        ),
        (
            &["play", "games/agram.rcy", "--moves", "/dev/zero"],
            "67108864 bytes, the most a record of moves may have",
        ),
        (
            &["merge", "/dev/zero"],
            "67108864 bytes, the most a report may have",
        ),
    ] {
        let (code, _, err) = cardboard(args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(
            err.contains("/dev/zero") && err.contains(&format!("larger than {what}")),
            "{args:?}: {err}"
        );
    }
    // Each reads no more than its limit: far from the 2 GB read before.
    assert!(started.elapsed().as_secs() < 60, "{:?}", started.elapsed());
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let long = "Z".repeat(1 << 20);
    // A rules file whose error is on a line of a megabyte, and one with a
    // NUL byte.
    for (name, text) in [
        (
            "long-line.rcy",
            format!("(game (setup (create players 2)) {long}\n"),
        ),
        ("nul.rcy", "(game \0 (setup))\n".to_string()),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let (code, out, err) = cardboard(&["check", path.to_str().unwrap()]);
        assert_eq!(code, 1, "{name}: {out}{err}");
        let all = format!("{out}{err}");
        assert!(all.len() < 2000, "{name}: {} bytes said", all.len());
        assert!(!all.contains('\0'), "{name}: {all}");
    }
    // A position and a record of moves with a line of a megabyte.
    let pos = dir.join("long-line.pos");
    std::fs::write(&pos, format!("{long}\n")).unwrap();
    let moves = dir.join("long-line.moves");
    std::fs::write(&moves, format!("{{\"seed\": 1, \"x\": \"{long}\0\"}}\n")).unwrap();
    for args in [
        &[
            "run",
            "games/agram.rcy",
            "--position",
            pos.to_str().unwrap(),
        ][..],
        &[
            "play",
            "games/agram.rcy",
            "--moves",
            moves.to_str().unwrap(),
        ],
    ] {
        let (code, out, err) = cardboard(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(err.len() < 2000, "{args:?}: {} bytes said", err.len());
        if args[0] == "run" {
            assert!(err.contains("ZZZ..."), "{args:?}: {err}");
        }
        assert!(!err.contains('\0') && out.len() < 2000, "{args:?}: {err}");
    }
}

/// perft prints each depth's line as soon as that depth is counted: a
/// count far too deep to end shows its first depths at once.
#[test]
fn perft_prints_each_depth_as_it_is_counted() {
    use std::io::BufRead;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardboard"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["perft", "games/agram.rcy", "30"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run cardboard");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let wait = std::time::Duration::from_secs(60);
    let first = rx.recv_timeout(wait);
    let second = rx.recv_timeout(wait);
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(first.as_deref(), Ok("depth 0: nodes 1 (total 0)"));
    let second = second.expect("depth 1 within a minute");
    assert!(second.starts_with("depth 1: nodes "), "{second}");
}

/// `check` warns about silent typos, a location only ever read and a
/// `cardatt` of an attribute no deck defines, with "did you mean"; it
/// exits 0 unless `--deny-warnings`. No shipped game and no program of
/// the corpus gets a false warning (the corpus's one warning is a real
/// typo: Rummy2 reads `mem DRAWN` but remembers into `mem DRAW`).
#[test]
fn check_warns_about_silent_typos() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let typo = dir.join("typo.rcy");
    std::fs::write(
        &typo,
        "(game
 (setup (create players 2)
        (create deck (game vloc PILE) (deck (RANK (A, B)) (SUIT (X, Y)))))
 (stage player (end (== (size (game vloc PILE)) 0))
   (choice ((move (top (game vloc PILLE)) (top ((current player) vloc HAND)))
            ((== (cardatt RANKK (top (game vloc PILE))) A)
             (move (top (game vloc PILE)) (top ((current player) vloc HAND))))
            (move (top (game vloc PILE)) (top (game vloc OUT))))))
 (scoring max 0))
",
    )
    .unwrap();
    let typo = typo.to_str().unwrap();
    let (code, out, err) = cardboard(&["check", typo]);
    assert_eq!(code, 0, "{out}{err}");
    for said in [
        "warning: the location `PILLE` is read but never filled: no `move`, `remember` or \
         `create deck` puts a card there, so it is always empty",
        "typo.rcy:5:35",
        "= did you mean `PILE`?",
        "warning: no deck defines the card attribute `RANKK`: `(cardatt RANKK ...)` is never \
         the value of a card",
        "typo.rcy:6:27",
        "= did you mean `RANK`?",
    ] {
        assert!(err.contains(said), "{said}:\n{err}");
    }
    // Neither HAND nor OUT (filled, never read) nor PILE is warned about.
    assert_eq!(err.matches("warning:").count(), 2, "{err}");
    let (code, _, err2) = cardboard(&["check", "--deny-warnings", typo]);
    assert_eq!((code, err2), (1, err));
    // No false warning in the shipped games and the corpus.
    let mut warned = Vec::new();
    for path in common::game_files()
        .into_iter()
        .chain(common::example_files())
        .chain(common::corpus_files())
    {
        let (code, _, err) = cardboard(&["check", "--deny-warnings", path.to_str().unwrap()]);
        if code != 0 || !err.is_empty() {
            warned.push((path, err));
        }
    }
    for (path, err) in &warned {
        let name = path.file_name().unwrap().to_string_lossy();
        assert!(
            name == "Rummy2.rcy"
                && err.matches("warning:").count() == 1
                && err.contains("the location `DRAWN` is read but never filled")
                && err.contains("did you mean `DRAW`?"),
            "{}: {err}",
            path.display()
        );
    }
}
