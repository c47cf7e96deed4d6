//! `VectorGame`: `n` games of one rules file stepped together, across
//! cores (rayon), with the GIL released; numpy arrays in and out (as
//! bytes the Python half views, see `tensor`). A finished game is
//! started again at once with a seed drawn from the vector's own stream
//! (`GameRng` of the vector's seed), drawn in the games' order after each
//! step, so that the same seed gives the same results for any number of
//! threads. docs/python.md ("VectorGame") says what each call returns.

use crate::signals::{cancelled, interruptible};
use crate::tensor::{float_bytes, start, NoActionSpace, Tables};
use crate::IllegalMoveError;
use crate::RulesError;
use cardboard::engine::State;
use cardboard::game::{GameState, Status};
use cardboard::random::GameRng;
use cardboard::search::tree::rewards;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyByteArray;
use rand::Rng;
use rayon::prelude::*;
use std::sync::{Arc, Mutex};

/// One game of the vector and its legal actions now.
struct Env {
    state: State,
    /// `(action, move id)`, sorted by action.
    legal: Vec<(usize, usize)>,
}

struct Inner {
    envs: Vec<Env>,
    seeds: GameRng,
    /// Set when a step was interrupted: the games are then half stepped
    /// until `reset`.
    broken: bool,
}

/// What one step or reset gives back, as flat arrays.
#[derive(Default)]
struct Batch {
    obs: Vec<f32>,
    mask: Vec<u8>,
    rewards: Vec<f32>,
    done: Vec<u8>,
    players: Vec<i64>,
}

/// `n` games stepped together.
#[pyclass(module = "cardboard._cardboard", frozen)]
pub(crate) struct VectorGame {
    tables: Arc<Tables>,
    actions: usize,
    inner: Mutex<Inner>,
    seed: u64,
}

type Out<'py> = (
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
    Bound<'py, PyByteArray>,
);

fn out<'py>(py: Python<'py>, b: Batch) -> Out<'py> {
    let players: Vec<u8> = b.players.iter().flat_map(|p| p.to_ne_bytes()).collect();
    (
        float_bytes(py, &b.obs),
        PyByteArray::new(py, &b.mask),
        float_bytes(py, &b.rewards),
        PyByteArray::new(py, &b.done),
        PyByteArray::new(py, &players),
    )
}

impl VectorGame {
    /// A new game with the next seed of the stream.
    fn fresh(&self, seed: u64) -> Result<State, String> {
        start(&self.tables.rules, &self.tables.overrides, seed).map_err(|e| e.to_string())
    }

    /// Fills game `i`'s observation, mask and seat to move, and its legal
    /// actions.
    fn look(
        tables: &Tables,
        env: &mut Env,
        obs: &mut [f32],
        mask: &mut [u8],
    ) -> Result<i64, String> {
        let seat = env.state.current_player();
        env.legal = tables.look(&env.state, obs)?;
        mask.fill(0);
        for (a, _) in &env.legal {
            mask[*a] = 1;
        }
        Ok(seat.map_or(-1, |s| s as i64))
    }

    /// Observations, masks and seats of every game into `batch`.
    fn look_all(
        &self,
        envs: &mut [Env],
        batch: &mut Batch,
        cancel: &std::sync::atomic::AtomicBool,
    ) -> Result<(), String> {
        let (size, actions) = (self.tables.layout.size(), self.actions);
        let n = envs.len();
        batch.obs = vec![0.0; n * size];
        batch.mask = vec![0; n * actions];
        batch.players = vec![-1; n];
        let tables = &*self.tables;
        envs.par_iter_mut()
            .zip(batch.obs.par_chunks_mut(size.max(1)))
            .zip(batch.mask.par_chunks_mut(actions.max(1)))
            .zip(batch.players.par_iter_mut())
            .try_for_each(|(((env, obs), mask), seat)| {
                if cancelled(cancel) {
                    return Err("interrupted".to_string());
                }
                *seat = Self::look(tables, env, obs, mask)?;
                Ok(())
            })
    }
}

#[pymethods]
impl VectorGame {
    #[new]
    #[pyo3(signature = (path, n, seed = 0, settings = Vec::new()))]
    fn new(
        py: Python<'_>,
        path: &str,
        n: usize,
        seed: u64,
        settings: Vec<(String, String)>,
    ) -> PyResult<VectorGame> {
        let overrides = crate::overrides_of(settings)?;
        let rules = crate::load_rules(py, path, &overrides)?;
        let tables = py
            .detach(|| Tables::new(rules, overrides))
            .map_err(crate::play_error)?;
        let tables = Arc::new(tables);
        let actions = py.detach(|| tables.actions().size());
        tables.space()?;
        let vector = VectorGame {
            tables,
            actions,
            inner: Mutex::new(Inner {
                envs: Vec::new(),
                seeds: GameRng::new(seed),
                broken: true,
            }),
            seed,
        };
        if n == 0 {
            return Err(PyValueError::new_err(
                "a VectorGame needs at least one game",
            ));
        }
        vector.start_all(py, n)?;
        Ok(vector)
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.lock().envs.len()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.tables.layout.players
    }

    #[getter]
    fn observation_size(&self) -> usize {
        self.tables.layout.size()
    }

    #[getter]
    fn num_actions(&self) -> usize {
        self.actions
    }

