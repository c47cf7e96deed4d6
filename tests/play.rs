//! `cardboard play` driven through its standard input and output, as a
//! person at a terminal would: scripted games with bad input (a number
//! that is no move, words that are none, an empty line), the end of input,
//! two people passing the screen, the moves saved and played again, a
//! position saved; and what a person's screen must never show (another
//! seat's hand).

mod common;

use cardboard::engine::{GameOptions, Rules};
use cardboard::game::GameState;
use cardboard::observation::Observation;
use common::cardboard;
use std::io::Write;
use std::process::{Command, Stdio};

/// Two players, two cards each in a hidden hand, played face up one by
/// one onto their piles (a draw: each pile ends with two cards).
const HANDS: &str = "(game
 (declare 2 'NUMP)
 (setup (create players 'NUMP)
        (create deck (game hloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX)))))
 (do ((shuffle (game hloc STOCK))
      (all player 'P (repeat 2 (move (top (game hloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
   (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc PLAYED)))))))
 (scoring max (size ((current player) vloc PLAYED))))
";

/// Writes `text` to a file of this test's folder and returns its path.
fn file(name: &str, text: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("play");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs `cardboard play` with `input` as its standard input: exit code,
/// standard output, standard error.
fn play(args: &[&str], input: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_cardboard"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start cardboard");
    let mut stdin = child.stdin.take().unwrap();
    // The game may end before it reads everything: a closed pipe is fine.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    let out = child.wait_with_output().expect("cardboard ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The true table of the HANDS game with `seed` after `moves` (as ids),
/// every face shown.
fn truth(seed: u64, moves: &[usize]) -> Observation {
    let rules = Rules::from_source("hands.rcy", HANDS).unwrap();
    let mut state = rules
        .start(&GameOptions {
            seed,
            overrides: vec![],
        })
        .unwrap();
    for &m in moves {
        let mv = state.legal_moves()[m].clone();
        state.apply(&mv).unwrap();
    }
    state.whole_view()
}

/// The names of the cards in `owner`'s `loc`, in the truth (none when
/// it is empty).
fn cards(view: &Observation, owner: &str, loc: &str) -> Vec<String> {
    let locations = view.owner(owner).map(|o| o.locations.as_slice());
    let l = locations.unwrap_or_default().iter().find(|l| l.name == loc);
    l.and_then(|l| l.cards.clone())
        .unwrap_or_default()
        .into_iter()
        .map(|c| c.name)
        .collect()
}

/// A person against the computer, with every kind of bad input on the
/// way: each answered with a message and the prompt again.
#[test]
fn a_scripted_game_with_bad_input() {
    let rules = file("hands.rcy", HANDS);
    let input = "\n9\nseven\nhelp\nlook\nsave\n0\n0\n";
    let (code, out, err) = play(&[&rules, "--seats", "human,random", "--seed", "4"], input);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains("seats: human, random"), "{out}");
    assert!(out.contains("type a move's number or words"), "{out}");
    assert!(
        out.contains("there is no move 9: the moves are numbered 0 to 1"),
        "{out}"
    );
    assert!(out.contains("`seven` is not one of the moves"), "{out}");
    assert!(out.contains("Commands:"), "{out}");
    assert!(out.contains("`save` needs a file name"), "{out}");
    assert!(out.contains("Your moves:\n   0: SIX -> PLAYED"), "{out}");
    assert!(
        out.contains("since your last turn:\n  p1 (random): FOUR -> PLAYED"),
        "{out}"
    );
    assert!(
        out.contains("Scores: p0 2, p1 2\nWinners: p0, p1 (you win)"),
        "{out}"
    );
    // The computer's hand is never on p0's screen before it is played:
    // the first screen shows p1's hand as a count.
    let start = truth(4, &[]);
    let first = out.split("p0> ").next().unwrap();
    assert!(first.contains("HAND: 2 cards, face down (iloc)"), "{first}");
    for card in cards(&start, "p1", "HAND") {
        assert!(!first.contains(&card), "p1's {card} shown:\n{first}");
    }
    for card in cards(&start, "p0", "HAND") {
        assert!(first.contains(&card), "p0's own {card} not shown:\n{first}");
    }
}

