//! The browser page draws every shipped game and every example, checked
//! structurally (not by pixels) in headless Chromium: at the start, in the
//! middle and at the end of a seeded game of random moves
//! (`tests/common/seeded.rs`), the seat's observation is drawn by the
//! page's own `CardTable.draw` (table.js), and every piece and visible
//! card of it is found in the page: each small integer on a bare board
//! space as a piece (Othello: 4 discs at the start, as many as the board
//! holds at the end), each card of an owner's piles with its face (runs
//! counted), each pile seen as backs as backs, the top card on each space,
//! every storage of an owner and of a space. A screenshot of each is kept
//! in `target/screens/GAME_WHEN.png` for a person to look at.
//!
//! Without Chromium the test says so and passes (`tests/browser/`).

#[allow(dead_code)] // its `click` is for the games played by clicks
mod browser;
mod common;
mod net;

use browser::Browser;
use cardboard::game::GameState;
use cardboard::observation::{Observation, StorageValue};
use cardboard::play::server::ServeConfig;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

/// What the page shows of the table, read from its DOM.
const READ: &str = r#"(() => {
  const t = document.getElementById('table');
  const all = (sel) => [...t.querySelectorAll(sel)];
  return {
    faces: all('.card.face').map((n) => [n.dataset.owner, n.dataset.loc, n.dataset.name, Number(n.dataset.count || 1)]),
    backs: all('.card.back').map((n) => [n.dataset.owner, n.dataset.loc]),
    pieces: all('.space .storage-piece').map((n) => [n.closest('.space').dataset.space, n.dataset.storage]),
    written: all('.space .space-values').map((n) => [n.closest('.space').dataset.space, n.dataset.storages]),
    titles: all('.space title').map((n) => [n.closest('.space').dataset.space, n.textContent]),
    on_spaces: all('.space [data-name]').map((n) => [n.closest('.space').dataset.space, n.dataset.name]),
    chips: all('[data-owner-panel] .storage').map((n) => [n.closest('[data-owner-panel]').dataset.ownerPanel, n.dataset.storage]),
    coords: all('svg.board .coord').length,
  };
})()"#;

/// The spaces of `seen` drawn with a piece: no cards, and a storage whose
/// value has a look in the display section or is an integer from 1 to 8.
fn pieces_expected(seen: &Observation) -> Vec<String> {
    let mut out = Vec::new();
    for board in &seen.boards {
        for space in &board.spaces {
            let c = &space.contents;
            if c.locations.iter().any(|l| l.count > 0) {
                continue;
            }
            let piece = c.storages.iter().any(|s| {
                let value = match &s.value {
                    StorageValue::Int(v) => v.to_string(),
                    StorageValue::Text(v) => v.clone(),
                    StorageValue::Points(_) => return false,
                };
                let look = (seen.display.as_ref())
                    .and_then(|d| d.storages.get(&s.name))
                    .is_some_and(|m| m.contains_key(&value));
                look || matches!(s.value, StorageValue::Int(v) if (1..=8).contains(&v))
            });
            if piece {
                out.push(c.owner.clone());
            }
        }
    }
    out.sort();
    out
}

/// `value[key]` as a list of lists of strings and numbers.
fn rows(value: &Value, key: &str) -> Vec<Vec<Value>> {
    (value[key].as_array().into_iter().flatten())
        .map(|r| r.as_array().cloned().unwrap_or_default())
        .collect()
}

fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// Checks that the page read as `shown` draws everything of `seen`.
fn check(seen: &Observation, shown: &Value, what: &str) {
    // Pieces on bare spaces.
    let mut pieces: Vec<String> = rows(shown, "pieces").iter().map(|r| text(&r[0])).collect();
    pieces.sort();
    pieces.dedup();
    assert_eq!(
        pieces,
        pieces_expected(seen),
        "{what}: the pieces on spaces"
    );
    // Every card of an owner's piles with its face, every hidden pile as
    // backs.
    let mut faces: BTreeMap<(String, String, String), i64> = BTreeMap::new();
    for r in rows(shown, "faces") {
        *faces
            .entry((text(&r[0]), text(&r[1]), text(&r[2])))
            .or_default() += r[3].as_i64().unwrap_or(1);
    }
    let backs: Vec<(String, String)> = (rows(shown, "backs").iter())
        .map(|r| (text(&r[0]), text(&r[1])))
        .collect();
    let mut cards: BTreeMap<(String, String, String), i64> = BTreeMap::new();
    for owner in &seen.owners {
        for l in &owner.locations {
            match &l.cards {
                Some(list) => {
                    for c in list {
                        *cards
                            .entry((owner.owner.clone(), l.name.clone(), c.name.clone()))
                            .or_default() += 1;
                    }
                }
                None => assert!(
                    backs.contains(&(owner.owner.clone(), l.name.clone())),
                    "{what}: {} {} ({} cards face down) drawn without backs",
                    owner.owner,
                    l.name,
                    l.count
                ),
            }
        }
    }
    assert_eq!(faces, cards, "{what}: the cards drawn with their faces");
    // The top card of each pile on a space, and every storage of a space
    // (in its title at least, as a piece or in words).
    let on_spaces: Vec<(String, String)> = (rows(shown, "on_spaces").iter())
        .map(|r| (text(&r[0]), text(&r[1])))
        .collect();
    let titles: BTreeMap<String, String> = (rows(shown, "titles").iter())
        .map(|r| (text(&r[0]), text(&r[1])))
        .collect();
    let written: Vec<(String, String)> = (rows(shown, "written").iter())
        .map(|r| (text(&r[0]), text(&r[1])))
        .collect();
    for board in &seen.boards {
        for space in &board.spaces {
            let c = &space.contents;
            for l in &c.locations {
                if let Some(top) = l.cards.as_ref().and_then(|cards| cards.first()) {
                    assert!(
                        on_spaces.contains(&(c.owner.clone(), top.name.clone())),
                        "{what}: {} on {} is not drawn",
                        top.name,
                        c.owner
                    );
                }
            }
            let title = titles.get(&c.owner).map_or("", String::as_str);
            for s in &c.storages {
                if matches!(s.value, StorageValue::Points(_)) {
                    continue;
                }
                assert!(
                    title.contains(&format!("{} = ", s.name)),
                    "{what}: {} of {} is not in its title `{title}`",
                    s.name,
                    c.owner
                );
                let words = written
                    .iter()
                    .any(|(o, names)| *o == c.owner && names.split(' ').any(|n| n == s.name));
                let piece = rows(shown, "pieces")
                    .iter()
                    .any(|r| text(&r[0]) == c.owner && text(&r[1]) == s.name);
                let facing = matches!(&s.value, StorageValue::Text(_));
                assert!(
                    words || piece || facing,
                    "{what}: {} of {} is neither a piece nor written",
                    s.name,
                    c.owner
                );
            }
        }
    }
    // Every storage of an owner as a chip in its panel.
    let chips: Vec<(String, String)> = (rows(shown, "chips").iter())
        .map(|r| (text(&r[0]), text(&r[1])))
        .collect();
    for owner in &seen.owners {
        for s in &owner.storages {
            if !matches!(s.value, StorageValue::Points(_)) {
                assert!(
                    chips.contains(&(owner.owner.clone(), s.name.clone())),
                    "{what}: {} of {} is not drawn",
                    s.name,
                    owner.owner
                );
            }
        }
    }
    // Coordinates round every grid and hex board; a number on each space
    // of a track; a name beside each point of a graph; coordinates in each
    // empty space of a hexagon.
    let expected: u64 = (seen.boards.iter())
        .map(|b| match b.shape.as_str() {
            "track" => u64::from(b.cols),
            "graph" => b.points.len() as u64,
            "hexagon" => {
                let side = b.rows.div_ceil(2);
                let cells = (0..b.rows)
                    .flat_map(|r| (0..b.cols).map(move |c| (r, c)))
                    .filter(|&(r, c)| r + c + 1 >= side && r + c + 3 <= 3 * side)
                    .filter(|&(r, c)| !b.spaces.iter().any(|s| (s.row, s.col) == (r, c)))
                    .count();
                cells as u64
            }
            _ => u64::from(b.rows + b.cols),
        })
        .sum();
    assert_eq!(
        shown["coords"].as_u64(),
        Some(expected),
        "{what}: coordinates"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_and_example_is_drawn_whole_at_its_start_middle_and_end() {
    let Some(mut browser) = Browser::launch("web_drawing").await else {
        return;
    };
    let (ws, server) = net::start(net::shipped("agram.rcy"), ServeConfig::new("agram.rcy")).await;
    let base = ws
        .strip_suffix("ws")
        .expect("a /ws URL")
        .replacen("ws://", "http://", 1);
    let page = browser.open(&base, "drawing").await;
    browser
        .wait_for(&page, "typeof CardTable === 'object'", "the page's script")
        .await;
    // The lobby's refresh (every two seconds) would write the served
    // game's name over the title: stopped.
    browser
        .eval(
            &page,
            "(() => { for (let i = 1; i < 10000; i++) clearInterval(i); return true; })()",
        )
        .await;
    let screens = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screens");
    std::fs::create_dir_all(&screens).expect("target/screens is made");
    let files = common::game_files()
        .into_iter()
        .chain(common::example_files());
    let mut drawn = 0;
    for file in files {
        for at in common::seeded::positions(&file, 1) {
            let what = format!("{} {}", at.game, at.when);
            let seen = at.state.observe(at.seat);
            let json = serde_json::to_string(&seen).expect("an observation is JSON");
            let draw = format!(
                "(() => {{ \
                 for (const id of ['lobby', 'end', 'choose']) document.getElementById(id).hidden = true; \
                 document.getElementById('game').hidden = false; \
                 document.getElementById('title').textContent = {title}; \
                 document.getElementById('turn').textContent = {turn}; \
                 CardTable.draw(document.getElementById('table'), {json}, {{}}); return true; }})()",
                title = serde_json::json!(at.game),
                turn = serde_json::json!(format!("{} · p{} sees", at.when, at.seat)),
            );
            browser.eval(&page, &draw).await;
            let shown = browser.eval(&page, READ).await;
            check(&seen, &shown, &what);
            if at.game == "othello" && at.when == "start" {
                assert_eq!(rows(&shown, "pieces").len(), 4, "Othello's first discs");
            }
            let shot = screens.join(format!("{}_{}.png", at.game, at.when));
            browser.screenshot(&page, &shot).await;
            drawn += 1;
        }
    }
    assert!(drawn >= 3);
    drop(browser);
    server.abort();
    let _ = server.await;
}

/// An observation with what the engine gives when it can: move labels and
/// targets, and a display section (names, looks of values and cards).
const WITH_DISPLAY: &str = r#"{
  "seat": 0, "players": 2, "turn": 0, "decision": 4,
  "status": {"state": "running"},
  "owners": [
    {"owner": "p0", "locations": [{"name": "HAND", "kind": "iloc", "count": 1,
      "cards": [{"name": "ACE-HEARTS", "attrs": {"RANK": "ACE", "SUIT": "HEARTS"}}]}]}
  ],
  "boards": [{"name": "BOARD", "shape": "grid", "rows": 3, "cols": 3, "spaces": [
    {"row": 0, "col": 2, "owner": "BOARD[0,2]", "storages": [{"kind": "sto", "name": "DISC", "value": 2}]},
    {"row": 1, "col": 1, "owner": "BOARD[1,1]", "storages": [{"kind": "sto", "name": "DISC", "value": 1}]}
  ]}],
  "moves": [
    {"id": 0, "text": "BOARD[0,2] DISC = 1; BOARD[1,2] DISC = 1", "label": "DISC at C2",
     "steps": [{"action": "set", "storage": {"owner": "BOARD[0,2]", "kind": "sto", "name": "DISC",
                "space": {"board": "BOARD", "row": 0, "col": 2}}, "value": 1}],
     "target": {"owner": "BOARD[1,2]", "location": "DISC", "kind": "vloc",
                "space": {"board": "BOARD", "row": 1, "col": 2}}},
    {"id": 1, "text": "move ACE-HEARTS p0 HAND -> game PILE", "label": "A♥ -> Pile",
     "target": {"owner": "p0", "location": "HAND", "kind": "iloc"},
     "card": {"name": "ACE-HEARTS", "attrs": {"RANK": "ACE", "SUIT": "HEARTS"}}}
  ],
  "display": {
    "players": ["Black", "White"],
    "places": {"HAND": "Hand"},
    "storages": {"DISC": {"1": {"piece": "disc", "color": "black"}, "2": {"piece": "square", "color": "white", "symbol": "W"}}},
    "attributes": {"SUIT": {"HEARTS": {"symbol": "♥", "color": "red"}}, "RANK": {"ACE": {"label": "A"}}},
    "card": {"corner": "RANK", "center": "SUIT"}
  }
}"#;

/// What the page makes of [`WITH_DISPLAY`], read from its DOM, and where
/// its moves are clicked.
const READ_DISPLAY: &str = r#"(() => {
  const t = document.getElementById('table');
  const piece = (space) => t.querySelector(`[data-space="${space}"] .storage-piece`);
  const face = t.querySelector('.card.face');
  const obs = OBS;
  const ids = (target) => CardTable.movesNaming(obs.moves, target).map((m) => m.id);
  return {
    one: [piece('BOARD[1,1]').tagName, piece('BOARD[1,1]').getAttribute('fill')],
    two: [piece('BOARD[0,2]').tagName, t.querySelector('[data-space="BOARD[0,2]"] .piece-label').textContent],
    centre: face.querySelector('.centre').textContent,
    corner: face.querySelector('.corner').textContent,
    colour: getComputedStyle(face).color,
    owner: t.querySelector('[data-owner-panel="p0"] .owner-name').textContent,
    place: t.querySelector('.location-name').textContent,
    at_c2: ids({ space: 'BOARD[1,2]' }),
    at_c1: ids({ space: 'BOARD[0,2]' }),
    at_card: ids({ card: 'ACE-HEARTS', owner: 'p0', loc: 'HAND' }),
    coords: [...t.querySelectorAll('svg.board .coord')].map((n) => n.textContent).join(' '),
  };
})()"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_display_section_and_move_targets_are_used_when_given() {
    let Some(mut browser) = Browser::launch("web_drawing display").await else {
        return;
    };
    let (ws, server) = net::start(net::shipped("agram.rcy"), ServeConfig::new("agram.rcy")).await;
    let base = ws
        .strip_suffix("ws")
        .expect("a /ws URL")
        .replacen("ws://", "http://", 1);
    let page = browser.open(&base, "display").await;
    browser
        .wait_for(&page, "typeof CardTable === 'object'", "the page's script")
        .await;
    let draw = format!(
        "(() => {{ for (let i = 1; i < 10000; i++) clearInterval(i); \
         for (const id of ['lobby', 'end', 'choose']) document.getElementById(id).hidden = true; \
         document.getElementById('game').hidden = false; \
         document.getElementById('title').textContent = 'a display section'; \
         CardTable.draw(document.getElementById('table'), {WITH_DISPLAY}, {{}}); return true; }})()"
    );
    browser.eval(&page, &draw).await;
    let shown = browser
        .eval(&page, &READ_DISPLAY.replace("OBS", WITH_DISPLAY))
        .await;
    let screens = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/screens");
    std::fs::create_dir_all(&screens).expect("target/screens is made");
    browser
        .screenshot(&page, &screens.join("display-section.png"))
        .await;
    drop(browser);
    server.abort();
    let _ = server.await;
    assert_eq!(
        shown["one"],
        serde_json::json!(["circle", "#222"]),
        "{shown}"
    );
    assert_eq!(shown["two"], serde_json::json!(["rect", "W"]), "{shown}");
    assert_eq!(shown["centre"], "♥", "{shown}");
    assert_eq!(shown["corner"], "A♥", "{shown}");
    assert_eq!(shown["colour"], "rgb(192, 57, 43)", "{shown}");
    assert!(text(&shown["owner"]).starts_with("p0 Black"), "{shown}");
    assert_eq!(shown["place"], "Hand (1)", "{shown}");
    // A move is clicked at its target only, not where its first step acts.
    assert_eq!(shown["at_c2"], serde_json::json!([0]), "{shown}");
    assert_eq!(shown["at_c1"], serde_json::json!([]), "{shown}");
    assert_eq!(shown["at_card"], serde_json::json!([1]), "{shown}");
    assert_eq!(shown["coords"], "A B C 1 2 3", "{shown}");
}
