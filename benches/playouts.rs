//! Random playouts of the shipped games: one whole game (start, at every
//! decision a legal move drawn uniformly by the random player, to the end)
//! per iteration, the seed varying with the iteration so that every game
//! differs. As `cardboard simulate` does, each game starts in the room of
//! the one before (`Rules::start_into`: the same game, its lists reused).
//!
//! `cargo bench --bench playouts` (add `-- agram` to run one game only).
//! The simulation report (`cardboard simulate`) gives the same measure as
//! games per second over many games, on one core or all.

use cardboard::drivers::play_out;
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::player::RandomPlayer;
use std::sync::atomic::{AtomicU64, Ordering};

fn main() {
    divan::main();
}

fn rules(file: &str) -> Rules {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("games")
        .join(file);
    Rules::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// Plays one random game of `rules` with `set` in `slot` (the last game's
/// state, reused); the seed advances on every call.
fn playout(rules: &Rules, set: &[(&str, &str)], seed: &AtomicU64, slot: &mut Option<State>) -> u64 {
    let seed = seed.fetch_add(1, Ordering::Relaxed);
    let options = GameOptions {
        seed,
        overrides: set
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    };
    rules
        .start_into(&options, slot)
        .unwrap_or_else(|e| panic!("{e}"));
    let state = slot.as_mut().expect("a started game");
    let mut player = RandomPlayer::new(seed);
    let (_, decisions) = play_out(state, &mut player, 100_000, |_, _, _| {});
    decisions
}

fn bench_game(bencher: divan::Bencher, file: &str, set: &[(&str, &str)]) {
    let rules = rules(file);
    let seed = AtomicU64::new(1);
    let mut slot = None;
    bencher.bench_local(|| playout(&rules, set, &seed, &mut slot));
}

#[divan::bench]
fn agram_4_players(bencher: divan::Bencher) {
    bench_game(bencher, "agram.rcy", &[]);
}

// Carteso games are short (about 100 µs): many samples steady the mean.
#[divan::bench(sample_count = 2000)]
fn carteso_9x9(bencher: divan::Bencher) {
    bench_game(bencher, "carteso.rcy", &[]);
}

#[divan::bench(sample_count = 2000)]
fn carteso_5x5(bencher: divan::Bencher) {
    bench_game(bencher, "carteso.rcy", &[("SIZE", "5")]);
}

#[divan::bench(args = ["1", "2", "3"])]
fn cartagena_4_players(bencher: divan::Bencher, variant: &str) {
    bench_game(bencher, "cartagena.rcy", &[("VARIANT", variant)]);
}
