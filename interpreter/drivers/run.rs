//! `cardboard run`: one game with random players, told as a transcript.
//!
//! The transcript is a pure function of the rules, the seed, the overrides
//! and the decision limit, so it can be pinned by a snapshot test:
//!
//! ```text
//! seed: 7
//! players: 2
//! set: none
//! decision limit: 10000
//!
//! == setup ==
//! (the whole table)
//!
//! == decision 1: player 0 ==
//! legal moves:
//!   0: take 1
//!   1: take 2
//! plays 1: take 2
//! ...
//! == finished after 9 decisions ==
//! (the whole table)
//! scores: player 0: 1, player 1: 0
//! winners: player 0
//! ```

use super::{play_out, GameEnd, Ruleset};
use crate::engine::GameOptions;
use crate::game::{GameState, Outcome, Status};
use crate::search::seats::Seats;
use std::fmt::Write;

/// One game played by [`run_game`].
#[derive(Clone, Debug)]
pub struct RunResult {
    /// The transcript.
    pub text: String,
    /// How the game ended.
    pub end: GameEnd,
    /// Decisions taken.
    pub decisions: u64,
}

/// The transcript of one game with random players (see the module doc).
/// The game's chance uses `options.seed`, the random player
/// [`player_seed`](super::player_seed)`(options.seed)`.
pub fn transcript<R: Ruleset>(rules: &R, options: &GameOptions, max_decisions: u64) -> String {
    run_game(rules, options, max_decisions).text
}

/// Plays one game like [`transcript`] and also says how it ended.
pub fn run_game<R: Ruleset>(rules: &R, options: &GameOptions, max_decisions: u64) -> RunResult {
    run_game_to(rules, options, max_decisions).0
}

/// Plays one game like [`run_game`] and also returns the state it ended in
/// (`None` when the game could not start), to save it as a position.
pub fn run_game_to<R: Ruleset>(
    rules: &R,
    options: &GameOptions,
    max_decisions: u64,
) -> (RunResult, Option<R::State>) {
    run_seated(rules, options, max_decisions, &Seats::random())
}

/// Plays one game like [`run_game_to`] with `seats` choosing the moves
/// ([`Seats::player`] of the game's seed; the random seats play as
/// [`run_game`]'s player). Seats other than random are named in the
/// transcript's header; more seats than players is an error at start.
pub fn run_seated<R: Ruleset>(
    rules: &R,
    options: &GameOptions,
    max_decisions: u64,
    seats: &Seats,
) -> (RunResult, Option<R::State>) {
    let mut text = String::new();
    let out = &mut text;
    let mut state = match rules.start(options) {
        Ok(state) => state,
        Err(e) => {
            header(out, options, None, max_decisions);
            let _ = writeln!(out, "== error at start ==\n{e}");
            let end = GameEnd::Error(e.to_string());
            let result = RunResult {
                text,
                end,
                decisions: 0,
            };
            return (result, None);
        }
    };
    let players = state.num_players();
    if let Err(e) = seats.check(players) {
        header(out, options, Some(players), max_decisions);
        let _ = writeln!(out, "== error at start ==\n{e}");
        let result = RunResult {
            text,
            end: GameEnd::Error(e),
            decisions: 0,
        };
        return (result, None);
    }
    header(out, options, Some(players), max_decisions);
    if !seats.all_random() {
        let _ = writeln!(out, "seats: {}\n", seats.describe(players).join(", "));
    }
    section(out, "== setup ==", &rules.describe(&state));
    if seats.any_ismcts() {
        state.keep_seen();
    }

    let mut player = seats.player(options.seed);
    let (end, decisions) = play_out(
        &mut state,
        &mut player,
        max_decisions,
        |n, state, chosen| {
            let who = state
                .current_player()
                .map_or("nobody".to_string(), |p| format!("player {p}"));
            let _ = writeln!(out, "\n== decision {n}: {who} ==\nlegal moves:");
            let mut moves = state.legal_moves();
            if state.status() != Status::Running {
                // Listing them passed a limit: the stop is told below.
                let _ = writeln!(out, "  (not listed: the game stopped)");
                return;
            }
            // The texts made once for the decision, the chosen move's last.
            let chosen_at = moves.iter().position(|mv| mv == chosen);
            moves.push(chosen.clone());
            let mut texts = state.moves_to_text(&moves);
            let text = texts.pop().unwrap_or_default();
            for (i, t) in texts.iter().enumerate() {
                let _ = writeln!(out, "  {i}: {t}");
            }
            let _ = match chosen_at {
                Some(i) => writeln!(out, "plays {i}: {text}"),
                None => writeln!(out, "plays a move that is not listed: {text}"),
            };
        },
    );

    let table = rules.describe(&state);
    match &end {
        GameEnd::Finished(outcome) => {
            section(
                out,
                &format!("\n== finished after {decisions} decisions =="),
                &table,
            );
            write_outcome(out, outcome);
        }
        GameEnd::Stopped(why) => {
            let title = format!("\n== stopped by the engine after {decisions} decisions ==\n{why}");
            section(out, &title, &table);
        }
        GameEnd::AtLimit => {
            let title = format!("\n== stopped at the limit of {max_decisions} decisions ==");
            section(out, &title, &table);
        }
        GameEnd::Error(why) => {
            let _ = writeln!(out, "\n== error after {decisions} decisions ==\n{why}");
        }
    }
    let result = RunResult {
        text,
        end,
        decisions,
    };
    (result, Some(state))
}

fn header(out: &mut String, options: &GameOptions, players: Option<usize>, max_decisions: u64) {
    let _ = writeln!(out, "seed: {}", options.seed);
    if let Some(players) = players {
        let _ = writeln!(out, "players: {players}");
    }
    let set = if options.overrides.is_empty() {
        "none".to_string()
    } else {
        let pairs: Vec<String> = options
            .overrides
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect();
        pairs.join(", ")
    };
    let _ = writeln!(out, "set: {set}\ndecision limit: {max_decisions}\n");
}

/// A title line and a block of text that ends with exactly one newline.
fn section(out: &mut String, title: &str, body: &str) {
    let _ = writeln!(out, "{title}");
    let body = body.trim_end();
    if !body.is_empty() {
        let _ = writeln!(out, "{body}");
    }
}

fn write_outcome(out: &mut String, outcome: &Outcome) {
    let scores: Vec<String> = outcome
        .scores
        .iter()
        .enumerate()
        .map(|(p, s)| format!("player {p}: {s}"))
        .collect();
    let winners: Vec<String> = outcome
        .winners
        .iter()
        .map(|p| format!("player {p}"))
        .collect();
    let _ = writeln!(out, "scores: {}", scores.join(", "));
    let winners = if winners.is_empty() {
        "none".to_string()
    } else {
        winners.join(", ")
    };
    let _ = writeln!(out, "winners: {winners}");
}
