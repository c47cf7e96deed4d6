//! The `cardboard` command line: check, fmt, run, simulate, perft, play,
//! serve, join and test. Each subcommand is a thin layer over
//! [`cardboard::drivers`], [`cardboard::play`], [`cardboard::fmt`] and
//! [`cardboard::authoring`]; the flags are in `args.rs`, simulate's files
//! and progress in `simulate.rs`.

use cardboard::command::{read_records, GameRecord};
use cardboard::diagnostic::clip_quotes;
use cardboard::drivers::check::{check_files, EXIT_BAD_FILE, EXIT_UNREADABLE};
use cardboard::drivers::output::{tell, Output, EXIT_OUTPUT};
use cardboard::drivers::perft::perft_each;
use cardboard::drivers::run::run_seated;
use cardboard::drivers::simulate::{SimulateConfig, Sweep};
use cardboard::drivers::{FromPosition, GameEnd};
use cardboard::engine::limits::Limits;
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::loading::{read_text, LoadError, MAX_DATA_BYTES};
use cardboard::play::server::cli::{join_command, rules_name, serve_command, ServeArgs};
use cardboard::play::{play, PlayEnd, PlayOptions, SaveFailed, Terminal};
use cardboard::search::seats::Seats;
use clap::Parser;
use std::io::{ErrorKind, IsTerminal, Stdout};
use std::path::Path;
use std::process::ExitCode;

/// Writes a line to standard error ([`tell`]: its failures are ignored).
macro_rules! say {
    ($($arg:tt)*) => {
        cardboard::drivers::output::tell(format_args!("{}\n", format_args!($($arg)*)))
    };
}

mod args;
mod simulate;

use args::{Cli, Command, DecisionsArgs, GameArgs, SeatsArgs};
use simulate::{merge_command, simulate_command, ReportFiles};

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to standard output, mistakes to standard
            // error; a full disk is told, a closed pipe is not.
            let mut code = e.exit_code();
            if let Err(failure) = e.print() {
                if failure.kind() != ErrorKind::BrokenPipe {
                    say!("error: cannot write the output: {failure}");
                    code = code.max(EXIT_OUTPUT);
                }
            }
            return exit_code(code);
        }
    };
    let mut out = Output::new(std::io::stdout());
    let code = command(cli.command, &mut out);
    let code = match out.finish() {
        Ok(()) => code,
        Err(e) => {
            say!("error: cannot write the output: {e}");
            code.max(EXIT_OUTPUT)
        }
    };
    exit_code(code)
}

/// The process's exit code for `code` (0 to 255).
fn exit_code(code: i32) -> ExitCode {
    ExitCode::from(u8::try_from(code).unwrap_or(u8::MAX))
}

