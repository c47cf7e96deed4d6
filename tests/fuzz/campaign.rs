//! A fuzzing campaign: the inputs, the mutants drawn from them, the children
//! each mutant is run in, and the report.
//!
//! A rules mutant is checked; if `check` accepts it, it is played: one game
//! with `run`, three with `simulate`, `perft` to depth 2, and a game saved
//! after a few decisions and played on from the saved position. A position
//! mutant is played from with `run`, `simulate` and `perft` under its
//! (unmutated) game. Every child gets the same [`Bounds`].

use crate::child::{self, Bounds, Outcome, WALL_FACTOR};
use crate::mutate::{self, Edit, Numbers};
use cardboard::random::{below, splitmix64, GameRng};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// What a campaign runs, from the environment (see the crate's doc).
#[derive(Clone, Debug)]
pub struct Settings {
    pub seed: u64,
    /// The mutants tried are `first .. first + mutants`.
    pub first: u64,
    pub mutants: u64,
    /// Print every command of every mutant and how it ended.
    pub verbose: bool,
    pub jobs: usize,
    pub bounds: Bounds,
    pub numbers: Numbers,
    pub corpus: Option<PathBuf>,
    pub out: PathBuf,
}

fn env<T: std::str::FromStr>(name: &str) -> Option<T> {
    let value = std::env::var(name).ok()?;
    match value.parse() {
        Ok(v) => Some(v),
        Err(_) => panic!("{name}={value}: not a valid value"),
    }
}

impl Settings {
    /// The settings of the environment's `FUZZ_*` variables; `mutants` and
    /// `numbers` where `FUZZ_MUTANTS` and `FUZZ_NUMBERS` are not set.
    pub fn from_env(mutants: u64, numbers: Numbers) -> Settings {
        let only: Option<u64> = env("FUZZ_MUTANT");
        let numbers = match std::env::var("FUZZ_NUMBERS").as_deref() {
            Ok("small") => Numbers::Small,
            Ok("all") => Numbers::All,
            Err(_) => numbers,
            Ok(other) => panic!("FUZZ_NUMBERS={other}: `all` or `small`"),
        };
        let time = Duration::from_secs_f64(env("FUZZ_TIMEOUT").unwrap_or(10.0));
        Settings {
            seed: env("FUZZ_SEED").unwrap_or(1),
            first: only.unwrap_or(0),
            mutants: if only.is_some() {
                1
            } else {
                env("FUZZ_MUTANTS").unwrap_or(mutants)
            },
            verbose: only.is_some(),
            jobs: env("FUZZ_JOBS").unwrap_or(2).max(1),
            bounds: Bounds {
                time,
                memory_mb: env("FUZZ_MEMORY").unwrap_or(1024),
                wall: time * WALL_FACTOR,
            },
            numbers,
            corpus: env::<String>("FUZZ_CORPUS").map(PathBuf::from),
            out: env::<String>("FUZZ_OUT")
                .map(PathBuf::from)
                .unwrap_or_else(|| Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz")),
        }
    }
}

/// A file to mutate: its name as the report shows it, and its text.
struct Source {
    label: String,
    text: String,
}

/// A position to mutate: the game it belongs to and its text.
struct PositionSource {
    game: String,
    label: String,
    text: String,
}

/// The positions mutated: game, `--set` flags, seed, decisions before the
/// save (`None`: at the game's end).
const BASE_POSITIONS: &[(&str, &[&str], u64, Option<u64>)] = &[
    ("games/agram.rcy", &[], 7, Some(5)),
    ("games/agram.rcy", &["NUMP=6"], 2, Some(13)),
    ("games/carteso.rcy", &[], 1, Some(12)),
    ("games/carteso.rcy", &["SIZE=5"], 3, None),
    ("games/cartagena.rcy", &[], 3, Some(8)),
    ("games/cartagena.rcy", &["VARIANT=3", "NUMP=5"], 4, Some(30)),
    ("games/cardbot-derby.rcy", &[], 5, Some(4)),
    (
        "games/cardbot-derby.rcy",
        &["NUMP=3", "BELT2=2", "TELEPORT=1"],
        6,
        Some(11),
    ),
];

/// The moves a choice may list in `run`, whose transcript prints every
/// legal move at every decision: 200 decisions of a choice of the default
/// limit's million moves is hundreds of megabytes of text, work that is
/// asked for, not a fault. `simulate` keeps the default limits.
const RUN_OPTIONS: &str = "10000";

/// The moves a choice may list in `perft`, which counts to depth 2: a
/// choice of n moves followed by another makes n^2 nodes (a 256 x 256
/// board of the default limits, 4.3 x 10^9), work that is asked for too.
const PERFT_OPTIONS: &str = "1000";

/// The steps and the changes kept that a move may make without a decision
/// in `perft`: every leaf of a game that loops without a decision runs to
/// the limit (169 leaves of a mutant of GOPS took 16 s of processor time
/// at the defaults, each stopped cleanly), work that is asked for too.
const PERFT_STEPS: &str = "1000000";
const PERFT_CHANGES: &str = "100000";

/// One failing mutant.
#[derive(Clone, Debug)]
pub struct Failure {
    pub mutant: u64,
    /// The class it is grouped in: subcommand and [`Outcome::failure`].
    pub class: String,
    pub text: String,
}

/// What a campaign did.
#[derive(Debug, Default)]
pub struct Report {
    pub seed: u64,
    pub mutants: u64,
    pub rules_mutants: u64,
    pub accepted_by_check: u64,
    pub position_mutants: u64,
    pub children: u64,
    pub elapsed: Duration,
    pub failed: Vec<Failure>,
}

impl Report {
    /// How many mutants failed.
    pub fn failures(&self) -> usize {
        self.failed.len()
    }

