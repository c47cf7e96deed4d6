//! Locations and storages named by a variable bound to the items of a
//! declared list of names, the RECYCLE style of CardStock's programs
//! (`(all 'PLOCS 'L (move ... (top ('P hloc 'L))))`): the file's lists make
//! the locations and storages exist when it is read. A small game worked
//! by hand; `lists/piles.rcy` (every kind of location, every owner, the
//! storages, the names reached through every binding form) played beside
//! `lists/piles-unrolled.rcy`, the same rules with every name written out;
//! piles named by a card attribute, whose values the decks fix; what is
//! not a name of a list stays an error, at compile time when the name is
//! bound nowhere and at run time when a computed name names no location.

mod common;

use cardboard::drivers::perft::perft;
use cardboard::drivers::run::transcript;
use cardboard::engine::{Rules, State};
use cardboard::game::{GameState, PlayError};
use common::options;
use std::path::Path;

fn rules(src: &str) -> Rules {
    Rules::from_source("test.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn load(name: &str) -> Rules {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/lists")
        .join(name);
    Rules::load(&path).unwrap_or_else(|e| panic!("{name}: {e:?}"))
}

/// Plays the first legal move until the game ends.
fn play_first(state: &mut State) {
    while state.current_player().is_some() {
        let mv = state.legal_moves()[0].clone();
        state.apply(&mv).unwrap();
    }
}

