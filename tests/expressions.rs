//! The constructs of conditions and values added for board games
//! (`docs/language.md` section 5.6): named, parameterised definitions
//! (`define`), `let` inside a condition, and the small integer functions
//! (`abs`, `sign`, `rem`, `min`/`max` of two, `clamp`). Each is played
//! with the compiled rules and with the evaluator (`Rules::uncompiled`),
//! which must agree; a definition plays exactly as its body written out
//! by hand. Also the readings the reference states for `end`, the
//! neighbour of no space and an `any` over nothing inside an option, each
//! checked here, and the keys of `simulate --json` against the reference.

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

/// The errors of a file that does not compile, rendered.
fn errors(src: &str) -> String {
    match Rules::from_source("test.rcy", src) {
        Ok(_) => panic!("compiled:\n{src}"),
        Err(e) => e.render(),
    }
}

/// The transcript of a game, the same with compiled rules and with the
/// evaluator.
fn both_ways(r: &Rules, seed: u64, set: &[(&str, &str)]) -> String {
    let compiled = transcript(r, &options(seed, set), 500);
    let walked = transcript(&r.uncompiled(), &options(seed, set), 500);
    assert_eq!(compiled, walked, "compiled and evaluated differ");
    compiled
}

const INTEGERS: &str = r#"
(game
 (declare -7 'N)
 (declare 2 'D)
 (setup (create players 1))
 (do ((set (game sto ABS) (abs 'N))
      (set (game sto SIGN) (sign 'N))
      (set (game sto SIGNZ) (+ 5 (sign (- 'N 'N))))
      (set (game sto REM) (rem 'N 'D))
      (set (game sto MOD) (mod 'N 'D))
      (set (game sto PCT) (% 'N 'D))
      (set (game sto MAX) (max 'N 3))
      (set (game sto MIN) (min 3 'N))
      (set (game sto LOW) (clamp 'N -2 5))
      (set (game sto HIGH) (clamp (abs 'N) -2 5))
      (set (game sto REMMIN) (+ 1 (rem -9223372036854775808 'D)))))
 (choice ((turn pass)))
 (scoring max (abs (game sto MIN))))
"#;

#[test]
fn small_integer_functions_agree_compiled_and_evaluated() {
    let r = rules(INTEGERS);
    let t = both_ways(&r, 1, &[]);
    for line in [
        "sto ABS = 7",
        "sto SIGN = -1",
        "sto SIGNZ = 5",
        "sto REM = -1",
        "sto MOD = 1",
        "sto PCT = 1",
        "sto MAX = 3",
        "sto MIN = -7",
        "sto LOW = -2",
        "sto HIGH = 5",
        "scores: player 0: 7",
    ] {
        assert!(t.contains(line), "{line} missing:\n{t}");
    }
    // A negative divisor: `rem` has the dividend's sign, `mod` is never
    // negative.
    let t = both_ways(&r, 1, &[("N", "7"), ("D", "-2")]);
    assert!(
        t.contains("sto REM = 1") && t.contains("sto MOD = 1"),
        "{t}"
    );
    // Checked as the other operators: `(abs MIN)` overflows, `rem` by
    // zero is a division by zero; the same message both ways.
    let t = both_ways(&r, 1, &[("N", "-9223372036854775808")]);
    assert!(
        t.contains("line 6, column 7: integer overflow: `(abs -9223372036854775808)` is outside the integers' range"),
        "{t}"
    );
    let t = both_ways(&r, 1, &[("D", "0")]);
    assert!(t.contains("division by zero in `rem`"), "{t}");
    // `(rem MIN -1)` is 0, as `(% MIN -1)` is.
    let t = both_ways(&r, 1, &[("D", "-1")]);
    assert!(t.contains("sto REMMIN = 1"), "{t}");
}

#[test]
fn small_integer_functions_are_checked_with_their_place() {
    let bad = r#"
(game
 (setup (create players 1))
 (do ((set (game sto A) (abs 1 2))
      (set (game sto B) (clamp 1 2))
      (set (game sto C) (max 1 2 3 4))))
 (choice ((turn pass)))
 (scoring max 0))
"#;
    let e = errors(bad);
    assert!(e.contains("`abs` takes one integer, found two"), "{e}");
    assert!(e.contains("test.rcy:4:25"), "{e}");
    assert!(e.contains("`clamp` takes three integers"), "{e}");
    assert!(e.contains("test.rcy:5:25"), "{e}");
    assert!(
        e.contains("`max` is written `(max INTS)`, `(max A B)`"),
        "{e}"
    );
}

const LET_IN_CONDITIONS: &str = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C, D)))))
 (stage player
   (end (let (size (game vloc STOCK)) 'N (== 'N 0)))
   (choice (((let (top (game vloc STOCK)) 'C (!= (cardatt RANK 'C) B))
             (move (top (game vloc STOCK)) (top ((current player) vloc HAND))))
            ((let (filter (game vloc STOCK) 'X (== (cardatt RANK 'X) B)) 'BS
                  (and (> (size 'BS) 0) (let (size 'BS) 'K (== 'K 1))))
             (move (top (game vloc STOCK)) (top (game vloc BIN))))))
   ((let ((current player) vloc HAND) 'H (> (size 'H) 1))
    (inc ((current player) sto BIG) 1)))
 (scoring max (size ((current player) vloc HAND))))
"#;

#[test]
fn let_in_a_condition_binds_once_and_agrees_both_ways() {
    let r = rules(LET_IN_CONDITIONS);
    for seed in 1..=4 {
        let t = both_ways(&r, seed, &[]);
        assert!(t.contains("== finished after 4 decisions =="), "{t}");
    }
    // While the B is in the stock, the bin is an option too; never after.
    let s = r.start(&options(1, &[])).unwrap();
    let texts: Vec<String> = s.legal_moves().iter().map(|m| s.move_to_text(m)).collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    let e = errors(
        r#"
(game
 (setup (create players 1))
 (stage player (end (let 1 'N))
   (choice ((turn pass))))
 (scoring max 0))
"#,
    );
    assert!(
        e.contains("`let` takes a value, a variable and a condition, found two"),
        "{e}"
    );
    assert!(e.contains("test.rcy:4:21"), "{e}");
}

/// A placement game on a 3 x 3 grid: a player places next to one of
/// their own marks (anywhere for the first), passes when they cannot, and
/// the game ends when nobody can. The legal placement is written once
/// and used in the choice, in the pass rule and in the end rule; the
/// caller's `'X` passed into `CAN`, whose body binds its own `'X`, is
/// not captured.
const PLACEMENT: &str = r#"
(game
 (define (EMPTY 'S) (== ('S sto MARK) 0))
 (define (MINE 'S 'P) (and (onboard 'S) (== ('S sto MARK) ('P sto ID))))
 (define (NEXT_TO 'S 'P)
   (or (MINE (neighbour 'S N) 'P) (MINE (neighbour 'S E) 'P)
       (MINE (neighbour 'S S) 'P) (MINE (neighbour 'S W) 'P)))
 (define (PLACES 'S 'P) (and (EMPTY 'S) (or (== ('P sto PLACED) 0) (NEXT_TO 'S 'P))))
 (define (CAN 'P) (any (spaces G) 'X (PLACES 'X 'P)))
 (setup (create players 2) (create board G (grid 3 3)))
 (all player 'P (do ((inc (game sto N) 1) (set ('P sto ID) (game sto N)))))
 (stage player (end (all player 'X (not (CAN 'X))))
   (choice ((any (spaces G) 'S
                 ((PLACES 'S (current player))
                  (do ((set ('S sto MARK) ((current player) sto ID))
                       (inc ((current player) sto PLACED) 1)))))
            ((not (CAN (current player))) (turn pass)))))
 (scoring max ((current player) sto PLACED)))
"#;

/// [`PLACEMENT`] with every definition written out by hand.
const PLACEMENT_BY_HAND: &str = r#"
(game
 (setup (create players 2) (create board G (grid 3 3)))
 (all player 'P (do ((inc (game sto N) 1) (set ('P sto ID) (game sto N)))))
 (stage player
   (end (all player 'X (not (any (spaces G) 'Y
     (and (== ('Y sto MARK) 0)
          (or (== ('X sto PLACED) 0)
              (or (and (onboard (neighbour 'Y N)) (== ((neighbour 'Y N) sto MARK) ('X sto ID)))
                  (and (onboard (neighbour 'Y E)) (== ((neighbour 'Y E) sto MARK) ('X sto ID)))
                  (and (onboard (neighbour 'Y S)) (== ((neighbour 'Y S) sto MARK) ('X sto ID)))
                  (and (onboard (neighbour 'Y W)) (== ((neighbour 'Y W) sto MARK) ('X sto ID))))))))))
   (choice ((any (spaces G) 'S
                 ((and (== ('S sto MARK) 0)
                       (or (== ((current player) sto PLACED) 0)
                           (or (and (onboard (neighbour 'S N)) (== ((neighbour 'S N) sto MARK) ((current player) sto ID)))
                               (and (onboard (neighbour 'S E)) (== ((neighbour 'S E) sto MARK) ((current player) sto ID)))
                               (and (onboard (neighbour 'S S)) (== ((neighbour 'S S) sto MARK) ((current player) sto ID)))
                               (and (onboard (neighbour 'S W)) (== ((neighbour 'S W) sto MARK) ((current player) sto ID))))))
                  (do ((set ('S sto MARK) ((current player) sto ID))
                       (inc ((current player) sto PLACED) 1)))))
            ((not (any (spaces G) 'X
                   (and (== ('X sto MARK) 0)
                        (or (== ((current player) sto PLACED) 0)
                            (or (and (onboard (neighbour 'X N)) (== ((neighbour 'X N) sto MARK) ((current player) sto ID)))
                                (and (onboard (neighbour 'X E)) (== ((neighbour 'X E) sto MARK) ((current player) sto ID)))
                                (and (onboard (neighbour 'X S)) (== ((neighbour 'X S) sto MARK) ((current player) sto ID)))
                                (and (onboard (neighbour 'X W)) (== ((neighbour 'X W) sto MARK) ((current player) sto ID))))))))
             (turn pass)))))
 (scoring max ((current player) sto PLACED)))
"#;

#[test]
fn a_definition_plays_as_its_body_written_out() {
    let (defined, by_hand) = (rules(PLACEMENT), rules(PLACEMENT_BY_HAND));
    for seed in 1..=6 {
        let a = both_ways(&defined, seed, &[]);
        let b = both_ways(&by_hand, seed, &[]);
        assert_eq!(a, b, "seed {seed}");
        assert!(a.contains("== finished after"), "{a}");
    }
    // Listing (perft) and sampling (simulate) alike.
    let p = perft(&defined.start(&options(3, &[])).unwrap(), 5).unwrap();
    let q = perft(&by_hand.start(&options(3, &[])).unwrap(), 5).unwrap();
    assert_eq!(p, q);
    assert_eq!(p[1], 9, "the first mark goes anywhere");
    let config = SimulateConfig {
        games: 300,
        seed: 5,
        overrides: Vec::new(),
        max_decisions: 200,
        jobs: 1,
    };
    let a = simulate(&defined, &config, &|_| {}).unwrap();
    let b = simulate(&by_hand, &config, &|_| {}).unwrap();
    assert_eq!(a.completed, 300);
    assert_eq!(
        (a.wins, a.ties, a.mean_decisions),
        (b.wins, b.ties, b.mean_decisions)
    );
}

#[test]
fn definitions_give_values_of_every_kind() {
    // An integer, a card, a player, a card collection and a space, each
    // from a definition, also as the argument of another.
    let src = r#"
(game
 (define (HAND 'P) ('P vloc HAND))
 (define (COUNT 'P) (size (HAND 'P)))
 (define (TOPOF 'P) (top (HAND 'P)))
 (define (RICHEST) (0 player))
 (define (CORNER) (space G 0 0))
 (define (DOUBLE 'X) (+ 'X 'X))
 (setup (create players 2) (create board G (grid 2 2))
        (create deck (game vloc STOCK) (deck (RANK (A, B, C)))))
 (do ((move (top (game vloc STOCK)) (top ((RICHEST) vloc HAND)))
      (move (top (game vloc STOCK)) (top (HAND (RICHEST))))
      (move (TOPOF (0 player)) (top ((CORNER) vloc PILE)))
      (set (game sto N) (DOUBLE (DOUBLE (COUNT (RICHEST)))))))
 (choice ((turn pass)))
 (scoring max (COUNT (current player))))
"#;
    let t = both_ways(&rules(src), 1, &[]);
    assert!(t.contains("sto N = 4"), "{t}");
    assert!(t.contains("scores: player 0: 1, player 1: 0"), "{t}");
}

#[test]
fn definitions_are_checked_where_they_are_written_and_used() {
    let src = r#"
(game
 (define (A 'X) (B 'X))
 (define (B 'Y) (and (A 'Y) (> 'Y 1)))
 (define (C 'X 'X) (> 'X 1))
 (define (size 'X) 1)
 (define (UNUSED 'Q) (> (sise 'Q) 1))
 (define (INT 'Q) (+ 'Q 1))
 (define BROKEN)
 (setup (create players 2))
 (stage player (end (A 1))
   (choice (((INT 3) (turn pass)) ((INT) (turn pass)) (INT 2))))
 (scoring max (INT HEARTS)))
"#;
    let e = errors(src);
    for (message, place) in [
        ("`A` uses itself (`A` -> `B` -> `A`): a definition is written out in full where it is used, so it cannot be recursive", "test.rcy:4:22"),
        ("`'X` is a parameter of `C` twice", "test.rcy:5:16"),
        ("`size` is a word of the language: a definition needs a name of its own", "test.rcy:6:11"),
        ("unknown form `(sise ...)`", "test.rcy:7:25"),
        ("`define` is written `(define (NAME 'PARAMETER ...) BODY)`", "test.rcy:9:2"),
        ("`(INT ...)` is an integer, but a condition is expected here", "test.rcy:12:14"),
        ("`INT` takes one argument ('Q), found none", "test.rcy:12:36"),
        ("`INT` is a condition or a value, not an action", "test.rcy:12:55"),
        ("found `HEARTS`", "test.rcy:13:20"),
    ] {
        let at = e
            .find(message)
            .unwrap_or_else(|| panic!("missing {message}:\n{e}"));
        let place_at = e[at..].find("┌─ ").map(|i| at + i + "┌─ ".len());
        let found = place_at.map(|i| &e[i..i + place.len()]);
        assert_eq!(found, Some(place), "{message}:\n{e}");
    }
}

#[test]
fn definitions_too_large_written_out_are_refused() {
    // Each definition uses the one before twice: 2^30 copies.
    let mut src = String::from("(game\n (define (D0 'X) (+ 'X 1))\n");
    for i in 1..=30 {
        src.push_str(&format!(
            " (define (D{i} 'X) (+ (D{} 'X) (D{} 'X)))\n",
            i - 1,
            i - 1
        ));
    }
    src.push_str(
        " (setup (create players 1))\n (do ((set (game sto A) (D30 1))))\n (choice ((turn pass)))\n (scoring max 0))\n",
    );
    let e = errors(&src);
    assert!(
        e.contains("the definitions used here are too large written out"),
        "{e}"
    );
    // A chain of uses each inside the other's argument, deeper than the
    // bound: refused, not a stack overflow.
    let mut nested = String::from("1");
    for _ in 0..150 {
        nested = format!("(D1 {nested})");
    }
    let src = format!(
        "(game\n (define (D1 'X) (+ (+ (+ 'X 1) 1) 1))\n (setup (create players 1))\n (do ((set (game sto A) {nested})))\n (choice ((turn pass)))\n (scoring max 0))\n"
    );
    let e = errors(&src);
    assert!(
        e.contains("the definitions used here are too large written out"),
        "{e}"
    );
}

/// `end` is tested after a pass and before the turn passes on: inside it,
/// the current player is the one who just played.
#[test]
fn end_sees_the_player_who_just_played() {
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (RANK (A, B, C)))))
 (stage player (end (> (size ((current player) vloc HAND)) 0))
   (choice ((move (top (game vloc STOCK)) (top ((current player) vloc HAND))))))
 (scoring max 0))
"#;
    let t = both_ways(&rules(src), 1, &[]);
    // Player 0 took a card: the stage ends before player 1 plays.
    assert!(t.contains("== finished after 1 decisions =="), "{t}");
}

/// The neighbour of no space is no space (not an error): it is off the
/// board, and equal to any other no space.
#[test]
fn the_neighbour_of_no_space_is_no_space() {
    let src = r#"
(game
 (setup (create players 1) (create board G (grid 2 2)))
 (do (((onboard (neighbour (neighbour (space G 0 0) N) S)) (set (game sto ON) 1))
      ((== (neighbour (neighbour (space G 0 0) N) E) (neighbour (space G 0 0) W))
       (set (game sto SAME) 1))))
 (choice ((turn pass)))
 (scoring max 0))
"#;
    let t = both_ways(&rules(src), 1, &[]);
    assert!(t.contains("sto SAME = 1") && !t.contains("sto ON"), "{t}");
}

/// An `any` over nothing nested in an option adds nothing, but the
/// actions before it still make the option, and are played.
#[test]
fn a_nested_any_over_nothing_keeps_the_actions_before_it() {
    let src = r#"
(game
 (setup (create players 1)
        (create deck (game vloc STOCK) (deck (RANK (A, B)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice ((any (game vloc STOCK) 'C
                 (do ((move 'C (top (game vloc BIN)))
                      (any (game vloc EMPTY) 'D (move 'D (top (game vloc BIN))))))))))
 (scoring max 0))
"#;
    let r = rules(src);
    let s = r.start(&options(1, &[])).unwrap();
    let texts: Vec<String> = s.legal_moves().iter().map(|m| s.move_to_text(m)).collect();
    assert_eq!(
        texts,
        [
            "move A game STOCK -> game BIN",
            "move B game STOCK -> game BIN"
        ]
    );
    let t = both_ways(&r, 1, &[]);
    assert!(t.contains("vloc BIN (2)"), "{t}");
}

/// The keys `simulate --json` prints are the ones the reference's table
/// documents, in the same order.
#[test]
fn the_json_keys_of_simulate_are_documented() {
    let (code, out, err) =
        common::cardboard(&["simulate", "games/agram.rcy", "--games", "3", "--json"]);
    assert_eq!(code, 0, "{err}");
    let printed: Vec<String> = out
        .lines()
        .filter(|l| l.starts_with("  \""))
        .map(|l| l.trim_start()[1..].split('"').next().unwrap().to_string())
        .collect();
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).unwrap();
    let start = doc
        .find("<!-- simulate-json -->")
        .expect("the table of keys");
    let documented: Vec<String> = doc[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|l| l.strip_prefix("| `"))
        .map(|l| l.split('`').next().unwrap().to_string())
        .collect();
    assert!(printed.len() > 10, "{out}");
    assert_eq!(printed, documented);
}

const FIB: &str = r#"
(game
 (declare 91 'N)
 (setup (create players 1))
 (do ((set (game sto F) (fib 'N))))
 (choice ((turn pass)))
 (scoring max 0))
"#;

#[test]
fn fib_is_exact_to_92_and_an_error_past_it_or_below_0() {
    let r = rules(FIB);
    for (n, f) in [
        ("1", "1"),
        ("2", "1"),
        ("90", "2880067194370816120"),
        ("91", "4660046610375530309"),
        ("92", "7540113804746346429"),
    ] {
        let t = both_ways(&r, 1, &[("N", n)]);
        assert!(t.contains(&format!("sto F = {f}\n")), "fib {n}:\n{t}");
    }
    let t = both_ways(&r, 1, &[("N", "93")]);
    assert!(
        t.contains("line 5, column 7: integer overflow: `(fib 93)` is outside the integers' range"),
        "{t}"
    );
    let t = both_ways(&r, 1, &[("N", "-1")]);
    assert!(
        t.contains("`(fib -1)`: the Fibonacci numbers start at `(fib 0)`"),
        "{t}"
    );
}
