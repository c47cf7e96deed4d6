//! The engine's [`GameState`]: the narrow interface through which every
//! player and driver plays a [`State`].

use super::*;
use crate::observation::{GameStatus, Observation};

impl GameState for State {
    type Move = Move;
    type Undo = MoveUndo;

    fn num_players(&self) -> usize {
        self.table.borrow().players
    }

    fn current_player(&self) -> Option<usize> {
        self.running().then(|| self.table.borrow().current_player())
    }

    fn decisions(&self) -> u64 {
        self.decisions
    }

    fn settings(&self) -> Vec<(String, String)> {
        State::settings(self)
    }

    fn status(&self) -> Status {
        // A limit passed while the moves were listed (`legal_moves` and
        // the texts run the options).
        match &self.table.borrow().stopped {
            Some(why) if self.status == Status::Running => {
                let place = match self.choice_span() {
                    Some(span) => {
                        let (line, col) = line_of(&self.tabs, span.start);
                        format!("the choice at line {line}, column {col}")
                    }
                    None => stage_place(&self.tabs, &self.frames),
                };
                Status::Stopped(format!("{place}: {why}"))
            }
            _ => self.status.clone(),
        }
    }

    fn legal_moves(&self) -> Vec<Move> {
        if !self.running() {
            return Vec::new();
        }
        if let Some(cached) = self.legal.borrow().as_ref() {
            return cached.to_vec();
        }
        let moves = self.enumerate();
        *self.legal.borrow_mut() = Some(Arc::new(moves.clone()));
        moves
    }

    fn random_move(&self, rng: &mut GameRng) -> Option<Move> {
        if !self.running() {
            return None;
        }
        match self.sample(rng) {
            Some(mv) => {
                self.sampled.borrow_mut().clone_from(&mv);
                mv
            }
            // Exactly the default: list the moves and draw an index.
            None => {
                if self.legal.borrow().is_none() {
                    let moves = self.enumerate();
                    *self.legal.borrow_mut() = Some(Arc::new(moves));
                }
                let legal = self.legal.borrow();
                let moves: &[Move] = legal.as_deref().map_or(&[], |l| l);
                if moves.is_empty() {
                    return None;
                }
                moves.get(below(rng, moves.len())).cloned()
            }
        }
    }

    fn apply(&mut self, mv: &Move) -> Result<(), PlayError> {
        self.check_move(mv)?;
        self.play_legal::<false>(mv)
    }

    fn apply_legal(&mut self, mv: &Move) -> Result<(), PlayError> {
        if !self.running() {
            return Err(PlayError::GameOver);
        }
        // The caller's word: listed in this position (checked in tests).
        debug_assert!(
            self.check_move(mv).is_ok(),
            "apply_legal: {mv:?} is not legal"
        );
        self.play_legal::<false>(mv)
    }

    fn apply_undoable(&mut self, mv: &Move) -> Result<MoveUndo, PlayError> {
        self.check_move(mv)?;
        self.play_undoable(mv)
    }

    fn apply_leaf(&mut self, mv: &Move) -> Result<MoveUndo, PlayError> {
        self.check_move(mv)?;
        let _leaf = super::advance::Leaf::new();
        self.play_undoable(mv)
    }

