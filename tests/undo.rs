//! Taking moves back (`GameState::apply_undoable`, `GameState::undo`), as
//! perft and searches do: a move played and taken back leaves the state
//! equal to what it was (table, decision, status, legal moves, the game's
//! chance to come), one move or a whole game deep; and a move that fails
//! changes nothing. Over seeded random games of the shipped games and of
//! the games with chains of steps in `tests/chains/`.

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, PlayError, Status};
use cardboard::random::{below, GameRng};
use std::path::PathBuf;

const GAMES: [&str; 6] = [
    "games/carteso.rcy",
    "games/cartagena.rcy",
    "games/agram.rcy",
    "games/cardbot-derby.rcy",
    "tests/chains/draughts.rcy",
    "tests/chains/hops.rcy",
];

fn rules(name: &str) -> Rules {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(name);
    Rules::load(&path).unwrap_or_else(|e| panic!("{name} does not load:\n{e}"))
}

fn start(rules: &Rules, seed: u64) -> State {
    rules
        .start(&GameOptions {
            seed,
            ..Default::default()
        })
        .unwrap()
}

/// What can be read of a state without playing it: status, the whole
/// table, the position, the decision, who plays, the outcome, the moves.
fn look(s: &State) -> String {
    format!(
        "{:?}\n{}\n{}\ndecision {} player {:?} outcome {:?}\nmoves {:?}",
        s.status(),
        s.describe(),
        s.to_position(),
        s.decisions(),
        s.current_player(),
        s.outcome(),
        s.legal_moves()
    )
}

/// `look` at each of the next few decisions of `s` played on with moves
/// drawn from a generator seeded `seed`: two states with the same chance
/// to come (shuffles, random draws) and the same table play alike.
fn play_on(mut s: State, seed: u64) -> Vec<String> {
    let mut rng = GameRng::new(seed);
    let mut seen = vec![look(&s)];
    for _ in 0..4 {
        let Some(mv) = s.random_move(&mut rng) else {
            break;
        };
        s.apply(&mv).unwrap();
        seen.push(look(&s));
    }
    seen
}

#[test]
fn every_move_played_and_taken_back_leaves_the_state_as_it_was() {
    for name in GAMES {
        let rules = rules(name);
        for seed in 0..2u64 {
            let mut s = start(&rules, seed);
            let mut rng = GameRng::new(seed + 7);
            for decision in 0..120u64 {
                if s.status() != Status::Running {
                    break;
                }
                let before = look(&s);
                let copy = s.clone();
                let moves = s.legal_moves();
                // Every move at the first decisions, then a few.
                let step = if decision < 4 { 1 } else { moves.len() / 5 + 1 };
                for mv in moves.iter().step_by(step) {
                    let undo = s.apply_undoable(mv).unwrap();
                    s.undo(undo);
                    assert_eq!(
                        look(&s),
                        before,
                        "{name} seed {seed} decision {decision} {mv:?}"
                    );
                }
                // The chance to come was put back too.
                assert_eq!(
                    play_on(s.clone(), decision),
                    play_on(copy, decision),
                    "{name} seed {seed} decision {decision}: played on differently"
                );
                // A drawn move (the engine plays it from its plan).
                let Some(mv) = s.random_move(&mut rng) else {
                    break;
                };
                let undo = s.apply_undoable(&mv).unwrap();
                let played = look(&s);
                s.undo(undo);
                assert_eq!(look(&s), before, "{name} seed {seed} decision {decision}");
                // The same move played for good gives the same state.
                s.apply(&mv).unwrap();
                assert_eq!(look(&s), played, "{name} seed {seed} decision {decision}");
            }
        }
    }
}

