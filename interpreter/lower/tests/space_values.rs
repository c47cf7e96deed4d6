//! Unit tests of what spaces give (cardboard's extensions): integers of
//! spaces, `min`, `max` and `first` of integer collections, conditions on
//! spaces, collections of spaces, the new keywords and `rotate`, with the
//! messages for each mistake. The games are built by the helpers of
//! [`super::boards`].

use super::boards::{board_game, collection, cond, int, lit, space};
use super::{errors, fails_with, ok};
use crate::ir::{
    Action, BoolExpr, CollectionExpr, IntExpr, Program, SpaceExpr, StageItem, StrExpr, ValueExpr,
};

#[test]
fn integers_of_spaces() {
    assert!(matches!(
        int("(index (space TRACK 3))"),
        IntExpr::SpaceIndex(_)
    ));
    assert!(matches!(
        int("(row (space GRID 3 1))"),
        IntExpr::SpaceRow(_)
    ));
    assert!(matches!(
        int("(col (space GRID 3 1))"),
        IntExpr::SpaceCol(_)
    ));
    assert!(matches!(
        int("(rows (spaces GRID))"),
        IntExpr::RowsSpanned(ref c) if matches!(**c, CollectionExpr::Spaces(1))
    ));
    assert!(matches!(
        int("(cols (group (space GRID 0 0) 'V (onboard 'V)))"),
        IntExpr::ColsSpanned(ref c) if matches!(**c, CollectionExpr::Group { .. })
    ));
    fails_with(
        &board_game("(set (game sto X) (rows (game vloc DECK)))"),
        "`rows` takes a collection of spaces such as `(spaces GRID)` or `(group ...)`, found a card collection",
    );
    fails_with(
        &board_game("(set (game sto X) (cols (space GRID 0 0)))"),
        "expected a collection such as",
    );
    assert!(matches!(
        int("(around (space GRID 1 1) 'V (== ('V sto M) 1))"),
        IntExpr::Around { .. }
    ));
    assert!(matches!(
        int("(bitand (shl 1 3) (bitor 2 (bitxor 4 (shr 16 2))))"),
        IntExpr::Binary(crate::ir::IntOp::BitAnd, ..)
    ));
    fails_with(
        &board_game("(set (game sto X) (around (space GRID 1 1) 'V))"),
        "`around` takes a space, a variable and a condition",
    );
    fails_with(
        &board_game("(set (game sto X) (around (space GRID 1 1) V (== 1 1)))"),
        "`around` needs a variable name such as `'X` here",
    );
    fails_with(
        &board_game("(set (game sto X) (bitand 1 2 3))"),
        "`bitand` takes two integers, found three",
    );
    fails_with(
        &board_game("(set (game sto X) (index (space GRID 0 0) 1))"),
        "`index` takes one space, found two",
    );
    fails_with(
        &board_game("(set (game str X) (row (space GRID 0 0)))"),
        "expected a string such as",
    );
}

#[test]
fn min_max_and_first_of_integer_collections() {
    assert!(matches!(
        int("(max (range 1 .. 5))"),
        IntExpr::MaxOf(ref c) if matches!(**c, CollectionExpr::Range(..))
    ));
    assert!(matches!(
        int("(min (filter (range 1 .. 9) 'I (> 'I 3)))"),
        IntExpr::MinOf(ref c) if matches!(**c, CollectionExpr::Filter(..))
    ));
    assert!(matches!(
        int("(first (filter (range 0 .. 15) 'I (== (size ((space TRACK 'I) vloc P)) 0)))"),
        IntExpr::FirstOf(_)
    ));
    let p = ok(&board_game(
        "(let (range 1 .. 4) 'R (let (max 'R) 'M (set (game sto X) 'M)))",
    ));
    let Some(StageItem::Run(c)) = p.body.first() else {
        panic!()
    };
    let Action::Let { body, .. } = &c.action else {
        panic!()
    };
    let Action::Let { value, .. } = &body.action else {
        panic!()
    };
    assert!(matches!(value, ValueExpr::Int(IntExpr::MaxOf(_))));
    // With `using`, `max` is still RECYCLE's card.
    let p = ok(&board_game(
        "(let (max (game vloc DECK) using (game points P)) 'C (move 'C (top (game vloc B))))",
    ));
    let Some(StageItem::Run(c)) = p.body.first() else {
        panic!()
    };
    assert!(matches!(
        &c.action,
        Action::Let {
            value: ValueExpr::Card(_),
            ..
        }
    ));
    fails_with(
        &board_game("(set (game sto X) (max (game vloc DECK)))"),
        "`max` takes a collection of integers such as `(range 1 .. 5)`, found a card collection",
    );
    fails_with(
        &board_game("(set (game sto X) (first player))"),
        "`first` takes a collection of integers such as `(range 1 .. 5)`, found a collection of players",
    );
    fails_with(
        &board_game("(set (game sto X) (min (range 1 .. 5) (range 1 .. 5)))"),
        "`min` is written `(min INTS)`, `(min A B)` or `(min COLLECTION 'V INT)` (the least value of INT over the items)",
    );
    fails_with(
        &board_game("(set (game sto X) (max (spaces GRID) S (row 'S)))"),
        "`max` is written `(max INTS)`, `(max A B)` or `(max COLLECTION 'V INT)` (the greatest value of INT over the items)",
    );
    fails_with(
        &board_game("(set (game sto X) (max (spaces GRID) 'S (cardatt COLOR (top ('S vloc B)))))"),
        "expected an integer such as `3`",
    );
    fails_with(
        &board_game("(move (max (range 1 .. 4)) (top (game vloc B)))"),
        "expected a card such as `(top (game vloc PILE))` or a card variable, found `(max ...)`",
    );
    fails_with(
        &board_game("(move (max (game vloc DECK)) (top (game vloc B)))"),
        "`max` is written `(max CARDS using POINTS)`",
    );
}

