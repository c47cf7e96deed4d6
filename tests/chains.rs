//! `chain`: a move made of steps picked one after another, as one
//! decision (docs/language.md, 4.16). Two small games of `tests/chains/`
//! are compared with Rust readings of their rules written here:
//! `draughts.rcy` (compulsory capture chains, a man jumping while it can)
//! move by move over random games and by perft counts, and `hops.rcy`
//! (hops of 1 or 2 along a track, compulsory or with `stop`) by counts
//! worked out by hand and by perft. Also: the move's text is its steps in
//! order and reads back to the move, positions and replays keep chains,
//! the random player draws each complete chain alike, and a chain that
//! never ends is a rules error naming its limit.

use cardboard::drivers::perft::perft;
use cardboard::drivers::run::transcript;
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, Status};
use cardboard::random::GameRng;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn rules(name: &str) -> Rules {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/chains")
        .join(name);
    Rules::load(&path).unwrap_or_else(|e| panic!("{name} does not load:\n{e}"))
}

fn start(rules: &Rules, set: &[(&str, String)]) -> State {
    let options = GameOptions {
        seed: 1,
        overrides: set
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect(),
    };
    rules.start(&options).expect("the game starts")
}

// ---------------------------------------------------------------------------
// Little draughts, read in Rust.

const SIDE: i32 = 6;
const LIMIT: u32 = 40;

/// A draughts position: the men (0 none, 1 white, 2 black, by index
/// `6 * row + col`), who is to move (0 white, 1 black) and the turns
/// played.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Board {
    men: [u8; 36],
    turn: u8,
    turns: u32,
}

impl Board {
    /// The start given by the masks of `WHITES` and `BLACKS`.
    fn from_masks(whites: u64, blacks: u64) -> Board {
        let mut men = [0; 36];
        for (i, m) in men.iter_mut().enumerate() {
            if whites >> i & 1 == 1 {
                *m = 1;
            } else if blacks >> i & 1 == 1 {
                *m = 2;
            }
        }
        Board {
            men,
            turn: 0,
            turns: 0,
        }
    }

    fn count(&self, colour: u8) -> usize {
        self.men.iter().filter(|&&m| m == colour).count()
    }

    fn over(&self) -> bool {
        self.turns >= LIMIT || self.count(1) == 0 || self.count(2) == 0
    }

    fn at(&self, r: i32, c: i32) -> Option<u8> {
        ((0..SIDE).contains(&r) && (0..SIDE).contains(&c))
            .then(|| self.men[(r * SIDE + c) as usize])
    }

    fn set(&mut self, r: i32, c: i32, v: u8) {
        self.men[(r * SIDE + c) as usize] = v;
    }

    /// The position after each legal move, one per move.
    fn moves(&self) -> Vec<Board> {
        let me = self.turn + 1;
        let mut out = Vec::new();
        for i in 0..36 {
            if self.men[i] == me {
                self.captures(i as i32 / SIDE, i as i32 % SIDE, false, &mut out);
            }
        }
        if out.is_empty() {
            let forward = if me == 1 { -1 } else { 1 };
            for i in 0..36 {
                let (r, c) = (i as i32 / SIDE, i as i32 % SIDE);
                if self.men[i] != me {
                    continue;
                }
                for dc in [-1, 1] {
                    if self.at(r + forward, c + dc) == Some(0) {
                        let mut b = self.clone();
                        b.set(r, c, 0);
                        b.set(r + forward, c + dc, me);
                        out.push(b);
                    }
                }
            }
        }
        if out.is_empty() {
            out.push(self.clone());
        }
        for b in &mut out {
            b.turn = 1 - self.turn;
            b.turns = self.turns + 1;
        }
        out
    }

    /// Every complete capture chain of the man on (r, c): it jumps while it
    /// can; `jumped`: it has jumped already (a chain of none is no move).
    fn captures(&self, r: i32, c: i32, jumped: bool, out: &mut Vec<Board>) {
        let me = self.men[(r * SIDE + c) as usize];
        let mut any = false;
        for (dr, dc) in [(-1, -1), (-1, 1), (1, -1), (1, 1)] {
            let mid = self.at(r + dr, c + dc);
            let land = self.at(r + 2 * dr, c + 2 * dc);
            if land == Some(0) && mid.is_some_and(|m| m != 0 && m != me) {
                any = true;
                let mut b = self.clone();
                b.set(r, c, 0);
                b.set(r + dr, c + dc, 0);
                b.set(r + 2 * dr, c + 2 * dc, me);
                b.captures(r + 2 * dr, c + 2 * dc, true, out);
            }
        }
        if !any && jumped {
            out.push(self.clone());
        }
    }

