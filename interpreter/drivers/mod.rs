//! Drivers: the programs behind the `cardboard` subcommands (`check`, `run`,
//! `simulate`, `perft`), as library functions so tests can call them.
//!
//! Everything that plays is generic over a [`Ruleset`] (something that starts
//! games) and its [`GameState`], so the drivers can be tested on toy games and
//! never reach into the engine's internals.

pub mod check;
pub mod output;
pub mod perft;
pub mod report;
pub mod run;
pub mod simulate;

use crate::engine::{GameOptions, Rules, State};
use crate::game::{GameState, Outcome, PlayError, Status};
use crate::player::Player;
use crate::random::{mix64, splitmix64};

/// The default `--max-decisions`: a game still running after this many
/// decisions is stopped (and counted as stopped, not as an error).
pub const DEFAULT_MAX_DECISIONS: u64 = 10_000;

/// Something that starts games: the compiled rules of a file, or a toy game
/// in tests.
pub trait Ruleset: Sync {
    /// A game in progress.
    type State: GameState;
    /// Starts a game with `options` (seed and `--set` overrides), played on
    /// to its first decision.
    fn start(&self, options: &GameOptions) -> Result<Self::State, PlayError>;
    /// Starts a game as [`Ruleset::start`] does, into `slot`, which may
    /// hold the last game played (a simulation plays many games one after
    /// the other on a thread): an engine may reuse its room.
    fn start_into(
        &self,
        options: &GameOptions,
        slot: &mut Option<Self::State>,
    ) -> Result<(), PlayError> {
        *slot = None;
        *slot = Some(self.start(options)?);
        Ok(())
    }
    /// Refuses `--set` overrides that no game could start with (a name
    /// the rules do not declare, a value of the wrong kind), before any
    /// game is started; the default accepts them all.
    fn check_settings(&self, overrides: &[(String, String)]) -> Result<(), PlayError> {
        let _ = overrides;
        Ok(())
    }
    /// The whole table, hidden cards included, as text for transcripts.
    fn describe(&self, state: &Self::State) -> String;
    /// How many legal moves `state` offers: `legal_moves().len()`, perhaps
    /// found without listing them.
    fn count_moves(&self, state: &Self::State) -> usize {
        state.legal_moves().len()
    }
}

impl Ruleset for Rules {
    type State = State;
    fn start(&self, options: &GameOptions) -> Result<State, PlayError> {
        Rules::start(self, options)
    }
    fn start_into(&self, options: &GameOptions, slot: &mut Option<State>) -> Result<(), PlayError> {
        Rules::start_into(self, options, slot)
    }
    fn check_settings(&self, overrides: &[(String, String)]) -> Result<(), PlayError> {
        Rules::check_settings(self, overrides)
    }
    fn describe(&self, state: &State) -> String {
        state.describe()
    }
    fn count_moves(&self, state: &State) -> usize {
        state.count_moves()
    }
}

/// Games that all start from one position (`--position`, see
/// docs/positions.md): every start is a copy of the loaded state, chance
/// included, whatever the options say; the seed then only seeds the random
/// players.
pub struct FromPosition {
    state: std::sync::Mutex<State>,
}

impl FromPosition {
    /// Games starting at `state`.
    pub fn new(state: State) -> FromPosition {
        FromPosition {
            state: std::sync::Mutex::new(state),
        }
    }
}

impl Ruleset for FromPosition {
    type State = State;
    fn start(&self, _options: &GameOptions) -> Result<State, PlayError> {
        match self.state.lock() {
            Ok(state) => Ok(state.clone()),
            Err(poisoned) => Ok(poisoned.into_inner().clone()),
        }
    }
    fn describe(&self, state: &State) -> String {
        state.describe()
    }
    fn count_moves(&self, state: &State) -> usize {
        state.count_moves()
    }
}

/// How one game ended, as the drivers see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// The game finished normally.
    Finished(Outcome),
    /// The engine stopped it (a stage looped without a decision); the text
    /// says which stage and how many steps.
    Stopped(String),
    /// The driver stopped it after `--max-decisions` decisions.
    AtLimit,
    /// The rules failed while starting or playing (or the engine
    /// contradicted itself): the message says what happened.
    Error(String),
}

/// The seed of game `i` of a simulation whose base seed is `base`: the
/// `i`-th output of splitmix64 started at `base`. It depends on `base` and `i`
/// only, so any number of threads plays the same games.
pub fn game_seed(base: u64, i: u64) -> u64 {
    splitmix64(base, i)
}

/// The seed of the random player of the game whose seed is `game_seed`
/// (a second derivation, so the players' choices and the game's shuffles
/// draw from unrelated streams). `run --seed S` and game `i` of `simulate`
/// (when `S == game_seed(base, i)`) play the very same game.
pub fn player_seed(game_seed: u64) -> u64 {
    mix64(game_seed ^ 0xD1B5_4A32_D192_ED03)
}

