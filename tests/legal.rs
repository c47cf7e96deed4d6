//! Named choices, `(legal NAME)` and a choice's `(else ACTION)`
//! (`docs/language.md` section 4.3): whether a player has a legal option,
//! asked in conditions, answers as the game's own listing of the choice's
//! moves does (the same game written with the placement rule spelt out
//! plays identically, listed by `run` and `perft`, sampled by
//! `simulate`); a choice with no legal option runs its fallback with no
//! decision; recursion and nesting are rules errors; names are checked.

mod common;

use cardboard::drivers::perft::perft;
use cardboard::drivers::run::transcript;
use cardboard::drivers::simulate::{simulate, SimulateConfig};
use cardboard::engine::Rules;
use cardboard::game::GameState;
use common::options;

fn rules(src: &str) -> Rules {
    Rules::from_source("test.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// The transcript of a game, the same with compiled rules and with the
/// evaluator.
fn both_ways(r: &Rules, seed: u64) -> String {
    let compiled = transcript(r, &options(seed, &[]), 500);
    let walked = transcript(&r.uncompiled(), &options(seed, &[]), 500);
    assert_eq!(compiled, walked, "compiled and evaluated differ");
    compiled
}

/// A placement game on a 3 x 3 grid (a mark next to one of your own,
/// anywhere for the first); `ASK` is how the end rule asks whether a
/// player can place, and a player who cannot passes by the choice's
/// fallback.
fn placement(ask: &str) -> String {
    format!(
        r#"
(game
 (define (MINE 'S 'P) (and (onboard 'S) (== ('S sto MARK) ('P sto ID))))
 (define (PLACES 'S 'P)
   (and (== ('S sto MARK) 0)
        (or (== ('P sto PLACED) 0)
            (MINE (neighbour 'S N) 'P) (MINE (neighbour 'S E) 'P)
            (MINE (neighbour 'S S) 'P) (MINE (neighbour 'S W) 'P))))
 (define (CAN 'P) (any (spaces G) 'X (PLACES 'X 'P)))
 (setup (create players 2) (create board G (grid 3 3)))
 (all player 'P (do ((inc (game sto N) 1) (set ('P sto ID) (game sto N)))))
 (stage player (end (all player 'P (not {ask})))
   (choice PLACE
           ((any (spaces G) 'S
                 ((PLACES 'S (current player))
                  (do ((set ('S sto MARK) ((current player) sto ID))
                       (inc ((current player) sto PLACED) 1))))))
           (else (inc ((current player) sto PASSED) 1))))
 (scoring max ((current player) sto PLACED)))
"#
    )
}

#[test]
fn legal_answers_as_the_listing_of_the_choice() {
    let asked = rules(&placement("(legal PLACE 'P)"));
    let spelt = rules(&placement("(CAN 'P)"));
    let mut passes = 0;
    for seed in 1..=8 {
        let a = both_ways(&asked, seed);
        assert_eq!(a, both_ways(&spelt, seed), "seed {seed}");
        assert!(a.contains("== finished after"), "{a}");
        passes += a.matches("sto PASSED").count();
    }
    // The fallback ran in some of these games (a player walled in).
    assert!(passes > 0, "no game had a pass");
    let (p, q) = (
        perft(&asked.start(&options(2, &[])).unwrap(), 6).unwrap(),
        perft(&spelt.start(&options(2, &[])).unwrap(), 6).unwrap(),
    );
    assert_eq!(p, q);
    let config = SimulateConfig {
        games: 400,
        seed: 9,
        overrides: Vec::new(),
        max_decisions: 100,
        jobs: 1,
    };
    let a = simulate(&asked, &config, &|_| {}).unwrap();
    let b = simulate(&spelt, &config, &|_| {}).unwrap();
    assert_eq!(a.completed, 400);
    assert_eq!(
        (a.wins, a.ties, a.mean_decisions, a.min_decisions),
        (b.wins, b.ties, b.mean_decisions, b.min_decisions)
    );
}

/// Without a fallback a choice with no legal option stops the game; with
/// one, the fallback runs with no decision and the stage goes on.
#[test]
fn a_choice_with_no_legal_option_runs_its_fallback() {
    let src = |fallback: &str| {
        format!(
            r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C)))))
 (stage player (end (> (game sto OUT) 1))
   (choice ((any (game vloc STOCK) 'C (move 'C (top ((current player) vloc HAND))))){fallback}))
 (scoring max (size ((current player) vloc HAND))))
"#
        )
    };
    let stopped = both_ways(&rules(&src("")), 1);
    assert!(
        stopped.contains(
            "decision 4: the choice at line 6, column 4 has no legal option for player 1"
        ),
        "{stopped}"
    );
    let r = rules(&src(" (else (inc (game sto OUT) 1))"));
    let t = both_ways(&r, 1);
    // Three cards taken in three decisions, then each player's fallback.
    assert!(t.contains("== finished after 3 decisions =="), "{t}");
    assert!(t.contains("sto OUT = 2"), "{t}");
    let p = perft(&r.start(&options(1, &[])).unwrap(), 4).unwrap();
    assert_eq!(p, vec![1, 3, 6, 6, 0]);
}

#[test]
fn legal_of_another_player_and_nested() {
    // The guard of HELP asks whether the next player can TAKE; TAKE's
    // guard asks nothing. The first player's card is taken only while the
    // other can still take one.
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C, D)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice HELP (((legal TAKE (next player)) (move (top (game vloc STOCK)) (top (game vloc GIVEN)))))
     (else (move (top (game vloc STOCK)) (top (game vloc BIN)))))
   (choice TAKE (((< (size ((current player) vloc HAND)) 1)
                  (move (top (game vloc STOCK)) (top ((current player) vloc HAND)))))
     (else (turn pass))))
 (scoring max 0))
"#;
    let r = rules(src);
    let t = both_ways(&r, 1);
    // p0: HELP (p1 can take) gives A, TAKE takes B; p1: HELP (p0 holds
    // a card, cannot take): C to the bin by the fallback, TAKE takes D.
    assert!(t.contains("vloc GIVEN (1)"), "{t}");
    assert!(t.contains("vloc BIN (1)"), "{t}");
    assert!(t.contains("== finished after 3 decisions =="), "{t}");
}

#[test]
fn legal_asked_inside_its_own_options_is_a_rules_error() {
    let src = r#"
(game
 (setup (create players 1)
        (create deck (game vloc STOCK) (deck (RANK (A, B)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice SELF (((legal SELF) (move (top (game vloc STOCK)) (top (game vloc BIN))))
                 (turn pass))))
 (scoring max 0))
"#;
    let t = both_ways(&rules(src), 1);
    assert!(
        t.contains("decision 1: option 1 of the choice at line 6, column 4 (player 0 to play): line 6, column 18: `(legal SELF)` is asked while the options of that same choice (line 6, column 4) are tried: whether it has a legal option depends on itself"),
        "{t}"
    );
    // Two choices asking about each other: the game lists A, whose guard
    // asks about B, whose guard asks about A, whose guard asks about B
    // again: the error, located at A's guard.
    let src = r#"
(game
 (setup (create players 1))
 (stage player (end (== (game sto N) 1))
   (choice A (((legal B) (inc (game sto N) 1))))
   (choice B (((legal A) (inc (game sto N) 1)))))
 (scoring max 0))
"#;
    let t = both_ways(&rules(src), 1);
    assert!(
        t.contains("line 5, column 15: `(legal B)` is asked while the options of that same choice (line 6, column 4) are tried"),
        "{t}"
    );
}

#[test]
fn choice_names_and_legal_are_checked() {
    let src = r#"
(game
 (setup (create players 1))
 (stage player (end (legal PALCE))
   (choice PLACE ((turn pass)) (else))
   (choice PLACE ((turn pass)))
   (choice ((turn pass)) (otherwise (turn pass)))
   ((legal) (turn pass)))
 (scoring max 0))
"#;
    let e = match Rules::from_source("test.rcy", src) {
        Ok(_) => panic!("compiled"),
        Err(e) => e.render(),
    };
    for (message, place) in [
        ("no choice is named `PALCE`", "test.rcy:4:28"),
        ("`else` takes one action, found none", "test.rcy:5:32"),
        ("two choices are named `PLACE`", "test.rcy:6:4"),
        ("`choice` takes one list of options", "test.rcy:7:4"),
        (
            "`legal` is written `(legal NAME)` or `(legal NAME PLAYER)`",
            "test.rcy:8:5",
        ),
    ] {
        let at = e
            .find(message)
            .unwrap_or_else(|| panic!("missing {message}:\n{e}"));
        let place_at = e[at..].find("┌─ ").map(|i| at + i + "┌─ ".len());
        let found = place_at.map(|i| &e[i..i + place.len()]);
        assert_eq!(found, Some(place), "{message}:\n{e}");
    }
    assert!(e.contains("did you mean `PLACE`?"), "{e}");
}

/// `legal` changes nothing: the table, the generator (a shuffle in the
/// options tried) and the current player are as they were.
#[test]
fn legal_changes_nothing() {
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C, D, E, F)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice DRAW ((do ((shuffle (game vloc STOCK))
                      (move (top (game vloc STOCK)) (top ((current player) vloc HAND)))))))
   ((or (legal DRAW (next player)) (== 0 0)) (inc ((current player) sto ASKED) 1)))
 (scoring max ((current player) sto ASKED)))
"#;
    let with_ask = both_ways(&rules(src), 4);
    let without = both_ways(
        &rules(&src.replace(
            "((or (legal DRAW (next player)) (== 0 0)) (inc ((current player) sto ASKED) 1))",
            "((== 0 0) (inc ((current player) sto ASKED) 1))",
        )),
        4,
    );
    assert_eq!(with_ask, without);
    let r = rules(src);
    let s = r.start(&options(4, &[])).unwrap();
    assert_eq!(s.current_player(), Some(0));
}
