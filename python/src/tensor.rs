//! `Encoding`: the observation tensor and the fixed action space of one
//! `Game` (the interpreter's `tensor` module), for `State.observation_tensor`,
//! `State.legal_mask` and the other action calls of docs/python.md.
//!
//! Arrays cross into Python as `bytearray`s of native-endian values that
//! the Python half views with `numpy.frombuffer` (no copy, writable): the
//! extension needs no numpy crate and stays one abi3 wheel for every
//! Python (the buffer protocol is not in the stable ABI before 3.11).

use crate::{play_error, Game, GameStateObject, IllegalMoveError};
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, PlayError};
use cardboard::tensor::action::ActionSpace;
use cardboard::tensor::Layout;
use pyo3::create_exception;
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use std::sync::{Arc, OnceLock};

create_exception!(
    _cardboard,
    NoActionSpace,
    PyValueError,
    "The game has no fixed action space (docs/python.md says which games \
     have one): the message says why, e.g. which two legal moves would \
     share one index."
);

/// The layout and (found on first use) the action space of a game.
pub(crate) struct Tables {
    pub rules: Rules,
    pub overrides: Vec<(String, String)>,
    pub layout: Layout,
    actions: OnceLock<ActionSpace>,
}

impl Tables {
    pub fn new(rules: Rules, overrides: Vec<(String, String)>) -> Result<Tables, PlayError> {
        let first = start(&rules, &overrides, 0)?;
        let layout = Layout::new(&rules.program, &first.whole_view());
        Ok(Tables {
            rules,
            overrides,
            layout,
            actions: OnceLock::new(),
        })
    }

    /// The action space, found once (a few random games).
    pub fn actions(&self) -> &ActionSpace {
        self.actions.get_or_init(|| {
            ActionSpace::probe(&self.layout, |seed| {
                start(&self.rules, &self.overrides, seed).ok()
            })
        })
    }

    /// The action space, or `NoActionSpace` saying why there is none.
    pub fn space(&self) -> PyResult<&ActionSpace> {
        let space = self.actions();
        match &space.refusal {
            Some(why) => Err(NoActionSpace::new_err(why.clone())),
            None => Ok(space),
        }
    }

    /// `(action, move id)` of the legal moves, sorted by action (none
    /// when the game is over).
    pub fn legal(&self, state: &State) -> Result<Vec<(usize, usize)>, String> {
        let Some(seat) = state.current_player() else {
            return Ok(Vec::new());
        };
        let space = self.actions();
        space.legal(&self.layout, &state.observe_unlabelled(seat))
    }

    /// The legal actions (as [`Self::legal`]) and, into `out`, the tensor
    /// of the seat to move (seat 0 once the game is over), from one
    /// observation.
    pub fn look(&self, state: &State, out: &mut [f32]) -> Result<Vec<(usize, usize)>, String> {
        let seat = state.current_player();
        let seen = state.observe_unlabelled(seat.unwrap_or(0));
        self.layout.encode(&seen, out);
        match seat {
            Some(_) => self.actions().legal(&self.layout, &seen),
            None => Ok(Vec::new()),
        }
    }

    /// The tensor of `seat` into `out`.
    pub fn encode(&self, state: &State, seat: usize, out: &mut [f32]) {
        self.layout.encode(&state.observe_unlabelled(seat), out);
    }
}

/// A new game with `seed`, at its first decision.
pub(crate) fn start(
    rules: &Rules,
    overrides: &[(String, String)],
    seed: u64,
) -> Result<State, PlayError> {
    rules.start(&GameOptions {
        seed,
        overrides: overrides.to_vec(),
    })
}

/// `floats` as a `bytearray` of native-endian `f32`s.
pub(crate) fn float_bytes<'py>(py: Python<'py>, floats: &[f32]) -> Bound<'py, PyByteArray> {
    let bytes: Vec<u8> = floats.iter().flat_map(|f| f.to_ne_bytes()).collect();
    PyByteArray::new(py, &bytes)
}

/// The tensor layout and action space of one `Game`.
#[pyclass(module = "cardboard._cardboard", frozen)]
pub(crate) struct Encoding {
    pub tables: Arc<Tables>,
}

#[pymethods]
impl Encoding {
    #[new]
    fn new(py: Python<'_>, game: &Game) -> PyResult<Encoding> {
        let (rules, overrides) = (game.rules.clone(), game.overrides.clone());
        let tables = py
            .detach(|| Tables::new(rules, overrides))
            .map_err(play_error)?;
        Ok(Encoding {
            tables: Arc::new(tables),
        })
    }

    /// The number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.tables.layout.players
    }

    /// The tensor's length.
    #[getter]
    fn size(&self) -> usize {
        self.tables.layout.size()
    }

    /// The tensor's parts: `(name, offset, shape)` each.
    fn sections(&self) -> Vec<(String, usize, Vec<usize>)> {
        self.tables.layout.sections().to_vec()
    }

    /// The card identities, by number.
    fn cards(&self) -> Vec<String> {
        self.tables.layout.cards.clone()
    }

    /// `seat`'s tensor of `state`, as native-endian `f32` bytes.
    fn observation<'py>(
        &self,
        py: Python<'py>,
        state: &GameStateObject,
        seat: usize,
    ) -> PyResult<Bound<'py, PyByteArray>> {
        state.check_seat(seat)?;
        let tables = &self.tables;
        let floats = state.with(py, |g| {
            let mut out = vec![0.0; tables.layout.size()];
            tables.encode(&g.state, seat, &mut out);
            out
        });
        Ok(float_bytes(py, &floats))
    }

    /// Whether the game has a fixed action space (never raises).
    fn has_action_space(&self, py: Python<'_>) -> bool {
        py.detach(|| self.tables.actions().refusal.is_none())
    }

    /// The number of actions, or `NoActionSpace`.
    fn num_actions(&self, py: Python<'_>) -> PyResult<usize> {
        py.detach(|| self.tables.actions());
        Ok(self.tables.space()?.size())
    }

    /// The text of action `a`.
    fn action_name(&self, py: Python<'_>, a: usize) -> PyResult<String> {
        py.detach(|| self.tables.actions());
        let space = self.tables.space()?;
        space.name(&self.tables.layout, a).ok_or_else(|| {
            PyIndexError::new_err(format!(
                "there is no action {a}: the game has {} actions",
                space.size()
            ))
        })
    }

    /// The legal actions of `state` with their move ids, sorted.
    fn legal(&self, py: Python<'_>, state: &GameStateObject) -> PyResult<Vec<(usize, usize)>> {
        py.detach(|| self.tables.actions());
        self.tables.space()?;
        let tables = &self.tables;
        state
            .with(py, |g| tables.legal(&g.state))
            .map_err(NoActionSpace::new_err)
    }

    /// The move id of legal action `a` of `state`.
    fn move_id(&self, py: Python<'_>, state: &GameStateObject, a: usize) -> PyResult<usize> {
        let legal = self.legal(py, state)?;
        match legal.binary_search_by_key(&a, |(a, _)| *a) {
            Ok(i) => Ok(legal[i].1),
            Err(_) => Err(IllegalMoveError::new_err(format!(
                "action {a} is not legal now ({} legal actions)",
                legal.len()
            ))),
        }
    }
}