/// Runs one subcommand, its output to `out`; returns the exit code.
fn command(command: Command, out: &mut Output<Stdout>) -> i32 {
    match command {
        Command::Check {
            files,
            deny_warnings,
        } => check_files(&files, deny_warnings, &mut std::io::stderr().lock()),
        Command::Lsp => match cardboard::lsp::run_stdio() {
            Ok(()) => 0,
            Err(e) => {
                eprintln!("error: language server: {e}");
                2
            }
        },
        Command::Fmt {
            files,
            check,
            stdout,
            width,
        } => {
            use cardboard::fmt::files::{fmt_files, Mode};
            let mode = match (check, stdout) {
                (true, _) => Mode::Check,
                (false, true) => Mode::Stdout,
                (false, false) => Mode::Write,
            };
            let mut text = Vec::new();
            let code = fmt_files(
                &files,
                mode,
                width,
                &mut text,
                &mut std::io::stderr().lock(),
            );
            out.put(&String::from_utf8_lossy(&text));
            code
        }
        Command::Run {
            file,
            game,
            seats: SeatsArgs { seats },
            decisions: DecisionsArgs { max_decisions },
            save,
            save_at,
        } => with_rules(&file, game.limits(), |rules| {
            let start = match position_of(rules, &game) {
                Ok(start) => start,
                Err(code) => return code,
            };
            let limit = save_at.map_or(max_decisions, |n| n.min(max_decisions));
            let seats = seats.clone().unwrap_or_default();
            let (result, end_state) = match start {
                Some(state) => {
                    let options = GameOptions {
                        seed: game.seed,
                        overrides: state.settings(),
                    };
                    run_seated(&FromPosition::new(state), &options, limit, &seats)
                }
                None => run_seated(rules, &game.options(), limit, &seats),
            };
            out.put(&format!("file: {}\n", file.display()));
            if let Some(pos) = &game.position {
                out.put(&format!("position: {}\n", pos.display()));
            }
            out.put(&result.text);
            let mut code = match &result.end {
                // A rules error is also told on standard error.
                GameEnd::Error(why) => {
                    say!("error: {}: {why}", file.display());
                    1
                }
                _ => 0,
            };
            if let Some(path) = save {
                code = code.max(save_position(&path, &result.end, end_state.as_ref()));
            }
            code
        }),
        Command::Play {
            file,
            game,
            seats,
            decisions: DecisionsArgs { max_decisions },
            moves,
            record_game,
            transcript,
            save,
            no_auto_forced,
        } => with_rules(&file, game.limits(), |rules| {
            let replay = match &moves {
                None => None,
                Some(path) => match replayed_record(path, record_game.unwrap_or(0), &game) {
                    Ok(record) => Some(record),
                    Err(code) => return code,
                },
            };
            let (seed, settings) = match &replay {
                Some(r) => (r.seed, r.settings.clone()),
                None => (game.seed, game.set.clone()),
            };
            let mut state = match position_of(rules, &game) {
                Ok(Some(state)) => state,
                Ok(None) => {
                    let options = GameOptions {
                        seed,
                        overrides: settings.clone(),
                    };
                    match rules.start(&options) {
                        Ok(state) => state,
                        Err(e) => {
                            say!("error: {}: the game cannot start: {e}", file.display());
                            return 1;
                        }
                    }
                }
                Err(code) => return code,
            };
            let seats = match seats {
                Some(seats) => seats.clone(),
                None => Seats::parse("human").unwrap_or_default(),
            };
            let mut record = GameRecord::new(seed, settings);
            record.rules = rules_name(&file);
            if let Some(pos) = &game.position {
                // The position carries its settings.
                record.position = Some(pos.display().to_string());
                record.settings = state.settings();
            }
            record.seats = seats.describe(cardboard::game::GameState::num_players(&state));
            let options = PlayOptions {
                record,
                seats,
                seed,
                max_decisions,
                moves: replay.map(|r| r.commands).unwrap_or_default(),
                transcript: transcript.clone(),
                save: save.clone(),
                clear: std::io::stdout().is_terminal(),
                auto_forced: !no_auto_forced,
                forced_pause: std::time::Duration::from_millis(
                    if std::io::stdout().is_terminal() {
                        700
                    } else {
                        0
                    },
                ),
            };
            let mut term = Terminal {
                input: std::io::stdin().lock(),
                output: std::io::stdout().lock(),
            };
            let position = |s: &State| Some(s.to_position());
            let ended = |end: &PlayEnd| {
                match end {
                    PlayEnd::Refused(why) => {
                        say!("error: {}: {}", file.display(), clip_quotes(why))
                    }
                    PlayEnd::Over(cardboard::game::Status::Failed(why)) => {
                        say!("error: {}: {why}", file.display())
                    }
                    _ => {}
                }
                end.exit_code()
            };
            match play(&mut state, &options, &mut term, &position) {
                Ok(end) => ended(&end),
                // `--transcript` or `--save` not written: exit 2, as `run
                // --save`.
                Err(e) if e.get_ref().is_some_and(|x| x.is::<SaveFailed>()) => {
                    let failed = e.get_ref().and_then(|x| x.downcast_ref::<SaveFailed>());
                    let code = failed.map_or(0, |f| ended(&f.end));
                    say!("error: {e}");
                    code.max(EXIT_UNREADABLE)
                }
                // The terminal went away: a closed pipe quietly.
                Err(e) if e.kind() == ErrorKind::BrokenPipe => 0,
                Err(e) => {
                    say!("error: cannot write the output: {e}");
                    EXIT_OUTPUT
                }
            }
        }),
        Command::Simulate {
            file,
            games,
            game,
            jobs,
            max_decisions,
            seats: SeatsArgs { seats },
            json,
            branching,
            games_out,
            html,
            shard,
        } => with_rules(&file, game.limits(), |rules| {
            let seats = seats.clone().unwrap_or_default();
            let config = SimulateConfig {
                games,
                seed: game.seed,
                overrides: game.set.clone(),
                max_decisions,
                jobs: jobs.unwrap_or(0),
            };
            let files = ReportFiles {
                json,
                html: html.clone(),
                games_out: games_out.clone(),
            };
            let sweep = || Sweep {
                branching,
                shard,
                file: file.display().to_string(),
                rows: None,
                cancel: None,
            };
            match position_of(rules, &game) {
                Ok(Some(state)) => simulate_command(
                    &FromPosition::new(state),
                    &config,
                    &seats,
                    sweep(),
                    &files,
                    out,
                ),
                Ok(None) => simulate_command(rules, &config, &seats, sweep(), &files, out),
                Err(code) => code,
            }
        }),
        Command::Merge { files, json, html } => merge_command(&files, json, html.as_deref(), out),
        Command::Serve {
            file,
            game,
            serve: args,
        } => serve(&file, &game, &args, out),
        Command::Test {
            paths,
            accept,
            review,
        } => test_command(&paths, accept, review, out),
        Command::Join { join } => join_command(&join),
        Command::Perft {
            file,
            depth,
            game,
            jobs,
            bulk,
        } => {
            with_rules(&file, game.limits(), |rules| {
                let start = match position_of(rules, &game) {
                    Ok(Some(state)) => state,
                    Ok(None) => match rules.start(&game.options()) {
                        Ok(state) => state,
                        Err(e) => {
                            say!("error: {}: the game cannot start: {e}", file.display());
                            return 1;
                        }
                    },
                    Err(code) => return code,
                };
                // Each depth's line as soon as it is counted.
                if bulk {
                    out.put("counting: the last depth as the moves of its parents, not played (--bulk)\n");
                }
                let each = perft_each(&start, depth, jobs.unwrap_or(0), bulk, |line| {
                    out.put(line);
                    out.is_open()
                });
                match each {
                    Ok(run) => {
                        let per_second = if run.seconds > 0.0 {
                            run.nodes() as f64 / run.seconds
                        } else {
                            0.0
                        };
                        out.put(&format!(
                            "time: {:.3} s, {per_second:.0} nodes/s, {} threads\n",
                            run.seconds, run.threads
                        ));
                        0
                    }
                    Err(e) => {
                        say!("error: {}: {e}", file.display());
                        1
                    }
                }
            })
        }
    }
}

