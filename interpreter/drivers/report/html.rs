//! The report as one self-contained HTML page (`--html FILE`): the
//! settings, the tables of the text report, and three charts in inline SVG
//! (win rate per seat with its interval, the histogram of game length, the
//! legal moves by decision index). No script, no style sheet or font from
//! elsewhere: the file alone is the page.
//!
//! The page is drawn from a [`PageData`] ([`page_data`]), which tests can
//! look at without reading SVG.

use super::text::percent;
use super::{Advantage, Bucket, KindResult, SeatResult, SimulateReport};
use serde::Serialize;
use std::fmt::Write;

/// The most bars of the histogram of game length: longer ranges of lengths
/// are grouped in bins of equal width.
pub const LENGTH_BINS: u64 = 60;

/// Games of lengths `first..=last`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Bin {
    /// Shortest length of the bin.
    pub first: u64,
    /// Longest length of the bin.
    pub last: u64,
    /// Games of a length in the bin.
    pub games: u64,
}

/// What the page shows, timing aside.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PageData {
    /// The page's title.
    pub title: String,
    /// Settings, as label and value.
    pub settings: Vec<[String; 2]>,
    /// How the games ended, as label and value.
    pub outcomes: Vec<[String; 2]>,
    /// Per seat.
    pub seats: Vec<SeatResult>,
    /// Per kind of player (when there are two kinds or more).
    pub kinds: Vec<KindResult>,
    /// The win rate of an average seat (the dashed line of the chart).
    pub fair_share: f64,
    /// The first seat's advantage.
    pub advantage: Option<Advantage>,
    /// Length statistics, as label and value.
    pub length: Vec<[String; 2]>,
    /// The histogram of game length.
    pub length_bins: Vec<Bin>,
    /// Choice statistics, as label and value.
    pub choice: Vec<[String; 2]>,
    /// Legal moves by decision index.
    pub profile: Vec<Bucket>,
    /// The first errors and stops, as text.
    pub notes: Vec<String>,
}

/// The data of `report`'s page.
pub fn page_data(r: &SimulateReport) -> PageData {
    let pair = |a: &str, b: String| [a.to_string(), b];
    let mut settings = vec![
        pair("rules file", r.file.clone()),
        pair("games", r.games.to_string()),
    ];
    if let Some(s) = &r.shards {
        let played: Vec<String> = s.played.iter().map(|k| format!("{k}/{}", s.of)).collect();
        settings.push(pair(
            "shards",
            format!("{} of a run of {} games", played.join(", "), r.run_games),
        ));
    }
    settings.extend([
        pair("seed", r.seed.to_string()),
        pair("decision limit", r.decision_limit.to_string()),
        pair("--set", r.set.join(" ")),
        pair("seats", r.seats.join(", ")),
        pair("legal moves counted in", r.choice.estimated_from.clone()),
    ]);
    let share = |n: u64| format!("{n} ({})", percent(super::stats::ratio(n, r.games)));
    let outcomes = vec![
        pair("completed", share(r.completed)),
        pair("stopped", share(r.stopped_at_limit)),
        pair("errors", share(r.errors)),
        pair("everyone tied", r.all_tied.to_string()),
        pair("nobody first", r.no_winner.to_string()),
    ];
    let l = &r.length;
    let length = vec![
        pair("games measured", l.games.to_string()),
        pair("mean", format!("{:.2}", l.mean)),
        pair("standard deviation", format!("{:.2}", l.sd)),
        pair("min", l.min.to_string()),
        pair("median", l.median.to_string()),
        pair("90th percentile", l.p90.to_string()),
        pair("99th percentile", l.p99.to_string()),
        pair("max", l.max.to_string()),
    ];
    let c = &r.choice;
    let choice = vec![
        pair("games counted", c.games_counted.to_string()),
        pair("decisions counted", c.decisions.to_string()),
        pair(
            "legal moves per decision",
            format!("{:.2}", c.mean_legal_moves),
        ),
        pair("forced decisions", percent(c.forced_share)),
    ];
    let notes = r
        .first_errors
        .iter()
        .map(|n| ("error", n))
        .chain(r.first_stops.iter().map(|n| ("stop", n)))
        .map(|(what, n)| format!("{what}: game {} (seed {}): {}", n.game, n.seed, n.message))
        .collect();
    PageData {
        title: format!("cardboard simulate: {}", r.file),
        settings,
        outcomes,
        seats: r
            .seat_results
            .iter()
            .filter(|s| s.seat < r.wins.len())
            .cloned()
            .collect(),
        kinds: if r.kinds.len() > 1 {
            r.kinds.clone()
        } else {
            Vec::new()
        },
        fair_share: r
            .first_seat_advantage
            .as_ref()
            .map_or(0.0, |a| a.fair_share),
        advantage: r.first_seat_advantage.clone(),
        length,
        length_bins: length_bins(&r.length.histogram),
        choice,
        profile: r.choice.profile.clone(),
        notes,
    }
}

