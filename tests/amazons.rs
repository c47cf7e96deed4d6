//! An `any` whose items' bodies do nothing (docs/language.md, section 4.4):
//! after other actions, such items are not offered one by one as moves
//! that all do the same thing (the "silent wrong move count" of issue 32).
//! Amazons (`tests/amazons/amazons.rcy`: a queen moves, then shoots an
//! arrow over the lines of empty squares of eight directions, some of them
//! empty) counts the published 2,176 first moves on 10 x 10, and the
//! engine's first moves equal a Rust reading of the rules on smaller
//! boards; small choices pin the meaning.

mod common;

use cardboard::drivers::perft::perft;
use cardboard::engine::{Rules, State};
use cardboard::game::GameState;
use common::options;
use std::path::PathBuf;

fn amazons() -> Rules {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/amazons/amazons.rcy");
    Rules::load(&path).unwrap_or_else(|e| panic!("amazons.rcy does not load:\n{e}"))
}

const DIRS: [(i32, i32); 8] = [
    (-1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
];

/// The first moves of Amazons on an n x n board, read in Rust: the queens
/// as the rules file sets them up, each queen move times the arrows
/// from where it lands (the square it left is empty).
fn reference_first_moves(n: i32) -> u64 {
    let (l, m) = (n - 1, (n - 4) / 2);
    let mut board = vec![0u8; (n * n) as usize];
    let at = |r: i32, c: i32| (r * n + c) as usize;
    for (r, c) in [(l - 3, 0), (l - 3, l), (l, m), (l, l - m)] {
        board[at(r, c)] = 1;
    }
    for (r, c) in [(3, 0), (3, l), (0, m), (0, l - m)] {
        board[at(r, c)] = 2;
    }
    let rays = |b: &[u8], r: i32, c: i32| -> Vec<(i32, i32)> {
        let mut out = Vec::new();
        for (dr, dc) in DIRS {
            let (mut rr, mut cc) = (r + dr, c + dc);
            while rr >= 0 && cc >= 0 && rr < n && cc < n && b[at(rr, cc)] == 0 {
                out.push((rr, cc));
                rr += dr;
                cc += dc;
            }
        }
        out
    };
    let mut count = 0;
    for r in 0..n {
        for c in 0..n {
            if board[at(r, c)] != 1 {
                continue;
            }
            for (tr, tc) in rays(&board, r, c) {
                let mut b = board.clone();
                b[at(r, c)] = 0;
                b[at(tr, tc)] = 1;
                count += rays(&b, tr, tc).len() as u64;
            }
        }
    }
    count
}

#[test]
fn amazons_counts_the_published_first_moves() {
    let r = amazons();
    let start = r.start(&options(1, &[])).expect("the game starts");
    assert_eq!(perft(&start, 1).unwrap(), vec![1, 2176]);
    assert_eq!(reference_first_moves(10), 2176);
    for size in ["6", "8"] {
        let start = r.start(&options(1, &[("SIZE", size)])).unwrap();
        let n: i32 = size.parse().unwrap();
        assert_eq!(
            perft(&start, 1).unwrap()[1],
            reference_first_moves(n),
            "{size}"
        );
        let texts = start.moves_to_text(&start.legal_moves());
        assert!(texts.iter().all(|t| !t.contains("(#")), "{texts:?}");
    }
}

/// A choice whose option does something, then `any` over directions and
/// `any` over the line of empty squares in each direction: the texts of
/// its moves.
fn shape(flags: &str) -> Vec<String> {
    let src = format!(
        "(game
  (setup (create players 2) (create board B (grid 3 3)))
  (do ({flags} (set ((space B 1 1) sto X) 1)))
  (stage player
    (end (> (game sto DONE) 0))
    (choice
      ((do ((set (game sto DONE) 1)
            (any (N, E, S, W) 'D
                 (any (line (space B 1 1) 'D 'V (== ('V sto X) 0)) 'A
                      (set ('A sto X) 2))))))))
  (scoring max 0))"
    );
    let r = Rules::from_source("shape.rcy", &src).unwrap_or_else(|e| panic!("{}", e.render()));
    let s: State = r.start(&options(1, &[])).unwrap();
    let texts = s.moves_to_text(&s.legal_moves());
    let walked = r.uncompiled().start(&options(1, &[])).unwrap();
    assert_eq!(walked.moves_to_text(&walked.legal_moves()), texts);
    texts
}

#[test]
fn empty_inner_anys_do_not_offer_the_first_step_again() {
    // Only the line to the north is open: one move, the arrow there; the
    // three empty lines add nothing (it was offered three more times).
    let north =
        "(set ((space B 1 0) sto X) 9) (set ((space B 1 2) sto X) 9) (set ((space B 2 1) sto X) 9)";
    assert_eq!(shape(north), vec!["game DONE = 1; B[0,1] X = 2"]);
    // Every line empty: the `any`s do nothing, the step before them is
    // one move, once.
    let none = format!("{north} (set ((space B 0 1) sto X) 9)");
    assert_eq!(shape(&none), vec!["game DONE = 1"]);
    // Every line open: four moves.
    assert_eq!(shape("").len(), 4);
}

#[test]
fn items_whose_guard_fails_are_not_offered_after_other_actions() {
    let src = "(game
  (setup (create players 2))
  (stage player
    (end (> (game sto DONE) 0))
    (choice
      ((do ((set (game sto DONE) 1)
            (any (range 1 .. 4) 'I ((== (% 'I 2) 0) (inc (game sto SUM) 'I)))))
       (do ((set (game sto DONE) 2)
            (any (range 1 .. 3) 'I ((> 'I 5) (inc (game sto SUM) 'I))))))))
  (scoring max 0))";
    let r = Rules::from_source("guards.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()));
    let s = r.start(&options(1, &[])).unwrap();
    let texts = s.moves_to_text(&s.legal_moves());
    assert_eq!(
        texts,
        vec![
            "game DONE = 1; game SUM = 2",
            "game DONE = 1; game SUM = 4",
            "game DONE = 2"
        ]
    );
    // Played, each ends the game (the run the text shows is the one played).
    for m in s.legal_moves() {
        let mut after = s.clone();
        after.apply(&m).unwrap();
        assert!(after.legal_moves().is_empty());
    }
}
