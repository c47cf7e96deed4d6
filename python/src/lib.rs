//! `cardboard._cardboard`: the Rust half of the Python package (docs/python.md).
//!
//! It reaches the engine only as the drivers do: rules loaded with
//! [`Rules::load`], games started with [`Rules::start`], and every question
//! about a game asked through [`GameState`]. Observations and legal moves
//! cross into Python as the protocol's JSON (docs/protocol.md), which the
//! Python half (`cardboard/__init__.py`) reads with `json.loads`, so that a
//! field the protocol gains (a move's `label`) reaches Python unchanged.
//! The GIL is released (`Python::detach`) while the engine works.

use cardboard::drivers::report::games_out::RowFormat;
use cardboard::drivers::simulate::{simulate_sweep, Rows, Shard, SimulateConfig, Sweep};
use cardboard::drivers::{parse_set, Ruleset};
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, PlayError, Status};
use cardboard::loading::LoadError;
use cardboard::random::GameRng;
use cardboard::search::seats::Seats;
use cardboard::search::tree::rewards;
use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyIndexError, PyOSError, PyValueError};
use pyo3::prelude::*;
use std::sync::Mutex;

mod signals;
mod tensor;
mod vector;

create_exception!(
    _cardboard,
    RulesError,
    PyException,
    "A rules file that does not compile (the message is the rendered \
     diagnostic: file, line, column, a caret), settings it refuses, or a \
     rules error met while playing."
);

create_exception!(
    _cardboard,
    IllegalMoveError,
    PyValueError,
    "A move that is not legal now (or a game that is over)."
);

/// A `PlayError` as the Python exception it raises.
fn play_error(e: PlayError) -> PyErr {
    match e {
        PlayError::Rules(_) => RulesError::new_err(e.to_string()),
        PlayError::IllegalMove(_) | PlayError::GameOver => IllegalMoveError::new_err(e.to_string()),
    }
}

/// Reads `(NAME, VALUE)` settings as `--set NAME=VALUE` would be read.
fn overrides_of(settings: Vec<(String, String)>) -> PyResult<Vec<(String, String)>> {
    settings
        .into_iter()
        .map(|(name, value)| parse_set(&format!("{name}={value}")).map_err(RulesError::new_err))
        .collect()
}

/// Loads and compiles a rules file, checking `settings` against it.
fn load_rules(py: Python<'_>, path: &str, overrides: &[(String, String)]) -> PyResult<Rules> {
    let rules = py
        .detach(|| Rules::load(std::path::Path::new(path)))
        .map_err(|e| match e {
            LoadError::Io(message) => PyOSError::new_err(message),
            LoadError::Check(e) => RulesError::new_err(e.render()),
        })?;
    Ruleset::check_settings(&rules, overrides)
        .map_err(|e| RulesError::new_err(format!("{path}: {e}")))?;
    Ok(rules)
}

/// The compiled rules of one file with its settings: what starts games.
#[pyclass(module = "cardboard._cardboard", frozen)]
struct Game {
    rules: Rules,
    overrides: Vec<(String, String)>,
    path: String,
}

#[pymethods]
impl Game {
    /// Loads the rules file at `path`; `settings` are `(NAME, VALUE)` pairs
    /// as `--set NAME=VALUE` gives them.
    #[new]
    #[pyo3(signature = (path, settings = Vec::new()))]
    fn new(py: Python<'_>, path: &str, settings: Vec<(String, String)>) -> PyResult<Game> {
        let overrides = overrides_of(settings)?;
        let rules = load_rules(py, path, &overrides)?;
        Ok(Game {
            rules,
            overrides,
            path: path.to_string(),
        })
    }

    /// The path the rules were loaded from.
    #[getter]
    fn path(&self) -> String {
        self.path.clone()
    }

    /// The settings given (`--set`), as `(NAME, VALUE)` pairs.
    #[getter]
    fn overrides(&self) -> Vec<(String, String)> {
        self.overrides.clone()
    }

    /// A new game whose chance is seeded with `seed` (as `run --seed`),
    /// played on to its first decision.
    #[pyo3(signature = (seed = 0))]
    fn new_state(&self, py: Python<'_>, seed: u64) -> PyResult<GameStateObject> {
        let options = GameOptions {
            seed,
            overrides: self.overrides.clone(),
        };
        let rules = &self.rules;
        let mut state = py.detach(|| rules.start(&options)).map_err(play_error)?;
        // What each seat has seen is kept from the start, so that
        // `resample` redeals only what the seat cannot know.
        state.keep_seen();
        Ok(GameStateObject::of(state))
    }
}

type Undo = <State as GameState>::Undo;