/// Three piles a player, dealt from an unshuffled deck (RED-A .. RED-D,
/// BLUE-A .. BLUE-D, the last made on top); each turn a player turns up
/// one of their piles, counting its colour in a storage of that colour.
const PILES: &str = r#"
(game
 (declare (ONE, TWO, THREE) 'PLOCS)
 (declare (RED, BLUE) 'COLORS)
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (COLOR (RED, BLUE)) (RANK (A, B, C, D)))))
 (do ((all player 'P (all 'PLOCS 'L (move (top (game iloc STOCK)) (top ('P hloc 'L)))))))
 (stage player (end (all player 'P (all 'PLOCS 'L (== (size ('P hloc 'L)) 0))))
   (choice ((any 'PLOCS 'L
              ((> (size ((current player) hloc 'L)) 0)
               (do ((move (top ((current player) hloc 'L)) (top ((current player) vloc 'L)))
                    (all 'COLORS 'C
                      ((== (cardatt COLOR (top ((current player) vloc 'L))) 'C)
                       (inc ((current player) sto 'C) 1))))))))))
 (scoring max ((current player) sto RED)))
"#;

#[test]
fn a_list_names_the_piles_a_deal_fills() {
    let mut s = rules(PILES).start(&options(0, &[])).unwrap();
    // Dealt top first: p0 gets BLUE-D, BLUE-C, BLUE-B; p1 BLUE-A, RED-D, RED-C.
    let table = s.describe();
    for line in [
        "iloc STOCK (2): RED-B RED-A",
        "hloc ONE (1): BLUE-D",
        "hloc TWO (1): BLUE-C",
        "hloc THREE (1): BLUE-B",
        "hloc ONE (1): BLUE-A",
        "hloc TWO (1): RED-D",
        "hloc THREE (1): RED-C",
    ] {
        assert!(table.contains(line), "{line:?} not in\n{table}");
    }
    let moves = s.moves_to_text(&s.legal_moves());
    assert_eq!(
        moves,
        vec![
            "move BLUE-D p0 ONE -> p0 ONE; p0 BLUE = 1",
            "move BLUE-C p0 TWO -> p0 TWO; p0 BLUE = 1",
            "move BLUE-B p0 THREE -> p0 THREE; p0 BLUE = 1",
        ]
    );
    play_first(&mut s);
    let table = s.describe();
    for line in [
        "vloc ONE (1): BLUE-D",
        "vloc THREE (1): RED-C",
        "sto BLUE = 3",
        "sto RED = 2",
        "sto BLUE = 1",
    ] {
        assert!(table.contains(line), "{line:?} not in\n{table}");
    }
    let out = s.outcome().unwrap();
    assert_eq!(out.scores, vec![0, 2]);
    assert_eq!(out.winners, vec![1]);
}

#[test]
fn perft_counts_the_piles_left_to_each_player() {
    // Each player turns up one of their non-empty piles: 3, 3, 2, 2, 1, 1.
    let s = rules(PILES).start(&options(0, &[])).unwrap();
    assert_eq!(perft(&s, 7).unwrap(), vec![1, 3, 9, 18, 36, 36, 36, 0]);
}

/// A transcript with the storage lines of each owner in name order (the
/// two files meet the storages' names in a different order, and the table
/// lists them in that order).
fn normalized(t: &str) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut run: Vec<&str> = Vec::new();
    for line in t.lines().skip(1) {
        if line.starts_with("  sto ") {
            run.push(line);
            continue;
        }
        run.sort_unstable();
        out.extend(run.drain(..).map(String::from));
        out.push(line.to_string());
    }
    run.sort_unstable();
    out.extend(run.drain(..).map(String::from));
    out.join("\n")
}

#[test]
fn the_lists_play_as_their_names_written_out() {
    let lists = load("piles.rcy");
    let unrolled = load("piles-unrolled.rcy");
    for seed in 1..=30 {
        let o = options(seed, &[]);
        let a = transcript(&lists, &o, 100);
        let b = transcript(&unrolled, &o, 100);
        assert_eq!(normalized(&a), normalized(&b), "seed {seed}");
        assert!(a.contains("winners"), "seed {seed}: {a}");
        assert_eq!(a, transcript(&lists.uncompiled(), &o, 100), "seed {seed}");
    }
    let a = lists.start(&options(4, &[])).unwrap();
    let b = unrolled.start(&options(4, &[])).unwrap();
    assert_eq!(perft(&a, 6).unwrap(), perft(&b, 6).unwrap());
}

/// Each player sorts a hand of three cards into piles by colour, one a
/// turn, counting each colour in a storage of that name: the names come
/// from `cardatt`, whose values the deck fixes. Dealt from the unshuffled
/// deck (RED-A .. RED-C, BLUE-A .. BLUE-C, the last on top), p0 holds the
/// blue cards and p1 the red ones.
const SORT: &str = r#"
(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (COLOR (RED, BLUE)) (RANK (A, B, C)))))
 (do ((all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
   (choice ((any ((current player) iloc HAND) 'C
              (let (cardatt COLOR 'C) 'K
                (do ((inc ((current player) sto 'K) 1)
                     (move 'C (top ((current player) vloc (cardatt COLOR 'C)))))))))))
 (scoring max ((current player) sto RED)))
"#;

#[test]
fn a_card_attribute_names_the_pile_of_its_value() {
    let mut s = rules(SORT).start(&options(0, &[])).unwrap();
    assert_eq!(
        s.moves_to_text(&s.legal_moves()),
        vec![
            "p0 BLUE = 1; move BLUE-C p0 HAND -> p0 BLUE",
            "p0 BLUE = 1; move BLUE-B p0 HAND -> p0 BLUE",
            "p0 BLUE = 1; move BLUE-A p0 HAND -> p0 BLUE",
        ]
    );
    // Each player moves one of the cards left in hand: 3, 3, 2, 2, 1, 1.
    assert_eq!(perft(&s, 6).unwrap(), vec![1, 3, 9, 18, 36, 36, 36]);
    play_first(&mut s);
    let table = s.describe();
    for line in [
        "vloc BLUE (3): BLUE-A BLUE-B BLUE-C",
        "sto BLUE = 3",
        "vloc RED (3): RED-A RED-B RED-C",
        "sto RED = 3",
    ] {
        assert!(table.contains(line), "{line:?} not in\n{table}");
    }
    assert_eq!(s.outcome().unwrap().scores, vec![0, 3]);
}

#[test]
fn names_reach_a_let_in_a_condition_and_a_definition() {
    // The colour of the stock's top card names a hidden pile through a
    // `let` inside a condition (the only place naming those piles), and a
    // list's item names a visible pile through a definition's parameter:
    // both kinds of pile exist, and the moves see them.
    let src = r#"
(game
 (declare (RED, BLUE) 'COLORS)
 (define (PILE 'X) (size (game vloc 'X)))
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (COLOR (RED, BLUE)) (RANK (A, B)))))
 (stage player (end (== (size (game vloc STOCK)) 0))
   (choice ((any 'COLORS 'C
              ((and (== (PILE 'C) 0)
                    (let (cardatt COLOR (top (game vloc STOCK))) 'K (== (size (game hloc 'K)) 0)))
               (move (top (game vloc STOCK)) (top (game vloc 'C)))))
            (move (top (game vloc STOCK)) (top (game vloc DISCARD))))))
 (scoring max 0))
"#;
    let s = rules(src).start(&options(0, &[])).unwrap();
    assert_eq!(
        s.moves_to_text(&s.legal_moves()),
        vec![
            "move BLUE-B game STOCK -> game RED",
            "move BLUE-B game STOCK -> game BLUE",
            "move BLUE-B game STOCK -> game DISCARD",
        ]
    );
    // The hidden piles stay empty: a colour's pile takes a card while it
    // is empty, DISCARD always does. Counted by hand over the sizes of the
    // RED and BLUE piles before each decision: 3; 2 + 2 + 3; then
    // 1 + 2 + 1 + 2 + 2 + 2 + 3; then 1 + 3 + 1 + 3 + 3 + 3 + 7.
    assert_eq!(perft(&s, 4).unwrap(), vec![1, 3, 7, 13, 21]);
}

#[test]
fn a_computed_name_that_names_no_location_is_a_rules_error() {
    let src = r#"
(game
 (declare (RED, BLUE) 'COLORS)
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (COLOR (RED, BLUE)))))
 (do ((all 'COLORS 'C (move (top (game vloc STOCK)) (top (game vloc 'C))))
      (set (game str WHERE) GREEN)
      (move (top (game vloc RED)) (top (game vloc (game str WHERE))))))
 (scoring max 0))
"#;
    match rules(src).start(&options(0, &[])) {
        Err(PlayError::Rules(m)) => assert!(
            m.contains("line 8, column") && m.contains("no location named `GREEN` in this file"),
            "{m}"
        ),
        other => panic!(
            "expected a rules error, got {:?}",
            other.map(|s| s.describe())
        ),
    }
}

#[test]
fn a_name_set_from_the_command_line_must_name_a_location() {
    // `'MIDDLE` (TWO) names a pile; set to THREE it names another, set to
    // RED (a name of the file, but of no `hloc`) it is a located error.
    let lists = load("piles.rcy");
    let t = transcript(&lists, &options(1, &[("MIDDLE", "THREE")]), 100);
    assert!(t.contains("winners"), "{t}");
    let t = transcript(&lists, &options(1, &[("MIDDLE", "RED")]), 100);
    assert!(
        t.contains("line 39, column 11: no location named `RED` in this file"),
        "{t}"
    );
}

#[test]
fn a_list_makes_locations_only_where_it_names_them() {
    let names = |src: &str| -> Vec<String> {
        let prog = cardboard::lower::compile(src).unwrap_or_else(|e| panic!("{e:?}"));
        prog.loc_names
            .iter()
            .map(|l| prog.symbols[l.name as usize].clone())
            .collect()
    };
    // The list of colours names locations; the list of ranks does not.
    let src = r#"
(game
 (declare (RED, BLUE) 'COLORS)
 (declare (A, B) 'RANKS)
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (COLOR (RED, BLUE)) (RANK (A, B)))))
 (do ((all 'COLORS 'C (move (top (game vloc STOCK)) (top (game vloc 'C))))
      (all 'RANKS 'R (set (game str LAST) 'R))))
 (scoring max 0))
"#;
    assert_eq!(names(src), vec!["STOCK", "RED", "BLUE"]);
    // A `cardatt` in location position makes a pile of each value the
    // decks give its key, sub-attributes included; one elsewhere makes none.
    let src = r#"
(game
 (setup (create players 2)
        (create deck (game vloc STOCK) (deck (COLOR (RED (SUIT (HEARTS, DIAMONDS)))
                                                    (BLACK (SUIT (SPADES, CLUBS)))))))
 (do ((move (top (game vloc STOCK)) (top (game hloc (cardatt SUIT (top (game vloc STOCK))))))
      (set (game str LAST) (cardatt COLOR (top (game vloc STOCK))))))
 (scoring max 0))
"#;
    assert_eq!(
        names(src),
        vec!["STOCK", "HEARTS", "DIAMONDS", "SPADES", "CLUBS"]
    );
}
