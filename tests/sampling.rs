//! The random move drawn without listing the moves (`GameState::random_move`,
//! the engine's sample-then-check): it is always one of the legal moves,
//! every legal move is equally likely, a choice that cannot be sampled draws
//! exactly as listing the moves and drawing an index did, a choice with no
//! legal move is the same rules error as before, and `run` and `simulate`
//! still play the same games.

mod common;

use cardboard::drivers::run::run_game;
use cardboard::drivers::simulate::{simulate, SimulateConfig};
use cardboard::drivers::{game_seed, player_seed, GameEnd};
use cardboard::engine::{Move, Rules, State};
use cardboard::game::{GameState, PlayError, Status};
use cardboard::random::{below, GameRng};
use common::options;
use std::collections::HashMap;

fn rules(src: &str) -> Rules {
    Rules::from_source("test.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The `--set` variants tried for a shipped game (as the transcripts do).
fn variants(name: &str) -> Vec<Vec<(&'static str, &'static str)>> {
    match name {
        "agram" => vec![vec![], vec![("NUMP", "2")], vec![("NUMP", "6")]],
        "carteso" => vec![vec![], vec![("SIZE", "3")], vec![("SIZE", "5")]],
        "cartagena" => vec![
            vec![("VARIANT", "1"), ("NUMP", "2")],
            vec![("VARIANT", "3"), ("NUMP", "2")],
        ],
        "cardbot-derby" => vec![vec![], vec![("NUMP", "2")]],
        _ => vec![vec![]],
    }
}

/// Plays a game with `random_move`, checking at every decision that the
/// move drawn (and a few more draws from other generators) is legal, and
/// that every move of a small legal set gets drawn.
fn check_draws(state: &mut State, seed: u64, limit: u64) -> Result<u64, String> {
    let mut rng = GameRng::new(seed);
    while state.status() == Status::Running && state.decisions() < limit {
        let legal = state.legal_moves();
        for extra in 0..3 {
            let mut other = GameRng::new(seed ^ (state.decisions() << 8) ^ extra);
            match state.random_move(&mut other) {
                Some(mv) if legal.contains(&mv) => {}
                drawn => return Err(format!("drew {drawn:?}, not among {legal:?}")),
            }
        }
        // A small legal set is covered (a legal move never drawn would be
        // missing 60 times out of 60: below 1 in 100,000 for 5 moves).
        if legal.len() <= 5 {
            let mut other = GameRng::new(seed ^ state.decisions());
            let drawn: Vec<Move> = (0..60)
                .filter_map(|_| state.random_move(&mut other))
                .collect();
            if let Some(missed) = legal.iter().find(|mv| !drawn.contains(mv)) {
                return Err(format!("{missed:?} never drawn among {legal:?}"));
            }
        }
        let Some(mv) = state.random_move(&mut rng) else {
            return Err("a running game drew no move".into());
        };
        if !legal.contains(&mv) {
            return Err(format!("drew {mv:?}, not among {legal:?}"));
        }
        state
            .apply(&mv)
            .map_err(|e| format!("decision {}: {e}", state.decisions()))?;
    }
    Ok(state.decisions())
}

#[test]
fn every_drawn_move_is_legal_in_the_shipped_games() {
    let mut failures = Vec::new();
    let mut decisions = 0;
    for path in common::game_files() {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let rules = Rules::load(&path).unwrap_or_else(|e| panic!("{e}"));
        for set in variants(&name) {
            for seed in 1..=3 {
                let result = rules
                    .start(&options(seed, &set))
                    .map_err(|e| e.to_string())
                    .and_then(|mut state| check_draws(&mut state, seed, 200));
                match result {
                    Ok(n) => decisions += n,
                    Err(e) => failures.push(format!("{name} {set:?} seed {seed}: {e}")),
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(decisions > 500, "only {decisions} decisions checked");
}

#[test]
fn every_drawn_move_is_legal_in_the_corpus() {
    let mut failures = Vec::new();
    for path in common::corpus_files() {
        let Ok(rules) = Rules::load(&path) else {
            continue;
        };
        let result = rules
            .start(&options(1, &[]))
            .map_err(|e| e.to_string())
            .and_then(|mut state| check_draws(&mut state, 1, 100));
        if let Err(e) = result {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Seven cards in the stock; taking one is legal for ranks A, C and E only
/// (a guard inside the `any`, under a guard and a one-item `do`); counting
/// and passing are always legal; the guarded pass never is.
const SOME_ILLEGAL: &str = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C, D, E, F, G)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice (((> 2 1)
             (do ((any (game vloc STOCK) 'C
                       ((or (== (cardatt RANK 'C) A)
                            (or (== (cardatt RANK 'C) C) (== (cardatt RANK 'C) E)))
                        (move 'C (top ((current player) vloc HAND))))))))
            (inc (game sto N) 1)
            ((== 1 2) (turn pass))
            (turn pass))))
 (scoring max (size ((current player) vloc HAND))))
"#;

#[test]
fn the_draw_is_uniform_over_the_legal_moves() {
    let state = rules(SOME_ILLEGAL).start(&options(1, &[])).unwrap();
    let legal = state.legal_moves();
    // Three cards to take, the count and the pass.
    assert_eq!(legal.len(), 5, "{legal:?}");
    let draws = 10_000u64;
    let mut counts: HashMap<Move, u64> = HashMap::new();
    let mut unlike_listing = 0;
    for seed in 0..draws {
        let mv = state.random_move(&mut GameRng::new(seed)).unwrap();
        assert!(legal.contains(&mv), "{mv:?} is not legal");
        let listed = &legal[below(&mut GameRng::new(seed), legal.len())];
        unlike_listing += u64::from(*listed != mv);
        *counts.entry(mv).or_default() += 1;
    }
    assert_eq!(counts.len(), legal.len(), "{counts:?}");
    // Each has probability 1/5: 2000 expected, standard deviation 40.
    for (mv, n) in &counts {
        assert!(
            (1800..=2200).contains(n),
            "{mv:?} drawn {n} times: {counts:?}"
        );
    }
    // The moves are sampled (ten slots, five legal), not drawn from the
    // list: the same generator often gives another move.
    assert!(unlike_listing > draws / 5, "{unlike_listing}");
    // Drawing does not change the game.
    assert_eq!(state.legal_moves(), legal);
}

#[test]
fn a_choice_that_cannot_be_sampled_draws_as_the_list_did() {
    // The second option picks twice (an `any` inside an `any`).
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C, D, E)))))
 (stage player (end (<= (size (game vloc STOCK)) 1))
   (choice ((any (game vloc STOCK) 'C
              ((== (cardatt RANK 'C) A) (move 'C (top ((current player) vloc HAND)))))
            (any (game vloc STOCK) 'X
              (any (game vloc STOCK) 'Y
                ((!= (cardatt RANK 'X) (cardatt RANK 'Y))
                 (do ((move 'X (top ((current player) vloc HAND)))
                      (move 'Y (top ((current player) vloc HAND)))))))))))
 (scoring max (size ((current player) vloc HAND))))
"#;
    let mut state = rules(src).start(&options(1, &[])).unwrap();
    let mut rng = GameRng::new(9);
    while state.status() == Status::Running {
        let legal = state.legal_moves();
        assert!(legal.len() > 1);
        let mut listing = rng.clone();
        let expected = legal[below(&mut listing, legal.len())].clone();
        let drawn = state.random_move(&mut rng).unwrap();
        assert_eq!(drawn, expected);
        assert_eq!(rng, listing, "the generator was used differently");
        state.apply(&drawn).unwrap();
    }
    assert_eq!(state.status(), Status::Finished);
}

#[test]
fn a_sampled_choice_with_no_legal_move_is_a_rules_error() {
    // Every item fails its guard, and the other option does nothing.
    let none_at_start = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C)))))
 (stage player (end (== 1 2))
   (choice ((any (game vloc STOCK) 'C
              ((== (cardatt RANK 'C) D) (move 'C (top (game vloc X)))))
            (move (top (game vloc EMPTY)) (top (game vloc X))))))
 (scoring max 0))
"#;
    match rules(none_at_start).start(&options(1, &[])) {
        Err(PlayError::Rules(m)) => assert!(m.contains("no legal option"), "{m}"),
        other => panic!("{:?}", other.map(|s| s.describe())),
    }
    // The first decision takes the only card; then nothing is legal.
    let none_later = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A)))))
 (stage player (end (== 1 2))
   (choice ((any (game vloc STOCK) 'C (move 'C (top (game vloc X)))))))
 (scoring max 0))
"#;
    let mut state = rules(none_later).start(&options(1, &[])).unwrap();
    let mv = state.random_move(&mut GameRng::new(1)).unwrap();
    match state.apply(&mv) {
        Err(PlayError::Rules(m)) => assert!(m.contains("no legal option"), "{m}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn an_illegal_move_is_still_refused_after_a_draw() {
    let mut state = rules(SOME_ILLEGAL).start(&options(1, &[])).unwrap();
    let drawn = state.random_move(&mut GameRng::new(4)).unwrap();
    let illegal = Move {
        option: 0,
        path: vec![1].into(),
    };
    assert_ne!(drawn, illegal);
    assert!(matches!(
        state.apply(&illegal),
        Err(PlayError::IllegalMove(_))
    ));
    state.apply(&drawn).unwrap();
}

#[test]
fn simulate_and_run_play_the_same_sampled_games() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/carteso.rcy");
    let rules = Rules::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let set = [("SIZE", "3")];
    let config = SimulateConfig {
        games: 12,
        seed: 5,
        overrides: vec![("SIZE".into(), "3".into())],
        max_decisions: 10_000,
        jobs: 2,
    };
    let report = simulate(&rules, &config, &|_| {}).unwrap();
    let mut wins = vec![0u64; 2];
    let mut decisions = 0;
    for i in 0..12 {
        let seed = game_seed(5, i);
        let game = run_game(&rules, &options(seed, &set), 10_000);
        decisions += game.decisions;
        match game.end {
            GameEnd::Finished(o) if o.winners.len() == 1 => wins[o.winners[0]] += 1,
            other => panic!("game {i} ended with {other:?}"),
        }
        // And `run` plays the moves the random player draws.
        let mut state = rules.start(&options(seed, &set)).unwrap();
        let mut rng = GameRng::new(player_seed(seed));
        while let Some(mv) = state.random_move(&mut rng) {
            state.apply(&mv).unwrap();
        }
        assert_eq!(state.decisions(), game.decisions, "game {i}");
    }
    assert_eq!(report.wins, wins);
    assert_eq!(report.mean_decisions, decisions as f64 / 12.0);
    // Games 0 and 50 ... of 12: only game 0 is counted.
    assert_eq!(report.branching_games, 1);
}

/// A choice of placements whose `move` is checked once for all the empty
/// points (the same card to move whatever the point), from a pile that
/// runs out: every draw is legal, the moves counted without listing are
/// the moves listed at every decision, and once the black pile is empty no
/// black placement is drawn or counted.
#[test]
fn placements_checked_once_for_every_point_count_and_draw_the_legal_moves() {
    let rules = rules(
        "(game
          (setup (create players 2) (create board G (grid 3 3))
                 (repeat 2 (create deck (game vloc BLACK) (deck (COLOR (BLACK)))))
                 (repeat 9 (create deck (game vloc WHITE) (deck (COLOR (WHITE))))))
          (stage player
            (end (== (size (game vloc WHITE)) 0))
            (choice
              ((turn pass)
               (any (spaces G) 'S
                    ((== (size ('S vloc STONE)) 0)
                     (move (top (game vloc BLACK)) (top ('S vloc STONE)))))
               (any (spaces G) 'S
                    ((== (size ('S vloc STONE)) 0)
                     (move (top (game vloc WHITE)) (top ('S vloc STONE))))))))
          (scoring max (size (game vloc BLACK))))",
    );
    let mut black_empty_seen = false;
    for seed in 1..=20 {
        let mut state = rules.start(&options(seed, &[])).unwrap();
        let mut rng = GameRng::new(seed);
        while state.status() == Status::Running && state.decisions() < 60 {
            let legal = state.legal_moves();
            assert_eq!(state.count_moves(), legal.len(), "seed {seed}: {legal:?}");
            if legal.iter().all(|mv| mv.option != 1) {
                black_empty_seen = true;
            }
            let mv = state.random_move(&mut rng).expect("a move");
            assert!(
                legal.contains(&mv),
                "seed {seed}: drew {mv:?}, not among {legal:?}"
            );
            state.apply(&mv).unwrap();
        }
    }
    assert!(black_empty_seen, "the black pile never ran out");
}
