//! `cardboard serve` played by scripted clients over real WebSockets on the
//! loopback: every shipped game played to its end through the server and
//! compared with the same seeded game replayed locally from its commands,
//! seat by seat and decision by decision; and nothing a seat is sent holds
//! a card hidden from it (Agram and Cardbot Derby, every message checked).

mod net;

use cardboard::command::{Command, GameRecord};
use cardboard::drivers::game_seed;
use cardboard::engine::{Rules, State};
use cardboard::game::GameState;
use cardboard::observation::Observation;
use cardboard::play::protocol::{EndKind, ServerMessage};
use cardboard::play::server::ServeConfig;
use net::{play, shipped, start, Client};
use std::collections::HashMap;

/// Plays game `name` through a server with every seat a scripted client;
/// returns the rules, the record and what each seat received.
async fn served_game(name: &str, seed: u64) -> (Rules, GameRecord, Vec<net::Played>) {
    let rules = shipped(name);
    let players = rules
        .start(&cardboard::engine::GameOptions {
            seed: game_seed(seed, 0),
            overrides: vec![],
        })
        .expect("starts")
        .num_players();
    let mut config = ServeConfig::new(name);
    config.seed = seed;
    let (url, server) = start(rules.clone(), config).await;
    let mut seats = Vec::new();
    for seat in 0..players {
        let mut client = Client::join(&url, Some(seat)).await;
        seats.push(tokio::spawn(async move {
            play(&mut client, 100 + seat as u64, None).await
        }));
    }
    let mut played = Vec::new();
    for seat in seats {
        played.push(seat.await.expect("the client plays"));
    }
    let reports = server.await.expect("the server ends");
    assert_eq!(reports.len(), 1);
    let report = &reports[0];
    assert_eq!(
        report.how,
        EndKind::Finished,
        "{name}: {:?}",
        report.message
    );
    // The commands the clients saw accepted, in order of decision, are
    // the server's record.
    let mut sent: Vec<Command> = played.iter().flat_map(|p| p.commands.clone()).collect();
    sent.sort_by_key(|c| c.decision);
    assert_eq!(sent, report.record.commands, "{name}");
    assert_eq!(report.record.seed, game_seed(seed, 0));
    // Replayed locally, the game ends alike.
    let local = report.record.replay(&rules).expect("the record replays");
    assert_eq!(local.state().describe(), report.table_text, "{name}");
    // And replayed as a person would, with `cardboard play --moves` on
    // the record as `serve --record` writes it.
    let replayed = replay_with_play(name, &report.record.to_text(), players);
    assert_eq!(replayed.describe(), report.table_text, "{name}");
    let outcome = local.state().outcome().expect("finished");
    for p in &played {
        let end = p.received.iter().find_map(|m| match m {
            ServerMessage::End {
                scores, winners, ..
            } => Some((scores.clone(), winners.clone())),
            _ => None,
        });
        assert_eq!(
            end,
            Some((Some(outcome.scores.clone()), Some(outcome.winners.clone())))
        );
    }
    (rules, report.record.clone(), played)
}

/// Runs `cardboard play games/NAME --moves RECORD --save POS` with
/// computer seats (which the game, at its end, never asks) and returns
/// the position it saved.
fn replay_with_play(name: &str, record: &str, players: usize) -> State {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve");
    std::fs::create_dir_all(&dir).expect("a folder");
    let moves = dir.join(format!("{name}.record"));
    let pos = dir.join(format!("{name}.pos"));
    std::fs::write(&moves, record).expect("writes");
    let seats = vec!["random"; players].join(",");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cardboard"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "play",
            &format!("games/{name}"),
            "--seats",
            &seats,
            "--moves",
        ])
        .arg(&moves)
        .arg("--save")
        .arg(&pos)
        .output()
        .expect("cardboard runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{name}: {text}");
    assert!(text.contains("replayed "), "{name}: {text}");
    let saved = std::fs::read_to_string(&pos).expect("the position is saved");
    shipped(name)
        .load_position(&saved)
        .expect("the position loads")
}

/// Each seat's `state` messages by decision.
fn states(received: &[ServerMessage]) -> HashMap<u64, &ServerMessage> {
    received
        .iter()
        .filter_map(|m| match m {
            ServerMessage::State { decision, .. } => Some((*decision, m)),
            _ => None,
        })
        .collect()
}

