//! The one narrow interface through which everything plays a game: random
//! players, `run`, `simulate`, `perft` (and later search and network play).
//! In the spirit of OpenSpiel's `State`: current player, legal moves, apply,
//! status, outcome, a player's observation, moves as text and back, clone;
//! for search, chance drawn anew and a state resampled from what one player
//! has seen.

use crate::observation::{GameStatus, MoveView, Observation, OutcomeView};
use crate::random::{below, GameRng};
use crate::step::Described;
use std::fmt;

/// Where a game stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// A player must decide: see [`GameState::current_player`].
    Running,
    /// The game ended normally; [`GameState::outcome`] has the result.
    Finished,
    /// The engine stopped the game: a stage looped without any decision
    /// past the step limit. The text says which stage and how many steps.
    Stopped(String),
    /// A rules error stopped the game: the text says what, where in the
    /// rules file (line and column), at which decision, and in which option
    /// when it happened while the moves of a choice were being found. The
    /// [`GameState::apply`] (or start) that met it returned it as
    /// [`PlayError::Rules`]; nothing more can be played.
    Failed(String),
}

/// The result of a finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Each seat's score, as the rules' `scoring` computes it.
    pub scores: Vec<i64>,
    /// The seats sharing first place (one seat when it won alone).
    pub winners: Vec<usize>,
}

/// Why a move or a game step was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The move is not among the legal moves now.
    #[error("illegal move: {0}")]
    IllegalMove(String),
    /// The game is over (or stopped): there is nothing to play.
    #[error("the game is over")]
    GameOver,
    /// The rules did something impossible while playing (a runtime error in
    /// the rules file, such as dividing by zero or a choice with no option),
    /// in the move played or on the way to the next decision, including
    /// while the next choice's moves were found: an error in any option is
    /// the game's error, not an option left out. The game is then
    /// [`Status::Failed`]. The message is the whole account: the decision
    /// (counted from the start of the game), the move or option, and the
    /// place in the rules file.
    #[error("rules error: {0}")]
    Rules(String),
}

/// One game in progress. Cloning is cheap enough for search and perft; a
/// search that copies states often should copy into the room of a state
/// it no longer needs (`spent.clone_from(&parent)`), which a game may make
/// cheaper than a new clone (the engine's reuses every allocation).
pub trait GameState: Clone + Send {
    /// A move: opaque, compared with `==`, printed with [`Self::move_to_text`].
    type Move: Clone + PartialEq + fmt::Debug + Send;
    /// What [`Self::undo`] needs to take back a move played with
    /// [`Self::apply_undoable`] (the engine's holds a few numbers and what
    /// the state kept of the decision; the table's changes stay in the
    /// state).
    type Undo: Send;