    /// The report in a few lines: counts, then each class of failure with
    /// how many mutants fell in it and the first of them.
    pub fn summary(&self) -> String {
        let mut s = format!(
            "fuzz: seed {}, {} mutants in {:.1} s ({} of rules files, {} accepted by check \
             and played; {} of positions), {} children, {} failed",
            self.seed,
            self.mutants,
            self.elapsed.as_secs_f64(),
            self.rules_mutants,
            self.accepted_by_check,
            self.position_mutants,
            self.children,
            self.failed.len()
        );
        let mut classes: BTreeMap<&str, (usize, u64)> = BTreeMap::new();
        for f in &self.failed {
            let e = classes.entry(&f.class).or_insert((0, f.mutant));
            e.0 += 1;
            e.1 = e.1.min(f.mutant);
        }
        for (class, (count, first)) in classes {
            s.push_str(&format!("\n  {count} x {class} (first: mutant {first})"));
        }
        s
    }
}

/// A campaign ready to run: settings, inputs and the binary.
pub struct Campaign {
    settings: Settings,
    bin: PathBuf,
    root: PathBuf,
    games: Vec<Source>,
    others: Vec<Source>,
    positions: Vec<PositionSource>,
}

/// The `.rcy` files under `dir`, at any depth, sorted.
fn rules_files(dir: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rules_files(&path, into);
        } else if path.extension().is_some_and(|e| e == "rcy") {
            into.push(path);
        }
    }
}

fn sources(root: &Path, dir: &Path) -> Vec<Source> {
    let mut paths = Vec::new();
    rules_files(dir, &mut paths);
    paths.sort();
    paths
        .into_iter()
        .map(|p| Source {
            label: p.strip_prefix(root).unwrap_or(&p).display().to_string(),
            text: std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())),
        })
        .collect()
}

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

/// The command line of a child, as the report prints it.
fn command_line(bin: &Path, args: &[String]) -> String {
    let mut s = bin.display().to_string();
    for a in args {
        s.push(' ');
        s.push_str(a);
    }
    s
}

