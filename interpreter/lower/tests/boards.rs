//! Unit tests of boards and spaces (cardboard's extensions): `create board`
//! in the setup, spaces as owners, spatial queries, space collections and
//! integer collections, with the messages for each mistake.

use super::{fails_with, ok};
use crate::ir::{
    Action, BoolExpr, CardExpr, CardsExpr, CollectionExpr, IntExpr, OwnerExpr, Program, Shape,
    SpaceExpr, StageItem, StrExpr,
};

/// A game with three boards (TRACK = 0, GRID = 1, RING = 2) and a deck,
/// around `body`.
pub(super) fn board_game(body: &str) -> String {
    format!(
        "(game (declare 5 'SIZE)
         (setup (create players 2)
                (create board TRACK (track 16))
                (create deck (game vloc DECK) (deck (RANK (A, TWO)) (SUIT (HEARTS, SPADES))))
                (create board GRID (grid 'SIZE 'SIZE))
                (create board RING (grid 7 7 (wrap columns))))
         {body}
         (scoring max 0))"
    )
}

/// A game whose setup holds `boards` after `(create players 2)`.
fn setup_game(boards: &str) -> String {
    format!("(game (declare 3 'N) (setup (create players 2) {boards}) (turn pass) (scoring max 0))")
}

/// The action of the single item `item` of a board game.
pub(super) fn action(item: &str) -> Action {
    let p = ok(&board_game(item));
    match p.body.into_iter().next() {
        Some(StageItem::Run(c)) => c.action,
        other => panic!("expected one action, got {other:?}"),
    }
}