/// The histogram's lengths in at most [`LENGTH_BINS`] bins of equal width,
/// from the shortest length seen to the longest.
fn length_bins(histogram: &[[u64; 2]]) -> Vec<Bin> {
    let (Some(first), Some(last)) = (histogram.first(), histogram.last()) else {
        return Vec::new();
    };
    let (min, max) = (first[0], last[0]);
    let width = (max - min + 1).div_ceil(LENGTH_BINS);
    let mut bins: Vec<Bin> = (0..=(max - min) / width)
        .map(|j| Bin {
            first: min + j * width,
            last: min + (j + 1) * width - 1,
            games: 0,
        })
        .collect();
    for &[v, n] in histogram {
        bins[((v - min) / width) as usize].games += n;
    }
    bins
}

/// Text for HTML: `&`, `<`, `>` and quotes escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;max-width:56rem;margin:2rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ccc}
table{border-collapse:collapse;margin:.5rem 0}td,th{padding:.2rem .6rem;border-bottom:1px solid #eee;text-align:right}
td:first-child,th:first-child{text-align:left}th{background:#f4f4f4}
svg{display:block;max-width:100%;height:auto;margin:.5rem 0}svg text{font-size:11px;fill:#333}
.bar{fill:#4c78a8}.forced{fill:none;stroke:#e45756;stroke-width:2}.whisker{stroke:#222;stroke-width:1.5}
.fair{stroke:#888;stroke-dasharray:4 3}.note{color:#555;font-size:.9rem}
#seat-table td:nth-child(2),#seat-table th:nth-child(2),.pairs td{text-align:left}";

/// The whole page of `report`.
pub fn page(report: &SimulateReport) -> String {
    let d = page_data(report);
    let mut o = String::new();
    let _ = write!(
        o,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>\n{STYLE}\n</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&d.title),
        escape(&d.title)
    );
    section(&mut o, "settings", "Settings", &d.settings);
    let _ = writeln!(
        o,
        "<p class=\"note\">{:.3} s, {} games/s, {} threads.</p>",
        report.seconds,
        super::rate(report.games_per_second),
        report.jobs
    );
    section(&mut o, "outcomes", "How the games ended", &d.outcomes);
    seats(&mut o, &d);
    section(&mut o, "length", "Game length in decisions", &d.length);
    o.push_str(&histogram_svg(&d.length_bins));
    if !d.length_bins.is_empty() {
        o.push_str("<p class=\"note\">Games (up) by decisions per game (across), over the games without error; a game stopped at the decision limit counts with the limit.</p>\n");
    }
    section(&mut o, "choice", "Choice", &d.choice);
    o.push_str(&profile_svg(&d.profile));
    if !d.profile.is_empty() {
        o.push_str("<p class=\"note\">Legal moves per decision (bars) and share of forced decisions, 0 to 100% (line), by decision index (across).</p>\n");
    }
    profile_table(&mut o, &d.profile);
    if !d.notes.is_empty() {
        o.push_str("<h2 id=\"notes\">First errors and stops</h2>\n<ul>\n");
        for n in &d.notes {
            let _ = writeln!(o, "<li>{}</li>", escape(n));
        }
        o.push_str("</ul>\n");
    }
    o.push_str("</body>\n</html>\n");
    o
}

/// A heading and a table of label and value rows.
fn section(o: &mut String, id: &str, title: &str, rows: &[[String; 2]]) {
    let _ = writeln!(
        o,
        "<h2 id=\"{id}\">{}</h2>\n<table class=\"pairs\">",
        escape(title)
    );
    for [label, value] in rows {
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td>{}</td></tr>",
            escape(label),
            escape(value)
        );
    }
    o.push_str("</table>\n");
}

/// The table and chart of win rates per seat, and per kind.
fn seats(o: &mut String, d: &PageData) {
    if d.seats.is_empty() {
        return;
    }
    o.push_str("<h2 id=\"seats\">Win rate per seat</h2>\n<table id=\"seat-table\">\n<tr><th>seat</th><th>kind</th><th>wins</th><th>win rate</th><th>95% interval</th><th>ties</th><th>legal moves</th><th>forced</th></tr>\n");
    for s in &d.seats {
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} – {}</td><td>{}</td><td>{:.2}</td><td>{}</td></tr>",
            s.seat,
            escape(&s.kind),
            s.wins,
            percent(s.win_rate),
            percent(s.win_rate_low),
            percent(s.win_rate_high),
            s.ties,
            s.mean_legal_moves,
            percent(s.forced_share)
        );
    }
    o.push_str("</table>\n");
    o.push_str(&seats_svg(d));
    if let Some(a) = &d.advantage {
        let _ = writeln!(
            o,
            "<p>First seat: wins {} against {} for an average seat, an advantage of {:+.1} points (95% interval {:+.1} to {:+.1}).</p>",
            percent(a.seat_0_win_rate),
            percent(a.fair_share),
            100.0 * a.advantage,
            100.0 * a.low,
            100.0 * a.high
        );
        if !d.kinds.is_empty() {
            o.push_str("<p class=\"note\">The seats are played by different kinds of player: the first seat's advantage mixes the seat with who plays it.</p>\n");
        }
    }
    if !d.kinds.is_empty() {
        o.push_str("<h2 id=\"kinds\">Win rate per kind of player</h2>\n<table>\n<tr><th>kind</th><th>seats</th><th>wins</th><th>win rate</th><th>95% interval</th><th>fair share</th></tr>\n");
        for k in &d.kinds {
            let seats: Vec<String> = k.seats.iter().map(|s| s.to_string()).collect();
            let _ = writeln!(
                o,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{} – {}</td><td>{}</td></tr>",
                escape(&k.kind),
                seats.join(", "),
                k.wins,
                percent(k.win_rate),
                percent(k.win_rate_low),
                percent(k.win_rate_high),
                percent(k.fair_share)
            );
        }
        o.push_str("</table>\n");
    }
}

/// Horizontal bars of win rate per seat, each with its interval, and the
/// average seat's rate dashed.
fn seats_svg(d: &PageData) -> String {
    let (left, width, row) = (120.0, 440.0, 26.0);
    let top = d
        .seats
        .iter()
        .map(|s| s.win_rate_high)
        .fold(d.fair_share, f64::max)
        .max(0.01);
    let scale = |x: f64| left + width * x / top;
    let height = row * d.seats.len() as f64 + 24.0;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg id=\"win-rates\" viewBox=\"0 0 680 {height}\" role=\"img\"><title>Win rate per seat with 95% intervals</title>"
    );
    for (i, s) in d.seats.iter().enumerate() {
        let y = row * i as f64 + 4.0;
        let _ = writeln!(
            o,
            "<text x=\"4\" y=\"{:.1}\">seat {} ({})</text><rect class=\"bar\" x=\"{left}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"16\"/><line class=\"whisker\" x1=\"{:.1}\" x2=\"{:.1}\" y1=\"{:.1}\" y2=\"{:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            y + 12.0,
            s.seat,
            escape(&s.kind),
            scale(s.win_rate) - left,
            scale(s.win_rate_low),
            scale(s.win_rate_high),
            y + 8.0,
            y + 8.0,
            scale(s.win_rate_high) + 6.0,
            y + 12.0,
            percent(s.win_rate)
        );
    }
    let bottom = row * d.seats.len() as f64 + 4.0;
    if d.fair_share > 0.0 {
        let x = scale(d.fair_share);
        let _ = writeln!(
            o,
            "<line class=\"fair\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"0\" y2=\"{bottom:.1}\"/><text x=\"{x:.1}\" y=\"{:.1}\">average seat {}</text>",
            bottom + 14.0,
            percent(d.fair_share)
        );
    }
    o.push_str("</svg>\n");
    o
}