    fn perft(&self, depth: usize, counts: &mut [u64]) {
        counts[0] += 1;
        if depth == 0 || self.over() {
            return;
        }
        for b in self.moves() {
            b.perft(depth - 1, &mut counts[1..]);
        }
    }
}

/// Reference perft counts, as `perft` gives them (nodes at each depth).
fn reference_perft(b: &Board, depth: usize) -> Vec<u64> {
    let mut counts = vec![0; depth + 1];
    b.perft(depth, &mut counts);
    counts
}

/// The engine's position read from its table (`State::describe`): the
/// men on `BOARD[r,c] vloc MAN`, the turns, who is to move.
fn board_of(s: &State) -> Board {
    let mut men = [0; 36];
    let mut turns = 0;
    let mut owner = String::new();
    for line in s.describe().lines() {
        if !line.starts_with(' ') {
            owner = line.trim_end_matches(':').to_string();
            continue;
        }
        let line = line.trim();
        if let Some(rc) = owner.strip_prefix("BOARD[") {
            if let Some(cards) = line.strip_prefix("vloc MAN (1): ") {
                let (r, c) = rc.trim_end_matches(']').split_once(',').unwrap();
                let i = r.parse::<usize>().unwrap() * 6 + c.parse::<usize>().unwrap();
                men[i] = if cards.starts_with("WHITE") { 1 } else { 2 };
            } else {
                assert!(!line.starts_with("vloc MAN"), "one man a space: {line}");
            }
        }
        if owner == "game" {
            if let Some(n) = line.strip_prefix("sto TURNS = ") {
                turns = n.parse().unwrap();
            }
        }
    }
    let turn = s.current_player().map_or(turns % 2, |p| p as u32) as u8;
    Board { men, turn, turns }
}

fn masks(whites: &[(i32, i32)], blacks: &[(i32, i32)]) -> Vec<(&'static str, String)> {
    let mask = |men: &[(i32, i32)]| men.iter().map(|(r, c)| 1u64 << (r * SIDE + c)).sum::<u64>();
    vec![
        ("WHITES", mask(whites).to_string()),
        ("BLACKS", mask(blacks).to_string()),
    ]
}

/// Two white men, on (5,0) and (5,4), each with two ways to take two
/// black men: four moves.
fn four_chains() -> Vec<(&'static str, String)> {
    masks(&[(5, 0), (5, 4)], &[(4, 1), (2, 1), (2, 3), (4, 3), (0, 5)])
}

/// A white man on (5,2) in a square of four black men: it takes them all
/// and comes back, one way round or the other.
fn square() -> Vec<(&'static str, String)> {
    masks(&[(5, 2)], &[(4, 1), (4, 3), (2, 1), (2, 3)])
}

#[test]
fn draughts_perft_matches_the_rust_reading() {
    let r = rules("draughts.rcy");
    let default = Board::from_masks(23253221376, 1386);
    assert_eq!(
        perft(&start(&r, &[]), 7).unwrap(),
        reference_perft(&default, 7)
    );
    // Crowded boards, where chains branch and run long.
    let layouts = [
        four_chains(),
        square(),
        masks(
            &[(5, 0), (5, 2), (4, 3), (5, 4)],
            &[
                (4, 1),
                (2, 1),
                (2, 3),
                (2, 5),
                (0, 1),
                (0, 3),
                (1, 4),
                (3, 4),
            ],
        ),
        masks(
            &[(3, 0), (3, 2), (3, 4), (4, 1), (4, 5), (5, 2)],
            &[(2, 1), (2, 3), (2, 5), (1, 0), (1, 2), (1, 4), (0, 3)],
        ),
    ];
    for set in layouts {
        let (w, b) = (set[0].1.parse().unwrap(), set[1].1.parse().unwrap());
        let counts = perft(&start(&r, &set), 4).unwrap();
        assert_eq!(
            counts,
            reference_perft(&Board::from_masks(w, b), 4),
            "{set:?}"
        );
    }
}

