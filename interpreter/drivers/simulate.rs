//! `cardboard simulate`: many games with random players, on every core, and
//! a report of how they went (who wins, how long games last, how many
//! choices a player has).
//!
//! Game `i` is fixed by [`game_seed`]`(seed, i)` alone, and the per-game
//! results are folded in game order, so the report (timing aside) is the
//! same for any number of threads. `cardboard run FILE --seed X` with
//! `X = game_seed(seed, i)` replays game `i` exactly.
//!
//! The random players draw their moves without listing them (see
//! [`GameState::random_move`](crate::game::GameState::random_move));
//! counting the legal moves checks every one of them
//! ([`Ruleset::count_moves`]), so the moves per decision are counted in one
//! game in [`BRANCHING_EVERY`] only (games 0, 50, 100, ...: the same games
//! for any number of threads). Counting them does not change the game
//! played.

pub use super::game_seed;
use super::{play_out, GameEnd, Ruleset};
use crate::engine::GameOptions;
use crate::game::GameState;
use crate::search::seats::Seats;
use serde::Serialize;
use std::fmt::Write;
use std::time::Instant;

/// How many errors and stops the report quotes.
const QUOTED: usize = 5;
/// Games per unit of work: a thread plays this many in a row, then reports
/// progress once.
const CHUNK: u64 = 32;
/// The legal moves are counted in the games whose index is a multiple of
/// this.
pub const BRANCHING_EVERY: u64 = 50;

/// What to simulate (`cardboard simulate` arguments).
#[derive(Clone, Debug)]
pub struct SimulateConfig {
    /// Number of games.
    pub games: u64,
    /// Base seed; game `i` uses [`game_seed`]`(seed, i)`.
    pub seed: u64,
    /// `--set NAME=VALUE` overrides of `declare`d constants.
    pub overrides: Vec<(String, String)>,
    /// A game still running after this many decisions is stopped.
    pub max_decisions: u64,
    /// Threads asked for; 0 means one per core. No more threads than cores
    /// or chunks of games are started ([`threads_for`]).
    pub jobs: usize,
}

/// One game quoted in a report: which one, its seed, what happened.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameNote {
    /// Index of the game (from 0).
    pub game: u64,
    /// Its seed (give it to `cardboard run --seed` to replay it).
    pub seed: u64,
    /// What happened.
    pub message: String,
}

/// The result of a simulation. Field names are the JSON keys.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SimulateReport {
    /// Games played.
    pub games: u64,
    /// Games that finished normally.
    pub completed: u64,
    /// Games stopped at the decision limit or by the engine (a stage that
    /// loops without any decision).
    pub stopped_at_limit: u64,
    /// Games that failed with a rules error (at start or while playing).
    pub errors: u64,
    /// Per seat: finished games that seat won alone.
    pub wins: Vec<u64>,
    /// Per seat: finished games in which it shared first place.
    pub ties: Vec<u64>,
    /// Per seat: who played it (`random`, `mcts:2000`, `ismcts:500`; see
    /// `--seats`).
    pub seats: Vec<String>,
    /// Decisions per game (forced ones included), over games without error.
    pub mean_decisions: f64,
    /// Legal moves per decision, over the decisions of the games without
    /// error whose index is a multiple of [`BRANCHING_EVERY`] (the moves
    /// are only listed there).
    pub mean_branching_counted: f64,
    /// The games whose legal moves were counted (without error).
    pub branching_games: u64,
    /// Fewest decisions in a game without error.
    pub min_decisions: u64,
    /// Most decisions in a game without error.
    pub max_decisions: u64,
    /// Wall-clock time of the simulation.
    pub seconds: f64,
    /// `games / seconds`.
    pub games_per_second: f64,
    /// Threads used.
    pub jobs: usize,
    /// The base seed.
    pub seed: u64,
    /// The decision limit (`--max-decisions`).
    pub decision_limit: u64,
    /// The `--set` overrides, as `NAME=VALUE` (a game is replayed with
    /// them).
    pub set: Vec<String>,
    /// The first few games that failed, in game order.
    pub first_errors: Vec<GameNote>,
    /// The first few games that were stopped, in game order.
    pub first_stops: Vec<GameNote>,
}