/// A mutant's plan: the files to write in its folder and the children to run.
struct Plan {
    /// What was mutated and how, for the report.
    what: String,
    /// File name in the mutant's folder and text.
    files: Vec<(&'static str, String)>,
    kind: Kind,
}

enum Kind {
    /// Rules: the `--set` flags and the players' seed.
    Rules {
        set: Vec<String>,
        seed: u64,
        save_at: u64,
    },
    /// A position of this game, the players' seed.
    Position { game: String, seed: u64 },
}

/// The children of a mutant: `check` (for rules), then the children that
/// play it if `check` accepts it, then one that plays on from the position
/// the last of them saved, if it saved one.
struct Steps {
    check: Option<Vec<String>>,
    play: Vec<Vec<String>>,
    replay: Option<Vec<String>>,
}

/// What one mutant did, for the report.
#[derive(Default)]
struct Tally {
    /// A mutant of a rules file (not of a position).
    rules: bool,
    /// A rules mutant accepted by `check` (and played).
    accepted: bool,
    children: u64,
}

impl Campaign {
    /// Gathers the inputs and saves the base positions (with the binary,
    /// under the same bounds as the mutants).
    pub fn new(settings: Settings) -> Campaign {
        let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let bin = env::<String>("FUZZ_BIN")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_cardboard")));
        let games = sources(&root, &root.join("games"));
        let mut others = sources(&root, &root.join("tests"));
        if let Some(corpus) = &settings.corpus {
            others.extend(sources(&root, corpus));
        }
        assert!(
            !games.is_empty() && !others.is_empty(),
            "no rules files to mutate"
        );
        let base = settings.out.join("base");
        std::fs::create_dir_all(&base).expect("create the fuzz folder");
        let mut positions = Vec::new();
        for (n, (game, set, seed, save_at)) in BASE_POSITIONS.iter().enumerate() {
            let file = base.join(format!("{n}.pos"));
            let mut args = strings(&["run", game, "--seed", &seed.to_string(), "--save"]);
            args.push(file.display().to_string());
            if let Some(at) = save_at {
                args.extend(strings(&["--save-at", &at.to_string()]));
            }
            for s in *set {
                args.extend(strings(&["--set", s]));
            }
            let out = child::run(&bin, &args, settings.bounds, &root);
            let text = std::fs::read_to_string(&file).unwrap_or_default();
            assert!(
                out.end == child::End::Exit(0) && !text.is_empty(),
                "saving a base position failed: {}\n{}",
                command_line(&bin, &args),
                out.stderr
            );
            positions.push(PositionSource {
                game: game.to_string(),
                label: format!(
                    "position {n} ({})",
                    command_line(Path::new("cardboard"), &args)
                ),
                text,
            });
        }
        Campaign {
            settings,
            bin,
            root,
            games,
            others,
            positions,
        }
    }

    /// The plan of mutant `i`: made from `splitmix64(seed, i)` alone.
    fn plan(&self, i: u64) -> Plan {
        let rng = &mut GameRng::new(splitmix64(self.settings.seed, i));
        let numbers = self.settings.numbers;
        let seed = below(rng, 1000) as u64;
        if below(rng, 10) < 3 {
            let base = &self.positions[below(rng, self.positions.len())];
            let (text, edits) = mutate::position(rng, &base.text, numbers);
            Plan {
                what: describe(&base.label, &edits),
                files: vec![("mutant.pos", text)],
                kind: Kind::Position {
                    game: base.game.clone(),
                    seed,
                },
            }
        } else {
            let pool = if below(rng, 4) != 0 {
                &self.games
            } else {
                &self.others
            };
            let source = &pool[below(rng, pool.len())];
            let m = mutate::rules(rng, &source.text, numbers);
            Plan {
                what: describe(&source.label, &m.edits),
                files: vec![("mutant.rcy", m.text)],
                kind: Kind::Rules {
                    set: m.set,
                    seed,
                    save_at: 1 + below(rng, 8) as u64 + 20 * below(rng, 2) as u64,
                },
            }
        }
    }