/// A game and how to take back its moves: the engine's state is not
/// `Sync`, so it lives behind a lock, taken with the GIL released.
struct Inner {
    state: State,
    /// How to take back each move applied, the latest last.
    history: Vec<Undo>,
}

/// One game in progress.
#[pyclass(name = "State", module = "cardboard._cardboard", frozen)]
struct GameStateObject {
    inner: Mutex<Inner>,
}

impl GameStateObject {
    fn of(state: State) -> GameStateObject {
        GameStateObject {
            inner: Mutex::new(Inner {
                state,
                history: Vec::new(),
            }),
        }
    }

    /// Runs `f` on the game with the GIL released.
    fn with<R: Send>(&self, py: Python<'_>, f: impl FnOnce(&mut Inner) -> R + Send) -> R {
        let inner = &self.inner;
        py.detach(|| f(&mut inner.lock().unwrap_or_else(|e| e.into_inner())))
    }

    /// Reads the game, holding the GIL (for questions that cost nothing).
    fn read<R>(&self, f: impl FnOnce(&State) -> R) -> R {
        f(&self.inner.lock().unwrap_or_else(|e| e.into_inner()).state)
    }

    fn check_seat(&self, seat: usize) -> PyResult<()> {
        let players = self.read(|s| s.num_players());
        if seat >= players {
            return Err(PyIndexError::new_err(format!(
                "seat {seat} does not exist: the game has {players} seats (0 to {})",
                players.saturating_sub(1)
            )));
        }
        Ok(())
    }
}

#[pymethods]
impl GameStateObject {
    /// The seat that must decide now, or `None` when the game is over.
    #[getter]
    fn current_player(&self) -> Option<usize> {
        self.read(|s| s.current_player())
    }

    /// The number of seats.
    #[getter]
    fn num_players(&self) -> usize {
        self.read(|s| s.num_players())
    }

    /// Decisions taken so far (0 at the start).
    #[getter]
    fn decision(&self) -> u64 {
        self.read(|s| s.decisions())
    }

    /// `running`, `finished`, `stopped: WHY` or `failed: WHY`.
    #[getter]
    fn status(&self) -> String {
        match self.read(|s| s.status()) {
            Status::Running => "running".to_string(),
            Status::Finished => "finished".to_string(),
            Status::Stopped(why) => format!("stopped: {why}"),
            Status::Failed(why) => format!("failed: {why}"),
        }
    }

    /// Whether the game is over (finished, stopped or failed).
    fn is_terminal(&self) -> bool {
        self.read(|s| s.status() != Status::Running)
    }

    /// Each seat's reward (a win alone 1, a first place shared by `k`
    /// seats `1/k` each, other places 0; a game stopped or failed `1/seats`
    /// each); all 0 while the game runs.
    fn returns(&self) -> Vec<f64> {
        self.read(|s| {
            let seats = s.num_players();
            let mut out = vec![0.0; seats];
            if s.status() != Status::Running {
                rewards(s.outcome().as_ref(), seats, &mut out);
            }
            out
        })
    }

    /// The scores of the finished game (`None` before its end).
    fn scores(&self) -> Option<Vec<i64>> {
        self.read(|s| s.outcome().map(|o| o.scores))
    }

