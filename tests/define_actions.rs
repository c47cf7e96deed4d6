//! `define` of actions (docs/language.md, section 5.6): a definition whose
//! body is an action is written out where an action stands (a `do`, an
//! option, a guard's action), parameters as for conditions; it plays as
//! the same rules written out by hand; recursion is refused; an action
//! where a value is expected, and a condition where an action is, are
//! refused with messages that say so.

mod common;

use cardboard::drivers::perft::perft;
use cardboard::drivers::run::transcript;
use cardboard::engine::Rules;
use cardboard::lower::compile;
use common::options;

fn game(defs: &str, option: &str) -> String {
    format!(
        "(game
  {defs}
  (setup (create players 2) (create board B (grid 3 3)))
  (stage player
    (end (> (game sto TURNS) 5))
    (choice ({option})))
  (scoring max ((current player) sto SCORE)))"
    )
}

fn rules(src: &str) -> Rules {
    Rules::from_source("test.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()))
}

#[test]
fn an_action_definition_plays_as_its_body_written_out() {
    let defs = "(define (MARK 'S 'P) (do ((set ('S sto OWNER) 1) (inc ('P sto SCORE) 1))))
                (define (CLAIM 'S) ((== ('S sto OWNER) 0) (MARK 'S (current player))))";
    let used = rules(&game(
        defs,
        "(any (spaces B) 'S (do ((CLAIM 'S) (inc (game sto TURNS) 1))))",
    ));
    let by_hand = rules(&game(
        "",
        "(any (spaces B) 'S (do (((== ('S sto OWNER) 0)
                                  (do ((set ('S sto OWNER) 1) (inc ((current player) sto SCORE) 1))))
                                 (inc (game sto TURNS) 1))))",
    ));
    let start = |r: &Rules| r.start(&options(1, &[])).unwrap();
    let counts = perft(&start(&used), 3).unwrap();
    assert_eq!(counts, perft(&start(&by_hand), 3).unwrap());
    assert_eq!(counts[1], 9);
    for seed in 1..=3 {
        let a = transcript(&used, &options(seed, &[]), 50);
        assert_eq!(a, transcript(&used.uncompiled(), &options(seed, &[]), 50));
        assert_eq!(a, transcript(&by_hand, &options(seed, &[]), 50));
        assert!(a.contains("SCORE = 1"), "{a}");
    }
}

fn first_error(src: &str) -> String {
    match compile(src) {
        Ok(_) => panic!("compiles:\n{src}"),
        Err(errors) => errors.iter().map(|e| format!("{e:?}\n")).collect(),
    }
}

#[test]
fn recursion_and_misplaced_definitions_are_refused() {
    let recursive = game(
        "(define (FILL 'S) (do ((set ('S sto OWNER) 1) (FILL 'S))))",
        "(any (spaces B) 'S (FILL 'S))",
    );
    assert!(
        first_error(&recursive).contains("`FILL` uses itself"),
        "{}",
        first_error(&recursive)
    );
    let as_value = game(
        "(define (MARK 'S) (set ('S sto OWNER) 1))",
        "(any (spaces B) 'S ((== (MARK 'S) 1) (turn pass)))",
    );
    let e = first_error(&as_value);
    assert!(e.contains("is an action"), "{e}");
    assert!(!e.contains("cannot tell what kind of value"), "{e}");
    let in_let = game(
        "(define (MARK 'S) (set ('S sto OWNER) 1))",
        "(any (spaces B) 'S (let (MARK 'S) 'X (turn pass)))",
    );
    let e = first_error(&in_let);
    assert!(
        e.contains("is an action, not a condition or a value"),
        "{e}"
    );
    let as_action = game(
        "(define (FREE 'S) (== ('S sto OWNER) 0))",
        "(any (spaces B) 'S (FREE 'S))",
    );
    let e = first_error(&as_action);
    assert!(
        e.contains("`FREE` is a condition or a value, not an action"),
        "{e}"
    );
}