#[test]
fn every_decision_of_random_games_offers_the_reference_moves() {
    // Each legal move played on a copy gives the position the reading of
    // the rules gives, one for one; the games are played by the random
    // player (which lists a choice with a chain: see `random_move`).
    let r = rules("draughts.rcy");
    let mut chains = 0;
    let mut longest = 0;
    for seed in 0..40 {
        let mut s = r
            .start(&GameOptions {
                seed,
                overrides: vec![],
            })
            .unwrap();
        let mut rng = GameRng::new(seed);
        while s.status() == Status::Running {
            let here = board_of(&s);
            let mut engine: Vec<Board> = s
                .legal_moves()
                .iter()
                .map(|mv| {
                    let mut child = s.clone();
                    child.apply(mv).unwrap();
                    board_of(&child)
                })
                .collect();
            let mut reference = here.moves();
            engine.sort();
            reference.sort();
            assert_eq!(engine, reference, "seed {seed}, turn {}", here.turns);
            for mv in s.legal_moves() {
                let steps = mv.path.len();
                if steps > 2 {
                    chains += 1;
                    longest = longest.max(steps - 1);
                }
            }
            let mv = s.random_move(&mut rng).unwrap();
            s.apply(&mv).unwrap();
        }
        assert!(matches!(s.status(), Status::Finished), "seed {seed}");
    }
    // The games did meet chains of two captures and more.
    assert!(
        chains > 10 && longest >= 2,
        "{chains} chains, longest {longest}"
    );
}

#[test]
fn a_chain_is_one_move_whose_text_is_its_steps_in_order() {
    let r = rules("draughts.rcy");
    let s = start(&r, &square());
    let moves = s.legal_moves();
    let texts: Vec<String> = s.moves_to_text(&moves);
    // Worked out by hand: NE is tried before NW, so the first move starts
    // over (4,3); both take the four men and come back to (5,2).
    let take = |black: &str, on: &str, left: u32, from: &str, to: &str| {
        format!(
            "move BLACK-{black} BOARD[{on}] MAN -> p0 TAKEN; p1 LEFT = {left}; \
             move WHITE-S BOARD[{from}] MAN -> BOARD[{to}] MAN"
        )
    };
    let way = |steps: [(&str, &str, &str, &str); 4]| {
        let left = [3, 2, 1, 0];
        steps
            .iter()
            .zip(left)
            .map(|((b, on, from, to), l)| take(b, on, l, from, to))
            .collect::<Vec<_>>()
            .join("; ")
    };
    assert_eq!(texts.len(), 2, "{texts:#?}");
    let names = black_names(&s);
    let name = |on: &str| names[on].clone();
    assert_eq!(
        texts,
        [
            way([
                (&name("4,3"), "4,3", "5,2", "3,4"),
                (&name("2,3"), "2,3", "3,4", "1,2"),
                (&name("2,1"), "2,1", "1,2", "3,0"),
                (&name("4,1"), "4,1", "3,0", "5,2"),
            ]),
            way([
                (&name("4,1"), "4,1", "5,2", "3,0"),
                (&name("2,1"), "2,1", "3,0", "1,2"),
                (&name("2,3"), "2,3", "1,2", "3,4"),
                (&name("4,3"), "4,3", "3,4", "5,2"),
            ]),
        ],
        "{texts:#?}"
    );
    // One pick per capture; the same position after either.
    assert!(moves.iter().all(|mv| mv.path.len() == 1 + 4), "{moves:?}");
    let after: Vec<Board> = moves
        .iter()
        .map(|mv| {
            let mut child = s.clone();
            child.apply(mv).unwrap();
            assert!(matches!(child.status(), Status::Finished));
            board_of(&child)
        })
        .collect();
    assert_eq!(after[0].men, after[1].men);
    // Each text reads back to its move.
    for (mv, text) in moves.iter().zip(&texts) {
        assert_eq!(&s.move_from_text(text).unwrap(), mv);
    }
}

/// The card name of the black man on each space (`"4,3"` -> `"O"`).
fn black_names(s: &State) -> BTreeMap<String, String> {
    let mut names = BTreeMap::new();
    let mut owner = String::new();
    for line in s.describe().lines() {
        if !line.starts_with(' ') {
            owner = line.trim_end_matches(':').to_string();
        } else if let (Some(rc), Some(card)) = (
            owner.strip_prefix("BOARD["),
            line.trim().strip_prefix("vloc MAN (1): BLACK-"),
        ) {
            names.insert(rc.trim_end_matches(']').to_string(), card.to_string());
        }
    }
    names
}

#[test]
fn chains_play_the_same_compiled_and_replay_from_their_texts() {
    let r = rules("draughts.rcy");
    for seed in 0..4 {
        let options = GameOptions {
            seed,
            overrides: vec![],
        };
        let compiled = transcript(&r, &options, 100);
        assert_eq!(compiled, transcript(&r.uncompiled(), &options, 100));
        assert!(compiled.contains("; move WHITE") || compiled.contains("; move BLACK"));
        // The moves played, as text, replay the game from its start.
        let mut game = r.start(&options).unwrap();
        let mut rng = GameRng::new(seed);
        let mut texts = Vec::new();
        while game.status() == Status::Running {
            let mv = game.random_move(&mut rng).unwrap();
            texts.push(game.move_to_text(&mv));
            game.apply(&mv).unwrap();
        }
        let mut again = r.start(&options).unwrap();
        for text in &texts {
            let mv = again.move_from_text(text).unwrap();
            again.apply(&mv).unwrap();
        }
        assert_eq!(again.describe(), game.describe());
    }
}

