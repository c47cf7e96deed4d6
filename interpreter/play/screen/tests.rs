//! The screen with what the engine gives when it can (move labels, a
//! display section): labels shown and matched, players and places named,
//! storage values and cards drawn as the display section says.

use super::{draw, draw_everything, read_input, Input};
use crate::observation::Observation;

/// A small board game seen by p0, with labels and a display section.
fn seen() -> Observation {
    serde_json::from_str(
        r#"{
  "seat": 0, "players": 2, "turn": 0, "decision": 4,
  "status": {"state": "running"},
  "owners": [
    {"owner": "p0", "locations": [{"name": "HAND", "kind": "iloc", "count": 1,
      "cards": [{"name": "ACE-HEARTS", "attrs": {"RANK": "ACE", "SUIT": "HEARTS"}}]}]}
  ],
  "boards": [{"name": "BOARD", "shape": "grid", "rows": 3, "cols": 3, "spaces": [
    {"row": 0, "col": 2, "owner": "BOARD[0,2]", "storages": [{"kind": "sto", "name": "DISC", "value": 2}]},
    {"row": 1, "col": 1, "owner": "BOARD[1,1]", "storages": [{"kind": "sto", "name": "DISC", "value": 1}]}
  ]}],
  "moves": [
    {"id": 0, "text": "BOARD[1,2] DISC = 1; BOARD[0,2] DISC = 1", "label": "DISC at C2"},
    {"id": 1, "text": "move ACE-HEARTS p0 HAND -> game PILE", "label": "A♥ -> Pile"}
  ],
  "display": {
    "players": ["Black", "White"],
    "places": {"HAND": "Hand"},
    "storages": {"DISC": {"1": {"piece": "disc", "color": "black"}, "2": {"symbol": "W"}}},
    "attributes": {"SUIT": {"HEARTS": {"symbol": "♥", "color": "red"}}, "RANK": {"ACE": {"label": "A"}}},
    "card": {"corner": "RANK", "center": "SUIT"}
  }
}"#,
    )
    .expect("an observation")
}

#[test]
fn labels_and_the_display_section_are_what_a_person_reads() {
    let seen = seen();
    let screen = draw(&seen);
    assert!(screen.contains("you are p0 Black of 2"), "{screen}");
    assert!(screen.contains("p0 Black (you):\n  Hand: A♥\n"), "{screen}");
    // Row 1 at the top: C1 holds the value 2 (`W`), B2 the value 1 (`●`).
    assert!(screen.contains(" 1  .  .  W\n 2  .  ●  .\n"), "{screen}");
    assert!(
        screen.contains("   0: DISC at C2\n   1: A♥ -> Pile\n"),
        "{screen}"
    );
    assert!(!screen.contains("BOARD[1,2] DISC = 1"), "{screen}");
    // `look` has the whole text; a label is typed as a move's words.
    let full = draw_everything(&seen);
    assert!(
        full.contains("= BOARD[1,2] DISC = 1; BOARD[0,2] DISC = 1"),
        "{full}"
    );
    assert_eq!(read_input("disc at c2", &seen.moves), Ok(Input::Move(0)));
    assert_eq!(read_input("A♥ -> Pile", &seen.moves), Ok(Input::Move(1)));
}

#[test]
fn without_labels_nor_display_the_text_and_defaults_are_shown() {
    let mut seen = seen();
    seen.display = None;
    for m in &mut seen.moves {
        m.label.clear();
    }
    let screen = draw(&seen);
    assert!(
        screen.contains("p0 (you):\n  HAND: ACE-HEARTS\n"),
        "{screen}"
    );
    assert!(screen.contains(" 1  .  .  ○\n 2  .  ●  .\n"), "{screen}");
    assert!(screen.contains("(○ = DISC 2, ● = DISC 1)"), "{screen}");
    assert!(
        screen.contains("   0: BOARD[1,2] DISC = 1; BOARD[0,2] DISC = 1\n"),
        "{screen}"
    );
}
