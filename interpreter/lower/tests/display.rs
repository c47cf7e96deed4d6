//! The display section and `announce`: what they compile to.

use super::{errors, game, ok};
use crate::ir::{Action, AnnouncePart, StageItem};

#[test]
fn a_display_section_is_kept_with_its_looks_and_phrases() {
    let p = ok(&game(
        "(choice PLAY ((any (game vloc DECK) 'C (move 'C (top ((current player) vloc HAND))))))
         (do ((set (game sto DISC) 1)))
         (display (players \"North\" East 3)
                  (place HAND \"Hand\")
                  (storage DISC 1 (piece disc) (color seat1))
                  (attribute SUIT HEARTS (symbol \"♥\") (color red))
                  (card (corner RANK) (center SUIT))
                  (phrase PLAY \"take {card}\"))",
    ));
    let d = p.display.expect("a display");
    assert_eq!(d.view.players, ["North", "East", "3"]);
    assert_eq!(d.view.places["HAND"], "Hand");
    let disc = &d.view.storages["DISC"]["1"];
    assert_eq!(
        (disc.piece.as_deref(), disc.color.as_deref()),
        (Some("disc"), Some("seat1"))
    );
    assert_eq!(
        d.view.attributes["SUIT"]["HEARTS"].symbol.as_deref(),
        Some("♥")
    );
    let face = d.view.card.expect("a face");
    assert_eq!(
        (face.corner.as_deref(), face.center.as_deref()),
        (Some("RANK"), Some("SUIT"))
    );
    assert_eq!(d.phrases, [("PLAY".to_string(), "take {card}".to_string())]);
    // Without one, none.
    assert!(ok(&game("(do ((turn pass)))")).display.is_none());
}

#[test]
fn announce_keeps_its_parts_in_order() {
    let p = ok(&game(
        "(do ((announce (current player) \"takes\" (top (game vloc DECK)) 3 (cardatt SUIT (top (game vloc DECK))))))",
    ));
    let Some(StageItem::Run(condact)) = p.body.first() else {
        panic!("{:?}", p.body.first())
    };
    let Action::Do(condacts) = &condact.action else {
        panic!("{:?}", condact.action)
    };
    let Action::Announce(parts) = &condacts[0].action else {
        panic!("{:?}", condacts[0].action)
    };
    let kinds: Vec<&str> = parts
        .iter()
        .map(|part| match part {
            AnnouncePart::Text(_) => "text",
            AnnouncePart::Int(_) => "int",
            AnnouncePart::Str(_) => "str",
            AnnouncePart::Player(_) => "player",
            AnnouncePart::Team(_) => "team",
            AnnouncePart::Card(_) => "card",
        })
        .collect();
    assert_eq!(kinds, ["player", "text", "card", "int", "str"]);
}

#[test]
fn a_second_display_and_a_text_where_a_value_goes_are_errors() {
    let e = errors(&game(
        "(do ((turn pass))) (display (players A)) (display (players B))",
    ));
    assert!(e.iter().any(|m| m.contains("second `(display")), "{e:?}");
    let e = errors(&game("(do ((set (game sto X) \"three\")))"));
    assert!(!e.is_empty());
}