    /// Number of seats.
    fn num_players(&self) -> usize;
    /// The seat that must decide now, or `None` when the game is not running.
    fn current_player(&self) -> Option<usize>;
    /// Whether the game runs, finished, or was stopped.
    fn status(&self) -> Status;
    /// Decisions taken so far in the game (0 at its start; a game started
    /// from a position goes on from the position's count): the number of
    /// the decision asked now, as observations ([`Observation`]'s
    /// `decision`) and commands ([`crate::command::Command`]) name it.
    /// The default, for a game that does not count them, is 0.
    fn decisions(&self) -> u64 {
        0
    }
    /// The settings of the game's rules (the declared constants a `--set`
    /// may change) with their values in this game, each `(NAME, VALUE)`,
    /// in the file's order: what a lobby shows. The default, for a game
    /// without any, is none.
    fn settings(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    /// The legal moves of the current player, in a stable order (empty when
    /// the game is not running). A running game has found them (or made
    /// sure they can be found) without error when it reached the decision:
    /// a rules error there made the game [`Status::Failed`] instead.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// One of the legal moves, each with the same probability, drawn from
    /// `rng`; `None` when there is none (or the game is not running).
    ///
    /// The default lists [`Self::legal_moves`] and draws an index with
    /// [`below`]. A game may find the move without listing every legal one,
    /// as long as every legal move stays equally likely and no other move
    /// is ever returned (the engine samples, then checks).
    fn random_move(&self, rng: &mut GameRng) -> Option<Self::Move> {
        let moves = self.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let i = below(rng, moves.len());
        moves.into_iter().nth(i)
    }
    /// Plays `mv` for the current player and runs the game on to the next
    /// decision (or its end). An illegal move is an `Err` and changes
    /// nothing. A rules error (in the move, or on the way to the next
    /// decision, its legal moves included) is a [`PlayError::Rules`] and
    /// leaves the game [`Status::Failed`] with the same message.
    fn apply(&mut self, mv: &Self::Move) -> Result<(), PlayError>;
    /// Plays `mv` as [`Self::apply`] does, for a caller that knows it is
    /// legal: [`Self::legal_moves`] listed it in this same position (the
    /// same game, the same moves played, the same chance drawn), so the
    /// game may skip checking it (the engine would list the moves to
    /// check it). A move that is not legal here may be played wrongly.
    /// The default is [`Self::apply`].
    fn apply_legal(&mut self, mv: &Self::Move) -> Result<(), PlayError> {
        self.apply(mv)
    }
    /// Plays `mv` as [`Self::apply`] does and returns how to take it back
    /// with [`Self::undo`], which leaves the state equal to what it was
    /// before: table, decision, status, legal moves, the game's chance.
    /// For search and perft, which walk a tree in one state rather than
    /// copying a state per node (the engine journals the changes, so
    /// taking a move back costs in proportion to what it changed).
    ///
    /// Unlike [`Self::apply`], an `Err` changes nothing: a move that meets
    /// a rules error is taken back before the error is returned (so the
    /// state is not [`Status::Failed`]). A move that makes the game
    /// stopped by a limit (an `Ok`) is taken back as any other.
    ///
    /// Moves are taken back last first: `undo` must be given the `Undo`
    /// of the latest move played with `apply_undoable` on this state and
    /// not yet taken back, with nothing else played in between ([`Self::apply`]
    /// included). A copy ([`Clone`], `clone_from`) takes none of the
    /// state's moves to take back: the `Undo`s of the original do not fit
    /// the copy. Reading the state in between (legal moves, texts,
    /// status, [`Self::random_move`]) is allowed.
    fn apply_undoable(&mut self, mv: &Self::Move) -> Result<Self::Undo, PlayError>;
    /// [`Self::apply_undoable`] for a position that is only counted, then
    /// taken back at once (perft's last depth): a game may skip finding
    /// the moves of the decision the move leads to, so that, until
    /// [`Self::undo`], its status and legal moves need not be those
    /// [`Self::apply_undoable`] gives (a rules error met only while
    /// finding them is not met). The default is [`Self::apply_undoable`].
    fn apply_leaf(&mut self, mv: &Self::Move) -> Result<Self::Undo, PlayError> {
        self.apply_undoable(mv)
    }
    /// Takes back the move `undo` was returned for (see
    /// [`Self::apply_undoable`]).
    fn undo(&mut self, undo: Self::Undo);
    /// The result, once the game is finished.
    fn outcome(&self) -> Option<Outcome>;
    /// What the game's scoring gives for the table as it stands (the
    /// scores and the seats first by them), the game running or not: for
    /// a search that stops a playout before the end (docs/search.md). It
    /// changes nothing. `None` when the game cannot score now (the
    /// default, or a rules error in the scoring).
    fn score_now(&self) -> Option<Outcome> {
        None
    }
    /// What `player` may see, as data (`docs/protocol.md`): every
    /// location with its count, the faces of the cards it may see (its
    /// own hidden ones included) and of no other, the boards, the
    /// storages, whose turn it is, its legal moves as it may read them
    /// ([`Self::moves_described_for`], with their index as id) when it must
    /// decide, the outcome once the game is over. Built on request only
    /// (playouts never ask).
    ///
    /// The default has no table: seat, turn, status, moves and outcome
    /// ([`observe_frame`]); a game with a table gives its own.
    fn observe(&self, player: usize) -> Observation {
        observe_frame(self, player)
    }
    /// [`Self::observe`] without the moves' labels, targets and card
    /// faces (`MoveView::label`, `target`, `card` left empty): for
    /// encoders that read a move's steps only (`crate::tensor`), where
    /// labelling the moves would be a third of the cost.
    fn observe_unlabelled(&self, player: usize) -> Observation {
        self.observe(player)
    }
    /// What `player` may see, as text: [`Observation::to_text`] of
    /// [`Self::observe`] (visible locations, their own hidden ones,
    /// counts, not faces, of the rest).
    fn observation(&self, player: usize) -> String {
        self.observe(player).to_text()
    }
    /// A move as readable text (unique among the current legal moves).
    fn move_to_text(&self, mv: &Self::Move) -> String;
    /// The texts of several moves, as [`Self::move_to_text`] writes each.
    /// The default asks for each in turn; a game whose texts are made
    /// together (to tell equal ones apart) makes them once, so listing
    /// the moves of a decision costs time in proportion to their number.
    fn moves_to_text(&self, moves: &[Self::Move]) -> Vec<String> {
        moves.iter().map(|mv| self.move_to_text(mv)).collect()
    }
    /// The texts of some of the legal moves as `seat`, the current
    /// player, may read them before it plays one: a card it cannot see
    /// where it lies now is written `a card` (the engine's texts name
    /// every card, so that transcripts replay; a move that would draw a
    /// hidden card must not show its face to the player choosing it).
    /// Made together as [`Self::moves_to_text`] makes them (equal texts
    /// told apart with ` (#k)`). The default is [`Self::moves_to_text`]:
    /// a game whose texts may name hidden cards gives its own.
    fn moves_to_text_for(&self, moves: &[Self::Move], seat: usize) -> Vec<String> {
        let _ = seat;
        self.moves_to_text(moves)
    }
    /// The text of `mv`, a legal move about to be played by the current
    /// player, as `viewer` may see it played: a card is named only if the
    /// viewer sees it where it lies or where it lands (else `a card`).
    /// Ask before [`Self::apply`]. This is how one seat is told what
    /// another did. The default is [`Self::move_to_text`].
    fn move_to_text_seen_by(&self, mv: &Self::Move, viewer: usize) -> String {
        let _ = viewer;
        self.move_to_text(mv)
    }
    /// Some of the legal moves as `seat`, the current player, may know
    /// them before it plays one: each move's text, as
    /// [`Self::moves_to_text_for`] writes it, and its steps
    /// ([`crate::step::Step`]: what it moves or sets, from where, to
    /// where), made by the same account of the move, so that a card the
    /// text writes `a card` is left out of its step too. The default
    /// gives the texts with no steps; a game that can say what its moves
    /// do gives its own.
    fn moves_described_for(&self, moves: &[Self::Move], seat: usize) -> Vec<Described> {
        let texts = self.moves_to_text_for(moves, seat);
        texts
            .into_iter()
            .map(|text| Described {
                text,
                steps: Vec::new(),
            })
            .collect()
    }
    /// `mv`, a legal move about to be played by the current player, as
    /// `viewer` may see it played: the text of
    /// [`Self::move_to_text_seen_by`] and the steps that text writes out
    /// (a card named only where the text names it). Ask before
    /// [`Self::apply`]. The default has no steps.
    fn move_described_seen_by(&self, mv: &Self::Move, viewer: usize) -> Described {
        Described {
            text: self.move_to_text_seen_by(mv, viewer),
            steps: Vec::new(),
        }
    }
    /// Reads a move written as [`Self::move_to_text`] writes it (or as the
    /// index of the move in [`Self::legal_moves`]).
    fn move_from_text(&self, text: &str) -> Result<Self::Move, PlayError>;

    /// Draws the game's chance to come (shuffles, dice, random tie breaks)
    /// anew from `seed`, so that a search playing on from a copy cannot
    /// know what the real game's chance will bring. Nothing else changes.
    /// The default does nothing: a game without chance, or one whose
    /// chance a search may know.
    fn reseed_chance(&mut self, seed: u64) {
        let _ = seed;
    }

    /// Whether the game drew anything from its chance (a shuffle, a die,
    /// a random tie break) since its chance was seeded: at its start, or
    /// by the last [`Self::reseed_chance`]. A search that reseeds a copy
    /// and plays moves on it knows, while nothing was drawn, that the
    /// position depends on those moves alone (so the legal moves it
    /// listed there before are the legal moves again). The default, for
    /// a game that cannot tell, is `true`.
    fn chance_drawn(&self) -> bool {
        true
    }

    /// The rules' display section as renderers read it
    /// ([`crate::observation::Observation::display`]); `None` when the
    /// rules have none (the default).
    fn display(&self) -> Option<crate::observation::DisplayView> {
        None
    }

    /// The author's phrase for the moves of the current decision (a
    /// display section's `(phrase CHOICE "TEXT")` for the choice being
    /// decided), if there is one; [`crate::label`] fills it in. The
    /// default has none.
    fn move_phrase(&self) -> Option<String> {
        None
    }

    /// The label of `mv`, a legal move about to be played by the current
    /// player, as `viewer` may read it ([`crate::label`]: from the steps of
    /// [`Self::move_described_seen_by`], the display section, the
    /// phrase, and the boards as they stand). Ask before [`Self::apply`].
    fn move_label_seen_by(&self, mv: &Self::Move, viewer: usize) -> String {
        let described = self.move_described_seen_by(mv, viewer);
        self.label_of(&described, viewer)
    }

    /// The label of a move of the current decision described as
    /// `viewer` reads it (see [`Self::move_label_seen_by`]).
    fn label_of(&self, described: &Described, viewer: usize) -> String {
        // The boards as `viewer` sees them now (storages are seen by all).
        let seen = self.observe(viewer);
        let display = self.display();
        let phrase = self.move_phrase();
        let cx = crate::label::Context {
            display: display.as_ref(),
            phrase: phrase.as_deref(),
            mover: self.current_player().unwrap_or(viewer),
            boards: &seen.boards,
        };
        crate::label::present(&described.steps, &described.text, &cx).label
    }

    /// Starts keeping what the rules announce (`announce`) while a move
    /// is played, for [`Self::announcements_for`]; a game keeps nothing
    /// until asked, so that playouts and `simulate` pay nothing for it.
    /// The default keeps nothing.
    fn keep_announcements(&mut self) {}

    /// What the rules announced while the last move was played (from the
    /// move to the next decision, the automatic items after it included;
    /// before the first move, what the start announced), each
    /// announcement one line as `seat` reads it (a card it may not see is
    /// `a card`). Empty unless [`Self::keep_announcements`] was called
    /// (the default: always empty).
    fn announcements_for(&self, seat: usize) -> Vec<String> {
        let _ = seat;
        Vec::new()
    }

    /// Starts keeping, for every seat, which cards it has seen (see
    /// [`Self::resample`]); a game keeps nothing until asked, so that
    /// playouts pay nothing for it. Cards seen before the call are
    /// forgotten (which only makes [`Self::resample`] redeal more). The
    /// default keeps nothing.
    fn keep_seen(&mut self) {}

    /// A state that `observer` cannot tell from this one, drawn at random
    /// from `rng`: every card the observer cannot see now and has not seen
    /// (as [`Self::keep_seen`] keeps it) is dealt anew among the places of
    /// such cards, each place keeping its number of cards, and everything
    /// the observer sees stays as it is; the game's chance to come is
    /// drawn anew too. The result depends on the true state only through
    /// what the observer has seen: two states with the same observation
    /// history give the same result for the same `rng`. For
    /// information-set search (docs/search.md says what "seen" covers).
    /// `None` when the game cannot resample (the default).
    fn resample(&self, observer: usize, rng: &mut GameRng) -> Option<Self> {
        let _ = (observer, rng);
        None
    }
}

/// What any game can say of a seat's view without a table: the seat, the
/// number of seats, whose turn it is, the status, the seat's legal moves
/// ([`GameState::moves_described_for`]: text and steps, each with its
/// index as id) when it is to play, and the outcome. [`GameState::observe`] starts from it.
pub fn observe_frame<S: GameState>(state: &S, player: usize) -> Observation {
    let turn = state.current_player();
    let moves = if turn == Some(player) {
        let legal = state.legal_moves();
        state
            .moves_described_for(&legal, player)
            .into_iter()
            .enumerate()
            .map(|(id, d)| MoveView {
                id,
                text: d.text,
                steps: d.steps,
                ..MoveView::default()
            })
            .collect()
    } else {
        Vec::new()
    };
    let status = match state.status() {
        Status::Running => GameStatus::Running,
        Status::Finished => GameStatus::Finished,
        Status::Stopped(why) => GameStatus::Stopped(why),
        Status::Failed(why) => GameStatus::Failed(why),
    };
    let mut seen = Observation {
        seat: player,
        players: state.num_players(),
        turn: turn.unwrap_or(0),
        decision: state.decisions(),
        status,
        moves,
        outcome: state.outcome().map(|o| OutcomeView {
            scores: o.scores,
            winners: o.winners,
        }),
        display: state.display(),
        ..Observation::default()
    };
    // The moves' labels, targets and cards (`crate::label`); a game with
    // boards labels them again once its boards are in.
    if !seen.moves.is_empty() {
        crate::label::label_moves(&mut seen, state.move_phrase().as_deref());
    }
    seen
}