/// The space owning the storage of `(set (SPACE sto X) 1)`.
pub(super) fn space(s: &str) -> SpaceExpr {
    match action(&format!("(set ({s} sto X) 1)")) {
        Action::SetInt(storage, _) => match storage.owner {
            OwnerExpr::Space(s) => s,
            other => panic!("expected a space owner, got {other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

/// The integer of `(set (game sto X) INT)`.
pub(super) fn int(i: &str) -> IntExpr {
    match action(&format!("(set (game sto X) {i})")) {
        Action::SetInt(_, v) => v,
        other => panic!("{other:?}"),
    }
}

/// The condition of `(COND (turn pass))`.
pub(super) fn cond(c: &str) -> BoolExpr {
    let p = ok(&board_game(&format!("({c} (turn pass))")));
    match p.body.into_iter().next() {
        Some(StageItem::Run(c)) => c.cond.expect("a guard"),
        other => panic!("{other:?}"),
    }
}

/// The collection counted by `(set (game sto X) (size C))`.
pub(super) fn collection(c: &str) -> CollectionExpr {
    match int(&format!("(size {c})")) {
        IntExpr::Size(c) => *c,
        other => panic!("{other:?}"),
    }
}

/// The name of a symbol-literal string.
pub(super) fn lit(p: &Program, s: &StrExpr) -> String {
    match s {
        StrExpr::Lit(sym) => p.name(*sym).to_string(),
        other => panic!("expected a literal, got {other:?}"),
    }
}

#[test]
fn boards_are_created_in_order_with_their_shapes() {
    let p = ok(&board_game("(turn pass)"));
    let names: Vec<&str> = p.boards.iter().map(|b| p.name(b.name)).collect();
    assert_eq!(names, ["TRACK", "GRID", "RING"]);
    assert!(matches!(
        p.boards[0].shape,
        Shape::Track {
            len: IntExpr::Lit(16)
        }
    ));
    assert!(matches!(
        p.boards[1].shape,
        Shape::Grid {
            rows: IntExpr::Var(0),
            cols: IntExpr::Var(0),
            wrap_rows: false,
            wrap_cols: false
        }
    ));
    assert!(matches!(
        p.boards[2].shape,
        Shape::Grid {
            rows: IntExpr::Lit(7),
            wrap_rows: false,
            wrap_cols: true,
            ..
        }
    ));
    // The deck between the boards is still the setup's one action.
    assert_eq!(p.setup.actions.len(), 1);
    let src = board_game("(turn pass)");
    let at = src.find("(create board GRID").expect("in the source");
    assert_eq!(p.boards[1].span.start as usize, at);
}

#[test]
fn wrap_takes_rows_columns_or_both() {
    let wraps = |w: &str| {
        let p = ok(&setup_game(&format!("(create board B (grid 3 4 {w}))")));
        match p.boards[0].shape {
            Shape::Grid {
                wrap_rows,
                wrap_cols,
                ..
            } => (wrap_rows, wrap_cols),
            ref other => panic!("{other:?}"),
        }
    };
    assert_eq!(wraps("(wrap rows)"), (true, false));
    assert_eq!(wraps("(wrap columns)"), (false, true));
    assert_eq!(wraps("(wrap columns rows)"), (true, true));
    assert_eq!(wraps("(wrap rows columns)"), (true, true));
    let p = ok(&setup_game("(create board B (track (+ 'N 1)))"));
    assert!(matches!(
        p.boards[0].shape,
        Shape::Track {
            len: IntExpr::Binary(..)
        }
    ));
}

#[test]
fn board_mistakes_are_reported() {
    fails_with(
        &setup_game("(create board B (track 3)) (create board B (grid 2 2))"),
        "the board `B` is created twice",
    );
    fails_with(
        &setup_game("(create board B (ring 3))"),
        "a board's shape is `(track N)`, `(grid ROWS COLS)`, `(hex ROWS COLS)`, `(hexagon SIDE)` or `(graph (points ...) (links ...))`, found `(ring ...)`",
    );
    fails_with(
        &setup_game("(create board B (track 3 4))"),
        "`track` is written `(track N)`, with N the number of spaces; found two",
    );
    fails_with(
        &setup_game("(create board B (track 10 (wrap)))"),
        "a track does not wrap",
    );
    fails_with(
        &setup_game("(create board B (grid 3))"),
        "`grid` is written `(grid ROWS COLS)`, optionally followed by `(wrap columns)`",
    );
    fails_with(
        &setup_game("(create board B (grid 3 3 (wrap columns) (wrap rows)))"),
        "`grid` is written `(grid ROWS COLS)`",
    );
    fails_with(
        &setup_game("(create board B (grid 3 3 (wrap cols)))"),
        "`wrap` takes `rows`, `columns` or both, found `cols`",
    );
    fails_with(
        &setup_game("(create board B (grid 3 3 (wrap)))"),
        "`wrap` takes `rows`, `columns` or both, found none",
    );
    fails_with(
        &setup_game("(create board B (grid 3 3 (wrap rows rows)))"),
        "`rows` is written twice in this `wrap`",
    );
    fails_with(
        &setup_game("(create board B (grid 3 3 columns))"),
        "after a grid's rows and columns comes `(wrap columns)`",
    );
    fails_with(
        &setup_game("(create board B (grid 0 3))"),
        "a grid needs at least one row",
    );
    fails_with(
        &setup_game("(create board B (track 0))"),
        "a track needs at least one space",
    );
    fails_with(
        &setup_game("(create board B (grid 3 HEARTS))"),
        "expected an integer such as `3`",
    );
    fails_with(
        &setup_game("(create board (grid 3 3))"),
        "this board has no name: `(create board NAME (grid ROWS COLS))`",
    );
    fails_with(
        &setup_game("(create board B)"),
        "`create board` is written `(create board NAME (track N))`",
    );
    fails_with(
        &setup_game("(create board 'B (track 3))"),
        "a board is named by a word such as `TRACK` or `GRID`, found the variable `'B`",
    );
    fails_with(
        &board_game("(create board B (track 3))"),
        "a board is created once, by a `(create board ...)` of its own in the setup",
    );
    fails_with(
        &setup_game("(repeat 2 (create board B (track 3)))"),
        "a board is created once",
    );
    fails_with(
        "(game (declare (spaces B) 'ALL) (setup (create players 2) (create board B (track 3))) (turn pass) (scoring max 0))",
        "a `declare` cannot use a board",
    );
}

#[test]
fn spaces_on_tracks_and_grids() {
    assert!(
        matches!(space("(space TRACK 3)"), SpaceExpr::At { board: 0, ref coords } if coords.len() == 1)
    );
    assert!(
        matches!(space("(space GRID 1 (+ 1 1))"), SpaceExpr::At { board: 1, ref coords } if matches!(coords[1], IntExpr::Binary(..)))
    );
    assert!(matches!(
        space("(where (top (game vloc DECK)))"),
        SpaceExpr::Of(_)
    ));
    let p = ok(&board_game(
        "(set ((neighbour (space GRID 0 0) NE) sto X) 1)",
    ));
    let Some(StageItem::Run(c)) = p.body.first() else {
        panic!()
    };
    let Action::SetInt(s, _) = &c.action else {
        panic!()
    };
    let OwnerExpr::Space(SpaceExpr::Neighbour(from, dir)) = &s.owner else {
        panic!("{:?}", s.owner)
    };
    assert!(matches!(**from, SpaceExpr::At { board: 1, .. }));
    assert_eq!(lit(&p, dir), "NE");
    // A computed direction.
    assert!(matches!(
        space("(neighbour (space TRACK 0) (game str DIR))"),
        SpaceExpr::Neighbour(_, ref d) if matches!(**d, StrExpr::Storage(_))
    ));
}

#[test]
fn after_and_before_bind_a_space_inside_their_condition() {
    let find = space("(after (space TRACK 0) 'V (== (size ('V vloc P)) 0))");
    let SpaceExpr::Find {
        forward, dir, cond, ..
    } = find
    else {
        panic!("{find:?}")
    };
    assert!(forward);
    assert!(dir.is_none());
    assert!(matches!(*cond, BoolExpr::Int(..)));
    let find = space("(before (space GRID 2 2) W 'V (onboard (neighbour 'V N)))");
    assert!(matches!(
        find,
        SpaceExpr::Find {
            forward: false,
            dir: Some(_),
            ..
        }
    ));
    // 'V is a space inside the condition, and unknown after it.
    fails_with(
        &board_game("(set ((after (space TRACK 0) 'V (== 'V 3)) sto X) 1)"),
        "`==` cannot compare a space with an integer",
    );
    fails_with(
        &board_game("(set ((after (space TRACK 0) 'V (onboard 'V)) sto X) (index 'V))"),
        "unknown variable `'V`",
    );
    fails_with(
        &board_game("(set ((after (space TRACK 0) 'V) sto X) 1)"),
        "`after` is written `(after SPACE 'V CONDITION)`, or `(after SPACE DIRECTION 'V CONDITION)` to go in a direction",
    );
    fails_with(
        &board_game("(set ((before (space GRID 0 0) N V (onboard 'V)) sto X) 1)"),
        "`before` is written `(before SPACE 'V CONDITION)`",
    );
}

#[test]
fn space_mistakes_are_reported() {
    fails_with(
        &board_game("(set ((space GRID 0) sto X) 1)"),
        "`GRID` is a grid: `(space GRID ROW COL)`",
    );
    fails_with(
        &board_game("(set ((space TRACK 1 2) sto X) 1)"),
        "`TRACK` is a track: `(space TRACK INDEX)`",
    );
    fails_with(
        &board_game("(set ((space) sto X) 1)"),
        "`space` is written `(space BOARD INDEX)` on a track or `(space BOARD ROW COL)` on a grid",
    );
    fails_with(
        &board_game("(set ((space 'B 1) sto X) 1)"),
        "expected the name of a board such as `GRID`, found the variable `'B`",
    );
    let src = board_game("(set ((space GRDI 1 2) sto X) 1)");
    let errs = super::super::compile(&src).unwrap_err();
    assert_eq!(errs[0].message, "unknown board `GRDI`");
    assert_eq!(errs[0].note.as_deref(), Some("did you mean `GRID`?"));
    let src = super::game("(set ((space BOARD 1) sto X) 1)");
    let errs = super::super::compile(&src).unwrap_err();
    assert_eq!(errs[0].message, "unknown board `BOARD`");
    assert!(
        errs[0]
            .note
            .as_deref()
            .is_some_and(|n| n.starts_with("this game creates no board")),
        "{errs:?}"
    );
    fails_with(
        &board_game("(set ((neighbour (space GRID 1 1)) sto X) 1)"),
        "`neighbour` takes a space and a direction, found one",
    );
    fails_with(
        &board_game("(set ((neighbour (space GRID 1 1) north) sto X) 1)"),
        "`north` is not a direction",
    );
    fails_with(
        &board_game("(set ((where) sto X) 1)"),
        "`where` takes one card, found none",
    );
    fails_with(
        &board_game("(set (game sto X) (index (top (game vloc DECK))))"),
        "expected a space such as `(space GRID 2 3)` or a space variable, found `(top ...)`",
    );
    fails_with(
        &board_game("(all (spaces GRID) 'S (cycle next 'S))"),
        "`'S` is a space, but a player is expected here",
    );
    fails_with(
        &board_game("(all player 'P (set ((neighbour 'P N) sto X) 1))"),
        "`'P` is a player, but a space is expected here",
    );
    fails_with(
        &board_game("(set (game sto X) (index (neighbor (space GRID 1 1) N)))"),
        "unknown form `(neighbor ...)`",
    );
}

#[test]
fn directions_must_fit_a_written_board() {
    fails_with(
        &board_game("(set ((neighbour (space TRACK 1) N) sto X) 1)"),
        "`TRACK` is a track: its directions are `NEXT` and `PREV`, not `N`",
    );
    fails_with(
        &board_game("(set ((neighbour (space GRID 1 1) NEXT) sto X) 1)"),
        "`GRID` is a grid: its directions are `N`, `E`, `S`, `W`, `NE`, `NW`, `SE` and `SW`, not `NEXT`",
    );
    fails_with(
        &board_game("(set ((after (space GRID 1 1) 'V (onboard 'V)) sto X) 1)"),
        "`GRID` is a grid: `after` needs a direction, as in `(after SPACE E 'V CONDITION)`",
    );
    fails_with(
        &board_game("(set ((before (space TRACK 4) N 'V (onboard 'V)) sto X) 1)"),
        "`TRACK` is a track: its directions are `NEXT` and `PREV`, not `N`",
    );
    // Where the board is not written out, the engine checks while playing.
    ok(&board_game(
        "(all (spaces GRID) 'S (set ((neighbour 'S NEXT) sto X) 1))",
    ));
    ok(&board_game(
        "(set ((before (space TRACK 4) PREV 'V (onboard 'V)) sto X) 1)",
    ));
}

#[test]
fn a_space_is_an_owner_of_locations_and_storages() {
    let p = ok(&board_game(
        "(do (
           (move (top (game vloc DECK)) (top ((space GRID 0 0) vloc STONE)))
           (move (top (game vloc DECK)) (top ((space TRACK 1) iloc SECRET)))
           (move (top (game vloc DECK)) (top ((space TRACK 2) hloc HIDDEN)))
           (remember (top (game vloc DECK)) (top ((space TRACK 2) mem SEEN)))
           (set ((space TRACK 3) str KIND) HEARTS)
           (set ((space TRACK 3) points VALUE) (((RANK : A) 1)))
           (all (spaces TRACK) 'S (inc ('S sto VISITS) 1))
           (all (game vloc DECK) 'C (set ((where 'C) sto HAS) 1))))",
    ));
    let Some(StageItem::Run(c)) = p.body.first() else {
        panic!()
    };
    let Action::Do(items) = &c.action else {
        panic!()
    };
    let owners: Vec<bool> = items
        .iter()
        .map(|c| match &c.action {
            Action::Move { to, .. } | Action::Remember { to, .. } => matches!(
                to,
                CardExpr::At(_, cards) if matches!(&**cards, CardsExpr::Location(l)
                    if matches!(l.owner, OwnerExpr::Space(SpaceExpr::At { .. })))
            ),
            Action::SetStr(s, _) => matches!(s.owner, OwnerExpr::Space(SpaceExpr::At { .. })),
            Action::SetPoints(s, _) => matches!(s.owner, OwnerExpr::Space(SpaceExpr::At { .. })),
            Action::All { body, .. } => match &body.action {
                Action::IncInt(s, _) => matches!(s.owner, OwnerExpr::Space(SpaceExpr::Var(_))),
                Action::SetInt(s, _) => matches!(s.owner, OwnerExpr::Space(SpaceExpr::Of(_))),
                _ => false,
            },
            _ => false,
        })
        .collect();
    assert_eq!(owners, [true; 8]);
    // The sum of a storage over spaces.
    assert!(matches!(
        int("(all (spaces TRACK) 'S ('S sto VISITS))"),
        IntExpr::SumAll { .. }
    ));
    // Owners speak of spaces in their messages.
    fails_with(
        &board_game("(all (game vloc DECK) 'C (inc ('C sto X) 1))"),
        "`'C` is a card, but a player, a team, a space or `game` is expected here",
    );
}
