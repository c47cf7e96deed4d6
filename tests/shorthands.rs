//! The shorthands of docs/language.md section 12 (`if`, `inrow`, `step`,
//! `sow`, `place`): tic-tac-toe, its pieces form and Connect Four written
//! with them (tests/shorthands/*.rcy) count the same perft as the long
//! forms of `examples/`; `sow` and `step` on a ring of pits sow what a
//! count by hand says; `if` chooses integers, strings and spaces; a
//! malformed shorthand is refused with the way to write it.

#[path = "common/classic.rs"]
mod classic;

use cardboard::drivers::perft::perft;
use cardboard::engine::{Rules, State};
use cardboard::game::GameState;
use classic::View;
use std::path::Path;

fn file(dir: &str, name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(dir).join(name)
}

fn perft_of(path: &Path, depth: usize) -> Vec<u64> {
    let rules = classic::load(path);
    perft(&classic::start(&rules, 1, &[]), depth).unwrap()
}

#[test]
fn the_short_forms_count_what_the_long_forms_count() {
    for (name, depth) in [
        ("tictactoe.rcy", 9),
        ("tictactoe-pieces.rcy", 9),
        ("connect4.rcy", 5),
    ] {
        let long = perft_of(&file("examples", name), depth);
        let short = perft_of(&file("tests/shorthands", name), depth);
        assert_eq!(short, long, "{name}");
    }
}

fn start(source: &str) -> State {
    let rules = Rules::from_source("test.rcy", source).unwrap_or_else(|e| panic!("{e}"));
    classic::start(&rules, 1, &[])
}

/// Plays the move whose text contains `text`.
fn play(s: &mut State, text: &str) {
    let moves = s.legal_moves();
    let texts = s.moves_to_text(&moves);
    let k = texts
        .iter()
        .position(|t| t.contains(text))
        .unwrap_or_else(|| panic!("no move {text} in {texts:?}"));
    s.apply(&moves[k]).unwrap();
}

/// Kalah's ring of 14 pits: pit 13 (the other store) is passed over.
const SOW: &str = "
(game
  (setup (create players 2) (create board PITS (grid 1 14 (wrap columns))))
  (do ((all (spaces PITS) 'S (set ('S sto SEEDS) 4))
       (set ((space PITS 0 11) sto SEEDS) 15)))
  (stage player
    (end (== (game sto DONE) 1))
    (choice
      ((any (spaces PITS) 'S
            ((> ('S sto SEEDS) 0)
             (sow 'S E SEEDS (space PITS 0 13) 'LAST
                  (do ((set (game sto LAST) (index 'LAST))
                       (set (game sto DONE) 1)))))))))
  (scoring max 0))";

#[test]
fn sow_puts_one_seed_in_each_next_pit_passing_over_the_skipped_one() {
    let mut s = start(SOW);
    // 15 seeds from pit 11: 12, then 0 to 11 (13 passed over), 12, 0.
    play(&mut s, "PITS[0,11] SEEDS = 0;");
    let v = View::of(&s);
    let seeds = |c: usize| v.int(&format!("PITS[0,{c}]"), "SEEDS");
    assert_eq!(seeds(11), 1);
    assert_eq!(seeds(12), 4 + 2);
    assert_eq!(seeds(0), 4 + 2);
    assert_eq!(seeds(1), 4 + 1);
    assert_eq!(seeds(13), 4);
    assert_eq!(v.int("game", "LAST"), 0);
    // 4 seeds from pit 12: 0, 1, 2, 3 (13 passed over).
    let mut s = start(SOW);
    play(&mut s, "PITS[0,12] SEEDS = 0;");
    let v = View::of(&s);
    assert_eq!(v.int("PITS[0,13]", "SEEDS"), 4);
    assert_eq!(v.int("PITS[0,3]", "SEEDS"), 5);
    assert_eq!(v.int("game", "LAST"), 3);
}

#[test]
fn if_chooses_an_integer_a_string_or_a_space() {
    let s = start(
        "
(game
  (setup (create players 2) (create board G (grid 3 3)))
  (do ((set (game sto A) (if (> 2 1) 7 8))
       (set (game sto B) (if (< 2 1) 7 8))
       (set (game str C) (if (== (current player) (1 player)) ONE ZERO))
       (set ((if (> 2 1) (space G 1 1) (space G 0 0)) sto HIT) 1)
       (set (game sto I) (index (step (space G 0 0) E 2)))
       (set (game sto J) (index (step (space G 0 0) E 1 (space G 0 1))))
       ((onboard (step (space G 0 0) E 2 (space G 0 1))) (set (game sto K) 1))
       ((onboard (step (space G 0 0) E 3)) (set (game sto OFF) 1))))
  (stage player (end (== 1 1)) (choice ((turn pass))))
  (scoring max 0))",
    );
    let v = View::of(&s);
    assert_eq!(v.int("game", "A"), 7);
    assert_eq!(v.int("game", "B"), 8);
    assert_eq!(v.value("game", "str C").as_deref(), Some("ZERO"));
    assert_eq!(v.int("G[1,1]", "HIT"), 1);
    assert_eq!(v.int("G[0,0]", "HIT"), 0);
    assert_eq!(v.int("game", "I"), 2);
    // Passing over (0, 1): one step is (0, 2), two leave the row.
    assert_eq!(v.int("game", "J"), 2);
    assert_eq!(v.int("game", "K"), 0);
    assert_eq!(v.int("game", "OFF"), 0);
}

#[test]
fn inrow_counts_the_space_itself_and_both_sides() {
    // Marks at (0,0) and (0,2): (0,1) would make three in the row.
    let s = start(
        "
(game
  (setup (create players 2) (create board G (grid 3 3)))
  (do ((set ((space G 0 0) sto M) 1)
       (set ((space G 0 2) sto M) 1)
       ((inrow 3 (space G 0 1) 'V (== ('V sto M) 1)) (set (game sto THREE) 1))
       ((inrow 4 (space G 0 1) 'V (== ('V sto M) 1)) (set (game sto FOUR) 1))
       ((inrow 3 (space G 1 1) 'V (== ('V sto M) 1)) (set (game sto MIDDLE) 1))))
  (stage player (end (== 1 1)) (choice ((turn pass))))
  (scoring max 0))",
    );
    let v = View::of(&s);
    assert_eq!(v.int("game", "THREE"), 1);
    assert_eq!(v.int("game", "FOUR"), 0);
    assert_eq!(v.int("game", "MIDDLE"), 0);
}

#[test]
fn a_malformed_shorthand_is_refused_with_its_shape() {
    for (form, words) in [
        ("((inrow 3 'S) (turn pass))", "(inrow N SPACE 'V CONDITION)"),
        ("(sow 'S)", "(sow SPACE DIRECTION NAME)"),
        (
            "(place (top ('S vloc X)))",
            "(place (KEY VALUE)... DESTINATION)",
        ),
        (
            "(set (game sto X) (index (step 'S E)))",
            "(step SPACE DIRECTION K)",
        ),
        (
            "(set (game sto X) (if (== 1 1) 2))",
            "a condition and two values",
        ),
    ] {
        let source = format!(
            "(game (setup (create players 2) (create board G (grid 3 3)))
               (stage player (end (== 1 1))
                 (choice ((any (spaces G) 'S {form}))))
               (scoring max 0))"
        );
        let Err(errors) = cardboard::lower::compile(&source) else {
            panic!("{form} compiles");
        };
        assert!(
            errors.iter().any(|e| e.message.contains(words)),
            "{form}: {errors:?}"
        );
    }
}
