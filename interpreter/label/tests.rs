//! The labels, targets and cards of moves from their steps.

use super::*;
use crate::observation::{OwnerView, SpaceView, StorageView};
use crate::step::{SpaceAt, StorageKind, TurnWhen};
use std::collections::BTreeMap;

fn place(owner: &str, location: &str, kind: PlaceKind) -> Place {
    Place {
        owner: owner.into(),
        location: location.into(),
        kind,
        space: None,
    }
}

fn space(board: &str, row: u32, col: u32) -> Place {
    Place {
        owner: format!("{board}[{row},{col}]"),
        location: "STONE".into(),
        kind: PlaceKind::Vloc,
        space: Some(SpaceAt {
            board: board.into(),
            row,
            col,
        }),
    }
}

fn card(name: &str, attrs: &[(&str, &str)]) -> CardView {
    CardView {
        name: name.into(),
        attrs: attrs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
    }
}

fn set_on(row: u32, col: u32, value: i64) -> Step {
    Step::Set {
        storage: StorageAt {
            owner: format!("BOARD[{row},{col}]"),
            kind: StorageKind::Sto,
            name: "DISC".into(),
            space: Some(SpaceAt {
                board: "BOARD".into(),
                row,
                col,
            }),
        },
        value: SetValue::Int(value),
    }
}

fn suits() -> DisplayView {
    let look = |label: Option<&str>, symbol: Option<&str>, color: Option<&str>| Appearance {
        label: label.map(Into::into),
        symbol: symbol.map(Into::into),
        color: color.map(Into::into),
        piece: None,
    };
    let mut d = DisplayView::default();
    d.attributes.insert(
        "SUIT".into(),
        BTreeMap::from([("HEARTS".into(), look(None, Some("♥"), Some("red")))]),
    );
    d.attributes.insert(
        "RANK".into(),
        BTreeMap::from([("ACE".into(), look(Some("A"), None, None))]),
    );
    d.card = Some(crate::observation::CardFaceView {
        corner: Some("RANK".into()),
        center: Some("SUIT".into()),
    });
    d.places.insert("TRICK".into(), "Trick".into());
    d.players = vec!["North".into(), "East".into()];
    d
}

#[test]
fn coordinates_count_columns_in_letters_and_rows_from_one() {
    assert_eq!(coordinate(0, 0), "A1");
    assert_eq!(coordinate(0, 2), "C1");
    assert_eq!(coordinate(7, 25), "Z8");
    assert_eq!(coordinate(0, 26), "AA1");
    assert_eq!(coordinate(0, 51), "AZ1");
    assert_eq!(coordinate(0, 52), "BA1");
}

#[test]
fn a_card_played_is_named_with_its_destination_and_leaves_its_place() {
    let hand = place("p0", "HAND", PlaceKind::Iloc);
    let steps = vec![
        Step::Set {
            storage: StorageAt {
                owner: "game".into(),
                kind: StorageKind::Str,
                name: "LEADSUIT".into(),
                space: None,
            },
            value: SetValue::Text("HEARTS".into()),
        },
        Step::Move {
            card: Some(card("HEARTS-ACE", &[("SUIT", "HEARTS"), ("RANK", "ACE")])),
            from: hand.clone(),
            to: place("p0", "TRICK", PlaceKind::Vloc),
        },
    ];
    let shown = present(&steps, "text", &Context::new(0));
    assert_eq!(shown.label, "HEARTS-ACE -> TRICK");
    assert_eq!(shown.target.as_ref(), Some(&hand));
    assert_eq!(
        shown.card.as_ref().map(|c| c.name.as_str()),
        Some("HEARTS-ACE")
    );
    // With a display section: the card's face, the place's name.
    let d = suits();
    let cx = Context {
        display: Some(&d),
        ..Context::new(0)
    };
    assert_eq!(present(&steps, "text", &cx).label, "A♥ -> Trick");
    // Another seat's place carries its owner's name.
    let cx = Context {
        display: Some(&d),
        ..Context::new(1)
    };
    assert_eq!(present(&steps, "text", &cx).label, "A♥ -> North Trick");
}