/// Runs `cardboard test`: the output to `out`, `--review`'s questions
/// answered on standard input.
fn test_command(
    paths: &[std::path::PathBuf],
    accept: bool,
    review: bool,
    out: &mut Output<Stdout>,
) -> i32 {
    use cardboard::authoring::test::{run_tests, Io, Mode};
    let mode = match (accept, review) {
        (true, _) => Mode::Accept,
        (_, true) => Mode::Review,
        _ => Mode::Check,
    };
    let out = std::cell::RefCell::new(out);
    let mut say = |text: &str| out.borrow_mut().put(text);
    let mut ask = |question: &str| {
        let mut out = out.borrow_mut();
        out.put(question);
        drop(out);
        // Standard output is buffered by the line: show the question now.
        let _ = std::io::Write::flush(&mut std::io::stdout());
        let mut answer = String::new();
        match std::io::stdin().read_line(&mut answer) {
            Ok(_) => matches!(answer.trim(), "y" | "yes" | "Y"),
            Err(_) => false,
        }
    };
    let summary = run_tests(
        paths,
        mode,
        &mut Io {
            say: &mut say,
            ask: &mut ask,
        },
    );
    summary.exit_code()
}

/// The record of `play --moves PATH` chosen with `--game K`; what is
/// wrong with it is said here and gives the exit code.
fn replayed_record(path: &Path, k: usize, game: &GameArgs) -> Result<GameRecord, i32> {
    let text = read_text(path, MAX_DATA_BYTES, "a record of moves").map_err(|e| {
        say!("error: cannot read {}: {e}", path.display());
        EXIT_UNREADABLE
    })?;
    let mut records = read_records(&text).map_err(|e| {
        say!("error: {}: {}", path.display(), clip_quotes(&e));
        EXIT_BAD_FILE
    })?;
    let n = records.len();
    if k >= n {
        say!(
            "error: {}: there is no game {k}: the file holds {n} (--game 0 to {})",
            path.display(),
            n - 1
        );
        return Err(EXIT_BAD_FILE);
    }
    let record = records.swap_remove(k);
    match (&record.position, &game.position) {
        (Some(pos), None) => {
            say!(
                "error: {}: the game started from the position {pos}: give it with --position",
                path.display()
            );
            Err(1)
        }
        (None, Some(_)) => {
            say!(
                "error: {}: the game started at the beginning, not from a position: leave out --position",
                path.display()
            );
            Err(1)
        }
        _ => Ok(record),
    }
}

