//! Tests of the drivers (`run`, `simulate`, `perft`, `check`) and the command
//! line on a toy game, so they do not depend on the engine.
//!
//! The toy game is `common::toy` (Nim with chance).

mod common;

use cardboard::drivers::perft::{perft, perft_table};
use cardboard::drivers::run::{run_game, transcript};
use cardboard::drivers::simulate::{simulate, SimulateConfig, SimulateReport, BRANCHING_EVERY};
use cardboard::drivers::{game_seed, GameEnd, Ruleset};
use common::toy::Toy;
use common::{cardboard, options};

fn config(games: u64, seed: u64, jobs: usize, set: &[(&str, &str)]) -> SimulateConfig {
    SimulateConfig {
        games,
        seed,
        overrides: options(seed, set).overrides,
        max_decisions: 10_000,
        jobs,
    }
}

fn sim(config: &SimulateConfig) -> SimulateReport {
    simulate(&Toy, config, &|_| {}).expect("thread pool")
}

/// The JSON report without the fields that measure time or threads.
fn without_timing(report: &SimulateReport) -> serde_json::Value {
    let mut json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let object = json.as_object_mut().unwrap();
    for key in ["seconds", "games_per_second", "jobs"] {
        assert!(object.remove(key).is_some(), "missing {key}");
    }
    json
}

#[test]
fn perft_counts_nim_by_hand() {
    // Pile 4, take 1 or 2: depth 1 reaches piles {3, 2}; depth 2 {2, 1, 1, 0};
    // depth 3 {1, 0, 0, 0} (pile 0 has no children); depth 4 {0}; depth 5 none.
    let start = Toy.start(&options(1, &[])).unwrap();
    assert_eq!(perft(&start, 5).unwrap(), vec![1, 2, 4, 4, 1, 0]);
    assert_eq!(
        perft_table(&perft(&start, 3).unwrap()),
        "depth 0: nodes 1 (total 0)\n\
         depth 1: nodes 2 (total 2)\n\
         depth 2: nodes 4 (total 6)\n\
         depth 3: nodes 4 (total 10)\n"
    );
    assert_eq!(perft(&start, 0).unwrap(), vec![1]);
    // Pile 5: piles {5} {4,3} {3,2,2,1} {2,1,1,0,1,0,0} {1,0,0,0,0} {0}.
    let five = Toy.start(&options(1, &[("PILE", "5")])).unwrap();
    assert_eq!(perft(&five, 6).unwrap(), vec![1, 2, 4, 7, 5, 1, 0]);
}

#[test]
fn perft_reports_stopped_states_and_failures() {
    let start = Toy.start(&options(1, &[("STOPAT", "2")])).unwrap();
    assert_eq!(perft(&start, 2).unwrap(), vec![1, 2, 4]);
    let err = perft(&start, 4).unwrap_err();
    assert_eq!(err.path, vec!["take 1", "take 1"]);
    assert!(err
        .message
        .contains("the engine stopped the game: stage `take` looped"));
    let start = Toy.start(&options(1, &[("FAILAT", "2")])).unwrap();
    let err = perft(&start, 3).unwrap_err();
    assert_eq!(err.path, vec!["take 1", "take 1"]);
    assert_eq!(
        err.to_string(),
        "after moves [take 1, take 1]: rules error: division by zero in stage `take`"
    );
}

#[test]
fn perft_chance_is_fixed_by_the_seed() {
    let counts = |seed| {
        let start = Toy
            .start(&options(seed, &[("PILE", "12"), ("GUST", "1")]))
            .unwrap();
        perft(&start, 8).unwrap()
    };
    assert_eq!(counts(3), counts(3));
    let all: Vec<Vec<u64>> = (0..6).map(counts).collect();
    assert!(
        all.iter().any(|c| *c != all[0]),
        "gusts never changed the tree"
    );
}

#[test]
fn simulate_is_the_same_for_any_number_of_threads() {
    let set = [
        ("PILE", "6"),
        ("EXTRA", "5"),
        ("GUST", "1"),
        ("PLAYERS", "3"),
    ];
    let one = sim(&config(2000, 42, 1, &set));
    let four = sim(&config(2000, 42, 4, &set));
    // No more threads than cores are started.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(one.jobs, 1);
    assert_eq!(four.jobs, cores.min(4));
    assert_eq!(without_timing(&one), without_timing(&four));
    assert_eq!(one.games, 2000);
    assert_eq!(one.completed, 2000);
    assert_eq!(one.wins.len(), 3);
    let other_seed = sim(&config(2000, 43, 4, &set));
    assert_ne!(without_timing(&one), without_timing(&other_seed));
}

