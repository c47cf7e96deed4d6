//! The report of a simulation: what a game designer reads (is it fair, how
//! long does it last, do choices matter), as text, JSON, a page of charts
//! (`html`) and a row per game (`games_out`).
//!
//! A report is computed from a [`Tally`] of integer counts only, and the
//! JSON report carries those counts (the histogram of game lengths, the
//! legal moves per seat and per bucket of decisions), so reports of shards
//! of a run merge ([`merge`]) into exactly the report of the whole run.
//! docs/report.md lists every key.

pub mod games_out;
pub mod html;
pub mod stats;
pub mod tally;
mod text;

use serde::{Deserialize, Serialize};
use stats::{ratio, wilson};
use tally::{ChoiceTally, Counts, Histogram, Profile, Tally};

/// The legal moves are counted in the games whose index is a multiple of
/// this (unless `--branching all`).
pub const BRANCHING_EVERY: u64 = 50;

/// One game quoted in a report: which one, its seed, what happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameNote {
    /// Index of the game (from 0).
    pub game: u64,
    /// Its seed (give it to `cardboard run --seed` to replay it).
    pub seed: u64,
    /// What happened.
    pub message: String,
}

/// Which games have their legal moves counted (`--branching`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Branching {
    /// Games 0, 50, 100, ... ([`BRANCHING_EVERY`]): the fast default.
    #[default]
    Sampled,
    /// Every game.
    All,
}

impl Branching {
    /// Whether game `index` has its legal moves counted.
    #[inline]
    pub fn counts(self, index: u64) -> bool {
        match self {
            Branching::Sampled => index.is_multiple_of(BRANCHING_EVERY),
            Branching::All => true,
        }
    }

    /// How the figures of legal moves were estimated, in words.
    pub fn estimated_from(self) -> String {
        match self {
            Branching::Sampled => format!(
                "1 game in {BRANCHING_EVERY}: games 0, {BRANCHING_EVERY}, {}, ...; --branching all counts every game",
                2 * BRANCHING_EVERY
            ),
            Branching::All => "every game".to_string(),
        }
    }
}

/// The part of a run a report covers: the games whose index is `k mod of`
/// for each `k` in `played`. A report of the whole run has none.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shards {
    /// How many shards the run was split into.
    pub of: u64,
    /// The shards this report covers, in increasing order.
    pub played: Vec<u64>,
}

/// The settings a report was made with (what a merge checks agree).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    /// The rules file, as given on the command line.
    pub file: String,
    /// The base seed.
    pub seed: u64,
    /// `--max-decisions`.
    pub decision_limit: u64,
    /// The `--set` overrides, as `NAME=VALUE`.
    pub set: Vec<String>,
    /// Who plays each seat named by `--seats` (later seats are random).
    pub seats: Vec<String>,
    /// The games of the whole run (`--games`).
    pub run_games: u64,
    /// The shards played, when not the whole run.
    pub shards: Option<Shards>,
    /// Which games had their legal moves counted.
    pub branching: Branching,
}

/// One seat's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SeatResult {
    /// The seat (from 0).
    pub seat: usize,
    /// Who played it (`random`, `mcts:2000`, ...).
    pub kind: String,
    /// Finished games it won alone.
    pub wins: u64,
    /// Finished games in which it shared first place.
    pub ties: u64,
    /// `wins / completed`.
    pub win_rate: f64,
    /// 95% Wilson interval of `win_rate`, low end.
    pub win_rate_low: f64,
    /// 95% Wilson interval of `win_rate`, high end.
    pub win_rate_high: f64,
    /// `ties / completed`.
    pub tie_rate: f64,
    /// Its decisions in the games whose moves were counted.
    pub decisions_counted: u64,
    /// The legal moves of those decisions, summed.
    pub legal_moves_counted: u64,
    /// Those decisions with one legal move.
    pub forced_counted: u64,
    /// `legal_moves_counted / decisions_counted`.
    pub mean_legal_moves: f64,
    /// `forced_counted / decisions_counted`.
    pub forced_share: f64,
}