    /// What `seat` may see, as the protocol's observation JSON.
    fn observation_json(&self, py: Python<'_>, seat: usize) -> PyResult<String> {
        self.check_seat(seat)?;
        self.with(py, |g| serde_json::to_string(&g.state.observe(seat)))
            .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The legal moves as the current player may read them: the `moves` of
    /// its observation, as JSON (an empty list when the game is over).
    fn legal_moves_json(&self, py: Python<'_>) -> PyResult<String> {
        self.with(py, |g| match g.state.current_player() {
            Some(seat) => serde_json::to_string(&g.state.observe(seat).moves),
            None => Ok("[]".to_string()),
        })
        .map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// The legal moves' texts as transcripts write them (every card named,
    /// what `apply` reads back).
    fn move_texts(&self, py: Python<'_>) -> Vec<String> {
        self.with(py, |g| g.state.moves_to_text(&g.state.legal_moves()))
    }

    /// Plays the legal move with index `id` (in `legal_moves()`).
    fn apply_id(&self, py: Python<'_>, id: usize) -> PyResult<()> {
        self.with(py, |g| {
            let moves = g.state.legal_moves();
            let Some(mv) = moves.get(id) else {
                return Err(PlayError::IllegalMove(format!(
                    "there is no move {id}: {} legal moves",
                    moves.len()
                )));
            };
            let undo = g.state.apply_undoable(mv)?;
            g.history.push(undo);
            Ok(())
        })
        .map_err(play_error)
    }

    /// Plays the move written `text` (as transcripts write it, or its index).
    fn apply_text(&self, py: Python<'_>, text: &str) -> PyResult<()> {
        self.with(py, |g| {
            let mv = g.state.move_from_text(text)?;
            let undo = g.state.apply_undoable(&mv)?;
            g.history.push(undo);
            Ok(())
        })
        .map_err(play_error)
    }

    /// Takes back the last move applied to this state; an error when there
    /// is none (a clone starts with none).
    fn undo(&self, py: Python<'_>) -> PyResult<()> {
        let done = self.with(py, |g| match g.history.pop() {
            Some(undo) => {
                g.state.undo(undo);
                true
            }
            None => false,
        });
        if !done {
            return Err(IllegalMoveError::new_err(
                "no move to take back: none was applied to this state since it was made",
            ));
        }
        Ok(())
    }

    /// An independent copy (with no moves to take back).
    fn clone(&self, py: Python<'_>) -> GameStateObject {
        GameStateObject::of(self.with(py, |g| g.state.clone()))
    }

    fn __copy__(&self, py: Python<'_>) -> GameStateObject {
        self.clone(py)
    }

    /// A state that `seat` cannot tell from this one (the cards it has not
    /// seen dealt anew, the chance to come drawn anew), drawn with `seed`.
    fn resample(&self, py: Python<'_>, seat: usize, seed: u64) -> PyResult<GameStateObject> {
        self.check_seat(seat)?;
        match self.with(py, |g| g.state.resample(seat, &mut GameRng::new(seed))) {
            Some(state) => Ok(GameStateObject::of(state)),
            None => Err(PyValueError::new_err("this game cannot be resampled")),
        }
    }

    /// The whole table, hidden cards included, as transcripts show it.
    fn __str__(&self, py: Python<'_>) -> String {
        self.with(py, |g| g.state.describe())
    }

    fn __repr__(&self) -> String {
        format!(
            "<cardboard.State decision {} {}>",
            self.decision(),
            self.status()
        )
    }
}

/// Plays `games` games with `seats` (as `--seats`, empty: all random) and
/// returns the `--json` report and, when `rows`, the per-game rows of
/// `--games-out` (JSON lines; else empty).
#[pyfunction]
#[pyo3(signature = (path, games, seats = "", jobs = 0, seed = 0, settings = Vec::new(),
    max_decisions = cardboard::drivers::DEFAULT_MAX_DECISIONS, shard = None, rows = true))]
#[allow(clippy::too_many_arguments)]
fn simulate_json(
    py: Python<'_>,
    path: &str,
    games: u64,
    seats: &str,
    jobs: usize,
    seed: u64,
    settings: Vec<(String, String)>,
    max_decisions: u64,
    shard: Option<(u64, u64)>,
    rows: bool,
) -> PyResult<(String, String)> {
    let overrides = overrides_of(settings)?;
    let rules = load_rules(py, path, &overrides)?;
    let seats = if seats.is_empty() {
        Seats::random()
    } else {
        Seats::parse(seats).map_err(PyValueError::new_err)?
    };
    let shard = match shard {
        Some((index, count)) if index < count => Some(Shard { index, count }),
        Some((index, count)) => {
            return Err(PyValueError::new_err(format!(
                "shard ({index}, {count}): the index must be below the count"
            )))
        }
        None => None,
    };
    let config = SimulateConfig {
        games,
        seed,
        overrides,
        max_decisions,
        jobs,
    };
    let want_rows = rows;
    let mut rows = String::new();
    // Ctrl-C stops the games at the next one each thread starts.
    let report = signals::interruptible(py, |cancel| {
        let mut write = |text: &str| {
            rows.push_str(text);
            Ok(())
        };
        let sweep = Sweep {
            shard,
            file: path.to_string(),
            rows: want_rows.then_some(Rows {
                format: RowFormat::Jsonl,
                write: &mut write,
            }),
            cancel: Some(cancel),
            ..Sweep::default()
        };
        simulate_sweep(&rules, &config, &seats, sweep, &|_| {})
    })?;
    let report = report.map_err(RulesError::new_err)?;
    Ok((report.to_json(), rows))
}

#[pymodule]
fn _cardboard(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<GameStateObject>()?;
    m.add_function(wrap_pyfunction!(simulate_json, m)?)?;
    m.add_class::<tensor::Encoding>()?;
    m.add_class::<vector::VectorGame>()?;
    m.add("NoActionSpace", m.py().get_type::<tensor::NoActionSpace>())?;
    m.add("RulesError", m.py().get_type::<RulesError>())?;
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    Ok(())
}
