//! Unit tests of the lowering pass, by construct family: the game's
//! structure here; actions, expressions and decks in the sibling files.
//! Each compiles a small game and checks the compiled shape or the error
//! messages.

mod actions;
mod boards;
mod decks;
mod display;
mod expressions;
mod space_sets;
mod space_values;

use super::compile;
use crate::ir::{Action, CycleKind, Program, StageItem, ValueExpr, ValueType};

/// A small game around `body` (items between the setup and the scoring),
/// with a deck of RANK and SUIT cards in `(game vloc DECK)`.
pub(super) fn game(body: &str) -> String {
    format!(
        "(game (setup (create players 3) (create deck (game vloc DECK) \
         (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))\n{body}\n(scoring max 0))"
    )
}

/// Compiles `source`, failing the test with the messages if it does not.
pub(super) fn ok(source: &str) -> Program {
    match compile(source) {
        Ok(p) => p,
        Err(e) => panic!(
            "expected no error, got:\n{}",
            crate::diagnostic::render("test.rcy", source, &e)
        ),
    }
}

/// The error messages of `source`, failing the test if it compiles.
pub(super) fn errors(source: &str) -> Vec<String> {
    match compile(source) {
        Ok(_) => panic!("expected errors, but it compiled:\n{source}"),
        Err(e) => e.into_iter().map(|d| d.message).collect(),
    }
}

/// Asserts `source` fails with a message containing `part`.
pub(super) fn fails_with(source: &str, part: &str) {
    let errs = errors(source);
    assert!(
        errs.iter().any(|m| m.contains(part)),
        "expected an error containing {part:?}, got {errs:?}"
    );
}

/// The action of the single top-level item `item`.
pub(super) fn action(item: &str) -> Action {
    let p = ok(&game(item));
    match p.body.into_iter().next() {
        Some(StageItem::Run(c)) => c.action,
        Some(StageItem::Choice(mut cs, _)) if cs.len() == 1 => cs.remove(0).action,
        other => panic!("expected one action, got {other:?}"),
    }
}

#[test]
fn a_minimal_game_compiles() {
    let p = ok(&game("(turn pass)"));
    assert_eq!(p.symbols[0], "");
    assert_eq!(p.body.len(), 1);
    assert!(p.scoring.max);
    assert_eq!(p.setup.actions.len(), 1);
    assert_eq!(p.name(p.attr_keys[0]), "RANK");
    assert_eq!(p.symbol("HEARTS").map(|s| p.name(s)), Some("HEARTS"));
    assert_eq!(p.symbol("NOPE"), None);
}

#[test]
fn the_game_needs_setup_and_scoring() {
    fails_with(
        "(game (turn pass) (scoring max 0))",
        "the game needs a `(setup ...)`",
    );
    fails_with(
        "(game (setup (create players 2)) (turn pass))",
        "the game needs a `(scoring max|min ...)` at the end",
    );
    fails_with(
        "(game (setup (create players 2)) (scoring max 0) (turn pass))",
        "nothing can follow the `(scoring ...)`",
    );
    fails_with(
        "(game (setup (create players 2)) (scoring max 0))",
        "at least one stage or action",
    );
    fails_with("", "the file is empty");
    fails_with("(stage player)", "a rules file holds one `(game ...)` form");
    fails_with(&format!("{} (game)", game("(turn pass)")), "outside it");
}

#[test]
fn scoring_is_max_or_min() {
    let p =
        ok("(game (setup (create players 2)) (turn pass) (scoring min ((current player) sto S)))");
    assert!(!p.scoring.max);
    fails_with(
        "(game (setup (create players 2)) (turn pass) (scoring most 0))",
        "`scoring` is written `(scoring max INTEGER)` or `(scoring min INTEGER)`",
    );
}

#[test]
fn setup_creates_players_teams_and_decks() {
    let p = ok("(game (setup (create players 4) (create teams (0, 2) (1 3)) \
        (create deck (game iloc STOCK) (deck (RANK (A))))
        (repeat 2 (create deck MYDECK (game iloc STOCK) (deck (RANK (A)))))) (turn pass) (scoring max 0))");
    assert_eq!(p.setup.teams, Some(vec![vec![0, 2], vec![1, 3]]));
    assert_eq!(
        super::game::setup_action_names(&p.setup),
        ["deck", "repeat"]
    );
    fails_with(
        "(game (setup (create deck (game vloc D) (deck (RANK (A))))) (turn pass) (scoring max 0))",
        "the setup must begin with `(create players N)`",
    );
    fails_with(
        "(game (setup (create players 2) (shuffle (game vloc D))) (turn pass) (scoring max 0))",
        "the setup can only create players, teams, boards and decks, found `(shuffle ...)`",
    );
}

