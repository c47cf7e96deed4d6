//! The browser page of `cardboard serve`, in a real browser: headless
//! Chromium driven over the Chrome DevTools Protocol (a WebSocket, with the
//! tokio-tungstenite the server's tests use already). Each seat is a page
//! in a browser context of its own (its own storage, as two people's
//! browsers); every move is a mouse click on a card, a space or a move
//! button. Two browser seats play Carteso 5x5 against each other, and
//! Agram against each other and the computer, to the end the page shows;
//! mid-game screenshots are saved in `target/tmp/` for a person to look at;
//! at every decision of the Agram game, each page's DOM is read and holds
//! no card hidden from its seat.
//!
//! The tests need Chromium (`CARDBOARD_CHROMIUM`, else `chromium`,
//! `chromium-browser`, `google-chrome` on the PATH; `.ci/run` installs
//! Debian's `chromium`): without one they say so and pass.

mod browser;
mod net;

use browser::{Browser, Page, WAIT};
use cardboard::command::GameRecord;
use cardboard::engine::Rules;
use cardboard::game::GameState;
use cardboard::play::protocol::EndKind;
use cardboard::play::server::lobby::Lobby;
use cardboard::play::server::{GameReport, SeatSpec, ServeConfig};
use cardboard::random::{below, GameRng};
use cardboard::search::seats::SeatKind;
use serde_json::json;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

/// The longest a whole game may take.
const GAME_TIME: Duration = Duration::from_secs(240);

/// What the test reads of a page at each look (from its DOM only).
const LOOK: &str = r#"(() => {
  const shown = (id) => !document.getElementById(id).hidden;
  const buttons = [...document.querySelectorAll('#moves button.move')];
  return {
    lobby: shown('lobby'), game: shown('game'), end: shown('end'),
    decision: 'decision' in document.getElementById('game').dataset
      ? Number(document.getElementById('game').dataset.decision) : -1,
    yours: document.getElementById('turn').classList.contains('yours'),
    moves: buttons.length, ready: buttons.length > 0 && buttons.every((b) => !b.disabled),
    narrowed: !!document.querySelector('#moves-head .all-moves'),
    choosable: document.querySelectorAll('#table .choosable').length,
    winners: document.getElementById('winners').textContent,
    message: document.getElementById('message').hidden ? '' : document.getElementById('message').textContent,
    again: !document.getElementById('again').disabled,
  };
})()"#;

/// A seat played in a browser page.
struct BrowserSeat {
    page: Page,
    seat: usize,
    /// The decisions at which its DOM was read, and the DOM.
    doms: Vec<(u64, String)>,
}

/// Opens the lobby at a seat's shared link, types a name and clicks "Join".
async fn join_seat(browser: &mut Browser, base: &str, seat: usize, name: &str) -> BrowserSeat {
    let page = browser.open(&format!("{base}?seat={seat}"), name).await;
    browser
        .wait_for(
            &page,
            "!!document.querySelector('.seat-row.wanted button.join')",
            "the lobby with the shared seat",
        )
        .await;
    browser.click(&page, "#name", 0).await;
    browser
        .call(Some(&page), "Input.insertText", json!({"text": name}))
        .await;
    browser
        .click(&page, ".seat-row.wanted button.join", 0)
        .await;
    browser
        .wait_for(
            &page,
            "!document.getElementById('game').hidden",
            "the game after joining",
        )
        .await;
    BrowserSeat {
        page,
        seat,
        doms: Vec::new(),
    }
}

/// Takes the DOMs the page kept since the last look.
async fn take_doms(browser: &mut Browser, seat: &mut BrowserSeat) {
    let doms = browser
        .eval(
            &seat.page,
            "(() => { const d = window.cardboardDoms || []; window.cardboardDoms = []; return d; })()",
        )
        .await;
    for d in doms.as_array().into_iter().flatten() {
        let decision = d[0].as_u64().unwrap_or(0);
        seat.doms
            .push((decision, d[1].as_str().unwrap_or("").to_string()));
    }
}

