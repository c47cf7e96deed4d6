//! How fast the `mcts` seat searches, for `bench/peers/` (the comparison
//! with OpenSpiel's `MCTSBot`): runs DECISIONS searches of ITERATIONS
//! iterations each from the start of FILE, each a fresh tree with its own
//! seed, exactly as the `mcts` seat searches a decision (exploration 0.7,
//! rewards 0 to 1, random playouts to the end or 100 decisions), and
//! prints the iterations done and the CPU time of the searching thread
//! (Linux's `/proc/thread-self/schedstat`; the wall clock elsewhere), so
//! that the rate holds on a busy machine.
//!
//! ```text
//! cargo run --release --example search_rate -- examples/connect4.rcy 2000 10
//! cargo run --release --example search_rate -- examples/othello.rcy 2000 2 SIZE=8
//! ```
//!
//! Output: `name: value` lines (`iterations`, `decisions`, `cpu_s`,
//! `wall_s`, `iterations_per_cpu_s`).

use cardboard::drivers::parse_set;
use cardboard::engine::{GameOptions, Rules};
use cardboard::game::GameState;
use cardboard::search::tree::SearchConfig;
use cardboard::search::{Method, Searcher};
use std::time::{Duration, Instant};

/// This thread's CPU time so far (Linux), or `None`.
fn cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn fail(message: &str) -> ! {
    eprintln!("search_rate: {message}");
    eprintln!("usage: search_rate FILE ITERATIONS DECISIONS [NAME=VALUE ...]");
    std::process::exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        fail("three arguments at least");
    }
    let rules = Rules::load(std::path::Path::new(&args[0]))
        .unwrap_or_else(|e| fail(&format!("{} does not load: {e:?}", args[0])));
    let iterations: u32 = args[1]
        .parse()
        .unwrap_or_else(|_| fail("ITERATIONS is a number"));
    let decisions: u64 = args[2]
        .parse()
        .unwrap_or_else(|_| fail("DECISIONS is a number"));
    let overrides = args[3..]
        .iter()
        .map(|a| parse_set(a).unwrap_or_else(|e| fail(&e)))
        .collect();
    let options = GameOptions { seed: 1, overrides };
    let state = rules
        .start(&options)
        .unwrap_or_else(|e| fail(&format!("the game does not start: {e}")));
    let moves = state.legal_moves();
    if moves.len() < 2 {
        fail("the start has fewer than two moves: nothing to search");
    }
    let config = SearchConfig::with_iterations(iterations);
    let (wall, cpu) = (Instant::now(), cpu_time());
    let mut visits = 0u64;
    for d in 0..decisions {
        let mut searcher = Searcher::new(Method::Mcts, config, d + 1);
        let v = searcher
            .visits(&state, &moves)
            .unwrap_or_else(|e| fail(&format!("the search failed: {e}")));
        visits += v.iter().map(|&n| u64::from(n)).sum::<u64>();
    }
    let wall = wall.elapsed();
    let cpu = match (cpu, cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => wall,
    };
    let done = u64::from(iterations) * decisions;
    println!("iterations: {done}");
    println!("root_visits: {visits}");
    println!("decisions: {decisions}");
    println!("cpu_s: {:.6}", cpu.as_secs_f64());
    println!("wall_s: {:.6}", wall.as_secs_f64());
    println!(
        "iterations_per_cpu_s: {:.1}",
        done as f64 / cpu.as_secs_f64().max(1e-9)
    );
}
