//! `(afterwards CONDITION OPTION)` (docs/language.md, section 4.3): the
//! moves of OPTION after which CONDITION holds on the table the move
//! leaves. A placement game whose rule ("never two of your marks side by
//! side") is asked of the position after the move plays as the same game
//! with the rule spelt out as a guard before it: the same transcripts
//! (compiled and evaluated), perft counts and `legal` answers; random
//! games run; misplaced or misshapen `afterwards` is refused.

mod common;

use cardboard::drivers::perft::perft;
use cardboard::drivers::run::transcript;
use cardboard::drivers::simulate::{simulate, SimulateConfig};
use cardboard::engine::Rules;
use cardboard::game::{GameState, Status};
use cardboard::lower::compile;
use common::options;

fn rules(src: &str) -> Rules {
    Rules::from_source("test.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The transcript of a game, the same with compiled rules and with the
/// evaluator.
fn both_ways(r: &Rules, seed: u64) -> String {
    let compiled = transcript(r, &options(seed, &[]), 500);
    let walked = transcript(&r.uncompiled(), &options(seed, &[]), 500);
    assert_eq!(compiled, walked, "compiled and evaluated differ");
    compiled
}

/// A placement game on a 4 x 4 grid: a mark on an empty space, never two
/// of a player's marks side by side; a player who cannot place passes,
/// and the game ends when neither can. `OPTION` is the placement option.
fn placement(option: &str) -> String {
    format!(
        r#"
(game
 (define (MINE 'S 'P) (and (onboard 'S) (== ('S sto MARK) ('P sto ID))))
 (define (NEXT_TO_MINE 'S 'P)
   (or (MINE (neighbour 'S N) 'P) (MINE (neighbour 'S E) 'P)
       (MINE (neighbour 'S S) 'P) (MINE (neighbour 'S W) 'P)))
 (setup (create players 2) (create board G (grid 4 4)))
 (all player 'P (do ((inc (game sto N) 1) (set ('P sto ID) (game sto N)))))
 (stage player (end (all player 'P (not (legal PLACE 'P))))
   (choice PLACE
           ({option})
           (else (inc ((current player) sto PASSED) 1))))
 (scoring max ((current player) sto PLACED)))
"#
    )
}

const PLACE: &str = "(do ((set ('S sto MARK) ((current player) sto ID))
                          (inc ((current player) sto PLACED) 1)))";

#[test]
fn afterwards_plays_as_the_rule_spelt_out_before_the_move() {
    let after = rules(&placement(&format!(
        "(afterwards (not (any (spaces G) 'X (and (MINE 'X (current player))
                                                   (NEXT_TO_MINE 'X (current player)))))
                     (any (spaces G) 'S ((== ('S sto MARK) 0) {PLACE})))"
    )));
    let before = rules(&placement(&format!(
        "(any (spaces G) 'S ((and (== ('S sto MARK) 0) (not (NEXT_TO_MINE 'S (current player))))
                             {PLACE}))"
    )));
    // The same moves at every decision of games whose moves are picked
    // by a little generator of the test's own.
    let mut passes = 0;
    for seed in 1..=6u64 {
        let t = both_ways(&after, seed);
        assert!(t.contains("== finished after"), "{t}");
        passes += t.matches("sto PASSED").count();
        let (mut a, mut b) = (
            after.start(&options(seed, &[])).unwrap(),
            before.start(&options(seed, &[])).unwrap(),
        );
        let mut x = seed;
        while a.status() == Status::Running {
            let moves = a.legal_moves();
            let texts = a.moves_to_text(&moves);
            assert_eq!(texts, b.moves_to_text(&b.legal_moves()), "seed {seed}");
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let i = (x >> 33) as usize % moves.len();
            a.apply(&moves[i]).unwrap();
            b.apply(&b.legal_moves()[i]).unwrap();
        }
        assert_eq!(b.status(), a.status());
        assert_eq!(b.outcome(), a.outcome());
    }
    assert!(passes > 0, "no game had a pass");
    let start = |r: &Rules| r.start(&options(3, &[])).unwrap();
    let counts = perft(&start(&after), 4).unwrap();
    assert_eq!(counts, perft(&start(&before), 4).unwrap());
    // Without the rule the first player has 16 squares; with it, every
    // square is still free, and the reply is refused next to nothing.
    assert_eq!(counts[1], 16);
    let config = SimulateConfig {
        games: 100,
        seed: 9,
        overrides: Vec::new(),
        max_decisions: 100,
        jobs: 1,
    };
    let report = simulate(&after, &config, &|_| {}).unwrap();
    assert_eq!(report.completed, 100);
}

#[test]
fn afterwards_sees_the_mover_and_the_next_player() {
    // A move is kept when, after it, the mover (still the current
    // player) has placed more marks than the next player: the first
    // player's every move, the second's none (equal counts), so the
    // second passes by the fallback (no decision) and the first plays
    // again.
    let src = placement(&format!(
        "(afterwards (> ((current player) sto PLACED) ((next player) sto PLACED))
                     (any (spaces G) 'S ((== ('S sto MARK) 0) {PLACE})))"
    ));
    let r = rules(&src);
    let t = both_ways(&r, 1);
    assert!(t.contains("sto PASSED = 1"), "{t}");
    assert_eq!(
        perft(&r.start(&options(1, &[])).unwrap(), 2).unwrap(),
        vec![1, 16, 16 * 15]
    );
}

#[test]
fn afterwards_is_an_option_of_a_choice_only() {
    let misplaced = placement("(do ((afterwards (== 1 1) (turn pass))))");
    let errors = compile(&misplaced).unwrap_err();
    assert!(
        errors
            .iter()
            .any(|e| e.message.contains("can only be an option of a `choice`")),
        "{errors:?}"
    );
    let misshapen = placement("(afterwards (turn pass))");
    let errors = compile(&misshapen).unwrap_err();
    assert!(
        errors
            .iter()
            .any(|e| e.message.contains("(afterwards CONDITION OPTION)")),
        "{errors:?}"
    );
}