#[test]
fn a_position_keeps_the_chains_to_come() {
    // Positions saved at every decision of a game load with the same moves
    // (texts) and the same perft counts.
    let r = rules("draughts.rcy");
    let mut game = start(&r, &[]);
    let mut rng = GameRng::new(5);
    let mut chained = 0;
    while game.status() == Status::Running {
        let loaded = r.load_position(&game.to_position()).unwrap();
        let moves = game.legal_moves();
        assert_eq!(loaded.legal_moves(), moves);
        assert_eq!(loaded.moves_to_text(&moves), game.moves_to_text(&moves));
        if moves.iter().any(|m| m.path.len() > 2) {
            chained += 1;
            assert_eq!(perft(&loaded, 3).unwrap(), perft(&game, 3).unwrap());
        }
        let mv = game.random_move(&mut rng).unwrap();
        game.apply(&mv).unwrap();
    }
    assert!(chained > 0, "the game met no chain of two captures");
}

#[test]
fn the_random_player_draws_each_complete_chain_alike() {
    // Four chains of two captures: the random player lists them and draws
    // one of the four (the same distribution as a listing player's), so
    // each comes about a quarter of the time.
    let r = rules("draughts.rcy");
    let s = start(&r, &four_chains());
    let moves = s.legal_moves();
    assert_eq!(moves.len(), 4);
    let mut rng = GameRng::new(11);
    let mut seen = vec![0; 4];
    for _ in 0..4000 {
        let mv = s.random_move(&mut rng).unwrap();
        seen[moves.iter().position(|m| *m == mv).expect("a legal move")] += 1;
    }
    // 1000 expected each, standard deviation about 27.
    assert!(seen.iter().all(|&n| (880..=1120).contains(&n)), "{seen:?}");
}

// ---------------------------------------------------------------------------
// Hops along a track, read in Rust.

/// The token's places after each move from `at` on a track of `length`
/// spaces: hops of 1 or 2 while one fits, stopping after any hop if
/// `may_stop`.
fn hops(at: usize, length: usize, may_stop: bool) -> Vec<usize> {
    fn chains(at: usize, last: usize, may_stop: bool, first: bool, out: &mut Vec<usize>) {
        if at == last {
            // No hop fits: the chain ends (a chain of none is no move).
            if !first {
                out.push(at);
            }
            return;
        }
        if may_stop && !first {
            out.push(at);
        }
        for h in [1, 2] {
            if at + h <= last {
                chains(at + h, last, may_stop, false, out);
            }
        }
    }
    let mut out = Vec::new();
    chains(at, length - 1, may_stop, true, &mut out);
    out
}

fn hops_perft(at: usize, length: usize, may_stop: bool, depth: usize, counts: &mut [u64]) {
    counts[0] += 1;
    if depth == 0 || at == length - 1 {
        return;
    }
    for to in hops(at, length, may_stop) {
        hops_perft(to, length, may_stop, depth - 1, &mut counts[1..]);
    }
}

#[test]
fn hops_count_every_chain_with_or_without_stopping() {
    let r = rules("hops.rcy");
    let set = |length: usize, may_stop: bool| {
        vec![
            ("LENGTH", length.to_string()),
            ("MAYSTOP", u8::from(may_stop).to_string()),
        ]
    };
    // On 6 spaces, by hand: a compulsory chain covers the 5 spaces in
    // hops of 1 or 2 (8 ways, the Fibonacci number F6); with `stop`, any
    // 1 to 5 spaces (1 + 2 + 3 + 5 + 8 = 19 ways).
    assert_eq!(start(&r, &set(6, false)).legal_moves().len(), 8);
    assert_eq!(start(&r, &set(6, true)).legal_moves().len(), 19);
    for length in 2..=10 {
        for may_stop in [false, true] {
            let mut counts = vec![0; 5];
            hops_perft(0, length, may_stop, 4, &mut counts);
            let game = start(&r, &set(length, may_stop));
            assert_eq!(perft(&game, 4).unwrap(), counts, "{length} {may_stop}");
        }
    }
    // Stopping is pick 0, after the first hop only: one hop then a stop
    // is [0, 0] (hop 1, stop), two hops of 1 then a stop [0, 1, 0].
    let game = start(&r, &set(6, true));
    let texts = game.moves_to_text(&game.legal_moves());
    assert_eq!(
        texts[0],
        "move RED TRACK[0] TOKEN -> TRACK[1] TOKEN; game AT = 1"
    );
    assert_eq!(game.legal_moves()[0].path.as_slice(), &[0, 0]);
    assert_eq!(game.legal_moves()[1].path.as_slice(), &[0, 1, 0]);
}

