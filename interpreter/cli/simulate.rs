//! `simulate` and `merge` at the command line: the files a simulation
//! writes beside its report, the report shown, and the progress bar.

use cardboard::drivers::check::{EXIT_BAD_FILE, EXIT_UNREADABLE};
use cardboard::drivers::output::Output;
use cardboard::drivers::report::games_out::RowFormat;
use cardboard::drivers::report::{self, SimulateReport};
use cardboard::drivers::simulate::{simulate_sweep, Rows, SimulateConfig, Sweep};
use cardboard::drivers::Ruleset;
use cardboard::search::seats::Seats;
use std::io::Stdout;
use std::path::{Path, PathBuf};

/// Where `simulate` writes besides its report on standard output.
pub struct ReportFiles {
    /// The report as JSON rather than text.
    pub json: bool,
    /// `--html`.
    pub html: Option<PathBuf>,
    /// `--games-out`.
    pub games_out: Option<PathBuf>,
}

pub fn simulate_command<R: Ruleset>(
    rules: &R,
    config: &SimulateConfig,
    seats: &Seats,
    base: Sweep<'static>,
    files: &ReportFiles,
    out: &mut Output<Stdout>,
) -> i32 {
    use std::io::Write;
    let mut rows_file = None;
    if let Some(path) = &files.games_out {
        let format = match RowFormat::of_path(path) {
            Ok(format) => format,
            Err(e) => {
                say!("error: {e}");
                return 2;
            }
        };
        match std::fs::File::create(path) {
            Ok(f) => rows_file = Some((format, std::io::BufWriter::new(f))),
            Err(e) => {
                say!("error: cannot write {}: {e}", path.display());
                return EXIT_UNREADABLE;
            }
        }
    }
    let mut sweep = Sweep {
        branching: base.branching,
        shard: base.shard,
        file: base.file,
        rows: None,
        cancel: None,
    };
    let mut write_rows;
    if let Some((format, writer)) = rows_file.as_mut() {
        let name = files.games_out.clone().unwrap_or_default();
        write_rows = move |text: &str| {
            writer
                .write_all(text.as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", name.display()))
        };
        sweep.rows = Some(Rows {
            format: *format,
            write: &mut write_rows,
        });
    }
    let bar = Progress::new(config.games, files.json);
    let result = simulate_sweep(rules, config, seats, sweep, &|n| bar.inc(n));
    bar.finish();
    let report = match result {
        Ok(report) => report,
        Err(e) => {
            say!("error: {e}");
            return 1;
        }
    };
    if let Some((_, mut writer)) = rows_file {
        if let Err(e) = writer.flush() {
            let name = files.games_out.clone().unwrap_or_default();
            say!("error: cannot write {}: {e}", name.display());
            return EXIT_UNREADABLE;
        }
    }
    show_report(&report, files.json, files.html.as_deref(), out)
}

/// Prints `report` (JSON or text) and writes its page to `html`; returns
/// the exit code: at least 1 when some game of the report failed with a
/// rules error (for `simulate` and `merge` alike).
pub fn show_report(
    report: &SimulateReport,
    json: bool,
    html: Option<&Path>,
    out: &mut Output<Stdout>,
) -> i32 {
    if json {
        out.put(&format!("{}\n", report.to_json()));
    } else {
        out.put(&report.to_text());
    }
    if let Some(path) = html {
        if let Err(e) = std::fs::write(path, report::html::page(report)) {
            say!("error: cannot write {}: {e}", path.display());
            return EXIT_UNREADABLE;
        }
    }
    if report.errors > 0 {
        1
    } else {
        0
    }
}

/// `cardboard merge`: reads the reports, merges them, shows the result.
pub fn merge_command(
    files: &[PathBuf],
    json: bool,
    html: Option<&Path>,
    out: &mut Output<Stdout>,
) -> i32 {
    let mut reports = Vec::new();
    for path in files {
        let text = match cardboard::loading::read_text(
            path,
            cardboard::loading::MAX_DATA_BYTES,
            "a report",
        ) {
            Ok(text) => text,
            Err(e) => {
                say!("error: cannot read {}: {e}", path.display());
                return EXIT_UNREADABLE;
            }
        };
        match SimulateReport::from_json(&text) {
            Ok(r) => reports.push(r),
            Err(e) => {
                say!(
                    "error: {}: not a report of `simulate --json`: {}",
                    path.display(),
                    cardboard::diagnostic::clip_quotes(&e)
                );
                return EXIT_BAD_FILE;
            }
        }
    }
    match report::merge(&reports) {
        Ok(merged) => show_report(&merged, json, html, out),
        Err(e) => {
            say!("error: {e}");
            EXIT_BAD_FILE
        }
    }
}

/// The progress bar of `simulate` on standard error: drawn only when
/// standard error is a terminal, not with `--json`, and only once the run
/// has lasted a second (a short run shows nothing).
struct Progress {
    bar: indicatif::ProgressBar,
    started: std::time::Instant,
    shown: std::sync::atomic::AtomicBool,
    wanted: bool,
}

impl Progress {
    fn new(games: u64, json: bool) -> Progress {
        use std::io::IsTerminal;
        let bar = indicatif::ProgressBar::hidden();
        bar.set_length(games);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {pos}/{len} games, {per_sec}, eta {eta}",
        ) {
            bar.set_style(style);
        }
        Progress {
            bar,
            started: std::time::Instant::now(),
            shown: std::sync::atomic::AtomicBool::new(false),
            wanted: !json && std::io::stderr().is_terminal(),
        }
    }

    fn inc(&self, games: u64) {
        use std::sync::atomic::Ordering;
        self.bar.inc(games);
        if self.wanted
            && !self.shown.load(Ordering::Relaxed)
            && self.started.elapsed().as_secs_f64() >= 1.0
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            self.bar
                .set_draw_target(indicatif::ProgressDrawTarget::stderr_with_hz(4));
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
