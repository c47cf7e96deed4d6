//! The screen of a game at a terminal, drawn from one seat's
//! [`Observation`] only (so it shows nothing that seat may not see), and
//! the reading of what the player types. `cardboard play` and the network
//! client of `cardboard join` share both.
//!
//! [`draw`] is the whole screen: whose turn it is, every owner's piles
//! (faces where the seat sees them, a count where it does not) and
//! storages, each board drawn as text ([`draw_board`]: a track as a list
//! of its spaces with their pieces, a grid or a hex board as a map of the
//! top piece on each space, with its facing when the rules keep one, and
//! a legend), and the numbered legal moves. [`read_input`] turns a typed
//! line into a move id or a command.
//!
//! ```
//! use cardboard::observation::MoveView;
//! use cardboard::play::screen::{read_input, Input};
//! let moves = vec![
//!     MoveView { id: 0, text: "move HEARTS-TWO p0 HAND -> p0 TRICK".into(), steps: vec![] },
//!     MoveView { id: 1, text: "move CLUBS-TEN p0 HAND -> p0 TRICK".into(), steps: vec![] },
//! ];
//! assert_eq!(read_input("1", &moves), Ok(Input::Move(1)));
//! assert_eq!(read_input("clubs-ten", &moves), Ok(Input::Move(1)));
//! assert!(read_input("7", &moves).unwrap_err().contains("no move 7"));
//! assert!(read_input("move", &moves).unwrap_err().contains("2 moves"));
//! ```

use crate::observation::{
    BoardView, GameStatus, LocationView, MoveView, Observation, OwnerView, StorageValue,
};
use std::collections::HashMap;
use std::fmt::Write as _;

/// Runs of equal cards listed in one pile; past these, a count of the
/// rest.
const SHOWN_CARDS: usize = 24;
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

/// What a typed line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// Play the legal move with this id.
    Move(usize),
    /// Show the help.
    Help,
    /// Show every pile and storage in full (point maps too).
    Look,
    /// Leave the game.
    Quit,
    /// Save the position now to this file.
    Save(String),
    /// Save the moves played so far to this file.
    Transcript(String),
}

/// The help shown for `help` (or `?`).
pub const HELP: &str = "\
Type the number of a move, or (part of) its words: `3`, `move CLUBS-TEN`.
Commands:
  look              every pile and storage in full
  save FILE         save the position (docs/positions.md) to FILE: it holds
                    every card, the hidden ones too
  transcript FILE   save the game's record so far to FILE (play it again: --moves FILE)
  help              this help
  quit              leave the game
";

/// Reads a typed line against the legal moves `moves`: a number (a
/// move's id), a move's words (its whole text, or words found in one move
/// only, case ignored), or a command (`help`, `look`, `quit`, `save
/// FILE`, `transcript FILE`). An `Err` says what is wrong, for the
/// prompt to be asked again.
pub fn read_input(line: &str, moves: &[MoveView]) -> Result<Input, String> {
    let line = line.trim();
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    match (word.to_ascii_lowercase().as_str(), rest.is_empty()) {
        ("", _) => return Err("type a move's number or words (`help` for more)".to_string()),
        ("help" | "?", true) => return Ok(Input::Help),
        ("look", true) => return Ok(Input::Look),
        ("quit" | "exit", true) => return Ok(Input::Quit),
        ("save", false) => return Ok(Input::Save(rest.to_string())),
        ("transcript", false) => return Ok(Input::Transcript(rest.to_string())),
        ("save" | "transcript", true) => return Err(format!("`{word}` needs a file name")),
        _ => {}
    }
    if moves.is_empty() {
        return Err("there is no move to make now".to_string());
    }
    if let Ok(n) = line.parse::<u64>() {
        return match moves.iter().find(|m| m.id as u64 == n) {
            Some(m) => Ok(Input::Move(m.id)),
            None => Err(format!(
                "there is no move {n}: the moves are numbered 0 to {}",
                moves.len() - 1
            )),
        };
    }
    if let Some(m) = moves.iter().find(|m| m.text == line) {
        return Ok(Input::Move(m.id));
    }
    let wanted = line.to_lowercase();
    let found: Vec<&MoveView> = (moves.iter())
        .filter(|m| m.text.to_lowercase().contains(&wanted))
        .collect();
    match found.as_slice() {
        [m] => Ok(Input::Move(m.id)),
        [] => Err(format!("`{line}` is not one of the moves")),
        many => Err(format!(
            "`{line}` is in {} moves: type more of it, or a number",
            many.len()
        )),
    }
}

