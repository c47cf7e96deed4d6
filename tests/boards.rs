//! The board extensions at work on small rules written for each test:
//! spaces as owners, neighbours and wrapping, `after`/`before` along a
//! track, connected groups and their row/column spans, `where`, integer
//! collections. Each test's rules compute facts into storages at setup and
//! the test reads them from the table.

use cardboard::engine::{GameOptions, Rules};
use cardboard::game::{GameState, PlayError, Status};

/// Starts `body` (items after setup) on a game with the given boards and
/// returns the table as text.
fn table(boards: &str, body: &str) -> String {
    let src = format!(
        "(game\n (setup (create players 2) {boards}\n (create deck (game vloc STONES) (deck (COLOR (BLACK, WHITE)))))\n {body}\n (scoring max 0))"
    );
    let rules = Rules::from_source("t.rcy", &src).unwrap_or_else(|e| panic!("{}", e.render()));
    let state = rules
        .start(&GameOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(state.status(), Status::Finished);
    state.describe()
}

#[test]
fn neighbours_stop_at_edges_and_cross_wrapped_ones() {
    let t = table(
        "(create board G (grid 3 4)) (create board W (grid 3 4 (wrap columns)))",
        "(do (
           ((onboard (neighbour (space G 0 3) E)) (set (game sto GEAST) 1))
           ((onboard (neighbour (space G 0 3) N)) (set (game sto GNORTH) 1))
           ((== (neighbour (space W 0 3) E) (space W 0 0)) (set (game sto WRAPPED) 1))
           ((onboard (neighbour (space W 0 3) N)) (set (game sto WNORTH) 1))
           (set (game sto COL) (col (neighbour (space W 1 0) W)))
           (set (game sto IDX) (index (space G 2 1)))))",
    );
    assert!(!t.contains("GEAST"), "{t}");
    assert!(!t.contains("GNORTH"), "{t}");
    assert!(t.contains("sto WRAPPED = 1"), "{t}");
    assert!(!t.contains("WNORTH"), "{t}");
    assert!(t.contains("sto COL = 3"), "{t}");
    assert!(t.contains("sto IDX = 9"), "{t}");
}

#[test]
fn after_and_before_find_the_first_space_meeting_a_condition() {
    // Spaces 2 and 5 are marked; from 3, the next marked space is 5, the
    // previous is 2; nothing is marked after 5.
    let t = table(
        "(create board T (track 8))",
        "(do (
           (set ((space T 2) sto MARK) 1)
           (set ((space T 5) sto MARK) 1)
           (set (game sto AFTER) (index (after (space T 3) 'V (== ('V sto MARK) 1))))
           (set (game sto BEFORE) (index (before (space T 3) 'V (== ('V sto MARK) 1))))
           ((onboard (after (space T 5) 'V (== ('V sto MARK) 1))) (set (game sto PAST) 1))
           (set (game sto NEXT) (index (neighbour (space T 6) NEXT)))))",
    );
    assert!(t.contains("sto AFTER = 5"), "{t}");
    assert!(t.contains("sto BEFORE = 2"), "{t}");
    assert!(!t.contains("PAST"), "{t}");
    assert!(t.contains("sto NEXT = 7"), "{t}");
}

#[test]
fn groups_are_connected_and_measured_by_rows_and_columns() {
    // Marks form an L: (0,0) (1,0) (2,0) (2,1), and a lone (0,2).
    let t = table(
        "(create board G (grid 3 3))",
        "(do (
           (set ((space G 0 0) sto M) 1) (set ((space G 1 0) sto M) 1)
           (set ((space G 2 0) sto M) 1) (set ((space G 2 1) sto M) 1)
           (set ((space G 0 2) sto M) 1)
           (let (group (space G 0 0) 'V (== ('V sto M) 1)) 'L
             (do ((set (game sto SIZE) (size 'L))
                  (set (game sto ROWS) (rows 'L))
                  (set (game sto COLS) (cols 'L)))))
           (set (game sto LONE) (size (group (space G 0 2) 'V (== ('V sto M) 1))))
           (set (game sto NONE) (size (group (space G 1 1) 'V (== ('V sto M) 1))))
           (set (game sto EMPTY) (size (filter (spaces G) 'S (== ('S sto M) 0))))))",
    );
    assert!(t.contains("sto SIZE = 4"), "{t}");
    assert!(t.contains("sto ROWS = 3"), "{t}");
    assert!(t.contains("sto COLS = 2"), "{t}");
    assert!(t.contains("sto LONE = 1"), "{t}");
    assert!(!t.contains("sto NONE"), "{t}");
    assert!(t.contains("sto EMPTY = 4"), "{t}");
}

