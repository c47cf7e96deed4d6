//! The engine: runs a compiled [`Program`] as a [`GameState`].
//!
//! The game's position in its rules is a stack of frames (the top level and
//! each stage being played, with the index of the next item) beside the
//! [`state::Table`]. `State::advance` runs items until a `choice` needs a
//! decision or the game ends. A decision's options are found by running
//! each option's actions with an undo journal, an oracle choosing the item
//! of every `any` (see `exec::Oracle`), and taking them back. A random
//! move is drawn without listing them all when the choice allows it
//! (`sample`: sample, then check). The automatic items run compiled to
//! closures (`compile`).

mod advance;
mod announce;
mod batch;
mod board;
mod cards;
mod collections;
mod compile;
mod create;
mod eval;
mod exec;
mod explore;
mod failure;
mod fault;
mod game_state;
mod int;
mod journal;
pub mod limits;
mod oracle;
mod owners;
mod path;
mod position;
mod resample;
mod sample;
mod start;
pub mod state;
mod undo;
mod value;
mod view;

use crate::game::{GameState, Outcome, PlayError, Status};
use crate::ir::{CycleKind, LocKind, Program, StageItem, Sym, ValueExpr};
use crate::random::{below, GameRng};
use crate::step::{steps_text, Described, Step};
use board::{regions, spaceset, spatial};
use exec::{Machine, Oracle, Scratch};
use failure::{between, option_error, Stop};
pub use limits::Limits;
pub use path::Path;
pub use position::{PositionError, POSITION_HEADER};
use state::{Cycle, Table};
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;
pub use undo::MoveUndo;
use value::Value;

/// Most players a game may create.
pub const MAX_PLAYERS: i64 = 64;

/// Options for starting one game.
#[derive(Clone, Debug, Default)]
pub struct GameOptions {
    /// Seed of the game's chance (shuffles, random tie breaks).
    pub seed: u64,
    /// `--set NAME=VALUE`: overrides of `declare`d constants.
    pub overrides: Vec<(String, String)>,
}

/// Boards built for one list of sizes: each board's rows, columns, kind
/// (`board::Kind as i64`) and whether it wraps its rows and its columns
/// (0 or 1).
pub type BuiltBoards = (Vec<[i64; 5]>, Arc<board::Boards>);

/// A setup kept for the next games: its overrides, the table and the
/// declared values.
pub type SetupDone = (Vec<(String, String)>, Arc<(Table, Vec<Value>)>);

/// The program with its lookup tables (shared by every game).
#[derive(Debug)]
pub struct Tables {
    /// The compiled program.
    pub prog: Arc<Program>,
    pub loc_count: usize,
    pub int_count: usize,
    pub str_count: usize,
    pub point_count: usize,
    pub loc_lookup: owners::LocIndex,
    pub int_lookup: owners::SymIndex,
    pub str_lookup: owners::SymIndex,
    pub point_lookup: owners::SymIndex,
    pub attr_lookup: HashMap<Sym, u16>,
    /// Byte offset of the start of each source line (empty if unknown).
    pub line_starts: Vec<u32>,
    /// The rules' source text, when known (to quote it in messages).
    pub source: Arc<str>,
    /// The rules file's name, when known: a message read beside another
    /// file's (a position's) names it in front of its places.
    pub file: Arc<str>,
    /// The direction each symbol names (`N`, `NE`, `NEXT`, ...), by symbol.
    pub dirs: Vec<Option<board::Dir>>,
    /// The symbol of each direction among the symbols (for `rotate`), by
    /// `Dir as usize`.
    pub dir_names: [Option<Sym>; board::Dir::COUNT],
    /// Boards already built, by their sizes: a game whose boards have the
    /// sizes of an earlier game's shares their geometry (neighbour tables
    /// included) rather than working it out again.
    pub boards_built: std::sync::Mutex<Vec<BuiltBoards>>,
    /// The automatic items and `end` conditions, compiled.
    pub compiled: compile::Compiled,
    /// Setups that drew nothing from the game's chance, by their `--set`
    /// overrides: the table and declared values they made, the same for
    /// every seed (see `Rules::start`).
    pub setups_done: std::sync::Mutex<Vec<SetupDone>>,
    /// Whether `group` may search with bit sets from the index of what
    /// lies on the spaces (`spaceset`); off with `compiled` off, so the
    /// tests compare both ways.
    pub space_bits: bool,
    /// The limits on the work and memory of a game.
    pub limits: Limits,
}

