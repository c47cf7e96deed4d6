//! A move's steps (`cardboard::step`, docs/protocol.md "A move's
//! steps"): the structured fields beside each move's text, written by the
//! engine from the replay that writes the text. A card game's several
//! steps (a storage set, then a card moved), a grid's and a hex board's
//! spaces by their coordinates, and no card hidden from the seat in any
//! step: a step leaves out the card exactly where the text says `a card`,
//! for the moves offered and the moves seen played.

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::GameState;
use cardboard::observation::Observation;
use cardboard::random::{below, GameRng};
use cardboard::step::{steps_text, PlaceKind, SetValue, SpaceAt, Step, StorageKind};
use std::collections::BTreeSet;
use std::path::Path;

fn start(rules: &Rules, seed: u64) -> State {
    let options = GameOptions {
        seed,
        overrides: vec![],
    };
    rules.start(&options).expect("starts")
}

/// A text without the ` (#k)` that tells equal texts apart.
fn bare(text: &str) -> &str {
    match text.rfind(" (#") {
        Some(i) if text.ends_with(')') => &text[..i],
        _ => text,
    }
}

/// Plays `games` seeded random games of `rules` and checks, at every
/// decision, that every move offered and every move seen played reads as
/// its steps written out; returns how many steps left a card out (a card
/// hidden from the reader) and how many named one.
fn steps_read_as_texts(rules: &Rules, games: u64) -> (usize, usize) {
    let (mut hidden, mut named) = (0, 0);
    let mut count = |steps: &[Step]| {
        for s in steps {
            match s {
                Step::Move { card, .. }
                | Step::Remember { card, .. }
                | Step::Forget { card, .. } => match card {
                    Some(c) => {
                        named += 1;
                        assert!(!c.attrs.is_empty() || c.name.starts_with('#'), "{c:?}");
                    }
                    None => hidden += 1,
                },
                _ => {}
            }
        }
    };
    for seed in 0..games {
        let mut state = start(rules, seed);
        let mut rng = GameRng::new(seed);
        for _ in 0..200 {
            let Some(seat) = state.current_player() else {
                break;
            };
            let seen: Observation = state.observe(seat);
            let legal = state.legal_moves();
            assert_eq!(seen.moves.len(), legal.len());
            for m in &seen.moves {
                assert!(!m.steps.is_empty(), "no steps: {}", m.text);
                assert_eq!(steps_text(&m.steps), bare(&m.text));
                count(&m.steps);
                // A card named in the first step is one the seat sees
                // where it lies now: in its observation.
                if let Some(Step::Move {
                    card: Some(c),
                    from,
                    ..
                }) = m.steps.first()
                {
                    let owner = seen.owner(&from.owner).expect("the owner is shown");
                    let loc = owner.locations.iter().find(|l| l.name == from.location);
                    let cards = loc.and_then(|l| l.cards.as_ref()).expect("faces shown");
                    assert!(cards.contains(c), "{c:?} not seen in {from:?}");
                }
            }
            let mv = legal[below(&mut rng, legal.len())].clone();
            for viewer in 0..state.num_players() {
                let d = state.move_described_seen_by(&mv, viewer);
                assert_eq!(d.text, state.move_to_text_seen_by(&mv, viewer));
                assert_eq!(steps_text(&d.steps), d.text);
                count(&d.steps);
            }
            if state.apply(&mv).is_err() {
                break;
            }
        }
    }
    (hidden, named)
}

