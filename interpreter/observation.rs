//! What one seat sees of a game, as data: the structured observation of
//! [`GameState::observe`](crate::game::GameState::observe), serialized as
//! the JSON of `docs/protocol.md` and drawn as the text of
//! [`GameState::observation`](crate::game::GameState::observation).
//!
//! The types know no engine: owners, locations and spaces are named as
//! transcripts name them (`p0`, `HAND`, `GRID[2,5]`), cards by their
//! attribute values. A location whose faces the seat may not see has its
//! count only (`cards` absent); nothing else about its cards is here.
//!
//! ```
//! use cardboard::engine::{GameOptions, Rules};
//! use cardboard::game::GameState;
//!
//! let rules = Rules::from_source("hands.rcy", r#"
//!   (game
//!    (setup (create players 2)
//!           (create deck (game iloc STOCK) (deck (RANK (A, B, C, D)))))
//!    (do ((all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))
//!    (stage player (end (== (size (game vloc PILE)) 2))
//!      (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))
//!    (scoring max 0))"#).expect("valid rules");
//! let game = rules.start(&GameOptions { seed: 1, overrides: vec![] }).expect("starts");
//! let seen = game.observe(0);
//! let hand = |p: &str| seen.owners.iter().find(|o| o.owner == p).unwrap()
//!     .locations.iter().find(|l| l.name == "HAND").unwrap().clone();
//! assert_eq!(hand("p0").cards.as_ref().map(Vec::len), Some(1)); // its own hand
//! assert_eq!((hand("p1").count, hand("p1").cards.is_none()), (1, true)); // a count only
//! assert_eq!(seen.moves.len(), 1); // p0 to play: its legal moves, with ids
//! assert!(serde_json::to_string(&seen).unwrap().contains("\"seat\":0"));
//! ```

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The version of the observation's JSON shape (`docs/protocol.md`).
pub const OBSERVATION_VERSION: u32 = 1;

/// Everything one seat may see of a game at one moment.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Observation {
    /// The seat this is the observation of (counted from 0).
    pub seat: usize,
    /// The number of seats.
    pub players: usize,
    /// The seat whose turn it is (while the game runs), or was last.
    pub turn: usize,
    /// Decisions taken so far in the game (0 at the start).
    pub decision: u64,
    /// Whether the game runs, finished, or was stopped.
    pub status: GameStatus,
    /// The members of each team, in team order (empty without teams).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub teams: Vec<Vec<usize>>,
    /// The game, the players and the teams, in that order, each with its
    /// locations and storages as the seat sees them (an owner with
    /// nothing in them is left out).
    pub owners: Vec<OwnerView>,
    /// The boards, in the order the rules create them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boards: Vec<BoardView>,
    /// The legal moves, when the game runs and it is this seat's turn
    /// (empty otherwise).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub moves: Vec<MoveView>,
    /// Scores and winners, once the game finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<OutcomeView>,
    /// How the rules file asks things to be drawn (its display section),
    /// absent when it has none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display: Option<DisplayView>,
}

/// The display section of a rules file, as renderers read it: names for
/// the players and places, how storage values and card attributes look,
/// which attributes a card's face shows. Every part is optional; a
/// renderer falls back to its defaults for what is missing or unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct DisplayView {
    /// The players' names, seat 0 first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<String>,
    /// A location's name to the name shown for it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub places: BTreeMap<String, String>,
    /// A storage's name, then its value (as text), to its appearance.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub storages: BTreeMap<String, BTreeMap<String, Appearance>>,
    /// A card attribute's key, then its value, to its appearance.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, BTreeMap<String, Appearance>>,
    /// Which attributes a card's face shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<CardFaceView>,
}

/// How one value looks: a piece of a shape and colour, a symbol, a short
/// label (each optional).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Appearance {
    /// `disc`, `square`, `ring`, `cross`, `star` or `triangle`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
    /// A colour of the named palette, or `seat0`..`seat7`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<String>,
    /// A short symbol (one grapheme or two).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub symbol: Option<String>,
    /// A short label.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

/// The attributes a card's face shows in its corner and its centre.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardFaceView {
    /// The attribute key shown in the corner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub corner: Option<String>,
    /// The attribute key shown in the centre.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub center: Option<String>,
}

/// Where the game stands.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", content = "message", rename_all = "lowercase")]
pub enum GameStatus {
    /// A seat must decide (see [`Observation::turn`]).
    #[default]
    Running,
    /// The game ended; [`Observation::outcome`] has the result.
    Finished,
    /// The engine stopped the game past a limit (the message says which).
    Stopped(String),
    /// A rules error stopped the game (the message says where).
    Failed(String),
}

/// One owner (the game, a player, a team, or a space of a board) and what
/// the seat sees of it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnerView {
    /// `game`, `p0`.., `team0`.., or a space's name such as `GRID[2,5]`.
    pub owner: String,
    /// Its non-empty locations, in the order of the rules' location names.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub locations: Vec<LocationView>,
    /// Its storages that hold something (not 0, not empty), integers
    /// first, then strings, then point maps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub storages: Vec<StorageView>,
}

/// A pile of cards.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LocationView {
    /// The location's name, e.g. `HAND`.
    pub name: String,
    /// Its kind: `vloc`, `iloc`, `hloc`, `oloc` or `mem` (who sees faces).
    pub kind: String,
    /// How many cards it holds (always known).
    pub count: usize,
    /// Its cards, top first, when the seat may see their faces; absent
    /// when it may not (the count is all it knows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<Vec<CardView>>,
}

