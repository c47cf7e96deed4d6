//! Generic checks every rules file gets for free (in the spirit of
//! OpenSpiel's basic tests), over `games/`, `examples/` and the corpus: random games play
//! to completion; the same seed gives the same transcript; an illegal move is
//! an `Err` that changes nothing; moving cards never duplicates or loses one.

mod common;

use cardboard::drivers::run::transcript;
use cardboard::engine::{GameOptions, Move, Path as MovePath, Rules, State};
use cardboard::game::{GameState, PlayError, Status};
use cardboard::random::{below, GameRng};
use std::path::{Path, PathBuf};

fn all_files() -> Vec<PathBuf> {
    let mut files = common::game_files();
    files.extend(common::example_files());
    files.extend(common::corpus_files());
    assert!(!files.is_empty(), "no rules files found");
    files
}

fn load(path: &Path) -> Rules {
    match Rules::load(path) {
        Ok(r) => r,
        Err(e) => panic!("{} does not load:\n{e}", path.display()),
    }
}

/// Plays one random game, checking conservation after every move; returns
/// the number of decisions and whether it finished.
fn play(rules: &Rules, seed: u64, limit: u64) -> Result<(u64, bool), String> {
    let mut state: State = rules
        .start(&GameOptions {
            seed,
            overrides: vec![],
        })
        .map_err(|e| e.to_string())?;
    let total = state.check_conservation()?;
    let mut rng = GameRng::new(seed ^ 0x5eed);
    while state.status() == Status::Running && state.decisions() < limit {
        let moves = state.legal_moves();
        if moves.is_empty() {
            return Err("a running game has no legal move".into());
        }
        let mv = moves[below(&mut rng, moves.len())].clone();
        state
            .apply(&mv)
            .map_err(|e| format!("decision {}: {e}", state.decisions()))?;
        let now = state.check_conservation()?;
        if now != total {
            return Err(format!("{total} cards became {now}"));
        }
    }
    match state.status() {
        Status::Finished => {
            state.outcome().ok_or("finished without an outcome")?;
            Ok((state.decisions(), true))
        }
        _ => Ok((state.decisions(), false)),
    }
}

#[test]
fn every_file_plays_to_completion_from_several_seeds() {
    let mut failures = Vec::new();
    for path in all_files() {
        let rules = load(&path);
        for seed in 1..=3 {
            if let Err(e) = play(&rules, seed, 3000) {
                failures.push(format!("{} seed {seed}: {e}", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn same_seed_gives_the_same_transcript() {
    for path in all_files() {
        let a = transcript(
            &load(&path),
            &GameOptions {
                seed: 11,
                overrides: vec![],
            },
            300,
        );
        let b = transcript(
            &load(&path),
            &GameOptions {
                seed: 11,
                overrides: vec![],
            },
            300,
        );
        assert_eq!(a, b, "{}", path.display());
        let c = transcript(
            &load(&path),
            &GameOptions {
                seed: 12,
                overrides: vec![],
            },
            300,
        );
        assert!(
            a.len() > 100,
            "{}: transcript too short:\n{a}",
            path.display()
        );
        // Different seeds deal differently (a transcript that ignores the
        // seed would pass the first check).
        assert_ne!(a, c, "{}", path.display());
    }
}

#[test]
fn an_illegal_move_is_an_error_and_changes_nothing() {
    for path in all_files() {
        let rules = load(&path);
        let mut state = rules
            .start(&GameOptions {
                seed: 5,
                overrides: vec![],
            })
            .unwrap();
        if state.status() != Status::Running {
            continue;
        }
        let before = state.describe();
        let moves = state.legal_moves();
        let bogus = [
            Move {
                option: 999,
                path: MovePath::default(),
            },
            Move {
                option: moves[0].option,
                path: [moves[0].path.to_vec(), vec![9999]].concat().into(),
            },
        ];
        for mv in bogus {
            if moves.contains(&mv) {
                continue;
            }
            match state.apply(&mv) {
                Err(PlayError::IllegalMove(_)) => {}
                other => panic!("{}: {mv:?} gave {other:?}", path.display()),
            }
            assert_eq!(state.describe(), before, "{}", path.display());
            assert_eq!(state.legal_moves(), moves, "{}", path.display());
        }
        assert!(state.move_from_text("not a move at all").is_err());
        // Every legal move reads back from its own text.
        for mv in &moves {
            let text = state.move_to_text(mv);
            assert_eq!(
                &state.move_from_text(&text).unwrap(),
                mv,
                "{}: {text}",
                path.display()
            );
        }
    }
}

/// A setup that draws nothing from the game's chance runs once per set of
/// overrides and is copied for the next games (`Rules::start`): a game
/// started from the kept setup plays exactly as one started afresh.
#[test]
fn a_kept_setup_plays_as_a_fresh_one() {
    let options = |seed| GameOptions {
        seed,
        overrides: Vec::new(),
    };
    for path in all_files() {
        let warmed = load(&path);
        let _ = transcript(&warmed, &options(1), 300);
        let fresh = load(&path);
        assert_eq!(
            transcript(&warmed, &options(9), 300),
            transcript(&fresh, &options(9), 300),
            "{}: a game after another plays differently",
            path.display()
        );
    }
}

/// A setup whose declares draw from the game's chance is run again for
/// every game: the seeds deal different values.
#[test]
fn a_setup_that_draws_is_not_kept() {
    let rules = Rules::from_source(
        "test.rcy",
        "(game
          (declare (random 1 .. 1000000) 'R)
          (setup (create players 1))
          (do ((set (game sto X) 'R)))
          (choice ((turn pass)))
          (scoring max (game sto X)))",
    )
    .unwrap_or_else(|e| panic!("{}", e.render()));
    let values: std::collections::HashSet<String> = (1..=6)
        .map(|seed| {
            let state = rules
                .start(&GameOptions {
                    seed,
                    overrides: Vec::new(),
                })
                .unwrap();
            state.describe()
        })
        .collect();
    assert!(values.len() > 1, "every seed drew the same value");
}

/// Plays `state` to its end (at most `limit` decisions) with a random
/// player seeded `seed`; returns the decisions, the final table and the
/// outcome.
fn finish(state: &mut State, seed: u64, limit: u64) -> String {
    use cardboard::drivers::play_out;
    use cardboard::player::RandomPlayer;
    let mut player = RandomPlayer::new(seed);
    let (end, decisions) = play_out(state, &mut player, limit, |_, _, _| {});
    format!("{end:?} after {decisions}\n{}", state.describe())
}

/// A game started into the room of another (as a simulation starts each
/// game of a thread) plays exactly as a game started anew: the copy of the
/// kept setup leaves nothing of the last game behind.
#[test]
fn a_game_started_in_the_room_of_another_plays_as_a_fresh_one() {
    let options = |seed| common::options(seed, &[]);
    for path in all_files() {
        let rules = load(&path);
        let mut fresh = rules.start(&options(9)).expect("starts");
        let want = finish(&mut fresh, 9, 400);
        // The room of a game played to its end, then of one left halfway.
        let mut slot = None;
        for played in [400, 7] {
            rules.start_into(&options(1), &mut slot).expect("starts");
            let last = slot.as_mut().expect("a game");
            let _ = finish(last, 1, played);
            rules.start_into(&options(9), &mut slot).expect("starts");
            let again = slot.as_mut().expect("a game");
            assert_eq!(
                finish(again, 9, 400),
                want,
                "{}: a game started in the room of another plays differently",
                path.display()
            );
        }
    }
}