/// A move picked by its words, not its number.
#[test]
fn a_move_typed_in_words() {
    let rules = file("words.rcy", HANDS);
    let start = truth(2, &[]);
    let mine = cards(&start, "p0", "HAND");
    let input = format!("{}\n0\n", mine[1].to_lowercase());
    let (code, out, _) = play(&[&rules, "--seats", "human,random", "--seed", "2"], &input);
    assert_eq!(code, 0, "{out}");
    let told = format!("p0 (human): {} -> PLAYED", mine[1]);
    assert!(
        !out.contains(&told),
        "a person is not told of their own move"
    );
    assert!(out.contains(&format!("PLAYED: {}", mine[1])), "{out}");
}

/// The input ends in the middle of a game: a clear message, exit code 3.
#[test]
fn end_of_input_leaves_cleanly() {
    let rules = file("eof.rcy", HANDS);
    let (code, out, err) = play(&[&rules, "--seats", "human,random"], "seven\n");
    assert_eq!(code, 3, "{out}\n{err}");
    assert!(
        out.ends_with("end of input: the game is left unfinished\n"),
        "{out}"
    );
    assert!(err.is_empty(), "{err}");
    // Nothing at all.
    let (code, out, _) = play(&[&rules], "");
    assert_eq!(code, 3, "{out}");
}

/// Two people at one terminal: before each one's screen, a pause to pass
/// it, and neither's screen shows the other's hand.
#[test]
fn two_people_pass_the_screen() {
    let rules = file("two.rcy", HANDS);
    let input = "\n0\n\n0\n\n0\n\n0\n";
    let (code, out, err) = play(&[&rules, "--seats", "human,human", "--seed", "3"], input);
    assert_eq!(code, 0, "{out}\n{err}");
    let screens: Vec<&str> = out.split("--- pass the screen to ").skip(1).collect();
    assert_eq!(screens.len(), 4, "{out}");
    for (i, screen) in screens.iter().enumerate() {
        let (seat, other) = if i % 2 == 0 {
            ("p0", "p1")
        } else {
            ("p1", "p0")
        };
        assert!(screen.starts_with(seat), "{screen}");
        // The other's hand as it is when this screen is shown.
        let now = truth(3, &vec![0; i]);
        for card in cards(&now, other, "HAND") {
            assert!(
                !screen.contains(&card),
                "{other}'s {card} on {seat}'s screen:\n{screen}"
            );
        }
    }
    // Told to both people: the winners, without a "you".
    assert!(
        out.contains("=== the game is over ===\nScores: p0 2, p1 2\nWinners: p0, p1\n"),
        "{out}"
    );
}