/// Replays `record` and checks, at every decision, what each seat was
/// sent: its own observation, its legal moves when it was to play (and
/// only then), and with `leaks`, no card hidden from it.
fn check_every_decision(rules: &Rules, record: &GameRecord, played: &[net::Played], leaks: bool) {
    let by_seat: Vec<HashMap<u64, &ServerMessage>> =
        played.iter().map(|p| states(&p.received)).collect();
    let mut game = cardboard::command::CommandedGame::new(
        rules
            .start(&cardboard::engine::GameOptions {
                seed: record.seed,
                overrides: record.settings.clone(),
            })
            .expect("starts"),
    );
    let mut before: Option<State> = None;
    for step in 0..=record.commands.len() {
        let decision = game.decision();
        let state = game.state();
        for (seat, states) in by_seat.iter().enumerate() {
            let Some(ServerMessage::State {
                to_move,
                observation,
                last,
                ..
            }) = states.get(&decision)
            else {
                panic!("seat {seat} was sent no state for decision {decision}");
            };
            assert_eq!(*to_move, state.current_player());
            // One number for one decision: the state message's, the
            // observation's and the command's that answers it.
            assert_eq!(observation.decision, decision, "seat {seat}");
            if let Some(command) = record.commands.get(step) {
                assert_eq!(command.decision, decision, "seat {seat}");
            }
            assert_eq!(
                **observation,
                state.observe(seat),
                "seat {seat}, decision {decision}"
            );
            let mine = state.current_player() == Some(seat);
            assert_eq!(
                !observation.moves.is_empty(),
                mine,
                "seat {seat}, decision {decision}"
            );
            if mine {
                let texts: Vec<String> = observation.moves.iter().map(|m| m.text.clone()).collect();
                assert_eq!(texts, game.move_texts());
            }
            if leaks {
                let table = state.describe();
                let visible = visible_cards(&table, seat);
                let all = all_cards(&table);
                let json = serde_json::to_string(observation).expect("writes");
                assert_within(&shown_cards(observation), &visible, seat, decision, &json);
                for m in &observation.moves {
                    assert_within(&named_in(&m.text, &all), &visible, seat, decision, &m.text);
                }
                if let (Some(last), Some(before)) = (last, &before) {
                    // What another seat played, against what this seat
                    // could see before the move or after it.
                    let mut seen = visible_cards(&before.describe(), seat);
                    for (name, n) in visible {
                        let e = seen.entry(name).or_insert(0);
                        *e = (*e).max(n);
                    }
                    let named = named_in(&last.text, &all_cards(&before.describe()));
                    assert_within(&named, &seen, seat, decision, &last.text);
                }
            }
        }
        if let Some(command) = record.commands.get(step) {
            before = Some(game.state().clone());
            game.play(None, command).expect("replays");
        }
    }
}

/// How many cards of each name lie in the locations seat `seat` may see
/// (by the language's rule: `vloc` anywhere, `iloc` its own, never `hloc`),
/// read from the whole table as `describe` writes it.
fn visible_cards(table: &str, seat: usize) -> HashMap<String, usize> {
    cards(table, |owner, kind| {
        kind == "vloc" || (kind == "iloc" && owner == format!("p{seat}"))
    })
}

/// How many cards of each name lie anywhere.
fn all_cards(table: &str) -> HashMap<String, usize> {
    cards(table, |_, _| true)
}

fn cards(table: &str, shown: impl Fn(&str, &str) -> bool) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    let mut owner = String::new();
    for line in table.lines() {
        if !line.starts_with(' ') {
            owner = line.trim_end_matches(':').to_string();
            continue;
        }
        let line = line.trim();
        let Some((head, list)) = line.split_once("): ") else {
            continue;
        };
        let kind = head.split(' ').next().unwrap_or("");
        if !shown(&owner, kind) {
            for name in list.split_whitespace() {
                counts.entry(name.to_string()).or_insert(0);
            }
            continue;
        }
        for name in list.split_whitespace() {
            *counts.entry(name.to_string()).or_insert(0) += 1;
        }
    }
    counts
}

/// How many cards of each name an observation shows face up.
fn shown_cards(observation: &Observation) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    let spaces = observation.boards.iter().flat_map(|b| &b.spaces);
    for owner in observation.owners.iter().chain(spaces.map(|s| &s.contents)) {
        for location in &owner.locations {
            for card in location.cards.iter().flatten() {
                *counts.entry(card.name.clone()).or_insert(0) += 1;
            }
        }
    }
    counts
}

/// How often each card name of `all` is named in `text`.
fn named_in(text: &str, all: &HashMap<String, usize>) -> HashMap<String, usize> {
    let mut named = HashMap::new();
    for token in text.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_')) {
        if all.contains_key(token) {
            *named.entry(token.to_string()).or_insert(0) += 1;
        }
    }
    named
}

/// What was sent to `seat` names no card more often than the cards of
/// that name it may see.
fn assert_within(
    named: &HashMap<String, usize>,
    visible: &HashMap<String, usize>,
    seat: usize,
    decision: u64,
    text: &str,
) {
    for (name, n) in named {
        let seen = visible.get(name).copied().unwrap_or(0);
        assert!(
            *n <= seen,
            "seat {seat}, decision {decision}: `{name}` named {n} times, {seen} visible:\n{text}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn agram_through_the_server_equals_its_local_replay_and_leaks_nothing() {
    let (rules, record, played) = served_game("agram.rcy", 7).await;
    check_every_decision(&rules, &record, &played, true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cardbot_derby_through_the_server_equals_its_local_replay_and_leaks_nothing() {
    let (rules, record, played) = served_game("cardbot-derby.rcy", 3).await;
    check_every_decision(&rules, &record, &played, true);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cartagena_through_the_server_equals_its_local_replay() {
    let (rules, record, played) = served_game("cartagena.rcy", 5).await;
    check_every_decision(&rules, &record, &played, false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn carteso_through_the_server_equals_its_local_replay() {
    let (rules, record, played) = served_game("carteso.rcy", 2).await;
    check_every_decision(&rules, &record, &played, false);
}

#[test]
#[should_panic(expected = "visible")]
fn the_leak_check_catches_the_whole_table_sent_to_a_seat() {
    let rules = shipped("agram.rcy");
    let state = rules
        .start(&cardboard::engine::GameOptions {
            seed: 1,
            overrides: vec![],
        })
        .expect("starts");
    let table = state.describe();
    let all = all_cards(&table);
    let mut shown = cards(&table, |_, _| true);
    shown.retain(|name, _| all.contains_key(name));
    assert_within(&shown, &visible_cards(&table, 0), 0, 1, &table);
}