/// The results of the seats played by one kind of player.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct KindResult {
    /// The kind (`random`, `mcts:2000`, ...).
    pub kind: String,
    /// The seats it played.
    pub seats: Vec<usize>,
    /// `seats / players`: its win rate if every seat won as often.
    pub fair_share: f64,
    /// Finished games won alone by one of its seats.
    pub wins: u64,
    /// `wins / completed`.
    pub win_rate: f64,
    /// 95% Wilson interval of `win_rate`, low end.
    pub win_rate_low: f64,
    /// 95% Wilson interval of `win_rate`, high end.
    pub win_rate_high: f64,
}

/// How much more often the first seat wins than an average seat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Advantage {
    /// Seat 0's win rate (`wins / completed`).
    pub seat_0_win_rate: f64,
    /// The average seat's win rate: games won alone / completed / players.
    pub fair_share: f64,
    /// `seat_0_win_rate - fair_share`.
    pub advantage: f64,
    /// 95% interval of the advantage, low end (Wilson interval of seat 0's
    /// win rate minus `fair_share`).
    pub low: f64,
    /// 95% interval of the advantage, high end.
    pub high: f64,
}

/// Game length in decisions, over the games without error.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Length {
    /// Games measured (completed and stopped).
    pub games: u64,
    /// Mean decisions per game.
    pub mean: f64,
    /// Standard deviation (population).
    pub sd: f64,
    /// Fewest.
    pub min: u64,
    /// Median (nearest rank: the lower middle value).
    pub median: u64,
    /// 90th percentile (nearest rank).
    pub p90: u64,
    /// 99th percentile (nearest rank).
    pub p99: u64,
    /// Most.
    pub max: u64,
    /// `[decisions, games]` for each length seen, shortest first: the
    /// exact distribution, from which the rest is computed.
    pub histogram: Vec<[u64; 2]>,
}

/// Legal moves over a bucket of decision indices.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Bucket {
    /// First decision index of the bucket (from 1).
    pub first_decision: u64,
    /// Last decision index of the bucket.
    pub last_decision: u64,
    /// Decisions counted at these indices.
    pub decisions: u64,
    /// Their legal moves, summed.
    pub legal_moves: u64,
    /// Those with one legal move.
    pub forced: u64,
    /// `legal_moves / decisions`.
    pub mean_legal_moves: f64,
    /// `forced / decisions`.
    pub forced_share: f64,
}

/// How much choice the players had, over the games whose legal moves were
/// counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choice {
    /// Which games were counted, in words.
    pub estimated_from: String,
    /// Games counted (without error).
    pub games_counted: u64,
    /// Their decisions.
    pub decisions: u64,
    /// Their legal moves, summed.
    pub legal_moves: u64,
    /// Decisions with one legal move.
    pub forced: u64,
    /// `legal_moves / decisions`.
    pub mean_legal_moves: f64,
    /// `forced / decisions`.
    pub forced_share: f64,
    /// Decisions per bucket of `profile` (a power of two).
    pub bucket_width: u64,
    /// Legal moves by decision index.
    pub profile: Vec<Bucket>,
}