/// How a game in the browser is to be played.
struct Plan {
    /// Save a screenshot of the first seat's page at this decision.
    screenshot_at: i64,
    screenshot: PathBuf,
    /// Read every page's DOM at each of its decisions.
    keep_doms: bool,
    /// Reload the second seat's page once, at this decision.
    reload_at: Option<i64>,
}

/// Plays the pages' seats by clicks until every page shows the end: on
/// its turn, a page clicks a highlighted card or space (or, one time in
/// four, a move button); when the list narrows to several moves, it
/// clicks one of them.
async fn play_to_the_end(browser: &mut Browser, seats: &mut [BrowserSeat], seed: u64, plan: &Plan) {
    let mut rng = GameRng::new(seed);
    let start = Instant::now();
    let mut shot = false;
    let mut reloaded = false;
    loop {
        assert!(start.elapsed() < GAME_TIME, "the game did not end in time");
        let mut ended = 0;
        for (i, seat) in seats.iter_mut().enumerate() {
            let look = browser.eval(&seat.page, LOOK).await;
            if look["decision"].as_i64().unwrap_or(-1) >= 0 {
                let lobby = &look["lobby"];
                assert_eq!(
                    lobby,
                    &json!(false),
                    "{}: back in the lobby",
                    seat.page.name
                );
            }
            assert_eq!(
                look["message"],
                json!(""),
                "{}: {}",
                seat.page.name,
                look["message"]
            );
            if look["end"] == json!(true) && !look["winners"].as_str().unwrap_or("").is_empty() {
                if plan.keep_doms {
                    take_doms(browser, seat).await;
                }
                ended += 1;
                continue;
            }
            let decision = look["decision"].as_i64().unwrap_or(-1);
            if plan.keep_doms {
                take_doms(browser, seat).await;
            }
            if i == 0 && !shot && decision >= plan.screenshot_at {
                shot = true;
                browser.screenshot(&seat.page, &plan.screenshot).await;
            }
            if i == 1 && !reloaded && plan.reload_at.is_some_and(|d| decision >= d) {
                reloaded = true;
                browser
                    .call(Some(&seat.page), "Page.reload", json!({}))
                    .await;
                // The page takes its seat back with its token, at the same
                // decision.
                browser
                    .wait_for(
                        &seat.page,
                        &format!(
                            "!document.getElementById('game').hidden && \
                             Number(document.getElementById('game').dataset.decision) >= {decision}"
                        ),
                        "the seat taken back after a reload",
                    )
                    .await;
                continue;
            }
            if look["yours"] != json!(true) || look["ready"] != json!(true) {
                continue;
            }
            let moves = look["moves"].as_u64().unwrap_or(0) as usize;
            let choosable = look["choosable"].as_u64().unwrap_or(0) as usize;
            if look["narrowed"] == json!(true) || choosable == 0 || below(&mut rng, 4) == 0 {
                let pick = below(&mut rng, moves);
                // A long list is folded away when the table can be
                // clicked: unfolded first.
                browser
                    .eval(
                        &seat.page,
                        "(() => { for (const d of document.querySelectorAll('details.moves-fold')) d.open = true; return true; })()",
                    )
                    .await;
                browser.click(&seat.page, "#moves button.move", pick).await;
            } else {
                let pick = below(&mut rng, choosable);
                browser.click(&seat.page, "#table .choosable", pick).await;
            }
            // The click either sent a move (the buttons are disabled until
            // the next state) or narrowed the list.
            browser
                .wait_for(
                    &seat.page,
                    &format!(
                        "Number(document.getElementById('game').dataset.decision) > {decision} || \
                         !!document.querySelector('#moves-head .all-moves') || \
                         [...document.querySelectorAll('#moves button.move')].some((b) => b.disabled) || \
                         !document.getElementById('end').hidden"
                    ),
                    "an answer to the click",
                )
                .await;
        }
        if ended == seats.len() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The seats a page's winners line names (`Winner: p0 · you (ann)`).
fn seats_named(text: &str) -> Vec<usize> {
    let words: Vec<&str> = text.split_whitespace().collect();
    words
        .windows(2)
        .filter(|w| w[1] == "·")
        .filter_map(|w| w[0].strip_prefix('p')?.parse().ok())
        .collect()
}

/// A server for `rules` on a free loopback port, its page's URL, and the
/// task that returns its reports.
async fn serve(
    rules: Rules,
    config: ServeConfig,
) -> (String, tokio::task::JoinHandle<Vec<GameReport>>) {
    let (ws, server) = net::start(rules, config).await;
    let base = ws
        .strip_suffix("ws")
        .expect("a /ws URL")
        .replacen("ws://", "http://", 1);
    (base, server)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_play_carteso_to_the_end_and_again() {
    let Some(mut browser) = Browser::launch("carteso").await else {
        return;
    };
    let mut config = ServeConfig::new("carteso.rcy");
    config.settings = vec![("SIZE".to_string(), "5".to_string())];
    config.games = 2;
    config.seed = 5;
    let (base, server) = serve(net::shipped("carteso.rcy"), config).await;
    // The page is served, with its script and style.
    let mut seats = vec![
        join_seat(&mut browser, &base, 0, "ann").await,
        join_seat(&mut browser, &base, 1, "bob").await,
    ];
    let plan = Plan {
        screenshot_at: 12,
        screenshot: Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-carteso-midgame.png"),
        keep_doms: false,
        reload_at: None,
    };
    play_to_the_end(&mut browser, &mut seats, 11, &plan).await;
    // Both pages show the end with the server's winners, and "play again"
    // starts the next game of the table.
    let mut shown = Vec::new();
    for seat in &seats {
        let look = browser.eval(&seat.page, LOOK).await;
        assert_eq!(look["again"], json!(true), "{}", seat.page.name);
        shown.push(look["winners"].as_str().unwrap_or("").to_string());
    }
    let end = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-carteso-end.png");
    browser.screenshot(&seats[0].page, &end).await;
    for seat in &seats {
        browser.click(&seat.page, "#again", 0).await;
    }
    for seat in &seats {
        browser
            .wait_for(
                &seat.page,
                "document.getElementById('end').hidden && \
                 document.getElementById('game').dataset.decision === '0'",
                "the next game after \"play again\"",
            )
            .await;
    }
    drop(browser);
    server.abort();
    let _ = server.await;
    // The first game's result is the server's (its log is in the pages).
    // Both pages name the same winners.
    assert!(
        shown[0].starts_with("Winner"),
        "the page shows `{}`",
        shown[0]
    );
    assert!(!seats_named(&shown[0]).is_empty(), "{}", shown[0]);
    assert_eq!(seats_named(&shown[0]), seats_named(&shown[1]));
}

/// The names of the cards `seat` may not see at `state`: the cards of
/// other seats' locations that `seat`'s observation shows only as a count.
fn hidden_from<S: GameState>(state: &S, seat: usize) -> (BTreeSet<String>, BTreeSet<String>) {
    let mine = state.observe(seat);
    let mut seen = BTreeSet::new();
    for o in mine.owners.iter() {
        for l in &o.locations {
            for c in l.cards.iter().flatten() {
                seen.insert(c.name.clone());
            }
        }
    }
    let mut hidden = BTreeSet::new();
    for other in (0..mine.players).filter(|&p| p != seat) {
        let theirs = state.observe(other);
        for o in &theirs.owners {
            for l in &o.locations {
                let blind = mine
                    .owner(&o.owner)
                    .and_then(|m| m.locations.iter().find(|x| x.name == l.name))
                    .is_none_or(|x| x.cards.is_none());
                if blind {
                    for c in l.cards.iter().flatten() {
                        hidden.insert(c.name.clone());
                    }
                }
            }
        }
    }
    (hidden, seen)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_browsers_and_the_computer_play_agram_and_see_no_hidden_card() {
    let Some(mut browser) = Browser::launch("agram").await else {
        return;
    };
    let rules = net::shipped("agram.rcy");
    let mut config = ServeConfig::new("agram.rcy");
    config.seed = 3;
    config.seats = vec![
        SeatSpec::Remote,
        SeatSpec::Computer(SeatKind::Mcts(30)),
        SeatSpec::Remote,
        SeatSpec::Computer(SeatKind::Random),
    ];
    let (base, server) = serve(rules.clone(), config).await;
    let mut seats = vec![
        join_seat(&mut browser, &base, 0, "ann").await,
        join_seat(&mut browser, &base, 2, "cy").await,
    ];
    // A click on what names no move (another seat's hidden hand) does
    // nothing: no move sent, no error.
    let first = &seats[0].page;
    browser
        .wait_for(
            first,
            "document.getElementById('turn').classList.contains('yours')",
            "seat 0's turn",
        )
        .await;
    let before = browser.eval(first, LOOK).await;
    browser.click(first, ".card.back[data-owner='p1']", 0).await;
    let after = browser.eval(first, LOOK).await;
    assert_eq!(
        after, before,
        "a click on another seat's hand changed the page"
    );
    assert_eq!(
        (after["ready"].clone(), after["message"].clone()),
        (json!(true), json!(""))
    );
    // A server error is shown as a message: a third person's browser holds
    // a token this server never gave (from an earlier server, say) and
    // asks for its seat back.
    let stranger = browser.open(&base, "stranger").await;
    browser
        .wait_for(
            &stranger,
            "!!document.querySelector('.seat-row')",
            "the lobby",
        )
        .await;
    let kept = json!([{"token": "00000000000000000000000000000000", "table": 0, "seat": 0, "name": "old"}]);
    browser
        .eval(
            &stranger,
            &format!(
                "localStorage.setItem(`cardboard:${{location.host}}:seats`, {}); true",
                json!(kept.to_string())
            ),
        )
        .await;
    browser
        .wait_for(
            &stranger,
            "!!document.querySelector('button.rejoin')",
            "the offer to take the seat back",
        )
        .await;
    browser.click(&stranger, "button.rejoin", 0).await;
    browser
        .wait_for(
            &stranger,
            "!document.getElementById('message').hidden && document.getElementById('message').textContent.includes('token')",
            "the server's refusal shown",
        )
        .await;
    let plan = Plan {
        screenshot_at: 9,
        screenshot: Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-agram-midgame.png"),
        keep_doms: true,
        reload_at: Some(7),
    };
    play_to_the_end(&mut browser, &mut seats, 23, &plan).await;
    let winners: Vec<String> = {
        let mut w = Vec::new();
        for seat in &seats {
            let look = browser.eval(&seat.page, LOOK).await;
            w.push(look["winners"].as_str().unwrap_or("").to_string());
        }
        w
    };
    drop(browser);
    let reports = tokio::time::timeout(WAIT, server)
        .await
        .expect("the server ends")
        .expect("the server's task");
    let report = &reports[0];
    assert_eq!(report.how, EndKind::Finished, "{:?}", report.message);
    let outcome = report.outcome.as_ref().expect("finished");
    for w in &winners {
        assert_eq!(seats_named(w), outcome.winners, "the page shows `{w}`");
    }
    // Every DOM read: none of the cards hidden from the seat, and all of
    // the seat's own hand (the check can see a card when it is there).
    let (mut checked, mut hidden_checked) = (0, 0);
    let decisions = report.record.commands.len() as u64;
    for seat in &seats {
        // Every state the page drew, from the first decision to the last.
        let drawn: BTreeSet<u64> = seat.doms.iter().map(|(d, _)| *d).collect();
        let every: BTreeSet<u64> = (0..decisions).collect();
        assert!(
            drawn.is_superset(&every),
            "{}: drew the decisions {drawn:?}",
            seat.page.name
        );
        for (decision, dom) in &seat.doms {
            let decision = &(*decision).min(decisions);
            let record = GameRecord {
                commands: report.record.commands[..*decision as usize].to_vec(),
                ..report.record.clone()
            };
            let game = record.replay(&rules).expect("the record replays");
            let (hidden, seen) = hidden_from(game.state(), seat.seat);
            hidden_checked += hidden.len();
            for card in &hidden {
                assert!(
                    !dom.contains(card.as_str()),
                    "{} at decision {decision} shows {card}, hidden from it",
                    seat.page.name
                );
            }
            for card in &seen {
                assert!(
                    dom.contains(card.as_str()),
                    "{} at decision {decision} does not show {card}",
                    seat.page.name
                );
            }
            checked += 1;
        }
    }
    // Other seats' hands hold cards most of the game.
    assert!(
        hidden_checked >= checked,
        "{hidden_checked} hidden cards in {checked} DOMs"
    );
    println!("{checked} DOMs read, none holds any of {hidden_checked} cards hidden from its seat");
}

/// `GET path` on the loopback server at `base` (`http://127.0.0.1:P/`):
/// the status line, the headers and the body.
async fn http_get(base: &str, path: &str) -> (String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = base
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let mut stream = TcpStream::connect(&host).await.expect("connects");
    let request = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).await.expect("sends");
    let mut reply = String::new();
    tokio::time::timeout(WAIT, stream.read_to_string(&mut reply))
        .await
        .expect("answers in time")
        .expect("reads");
    let (head, body) = reply.split_once("\r\n\r\n").expect("a head and a body");
    (head.to_string(), body.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_the_lobby_are_served() {
    let mut config = ServeConfig::new("agram.rcy");
    config.seats = vec![SeatSpec::Remote, SeatSpec::Computer(SeatKind::Mcts(30))];
    config.settings = vec![("NUMP".to_string(), "3".to_string())];
    let (base, server) = serve(net::shipped("agram.rcy"), config).await;
    // The page and its files, embedded in the binary.
    let (head, page) = http_get(&base, "/").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_lowercase().contains("content-type: text/html"),
        "{head}"
    );
    assert!(page.contains("<script src=\"app.js\">"), "{page}");
    for (path, kind, text) in [
        ("/app.js", "text/javascript", "new WebSocket"),
        ("/table.js", "text/javascript", "const CardTable"),
        ("/style.css", "text/css", ".card"),
    ] {
        let (head, body) = http_get(&base, path).await;
        assert!(head.starts_with("HTTP/1.1 200"), "{path}: {head}");
        assert!(
            head.to_lowercase()
                .contains(&format!("content-type: {kind}")),
            "{path}: {head}"
        );
        assert!(body.contains(text), "{path}");
    }
    // The lobby: the seats as they are, before and after a join.
    let lobby = |body: &str| -> Lobby { serde_json::from_str(body).expect("the lobby reads") };
    let before = lobby(&http_get(&base, "/lobby").await.1);
    assert_eq!(
        (before.rules.as_str(), before.players, before.games),
        ("agram.rcy", 3, 1)
    );
    assert_eq!(before.settings, vec![("NUMP".to_string(), "3".to_string())]);
    // Every setting of the file with its value in play, --set applied.
    let pair = |k: &str, v: &str| (k.to_string(), v.to_string());
    assert_eq!(
        before.values,
        vec![pair("NUMP", "3"), pair("HANDSIZE", "6")]
    );
    let holders =
        |l: &Lobby| -> Vec<String> { l.tables[0].seats.iter().map(|s| s.holder.clone()).collect() };
    assert_eq!(holders(&before), ["free", "computer", "free"]);
    assert_eq!(before.tables[0].seats[1].kind, "mcts:30");
    let ws = format!("{}ws", base.replacen("http://", "ws://", 1));
    let client = net::Client::join(&ws, Some(2)).await;
    let after = lobby(&http_get(&base, "/lobby").await.1);
    assert_eq!(holders(&after), ["free", "computer", "taken"]);
    let seat = &after.tables[0].seats[2];
    assert_eq!((seat.name.as_deref(), seat.connected), (Some("bot2"), true));
    assert!(!after.tables[0].playing);
    // No token is ever in the lobby.
    let token = client.token.clone().expect("a token");
    assert!(!http_get(&base, "/lobby").await.1.contains(&token));
    client.close().await;
    server.abort();
}

/// A browser that is installed but cannot start (here `false`, which
/// ends at once, as Chromium does under a memory limit) makes the browser
/// tests skip, saying why and how to skip, rather than panic after the
/// wait for its DevTools port.
#[tokio::test]
async fn a_browser_that_cannot_start_is_a_skip_not_a_panic() {
    let started = Instant::now();
    let browser = Browser::launch_with(Path::new("/bin/false"), "cannot-start").await;
    assert!(browser.is_none());
    assert!(started.elapsed() < WAIT, "{:?}", started.elapsed());
}
