//! Rules errors at run time (issue 20, section 1): an error inside an
//! option stops the game (it never makes the option disappear), on every
//! path (listing, sampling, perft, run, simulate); every error names its
//! place in the rules file and the decision; the messages say who played
//! what; a bad `--set` is one error before any game. The rules files are
//! in `tests/rules_errors/`.

mod common;

use cardboard::drivers::run::run_game;
use cardboard::drivers::simulate::{simulate, SimulateConfig};
use cardboard::drivers::{game_seed, GameEnd};
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, PlayError, Status};
use common::{cardboard, options};

/// The rules of `tests/rules_errors/NAME`.
fn rules(name: &str) -> Rules {
    let path = format!("{}/tests/rules_errors/{name}", env!("CARGO_MANIFEST_DIR"));
    Rules::load(std::path::Path::new(&path)).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// How a game of `rules` with `--set` and `seed` ends under `run`,
/// compiled and through the evaluator alone (the two must agree).
fn run_end(rules: &Rules, set: &[(&str, &str)], seed: u64) -> GameEnd {
    let ends: Vec<GameEnd> = [rules.clone(), rules.uncompiled()]
        .iter()
        .map(|r| run_game(r, &options(seed, set), 100).end)
        .collect();
    assert_eq!(ends[0], ends[1], "{set:?}: compiled and evaluated differ");
    ends[0].clone()
}

/// The message of a game that ended with a rules error.
fn error_of(end: GameEnd) -> String {
    match end {
        GameEnd::Error(why) => why,
        other => panic!("not an error: {other:?}"),
    }
}

const OFF_BOARD: &str =
    "decision 1: option 1 of the choice at line 12, column 4 (player 0 to play): \
     line 14, column 11: no space there (off the board): it has no index, row, column, \
     locations or storages";

/// On a 1 x 3 board, "place where the E or W neighbour is empty" reads the
/// location of no space at both edges: the game stops with that error at
/// its first decision, it does not offer the middle space alone.
#[test]
fn an_error_in_an_option_stops_the_game_on_every_path() {
    let rules = rules("off_board_in_option.rcy");
    for r in [rules.clone(), rules.uncompiled()] {
        match r.start(&GameOptions::default()) {
            Err(PlayError::Rules(m)) => assert_eq!(m, OFF_BOARD),
            Err(e) => panic!("{e}"),
            Ok(s) => panic!("started, offering {} moves", s.legal_moves().len()),
        }
    }
    let file = "tests/rules_errors/off_board_in_option.rcy";
    let (code, out, err) = cardboard(&["run", file]);
    assert_eq!(code, 1);
    assert!(out.contains(OFF_BOARD), "{out}");
    assert_eq!(err, format!("error: {file}: rules error: {OFF_BOARD}\n"));
    let (code, out, err) = cardboard(&["perft", file, "2"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert!(err.contains(OFF_BOARD), "{err}");
    // The error comes before anything is drawn from the game's chance, so
    // every game would fail alike: simulate says so once, before any game.
    let (code, out, err) = cardboard(&["simulate", file, "--games", "4", "--jobs", "1"]);
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(err.matches(OFF_BOARD).count(), 1, "{err}");
}

/// Each place an error can happen names its line and column and the
/// decision: the end condition, an automatic item, the scoring, a choice
/// left without option (the player to play named, nobody "played"), an
/// option that fails while the moves are found.
#[test]
fn every_rules_error_names_its_place_and_its_decision() {
    let rules = rules("places.rcy");
    assert!(matches!(
        run_end(&rules, &[("WHERE", "0")], 1),
        GameEnd::Finished(_)
    ));
    let cases = [
        (
            "1",
            "before the first decision: line 11, column 16: division by zero in `//`",
        ),
        (
            "2",
            "before the first decision: line 13, column 9: division by zero in `//`",
        ),
        (
            "4",
            "after decision 4: line 20, column 2: division by zero in `//`",
        ),
        (
            "5",
            "decision 2: the choice at line 14, column 4 has no legal option for player 1",
        ),
        (
            "6",
            "decision 2: option 3 of the choice at line 14, column 4 (player 1 to play): \
             line 17, column 13: division by zero in `//`",
        ),
    ];
    for (where_, expected) in cases {
        let why = error_of(run_end(&rules, &[("WHERE", where_)], 1));
        assert_eq!(why, format!("rules error: {expected}"), "WHERE={where_}");
    }
}

/// Errors while the game is set up name their place too: a declared
/// value, the number of players, a board's size.
#[test]
fn an_error_in_the_setup_names_its_place() {
    let rules = rules("setup.rcy");
    assert!(matches!(
        run_end(&rules, &[("WHERE", "0")], 1),
        GameEnd::Finished(_)
    ));
    for (where_, line, col) in [("1", 5, 2), ("2", 6, 9), ("3", 7, 9)] {
        let why = error_of(run_end(&rules, &[("WHERE", where_)], 1));
        assert_eq!(
            why,
            format!("rules error: line {line}, column {col}: division by zero in `//`"),
            "WHERE={where_}"
        );
    }
}

/// Every command that starts a game names the rules file in front of a
/// rules error met at run time, as `run` does: a setup that fails (here
/// before any chance is drawn, so `simulate` and `serve` say it once,
/// before any game), a setup that fails after the shuffle, an option
/// that fails at the second decision, and more seats than players.
#[test]
fn every_command_names_the_file_of_a_rules_error() {
    let setup = "tests/rules_errors/setup.rcy";
    for args in [
        &["run", setup][..],
        &["play", setup, "--seats", "random,random"],
        &["simulate", setup, "--games", "3"],
        &["perft", setup, "2"],
        &["serve", setup, "--seats", "random,random"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--set", "WHERE=2"]);
        let (code, _, err) = cardboard(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("error: {setup}: ")),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("line 6, column 9: division by zero in `//`"),
            "{args:?}: {err}"
        );
    }
    let places = "tests/rules_errors/places.rcy";
    for args in [
        &["run", places][..],
        &["play", places, "--seats", "random,random"],
        &["perft", places, "3"],
    ] {
        let mut args = args.to_vec();
        args.extend(["--set", "WHERE=6"]);
        let (code, _, err) = cardboard(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("error: {places}: ")),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("line 17, column 13: division by zero in `//`"),
            "{args:?}: {err}"
        );
    }
    // An error after the chance is drawn is met game by game (simulate
    // counts it in its report); the commands that start one game tell
    // it with the file.
    let shuffled = "tests/rules_errors/after_shuffle.rcy";
    for args in [
        &["run", shuffled][..],
        &["play", shuffled, "--seats", "random,random"],
        &["perft", shuffled, "1"],
        &["serve", shuffled, "--seats", "random,remote"],
    ] {
        let (code, _, err) = cardboard(args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("error: {shuffled}: ")),
            "{args:?}: {err}"
        );
        assert!(
            err.contains("line 9, column 7: division by zero in `//`"),
            "{args:?}: {err}"
        );
    }
    // More seats than the game has players is told with the file too.
    for args in [
        &["run", places][..],
        &["simulate", places, "--games", "1"],
        &["serve", places],
    ] {
        let mut args = args.to_vec();
        args.extend(["--seats", "mcts:1,random,random"]);
        if args[0] == "simulate" {
            // Random seats are counted too.
            let mut random = args.clone();
            random.pop();
            random.push("random,random,random");
            let (code, _, err) = cardboard(&random);
            assert_eq!(code, 1, "{random:?}: {err}");
            assert_eq!(
                err,
                format!("error: {places}: --seats names 3 seats but the game has 2 players\n")
            );
        }
        let (code, _, err) = cardboard(&args);
        assert_eq!(code, 1, "{args:?}: {err}");
        assert!(
            err.ends_with(&format!(
                "error: {places}: --seats names 3 seats but the game has 2 players\n"
            )),
            "{args:?}: {err}"
        );
    }
}

/// A move that passes its check but fails when played (the overflow of
/// `inc` is only met when the sum is made): the error names the decision,
/// the player who played, the move as it was offered and the option, and
/// the game is failed.
#[test]
fn a_move_that_fails_names_who_played_what() {
    let rules = rules("places.rcy");
    for r in [rules.clone(), rules.uncompiled()] {
        let mut s: State = r.start(&options(1, &[("WHERE", "3")])).unwrap();
        let inc = |s: &State| {
            let moves = s.legal_moves();
            moves
                .into_iter()
                .find(|m| m.option == 1)
                .expect("the inc option")
        };
        let first = inc(&s);
        s.apply(&first).unwrap();
        let second = inc(&s);
        // Its actions fail, so the move has no account of them to show:
        // it is offered as its option.
        assert_eq!(s.move_to_text(&second), "option 2");
        match s.apply(&second) {
            Err(PlayError::Rules(m)) => assert_eq!(
                m,
                "decision 2: player 1 played `option 2` (option 2 of the choice at line 14, \
                 column 4), which failed: line 16, column 13: integer overflow: \
                 `(+ 9223372036854775807 9223372036854775807)` is outside the integers' \
                 range (-9223372036854775808 to 9223372036854775807)"
            ),
            other => panic!("{other:?}"),
        }
        assert!(matches!(s.status(), Status::Failed(m) if m.contains("overflow")));
        assert_eq!(s.current_player(), None);
        assert!(s.legal_moves().is_empty());
    }
}

/// `run` (which lists the moves at every decision) and `simulate` (which
/// samples them) stop the same games at the same decision with the same
/// error: an error in an option that a draw never reaches is found all the
/// same.
#[test]
fn sampled_and_listed_games_stop_alike() {
    let rules = rules("places.rcy");
    let set = [("WHERE", "6")];
    let config = SimulateConfig {
        games: 16,
        seed: 5,
        overrides: vec![("WHERE".into(), "6".into())],
        max_decisions: 100,
        jobs: 1,
    };
    let report = simulate(&rules, &config, &|_| {}).unwrap();
    assert_eq!(report.errors, 16);
    for note in &report.first_errors {
        assert_eq!(note.seed, game_seed(5, note.game));
        let why = error_of(run_end(&rules, &set, note.seed));
        assert_eq!(note.message, why);
        assert!(
            why.starts_with("rules error: decision 2: option 3"),
            "{why}"
        );
    }
}

/// A `--set` no game can start with is one error before any game, not one
/// per game; a replay hint repeats the `--set` flags.
#[test]
fn a_bad_set_is_one_error_and_replays_repeat_the_sets() {
    let file = "tests/rules_errors/places.rcy";
    for (set, expected) in [
        (
            "WHERE=x",
            "error: tests/rules_errors/places.rcy: rules error: `--set WHERE=x`: `'WHERE` is an \
             integer\n",
        ),
        (
            "NOPE=1",
            "error: tests/rules_errors/places.rcy: rules error: `--set NOPE`: the file declares \
             no `'NOPE` (it declares: 'WHERE)\n",
        ),
    ] {
        let (code, out, err) = cardboard(&["simulate", file, "--set", set, "--games", "5"]);
        assert_eq!((code, out.as_str(), err.as_str()), (1, "", expected));
    }
    let (code, out, _) = cardboard(&["simulate", file, "--set", "WHERE=6", "--games", "2"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("replay a game with `cardboard run FILE --seed SEED --set WHERE=6`"),
        "{out}"
    );
}

/// A position whose decision has an option that fails is refused when it
/// is loaded, with the same account as a game reaching it.
#[test]
fn a_position_at_a_failing_decision_is_refused_with_the_error() {
    let rules = rules("places.rcy");
    let mut s = rules.start(&options(1, &[("WHERE", "0")])).unwrap();
    let first = s.legal_moves()[0].clone();
    s.apply(&first).unwrap();
    let text = s.to_position().replace("set WHERE=0", "set WHERE=6");
    let file = format!(
        "{}/tests/rules_errors/places.rcy",
        env!("CARGO_MANIFEST_DIR")
    );
    match rules.load_position(&text) {
        Err(e) => assert_eq!(
            e.message,
            format!(
                "the moves of the decision here cannot be found: {file}: decision 2: option 3 \
                 of the choice at line 14, column 4 (player 1 to play): line 17, column 13: \
                 division by zero in `//`"
            )
        ),
        Ok(_) => panic!("loaded"),
    }
}

/// The counts of the setup checked when the game starts name their
/// place too: a team member past the players, a number of players out of
/// range.
#[test]
fn a_count_of_the_setup_out_of_range_names_its_place() {
    let teams = "(game\n (setup (create players 4)\n        (create teams (0, 65) (1, 3)))\n \
                 (choice ((turn pass)))\n (scoring max 0))\n";
    let players = "(game\n (declare -5 'NUMP)\n (setup (create players 'NUMP))\n \
                   (choice ((turn pass)))\n (scoring max 0))\n";
    for (src, why) in [
        (
            teams,
            "rules error: line 3, column 9: team member 65: there are only 4 players",
        ),
        (
            players,
            "rules error: line 3, column 9: `create players` makes -5 players: \
             between 1 and 64 are allowed",
        ),
    ] {
        let rules = Rules::from_source("setup.rcy", src).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(error_of(run_end(&rules, &[], 1)), why);
    }
}

/// A rules error met while a position is loaded is told with the name of
/// the file its places belong to: the position's line in front, the rules
/// file's name in front of the rules' lines and columns.
#[test]
fn a_position_names_the_rules_file_of_a_rules_error() {
    let dir = std::env::temp_dir();
    let id = std::process::id();
    // Settings with which the setup fails.
    let setup = "tests/rules_errors/setup.rcy";
    let s = rules("setup.rcy")
        .start(&options(1, &[("WHERE", "0")]))
        .unwrap();
    let text = s.to_position().replace("set WHERE=0", "set WHERE=2");
    let pos = dir.join(format!("cardboard-setup-{id}.pos"));
    std::fs::write(&pos, text).unwrap();
    let pos_name = pos.display().to_string();
    let (code, _, err) = cardboard(&["run", setup, "--position", &pos_name]);
    let _ = std::fs::remove_file(&pos);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err,
        format!(
            "error: {pos_name}: the game cannot start with the position's settings: {setup}: \
             line 6, column 9: division by zero in `//`\n"
        )
    );
    // A decision whose option fails.
    let places = "tests/rules_errors/places.rcy";
    let mut s = rules("places.rcy")
        .start(&options(1, &[("WHERE", "0")]))
        .unwrap();
    let first = s.legal_moves()[0].clone();
    s.apply(&first).unwrap();
    let text = s.to_position().replace("set WHERE=0", "set WHERE=6");
    let pos = dir.join(format!("cardboard-places-{id}.pos"));
    std::fs::write(&pos, text).unwrap();
    let pos_name = pos.display().to_string();
    let (code, _, err) = cardboard(&["run", places, "--position", &pos_name]);
    let _ = std::fs::remove_file(&pos);
    assert_eq!(code, 1, "{err}");
    assert!(err.starts_with(&format!("error: {pos_name}:")), "{err}");
    assert!(
        err.contains(&format!(
            "the moves of the decision here cannot be found: {places}: decision 2: option 3 of \
             the choice at line 14, column 4"
        )),
        "{err}"
    );
}