#[test]
fn around_gives_the_neighbours_meeting_a_condition_as_bits() {
    // A mark at (1,1) of a 3 x 3 grid. Bits: N 1, NE 2, E 4, SE 8, S 16,
    // SW 32, W 64, NW 128; on a track NEXT 1, PREV 2.
    let t = table(
        "(create board G (grid 3 3)) (create board T (track 4))",
        "(do (
           (set ((space G 1 1) sto M) 1)
           (set ((space T 1) sto M) 1)
           (set (game sto CORNER) (around (space G 0 0) 'V (== ('V sto M) 0)))
           (set (game sto SIDE) (around (space G 1 0) 'V (== ('V sto M) 1)))
           (set (game sto CENTRE) (around (space G 1 1) 'V (!= (index 'V) (* 2 (row 'V)))))
           (set (game sto TRACK) (around (space T 0) 'V (== ('V sto M) 1)))
           (set (game sto TRACKEND) (around (space T 3) 'V (== 1 1)))
           (set (game sto OFF) (+ 5 (around (neighbour (space G 0 0) N) 'V (== 1 1))))))",
    );
    for (name, v) in [
        // (0,0): E and S are on the board and unmarked; SE is marked.
        ("CORNER", 20),
        // (1,0): only E, the mark.
        ("SIDE", 4),
        // (1,1): every neighbour but NW (index 0 = 2 x row 0).
        ("CENTRE", 127),
        ("TRACK", 1),
        // The last space of a track has PREV only.
        ("TRACKEND", 2),
        // No space: no neighbours.
        ("OFF", 5),
    ] {
        assert_eq!(game_int(&t, name), Some(v), "{name}: {t}");
    }
}

/// The game's integer storage `name` in the table text `t`.
fn game_int(t: &str, name: &str) -> Option<i64> {
    let prefix = format!("sto {name} = ");
    t.lines()
        .find_map(|l| l.trim().strip_prefix(&prefix))
        .and_then(|v| v.parse().ok())
}

#[test]
fn bit_operators_work_on_twos_complement_and_refuse_long_shifts() {
    let t = table(
        "",
        "(do (
           (set (game sto AND) (bitand 12 10))
           (set (game sto OR) (bitor 12 10))
           (set (game sto XOR) (bitxor 12 10))
           (set (game sto SHL) (shl 3 2))
           (set (game sto SHR) (shr (- 0 8) 1))
           (set (game sto LOWEST) (bitand 40 (- 0 40)))
           (set (game sto DROPPED) (bitand 40 (- 40 1)))))",
    );
    for (name, v) in [
        ("AND", 8),
        ("OR", 14),
        ("XOR", 6),
        ("SHL", 12),
        ("SHR", -4),
        ("LOWEST", 8),
        ("DROPPED", 32),
    ] {
        assert_eq!(game_int(&t, name), Some(v), "{name}: {t}");
    }
    for (form, msg) in [
        ("(shl 1 64)", "`shl` by 64"),
        ("(shr 1 (- 0 1))", "`shr` by -1"),
    ] {
        let src = format!(
            "(game (setup (create players 2)) (do ((set (game sto X) {form}))) (scoring max 0))"
        );
        let rules = Rules::from_source("t.rcy", &src).unwrap_or_else(|e| panic!("{}", e.render()));
        let err = rules
            .start(&GameOptions::default())
            .unwrap_err()
            .to_string();
        assert!(err.contains(msg), "{err}");
    }
}

#[test]
fn cards_lie_on_spaces_and_where_finds_them() {
    let t = table(
        "(create board G (grid 2 2))",
        "(do (
           (move (top (game vloc STONES)) (top ((space G 1 1) vloc STONE)))
           (set (game sto ROW) (row (where (top ((space G 1 1) vloc STONE)))))
           ((onboard (where (top (game vloc STONES)))) (set (game sto ONBOARD) 1))))",
    );
    assert!(t.contains("G[1,1]:\n  vloc STONE (1): WHITE"), "{t}");
    assert!(t.contains("sto ROW = 1"), "{t}");
    assert!(!t.contains("ONBOARD"), "{t}");
}

