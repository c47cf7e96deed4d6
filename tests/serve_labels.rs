//! The labels and announcements of network play (docs/protocol.md,
//! "Labels and targets", "Announcements"): every move offered has a
//! label and a target, a card it plays only when the seat sees it; `last`
//! carries the move's label as the seat reads it and what the rules
//! announced while it was played; no label names a card the seat has not
//! seen. Two-player Agram against the computer, loopback only.

mod net;

use cardboard::label::card_name;
use cardboard::observation::Observation;
use cardboard::play::protocol::{ClientMessage, EndKind, MoveChoice, MoveCommand, ServerMessage};
use cardboard::play::server::{SeatSpec, ServeConfig};
use cardboard::search::seats::SeatKind;
use net::{shipped, start, Client};
use std::collections::HashSet;

/// The short names of every card `seen` shows a face of.
fn faces(seen: &Observation) -> HashSet<String> {
    let display = seen.display.as_ref();
    let owners = seen.owners.iter();
    let spaces = seen
        .boards
        .iter()
        .flat_map(|b| b.spaces.iter().map(|s| &s.contents));
    (owners.chain(spaces))
        .flat_map(|o| o.locations.iter())
        .flat_map(|l| l.cards.iter().flatten())
        .map(|c| card_name(c, display))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_and_last_carry_labels_and_announcements_naming_no_hidden_card() {
    let mut config = ServeConfig::new("agram.rcy");
    config.seats = vec![SeatSpec::Remote, SeatSpec::Computer(SeatKind::Random)];
    config.settings = vec![("NUMP".into(), "2".into())];
    config.seed = 9;
    let (url, server) = start(shipped("agram.rcy"), config).await;
    let mut client = Client::join(&url, Some(0)).await;
    let (mut offered, mut labelled_last, mut announced) = (0, 0, Vec::new());
    // Every card seen so far, face up: a label may name only these.
    let mut seen_faces = HashSet::new();
    loop {
        match client.next().await.expect("the game plays") {
            ServerMessage::State {
                decision,
                observation,
                last,
                ..
            } => {
                assert!(observation.display.is_some(), "agram has a display section");
                seen_faces.extend(faces(&observation));
                if let Some(last) = last {
                    assert!(!last.label.is_empty(), "{last:?}");
                    let card = last.label.split(" -> ").next().unwrap_or_default();
                    assert!(card == "a card" || seen_faces.contains(card), "{last:?}");
                    labelled_last += 1;
                    announced.extend(last.announcements.iter().cloned());
                }
                for m in &observation.moves {
                    assert!(m.label.ends_with(" -> Trick"), "{m:?}");
                    let card = m.card.as_ref().expect("the card played, its own");
                    let short = card_name(card, observation.display.as_ref());
                    assert!(m.label.starts_with(&short), "{m:?}");
                    assert!(faces(&observation).contains(&short), "{m:?}");
                    let target = m.target.as_ref().expect("a target");
                    assert_eq!(
                        (target.owner.as_str(), target.location.as_str()),
                        ("p0", "HAND")
                    );
                    offered += 1;
                }
                if let Some(first) = observation.moves.first() {
                    let command = MoveCommand {
                        game: 0,
                        decision,
                        mv: MoveChoice::Id(first.id),
                    };
                    client.send(&ClientMessage::Command { command }).await;
                }
            }
            ServerMessage::End { how, .. } => {
                assert_eq!(how, EndKind::Finished);
                break;
            }
            ServerMessage::Error { message, .. } => panic!("refused: {message}"),
            _ => {}
        }
    }
    assert!(
        offered > 0 && labelled_last >= 12,
        "{offered} {labelled_last}"
    );
    // Six tricks, each announced once to this seat.
    assert_eq!(announced.len(), 6, "{announced:?}");
    for line in &announced {
        assert!(
            line.contains(" wins the trick with ") && !line.contains("a card"),
            "{line}"
        );
    }
    client.close().await;
    server.abort();
}