/// Draws from a hidden stock into one's own hand, or plays a card of the
/// hand to a pile everyone sees, naming its rank in a storage first.
const DRAW: &str = "(game
 (setup (create players 2)
        (create deck (game hloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN)))))
 (do ((all player 'P (move (top (game hloc STOCK)) (top ('P iloc HAND))))))
 (stage player (end (== (size (game hloc STOCK)) 0))
   (choice ((move (top (game hloc STOCK)) (top ((current player) iloc HAND)))
            (any ((current player) iloc HAND) 'C
                 (do ((set (game str LAST) (cardatt RANK 'C))
                      (move 'C (top (game vloc PILE)))))))))
 (scoring max 0))";

/// Every step of every move, offered or seen played, of seeded games of a
/// game with a hidden stock and of the shipped Agram reads as its text,
/// and hides the card where the text does.
#[test]
fn steps_are_the_text_and_hide_what_it_hides() {
    let draw = Rules::from_source("draw.rcy", DRAW).expect("compiles");
    let (hidden, named) = steps_read_as_texts(&draw, 6);
    assert!(hidden > 0 && named > 0, "hidden {hidden}, named {named}");
    let agram = Rules::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/agram.rcy"))
        .expect("agram loads");
    // Agram plays from a hand to a trick everyone sees: every card named.
    let (_, named) = steps_read_as_texts(&agram, 3);
    assert!(named > 0);
    // Its lead: the suit led set, then the card played, as
    // `game LEADSUIT = HEARTS; move HEARTS-TEN p0 HAND -> p0 TRICK`.
    let lead = start(&agram, 1).observe(0).moves.remove(0);
    match lead.steps.as_slice() {
        [Step::Set {
            storage,
            value: SetValue::Text(suit),
        }, Step::Move {
            card: Some(card),
            from,
            to,
        }] => {
            assert_eq!(
                (storage.owner.as_str(), storage.name.as_str()),
                ("game", "LEADSUIT")
            );
            assert_eq!(card.attrs.get("SUIT"), Some(suit));
            assert_eq!(
                (from.owner.as_str(), from.location.as_str()),
                ("p0", "HAND")
            );
            assert_eq!((to.owner.as_str(), to.location.as_str()), ("p0", "TRICK"));
        }
        other => panic!("a suit set and a card played: {other:?} ({})", lead.text),
    }
}

/// The draw from the hidden stock, offered to p0 and seen played by each
/// seat: the card only for p0 once played (it sees where it lands).
#[test]
fn a_drawn_card_is_left_out_where_it_is_hidden() {
    let rules = Rules::from_source("draw.rcy", DRAW).expect("compiles");
    let state = start(&rules, 1);
    let seen = state.observe(0);
    let draw = &seen.moves[0];
    assert_eq!(draw.text, "move a card game STOCK -> p0 HAND");
    let Some(Step::Move { card, from, to }) = draw.steps.first() else {
        panic!("a move: {:?}", draw.steps);
    };
    assert_eq!(card, &None);
    assert_eq!(
        (from.owner.as_str(), from.location.as_str(), from.kind),
        ("game", "STOCK", PlaceKind::Hloc)
    );
    assert_eq!(
        (to.owner.as_str(), to.location.as_str(), to.kind),
        ("p0", "HAND", PlaceKind::Iloc)
    );
    let json = serde_json::to_string(&draw.steps[0]).expect("writes");
    assert!(!json.contains("card"), "{json}");
    let mv = state.legal_moves()[0].clone();
    let by_p0 = state.move_described_seen_by(&mv, 0);
    let by_p1 = state.move_described_seen_by(&mv, 1);
    let landed = |d: &cardboard::step::Described| match d.steps.first() {
        Some(Step::Move { card, .. }) => card.clone(),
        _ => panic!("a move: {:?}", d.steps),
    };
    let card = landed(&by_p0).expect("p0 sees the card it drew");
    assert_eq!(card.attrs.len(), 1);
    let words = |t: &str| t.split_whitespace().map(String::from).collect::<Vec<_>>();
    assert!(words(&by_p0.text).contains(&card.name));
    assert_eq!(landed(&by_p1), None);
    assert!(!words(&by_p1.text).contains(&card.name));
    // Playing a card of the hand: the rank set, then the card moved.
    let play = seen
        .moves
        .iter()
        .find(|m| m.text.starts_with("game LAST"))
        .expect("a play");
    match play.steps.as_slice() {
        [Step::Set {
            storage,
            value: SetValue::Text(rank),
        }, Step::Move {
            card: Some(c), to, ..
        }] => {
            assert_eq!(
                (storage.owner.as_str(), storage.kind, storage.name.as_str()),
                ("game", StorageKind::Str, "LAST")
            );
            assert_eq!(c.attrs.get("RANK"), Some(rank));
            assert_eq!(to.location, "PILE");
        }
        other => panic!("two steps: {other:?}"),
    }
}

/// Places a stone on any space of a grid (claiming it) or of a hex board.
const BOARDS: &str = "(game
 (setup (create players 2)
        (create board GRID (grid 3 4))
        (create board HEX (hex 3 3))
        (create deck (game vloc STONES) (deck (N (A, B, C, D)))))
 (stage player (end (== (size (game vloc STONES)) 0))
   (choice ((any (spaces GRID) 'S
                 (do ((set ('S sto CLAIM) 1)
                      (move (top (game vloc STONES)) (top ('S vloc STONE))))))
            (any (spaces HEX) 'S (move (top (game vloc STONES)) (top ('S vloc STONE)))))))
 (scoring max 0))";

/// Every space of a grid and of a hex board is offered once, by its
/// coordinates, which are those of its name (`GRID[r,c]`), for the place
/// a stone lands and the storage set there.
#[test]
fn board_spaces_come_with_their_coordinates() {
    let rules = Rules::from_source("boards.rcy", BOARDS).expect("compiles");
    let state = start(&rules, 1);
    let seen = state.observe(0);
    let mut grid = BTreeSet::new();
    let mut hex = BTreeSet::new();
    for m in &seen.moves {
        let (stone, claim) = match m.steps.as_slice() {
            [Step::Set { storage, value }, Step::Move { to, .. }] => {
                assert_eq!(value, &SetValue::Int(1));
                assert_eq!(storage.owner, to.owner);
                (to, storage.space.clone())
            }
            [Step::Move { to, .. }] => (to, None),
            other => panic!("unexpected steps {other:?}"),
        };
        let Some(SpaceAt { board, row, col }) = &stone.space else {
            panic!("no space: {m:?}");
        };
        assert_eq!(stone.owner, format!("{board}[{row},{col}]"));
        assert_eq!(stone.location, "STONE");
        match board.as_str() {
            "GRID" => {
                assert_eq!(claim.as_ref(), stone.space.as_ref());
                assert!(grid.insert((*row, *col)));
            }
            "HEX" => assert!(hex.insert((*row, *col))),
            other => panic!("board {other}"),
        }
    }
    let all = |rows: u32, cols: u32| -> BTreeSet<(u32, u32)> {
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .collect()
    };
    assert_eq!(grid, all(3, 4));
    assert_eq!(hex, all(3, 3));
    // The JSON of a step, as docs/protocol.md writes it.
    let m = seen
        .moves
        .iter()
        .find(|m| m.text.starts_with("GRID[2,3] CLAIM"))
        .expect("a claim of GRID[2,3]");
    let json = serde_json::to_string(&m.steps[0]).expect("writes");
    assert_eq!(
        json,
        r#"{"action":"set","storage":{"owner":"GRID[2,3]","kind":"sto","name":"CLAIM","space":{"board":"GRID","row":2,"col":3}},"value":1}"#
    );
}
