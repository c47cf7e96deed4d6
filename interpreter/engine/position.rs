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
//! chance key=6d3c...e1 stream=0 word=96
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

use super::state::{AwardConds, CardId, Cycle, OwnerId, PointMap, Table};
use super::value::Value;
use super::view::{card_name, owner_name};
use super::{override_value, score, Frame, GameOptions, Rules, State, Tables};
use crate::game::{GameState, PlayError, Status};
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

fn err<T>(line: usize, message: impl Into<String>) -> Result<T, PositionError> {
    Err(PositionError {
        line,
        message: message.into(),
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

/// A point map in RECYCLE's award syntax, without the outer parentheses:
/// `((RANK : ACE) 14) ((SUIT : HEARTS) (RANK : QUEEN) 5)`. A condition on an
/// attribute no deck defines is written with the key `?`.
fn awards_text(tabs: &Tables, map: &PointMap) -> String {
    let awards: Vec<String> = map
        .awards
        .iter()
        .map(|(conds, points)| {
            let mut s = String::from("(");
            for (key, value) in conds {
                let key = match key {
                    Some(k) => tabs
                        .prog
                        .attr_keys
                        .get(*k as usize)
                        .map_or("?", |s| sym_text(tabs, *s)),
                    None => "?",
                };
                let _ = write!(s, "({key} : {}) ", sym_text(tabs, *value));
            }
            let _ = write!(s, "{points})");
            s
        })
        .collect();
    awards.join(" ")
}

/// The text of a cycle stack: `0 1>2` (current, and `>` the queued one).
fn cycles_text(cycles: &[Cycle]) -> String {
    let parts: Vec<String> = cycles
        .iter()
        .map(|c| match c.queued {
            Some(q) => format!("{}>{q}", c.idx),
            None => c.idx.to_string(),
        })
        .collect();
    parts.join(" ")
}

/// Card names with runs of three or more equal names written `NAME*N`.
fn runs(names: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(names.len());
    let mut i = 0;
    while i < names.len() {
        let n = names[i..].iter().take_while(|m| **m == names[i]).count();
        if n >= 3 && !names[i].contains('*') {
            out.push(format!("{}*{n}", names[i]));
        } else {
            out.extend(names[i..i + n].iter().cloned());
        }
        i += n;
    }
    out
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

impl State {
    /// The declared constants that can be set from the command line, with
    /// their values in this game (`NUMP=4`): what a position's `set` lines
    /// hold.
    pub fn settings(&self) -> Vec<(String, String)> {
        let prog = &self.tabs.prog;
        prog.declares
            .iter()
            .zip(self.globals.iter())
            .filter_map(|(d, v)| {
                let text = match (&d.value, v) {
                    (ValueExpr::Int(_), Value::Int(i)) => i.to_string(),
                    (ValueExpr::Bool(_), Value::Bool(b)) => b.to_string(),
                    (ValueExpr::Str(_), Value::Str(s)) if *s != EMPTY => {
                        prog.symbols.get(*s as usize)?.clone()
                    }
                    _ => return None,
                };
                Some((d.name.clone(), text))
            })
            .collect()
    }

    /// The state as a position (see the module doc and
    /// `docs/positions.md`). A running game is saved at its decision; a
    /// finished one as finished. A game stopped by the engine is written
    /// too, but cannot be loaded (it is not at a decision).
    pub fn to_position(&self) -> String {
        let tabs = &self.tabs;
        let prog = &tabs.prog;
        let table = self.table.borrow();
        let mut out = String::new();
        let o = &mut out;
        let _ = writeln!(o, "{POSITION_HEADER}");
        match &self.status {
            Status::Running => {
                let _ = writeln!(
                    o,
                    "# p{} to decide, after {} decisions",
                    table.current_player(),
                    self.decisions
                );
            }
            Status::Finished => {
                let _ = writeln!(o, "# the game is over");
            }
            Status::Stopped(why) => {
                let _ = writeln!(
                    o,
                    "# stopped by the engine ({why}): not a position that can be loaded"
                );
            }
        }
        for (name, value) in self.settings() {
            let _ = writeln!(o, "set {name}={value}");
        }
        let _ = writeln!(o, "decisions {}", self.decisions);
        let frames: Vec<String> = self
            .frames
            .iter()
            .map(|f| match f.stage {
                None => format!("top:{}", f.pos),
                Some(s) => format!("stage{s}:{}", f.pos),
            })
            .collect();
        let _ = writeln!(o, "frames {}", frames.join(" "));
        if !tabs.line_starts.is_empty() {
            let lines: Vec<String> = self
                .frames
                .iter()
                .filter_map(|f| f.stage)
                .filter_map(|s| {
                    let stage = prog.stages.get(s as usize)?;
                    let (line, _) = super::line_of(tabs, stage.span.start);
                    Some(format!("stage{s} is the stage at line {line}"))
                })
                .collect();
            if !lines.is_empty() {
                let _ = writeln!(o, "# {}", lines.join(", "));
            }
        }
        let _ = writeln!(o, "cycles player {}", cycles_text(&table.player_cycles));
        let _ = writeln!(o, "cycles team {}", cycles_text(&table.team_cycles));
        let teams: Vec<String> = table
            .teams
            .iter()
            .map(|m| {
                let m: Vec<String> = m.iter().map(u8::to_string).collect();
                m.join(",")
            })
            .collect();
        let _ = writeln!(o, "teams {}", teams.join(" "));
        let st = table.rng.state();
        let mut stream = [0u8; 8];
        stream.copy_from_slice(&st[32..40]);
        let mut word = [0u8; 16];
        word[..9].copy_from_slice(&st[40..49]);
        let _ = writeln!(
            o,
            "chance key={} stream={} word={}",
            hex(&st[..32]),
            u64::from_le_bytes(stream),
            u128::from_le_bytes(word)
        );
        let owners = Table::owner_count(table.players) as OwnerId + table.boards.space_count();
        for owner in 0..owners {
            let who = owner_name(&table, owner);
            for (id, ln) in prog.loc_names.iter().enumerate() {
                let slot = owner as usize * tabs.loc_count + id;
                let cards = &table.locs[slot];
                if cards.is_empty() {
                    continue;
                }
                let names: Vec<String> = cards
                    .iter()
                    .rev()
                    .map(|c| card_name(tabs, &table, *c))
                    .collect();
                let names = runs(names);
                let _ = writeln!(
                    o,
                    "{who} {} {} ({}): {}",
                    kind_word(ln.kind),
                    prog.symbols[ln.name as usize],
                    cards.len(),
                    names.join(" ")
                );
            }
            for (id, s) in prog.int_names.iter().enumerate() {
                let v = table.ints[owner as usize * tabs.int_count + id];
                if v != 0 {
                    let _ = writeln!(o, "{who} sto {} = {v}", prog.symbols[*s as usize]);
                }
            }
            for (id, s) in prog.str_names.iter().enumerate() {
                let v = table.strs[owner as usize * tabs.str_count + id];
                if v != EMPTY {
                    let _ = writeln!(
                        o,
                        "{who} str {} = {}",
                        prog.symbols[*s as usize],
                        sym_text(tabs, v)
                    );
                }
            }
            for (id, s) in prog.point_names.iter().enumerate() {
                if let Some(map) = &table.points[owner as usize * tabs.point_count + id] {
                    let _ = writeln!(
                        o,
                        "{who} points {} = {}",
                        prog.symbols[*s as usize],
                        awards_text(tabs, map)
                    );
                }
            }
        }
        // `writeln!` leaves a trailing space on empty lists; keep lines tidy.
        out.lines()
            .map(str::trim_end)
            .fold(String::new(), |mut acc, l| {
                acc.push_str(l);
                acc.push('\n');
                acc
            })
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

fn rules_message(e: PlayError) -> String {
    match e {
        PlayError::Rules(m) => m,
        other => other.to_string(),
    }
}

/// A card not yet placed while loading.
const UNPLACED: u32 = u32::MAX;

impl Rules {
    /// Starts a game from a position (see `docs/positions.md`): the game is
    /// started with the position's `set` lines, then its table, place in
    /// the rules, cycles, teams, counters and chance are replaced by the
    /// position's. The position must be at a decision (a `choice` with at
    /// least one legal move) or finished. Every card of the rules must lie
    /// in exactly one location; cards are matched by name.
    pub fn load_position(&self, text: &str) -> Result<State, PositionError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l.trim()))
            .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
            .collect();
        let Some(&(first_line, first)) = lines.first() else {
            return err(
                0,
                format!("the position is empty: it must begin with the line `{POSITION_HEADER}`"),
            );
        };
        if first != POSITION_HEADER {
            return if first.starts_with("cardboard position") {
                err(
                    first_line,
                    format!("`{first}`: this version of cardboard reads `{POSITION_HEADER}` only"),
                )
            } else {
                err(
                    first_line,
                    format!("a position begins with the line `{POSITION_HEADER}`, found `{first}`"),
                )
            };
        }
        let body = &lines[1..];
        let prog = &self.tabs.prog;

        // The settings first: they fix players, boards and cards.
        let mut overrides: Vec<(String, String)> = Vec::new();
        let mut set_lines: HashMap<String, usize> = HashMap::new();
        for &(no, l) in body {
            let (word, rest) = first_word(l);
            if word != "set" {
                continue;
            }
            let Some((name, value)) = rest.split_once('=') else {
                return err(no, format!("a `set` line is `set NAME=VALUE`, found `{l}`"));
            };
            let (name, value) = (name.trim(), value.trim());
            let name = name.strip_prefix('\'').unwrap_or(name);
            let Some(decl) = prog.declares.iter().find(|d| d.name == name) else {
                let names: Vec<String> = prog.declares.iter().map(|d| d.name.clone()).collect();
                return err(
                    no,
                    format!(
                        "the rules declare no `'{name}` (they declare: {})",
                        if names.is_empty() {
                            "nothing".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                );
            };
            if let Some(first) = set_lines.insert(name.to_string(), no) {
                return err(no, format!("`{name}` is set twice (first at line {first})"));
            }
            override_value(prog, name, &decl.value, value).map_err(|e| PositionError {
                line: no,
                message: rules_message(e).replace("`--set ", "`set "),
            })?;
            overrides.push((name.to_string(), value.to_string()));
        }
        let mut state = self
            .start(&GameOptions { seed: 0, overrides })
            .map_err(|e| PositionError {
                line: 0,
                message: format!(
                    "the game cannot start with the position's settings: {}",
                    rules_message(e)
                ),
            })?;
        let tabs = state.tabs.clone();
        let mut loader = Loader::new(&tabs, state.table.get_mut());
        for &(no, l) in body {
            loader.line(no, l)?;
        }
        let (frames_line, frames, decisions) = loader.finish()?;
        state.frames = frames;
        state.decisions = decisions;
        *state.legal.get_mut() = None;
        if state.frames.is_empty() {
            state.status = Status::Finished;
            let globals = state.globals.clone();
            let outcome =
                score(&tabs, state.table.get_mut(), &globals).map_err(|e| PositionError {
                    line: frames_line,
                    message: format!("the game is over here, but scoring it fails: {e}"),
                })?;
            state.outcome = Some(outcome);
        } else {
            state.status = Status::Running;
            state.outcome = None;
            if state.legal_moves().is_empty() {
                return err(
                    0,
                    format!(
                        "the position is at a decision of p{}, who has no legal move there",
                        state.table.borrow().current_player()
                    ),
                );
            }
        }
        Ok(state)
    }
}

/// What the lines of a position set, gathered before they are checked
/// together.
struct Loader<'a> {
    tabs: &'a Tables,
    table: &'a mut Table,
    symbols: HashMap<&'a str, Sym>,
    /// Unused cards by name, highest id first (taken from the end).
    free: HashMap<String, Vec<CardId>>,
    /// How many cards of each name the rules have.
    counts: HashMap<String, usize>,
    /// Every card by name, lowest id first (for `mem` copies).
    any: HashMap<String, CardId>,
    /// Lines that may appear once, by what they set.
    seen: HashMap<String, usize>,
    /// `mem` locations, resolved after the real ones.
    mems: Vec<(usize, usize, Vec<String>)>,
    decisions: u64,
    frames: Option<(usize, Vec<Frame>)>,
    player_cycles: Option<(usize, Vec<Cycle>)>,
    team_cycles: Option<(usize, Vec<Cycle>)>,
    teams: Option<(usize, Vec<Vec<u8>>)>,
    rng: Option<GameRng>,
}

impl<'a> Loader<'a> {
    fn new(tabs: &'a Tables, table: &'a mut Table) -> Loader<'a> {
        let symbols = tabs
            .prog
            .symbols
            .iter()
            .enumerate()
            .rev()
            .map(|(i, s)| (s.as_str(), i as Sym))
            .collect();
        let mut free: HashMap<String, Vec<CardId>> = HashMap::new();
        let mut any = HashMap::new();
        for id in (0..table.card_count() as CardId).rev() {
            let name = card_name(tabs, table, id);
            any.insert(name.clone(), id);
            free.entry(name).or_default().push(id);
        }
        let counts = free.iter().map(|(k, v)| (k.clone(), v.len())).collect();
        for l in table.locs.iter_mut() {
            l.clear();
        }
        table.card_loc.fill(UNPLACED);
        table.ints.fill(0);
        table.strs.fill(EMPTY);
        table.points.fill(None);
        Loader {
            tabs,
            table,
            symbols,
            free,
            counts,
            any,
            seen: HashMap::new(),
            mems: Vec::new(),
            decisions: 0,
            frames: None,
            player_cycles: None,
            team_cycles: None,
            teams: None,
            rng: None,
        }
    }

    /// Records that `what` is set at line `no`; an error if it was already.
    fn once(&mut self, no: usize, what: String) -> Result<(), PositionError> {
        match self.seen.insert(what.clone(), no) {
            Some(first) => err(no, format!("{what} appears twice (first at line {first})")),
            None => Ok(()),
        }
    }

    fn symbol(&self, no: usize, text: &str, what: &str) -> Result<Sym, PositionError> {
        if text == "\"\"" {
            return Ok(EMPTY);
        }
        match self.symbols.get(text) {
            Some(s) if *s != EMPTY => Ok(*s),
            _ => err(
                no,
                format!("`{text}` is not {what} of the rules (it appears nowhere in the file)"),
            ),
        }
    }

    fn line(&mut self, no: usize, l: &str) -> Result<(), PositionError> {
        let (word, rest) = first_word(l);
        match word {
            "set" => Ok(()),
            "cardboard" => err(no, "the header line appears again"),
            "decisions" => {
                self.once(no, "`decisions`".into())?;
                self.decisions = parse_num(no, rest, "a number of decisions")?;
                Ok(())
            }
            "frames" => {
                self.once(no, "`frames`".into())?;
                let frames = self.frames(no, rest)?;
                self.frames = Some((no, frames));
                Ok(())
            }
            "cycles" => {
                let (kind, list) = first_word(rest);
                let cycles = Self::cycles(no, list)?;
                match kind {
                    "player" => {
                        self.once(no, "`cycles player`".into())?;
                        self.player_cycles = Some((no, cycles));
                    }
                    "team" => {
                        self.once(no, "`cycles team`".into())?;
                        self.team_cycles = Some((no, cycles));
                    }
                    _ => {
                        return err(
                            no,
                            format!("`cycles` is followed by `player` or `team`, found `{kind}`"),
                        )
                    }
                }
                Ok(())
            }
            "teams" => {
                self.once(no, "`teams`".into())?;
                let teams = self.teams(no, rest)?;
                self.teams = Some((no, teams));
                Ok(())
            }
            "chance" => {
                self.once(no, "`chance`".into())?;
                self.rng = Some(Self::chance(no, rest)?);
                Ok(())
            }
            _ => self.owner_line(no, word, rest),
        }
    }

    /// `top:3 stage1:0 stage2:1`.
    fn frames(&self, no: usize, text: &str) -> Result<Vec<Frame>, PositionError> {
        let stages = self.tabs.prog.stages.len();
        let mut frames = Vec::new();
        for tok in text.split_whitespace() {
            let Some((what, pos)) = tok.split_once(':') else {
                return err(
                    no,
                    format!("a frame is `top:N` or `stageK:N` (the stage and its next item), found `{tok}`"),
                );
            };
            let pos: u32 = parse_num(no, pos, "an item number")?;
            let stage = if what == "top" {
                None
            } else if let Some(k) = what.strip_prefix("stage") {
                let k: usize = parse_num(no, k, "a stage number")?;
                if k >= stages {
                    return err(
                        no,
                        format!(
                            "there is no stage{k}: the rules have {stages} stages, numbered from 0 in the order they appear in the file"
                        ),
                    );
                }
                Some(k as u32)
            } else {
                return err(
                    no,
                    format!("a frame is `top:N` or `stageK:N`, found `{tok}`"),
                );
            };
            frames.push(Frame { stage, pos });
        }
        Ok(frames)
    }

    /// `0 1>2`.
    fn cycles(no: usize, text: &str) -> Result<Vec<Cycle>, PositionError> {
        let mut out = Vec::new();
        for tok in text.split_whitespace() {
            let (idx, queued) = match tok.split_once('>') {
                Some((i, q)) => (i, Some(parse_num(no, q, "a seat or team number")?)),
                None => (tok, None),
            };
            out.push(Cycle {
                idx: parse_num(no, idx, "a seat or team number")?,
                queued,
            });
        }
        if out.is_empty() {
            return err(
                no,
                "a `cycles` line lists at least one cycle (the game's own)",
            );
        }
        Ok(out)
    }

    /// `0,2 1,3`.
    fn teams(&self, no: usize, text: &str) -> Result<Vec<Vec<u8>>, PositionError> {
        let players = self.table.players;
        let mut team_of = vec![None; players];
        let mut teams = Vec::new();
        for (t, tok) in text.split_whitespace().enumerate() {
            let mut members = Vec::new();
            for m in tok.split(',') {
                let p: usize = parse_num(no, m, "a seat number")?;
                if p >= players {
                    return err(
                        no,
                        format!(
                            "team{t} has seat {p}, but the seats are 0 to {}",
                            players - 1
                        ),
                    );
                }
                if let Some(other) = team_of[p] {
                    return err(no, format!("seat {p} is in team{other} and in team{t}"));
                }
                team_of[p] = Some(t);
                members.push(p as u8);
            }
            teams.push(members);
        }
        if let Some(p) = team_of.iter().position(Option::is_none) {
            return err(no, format!("seat {p} is in no team"));
        }
        Ok(teams)
    }

    /// `key=HEX stream=N word=N`, or `seed=N`.
    fn chance(no: usize, text: &str) -> Result<GameRng, PositionError> {
        let mut fields: HashMap<&str, &str> = HashMap::new();
        for tok in text.split_whitespace() {
            let Some((k, v)) = tok.split_once('=') else {
                return err(
                    no,
                    format!("`chance` is followed by `key=HEX stream=N word=N` or `seed=N`, found `{tok}`"),
                );
            };
            if fields.insert(k, v).is_some() {
                return err(no, format!("`{k}=` appears twice"));
            }
        }
        let mut keys: Vec<&str> = fields.keys().copied().collect();
        keys.sort_unstable();
        match keys.as_slice() {
            ["seed"] => Ok(GameRng::new(parse_num(no, fields["seed"], "a seed")?)),
            ["key", "stream", "word"] => {
                let key = fields["key"];
                if key.len() != 64 || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return err(no, "the chance key is 64 hexadecimal digits");
                }
                let mut state = [0u8; 49];
                for (i, b) in state[..32].iter_mut().enumerate() {
                    *b = u8::from_str_radix(&key[2 * i..2 * i + 2], 16).unwrap_or(0);
                }
                let stream: u64 = parse_num(no, fields["stream"], "a stream number")?;
                state[32..40].copy_from_slice(&stream.to_le_bytes());
                let word: u128 = parse_num(no, fields["word"], "a word position")?;
                if word >= 1 << 68 {
                    return err(no, "the word position must be below 2^68");
                }
                state[40..49].copy_from_slice(&word.to_le_bytes()[..9]);
                Ok(GameRng::from_state(&state))
            }
            _ => err(
                no,
                "`chance` is followed by `key=HEX stream=N word=N` (a saved generator) or `seed=N` (a fresh one)",
            ),
        }
    }

    /// The owner a name stands for: `game`, `p0`, `team1`, `TRACK[3]`,
    /// `GRID[2,5]`.
    fn owner(&self, no: usize, tok: &str) -> Result<OwnerId, PositionError> {
        let players = self.table.players;
        let boards = &self.table.boards;
        let seat = |prefix: &str| {
            tok.strip_prefix(prefix)
                .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .and_then(|n| n.parse::<usize>().ok())
        };
        if tok == "game" {
            return Ok(0);
        }
        if let Some((name, index)) = tok.strip_suffix(']').and_then(|t| t.split_once('[')) {
            let Some(b) = boards.boards.iter().find(|b| *b.name == *name) else {
                let names: Vec<&str> = boards.boards.iter().map(|b| &*b.name).collect();
                return err(
                    no,
                    format!(
                        "the rules have no board `{name}` (boards: {})",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                );
            };
            let space = if b.track {
                let i: u32 = parse_num(no, index, "a space index")?;
                if i >= b.cols {
                    return err(
                        no,
                        format!("`{tok}`: the track {name} has spaces 0 to {}", b.cols - 1),
                    );
                }
                b.first + i
            } else {
                let Some((r, c)) = index.split_once(',') else {
                    return err(
                        no,
                        format!("`{tok}`: a space of a grid is written {name}[ROW,COL]"),
                    );
                };
                let r: u32 = parse_num(no, r.trim(), "a row")?;
                let c: u32 = parse_num(no, c.trim(), "a column")?;
                if r >= b.rows || c >= b.cols {
                    return err(
                        no,
                        format!(
                            "`{tok}`: the grid {name} has rows 0 to {} and columns 0 to {}",
                            b.rows - 1,
                            b.cols - 1
                        ),
                    );
                }
                b.first + r * b.cols + c
            };
            return Ok(self.table.space_owner(space));
        }
        if let Some(p) = seat("p") {
            if p < players {
                return Ok(Table::player_owner(p));
            }
        }
        if let Some(t) = seat("team") {
            if t < players {
                return Ok(self.table.team_owner(t));
            }
        }
        err(
            no,
            format!(
                "`{tok}` is neither a line kind nor an owner: owners are `game`, `p0` to `p{last}`, `team0` to `team{last}`{spaces}",
                last = players - 1,
                spaces = if boards.boards.is_empty() {
                    String::new()
                } else {
                    " and the spaces of the boards, such as `NAME[0]` or `NAME[0,0]`".to_string()
                }
            ),
        )
    }

    /// A location or storage line: `p0 iloc HAND (2): A B`, `game sto N = 3`,
    /// `game str S = X`, `game points P = ((K : V) 1)`.
    fn owner_line(&mut self, no: usize, who: &str, rest: &str) -> Result<(), PositionError> {
        let owner = self.owner(no, who)?;
        let (kind_tok, rest) = first_word(rest);
        if let Some(kind) = kind_of_word(kind_tok) {
            return self.location(no, owner, who, kind, rest);
        }
        let (what, names, count) = match kind_tok {
            "sto" => ("integer storage", &self.tabs.int_lookup, self.tabs.int_count),
            "str" => ("string storage", &self.tabs.str_lookup, self.tabs.str_count),
            "points" => ("point map", &self.tabs.point_lookup, self.tabs.point_count),
            "" => return err(no, format!("`{who}` alone: expected a location or a storage after the owner")),
            other => {
                return err(
                    no,
                    format!("`{other}` is not a kind of location or storage: expected vloc, iloc, hloc, oloc, mem, sto, str or points"),
                )
            }
        };
        let Some((name, value)) = rest.split_once('=') else {
            return err(
                no,
                format!("a storage line is `OWNER {kind_tok} NAME = VALUE`"),
            );
        };
        let (name, value) = (name.trim(), value.trim());
        let id = self.symbols.get(name).and_then(|s| names.get(s)).copied();
        let Some(id) = id else {
            return err(no, format!("the rules have no {what} `{name}`"));
        };
        let i = owner as usize * count + id as usize;
        self.once(no, format!("`{who} {kind_tok} {name}`"))?;
        match kind_tok {
            "sto" => self.table.ints[i] = parse_num(no, value, "an integer")?,
            "str" => {
                if value.is_empty() {
                    return err(no, "missing the string after `=`");
                }
                self.table.strs[i] = self.symbol(no, value, "a value")?;
            }
            _ => self.table.points[i] = Some(Arc::new(self.awards(no, value)?)),
        }
        Ok(())
    }

    fn location(
        &mut self,
        no: usize,
        owner: OwnerId,
        who: &str,
        kind: LocKind,
        rest: &str,
    ) -> Result<(), PositionError> {
        let word = kind_word(kind);
        let Some((head, cards)) = rest.split_once(':') else {
            return err(
                no,
                format!("a location line is `OWNER {word} NAME (COUNT): CARDS`, with a colon before the cards"),
            );
        };
        let mut head = head.split_whitespace();
        let Some(name) = head.next() else {
            return err(no, "missing the location's name");
        };
        let count = match head.next() {
            None => None,
            Some(c) => match c.strip_prefix('(').and_then(|c| c.strip_suffix(')')) {
                Some(n) => Some(parse_num::<usize>(no, n, "a number of cards")?),
                None => {
                    return err(
                        no,
                        format!("expected `(COUNT)` or `:` after {name}, found `{c}`"),
                    )
                }
            },
        };
        if let Some(extra) = head.next() {
            return err(no, format!("unexpected `{extra}` before the colon"));
        }
        let sym = self.symbols.get(name).copied().unwrap_or(EMPTY);
        let Some(&id) = self.tabs.loc_lookup.get(&(kind, sym)) else {
            let other = self
                .tabs
                .prog
                .loc_names
                .iter()
                .find(|l| l.name == sym && sym != EMPTY)
                .map(|l| format!(" (it has `{} {name}`)", kind_word(l.kind)))
                .unwrap_or_default();
            return err(
                no,
                format!("the rules have no location `{word} {name}`{other}"),
            );
        };
        self.once(no, format!("`{who} {word} {name}`"))?;
        let slot = owner as usize * self.tabs.loc_count + id as usize;
        let names = self.expand(no, cards)?;
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        if let Some(count) = count {
            if count != names.len() {
                return err(
                    no,
                    format!(
                        "`{who} {word} {name}` says ({count}) but lists {} cards",
                        names.len()
                    ),
                );
            }
        }
        if kind == LocKind::Memory {
            self.mems
                .push((no, slot, names.iter().map(|s| s.to_string()).collect()));
            return Ok(());
        }
        let mut ids = Vec::with_capacity(names.len());
        for n in names {
            let Some(id) = self.free.get_mut(n).and_then(Vec::pop) else {
                return match self.counts.get(n) {
                    Some(1) => err(no, format!("card {n} appears twice")),
                    Some(k) => err(
                        no,
                        format!("card {n} appears more often than the {k} cards of that name the rules have"),
                    ),
                    None => err(no, format!("no card of the rules is called `{n}`")),
                };
            };
            self.table.card_loc[id as usize] = slot as u32;
            ids.push(id);
        }
        ids.reverse();
        self.table.locs[slot] = ids;
        Ok(())
    }

    /// The card names of a location line, `NAME*N` standing for N cards
    /// of that name (unless a card is called `NAME*N`).
    fn expand(&self, no: usize, cards: &str) -> Result<Vec<String>, PositionError> {
        let mut out = Vec::new();
        for tok in cards.split_whitespace() {
            let repeat = tok.rsplit_once('*').filter(|(n, k)| {
                !n.is_empty()
                    && !k.is_empty()
                    && k.bytes().all(|b| b.is_ascii_digit())
                    && !self.any.contains_key(tok)
            });
            match repeat {
                Some((name, k)) => {
                    let k: usize = parse_num(no, k, "a number of cards")?;
                    if out.len() + k > self.table.card_count() {
                        return err(
                            no,
                            format!(
                                "`{tok}`: more cards than the {} the rules have",
                                self.table.card_count()
                            ),
                        );
                    }
                    out.extend(std::iter::repeat_n(name.to_string(), k));
                }
                None => out.push(tok.to_string()),
            }
        }
        Ok(out)
    }

    /// `((RANK : ACE) 14) ((SUIT : HEARTS) (RANK : QUEEN) 5)`.
    fn awards(&self, no: usize, text: &str) -> Result<PointMap, PositionError> {
        // Tokens: parentheses, colons, words.
        let spaced = text
            .replace('(', " ( ")
            .replace(')', " ) ")
            .replace(':', " : ");
        let toks: Vec<&str> = spaced.split_whitespace().collect();
        let mut i = 0;
        let mut map = PointMap::default();
        let expect = |i: usize, want: &str| -> Result<(), PositionError> {
            match toks.get(i) {
                Some(t) if *t == want => Ok(()),
                Some(t) => err(
                    no,
                    format!("in the point map: expected `{want}`, found `{t}`"),
                ),
                None => err(
                    no,
                    format!("in the point map: expected `{want}`, found the end of the line"),
                ),
            }
        };
        while i < toks.len() {
            expect(i, "(")?;
            i += 1;
            let mut conds: AwardConds = Vec::new();
            while toks.get(i) == Some(&"(") {
                let key = toks.get(i + 1).copied().unwrap_or("");
                expect(i + 2, ":")?;
                let value = toks.get(i + 3).copied().unwrap_or("");
                expect(i + 4, ")")?;
                let key = if key == "?" {
                    None
                } else {
                    let s = self.symbol(no, key, "an attribute")?;
                    match self.tabs.attr_lookup.get(&s) {
                        Some(k) => Some(*k),
                        None => {
                            return err(
                                no,
                                format!("`{key}` is not a card attribute of the rules (write `?` for an attribute no deck has)"),
                            )
                        }
                    }
                };
                conds.push((key, self.symbol(no, value, "a value")?));
                i += 5;
            }
            let points = toks.get(i).copied().unwrap_or("");
            let points: i64 = parse_num(no, points, "a number of points")?;
            expect(i + 1, ")")?;
            i += 2;
            map.awards.push((conds, points));
        }
        Ok(map)
    }

    /// Checks the lines together and installs them in the table; returns
    /// the frames (and their line) and the decision count for the state.
    fn finish(mut self) -> Result<(usize, Vec<Frame>, u64), PositionError> {
        let tabs = self.tabs;
        let prog = &tabs.prog;
        let missing: Vec<CardId> = (0..self.table.card_count() as CardId)
            .filter(|&c| self.table.card_loc[c as usize] == UNPLACED)
            .collect();
        if !missing.is_empty() {
            let mut names: Vec<String> = missing
                .iter()
                .take(12)
                .map(|&c| card_name(tabs, self.table, c))
                .collect();
            if missing.len() > names.len() {
                names.push("...".to_string());
            }
            return err(
                0,
                format!(
                    "{} {} of the rules {} missing from the position: {}",
                    missing.len(),
                    if missing.len() == 1 { "card" } else { "cards" },
                    if missing.len() == 1 { "is" } else { "are" },
                    names.join(" ")
                ),
            );
        }
        for (no, slot, names) in std::mem::take(&mut self.mems) {
            let mut ids = Vec::with_capacity(names.len());
            for n in &names {
                match self.any.get(n) {
                    Some(&id) => ids.push(id),
                    None => return err(no, format!("no card of the rules is called `{n}`")),
                }
            }
            ids.reverse();
            self.table.locs[slot] = ids;
        }
        if let Some((_, teams)) = self.teams.take() {
            let mut of = vec![0u8; self.table.players];
            for (t, members) in teams.iter().enumerate() {
                for &p in members {
                    of[p as usize] = t as u8;
                }
            }
            self.table.teams = teams;
            self.table.team_of = of;
        }
        let Some((frames_line, frames)) = self.frames.take() else {
            return err(
                0,
                "missing the `frames` line (where the game is in its rules; see docs/positions.md)",
            );
        };
        // The frames: the top level, then each stage nested in the item
        // its parent is at; the innermost at a choice.
        let items = |stage: Option<u32>| -> &[StageItem] {
            match stage {
                None => &prog.body,
                Some(s) => &prog.stages[s as usize].items,
            }
        };
        let frame_name = |f: &Frame| match f.stage {
            None => "top".to_string(),
            Some(s) => format!("stage{s}"),
        };
        for (i, f) in frames.iter().enumerate() {
            if (i == 0) != f.stage.is_none() {
                return err(
                    frames_line,
                    "the first frame is `top:N` (the top level) and only the first",
                );
            }
            let list = items(f.stage);
            let Some(item) = list.get(f.pos as usize) else {
                return err(
                    frames_line,
                    format!(
                        "{} has items 0 to {}, not {}",
                        frame_name(f),
                        list.len() as i64 - 1,
                        f.pos
                    ),
                );
            };
            match (item, frames.get(i + 1)) {
                (StageItem::Stage(s), Some(next)) if next.stage == Some(*s as u32) => {}
                (StageItem::Stage(s), Some(next)) => {
                    return err(
                        frames_line,
                        format!(
                            "item {} of {} is stage{s}, not {}",
                            f.pos,
                            frame_name(f),
                            frame_name(next)
                        ),
                    )
                }
                (_, Some(next)) => {
                    return err(
                        frames_line,
                        format!(
                            "item {} of {} is not a stage, so {} cannot be inside it",
                            f.pos,
                            frame_name(f),
                            frame_name(next)
                        ),
                    )
                }
                (StageItem::Choice(..), None) => {}
                (_, None) => {
                    return err(
                        frames_line,
                        format!(
                            "the position is not at a decision: item {} of {} is not a choice",
                            f.pos,
                            frame_name(f)
                        ),
                    )
                }
            }
        }
        // One cycle for the game and one per stage of each kind.
        let stage_count = |kind: CycleKind| {
            frames
                .iter()
                .filter_map(|f| f.stage)
                .filter(|&s| prog.stages[s as usize].kind == kind)
                .count()
        };
        for (kind, given, word, limit) in [
            (
                CycleKind::Player,
                self.player_cycles.take(),
                "player",
                self.table.players,
            ),
            (
                CycleKind::Team,
                self.team_cycles.take(),
                "team",
                self.table.teams.len(),
            ),
        ] {
            let need = 1 + stage_count(kind);
            let (no, cycles) = given.unwrap_or((0, vec![Cycle::at(0); need]));
            if cycles.len() != need {
                return err(
                    no,
                    format!(
                        "`cycles {word}` lists {} cycles, but the frames need {need} (one for the game and one per {word} stage being played)",
                        cycles.len()
                    ),
                );
            }
            for c in &cycles {
                if let Some(bad) = std::iter::once(c.idx)
                    .chain(c.queued)
                    .find(|&m| m as usize >= limit)
                {
                    return err(
                        no,
                        format!(
                            "{word} {bad} in `cycles {word}`, but the {word}s are 0 to {}",
                            limit as i64 - 1
                        ),
                    );
                }
            }
            match kind {
                CycleKind::Player => self.table.player_cycles = cycles,
                CycleKind::Team => self.table.team_cycles = cycles,
            }
        }
        self.table.rng = self.rng.take().unwrap_or_else(|| GameRng::new(0));
        Ok((frames_line, frames, self.decisions))
    }
}