#[test]
fn a_chain_that_never_ends_is_a_rules_error_naming_its_limit() {
    // Every step leaves the collection as it was: the chain would go on
    // for ever. Exploring it stops at the bound on nesting.
    let source = r#"
(game
 (setup (create players 2))
 (stage player (end (== (game sto N) 1))
  (choice ((chain (range 1 .. 2) 'X (inc (game sto N) 'X)))))
 (scoring max 0))
"#;
    let r = Rules::from_source("endless.rcy", source).unwrap();
    for rules in [r.clone(), r.uncompiled()] {
        let e = match rules.start(&GameOptions::default()) {
            Ok(s) => format!("{:?}", s.status()),
            Err(e) => e.to_string(),
        };
        assert!(
            e.contains(
                "a move of more than 1000 steps one inside another (a `chain` of so many steps"
            ),
            "{e}"
        );
        // At the `chain` (line 5, column 12), not at its step.
        assert!(e.contains("line 5, column 12: a move"), "{e}");
    }
}

#[test]
fn a_rules_error_in_a_later_step_stops_the_game_at_the_chain() {
    // The third step's collection reads a space off the track: the game
    // stops at its first decision (listed or drawn), the error located at
    // the `chain`.
    let source = r#"
(game
 (setup (create players 2) (create board TRACK (track 2)))
 (stage player (end (== (game sto AT) 5))
  (choice ((chain (filter (range 1 .. 1) 'H (== ((space TRACK (game sto AT)) sto X) 0)) 'H
                  (inc (game sto AT) 'H)))))
 (scoring max 0))
"#;
    let r = Rules::from_source("offboard.rcy", source).unwrap();
    for rules in [r.clone(), r.uncompiled()] {
        let e = match rules.start(&GameOptions::default()) {
            Ok(s) => format!("{:?}", s.status()),
            Err(e) => e.to_string(),
        };
        assert!(e.contains("line 5, column 12: no space there"), "{e}");
    }
}

/// A token that hops one space at a time to the end of a track of
/// `length` spaces: one chain of `length - 1` steps (`stop`: or any
/// shorter one).
fn one_hop_track(length: usize, stop: bool) -> Rules {
    let stop = if stop { "stop " } else { "" };
    let source = format!(
        r#"
(game
 (setup (create players 2) (create board TRACK (track {length}))
        (create deck (game vloc BOX) (deck (COLOR (RED)))))
 (do ((move (top (game vloc BOX)) (top ((space TRACK 0) vloc TOKEN)))))
 (stage player (end (> (game sto TURNS) 0))
  (choice ((chain {stop}(filter (range 1 .. 1) 'H (onboard (space TRACK (+ (game sto AT) 'H)))) 'H
            (do ((move (top ((space TRACK (game sto AT)) vloc TOKEN))
                       (top ((space TRACK (+ (game sto AT) 'H)) vloc TOKEN)))
                 (inc (game sto AT) 'H))))))
  (do ((inc (game sto TURNS) 1))))
 (scoring max (game sto AT)))
"#
    );
    Rules::from_source("track.rcy", &source).unwrap()
}

#[test]
fn a_chain_of_990_steps_plays_and_one_of_1001_is_refused() {
    // On a test thread's stack of 2 MB: 990 steps are explored and played
    // (compiled or not); with `stop`, each of the 990 lengths is a move.
    for (stop, moves) in [(false, 1), (true, 990)] {
        let r = one_hop_track(991, stop);
        for rules in [r.clone(), r.uncompiled()] {
            let mut game = rules.start(&GameOptions::default()).unwrap();
            let legal = game.legal_moves();
            assert_eq!(legal.len(), moves);
            let longest = legal.last().unwrap();
            assert_eq!(longest.path.len(), 990);
            game.apply(longest).unwrap();
            assert_eq!(game.outcome().expect("finished").scores, vec![990, 990]);
        }
    }
    let e = match one_hop_track(1002, false).start(&GameOptions::default()) {
        Ok(s) => format!("{:?}", s.status()),
        Err(e) => e.to_string(),
    };
    assert!(
        e.contains("a move of more than 1000 steps one inside another"),
        "{e}"
    );
}
