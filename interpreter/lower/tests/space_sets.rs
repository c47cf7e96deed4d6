//! Unit tests of hex boards, `group` over given directions and `line`:
//! the shapes and expressions they lower to. Their messages are in the
//! snapshot of `tests/errors/bad_hex.rcy`.

use super::{fails_with, ok};
use crate::ir::{Action, CollectionExpr, GroupDirs, IntExpr, Program, Shape, StageItem, ValueExpr};

/// A game with a hex board HEX and a grid GRID, around `body`.
fn hex_game(body: &str) -> String {
    format!(
        "(game (declare (NE, SW) 'AXES)
         (setup (create players 2)
                (create board HEX (hex 4 'N (wrap rows)))
                (create board GRID (grid 3 3)))
         {body}
         (scoring max 0))"
    )
}

/// The collection of `(set (game sto X) (size COLLECTION))`, the only
/// item of a hex game (with `'N` declared).
fn collection(p: &Program) -> &CollectionExpr {
    match p.body.first() {
        Some(StageItem::Run(c)) => match &c.action {
            Action::SetInt(_, IntExpr::Size(c)) => c,
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    }
}

fn program(item: &str) -> Program {
    ok(&hex_game(item).replacen("(game ", "(game (declare 5 'N) ", 1))
}

#[test]
fn a_hex_board_has_rows_columns_and_wraps() {
    let p = program("(turn pass)");
    assert!(matches!(
        p.boards[0].shape,
        Shape::Hex {
            rows: IntExpr::Lit(4),
            cols: IntExpr::Var(_),
            wrap_rows: true,
            wrap_cols: false,
        }
    ));
    assert!(matches!(p.boards[1].shape, Shape::Grid { .. }));
}

#[test]
fn group_directions_written_out_are_a_mask_the_program_lists() {
    let p =
        program("(set (game sto X) (size (group (space GRID 0 0) (N, E, NE) 'V (onboard 'V))))");
    // N is bit 0, E bit 1, NE bit 4 (the order of `ir::DIRECTIONS`).
    match collection(&p) {
        CollectionExpr::Group {
            dirs: Some(GroupDirs::Lit(mask)),
            ..
        } => assert_eq!(*mask, 0b1_0011),
        other => panic!("{other:?}"),
    }
    assert_eq!(p.group_dirs, [0b1_0011]);
    // Without directions: none listed.
    let p = program("(set (game sto X) (size (group (space GRID 0 0) 'V (onboard 'V))))");
    assert!(matches!(
        collection(&p),
        CollectionExpr::Group { dirs: None, .. }
    ));
    assert!(p.group_dirs.is_empty());
}

#[test]
fn group_directions_in_a_variable_are_checked_while_playing() {
    let p = program("(set (game sto X) (size (group (space HEX 0 0) 'AXES 'V (onboard 'V))))");
    match collection(&p) {
        CollectionExpr::Group {
            dirs: Some(GroupDirs::Expr(c)),
            ..
        } => assert!(matches!(
            **c,
            CollectionExpr::Var(..) | CollectionExpr::Strings(_)
        )),
        other => panic!("{other:?}"),
    }
    assert!(p.group_dirs.is_empty());
}

#[test]
fn line_is_a_collection_of_spaces() {
    let p = program("(set (game sto X) (size (line (space HEX 1 1) SW 'V (onboard 'V))))");
    assert!(matches!(collection(&p), CollectionExpr::Line { .. }));
    // Its items are spaces: `let` binds a collection of spaces.
    let p =
        program("(let (line (space HEX 1 1) SW 'V (onboard 'V)) 'L (set (game sto X) (rows 'L)))");
    assert!(matches!(
        p.body.first(),
        Some(StageItem::Run(c)) if matches!(&c.action, Action::Let { value: ValueExpr::Collection(CollectionExpr::Line { .. }), .. })
    ));
}

#[test]
fn hex_directions_are_checked_against_a_written_hex_board() {
    fails_with(
        &hex_game("(set ((neighbour (space HEX 1 1) S) sto X) 1)"),
        "`HEX` is a hex board: its directions are `E`, `W`, `NE`, `NW`, `SE` and `SW`, not `S`",
    );
    fails_with(
        &hex_game("(set (game sto X) (size (group (space HEX 1 1) (E, N) 'V (onboard 'V))))"),
        "not `N`",
    );
    fails_with(
        &hex_game("(set (game sto X) (size (line (space HEX 1 1) NEXT 'V (onboard 'V))))"),
        "not `NEXT`",
    );
    fails_with(
        &hex_game("(set ((before (space HEX 1 1) 'V (onboard 'V)) sto X) 1)"),
        "`HEX` is a hex board: `before` needs a direction",
    );
}
