//! Moves as people read them: a move's short label, the place it acts
//! first (its click target) and the card it plays, worked out from the
//! steps the engine already writes ([`crate::step`]) and the rules' display
//! section ([`DisplayView`]), by pure functions. The full text stays what
//! it is (records replay by it); the label is only shown.
//!
//! The words (docs/protocol.md, "Labels and targets"):
//! - a card moved: `CARD -> PLACE`, from a space `CARD C3 -> D4`;
//! - a storage set on a space that held nothing (a piece placed):
//!   `WHAT at C4` (`WHAT` the value's look, or the storage's name); when
//!   the move sets the same storage to 0 on a space that held it, a
//!   piece moved from there: `WHAT B2 -> C4`, its target that space;
//! - else a storage set on a space: the same words;
//! - else a storage set: `NAME = VALUE` (owner first when it is not the
//!   game's nor the mover's), or the value's look alone when it has one;
//! - a label made off the board is followed by `, ` and the label of the
//!   move's first step on a board, if it has one (`10♠ -> Discards, green
//!   disc A1 -> B1`); a card taken off a board first (a capture) by the
//!   first card moved from space to space, which is then the target;
//! - else the first step as the text writes it (`pass`), or the text.
//!
//! A space is written by its coordinates: its column as letters from `A`
//! (column 0; `Z`, then `AA`), its row as a number from 1 (row 0):
//! `GRID[0,2]` is `C1` ([`coordinate`]); a graph board's point by its
//! name, a track's space by its number (`TRACK[3]` is `3`). A card the reader may not see is
//! `a card` (its step has no card: it is never named).
//!
//! ```
//! use cardboard::label::{coordinate, present, Context};
//! use cardboard::step::{Place, PlaceKind, Step};
//!
//! assert_eq!(coordinate(0, 2), "C1");
//! assert_eq!(coordinate(9, 27), "AB10");
//! let hand = Place { owner: "p0".into(), location: "HAND".into(), kind: PlaceKind::Iloc, space: None };
//! let pile = Place { owner: "game".into(), location: "PILE".into(), kind: PlaceKind::Vloc, space: None };
//! let step = Step::Move { card: None, from: hand.clone(), to: pile };
//! let shown = present(&[step], "move a card p0 HAND -> game PILE", &Context::new(0));
//! assert_eq!(shown.label, "a card -> PILE");
//! assert_eq!(shown.target, Some(hand));
//! ```

use crate::observation::{Appearance, BoardView, CardView, DisplayView, Observation, StorageValue};
use crate::step::{Place, PlaceKind, SetValue, SpaceAt, Step, StorageAt};

/// What a label is worked out from besides the steps.
#[derive(Clone, Copy, Debug)]
pub struct Context<'a> {
    /// The display section, if the rules have one.
    pub display: Option<&'a DisplayView>,
    /// The author's phrase for the move's choice, if any.
    pub phrase: Option<&'a str>,
    /// The seat that plays the move (its own places are named without
    /// owner).
    pub mover: usize,
    /// The boards as they stand before the move (to tell a piece placed
    /// on an empty space from a piece turned over); empty when unknown.
    pub boards: &'a [BoardView],
}

impl<'a> Context<'a> {
    /// No display, no phrase, no boards: the labels of a bare game.
    pub fn new(mover: usize) -> Context<'a> {
        Context {
            display: None,
            phrase: None,
            mover,
            boards: &[],
        }
    }
}

/// A move as it is shown.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Presented {
    /// The short label.
    pub label: String,
    /// Where the move acts first.
    pub target: Option<Place>,
    /// The card it plays, when the reader may see it.
    pub card: Option<CardView>,
}

/// A space as a label writes it: a graph board's point by its name, a
/// track's space by its number (from 0), any other space by its
/// [`coordinate`].
fn space_words(space: &SpaceAt, cx: &Context) -> String {
    let board = cx.boards.iter().find(|b| b.name == space.board);
    let point = board.filter(|b| b.shape == "graph").and_then(|b| {
        b.points
            .iter()
            .find(|p| (p.row, p.col) == (space.row, space.col))
    });
    match point {
        Some(p) => p.name.clone(),
        // A track's space by its number, as both renderers draw it.
        None if board.is_some_and(|b| b.shape == "track") => space.col.to_string(),
        None => coordinate(space.row, space.col),
    }
}

