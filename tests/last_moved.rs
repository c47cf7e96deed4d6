//! `(last moved)` (docs/language.md, section 7.1): the card most recently
//! moved by a `move` action. No card before the first move; the last card
//! of a `repeat all (move ...)`; unchanged by `remember`, `forget`,
//! `shuffle`, `create deck`, a `move` of no card, and by the moves the
//! engine tries while it explores a choice's options (the undo journal
//! takes them back); kept exactly by a saved position, even among
//! identical cards.

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, Status};

fn rules(src: &str) -> Rules {
    Rules::from_source("test.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn start(rules: &Rules) -> State {
    rules
        .start(&GameOptions::default())
        .unwrap_or_else(|e| panic!("the game does not start: {e}"))
}

/// A 2x2 grid and six identical stones. Before any move the top level
/// records what `(last moved)` is. Each turn a player puts the top stone of
/// the supply on the top (option 1) or at the bottom (option 2) of a
/// space's stack, or (option 3) ends the game recording where the last
/// moved stone lies: its row and column, and its index from the top of its
/// stack, each plus one.
const STACKS: &str = r#"
(game
 (setup (create players 2)
        (create board GRID (grid 2 2))
        (repeat 6 (create deck (game vloc SUPPLY) (deck (COLOR (BLACK))))))
 (do (((onboard (where (last moved))) (set (game sto BEFORE_ONBOARD) 1))
      ((== (where (last moved)) (where (top (game vloc NONE)))) (set (game sto BEFORE_NOSPACE) 1))
      ((== (last moved) (top (game vloc NONE))) (set (game sto BEFORE_NOCARD) 1))
      ((== (cardatt COLOR (last moved)) (cardatt COLOR (top (game vloc NONE))))
       (set (game sto BEFORE_SAMEATT) 1))
      (set (game str BEFORE_ATT) (cardatt COLOR (last moved)))))
 (stage player (end (== (game sto DONE) 1))
  (choice
   ((any (spaces GRID) 'S
     (do ((move (top (game vloc SUPPLY)) (top ('S vloc STACK)))
          (inc (game sto PLACED) 1))))
    (any (spaces GRID) 'S
     (do ((move (top (game vloc SUPPLY)) (bottom ('S vloc STACK)))
          (inc (game sto PLACED) 1))))
    (do ((set (game sto DONE) 1)
         ((onboard (where (last moved)))
          (let (where (last moved)) 'HERE
           (do ((set (game sto ROW) (+ 1 (row 'HERE)))
                (set (game sto COL) (+ 1 (col 'HERE)))
                (all (range 0 .. 5) 'I
                 ((== (last moved) ('I ('HERE vloc STACK))) (set (game sto AT) (+ 1 'I)))))))))))))
 (scoring max 0))
"#;

/// Plays the move whose text names `space` (`GRID[0,1]`): the first such
/// move when `top`, the second (option 2, at the bottom) otherwise.
fn place(state: &mut State, space: &str, top: bool) {
    let moves = state.legal_moves();
    let mut matching = moves
        .iter()
        .filter(|m| state.move_to_text(m).contains(&format!("{space} STACK")));
    let first = matching.next().cloned();
    let second = matching.next().cloned();
    let mv = if top { first } else { second };
    let mv = mv.unwrap_or_else(|| panic!("no move to {space}"));
    state.apply(&mv).unwrap();
}

/// Plays option 3 (the last legal move), which ends the game, and returns
/// the table.
fn finish(state: &mut State) -> String {
    let moves = state.legal_moves();
    let last = moves.last().cloned().expect("option 3 is always legal");
    assert!(
        state.move_to_text(&last).contains("DONE"),
        "{}",
        state.move_to_text(&last)
    );
    state.apply(&last).unwrap();
    assert_eq!(state.status(), Status::Finished);
    state.describe()
}

#[test]
fn before_any_move_there_is_no_last_moved_card() {
    let rules = rules(STACKS);
    let mut s = start(&rules);
    let t = s.describe();
    assert!(!t.contains("BEFORE_ONBOARD"), "{t}");
    for what in ["BEFORE_NOSPACE", "BEFORE_NOCARD", "BEFORE_SAMEATT"] {
        assert!(t.contains(&format!("sto {what} = 1")), "{what}: {t}");
    }
    // `cardatt` of no card is the empty string (not written).
    assert!(!t.contains("BEFORE_ATT"), "{t}");
    // Exploring the options moved stones and took them back: still none.
    let t = finish(&mut s);
    assert!(!t.contains("sto ROW"), "{t}");
    assert!(!t.contains("sto AT"), "{t}");
    assert!(!s.to_position().contains("\nmoved "), "{}", s.to_position());
}

#[test]
fn after_a_placement_its_space_is_where_the_last_moved_card_lies() {
    let rules = rules(STACKS);
    let mut s = start(&rules);
    place(&mut s, "GRID[1,0]", true);
    // The next decision explores placements on every space, the last at
    // GRID[1,1]; they are taken back, and so is the last moved card.
    let t = finish(&mut s);
    assert!(t.contains("sto ROW = 2"), "{t}");
    assert!(t.contains("sto COL = 1"), "{t}");
    assert!(t.contains("sto AT = 1"), "{t}");
    assert!(t.contains("sto PLACED = 1"), "{t}");
}

#[test]
fn the_last_moved_card_is_exact_among_identical_cards() {
    let rules = rules(STACKS);
    let mut s = start(&rules);
    place(&mut s, "GRID[0,1]", true);
    place(&mut s, "GRID[0,1]", true);
    place(&mut s, "GRID[0,1]", false);
    // The third stone lies at the bottom of three identical stones.
    let mut again = s.clone();
    let t = finish(&mut again);
    assert!(t.contains("sto ROW = 1"), "{t}");
    assert!(t.contains("sto COL = 2"), "{t}");
    assert!(t.contains("sto AT = 3"), "{t}");
    // Then one on top of another space.
    place(&mut s, "GRID[1,1]", true);
    let mut again = s.clone();
    let t = finish(&mut again);
    assert!(t.contains("sto ROW = 2"), "{t}");
    assert!(t.contains("sto COL = 2"), "{t}");
    assert!(t.contains("sto AT = 1"), "{t}");
}

#[test]
fn a_saved_position_keeps_the_last_moved_card() {
    let rules = rules(STACKS);
    let mut s = start(&rules);
    place(&mut s, "GRID[0,1]", true);
    place(&mut s, "GRID[0,1]", true);
    place(&mut s, "GRID[0,1]", false);
    let text = s.to_position();
    assert!(
        text.contains("\nmoved GRID[0,1] vloc STACK 2\n"),
        "the stone at the bottom of three: {text}"
    );
    let mut loaded = rules
        .load_position(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(loaded.to_position(), text);
    assert_eq!(loaded.legal_moves(), s.legal_moves());
    let (a, b) = (finish(&mut s), finish(&mut loaded));
    assert_eq!(a, b);
    assert!(b.contains("sto AT = 3"), "{b}");

    // Edited to name the middle stone, the position plays as edited.
    let start_again = |text: &str| {
        rules
            .load_position(text)
            .unwrap_or_else(|e| panic!("{e}\n{text}"))
    };
    let mut middle = start_again(&text.replace("STACK 2\n", "STACK 1\n"));
    assert!(finish(&mut middle).contains("sto AT = 2"));
    // Without the line there is no last moved card.
    let mut none = start_again(&text.replace("moved GRID[0,1] vloc STACK 2\n", ""));
    let t = finish(&mut none);
    assert!(!t.contains("sto AT"), "{t}");
    assert!(!t.contains("sto ROW"), "{t}");
}

#[test]
fn bad_moved_lines_are_refused() {
    let rules = rules(STACKS);
    let mut s = start(&rules);
    place(&mut s, "GRID[0,1]", true);
    let text = s.to_position();
    let line = "moved GRID[0,1] vloc STACK 0";
    assert!(text.contains(line), "{text}");
    let no = 1 + text.lines().position(|l| l == line).unwrap();
    for (with, what) in [
        (
            "moved GRID[0,1] vloc STACK 1",
            "holds 1 card, so its index from the top is 0 to 0, not 1",
        ),
        (
            "moved GRID[1,1] vloc STACK 0",
            "`GRID[1,1] vloc STACK` holds no card",
        ),
        (
            "moved GRID[0,1] vloc STACK",
            "a `moved` line is `moved OWNER KIND NAME INDEX`",
        ),
        (
            "moved GRID[0,1] vloc STACK 0 0",
            "a `moved` line is `moved OWNER KIND NAME INDEX`",
        ),
        (
            "moved GRID[0,1] vloc STACK top",
            "`top` is not an index from the top",
        ),
        (
            "moved GRID[0,1] vloc STACK -1",
            "`-1` is not an index from the top",
        ),
        (
            "moved GRID[0,1] vloc PILE 0",
            "the rules have no location `vloc PILE`",
        ),
        (
            "moved GRID[0,1] iloc STACK 0",
            "no location `iloc STACK` (it has `vloc STACK`)",
        ),
        (
            "moved GRID[5,1] vloc STACK 0",
            "the grid GRID has rows 0 to 1",
        ),
        (
            "moved p7 vloc STACK 0",
            "`p7` is neither a line kind nor an owner",
        ),
        (
            "moved GRID[0,1] sto STACK 0",
            "`sto` is not a kind of location",
        ),
        ("moved GRID[0,1] mem STACK 0", "not in a `mem` location"),
    ] {
        let bad = text.replace(line, with);
        match rules.load_position(&bad) {
            Ok(_) => panic!("accepted `{with}`"),
            Err(e) => {
                assert!(
                    e.message.contains(what),
                    "`{with}`: expected `{what}`, got `{e}`"
                );
                assert_eq!(e.line, no, "`{with}`: {e}");
            }
        }
    }
    let twice = format!("{text}{line}\n");
    let e = rules.load_position(&twice).unwrap_err();
    assert!(e.message.contains("`moved` appears twice"), "{e}");
    assert_eq!(e.line, text.lines().count() + 1);
}

/// Every stone of the supply moved at once, then actions that are not
/// moves.
const MANY: &str = r#"
(game
 (setup (create players 1)
        (create deck (game vloc SUPPLY) (deck (COLOR (RED, GREEN, BLUE)))))
 (do ((set (game str FIRST) (cardatt COLOR (top (game vloc SUPPLY))))
      (set (game str LAST) (cardatt COLOR (bottom (game vloc SUPPLY))))
      (repeat all (move (top (game vloc SUPPLY)) (top (game vloc PILE))))
      (set (game str MOVED) (cardatt COLOR (last moved)))
      ((== (last moved) (top (game vloc PILE))) (set (game sto TOP) 1))
      (remember (bottom (game vloc PILE)) (top (game mem SEEN)))
      (shuffle (game vloc PILE))
      (forget (top (game mem SEEN)))
      (create deck (game vloc MORE) (deck (COLOR (YELLOW))))
      (move (top (game vloc NONE)) (top (game vloc PILE)))
      (set (game str STILL) (cardatt COLOR (last moved)))
      (move (last moved) (top (game vloc KEPT)))
      (move (top (game vloc PILE)) (last moved))
      (set (game sto KEPT) (size (game vloc KEPT)))))
 (stage player (end (== 1 1)) (choice ((turn pass))))
 (scoring max 0))
"#;

#[test]
fn several_cards_moved_at_once_leave_the_last_one() {
    let s = start(&rules(MANY));
    let t = s.describe();
    let value = |name: &str| {
        t.lines()
            .find_map(|l| l.trim().strip_prefix(&format!("str {name} = ")))
            .unwrap_or_else(|| panic!("no {name}: {t}"))
            .to_string()
    };
    // `repeat all` takes the cards from the top: the last one moved was
    // the bottom card, now on top of the pile.
    assert_eq!(value("MOVED"), value("LAST"));
    assert_ne!(value("MOVED"), value("FIRST"));
    assert!(t.contains("sto TOP = 1"), "{t}");
    // `remember`, `shuffle`, `forget`, `create deck` and a move of no card
    // leave it alone.
    assert_eq!(value("STILL"), value("LAST"));
    // `(last moved)` as a destination is its location: the second move
    // puts a card on KEPT too.
    assert!(t.contains("sto KEPT = 2"), "{t}");
}