impl Tables {
    /// The table and declared values of a setup with these overrides that
    /// drew nothing from the game's chance, if one ran before.
    fn setup_done(&self, overrides: &[(String, String)]) -> Option<(Table, Vec<Value>)> {
        let kept = self.setup_kept(overrides)?;
        Some((kept.0.clone(), kept.1.clone()))
    }

    /// The kept setup with these overrides, shared.
    fn setup_kept(&self, overrides: &[(String, String)]) -> Option<Arc<(Table, Vec<Value>)>> {
        let done = self.setups_done.lock().ok()?;
        let (_, kept) = done.iter().find(|(o, _)| o == overrides)?;
        Some(Arc::clone(kept))
    }

    /// Keeps a setup that drew nothing from the game's chance.
    fn keep_setup(&self, overrides: &[(String, String)], table: &Table, globals: &[Value]) {
        if let Ok(mut done) = self.setups_done.lock() {
            // A few are kept (a simulation uses one).
            if done.len() >= 8 {
                done.remove(0);
            }
            done.push((
                overrides.to_vec(),
                Arc::new((table.clone(), globals.to_vec())),
            ));
        }
    }

    /// The tables of `prog`, its automatic items compiled.
    fn new(prog: Arc<Program>) -> Tables {
        Tables::with(prog, true)
    }

    /// The tables of `prog`; with `compiled` false nothing is compiled.
    fn with(prog: Arc<Program>, compiled: bool) -> Tables {
        fn index(names: &[Sym]) -> HashMap<Sym, u16> {
            names
                .iter()
                .enumerate()
                .map(|(i, s)| (*s, i as u16))
                .collect()
        }
        let dirs: Vec<Option<board::Dir>> =
            prog.symbols.iter().map(|s| board::Dir::parse(s)).collect();
        let compiled_items = if compiled {
            compile::Compiled::new(
                &prog,
                &compile::Ctx {
                    loc_count: prog.loc_names.len(),
                    int_count: prog.int_names.len(),
                    str_count: prog.str_names.len(),
                    dirs: &dirs,
                    attr_keys: &prog.attr_keys,
                },
            )
        } else {
            compile::Compiled::none()
        };
        Tables {
            space_bits: compiled,
            compiled: compiled_items,
            loc_count: prog.loc_names.len(),
            int_count: prog.int_names.len(),
            str_count: prog.str_names.len(),
            point_count: prog.point_names.len(),
            loc_lookup: owners::LocIndex::new(prog.symbols.len(), &prog.loc_names),
            int_lookup: owners::SymIndex::new(prog.symbols.len(), &prog.int_names),
            str_lookup: owners::SymIndex::new(prog.symbols.len(), &prog.str_names),
            point_lookup: owners::SymIndex::new(prog.symbols.len(), &prog.point_names),
            attr_lookup: index(&prog.attr_keys),
            line_starts: Vec::new(),
            source: "".into(),
            file: "".into(),
            dirs,
            dir_names: {
                let mut names = [None; board::Dir::COUNT];
                for (i, s) in prog.symbols.iter().enumerate() {
                    if let Some(d) = board::Dir::parse(s) {
                        names[d as usize] = Some(i as Sym);
                    }
                }
                names
            },
            boards_built: Default::default(),
            setups_done: Default::default(),
            limits: Limits::default(),
            prog,
        }
    }
}

/// A compiled rules file, ready to start games.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The compiled program.
    pub program: Arc<Program>,
    tabs: Arc<Tables>,
}

/// A move: which option of the choice, and the item picked at each `any`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Index of the condact in the choice.
    pub option: u16,
    /// Item index picked at each `any`, in the order they were reached.
    pub path: Path,
}

/// Where the game is in its rules: a stage being played (or the top level).
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The stage, or `None` for the top level.
    stage: Option<u32>,
    /// The next item.
    pos: u32,
}