    fn undo(&mut self, undo: MoveUndo) {
        self.take_back(undo);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn observe(&self, player: usize) -> Observation {
        self.observe_as(Some(player), true)
    }

    fn observe_unlabelled(&self, player: usize) -> Observation {
        self.observe_as(Some(player), false)
    }

    fn moves_to_text_for(&self, moves: &[Move], seat: usize) -> Vec<String> {
        let reader = view::Reader {
            seat,
            played: false,
        };
        self.texts_read_by(moves, reader)
    }

    fn moves_described_for(&self, moves: &[Move], seat: usize) -> Vec<Described> {
        let reader = view::Reader {
            seat,
            played: false,
        };
        // As `texts_read_by`: all the legal moves described at once (equal
        // texts told apart among all), each move found by its hash.
        let legal = self.legal_moves();
        let described = self.described_for(&legal, Some(reader), true);
        let index: HashMap<&Move, usize> = legal.iter().enumerate().map(|(i, m)| (m, i)).collect();
        moves
            .iter()
            .map(|mv| match index.get(mv) {
                Some(&i) => described[i].clone(),
                None => Described {
                    text: format!("option {} (not legal now)", mv.option + 1),
                    steps: Vec::new(),
                },
            })
            .collect()
    }

    fn move_described_seen_by(&self, mv: &Move, viewer: usize) -> Described {
        let reader = view::Reader {
            seat: viewer,
            played: true,
        };
        // Alone, as `move_to_text_seen_by`.
        let mut described = self.described_for(std::slice::from_ref(mv), Some(reader), true);
        described.pop().unwrap_or_default()
    }

    fn move_to_text_seen_by(&self, mv: &Move, viewer: usize) -> String {
        let reader = view::Reader {
            seat: viewer,
            played: true,
        };
        // Alone: no ` (#k)`, which would tell where among equal texts
        // the move was.
        let mut texts = self.texts_for(std::slice::from_ref(mv), Some(reader));
        texts.pop().unwrap_or_default()
    }

    fn score_now(&self) -> Option<Outcome> {
        if self.status != Status::Running {
            return self.outcome.clone();
        }
        // Scoring only reads the table, but a tie broken at random in it
        // would draw from the game's generator: that, and a limit met, are
        // put back as they were.
        let mut table = self.table.borrow_mut();
        let rng = table.rng.clone();
        let stopped = table.stopped.take();
        let scored = score(
            &self.tabs,
            &mut table,
            &mut self.scratch.borrow_mut(),
            &self.globals,
        );
        table.rng = rng;
        table.stopped = stopped;
        scored.ok()
    }

    fn move_to_text(&self, mv: &Move) -> String {
        let mut texts = self.moves_to_text(std::slice::from_ref(mv));
        texts.pop().unwrap_or_default()
    }

    fn moves_to_text(&self, moves: &[Move]) -> Vec<String> {
        // The texts of all the legal moves are made once (equal texts are
        // told apart among all of them), each move found by its hash.
        let legal = self.legal_moves();
        let texts = self.texts(&legal);
        let index: HashMap<&Move, usize> = legal.iter().enumerate().map(|(i, m)| (m, i)).collect();
        moves
            .iter()
            .map(|mv| match index.get(mv) {
                Some(&i) => texts[i].clone(),
                None => format!("option {} {:?} (not legal now)", mv.option + 1, mv.path),
            })
            .collect()
    }

    fn reseed_chance(&mut self, seed: u64) {
        self.table.get_mut().rng = GameRng::new(seed);
    }

    fn chance_drawn(&self) -> bool {
        self.table.borrow().rng.words_drawn() != 0
    }

    fn keep_seen(&mut self) {
        self.start_seen();
    }

    fn display(&self) -> Option<crate::observation::DisplayView> {
        self.tabs.prog.display.as_ref().map(|d| d.view.clone())
    }

    fn move_phrase(&self) -> Option<String> {
        let display = self.tabs.prog.display.as_ref()?;
        let f = self.frames.last()?;
        let choice =
            (self.tabs.prog.choices.iter()).find(|c| c.stage == f.stage && c.pos == f.pos)?;
        (display.phrases.iter())
            .find(|(name, _)| *name == choice.name)
            .map(|(_, phrase)| phrase.clone())
    }

    fn keep_announcements(&mut self) {
        let table = self.table.get_mut();
        if table.announced.is_none() {
            table.announced = Some(Box::default());
        }
    }

    fn announcements_for(&self, seat: usize) -> Vec<String> {
        super::announce::lines_for(&self.tabs, &self.table.borrow(), seat)
    }

    fn resample(&self, observer: usize, rng: &mut GameRng) -> Option<State> {
        Some(self.resampled(observer, rng))
    }

    fn move_from_text(&self, text: &str) -> Result<Move, PlayError> {
        let moves = self.legal_moves();
        let text = text.trim();
        if let Ok(i) = text.parse::<usize>() {
            return moves.get(i).cloned().ok_or_else(|| {
                PlayError::IllegalMove(format!(
                    "there is no move {i}: the legal moves are numbered 0 to {}",
                    moves.len().saturating_sub(1)
                ))
            });
        }
        let texts = self.texts(&moves);
        texts
            .iter()
            .position(|t| t == text)
            .map(|i| moves[i].clone())
            .ok_or_else(|| PlayError::IllegalMove(format!("`{text}` is not a legal move now")))
    }
}

impl State {
    /// The whole table as data, every face shown (for tests that compare
    /// a seat's [`GameState::observe`] with the truth; never for
    /// players): the observation of no seat in particular, without
    /// moves.
    pub fn whole_view(&self) -> Observation {
        let mut all = self.observe_as(None, false);
        all.moves.clear();
        all
    }

