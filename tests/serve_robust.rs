//! The server facing clients that make mistakes, drop and come back, or
//! never come back: each mistaken message gets its error and changes
//! nothing, a dropped seat is taken back with its token, the computer
//! plays for a seat away past the limit; and many games at once (the load
//! test). Loopback only, every wait bounded.

mod net;

use cardboard::command::{Command, CommandedGame};
use cardboard::play::protocol::{
    ClientMessage, EndKind, ErrorCode, MoveChoice, MoveCommand, ServerMessage, VERSION,
};
use cardboard::play::server::{SeatSpec, ServeConfig};
use cardboard::player::Player;
use cardboard::search::seats::{SeatKind, Seats};
use net::{play, shipped, start, Client};
use std::time::{Duration, Instant};

/// The next `state` message offering moves: its decision and first move.
async fn my_turn(client: &mut Client) -> (u64, Vec<String>) {
    client
        .until(|m| match m {
            ServerMessage::State {
                decision,
                observation,
                ..
            } if !observation.moves.is_empty() => Some((
                *decision,
                observation.moves.iter().map(|m| m.text.clone()).collect(),
            )),
            _ => None,
        })
        .await
}

/// A command of game 0 naming its move by text.
fn command(decision: u64, mv: &str) -> String {
    command_of(0, decision, MoveChoice::Text(mv.to_string()))
}