/// A game in progress. A copy shares what does not change (the tables,
/// the declares, the list of legal moves) and copies the rest;
/// `clone_from` copies into the room of an existing state (a search
/// reusing its states allocates nothing per node).
#[derive(Debug)]
pub struct State {
    tabs: Arc<Tables>,
    /// The table; in a cell because finding the legal moves plays each
    /// option and takes it back.
    table: RefCell<Table>,
    /// The buffers of the machines that run on the table.
    scratch: RefCell<Scratch>,
    globals: Arc<Vec<Value>>,
    frames: Vec<Frame>,
    status: Status,
    decisions: u64,
    /// The steps the game ran so far, its decisions together (bounded by
    /// `--max-game-steps`, `Limits::game_steps`).
    steps: u64,
    outcome: Option<Outcome>,
    /// The legal moves of the current choice, once listed (shared by the
    /// copies of the state: a copy about to play one of them checks it
    /// against the list without copying it).
    legal: RefCell<Option<Arc<Vec<Move>>>>,
    /// The move [`GameState::random_move`] drew at this decision (known to
    /// be legal, so `apply` need not list the moves to check it, and plays
    /// it from the plan).
    sampled: RefCell<Option<Move>>,
    /// How to sample the current choice (`None` when it cannot be sampled:
    /// its moves are listed in `legal`), shared by the copies of the state.
    plan: Option<sample::SharedPlan>,
    /// The moves played to be taken back (`undo.rs`): the table's changes
    /// they made, oldest first, and the frames before each; never copied.
    kept: undo::Kept,
    /// The kept setup this game was started from by `Rules::start_into`,
    /// with its overrides: the next game started in this state's room
    /// copies it again without asking the rules' shared list (a lock and
    /// a reference count every thread writes, once a game); never copied.
    setup: Option<KeptSetup>,
}

/// A setup kept for a list of overrides (see `Tables::setup_kept`).
type KeptSetup = (Vec<(String, String)>, Arc<(Table, Vec<Value>)>);

impl Clone for State {
    fn clone(&self) -> State {
        State {
            tabs: Arc::clone(&self.tabs),
            table: self.table.clone(),
            scratch: self.scratch.clone(),
            globals: Arc::clone(&self.globals),
            frames: self.frames.clone(),
            status: self.status.clone(),
            decisions: self.decisions,
            steps: self.steps,
            outcome: self.outcome.clone(),
            legal: self.legal.clone(),
            sampled: self.sampled.clone(),
            plan: self.plan.clone(),
            kept: undo::Kept::default(),
            setup: None,
        }
    }

    /// A copy of `src` in the room of `self`: the table's lists and the
    /// index of what lies on the spaces reuse their allocations, and the
    /// scratch buffers stay `self`'s (a scratch is never copied).
    fn clone_from(&mut self, src: &State) {
        state::share(&mut self.tabs, &src.tabs);
        self.table.get_mut().clone_from(&src.table.borrow());
        state::share(&mut self.globals, &src.globals);
        self.frames.clone_from(&src.frames);
        self.status.clone_from(&src.status);
        self.decisions = src.decisions;
        self.steps = src.steps;
        self.outcome.clone_from(&src.outcome);
        share_some(self.legal.get_mut(), &src.legal.borrow());
        self.sampled.get_mut().clone_from(&src.sampled.borrow());
        share_some(&mut self.plan, &src.plan);
        self.kept.clear();
    }
}

/// [`state::share`] for a value that may be absent.
fn share_some<T>(to: &mut Option<Arc<T>>, src: &Option<Arc<T>>) {
    match (to, src) {
        (Some(to), Some(src)) => state::share(to, src),
        (to, src) => to.clone_from(src),
    }
}

impl State {
    /// The whole table, hidden cards included (for transcripts).
    pub fn describe(&self) -> String {
        view::render(&self.tabs, &self.table.borrow(), None)
    }

    /// Decisions taken so far.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// Checks that every card lies in exactly one real location (`mem`
    /// copies aside) and that the table's record of where it lies agrees.
    /// Returns the number of cards.
    pub fn check_conservation(&self) -> Result<usize, String> {
        let table = self.table.borrow();
        let mut seen = vec![0u32; table.card_count()];
        for (slot, cards) in table.locs.iter().enumerate() {
            let (_, id) = Table::slot_parts(slot as u32, self.tabs.loc_count);
            if self.tabs.prog.loc_names.get(id as usize).map(|l| l.kind) == Some(LocKind::Memory) {
                continue;
            }
            for &c in cards {
                let Some(n) = seen.get_mut(c as usize) else {
                    return Err(format!(
                        "unknown card #{c} in {}",
                        view::slot_name(&self.tabs, &table, slot as u32)
                    ));
                };
                *n += 1;
                if table.card_loc[c as usize] != slot as u32 {
                    return Err(format!("card #{c} is not where the table records it"));
                }
            }
        }
        match seen.iter().position(|&n| n != 1) {
            Some(c) => Err(format!("card #{c} lies in {} places", seen[c])),
            None => Ok(seen.len()),
        }
    }

    /// Whether the game runs (it has not ended, and no limit stopped it).
    fn running(&self) -> bool {
        self.status == Status::Running && self.table.borrow().stopped.is_none()
    }

