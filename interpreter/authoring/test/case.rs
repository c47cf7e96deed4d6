//! Running one case of a tests file: its game started (seed and settings,
//! or a position), its moves played as commands
//! ([`CommandedGame`], as `play --moves` and a server play them), what it
//! records written as the snapshot's sections, what it expects checked.

use super::parse::{Case, Expect, Position, Record, Step, StepKind};
use crate::command::{Command, CommandedGame};
use crate::drivers::perft::perft_each;
use crate::drivers::run::run_seated;
use crate::drivers::FromPosition;
use crate::engine::{GameOptions, Rules, State};
use crate::game::{GameState, Outcome, Status};
use crate::loading::{read_text, MAX_DATA_BYTES};
use crate::search::seats::Seats;
use std::path::Path;

/// A case run.
#[derive(Clone, Debug, Default)]
pub struct CaseRun {
    /// The snapshot's body: each record's section (empty when the case
    /// records nothing).
    pub body: String,
    /// Each section: its first line in `body` (from 0) and the line of
    /// its directive in the tests file.
    pub sections: Vec<(usize, usize)>,
    /// What failed, each with its line in the tests file.
    pub failures: Vec<(usize, String)>,
}

/// The case's game and what it has come to.
struct Run<'a> {
    rules: &'a Rules,
    case: &'a Case,
    game: Option<CommandedGame<State>>,
    /// Whether the game was started at the beginning with the case's seed
    /// and settings, no move played yet (a transcript is then `run`'s).
    fresh: bool,
    plays: usize,
    /// A rules error not yet expected: its line and message.
    pending: Option<(usize, String)>,
    /// The rules error last expected (`expect error`), for the next
    /// `expect error`.
    met: Option<(usize, String)>,
    out: CaseRun,
}

/// Runs `case` on `rules`; a position file is found from `dir`.
pub fn run_case(rules: &Rules, dir: &Path, case: &Case) -> CaseRun {
    let mut run = Run {
        rules,
        case,
        game: None,
        fresh: case.position.is_none(),
        plays: 0,
        pending: None,
        met: None,
        out: CaseRun::default(),
    };
    match start(rules, dir, case) {
        Ok(state) => run.game = Some(CommandedGame::new(state)),
        Err(why) => run.pending = Some((case.line, why)),
    }
    for step in &case.steps {
        if let Some((line, why)) = &run.pending {
            if !matches!(step.kind, StepKind::Expect(Expect::Error(_))) {
                let failure = (*line, format!("the game failed: {why}"));
                run.out.failures.push(failure);
                return run.out;
            }
        }
        if !matches!(step.kind, StepKind::Expect(Expect::Error(_))) {
            run.met = None;
        }
        if let Err(why) = run.step(step) {
            run.out.failures.push((step.line, why));
            if matches!(step.kind, StepKind::Play(_)) {
                // The moves after it would be played from another table.
                return run.out;
            }
        }
    }
    if let Some((line, why)) = run.pending.take() {
        run.out
            .failures
            .push((line, format!("the game failed: {why}")));
    }
    run.out
}

/// The case's game at its start.
fn start(rules: &Rules, dir: &Path, case: &Case) -> Result<State, String> {
    let text = match &case.position {
        None => {
            let options = GameOptions {
                seed: case.seed,
                overrides: case.set.clone(),
            };
            let state = rules.start(&options).map_err(|e| e.to_string())?;
            if case.edits.is_empty() {
                return Ok(state);
            }
            state.to_position()
        }
        Some(Position::Inline(text)) => text.clone(),
        Some(Position::File(path)) => {
            let path = dir.join(path);
            read_text(&path, MAX_DATA_BYTES, "a position")
                .map_err(|e| format!("cannot read the position {}: {e}", path.display()))?
        }
    };
    let text = edit(&text, &case.edits);
    rules.load_position(&text).map_err(|e| {
        if e.line > 0 {
            format!("the position, line {}: {}", e.line, e.message)
        } else {
            format!("the position: {}", e.message)
        }
    })
}

