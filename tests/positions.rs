//! Positions (docs/positions.md): saving a game at any decision and loading
//! it gives the same table, legal moves, player to move and whole future;
//! hand-written positions load and play as written; bad positions are
//! refused with the line and the reason, never a panic.

mod common;

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, Status};
use cardboard::random::{below, GameRng};
use std::path::Path;

fn load(path: &Path) -> Rules {
    Rules::load(path).unwrap_or_else(|e| panic!("{} does not load:\n{e}", path.display()))
}

fn agram() -> Rules {
    load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/agram.rcy"))
}

fn start(rules: &Rules, seed: u64, set: &[(&str, &str)]) -> State {
    let overrides = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    rules
        .start(&GameOptions { seed, overrides })
        .unwrap_or_else(|e| panic!("the game does not start: {e}"))
}

fn move_texts(state: &State) -> Vec<String> {
    state
        .legal_moves()
        .iter()
        .map(|m| state.move_to_text(m))
        .collect()
}

/// Asserts that two states look and play the same now (`texts`: compare
/// the move texts and observations too, which costs more).
fn same_now(a: &State, b: &State, texts: bool, context: &str) {
    assert_eq!(a.describe(), b.describe(), "{context}: describe");
    assert_eq!(a.status(), b.status(), "{context}: status");
    assert_eq!(a.current_player(), b.current_player(), "{context}: player");
    assert_eq!(a.legal_moves(), b.legal_moves(), "{context}: moves");
    assert_eq!(a.outcome(), b.outcome(), "{context}: outcome");
    assert_eq!(a.decisions(), b.decisions(), "{context}: decisions");
    if texts {
        assert_eq!(move_texts(a), move_texts(b), "{context}: move texts");
        for p in 0..a.num_players() {
            assert_eq!(
                a.observation(p),
                b.observation(p),
                "{context}: observation {p}"
            );
        }
    }
}

/// Moves of the future compared after a round trip (some corpus games run
/// for thousands of decisions).
const FUTURE: usize = 300;

/// Saves `state`, loads it back, checks the copy against the original now
/// and (with `future`) along the rest of the game under the same random
/// moves. Returns the position text.
fn round_trip(rules: &Rules, state: &State, future: Option<u64>, context: &str) -> String {
    let text = state.to_position();
    let loaded = rules
        .load_position(&text)
        .unwrap_or_else(|e| panic!("{context}: the saved position does not load: {e}\n{text}"));
    same_now(state, &loaded, true, context);
    assert_eq!(loaded.to_position(), text, "{context}: saved again differs");
    if let Some(seed) = future {
        let (mut a, mut b) = (state.clone(), loaded);
        let mut rng = GameRng::new(seed);
        let mut steps = 0;
        while a.status() == Status::Running && steps < FUTURE {
            let moves = a.legal_moves();
            let mv = moves[below(&mut rng, moves.len())].clone();
            a.apply(&mv).expect("the original plays");
            b.apply(&mv).expect("the loaded copy plays the same move");
            steps += 1;
            same_now(&a, &b, false, &format!("{context}, {steps} moves later"));
        }
    }
    text
}

/// Plays a seeded random game, round-tripping the position at every
/// decision (and at the end); the whole future is compared at the decisions
/// `future` selects.
fn check_game(
    rules: &Rules,
    seed: u64,
    set: &[(&str, &str)],
    limit: u64,
    future: impl Fn(u64) -> bool,
    name: &str,
) {
    let mut state = start(rules, seed, set);
    let mut rng = GameRng::new(seed ^ 0xABCD);
    loop {
        let n = state.decisions();
        let context = format!("{name} seed {seed} decision {n}");
        round_trip(rules, &state, future(n).then_some(seed + n), &context);
        if state.status() != Status::Running || n >= limit {
            break;
        }
        let moves = state.legal_moves();
        let mv = moves[below(&mut rng, moves.len())].clone();
        state.apply(&mv).unwrap();
    }
}

#[test]
fn agram_round_trips_at_every_decision() {
    let rules = agram();
    for seed in 0..4 {
        check_game(&rules, seed, &[], 1000, |_| true, "agram");
    }
    for (seed, set) in [
        (7, [("NUMP", "3")]),
        (8, [("NUMP", "6")]),
        (9, [("HANDSIZE", "5")]),
    ] {
        check_game(&rules, seed, &set, 1000, |_| true, "agram");
    }
}

#[test]
fn corpus_games_round_trip() {
    let files = common::corpus_files();
    let mut checked = 0;
    for path in &files {
        let rules = load(path);
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // Games that do not start are the invariants test's business.
        if rules.start(&GameOptions::default()).is_err() {
            continue;
        }
        let t = std::time::Instant::now();
        check_game(&rules, 1, &[], 200, |n| n % 25 == 3, &name);
        eprintln!("{name}: {:.2}s", t.elapsed().as_secs_f64());
        checked += 1;
    }
    eprintln!("round-tripped {checked} corpus games");
}
