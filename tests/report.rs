//! Tests of the designer's report (`simulate`'s statistics, `--shard` and
//! `cardboard merge`, `--games-out`, `--html`), on the toy game of
//! `common::toy` where figures can be worked out by hand, and on shipped
//! games through the command line.

mod common;

use cardboard::drivers::report::{self, html, Branching, SimulateReport};
use cardboard::drivers::simulate::{simulate_sweep, Shard, SimulateConfig, Sweep};
use cardboard::search::seats::Seats;
use common::toy::Toy;
use common::{cardboard, options};

fn config(games: u64, seed: u64, set: &[(&str, &str)]) -> SimulateConfig {
    SimulateConfig {
        games,
        seed,
        overrides: options(seed, set).overrides,
        max_decisions: 10_000,
        jobs: 2,
    }
}

fn sweep(branching: Branching, shard: Option<Shard>) -> Sweep<'static> {
    Sweep {
        branching,
        shard,
        file: "toy.rcy".to_string(),
        rows: None,
        cancel: None,
    }
}

fn run(config: &SimulateConfig, branching: Branching, shard: Option<Shard>) -> SimulateReport {
    simulate_sweep(
        &Toy,
        config,
        &Seats::random(),
        sweep(branching, shard),
        &|_| {},
    )
    .expect("thread pool")
}

/// The JSON report without the fields that measure time or threads.
fn without_timing(report: &SimulateReport) -> serde_json::Value {
    let mut json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let object = json.as_object_mut().unwrap();
    for key in ["seconds", "games_per_second", "jobs"] {
        assert!(object.remove(key).is_some(), "missing {key}");
    }
    json
}

/// Compares two reports key by key, to say which one differs.
fn assert_same(merged: &SimulateReport, whole: &SimulateReport, what: &str) {
    let (a, b) = (without_timing(merged), without_timing(whole));
    for (key, value) in b.as_object().unwrap() {
        assert_eq!(a.get(key), Some(value), "{what}: `{key}` differs");
    }
    assert_eq!(a, b, "{what}");
}

/// Through JSON and back, as `cardboard merge` reads the shards' reports.
fn reread(report: &SimulateReport) -> SimulateReport {
    SimulateReport::from_json(&report.to_json()).expect("a report reads back")
}

#[test]
fn merged_shards_are_the_report_of_the_whole_run() {
    // Three players, lengths that vary, ties; games failing at their sixth
    // decision, or stopped at their fifth: more than five of each, so the
    // quoted first few come from several shards.
    for set in [
        &[
            ("PILE", "2"),
            ("EXTRA", "7"),
            ("GUST", "1"),
            ("PLAYERS", "3"),
            ("FAILAT", "6"),
        ][..],
        &[
            ("PILE", "3"),
            ("EXTRA", "5"),
            ("PLAYERS", "3"),
            ("STOPAT", "5"),
        ],
    ] {
        for branching in [Branching::Sampled, Branching::All] {
            let config = config(1003, 17, set);
            let whole = run(&config, branching, None);
            assert!(whole.completed > 0 && whole.errors + whole.stopped_at_limit > 5);
            assert!(whole.first_errors.len() + whole.first_stops.len() == 5);
            for n in [2, 3, 7] {
                let shards: Vec<SimulateReport> = (0..n)
                    .map(|k| reread(&run(&config, branching, Some(Shard { index: k, count: n }))))
                    .collect();
                assert_eq!(shards.iter().map(|s| s.games).sum::<u64>(), 1003);
                let merged = report::merge(&shards).unwrap();
                assert_same(
                    &merged,
                    &whole,
                    &format!("{set:?} {branching:?} in {n} shards"),
                );
                // Merging merges: the first shards, then the rest.
                let (front, back) = shards.split_at(1);
                let front = reread(&report::merge(front).unwrap());
                let back = reread(&report::merge(back).unwrap());
                assert!(front.shards.is_some() && back.shards.is_some());
                let again = report::merge(&[back, front]).unwrap();
                assert_same(&again, &whole, &format!("{set:?} merged in two steps"));
            }
        }
    }
}