/// The whole screen of `seen`: a title, every owner, every board, the
/// legal moves when the seat must decide, the result once the game ended.
pub fn draw(seen: &Observation) -> String {
    let mut out = title(seen);
    out.push_str(&draw_table(seen));
    if !seen.moves.is_empty() {
        out.push_str("\nYour moves:\n");
        out.push_str(&draw_moves(&seen.moves));
    }
    if seen.status != GameStatus::Running {
        out.push('\n');
        out.push_str(&draw_result(seen));
    }
    out
}

/// The title line: the seat, the decision, whose turn it is.
pub fn title(seen: &Observation) -> String {
    let turn = match &seen.status {
        GameStatus::Running if seen.turn == seen.seat => "your turn".to_string(),
        GameStatus::Running => format!("p{} to play", seen.turn),
        GameStatus::Finished => "the game is over".to_string(),
        GameStatus::Stopped(_) | GameStatus::Failed(_) => "the game stopped".to_string(),
    };
    format!(
        "=== you are p{} of {} · decision {} · {turn} ===\n",
        seen.seat, seen.players, seen.decision
    )
}

/// Every owner's piles and storages (point maps left out: see
/// [`draw_everything`]), then every board.
pub fn draw_table(seen: &Observation) -> String {
    let mut out = String::new();
    for owner in &seen.owners {
        out.push_str(&draw_owner(seen, owner, false));
    }
    for board in &seen.boards {
        out.push('\n');
        out.push_str(&draw_board(board, seen));
    }
    out
}

/// Every owner and every space with all its piles and storages, point maps
/// included (the `look` command).
pub fn draw_everything(seen: &Observation) -> String {
    let mut out = String::new();
    let spaces = seen.boards.iter().flat_map(|b| &b.spaces);
    for owner in seen.owners.iter().chain(spaces.map(|s| &s.contents)) {
        out.push_str(&draw_owner(seen, owner, true));
    }
    out
}

/// One owner: its name (`(you)`, `(your team)` marked), its piles, its
/// storages.
fn draw_owner(seen: &Observation, owner: &OwnerView, points: bool) -> String {
    let mut out = String::new();
    let me = format!("p{}", seen.seat);
    let mine = owner.owner == me
        || (owner.owner.strip_prefix("team"))
            .and_then(|t| t.parse::<usize>().ok())
            .and_then(|t| seen.teams.get(t))
            .is_some_and(|m| m.len() > 1 && m.contains(&seen.seat));
    let mark = match (owner.owner == me, mine) {
        (true, _) => " (you)",
        (false, true) => " (your team)",
        _ => "",
    };
    let _ = writeln!(out, "{}{mark}:", owner.owner);
    for l in &owner.locations {
        let _ = writeln!(out, "  {}: {}", l.name, pile(l));
    }
    let mut values = Vec::new();
    for s in &owner.storages {
        match &s.value {
            StorageValue::Int(v) => values.push(format!("{} = {v}", s.name)),
            StorageValue::Text(v) => values.push(format!("{} = {v}", s.name)),
            StorageValue::Points(awards) if points => {
                let list: Vec<String> = (awards.iter())
                    .map(|a| {
                        let when: Vec<String> =
                            a.when.iter().map(|(k, v)| format!("{k} {v}")).collect();
                        format!("{}: {}", when.join(" "), a.points)
                    })
                    .collect();
                values.push(format!("{} points: {}", s.name, list.join(", ")));
            }
            StorageValue::Points(_) => {}
        }
    }
    if !values.is_empty() {
        let _ = writeln!(out, "  {}", values.join(", "));
    }
    out
}

/// A pile: its cards top first (runs of equal names as `NAME x3`), or
/// how many cards lie face down.
fn pile(l: &LocationView) -> String {
    let Some(cards) = &l.cards else {
        let s = if l.count == 1 { "" } else { "s" };
        return format!("{} card{s}, face down ({})", l.count, l.kind);
    };
    let mut runs: Vec<(&str, usize)> = Vec::new();
    for c in cards {
        match runs.last_mut() {
            Some((name, n)) if *name == c.name => *n += 1,
            _ => runs.push((&c.name, 1)),
        }
    }
    let mut words: Vec<String> = (runs.iter().take(SHOWN_CARDS))
        .map(|(name, n)| match n {
            1 => name.to_string(),
            n => format!("{name} x{n}"),
        })
        .collect();
    if runs.len() > SHOWN_CARDS {
        let rest: usize = runs[SHOWN_CARDS..].iter().map(|(_, n)| n).sum();
        words.push(format!("... ({rest} more)"));
    }
    words.join(" ")
}