#[test]
fn conditions_on_spaces() {
    assert!(matches!(
        cond("(== (where (top (game vloc DECK))) (space TRACK 1))"),
        BoolExpr::Space { eq: true, .. }
    ));
    assert!(matches!(
        cond("(all (spaces GRID) 'S (!= 'S (space GRID 0 0)))"),
        BoolExpr::All { ref body, .. } if matches!(**body, BoolExpr::Space { eq: false, .. })
    ));
    assert!(matches!(
        cond("(onboard (neighbour (space TRACK 15) NEXT))"),
        BoolExpr::OnBoard(SpaceExpr::Neighbour(..))
    ));
    fails_with(
        &board_game("((== (space TRACK 0) 3) (turn pass))"),
        "`==` cannot compare a space with an integer",
    );
    fails_with(
        &board_game("((== (space TRACK 0) (current player)) (turn pass))"),
        "`==` cannot compare a space with a player",
    );
    fails_with(
        &board_game("((== (spaces TRACK) (spaces GRID)) (turn pass))"),
        "`==` compares integers, strings, cards, players, teams or spaces, found a collection of spaces",
    );
    fails_with(
        &board_game("((onboard) (turn pass))"),
        "`onboard` takes one space, found none",
    );
}

#[test]
fn collections_of_spaces() {
    assert!(matches!(
        collection("(spaces RING)"),
        CollectionExpr::Spaces(2)
    ));
    assert!(matches!(
        collection("(group (space GRID 0 0) 'V (== (size ('V vloc STONE)) 1))"),
        CollectionExpr::Group { .. }
    ));
    assert!(matches!(
        collection("(filter (spaces TRACK) 'S (== (size ('S vloc P)) 0))"),
        CollectionExpr::Filter(ref c, ..) if matches!(**c, CollectionExpr::Spaces(0))
    ));
    // `filter` keeps the collection a collection of spaces: its items are
    // spaces, and `rows` takes it.
    ok(&board_game(
        "(let (filter (spaces GRID) 'S (onboard 'S)) 'F
              (do ((set (game sto X) (rows 'F))
                   (all 'F 'T (inc ('T sto X) (row 'T))))))",
    ));
    ok(&board_game(
        "(choice ((any (filter (spaces GRID) 'S (== (size ('S vloc STONE)) 0)) 'T
                     (move (top (game vloc DECK)) (top ('T vloc STONE))))))",
    ));
    // A `let` of a single space.
    let p = ok(&board_game(
        "(let (space GRID 2 3) 'HERE (set ('HERE sto X) 1))",
    ));
    let Some(StageItem::Run(c)) = p.body.first() else {
        panic!()
    };
    assert!(matches!(
        &c.action,
        Action::Let {
            value: ValueExpr::Space(SpaceExpr::At { board: 1, .. }),
            ..
        }
    ));
    fails_with(
        &board_game("(set (game sto X) (size (spaces NOPE)))"),
        "unknown board `NOPE`",
    );
    fails_with(
        &board_game("(set (game sto X) (size (spaces)))"),
        "`spaces` takes the name of a board, found none",
    );
    fails_with(
        &board_game("(set (game sto X) (size (group (space GRID 0 0) 'V)))"),
        "`group` is written `(group SPACE 'V CONDITION)`, or `(group SPACE DIRECTIONS 'V CONDITION)`",
    );
    fails_with(
        &board_game("(set (game sto X) (size (group (space GRID 0 0) V (onboard 'V))))"),
        "`group` needs a variable name such as `'X` here, found `V`",
    );
    fails_with(
        &board_game("(all (space GRID 0 0) 'S (turn pass))"),
        "expected a collection such as",
    );
    fails_with(
        &board_game("(let (space GRID 0 0) 'S (all 'S 'T (turn pass)))"),
        "`'S` is a space, but a collection is expected here",
    );
}

#[test]
fn the_new_words_are_keywords() {
    // A misspelt space form is an unknown form with a suggestion, not a
    // list of strings.
    let src = board_game("(set (game sto X) (index (spcae GRID 0 0)))");
    let errs = super::super::compile(&src).unwrap_err();
    assert_eq!(errs[0].note.as_deref(), Some("did you mean `space`?"));
    // A list holding a new keyword is no list of strings.
    let errs = errors(&board_game("(all (HEARTS, row) 'S (turn pass))"));
    assert!(
        errs.iter().any(|e| e.contains("expected a collection")),
        "{errs:?}"
    );
}

/// The string of `(set (game str X) STR)`, with its program.
fn string(s: &str) -> (Program, StrExpr) {
    let p = ok(&board_game(&format!("(set (game str X) {s})")));
    let Some(StageItem::Run(c)) = p.body.first() else {
        panic!("{:?}", p.body)
    };
    let Action::SetStr(_, v) = &c.action else {
        panic!("{:?}", c.action)
    };
    let v = v.clone();
    (p, v)
}

#[test]
fn rotate_turns_a_direction_by_quarter_turns() {
    let (p, s) = string("(rotate NE 1)");
    let StrExpr::Rotate(dir, quarters) = &s else {
        panic!("{s:?}")
    };
    assert_eq!(lit(&p, dir), "NE");
    assert!(matches!(**quarters, IntExpr::Lit(1)));
    // Every direction has a symbol, so the engine can name any result.
    for d in ["N", "E", "S", "W", "NE", "NW", "SE", "SW", "NEXT", "PREV"] {
        assert!(p.symbols.iter().any(|s| s == d), "{d} not interned");
    }
    // Computed directions and turns, nested, with a track's half turn.
    let (_, s) = string("(rotate (rotate (game str FACING) (- 0 1)) (size (game vloc DECK)))");
    assert!(
        matches!(s, StrExpr::Rotate(ref d, ref k) if matches!(**d, StrExpr::Rotate(..)) && matches!(**k, IntExpr::Size(_)))
    );
    string("(rotate NEXT 2)");
    string("(rotate PREV (game sto K))");
    // Usable wherever a string is: `neighbour`, `==`, `let`.
    assert!(matches!(
        space("(neighbour (space GRID 1 1) (rotate N 3))"),
        SpaceExpr::Neighbour(_, ref d) if matches!(**d, StrExpr::Rotate(..))
    ));
    assert!(matches!(
        cond("(== (rotate (game str F) 2) S)"),
        BoolExpr::Str { .. }
    ));
    ok(&board_game(
        "(let (rotate W 1) 'D (set ((neighbour (space RING 0 0) 'D) sto X) 1))",
    ));
}

#[test]
fn rotate_mistakes_are_reported() {
    fails_with(
        &board_game("(set (game str X) (rotate N))"),
        "`rotate` takes a direction and a number of quarter turns, found one",
    );
    fails_with(
        &board_game("(set (game str X) (rotate N 1 2))"),
        "`rotate` takes a direction and a number of quarter turns, found three",
    );
    fails_with(
        &board_game("(set (game str X) (rotate north 1))"),
        "`north` is not a direction",
    );
    fails_with(
        &board_game("(set (game str X) (rotate N EAST))"),
        "expected an integer",
    );
    fails_with(
        &board_game("(set (game str X) (rotate NEXT 1))"),
        "`NEXT` is a track's direction: it cannot be turned by 1 quarter turn",
    );
    fails_with(
        &board_game("(set (game str X) (rotate PREV 3))"),
        "`PREV` is a track's direction: it cannot be turned by 3 quarter turns",
    );
    fails_with(
        &board_game("(set (game sto X) (rotate N 1))"),
        "expected an integer",
    );
    // `rotate` is a keyword: a misspelling is an unknown form.
    let errs = super::super::compile(&board_game("(set (game str X) (rotaet N 1))")).unwrap_err();
    assert_eq!(errs[0].note.as_deref(), Some("did you mean `rotate`?"));
}