/// `text`, a position, with `edits` made: each replaces the line about
/// the same location or storage ([`key`]), or is added at the end; one
/// that ends with `:` and nothing after removes that line.
fn edit(text: &str, edits: &[String]) -> String {
    if edits.is_empty() {
        return text.to_string();
    }
    let keys: Vec<String> = edits.iter().map(|l| key(l)).collect();
    let mut out: Vec<&str> = text.lines().filter(|l| !keys.contains(&key(l))).collect();
    out.extend(
        edits
            .iter()
            .map(|l| l.trim())
            .filter(|l| !l.ends_with(':') || l.contains(": ")),
    );
    out.join("\n") + "\n"
}

/// What a position's line is about: the location or storage before `: `
/// or ` = ` (a count of cards left out), `set NAME` for a setting, else
/// the first word (`frames`, `cycles`, `chance`).
fn key(line: &str) -> String {
    let line = line.trim();
    if let Some(name) = line.strip_prefix("set ") {
        return format!("set {}", name.split('=').next().unwrap_or("").trim());
    }
    let cut = [": ", " = "]
        .iter()
        .filter_map(|sep| line.find(sep))
        .min()
        .or_else(|| line.ends_with(':').then(|| line.len() - 1));
    match cut {
        Some(at) => {
            let name = &line[..at];
            match name.rsplit_once(" (") {
                Some((bare, count)) if count.ends_with(')') => bare.to_string(),
                _ => name.to_string(),
            }
        }
        None => line.split_whitespace().next().unwrap_or("").to_string(),
    }
}

