//! A board as text ([`draw_board`]): a track as a list of its spaces and
//! what lies on them; a grid or a hex board as a map with coordinates
//! (columns `A`, `B`... from the left, rows `1`, `2`... from the top, as
//! move labels name spaces), one mark per space, then every other thing
//! on a space in a line of its own, and a legend of the marks.

use super::names::{appearance_text, card_text, column_letters, coordinates, place_name};
use super::names::{storage_look, DEFAULT_GLYPHS};
use super::pile;
use crate::observation::{BoardView, Observation, SpaceView, StorageValue, StorageView};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Direction words a string storage may hold (a piece's facing).
const DIRECTIONS: [(&str, char); 10] = [
    ("N", '^'),
    ("S", 'v'),
    ("E", '>'),
    ("W", '<'),
    ("NE", '/'),
    ("SW", '/'),
    ("NW", '\\'),
    ("SE", '\\'),
    ("NEXT", '>'),
    ("PREV", '<'),
];

/// The widest map drawn (columns and rows); a larger board is drawn up
/// to it.
const MAX_SIDE: u32 = 200;

/// A board as text: a track as a list of its spaces with what lies on
/// them; a grid (or hex board, each row shifted half a cell) as a map
/// with coordinates of the mark of each space: its top card (`.` for an
/// empty space, `?` for one whose cards lie face down), with its facing
/// as an arrow when some owner's string storages name the card and a
/// direction, or else a piece for a storage value (the display section's
/// look, or by default a glyph for an integer from 1 to 8: `●` for 1,
/// `○` for 2...); then the rest of each space (`C4: HEIGHT = 12`), and a
/// legend of the marks.
pub fn draw_board(board: &BoardView, seen: &Observation) -> String {
    let mut out = String::new();
    let wraps = match (board.wrap_rows, board.wrap_cols) {
        (true, true) => ", rows and columns wrap",
        (true, false) => ", rows wrap",
        (false, true) => ", columns wrap",
        _ => "",
    };
    if board.shape == "track" {
        let _ = writeln!(out, "{} (a track of {}):", board.name, board.cols);
        for space in &board.spaces {
            let piles: Vec<String> = (space.contents.locations.iter())
                .map(|l| format!("{} {}", place_name(seen, &l.name), pile(l, seen)))
                .chain(space.contents.storages.iter().filter_map(storage_word))
                .collect();
            let _ = writeln!(out, "  {:>3}: {}", space.col, piles.join(" | "));
        }
        return out;
    }
    let _ = writeln!(
        out,
        "{} ({} x {} {}{wraps}):",
        board.name, board.rows, board.cols, board.shape
    );
    let facings = facings(seen);
    let mut labels = Labels::default();
    let mut cells: HashMap<(u32, u32), String> = HashMap::new();
    let mut rest: Vec<String> = Vec::new();
    for space in &board.spaces {
        let (cell, others) = mark(space, seen, &facings, &mut labels);
        if let Some(cell) = cell {
            cells.insert((space.row, space.col), cell);
        }
        if !others.is_empty() {
            rest.push(format!(
                "  {}: {}",
                coordinates(space.row, space.col),
                others.join(" | ")
            ));
        }
    }
    let mut width = cells
        .values()
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1)
        .max(2)
        + 1;
    if board.shape == "hex" {
        // Each row half a cell to the right of the row above.
        width += width % 2;
    }
    let rows = board.rows.min(MAX_SIDE);
    let cols = board.cols.min(MAX_SIDE);
    let margin = (rows as u64).to_string().len().max(2) + 2;
    let _ = write!(out, "{:margin$}", "");
    for c in 0..cols {
        let _ = write!(out, "{:<width$}", column_letters(c));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for r in 0..rows {
        let shift = if board.shape == "hex" {
            " ".repeat(r as usize * width / 2)
        } else {
            String::new()
        };
        let _ = write!(out, "{:>w$}  {shift}", r as u64 + 1, w = margin - 2);
        for c in 0..cols {
            let cell = cells.get(&(r, c)).map_or(".", String::as_str);
            let _ = write!(out, "{cell:<width$}");
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    for line in rest {
        let _ = writeln!(out, "{line}");
    }
    let legend = labels.legend();
    if !legend.is_empty() {
        let _ = writeln!(out, "  ({legend})");
    }
    out
}

/// The mark of a space on the map (none when nothing is drawn there) and
/// what else lies on it, in words.
fn mark(
    space: &SpaceView,
    seen: &Observation,
    facings: &HashMap<&str, char>,
    labels: &mut Labels,
) -> (Option<String>, Vec<String>) {
    let contents = &space.contents;
    let mut others = Vec::new();
    let mut cell = None;
    // The top card of the last location, as the map shows it.
    if let Some(top) = contents.locations.last() {
        cell = Some(match top.cards.as_ref().and_then(|c| c.first()) {
            Some(card) => {
                let mut label = labels.of(&card_text(card, seen.display.as_ref()), &card.name);
                if let Some(arrow) = facings.get(card.name.as_str()) {
                    label.push(*arrow);
                }
                label
            }
            None => "?".to_string(),
        });
    }
    let last = contents.locations.len().saturating_sub(1);
    for (i, l) in contents.locations.iter().enumerate() {
        // The one card the map shows says it all.
        if i == last && l.count == 1 {
            continue;
        }
        others.push(format!("{} {}", place_name(seen, &l.name), pile(l, seen)));
    }
    for s in &contents.storages {
        if cell.is_none() {
            if let Some(piece) = piece(s, seen) {
                cell = Some(labels.of(&piece, &format!("{} {}", s.name, value_text(s))));
                continue;
            }
        }
        others.extend(storage_word(s));
    }
    (cell, others)
}

/// The piece a storage is drawn as on a space: the display section's
/// look for its value, or by default a glyph for an integer from 1 to 8.
fn piece(s: &StorageView, seen: &Observation) -> Option<String> {
    let value = value_text(s);
    if let Some(look) = storage_look(seen, &s.name, &value) {
        return appearance_text(look);
    }
    match &s.value {
        StorageValue::Int(v) if (1..=8).contains(v) => {
            Some(DEFAULT_GLYPHS[(*v - 1) as usize].to_string())
        }
        _ => None,
    }
}

/// A storage's value as text (a point map's number of awards).
fn value_text(s: &StorageView) -> String {
    match &s.value {
        StorageValue::Int(v) => v.to_string(),
        StorageValue::Text(v) => v.clone(),
        StorageValue::Points(a) => format!("{} awards", a.len()),
    }
}

/// A storage in words (`SCORE = 3`); point maps none.
pub(super) fn storage_word(s: &StorageView) -> Option<String> {
    match &s.value {
        StorageValue::Int(v) => Some(format!("{} = {v}", s.name)),
        StorageValue::Text(v) => Some(format!("{} = {v}", s.name)),
        StorageValue::Points(_) => None,
    }
}

/// Pieces' facings: for every owner whose string storages hold a
/// direction word (`N`, `SE`, `NEXT`...) and other words, each of those
/// other words (a piece's name, e.g. `R0`) faces that direction (the
/// first such storage's).
fn facings(seen: &Observation) -> HashMap<&str, char> {
    let mut out = HashMap::new();
    let spaces = seen.boards.iter().flat_map(|b| &b.spaces);
    for owner in seen.owners.iter().chain(spaces.map(|s| &s.contents)) {
        let words: Vec<&str> = (owner.storages.iter())
            .filter_map(|s| match &s.value {
                StorageValue::Text(v) => Some(v.as_str()),
                _ => None,
            })
            .collect();
        let arrow = words
            .iter()
            .find_map(|w| DIRECTIONS.iter().find(|(d, _)| d == w).map(|(_, a)| *a));
        if let Some(arrow) = arrow {
            for w in words {
                if !DIRECTIONS.iter().any(|(d, _)| *d == w) {
                    out.entry(w).or_insert(arrow);
                }
            }
        }
    }
    out
}

/// Short marks for what the map draws, each given once.
#[derive(Default)]
struct Labels {
    /// What is marked (a card's name, a storage and value) to its mark,
    /// in the order given.
    given: Vec<(String, String)>,
}

impl Labels {
    /// The mark of `what`, drawn as `face`: the face itself when at most
    /// 3 characters, else the initials of its parts (`HEARTS-KING` is
    /// `HK`), made longer or numbered when another thing has it.
    fn of(&mut self, face: &str, what: &str) -> String {
        if let Some((_, s)) = self.given.iter().find(|(n, _)| n == what) {
            return s.clone();
        }
        let taken = |s: &str, given: &[(String, String)]| given.iter().any(|(_, g)| g == s);
        let parts: Vec<&str> = face.split('-').filter(|p| !p.is_empty()).collect();
        let initials: String = parts
            .iter()
            .filter_map(|p| p.chars().next())
            .take(3)
            .collect();
        let longer: String = (parts.iter())
            .flat_map(|p| p.chars().take(2))
            .take(4)
            .collect();
        let mut candidates = vec![initials.clone(), longer];
        if face.chars().count() <= 3 {
            candidates.insert(0, face.to_string());
        }
        let short = candidates
            .into_iter()
            .find(|c| !c.is_empty() && !taken(c, &self.given))
            .unwrap_or_else(|| {
                (2..)
                    .map(|k| format!("{initials}{k}"))
                    .find(|c| !taken(c, &self.given))
                    .unwrap_or_default()
            });
        self.given.push((what.to_string(), short.clone()));
        short
    }

    /// `HK = HEARTS-KING, ● = DISC 1...` for the marks that differ from
    /// what they mark.
    fn legend(&self) -> String {
        let parts: Vec<String> = (self.given.iter())
            .filter(|(n, s)| n != s)
            .map(|(n, s)| format!("{s} = {n}"))
            .collect();
        parts.join(", ")
    }
}