#[test]
fn a_hidden_card_is_never_named() {
    let steps = vec![Step::Move {
        card: None,
        from: place("game", "DECK", PlaceKind::Hloc),
        to: place("p1", "HAND", PlaceKind::Iloc),
    }];
    let shown = present(&steps, "move a card game DECK -> p1 HAND", &Context::new(0));
    assert_eq!(shown.label, "a card -> p1 HAND");
    assert_eq!(shown.card, None);
    let d = suits();
    let cx = Context {
        display: Some(&d),
        phrase: Some("draw {card} to {to}"),
        ..Context::new(0)
    };
    assert_eq!(present(&steps, "", &cx).label, "draw a card to East HAND");
}

#[test]
fn a_piece_placed_on_a_board_is_its_space() {
    let steps = vec![Step::Move {
        card: Some(card("BLACK", &[("COLOR", "BLACK")])),
        from: place("game", "BLACK", PlaceKind::Vloc),
        to: space("GRID", 2, 2),
    }];
    let shown = present(&steps, "", &Context::new(0));
    assert_eq!(shown.label, "BLACK -> C3");
    assert_eq!(shown.target, Some(space("GRID", 2, 2)));
    // A piece moved from space to space names both; its target is where
    // it stands.
    let steps = vec![Step::Move {
        card: Some(card("MAN", &[])),
        from: space("GRID", 5, 0),
        to: space("GRID", 4, 1),
    }];
    let shown = present(&steps, "", &Context::new(0));
    assert_eq!(shown.label, "MAN A6 -> B5");
    assert_eq!(shown.target, Some(space("GRID", 5, 0)));
}

#[test]
fn a_storage_set_on_an_empty_space_is_the_placing_one() {
    // Discs turned over first, the disc placed last (as Othello's rules
    // write it): the space that held nothing is where the move acts.
    let steps = vec![set_on(3, 3, 1), set_on(3, 4, 1), set_on(3, 5, 1)];
    let board = BoardView {
        name: "BOARD".into(),
        shape: "grid".into(),
        rows: 8,
        cols: 8,
        spaces: [(3, 3), (3, 4)]
            .iter()
            .map(|&(row, col)| SpaceView {
                row,
                col,
                contents: OwnerView {
                    owner: format!("BOARD[{row},{col}]"),
                    storages: vec![StorageView {
                        kind: "sto".into(),
                        name: "DISC".into(),
                        value: StorageValue::Int(2),
                    }],
                    ..OwnerView::default()
                },
            })
            .collect(),
        ..BoardView::default()
    };
    let boards = [board];
    let cx = Context {
        boards: &boards,
        ..Context::new(0)
    };
    let shown = present(&steps, "", &cx);
    assert_eq!(shown.label, "DISC at F4");
    assert_eq!(
        shown.target.and_then(|t| t.space).map(|s| (s.row, s.col)),
        Some((3, 5))
    );
    // Without the boards, the first space set.
    assert_eq!(present(&steps, "", &Context::new(0)).label, "DISC at D4");
    // With a look for the value.
    let mut d = DisplayView::default();
    let disc = Appearance {
        piece: Some("disc".into()),
        color: Some("black".into()),
        ..Appearance::default()
    };
    d.storages
        .insert("DISC".into(), BTreeMap::from([("1".into(), disc)]));
    let cx = Context {
        display: Some(&d),
        boards: &boards,
        ..Context::new(0)
    };
    assert_eq!(present(&steps, "", &cx).label, "black disc at F4");
    let cx = Context {
        phrase: Some("{player} plays {value} at {at}"),
        ..cx
    };
    assert_eq!(present(&steps, "", &cx).label, "p0 plays black disc at F4");
}

#[test]
fn a_storage_emptied_on_one_space_and_set_on_an_empty_one_is_a_piece_moved() {
    // A piece written as a storage (as chess and Morris write theirs):
    // set on the empty D5, emptied on D4 that held it.
    let steps = vec![set_on(4, 3, 1), set_on(3, 3, 0)];
    let board = BoardView {
        name: "BOARD".into(),
        shape: "grid".into(),
        rows: 8,
        cols: 8,
        spaces: vec![SpaceView {
            row: 3,
            col: 3,
            contents: OwnerView {
                owner: "BOARD[3,3]".into(),
                storages: vec![StorageView {
                    kind: "sto".into(),
                    name: "DISC".into(),
                    value: StorageValue::Int(1),
                }],
                ..OwnerView::default()
            },
        }],
        ..BoardView::default()
    };
    let boards = [board];
    let cx = Context {
        boards: &boards,
        ..Context::new(0)
    };
    let shown = present(&steps, "", &cx);
    assert_eq!(shown.label, "DISC D4 -> D5");
    assert_eq!(
        shown.target.and_then(|t| t.space).map(|s| (s.row, s.col)),
        Some((3, 3))
    );
    // A space emptied that held nothing moves nothing.
    let steps = vec![set_on(4, 3, 1), set_on(6, 6, 0)];
    assert_eq!(present(&steps, "", &cx).label, "DISC at D5");
}