#[test]
fn simulate_counts_wins_ties_decisions_and_branching() {
    // Pile 2: either player 0 takes 2 (one decision of two moves; player 0
    // wins alone) or takes 1 and player 1 must take the last (two decisions,
    // three moves; a tie).
    let n = 1000;
    let r = sim(&config(n, 7, 0, &[("PILE", "2")]));
    let k = r.wins[0];
    assert!(k > 400 && k < 600, "{r:?}");
    assert_eq!(r.wins, vec![k, 0]);
    assert_eq!(r.ties, vec![n - k, n - k]);
    assert_eq!((r.completed, r.stopped_at_limit, r.errors), (n, 0, 0));
    assert_eq!((r.min_decisions, r.max_decisions), (1, 2));
    let decisions = (2 * n - k) as f64;
    assert!((r.mean_decisions - decisions / n as f64).abs() < 1e-12);
    // The moves are counted in games 0, 50, 100, ... only: replay those.
    let (mut counted_decisions, mut counted_moves) = (0, 0);
    for i in (0..n).step_by(BRANCHING_EVERY as usize) {
        let game = run_game(&Toy, &options(game_seed(7, i), &[("PILE", "2")]), 10_000);
        counted_decisions += game.decisions;
        counted_moves += if game.decisions == 1 { 2 } else { 3 };
    }
    assert_eq!(r.branching_games, n / BRANCHING_EVERY);
    let branching = counted_moves as f64 / counted_decisions as f64;
    assert!(
        (r.mean_branching_counted - branching).abs() < 1e-12,
        "{r:?}"
    );
    assert!(r.mean_branching_counted > 1.5 && r.mean_branching_counted < 2.0);
    assert!(r.to_text().contains("completed:        1000 (100.0%)"));
    assert!(r.to_text().contains(&format!(
        "moves/decision:   mean {branching:.2} (counted in 1 game in 50)"
    )));
}

#[test]
fn simulate_counts_games_at_the_limit_and_stopped_games_as_stopped() {
    let mut at_limit = config(50, 1, 2, &[("PILE", "1000")]);
    at_limit.max_decisions = 10;
    let r = sim(&at_limit);
    assert_eq!((r.completed, r.stopped_at_limit, r.errors), (0, 50, 0));
    assert_eq!((r.min_decisions, r.max_decisions), (10, 10));
    assert_eq!(r.mean_decisions, 10.0);
    assert_eq!(r.first_stops.len(), 5);
    assert_eq!(
        r.first_stops[0].message,
        "reached the limit of 10 decisions"
    );

    let r = sim(&config(30, 1, 2, &[("PILE", "100"), ("STOPAT", "3")]));
    assert_eq!((r.completed, r.stopped_at_limit, r.errors), (0, 30, 0));
    assert!(r.first_stops[0]
        .message
        .contains("after 3 decisions: stage `take` looped"));
}

#[test]
fn simulate_reports_errors_with_game_and_seed() {
    let r = sim(&config(40, 9, 3, &[("FAILAT", "2")]));
    assert_eq!((r.completed, r.stopped_at_limit, r.errors), (0, 0, 40));
    let games: Vec<u64> = r.first_errors.iter().map(|e| e.game).collect();
    assert_eq!(games, vec![0, 1, 2, 3, 4]);
    for e in &r.first_errors {
        assert_eq!(e.seed, game_seed(9, e.game));
        assert!(e.message.contains("division by zero"), "{}", e.message);
    }
    let json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    assert_eq!(json["errors"], 40);
    assert_eq!(json["first_errors"][1]["game"], 1);
    assert!(r
        .to_text()
        .contains(&format!("game 0 (seed {})", game_seed(9, 0))));

    let r = sim(&config(10, 9, 3, &[("NOPE", "1")]));
    assert_eq!(r.errors, 10);
    assert!(r.first_errors[0]
        .message
        .contains("unknown constant `NOPE`"));
}

/// A panic is a bug of cardboard, never a game's error: the drivers do not
/// catch it (release builds abort on it, `panic = "abort"`), so it cannot
/// pass for a rules error in a report.
#[test]
fn a_panic_is_not_counted_as_a_game_error() {
    let config = config(10, 9, 3, &[("PANICAT", "1")]);
    let caught = std::panic::catch_unwind(|| sim(&config));
    assert!(caught.is_err(), "a panic was reported as {:?}", caught.ok());
}

#[test]
fn simulate_json_has_every_field() {
    let r = sim(&config(10, 1, 1, &[]));
    let json: serde_json::Value = serde_json::from_str(&r.to_json()).unwrap();
    for key in [
        "games",
        "completed",
        "stopped_at_limit",
        "errors",
        "wins",
        "ties",
        "mean_decisions",
        "mean_branching_counted",
        "branching_games",
        "min_decisions",
        "max_decisions",
        "seconds",
        "games_per_second",
        "jobs",
        "seed",
        "first_errors",
    ] {
        assert!(json.get(key).is_some(), "no `{key}` in {json}");
    }
}