/// Runs `cardboard serve` on the rules (or the position) of `game`.
fn serve(file: &Path, game: &GameArgs, args: &ServeArgs, out: &mut Output<Stdout>) -> i32 {
    with_rules(file, game.limits(), |rules| {
        match position_of(rules, game) {
            Ok(Some(state)) => {
                let settings = state.settings();
                let position = game.position.as_ref().map(|p| p.display().to_string());
                serve_command(
                    FromPosition::new(state),
                    file,
                    position,
                    game.seed,
                    settings,
                    args,
                    out,
                )
            }
            Ok(None) => serve_command(
                rules.clone(),
                file,
                None,
                game.seed,
                game.set.clone(),
                args,
                out,
            ),
            Err(code) => code,
        }
    })
}

/// Loads the rules at `path` and runs `command` on them, with `limits`; a
/// file that cannot be read or has errors is reported here.
fn with_rules(path: &Path, limits: Limits, command: impl FnOnce(&Rules) -> i32) -> i32 {
    match Rules::load(path) {
        Ok(rules) => command(&rules.with_limits(limits)),
        Err(LoadError::Io(message)) => {
            say!("error: {message}");
            EXIT_UNREADABLE
        }
        Err(LoadError::Check(e)) => {
            tell(format_args!("{}", e.render()));
            EXIT_BAD_FILE
        }
    }
}

/// The state of `--position`, if given; a position that cannot be read or
/// loaded is reported here (file, line, what) and gives the exit code.
fn position_of(rules: &Rules, game: &GameArgs) -> Result<Option<State>, i32> {
    let Some(path) = &game.position else {
        return Ok(None);
    };
    let text = read_text(path, MAX_DATA_BYTES, "a position").map_err(|e| {
        say!("error: cannot read {}: {e}", path.display());
        EXIT_UNREADABLE
    })?;
    rules.load_position(&text).map(Some).map_err(|e| {
        if e.line > 0 {
            say!("error: {}:{}: {}", path.display(), e.line, e.message);
        } else {
            say!("error: {}: {}", path.display(), e.message);
        }
        EXIT_BAD_FILE
    })
}

/// Writes the position where a run stopped to `path` (`--save`); returns
/// the exit code.
fn save_position(path: &Path, end: &GameEnd, state: Option<&State>) -> i32 {
    let state = match (end, state) {
        (GameEnd::Error(_), _) | (_, None) => {
            say!("error: the game failed: no position saved");
            return 1;
        }
        (GameEnd::Stopped(_), _) => {
            say!("error: the engine stopped the game away from any decision: no position saved");
            return 1;
        }
        (_, Some(state)) => state,
    };
    match std::fs::write(path, state.to_position()) {
        Ok(()) => {
            say!(
                "saved the position after {} decisions to {}",
                state.decisions(),
                path.display()
            );
            0
        }
        Err(e) => {
            say!("error: cannot write {}: {e}", path.display());
            EXIT_UNREADABLE
        }
    }
}
