//! A toy game for the tests of the drivers, so they do not depend on the
//! engine.
//!
//! It is Nim with chance: a pile of `PILE` stones (plus 0..=`EXTRA`
//! more, drawn from the seed); players take 1 or 2 stones in turn; with
//! `GUST=1` a stone may blow away after each move (chance during play).
//! A player's score is the stones they took; the best score wins, equal best
//! scores tie. `STOPAT`, `FAILAT`, `PANICAT` make the game stop, fail or
//! panic at a given decision, to test how drivers count those.

use cardboard::drivers::Ruleset;
use cardboard::engine::GameOptions;
use cardboard::game::{GameState, Outcome, PlayError, Status};
use cardboard::random::{below, GameRng};

#[derive(Clone, Debug, Default)]
pub struct Toy;

#[derive(Clone, Debug)]
pub struct Nim {
    pile: u32,
    taken: Vec<i64>,
    to_move: usize,
    decisions: u32,
    rng: GameRng,
    gust: bool,
    stop_at: u32,
    fail_at: u32,
    panic_at: u32,
}

impl Ruleset for Toy {
    type State = Nim;
    fn start(&self, options: &GameOptions) -> Result<Nim, PlayError> {
        let mut settings = [("PILE", 4), ("EXTRA", 0), ("PLAYERS", 2)]
            .into_iter()
            .chain([("GUST", 0), ("STOPAT", 0), ("FAILAT", 0), ("PANICAT", 0)])
            .collect::<Vec<(&str, u32)>>();
        for (name, value) in &options.overrides {
            let slot = settings
                .iter_mut()
                .find(|(n, _)| n == name)
                .ok_or_else(|| PlayError::Rules(format!("unknown constant `{name}`")))?;
            slot.1 = value
                .parse()
                .map_err(|_| PlayError::Rules(format!("`{name}` wants a number")))?;
        }
        let get = |name: &str| settings.iter().find(|(n, _)| *n == name).unwrap().1;
        let mut rng = GameRng::new(options.seed);
        let extra = below(&mut rng, get("EXTRA") as usize + 1) as u32;
        Ok(Nim {
            pile: get("PILE") + extra,
            taken: vec![0; get("PLAYERS") as usize],
            to_move: 0,
            decisions: 0,
            rng,
            gust: get("GUST") == 1,
            stop_at: get("STOPAT"),
            fail_at: get("FAILAT"),
            panic_at: get("PANICAT"),
        })
    }
    fn describe(&self, s: &Nim) -> String {
        format!("pile: {}\ntaken: {:?}\n", s.pile, s.taken)
    }
}

impl GameState for Nim {
    type Move = u32;
    /// The state before the move (Nim is small: a copy takes it back).
    type Undo = Nim;
    fn apply_undoable(&mut self, mv: &u32) -> Result<Nim, PlayError> {
        let before = self.clone();
        match self.apply(mv) {
            Ok(()) => Ok(before),
            Err(e) => {
                *self = before;
                Err(e)
            }
        }
    }
    fn undo(&mut self, undo: Nim) {
        *self = undo;
    }
    fn num_players(&self) -> usize {
        self.taken.len()
    }
    fn current_player(&self) -> Option<usize> {
        (self.status() == Status::Running).then_some(self.to_move)
    }
    fn decisions(&self) -> u64 {
        u64::from(self.decisions)
    }
    fn status(&self) -> Status {
        if self.stop_at > 0 && self.decisions >= self.stop_at {
            Status::Stopped("stage `take` looped 1000 steps without a decision".into())
        } else if self.pile == 0 {
            Status::Finished
        } else {
            Status::Running
        }
    }
    fn legal_moves(&self) -> Vec<u32> {
        if self.status() != Status::Running {
            return Vec::new();
        }
        (1..=self.pile.min(2)).collect()
    }
    fn apply(&mut self, mv: &u32) -> Result<(), PlayError> {
        if self.status() != Status::Running {
            return Err(PlayError::GameOver);
        }
        if !self.legal_moves().contains(mv) {
            return Err(PlayError::IllegalMove(self.move_to_text(mv)));
        }
        self.decisions += 1;
        if self.decisions == self.fail_at {
            return Err(PlayError::Rules("division by zero in stage `take`".into()));
        }
        if self.decisions == self.panic_at {
            panic!("toy engine bug");
        }
        self.pile -= mv;
        self.taken[self.to_move] += i64::from(*mv);
        if self.gust && self.pile > 0 && below(&mut self.rng, 2) == 1 {
            self.pile -= 1;
        }
        self.to_move = (self.to_move + 1) % self.taken.len();
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        if self.status() != Status::Finished {
            return None;
        }
        let best = *self.taken.iter().max()?;
        let winners = (0..self.taken.len())
            .filter(|&p| self.taken[p] == best)
            .collect();
        Some(Outcome {
            scores: self.taken.clone(),
            winners,
        })
    }
    fn observation(&self, _player: usize) -> String {
        Toy.describe(self)
    }
    fn move_to_text(&self, mv: &u32) -> String {
        format!("take {mv}")
    }
    fn move_from_text(&self, text: &str) -> Result<u32, PlayError> {
        text.trim_start_matches("take ")
            .parse()
            .map_err(|_| PlayError::IllegalMove(text.to_string()))
    }
}