    /// [`GameState::observe`] for `viewer` (`None`: every face), the
    /// moves labelled when `label`.
    fn observe_as(&self, viewer: Option<usize>, label: bool) -> Observation {
        let mut seen = crate::game::observe_frame(self, viewer.unwrap_or(usize::MAX));
        seen.seat = viewer.unwrap_or(0);
        let table = self.table.borrow();
        // The seat whose turn it is, or was when the game ended.
        seen.turn = table.current_player();
        seen.decision = self.decisions;
        seen.teams = (table.teams.iter())
            .map(|m| m.iter().map(|p| *p as usize).collect())
            .collect();
        (seen.owners, seen.boards) = view::table_view(&self.tabs, &table, viewer);
        if let (Some(v), GameStatus::Failed(why) | GameStatus::Stopped(why)) =
            (viewer, &mut seen.status)
        {
            *why = view::redact(&self.tabs, &table, v, why);
        }
        // The labels again, the boards in (a piece placed on an empty
        // space is told from one turned over).
        if label && !seen.moves.is_empty() {
            crate::label::label_moves(&mut seen, self.move_phrase().as_deref());
        }
        seen
    }

    /// The texts of `moves` (legal ones) written for `reader`: the texts
    /// of all the legal moves made once (equal ones told apart among all),
    /// each move found by its hash.
    fn texts_read_by(&self, moves: &[Move], reader: view::Reader) -> Vec<String> {
        let legal = self.legal_moves();
        let texts = self.texts_for(&legal, Some(reader));
        let index: HashMap<&Move, usize> = legal.iter().enumerate().map(|(i, m)| (m, i)).collect();
        moves
            .iter()
            .map(|mv| match index.get(mv) {
                Some(&i) => texts[i].clone(),
                None => format!("option {} (not legal now)", mv.option + 1),
            })
            .collect()
    }

    /// Whether `mv` may be played now: the game runs and the move is
    /// legal (drawn by [`GameState::random_move`], or among the listed
    /// moves, listed first if need be).
    #[inline(always)]
    fn check_move(&mut self, mv: &Move) -> Result<(), PlayError> {
        if !self.running() {
            return Err(PlayError::GameOver);
        }
        let drawn = self.sampled.get_mut().as_ref() == Some(mv);
        if !drawn && self.legal.get_mut().is_none() {
            let moves = self.enumerate();
            *self.legal.get_mut() = Some(Arc::new(moves));
        }
        if !drawn
            && !self
                .legal
                .get_mut()
                .as_ref()
                .is_some_and(|l| is_listed(l, mv))
        {
            return Err(PlayError::IllegalMove(format!(
                "option {} with picks {:?} is not one of the {} legal moves",
                mv.option + 1,
                mv.path,
                self.legal_moves().len()
            )));
        }
        Ok(())
    }