/// The record saved with `--transcript` plays the same game again with
/// `--moves`, to the same final state as the live game (the positions
/// saved at the end are equal); `save FILE` writes a position `run
/// --position` starts from.
#[test]
fn moves_and_positions_are_saved_and_played_again() {
    let rules = file("saved.rcy", HANDS);
    let moves = file("saved.moves", "");
    let pos = file("saved.pos", "");
    let live_end = file("live-end.pos", "");
    let input = format!("save {pos}\n1\n0\n");
    let args = [
        &rules,
        "--seats",
        "human,random",
        "--seed",
        "5",
        "--transcript",
        &moves,
        "--save",
        &live_end,
    ];
    let (code, out, _) = play(&args, &input);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!("saved the position to {pos}")),
        "{out}"
    );
    assert!(out.contains(&format!("saved 4 moves to {moves}")), "{out}");
    let saved = std::fs::read_to_string(&moves).unwrap();
    let records = cardboard::command::read_records(&saved).expect("a record");
    assert_eq!(records.len(), 1, "{saved}");
    let record = &records[0];
    assert_eq!((record.seed, record.commands.len()), (5, 4), "{saved}");
    assert_eq!(record.seats, ["human", "random"], "{saved}");
    // One command a line, numbered from 0 as the observations number
    // their decisions.
    assert!(
        saved.contains("\n{\"decision\":0,\"move\":\"move "),
        "{saved}"
    );
    let numbers: Vec<u64> = record.commands.iter().map(|c| c.decision).collect();
    assert_eq!(numbers, [0, 1, 2, 3]);
    // The last screen, from p0's side, down to the winners.
    let end = |o: &str| {
        let last = o.rsplit("=== you are p0").next().unwrap();
        last.split("saved").next().unwrap().to_string()
    };
    assert!(end(&out).contains("the game is over"), "{out}");
    // Played again by the record alone (its seed): the same end, the same
    // final state.
    let replay_end = file("replay-end.pos", "");
    let again = [
        &rules,
        "--seats",
        "human,random",
        "--moves",
        &moves,
        "--save",
        &replay_end,
    ];
    let (code, out2, _) = play(&again, "");
    assert_eq!(code, 0, "{out2}");
    assert!(out2.contains("replayed 4 moves"), "{out2}");
    assert_eq!(end(&out), end(&out2));
    assert_eq!(
        std::fs::read_to_string(&live_end).unwrap(),
        std::fs::read_to_string(&replay_end).unwrap()
    );
    // The position saved at the first decision.
    let (code, run, err) = cardboard(&["run", &rules, "--position", &pos]);
    assert_eq!(code, 0, "{run}\n{err}");
    // A command that is not one is refused with its place in the record.
    let bad = file(
        "bad.moves",
        r#"{"record": 1, "seed": 0, "commands": [{"decision": 0, "move": "move NOTHING p0 HAND -> p0 PLAYED"}]}"#,
    );
    let args = [&rules, "--seats", "human,human", "--moves", &bad];
    let (code, _, err) = play(&args, "");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("command 1 of --moves (decision 0, `move NOTHING"),
        "{err}"
    );
    // A command for another decision is refused too.
    let stale = saved.replacen("\"decision\":1,", "\"decision\":7,", 1);
    let stale = file("stale.moves", &stale);
    let args = [&rules, "--seats", "human,human", "--moves", &stale];
    let (code, _, err) = play(&args, "");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("decision 1 is asked now"), "{err}");
    // A file that is no record, another game of the file, --seed with
    // --moves: each refused with its reason.
    let lines = file("lines.moves", "# old\nmove ONE p0 HAND -> p0 PLAYED\n");
    let (code, _, err) = play(&[&rules, "--moves", &lines], "");
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("record 1: not JSON"), "{err}");
    let (code, _, err) = play(&[&rules, "--moves", &moves, "--game", "1"], "");
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("there is no game 1: the file holds 1"),
        "{err}"
    );
    let (code, _, err) = play(&[&rules, "--moves", &moves, "--seed", "5"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
}

/// A shipped game with hidden hands, a person against three computer
/// seats (one searching), played to its end by always taking move 0.
#[test]
fn agram_against_the_computer() {
    let input = "0\n".repeat(40);
    let args = [
        "games/agram.rcy",
        "--seats",
        "human,random,mcts:20,ismcts:20",
        "--seed",
        "9",
    ];
    let (code, out, err) = play(&args, &input);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        out.contains("p1:\n  Hand: 6 cards, face down (iloc)"),
        "{out}"
    );
    assert!(out.contains("Winners: "), "{out}");
}

