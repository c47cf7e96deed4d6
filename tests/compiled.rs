//! The rules compiled to closures (`engine/compile`) play exactly as the
//! tree evaluator: for every shipped game, every example of `examples/`
//! and every corpus program, games
//! of several seeds give the same transcript (moves, table, storages,
//! scores, errors) with the compiled rules and with `Rules::uncompiled`;
//! and small programs reach each fallback of the compiler (a variable of
//! another type, a missing space, a rules error inside a search) with the
//! same outcome and the same message.

mod common;

use cardboard::drivers::run::transcript;
use cardboard::engine::{GameOptions, Rules};
use common::options;

/// Compares the two transcripts of one game; returns the compiled one.
fn same_game(name: &str, rules: &Rules, options: &GameOptions, limit: u64) -> String {
    let compiled = transcript(rules, options, limit);
    let walked = transcript(&rules.uncompiled(), options, limit);
    if compiled != walked {
        let at = compiled
            .lines()
            .zip(walked.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!(
            "{name}, seed {}: the compiled rules play differently from line {}:\n  compiled: {:?}\n  evaluator: {:?}",
            options.seed,
            at + 1,
            compiled.lines().nth(at),
            walked.lines().nth(at)
        );
    }
    compiled
}

#[test]
fn shipped_games_play_the_same_compiled() {
    let variants = |name: &str| -> Vec<Vec<(&'static str, &'static str)>> {
        match name {
            "agram" => vec![vec![], vec![("NUMP", "6")]],
            "carteso" => vec![vec![], vec![("SIZE", "4")]],
            "cartagena" => vec![
                vec![("VARIANT", "1"), ("NUMP", "4")],
                vec![("VARIANT", "2"), ("NUMP", "3")],
                vec![("VARIANT", "3"), ("NUMP", "5")],
            ],
            "cardbot-derby" => vec![vec![("NUMP", "3"), ("BELT2", "1"), ("TELEPORT", "1")]],
            "othello" => vec![vec![], vec![("SIZE", "6")]],
            "draughts" => vec![vec![], vec![("QUIET", "4")]],
            "hex" => vec![vec![("SIZE", "7")]],
            _ => vec![vec![]],
        }
    };
    let files = common::game_files();
    assert!(files.len() >= 4, "the shipped games are missing");
    for path in files.into_iter().chain(common::example_files()) {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let rules = Rules::load(&path).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let limit = if name == "cardbot-derby" { 150 } else { 10_000 };
        for set in variants(&name) {
            for seed in 1..=3 {
                same_game(&name, &rules, &options(seed, &set), limit);
            }
        }
    }
}

#[test]
fn corpus_programs_play_the_same_compiled() {
    let mut played = 0;
    for path in common::corpus_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(rules) = Rules::load(&path) else {
            continue;
        };
        for seed in 1..=2 {
            same_game(&name, &rules, &options(seed, &[]), 400);
        }
        played += 1;
    }
    println!("{played} corpus programs played both ways");
}