impl Run<'_> {
    /// The game, or why there is none.
    fn game(&self) -> Result<&CommandedGame<State>, String> {
        self.game
            .as_ref()
            .ok_or_else(|| "the game did not start".to_string())
    }

    fn step(&mut self, step: &Step) -> Result<(), String> {
        match &step.kind {
            StepKind::Play(text) => self.play(step.line, text),
            StepKind::Record(record) => {
                let text = self.record(record)?;
                let title = self.title(record);
                let out = &mut self.out;
                if !out.body.is_empty() {
                    out.body.push('\n');
                }
                out.sections.push((out.body.lines().count(), step.line));
                out.body.push_str(&format!("== {title} ==\n"));
                out.body.push_str(text.trim_end());
                out.body.push('\n');
                Ok(())
            }
            StepKind::Expect(expect) => self.expect(expect),
        }
    }

    /// A section's title: the directive, and the moves played before it.
    fn title(&self, record: &Record) -> String {
        let what = match record {
            Record::Moves => "moves".to_string(),
            Record::Observation(seat) => format!("observation {seat}"),
            Record::Table => "table".to_string(),
            Record::Outcome => "outcome".to_string(),
            Record::Transcript(max) => format!("transcript {max}"),
            Record::Perft(depth) => format!("perft {depth}"),
        };
        match self.plays {
            0 => what,
            1 => format!("{what}, after 1 play"),
            n => format!("{what}, after {n} plays"),
        }
    }

    fn play(&mut self, line: usize, text: &str) -> Result<(), String> {
        let mv =
            find_move(self.game()?, text).ok_or_else(|| not_legal(self.game.as_ref(), text))?;
        let Some(game) = self.game.as_mut() else {
            return Err("the game did not start".to_string());
        };
        self.plays += 1;
        self.fresh = false;
        match game.play_move(&mv) {
            Ok(()) => Ok(()),
            Err(crate::command::CommandError::Rules(why)) => {
                self.pending = Some((line, why));
                Ok(())
            }
            Err(e) => Err(format!("`{text}`: {e}")),
        }
    }

    fn record(&mut self, record: &Record) -> Result<String, String> {
        let game = self.game()?;
        let state = game.state();
        Ok(match record {
            Record::Moves => moves_text(game),
            Record::Observation(seat) => {
                if *seat >= state.num_players() {
                    return Err(format!(
                        "there is no seat {seat}: the game has {} (0 to {})",
                        state.num_players(),
                        state.num_players() - 1
                    ));
                }
                state.observation(*seat)
            }
            Record::Table => state.describe(),
            Record::Outcome => outcome_text(state),
            Record::Transcript(max) => {
                let seats = Seats::random();
                if self.fresh {
                    let options = GameOptions {
                        seed: self.case.seed,
                        overrides: self.case.set.clone(),
                    };
                    run_seated(self.rules, &options, *max, &seats).0.text
                } else {
                    let options = GameOptions {
                        seed: self.case.seed,
                        overrides: state.settings(),
                    };
                    let from = FromPosition::new(state.clone());
                    run_seated(&from, &options, *max, &seats).0.text
                }
            }
            Record::Perft(depth) => {
                let mut table = String::new();
                let run = perft_each(state, *depth, 1, false, |line| {
                    table.push_str(line);
                    true
                });
                match run {
                    Ok(_) => table,
                    Err(e) => return Err(format!("perft: {e}")),
                }
            }
        })
    }

    fn expect(&mut self, expect: &Expect) -> Result<(), String> {
        if let Expect::Error(words) = expect {
            // A second `expect error` checks the same error again.
            let pending = self.pending.take().or_else(|| self.met.take());
            if let Some((line, why)) = &pending {
                self.met = Some((*line, why.clone()));
            }
            return match pending {
                Some((_, why)) if why.contains(words.as_str()) => Ok(()),
                Some((line, why)) => Err(format!(
                    "expected a rules error saying `{words}`; the error on line {line} says: {why}"
                )),
                None => Err(format!(
                    "expected a rules error saying `{words}`, but the game {}",
                    self.game()
                        .map_or("did not start".into(), |g| describe_status(g.state()))
                )),
            };
        }
        let game = self.game()?;
        let state = game.state();
        match expect {
            Expect::Legal(text) => match find_move(game, text) {
                Some(_) => Ok(()),
                None => Err(format!(
                    "expected `{text}` to be legal: {}",
                    not_legal(Some(game), text)
                )),
            },
            Expect::Illegal(text) => match find_move(game, text) {
                None => Ok(()),
                Some(_) => Err(format!(
                    "expected `{text}` to be illegal, but it is a legal move"
                )),
            },
            Expect::Turn(seat) => {
                let turn = state.current_player();
                if turn == *seat {
                    return Ok(());
                }
                let seat = seat.map_or("nobody".into(), |s| format!("player {s}"));
                Err(format!(
                    "expected {seat} to play, but the game {}",
                    describe_status(state)
                ))
            }
            Expect::Winners(seats) => {
                let Some(outcome) = state.outcome() else {
                    return Err(format!(
                        "expected the game to be over, but it {}",
                        describe_status(state)
                    ));
                };
                let mut want = seats.clone();
                want.sort_unstable();
                let mut got = outcome.winners.clone();
                got.sort_unstable();
                if want == got {
                    Ok(())
                } else {
                    Err(format!(
                        "expected winners {}, but they are {}",
                        seats_text(&want),
                        seats_text(&got)
                    ))
                }
            }
            Expect::Score(seat, score) => {
                let outcome = state.outcome().or_else(|| state.score_now());
                let Some(outcome) = outcome else {
                    return Err("the game cannot be scored now".to_string());
                };
                match outcome.scores.get(*seat) {
                    Some(s) if s == score => Ok(()),
                    Some(s) => Err(format!("expected player {seat} to score {score}, not {s}")),
                    None => Err(format!("there is no seat {seat}")),
                }
            }
            Expect::PositionLine(line) => {
                let position = state.to_position();
                let want = uncounted(line.trim());
                if position.lines().any(|l| uncounted(l.trim()) == want) {
                    return Ok(());
                }
                // A line the position leaves out when it holds the value
                // of its absence (docs/positions.md): `sto X = 0`, `str X
                // =`, a location with no card.
                let about = key(line);
                let absent = !position.lines().any(|l| key(l) == about);
                if absent && is_absence(line.trim()) {
                    return Ok(());
                }
                // The lines about the same place, to show what is there.
                let key: String = line
                    .split([':', '='])
                    .next()
                    .unwrap_or("")
                    .trim()
                    .to_string();
                let near: Vec<&str> = position
                    .lines()
                    .filter(|l| !key.is_empty() && l.starts_with(key.as_str()))
                    .collect();
                Err(match near.as_slice() {
                    [] => format!("the position has no line `{line}` (nor any about `{key}`)"),
                    _ => format!(
                        "the position has no line `{line}`; it has:\n  {}",
                        near.join("\n  ")
                    ),
                })
            }
            Expect::Error(_) => Ok(()),
        }
    }
}