    /// Where the current choice is written, if the game is at one.
    fn choice_span(&self) -> Option<crate::diagnostic::Span> {
        let f = self.frames.last()?;
        match items_of(&self.tabs.prog, f.stage).get(f.pos as usize)? {
            StageItem::Choice(_, span) => Some(*span),
            _ => None,
        }
    }

    /// The options of the current choice.
    fn choice(&self) -> Option<&[crate::ir::Condact]> {
        choice_in(&self.tabs.prog, &self.frames)
    }

    /// Every legal move of the current choice, found by exploration. The
    /// game found them without error when it reached the choice (or checked
    /// every one of them, see `sample`), so exploring them again cannot
    /// fail; if it did, no move is offered.
    fn enumerate(&self) -> Vec<Move> {
        let conds =
            (self.frames.last()).and_then(|f| self.tabs.compiled.aids(f.stage, f.pos).conds);
        self.with_choice(|m, options| m.explore_moves(options, conds).unwrap_or_default())
            .unwrap_or_default()
    }

    /// Plays a move's actions; `log` collects their descriptions; with
    /// `keep` false everything is taken back (for move text). A move that
    /// fails (a rules error, or picks that do not fit the option) is taken
    /// back too and is an `Err`.
    fn play(&self, mv: &Move, log: bool, keep: bool) -> Result<(u32, Vec<Step>), eval::Fault> {
        self.play_with(mv, (log, None, false), keep, &mut None)
    }

    /// [`State::play`], with the collections of the `any`s kept from the
    /// last move replayed (`picks`, see [`exec::Picks`]) and the log
    /// written for a reader (`None`: every card named), its cards with
    /// their attributes when `faces`.
    fn play_with(
        &self,
        mv: &Move,
        (log, reader, faces): (bool, Option<view::Reader>, bool),
        keep: bool,
        picks: &mut Option<exec::Picks>,
    ) -> Result<(u32, Vec<Step>), eval::Fault> {
        let options = self.choice().ok_or("internal: no choice to make")?;
        let option = options
            .get(mv.option as usize)
            .ok_or("internal: no such option")?;
        let mut table = self.table.borrow_mut();
        let mut scratch = self.scratch.borrow_mut();
        let mut m = Machine::new(&self.tabs, &mut table, &mut scratch, &self.globals);
        // Journaled also when kept: a move that fails leaves no trace.
        m.start_journal();
        m.log = log.then(Vec::new);
        m.log_faces = faces;
        m.reader = reader;
        if let Some(p) = picks.as_mut() {
            p.prepare(mv.option, &mv.path);
        }
        m.oracle = Some(Oracle {
            path: mv.path.clone(),
            kept: picks.take(),
            ..Oracle::default()
        });
        // A text (logged, not kept) needs the log only: the option's last
        // action is checked and logged, not done (see `check_action`).
        let r = match log && !keep {
            true => m.check_condact(option),
            false => m.condact(option),
        };
        let actions = m.actions;
        *picks = m.oracle.as_mut().and_then(|o| o.kept.take());
        let mut log = m.log.take().unwrap_or_default();
        if m.log_more > 0 {
            log.push(Step::More { count: m.log_more });
        }
        let fits = m
            .oracle
            .as_ref()
            .is_some_and(|o| !o.invalid && o.pos == o.path.len());
        if !keep || r.is_err() || !fits {
            m.undo_all();
        }
        r?;
        if !fits {
            return Err(format!(
                "internal: the picks {:?} do not fit option {}",
                mv.path,
                mv.option + 1
            )
            .into());
        }
        Ok((actions, log))
    }

    fn texts(&self, moves: &[Move]) -> Vec<String> {
        self.texts_for(moves, None)
    }

    /// [`State::texts`] written for `reader` (`None`: for everyone, every
    /// card named).
    fn texts_for(&self, moves: &[Move], reader: Option<view::Reader>) -> Vec<String> {
        let described = self.described_for(moves, reader, false);
        described.into_iter().map(|d| d.text).collect()
    }

