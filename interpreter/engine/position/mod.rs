//! Positions: the state of a game at a decision as readable text, to save a
//! game and to start one from it (tests, bug reports, puzzles, network
//! play). The format is documented in `docs/positions.md`; in short:
//!
//! ```text
//! cardboard position 1
//! set NUMP=4
//! decisions 7
//! frames top:1 stage0:0 stage1:0
//! cycles player 0 2 3
//! cycles team 0
//! teams 0 1 2 3
//! decks 0
//! chance key=6d3c...e1 stream=0 word=96
//! moved p0 vloc TRICK 0
//! game hloc STOCK (11): SPADES-NINE HEARTS-SIX ...
//! p0 iloc HAND (4): HEARTS-TEN CLUBS-ACE DIAMONDS-FOUR SPADES-SIX
//! game str LEADSUIT = HEARTS
//! game points RANKING = ((RANK : ACE) 14) ((RANK : TEN) 10)
//! ```
//!
//! [`State::to_position`] writes one; [`Rules::load_position`] reads one
//! back, checking it against the rules, and gives a [`State`] whose legal
//! moves, table and whole future (under the same moves) are those of the
//! saved game.

mod decks;
mod read;
mod table;
mod write;

use super::start::override_value;
use super::state::{AwardConds, CardId, Cycle, OwnerId, PointMap, Table};
use super::value::Value;
use super::view::{card_name, owner_name};
use super::{score, Frame, GameOptions, Rules, State, Tables};
use crate::game::{PlayError, Status};
use crate::ir::{CycleKind, LocKind, StageItem, Sym, ValueExpr, EMPTY};
use crate::random::GameRng;
use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::sync::Arc;

/// The first line of every position (the format's version is its number).
pub const POSITION_HEADER: &str = "cardboard position 1";

/// Why a position text cannot be loaded: the line (from 1; 0 when the
/// problem is the position as a whole) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// The line of the text, from 1; 0 for the whole position.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.message)
        } else {
            f.write_str(&self.message)
        }
    }
}

impl std::error::Error for PositionError {}

/// The error at `line`; what it quotes of the position is cut short and
/// escaped (`diagnostic::clip_quotes`).
fn err<T>(line: usize, message: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError {
        line,
        message: crate::diagnostic::clip_quotes(&message.into()),
    })
}

use super::view::kind_word;

fn kind_of_word(word: &str) -> Option<LocKind> {
    Some(match word {
        "vloc" => LocKind::Visible,
        "iloc" => LocKind::Invisible,
        "hloc" => LocKind::Hidden,
        "oloc" => LocKind::Others,
        "mem" => LocKind::Memory,
        _ => return None,
    })
}

/// A symbol as written in a position (`""` for the empty string).
fn sym_text(tabs: &Tables, s: Sym) -> &str {
    match tabs.prog.symbols.get(s as usize).map(String::as_str) {
        Some("") | None => "\"\"",
        Some(t) => t,
    }
}
/// The first word of `text` and the rest (trimmed).
fn first_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.split_once(char::is_whitespace) {
        Some((w, rest)) => (w, rest.trim()),
        None => (text, ""),
    }
}

fn parse_num<T: std::str::FromStr>(
    line: usize,
    text: &str,
    what: &str,
) -> Result<T, PositionError> {
    match text.parse::<T>() {
        Ok(v) => Ok(v),
        Err(_) => err(line, format!("`{text}` is not {what}")),
    }
}

/// A rules error met while a position is loaded, its places (lines and
/// columns of the rules file) under the rules file's name, so that they
/// are not read as the position's.
fn in_rules(tabs: &Tables, message: impl fmt::Display) -> String {
    if tabs.file.is_empty() {
        format!("the rules: {message}")
    } else {
        format!("{}: {message}", tabs.file)
    }
}

fn rules_message(e: PlayError) -> String {
    match e {
        PlayError::Rules(m) => m,
        other => other.to_string(),
    }
}

/// The most decisions a position may count: far below the 2^64 where the
/// count would wrap as the game goes on.
pub const MAX_DECISIONS: u64 = i64::MAX as u64;

/// A card not yet placed while loading.
const UNPLACED: u32 = u32::MAX;