#[test]
fn merge_refuses_reports_of_other_runs_and_shards_twice() {
    let set = [("PILE", "5")];
    let shard = |k, seed| {
        let shard = Some(Shard { index: k, count: 2 });
        run(&config(100, seed, &set), Branching::Sampled, shard)
    };
    let err = report::merge(&[shard(0, 1), shard(0, 1)]).unwrap_err();
    assert!(err.contains("shard 0 is in two"), "{err}");
    let err = report::merge(&[shard(0, 1), shard(1, 2)]).unwrap_err();
    assert!(err.contains("report 2 is of another run"), "{err}");
    let all = run(
        &config(100, 1, &set),
        Branching::All,
        Some(Shard { index: 1, count: 2 }),
    );
    assert!(report::merge(&[shard(0, 1), all]).is_err());
    assert!(report::merge(&[]).is_err());
    // Half the shards: the report says which.
    let half = report::merge(&[shard(1, 1)]).unwrap();
    assert_eq!(half.shards.map(|s| (s.of, s.played)), Some((2, vec![1])));
}

#[test]
fn statistics_of_a_game_worked_out_by_hand() {
    // Pile 2: player 0 takes both (one decision of two moves, a win alone)
    // or takes one and player 1 must take the last (a forced decision; a
    // tie of both seats).
    let n = 1000;
    let r = run(&config(n, 7, &[("PILE", "2")]), Branching::All, None);
    let k = r.wins[0];
    assert!(k > 400 && k < 600, "{k}");
    assert_eq!((r.completed, r.all_tied, r.no_winner), (n, n - k, 0));
    let seat0 = &r.seat_results[0];
    let (low, high) = report::stats::wilson(k, n);
    assert_eq!(
        (seat0.win_rate, seat0.win_rate_low, seat0.win_rate_high),
        (k as f64 / n as f64, low, high)
    );
    assert!(low < 0.5 && high > 0.5 && high - low < 0.07, "{low} {high}");
    let advantage = r.first_seat_advantage.as_ref().unwrap();
    assert_eq!(advantage.fair_share, k as f64 / n as f64 / 2.0);
    assert_eq!(advantage.low, low - advantage.fair_share);
    // Lengths: n - k games of 2 decisions and k of 1.
    let l = &r.length;
    assert_eq!(l.histogram, vec![[1, k], [2, n - k]]);
    assert_eq!((l.min, l.max, l.games), (1, 2, n));
    let median = if 2 * k >= n { 1 } else { 2 };
    assert_eq!((l.median, l.p90, l.p99), (median, 2, 2));
    let mean = (2 * n - k) as f64 / n as f64;
    assert!((l.mean - mean).abs() < 1e-12);
    let p = k as f64 / n as f64;
    assert!((l.sd - (p * (1.0 - p)).sqrt()).abs() < 1e-9, "{}", l.sd);
    // Choice, every game counted: seat 0 always has two moves, seat 1 one.
    let c = &r.choice;
    assert_eq!((c.games_counted, c.decisions), (n, 2 * n - k));
    assert_eq!((c.legal_moves, c.forced), (2 * n + (n - k), n - k));
    assert_eq!(c.estimated_from, "every game");
    let seats: Vec<(u64, u64, u64)> = r
        .seat_results
        .iter()
        .map(|s| (s.decisions_counted, s.legal_moves_counted, s.forced_counted))
        .collect();
    assert_eq!(seats, vec![(n, 2 * n, 0), (n - k, n - k, n - k)]);
    assert_eq!(c.bucket_width, 1);
    let profile: Vec<(u64, u64, u64, f64)> = c
        .profile
        .iter()
        .map(|b| (b.first_decision, b.decisions, b.legal_moves, b.forced_share))
        .collect();
    assert_eq!(profile, vec![(1, n, 2 * n, 0.0), (2, n - k, n - k, 1.0)]);
    // The default counts games 0, 50, 100, ... only and says so.
    let sampled = run(&config(n, 7, &[("PILE", "2")]), Branching::Sampled, None);
    assert_eq!(sampled.choice.games_counted, n / 50);
    assert!(sampled.choice.estimated_from.contains("1 game in 50"));
    assert!(sampled.to_text().contains("(counted in 1 game in 50)"));
    assert!(r.to_text().contains("(counted in every game)"));
}

#[test]
fn kinds_of_players_are_reported_together() {
    let seats = Seats::parse("mcts:30,random,mcts:30").unwrap();
    let config = config(60, 3, &[("PILE", "6"), ("PLAYERS", "4")]);
    let r = simulate_sweep(
        &Toy,
        &config,
        &seats,
        sweep(Branching::Sampled, None),
        &|_| {},
    )
    .unwrap();
    assert_eq!(r.seats, ["mcts:30", "random", "mcts:30", "random"]);
    let kinds: Vec<(&str, &[usize], f64)> = r
        .kinds
        .iter()
        .map(|k| (k.kind.as_str(), k.seats.as_slice(), k.fair_share))
        .collect();
    assert_eq!(
        kinds,
        vec![("mcts:30", &[0, 2][..], 0.5), ("random", &[1, 3][..], 0.5)]
    );
    assert_eq!(r.kinds[0].wins, r.wins[0] + r.wins[2]);
    assert!(r.to_text().contains("win rate per kind of player:"));
    // Seat 0 is played by another kind than seat 1: its advantage says so.
    assert!(r.to_text().contains("mixes the seat with who plays it"));
    assert!(html::page(&r).contains("mixes the seat with who plays it"));
    let alike = simulate_sweep(
        &Toy,
        &config,
        &Seats::random(),
        sweep(Branching::Sampled, None),
        &|_| {},
    )
    .unwrap();
    assert!(!alike.to_text().contains("mixes the seat"));
}

