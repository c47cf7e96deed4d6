//! A board as text ([`draw_board`]): a track as a list of its spaces and
//! what lies on them; a grid or a hex board as a map with coordinates
//! (columns `A`, `B`... from the left, rows `1`, `2`... from the top, as
//! move labels name spaces), one mark per space, then every other thing
//! on a space in a line of its own, and a legend of the marks.

use super::names::{appearance_text, card_text, column_letters, coordinates, place_name};
use super::names::{storage_look, DEFAULT_GLYPHS};
use super::{pile, wrap, WIDTH};
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
/// A storage held by more spaces than this is drawn as a map of its own
/// rather than space by space.
const LAYER_SPACES: usize = 6;

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
            let first = format!("  {:>3}: ", space.col);
            out.push_str(&wrap(&piles.join(" | "), WIDTH, &first, "       "));
        }
        return out;
    }
    let title = format!(
        "{} ({} x {} {}{wraps}):",
        board.name, board.rows, board.cols, board.shape
    );
    let facings = facings(seen);
    let mut labels = Labels::default();
    let layers = layers(board, seen);
    let mut cells: HashMap<(u32, u32), String> = HashMap::new();
    let mut rest: Vec<String> = Vec::new();
    let mut maps: Vec<Vec<String>> = Vec::new();
    for space in &board.spaces {
        let (cell, others) = mark(space, seen, &facings, &mut labels, &layers);
        if let Some(cell) = cell {
            cells.insert((space.row, space.col), cell);
        }
        if !others.is_empty() {
            let first = format!("  {}: ", coordinates(space.row, space.col));
            rest.push(wrap(&others.join(" | "), WIDTH, &first, "      "));
        }
    }
    maps.push(map(board, &cells, &title));
    // A storage many spaces hold: a map of its own beside the board.
    let mut values = Labels::default();
    for name in &layers {
        let mut layer: HashMap<(u32, u32), String> = HashMap::new();
        for space in &board.spaces {
            let held = space.contents.storages.iter().find(|s| &s.name == name);
            if let Some(s) = held {
                let cell = match &s.value {
                    StorageValue::Int(v) => v.to_string(),
                    StorageValue::Text(v) => values.of(v, v),
                    StorageValue::Points(_) => continue,
                };
                layer.insert((space.row, space.col), cell);
            }
        }
        maps.push(map(board, &layer, &format!("{name}:")));
    }
    out.push_str(&beside(&maps, WIDTH));
    for lines in rest {
        out.push_str(&lines);
    }
    let legend = labels.legend();
    if !legend.is_empty() {
        out.push_str(&wrap(&format!("({legend})"), WIDTH, "  ", "   "));
    }
    let legend = values.legend();
    if !legend.is_empty() {
        out.push_str(&wrap(&format!("({legend})"), WIDTH, "  ", "   "));
    }
    out
}

/// The names of the integer and string storages held by more spaces of
/// `board` than [`LAYER_SPACES`], each drawn as a map of its own, but for
/// those drawn as pieces (every value has a piece and no space holding
/// one has cards).
fn layers(board: &BoardView, seen: &Observation) -> Vec<String> {
    // Name, spaces holding it, whether it is drawn as pieces.
    let mut counts: Vec<(String, usize, bool)> = Vec::new();
    for space in &board.spaces {
        let bare = space.contents.locations.is_empty();
        for s in &space.contents.storages {
            if matches!(s.value, StorageValue::Points(_)) {
                continue;
            }
            let pieces = bare && piece(s, seen).is_some();
            match counts.iter_mut().find(|(n, _, _)| *n == s.name) {
                Some((_, k, p)) => {
                    *k += 1;
                    *p &= pieces;
                }
                None => counts.push((s.name.clone(), 1, pieces)),
            }
        }
    }
    (counts.into_iter())
        .filter(|(_, k, pieces)| *k > LAYER_SPACES && !pieces)
        .map(|(n, _, _)| n)
        .collect()
}