#[test]
fn a_whole_game_played_to_be_taken_back_is_taken_back_move_by_move() {
    for name in GAMES {
        let rules = rules(name);
        for seed in 0..2u64 {
            let mut s = start(&rules, seed);
            let mut rng = GameRng::new(seed);
            let mut seen = vec![look(&s)];
            let mut undos = Vec::new();
            for d in 0..300 {
                // Moves drawn at some decisions, listed at others.
                let mv = if d % 2 == 0 {
                    s.random_move(&mut rng)
                } else {
                    let moves = s.legal_moves();
                    (!moves.is_empty()).then(|| moves[below(&mut rng, moves.len())].clone())
                };
                let Some(mv) = mv else { break };
                undos.push(s.apply_undoable(&mv).unwrap());
                seen.push(look(&s));
            }
            assert!(!undos.is_empty(), "{name} seed {seed}: no move");
            let end = s.clone();
            while let Some(undo) = undos.pop() {
                assert_eq!(look(&s), seen.pop().unwrap(), "{name} seed {seed}");
                s.undo(undo);
            }
            assert_eq!(look(&s), seen.pop().unwrap(), "{name} seed {seed}");
            // Taken back to the start, it plays the same game again.
            let mut again = s.clone();
            let mut rng = GameRng::new(seed);
            for d in 0..300 {
                let mv = if d % 2 == 0 {
                    again.random_move(&mut rng)
                } else {
                    let moves = again.legal_moves();
                    (!moves.is_empty()).then(|| moves[below(&mut rng, moves.len())].clone())
                };
                let Some(mv) = mv else { break };
                again.apply(&mv).unwrap();
            }
            assert_eq!(look(&again), look(&end), "{name} seed {seed}");
        }
    }
}

#[test]
fn a_move_refused_changes_nothing() {
    let rules = rules("games/carteso.rcy");
    let mut s = start(&rules, 1);
    let before = look(&s);
    let mut mv = s.legal_moves()[0].clone();
    mv.option = 99;
    assert!(matches!(
        s.apply_undoable(&mv),
        Err(PlayError::IllegalMove(_))
    ));
    assert_eq!(look(&s), before);
}

#[test]
fn a_move_that_meets_a_rules_error_is_taken_back_with_the_error_returned() {
    // tests/rules_errors/places.rcy: WHERE=3 a move fails when played, 4
    // the scoring fails, 5 the next choice has no legal option, 6 an
    // option fails while the next choice's moves are found.
    let rules = rules("tests/rules_errors/places.rcy");
    for place in 3..=6 {
        let mut s = rules
            .start(&GameOptions {
                seed: 1,
                overrides: vec![("WHERE".into(), place.to_string())],
            })
            .unwrap();
        let mut failed = false;
        for _ in 0..10 {
            let moves = s.legal_moves();
            let Some(mv) = moves.last().cloned() else {
                break;
            };
            let before = look(&s);
            match s.apply_undoable(&mv) {
                Ok(_) => {}
                Err(PlayError::Rules(message)) => {
                    assert_eq!(look(&s), before, "WHERE={place}");
                    assert_eq!(s.status(), Status::Running, "WHERE={place}");
                    // The error is the one `apply` meets.
                    assert_eq!(s.apply(&mv), Err(PlayError::Rules(message)));
                    failed = true;
                    break;
                }
                Err(e) => panic!("WHERE={place}: {e}"),
            }
        }
        assert!(failed, "WHERE={place}: no rules error met");
    }
}

#[test]
fn what_each_seat_has_seen_is_taken_back_too() {
    // Agram deals hidden hands: a state that keeps what was seen resamples
    // alike before and after moves played and taken back.
    let rules = rules("games/agram.rcy");
    let mut s = start(&rules, 3);
    s.keep_seen();
    let mut rng = GameRng::new(3);
    for _ in 0..12 {
        let Some(mv) = s.random_move(&mut rng) else {
            break;
        };
        s.apply(&mv).unwrap();
    }
    let copy = s.clone();
    let mut undos = Vec::new();
    for _ in 0..8 {
        let Some(mv) = s.random_move(&mut rng) else {
            break;
        };
        undos.push(s.apply_undoable(&mv).unwrap());
    }
    while let Some(undo) = undos.pop() {
        s.undo(undo);
    }
    for seat in 0..s.num_players() {
        let a = s.resample(seat, &mut GameRng::new(9)).unwrap();
        let b = copy.resample(seat, &mut GameRng::new(9)).unwrap();
        assert_eq!(a.describe(), b.describe(), "seat {seat}");
    }
}
