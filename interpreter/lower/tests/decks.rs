//! Unit tests of decks, point awards and teams.

use super::{action, fails_with, game, ok};
use crate::ir::{Action, AttrRef, StageItem, StrExpr};

#[test]
fn deck_dimensions_groups_and_sub_dimensions() {
    let a = action(
        "(create deck (game vloc D) (deck (RANK (A, TWO)) (COLOR (RED (SUIT (HEARTS, DIAMONDS))) (BLACK (SUIT (SPADES))))))",
    );
    let Action::CreateDeck { deck, .. } = a else {
        panic!()
    };
    assert_eq!(deck.dims.len(), 2);
    assert_eq!(deck.dims[0].groups.len(), 1);
    assert_eq!(deck.dims[0].groups[0].values.len(), 2);
    assert!(deck.dims[0].groups[0].sub.is_empty());
    let color = &deck.dims[1];
    assert_eq!(color.groups.len(), 2);
    assert_eq!(color.groups[0].values.len(), 1);
    assert_eq!(color.groups[0].sub.len(), 1);
    assert_eq!(color.groups[0].sub[0].groups[0].values.len(), 2);
}

#[test]
fn deck_keys_are_known_everywhere() {
    // COLOR is only defined by a deck created later, inside the game.
    let p = ok(&game(
        "(set (game str C) (cardatt COLOR (top (game vloc DECK)))) (create deck (game vloc X) (deck (COLOR (RED))))",
    ));
    let StageItem::Run(c) = &p.body[0] else {
        panic!()
    };
    let Action::SetStr(_, StrExpr::CardAtt(attr, _)) = &c.action else {
        panic!()
    };
    assert!(matches!(attr, AttrRef::Key(2)));
    let p = ok(&game(
        "(set (game str C) (cardatt FLAVOR (top (game vloc DECK))))",
    ));
    let StageItem::Run(c) = &p.body[0] else {
        panic!()
    };
    assert!(matches!(
        &c.action,
        Action::SetStr(_, StrExpr::CardAtt(AttrRef::Unknown, _))
    ));
    let p = ok(&game(
        "(set (game str C) (cardatt (game str K) (top (game vloc DECK))))",
    ));
    let StageItem::Run(c) = &p.body[0] else {
        panic!()
    };
    assert!(matches!(
        &c.action,
        Action::SetStr(_, StrExpr::CardAtt(AttrRef::Dynamic(_), _))
    ));
}

#[test]
fn bad_decks_are_reported() {
    fails_with(
        &game("(create deck (game vloc D) (deck))"),
        "a deck needs at least one attribute",
    );
    fails_with(
        &game("(create deck (game vloc D) (deck (RANK A TWO)))"),
        "the values of the deck attribute `RANK` go in their own brackets",
    );
    fails_with(
        &game("(create deck (game vloc D) (deck (RANK)))"),
        "the attribute `RANK` has no values",
    );
    fails_with(
        &game("(create deck (game vloc D) (cards (RANK (A))))"),
        "expected a deck such as",
    );
    fails_with(
        &game("(create deck (game vloc D) (deck ((A, B))))"),
        "a deck attribute is written `(KEY (VALUE, ...))`",
    );
}

#[test]
fn awards_in_both_dialects() {
    let a = action(
        "(set (game points P) (((SUIT : (game str LEAD)) 100) ((RANK : A) (SUIT : HEARTS) 14) ((SUIT (HEARTS)) 1) \
         ((SUIT (cardatt SUIT (top (game mem LEAD)))) 2)))",
    );
    let Action::SetPoints(_, awards) = a else {
        panic!()
    };
    assert_eq!(awards.len(), 4);
    assert!(matches!(awards[0].conds[0].1, StrExpr::Storage(_)));
    assert_eq!(awards[1].conds.len(), 2);
    assert!(matches!(awards[2].conds[0].1, StrExpr::Lit(_)));
    assert!(matches!(awards[3].conds[0].1, StrExpr::CardAtt(..)));
}

#[test]
fn bad_awards_are_reported() {
    fails_with(
        &game("(set (game points P) (((RANK : A))))"),
        "this award has no points",
    );
    fails_with(
        &game("(set (game points P) ((14)))"),
        "an award needs at least one condition",
    );
    fails_with(
        &game("(set (game points P) (((RANK A TWO) 3)))"),
        "a condition of an award is written",
    );
    fails_with(
        &game("(set (game points P) (((RANK : A) ACE)))"),
        "expected an integer",
    );
    fails_with(
        &game("(set (game points P) 3)"),
        "expected a list of awards",
    );
}

#[test]
fn teams_are_lists_of_seat_numbers() {
    fails_with(
        &game("(create teams (0 A))"),
        "a team is a list of player numbers such as `(0, 2)`, found `A`",
    );
    fails_with(&game("(create teams)"), "`create teams` needs the teams");
    fails_with(&game("(create teams (0 300))"), "found the number `300`");
}