#[test]
fn a_game_of_simulate_replays_with_run() {
    let set = [("PILE", "5"), ("EXTRA", "4"), ("GUST", "1")];
    let r = sim(&config(60, 11, 4, &set));
    let mut wins = vec![0u64; 2];
    let mut decisions = 0;
    for i in 0..60 {
        let game = run_game(&Toy, &options(game_seed(11, i), &set), 10_000);
        decisions += game.decisions;
        match game.end {
            GameEnd::Finished(o) if o.winners.len() == 1 => wins[o.winners[0]] += 1,
            GameEnd::Finished(_) => {}
            other => panic!("game {i} ended with {other:?}"),
        }
    }
    assert_eq!(r.wins, wins);
    assert_eq!(r.mean_decisions, decisions as f64 / 60.0);
}

#[test]
fn run_transcript_is_deterministic_and_readable() {
    let set = [("PILE", "3"), ("EXTRA", "3"), ("GUST", "1")];
    let text = transcript(&Toy, &options(5, &set), 10_000);
    assert_eq!(text, transcript(&Toy, &options(5, &set), 10_000));
    let texts: Vec<String> = (0..8)
        .map(|s| transcript(&Toy, &options(s, &set), 10_000))
        .collect();
    assert!(texts.iter().any(|t| *t != texts[0]));
    insta::assert_snapshot!(text);
}

#[test]
fn run_transcript_tells_how_a_game_stopped() {
    let at_limit = transcript(&Toy, &options(1, &[("PILE", "100")]), 2);
    assert!(
        at_limit.contains("== decision 2: player 1 =="),
        "{at_limit}"
    );
    assert!(!at_limit.contains("== decision 3"), "{at_limit}");
    assert!(at_limit.contains("== stopped at the limit of 2 decisions ==\npile: "));

    let stopped = transcript(&Toy, &options(1, &[("PILE", "100"), ("STOPAT", "1")]), 50);
    assert!(stopped.contains("== stopped by the engine after 1 decisions ==\nstage `take` looped"));

    // With one stone the only move is `take 1`.
    let failed = run_game(&Toy, &options(1, &[("PILE", "1"), ("FAILAT", "1")]), 50);
    assert!(matches!(failed.end, GameEnd::Error(_)));
    assert!(
        failed.text.ends_with(
            "== error after 1 decisions ==\n\
             rules error: division by zero in stage `take`\n"
        ),
        "{}",
        failed.text
    );

    let bad_start = transcript(&Toy, &options(1, &[("PILE", "x")]), 50);
    assert!(bad_start.ends_with("== error at start ==\nrules error: `PILE` wants a number\n"));
}

#[test]
fn command_line_refuses_bad_input_without_panicking() {
    let (code, _, err) = cardboard(&["check", "no/such/file.rcy"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("cannot read rules file `no/such/file.rcy`"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let (code, _, err) = cardboard(&["simulate", "no/such/file.rcy", "--games", "3"]);
    assert_eq!(code, 2);
    assert!(err.contains("no/such/file.rcy"), "{err}");

    let (code, _, err) = cardboard(&["run", "x.rcy", "--set", "NUMP"]);
    assert_eq!(code, 2);
    assert!(err.contains("expected NAME=VALUE"), "{err}");

    let (code, _, err) = cardboard(&["perft", "x.rcy", "deep"]);
    assert_eq!(code, 2);
    assert!(err.contains("deep"), "{err}");

    let (code, out, _) = cardboard(&["--help"]);
    assert_eq!(code, 0);
    for command in ["check", "run", "simulate", "perft"] {
        assert!(out.contains(&format!("cardboard {command} ")), "{out}");
    }
}

#[test]
fn check_reports_bad_files_and_unreadable_ones() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("drivers-check");
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.rcy");
    std::fs::write(&bad, "(game (setup (create players 2))\n  (nonsense 'X))\n").unwrap();
    let bad = bad.to_str().unwrap();

    let (code, out, err) = cardboard(&["check", bad]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(err.contains("error") && err.contains("bad.rcy:"), "{err}");
    assert!(!err.contains("panicked"), "{err}");

    let (code, _, err) = cardboard(&["check", "games/agram.rcy", bad, "missing.rcy"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("`missing.rcy`"), "{err}");
    assert!(err.contains("2 of 3 files have errors"), "{err}");

    let (code, _, err) = cardboard(&["run", bad]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("bad.rcy:"), "{err}");
}

#[test]
fn simulate_command_gives_the_same_json_on_one_or_two_threads() {
    let json = |jobs: &str| {
        let (code, out, err) = cardboard(&[
            "simulate",
            "games/agram.rcy",
            "--games",
            "200",
            "--seed",
            "5",
            "--jobs",
            jobs,
            "--json",
        ]);
        assert_eq!(code, 0, "{err}");
        let mut value: serde_json::Value = serde_json::from_str(&out).expect("one JSON object");
        let object = value.as_object_mut().unwrap();
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let threads = jobs.parse::<usize>().unwrap().min(cores);
        assert_eq!(object["jobs"], threads);
        for key in ["seconds", "games_per_second", "jobs"] {
            object.remove(key);
        }
        value
    };
    let one = json("1");
    assert_eq!(one["games"], 200);
    assert_eq!(one, json("2"));
}