#[test]
fn integer_collections_have_min_max_and_first() {
    let t = table(
        "",
        "(do (
           (set (game sto MIN) (min (filter (range 3 .. 9) 'I (== (% 'I 4) 1))))
           (set (game sto MAX) (max (filter (range 3 .. 9) 'I (== (% 'I 4) 1))))
           (set (game sto FIRST) (first (filter (range 3 .. 9) 'I (> 'I 6))))))",
    );
    assert!(t.contains("sto MIN = 5"), "{t}");
    assert!(t.contains("sto MAX = 9"), "{t}");
    assert!(t.contains("sto FIRST = 7"), "{t}");
}

#[test]
fn min_and_max_of_an_integer_over_a_collection() {
    // The L of marks spans rows 0..2 and columns 1..2; the card ranks give
    // 3 and 7.
    let t = table(
        "(create board G (grid 3 3))",
        "(do (
           (set ((space G 0 1) sto M) 1) (set ((space G 1 1) sto M) 1)
           (set ((space G 2 1) sto M) 1) (set ((space G 2 2) sto M) 1)
           (let (group (space G 0 1) 'V (== ('V sto M) 1)) 'L
             (do ((set (game sto TOP) (+ 1 (min 'L 'S (row 'S))))
                  (set (game sto BOTTOM) (max 'L 'S (row 'S)))
                  (set (game sto LEFT) (min 'L 'S (col 'S)))
                  (set (game sto RIGHT) (max 'L 'S (col 'S))))))
           (set (game sto SQ) (max (range 1 .. 4) 'I (- 0 (* 'I 'I))))
           (set (game sto ISEATS) (max player 'P (+ 10 ('P sto NOTHING))))))",
    );
    assert!(t.contains("sto TOP = 1"), "{t}");
    assert!(t.contains("sto BOTTOM = 2"), "{t}");
    assert!(t.contains("sto LEFT = 1"), "{t}");
    assert!(t.contains("sto RIGHT = 2"), "{t}");
    assert!(t.contains("sto SQ = -1"), "{t}");
    assert!(t.contains("sto ISEATS = 10"), "{t}");
}

#[test]
fn min_of_an_empty_collection_is_a_rules_error() {
    let src = "(game (setup (create players 2) (create board G (grid 2 2)))
       (do ((set (game sto X) (min (filter (spaces G) 'S (== ('S sto M) 1)) 'S (row 'S)))))
       (scoring max 0))";
    let rules = Rules::from_source("t.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()));
    let err = rules
        .start(&GameOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("`min` over an empty collection"), "{err}");
}

#[test]
fn any_over_a_group_stops_at_the_first_space_that_decides() {
    // The group's condition divides by zero at (0,3): a search that stops
    // at (0,1), the first space with a HIT, never gets there; `all` stops
    // at the first space that fails.
    let t = table(
        "(create board G (grid 1 4))",
        "(do (
           (set ((space G 0 1) sto HIT) 1)
           (set ((space G 0 0) sto ONE) 1) (set ((space G 0 1) sto ONE) 1)
           (set ((space G 0 2) sto ONE) 1)
           ((any (group (space G 0 0) 'V (== (// 1 ('V sto ONE)) 1)) 'X
                 (== ('X sto HIT) 1))
            (set (game sto FOUND) 1))
           ((not (all (group (space G 0 0) 'V (== (// 1 ('V sto ONE)) 1)) 'X (== ('X sto HIT) 0)))
            (set (game sto NOTALL) 1))))",
    );
    assert!(t.contains("sto FOUND = 1"), "{t}");
    assert!(t.contains("sto NOTALL = 1"), "{t}");
}

/// The size, smallest and largest index of `(group START 'V COND)`, by
/// the compiled search and by the general one (the extra `(== 1 1)` keeps
/// a condition from being compiled), for each condition on a board of
/// stones and marks.
#[test]
fn compiled_group_conditions_agree_with_the_general_ones() {
    let conditions = [
        "(== (cardatt COLOR (top ('V vloc STONE))) BLACK)",
        "(!= (cardatt COLOR (top ('V vloc STONE))) (game str C))",
        "(!= (cardatt COLOR (top ('V vloc STONE))) 'K)",
        "(== (size ('V vloc STONE)) 0)",
        "(< 0 (size ('V vloc STONE)))",
        "(>= ('V sto M) 1)",
        "(> 2 ('V sto M))",
        "(or (== (size ('V vloc STONE)) 0) (== (cardatt COLOR (top ('V vloc STONE))) WHITE))",
        "(and (> (size ('V vloc STONE)) 0) (not (== ('V sto M) (game sto LIMIT))))",
        "(!= 'V (space G 1 1))",
        "(or (== 'V 'HOLE) (== ('V sto M) 0))",
        "(and (< (row 'V) 3) (!= (col 'V) 0))",
        "(or (== (index 'V) 5) (> (col 'V) 1) (>= (game sto LIMIT) (row 'V)))",
    ];
    // Stones: BLACK at (0,1) (1,1) (2,1), WHITE at (1,2) (2,2); marks M=1 on
    // row 3 and M=2 at (0,0).
    let setup = "(create deck (game vloc WHITES) (deck (COLOR (WHITE))))
                 (create deck (game vloc BLACKS) (deck (COLOR (BLACK))))
                 (create deck (game vloc WHITES) (deck (COLOR (WHITE))))
                 (create deck (game vloc BLACKS) (deck (COLOR (BLACK))))
                 (create deck (game vloc BLACKS) (deck (COLOR (BLACK))))";
    let mut body = String::from(
        "(do (
           (move (top (game vloc BLACKS)) (top ((space G 0 1) vloc STONE)))
           (move (top (game vloc BLACKS)) (top ((space G 1 1) vloc STONE)))
           (move (top (game vloc BLACKS)) (top ((space G 2 1) vloc STONE)))
           (move (top (game vloc WHITES)) (top ((space G 1 2) vloc STONE)))
           (move (top (game vloc WHITES)) (top ((space G 2 2) vloc STONE)))
           (all (filter (spaces G) 'S (== (row 'S) 3)) 'S (set ('S sto M) 1))
           (set ((space G 0 0) sto M) 2)
           (set (game str C) WHITE)
           (set (game sto LIMIT) 1)",
    );
    for (i, c) in conditions.iter().enumerate() {
        for (s, start) in ["(space G 0 0)", "(space G 1 1)", "(space G 3 3)"]
            .iter()
            .enumerate()
        {
            for (tag, cond) in [("A", c.to_string()), ("B", format!("(and {c} (== 1 1))"))] {
                let group = format!(
                    "(let (space G 2 0) 'HOLE (let WHITE 'K (let (group {start} 'V {cond}) 'R"
                );
                body.push_str(&format!(
                    "\n {group} (do ((set (game sto {tag}N{i}x{s}) (+ 1 (size 'R)))
                       ((> (size 'R) 0)
                        (do ((set (game sto {tag}LO{i}x{s}) (+ 1 (min 'R 'X (index 'X))))
                             (set (game sto {tag}HI{i}x{s}) (+ 1 (max 'R 'X (index 'X))))))))))))",
                ));
            }
        }
    }
    body.push_str("))");
    let t = table(&format!("(create board G (grid 4 4)) {setup}"), &body);
    let value = |key: &str| {
        t.lines()
            .find(|l| l.trim_start().starts_with(&format!("sto {key} =")))
            .map(|l| l.to_string())
    };
    let mut compared = 0;
    for (i, condition) in conditions.iter().enumerate() {
        for s in 0..3 {
            for what in ["N", "LO", "HI"] {
                let (a, b) = (
                    value(&format!("A{what}{i}x{s}")),
                    value(&format!("B{what}{i}x{s}")),
                );
                assert_eq!(
                    a.map(|l| l.replacen('A', "", 1)),
                    b.map(|l| l.replacen('B', "", 1)),
                    "condition {i}: {condition}"
                );
                compared += 1;
            }
        }
    }
    assert_eq!(compared, conditions.len() * 9);
    // The conditions are not all trivially empty or full.
    assert!(t.contains("sto AN0x"), "{t}");
}

#[test]
fn membership_of_a_space_in_a_collection() {
    // 'L holds (0,0) (0,1); 'E is empty; off the board is no space.
    let t = table(
        "(create board G (grid 2 2))",
        "(do (
           (let (filter (spaces G) 'S (== (row 'S) 0)) 'L
            (let (filter (spaces G) 'S (== (row 'S) 5)) 'E
             (do (
               ((any 'L 'X (== 'X (space G 0 1))) (set (game sto IN) 1))
               ((any 'L 'X (== (space G 1 1) 'X)) (set (game sto OUT) 1))
               ((any 'L 'X (== 'X (neighbour (space G 0 0) N))) (set (game sto OFF) 1))
               ((all 'E 'X (== 'X (neighbour (space G 0 0) N))) (set (game sto VACUOUS) 1))
               ((all 'L 'X (== 'X (space G 0 0))) (set (game sto ALLSAME) 1))
               ((all (filter 'L 'S (== (col 'S) 1)) 'X (== 'X (space G 0 1))) (set (game sto ONE) 1))))))))",
    );
    assert!(t.contains("sto IN = 1"), "{t}");
    assert!(!t.contains("sto OUT"), "{t}");
    assert!(!t.contains("sto OFF"), "{t}");
    assert!(t.contains("sto VACUOUS = 1"), "{t}");
    assert!(!t.contains("sto ALLSAME"), "{t}");
    assert!(t.contains("sto ONE = 1"), "{t}");
}

#[test]
fn board_sizes_come_from_declared_constants() {
    let src = "(game (declare 4 'N)\n (setup (create players 2) (create board T (track 'N)))\n (do (((onboard (before (space T 0) 'V (== 1 1))) (set (game sto LAST) 1))\n      (set (game sto SPACES) (size (spaces T)))))\n (scoring max 0))";
    let rules = Rules::from_source("t.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()));
    let s = rules
        .start(&GameOptions {
            seed: 0,
            overrides: vec![("N".into(), "6".into())],
        })
        .unwrap();
    assert!(s.describe().contains("sto SPACES = 6"), "{}", s.describe());
    assert!(!s.describe().contains("LAST"), "{}", s.describe());
    // Games of other sizes from the same rules get their own boards (built
    // boards are shared by size only).
    for n in [3, 6, 9, 3] {
        let s = rules
            .start(&GameOptions {
                seed: 0,
                overrides: vec![("N".into(), n.to_string())],
            })
            .unwrap();
        let want = format!("sto SPACES = {n}");
        assert!(s.describe().contains(&want), "{}", s.describe());
    }
}

#[test]
fn after_on_a_wrapped_axis_goes_round_once_without_the_start() {
    // Only column 1 qualifies; from (0,1) going east the walk wraps round
    // and must stop before coming back to its start.
    let t = table(
        "(create board G (grid 2 4 (wrap columns)))",
        "(do (
           ((onboard (after (space G 0 1) E 'V (== (col 'V) 1))) (set (game sto FOUND) 1))
           (set (game sto WEST) (col (after (space G 0 1) E 'V (== (col 'V) 0))))
           ((onboard (after (space G 0 1) E 'V (== (col 'V) 0))) (set (game sto WRAPS) 1))))",
    );
    assert!(!t.contains("FOUND"), "{t}");
    // Column 0 is reached by wrapping: stored as 0, which the table does
    // not print, so check it is reachable through `onboard` instead.
    assert!(!t.contains("sto WEST"), "{t}");
    assert!(t.contains("sto WRAPS = 1"), "{t}");
}

/// One step of the robot of `rotate_turns_a_facing_by_card_values`: turn
/// FACING by QUARTERS, then move one space forward.
fn robot_step(quarters: &str) -> String {
    format!(
        "(set (game str FACING) (rotate (game str FACING) {quarters}))
         (let (top (union (all (spaces G) 'S ('S vloc ROBOT)))) 'R
              (move 'R (top ((neighbour (where 'R) (game str FACING)) vloc ROBOT))))"
    )
}

#[test]
fn rotate_turns_a_facing_by_card_values() {
    // A robot at (1,1) facing N on a 3x3 grid whose columns wrap. Each step
    // turns it by a card's value (RIGHT 1, ABOUT 2, LEFT 3 quarter turns)
    // and moves it one space: E to (1,2), S to (2,2), E across the edge to
    // (2,0), W back across it to (2,2), then -3 quarter turns (one to the
    // right): N to (1,2).
    let card = |turn: &str| {
        format!(
            "(score (top (filter (game vloc TURNS) 'C (== (cardatt TURN 'C) {turn}))) using (game points VALUE))"
        )
    };
    let steps = [
        card("RIGHT"),
        card("RIGHT"),
        card("LEFT"),
        card("ABOUT"),
        format!("(- 0 {})", card("LEFT")),
    ]
    .map(|q| robot_step(&q))
    .join("\n");
    let t = table(
        "(create board G (grid 3 3 (wrap columns)))
         (create deck (game vloc TURNS) (deck (TURN (RIGHT, LEFT, ABOUT))))",
        &format!(
            "(do (
               (set (game points VALUE) (((TURN : RIGHT) 1) ((TURN : ABOUT) 2) ((TURN : LEFT) 3)))
               (set (game str FACING) N)
               (move (top (game vloc STONES)) (top ((space G 1 1) vloc ROBOT)))
               {steps}
               (set (game str DIAGONAL) (rotate NE (- 0 1)))
               (set (game str BACK) (rotate NEXT 2))
               (set (game str AGAIN) (rotate PREV (* 4 (game sto NOTHING))))))"
        ),
    );
    assert!(t.contains("G[1,2]:\n  vloc ROBOT (1)"), "{t}");
    assert_eq!(t.matches("vloc ROBOT (1)").count(), 1, "{t}");
    assert!(t.contains("str FACING = N"), "{t}");
    assert!(t.contains("str DIAGONAL = NW"), "{t}");
    assert!(t.contains("str BACK = PREV"), "{t}");
    assert!(t.contains("str AGAIN = PREV"), "{t}");
}

#[test]
fn rotate_refuses_quarter_turns_on_a_track_and_unknown_directions() {
    let start = |value: &str, quarters: &str| {
        let src = format!(
            "(game\n (setup (create players 2) (create board T (track 4)))\n (do ((set (game str D) {value})\n      (set (game str D) (rotate (game str D) {quarters}))))\n (scoring max 0))"
        );
        let rules = Rules::from_source("t.rcy", &src).unwrap_or_else(|e| panic!("{}", e.render()));
        rules.start(&GameOptions::default()).map(|s| s.describe())
    };
    assert!(start("NEXT", "(+ 1 1)").unwrap().contains("str D = PREV"));
    let Err(PlayError::Rules(m)) = start("NEXT", "(+ 1 0)") else {
        panic!("a quarter turn of NEXT should be refused")
    };
    assert!(
        m.contains("`rotate` cannot turn `NEXT` by 1 quarter turn: a track's directions turn only by half turns"),
        "{m}"
    );
    let Err(PlayError::Rules(m)) = start("north", "1") else {
        panic!("`north` should be refused")
    };
    assert!(m.contains("`north` is not a direction"), "{m}");
}

#[test]
fn line_counts_the_spaces_in_a_row_up_to_the_edge_or_once_around() {
    // Marks on row 0 of a 3 x 4 grid: (0,1) (0,2) (0,3); on a wrapped
    // ring of 5 every space is marked; on a track 1, 2, 3.
    let t = table(
        "(create board G (grid 3 4)) (create board R (grid 1 5 (wrap columns)))
         (create board T (track 6))",
        "(do (
           (set ((space G 0 1) sto M) 1) (set ((space G 0 2) sto M) 1)
           (set ((space G 0 3) sto M) 1)
           (all (spaces R) 'S (set ('S sto M) 1))
           (set ((space T 1) sto M) 1) (set ((space T 2) sto M) 1)
           (set ((space T 3) sto M) 1)
           (set (game sto EDGE) (size (line (space G 0 0) E 'V (== ('V sto M) 1))))
           (set (game sto BACK) (size (line (space G 0 3) W 'V (== ('V sto M) 1))))
           (set (game sto OFF) (size (line (space G 0 3) E 'V (== 1 1))))
           (set (game sto NONE) (size (line (space G 1 0) E 'V (== ('V sto M) 1))))
           (set (game sto DOWN) (size (line (space G 0 0) S 'V (== 1 1))))
           (set (game sto DIAG) (size (line (space G 2 0) NE 'V (== 1 1))))
           (set (game sto RING) (size (line (space R 0 2) E 'V (== ('V sto M) 1))))
           (set (game sto TRACK) (size (line (space T 0) NEXT 'V (== ('V sto M) 1))))
           (set (game sto PREV) (size (line (space T 4) PREV 'V (== ('V sto M) 1))))
           (set (game sto NOSPACE) (+ 7 (size (line (neighbour (space G 0 0) N) E 'V (== 1 1)))))
           (all (line (space G 0 0) E 'V (== ('V sto M) 1)) 'S (inc (game sto SUM) (col 'S)))))",
    );
    for (name, v) in [
        // (0,1) (0,2) (0,3), then the edge.
        ("EDGE", 3),
        // From the last column west: (0,2) (0,1), then (0,0) unmarked.
        ("BACK", 2),
        ("OFF", 0),
        ("NONE", 0),
        ("DOWN", 2),
        ("DIAG", 2),
        // Once around the ring: four spaces, never the start again.
        ("RING", 4),
        ("TRACK", 3),
        ("PREV", 3),
        ("NOSPACE", 7),
        // The spaces in order: columns 1 + 2 + 3.
        ("SUM", 6),
    ] {
        assert_eq!(game_int(&t, name).unwrap_or(0), v, "{name}: {t}");
    }
}

#[test]
fn group_spreads_in_the_directions_given() {
    // A diagonal (0,0) (1,1) (2,2) and (2,1) marked on a 3 x 3 grid; a
    // track of 5 marked everywhere.
    let t = table(
        "(create board G (grid 3 3)) (create board T (track 5))",
        "(do (
           (set ((space G 0 0) sto M) 1) (set ((space G 1 1) sto M) 1)
           (set ((space G 2 2) sto M) 1) (set ((space G 2 1) sto M) 1)
           (all (spaces T) 'S (set ('S sto M) 1))
           (set (game sto FOUR) (size (group (space G 0 0) 'V (== ('V sto M) 1))))
           (set (game sto EIGHT) (size (group (space G 0 0) (N, E, S, W, NE, NW, SE, SW) 'V (== ('V sto M) 1))))
           (set (game sto DIAG) (size (group (space G 0 0) (SE, NW) 'V (== ('V sto M) 1))))
           (set (game sto ROW) (size (group (space G 2 1) (E, W) 'V (== ('V sto M) 1))))
           (set (game sto ONE) (size (group (space G 2 1) N 'V (== ('V sto M) 1))))
           (set (game sto AHEAD) (size (group (space T 2) (NEXT) 'V (== ('V sto M) 1))))
           (let (N, E, S, W, NE, NW, SE, SW) 'ALL
                (set (game sto VAR) (size (group (space G 2 1) 'ALL 'V (== ('V sto M) 1)))))
           ((any (group (space G 0 0) (SE) 'V (== ('V sto M) 1)) 'X (== (index 'X) 8))
            (set (game sto REACHES) 1))))",
    );
    for (name, v) in [
        ("FOUR", 1),
        ("EIGHT", 4),
        ("DIAG", 3),
        ("ROW", 2),
        // N of (2,1) is (1,1), marked; N of that (0,1) is not.
        ("ONE", 2),
        // From 2 along NEXT only: 2, 3, 4.
        ("AHEAD", 3),
        ("VAR", 4),
        ("REACHES", 1),
    ] {
        assert_eq!(game_int(&t, name).unwrap_or(0), v, "{name}: {t}");
    }
}