    /// The texts and steps of `moves` written for `reader` (`None`: for
    /// everyone), made by one replay of each move (the text is the steps
    /// written out); the steps' cards with their attributes when `faces`
    /// (a text alone needs only names).
    fn described_for(
        &self,
        moves: &[Move],
        reader: Option<view::Reader>,
        faces: bool,
    ) -> Vec<Described> {
        // Moves come by option and path: consecutive moves share the
        // collections of their first `any`s, evaluated once.
        let mut picks = Some(exec::Picks::default());
        let mut described: Vec<Described> = moves
            .iter()
            .map(
                |mv| match self.play_with(mv, (true, reader, faces), false, &mut picks) {
                    Ok((_, log)) if !log.is_empty() => Described {
                        text: steps_text(&log),
                        steps: if faces { log } else { Vec::new() },
                    },
                    _ => Described {
                        text: format!("option {}", mv.option + 1),
                        steps: Vec::new(),
                    },
                },
            )
            .collect();
        // Make equal texts distinct: the k-th of several equal texts gets
        // ` (#k)` (counted first, so that this stays linear).
        let mut seen: HashMap<String, (usize, usize)> = HashMap::new();
        for d in &described {
            seen.entry(d.text.clone()).or_insert((0, 0)).0 += 1;
        }
        for d in &mut described {
            if let Some((n, k)) = seen.get_mut(d.text.as_str()) {
                if *n > 1 {
                    *k += 1;
                    d.text = format!("{} (#{k})", d.text);
                }
            }
        }
        described
    }
}

/// Whether `mv` is among `moves`, a choice's legal moves as exploration
/// lists them: by option, then by path in the order of the picks (items
/// are tried in order at every `any`, and no path of an option is the
/// start of another: where one run ends, every run with the same picks
/// so far ends), so a binary search finds a listed move. A move it does
/// not find is looked for in the whole list, so the answer does not
/// depend on that order.
fn is_listed(moves: &[Move], mv: &Move) -> bool {
    fn key(m: &Move) -> (u16, &[u32]) {
        (m.option, m.path.as_slice())
    }
    let found = moves.binary_search_by(|m| key(m).cmp(&key(mv))).is_ok();
    found || moves.contains(mv)
}

/// The options of the choice the game is at, if it is at one.
fn choice_in<'p>(prog: &'p Program, frames: &[Frame]) -> Option<&'p [crate::ir::Condact]> {
    let f = frames.last()?;
    match items_of(prog, f.stage).get(f.pos as usize)? {
        StageItem::Choice(options, _) => Some(options),
        _ => None,
    }
}

/// The items of `stage`, or of the top level.
fn items_of(prog: &Program, stage: Option<u32>) -> &[StageItem] {
    match stage {
        None => &prog.body,
        Some(s) => &prog.stages[s as usize].items,
    }
}

/// The 1-based line and column of a byte offset (0, 0 when the source is
/// unknown).
pub(super) fn line_of(tabs: &Tables, offset: u32) -> (usize, usize) {
    if tabs.line_starts.is_empty() {
        return (0, 0);
    }
    let line = tabs.line_starts.partition_point(|&s| s <= offset);
    let start = tabs.line_starts[line.saturating_sub(1)];
    (line, (offset - start) as usize + 1)
}

/// Where the game is in its rules, for the message of a limit: the
/// innermost stage being played (or the top level).
fn stage_place(tabs: &Tables, frames: &[Frame]) -> String {
    match frames.iter().rev().find_map(|f| f.stage) {
        Some(s) => {
            let (line, _) = line_of(tabs, tabs.prog.stages[s as usize].span.start);
            format!("the stage at line {line}")
        }
        None => "the top level".to_string(),
    }
}

/// A span's place in the rules file as `line L, column C` (`None` when the
/// source is unknown).
fn place(tabs: &Tables, span: crate::diagnostic::Span) -> Option<String> {
    let (line, col) = line_of(tabs, span.start);
    (line > 0).then(|| format!("line {line}, column {col}"))
}

/// Scores every player and finds the winners.
fn score(
    tabs: &Tables,
    table: &mut Table,
    scratch: &mut Scratch,
    globals: &[Value],
) -> Result<Outcome, String> {
    score_with(&mut Machine::new(tabs, table, scratch, globals)).map_err(String::from)
}

/// Scores every player and finds the winners, with `m` (its journal off);
/// an error is located at the `scoring` form.
fn score_with(m: &mut Machine) -> eval::R<Outcome> {
    let prog = &m.tabs.prog;
    let mut scores = Vec::with_capacity(m.table.players);
    for p in 0..m.table.players {
        m.table.player_cycles.push(Cycle::at(p as u8));
        let s = m.int(&prog.scoring.score);
        m.table.player_cycles.pop();
        scores.push(s.map_err(|f| m.locate(f, prog.scoring.span))?);
    }
    let best = if prog.scoring.max {
        scores.iter().max()
    } else {
        scores.iter().min()
    }
    .copied()
    .unwrap_or(0);
    let winners = (0..scores.len()).filter(|&p| scores[p] == best).collect();
    Ok(Outcome { scores, winners })
}