/// A space's coordinates: column letters from `A`, row number from 1.
pub fn coordinate(row: u32, col: u32) -> String {
    let mut letters = Vec::new();
    let mut c = col as u64 + 1;
    while c > 0 {
        let rem = ((c - 1) % 26) as u8;
        letters.push((b'A' + rem) as char);
        c = (c - 1) / 26;
    }
    letters.iter().rev().collect::<String>() + &(row as u64 + 1).to_string()
}

/// How one value looks, in words: its label, else its colour and piece
/// (`black disc`), else its symbol.
pub fn look_words(a: &Appearance) -> Option<String> {
    if let Some(l) = &a.label {
        return Some(l.clone());
    }
    let words: Vec<&str> = [a.color.as_deref(), a.piece.as_deref()]
        .into_iter()
        .flatten()
        .filter(|w| !w.starts_with("seat"))
        .collect();
    if a.piece.is_some() && !words.is_empty() {
        return Some(words.join(" "));
    }
    a.symbol.clone()
}

/// A card's short name when the display section gives its face: the
/// looks of its corner and centre attributes (each a label, else a
/// symbol, else colour and piece, else the value), written together when
/// both are short (`A♥`), else with a space (`black man`); a card with
/// neither attribute, the look of its first attribute that has one
/// (`green disc`). Else (no face, no look) its name.
pub fn card_name(card: &CardView, display: Option<&DisplayView>) -> String {
    let Some(d) = display else {
        return card.name.clone();
    };
    let look = |key: &str| d.attributes.get(key)?.get(card.attrs.get(key)?);
    let look_of = |key: &str| -> Option<String> {
        let value = card.attrs.get(key)?;
        let words =
            look(key).and_then(|a| (a.label.clone()).or(a.symbol.clone()).or(look_words(a)));
        Some(words.unwrap_or(value.clone()))
    };
    let face = d.card.as_ref();
    let keys = face.map(|f| [f.corner.as_deref(), f.center.as_deref()]);
    let parts: Vec<String> = (keys.into_iter().flatten().flatten())
        .filter_map(look_of)
        .collect();
    match parts.as_slice() {
        [] => (card.attrs.keys())
            .find(|k| look(k).is_some())
            .and_then(|k| look_of(k))
            .unwrap_or_else(|| card.name.clone()),
        [a, b] if a.chars().count() <= 3 && b.chars().count() <= 3 => format!("{a}{b}"),
        _ => parts.join(" "),
    }
}

/// A seat's name: the display's, else `pN`.
pub fn player_name(seat: usize, display: Option<&DisplayView>) -> String {
    (display.and_then(|d| d.players.get(seat).cloned())).unwrap_or_else(|| format!("p{seat}"))
}

/// An owner as a prefix: none for the game and the mover, a player's
/// name, or the owner as written.
fn owner_prefix(owner: &str, cx: &Context) -> Option<String> {
    if owner == "game" || owner == format!("p{}", cx.mover) {
        return None;
    }
    match owner
        .strip_prefix('p')
        .and_then(|n| n.parse::<usize>().ok())
    {
        Some(seat) => Some(player_name(seat, cx.display)),
        None => Some(owner.to_string()),
    }
}

/// A place: a space's coordinates, or the location's shown name with its
/// owner when that is not the game nor the mover.
fn place_name(p: &Place, cx: &Context) -> String {
    if let Some(s) = &p.space {
        return space_words(s, cx);
    }
    let name = (cx.display.and_then(|d| d.places.get(&p.location).cloned()))
        .unwrap_or_else(|| p.location.clone());
    match owner_prefix(&p.owner, cx) {
        Some(o) => format!("{o} {name}"),
        None => name,
    }
}

fn value_text(v: &SetValue) -> String {
    match v {
        SetValue::Int(i) => i.to_string(),
        SetValue::Text(t) => t.clone(),
    }
}

/// A storage's value in words: its look, or the value.
fn value_words(storage: &StorageAt, v: &SetValue, cx: &Context) -> String {
    let look = cx
        .display
        .and_then(|d| d.storages.get(&storage.name)?.get(&value_text(v)));
    look.and_then(look_words).unwrap_or_else(|| value_text(v))
}

