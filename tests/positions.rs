//! Positions (docs/positions.md): saving a game at any decision and loading
//! it gives the same table, legal moves, player to move and whole future;
//! hand-written positions load and play as written; bad positions are
//! refused with the line and the reason, never a panic.

mod common;
#[path = "common/positions.rs"]
mod helpers;

use helpers::*;

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, Status};
use cardboard::random::{below, GameRng};

/// The legal moves as text (each text costs a pass over all moves, so for
/// long lists only the first and last few).
fn move_texts(state: &State) -> Vec<String> {
    let moves = state.legal_moves();
    let n = moves.len();
    moves
        .iter()
        .enumerate()
        .filter(|(i, _)| n <= 40 || *i < 5 || *i + 5 >= n)
        .map(|(_, m)| state.move_to_text(m))
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
fn shipped_and_corpus_games_round_trip() {
    let mut files = common::game_files();
    files.extend(common::corpus_files());
    let mut checked = 0;
    for path in &files {
        // Files that do not compile are the other tests' business.
        let Ok(rules) = Rules::load(path) else {
            continue;
        };
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
    eprintln!("round-tripped {checked} games");
}

#[test]
fn a_hand_written_agram_position_plays_as_written() {
    let rules = agram();
    let state = rules
        .load_position(&puzzle())
        .unwrap_or_else(|e| panic!("the puzzle does not load: {e}"));
    assert_eq!(state.current_player(), Some(2));
    assert_eq!(state.decisions(), 6);
    let mut texts = move_texts(&state);
    texts.sort();
    assert_eq!(
        texts,
        [
            "move HEARTS-ACE p2 HAND -> p2 TRICK",
            "move HEARTS-THREE p2 HAND -> p2 TRICK"
        ]
    );
    // The ace wins the trick (p3 has hearts too, but lower): p2 leads next.
    let mut s = state.clone();
    let ace = s
        .move_from_text("move HEARTS-ACE p2 HAND -> p2 TRICK")
        .unwrap();
    s.apply(&ace).unwrap();
    assert_eq!(s.current_player(), Some(3));
    assert_eq!(move_texts(&s).len(), 2, "p3 follows with a heart");
    let seven = s
        .move_from_text("move HEARTS-SEVEN p3 HAND -> p3 TRICK")
        .unwrap();
    s.apply(&seven).unwrap();
    assert_eq!(s.current_player(), Some(2), "the ace's owner leads");
    assert_eq!(s.legal_moves().len(), 4, "any of p2's four cards");
    // Saved again, the hand-written position reads as the canonical text.
    let canonical = state.to_position();
    assert!(canonical
        .contains("p2 iloc HAND (5): HEARTS-THREE CLUBS-TEN HEARTS-ACE SPADES-NINE DIAMONDS-FIVE"));
    assert!(canonical.contains("teams 0 1 2 3"));
    assert!(canonical.contains("cycles team 0\n"));
    round_trip(&rules, &state, Some(11), "the puzzle");
}

#[test]
fn a_finished_position_loads_with_its_outcome() {
    let rules = agram();
    let mut state = start(&rules, 4, &[]);
    let mut rng = GameRng::new(4);
    while state.status() == Status::Running {
        let moves = state.legal_moves();
        state.apply(&moves[below(&mut rng, moves.len())]).unwrap();
    }
    let text = state.to_position();
    assert!(text.contains("\nframes\n"), "{text}");
    let loaded = rules.load_position(&text).unwrap();
    assert_eq!(loaded.status(), Status::Finished);
    assert_eq!(loaded.outcome(), state.outcome());
    assert_eq!(loaded.current_player(), None);
}

/// Cards made during play, after the first decision: a deck created by
/// the choice, of one card or of two, and one created by the stage's
/// automatic action every turn.
const DECKS_IN_PLAY: &str = "(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (ONE, TWO)))))
 (stage player (end (>= (size (game vloc STOCK)) 12))
   (choice ((create deck (game vloc STOCK) (deck (RANK (THREE))))
            (create deck (game vloc STOCK) (deck (RANK (THREE, FOUR))))
            (move (top (game vloc STOCK)) (top ((current player) vloc HAND)))))
   (create deck ((current player) vloc PILE) (deck (RANK (FIVE)) (SUIT (X, Y)))))
 (scoring max (size ((current player) vloc HAND))))
";

#[test]
fn a_game_that_creates_cards_during_play_round_trips() {
    let rules = Rules::from_source("decks.rcy", DECKS_IN_PLAY).unwrap();
    for seed in 0..12 {
        check_game(&rules, seed, &[], 40, |_| true, "decks in play");
    }
    // The saved position names the decks made so far, in order.
    let mut state = start(&rules, 1, &[]);
    let first = state.legal_moves()[0].clone();
    state.apply(&first).unwrap();
    let text = state.to_position();
    assert!(text.contains("\ndecks 0 1 3\n"), "{text}");
}
