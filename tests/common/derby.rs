//! Helpers for the Cardbot Derby scenario tests (`tests/cardbot_derby*.rs`):
//! build a position by hand from a seeded game (robots placed, their
//! programs chosen), play one round's programming in the wanted order, and
//! read the table back from `to_position()`.
#![allow(dead_code)] // each test binary uses a part

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, PlayError, Status};
use std::path::Path;
use std::sync::OnceLock;

/// The command suit of robot `i` (by `i mod 4`).
pub const SUITS: [&str; 4] = ["HEARTS", "CLUBS", "DIAMONDS", "SPADES"];
pub const RANKS: [&str; 13] = [
    "ACE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK", "QUEEN",
    "KING",
];
/// Five turns of 2+3+4+5+6 = 20 quarter turns: the robot ends the round
/// where and as it started (unless someone shoves it).
pub const STILL: [&str; 5] = ["TWO", "THREE", "FOUR", "FIVE", "SIX"];

pub fn rules() -> &'static Rules {
    static RULES: OnceLock<Rules> = OnceLock::new();
    RULES.get_or_init(|| {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/cardbot-derby.rcy");
        Rules::load(&path).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// Starts a game of seed 1 with these `--set` overrides.
pub fn start(set: &[(&str, &str)]) -> Result<State, PlayError> {
    let overrides = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    rules().start(&GameOptions { seed: 1, overrides })
}

/// One robot of a hand-built position.
#[derive(Clone, Debug)]
pub struct Bot {
    pub row: i64,
    pub col: i64,
    pub facing: &'static str,
    /// The five commands of the round, first first (ranks: `"ACE"`, ...).
    pub program: Vec<&'static str>,
    /// Targets already reached: their command cards lie under the targets.
    pub won: Vec<&'static str>,
}

/// A robot at (row, col) facing `facing`, with this program.
pub fn bot(row: i64, col: i64, facing: &'static str, program: &[&'static str]) -> Bot {
    assert_eq!(program.len(), 5, "a program is five commands");
    Bot {
        row,
        col,
        facing,
        program: program.to_vec(),
        won: Vec::new(),
    }
}

/// A robot that stays where it is: four turns summing to a whole turn.
pub fn still(row: i64, col: i64) -> Bot {
    bot(row, col, "N", &STILL)
}

/// The first three words of a line ("OWNER KIND NAME"): two lines with
/// the same key are about the same location or storage.
fn key(line: &str) -> String {
    if line.starts_with("chance ") {
        return "chance".to_string();
    }
    let words: Vec<&str> = line.split_whitespace().take(3).collect();
    words.join(" ").trim_end_matches(':').to_string()
}

/// The position of a seeded game with `set`, at its first decision, with
/// the robots, their programs and piles replaced by `bots`, and any line of
/// `extra` replacing the line about the same location or storage.
pub fn position(set: &[(&str, &str)], bots: &[Bot], extra: &[&str]) -> String {
    let base = start(set).expect("the game starts").to_position();
    let n = base.lines().filter(|l| l.contains(" str ID = ")).count();
    assert_eq!(bots.len(), n, "one Bot per robot");
    let nump: usize = base
        .lines()
        .find_map(|l| l.strip_prefix("set NUMP="))
        .unwrap()
        .parse()
        .unwrap();
    let mut out: Vec<String> = Vec::new();
    let mut new: Vec<String> = Vec::new();
    let mut won: Vec<(&str, Vec<String>)> = vec![
        ("JACK", Vec::new()),
        ("QUEEN", Vec::new()),
        ("KING", Vec::new()),
    ];
    let mut scores = vec![0usize; nump];
    for (i, b) in bots.iter().enumerate() {
        let id = storage(&base, &format!("ROBOTS[{i}] str ID")).unwrap();
        let suit = SUITS[i % 4];
        let card = |r: &str| format!("{suit}-{r}");
        new.push(format!("GRID[{},{}] vloc ROBOT: {id}", b.row, b.col));
        new.push(format!("ROBOTS[{i}] sto ROW = {}", b.row));
        new.push(format!("ROBOTS[{i}] sto COL = {}", b.col));
        new.push(format!("ROBOTS[{i}] str FACING = {}", b.facing));
        let rest: Vec<String> = RANKS
            .iter()
            .filter(|r| !b.program.contains(r) && !b.won.contains(r))
            .map(|r| card(r))
            .collect();
        let prog: Vec<String> = b.program.iter().map(|r| card(r)).collect();
        if i == 0 {
            // The first decision is robot 0's: its program is in p0's hand.
            new.push(format!("p0 iloc HAND: {}", prog.join(" ")));
            new.push(format!("ROBOTS[0] hloc PILE: {}", rest.join(" ")));
        } else {
            let pile = [prog, rest].concat();
            new.push(format!("ROBOTS[{i}] hloc PILE: {}", pile.join(" ")));
        }
        for (t, cards) in won.iter_mut() {
            if b.won.contains(t) {
                cards.push(card(t));
            }
        }
        let next = b.won.len();
        new.push(format!("ROBOTS[{i}] sto NEXT = {next}"));
        let want = ["JACK", "QUEEN", "KING", "DONE"][next];
        new.push(format!("ROBOTS[{i}] str WANT = {want}"));
        if !is_house(&base, i) {
            scores[i % nump] = scores[i % nump].max(next);
        }
    }
    for (target, cards) in &won {
        let space = match *target {
            "JACK" => "GRID[3,3]",
            "QUEEN" => "GRID[6,3]",
            _ => "GRID[0,3]",
        };
        if !cards.is_empty() {
            new.push(format!("{space} vloc WON: {}", cards.join(" ")));
        }
    }
    for (p, s) in scores.iter().enumerate() {
        new.push(format!("p{p} sto SCORE = {s}"));
    }
    new.extend(extra.iter().map(|l| l.to_string()));
    let replaced: Vec<String> = new.iter().map(|l| key(l)).collect();
    for line in base.lines() {
        let robot_piece = line.starts_with("GRID[") && line.contains(" vloc ROBOT");
        if robot_piece || replaced.contains(&key(line)) {
            continue;
        }
        out.push(line.to_string());
    }
    out.extend(new);
    out.join("\n") + "\n"
}

/// Loads a position built by [`position`].
pub fn load(text: &str) -> State {
    rules()
        .load_position(text)
        .unwrap_or_else(|e| panic!("the position does not load: {e}\n{text}"))
}

/// The texts of the legal moves.
pub fn moves(state: &State) -> Vec<String> {
    state
        .legal_moves()
        .iter()
        .map(|m| state.move_to_text(m))
        .collect()
}

/// Plays the legal move whose text contains `part` (exactly one must).
pub fn play(state: &mut State, part: &str) {
    let all = moves(state);
    let found: Vec<&String> = all.iter().filter(|t| t.contains(part)).collect();
    assert_eq!(found.len(), 1, "one move containing {part:?} among {all:?}");
    let mv = state.move_from_text(found[0]).unwrap();
    state.apply(&mv).unwrap();
}

/// Whether robot `i` is the house robot (three players).
pub fn is_house(text: &str, i: usize) -> bool {
    storage(text, &format!("ROBOTS[{i}] sto HOUSE")).as_deref() == Some("1")
}

/// Plays one round's programming: robot by robot, its owner (seat `i` mod
/// the number of players) gives it its program, first command first (four
/// decisions; the fifth card is left over). The house robot takes its
/// cards as they come. The round then resolves up to the next decision: a
/// ping, or the next round's programming (or the end of the game).
pub fn program(state: &mut State, bots: &[Bot]) {
    let text = state.to_position();
    let nump = state.num_players();
    for (i, bot) in bots.iter().enumerate() {
        if is_house(&text, i) {
            continue;
        }
        let suit = SUITS[i % 4];
        for _ in 0..4 {
            assert_eq!(state.current_player(), Some(i % nump), "robot {i}'s owner");
            let all = moves(state);
            assert!(
                all.iter().all(|t| t.contains(" HAND -> ")),
                "robot {i}'s programming: {all:?}"
            );
            let next = bot
                .program
                .iter()
                .map(|r| format!("move {suit}-{r} "))
                .find(|c| all.iter().any(|t| t.starts_with(c.as_str())))
                .expect("a card of the program still in hand");
            play(state, &next);
        }
    }
}

/// Builds the position, loads it, plays the programming of one round.
pub fn round(set: &[(&str, &str)], bots: &[Bot], extra: &[&str]) -> State {
    let mut state = load(&position(set, bots, extra));
    program(&mut state, bots);
    state
}

/// A storage's value (or a location's cards) in a position text, by its
/// "OWNER KIND NAME".
pub fn storage(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|l| {
        (key(l) == name).then(|| {
            let (_, v) = l.split_once(if l.contains(" = ") { " = " } else { ": " })?;
            Some(v.trim().to_string())
        })?
    })
}

