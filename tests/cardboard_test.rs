//! `cardboard test` (docs/authoring.md), run as a person runs it: the
//! shipped games' tests pass; on a small game of its own, a missing
//! snapshot fails and says to accept, `--accept` writes the snapshots,
//! a changed rule gives a diff located at the record's line and exit 1,
//! `--review` writes only what is answered yes, expectations that do not
//! hold fail with their line, and a bad tests file is an error with its
//! line.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Takes turns taking a card of the row; the larger hand wins.
const TAKE: &str = "(game
 (setup (create players 2)
        (create deck (game vloc ROW) (deck (RANK (A, B, C, D)))))
 (stage player (end (== (size (game vloc ROW)) 0))
   (choice ((any (game vloc ROW) 'C (move 'C (top ((current player) vloc HAND)))))))
 (scoring max (size ((current player) vloc HAND))))
";

/// Three cases: the moves at the start (line 5), a perft table, a whole
/// game with its outcome and expectations.
const TESTS: &str = "# The take game.
case the first player takes any card
seed 1
expect turn 0
moves
play 0
expect turn 1
expect illegal 4

case perft
perft 3

case the cards are shared out
seed 1
play 0
play 0
play 0
play 0
outcome
expect winner 0 1
expect score 0 2
expect turn none
";

/// A fresh folder with `take.rcy` and `take.tests`.
fn game_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cardboard-test-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    std::fs::write(dir.join("take.rcy"), TAKE).expect("writes the rules");
    std::fs::write(dir.join("take.tests"), TESTS).expect("writes the tests");
    dir
}

/// Runs `cardboard test ARGS` with `input` on standard input.
fn cardboard_test(args: &[&str], input: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardboard"))
        .arg("test")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cardboard runs");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input.as_bytes());
    }
    let Output {
        status,
        stdout,
        stderr,
    } = child.wait_with_output().expect("cardboard ends");
    let text = String::from_utf8_lossy(&stdout).into_owned() + &String::from_utf8_lossy(&stderr);
    (status.code().unwrap_or(-1), text)
}

fn path_arg(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

#[test]
fn the_shipped_games_pass_their_tests() {
    let (code, out) = cardboard_test(&["games"], "");
    assert_eq!(code, 0, "{out}");
    for file in [
        "agram",
        "cardbot-derby",
        "cardbot-derby-options",
        "cartagena",
        "carteso",
    ] {
        assert!(
            out.contains(&format!("games/{file}.tests: ")) && !out.contains("FAIL"),
            "{file}: {out}"
        );
    }
    assert!(out.contains(" passed, 0 failed"), "{out}");
}

#[test]
fn snapshots_are_accepted_then_a_changed_rule_shows_a_located_diff() {
    let dir = game_dir("cycle");
    let tests = dir.join("take.tests");
    let tests = path_arg(&tests);

    // No snapshot yet: a failure that says how to write them.
    let (code, out) = cardboard_test(&[tests], "");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("take.tests:2: case `the first player takes any card`"),
        "{out}"
    );
    assert!(out.contains("no snapshot yet"), "{out}");
    assert!(out.contains("--accept"), "{out}");
    assert!(out.contains("0 passed, 3 failed"), "{out}");

    // --accept writes one plain text file per case.
    let (code, out) = cardboard_test(&[tests, "--accept"], "");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("3 snapshots written"), "{out}");
    let snap = std::fs::read_to_string(dir.join("take.snap/the-first-player-takes-any-card.snap"))
        .expect("the snapshot is written");
    assert!(
        snap.contains("== moves ==\nplayer 0 to play\n  0: move "),
        "{snap}"
    );
    let outcome = std::fs::read_to_string(dir.join("take.snap/the-cards-are-shared-out.snap"))
        .expect("the snapshot is written");
    assert!(outcome.contains("== outcome, after 4 plays ==\nthe game is finished\nscores: player 0: 2, player 1: 2\nwinners: player 0, player 1\n"), "{outcome}");
    assert!(dir.join("take.snap/perft.snap").exists());

    // Now they pass.
    let (code, out) = cardboard_test(&[tests], "");
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("3 passed, 0 failed"), "{out}");

    // A rule changed: the card D is now E. The moves differ (the record
    // on line 5), perft and the outcome do not.
    std::fs::write(dir.join("take.rcy"), TAKE.replace("C, D", "C, E")).expect("writes");
    let (code, out) = cardboard_test(&[tests], "");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("take.tests:5: differs from the snapshot"),
        "{out}"
    );
    assert!(out.contains("- ") && out.contains("+ "), "{out}");
    assert!(out.contains("D ROW") || out.contains("D game ROW"), "{out}");
    assert!(out.contains("2 passed, 1 failed"), "{out}");

    // --review: a no leaves the snapshot, a yes writes it.
    let (code, out) = cardboard_test(&[tests, "--review"], "n\n");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("accept the new snapshot of `the first player takes any card`? [y/n]"),
        "{out}"
    );
    let (code, out) = cardboard_test(&[tests, "--review"], "y\n");
    assert_eq!(code, 0, "{out}");
    let (code, out) = cardboard_test(&[tests], "");
    assert_eq!(code, 0, "{out}");
}

