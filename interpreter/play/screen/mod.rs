//! The screen of a game at a terminal, drawn from one seat's
//! [`Observation`] only (so it shows nothing that seat may not see), and
//! the reading of what the player types. `cardboard play` and the network
//! client of `cardboard join` share both.
//!
//! [`draw`] is the whole screen: whose turn it is, every owner's piles
//! (faces where the seat sees them, a count where it does not) and
//! storages, each board drawn as text ([`draw_board`], `board.rs`: a
//! track as a list of its spaces with what lies on them, a grid or a hex
//! board as a map with coordinates of the top piece on each space, a
//! storage's value drawn as a piece, the rest of each space in words, and
//! a legend), and the numbered legal moves by their labels
//! ([`draw_moves`], `moves.rs`: in columns, cut and folded when many).
//! What the display section of the rules says (names of players and
//! places, looks of values and cards) is used where given (`names.rs`).
//! Every line is broken between words ([`wrap`]), for
//! [`WIDTH`] columns. [`read_input`] turns a typed line into a move id or
//! a command.
//!
//! ```
//! use cardboard::observation::MoveView;
//! use cardboard::play::screen::{read_input, Input};
//! let moves = vec![
//!     MoveView { id: 0, text: "move HEARTS-TWO p0 HAND -> p0 TRICK".into(), ..MoveView::default() },
//!     MoveView { id: 1, text: "move CLUBS-TEN p0 HAND -> p0 TRICK".into(), ..MoveView::default() },
//! ];
//! assert_eq!(read_input("1", &moves), Ok(Input::Move(1)));
//! assert_eq!(read_input("clubs-ten", &moves), Ok(Input::Move(1)));
//! assert!(read_input("7", &moves).unwrap_err().contains("no move 7"));
//! assert!(read_input("move", &moves).unwrap_err().contains("2 moves"));
//! ```

mod board;
mod moves;
pub mod names;

#[cfg(test)]
mod tests;

pub use board::draw_board;
pub use moves::{draw_moves, draw_moves_in_full, move_words, wrap, WIDTH};

use crate::observation::{
    GameStatus, LocationView, MoveView, Observation, OwnerView, StorageValue,
};
use names::{card_text, place_name, player_name};
use std::fmt::Write as _;

/// Runs of equal cards listed in one pile; past these, a count of the
/// rest.
const SHOWN_CARDS: usize = 24;

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
  look              every pile and storage in full, and every move's whole text
  save FILE         save the position (docs/positions.md) to FILE: it holds
                    every card, the hidden ones too
  transcript FILE   save the game's record so far to FILE (play it again: --moves FILE)
  help              this help
  quit              leave the game
";

/// Reads a typed line against the legal moves `moves`: a number (a
/// move's id), a move's words (its whole text or label, or words found in
/// the text or label of one move only, case ignored), or a command (`help`, `look`, `quit`, `save
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
    if let Some(m) = moves.iter().find(|m| m.text == line || m.label == line) {
        return Ok(Input::Move(m.id));
    }
    let wanted = line.to_lowercase();
    let found: Vec<&MoveView> = (moves.iter())
        .filter(|m| {
            m.text.to_lowercase().contains(&wanted) || m.label.to_lowercase().contains(&wanted)
        })
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
    let mut out = draw_game(seen);
    if seen.status != GameStatus::Running {
        out.push('\n');
        out.push_str(&draw_result(seen));
    }
    out
}

/// [`draw`] without the result (a client told the result by a message of
/// its own shows it once).
pub fn draw_game(seen: &Observation) -> String {
    let mut out = title(seen);
    out.push_str(&draw_table(seen));
    if !seen.moves.is_empty() {
        out.push_str("\nYour moves:\n");
        out.push_str(&draw_moves(&seen.moves, WIDTH));
    }
    out
}