/// A storage of the game now ("ROBOTS[0] str WANT"); `""` when unset.
pub fn get(state: &State, name: &str) -> String {
    storage(&state.to_position(), name).unwrap_or_default()
}

/// The cards of a location now ("GRID[3,3] vloc WON"), top first.
pub fn cards(state: &State, name: &str) -> Vec<String> {
    get(state, name)
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Where robot `i` is and which way it faces, as "(row,col) FACING". Its
/// storages and its piece on the grid must agree.
pub fn place(state: &State, i: usize) -> String {
    let text = state.to_position();
    let int = |n: &str| storage(&text, &format!("ROBOTS[{i}] sto {n}")).unwrap_or("0".into());
    let (row, col) = (int("ROW"), int("COL"));
    let facing = storage(&text, &format!("ROBOTS[{i}] str FACING")).unwrap();
    let id = storage(&text, &format!("ROBOTS[{i}] str ID")).unwrap();
    let piece = storage(&text, &format!("GRID[{row},{col}] vloc ROBOT"));
    assert_eq!(piece, Some(id), "robot {i}'s piece lies on ({row},{col})");
    format!("({row},{col}) {facing}")
}

/// The places of robots 0, 1, ... (see [`place`]).
pub fn places(state: &State) -> Vec<String> {
    let n = state
        .to_position()
        .lines()
        .filter(|l| l.contains(" str ID = "))
        .count();
    (0..n).map(|i| place(state, i)).collect()
}

/// Asserts the game is at the next round's programming (robot 0's).
pub fn at_next_round(state: &State) {
    assert_eq!(state.status(), Status::Running);
    assert_eq!(state.current_player(), Some(0));
    assert!(moves(state)
        .iter()
        .all(|t| t.contains("p0 HAND -> p0 PROG")));
}
