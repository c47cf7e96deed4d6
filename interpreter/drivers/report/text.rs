//! The report as text, for people at a terminal.

use super::{Branching, SimulateReport, BRANCHING_EVERY};
use std::fmt::Write;

/// A share as a percentage with one decimal.
pub(crate) fn percent(share: f64) -> String {
    format!("{:.1}%", 100.0 * share)
}

/// The report for people: the counts, then the tables of seats, length and
/// choice.
pub(super) fn to_text(r: &SimulateReport) -> String {
    let mut out = String::new();
    let o = &mut out;
    let pct = |n: u64| {
        if r.games == 0 {
            0.0
        } else {
            100.0 * n as f64 / r.games as f64
        }
    };
    if !r.file.is_empty() {
        let _ = writeln!(o, "file:             {}", r.file);
    }
    if let Some(s) = &r.shards {
        let played: Vec<String> = s.played.iter().map(|k| format!("{k}/{}", s.of)).collect();
        let _ = writeln!(
            o,
            "shards:           {} of a run of {} games",
            played.join(", "),
            r.run_games
        );
    }
    let _ = writeln!(o, "games:            {}", r.games);
    for (name, n) in [
        ("completed:       ", r.completed),
        ("stopped_at_limit:", r.stopped_at_limit),
        ("errors:          ", r.errors),
    ] {
        let _ = writeln!(o, "{name} {n} ({:.1}%)", pct(n));
    }
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
    let _ = writeln!(o, "seats:            {}", r.seats.join(", "));
    let _ = writeln!(o, "wins (alone):     {}", seats(&r.wins));
    let _ = writeln!(o, "ties (shared):    {}", seats(&r.ties));
    let _ = writeln!(
        o,
        "decisions/game:   mean {:.2}, min {}, max {}",
        r.mean_decisions, r.min_decisions, r.max_decisions
    );
    let counted = match r.branching {
        Branching::Sampled => format!("1 game in {BRANCHING_EVERY}"),
        Branching::All => "every game".to_string(),
    };
    let _ = writeln!(
        o,
        "moves/decision:   mean {:.2} (counted in {counted})",
        r.mean_branching_counted
    );
    let _ = writeln!(
        o,
        "time:             {:.3} s, {} games/s, {} threads",
        r.seconds,
        super::rate(r.games_per_second),
        r.jobs
    );
    let _ = writeln!(
        o,
        "seed:             {} (decision limit {})",
        r.seed, r.decision_limit
    );
    seat_table(o, r);
    length_and_choice(o, r);
    for (title, notes, total) in [
        ("first errors", &r.first_errors, r.errors),
        ("first stops", &r.first_stops, r.stopped_at_limit),
    ] {
        if notes.is_empty() {
            continue;
        }
        let _ = writeln!(o, "{title} ({} of {total}):", notes.len());
        for n in notes {
            let _ = writeln!(o, "  game {} (seed {}): {}", n.game, n.seed, n.message);
        }
    }
    if !r.first_errors.is_empty() || !r.first_stops.is_empty() {
        let set: String = r.set.iter().map(|s| format!(" --set {s}")).collect();
        let _ = writeln!(
            o,
            "replay a game with `cardboard run FILE --seed SEED{set}`"
        );
    }
    out
}

/// Win rates per seat and per kind, with their intervals.
fn seat_table(o: &mut String, r: &SimulateReport) {
    if r.wins.is_empty() {
        return;
    }
    let _ = writeln!(
        o,
        "\nwin rate per seat, over {} completed games (95% Wilson interval):",
        r.completed
    );
    let _ = writeln!(
        o,
        "  seat  {:<14} {:>9} {:>7} {:>17} {:>9} {:>8} {:>7}",
        "kind", "wins", "rate", "interval", "ties", "moves", "forced"
    );
    for s in r.seat_results.iter().filter(|s| s.seat < r.wins.len()) {
        let _ = writeln!(
            o,
            "  {:<5} {:<14} {:>9} {:>7} {:>17} {:>9} {:>8.2} {:>7}",
            s.seat,
            s.kind,
            s.wins,
            percent(s.win_rate),
            format!(
                "[{}, {}]",
                percent(s.win_rate_low),
                percent(s.win_rate_high)
            ),
            s.ties,
            s.mean_legal_moves,
            percent(s.forced_share),
        );
    }
    if r.kinds.len() > 1 {
        let _ = writeln!(o, "win rate per kind of player:");
        for k in &r.kinds {
            let seats: Vec<String> = k.seats.iter().map(|s| s.to_string()).collect();
            let _ = writeln!(
                o,
                "  {:<14} seats {:<10} wins {} ({} [{}, {}]; fair share {})",
                k.kind,
                seats.join(","),
                k.wins,
                percent(k.win_rate),
                percent(k.win_rate_low),
                percent(k.win_rate_high),
                percent(k.fair_share),
            );
        }
    }
    if let Some(a) = &r.first_seat_advantage {
        let points = |x: f64| format!("{:+.1}", 100.0 * x);
        let _ = writeln!(
            o,
            "first seat:       wins {} against {} for an average seat: {} points [{}, {}]",
            percent(a.seat_0_win_rate),
            percent(a.fair_share),
            points(a.advantage),
            points(a.low),
            points(a.high),
        );
        if r.kinds.len() > 1 {
            let _ = writeln!(
                o,
                "                  (the seats are played by different kinds: this mixes the seat with who plays it)"
            );
        }
    }
    let _ = writeln!(
        o,
        "everyone tied:    {} of {} completed games; nobody first: {}",
        r.all_tied, r.completed, r.no_winner
    );
}

/// The length of games and the choice the players had.
fn length_and_choice(o: &mut String, r: &SimulateReport) {
    let l = &r.length;
    if l.games > 0 {
        let _ = writeln!(
            o,
            "\ngame length in decisions, over {} games without error:\n  mean {:.2}, sd {:.2}, min {}, median {}, p90 {}, p99 {}, max {}",
            l.games, l.mean, l.sd, l.min, l.median, l.p90, l.p99, l.max
        );
    }
    let c = &r.choice;
    if c.decisions == 0 {
        return;
    }
    let _ = writeln!(
        o,
        "\nchoice, over the {} games counted ({}):\n  {:.2} legal moves per decision, {} of decisions forced (one legal move)",
        c.games_counted,
        c.estimated_from,
        c.mean_legal_moves,
        percent(c.forced_share)
    );
    let _ = writeln!(o, "  by decision:  decisions   moves  forced");
    for b in &c.profile {
        let span = if b.first_decision == b.last_decision {
            b.first_decision.to_string()
        } else {
            format!("{}-{}", b.first_decision, b.last_decision)
        };
        let _ = writeln!(
            o,
            "  {:<13} {:>9} {:>7.2} {:>7}",
            span,
            b.decisions,
            b.mean_legal_moves,
            percent(b.forced_share)
        );
    }
}