    /// The seat to move in each game (-1 for one that is over), as
    /// native-endian i64 bytes.
    fn current_players<'py>(&self, py: Python<'py>) -> Bound<'py, PyByteArray> {
        let seats: Vec<u8> = (self.lock().envs.iter())
            .flat_map(|e| {
                e.state
                    .current_player()
                    .map_or(-1, |s| s as i64)
                    .to_ne_bytes()
            })
            .collect();
        PyByteArray::new(py, &seats)
    }

    /// Starts every game anew from the vector's seed (the stream drawn
    /// again from its start) and returns obs, mask, seats.
    fn reset<'py>(&self, py: Python<'py>) -> PyResult<Out<'py>> {
        let n = self.lock().envs.len();
        let batch = self.start_all(py, n)?;
        Ok(out(py, batch))
    }

    /// Plays `actions` (native-endian i64 bytes, one per game) and
    /// returns obs, mask, rewards, done, seats.
    fn step<'py>(&self, py: Python<'py>, actions: &[u8]) -> PyResult<Out<'py>> {
        let mut inner = self.lock();
        if inner.broken {
            return Err(PyValueError::new_err(
                "an earlier step was interrupted: call reset() first",
            ));
        }
        let n = inner.envs.len();
        if actions.len() != n * 8 {
            return Err(PyValueError::new_err(format!(
                "{} actions for {n} games",
                actions.len() / 8
            )));
        }
        let actions: Vec<i64> = actions
            .chunks_exact(8)
            .map(|c| i64::from_ne_bytes(c.try_into().unwrap_or_default()))
            .collect();
        inner.broken = true;
        let players = self.tables.layout.players;
        let inner = &mut *inner;
        let result = interruptible(py, |cancel| -> Result<Batch, (bool, String)> {
            let mut batch = Batch {
                rewards: vec![0.0; n * players],
                done: vec![0; n],
                ..Batch::default()
            };
            // Each game plays its action.
            inner
                .envs
                .par_iter_mut()
                .zip(actions.par_iter())
                .zip(batch.rewards.par_chunks_mut(players.max(1)))
                .zip(batch.done.par_iter_mut())
                .enumerate()
                .try_for_each(|(i, (((env, a), reward), done))| {
                    if cancelled(cancel) {
                        return Err((false, "interrupted".to_string()));
                    }
                    let found = usize::try_from(*a)
                        .ok()
                        .and_then(|a| env.legal.binary_search_by_key(&a, |(x, _)| *x).ok());
                    let Some(k) = found else {
                        return Err((
                            true,
                            format!(
                                "game {i}: action {a} is not legal now ({} legal actions)",
                                env.legal.len()
                            ),
                        ));
                    };
                    let id = env.legal[k].1;
                    let moves = env.state.legal_moves();
                    // A rules error fails the game: it ends (1/seats each).
                    let _ = env.state.apply(&moves[id]);
                    if env.state.status() != Status::Running {
                        let mut r = vec![0.0; players];
                        rewards(env.state.outcome().as_ref(), players, &mut r);
                        for (to, from) in reward.iter_mut().zip(r) {
                            *to = from as f32;
                        }
                        *done = 1;
                    }
                    Ok(())
                })?;
            // The finished games start again, seeds drawn in order.
            let seeds: Vec<Option<u64>> = batch
                .done
                .iter()
                .map(|d| (*d == 1).then(|| inner.seeds.next_u64()))
                .collect();
            inner
                .envs
                .par_iter_mut()
                .zip(seeds.par_iter())
                .try_for_each(|(env, seed)| {
                    if let Some(seed) = seed {
                        env.state = self.fresh(*seed).map_err(|e| (true, e))?;
                    }
                    Ok(())
                })?;
            self.look_all(&mut inner.envs, &mut batch, cancel)
                .map_err(|e| (false, e))?;
            Ok(batch)
        })?;
        match result {
            Ok(batch) => {
                inner.broken = false;
                Ok(out(py, batch))
            }
            Err((true, why)) if why.starts_with("game ") => Err(IllegalMoveError::new_err(why)),
            Err((true, why)) => Err(RulesError::new_err(why)),
            Err((false, why)) => Err(NoActionSpace::new_err(why)),
        }
    }

    /// The observation tensors again (obs, mask, seats), nothing played.
    fn observe<'py>(&self, py: Python<'py>) -> PyResult<Out<'py>> {
        let mut guard = self.lock();
        let envs = &mut guard.envs;
        let mut batch = Batch::default();
        let looked = interruptible(py, |cancel| self.look_all(envs, &mut batch, cancel))?;
        looked.map_err(NoActionSpace::new_err)?;
        Ok(out(py, batch))
    }
}

impl VectorGame {
    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts `n` games with the first `n` seeds of the vector's stream.
    fn start_all(&self, py: Python<'_>, n: usize) -> PyResult<Batch> {
        let mut inner = self.lock();
        inner.seeds = GameRng::new(self.seed);
        let seeds: Vec<u64> = (0..n).map(|_| inner.seeds.next_u64()).collect();
        let result = interruptible(py, |cancel| -> Result<(Vec<Env>, Batch), String> {
            let mut envs = seeds
                .par_iter()
                .map(|seed| {
                    Ok(Env {
                        state: self.fresh(*seed)?,
                        legal: Vec::new(),
                    })
                })
                .collect::<Result<Vec<Env>, String>>()?;
            let mut batch = Batch {
                rewards: Vec::new(),
                done: vec![0; n],
                ..Batch::default()
            };
            self.look_all(&mut envs, &mut batch, cancel)?;
            Ok((envs, batch))
        })?;
        let (envs, batch) = result.map_err(RulesError::new_err)?;
        inner.envs = envs;
        inner.broken = false;
        Ok(batch)
    }
}