fn command_of(game: u64, decision: u64, mv: MoveChoice) -> String {
    ClientMessage::Command {
        command: MoveCommand { game, decision, mv },
    }
    .to_text()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_mistake_gets_its_error_and_the_game_goes_on() {
    let mut config = ServeConfig::new("agram.rcy");
    config.seats = vec![
        SeatSpec::Remote,
        SeatSpec::Remote,
        SeatSpec::Computer(SeatKind::Random),
    ];
    config.seed = 11;
    config.settings = vec![("NUMP".into(), "3".into())];
    let rules = shipped("agram.rcy");
    let (url, server) = start(rules.clone(), config).await;

    // Before joining: mistakes of form, and a command without a seat.
    let mut first = Client::connect(&url).await;
    assert_eq!(first.refused("{".into()).await, ErrorCode::Malformed);
    assert_eq!(first.refused("[1, 2]".into()).await, ErrorCode::Malformed);
    assert_eq!(
        first.refused(r#"{"type":"join"}"#.into()).await,
        ErrorCode::Malformed
    );
    // (A message over MAX_MESSAGE closes the connection: tests/serve_limits.rs.)
    assert_eq!(
        first.refused(r#"{"type":"teleport"}"#.into()).await,
        ErrorCode::UnknownType
    );
    assert_eq!(first.refused(command(1, "x")).await, ErrorCode::NotJoined);
    let old = ClientMessage::Join {
        version: VERSION + 1,
        name: None,
        seat: None,
        table: None,
    };
    assert_eq!(first.refused(old.to_text()).await, ErrorCode::Version);
    let bad = ClientMessage::Rejoin {
        version: VERSION,
        token: "0123".into(),
    };
    assert_eq!(first.refused(bad.to_text()).await, ErrorCode::BadToken);
    let computer = ClientMessage::Join {
        version: VERSION,
        name: None,
        seat: Some(2),
        table: None,
    };
    assert_eq!(first.refused(computer.to_text()).await, ErrorCode::NoSeat);
    let nowhere = ClientMessage::Join {
        version: VERSION,
        name: None,
        seat: Some(9),
        table: None,
    };
    assert_eq!(first.refused(nowhere.to_text()).await, ErrorCode::NoSeat);
    // A binary message.
    first
        .send_raw(tokio_tungstenite::tungstenite::Message::Binary(
            vec![1, 2, 3].into(),
        ))
        .await;
    assert_eq!(
        first
            .until(|m| match m {
                ServerMessage::Error { code, .. } => Some(*code),
                _ => None,
            })
            .await,
        ErrorCode::Malformed
    );

    // Seat 0 taken; a second join to it is refused; a second join on the
    // same connection too.
    let join0 = ClientMessage::Join {
        version: VERSION,
        name: Some("ann".into()),
        seat: Some(0),
        table: None,
    };
    first.send(&join0).await;
    first
        .until(|m| matches!(m, ServerMessage::Welcome { .. }).then_some(()))
        .await;
    assert_eq!(
        first.refused(join0.to_text()).await,
        ErrorCode::AlreadyJoined
    );
    let mut intruder = Client::connect(&url).await;
    assert_eq!(
        intruder.refused(join0.to_text()).await,
        ErrorCode::SeatTaken
    );
    // No game before every remote seat is held.
    assert_eq!(first.refused(command(1, "x")).await, ErrorCode::NoGame);
    let mut second = Client::join(&url, Some(1)).await;
    // The others are told when a seat is first taken, as when its player
    // comes back.
    let presence = first
        .until(|m| match m {
            ServerMessage::Presence { seat, connected } => Some((*seat, *connected)),
            _ => None,
        })
        .await;
    assert_eq!(presence, (1, true));
    // Every seat is held now: a join anywhere is refused.
    assert_eq!(
        intruder
            .refused(
                ClientMessage::Join {
                    version: VERSION,
                    name: None,
                    seat: None,
                    table: None
                }
                .to_text()
            )
            .await,
        ErrorCode::NoSeat
    );

    // Agram: seat 0 leads. Out of turn, an out-of-date decision, an
    // illegal move: each refused.
    let (decision, moves) = my_turn(&mut first).await;
    assert_eq!(
        second.refused(command(decision, &moves[0])).await,
        ErrorCode::NotYourTurn
    );
    assert_eq!(
        first.refused(command(decision + 1, &moves[0])).await,
        ErrorCode::WrongDecision
    );
    assert_eq!(
        first.refused(command(decision, "fly to the moon")).await,
        ErrorCode::Illegal
    );
    // A move's id is a number: the text "0" is no move's text.
    assert_eq!(
        first.refused(command(decision, "0")).await,
        ErrorCode::Illegal
    );
    assert_eq!(
        first
            .refused(command_of(0, decision, MoveChoice::Id(moves.len())))
            .await,
        ErrorCode::Illegal
    );
    // A command for another game than the one played (a game past, or
    // one to come), even with a legal id, is refused as stale.
    for game in [1, u64::MAX] {
        assert_eq!(
            first
                .refused(command_of(game, decision, MoveChoice::Id(0)))
                .await,
            ErrorCode::WrongGame
        );
    }
    assert_eq!(
        first
            .refused(command_of(0, decision + 1, MoveChoice::Id(0)))
            .await,
        ErrorCode::WrongDecision
    );
    // `sync` answers with the same state: nothing changed.
    first.send(&ClientMessage::Sync).await;
    let (again, moves_again) = my_turn(&mut first).await;
    assert_eq!((again, &moves_again), (decision, &moves));

    // The game goes on: both play it out.
    let a = tokio::spawn(async move {
        // The state of this decision was read already: play it first.
        first.send_text(command(decision, &moves[0])).await;
        first
            .until(|m| matches!(m, ServerMessage::Accepted { .. }).then_some(()))
            .await;
        play(&mut first, 1, None).await
    });
    let b = tokio::spawn(async move { play(&mut second, 2, None).await });
    let (a, b) = (a.await.expect("plays"), b.await.expect("plays"));
    drop(intruder);
    let reports = server.await.expect("the server ends");
    let report = &reports[0];
    assert_eq!(report.how, EndKind::Finished);
    // Only the accepted commands were played: the record replays to the
    // same end.
    let local = report.record.replay(&rules).expect("replays");
    assert_eq!(local.state().describe(), report.table_text);
    assert_eq!(
        report.record.commands.len() as u64,
        a.sent + 1 + b.sent + computer_moves(&a.received)
    );
}

/// How many moves the computer played, as seat's messages tell.
fn computer_moves(received: &[ServerMessage]) -> u64 {
    // Every move is followed by a `state` with `last`; the seats' own are
    // counted by the caller.
    let mine = received.iter().find_map(|m| match m {
        ServerMessage::Welcome { seat, .. } => Some(*seat),
        _ => None,
    });
    received
        .iter()
        .filter(|m| matches!(m, ServerMessage::State { last: Some(l), .. } if Some(l.seat) != mine && l.seat == 2))
        .count() as u64
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dropped_seat_rejoins_with_its_token_and_the_game_waits() {
    let mut config = ServeConfig::new("agram.rcy");
    config.seed = 4;
    config.settings = vec![("NUMP".into(), "3".into())];
    config.seats = vec![
        SeatSpec::Remote,
        SeatSpec::Remote,
        SeatSpec::Computer(SeatKind::Random),
    ];
    let rules = shipped("agram.rcy");
    let (url, server) = start(rules.clone(), config).await;
    let mut staying = Client::join(&url, Some(0)).await;
    let mut leaving = Client::join(&url, Some(1)).await;
    let token = leaving.token.clone().expect("a token");
    let stayer = tokio::spawn(async move { play(&mut staying, 5, None).await });
    // Seat 1 plays two moves and drops.
    let before = play(&mut leaving, 6, Some(2)).await;
    assert_eq!(before.commands.len(), 2);
    leaving.close().await;
    // Away, the game waits for it (no takeover): nothing is played for
    // seat 1 meanwhile.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut back = Client::connect(&url).await;
    back.send(&ClientMessage::Rejoin {
        version: VERSION,
        token: token.clone(),
    })
    .await;
    let seat = back
        .until(|m| match m {
            ServerMessage::Welcome { seat, token: t, .. } => Some((*seat, t.clone())),
            _ => None,
        })
        .await;
    assert_eq!(seat, (1, token.clone()));
    // The whole state again, then the game on to its end.
    let after = play(&mut back, 7, None).await;
    let stayed = stayer.await.expect("plays");
    let reports = server.await.expect("ends");
    let report = &reports[0];
    assert_eq!(report.how, EndKind::Finished);
    // No move of seat 1 by anyone but its player.
    let computer_for_1 = stayed.received.iter().any(
        |m| matches!(m, ServerMessage::State { last: Some(l), .. } if l.seat == 1 && l.computer),
    );
    assert!(!computer_for_1);
    // The others were told it left and came back.
    let told = |connected: bool| {
        stayed.received.iter().any(
            |m| matches!(m, ServerMessage::Presence { seat: 1, connected: c } if *c == connected),
        )
    };
    assert!(told(false) && told(true));
    let mut commands: Vec<Command> = before.commands.into_iter().chain(after.commands).collect();
    commands.extend(stayed.commands);
    assert_eq!(
        commands.len() + computer_moves(&stayed.received) as usize,
        report.record.commands.len()
    );
    let local = report.record.replay(&rules).expect("replays");
    assert_eq!(local.state().describe(), report.table_text);
}

/// The computer that takes a seat over is the kind asked for
/// (`--takeover-by`): here MCTS, whose every move for the seat away is
/// the move the same seeded MCTS player finds on the replayed game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_takes_a_seat_away_past_the_limit() {
    let mut config = ServeConfig::new("agram.rcy");
    config.seed = 9;
    config.takeover = Some(Duration::from_millis(200));
    config.takeover_by = SeatKind::Mcts(30);
    config.seats = vec![SeatSpec::Remote, SeatSpec::Remote];
    config.settings = vec![("NUMP".into(), "2".into())];
    let rules = shipped("agram.rcy");
    let (url, server) = start(rules.clone(), config).await;
    let mut staying = Client::join(&url, Some(0)).await;
    let mut leaving = Client::join(&url, Some(1)).await;
    let stayer = tokio::spawn(async move { play(&mut staying, 5, None).await });
    play(&mut leaving, 6, Some(1)).await;
    leaving.close().await;
    let stayed = stayer.await.expect("plays");
    let reports = server.await.expect("ends");
    assert_eq!(reports[0].how, EndKind::Finished);
    let taken = stayed
        .received
        .iter()
        .filter(|m| matches!(m, ServerMessage::State { last: Some(l), .. } if l.seat == 1 && l.computer))
        .count();
    assert!(taken > 0, "the computer played for seat 1");
    let record = &reports[0].record;
    let local = record.replay(&rules).expect("replays");
    assert_eq!(local.state().describe(), reports[0].table_text);
    // Each move the computer played for seat 1 is MCTS's (30 iterations,
    // seeded as the server seeds its players).
    let computer: Vec<u64> = stayed
        .received
        .iter()
        .filter_map(|m| match m {
            ServerMessage::State { last: Some(l), .. } if l.seat == 1 && l.computer => {
                Some(l.decision)
            }
            _ => None,
        })
        .collect();
    let mut mcts = Seats::parse("mcts:30,mcts:30")
        .expect("seats")
        .player(record.seed);
    let options = cardboard::engine::GameOptions {
        seed: record.seed,
        overrides: record.settings.clone(),
    };
    // The record says which decisions the computer played for the seat.
    assert_eq!(record.taken_over, computer);
    let text = record.to_text();
    let read = cardboard::command::read_records(&text).expect("reads");
    assert_eq!(read[0].taken_over, computer);
    let mut game = CommandedGame::new(rules.start(&options).expect("starts"));
    let mut checked = 0;
    for command in &record.commands {
        if computer.contains(&command.decision) {
            let mv = mcts
                .choose_move(game.state())
                .expect("chooses")
                .expect("a move");
            assert_eq!(game.command_for(&mv).as_ref(), Some(command));
            checked += 1;
        }
        game.play(None, command).expect("replays");
    }
    assert_eq!(checked, computer.len());
}

/// Tables of Agram played at once by scripted clients, on one server.
async fn load(tables: usize) -> (f64, Duration) {
    let mut config = ServeConfig::new("agram.rcy");
    config.tables = tables;
    config.seed = 1;
    // Every client comes from the loopback address.
    config.max_connections = 4 * tables + 10;
    config.max_connections_per_address = 4 * tables + 10;
    let rules = shipped("agram.rcy");
    let players = 4;
    let began = Instant::now();
    let (url, server) = start(rules, config).await;
    let mut clients = Vec::new();
    for t in 0..tables {
        for seat in 0..players {
            let url = url.clone();
            clients.push(tokio::spawn(async move {
                let mut client = Client::connect(&url).await;
                let join = ClientMessage::Join {
                    version: VERSION,
                    name: None,
                    seat: Some(seat),
                    table: Some(t),
                };
                client.send(&join).await;
                play(&mut client, (t * players + seat) as u64, None).await
            }));
        }
    }
    let mut slowest = Duration::ZERO;
    let mut sent = 0;
    for client in clients {
        let played = client.await.expect("a client plays");
        assert!(played.received.iter().any(|m| matches!(
            m,
            ServerMessage::End {
                how: EndKind::Finished,
                ..
            }
        )));
        slowest = slowest.max(played.slowest);
        sent += played.sent;
    }
    let reports = server.await.expect("the server ends");
    let seconds = began.elapsed().as_secs_f64();
    assert_eq!(reports.len(), tables);
    assert!(reports.iter().all(|r| r.how == EndKind::Finished));
    let commands: usize = reports.iter().map(|r| r.record.commands.len()).sum();
    assert_eq!(
        commands as u64, sent,
        "every command sent was answered and played"
    );
    (tables as f64 / seconds, slowest)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_games_of_agram_at_once() {
    let tables = std::env::var("CARDBOARD_LOAD_TABLES")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(200);
    let (per_second, slowest) = load(tables).await;
    eprintln!(
        "load: {tables} games of Agram at once: {per_second:.1} games/s, slowest reply {slowest:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_does_not_read_is_let_go_without_holding_up_the_others() {
    let mut config = ServeConfig::new("cardbot-derby.rcy");
    config.seed = 2;
    config.max_decisions = 40;
    config.seats = vec![SeatSpec::Remote, SeatSpec::Remote];
    config.settings = vec![("NUMP".into(), "2".into())];
    let rules = shipped("cardbot-derby.rcy");
    let (url, server) = start(rules.clone(), config).await;
    let mut silent = Client::join(&url, Some(0)).await;
    let token = silent.token.clone().expect("a token");
    let mut other = Client::join(&url, Some(1)).await;
    // The silent client asks for the whole state again and again and
    // reads none of it.
    let flood = tokio::spawn(async move {
        let sync = ClientMessage::Sync.to_text();
        for _ in 0..200_000 {
            if !silent.try_send_text(sync.clone()).await {
                return true; // the server let it go
            }
        }
        false
    });
    // Meanwhile the other seat is answered at once, every time.
    let mut slowest = Duration::ZERO;
    for _ in 0..50 {
        let asked = Instant::now();
        other.send(&ClientMessage::Sync).await;
        other
            .until(|m| matches!(m, ServerMessage::State { .. }).then_some(()))
            .await;
        slowest = slowest.max(asked.elapsed());
    }
    assert!(slowest < Duration::from_secs(5), "a sync took {slowest:?}");
    assert!(flood.await.expect("floods"), "the silent client was let go");
    // The others are told it left (perhaps while they synced).
    let gone = |m: &ServerMessage| {
        matches!(
            m,
            ServerMessage::Presence {
                seat: 0,
                connected: false
            }
        )
    };
    if !other.received.iter().any(gone) {
        other.until(|m| gone(m).then_some(())).await;
    }
    // It takes its seat back and the game is played out.
    let mut back = Client::connect(&url).await;
    back.send(&ClientMessage::Rejoin {
        version: VERSION,
        token,
    })
    .await;
    let a = tokio::spawn(async move { play(&mut back, 1, None).await });
    let b = tokio::spawn(async move { play(&mut other, 2, None).await });
    a.await.expect("plays");
    b.await.expect("plays");
    let reports = server.await.expect("ends");
    assert_eq!(reports[0].how, EndKind::Stopped);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rules_error_ends_the_game_with_a_message_to_all() {
    // tests/rules_errors/places.rcy with WHERE=6: an option fails while
    // the moves of the second decision are found.
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/rules_errors/places.rcy");
    let rules = cardboard::engine::Rules::load(&path).expect("loads");
    let mut config = ServeConfig::new("places.rcy");
    config.settings = vec![("WHERE".into(), "6".into())];
    config.games = 2;
    let (url, server) = start(rules, config).await;
    let mut clients = Vec::new();
    for seat in 0..2 {
        let mut client = Client::join(&url, Some(seat)).await;
        clients.push(tokio::spawn(async move {
            play(&mut client, seat as u64, None).await
        }));
    }
    for client in clients {
        let played = client.await.expect("plays");
        let ends: Vec<&ServerMessage> = played
            .received
            .iter()
            .filter(|m| matches!(m, ServerMessage::End { how: EndKind::Failed, message: Some(why), .. } if why.contains("division by zero")))
            .collect();
        assert_eq!(
            ends.len(),
            2,
            "both games end with the rules error: {:?}",
            played.received.last()
        );
    }
    let reports = server.await.expect("the server ends");
    assert_eq!(reports.len(), 2);
    assert!(reports
        .iter()
        .all(|r| r.how == EndKind::Failed && r.record.commands.len() == 1));
}
