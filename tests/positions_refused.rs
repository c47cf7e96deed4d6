//! Positions that must be refused (docs/positions.md, section 3): each bad
//! line is named with its number and what is wrong; damaged texts never
//! panic; a position where the player to move has no move is refused; the
//! command line saves and starts from positions.

mod common;
#[path = "common/positions.rs"]
mod helpers;

use cardboard::engine::{GameOptions, Rules};
use cardboard::game::GameState;
use cardboard::random::{below, GameRng};
use common::cardboard;
use helpers::*;
use std::path::Path;

/// Replaces the first line that starts with `prefix` by `with` (or removes
/// it when `with` is empty).
fn edit(text: &str, prefix: &str, with: &str) -> String {
    let mut done = false;
    let mut out = String::new();
    for l in text.lines() {
        if !done && l.starts_with(prefix) {
            done = true;
            if !with.is_empty() {
                out.push_str(with);
                out.push('\n');
            }
        } else {
            out.push_str(l);
            out.push('\n');
        }
    }
    assert!(done, "no line starts with `{prefix}`");
    out
}

#[test]
fn bad_positions_say_which_line_and_what() {
    let rules = agram();
    let good = start(&rules, 2, &[]).to_position();
    let line_of = |text: &str, prefix: &str| {
        1 + text
            .lines()
            .position(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line `{prefix}`"))
    };
    let hand = good
        .lines()
        .find(|l| l.starts_with("p0 iloc HAND"))
        .unwrap()
        .to_string();
    let first_card = hand
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    let p1_hand = good
        .lines()
        .find(|l| l.starts_with("p1 iloc HAND"))
        .unwrap()
        .to_string();
    // The dealing moved cards: the last one is named by a `moved` line.
    let moved = good
        .lines()
        .find(|l| l.starts_with("moved "))
        .unwrap()
        .to_string();
    let moved_at = |index: &str| format!("{} {index}", moved.rsplit_once(' ').unwrap().0);
    let cases: Vec<(String, usize, &str)> = vec![
        (String::new(), 0, "the position is empty"),
        (
            edit(&good, "moved ", &moved_at("99")),
            line_of(&good, "moved "),
            "so its index from the top is 0 to",
        ),
        (
            // Found by the fuzzer: the index past the top overflowed.
            edit(&good, "moved ", &moved_at("18446744073709551615")),
            line_of(&good, "moved "),
            "so its index from the top is 0 to",
        ),
        (
            edit(&good, "moved ", &moved_at("last")),
            line_of(&good, "moved "),
            "`last` is not an index from the top",
        ),
        (
            edit(&good, "moved ", "moved p0 vloc HAND 0"),
            line_of(&good, "moved "),
            "no location `vloc HAND` (it has `iloc HAND`)",
        ),
        (
            edit(&good, "moved ", "moved game vloc PLAYED 0"),
            line_of(&good, "moved "),
            "`game vloc PLAYED` holds no card",
        ),
        (
            "hello\n".into(),
            1,
            "begins with the line `cardboard position 1`",
        ),
        (
            good.replace("cardboard position 1", "cardboard position 2"),
            1,
            "reads `cardboard position 1` only",
        ),
        (
            edit(
                &good,
                "p1 iloc HAND",
                &format!("{} {first_card}", p1_hand.replace(" (6)", "")),
            ),
            line_of(&good, "p1 iloc HAND"),
            "appears twice",
        ),
        (
            edit(&good, "p1 iloc HAND", ""),
            0,
            "cards of the rules are missing from the position",
        ),
        (
            edit(
                &good,
                "p0 iloc HAND",
                &hand.replace(&first_card, "HEARTS-KING"),
            ),
            line_of(&good, "p0 iloc HAND"),
            "no card of the rules is called `HEARTS-KING`",
        ),
        (
            edit(&good, "p0 iloc HAND", &hand.replace("(6)", "(5)")),
            line_of(&good, "p0 iloc HAND"),
            "says (5) but lists 6 cards",
        ),
        (
            edit(&good, "p0 iloc HAND", &hand.replace("iloc", "vloc")),
            line_of(&good, "p0 iloc HAND"),
            "no location `vloc HAND` (it has `iloc HAND`)",
        ),
        (
            edit(&good, "p0 iloc HAND", &hand.replace("p0", "p9")),
            line_of(&good, "p0 iloc HAND"),
            "`p9` is neither a line kind nor an owner",
        ),
        (
            edit(&good, "p0 iloc HAND", &hand.replace(":", "")),
            line_of(&good, "p0 iloc HAND"),
            "with a colon before the cards",
        ),
        (
            edit(&good, "p0 iloc HAND", "p0 iloc HAND: HEARTS-TEN*40"),
            line_of(&good, "p0 iloc HAND"),
            "`HEARTS-TEN*40`: more cards than the 35 the rules have",
        ),
        (
            edit(&good, "p0 iloc HAND", "p0 iloc HAND: HEARTS-TEN*2"),
            line_of(&good, "p0 iloc HAND"),
            "card HEARTS-TEN appears twice",
        ),
        (
            edit(&good, "set NUMP", "set NUMP=3"),
            line_of(&good, "teams"),
            "team3 has seat 3, but the seats are 0 to 2",
        ),
        (
            edit(&good, "set NUMP", "set PLAYERS=3"),
            line_of(&good, "set NUMP"),
            "the rules declare no `'PLAYERS`",
        ),
        (
            edit(&good, "set NUMP", "set NUMP=four"),
            line_of(&good, "set NUMP"),
            "an integer",
        ),
        (
            edit(&good, "set NUMP", "set NUMP=99"),
            0,
            "cannot start with the position's settings",
        ),
        (
            edit(&good, "decisions", "decisions 18446744073709551615"),
            line_of(&good, "decisions"),
            "18446744073709551615 decisions: a position counts at most 9223372036854775807",
        ),
        (
            edit(&good, "decisions", "decisions 18446744073709551616"),
            line_of(&good, "decisions"),
            "not a number of decisions",
        ),
        (
            edit(&good, "decks", "decks 0 2"),
            line_of(&good, "decks"),
            "there is no deck 2: the rules have 2 `create deck` forms",
        ),
        (
            edit(&good, "decks", "decks 0 1 0 1"),
            0,
            "35 cards of the rules are missing from the position",
        ),
        (
            edit(&good, "decks", &format!("decks {}", ["0"; 40000].join(" "))),
            line_of(&good, "decks"),
            "the decks make more than 1000000 cards (the limit of --max-cards)",
        ),
        (
            format!("{good}decks 0\n"),
            good.lines().count() + 1,
            "`decks` appears twice",
        ),
        (
            edit(
                &good,
                "p0 iloc HAND",
                &format!("{hand} {first_card}*18446744073709551615"),
            ),
            line_of(&good, "p0 iloc HAND"),
            "more cards than the 35 the rules have",
        ),
        (
            edit(&good, "decisions", "decisions -1"),
            line_of(&good, "decisions"),
            "not a number of decisions",
        ),
        (edit(&good, "frames", ""), 0, "missing the `frames` line"),
        (
            edit(&good, "frames", "frames top:0"),
            line_of(&good, "frames"),
            "not at a decision: item 0 of top is not a choice",
        ),
        (
            edit(&good, "frames", "frames top:1 stage1:0"),
            line_of(&good, "frames"),
            "item 1 of top is stage0, not stage1",
        ),
        (
            edit(&good, "frames", "frames top:1 stage7:0"),
            line_of(&good, "frames"),
            "there is no stage7",
        ),
        (
            edit(&good, "frames", "frames top:9"),
            line_of(&good, "frames"),
            "top has items 0 to 1, not 9",
        ),
        (
            edit(&good, "frames", "frames stage0:0"),
            line_of(&good, "frames"),
            "the first frame is `top:N`",
        ),
        (
            edit(&good, "frames", "frames top:x"),
            line_of(&good, "frames"),
            "`x` is not an item number",
        ),
        (
            edit(&good, "cycles player", "cycles player 0 0"),
            line_of(&good, "cycles player"),
            "the frames need 3",
        ),
        (
            edit(&good, "cycles player", "cycles player 0 0 4"),
            line_of(&good, "cycles player"),
            "the players are 0 to 3",
        ),
        (
            edit(&good, "cycles player", "cycles player 0 0 1>7"),
            line_of(&good, "cycles player"),
            "player 7",
        ),
        (
            edit(&good, "cycles player", "cycles robot 0"),
            line_of(&good, "cycles player"),
            "`player` or `team`",
        ),
        (
            edit(&good, "teams", "teams 0,1 1,2 3"),
            line_of(&good, "teams"),
            "seat 1 is in team0 and in team1",
        ),
        (
            edit(&good, "teams", "teams 0,1 2"),
            line_of(&good, "teams"),
            "seat 3 is in no team",
        ),
        (
            edit(&good, "teams", "teams 0 1 2 3 4"),
            line_of(&good, "teams"),
            "seat 4",
        ),
        (
            edit(&good, "chance", "chance key=00 stream=0 word=0"),
            line_of(&good, "chance"),
            "64 hexadecimal digits",
        ),
        (
            edit(&good, "chance", "chance dice"),
            line_of(&good, "chance"),
            "`seed=N`",
        ),
        (
            edit(&good, "chance", "chance seed=1 seed=2"),
            line_of(&good, "chance"),
            "appears twice",
        ),
        (
            edit(&good, "chance", "chance word=5"),
            line_of(&good, "chance"),
            "`key=HEX stream=N word=N`",
        ),
        (
            edit(&good, "game sto HANDSIZE", "game sto HANDSIZE = lots"),
            line_of(&good, "game sto"),
            "not an integer",
        ),
        (
            edit(&good, "game sto HANDSIZE", "game sto HANDSIZ = 6"),
            line_of(&good, "game sto"),
            "no integer storage `HANDSIZ`",
        ),
        (
            edit(&good, "game sto HANDSIZE", "game sto HANDSIZE 6"),
            line_of(&good, "game sto"),
            "`OWNER sto NAME = VALUE`",
        ),
        (
            edit(&good, "game sto HANDSIZE", "game cup HANDSIZE = 6"),
            line_of(&good, "game sto"),
            "`cup` is not a kind of location or storage",
        ),
        (
            edit(
                &good,
                "game points",
                "game points RANKING = ((RANK : ACE) 14",
            ),
            line_of(&good, "game points"),
            "expected `)`, found the end of the line",
        ),
        (
            edit(
                &good,
                "game points",
                "game points RANKING = ((COLOUR : ACE) 14)",
            ),
            line_of(&good, "game points"),
            "`COLOUR` is not an attribute of the rules",
        ),
        (
            edit(
                &good,
                "game points",
                "game points RANKING = ((SUIT : ACE) many)",
            ),
            line_of(&good, "game points"),
            "`many` is not a number of points",
        ),
        (
            format!("{good}game str LEADSUIT = PURPLE\n"),
            good.lines().count() + 1,
            "`PURPLE` is not a value of the rules",
        ),
        (
            format!("{good}game sto HANDSIZE = 5\n"),
            good.lines().count() + 1,
            "`game sto HANDSIZE` appears twice (first at line",
        ),
        (
            format!("{good}cardboard position 1\n"),
            good.lines().count() + 1,
            "header line appears again",
        ),
    ];
    for (text, line, what) in cases {
        match rules.load_position(&text) {
            Ok(_) => panic!("accepted a bad position (expected `{what}`):\n{text}"),
            Err(e) => {
                assert!(
                    e.message.contains(what),
                    "expected `{what}` in the message, got `{e}`\n{text}"
                );
                assert_eq!(e.line, line, "line of `{e}`");
            }
        }
    }
}

#[test]
fn a_position_where_the_player_cannot_move_is_refused() {
    let rules = agram();
    // p2 to lead, with an empty hand: no legal move.
    let text = puzzle()
        .replace(
            "p2 iloc HAND: HEARTS-THREE CLUBS-TEN HEARTS-ACE SPADES-NINE DIAMONDS-FIVE\n",
            "",
        )
        .replace(
            "game vloc PLAYED (4): ",
            "game vloc PLAYED (9): HEARTS-THREE CLUBS-TEN HEARTS-ACE SPADES-NINE DIAMONDS-FIVE ",
        );
    let e = rules.load_position(&text).unwrap_err();
    assert!(e.message.contains("no legal move"), "{e}");
}

/// Random damage to saved positions (lines dropped, duplicated, swapped,
/// cut, characters changed) is refused or accepted, never a panic.
#[test]
fn damaged_positions_never_panic() {
    let mut texts = vec![start(&agram(), 3, &[]).to_position(), puzzle()];
    for name in ["carteso.rcy", "cartagena.rcy"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games")
            .join(name);
        if let Ok(rules) = Rules::load(&path) {
            if let Ok(state) = rules.start(&GameOptions::default()) {
                texts.push(state.to_position());
            }
        }
    }
    let rules_for = |i: usize| -> Option<Rules> {
        match i {
            0 | 1 => Some(agram()),
            2 => Rules::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/carteso.rcy")).ok(),
            _ => {
                Rules::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/cartagena.rcy")).ok()
            }
        }
    };
    let junk = [
        "",
        " ",
        ":",
        "=",
        "(",
        ")",
        "#",
        ">",
        ",",
        "[",
        "]",
        "0",
        "-1",
        "99999999999999999999",
        "p0",
        "game",
        "top:",
        "stage",
        "?",
        "\"\"",
        "\u{e9}",
        "key=",
        "\t",
    ];
    let mut rng = GameRng::new(99);
    for (i, text) in texts.iter().enumerate() {
        let Some(rules) = rules_for(i) else { continue };
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..400 {
            let mut ls: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            for _ in 0..1 + below(&mut rng, 3) {
                let k = below(&mut rng, ls.len().max(1)).min(ls.len().saturating_sub(1));
                match below(&mut rng, 6) {
                    0 => {
                        ls.remove(k);
                    }
                    1 => {
                        let l = ls[k].clone();
                        ls.insert(k, l);
                    }
                    2 => {
                        let j = below(&mut rng, ls.len());
                        ls.swap(k, j);
                    }
                    3 => {
                        let cut = below(&mut rng, ls[k].len() + 1);
                        let cut = (0..=cut)
                            .rev()
                            .find(|&c| ls[k].is_char_boundary(c))
                            .unwrap_or(0);
                        ls[k].truncate(cut);
                    }
                    _ => {
                        let words: Vec<String> = ls[k].split(' ').map(str::to_string).collect();
                        let w = below(&mut rng, words.len());
                        let mut words = words;
                        words[w] = junk[below(&mut rng, junk.len())].to_string();
                        ls[k] = words.join(" ");
                    }
                }
                if ls.is_empty() {
                    break;
                }
            }
            let damaged = ls.join("\n");
            if let Ok(state) = rules.load_position(&damaged) {
                // Whatever loads must be playable.
                let _ = state.legal_moves();
                let _ = state.to_position();
                let _ = state.describe();
            }
        }
    }
}

#[test]
fn command_line_saves_and_starts_from_positions() {
    let dir = std::env::temp_dir().join(format!("cardboard-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pos = dir.join("five.pos");
    let pos_arg = pos.to_str().unwrap();

    // Save after five decisions of seed 7: the position of the library.
    let (code, out, err) = cardboard(&[
        "run",
        "games/agram.rcy",
        "--seed",
        "7",
        "--save-at",
        "5",
        "--save",
        pos_arg,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("== stopped at the limit of 5 decisions =="),
        "{out}"
    );
    assert!(
        err.contains("saved the position after 5 decisions"),
        "{err}"
    );
    let saved = std::fs::read_to_string(&pos).unwrap();
    let rules = agram();
    let mut state = start(&rules, 7, &[]);
    let mut player = cardboard::player::RandomPlayer::new(cardboard::drivers::player_seed(7));
    for _ in 0..5 {
        use cardboard::player::Player;
        let moves = state.legal_moves();
        let i = player.choose(&state, &moves);
        state.apply(&moves[i]).unwrap();
    }
    assert_eq!(saved, state.to_position());

    // Run on from it: the transcript starts at the position's table.
    let (code, out, err) = cardboard(&[
        "run",
        "games/agram.rcy",
        "--position",
        pos_arg,
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("position: {pos_arg}")), "{out}");
    assert!(out.contains("set: NUMP=4, HANDSIZE=6"), "{out}");
    assert!(out.contains(&state.describe().lines().next().unwrap().to_string()));
    assert!(out.contains("== finished after 19 decisions =="), "{out}");

    // perft from it agrees with the library.
    let (code, out, err) = cardboard(&["perft", "games/agram.rcy", "3", "--position", pos_arg]);
    assert_eq!(code, 0, "{err}");
    let counts = cardboard::drivers::perft::perft(&state, 3).unwrap();
    let table = cardboard::drivers::perft::perft_table(&counts);
    assert!(out.starts_with(&table), "{out}");

    // simulate from it: every game has the 19 decisions left.
    let (code, out, err) = cardboard(&[
        "simulate",
        "games/agram.rcy",
        "--games",
        "50",
        "--position",
        pos_arg,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"completed\": 50"), "{out}");
    assert!(out.contains("\"min_decisions\": 19"), "{out}");
    assert!(out.contains("\"max_decisions\": 19"), "{out}");

    // A bad position: file, line, what; exit code 1.
    let bad = dir.join("bad.pos");
    std::fs::write(&bad, saved.replace("decisions 5", "decisions five")).unwrap();
    let bad_arg = bad.to_str().unwrap();
    let (code, _, err) = cardboard(&["run", "games/agram.rcy", "--position", bad_arg]);
    assert_eq!(code, 1);
    let line = 1 + saved
        .lines()
        .position(|l| l.starts_with("decisions"))
        .unwrap();
    assert!(
        err.contains(&format!(
            "{bad_arg}:{line}: `five` is not a number of decisions"
        )),
        "{err}"
    );
    let (code, _, err) = cardboard(&["perft", "games/agram.rcy", "2", "--position", "no/such.pos"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read no/such.pos"), "{err}");
    let (code, _, err) = cardboard(&[
        "run",
        "games/agram.rcy",
        "--position",
        pos_arg,
        "--set",
        "NUMP=3",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
    let (code, _, err) = cardboard(&["run", "games/agram.rcy", "--save-at", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--save"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