/// Seats that `play` cannot seat, or that `run` and `simulate` cannot.
#[test]
fn seats_refused() {
    let rules = file("refused.rcy", HANDS);
    let (code, _, err) = play(&[&rules, "--seats", "human,remote"], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("remote seats are for `cardboard serve`"),
        "{err}"
    );
    let (code, _, err) = play(&[&rules, "--seats", "human,human,human"], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("--seats names 3 seats but the game has 2 players"),
        "{err}"
    );
    for command in ["run", "simulate"] {
        let mut args = vec![command, rules.as_str(), "--seats", "random,human"];
        if command == "simulate" {
            args.extend(["--games", "2"]);
        }
        let (code, out, err) = cardboard(&args);
        assert_ne!(code, 0, "{command}: {out}");
        let all = format!("{out}{err}");
        assert!(
            all.contains("human seats are for `cardboard play`"),
            "{command}: {all}"
        );
    }
}

/// The map of a grid: the top piece of each space by a short name (`?`
/// face down, `.` empty), a piece's facing from the string storages that
/// name it, a legend; a track as a list of its spaces.
#[test]
fn boards_drawn_as_text() {
    let rules = Rules::from_source(
        "boards.rcy",
        "(game
 (setup (create players 2)
        (create board GRID (grid 3 4))
        (create board LANE (track 5))
        (create board BOTS (track 1))
        (create deck (game vloc BOX) (deck (ROBOT (R0))))
        (create deck (game vloc STONES) (deck (COLOR (BLACK, WHITE)) (SIZE (BIG))))
        (create deck (game hloc TILES) (deck (RANK (ACE)))))
 (do ((move (top (game vloc BOX)) (top ((space GRID 1 2) vloc PIECE)))
      (set ((space BOTS 0) str ID) R0)
      (set ((space BOTS 0) str FACING) W)
      (move (top (game hloc TILES)) (top ((space GRID 0 0) hloc TILE)))
      (move (top (game vloc STONES)) (top ((space GRID 2 3) vloc PIECE)))
      (move (top (game vloc STONES)) (top ((space LANE 3) vloc PIECE)))))
 (stage player (end (== 1 1)) (choice ((turn pass))))
 (scoring max 0))",
    )
    .unwrap();
    let state = rules
        .start(&GameOptions {
            seed: 1,
            overrides: vec![],
        })
        .unwrap();
    let seen = state.observe(0);
    let grid = cardboard::play::screen::draw_board(&seen.boards[0], &seen);
    let stone = cards(&state.whole_view(), "GRID[2,3]", "PIECE")[0].clone();
    let short = if stone.starts_with("BLACK") {
        "BB"
    } else {
        "WB"
    };
    let expected = format!(
        "GRID (3 x 4 grid):
    A   B   C   D
 1  ?   .   .   .
 2  .   .   R0< .
 3  .   .   .   {short}
  ({short} = {stone})
"
    );
    assert_eq!(grid, expected);
    let lane = cardboard::play::screen::draw_board(&seen.boards[1], &seen);
    let other = if stone.starts_with("BLACK") {
        "WHITE-BIG"
    } else {
        "BLACK-BIG"
    };
    assert_eq!(
        lane,
        format!("LANE (a track of 5):\n    3: PIECE {other}\n")
    );
}

/// A forced move (one card left in the hand) plays itself: one line typed
/// plays the whole game of two cards; with `--no-auto-forced` it is asked
/// for, and the input ends before it.
#[test]
fn a_forced_move_plays_itself_unless_asked_not_to() {
    let rules = file("forced.rcy", HANDS);
    let args = [rules.as_str(), "--seats", "human,random", "--seed", "4"];
    let (code, out, err) = play(&args, "0\n");
    assert_eq!(code, 0, "{out}\n{err}");
    assert_eq!(
        out.matches("your only move, played for you: ").count(),
        1,
        "{out}"
    );
    assert!(out.contains("Winners: "), "{out}");
    let asked = [&args[..], &["--no-auto-forced"]].concat();
    let (code, out, _) = play(&asked, "0\n");
    assert_eq!(code, 3, "{out}");
    assert!(!out.contains("played for you"), "{out}");
    assert_eq!(out.matches("p0> ").count(), 2, "{out}");
}