/// A card whose face the seat sees.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CardView {
    /// Its attribute values joined by `-`, as moves and transcripts write
    /// it (`TEN-HEARTS`; `#5` for a card without attributes).
    pub name: String,
    /// Its attributes, key to value (keys the card has no value for left
    /// out).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub attrs: BTreeMap<String, String>,
}

/// A storage and its value (storages are seen by everyone).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StorageView {
    /// `sto` (an integer), `str` (a string) or `points` (a point map).
    pub kind: String,
    /// The storage's name, e.g. `SCORE`.
    pub name: String,
    /// What it holds.
    pub value: StorageValue,
}

/// The value of a storage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum StorageValue {
    /// An integer storage (`sto`).
    Int(i64),
    /// A string storage (`str`).
    Text(String),
    /// A point map (`points`): its awards in order.
    Points(Vec<Award>),
}

/// One award of a point map: the points a card scores when it has every
/// attribute value of `when`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Award {
    /// Attribute key to value (`?` for a key no deck defines).
    pub when: BTreeMap<String, String>,
    /// The points.
    pub points: i64,
}

/// A board: its shape and the spaces that hold something.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardView {
    /// The board's name, e.g. `GRID`.
    pub name: String,
    /// `track`, `grid`, `hex`, `hexagon` or `graph`.
    pub shape: String,
    /// Rows (1 for a track).
    pub rows: u32,
    /// Columns (a track's length).
    pub cols: u32,
    /// Which edges are joined (grids and hex boards).
    #[serde(default, skip_serializing_if = "is_false")]
    pub wrap_rows: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub wrap_cols: bool,
    /// The spaces with cards or storages on them, in space order (row by
    /// row); a space not listed is empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spaces: Vec<SpaceView>,
    /// A graph's points, every one, in order (their number is their
    /// place here): name, row and column. Absent for other shapes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub points: Vec<PointView>,
    /// A graph's links, each once: two points by number and the direction
    /// from the first to the second, if it has one. Absent for other
    /// shapes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub links: Vec<LinkView>,
}

/// A point of a graph board.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointView {
    pub name: String,
    pub row: u32,
    pub col: u32,
}

/// A link of a graph board.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkView {
    pub from: u32,
    pub to: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// One space of a board and what lies on it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpaceView {
    /// Its row (0 on a track) and column (a track's index).
    pub row: u32,
    pub col: u32,
    /// The space as an owner: its name (`GRID[2,5]`, `TRACK[3]`), its
    /// pieces and cards, its storages (a robot's facing, a claim...).
    #[serde(flatten)]
    pub contents: OwnerView,
}

/// A legal move of the seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveView {
    /// Its index among the legal moves: the id a client answers with.
    pub id: usize,
    /// The move in words, as the seat may read it (a card it cannot see
    /// is written `a card`).
    pub text: String,
    /// What it does, step by step ([`crate::step::Step`]; a card the
    /// text writes `a card` is absent from its step). Empty for a game
    /// that gives no steps.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub steps: Vec<crate::step::Step>,
    /// The move as a person reads it, short (empty when the engine gives
    /// none: a renderer shows the text).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub label: String,
    /// Where the move acts first (the space it places on, the location a
    /// card it plays leaves), when it has such a place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<crate::step::Place>,
    /// The card it plays, when it plays one the seat may see.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub card: Option<CardView>,
}

/// The result of a finished game.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutcomeView {
    /// Each seat's score.
    pub scores: Vec<i64>,
    /// The seats sharing first place.
    pub winners: Vec<usize>,
}

impl Observation {
    /// The observation as text: a line naming the seat and whose turn it
    /// is, then [`Observation::table_text`].
    pub fn to_text(&self) -> String {
        let mut out = format!("p{} sees (p{} to play):\n", self.seat, self.turn);
        out.push_str(&self.table_text());
        out
    }

    /// Every owner, then every space of every board, with its locations
    /// (`  vloc PILE (3): A B C`, hidden faces as `hidden`) and storages
    /// (`  sto SCORE = 2`, `  str COLOR = RED`; point maps are not drawn).
    pub fn table_text(&self) -> String {
        let mut out = String::new();
        let spaces = self.boards.iter().flat_map(|b| &b.spaces);
        for owner in self.owners.iter().chain(spaces.map(|s| &s.contents)) {
            let mut lines = Vec::new();
            for l in &owner.locations {
                match &l.cards {
                    Some(cards) => {
                        let names: Vec<&str> = cards.iter().map(|c| c.name.as_str()).collect();
                        lines.push(format!(
                            "  {} {} ({}): {}",
                            l.kind,
                            l.name,
                            l.count,
                            names.join(" ")
                        ));
                    }
                    None => lines.push(format!("  {} {} ({}): hidden", l.kind, l.name, l.count)),
                }
            }
            for s in &owner.storages {
                match &s.value {
                    StorageValue::Int(v) => lines.push(format!("  sto {} = {v}", s.name)),
                    StorageValue::Text(v) => lines.push(format!("  str {} = {v}", s.name)),
                    StorageValue::Points(_) => {}
                }
            }
            if !lines.is_empty() {
                let _ = writeln!(out, "{}:", owner.owner);
                for l in lines {
                    let _ = writeln!(out, "{l}");
                }
            }
        }
        out
    }

    /// The owner named `name` (`game`, `p1`, `team0`, `GRID[2,5]`), if
    /// it has anything to show.
    pub fn owner(&self, name: &str) -> Option<&OwnerView> {
        let spaces = self.boards.iter().flat_map(|b| &b.spaces);
        self.owners
            .iter()
            .chain(spaces.map(|s| &s.contents))
            .find(|o| o.owner == name)
    }
}
