//! `cardboard simulate`: many games with random players, on every core, and
//! a report of how they went (who wins, how long games last, how many
//! choices a player has; see [`report`](super::report)).
//!
//! Game `i` is fixed by [`game_seed`]`(seed, i)` alone, and the per-game
//! results are folded in game order, so the report (timing aside) is the
//! same for any number of threads. `cardboard run FILE --seed X` with
//! `X = game_seed(seed, i)` replays game `i` exactly. A shard (`--shard
//! K/N`) plays the games `i ≡ K (mod N)` of the run, with the same seeds.
//!
//! The random players draw their moves without listing them (see
//! [`GameState::random_move`](crate::game::GameState::random_move));
//! counting the legal moves checks every one of them
//! ([`Ruleset::count_moves`]), so by default the moves per decision are
//! counted in one game in [`BRANCHING_EVERY`] only (games 0, 50, 100,
//! ...: the same games for any number of threads or shards);
//! [`Branching::All`] counts them in every game. Counting them does not
//! change the game played.

pub use super::game_seed;
use super::report::games_out::RowFormat;
use super::report::tally::{ChoiceTally, Tally, QUOTED};
pub use super::report::{Branching, GameNote, SimulateReport, BRANCHING_EVERY};
use super::report::{Settings, Shards};
use super::{play_out, GameEnd, Ruleset};
use crate::engine::GameOptions;
use crate::game::GameState;
use crate::search::seats::Seats;
use std::time::Instant;

/// Games per unit of work: a thread plays this many in a row, then reports
/// progress once.
const CHUNK: u64 = 32;
/// Chunks per thread in one wave when rows are written: the rows of a wave
/// are kept until the wave is done, then written in game order.
const WAVE: u64 = 128;

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

/// One shard of a run (`--shard K/N`): the games whose index is `K mod N`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// `K`, from 0.
    pub index: u64,
    /// `N`, at least 1.
    pub count: u64,
}

impl Shard {
    /// Reads `K/N` (`0 <= K < N`).
    ///
    /// ```
    /// use cardboard::drivers::simulate::Shard;
    /// assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
    /// assert!(Shard::parse("8/8").is_err());
    /// assert!(Shard::parse("1").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a shard: write K/N with 0 <= K < N, e.g. 0/4");
        let (k, n) = text.split_once('/').ok_or_else(bad)?;
        let index = k.trim().parse::<u64>().map_err(|_| bad())?;
        let count = n.trim().parse::<u64>().map_err(|_| bad())?;
        if index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// How many of the first `games` games the shard plays.
    pub fn games_of(self, games: u64) -> u64 {
        if self.index >= games {
            0
        } else {
            (games - 1 - self.index) / self.count + 1
        }
    }
}

/// Where the rows of `--games-out` go: their format and a writer called
/// with the text of consecutive games, in game order.
pub struct Rows<'a> {
    /// CSV or JSON lines.
    pub format: RowFormat,
    /// Writes text; an `Err` ends the simulation with it.
    pub write: &'a mut (dyn FnMut(&str) -> Result<(), String> + Send),
}

/// What a simulation reports beyond the games ([`simulate_sweep`]).
#[derive(Default)]
pub struct Sweep<'a> {
    /// Which games have their legal moves counted.
    pub branching: Branching,
    /// The shard played (none: the whole run).
    pub shard: Option<Shard>,
    /// The rules file, as named in the report.
    pub file: String,
    /// One row per game, if wanted.
    pub rows: Option<Rows<'a>>,
    /// Raised to stop: each thread starts no other game, and the
    /// simulation ends with an error (Python's Ctrl-C).
    pub cancel: Option<&'a std::sync::atomic::AtomicBool>,
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
    simulate_sweep(rules, config, seats, Sweep::default(), progress)
}