/// Plays `config.games` games of `rules` with random players on a pool of
/// [`threads_for`]`(config.jobs, chunks)` threads. `progress` is called (from any thread) with the
/// number of games just finished, a few dozen at a time.
///
/// Errors when the `--set` overrides cannot start any game
/// ([`Ruleset::check_settings`]: one error, before any game) or the thread
/// pool cannot be built; a game that fails is counted in the report, never
/// an `Err`.
pub fn simulate<R: Ruleset>(
    rules: &R,
    config: &SimulateConfig,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimulateReport, String> {
    simulate_seated(rules, config, &Seats::random(), progress)
}

/// Plays the games of [`simulate`] with `seats` choosing the moves (game
/// `i`'s players are [`Seats::player`]`(game_seed(seed, i))`, so the
/// report is the same for any number of threads). More seats than the
/// game has players is an error before any game.
pub fn simulate_seated<R: Ruleset>(
    rules: &R,
    config: &SimulateConfig,
    seats: &Seats,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimulateReport, String> {
    use rayon::prelude::*;
    rules
        .check_settings(&config.overrides)
        .map_err(|e| e.to_string())?;
    if !seats.all_random() {
        let options = GameOptions {
            seed: game_seed(config.seed, 0),
            overrides: config.overrides.clone(),
        };
        if let Ok(state) = rules.start(&options) {
            seats.check(state.num_players())?;
        }
    }
    let chunks = config.games.div_ceil(CHUNK);
    let threads = threads_for(config.jobs, chunks);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let started = Instant::now();
    // The tallies of neighbouring chunks are merged as they come (a reduce
    // keeps the chunks' order), so memory does not grow with the games.
    let total = pool.install(|| {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let mut tally = Tally::default();
                let first = c * CHUNK;
                let last = (first + CHUNK).min(config.games);
                // Each game is started in the room of the last one.
                let mut slot = None;
                for i in first..last {
                    let seed = game_seed(config.seed, i);
                    let count = i % BRANCHING_EVERY == 0;
                    let record = play_one(rules, config, seats, seed, count, &mut slot);
                    tally.add(i, seed, record, config);
                }
                progress(last - first);
                tally
            })
            .reduce(Tally::default, |mut earlier, later| {
                earlier.merge(later);
                earlier
            })
    });
    let seconds = started.elapsed().as_secs_f64();
    let mut report = total.report(config, seconds, pool.current_num_threads());
    report.seats = seats.describe(report.wins.len());
    Ok(report)
}

/// The threads worth starting for `jobs` asked (0: one per core) and
/// `units` of work: no more than the cores, since the work is all
/// computation, and no more than the units, since a thread without one
/// would only wait. At least one.
pub fn threads_for(jobs: usize, units: u64) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let wanted = if jobs == 0 { cores } else { jobs.min(cores) };
    let units = usize::try_from(units).unwrap_or(usize::MAX);
    wanted.min(units).max(1)
}

/// What one game contributes to the report.
struct GameRecord {
    end: GameEnd,
    decisions: u64,
    /// Sum over its decisions of the number of legal moves, when counted.
    moves: Option<u64>,
}