/// Whether a space's storage holds something now (0 and empty do not).
fn held(space: &SpaceAt, name: &str, boards: &[BoardView]) -> bool {
    let board = boards.iter().find(|b| b.name == space.board);
    let sv = board.and_then(|b| {
        b.spaces
            .iter()
            .find(|s| (s.row, s.col) == (space.row, space.col))
    });
    sv.is_some_and(|s| {
        s.contents
            .storages
            .iter()
            .any(|st| st.name == name && !matches!(&st.value, StorageValue::Int(0)))
    })
}

/// A storage on a space as a place (its name as the location; storages
/// are seen by all).
fn storage_place(s: &StorageAt) -> Place {
    Place {
        owner: s.owner.clone(),
        location: s.name.clone(),
        kind: PlaceKind::Vloc,
        space: s.space.clone(),
    }
}

/// Whether a step acts on a board (a card moved from or to a space, a
/// storage of a space set).
fn on_board(s: &Step) -> bool {
    match s {
        Step::Move { from, to, .. } => from.space.is_some() || to.space.is_some(),
        Step::Set { storage, .. } => storage.space.is_some(),
        _ => false,
    }
}

/// Whether a step takes a card off a board.
fn taken_off(s: &Step) -> bool {
    matches!(s, Step::Move { from, to, .. } if from.space.is_some() && to.space.is_none())
}

/// Whether a step moves a card from a space to a space.
fn across(s: &Step) -> bool {
    matches!(s, Step::Move { from, to, .. } if from.space.is_some() && to.space.is_some())
}

/// The step a label is made from (module doc), by index.
fn main_step(steps: &[Step], cx: &Context) -> Option<usize> {
    let on_space = |s: &Step| matches!(s, Step::Set { storage, .. } if storage.space.is_some());
    let placed = |s: &Step| match s {
        Step::Set { storage, .. } => storage
            .space
            .as_ref()
            .is_some_and(|sp| !held(sp, &storage.name, cx.boards)),
        _ => false,
    };
    let first_move = steps.iter().position(|s| matches!(s, Step::Move { .. }));
    let first_placed = if cx.boards.is_empty() {
        None
    } else {
        steps.iter().position(placed)
    };
    [first_move, first_placed]
        .into_iter()
        .flatten()
        .min()
        .or_else(|| steps.iter().position(on_space))
        .or_else(|| steps.iter().position(|s| matches!(s, Step::Set { .. })))
        .or_else(|| (!steps.is_empty()).then_some(0))
}

