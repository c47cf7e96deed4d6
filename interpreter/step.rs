//! A move as data: the steps it takes (a card moved from one place to
//! another, a storage set, a pile shuffled, a turn passed...), each with
//! what it moves or sets, from where and to where, a board's space by its
//! row and column. The engine writes them from the same replay of the move
//! that writes its text ([`crate::game::GameState::moves_described_for`]):
//! a move's text is its steps written out ([`steps_text`]) and joined by
//! `; `, and a card the reader may not see is left out of its step exactly
//! where its text says `a card`. The JSON shape is documented in
//! `docs/protocol.md` ("A move's steps").
//!
//! ```
//! use cardboard::step::{steps_text, Place, PlaceKind, Step};
//!
//! let hand = Place { owner: "p0".into(), location: "HAND".into(), kind: PlaceKind::Iloc, space: None };
//! let pile = Place { owner: "game".into(), location: "PILE".into(), kind: PlaceKind::Vloc, space: None };
//! let step = Step::Move { card: None, from: hand, to: pile };
//! assert_eq!(steps_text(&[step.clone()]), "move a card p0 HAND -> game PILE");
//! let json = serde_json::to_string(&step).unwrap();
//! assert_eq!(json, r#"{"action":"move","from":{"owner":"p0","location":"HAND","kind":"iloc"},"to":{"owner":"game","location":"PILE","kind":"vloc"}}"#);
//! assert_eq!(serde_json::from_str::<Step>(&json).unwrap(), step);
//! ```

use crate::observation::CardView;
use serde::{Deserialize, Serialize};
use std::fmt;

/// One step of a move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Step {
    /// A card moved: `move CARD FROM -> TO`.
    Move {
        /// The card, when the reader may see it (absent: `a card`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<CardView>,
        /// Where it lay.
        from: Place,
        /// Where it lands.
        to: Place,
    },
    /// A copy of a card put in a `mem` location: `remember CARD in TO`.
    Remember {
        /// The card, when the reader may see it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<CardView>,
        /// The memory location.
        to: Place,
    },
    /// A copy taken out of a location: `forget CARD from FROM`.
    Forget {
        /// The card, when the reader may see it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<CardView>,
        /// The location it leaves.
        from: Place,
    },
    /// A location shuffled: `shuffle AT`.
    Shuffle {
        /// The location.
        at: Place,
    },
    /// A storage set (by `set`, `inc` or `dec`): `OWNER NAME = VALUE`.
    Set {
        /// The storage.
        storage: StorageAt,
        /// Its new value: a number (`sto`) or a string (`str`).
        value: SetValue,
    },
    /// The player cycle turned: `pN plays next` (after this turn) or
    /// `pN plays now`.
    Turn {
        /// The seat that plays.
        player: usize,
        /// `next` or `now`.
        when: TurnWhen,
    },
    /// The turn passed: `pass`.
    Pass,
    /// A move of very many steps is written up to a bound (1,000 steps),
    /// then `and N more`.
    More {
        /// The steps left out.
        count: u64,
    },
}

/// When a [`Step::Turn`] takes effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TurnWhen {
    /// After the current turn (`cycle next`).
    Next,
    /// At once (`cycle current`).
    Now,
}

/// A location: its owner and name (as texts write them: `p0 HAND`,
/// `GRID[2,5] STONE`, `game mem LEAD`), its kind, and its space when the
/// owner is a space of a board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// `game`, `p0`.., `team0`.., or a space's name (`GRID[2,5]`,
    /// `TRACK[3]`).
    pub owner: String,
    /// The location's name.
    pub location: String,
    /// Who sees its faces: `vloc`, `iloc`, `hloc`, `oloc` or `mem`.
    pub kind: PlaceKind,
    /// The owner's place on its board, when the owner is a space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space: Option<SpaceAt>,
}

/// The kind of a location, as the rules write it (who sees its faces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlaceKind {
    /// Everyone.
    Vloc,
    /// Its owner (a team's: the team's members).
    Iloc,
    /// Nobody.
    Hloc,
    /// Everyone but its owner.
    Oloc,
    /// Everyone (copies of cards).
    Mem,
}

/// The kind of a storage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StorageKind {
    /// An integer.
    Sto,
    /// A string.
    Str,
}

/// A space of a board by its coordinates.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceAt {
    /// The board's name.
    pub board: String,
    /// The row: 0 is the top row (always 0 on a track). On a hex board
    /// the first of its two axial coordinates.
    pub row: u32,
    /// The column: 0 is the left one (a track's index). On a hex board
    /// the second axial coordinate.
    pub col: u32,
}

/// A storage: its owner, kind and name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StorageAt {
    /// `game`, `p0`.., `team0`.., or a space's name.
    pub owner: String,
    /// `sto` (an integer) or `str` (a string).
    pub kind: StorageKind,
    /// The storage's name.
    pub name: String,
    /// The owner's place on its board, when the owner is a space.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub space: Option<SpaceAt>,
}

/// The value a [`Step::Set`] gives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum SetValue {
    /// An integer storage's value.
    Int(i64),
    /// A string storage's value.
    Text(String),
}

/// A move as a reader may know it: its text and its steps, made by the
/// same replay.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Described {
    /// The move's text (equal texts among a decision's moves told apart
    /// with ` (#k)`).
    pub text: String,
    /// Its steps, in the order they happen (empty when the game gives
    /// none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<Step>,
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            PlaceKind::Mem => write!(f, "{} mem {}", self.owner, self.location),
            _ => write!(f, "{} {}", self.owner, self.location),
        }
    }
}

/// A card's name, or `a card` when it is hidden from the reader.
fn card(card: &Option<CardView>) -> &str {
    card.as_ref().map_or("a card", |c| c.name.as_str())
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Move { card: c, from, to } => write!(f, "move {} {from} -> {to}", card(c)),
            Step::Remember { card: c, to } => write!(f, "remember {} in {to}", card(c)),
            Step::Forget { card: c, from } => write!(f, "forget {} from {from}", card(c)),
            Step::Shuffle { at } => write!(f, "shuffle {at}"),
            Step::Set { storage, value } => {
                write!(f, "{} {} = ", storage.owner, storage.name)?;
                match value {
                    SetValue::Int(v) => write!(f, "{v}"),
                    SetValue::Text(v) => write!(f, "{v}"),
                }
            }
            Step::Turn { player, when } => {
                let when = match when {
                    TurnWhen::Next => "next",
                    TurnWhen::Now => "now",
                };
                write!(f, "p{player} plays {when}")
            }
            Step::Pass => write!(f, "pass"),
            Step::More { count } => write!(f, "and {count} more"),
        }
    }
}

/// A move's text from its steps: each written out, joined by `; `.
pub fn steps_text(steps: &[Step]) -> String {
    let mut out = String::new();
    for (i, s) in steps.iter().enumerate() {
        if i > 0 {
            out.push_str("; ");
        }
        use fmt::Write as _;
        let _ = write!(out, "{s}");
    }
    out
}
