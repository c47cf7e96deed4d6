//! Who plays each seat (`--seats`): `random`, `mcts[:BUDGET]` or
//! `ismcts[:BUDGET]`, in seat order, separated by commas; seats not
//! named are random. A budget is a number of iterations a decision
//! (`mcts:2000`, reproducible) or of seconds (`mcts:0.5s`, which is not:
//! the iterations done then depend on the machine and its load). `human` (a person at the terminal) and `remote` (a
//! network client) are read too, for `cardboard play` and `serve`;
//! [`Seats::check`] refuses them (`run` and `simulate` have no one to ask).
//!
//! ```
//! use cardboard::search::seats::{SeatKind, Seats};
//! let seats = Seats::parse("mcts:2000,random").unwrap();
//! assert_eq!(seats.kind(0), SeatKind::Mcts(2000));
//! assert_eq!(seats.kind(5), SeatKind::Random);
//! let timed = Seats::parse("ismcts:0.25s,mcts:2s").unwrap();
//! assert_eq!(timed.kind(0), SeatKind::IsmctsMillis(250));
//! assert_eq!(timed.kind(1).to_string(), "mcts:2s");
//! assert!(Seats::parse("mcts:0s").is_err());
//! assert!(Seats::parse("alphazero").is_err());
//! // People: read, but refused where no one can be asked (run, simulate).
//! let people = Seats::parse("human,remote").unwrap();
//! assert_eq!((people.kind(0), people.kind(1)), (SeatKind::Human, SeatKind::Remote));
//! assert!(people.check(2).unwrap_err().contains("human seats are for `cardboard play`"));
//! assert!(people.check_count(2).is_ok());
//! ```

use super::tree::SearchConfig;
use super::{Method, Searcher};
use crate::drivers::player_seed;
use crate::game::GameState;
use crate::player::{Player, RandomPlayer};
use crate::random::splitmix64;
use std::fmt;
use std::time::Duration;

/// Iterations per decision when a search seat names none.
pub const DEFAULT_ITERATIONS: u32 = 1_000;
/// The most iterations per decision a seat may ask for.
pub const MAX_ITERATIONS: u32 = 100_000_000;
/// The most seconds per decision a seat may ask for (a day).
pub const MAX_SECONDS: f64 = 86_400.0;

/// Milliseconds as seconds, without trailing zeros (`1500` is `1.5`).
fn seconds_text(ms: u32) -> String {
    let text = format!("{}.{:03}", ms / 1000, ms % 1000);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What plays one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatKind {
    /// Uniformly random moves (the default).
    Random,
    /// UCT Monte Carlo tree search with this many iterations a decision.
    Mcts(u32),
    /// Information-set MCTS with this many iterations a decision.
    Ismcts(u32),
    /// UCT with this many milliseconds a decision (not reproducible).
    MctsMillis(u32),
    /// Information-set MCTS with this many milliseconds a decision (not
    /// reproducible).
    IsmctsMillis(u32),
    /// A person at this terminal (`cardboard play`).
    Human,
    /// A player over the network (`cardboard serve`).
    Remote,
}

impl fmt::Display for SeatKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SeatKind::Random => write!(f, "random"),
            SeatKind::Mcts(n) => write!(f, "mcts:{n}"),
            SeatKind::Ismcts(n) => write!(f, "ismcts:{n}"),
            SeatKind::MctsMillis(ms) => write!(f, "mcts:{}s", seconds_text(*ms)),
            SeatKind::IsmctsMillis(ms) => write!(f, "ismcts:{}s", seconds_text(*ms)),
            SeatKind::Human => write!(f, "human"),
            SeatKind::Remote => write!(f, "remote"),
        }
    }
}

/// The seats named on the command line, in seat order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Seats {
    named: Vec<SeatKind>,
}

impl Seats {
    /// Every seat random (no `--seats`).
    pub fn random() -> Seats {
        Seats::default()
    }

    /// Reads `--seats`: kinds separated by commas, each `random`, `mcts`,
    /// `ismcts`, the last two with an optional `:ITERATIONS` (default
    /// [`DEFAULT_ITERATIONS`], at most [`MAX_ITERATIONS`]).
    pub fn parse(text: &str) -> Result<Seats, String> {
        let mut named = Vec::new();
        for (i, part) in text.split(',').enumerate() {
            let part = part.trim();
            let (kind, budget) = match part.split_once(':') {
                Some((k, b)) => (k.trim(), Some(b.trim())),
                None => (part, None),
            };
            // `N` iterations, or `Ss` seconds (kept in milliseconds).
            let (iterations, millis) = match budget {
                None => (DEFAULT_ITERATIONS, None),
                Some(b) => match b.strip_suffix('s') {
                    Some(secs) => match secs.trim().parse::<f64>() {
                        Ok(x) if (0.001..=MAX_SECONDS).contains(&x) => {
                            (0, Some((x * 1000.0).round() as u32))
                        }
                        _ => {
                            return Err(format!(
                                "seat {i}: `{b}` is not a number of seconds (0.001s to {MAX_SECONDS}s) in `{part}`"
                            ))
                        }
                    },
                    None => match b.parse::<u32>() {
                        Ok(n) if (1..=MAX_ITERATIONS).contains(&n) => (n, None),
                        _ => {
                            return Err(format!(
                                "seat {i}: `{b}` is not a number of iterations (1 to {MAX_ITERATIONS}) or of seconds (`2s`, `0.5s`) in `{part}`"
                            ))
                        }
                    },
                },
            };
            named.push(match kind {
                "random" if budget.is_none() => SeatKind::Random,
                "random" => {
                    return Err(format!(
                        "seat {i}: a random seat takes no budget (`{part}`)"
                    ))
                }
                "human" | "remote" if budget.is_some() => {
                    return Err(format!("seat {i}: a {kind} seat takes no budget (`{part}`)"))
                }
                "human" => SeatKind::Human,
                "remote" => SeatKind::Remote,
                "mcts" => match millis {
                    Some(ms) => SeatKind::MctsMillis(ms),
                    None => SeatKind::Mcts(iterations),
                },
                "ismcts" => match millis {
                    Some(ms) => SeatKind::IsmctsMillis(ms),
                    None => SeatKind::Ismcts(iterations),
                },
                "" => return Err(format!("seat {i} is empty in `{text}`")),
                other => {
                    return Err(format!(
                        "seat {i}: unknown kind `{other}` (expected random, mcts[:ITERATIONS | :SECONDSs], ismcts[:ITERATIONS | :SECONDSs], human or remote)"
                    ))
                }
            });
        }
        Ok(Seats { named })
    }

