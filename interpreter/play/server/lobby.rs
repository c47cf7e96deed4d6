//! `GET /lobby`: what a person needs to pick a seat before joining (the
//! browser page's lobby, docs/protocol.md "The lobby"): the game's name and
//! settings, and each table's seats, free, taken or the computer's. Only
//! what every player is told anyway (the seats' kinds and the players'
//! names); never a token.

use super::{lock, Hub};
use crate::drivers::Ruleset;
use crate::game::GameState;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The server's lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Lobby {
    /// The protocol version ([`crate::play::protocol::VERSION`]).
    pub version: u32,
    /// The rules file's name.
    pub rules: String,
    /// The `--set` overrides the games are played with (the file's own
    /// values otherwise), each `[NAME, VALUE]`.
    pub settings: Vec<(String, String)>,
    /// Every setting of the rules file (a declared constant `--set` may
    /// change) with the value the games are played with, overrides
    /// applied, in the file's order, each `[NAME, VALUE]`.
    #[serde(default)]
    pub values: Vec<(String, String)>,
    /// The number of seats of a game.
    pub players: usize,
    /// Games each table plays one after another.
    pub games: u64,
    /// The tables.
    pub tables: Vec<LobbyTable>,
}

/// One table of the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyTable {
    /// Its number, from 0.
    pub table: usize,
    /// Games started so far at it (the one in play counts).
    pub started: u64,
    /// Whether a game is being played at it now.
    pub playing: bool,
    /// Whether it played all its games.
    pub finished: bool,
    /// Its seats, in order.
    pub seats: Vec<LobbySeat>,
}

/// One seat of the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbySeat {
    /// Its number, from 0.
    pub seat: usize,
    /// `remote`, or the computer's kind (`random`, `mcts:N`, `ismcts:N`).
    pub kind: String,
    /// `free` (a remote seat nobody holds), `taken` (a player holds it) or
    /// `computer`.
    pub holder: String,
    /// The name of its player, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Whether its player is connected now.
    pub connected: bool,
}

/// `/lobby`: the lobby as JSON.
pub async fn lobby<R>(State(hub): State<Arc<Hub<R>>>) -> impl IntoResponse
where
    R: Ruleset + Send + 'static,
    R::State: 'static,
    <R::State as GameState>::Move: 'static,
{
    let tables: Vec<LobbyTable> = hub.tables.iter().map(|t| lock(t).lobby()).collect();
    let config = &hub.config;
    let lobby = Lobby {
        version: crate::play::protocol::VERSION,
        rules: config.rules_name.clone(),
        settings: config.settings.clone(),
        values: hub.values.clone(),
        players: tables.first().map_or(0, |t| t.seats.len()),
        games: config.games,
        tables,
    };
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        serde_json::to_string(&lobby).unwrap_or_default(),
    )
}