/// The result of a simulation. Field names are the JSON keys
/// (docs/language.md section 13, docs/report.md).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SimulateReport {
    /// Games played.
    pub games: u64,
    /// Games that finished normally.
    pub completed: u64,
    /// Games stopped at the decision limit or by the engine.
    pub stopped_at_limit: u64,
    /// Games that failed with a rules error (at start or while playing).
    pub errors: u64,
    /// Per seat: finished games that seat won alone.
    pub wins: Vec<u64>,
    /// Per seat: finished games in which it shared first place.
    pub ties: Vec<u64>,
    /// Per seat: who played it (`random`, `mcts:2000`; see `--seats`).
    pub seats: Vec<String>,
    /// Decisions per game (forced ones included), over games without error.
    pub mean_decisions: f64,
    /// Legal moves per decision, over the games counted (`choice`).
    pub mean_branching_counted: f64,
    /// The games whose legal moves were counted (without error).
    pub branching_games: u64,
    /// Fewest decisions in a game without error.
    pub min_decisions: u64,
    /// Most decisions in a game without error.
    pub max_decisions: u64,
    /// Wall-clock time of the simulation (merged: the sum of the shards').
    pub seconds: f64,
    /// `games / seconds`.
    pub games_per_second: f64,
    /// Threads used (merged: the sum of the shards').
    pub jobs: usize,
    /// The base seed.
    pub seed: u64,
    /// The decision limit (`--max-decisions`).
    pub decision_limit: u64,
    /// The `--set` overrides, as `NAME=VALUE`.
    pub set: Vec<String>,
    /// The first few games that failed, in game order.
    pub first_errors: Vec<GameNote>,
    /// The first few games that were stopped, in game order.
    pub first_stops: Vec<GameNote>,
    /// The rules file, as given on the command line.
    pub file: String,
    /// The games of the whole run (`--games`); `games` when not sharded.
    pub run_games: u64,
    /// The shards covered (`--shard`), none for the whole run.
    pub shards: Option<Shards>,
    /// Which games had their legal moves counted: `sampled` or `all`.
    pub branching: Branching,
    /// Finished games in which every seat shared first place.
    pub all_tied: u64,
    /// Finished games in which nobody was first.
    pub no_winner: u64,
    /// Per seat: results and choice.
    pub seat_results: Vec<SeatResult>,
    /// Per kind of player (`--seats`).
    pub kinds: Vec<KindResult>,
    /// The first seat against the average seat (two or more seats).
    pub first_seat_advantage: Option<Advantage>,
    /// Game length in decisions.
    pub length: Length,
    /// Legal moves per decision.
    pub choice: Choice,
}

impl SimulateReport {
    /// The report of the games counted in `tally`, played with `settings`
    /// in `seconds` on `jobs` threads.
    pub fn from_tally(tally: Tally, settings: &Settings, seconds: f64, jobs: usize) -> Self {
        let players = tally.wins.len();
        let seat_count = players
            .max(tally.choice.seats.len())
            .max(settings.seats.len());
        let kind_of = |p: usize| {
            settings
                .seats
                .get(p)
                .cloned()
                .unwrap_or_else(|| "random".to_string())
        };
        let completed = tally.completed;
        let seat_results = (0..seat_count)
            .map(|p| {
                let wins = tally.wins.get(p).copied().unwrap_or(0);
                let ties = tally.ties.get(p).copied().unwrap_or(0);
                let c = tally.choice.seats.get(p).copied().unwrap_or_default();
                let (low, high) = wilson(wins, completed);
                SeatResult {
                    seat: p,
                    kind: kind_of(p),
                    wins,
                    ties,
                    win_rate: ratio(wins, completed),
                    win_rate_low: low,
                    win_rate_high: high,
                    tie_rate: ratio(ties, completed),
                    decisions_counted: c.decisions,
                    legal_moves_counted: c.legal_moves,
                    forced_counted: c.forced,
                    mean_legal_moves: ratio(c.legal_moves, c.decisions),
                    forced_share: ratio(c.forced, c.decisions),
                }
            })
            .collect();
        let mut kinds: Vec<KindResult> = Vec::new();
        for p in 0..players {
            let kind = kind_of(p);
            let wins = tally.wins[p];
            match kinds.iter_mut().find(|k| k.kind == kind) {
                Some(k) => {
                    k.seats.push(p);
                    k.wins += wins;
                }
                None => kinds.push(KindResult {
                    kind,
                    seats: vec![p],
                    fair_share: 0.0,
                    wins,
                    win_rate: 0.0,
                    win_rate_low: 0.0,
                    win_rate_high: 0.0,
                }),
            }
        }
        for k in &mut kinds {
            k.fair_share = ratio(k.seats.len() as u64, players as u64);
            k.win_rate = ratio(k.wins, completed);
            (k.win_rate_low, k.win_rate_high) = wilson(k.wins, completed);
        }
        let first_seat_advantage = (players >= 2).then(|| {
            let alone: u64 = tally.wins.iter().sum();
            let fair = ratio(alone, completed) / players as f64;
            let rate = ratio(tally.wins[0], completed);
            let (low, high) = wilson(tally.wins[0], completed);
            Advantage {
                seat_0_win_rate: rate,
                fair_share: fair,
                advantage: rate - fair,
                low: low - fair,
                high: high - fair,
            }
        });
        let lengths = &tally.lengths;
        let played = lengths.count();
        let decisions = lengths.sum();
        let mean_decisions = if played == 0 {
            0.0
        } else {
            decisions as f64 / played as f64
        };
        let length = Length {
            games: played,
            mean: mean_decisions,
            sd: lengths.std_dev(),
            min: lengths.min().unwrap_or(0),
            median: lengths.quantile(0.5).unwrap_or(0),
            p90: lengths.quantile(0.9).unwrap_or(0),
            p99: lengths.quantile(0.99).unwrap_or(0),
            max: lengths.max().unwrap_or(0),
            histogram: lengths.iter().map(|(v, n)| [v, n]).collect(),
        };
        let choice = choice_of(&tally.choice, settings.branching);
        let jobs = jobs.max(1);
        SimulateReport {
            games: tally.games,
            completed,
            stopped_at_limit: tally.stopped,
            errors: tally.errors,
            seats: (0..players.max(settings.seats.len()))
                .map(kind_of)
                .collect(),
            wins: tally.wins,
            ties: tally.ties,
            mean_decisions,
            mean_branching_counted: choice.mean_legal_moves,
            branching_games: choice.games_counted,
            min_decisions: length.min,
            max_decisions: length.max,
            seconds,
            games_per_second: if seconds > 0.0 {
                tally.games as f64 / seconds
            } else {
                0.0
            },
            jobs,
            seed: settings.seed,
            decision_limit: settings.decision_limit,
            set: settings.set.clone(),
            first_errors: tally.first_errors,
            first_stops: tally.first_stops,
            file: settings.file.clone(),
            run_games: settings.run_games,
            shards: settings.shards.clone(),
            branching: settings.branching,
            all_tied: tally.all_tied,
            no_winner: tally.no_winner,
            seat_results,
            kinds,
            first_seat_advantage,
            length,
            choice,
        }
    }