/// A map of `board` with coordinates, `cells` drawn on it (`.` where
/// none, blank where the board has no space: a hexagon's corners, a
/// graph's cells without a point), titled `title`, as lines.
fn map(board: &BoardView, cells: &HashMap<(u32, u32), String>, title: &str) -> Vec<String> {
    // A hexagon's rows slant and a graph's points have names: their
    // spaces are not read off letters above and numbers beside, so each
    // empty space shows its own name (a graph's point, a hexagon's
    // coordinates), as the move labels write it.
    let side = board.rows.div_ceil(2);
    let name = |r: u32, c: u32| -> Option<String> {
        match board.shape.as_str() {
            "hexagon" => (r + c + 1 >= side && r + c + 3 <= 3 * side)
                .then(|| format!("{}{}", column_letters(c), r as u64 + 1)),
            "graph" => board
                .points
                .iter()
                .find(|p| (p.row, p.col) == (r, c))
                .map(|p| p.name.clone()),
            _ => Some(".".to_string()),
        }
    };
    let named = board.shape == "hexagon" || board.shape == "graph";
    let rows = board.rows.min(MAX_SIDE);
    let cols = board.cols.min(MAX_SIDE);
    let names: HashMap<(u32, u32), String> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter_map(|(r, c)| Some(((r, c), name(r, c)?)))
        .collect();
    let mut width = (cells.values().chain(names.values()))
        .map(|c| c.chars().count())
        .max()
        .unwrap_or(1)
        .max(2)
        + 1;
    let hex = board.shape == "hex" || board.shape == "hexagon";
    if hex {
        // Each row half a cell to the right of the row above.
        width += width % 2;
    }
    let margin = if named {
        2
    } else {
        (rows as u64).to_string().len().max(2) + 2
    };
    let mut lines = vec![title.to_string()];
    if !named {
        let mut head = " ".repeat(margin);
        for c in 0..cols {
            let _ = write!(head, "{:<width$}", column_letters(c));
        }
        lines.push(head.trim_end().to_string());
    }
    for r in 0..rows {
        let shift = match board.shape.as_str() {
            "hex" => " ".repeat(r as usize * width / 2),
            // A hexagon's middle row starts at the left.
            "hexagon" => {
                " ".repeat((r as i64 - (side as i64 - 1)).unsigned_abs() as usize * width / 2)
            }
            _ => String::new(),
        };
        let mut line = match named {
            true => format!("  {shift}"),
            false => format!("{:>w$}  {shift}", r as u64 + 1, w = margin - 2),
        };
        for c in 0..cols {
            let blank = names.get(&(r, c)).map_or(" ", String::as_str);
            if board.shape == "hexagon" && blank == " " {
                // The corners outside the hexagon take no room.
                continue;
            }
            let cell = cells.get(&(r, c)).map_or(blank, String::as_str);
            let _ = write!(line, "{cell:<width$}");
        }
        lines.push(line.trim_end().to_string());
    }
    lines
}

/// Blocks of lines side by side, as many a row as fit in `width`
/// columns, rows of blocks one under the other.
fn beside(blocks: &[Vec<String>], width: usize) -> String {
    let mut out = String::new();
    let widest = |b: &Vec<String>| b.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let mut i = 0;
    while i < blocks.len() {
        let mut row = vec![i];
        let mut used = widest(&blocks[i]);
        while let Some(next) = blocks.get(row.len() + i) {
            if used + 3 + widest(next) > width {
                break;
            }
            used += 3 + widest(next);
            row.push(row.len() + i);
        }
        let height = row.iter().map(|&k| blocks[k].len()).max().unwrap_or(0);
        for line in 0..height {
            let mut text = String::new();
            for (n, &k) in row.iter().enumerate() {
                let part = blocks[k].get(line).map_or("", String::as_str);
                if n + 1 < row.len() {
                    let w = widest(&blocks[k]) + 3;
                    let _ = write!(text, "{part:<w$}");
                } else {
                    text.push_str(part);
                }
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
        i += row.len();
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
    layers: &[String],
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
        if cell.is_none() && !layers.contains(&s.name) {
            if let Some(piece) = piece(s, seen) {
                cell = Some(labels.of(&piece, &format!("{} {}", s.name, value_text(s))));
                continue;
            }
        }
        if !layers.contains(&s.name) {
            others.extend(storage_word(s));
        }
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