    /// The children of a plan whose files are in `dir`.
    fn steps(&self, plan: &Plan, dir: &Path) -> Steps {
        let file = |name: &str| dir.join(name).display().to_string();
        match &plan.kind {
            Kind::Rules { set, seed, save_at } => {
                let rules = file("mutant.rcy");
                let seed = seed.to_string();
                let with = |args: &[&str]| {
                    let mut a = strings(args);
                    for s in set {
                        a.extend(["--set".to_string(), s.clone()]);
                    }
                    a
                };
                let saved = file("saved.pos");
                let save_at = save_at.to_string();
                Steps {
                    check: Some(strings(&["check", &rules])),
                    play: vec![
                        with(&[
                            "run",
                            &rules,
                            "--seed",
                            &seed,
                            "--max-decisions",
                            "200",
                            "--max-options",
                            RUN_OPTIONS,
                        ]),
                        with(&[
                            "simulate",
                            &rules,
                            "--games",
                            "3",
                            "--jobs",
                            "1",
                            "--seed",
                            &seed,
                            "--max-decisions",
                            "200",
                        ]),
                        with(&[
                            "perft",
                            &rules,
                            "2",
                            "--seed",
                            &seed,
                            "--max-options",
                            PERFT_OPTIONS,
                            "--max-steps",
                            PERFT_STEPS,
                            "--max-changes",
                            PERFT_CHANGES,
                        ]),
                        with(&[
                            "run",
                            &rules,
                            "--seed",
                            &seed,
                            "--save-at",
                            &save_at,
                            "--save",
                            &saved,
                            "--max-options",
                            RUN_OPTIONS,
                        ]),
                    ],
                    replay: Some(strings(&[
                        "run",
                        &rules,
                        "--position",
                        &saved,
                        "--seed",
                        &seed,
                        "--max-decisions",
                        "100",
                        "--max-options",
                        RUN_OPTIONS,
                    ])),
                }
            }
            Kind::Position { game, seed } => {
                let pos = file("mutant.pos");
                let seed = seed.to_string();
                Steps {
                    check: None,
                    play: vec![
                        strings(&[
                            "run",
                            game,
                            "--position",
                            &pos,
                            "--seed",
                            &seed,
                            "--max-decisions",
                            "200",
                            "--max-options",
                            RUN_OPTIONS,
                        ]),
                        strings(&[
                            "simulate",
                            game,
                            "--position",
                            &pos,
                            "--games",
                            "3",
                            "--jobs",
                            "1",
                            "--seed",
                            &seed,
                            "--max-decisions",
                            "200",
                        ]),
                        strings(&[
                            "perft",
                            game,
                            "2",
                            "--position",
                            &pos,
                            "--max-options",
                            PERFT_OPTIONS,
                            "--max-steps",
                            PERFT_STEPS,
                            "--max-changes",
                            PERFT_CHANGES,
                        ]),
                    ],
                    replay: None,
                }
            }
        }
    }

    /// Runs mutant `i` in the folder `dir`: its tally, or its failure.
    fn try_mutant(&self, i: u64, dir: &Path) -> Result<Tally, Failure> {
        let plan = self.plan(i);
        let _ = std::fs::remove_dir_all(dir);
        std::fs::create_dir_all(dir).expect("create a mutant's folder");
        for (name, text) in &plan.files {
            std::fs::write(dir.join(name), text).expect("write a mutant");
        }
        let verbose = self.settings.verbose;
        if verbose {
            println!("mutant {i}: {}", plan.what);
        }
        let mut tally = Tally {
            rules: matches!(plan.kind, Kind::Rules { .. }),
            ..Tally::default()
        };
        let steps = self.steps(&plan, dir);
        let mut run = |args: &[String]| -> Result<child::End, Failure> {
            let out = child::run(&self.bin, args, self.settings.bounds, &self.root);
            tally.children += 1;
            if verbose {
                let line = command_line(&self.bin, args);
                println!("  {line}\n  -> {:?}\n{}", out.end, indent(&out.stderr, 20));
            }
            match out.failure() {
                Some(class) => Err(self.failure(i, &plan, dir, args, &out, class)),
                None => Ok(out.end),
            }
        };
        if let Some(check) = &steps.check {
            if run(check)? != child::End::Exit(0) {
                return Ok(tally);
            }
        }
        for args in &steps.play {
            run(args)?;
        }
        if let Some(replay) = &steps.replay {
            if dir.join("saved.pos").exists() {
                run(replay)?;
            }
        }
        tally.accepted = steps.check.is_some();
        Ok(tally)
    }

