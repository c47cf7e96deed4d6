//! The browser page of `cardboard serve` (docs/protocol.md, "The page"):
//! one HTML page, its script and its style, embedded in the binary (no
//! build step, nothing downloaded), served at `/`, `/app.js`, `/table.js`
//! and `/style.css`. The page is a client of the same protocol as
//! `cardboard join`: it reads the lobby (`GET /lobby`), joins a seat over
//! the WebSocket at `/ws`, and draws the table from the seat's
//! observation alone, so it knows no game: every rules file gets it.
//!
//! `app.js` holds the connection, the lobby, the moves and the end;
//! `table.js` draws an observation (owners' locations as rows of cards,
//! boards as SVG).

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

/// The page.
pub const INDEX_HTML: &str = include_str!("index.html");
/// Its script: connection, lobby, moves, end.
pub const APP_JS: &str = include_str!("app.js");
/// Its script: the drawing of the table.
pub const TABLE_JS: &str = include_str!("table.js");
/// Its style.
pub const STYLE_CSS: &str = include_str!("style.css");

/// The routes of the page, for any router state.
pub fn routes<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route(
            "/",
            get(|| async { file("text/html; charset=utf-8", INDEX_HTML) }),
        )
        .route(
            "/app.js",
            get(|| async { file("text/javascript; charset=utf-8", APP_JS) }),
        )
        .route(
            "/table.js",
            get(|| async { file("text/javascript; charset=utf-8", TABLE_JS) }),
        )
        .route(
            "/style.css",
            get(|| async { file("text/css; charset=utf-8", STYLE_CSS) }),
        )
}

/// One embedded file. The page changes with the binary only: it is not
/// cached across versions.
fn file(kind: &'static str, body: &'static str) -> impl IntoResponse {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
}