#[test]
fn expectations_that_do_not_hold_fail_with_their_line() {
    let dir = game_dir("expect");
    let tests = "case wrong\nseed 1\nexpect turn 1\nexpect illegal 0\nexpect legal take all\n\
                 play 0\nplay 0\nplay 0\nplay 0\nexpect winner 1\nexpect score 0 3\n\
                 case a move that is not there\nplay 7\nmoves\n";
    std::fs::write(dir.join("take.tests"), tests).expect("writes");
    let file = dir.join("take.tests");
    let (code, out) = cardboard_test(&[path_arg(&file)], "");
    assert_eq!(code, 1, "{out}");
    for (line, words) in [
        (3, "expected player 1 to play, but the game runs, player 0 to play"),
        (4, "expected `0` to be illegal, but it is a legal move"),
        (5, "expected `take all` to be legal: `take all` is not a legal move now; the legal moves are:"),
        (10, "expected winners player 1, but they are player 0, player 1"),
        (11, "expected player 0 to score 3, not 2"),
        (13, "`7` is not a legal move now"),
    ] {
        assert!(out.contains(&format!("take.tests:{line}: {words}")), "line {line}: {out}");
    }
    // The case stopped at its illegal move: nothing was recorded, so no
    // snapshot is asked for.
    assert!(!out.contains("no snapshot yet"), "{out}");
    assert!(out.contains("0 passed, 2 failed"), "{out}");
}

#[test]
fn a_rules_error_is_expected_or_fails() {
    let dir = game_dir("errors");
    let tests = "case a setting the rules do not declare\nset NOPE=3\nexpect error NOPE\n\
                 case unexpected\nset NOPE=3\nmoves\n";
    std::fs::write(dir.join("take.tests"), tests).expect("writes");
    let file = dir.join("take.tests");
    let (code, out) = cardboard_test(&[path_arg(&file)], "");
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("take.tests:4: the game failed:"), "{out}");
    assert!(out.contains("1 passed, 1 failed"), "{out}");
}

#[test]
fn a_bad_tests_file_is_an_error_with_its_lines() {
    let dir = game_dir("bad");
    let tests = "seed 1\ncase a\nplya 0\nexpect score x\nposition\ncase a\n";
    std::fs::write(dir.join("take.tests"), tests).expect("writes");
    let file = dir.join("take.tests");
    let (code, out) = cardboard_test(&[path_arg(&file)], "");
    assert_eq!(code, 1, "{out}");
    for (line, words) in [
        (1, "`seed` outside a case"),
        (3, "unknown directive `plya`"),
        (4, "write `expect score SEAT N`"),
        (5, "`position` needs a file"),
        (
            6,
            "a case whose snapshot is `a.snap` is already named on line 2",
        ),
    ] {
        assert!(
            out.contains(&format!("take.tests:{line}: {words}")),
            "line {line}: {out}"
        );
    }
    // A path that is not there: exit 2.
    let missing = dir.join("nothing.tests");
    let (code, out) = cardboard_test(&[path_arg(&missing)], "");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("cannot read"), "{out}");
    // Rules with an error: told with the rules file's line.
    std::fs::write(dir.join("take.tests"), "case a\nmoves\n").expect("writes");
    std::fs::write(dir.join("take.rcy"), "(game (setup (create players 2))").expect("writes");
    let (code, out) = cardboard_test(&[path_arg(&file)], "");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("the rules have errors") && out.contains("take.rcy:1"),
        "{out}"
    );
}

#[test]
fn a_transcript_after_moves_plays_on_from_there_and_stale_snapshots_go() {
    let dir = game_dir("transcript");
    let tests = "case on from the second decision\nseed 1\nplay 0\ntranscript\nobservation 1\n";
    std::fs::write(dir.join("take.tests"), tests).expect("writes");
    let file = dir.join("take.tests");
    let file = path_arg(&file);
    let (code, out) = cardboard_test(&[file, "--accept"], "");
    assert_eq!(code, 0, "{out}");
    let snap = std::fs::read_to_string(dir.join("take.snap/on-from-the-second-decision.snap"))
        .expect("the snapshot is written");
    // Three cards were left: three decisions, as `run` tells them.
    assert!(
        snap.contains("== transcript 10000, after 1 play ==\nseed: 1\nplayers: 2\n"),
        "{snap}"
    );
    assert!(snap.contains("== finished after 3 decisions =="), "{snap}");
    assert!(
        snap.contains("== observation 1, after 1 play ==\np1 sees (p1 to play):"),
        "{snap}"
    );

    // The case renamed: its old snapshot is the snapshot of no case, told,
    // then removed by --accept.
    std::fs::write(dir.join("take.tests"), tests.replace("second", "2nd")).expect("writes");
    let (code, out) = cardboard_test(&[file], "");
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("on-from-the-second-decision.snap is the snapshot of no case"),
        "{out}"
    );
    let (code, out) = cardboard_test(&[file, "--accept"], "");
    assert_eq!(code, 0, "{out}");
    assert!(
        !dir.join("take.snap/on-from-the-second-decision.snap")
            .exists(),
        "{out}"
    );
    assert!(
        dir.join("take.snap/on-from-the-2nd-decision.snap").exists(),
        "{out}"
    );
}
