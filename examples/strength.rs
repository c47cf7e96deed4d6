//! The strength of a searching seat against random players, for
//! docs/search.md: plays GAMES games of FILE on one thread, the searcher
//! in seat `i % players` of game `i` and random players elsewhere, and
//! prints the searcher's wins (alone) with a 95% interval (Wilson), its
//! searched decisions (those with more than one move), the seconds per
//! searched decision (wall clock) and the iterations per second of CPU
//! time of the searching thread (read from Linux's
//! `/proc/thread-self/schedstat`; the wall clock elsewhere), so that the
//! rate holds on a busy machine.
//!
//! ```text
//! cargo run --release --example strength -- games/carteso.rcy mcts:1000 100
//! cargo run --release --example strength -- games/agram.rcy ismcts:500 100 NUMP=4
//! cargo run --release --example strength -- games/carteso.rcy mcts:2000 100 - mcts:500
//! ```
//!
//! A fourth argument `-` and a fifth seat kind puts that kind in every
//! other seat instead of random players (two searchers with different
//! budgets).

use cardboard::drivers::{game_seed, parse_set, play_out, GameEnd};
use cardboard::engine::{GameOptions, Rules};
use cardboard::game::GameState;
use cardboard::player::Player;
use cardboard::search::seats::{SeatKind, Seats};
use std::time::{Duration, Instant};

/// Times the decisions of one seat.
struct Timed<P> {
    inner: P,
    seat: usize,
    decisions: u64,
    spent: Duration,
    cpu: Duration,
}

/// This thread's CPU time so far (Linux), or `None`.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

impl<S: GameState, P: Player<S>> Player<S> for Timed<P> {
    fn choose(&mut self, state: &S, moves: &[S::Move]) -> usize {
        self.inner.choose(state, moves)
    }
    fn choose_move(&mut self, state: &S) -> Result<Option<S::Move>, String> {
        let mine = state.current_player() == Some(self.seat);
        let started = Instant::now();
        let cpu = cpu_time();
        let chosen = self.inner.choose_move(state);
        if mine && state.legal_moves().len() > 1 {
            self.decisions += 1;
            let wall = started.elapsed();
            self.spent += wall;
            self.cpu += match (cpu, cpu_time()) {
                (Some(a), Some(b)) => b.saturating_sub(a),
                _ => wall,
            };
        }
        chosen
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: strength FILE KIND:ITERATIONS GAMES [NAME=VALUE | -] [OTHER-KIND]");
        std::process::exit(2);
    }
    let rules = Rules::load(std::path::Path::new(&args[0])).unwrap_or_else(|e| {
        eprintln!("{e:?}");
        std::process::exit(1)
    });
    let kind = Seats::parse(&args[1]).expect("a seat kind").kind(0);
    let games: u64 = args[2].parse().expect("a number of games");
    let overrides: Vec<(String, String)> = args
        .iter()
        .skip(3)
        .filter(|a| a.contains('='))
        .map(|a| parse_set(a).expect("NAME=VALUE"))
        .collect();
    let other = args
        .iter()
        .skip(3)
        .find(|a| !a.contains('=') && *a != "-")
        .map(|a| Seats::parse(a).expect("a seat kind").kind(0))
        .unwrap_or(SeatKind::Random);
    let iterations = match kind {
        SeatKind::Mcts(n) | SeatKind::Ismcts(n) => n,
        SeatKind::MctsMillis(_) | SeatKind::IsmctsMillis(_) => {
            eprintln!("strength measures iteration budgets (mcts:N, ismcts:N)");
            std::process::exit(2)
        }
        SeatKind::Random | SeatKind::Human | SeatKind::Remote => 0,
    };
    let (mut won, mut shared, mut played, mut players) = (0u64, 0u64, 0u64, 0usize);
    let (mut decisions, mut spent, mut cpu) = (0u64, Duration::ZERO, Duration::ZERO);
    for i in 0..games {
        let options = GameOptions {
            seed: game_seed(1, i),
            overrides: overrides.clone(),
        };
        let mut state = rules.start(&options).expect("the game starts");
        players = state.num_players();
        let seat = (i as usize) % players;
        let names: Vec<String> = (0..players)
            .map(|p| if p == seat { kind } else { other }.to_string())
            .collect();
        let seats = Seats::parse(&names.join(",")).expect("seats");
        if seats.any_ismcts() {
            state.keep_seen();
        }
        let mut player = Timed {
            inner: seats.player(options.seed),
            seat,
            decisions: 0,
            spent: Duration::ZERO,
            cpu: Duration::ZERO,
        };
        let (end, _) = play_out(&mut state, &mut player, 10_000, |_, _, _| {});
        decisions += player.decisions;
        spent += player.spent;
        cpu += player.cpu;
        played += 1;
        if let GameEnd::Finished(o) = end {
            if o.winners == [seat] {
                won += 1;
            } else if o.winners.contains(&seat) {
                shared += 1;
            }
        }
    }
    let rate = won as f64 / played as f64;
    let (low, high) = wilson(won, played);
    let per_decision = spent.as_secs_f64() / decisions.max(1) as f64;
    let cpu_per_decision = cpu.as_secs_f64() / decisions.max(1) as f64;
    println!(
        "{} {} vs {other} x{}: {played} games, won alone {won} ({:.1}%, 95% {:.1}-{:.1}%), shared {shared}, fair share {:.1}%, {decisions} searched decisions, {:.4} s/decision (wall), {:.4} s/decision (CPU), {:.0} iterations per CPU second",
        args[0],
        kind,
        players - 1,
        100.0 * rate,
        100.0 * low,
        100.0 * high,
        100.0 / players as f64,
        per_decision,
        cpu_per_decision,
        f64::from(iterations) / cpu_per_decision.max(1e-12),
    );
}

/// The Wilson score interval (95%) of `k` successes in `n` trials.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    let (k, n, z) = (k as f64, n.max(1) as f64, 1.96f64);
    let p = k / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (centre - half, centre + half)
}