/// The reference's Othello example (section 11.7), as written there: a
/// black stone placed at the west end of a row of two white stones closed
/// by a black one turns both; a white stone not closed off (its line runs
/// to the edge) and one closed by an empty space stay.
#[test]
fn line_and_after_turn_the_stones_an_othello_move_flanks() {
    let src = "(game
      (setup (create players 2) (create board GRID (grid 3 6))
             (repeat 6 (create deck (game vloc BLACKS) (deck (COLOR (BLACK)))))
             (repeat 6 (create deck (game vloc WHITES) (deck (COLOR (WHITE))))))
      (do ((move (top (game vloc WHITES)) (top ((space GRID 1 1) vloc STONE)))
           (move (top (game vloc WHITES)) (top ((space GRID 1 2) vloc STONE)))
           (move (top (game vloc BLACKS)) (top ((space GRID 1 3) vloc STONE)))
           (move (top (game vloc WHITES)) (top ((space GRID 0 0) vloc STONE)))
           (move (top (game vloc WHITES)) (top ((space GRID 2 1) vloc STONE)))
           (move (top (game vloc BLACKS)) (top ((space GRID 1 0) vloc STONE)))
           (let (space GRID 1 0) 'HERE
            (let BLACK 'MINE
             (let WHITE 'THEIRS
              (all (N, E, S, W, NE, NW, SE, SW) 'D
               (let (line 'HERE 'D 'V (== (cardatt COLOR (top ('V vloc STONE))) 'THEIRS)) 'RUN
                (let (after 'HERE 'D 'V (!= (cardatt COLOR (top ('V vloc STONE))) 'THEIRS)) 'END
                 ((and (> (size 'RUN) 0) (onboard 'END)
                       (== (cardatt COLOR (top ('END vloc STONE))) 'MINE))
                  (all 'RUN 'S
                   (do ((move (top ('S vloc STONE)) (top (game vloc BOX)))
                        (move (top (game vloc BLACKS)) (top ('S vloc STONE)))))))))))))))
      (scoring max 0))";
    let rules = Rules::from_source("t.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()));
    let state = rules
        .start(&GameOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let t = state.describe();
    for (space, colour) in [
        ("GRID[1,1]", "BLACK"),
        ("GRID[1,2]", "BLACK"),
        ("GRID[1,3]", "BLACK"),
        ("GRID[0,0]", "WHITE"),
        ("GRID[2,1]", "WHITE"),
    ] {
        let at = t
            .find(&format!("{space}:"))
            .unwrap_or_else(|| panic!("{space}: {t}"));
        let stone = t[at..].lines().nth(1).unwrap_or("");
        assert_eq!(
            stone.trim(),
            format!("vloc STONE (1): {colour}"),
            "{space}: {t}"
        );
    }
    assert!(t.contains("vloc BOX (2): WHITE WHITE"), "{t}");
}