/// The title line: the seat, the decision, whose turn it is.
pub fn title(seen: &Observation) -> String {
    let turn = match &seen.status {
        GameStatus::Running if seen.turn == seen.seat => "your turn".to_string(),
        GameStatus::Running => format!("{} to play", player_name(seen, seen.turn)),
        GameStatus::Finished => "the game is over".to_string(),
        GameStatus::Stopped(_) | GameStatus::Failed(_) => "the game stopped".to_string(),
    };
    format!(
        "=== you are {} of {} · decision {} · {turn} ===\n",
        player_name(seen, seen.seat),
        seen.players,
        seen.decision
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
/// included, then every legal move's whole text (the `look` command).
pub fn draw_everything(seen: &Observation) -> String {
    let mut out = String::new();
    let spaces = seen.boards.iter().flat_map(|b| &b.spaces);
    for owner in seen.owners.iter().chain(spaces.map(|s| &s.contents)) {
        out.push_str(&draw_owner(seen, owner, true));
    }
    if !seen.moves.is_empty() {
        out.push_str("Your moves in full:\n");
        out.push_str(&draw_moves_in_full(&seen.moves, WIDTH));
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
    let name = match owner
        .owner
        .strip_prefix('p')
        .and_then(|n| n.parse::<usize>().ok())
    {
        Some(seat) => player_name(seen, seat),
        None => owner.owner.clone(),
    };
    let _ = writeln!(out, "{name}{mark}:");
    for l in &owner.locations {
        let first = format!("  {}: ", place_name(seen, &l.name));
        out.push_str(&wrap(&pile(l, seen), WIDTH, &first, "    "));
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
        out.push_str(&wrap(&values.join(", "), WIDTH, "  ", "    "));
    }
    out
}

/// A pile: its cards top first (runs of equal names as `NAME x3`, each
/// card's face in short when the display section gives one), or how many
/// cards lie face down.
fn pile(l: &LocationView, seen: &Observation) -> String {
    let Some(cards) = &l.cards else {
        let s = if l.count == 1 { "" } else { "s" };
        return format!("{} card{s}, face down ({})", l.count, l.kind);
    };
    let mut runs: Vec<(String, usize)> = Vec::new();
    for c in cards {
        let face = card_text(c, seen.display.as_ref());
        match runs.last_mut() {
            Some((name, n)) if *name == face => *n += 1,
            _ => runs.push((face, 1)),
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

/// How the game ended: scores and winners, or why it stopped.
pub fn draw_result(seen: &Observation) -> String {
    draw_result_for(seen, Some(seen.seat))
}

/// [`draw_result`] told to `reader` (`None`: to nobody in particular, as
/// to several people at one terminal or to nobody: no "you win").
pub fn draw_result_for(seen: &Observation, reader: Option<usize>) -> String {
    match (&seen.status, &seen.outcome) {
        (GameStatus::Finished, Some(o)) => scores_text(seen, &o.scores, &o.winners, reader),
        (GameStatus::Stopped(why), _) => format!("The engine stopped the game: {why}\n"),
        (GameStatus::Failed(why), _) => format!("A rules error stopped the game: {why}\n"),
        _ => String::new(),
    }
}

/// `Scores: p0 12, p1 9` and `Winners: p0 (you win)` (players named as
/// the display section names them) told to `reader`.
pub fn scores_text(
    seen: &Observation,
    scores: &[i64],
    winners: &[usize],
    reader: Option<usize>,
) -> String {
    let scores: Vec<String> = (scores.iter().enumerate())
        .map(|(p, s)| format!("{} {s}", player_name(seen, p)))
        .collect();
    let names: Vec<String> = winners.iter().map(|p| player_name(seen, *p)).collect();
    let you = match reader.is_some_and(|r| winners.contains(&r)) {
        true => " (you win)",
        false => "",
    };
    format!(
        "Scores: {}\nWinners: {}{you}\n",
        scores.join(", "),
        names.join(", ")
    )
}
