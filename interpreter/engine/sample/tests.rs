//! Tests of sampling: a `lazy` option (an `any` over cards whose check
//! cannot fail) is checked only where a draw or a count needs it, draws
//! and counts as the same option checked in full, and an option whose
//! check may fail is still checked in full when the game reaches it.

use super::check::CHECKS;
use crate::engine::{GameOptions, Rules, State};
use crate::game::{GameState, Status};
use crate::random::GameRng;

/// `tests/limits/pile.rcy`: each player takes a card that is not an `A`
/// from a shuffled pile of 10^SIZE cards, twenty times.
fn pile() -> Rules {
    let path = format!("{}/tests/limits/pile.rcy", env!("CARGO_MANIFEST_DIR"));
    Rules::load(std::path::Path::new(&path)).expect("loads")
}

fn start(rules: &Rules, seed: u64, size: u32) -> State {
    let options = GameOptions {
        seed,
        overrides: vec![("SIZE".to_string(), size.to_string())],
    };
    rules.start(&options).expect("starts")
}

fn checks() -> u64 {
    CHECKS.with(|c| c.get())
}

/// A random game over a pile of 10^5 cards checks a few slots a decision,
/// not the whole pile (every slot was checked at every decision: 2 x 10^6
/// checks here, and 20 games over 10^6 cards took minutes); counting the
/// moves checks every card once per decision.
#[test]
fn a_lazy_option_is_checked_where_a_draw_needs_it() {
    let rules = pile();
    let mut game = start(&rules, 3, 5);
    let mut rng = GameRng::new(11);
    let before = checks();
    let mut decisions = 0;
    while game.status() == Status::Running {
        let mv = game.random_move(&mut rng).expect("a move");
        game.apply(&mv).expect("plays");
        decisions += 1;
    }
    assert_eq!(decisions, 20);
    let checked = checks() - before;
    assert!(checked > 0 && checked < 1000, "{checked} slots checked");
    let game = start(&rules, 3, 5);
    let before = checks();
    assert_eq!(game.count_moves(), 90_000);
    assert_eq!(game.count_moves(), 90_000);
    let checked = checks() - before;
    assert!(checked <= 100_000 + 10, "{checked} slots checked to count");
}

/// The same games with the option lazy (compiled rules) and checked in
/// full (the evaluator alone): the same moves drawn, and as many moves
/// counted as are listed, at every decision.
#[test]
fn a_lazy_option_draws_and_counts_as_one_checked_in_full() {
    let rules = pile();
    let plain = rules.uncompiled();
    for seed in 0..6 {
        let (mut lazy, mut full) = (start(&rules, seed, 2), start(&plain, seed, 2));
        let (mut r1, mut r2) = (GameRng::new(seed), GameRng::new(seed));
        while lazy.status() == Status::Running {
            let listed = lazy.legal_moves().len();
            assert_eq!(lazy.count_moves(), listed);
            assert_eq!(full.count_moves(), listed);
            let (a, b) = (lazy.random_move(&mut r1), full.random_move(&mut r2));
            assert_eq!(a, b, "seed {seed}");
            let mv = a.expect("a move");
            lazy.apply(&mv).expect("plays");
            full.apply(&mv).expect("plays");
        }
        assert_eq!(lazy.status(), full.status());
        assert_eq!(lazy.outcome(), full.outcome());
    }
}

/// An `any` over cards whose check may fail for one card (a division by
/// zero when the card is the J) is checked in full when the game reaches
/// the choice: the error is the game's, whatever the random players would
/// draw.
#[test]
fn an_option_whose_check_may_fail_is_checked_in_full() {
    let source = "(game (setup (create players 2) \
                    (create deck (game vloc PILE) (deck (R (A, B, C, D, E, F, G, H, I, J))))) \
                  (stage player (end (>= (size (game vloc TAKEN)) 5)) \
                    (choice ((any (game vloc PILE) 'C \
                      ((or (!= (cardatt R 'C) J) (== (// 1 (size (game vloc TAKEN))) 1)) \
                       (move 'C (top (game vloc TAKEN)))))))) \
                  (scoring max 0))";
    let rules = Rules::from_source("fails.rcy", source).expect("compiles");
    let error = match rules.start(&GameOptions::default()) {
        Ok(game) => match game.status() {
            Status::Failed(why) => why,
            other => panic!("the game goes on: {other:?}"),
        },
        Err(e) => e.to_string(),
    };
    assert!(error.contains("division by zero"), "{error}");
}