fn rules(src: &str) -> Rules {
    Rules::from_source("test.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// A one-player game on a 3 x 3 grid whose automatic items run `items`
/// once, then end.
fn grid_game(items: &str) -> Rules {
    rules(&format!(
        "(game
          (setup (create players 1) (create board G (grid 3 3))
                 (create deck (game vloc STONES) (deck (COLOR (BLACK, WHITE)))))
          (do ((move (top (game vloc STONES)) (top ((space G 1 1) vloc STONE)))))
          {items}
          (choice ((turn pass)))
          (scoring max (game sto X)))"
    ))
}

#[test]
fn fallbacks_give_the_evaluators_values_and_errors() {
    let cases = [
        // Integers and strings read from variables of the expected type,
        // storages of a space, sizes and the top card's attribute.
        "(let (space G 1 1) 'S (do ((set (game sto X) (+ (size ('S vloc STONE)) (row (space G 0 2))))
                                   (let (space G 0 2) 'T (inc (game sto X) (* 10 (- (col 'T) (row 'T)))))
                                   (set ('S sto MARK) 4)
                                   ((== ('S sto MARK) 4) (inc (game sto X) (col 'S)))
                                   ((== (cardatt COLOR (top ('S vloc STONE))) WHITE) (inc (game sto X) 10))
                                   ((== (cardatt COLOR (last moved)) WHITE) (inc (game sto X) 100)))))",
        // Division by zero: the same error.
        "(set (game sto X) (// 7 (game sto Y)))",
        "(set (game sto X) (% 7 (game sto Y)))",
        // The row of no space: the same error.
        "(let (neighbour (space G 0 0) N) 'S (set (game sto X) (row 'S)))",
        // A space variable holding no space: a storage of it is an error.
        "(let (neighbour (space G 0 0) W) 'S (set (game sto X) ('S sto MARK)))",
        // `any` and `all` over a group, searched only as far as needed,
        // and over the spaces held in a variable.
        "(do ((set (game sto X) 0)
              ((any (group (space G 0 0) 'V (== (size ('V vloc STONE)) 0)) 'Y (== (row 'Y) 2))
               (inc (game sto X) 1))
              ((all (group (space G 0 0) 'V (== (size ('V vloc STONE)) 0)) 'Y (!= (col 'Y) 1))
               (inc (game sto X) 2))
              (let (group (space G 0 0) 'V (== (size ('V vloc STONE)) 0)) 'R
                   (do (((any 'R 'Y (== 'Y (space G 2 2))) (inc (game sto X) 4))
                        ((all 'R 'Y (> (index 'Y) -1)) (inc (game sto X) 8))
                        ((any 'R 'Y (== (index 'Y) 4)) (inc (game sto X) 16)))))))",
        // A guard over spaces reading what the action changes: read anew
        // after each action (X stops at 1, not at the group's size).
        "(let (group (space G 0 0) 'V (== (size ('V vloc STONE)) 0)) 'R
              (all 'R 'Y ((>= ('Y sto MARK) (game sto X)) (inc (game sto X) 1))))",
        // A rules error inside a search: the same error.
        "((any (group (space G 0 0) 'V (> (// 6 (- 1 (row 'V))) -9)) 'Y (== 1 0))
          (set (game sto X) 1))",
        // Directions: literal, turned, held in a variable, and a string
        // that is none.
        "(all (N, E, S, W) 'D
              (let (neighbour (space G 1 1) (rotate 'D 1)) 'T
                   ((onboard 'T) (inc (game sto X) (index 'T)))))",
        "(let WEST 'D (set (game sto X) (index (neighbour (space G 1 1) 'D))))",
        // Groups found with bit sets from the index of what lies on the
        // spaces (a top card's attribute, empty or not, the space itself),
        // and one that is not (a size compared with 2): the same spaces,
        // in board order (X lists their indices, digit by digit).
        "(do ((let (group (space G 0 0) 'V (!= (cardatt COLOR (top ('V vloc STONE))) BLACK)) 'R
                   (all 'R 'Y (set (game sto X) (+ (* (game sto X) 10) (index 'Y)))))
              (let (group (space G 1 1) 'V (or (> (size ('V vloc STONE)) 0) (!= 'V (space G 0 1)))) 'R
                   (all 'R 'Y (set (game sto Y) (+ (* (game sto Y) 10) (index 'Y)))))
              (let (group (space G 2 2) 'V (< (size ('V vloc STONE)) 2)) 'R
                   (all 'R 'Y (set (game sto Z) (+ (* (game sto Z) 10) (index 'Y)))))))",
        // `any` and `all` over a group answered with bit sets: rows,
        // columns and indices compared every way, the space itself.
        "(do (((any (group (space G 0 0) 'V (< (size ('V vloc STONE)) 1)) 'Y
                    (and (>= (row 'Y) 1) (<= (col 'Y) 0)))
               (inc (game sto X) 1))
              ((all (group (space G 2 2) 'V (or (== (size ('V vloc STONE)) 0)
                                                (== (cardatt COLOR (top ('V vloc STONE))) WHITE)))
                    'Y (or (> (row 'Y) 0) (!= (col 'Y) 1) (== 'Y (space G 0 0))))
               (inc (game sto X) 2))
              ((any (group (space G 0 0) 'V (not (>= (size ('V vloc STONE)) 1))) 'Y
                    (and (> (index 'Y) 6) (< (index 'Y) 8)))
               (inc (game sto X) 4))
              ((all (group (space G 0 0) 'V (== (size ('V vloc STONE)) 0)) 'Y
                    (and (!= (row 'Y) 1) (== (col 'Y) 2)))
               (inc (game sto X) 8))
              ((any (group (space G 0 0) 'V (== (size ('V vloc STONE)) 0)) 'Y (== (index 'Y) 4))
               (inc (game sto X) 16))))",
        // Membership of a space held in a variable (a space, or none).
        "(let (group (space G 0 0) 'V (== (size ('V vloc STONE)) 0)) 'R
              (let (space G 2 2) 'T
                   (let (neighbour (space G 0 0) N) 'NONE
                        (do (((any 'R 'Y (== 'Y 'T)) (inc (game sto X) 1))
                             ((all 'R 'Y (== 'T 'Y)) (inc (game sto X) 2))
                             ((any 'R 'Y (== 'NONE 'Y)) (inc (game sto X) 4))
                             ((all 'R 'Y (== 'Y 'NONE)) (inc (game sto X) 8))
                             (let (filter 'R 'Y (== 'Y 'T)) 'ONE
                                  ((all 'ONE 'Y (== 'Y 'T)) (inc (game sto X) 16))))))))",
        // Moves between the tops and bottoms of locations: of a space in a
        // variable, from an empty location (nothing), and to the location
        // of no space (the same error).
        "(do ((move (top ((space G 1 1) vloc STONE)) (bottom (game vloc STONES)))
              (move (top (game vloc NOTHING)) (top (game vloc STONES)))
              (let (space G 0 2) 'S (move (top (game vloc STONES)) (top ('S vloc STONE))))
              (set (game sto X) (+ (size (game vloc STONES)) (* 10 (size ((space G 0 2) vloc STONE)))))))",
        "(let (neighbour (space G 0 0) N) 'S (move (top (game vloc STONES)) (top ('S vloc STONE))))",
        // `around`: a condition of a compiled shape, one that is not, no
        // space; the bit operators, and a shift out of range (the same
        // error).
        "(do ((set (game sto X) (around (space G 0 0) 'V (== (size ('V vloc STONE)) 0)))
              (set (game sto Y) (around (space G 1 0) 'V (> (size ('V vloc STONE)) 0)))
              (set (game sto Z) (around (space G 1 1) 'V (!= (index 'V) (* 2 (row 'V)))))
              (set (game sto W) (around (neighbour (space G 0 0) N) 'V (== 1 1)))
              (set (game sto B) (+ (bitand (game sto Z) 85) (* 1000 (bitxor (shl (game sto Y) 3) (shr (game sto X) 1)))))))",
        "(set (game sto X) (shr 1 (- 0 1)))",
        // Operators with a literal right operand, a literal shift out of
        // range (the same error), directions held in a variable.
        "(set (game sto X) (+ (- (game sto Y) 3) (* (bitor (bitand 13 (game sto Y)) 6) (shr (shl 5 3) 1))))",
        "(set (game sto X) (shl 1 64))",
        "(all (N, E, S, W) 'D
              (let (neighbour (space G 0 1) 'D) 'T
                   ((onboard 'T) (set (game sto X) (+ (* (game sto X) 10) (index 'T))))))",
        // An operator with a literal operand over a leaf that reads no
        // space (the evaluator's error), a literal on the left, a shift by
        // a literal; `set`, `inc` and `dec` of a storage of the game by a
        // leaf, and by a leaf that reads no space (the same error).
        "(let (neighbour (space G 0 0) N) 'S (set (game sto X) (+ ('S sto MARK) 1)))",
        "(let (neighbour (space G 0 0) N) 'S (set (game sto X) (* 2 ('S sto MARK))))",
        "(let (space G 2 1) 'S (do ((set ('S sto MARK) 5)
                                   (set (game sto X) (shr (shl ('S sto MARK) 4) 2))
                                   (inc (game sto Y) (bitxor 3 ('S sto MARK)))
                                   (dec (game sto Y) ('S sto MARK))
                                   (inc (game sto X) (- (game sto Y) 2)))))",
        "(let (neighbour (space G 0 0) W) 'S (inc (game sto X) ('S sto MARK)))",
        // The neighbour of a space variable in a direction held in a
        // variable: on the board, off it, from no space, and a string that
        // is no direction (the same error).
        "(let (space G 0 1) 'S
              (all (N, E, S, W) 'D
                   (let (neighbour 'S 'D) 'T
                        ((onboard 'T) (set (game sto X) (+ (* (game sto X) 10) (index 'T)))))))",
        "(let (neighbour (space G 0 0) N) 'S
              (all (N, E) 'D (let (neighbour 'S 'D) 'T ((not (onboard 'T)) (inc (game sto X) 1)))))",
        "(let (space G 1 1) 'S (let WEST 'D (set (game sto X) (index (neighbour 'S 'D)))))",
        // `any` run for every item outside a choice; `let` of cards.
        "(any (range 1 .. 4) 'K (inc (game sto X) 'K))",
        "(all (range (game sto Y) .. 3) 'K (set (game sto X) (+ (* (game sto X) 10) 'K)))",
        "(all (range 0 .. 2000000) 'K (inc (game sto X) 1))",
        "(let (top ((space G 1 1) vloc STONE)) 'C (set (game str COLOUR) (cardatt COLOR 'C)))",
    ];
    for (i, items) in cases.iter().enumerate() {
        let rules = grid_game(items);
        let text = same_game(&format!("case {i}"), &rules, &options(1, &[]), 10);
        assert!(!text.is_empty());
    }
}

/// The rows, columns, least and greatest row, column and index, and the
/// members of a group bound by a compiled `let` (read from the group's bit
/// set, see `Regions`), against the evaluator and against values worked
/// out by hand on the 3 x 3 grid (a stone on the centre, index 4).
#[test]
fn a_group_bound_by_let_answers_its_lines_and_members() {
    // The eight numbers as the digits of one: (+ (* 10 A) B) ...
    let digits = |r: &str| {
        let parts = [
            format!("(rows {r})"),
            format!("(cols {r})"),
            format!("(min {r} 'Y (row 'Y))"),
            format!("(max {r} 'Y (row 'Y))"),
            format!("(min {r} 'Y (col 'Y))"),
            format!("(max {r} 'Y (col 'Y))"),
            format!("(min {r} 'Y (index 'Y))"),
            format!("(max {r} 'Y (index 'Y))"),
        ];
        parts[1..]
            .iter()
            .fold(parts[0].clone(), |acc, p| format!("(+ (* 10 {acc}) {p})"))
    };
    let items = format!(
        "(do ((let (group (space G 0 1) 'V (< (row 'V) 1)) 'R
                   (do ((set (game sto X) {})
                        ((any 'R 'Y (== 'Y (space G 0 2))) (inc (game sto Y) 1))
                        ((any 'R 'Y (== 'Y (space G 1 0))) (inc (game sto Y) 2)))))
              (let (group (space G 0 0) 'V (and (!= (col 'V) 2) (== (size ('V vloc STONE)) 0))) 'R
                   (do ((set (game sto Z) {})
                        ((any 'R 'Y (== 'Y (space G 1 0))) (inc (game sto Y) 4))
                        ((any 'R 'Y (== 'Y (space G 2 2))) (inc (game sto Y) 8)))))))",
        digits("'R"),
        digits("'R")
    );
    // An `all` over the group whose guard starts with its row and column
    // (only the spaces that pass them are tested): indices 5, 7 and 8 of
    // the empty points; a guard reading what its action changes (read
    // anew after each action: W stops at 1); the seats, all and others.
    let items = format!(
        "(do ({items}
              (let (group (space G 0 0) 'V (== (size ('V vloc STONE)) 0)) 'R
                   (do ((all 'R 'Y ((and (>= (row 'Y) 1) (!= (col 'Y) 0))
                                    (set (game sto A) (+ (* (game sto A) 10) (index 'Y)))))
                        (all 'R 'Y ((and (>= (row 'Y) 1) (>= ('Y sto MARK) (game sto W)))
                                    (inc (game sto W) 1))))))
              (all player 'P (inc (game sto B) 1))
              (all (other player) 'P (inc (game sto B) 10))))"
    );
    let text = same_game("group lines", &grid_game(&items), &options(1, &[]), 10);
    assert!(text.contains("sto A = 578"), "{text}");
    assert!(text.contains("sto W = 1"), "{text}");
    // One player: no other.
    assert!(text.contains("sto B = 1\n"), "{text}");
    // {0, 1, 2}: 1 row, 3 columns, rows 0..0, columns 0..2, indices 0..2.
    assert!(text.contains("sto X = 13000202"), "{text}");
    // {0, 1, 3, 6, 7}: 3 rows, 2 columns, rows 0..2, columns 0..1,
    // indices 0..7.
    assert!(text.contains("sto Z = 32020107"), "{text}");
    // (0, 2) in the first, (1, 0) in the second only.
    assert!(text.contains("sto Y = 5"), "{text}");
}

/// Searches on boards whose neighbours are not shifts of the set (wrapped
/// edges, a track), small enough for the sets of 128 bits: groups, `any`
/// over a group searched as far as needed, `around`, and the members and
/// lines of a group bound by `let`, against the evaluator.
#[test]
fn searches_on_wrapped_boards_and_tracks_play_the_same_compiled() {
    let boards = [
        ("(create board B (grid 3 4 (wrap columns)))", "0 "),
        ("(create board B (grid 4 3 (wrap columns rows)))", "0 "),
        ("(create board B (track 9))", ""),
        ("(create board B (hex 3 4))", "0 "),
        ("(create board B (hex 4 3 (wrap rows)))", "0 "),
    ];
    for (board, row) in boards {
        let src = format!(
            "(game
              (setup (create players 1) {board}
                     (create deck (game vloc STONES) (deck (COLOR (BLACK, WHITE, BLACK, BLACK)))))
              (do ((move (top (game vloc STONES)) (top ((space B {row}0) vloc STONE)))
                   (move (top (game vloc STONES)) (top ((space B {row}2) vloc STONE)))))
              (stage player (end (>= (game sto T) 6))
               (choice
                ((turn pass)
                 (any (spaces B) 'SP
                      ((== (size ('SP vloc STONE)) 0)
                       (move (top (game vloc STONES)) (top ('SP vloc STONE)))))))
               (inc (game sto T) 1)
               (let (space B {row}1) 'H
                (do (((== (size ('H vloc STONE)) 0)
                      (let (group 'H 'V (== (size ('V vloc STONE)) 0)) 'G
                          (do ((set (game sto N) (size 'G))
                               (set (game sto R) (+ (* 100 (rows 'G)) (cols 'G)))
                               (set (game sto M) (+ (min 'G 'Y (index 'Y)) (* 100 (max 'G 'Y (index 'Y)))))
                               (all 'G 'Y ((== (row 'Y) 0) (inc (game sto L) (index 'Y))))))))
                     (let (group (space B {row}0) 'V (> (size ('V vloc STONE)) 0)) 'G
                          (inc (game sto S) (+ (size 'G) (* 10 (rows 'G)))))
                     ((any (group 'H 'V (or (== (size ('V vloc STONE)) 0)
                                            (== (cardatt COLOR (top ('V vloc STONE))) BLACK)))
                           'X (== (index 'X) 5))
                      (inc (game sto A) 1))
                     ((all (group (space B {row}0) 'V (!= (cardatt COLOR (top ('V vloc STONE))) WHITE)) 'X
                           (< (index 'X) 7))
                      (inc (game sto A) 10))
                     (inc (game sto F) (around 'H 'V (== (size ('V vloc STONE)) 0)))
                     (inc (game sto F) (* 1000 (around (space B {row}0) 'V
                                                  (!= (cardatt COLOR (top ('V vloc STONE))) BLACK))))))))
              (scoring max (game sto F)))"
        );
        let rules = rules(&src);
        for seed in 0..6 {
            let text = same_game(board, &rules, &options(seed, &[]), 50);
            assert!(
                text.contains("sto F") && !text.contains("error"),
                "{board}: {text}"
            );
        }
    }
}

/// `group` over directions given (written out, so its searches with bit
/// sets are worked out when the board is built, and computed) and `line`,
/// on grids and hex boards of at most 128 spaces and more, wrapped or not,
/// against the evaluator.
#[test]
fn groups_over_given_directions_and_lines_play_the_same_compiled() {
    let boards = [
        (
            "(grid 5 6)",
            "(N, E, S, W, NE, NW, SE, SW)",
            "(NE, SW)",
            "SE",
        ),
        (
            "(grid 12 11)",
            "(N, E, S, W, NE, NW, SE, SW)",
            "(NE, SW)",
            "SE",
        ),
        (
            "(grid 4 5 (wrap columns))",
            "(NE, NW, SE, SW)",
            "(E, W)",
            "E",
        ),
        ("(hex 5 6)", "(E, W, NE, SW)", "(NW, SE)", "NE"),
        ("(hex 12 12)", "(E, W)", "(E, W, NW, SE, NE, SW)", "SW"),
        (
            "(hex 4 5 (wrap columns rows))",
            "(NE, SW)",
            "(E, W, NW, SE, NE, SW)",
            "W",
        ),
    ];
    for (shape, written, computed, dir) in boards {
        let same = "(== (cardatt COLOR (top ('V vloc STONE))) 'C)";
        let src = format!(
            "(game
              (declare {computed} 'DIRS)
              (setup (create players 2) (create board B {shape})
                     (repeat 9 (create deck (game vloc STONES) (deck (COLOR (BLACK, WHITE))))))
              (shuffle (game vloc STONES))
              (stage player (end (== (size (game vloc STONES)) 0))
               (choice
                ((any (spaces B) 'SP
                      ((== (size ('SP vloc STONE)) 0)
                       (move (top (game vloc STONES)) (top ('SP vloc STONE)))))))
               (let (where (last moved)) 'H
                (let (cardatt COLOR (top ('H vloc STONE))) 'C
                 (do ((let (group 'H {written} 'V {same}) 'G
                           (inc (game sto S) (+ (size 'G) (+ (* 10 (rows 'G)) (* 100 (cols 'G))))))
                      (inc (game sto D) (size (group 'H 'DIRS 'V {same})))
                      ((any (group 'H {written} 'V {same}) 'X (== (row 'X) 0))
                       (inc (game sto A) 1))
                      ((all (group 'H 'DIRS 'V (== (size ('V vloc STONE)) 1)) 'X (!= (col 'X) 0))
                       (inc (game sto A) 10))
                      (inc (game sto L) (size (line 'H {dir} 'V {same}))))))))
              (scoring max (game sto S)))"
        );
        let rules = rules(&src);
        for seed in 0..4 {
            let text = same_game(shape, &rules, &options(seed, &[]), 80);
            assert!(
                text.contains("sto S") && text.contains("sto D") && !text.contains("error"),
                "{shape}: {text}"
            );
        }
    }
}

/// A two-player game on a 3 x 3 grid whose one stage offers `options`
/// until the stones are gone.
fn choice_game(options: &str) -> Rules {
    rules(&format!(
        "(game
          (setup (create players 2) (create board G (grid 3 3))
                 (create deck (game vloc STONES)
                         (deck (COLOR (BLACK, WHITE, RED)) (NUM (ONE, TWO)))))
          (do ((shuffle (game vloc STONES)) (set (game str LEAD) WHITE)))
          (stage player
            (end (== (size (game vloc STONES)) 0))
            (choice ({options})))
          (scoring max (size ((current player) iloc HAND))))"
    ))
}

#[test]
fn compiled_option_conditions_play_as_the_evaluator() {
    let cases = [
        // Guards over the players, the other players, a list of strings,
        // the spaces of a board and the cards of a location, and the
        // conditions of `any` bodies the sampler checks for each item; a
        // filter of cards by an attribute against a storage.
        "((all player 'P (< (size ('P iloc HAND)) 2))
          (any (game vloc STONES) 'C ((!= (cardatt COLOR 'C) RED)
                                      (move 'C (top ((current player) iloc HAND))))))
         ((any (other player) 'P (> (size ('P iloc HAND)) 0))
          (any (filter (game vloc STONES) 'C (!= (cardatt COLOR 'C) (game str LEAD))) 'F
               (move 'F (top (game vloc PILE)))))
         ((any (N, E) 'D (== 'D E))
          (any (spaces G) 'S ((all (game vloc STONES) 'C (!= (cardatt NUM 'C) THREE))
                              (move (top (game vloc STONES)) (top ('S vloc STONE))))))
         ((any (spaces G) 'S (> (size ('S vloc STONE)) 2)) (turn pass))",
        "(any (filter (game vloc STONES) 'C (== (game str LEAD) (cardatt COLOR 'C))) 'F
              (move 'F (top ((current player) iloc HAND))))
         ((== (size (filter (game vloc STONES) 'C (== (cardatt COLOR 'C) WHITE))) 0)
          (any (game vloc STONES) 'C (move 'C (top (game vloc PILE)))))",
        // A rules error in a guard (of an option listed, and of one
        // sampled), and in the condition of a body at its second item: the
        // same error, at the same decision.
        // Options with two `any`s: listed by exploration, their guards
        // compiled.
        "((all player 'P (< (size ('P iloc HAND)) 3))
          (any (game vloc STONES) 'C
               (any (spaces G) 'S ((== (size ('S vloc STONE)) 0) (move 'C (top ('S vloc STONE)))))))
         ((any (N, E) 'D (== 'D W)) (turn pass))",
        "((any player 'P (== (// 1 (game sto Y)) 0))
          (any (game vloc STONES) 'C (any (spaces G) 'S (move 'C (top ('S vloc STONE))))))",
        "((any player 'P (== (// 1 (game sto Y)) 0)) (turn pass))",
        "((all (N, E) 'D (!= 'D W))
          (any (spaces G) 'S ((== (// 6 (- 1 (row 'S))) 1) (move (top (game vloc STONES)) (top ('S vloc STONE))))))",
    ];
    for (i, choice) in cases.iter().enumerate() {
        let rules = choice_game(choice);
        for seed in 1..4 {
            let text = same_game(&format!("choice case {i}"), &rules, &options(seed, &[]), 40);
            // The first three play to the end, the others stop at once.
            let expected = if i < 3 {
                "finished"
            } else {
                "division by zero"
            };
            assert!(text.contains(expected), "choice case {i}:\n{text}");
        }
    }
}

/// A two-player game on a 3 x 3 grid whose one choice is `option`, until
/// nine moves are made (`N` counts them).
fn store_game(option: &str) -> Rules {
    rules(&format!(
        "(game
          (setup (create players 2) (create board G (grid 3 3)))
          (do ((set (game sto Y) 1) (set (game sto BIG) 9223372036854775806)))
          (stage player
            (end (== (game sto N) 9))
            (choice ((any (spaces G) 'S ((== ('S sto MARK) 0) {option})))))
          (scoring max (game sto N)))"
    ))
}

/// The sampler's check of a slot only checks a store that nothing after it
/// in the `do` reads (`compile/check.rs`, `unread`): the same moves, and
/// the same error when the store itself fails (an overflow); a store read
/// by a later item (the value of a division) is still done, so its error
/// shows; a storage of a space's neighbour off the board is the same
/// error.
#[test]
fn stores_checked_without_writing_play_as_the_evaluator() {
    let cases = [
        (
            "(do ((set ('S sto MARK) 1) (inc (game sto N) 1)))",
            "finished",
        ),
        (
            "(do ((set ('S sto MARK) 1) (set ((current player) sto LAST) (game sto Y))
                  (inc (game sto N) 1)))",
            "finished",
        ),
        (
            "(do ((inc (game sto BIG) 2) (set ('S sto MARK) 1) (inc (game sto N) 1)))",
            "overflow",
        ),
        // The storage of a space's neighbour, off the board at the top
        // row: the same error.
        (
            "(do ((set ((neighbour 'S N) sto SEEN) 1) (set ('S sto MARK) 1) (inc (game sto N) 1)))",
            "no space there",
        ),
        (
            "(do ((set (game sto Y) 0) (set ('S sto MARK) (// 1 (game sto Y)))
                  (inc (game sto N) 1)))",
            "division by zero",
        ),
    ];
    for (i, (option, expected)) in cases.iter().enumerate() {
        let rules = store_game(option);
        for seed in 1..4 {
            let text = same_game(&format!("store case {i}"), &rules, &options(seed, &[]), 40);
            assert!(text.contains(expected), "store case {i}:\n{text}");
        }
    }
}

/// The card-game shapes compiled for Agram's kind of game play as the
/// evaluator: `any`/`all` over the seats comparing a seat's location size
/// (either side, with a literal, a storage of the game, a location of the
/// game or of the current player; `(other player)`), `repeat` (its count
/// refused past a million, none for a negative one), a `move` of a card
/// variable or of `(last moved)`, `let` of a filter, `cycle` to the owner
/// of a card, and `announce`.
#[test]
fn card_game_shapes_play_as_the_evaluator() {
    let game = |deal: &str, end: &str, choice: &str| {
        rules(&format!(
            "(game
              (setup (create players 3)
                     (create deck (game vloc STOCK) (deck (SUIT (RED, BLUE)) (RANK (ONE, TWO, THREE)))))
              (do ((set (game points P) (((RANK : ONE) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))
                   (shuffle (game vloc STOCK))
                   (set (game sto K) 1)
                   (all player 'P (repeat {deal} (move (top (game vloc STOCK)) (top ('P iloc HAND)))))))
              (stage player
                (end {end})
                (choice
                  (((any (other player) 'Q (>= (game sto K) (size ('Q iloc HAND))))
                    (any ((current player) iloc HAND) 'C
                         (do ((move 'C (top (game vloc PILE)))
                              (move (last moved) (bottom ((current player) vloc WON)))))))
                   {choice}
                   ((all player 'P (< (size (game vloc PILE)) (size ('P iloc HAND))))
                    (any ((current player) iloc HAND) 'C
                         (let (filter ((current player) iloc HAND) 'H (== (cardatt SUIT 'H) (cardatt SUIT 'C)))
                              'SAME
                              (do ((move 'C (top (game vloc PILE)))
                                   (announce (current player) \"plays\" 'C)
                                   ((> (size 'SAME) 1)
                                    (cycle next (owner (max 'SAME using (game points P))))))))))
                   ((all player 'P (== 0 (size ('P iloc HAND)))) (turn pass)))))
              (scoring max (size ((current player) vloc WON))))"
        ))
    };
    let cases = [
        (
            "2",
            "(all player 'P (== (size ('P iloc HAND)) 0))",
            "((> (size ((next player) iloc HAND)) 1) (cycle current (owner (top ((next player) iloc HAND)))))",
        ),
        (
            "2",
            "(any player 'P (< (size ('P iloc HAND)) (size ((current player) vloc WON))))",
            "",
        ),
        ("-1", "(all player 'P (> 1 (size ('P iloc HAND))))", ""),
        ("2000000", "(all player 'P (== (size ('P iloc HAND)) 0))", ""),
    ];
    for (i, (deal, end, choice)) in cases.iter().enumerate() {
        let rules = game(deal, end, choice);
        for seed in 1..4 {
            let text = same_game(&format!("card case {i}"), &rules, &options(seed, &[]), 60);
            // Cases 0 and 1 play on; a negative count deals nothing, so
            // case 2 ends at once; case 3 is refused.
            let expected = match i {
                2 => "== finished after 0 decisions",
                3 => "too many repetitions",
                _ => "== decision 2:",
            };
            assert!(text.contains(expected), "card case {i}:\n{text}");
        }
    }
}

/// A one-player game on a row of six spaces: a piece at the west end
/// whose option is a `chain` of steps east, its collection a `filter`
/// whose condition divides by (game sto Y), one less after each turn;
/// `extra` is another option.
fn chain_game(extra: &str) -> Rules {
    rules(&format!(
        "(game
          (setup (create players 1) (create board G (grid 1 6))
                 (create deck (game vloc BOX) (deck (COLOR (BLACK, WHITE)))))
          (do ((move (top (game vloc BOX)) (top ((space G 0 0) vloc P)))
               (set (game sto Y) 3)))
          (stage player
            (end (>= (game sto T) 5))
            (choice
              ((any (spaces G) 'S
                    ((> (size ('S vloc P)) 0)
                     (let (top ('S vloc P)) 'M
                          (chain (filter (E, N, W) 'D
                                         (and (> (// 6 (game sto Y)) 0)
                                              (onboard (neighbour (where 'M) 'D))
                                              (!= 'D W)
                                              (== (size ((neighbour (where 'M) 'D) vloc P)) 0)))
                                 'D
                                 (do ((move 'M (top ((neighbour (where 'M) 'D) vloc P)))
                                      ((== (col (where 'M)) 5) (inc (game sto X) 1))))))))
               {extra}))
            (inc (game sto T) 1)
            (dec (game sto Y) 1))
          (scoring max (game sto X)))"
    ))
}

/// The conditions met inside a choice's options (the guard of a
/// conditional action, the condition of the `filter` a `chain` or an
/// `any` runs over) run compiled when the options are explored and when
/// a listed move is replayed (`compile/nodes.rs`): the same moves, and the
/// same error at the same decision, as the evaluator.
#[test]
fn conditions_inside_options_explore_as_the_evaluator() {
    let cases = [
        // The chain, and a step west that only the piece at the east end
        // may take: at the fourth turn the filter divides by zero.
        (
            "((> (size ((space G 0 5) vloc P)) 0)
           (move (top ((space G 0 5) vloc P)) (top ((space G 0 4) vloc P))))",
            "division by zero",
        ),
        // A guard inside an `any` whose condition fails the same way,
        // reached first.
        (
            "(any (spaces G) 'S ((== (// 1 (- (game sto Y) 2)) 1) (turn pass)))",
            "division by zero",
        ),
    ];
    for (i, (extra, expected)) in cases.iter().enumerate() {
        let rules = chain_game(extra);
        for seed in 1..4 {
            let text = same_game(&format!("chain case {i}"), &rules, &options(seed, &[]), 40);
            assert!(text.contains(expected), "chain case {i}:\n{text}");
        }
    }
}