/// Plays one game in `slot` (which may hold the last game, whose room
/// the new one may reuse); `count`: count the legal moves at each
/// decision.
fn play_one<R: Ruleset>(
    rules: &R,
    config: &SimulateConfig,
    seats: &Seats,
    seed: u64,
    count: bool,
    slot: &mut Option<R::State>,
) -> GameRecord {
    let options = GameOptions {
        seed,
        overrides: config.overrides.clone(),
    };
    if let Err(e) = rules.start_into(&options, slot) {
        return GameRecord {
            end: GameEnd::Error(format!("at start: {e}")),
            decisions: 0,
            moves: None,
        };
    }
    let Some(state) = slot.as_mut() else {
        return GameRecord {
            end: GameEnd::Error("at start: no game".to_string()),
            decisions: 0,
            moves: None,
        };
    };
    if seats.any_ismcts() {
        state.keep_seen();
    }
    let mut player = seats.player(seed);
    let mut moves = 0u64;
    let (end, decisions) = play_out(state, &mut player, config.max_decisions, |_, state, _| {
        if count {
            moves += rules.count_moves(state) as u64;
        }
    });
    GameRecord {
        end,
        decisions,
        moves: count.then_some(moves),
    }
}

/// Counts over a run of consecutive games.
#[derive(Default)]
struct Tally {
    games: u64,
    completed: u64,
    stopped: u64,
    errors: u64,
    wins: Vec<u64>,
    ties: Vec<u64>,
    /// Games without error, and their decisions.
    played: u64,
    decisions: u64,
    /// Games without error whose moves were counted, their decisions and
    /// legal moves.
    counted: u64,
    counted_decisions: u64,
    moves: u64,
    min_decisions: Option<u64>,
    max_decisions: u64,
    first_errors: Vec<GameNote>,
    first_stops: Vec<GameNote>,
}

impl Tally {
    fn add(&mut self, game: u64, seed: u64, record: GameRecord, config: &SimulateConfig) {
        self.games += 1;
        let note = |message: String| GameNote {
            game,
            seed,
            message,
        };
        match record.end {
            GameEnd::Error(why) => {
                self.errors += 1;
                if self.first_errors.len() < QUOTED {
                    self.first_errors.push(note(why));
                }
                return;
            }
            GameEnd::Finished(outcome) => {
                self.completed += 1;
                let seats = outcome.winners.iter().max().map_or(0, |&p| p + 1);
                let seats = seats.max(outcome.scores.len());
                grow(&mut self.wins, seats);
                grow(&mut self.ties, seats);
                match outcome.winners.as_slice() {
                    [] => {}
                    [alone] => self.wins[*alone] += 1,
                    shared => shared.iter().for_each(|&p| self.ties[p] += 1),
                }
            }
            GameEnd::Stopped(why) => {
                self.stopped += 1;
                if self.first_stops.len() < QUOTED {
                    self.first_stops
                        .push(note(format!("after {} decisions: {why}", record.decisions)));
                }
            }
            GameEnd::AtLimit => {
                self.stopped += 1;
                if self.first_stops.len() < QUOTED {
                    let why = format!("reached the limit of {} decisions", config.max_decisions);
                    self.first_stops.push(note(why));
                }
            }
        }
        self.played += 1;
        self.decisions += record.decisions;
        if let Some(moves) = record.moves {
            self.counted += 1;
            self.counted_decisions += record.decisions;
            self.moves += moves;
        }
        self.min_decisions = Some(
            self.min_decisions
                .map_or(record.decisions, |m| m.min(record.decisions)),
        );
        self.max_decisions = self.max_decisions.max(record.decisions);
    }

    /// Adds the counts of the games that follow this tally's.
    fn merge(&mut self, next: Tally) {
        self.games += next.games;
        self.completed += next.completed;
        self.stopped += next.stopped;
        self.errors += next.errors;
        for (mine, theirs) in [(&mut self.wins, next.wins), (&mut self.ties, next.ties)] {
            grow(mine, theirs.len());
            mine.iter_mut().zip(theirs).for_each(|(a, b)| *a += b);
        }
        self.played += next.played;
        self.decisions += next.decisions;
        self.counted += next.counted;
        self.counted_decisions += next.counted_decisions;
        self.moves += next.moves;
        self.min_decisions = match (self.min_decisions, next.min_decisions) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        self.max_decisions = self.max_decisions.max(next.max_decisions);
        for (mine, theirs) in [
            (&mut self.first_errors, next.first_errors),
            (&mut self.first_stops, next.first_stops),
        ] {
            let room = QUOTED.saturating_sub(mine.len());
            mine.extend(theirs.into_iter().take(room));
        }
    }

