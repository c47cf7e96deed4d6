//! What the server shows each seat: its observation, and whether it may
//! read the text of another seat's move. The one place that knows which
//! observation the protocol carries.

use crate::game::GameState;
use serde_json::Value;

/// Seat `seat`'s observation of `state`, as the `observation` field of a
/// `state` message carries it.
pub fn observe<S: GameState>(state: &S, seat: usize) -> Value {
    Value::String(state.observation(seat))
}

/// Whether `viewer` sees everything `mover` sees in `state` (so that the
/// text of `mover`'s move tells `viewer` nothing hidden from it): their
/// observations are the same but for whose they are (the first line).
pub fn sees_all_of<S: GameState>(state: &S, viewer: usize, mover: usize) -> bool {
    fn body(text: &str) -> &str {
        text.split_once('\n').map_or("", |(_, rest)| rest)
    }
    viewer == mover || body(&state.observation(viewer)) == body(&state.observation(mover))
}