/// The legal move `text` names now: its id in `moves`, its text as the
/// player to move reads it, or its whole text ([`GameState::move_from_text`]).
fn find_move(game: &CommandedGame<State>, text: &str) -> Option<<State as GameState>::Move> {
    let state = game.state();
    state.current_player()?;
    let command = Command {
        decision: game.decision(),
        mv: text.to_string(),
    };
    if let Ok(mv) = game.resolve(None, &command) {
        return Some(mv);
    }
    let mv = state.move_from_text(text).ok()?;
    state.legal_moves().contains(&mv).then_some(mv)
}

/// Why `text` is not a legal move now, with the moves that are.
fn not_legal(game: Option<&CommandedGame<State>>, text: &str) -> String {
    let Some(game) = game else {
        return "the game did not start".to_string();
    };
    if game.state().current_player().is_none() {
        return format!(
            "`{text}` cannot be played: the game {}",
            describe_status(game.state())
        );
    }
    format!(
        "`{text}` is not a legal move now; the legal moves are:\n{}",
        moves_text(game).trim_end()
    )
}

/// The legal moves, one a line (`  ID: TEXT`), after who is to play.
fn moves_text(game: &CommandedGame<State>) -> String {
    let state = game.state();
    let Some(seat) = state.current_player() else {
        return format!("no moves: the game {}\n", describe_status(state));
    };
    let mut out = format!("player {seat} to play\n");
    for (id, text) in game.move_texts().iter().enumerate() {
        out.push_str(&format!("  {id}: {text}\n"));
    }
    out
}

/// How the game stands, and its result once over.
fn outcome_text(state: &State) -> String {
    let mut out = format!("the game {}\n", describe_status(state));
    if let Some(Outcome { scores, winners }) = state.outcome() {
        let scores: Vec<String> = scores
            .iter()
            .enumerate()
            .map(|(p, s)| format!("player {p}: {s}"))
            .collect();
        out.push_str(&format!("scores: {}\n", scores.join(", ")));
        out.push_str(&format!("winners: {}\n", seats_text(&winners)));
    }
    out
}

/// Where the game stands, as the end of a sentence ("the game ...").
fn describe_status(state: &State) -> String {
    match state.status() {
        Status::Running => match state.current_player() {
            Some(p) => format!("runs, player {p} to play"),
            None => "runs".to_string(),
        },
        Status::Finished => "is finished".to_string(),
        Status::Stopped(why) => format!("was stopped: {why}"),
        Status::Failed(why) => format!("failed: {why}"),
    }
}

fn seats_text(seats: &[usize]) -> String {
    if seats.is_empty() {
        return "none".to_string();
    }
    let names: Vec<String> = seats.iter().map(|p| format!("player {p}")).collect();
    names.join(", ")
}

/// A position's line without the count of a location's cards
/// (`p0 iloc HAND (2): A B` as `p0 iloc HAND: A B`), so that a line may be
/// written with the count or without.
fn uncounted(line: &str) -> String {
    let Some((key, cards)) = line.split_once(": ") else {
        return line.to_string();
    };
    match key.rsplit_once(" (") {
        Some((name, count))
            if count.ends_with(')') && count[..count.len() - 1].parse::<u64>().is_ok() =>
        {
            format!("{name}: {cards}")
        }
        _ => line.to_string(),
    }
}

/// Whether a position's line says what its absence says: an integer
/// storage at 0, a string storage empty, a location without cards.
fn is_absence(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    match words.as_slice() {
        [_, "sto", _, "=", "0"] | [_, "str", _, "="] => true,
        [_, _, name] => name.ends_with(':'),
        _ => false,
    }
}
