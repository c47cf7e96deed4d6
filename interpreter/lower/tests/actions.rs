//! Unit tests of actions and conditional actions.

use super::{action, errors, fails_with, game, ok};
use crate::ir::{Action, CardExpr, CardsExpr, PlayerExpr, Pos, StageItem};

#[test]
fn move_remember_and_forget_take_cards() {
    let a = action("(move (top (game vloc DECK)) (bottom ((current player) iloc HAND)))");
    assert!(matches!(
        a,
        Action::Move {
            from: CardExpr::At(Pos::Top, _),
            to: CardExpr::At(Pos::Bottom, _)
        }
    ));
    assert!(matches!(
        action("(remember (top (game vloc DECK)) (top (game mem LEAD)))"),
        Action::Remember { .. }
    ));
    assert!(matches!(
        action("(forget (top (game mem LEAD)))"),
        Action::Forget(_)
    ));
    fails_with(
        &game("(move (top (game vloc DECK)))"),
        "`move` takes two cards, found one",
    );
    fails_with(
        &game("(move (top (game vloc A)) (top (game vloc B)) (top (game vloc C)))"),
        "`move` takes two cards, found three",
    );
    fails_with(
        &game("(move 3 (top (game vloc DECK)))"),
        "expected a card such as `(top (game vloc PILE))` or a card variable, found the number `3`",
    );
}

#[test]
fn unknown_actions_are_named_with_a_suggestion() {
    let src = game("(mvoe (top (game vloc DECK)) (top (game vloc PILE)))");
    let errs = errors(&src);
    assert_eq!(errs, ["unknown action `mvoe`"]);
    let d = super::super::compile(&src).unwrap_err();
    assert_eq!(d[0].note.as_deref(), Some("did you mean `move`?"));
    fails_with(&game("(do (3))"), "expected an action such as `(move ...)`");
    fails_with(
        &game("(do (((turn pass))))"),
        "expected an action, found a list inside brackets",
    );
}

#[test]
fn conditional_actions_have_a_guard() {
    let p = ok(&game("((== 1 1) (turn pass))"));
    let StageItem::Run(c) = &p.body[0] else {
        panic!()
    };
    assert!(c.cond.is_some());
    assert!(matches!(c.action, Action::TurnPass));
    fails_with(
        &game("((== 1 1) (turn pass) (turn pass))"),
        "a conditional action is written `(CONDITION ACTION)`",
    );
    // A guard inside a guard (or a `repeat`) is no plain action.
    fails_with(
        &game("((== 1 1) ((== 2 2) (turn pass)))"),
        "this conditional action `(CONDITION ACTION)` stands where a plain action is expected",
    );
    fails_with(
        &game("(repeat 2 ((== 1 1) (turn pass)))"),
        "stands where a plain action is expected",
    );
    ok(&game("((== 1 1) (do (((== 2 2) (turn pass)))))"));
}

#[test]
fn set_inc_and_dec_go_by_storage_kind() {
    assert!(matches!(action("(set (game sto X) 3)"), Action::SetInt(..)));
    assert!(matches!(
        action("(set ((current player) str X) HEARTS)"),
        Action::SetStr(..)
    ));
    assert!(matches!(
        action("(set (game points P) (((RANK : A) 1)))"),
        Action::SetPoints(_, ref awards) if awards.len() == 1
    ));
    assert!(matches!(
        action("(inc ((current team) sto X) 3)"),
        Action::IncInt(..)
    ));
    assert!(matches!(action("(dec (game sto X) 3)"), Action::DecInt(..)));
    assert!(matches!(
        action("(all player 'P (dec ('P sto X) 3))"),
        Action::All { .. }
    ));
    fails_with(&game("(set 'X 3)"), "`set` takes a storage such as `(game sto SCORE)`, `(game str LEAD)` or `(game points VALUES)`, found the variable `'X`");
    fails_with(
        &game("(set (game vloc X) 3)"),
        "`set` takes a storage such as",
    );
    fails_with(
        &game("(inc (game str X) 3)"),
        "`inc` takes an integer storage",
    );
    fails_with(
        &game("(set (game str X) 3)"),
        "expected a string such as `HEARTS`",
    );
}