    /// Keeps a failing mutant's folder under `failures/` and says how to see
    /// the failure again.
    fn failure(
        &self,
        i: u64,
        plan: &Plan,
        dir: &Path,
        args: &[String],
        out: &Outcome,
        class: String,
    ) -> Failure {
        let seed = self.settings.seed;
        let kept = self
            .settings
            .out
            .join("failures")
            .join(format!("s{seed}-m{i}"));
        let _ = std::fs::remove_dir_all(&kept);
        let _ = std::fs::create_dir_all(&kept);
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let _ = std::fs::copy(entry.path(), kept.join(entry.file_name()));
        }
        let (from, to) = (dir.display().to_string(), kept.display().to_string());
        let args: Vec<String> = args.iter().map(|a| a.replace(&from, &to)).collect();
        let class = format!("{}: {class}", args[0]);
        let mut again = format!("FUZZ_SEED={seed} FUZZ_MUTANT={i}");
        if let Ok(bin) = std::env::var("FUZZ_BIN") {
            again.push_str(&format!(" FUZZ_BIN={bin}"));
        }
        if self.settings.numbers == Numbers::Small {
            again.push_str(" FUZZ_NUMBERS=small");
        }
        if let Some(corpus) = &self.settings.corpus {
            again.push_str(&format!(" FUZZ_CORPUS={}", corpus.display()));
        }
        let release = if cfg!(debug_assertions) {
            ""
        } else {
            " --release"
        };
        let text = format!(
            "FAIL mutant {i} of seed {seed}: {class}\n  mutant: {}\n  command (from {}): {}\n  \
             again: {again} cargo test{release} --test fuzz -- --nocapture\n  stderr:\n{}",
            plan.what,
            self.root.display(),
            command_line(&self.bin, &args),
            indent(&out.stderr, 12),
        );
        Failure {
            mutant: i,
            class,
            text,
        }
    }

    /// Runs the campaign on `jobs` threads and reports.
    pub fn run(self) -> Report {
        let s = &self.settings;
        let next = AtomicU64::new(s.first);
        let end = s.first + s.mutants;
        let report = Mutex::new(Report {
            seed: s.seed,
            ..Report::default()
        });
        let start = Instant::now();
        std::thread::scope(|scope| {
            for job in 0..s.jobs {
                let (next, report, this) = (&next, &report, &self);
                scope.spawn(move || {
                    let dir = s.out.join(format!("job{job}"));
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i >= end {
                            break;
                        }
                        let result = this.try_mutant(i, &dir);
                        let mut r = report.lock().unwrap();
                        r.mutants += 1;
                        match result {
                            Ok(t) => {
                                r.children += t.children;
                                r.rules_mutants += u64::from(t.rules);
                                r.position_mutants += u64::from(!t.rules);
                                r.accepted_by_check += u64::from(t.accepted);
                            }
                            Err(f) => {
                                println!("{}", f.text);
                                r.failed.push(f);
                            }
                        }
                        if s.mutants >= 1000 && r.mutants % 1000 == 0 {
                            let secs = start.elapsed().as_secs_f64();
                            println!(
                                "fuzz: {} of {} mutants, {} failed, {:.0} mutants/s",
                                r.mutants,
                                s.mutants,
                                r.failed.len(),
                                r.mutants as f64 / secs
                            );
                        }
                    }
                });
            }
        });
        let mut report = report.into_inner().unwrap();
        report.elapsed = start.elapsed();
        report.failed.sort_by_key(|f| f.mutant);
        report
    }
}

fn describe(label: &str, edits: &[Edit]) -> String {
    let edits: Vec<&str> = edits.iter().map(Edit::describe).collect();
    format!("{label}: {}", edits.join("; "))
}

/// The first `lines` lines of `text`, indented.
fn indent(text: &str, lines: usize) -> String {
    text.lines()
        .take(lines)
        .map(|l| format!("    {l}\n"))
        .collect()
}