/// Plays the games of [`simulate_seated`], or of one shard of them, with
/// the options of `sweep`. A row that cannot be written ends the
/// simulation with its error; an error of the settings or the seats
/// begins with `sweep.file` (when it is not empty) and a colon.
pub fn simulate_sweep<R: Ruleset>(
    rules: &R,
    config: &SimulateConfig,
    seats: &Seats,
    mut sweep: Sweep,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimulateReport, String> {
    use rayon::prelude::*;
    // An error of the rules or of their seats names the file, as `run`
    // names it.
    let named = |e: String| match sweep.file.as_str() {
        "" => e,
        file => format!("{file}: {e}"),
    };
    rules
        .check_settings(&config.overrides)
        .map_err(|e| named(e.to_string()))?;
    // More seats named than the game has players is refused, random
    // ones too (the report would list seats no one sat in).
    let first = GameOptions {
        seed: game_seed(config.seed, 0),
        overrides: config.overrides.clone(),
    };
    if let Ok(state) = rules.start(&first) {
        seats.check(state.num_players()).map_err(named)?;
    }
    let shard = sweep.shard.unwrap_or(Shard { index: 0, count: 1 });
    let games = shard.games_of(config.games);
    let chunks = games.div_ceil(CHUNK);
    let threads = threads_for(config.jobs, chunks);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))?;
    let format = sweep.rows.as_ref().map(|r| r.format);
    let branching = sweep.branching;
    if let Some(rows) = sweep.rows.as_mut() {
        (rows.write)(rows.format.header())?;
    }
    let started = Instant::now();
    let cancel = sweep.cancel;
    let stopped = || cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
    // Chunk `c` plays the shard's games `c * CHUNK ..`; its tally and
    // rows. The tallies of neighbouring chunks are merged as they come (a
    // reduce keeps the chunks' order), so memory does not grow with the
    // games; rows are written a wave of chunks at a time.
    let chunk = |c: u64| {
        let mut tally = Tally::default();
        let mut text = String::new();
        let first = c * CHUNK;
        let last = (first + CHUNK).min(games);
        // Each game is started in the room of the last one.
        let mut slot = None;
        for j in first..last {
            if stopped() {
                break;
            }
            let i = shard.index + j * shard.count;
            let seed = game_seed(config.seed, i);
            let count = branching.counts(i);
            let record = play_one(rules, config, seats, seed, count, &mut slot);
            if let Some(format) = format {
                format.row(&mut text, i, seed, &record.end, record.decisions);
            }
            add_game(&mut tally, i, seed, record, config.max_decisions);
        }
        progress(last - first);
        (tally, text)
    };
    let wave = match format {
        Some(_) => WAVE * threads as u64,
        None => chunks.max(1),
    };
    let mut total = Tally::default();
    let mut start = 0;
    while start < chunks {
        let end = (start + wave).min(chunks);
        let (tally, text) = pool.install(|| {
            (start..end).into_par_iter().map(chunk).reduce(
                || (Tally::default(), String::new()),
                |(mut earlier, mut text), (later, more)| {
                    earlier.merge(later);
                    text.push_str(&more);
                    (earlier, text)
                },
            )
        });
        total.merge(tally);
        if stopped() {
            return Err("interrupted".to_string());
        }
        if let Some(rows) = sweep.rows.as_mut() {
            (rows.write)(&text)?;
        }
        start = end;
    }
    let seconds = started.elapsed().as_secs_f64();
    let settings = Settings {
        file: std::mem::take(&mut sweep.file),
        seed: config.seed,
        decision_limit: config.max_decisions,
        set: config
            .overrides
            .iter()
            .map(|(name, value)| format!("{name}={value}"))
            .collect(),
        seats: seats.describe(0),
        run_games: config.games,
        shards: (shard.count > 1).then(|| Shards {
            of: shard.count,
            played: vec![shard.index],
        }),
        branching: sweep.branching,
    };
    Ok(SimulateReport::from_tally(
        total,
        &settings,
        seconds,
        pool.current_num_threads(),
    ))
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
    /// Its legal moves, when counted.
    choice: Option<ChoiceTally>,
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
    let failed = |why: String| GameRecord {
        end: GameEnd::Error(format!("at start: {why}")),
        decisions: 0,
        choice: None,
    };
    if let Err(e) = rules.start_into(&options, slot) {
        return failed(e.to_string());
    }
    let Some(state) = slot.as_mut() else {
        return failed("no game".to_string());
    };
    if seats.any_ismcts() {
        state.keep_seen();
    }
    let mut player = seats.player(seed);
    let mut choice = count.then(ChoiceTally::default);
    let (end, decisions) = play_out(
        state,
        &mut player,
        config.max_decisions,
        |index, state, _| {
            if let Some(c) = choice.as_mut() {
                c.add(
                    index,
                    state.current_player(),
                    rules.count_moves(state) as u64,
                );
            }
        },
    );
    GameRecord {
        end,
        decisions,
        choice,
    }
}

/// Counts game `game` (seed `seed`) in `tally`.
fn add_game(tally: &mut Tally, game: u64, seed: u64, record: GameRecord, limit: u64) {
    tally.games += 1;
    let note = |message: String| GameNote {
        game,
        seed,
        message,
    };
    match record.end {
        GameEnd::Error(why) => {
            tally.errors += 1;
            if tally.first_errors.len() < QUOTED {
                tally.first_errors.push(note(why));
            }
            return;
        }
        GameEnd::Finished(outcome) => tally.finished(&outcome.winners, &outcome.scores),
        GameEnd::Stopped(why) => {
            tally.stopped += 1;
            if tally.first_stops.len() < QUOTED {
                let why = format!("after {} decisions: {why}", record.decisions);
                tally.first_stops.push(note(why));
            }
        }
        GameEnd::AtLimit => {
            tally.stopped += 1;
            if tally.first_stops.len() < QUOTED {
                let why = format!("reached the limit of {limit} decisions");
                tally.first_stops.push(note(why));
            }
        }
    }
    tally.lengths.add(record.decisions);
    if let Some(mut choice) = record.choice {
        choice.games = 1;
        tally.choice.merge(&choice);
    }
}