#[test]
fn cycle_takes_a_player() {
    assert!(matches!(
        action("(cycle next current)"),
        Action::CycleNext(PlayerExpr::Current)
    ));
    assert!(matches!(
        action("(cycle current previous)"),
        Action::CycleCurrent(PlayerExpr::Previous)
    ));
    assert!(matches!(
        action("(cycle next (owner (max (union (all player 'P ('P vloc TRICK))) using (game points R))))"),
        Action::CycleNext(PlayerExpr::OwnerOf(_))
    ));
    assert!(matches!(
        action("(cycle next (0 player))"),
        Action::CycleNext(PlayerExpr::Index(_))
    ));
    fails_with(&game("(cycle after current)"), "`cycle` is written");
    fails_with(
        &game("(cycle next (top (game vloc DECK)))"),
        "expected a player such as `(current player)`",
    );
}

#[test]
fn repeat_counts_or_repeats_all() {
    assert!(matches!(
        action("(repeat 3 (shuffle (game vloc DECK)))"),
        Action::Repeat { .. }
    ));
    assert!(matches!(
        action("(repeat all (move (top (game vloc DECK)) (top (game vloc PILE))))"),
        Action::RepeatAllMove { .. }
    ));
    assert!(matches!(
        action("(repeat all (forget (top (game mem M))))"),
        Action::RepeatAllForget(_)
    ));
    fails_with(
        &game("(repeat all (shuffle (game vloc DECK)))"),
        "`repeat all` works with `(move ...)` or `(forget ...)`",
    );
}

#[test]
fn shuffle_turn_and_create() {
    assert!(matches!(
        action("(shuffle (game vloc DECK))"),
        Action::Shuffle(CardsExpr::Location(_))
    ));
    assert!(matches!(action("(turn pass)"), Action::TurnPass));
    assert!(
        matches!(action("(create teams (0 1) (2))"), Action::CreateTeams(ref t) if t.len() == 2)
    );
    assert!(matches!(
        action("(create deck (game vloc D) (deck (RANK (A))))"),
        Action::CreateDeck { .. }
    ));
    fails_with(&game("(turn over)"), "`turn` is written `(turn pass)`");
    fails_with(
        &game("(shuffle (size (game vloc DECK)))"),
        "expected a card location such as `(game vloc PILE)`, found `(size ...)`",
    );
    fails_with(
        &game("(create players 3)"),
        "players can only be created in the setup",
    );
}

#[test]
fn do_any_all_and_let_nest_condacts() {
    let a = action("(do ((turn pass) ((== 1 2) (turn pass))))");
    assert!(matches!(a, Action::Do(ref cs) if cs.len() == 2 && cs[1].cond.is_some()));
    let a = action("(any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))");
    assert!(matches!(a, Action::Any { .. }));
    let a = action("(let (top (game vloc DECK)) 'C (move 'C (top (game vloc PILE))))");
    assert!(matches!(a, Action::Let { .. }));
    fails_with(
        &game("(do (turn pass))"),
        "expected an action such as `(move ...)`",
    );
    fails_with(
        &game("(all player (turn pass))"),
        "`all` takes a collection, a variable and a body, found two",
    );
    fails_with(
        &game("(all player P (turn pass))"),
        "`all` needs a variable name such as `'X` here, found `P`",
    );
}

#[test]
fn old_put_points_sets_a_game_point_map() {
    let p = ok(&game(
        "(put points 'PREC (((SUIT (HEARTS)) 100) ((RANK (A)) 14)))",
    ));
    assert_eq!(p.point_names.len(), 1);
    assert_eq!(p.name(p.point_names[0]), "PREC");
    fails_with(
        &game("(put 'PREC ())"),
        "`put` is written `(put points 'NAME (AWARD...))`",
    );
}

#[test]
fn several_errors_are_all_reported() {
    let errs = errors(&game(
        "(mvoe 1 2) (move 'X (top (game vloc A))) (stage player (turn pass))",
    ));
    assert_eq!(errs.len(), 3, "{errs:?}");
}