    fn report(self, config: &SimulateConfig, seconds: f64, jobs: usize) -> SimulateReport {
        let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
        SimulateReport {
            games: self.games,
            completed: self.completed,
            stopped_at_limit: self.stopped,
            errors: self.errors,
            wins: self.wins,
            ties: self.ties,
            seats: Vec::new(),
            mean_decisions: ratio(self.decisions, self.played),
            mean_branching_counted: ratio(self.moves, self.counted_decisions),
            branching_games: self.counted,
            min_decisions: self.min_decisions.unwrap_or(0),
            max_decisions: self.max_decisions,
            seconds,
            games_per_second: if seconds > 0.0 {
                self.games as f64 / seconds
            } else {
                0.0
            },
            jobs,
            seed: config.seed,
            decision_limit: config.max_decisions,
            set: config
                .overrides
                .iter()
                .map(|(name, value)| format!("{name}={value}"))
                .collect(),
            first_errors: self.first_errors,
            first_stops: self.first_stops,
        }
    }
}

fn grow(counts: &mut Vec<u64>, len: usize) {
    if counts.len() < len {
        counts.resize(len, 0);
    }
}

impl SimulateReport {
    /// The report as JSON (one object, keys as the field names).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// The report for people.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let o = &mut out;
        let pct = |n: u64| {
            if self.games == 0 {
                0.0
            } else {
                100.0 * n as f64 / self.games as f64
            }
        };
        let _ = writeln!(o, "games:            {}", self.games);
        let _ = writeln!(
            o,
            "completed:        {} ({:.1}%)",
            self.completed,
            pct(self.completed)
        );
        let _ = writeln!(
            o,
            "stopped_at_limit: {} ({:.1}%)",
            self.stopped_at_limit,
            pct(self.stopped_at_limit)
        );
        let _ = writeln!(
            o,
            "errors:           {} ({:.1}%)",
            self.errors,
            pct(self.errors)
        );
        let seats = |counts: &[u64]| {
            let parts: Vec<String> = counts
                .iter()
                .enumerate()
                .map(|(p, &n)| format!("player {p}: {n} ({:.1}%)", pct(n)))
                .collect();
            if parts.is_empty() {
                "none".to_string()
            } else {
                parts.join(", ")
            }
        };
        let _ = writeln!(o, "seats:            {}", self.seats.join(", "));
        let _ = writeln!(o, "wins (alone):     {}", seats(&self.wins));
        let _ = writeln!(o, "ties (shared):    {}", seats(&self.ties));
        let _ = writeln!(
            o,
            "decisions/game:   mean {:.2}, min {}, max {}",
            self.mean_decisions, self.min_decisions, self.max_decisions
        );
        let _ = writeln!(
            o,
            "moves/decision:   mean {:.2} (counted in 1 game in {BRANCHING_EVERY})",
            self.mean_branching_counted
        );
        let _ = writeln!(
            o,
            "time:             {:.3} s, {:.0} games/s, {} threads",
            self.seconds, self.games_per_second, self.jobs
        );
        let _ = writeln!(
            o,
            "seed:             {} (decision limit {})",
            self.seed, self.decision_limit
        );
        for (title, notes, total) in [
            ("first errors", &self.first_errors, self.errors),
            ("first stops", &self.first_stops, self.stopped_at_limit),
        ] {
            if notes.is_empty() {
                continue;
            }
            let _ = writeln!(o, "{title} ({} of {total}):", notes.len());
            for n in notes {
                let _ = writeln!(o, "  game {} (seed {}): {}", n.game, n.seed, n.message);
            }
        }
        if !self.first_errors.is_empty() || !self.first_stops.is_empty() {
            let set: String = self.set.iter().map(|s| format!(" --set {s}")).collect();
            let _ = writeln!(
                o,
                "replay a game with `cardboard run FILE --seed SEED{set}`"
            );
        }
        out
    }
}