/// Reads a `--set NAME=VALUE` argument. The name may be written with
/// RECYCLE's quote (`'NUMP=4`); the quote is dropped.
///
/// ```
/// use cardboard::drivers::parse_set;
/// assert_eq!(parse_set("NUMP=4"), Ok(("NUMP".to_string(), "4".to_string())));
/// assert!(parse_set("NUMP").is_err());
/// ```
pub fn parse_set(text: &str) -> Result<(String, String), String> {
    let Some((name, value)) = text.split_once('=') else {
        return Err(format!(
            "expected NAME=VALUE (for example `NUMP=4`), found `{text}`"
        ));
    };
    let name = name.trim();
    let name = name.strip_prefix('\'').unwrap_or(name);
    let value = value.trim();
    if name.is_empty() {
        return Err(format!(
            "missing the constant's name before `=` in `{text}`"
        ));
    }
    if name
        .chars()
        .any(|c| c.is_whitespace() || c == '(' || c == ')')
    {
        return Err(format!("`{name}` is not a constant's name (in `{text}`)"));
    }
    if value.is_empty() {
        return Err(format!("missing the value after `=` in `{text}`"));
    }
    Ok((name.to_string(), value.to_string()))
}

/// The legal moves of a running `state`, or an error when the engine says
/// the game runs but offers nothing to play.
pub(crate) fn moves_of<S: GameState>(state: &S) -> Result<Vec<S::Move>, String> {
    let moves = state.legal_moves();
    if moves.is_empty() {
        // Listing the moves may pass a limit (`--max-options` when the
        // game had only sampled one): the game stops, and says why.
        if let Status::Stopped(why) = state.status() {
            return Err(format!("the engine stopped the game: {why}"));
        }
        return Err(no_move(state));
    }
    Ok(moves)
}

/// What is wrong when a running `state` has no legal move.
fn no_move<S: GameState>(state: &S) -> String {
    match state.current_player() {
        Some(p) => format!("the game is running but player {p} has no legal move"),
        None => "the game is running but no player is to move".to_string(),
    }
}

/// The outcome of a finished `state`, or an error when the engine has none.
pub(crate) fn outcome_of<S: GameState>(state: &S) -> GameEnd {
    match state.outcome() {
        Some(outcome) => GameEnd::Finished(outcome),
        None => GameEnd::Error("the game finished without an outcome".to_string()),
    }
}

/// Plays `state` out with `player` choosing for every seat, until the game
/// ends, the engine stops it, it fails, or `max_decisions` decisions have
/// been taken. Before each move is applied, `on_decision` sees the decision's
/// number (from 1), the state and the move chosen. The legal moves are not
/// listed unless the player asks for them ([`Player::choose_move`]) or
/// `on_decision` does ([`GameState::legal_moves`]; the list does not change
/// what a random player picks).
/// Returns how the game ended and the number of decisions taken.
pub fn play_out<S, P>(
    state: &mut S,
    player: &mut P,
    max_decisions: u64,
    mut on_decision: impl FnMut(u64, &S, &S::Move),
) -> (GameEnd, u64)
where
    S: GameState,
    P: Player<S>,
{
    let mut decisions = 0u64;
    loop {
        match state.status() {
            Status::Finished => return (outcome_of(state), decisions),
            Status::Stopped(why) => return (GameEnd::Stopped(why), decisions),
            Status::Failed(why) => return (GameEnd::Error(why), decisions),
            Status::Running => {}
        }
        if decisions >= max_decisions {
            return (GameEnd::AtLimit, decisions);
        }
        let chosen = match player.choose_move(state) {
            Ok(Some(mv)) => mv,
            Ok(None) => return (GameEnd::Error(no_move(state)), decisions),
            Err(why) => {
                decisions += 1;
                return (
                    GameEnd::Error(format!("decision {decisions}: {why}")),
                    decisions,
                );
            }
        };
        decisions += 1;
        on_decision(decisions, state, &chosen);
        if state.status() != Status::Running {
            // Listing the moves for the callback passed a limit (say
            // `--max-options`): the game stopped before this decision.
            decisions -= 1;
            continue;
        }
        if let Err(e) = state.apply(&chosen) {
            let why = match e {
                // The game's own account: which decision, which move or
                // option, where in the rules (see `PlayError::Rules`).
                PlayError::Rules(_) => e.to_string(),
                // A move refused: the game is as it was, so it still says
                // who was to play and what the move was.
                _ => {
                    let who = state
                        .current_player()
                        .map_or("nobody".to_string(), |p| format!("player {p}"));
                    let text = state.move_to_text(&chosen);
                    format!("decision {decisions}: {who} played `{text}`: {e}")
                }
            };
            return (GameEnd::Error(why), decisions);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_arguments() {
        assert_eq!(parse_set("'NUMP = 3"), Ok(("NUMP".into(), "3".into())));
        assert_eq!(parse_set("A=b=c"), Ok(("A".into(), "b=c".into())));
        assert!(parse_set("=3").is_err());
        assert!(parse_set("X=").is_err());
        assert!(parse_set("A B=1").is_err());
    }

    #[test]
    fn seeds_differ_per_game_and_from_player() {
        let a = game_seed(1, 0);
        assert_ne!(a, game_seed(1, 1));
        assert_ne!(a, game_seed(2, 0));
        assert_ne!(a, player_seed(a));
    }
}