#[test]
fn the_page_is_self_contained_and_shows_the_tables_and_charts() {
    let config = config(
        400,
        5,
        &[
            ("PILE", "4"),
            ("EXTRA", "12"),
            ("GUST", "1"),
            ("PLAYERS", "3"),
        ],
    );
    let r = run(&config, Branching::All, None);
    let page = html::page(&r);
    let options = tl::ParserOptions::default().track_ids();
    let dom = tl::parse(&page, options).expect("the page parses");
    let parser = dom.parser();
    let tags = |name: &str| -> Vec<&tl::HTMLTag> {
        let nodes = dom.query_selector(name).expect("a selector");
        nodes.filter_map(|h| h.get(parser)?.as_tag()).collect()
    };
    let all = |name: &str| -> Vec<String> {
        tags(name)
            .iter()
            .map(|t| t.inner_text(parser).into_owned())
            .collect()
    };
    // The elements named `name` (of class `class`) inside the element `id`.
    let inside = |id: &str, name: &str, class: Option<&str>| -> usize {
        let element = dom.get_element_by_id(id).and_then(|h| h.get(parser));
        let children = element
            .and_then(|e| e.children())
            .unwrap_or_else(|| panic!("no #{id}"));
        children
            .all(parser)
            .iter()
            .filter_map(|n| n.as_tag())
            .filter(|t| t.name() == name)
            .filter(|t| {
                class.is_none()
                    || t.attributes().class().map(|c| c.as_utf8_str()) == class.map(Into::into)
            })
            .count()
    };
    // The page's title comes first (the charts' titles follow).
    assert_eq!(
        all("title").first().map(String::as_str),
        Some("cardboard simulate: toy.rcy")
    );
    // Nothing from elsewhere: no script, no link, no source, no address.
    for tag in ["script", "link", "img", "iframe"] {
        assert!(all(tag).is_empty(), "a <{tag}> in the page");
    }
    assert!(!page.contains("http") && !page.contains("src="));
    let svgs: Vec<String> = tags("svg")
        .iter()
        .filter_map(|t| t.attributes().id().map(|id| id.as_utf8_str().into_owned()))
        .collect();
    assert_eq!(svgs, ["win-rates", "length-histogram", "branching-profile"]);
    let data = html::page_data(&r);
    assert_eq!(inside("win-rates", "rect", Some("bar")), 3);
    assert_eq!(inside("win-rates", "line", Some("whisker")), 3);
    assert_eq!(
        inside("length-histogram", "rect", None),
        data.length_bins.len()
    );
    assert!(data.length_bins.len() > 5);
    assert_eq!(
        inside("branching-profile", "rect", None),
        r.choice.profile.len()
    );
    assert_eq!(inside("branching-profile", "polyline", None), 1);
    // One table row per seat, after the heading row; the profile's table.
    assert_eq!(inside("seat-table", "tr", None), 4);
    assert_eq!(inside("profile", "tr", None), r.choice.profile.len() + 1);
    let headings = all("h2");
    for h in [
        "Settings",
        "How the games ended",
        "Win rate per seat",
        "Game length in decisions",
        "Choice",
    ] {
        assert!(headings.iter().any(|x| x == h), "no {h} in {headings:?}");
    }
    // The histogram's bars hold every game measured.
    let binned: u64 = data.length_bins.iter().map(|b| b.games).sum();
    assert_eq!(binned, r.length.games);
    insta::assert_snapshot!(serde_json::to_string_pretty(&data).unwrap());
}