    /// The kind of seat `seat`.
    pub fn kind(&self, seat: usize) -> SeatKind {
        self.named.get(seat).copied().unwrap_or(SeatKind::Random)
    }

    /// Whether every seat is random.
    pub fn all_random(&self) -> bool {
        self.named.iter().all(|k| *k == SeatKind::Random)
    }

    /// Whether some seat plays ISMCTS (the game must then keep what each
    /// seat has seen, [`GameState::keep_seen`]).
    pub fn any_ismcts(&self) -> bool {
        self.named
            .iter()
            .any(|k| matches!(k, SeatKind::Ismcts(_) | SeatKind::IsmctsMillis(_)))
    }

    /// Refuses more named seats than the game has, and `human` and
    /// `remote` seats (which only `cardboard play` and `serve` can seat:
    /// they check with [`Seats::check_count`]).
    pub fn check(&self, players: usize) -> Result<(), String> {
        if let Some((i, k)) = (self.named.iter().enumerate())
            .find(|(_, k)| matches!(k, SeatKind::Human | SeatKind::Remote))
        {
            return Err(format!(
                "seat {i} is `{k}`: human seats are for `cardboard play`, remote seats for `cardboard serve`"
            ));
        }
        self.check_count(players)
    }

    /// Refuses more named seats than the game has.
    pub fn check_count(&self, players: usize) -> Result<(), String> {
        if self.named.len() > players {
            return Err(format!(
                "--seats names {} seats but the game has {players} players",
                self.named.len()
            ));
        }
        Ok(())
    }

    /// The kinds of a game's `players` seats, as text (`mcts:2000`,
    /// `random`...).
    pub fn describe(&self, players: usize) -> Vec<String> {
        (0..players.max(self.named.len()))
            .map(|p| self.kind(p).to_string())
            .collect()
    }

    /// The players of the game whose seed is `game_seed`: the random seats
    /// share one [`RandomPlayer`] seeded with [`player_seed`]`(game_seed)`
    /// (so a game without search seats is played as before), and search
    /// seat `p` has its own generator, seeded from that seed and `p`.
    /// `human` and `remote` seats are asked by whoever seats them (`play`,
    /// `serve`); asked here, they play as random seats.
    pub fn player(&self, game_seed: u64) -> SeatedPlayer {
        let base = player_seed(game_seed);
        let searchers = self
            .named
            .iter()
            .enumerate()
            .map(|(p, kind)| {
                let seed = splitmix64(base, p as u64 + 1);
                match *kind {
                    SeatKind::Random | SeatKind::Human | SeatKind::Remote => None,
                    SeatKind::Mcts(n) => Some(Searcher::new(
                        Method::Mcts,
                        SearchConfig::with_iterations(n),
                        seed,
                    )),
                    SeatKind::Ismcts(n) => Some(Searcher::new(
                        Method::Ismcts,
                        SearchConfig::with_iterations(n),
                        seed,
                    )),
                    SeatKind::MctsMillis(ms) => Some(Searcher::new(
                        Method::Mcts,
                        SearchConfig::with_time(Duration::from_millis(u64::from(ms))),
                        seed,
                    )),
                    SeatKind::IsmctsMillis(ms) => Some(Searcher::new(
                        Method::Ismcts,
                        SearchConfig::with_time(Duration::from_millis(u64::from(ms))),
                        seed,
                    )),
                }
            })
            .collect();
        SeatedPlayer {
            random: RandomPlayer::new(base),
            searchers,
        }
    }
}

/// The players of one game, each seat's decisions asked of its own.
#[derive(Clone, Debug)]
pub struct SeatedPlayer {
    random: RandomPlayer,
    searchers: Vec<Option<Searcher>>,
}

impl SeatedPlayer {
    fn searcher<S: GameState>(&mut self, state: &S) -> Option<&mut Searcher> {
        let seat = state.current_player()?;
        self.searchers.get_mut(seat)?.as_mut()
    }
}

impl<S: GameState> Player<S> for SeatedPlayer {
    fn choose(&mut self, state: &S, moves: &[S::Move]) -> usize {
        match self.searcher(state) {
            Some(s) => s.choose(state, moves),
            None => self.random.choose(state, moves),
        }
    }

    fn choose_move(&mut self, state: &S) -> Result<Option<S::Move>, String> {
        match self.searcher(state) {
            Some(s) => s.choose_move(state),
            None => Player::<S>::choose_move(&mut self.random, state),
        }
    }
}