/// Vertical bars of `values` (label of the bar's range, height) in a chart
/// with its largest value and the first and last labels written.
fn bars_svg(id: &str, title: &str, bars: &[(String, f64)], unit: &str) -> String {
    let (left, width, height) = (50.0, 600.0, 180.0);
    let top = bars.iter().map(|b| b.1).fold(0.0, f64::max).max(1e-9);
    let step = width / bars.len().max(1) as f64;
    let mut o = String::new();
    let _ = writeln!(
        o,
        "<svg id=\"{id}\" viewBox=\"0 0 680 {}\" role=\"img\"><title>{}</title>",
        height + 40.0,
        escape(title)
    );
    for (i, (label, value)) in bars.iter().enumerate() {
        let h = height * value / top;
        let _ = writeln!(
            o,
            "<rect class=\"bar\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{h:.1}\"><title>{}: {value:.2} {unit}</title></rect>",
            left + step * i as f64,
            10.0 + height - h,
            (step - 1.0).max(0.5),
            escape(label)
        );
    }
    if let (Some(first), Some(last)) = (bars.first(), bars.last()) {
        let _ = writeln!(
            o,
            "<text x=\"{left}\" y=\"{:.1}\">{}</text><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text><text x=\"0\" y=\"20\">{}</text><text x=\"0\" y=\"{:.1}\">0</text>",
            height + 26.0,
            escape(&first.0),
            left + width,
            height + 26.0,
            escape(&last.0),
            format_top(top),
            height + 10.0
        );
    }
    o.push_str("</svg>\n");
    o
}

