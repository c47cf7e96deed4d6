//! Integers, sizes and limits (issue 20, sections 2 and 3): arithmetic that
//! leaves the 64-bit range, sizes that overflow, and the limits on work
//! and memory, each on a small rules file of `tests/limits/`.

use cardboard::drivers::perft::perft;
use cardboard::drivers::run::run_game;
use cardboard::drivers::GameEnd;
use cardboard::engine::{GameOptions, Limits, Rules};
use cardboard::game::{GameState, PlayError, Status};

/// The rules of `tests/limits/NAME`.
fn rules(name: &str) -> Rules {
    let path = format!("{}/tests/limits/{name}", env!("CARGO_MANIFEST_DIR"));
    Rules::load(std::path::Path::new(&path)).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

/// Starts a game of `rules` with `--set` overrides.
fn start(rules: &Rules, set: &[(&str, &str)]) -> Result<cardboard::engine::State, PlayError> {
    let overrides = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    rules.start(&GameOptions { seed: 1, overrides })
}

/// The rules error of starting `rules` with `--set`, compiled and through
/// the evaluator alone (the two must agree).
fn start_error(rules: &Rules, set: &[(&str, &str)]) -> String {
    let errors: Vec<String> = [rules.clone(), rules.uncompiled()]
        .iter()
        .map(|r| match start(r, set) {
            Err(PlayError::Rules(e)) => e,
            Err(e) => panic!("{set:?}: not a rules error: {e}"),
            Ok(_) => panic!("{set:?}: started"),
        })
        .collect();
    assert_eq!(
        errors[0], errors[1],
        "{set:?}: compiled and evaluated differ"
    );
    errors[0].clone()
}

#[test]
fn arithmetic_out_of_range_is_a_rules_error_never_a_wrap() {
    let r = rules("overflow.rcy");
    let ok = start(&r, &[("CASE", "0")]).expect("case 0 stays in range");
    drop(ok);
    let cases = [
        ("1", "`(* 9223372036854775807 2)`"),
        ("2", "`(* 2 9223372036854775807)`"),
        ("3", "`(+ 9223372036854775807 1)`"),
        ("4", "`(- -9223372036854775808 1)`"),
        ("5", "`(// -9223372036854775808 -1)`"),
        ("6", "`(^ -2 9223372036854775807)`"),
        ("7", "`(^ 2 63)`"),
        ("8", "`(tri 9223372036854775807)`"),
        ("9", "`(+ 9223372036854775807 2)`"),
        ("10", "`(+ 9223372036854775807 1)`"),
        ("11", "`(- -9223372036854775808 2)`"),
    ];
    for (case, what) in cases {
        let e = start_error(&r, &[("CASE", case)]);
        assert!(
            e.contains("integer overflow") && e.contains(what),
            "case {case}: {e}"
        );
    }
    // A division by zero is not an overflow, nor the other way round.
    let e = start_error(&r, &[("CASE", "12")]);
    assert!(e.contains("division by zero in `//`"), "{e}");
}

#[test]
fn a_range_whose_width_overflows_is_refused() {
    let r = rules("sizes.rcy");
    // An `all` over it (compiled) and its size (evaluated).
    for case in ["1", "2"] {
        let e = start_error(&r, &[("CASE", case)]);
        assert!(
            e.contains("`range` from -9223372036854775807 to 9223372036854775807 is too large"),
            "case {case}: {e}"
        );
    }
    // The largest range allowed, and one more.
    let s = start(&r, &[("CASE", "3")]).expect("a range of 1000001 integers");
    drop(s);
    let e = start_error(&r, &[("CASE", "4")]);
    assert!(e.contains("1000002 integers, at most 1000001"), "{e}");
}

#[test]
fn board_sizes_that_overflow_are_refused_at_start() {
    let r = rules("sizes.rcy");
    let max = i64::MAX.to_string();
    let big = (1i64 << 32).to_string();
    for set in [
        vec![("ROWS", max.as_str()), ("COLS", max.as_str())],
        vec![("ROWS", big.as_str()), ("COLS", big.as_str())],
        vec![("LEN", max.as_str())],
        vec![("ROWS", "0")],
        vec![("COLS", "-1")],
    ] {
        let e = start_error(&r, &set);
        assert!(
            e.contains("sizes must be at least 1 and at most 1048576 spaces in all"),
            "{set:?}: {e}"
        );
    }
    // The same sizes through a position's settings.
    let s = start(&r, &[]).expect("the default sizes");
    let text = s
        .to_position()
        .replace("set LEN=5", &format!("set LEN={max}"));
    assert!(text.contains(&format!("set LEN={max}")), "{text}");
    let e = r.load_position(&text).expect_err("a track too long");
    assert!(
        e.to_string()
            .contains("board `TRACK` would have 9223372036854775807 spaces"),
        "{e}"
    );
}

/// The table a game's boards would make (every space an owner of one
/// location or storage of each name the rules use) is bounded before
/// anything is built (`--max-slots`): a track that fits the boards' limit
/// of spaces but whose table passes the limit is refused with a message
/// naming the flag, and starts with the limit raised. Cartagena with a
/// `VARIANT` of 65536 built a track of 655,378 spaces (373 MB) before
/// its own `require` refused the variant.
#[test]
fn the_table_of_the_boards_is_bounded_before_it_is_built() {
    let small = Limits {
        slots: 100_000,
        ..Limits::default()
    };
    let r = rules("sizes.rcy").with_limits(small);
    let e = start_error(&r, &[("LEN", "200000")]);
    assert!(
        e.contains("the boards' 200009 spaces would make a table of")
            && e.contains("at most 100000 are allowed (the limit of --max-slots)"),
        "{e}"
    );
    let raised = Limits {
        slots: 10_000_000,
        ..Limits::default()
    };
    start(
        &rules("sizes.rcy").with_limits(raised),
        &[("LEN", "200000")],
    )
    .expect("raised");
    // At the default limit.
    let path = format!("{}/games/cartagena.rcy", env!("CARGO_MANIFEST_DIR"));
    let cartagena = Rules::load(std::path::Path::new(&path)).expect("loads");
    let e = start_error(&cartagena, &[("VARIANT", "65536")]);
    assert!(
        e.contains("the boards' 655378 spaces would make a table of")
            && e.contains("(the limit of --max-slots)"),
        "{e}"
    );
}

/// The rules of `tests/limits/NAME` with small limits.
fn limited(name: &str, limits: Limits) -> Rules {
    rules(name).with_limits(limits)
}

/// Small limits, so that the tests run fast.
const SMALL: Limits = Limits {
    steps: 100_000,
    game_steps: 100_000_000,
    changes: 100_000,
    cards: 1_000,
    options: 1_000,
    slots: 100_000,
};

/// The message of a game stopped by the engine, played out by the random
/// player (the same for the compiled rules and the evaluator alone).
fn stopped(rules: &Rules, set: &[(&str, &str)]) -> String {
    let whys: Vec<String> = [rules.clone(), rules.uncompiled()]
        .iter()
        .map(|r| {
            let options = GameOptions {
                seed: 1,
                overrides: set
                    .iter()
                    .map(|(a, b)| (a.to_string(), b.to_string()))
                    .collect(),
            };
            match run_game(r, &options, 100).end {
                GameEnd::Stopped(why) => why,
                other => panic!("{set:?}: not stopped: {other:?}"),
            }
        })
        .collect();
    assert_eq!(whys[0], whys[1], "{set:?}: compiled and evaluated differ");
    whys[0].clone()
}

#[test]
fn work_without_a_decision_stops_the_game_naming_the_limit() {
    let r = limited("steps.rcy", SMALL);
    // CASE 0 plays its two decisions and ends.
    let end = run_game(&r, &GameOptions::default(), 100).end;
    assert!(matches!(end, GameEnd::Finished(_)), "{end:?}");
    for (case, place) in [
        ("1", "the stage at line 12"),
        ("2", "the choice at line 18, column 4"),
        ("3", "the top level"),
        ("4", "the stage at line 12"),
        ("5", "the stage at line 20"),
    ] {
        let why = stopped(&r, &[("CASE", case)]);
        assert_eq!(
            why,
            format!(
                "{place}: more than 100000 steps without any decision (the limit of --max-steps)"
            ),
            "case {case}"
        );
    }
    // Raised, the limit lets the same loop run further.
    let r = limited(
        "steps.rcy",
        Limits {
            steps: 1_000_000,
            ..SMALL
        },
    );
    assert!(stopped(&r, &[("CASE", "5")]).contains("more than 1000000 steps"));
}

/// The steps of a whole game are bounded (`--max-game-steps`): a game
/// whose every decision runs about a thousand steps, far below the limit
/// of one decision, is stopped once its decisions together pass the
/// game's limit, as a stop like the others; raised, the same game runs
/// on to `--max-decisions`.
#[test]
fn the_steps_of_a_whole_game_are_bounded() {
    let r = limited(
        "game_steps.rcy",
        Limits {
            game_steps: 50_000,
            ..SMALL
        },
    );
    assert_eq!(
        stopped(&r, &[]),
        "the stage at line 6: more than 50000 steps in the whole game (the limit of \
         --max-game-steps)"
    );
    // Stopped near its 50th decision, not at its first.
    let end = run_game(&r, &GameOptions::default(), 100);
    assert!(
        (30..60).contains(&end.decisions),
        "stopped after {} decisions",
        end.decisions
    );
    let r = limited("game_steps.rcy", SMALL);
    let end = run_game(&r, &GameOptions::default(), 100).end;
    assert!(matches!(end, GameEnd::AtLimit), "{end:?}");
    assert_eq!(Limits::default().game_steps, 1_000_000_000);
}

/// The memory of cards is had fallibly: `--max-cards` raised past what
/// any machine has (a deck of 10^15 cards) is a clear error of the
/// start, not an abort of the process.
#[test]
fn a_deck_larger_than_memory_is_a_clear_error() {
    let r = limited(
        "huge_deck.rcy",
        Limits {
            cards: 1 << 60,
            ..SMALL
        },
    );
    let e = start_error(&r, &[]);
    assert!(
        e.starts_with("the setup: `create deck` would make 1000000000000000 cards, about ")
            && e.ends_with(
                "MB, more memory than this machine gives (lower --max-cards, 1152921504606846976 \
             now, to refuse such a deck sooner)"
            ),
        "{e}"
    );
}

/// A move played to be taken back (perft, search) keeps every change up
/// to the next decision: a stage that loops without a decision, changing
/// three storages at each pass, is stopped when the changes kept pass the
/// limit of changes (they grew to gigabytes under perft before the limit
/// of steps was reached: found by the fuzzer); played for good, the same
/// game is stopped by its steps.
#[test]
fn the_changes_kept_to_be_taken_back_are_bounded() {
    let r = limited("steps.rcy", SMALL);
    let s = start(&r, &[("CASE", "6")]).unwrap();
    let e = perft(&s, 3).expect_err("a stopped game");
    assert!(
        e.to_string().contains(
            "more than 100000 changes to take back without any decision (the limit of --max-changes)"
        ),
        "{e}"
    );
    assert!(stopped(&r, &[("CASE", "6")]).contains("more than 100000 steps"));
}

/// The state after the two decisions of `tests/limits/changes.rcy`, each
/// move played to be taken back (as perft and search play them), and the
/// passes its loop made (its storage X).
fn looped(rules: &Rules, case: &str) -> (cardboard::engine::State, u64) {
    let mut s = start(rules, &[("CASE", case)]).unwrap();
    for _ in 0..2 {
        let mv = s.legal_moves().into_iter().next().expect("a move");
        // Not taken back: the undo is dropped, the changes stay kept.
        drop(s.apply_undoable(&mv).expect("played"));
    }
    let table = s.describe();
    let x = table
        .lines()
        .find_map(|l| l.trim().strip_prefix("sto X = "))
        .map_or(0, |n| n.parse().unwrap());
    (s, x)
}

/// Every path that keeps changes to be taken back without a decision is
/// bounded by `--max-changes`, apart from the work (`--max-steps` is
/// high here): changes made at each pass of a loop (CASE 1), a shuffle
/// that keeps the old order of a pile of 1,000 cards (CASE 2: counted
/// per card, so the loop stops after a few passes, not thousands), a
/// point map kept alive at each pass (CASE 3), and changes handed on at
/// each choice with no legal option, whose fallback runs (CASE 4: the
/// journal was counted afresh at each choice and grew to the limit of
/// steps). Played for good, the same loops are stopped by their steps.
#[test]
fn every_change_kept_without_a_decision_counts() {
    let limits = Limits {
        steps: 10_000_000,
        changes: 10_000,
        ..SMALL
    };
    let r = limited("changes.rcy", limits);
    let (s, x) = looped(&r, "0");
    assert!(matches!(s.status(), Status::Finished), "{:?}", s.status());
    assert_eq!(x, 0);
    for (case, line, most) in [
        ("1", 20, 5_000),
        ("2", 20, 10),
        ("3", 20, 2_000),
        ("4", 26, 5_000),
    ] {
        let (s, passes) = looped(&r, case);
        let Status::Stopped(why) = s.status() else {
            panic!("case {case}: not stopped: {:?}", s.status());
        };
        assert_eq!(
            why,
            format!(
                "the stage at line {line}: more than 10000 changes to take back without any decision (the limit of --max-changes)"
            ),
            "case {case}"
        );
        assert!(passes > 0 && passes <= most, "case {case}: {passes} passes");
        let e = perft(&start(&r, &[("CASE", case)]).unwrap(), 3).expect_err("stopped");
        assert!(
            e.to_string().contains("(the limit of --max-changes)"),
            "{e}"
        );
        // Played for good, nothing is kept: the loop runs to its steps.
        let small = limited("changes.rcy", SMALL);
        assert!(
            stopped(&small, &[("CASE", case)]).contains("steps without any decision"),
            "case {case}"
        );
    }
    // Raised, the limit lets the same loop run further.
    let raised = limited(
        "changes.rcy",
        Limits {
            changes: 100_000,
            ..limits
        },
    );
    assert!(looped(&raised, "2").1 > 50);
}

/// A move's text names at most its first 1,000 changes, then how many
/// more: an option of 100,000 changes listed by `run` is not written out
/// (nor kept in memory) in full.
#[test]
fn a_long_move_text_names_its_first_changes_and_counts_the_rest() {
    let r = rules("changes.rcy");
    let s = start(&r, &[("CASE", "5")]).unwrap();
    let moves = s.legal_moves();
    let texts = s.moves_to_text(&moves);
    let text = &texts[0];
    assert_eq!(text.matches("; ").count(), 1000, "{}", &text[..200]);
    assert!(
        text.starts_with("game X = 1; game X = 2; "),
        "{}",
        &text[..200]
    );
    assert!(
        text.ends_with("; game X = 1000; and 99001 more"),
        "{}",
        &text[text.len() - 200..]
    );
}

#[test]
fn the_cards_in_play_are_bounded() {
    let r = limited("cards.rcy", SMALL);
    let end = run_game(&r, &GameOptions::default(), 100).end;
    assert!(matches!(end, GameEnd::Finished(_)), "{end:?}");
    // A deck of 10^12 cards is refused before any is made.
    let why = stopped(&r, &[("CASE", "1")]);
    assert!(
        why.starts_with("the top level: `create deck` would make 1000000000000 cards beside the 10 in play: at most 1000 are allowed (the limit of --max-cards)"),
        "{why}"
    );
    // A deck made at every decision: the choice that would pass the limit.
    let why = stopped(&r, &[("CASE", "2")]);
    assert!(
        why.starts_with("the choice at line 23, column 4: `create deck` would make 10 cards beside the 1000 in play"),
        "{why}"
    );
}

#[test]
fn the_moves_a_choice_lists_are_bounded() {
    let r = limited(
        "options.rcy",
        Limits {
            options: 1_000,
            ..Limits::default()
        },
    );
    let end = run_game(&r, &GameOptions::default(), 100).end;
    assert!(matches!(end, GameEnd::Finished(_)), "{end:?}");
    for case in ["1", "2"] {
        let why = stopped(&r, &[("CASE", case)]);
        assert_eq!(
            why,
            "the choice at line 8, column 4: more than 1000 legal moves (the limit of --max-options)",
            "case {case}"
        );
    }
    // perft says why it cannot count, rather than counting nothing.
    for case in ["1", "2"] {
        let s = start(&r, &[("CASE", case)]).unwrap();
        let e = perft(&s, 2).expect_err("a stopped game");
        assert_eq!(
            e.to_string(),
            "at the start: the engine stopped the game: the choice at line 8, column 4: \
             more than 1000 legal moves (the limit of --max-options)",
            "case {case}"
        );
    }
    // So it does when the game only drew a move (a sieve over 1,600
    // spaces) and listing the moves for the count passes the limit: it
    // said "the game is running but no player is to move" (found by the
    // fuzzer's perft under --max-options 1000).
    let r = limited(
        "place.rcy",
        Limits {
            options: 1_000,
            ..Limits::default()
        },
    );
    let s = start(&r, &[("N", "40")]).unwrap();
    assert_eq!(s.status(), Status::Running);
    let e = perft(&s, 1).expect_err("a stopped game");
    assert_eq!(
        e.to_string(),
        "at the start: the engine stopped the game: the choice at line 13, column 9: \
         more than 1000 legal moves (the limit of --max-options)"
    );
}

#[test]
fn a_move_nested_too_deep_is_a_rules_error_not_a_stack_overflow() {
    // On a test thread's stack of 2 MB, in a debug build: 990 nested picks
    // are explored and played, and the score (a game storage) counts each pass.
    let r = rules("nesting.rcy");
    for rules in [r.clone(), r.uncompiled()] {
        let mut game = start(&rules, &[]).expect("990 nested picks start");
        let moves = game.legal_moves();
        assert_eq!(moves.len(), 1);
        game.apply(&moves[0]).expect("the move plays");
        assert_eq!(game.outcome().expect("finished").scores, vec![990, 990]);
    }
    for depth in ["1001", "100000"] {
        let e = start_error(&r, &[("DEPTH", depth)]);
        assert!(
            e.contains("a move of more than 1000 steps one inside another"),
            "{e}"
        );
        assert!(e.contains("line 10, column"), "{e}");
    }
}

#[test]
fn run_stopped_while_listing_its_transcript_says_so() {
    // The random player draws a placement without listing the 16 moves;
    // run's transcript lists them, which passes the limit of 10: the game
    // is stopped before its first decision, and the transcript says so
    // (it once printed a move "not listed" and then "nobody played" it).
    let r = limited(
        "place.rcy",
        Limits {
            options: 10,
            ..Limits::default()
        },
    );
    let run = run_game(&r, &GameOptions::default(), 100);
    assert_eq!(run.decisions, 0);
    match &run.end {
        GameEnd::Stopped(why) => assert!(why.contains("the limit of --max-options"), "{why}"),
        other => panic!("not stopped: {other:?}"),
    }
    assert!(
        run.text.contains("  (not listed: the game stopped)\n"),
        "{}",
        run.text
    );
    assert!(!run.text.contains("not legal now"), "{}", run.text);
    // With room for the moves, the game is played to its end.
    let end = run_game(&rules("place.rcy"), &GameOptions::default(), 100).end;
    assert!(matches!(end, GameEnd::Finished(_)), "{end:?}");
}