    /// Plays `mv`, a legal move (see [`State::check_move`]), and runs the
    /// game on to the next decision, as [`GameState::apply`] does. With
    /// `KEEP`, a move played to be taken back (`undo.rs`): every change is
    /// journaled and kept.
    #[inline(always)]
    pub(super) fn play_legal<const KEEP: bool>(&mut self, mv: &Move) -> Result<(), PlayError> {
        // The announcements kept are the last move's.
        if let Some(list) = self.table.get_mut().announced.as_mut() {
            list.clear();
        }
        // A legal move (drawn, or found in the list) that is a slot of the
        // plan is played from the plan (see `Plan::play`: the same changes,
        // draws and errors) by the machine that then runs the rules on.
        let options = choice_in(&self.tabs.prog, &self.frames).unwrap_or_default();
        if let Some(plan) = self.plan.take_if(|p| p.fits(options, mv)) {
            let played = self
                .run_on::<KEEP>(Some((plan, mv)))
                .map_err(|e| self.fail(e));
            self.note_seen();
            return played;
        }
        let work = super::limits::work_on_this_thread();
        let played = self.play(mv, false, true);
        let ran = super::limits::work_on_this_thread().wrapping_sub(work);
        self.steps = self.steps.saturating_add(ran);
        if let Err(f) = played {
            if self.table.get_mut().stopped.is_some() {
                // A limit passed: the game stops at this decision.
                self.status = self.status();
                return Ok(());
            }
            return Err(self.fail(Stop::Move(mv.clone(), f)));
        }
        if KEEP {
            self.kept.keep_changes(self.scratch.get_mut());
        }
        self.decisions += 1;
        *self.legal.get_mut() = None;
        *self.sampled.get_mut() = None;
        self.plan = None;
        if let Some(f) = self.frames.last_mut() {
            f.pos += 1;
        }
        let played = self.run_on::<KEEP>(None).map_err(|e| self.fail(e));
        self.note_seen();
        played
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{GameOptions, Rules};
    use crate::game::GameState;
    use std::sync::Arc;

    /// A copy of a state at a choice shares the choice's plan (as large as
    /// the choice: its items, a bit per slot) instead of copying it: perft
    /// copied it for every move of the root, 10^5 moves took 2 s and 10^6
    /// minutes.
    #[test]
    fn copies_of_a_state_share_its_plan() {
        let source = "(game (setup (create players 2)) \
                      (choice ((any (range 1 .. 1000) 'K (set (game sto PICK) 'K)))) \
                      (scoring max (game sto PICK)))";
        let rules = Rules::from_source("wide.rcy", source).expect("compiles");
        let state = rules.start(&GameOptions::default()).expect("starts");
        let plan = state.plan.as_ref().expect("the choice has a plan");
        let copy = state.clone();
        assert!(Arc::ptr_eq(plan, copy.plan.as_ref().expect("copied")));
        let mut other = rules.start(&GameOptions::default()).expect("starts");
        other.clone_from(&state);
        assert!(Arc::ptr_eq(plan, other.plan.as_ref().expect("copied")));
        assert_eq!(copy.count_moves(), 1000);
    }

    /// A `create deck` tried and taken back (the moves listed, their
    /// texts made) copies no card: the journal kept the list from before
    /// and put it back, so every `create deck` tried copied the
    /// attributes of every card of the game (`run` over a deck created at
    /// each of 10,000 decisions took minutes). The attributes copied are
    /// counted: the cards of the setup once (the game's own copy of the
    /// setup kept for later games), never again; the old journal copied
    /// some 10^6 here.
    #[test]
    fn a_create_deck_taken_back_copies_no_card() {
        use crate::engine::journal::ATTRS_COPIED;
        let source = "(game (setup (create players 1) \
                        (create deck (game vloc STOCK) (deck (R (A, B, C, D))))) \
                      (stage player (end (== (game sto N) 300)) \
                        (choice ((do ((create deck (game vloc MORE) (deck (R (A, B, C)))) \
                                      (inc (game sto N) 1)))))) \
                      (scoring max 0))";
        let rules = Rules::from_source("decks.rcy", source).expect("compiles");
        // The second game starts from the setup the first one kept.
        for _ in 0..2 {
            let mut state = rules.start(&GameOptions::default()).expect("starts");
            let setup_attrs = state.table.borrow().cards.len();
            assert!(setup_attrs > 0);
            ATTRS_COPIED.with(|c| c.set(0));
            for _ in 0..300 {
                let moves = state.legal_moves();
                assert_eq!(state.moves_to_text(&moves).len(), 1);
                state.apply(&moves[0]).expect("plays");
            }
            assert_eq!(state.status(), crate::game::Status::Finished);
            assert_eq!(state.table.borrow().card_loc.len(), 4 + 300 * 3);
            let copied = ATTRS_COPIED.with(|c| c.get());
            assert!(
                copied <= setup_attrs,
                "{copied} attributes copied ({setup_attrs} in the setup)"
            );
        }
    }
}