fn format_top(top: f64) -> String {
    if top.fract() == 0.0 {
        format!("{top:.0}")
    } else {
        format!("{top:.2}")
    }
}

fn span(first: u64, last: u64) -> String {
    if first == last {
        first.to_string()
    } else {
        format!("{first}–{last}")
    }
}

/// The histogram of game length.
fn histogram_svg(bins: &[Bin]) -> String {
    if bins.is_empty() {
        return String::new();
    }
    let bars: Vec<(String, f64)> = bins
        .iter()
        .map(|b| (span(b.first, b.last), b.games as f64))
        .collect();
    bars_svg(
        "length-histogram",
        "Games by length in decisions",
        &bars,
        "games",
    )
}

/// Mean legal moves by decision index, with the share of forced decisions
/// as a line (0 at the bottom, 100% at the top).
fn profile_svg(profile: &[Bucket]) -> String {
    if profile.is_empty() {
        return String::new();
    }
    let bars: Vec<(String, f64)> = profile
        .iter()
        .map(|b| {
            (
                format!("decisions {}", span(b.first_decision, b.last_decision)),
                b.mean_legal_moves,
            )
        })
        .collect();
    let mut svg = bars_svg(
        "branching-profile",
        "Legal moves per decision by decision index (bars) and share of forced decisions (line)",
        &bars,
        "legal moves",
    );
    let step = 600.0 / profile.len() as f64;
    let points: Vec<String> = profile
        .iter()
        .enumerate()
        .map(|(i, b)| {
            format!(
                "{:.1},{:.1}",
                50.0 + step * (i as f64 + 0.5),
                10.0 + 180.0 * (1.0 - b.forced_share)
            )
        })
        .collect();
    let line = format!(
        "<polyline class=\"forced\" points=\"{}\"/><text x=\"680\" y=\"20\" text-anchor=\"end\">forced 100%</text>\n</svg>\n",
        points.join(" ")
    );
    svg.truncate(svg.len() - "</svg>\n".len());
    svg.push_str(&line);
    svg
}

/// The table under the profile.
fn profile_table(o: &mut String, profile: &[Bucket]) {
    if profile.is_empty() {
        return;
    }
    o.push_str("<table id=\"profile\">\n<tr><th>decisions</th><th>counted</th><th>legal moves</th><th>forced</th></tr>\n");
    for b in profile {
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td>{}</td><td>{:.2}</td><td>{}</td></tr>",
            span(b.first_decision, b.last_decision),
            b.decisions,
            b.mean_legal_moves,
            percent(b.forced_share)
        );
    }
    o.push_str("</table>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_binned_evenly() {
        let bins = length_bins(&[[10, 2], [11, 1], [200, 4]]);
        assert_eq!(bins.len(), 48);
        assert_eq!(
            bins[0],
            Bin {
                first: 10,
                last: 13,
                games: 3
            }
        );
        assert_eq!(bins.last().map(|b| (b.first, b.games)), Some((198, 4)));
        assert!(bins.len() as u64 <= LENGTH_BINS);
        assert_eq!(
            length_bins(&[[5, 9]]),
            vec![Bin {
                first: 5,
                last: 5,
                games: 9
            }]
        );
        assert!(length_bins(&[]).is_empty());
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(escape("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
    }
}