    /// The settings the report was made with.
    pub fn settings(&self) -> Settings {
        Settings {
            file: self.file.clone(),
            seed: self.seed,
            decision_limit: self.decision_limit,
            set: self.set.clone(),
            seats: self.seats.clone(),
            run_games: self.run_games,
            shards: self.shards.clone(),
            branching: self.branching,
        }
    }

    /// The counts the report was computed from.
    pub fn tally(&self) -> Tally {
        let mut lengths = Histogram::default();
        for &[v, n] in &self.length.histogram {
            lengths.add_n(v, n);
        }
        let counts = |decisions, legal_moves, forced| Counts {
            decisions,
            legal_moves,
            forced,
        };
        let choice = ChoiceTally {
            games: self.choice.games_counted,
            all: counts(
                self.choice.decisions,
                self.choice.legal_moves,
                self.choice.forced,
            ),
            seats: self
                .seat_results
                .iter()
                .map(|s| counts(s.decisions_counted, s.legal_moves_counted, s.forced_counted))
                .collect(),
            profile: Profile {
                width: self.choice.bucket_width.max(1),
                buckets: self
                    .choice
                    .profile
                    .iter()
                    .map(|b| counts(b.decisions, b.legal_moves, b.forced))
                    .collect(),
            },
        };
        Tally {
            games: self.games,
            completed: self.completed,
            stopped: self.stopped_at_limit,
            errors: self.errors,
            wins: self.wins.clone(),
            ties: self.ties.clone(),
            all_tied: self.all_tied,
            no_winner: self.no_winner,
            lengths,
            choice,
            first_errors: self.first_errors.clone(),
            first_stops: self.first_stops.clone(),
        }
    }

    /// The report as JSON (one object, keys as the field names).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// Reads a report written by [`SimulateReport::to_json`].
    pub fn from_json(text: &str) -> Result<SimulateReport, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }

    /// The report for people.
    pub fn to_text(&self) -> String {
        text::to_text(self)
    }
}