/// `--games-out` writes a row per game that adds up to the report; the
/// command line's shards merge into the whole run's report.
#[test]
fn command_line_rows_shards_and_merge() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = |name: &str| dir.join(name).to_string_lossy().into_owned();
    let base = [
        "simulate",
        "games/cartagena.rcy",
        "--games",
        "120",
        "--seed",
        "4",
        "--json",
    ];
    let (csv, jsonl, page) = (path("games.csv"), path("games.jsonl"), path("page.html"));
    let args: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--games-out", &csv, "--html", &page])
        .collect();
    let (code, out, err) = cardboard(&args);
    assert_eq!(code, 0, "{err}");
    assert!(err.is_empty(), "progress shown with --json: {err}");
    let whole = SimulateReport::from_json(&out).unwrap();
    let text = std::fs::read_to_string(&csv).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("game,seed,end,decisions,winners,scores,message")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 120);
    let mut wins = vec![0u64; whole.wins.len()];
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row[0], i.to_string());
        assert_eq!(
            row[1],
            cardboard::drivers::game_seed(4, i as u64).to_string()
        );
        if row[2] == "finished" && !row[4].contains(' ') {
            wins[row[4].parse::<usize>().unwrap()] += 1;
        }
    }
    assert_eq!(wins, whole.wins);
    let decisions: u64 = rows.iter().map(|r| r[3].parse::<u64>().unwrap()).sum();
    assert_eq!(decisions as f64 / 120.0, whole.mean_decisions);
    assert!(std::fs::read_to_string(&page)
        .unwrap()
        .starts_with("<!DOCTYPE html>"));
    // JSON lines: one object a game.
    let args: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--games-out", &jsonl])
        .collect();
    assert_eq!(cardboard(&args).0, 0);
    let objects: Vec<serde_json::Value> = std::fs::read_to_string(&jsonl)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 120);
    assert_eq!(objects[7]["seed"], cardboard::drivers::game_seed(4, 7));
    // Shards on the command line, merged.
    let mut files = Vec::new();
    for k in 0..3 {
        let shard = format!("{k}/3");
        let args: Vec<&str> = base.iter().copied().chain(["--shard", &shard]).collect();
        let (code, out, err) = cardboard(&args);
        assert_eq!(code, 0, "{err}");
        let file = path(&format!("shard{k}.json"));
        std::fs::write(&file, out).unwrap();
        files.push(file);
    }
    let mut args = vec!["merge"];
    args.extend(files.iter().map(|f| f.as_str()));
    args.push("--json");
    let (code, out, err) = cardboard(&args);
    assert_eq!(code, 0, "{err}");
    assert_same(
        &SimulateReport::from_json(&out).unwrap(),
        &whole,
        "merge on the command line",
    );
    let (code, _, err) = cardboard(&["merge", &files[0], &files[0]]);
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("shard 0 is in two of the reports"), "{err}");
    let (code, _, err) = cardboard(&[
        "simulate",
        "games/agram.rcy",
        "--games",
        "3",
        "--games-out",
        &path("x.txt"),
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("name a .csv or a .jsonl file"), "{err}");
}

/// `merge` exits as `simulate` does: 1 when some game of the shards
/// failed with a rules error (the report counts and quotes them, nothing
/// is written to standard error), 0 when none did.
#[test]
fn merge_exits_as_simulate_when_games_failed() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("report-errors");
    std::fs::create_dir_all(&dir).unwrap();
    // Option 2 of places.rcy with WHERE=3 overflows when played: some
    // random games take it and fail, some do not.
    let base = [
        "simulate",
        "tests/rules_errors/places.rcy",
        "--set",
        "WHERE=3",
        "--games",
        "12",
        "--json",
    ];
    let (code, out, err) = cardboard(&base);
    assert_eq!((code, err.as_str()), (1, ""), "{out}");
    let whole = SimulateReport::from_json(&out).unwrap();
    assert!(0 < whole.errors && whole.errors < 12, "{out}");
    let mut files = Vec::new();
    for k in 0..2 {
        let shard = format!("{k}/2");
        let args: Vec<&str> = base.iter().copied().chain(["--shard", &shard]).collect();
        let (code, out, err) = cardboard(&args);
        let report = SimulateReport::from_json(&out).unwrap();
        assert_eq!(code, i32::from(report.errors > 0), "{err}");
        let file = dir.join(format!("shard{k}.json"));
        std::fs::write(&file, out).unwrap();
        files.push(file.to_string_lossy().into_owned());
    }
    let (code, out, err) = cardboard(&["merge", &files[0], &files[1], "--json"]);
    assert_eq!((code, err.as_str()), (1, ""), "{out}");
    assert_same(
        &SimulateReport::from_json(&out).unwrap(),
        &whole,
        "merged shards with errors",
    );
    let (code, out, _) = cardboard(&["merge", &files[0], &files[1]]);
    assert_eq!(code, 1);
    assert!(out.contains("first errors"), "{out}");
}
