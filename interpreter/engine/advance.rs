//! How a game runs from one decision to the next: [`State::begin`] starts
//! the rules from the top, [`State::run_on`] plays a drawn move from its
//! plan (if any) and runs the stages on (their frames, automatic items,
//! `end` conditions and player or team cycles) until the next choice, whose
//! moves it finds (its plan, or the list), or the end of the game, which it
//! scores. An error of the rules on the way, or a limit passed, ends or
//! stops the game there, saying where.

use super::journal::{CycleChange, Undo};
use super::*;

thread_local! {
    /// Whether the choice a move leads to is only counted on this thread
    /// ([`GameState::apply_leaf`](crate::game::GameState::apply_leaf)):
    /// its moves are not found.
    static LEAF: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// While it lives, the choice the rules run on to on this thread has its
/// moves left unfound (perft's last depth counts the position, nothing
/// more).
pub(super) struct Leaf(bool);

impl Leaf {
    pub(super) fn new() -> Leaf {
        Leaf(LEAF.with(|l| l.replace(true)))
    }
}

impl Drop for Leaf {
    fn drop(&mut self) {
        LEAF.with(|l| l.set(self.0));
    }
}

impl State {
    /// Starts the rules from the top with the table and declares as they
    /// are: no decision taken, nothing chosen, played on to the first
    /// decision (a new game, see `start.rs`).
    pub(super) fn begin(&mut self) -> Result<(), PlayError> {
        self.frames.clear();
        self.frames.push(Frame {
            stage: None,
            pos: 0,
        });
        self.status = Status::Running;
        self.decisions = 0;
        self.steps = 0;
        self.outcome = None;
        *self.legal.get_mut() = None;
        *self.sampled.get_mut() = None;
        self.plan = None;
        self.kept.clear();
        self.advance().map_err(|e| self.fail(e))
    }

    /// Runs the rules on to the next decision or the end.
    pub(super) fn advance(&mut self) -> Result<(), Stop> {
        self.run_on::<false>(None)
    }

    /// Runs the rules on to the next decision or the end; with `drawn`,
    /// first plays that move of the current choice from that plan (which
    /// it must [fit](sample::Plan::fits)) and steps past the choice, as
    /// `GameState::apply` does, the one machine then running the rules on.
    /// A drawn move that fails is taken back, the plan kept.
    ///
    /// With `KEEP` (a move played to be taken back, `undo.rs`) every
    /// change is journaled and kept; without, the code is as if there
    /// were no taking back (the playouts' path).
    pub(super) fn run_on<const KEEP: bool>(
        &mut self,
        drawn: Option<(sample::SharedPlan, &Move)>,
    ) -> Result<(), Stop> {
        // The fields borrowed apart: the machine holds the tables, the
        // table and the declares while the frames and the rest change.
        let State {
            tabs,
            table,
            scratch,
            globals,
            frames,
            status,
            decisions,
            steps,
            outcome,
            legal,
            sampled,
            plan: kept_plan,
            kept,
            setup: _,
        } = self;
        let tabs: &Tables = tabs;
        let prog = &tabs.prog;
        // One machine plays the drawn move, runs every automatic item and
        // `end` condition met on the way and finds the moves of the next
        // choice (a variable is only read inside the form binding it, so
        // nothing carries over from one item to the next).
        let mut m = Machine::new(tabs, table.get_mut(), scratch.get_mut(), globals);
        // What is left of the game's steps bounds this machine's too; the
        // steps it runs are added to the game's when it returns.
        m.max_steps = m
            .max_steps
            .min(tabs.limits.game_steps.saturating_sub(*steps));
        let _counted = limits::CountSteps::new(steps);
        // A move played to be taken back: every change is journaled, the
        // stage cycles' too, up to the next choice.
        if KEEP {
            m.start_journal();
        }
        // The plan just played, kept so that the next choice's plan is
        // written in its room (see `sample::prepare`): no allocation per
        // decision. It is never the state's plan meanwhile.
        let mut spent = None;
        if let Some((plan, mv)) = drawn {
            let options = choice_in(prog, frames).unwrap_or_default();
            let plays = (frames.last()).and_then(|f| tabs.compiled.plays(f.stage, f.pos));
            m.start_journal();
            if let Err(f) = plan.play(&mut m, (options, plays), mv) {
                if let Some(why) = m.table.stopped.clone() {
                    *status = Status::Stopped(format!("{}: {why}", stage_place(tabs, frames)));
                    return Ok(());
                }
                drop(m);
                *kept_plan = Some(plan);
                return Err(Stop::Move(mv.clone(), f));
            }
            if !KEEP {
                m.stop_journal();
            }
            spent = Some(plan);
            *decisions += 1;
            *legal.get_mut() = None;
            *sampled.get_mut() = None;
            if let Some(f) = frames.last_mut() {
                f.pos += 1;
            }
        }
        // An error of the rules between two decisions, or a limit passed:
        // the game then stops, saying where.
        let halt = |m: &Machine, status: &mut Status, frames: &[Frame], decisions: u64, f| match &m
            .table
            .stopped
        {
            Some(why) => {
                *status = Status::Stopped(format!("{}: {why}", stage_place(tabs, frames)));
                Ok(())
            }
            None => Err(Stop::Rules(between(decisions, f))),
        };
        let between = |decisions: u64, f: eval::Fault| Stop::Rules(between(decisions, f));
        loop {
            let Some(frame) = frames.last().copied() else {
                *status = Status::Finished;
                *outcome = Some(score_with(&mut m).map_err(|f| between(*decisions, f))?);
                return Ok(());
            };
            let items = items_of(prog, frame.stage);
            if frame.pos as usize >= items.len() {
                let Some(s) = frame.stage else {
                    frames.pop();
                    continue;
                };
                let stage = &prog.stages[s as usize];
                let done = match m.charge(1).and_then(|()| stage_ends(&mut m, s)) {
                    Ok(done) => done,
                    Err(f) => return halt(&m, status, frames, *decisions, f),
                };
                if done {
                    frames.pop();
                    pop_cycle(&mut m, stage.kind, KEEP);
                    if let Some(parent) = frames.last_mut() {
                        parent.pos += 1;
                    }
                } else {
                    let n = cycle_len(m.table, stage.kind);
                    if let Some(c) = cycles(m.table, stage.kind).last_mut() {
                        let was = *c;
                        c.advance(n);
                        if KEEP {
                            m.record(|_| Undo::Cycle(stage.kind, CycleChange::Was(was)));
                        }
                    }
                    if let Some(f) = frames.last_mut() {
                        f.pos = 0;
                    }
                }
                continue;
            }
            match &items[frame.pos as usize] {
                StageItem::Stage(s) => {
                    let stage = &prog.stages[*s];
                    let top = cycles(m.table, stage.kind)
                        .last()
                        .copied()
                        .unwrap_or(Cycle::at(0));
                    cycles(m.table, stage.kind).push(Cycle::at(top.idx));
                    if KEEP {
                        m.record(|_| Undo::Cycle(stage.kind, CycleChange::Pushed));
                    }
                    let done = match stage_ends(&mut m, *s as u32) {
                        Ok(done) => done,
                        Err(f) => return halt(&m, status, frames, *decisions, f),
                    };
                    if done {
                        pop_cycle(&mut m, stage.kind, KEEP);
                        if let Some(f) = frames.last_mut() {
                            f.pos += 1;
                        }
                    } else {
                        frames.push(Frame {
                            stage: Some(*s as u32),
                            pos: 0,
                        });
                    }
                }
                StageItem::Run(c) => {
                    let r = m.charge(1).and_then(|()| {
                        match tabs.compiled.item(frame.stage, frame.pos) {
                            // Located as `Machine::condact` locates it.
                            Some(run) => run(&mut m).map_err(|e| m.locate(e.into(), c.span)),
                            None => m.condact(c),
                        }
                    });
                    if let Err(f) = r {
                        return halt(&m, status, frames, *decisions, f);
                    }
                    if let Some(f) = frames.last_mut() {
                        f.pos += 1;
                    }
                }
                // A choice's fallback, reached after the choice was played.
                StageItem::Else(_) => {
                    if let Some(f) = frames.last_mut() {
                        f.pos += 1;
                    }
                }
                StageItem::Choice(options, span) => {
                    *status = Status::Running;
                    // A choice with no option cannot be played. When the
                    // moves can be sampled they are not listed: finding one
                    // is enough. The machine that ran the rules here finds
                    // them (its journal on, the table left as it was).
                    *legal.get_mut() = None;
                    *sampled.get_mut() = None;
                    // The last plan is replaced by `sample::prepare`,
                    // which reuses its room.
                    if KEEP {
                        m.keep_journal(&mut kept.changes);
                    }
                    if LEAF.with(|l| l.get()) {
                        // A position only counted: its moves are not
                        // needed.
                        *kept_plan = None;
                        return Ok(());
                    }
                    m.start_journal();
                    let aids = tabs.compiled.aids(frame.stage, frame.pos);
                    let mut listed = None;
                    if kept_plan.is_none() {
                        *kept_plan = spent.take();
                    }
                    let found = sample::prepare(&mut m, options, aids, (kept_plan, &mut listed));
                    *legal.get_mut() = listed.map(Arc::new);
                    m.undo_all();
                    if let Some(why) = &m.table.stopped {
                        let (line, col) = line_of(tabs, span.start);
                        *status = Status::Stopped(format!(
                            "the choice at line {line}, column {col}: {why}"
                        ));
                        return Ok(());
                    }
                    let player = m.table.current_player();
                    match found {
                        Ok(true) => return Ok(()),
                        Ok(false)
                            if matches!(
                                items.get(frame.pos as usize + 1),
                                Some(StageItem::Else(_))
                            ) =>
                        {
                            // No legal option: the choice's fallback runs,
                            // with no decision, and the stage goes on.
                            *legal.get_mut() = None;
                            *sampled.get_mut() = None;
                            *kept_plan = None;
                            // A move played to be taken back journals the
                            // fallback's changes too (the journal is empty
                            // again after the exploration's undo).
                            if !KEEP {
                                m.stop_journal();
                            }
                            if let Some(StageItem::Else(c)) = items.get(frame.pos as usize + 1) {
                                if let Err(f) = m.charge(1).and_then(|()| m.condact(c)) {
                                    return halt(&m, status, frames, *decisions, f);
                                }
                            }
                            if let Some(f) = frames.last_mut() {
                                f.pos += 2;
                            }
                        }
                        Ok(false) => {
                            let (line, col) = line_of(tabs, span.start);
                            return Err(Stop::Rules(format!(
                                "decision {}: the choice at line {line}, column {col} has no legal option for player {player}",
                                *decisions + 1
                            )));
                        }
                        Err(e) => {
                            return Err(Stop::Rules(option_error(
                                tabs, frames, e, player, *decisions,
                            )))
                        }
                    }
                }
            }
        }
    }
}

/// Whether stage `s` ends now: its compiled `end` condition. An error is
/// located at the `end` form.
fn stage_ends(m: &mut Machine, s: u32) -> eval::R<bool> {
    let tabs = m.tabs;
    let stage = &tabs.prog.stages[s as usize];
    let r = match tabs.compiled.end(s) {
        Some(end) => end(m).map_err(eval::Fault::from),
        None => m.bool(&stage.end),
    };
    r.map_err(|f| m.locate(f, stage.end_span))
}

fn cycles(table: &mut Table, kind: CycleKind) -> &mut Vec<Cycle> {
    match kind {
        CycleKind::Player => &mut table.player_cycles,
        CycleKind::Team => &mut table.team_cycles,
    }
}

fn cycle_len(table: &Table, kind: CycleKind) -> usize {
    match kind {
        CycleKind::Player => table.players,
        CycleKind::Team => table.teams.len(),
    }
}

/// Leaves a stage: its cycle popped (journaled with `keep`, see `undo.rs`).
#[inline(always)]
fn pop_cycle(m: &mut Machine, kind: CycleKind, keep: bool) {
    let c = cycles(m.table, kind);
    if c.len() > 1 {
        if let Some(popped) = c.pop() {
            if keep {
                m.record(|_| Undo::Cycle(kind, CycleChange::Popped(popped)));
            }
        }
    }
}
