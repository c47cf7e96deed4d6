//! Copies of a game, as searches and perft make them: a state copied into
//! the room of another (`clone_from`, which reuses the other's
//! allocations) is the same game as a fresh `clone`, whatever the other
//! was (another game, further on, or at its start), and a copy that plays
//! on leaves the original, and the legal moves it shares with it, as they
//! were. Over random games of every shipped rules file.

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::GameState;
use cardboard::random::{below, GameRng};
use std::path::PathBuf;

fn rules(name: &str) -> Rules {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(name);
    Rules::load(&path).unwrap_or_else(|e| panic!("{name} does not load:\n{e}"))
}

/// Everything a player or a driver can ask of a state.
fn summary(s: &State) -> (String, String, Vec<String>, u64) {
    let texts = s.moves_to_text(&s.legal_moves());
    (
        format!("{:?}", s.status()),
        s.describe(),
        texts,
        s.decisions(),
    )
}

/// Plays `s` to its end (or 300 decisions) with moves drawn from `rng`,
/// listing the moves at every other decision (so both ways of choosing
/// are copied); returns the summaries on the way.
fn play_out(mut s: State, rng: &mut GameRng) -> Vec<(String, String, Vec<String>, u64)> {
    let mut seen = vec![summary(&s)];
    for d in 0..300 {
        let mv = if d % 2 == 0 {
            match s.random_move(rng) {
                Some(mv) => mv,
                None => break,
            }
        } else {
            let moves = s.legal_moves();
            if moves.is_empty() {
                break;
            }
            moves[below(rng, moves.len())].clone()
        };
        s.apply(&mv).unwrap();
        seen.push(summary(&s));
    }
    seen
}

#[test]
fn a_state_copied_into_another_s_room_plays_as_a_clone() {
    for name in [
        "carteso.rcy",
        "cartagena.rcy",
        "agram.rcy",
        "cardbot-derby.rcy",
    ] {
        let rules = rules(name);
        for seed in 0..3u64 {
            let start = |seed| {
                rules.start(&GameOptions {
                    seed,
                    ..Default::default()
                })
            };
            let mut s = start(seed).unwrap();
            // A room from another game, played further than `s` will be.
            let mut room = start(seed + 100).unwrap();
            let mut rng = GameRng::new(seed);
            for _ in 0..40 {
                let Some(mv) = room.random_move(&mut rng) else {
                    break;
                };
                room.apply(&mv).unwrap();
            }
            for step in 0..25u64 {
                // Moves listed at some decisions, drawn at others: the
                // copy carries the list, or the plan, of the original.
                if step % 3 == 0 {
                    s.legal_moves();
                }
                let before = summary(&s);
                room.clone_from(&s);
                let fresh = s.clone();
                assert_eq!(summary(&room), before, "{name} seed {seed} step {step}");
                let mut r1 = GameRng::new(seed * 1000 + step);
                let mut r2 = GameRng::new(seed * 1000 + step);
                assert_eq!(
                    play_out(room.clone(), &mut r1),
                    play_out(fresh, &mut r2),
                    "{name} seed {seed} step {step}: the copies played differently"
                );
                // Playing the copy on left the original as it was.
                let mut on = room.clone();
                if let Some(mv) = on.legal_moves().first().cloned() {
                    on.apply(&mv).unwrap();
                }
                room.clone_from(&on);
                assert_eq!(summary(&s), before, "{name} seed {seed} step {step}");
                let Some(mv) = s.random_move(&mut rng) else {
                    break;
                };
                s.apply(&mv).unwrap();
            }
        }
    }
}