/// The label, target and card of a move from its steps (`text` when
/// it has none), as the module doc says.
pub fn present(steps: &[Step], text: &str, cx: &Context) -> Presented {
    let main = main_step(steps, cx).and_then(|i| steps.get(i));
    let mut out = Presented::default();
    let mut words = Fill::default();
    match main {
        Some(Step::Move { card, from, to }) => {
            let name = card
                .as_ref()
                .map_or("a card".to_string(), |c| card_name(c, cx.display));
            let placing = to.space.is_some() && from.space.is_none();
            out.target = Some(if placing { to.clone() } else { from.clone() });
            out.card = card.clone();
            out.label = match &from.space {
                Some(_) => format!("{name} {} -> {}", place_name(from, cx), place_name(to, cx)),
                None => format!("{name} -> {}", place_name(to, cx)),
            };
            words.card = Some(name);
            words.from = Some(place_name(from, cx));
            words.to = Some(place_name(to, cx));
        }
        Some(Step::Set { storage, value }) => {
            let what = value_words(storage, value, cx);
            words.value = Some(what.clone());
            match &storage.space {
                Some(sp) => {
                    let look = cx
                        .display
                        .and_then(|d| d.storages.get(&storage.name)?.get(&value_text(value)));
                    let shown = look.and_then(look_words).unwrap_or(storage.name.clone());
                    // The same storage emptied (set to 0) on another space
                    // that held it: the piece moved from there.
                    let vacated = steps.iter().find_map(|s| match s {
                        Step::Set {
                            storage: st,
                            value: SetValue::Int(0),
                        } if st.name == storage.name => {
                            let o = st.space.as_ref()?;
                            (o != sp && held(o, &st.name, cx.boards)).then_some(st)
                        }
                        _ => None,
                    });
                    match vacated.and_then(|st| Some((st, st.space.as_ref()?))) {
                        Some((st, o)) => {
                            let (from, to) = (space_words(o, cx), space_words(sp, cx));
                            out.label = format!("{shown} {from} -> {to}");
                            out.target = Some(storage_place(st));
                            words.from = Some(from);
                            words.to = Some(to);
                        }
                        None => {
                            out.label = format!("{shown} at {}", space_words(sp, cx));
                            out.target = Some(storage_place(storage));
                        }
                    }
                }
                None => {
                    let name = match owner_prefix(&storage.owner, cx) {
                        Some(o) => format!("{o} {}", storage.name),
                        None => storage.name.clone(),
                    };
                    let look = cx
                        .display
                        .and_then(|d| d.storages.get(&storage.name)?.get(&value_text(value)));
                    out.label = match look.and_then(look_words) {
                        Some(words) => words,
                        None => format!("{name} = {what}"),
                    };
                }
            }
        }
        Some(step) => out.label = step.to_string(),
        None => out.label = text.to_string(),
    }
    // Off the board first (a card discarded), then on it (a token moved):
    // both, the board's first. A piece taken off the board first (a
    // capture), then one moved on it: both, the target the piece moving.
    let later = main_step(steps, cx).map_or(0, |i| i + 1);
    let rest = || steps.iter().skip(later);
    let then = match main {
        Some(m) if !on_board(m) => rest().find(|s| on_board(s)),
        Some(m) if taken_off(m) => rest().find(|s| across(s)),
        _ => None,
    };
    if let Some(step) = then {
        let alone = Context {
            phrase: None,
            ..*cx
        };
        let then = present(std::slice::from_ref(step), "", &alone);
        out.label = format!("{}, {}", out.label, then.label);
        if main.is_some_and(taken_off) {
            out.target = then.target;
        }
    }
    if let Some(t) = &out.target {
        words.at = t.space.as_ref().map(|s| space_words(s, cx));
    }
    if words.value.is_none() {
        words.value = steps.iter().find_map(|s| match s {
            Step::Set { storage, value } => Some(value_words(storage, value, cx)),
            _ => None,
        });
    }
    words.player = Some(player_name(cx.mover, cx.display));
    if let Some(phrase) = cx.phrase {
        out.label = words.fill(phrase);
    }
    out
}

/// The values a phrase's placeholders take.
#[derive(Default)]
struct Fill {
    card: Option<String>,
    from: Option<String>,
    to: Option<String>,
    at: Option<String>,
    value: Option<String>,
    player: Option<String>,
}

impl Fill {
    /// The phrase with each `{key}` replaced (`?` where the move gives
    /// nothing for it).
    fn fill(&self, phrase: &str) -> String {
        let mut out = String::new();
        let mut rest = phrase;
        while let Some(open) = rest.find('{') {
            out.push_str(&rest[..open]);
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                out.push_str(&rest[open..]);
                return out;
            };
            let value = match &after[..close] {
                "card" => &self.card,
                "from" => &self.from,
                "to" => &self.to,
                "at" => &self.at,
                "value" => &self.value,
                "player" => &self.player,
                _ => &None,
            };
            out.push_str(value.as_deref().unwrap_or("?"));
            rest = &after[close + 1..];
        }
        out.push_str(rest);
        out
    }
}

/// Fills the label, target and card of every move of `seen`, a seat's
/// observation (its display and boards as they stand), with `phrase`,
/// the author's phrase for the decision's choice.
pub fn label_moves(seen: &mut Observation, phrase: Option<&str>) {
    let Observation {
        moves,
        display,
        boards,
        seat,
        ..
    } = seen;
    let cx = Context {
        display: display.as_ref(),
        phrase,
        mover: *seat,
        boards,
    };
    for m in moves.iter_mut() {
        let shown = present(&m.steps, &m.text, &cx);
        m.label = shown.label;
        m.target = shown.target;
        m.card = shown.card;
    }
}

#[cfg(test)]
mod tests;
