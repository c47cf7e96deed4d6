//! Version 3 of the protocol over a real WebSocket (docs/protocol.md): a
//! command names its game, and one sent for a game that ended is refused
//! (`wrong_game`) and never played in the next; moves carry their steps
//! on the wire, in the observation and in `last`; `bye` is followed by a
//! close frame with code 1000. Loopback only, bounded in time.

mod net;

use cardboard::play::protocol::{
    ClientMessage, EndKind, ErrorCode, MoveChoice, MoveCommand, ServerMessage,
};
use cardboard::play::server::{SeatSpec, ServeConfig};
use cardboard::search::seats::SeatKind;
use cardboard::step::steps_text;
use net::{play, shipped, start, Client};

/// Two games of two-player Agram against the computer. On game 0's
/// `end`, the client answers game 0 at once (decision 0, move 0: what an
/// old client did, taken as game 1's first move): refused, and game 1
/// goes on from its decision 0 with the client's own command. Every move
/// offered and every move seen played has steps that read as its text.
/// After `bye` the server closes with 1000.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_for_a_game_past_is_refused_and_never_played() {
    let mut config = ServeConfig::new("agram.rcy");
    config.seats = vec![SeatSpec::Remote, SeatSpec::Computer(SeatKind::Random)];
    config.settings = vec![("NUMP".into(), "2".into())];
    config.games = 2;
    config.seed = 5;
    let rules = shipped("agram.rcy");
    let (url, server) = start(rules, config).await;
    let mut client = Client::join(&url, Some(0)).await;
    // Game 0, played to its end, checking the steps on the wire.
    let (mut offered, mut seen_played) = (0, 0);
    loop {
        let message = client.next().await.expect("game 0 plays");
        match message {
            ServerMessage::State {
                game: 0,
                decision,
                observation,
                last,
                ..
            } => {
                if let Some(last) = last {
                    assert_eq!(steps_text(&last.steps), last.text);
                    seen_played += 1;
                }
                if let Some(first) = observation.moves.first() {
                    for m in &observation.moves {
                        assert_eq!(steps_text(&m.steps), m.text);
                        offered += 1;
                    }
                    let command = MoveCommand {
                        game: 0,
                        decision,
                        mv: MoveChoice::Id(first.id),
                    };
                    client.send(&ClientMessage::Command { command }).await;
                }
            }
            ServerMessage::End { game: 0, how, .. } => {
                assert_eq!(how, EndKind::Finished);
                break;
            }
            ServerMessage::Error { message, .. } => panic!("refused in game 0: {message}"),
            _ => {}
        }
    }
    assert!(offered > 0 && seen_played > 0, "{offered} {seen_played}");
    let late = MoveCommand {
        game: 0,
        decision: 0,
        mv: MoveChoice::Id(0),
    };
    client.send(&ClientMessage::Command { command: late }).await;
    let code = client
        .until(|m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            ServerMessage::Accepted { game, decision } => {
                panic!("the late command was played as game {game}'s decision {decision}")
            }
            _ => None,
        })
        .await;
    // Refused as stale while game 1 runs (or, before it starts, as no
    // game at all): nothing changed.
    assert!(
        matches!(code, ErrorCode::WrongGame | ErrorCode::NoGame),
        "{code:?}"
    );
    // Game 1 goes on: the last state received, if it offers this seat
    // moves, is answered by text (the server waits for it), then the
    // rest is played by ids.
    let last_state = client.received.iter().rev().find_map(|m| match m {
        ServerMessage::State {
            game: 1,
            decision,
            observation,
            ..
        } => Some((*decision, observation.moves.first().map(|m| m.text.clone()))),
        _ => None,
    });
    if let Some((decision, Some(text))) = last_state {
        let command = MoveCommand {
            game: 1,
            decision,
            mv: MoveChoice::Text(text),
        };
        client.send(&ClientMessage::Command { command }).await;
        client
            .until(|m| match m {
                ServerMessage::Accepted {
                    game: 1,
                    decision: d,
                } if *d == decision => Some(()),
                ServerMessage::Error { message, .. } => panic!("refused: {message}"),
                _ => None,
            })
            .await;
    }
    let played = play(&mut client, 3, None).await;
    assert!(!played.commands.is_empty());
    assert_eq!(
        client.closed_with().await,
        Some((1000, "the table played its games".into()))
    );
    let reports = server.await.expect("the server ends");
    assert_eq!(reports.len(), 2);
    // Game 1 was played to its end from its decision 0.
    assert_eq!(reports[1].how, EndKind::Finished);
    assert!(reports[1].record.commands.len() > played.commands.len());
}