#[test]
fn declares_take_the_first_slots_in_order() {
    let p = ok(
        "(game (declare 4 'NUMP) (declare (A, TWO) 'RANKS) (declare (+ 'NUMP 1) 'MORE)
        (setup (create players 'NUMP)) (any 'RANKS 'R (turn pass)) (scoring max 'MORE))",
    );
    assert_eq!(p.declares.len(), 3);
    assert_eq!(&p.var_names[..3], ["NUMP", "RANKS", "MORE"]);
    assert!(matches!(p.declares[1].value, ValueExpr::Collection(_)));
    assert!(matches!(p.declares[2].value, ValueExpr::Int(_)));
    assert_eq!(p.var_count, 4);
    fails_with(
        "(game (declare 1 'X) (declare 2 'X) (setup (create players 2)) (turn pass) (scoring max 0))",
        "`'X` is declared twice",
    );
    fails_with(
        "(game (declare 'LATER 'X) (declare 2 'LATER) (setup (create players 2)) (turn pass) (scoring max 0))",
        "unknown variable `'LATER`",
    );
    fails_with(
        "(game (setup (create players 2)) (declare 2 'X) (turn pass) (scoring max 0))",
        "a `declare` must come before the `(setup ...)`",
    );
}

#[test]
fn stages_nest_and_keep_their_items() {
    let p = ok(&game(
        "(stage player (end (== 1 1)) (stage team (end (== 1 1)) (turn pass)) (choice ((turn pass) (turn pass))))",
    ));
    assert_eq!(p.stages.len(), 2);
    assert!(matches!(p.body[0], StageItem::Stage(0)));
    assert_eq!(p.stages[0].kind, CycleKind::Player);
    assert_eq!(p.stages[1].kind, CycleKind::Team);
    assert!(matches!(p.stages[0].items[0], StageItem::Stage(1)));
    assert!(matches!(&p.stages[0].items[1], StageItem::Choice(cs, _) if cs.len() == 2));
}

#[test]
fn an_any_outside_a_choice_is_no_decision() {
    let p = ok(&game(
        "(do ((shuffle (game vloc DECK)) (any player 'P (turn pass))))",
    ));
    assert!(matches!(&p.body[0], StageItem::Run(_)));
    let p = ok(&game("(all player 'P (turn pass))"));
    assert!(matches!(&p.body[0], StageItem::Run(_)));
}

#[test]
fn stage_mistakes_are_reported() {
    fails_with(
        &game("(stage (end (== 1 1)) (turn pass))"),
        "a stage must begin with `player` or `team`",
    );
    fails_with(
        &game("(stage round (end (== 1 1)) (turn pass))"),
        "a stage must begin with `player` or `team`, found `round`",
    );
    fails_with(
        &game("(stage player (turn pass))"),
        "a stage needs an `(end CONDITION)`",
    );
    fails_with(
        &game("(stage player (end (== 1 1)))"),
        "at least one action or stage",
    );
    fails_with(&game("(choice ())"), "a `choice` needs at least one option");
    fails_with(
        &game("(do ((choice ((turn pass)))))"),
        "a `choice` can only be an item of a stage or of the game",
    );
    fails_with(
        &game("(do ((stage player (end (== 1 1)) (turn pass))))"),
        "a `stage` can only be an item",
    );
}

#[test]
fn let_variables_take_the_type_of_their_value() {
    let p = ok(&game(
        "(let (partition RANK (game vloc DECK)) 'M (all 'M 'G (shuffle 'G)))",
    ));
    let StageItem::Run(c) = &p.body[0] else {
        panic!()
    };
    let Action::Let { value, .. } = &c.action else {
        panic!()
    };
    assert_eq!(crate::lower::actions::value_kind(value), "collections");
    fails_with(
        &game("(let (current player) 'P (move 'P (top (game vloc DECK))))"),
        "`'P` is a player, but a card is expected here",
    );
}

#[test]
fn binding_types_follow_the_collection() {
    use super::classify::element_type;
    assert_eq!(element_type(ValueType::Cards), Some(ValueType::Card));
    assert_eq!(element_type(ValueType::Team), Some(ValueType::Player));
    ok(&game("(all (range 1 .. 3) 'I (inc (game sto X) 'I))"));
    ok(&game("(all (ACE, TWO) 'S (set (game str X) 'S))"));
    ok(&game("(all team 'T (all 'T 'P (inc ('P sto X) 1)))"));
    ok(&game("(all (other player) 'P (inc ('P sto X) 1))"));
    fails_with(
        &game("(all (range 1 .. 3) 'I (set (game str X) 'I))"),
        "`'I` is an integer, but a string is expected here",
    );
}

#[test]
fn the_reader_tolerates_a_bom_and_extra_closing_brackets() {
    ok(&format!("\u{feff};; c\n{}", game("(turn pass)")));
    ok(&format!("{}))\n;; end\n", game("(turn pass)")));
    fails_with(
        &format!("{}) (turn pass)", game("(turn pass)")),
        "closes nothing",
    );
}

#[test]
fn very_deep_nesting_is_refused_without_crashing() {
    for n in [150usize, 5000] {
        let src = game(&format!(
            "(set (game sto X) {}1{})",
            "(+ 1 ".repeat(n),
            ")".repeat(n)
        ));
        let result = compile(&src);
        if n < super::MAX_DEPTH {
            assert!(result.is_ok());
        } else {
            let errs = result.err().unwrap_or_default();
            assert!(errs[0].message.contains("nested too deeply"), "{errs:?}");
        }
    }
}

#[test]
fn a_missing_bracket_is_located_by_the_layout() {
    let src = "(game\n (setup (create players 2)\n (turn pass)\n (scoring max 0))\n";
    let errs = compile(src).unwrap_err();
    let guess = errs
        .iter()
        .find(|e| e.message.contains("may be the one never closed"))
        .expect("a guess");
    assert_eq!(guess.span.start, 7, "the `(` of `(setup`");
}