fn choice_of(c: &ChoiceTally, branching: Branching) -> Choice {
    let width = c.profile.width;
    let profile = c
        .profile
        .buckets
        .iter()
        .enumerate()
        .map(|(j, b)| Bucket {
            first_decision: j as u64 * width + 1,
            last_decision: (j as u64 + 1) * width,
            decisions: b.decisions,
            legal_moves: b.legal_moves,
            forced: b.forced,
            mean_legal_moves: ratio(b.legal_moves, b.decisions),
            forced_share: ratio(b.forced, b.decisions),
        })
        .collect();
    Choice {
        estimated_from: branching.estimated_from(),
        games_counted: c.games,
        decisions: c.all.decisions,
        legal_moves: c.all.legal_moves,
        forced: c.all.forced,
        mean_legal_moves: ratio(c.all.legal_moves, c.all.decisions),
        forced_share: ratio(c.all.forced, c.all.decisions),
        bucket_width: width,
        profile,
    }
}

/// A rate (games a second) as the reports print it: whole numbers from
/// 100 up, three digits below (a search's few games a second, `0.149`,
/// are not `0`).
pub fn rate(per_second: f64) -> String {
    let digits = match per_second.abs() {
        r if r >= 100.0 || r == 0.0 => 0,
        r if r >= 10.0 => 1,
        r if r >= 1.0 => 2,
        _ => 3,
    };
    format!("{per_second:.digits$}")
}

/// Merges reports of shards of one run (`cardboard merge`) into the report
/// of the games they cover together: the whole run's report, timing
/// aside, when they cover every shard once. Refuses reports of different
/// runs (file name, seed, settings, seats, games, shard count, branching)
/// and shards covered twice.
pub fn merge(reports: &[SimulateReport]) -> Result<SimulateReport, String> {
    let Some(first) = reports.first() else {
        return Err("nothing to merge".to_string());
    };
    let base = first.settings();
    let name = |s: &Settings| {
        std::path::Path::new(&s.file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let of = |s: &Settings| s.shards.as_ref().map_or(1, |x| x.of);
    let played = |s: &Settings| s.shards.as_ref().map_or(vec![0], |x| x.played.clone());
    let mut covered: Vec<u64> = Vec::new();
    let mut seats = base.seats.clone();
    let (mut total, mut seconds, mut jobs) = (Tally::default(), 0.0, 0);
    // The shards' games interleave: the first few of all are among the
    // first few of each, put in order at the end.
    let (mut errors, mut stops) = (Vec::new(), Vec::new());
    for (i, r) in reports.iter().enumerate() {
        let s = r.settings();
        let differs = |what: &str| {
            Err(format!(
                "report {} is of another run: its {what} differs from report 1's",
                i + 1
            ))
        };
        if name(&s) != name(&base) {
            return differs("rules file");
        }
        if (s.seed, s.decision_limit, &s.set) != (base.seed, base.decision_limit, &base.set) {
            return differs("seed, --max-decisions or --set");
        }
        if (s.run_games, of(&s), s.branching) != (base.run_games, of(&base), base.branching) {
            return differs("--games, shard count or --branching");
        }
        let common = s.seats.len().min(seats.len());
        if s.seats[..common] != seats[..common] {
            return differs("--seats");
        }
        if s.seats.len() > seats.len() {
            seats = s.seats.clone();
        }
        for k in played(&s) {
            if covered.contains(&k) {
                return Err(format!("shard {k} is in two of the reports"));
            }
            covered.push(k);
        }
        let mut tally = r.tally();
        errors.append(&mut tally.first_errors);
        stops.append(&mut tally.first_stops);
        total.merge(tally);
        seconds += r.seconds;
        jobs += r.jobs;
    }
    Tally::sort_notes(&mut errors);
    Tally::sort_notes(&mut stops);
    (total.first_errors, total.first_stops) = (errors, stops);
    covered.sort_unstable();
    let count = of(&base);
    let settings = Settings {
        seats,
        shards: (covered.len() as u64 != count).then_some(Shards {
            of: count,
            played: covered,
        }),
        ..base
    };
    Ok(SimulateReport::from_tally(total, &settings, seconds, jobs))
}

#[cfg(test)]
mod rate_tests {
    #[test]
    fn slow_rates_keep_their_digits() {
        let rates: Vec<String> = [37102.4, 148.6, 12.34, 1.234, 0.1486, 0.0]
            .into_iter()
            .map(super::rate)
            .collect();
        assert_eq!(rates, ["37102", "149", "12.3", "1.23", "0.149", "0"]);
    }
}