/// A board as text: a track as a list of its spaces with what lies on
/// them; a grid (or hex board, each row shifted half a cell) as a map of
/// the top piece of each space (`.` for an empty space, `?` for one whose
/// cards lie face down), a piece's facing as an arrow after it when some
/// owner's string storages name the piece and a direction, and a legend
/// of the short names.
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
                .map(|l| format!("{} {}", l.name, pile(l)))
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
    for space in &board.spaces {
        let Some(top) = space.contents.locations.last() else {
            continue;
        };
        let cell = match top.cards.as_ref().and_then(|c| c.first()) {
            Some(card) => {
                let mut label = labels.of(&card.name);
                if let Some(arrow) = facings.get(card.name.as_str()) {
                    label.push(*arrow);
                }
                label
            }
            None => "?".to_string(),
        };
        cells.insert((space.row, space.col), cell);
    }
    let mut width = cells
        .values()
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
    // A hexagon's corners and a graph's cells without a point are blank.
    let side = board.rows.div_ceil(2);
    let exists = |r: u32, c: u32| match board.shape.as_str() {
        "hexagon" => r + c + 1 >= side && r + c + 3 <= 3 * side,
        "graph" => board.points.iter().any(|p| (p.row, p.col) == (r, c)),
        _ => true,
    };
    let _ = write!(out, "     ");
    for c in 0..board.cols.min(200) {
        let _ = write!(out, "{c:<width$}");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for r in 0..board.rows.min(200) {
        let shift = if hex {
            " ".repeat(r as usize * width / 2)
        } else {
            String::new()
        };
        let _ = write!(out, "{r:>3}  {shift}");
        for c in 0..board.cols.min(200) {
            let empty = if exists(r, c) { "." } else { " " };
            let cell = cells.get(&(r, c)).map_or(empty, String::as_str);
            let _ = write!(out, "{cell:<width$}");
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    let legend = labels.legend();
    if !legend.is_empty() {
        let _ = writeln!(out, "  ({legend})");
    }
    out
}

/// A storage as a word of a track's line (`SCORE = 3`); point maps none.
fn storage_word(s: &crate::observation::StorageView) -> Option<String> {
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

/// Short names for the cards drawn on a map, each given once.
#[derive(Default)]
struct Labels {
    /// Full name to short name, in the order given.
    given: Vec<(String, String)>,
}

impl Labels {
    /// The short name of `name`: itself when at most 3 characters, else
    /// the initials of its parts (`HEARTS-KING` is `HK`), made longer or
    /// numbered when another name has it.
    fn of(&mut self, name: &str) -> String {
        if let Some((_, s)) = self.given.iter().find(|(n, _)| n == name) {
            return s.clone();
        }
        let taken = |s: &str, given: &[(String, String)]| given.iter().any(|(_, g)| g == s);
        let parts: Vec<&str> = name.split('-').filter(|p| !p.is_empty()).collect();
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
        if name.chars().count() <= 3 {
            candidates.insert(0, name.to_string());
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
        self.given.push((name.to_string(), short.clone()));
        short
    }

    /// `HK = HEARTS-KING, ...` for the short names that differ from
    /// their card's name.
    fn legend(&self) -> String {
        let parts: Vec<String> = (self.given.iter())
            .filter(|(n, s)| n != s)
            .map(|(n, s)| format!("{s} = {n}"))
            .collect();
        parts.join(", ")
    }
}

/// The numbered moves, one a line (`  3: move CLUBS-TEN p0 HAND -> ...`).
pub fn draw_moves(moves: &[MoveView]) -> String {
    let mut out = String::new();
    for m in moves {
        let _ = writeln!(out, "  {:>2}: {}", m.id, m.text);
    }
    out
}

/// How the game ended: scores and winners, or why it stopped.
pub fn draw_result(seen: &Observation) -> String {
    draw_result_for(seen, Some(seen.seat))
}

/// [`draw_result`] told to `reader` (`None`: to nobody in particular, as
/// to several people at one terminal or to nobody: no "you win").
pub fn draw_result_for(seen: &Observation, reader: Option<usize>) -> String {
    match (&seen.status, &seen.outcome) {
        (GameStatus::Finished, Some(o)) => {
            let scores: Vec<String> = (o.scores.iter().enumerate())
                .map(|(p, s)| format!("p{p} {s}"))
                .collect();
            let winners: Vec<String> = o.winners.iter().map(|p| format!("p{p}")).collect();
            let you = match reader.is_some_and(|r| o.winners.contains(&r)) {
                true => " (you win)",
                false => "",
            };
            format!(
                "Scores: {}\nWinners: {}{you}\n",
                scores.join(", "),
                winners.join(", ")
            )
        }
        (GameStatus::Stopped(why), _) => format!("The engine stopped the game: {why}\n"),
        (GameStatus::Failed(why), _) => format!("A rules error stopped the game: {why}\n"),
        _ => String::new(),
    }
}
