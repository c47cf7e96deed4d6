//! The searching players (`interpreter/search/`): MCTS finds the winning
//! move of small positions, beats random players clearly in Carteso, and
//! plays the same for a given seed and budget on any number of threads.

use cardboard::drivers::run::run_seated;
use cardboard::drivers::simulate::{simulate_seated, SimulateConfig, SimulateReport};
use cardboard::engine::{GameOptions, Rules};
use cardboard::game::GameState;
use cardboard::player::Player;
use cardboard::search::seats::Seats;

fn rules(path: &str) -> Rules {
    Rules::load(std::path::Path::new(path)).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

fn options(seed: u64, set: &[(&str, &str)]) -> GameOptions {
    GameOptions {
        seed,
        overrides: set
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
    }
}

fn config(games: u64, seed: u64, jobs: usize, set: &[(&str, &str)]) -> SimulateConfig {
    SimulateConfig {
        games,
        seed,
        overrides: options(seed, set).overrides,
        max_decisions: 10_000,
        jobs,
    }
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
fn mcts_takes_the_only_winning_move_of_nim() {
    // From a pile that is not a multiple of 4, the only winning move takes
    // the pile's remainder by 4 (the text lists one `move` per stone).
    let nim = rules("tests/search/nim.rcy");
    for stones in [5, 6, 7, 9, 10, 11] {
        for seed in 0..3 {
            let pile = stones.to_string();
            let state = nim.start(&options(seed, &[("STONES", &pile)])).unwrap();
            let mut player = Seats::parse("mcts:400").unwrap().player(seed);
            let mv = player.choose_move(&state).unwrap().unwrap();
            let taken = state.move_to_text(&mv).matches("move STONE").count();
            assert_eq!(taken, stones % 4, "pile {stones}, seed {seed}");
        }
    }
}

#[test]
fn a_seed_and_a_budget_fix_the_game() {
    let nim = rules("tests/search/nim.rcy");
    let seats = Seats::parse("mcts:40,mcts:80").unwrap();
    let play = |seed| {
        let set = [("STONES", "30")];
        run_seated(&nim, &options(seed, &set), 1_000, &seats).0.text
    };
    let first = play(4);
    assert!(first.contains("seats: mcts:40, mcts:80"), "{first}");
    assert_eq!(first, play(4));
    // The searchers' seeds come from the game's: another seed, other games
    // (the first moves of a won pile differ among equally lost replies).
    let others: Vec<String> = (5..9).map(play).collect();
    assert!(others.iter().any(|t| *t != first));
}

#[test]
fn a_simulation_with_searchers_is_the_same_for_any_jobs() {
    // 70 games are three chunks of games: two threads share them out.
    let nim = rules("tests/search/nim.rcy");
    let seats = Seats::parse("random,mcts:30").unwrap();
    let set = [("STONES", "21")];
    let one = simulate_seated(&nim, &config(70, 3, 1, &set), &seats, &|_| {}).unwrap();
    let two = simulate_seated(&nim, &config(70, 3, 2, &set), &seats, &|_| {}).unwrap();
    assert_eq!(without_timing(&one), without_timing(&two));
    assert_eq!(one.seats, ["random", "mcts:30"]);
    assert_eq!(one.completed, 70);
    // Nim from 21 is won by the first player with perfect play; a search
    // of 30 iterations as second player still wins most games.
    assert!(one.wins[1] > one.wins[0], "{:?}", one.wins);
}

#[test]
fn seats_are_checked_against_the_game() {
    let nim = rules("tests/search/nim.rcy");
    let seats = Seats::parse("mcts:10,mcts:10,random").unwrap();
    let err = simulate_seated(&nim, &config(3, 0, 1, &[]), &seats, &|_| {}).unwrap_err();
    assert_eq!(err, "--seats names 3 seats but the game has 2 players");
    let (run, state) = run_seated(&nim, &options(0, &[]), 100, &seats);
    assert!(run.text.contains(&err), "{}", run.text);
    assert!(state.is_none());
    for (bad, why) in [
        ("mcts:0", "is not a number of iterations"),
        ("mcts:x", "is not a number of iterations"),
        ("random:5", "takes no budget"),
        ("alphabeta", "unknown kind `alphabeta`"),
        ("mcts,,random", "seat 1 is empty"),
    ] {
        let e = Seats::parse(bad).unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn mcts_beats_random_players_in_carteso() {
    // Ten games with fixed seeds, five in each seat. A player no stronger
    // than random would win 9 or more of 10 with probability about 1%.
    let carteso = rules("games/carteso.rcy");
    let mut won = 0;
    for seed in 0..10u64 {
        let seat = (seed % 2) as usize;
        let names = if seat == 0 {
            "mcts:200"
        } else {
            "random,mcts:200"
        };
        let seats = Seats::parse(names).unwrap();
        let (run, _) = run_seated(&carteso, &options(seed, &[]), 10_000, &seats);
        match run.end {
            cardboard::drivers::GameEnd::Finished(o) if o.winners == [seat] => won += 1,
            _ => {}
        }
    }
    assert!(won >= 9, "mcts won {won} of 10");
}