#[test]
fn other_moves_are_their_first_step_or_their_text() {
    let komi = Step::Set {
        storage: StorageAt {
            owner: "game".into(),
            kind: StorageKind::Sto,
            name: "TWICEKOMI".into(),
            space: None,
        },
        value: SetValue::Int(5),
    };
    let shown = present(std::slice::from_ref(&komi), "", &Context::new(0));
    assert_eq!(
        (shown.label.as_str(), shown.target),
        ("TWICEKOMI = 5", None)
    );
    let cx = Context {
        phrase: Some("komi {value} (halves)"),
        ..Context::new(0)
    };
    assert_eq!(present(&[komi], "", &cx).label, "komi 5 (halves)");
    assert_eq!(
        present(&[Step::Pass], "pass", &Context::new(0)).label,
        "pass"
    );
    let turn = Step::Turn {
        player: 1,
        when: TurnWhen::Next,
    };
    assert_eq!(
        present(&[turn], "", &Context::new(0)).label,
        "p1 plays next"
    );
    assert_eq!(present(&[], "option 2", &Context::new(0)).label, "option 2");
    // A placeholder the move gives nothing for.
    let cx = Context {
        phrase: Some("play {card}"),
        ..Context::new(0)
    };
    assert_eq!(present(&[Step::Pass], "", &cx).label, "play ?");
}

#[test]
fn a_value_with_a_look_is_its_look() {
    let mut d = DisplayView::default();
    let half = Appearance {
        label: Some("2.5".into()),
        ..Appearance::default()
    };
    d.storages
        .insert("TWICEKOMI".into(), BTreeMap::from([("5".into(), half)]));
    let cx = Context {
        display: Some(&d),
        ..Context::new(0)
    };
    let set = Step::Set {
        storage: StorageAt {
            owner: "game".into(),
            kind: StorageKind::Sto,
            name: "TWICEKOMI".into(),
            space: None,
        },
        value: SetValue::Int(5),
    };
    assert_eq!(present(std::slice::from_ref(&set), "", &cx).label, "2.5");
}

#[test]
fn a_card_played_off_the_board_is_followed_by_what_moves_on_it() {
    let steps = vec![
        Step::Move {
            card: Some(card("SPADES-TEN", &[("SUIT", "SPADES")])),
            from: place("p0", "HAND", PlaceKind::Iloc),
            to: place("game", "DISCARD", PlaceKind::Vloc),
        },
        Step::Move {
            card: Some(card("GREEN", &[("COLOR", "GREEN")])),
            from: space("TRACK", 0, 0),
            to: space("TRACK", 0, 4),
        },
    ];
    let shown = present(&steps, "", &Context::new(0));
    assert_eq!(shown.label, "SPADES-TEN -> DISCARD, GREEN A1 -> E1");
    assert_eq!(shown.target, Some(place("p0", "HAND", PlaceKind::Iloc)));
    assert_eq!(shown.card.map(|c| c.name), Some("SPADES-TEN".into()));
}

#[test]
fn a_capture_is_followed_by_the_piece_that_moves() {
    let steps = vec![
        Step::Move {
            card: Some(card("WHITE-MAN", &[])),
            from: space("GRID", 4, 1),
            to: place("game", "TAKEN", PlaceKind::Vloc),
        },
        Step::Move {
            card: Some(card("BLACK-MAN", &[])),
            from: space("GRID", 3, 0),
            to: space("GRID", 5, 2),
        },
    ];
    let shown = present(&steps, "", &Context::new(0));
    assert_eq!(shown.label, "WHITE-MAN B5 -> TAKEN, BLACK-MAN A4 -> C6");
    assert_eq!(shown.target, Some(space("GRID", 3, 0)));
}
