//! Hex boards, `group` over given directions and `line`, against an
//! independent reading: seeded games place stones of random colours on
//! hex boards of several shapes (a board of at most 128 spaces, one of
//! more, wrapped ones), and after each placement the rules record the
//! group of the new stone (over the six neighbours, along its row, over
//! two axes), its neighbours as `around` bits, how far lines of its colour
//! run from it, and whether its group reaches the top row; the test works
//! each out again from the stones on the table with its own hex geometry
//! and compares. Every game is played by the compiled rules and by the
//! evaluator (`Rules::uncompiled`, which searches one space at a time).

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, Status};
use cardboard::random::{below, GameRng};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The rules: stones of shuffled colours placed one per turn on the
/// board `shape`; facts about the new stone recorded in game storages.
fn rules(shape: &str, pairs: u32) -> Rules {
    let same = "(== (cardatt COLOR (top ('V vloc STONE))) 'C)";
    let src = format!(
        "(game
          (setup (create players 2) (create board HEX {shape})
                 (repeat {pairs} (create deck (game vloc STONES) (deck (COLOR (BLACK, WHITE))))))
          (shuffle (game vloc STONES))
          (stage player (end (== (size (game vloc STONES)) 0))
           (choice
            ((any (spaces HEX) 'S
                  ((== (size ('S vloc STONE)) 0)
                   (move (top (game vloc STONES)) (top ('S vloc STONE)))))))
           (let (where (last moved)) 'H
            (let (cardatt COLOR (top ('H vloc STONE))) 'C
             (do ((set (game sto GROUP) (size (group 'H 'V {same})))
                  (set (game sto ROW) (size (group 'H (E, W) 'V {same})))
                  (set (game sto AXES) (size (group 'H (NE, SW, E, W) 'V {same})))
                  (let (group 'H 'V {same}) 'G
                       (set (game sto SPAN) (+ (* 100 (rows 'G)) (cols 'G))))
                  (set (game sto FREE) (around 'H 'V (== (size ('V vloc STONE)) 0)))
                  (set (game sto SAME) (around 'H 'V {same}))
                  (set (game sto LINE) (+ (size (line 'H E 'V {same}))
                                          (* 100 (size (line 'H SW 'V {same})))))
                  (set (game sto OPEN) (size (line 'H NW 'V (== (size ('V vloc STONE)) 0))))
                  (set (game sto TOP) 0)
                  ((any (group 'H 'V {same}) 'X (== (row 'X) 0)) (set (game sto TOP) 1))
                  (set (game sto LOW) 0)
                  ((all (group 'H (NW, SE) 'V {same}) 'X (> (row 'X) 1)) (set (game sto LOW) 1)))))))
          (scoring max 0))"
    );
    Rules::from_source("hex.rcy", &src).unwrap_or_else(|e| panic!("{}", e.render()))
}

/// A hex board as the test sees it: sizes, wrapping, and the colour of
/// the stone on each space.
struct Board {
    rows: i64,
    cols: i64,
    wrap_rows: bool,
    wrap_cols: bool,
    stones: BTreeMap<(i64, i64), String>,
}

/// The six directions of a hex board in axial coordinates, by name.
fn delta(dir: &str) -> (i64, i64) {
    match dir {
        "E" => (0, 1),
        "W" => (0, -1),
        "NE" => (-1, 1),
        "NW" => (-1, 0),
        "SE" => (1, 0),
        "SW" => (1, -1),
        _ => unreachable!("not a hex direction: {dir}"),
    }
}

/// `around`'s order: clockwise from north-east.
const AROUND: [&str; 6] = ["NE", "E", "SE", "SW", "W", "NW"];

impl Board {
    fn step(&self, (r, c): (i64, i64), dir: &str) -> Option<(i64, i64)> {
        let (dr, dc) = delta(dir);
        let (mut r, mut c) = (r + dr, c + dc);
        if self.wrap_rows {
            r = r.rem_euclid(self.rows);
        }
        if self.wrap_cols {
            c = c.rem_euclid(self.cols);
        }
        ((0..self.rows).contains(&r) && (0..self.cols).contains(&c)).then_some((r, c))
    }

    fn colour(&self, at: (i64, i64)) -> Option<&str> {
        self.stones.get(&at).map(String::as_str)
    }

    /// The spaces connected to `from` over `dirs` through stones of its
    /// colour.
    fn group(&self, from: (i64, i64), dirs: &[&str]) -> BTreeSet<(i64, i64)> {
        let colour = self.colour(from);
        let mut seen = BTreeSet::from([from]);
        let mut queue = VecDeque::from([from]);
        while let Some(at) = queue.pop_front() {
            for d in dirs {
                if let Some(n) = self.step(at, d) {
                    if self.colour(n) == colour && seen.insert(n) {
                        queue.push_back(n);
                    }
                }
            }
        }
        seen
    }

    /// The bits of `around`: neighbour k where `hit` holds.
    fn around(&self, at: (i64, i64), hit: impl Fn(Option<&str>) -> bool) -> i64 {
        AROUND
            .iter()
            .enumerate()
            .filter(|(_, d)| self.step(at, d).is_some_and(|n| hit(self.colour(n))))
            .map(|(k, _)| 1 << k)
            .sum()
    }

    /// How many spaces after `from` in `dir` satisfy `hit`, one after
    /// the other (never `from` again on a wrapped axis).
    fn line(&self, from: (i64, i64), dir: &str, hit: impl Fn(Option<&str>) -> bool) -> i64 {
        let (mut at, mut n) = (from, 0);
        while let Some(next) = self.step(at, dir) {
            if next == from || !hit(self.colour(next)) {
                break;
            }
            n += 1;
            at = next;
        }
        n
    }
}

/// The stones on the table and the game's storages, from its description.
fn read(state: &State) -> (BTreeMap<(i64, i64), String>, BTreeMap<String, i64>) {
    let text = state.describe();
    let (mut stones, mut game) = (BTreeMap::new(), BTreeMap::new());
    let mut owner = String::new();
    for line in text.lines() {
        if !line.starts_with(' ') {
            owner = line.trim_end_matches(':').to_string();
            continue;
        }
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("vloc STONE (1): ") {
            let at = owner
                .strip_prefix("HEX[")
                .and_then(|s| s.strip_suffix(']'))
                .and_then(|s| s.split_once(','))
                .map(|(r, c)| (r.parse().unwrap(), c.parse().unwrap()))
                .unwrap_or_else(|| panic!("a stone on {owner}"));
            stones.insert(at, rest.to_string());
        } else if let (true, Some((k, v))) = (
            owner == "game",
            line.strip_prefix("sto ").and_then(|s| s.split_once(" = ")),
        ) {
            game.insert(k.to_string(), v.parse().unwrap());
        }
    }
    (stones, game)
}

/// Plays `games` seeded games of `rules` on a board of the given shape
/// and checks every placement's facts against the reading above.
fn check(rules: &Rules, (rows, cols, wrap_rows, wrap_cols): (i64, i64, bool, bool), games: u64) {
    let mut placements = 0;
    for seed in 0..games {
        let options = GameOptions {
            seed,
            overrides: Vec::new(),
        };
        let mut state = rules.start(&options).unwrap();
        let mut rng = GameRng::new(seed ^ 0x4e3);
        while state.status() == Status::Running {
            let (before, _) = read(&state);
            let moves = state.legal_moves();
            state.apply(&moves[below(&mut rng, moves.len())]).unwrap();
            let (stones, game) = read(&state);
            let placed: Vec<_> = stones.keys().filter(|k| !before.contains_key(k)).collect();
            assert_eq!(placed.len(), 1, "seed {seed}: one stone placed");
            let h = *placed[0];
            let board = Board {
                rows,
                cols,
                wrap_rows,
                wrap_cols,
                stones,
            };
            let colour = board.colour(h).map(str::to_string);
            let same = |c: Option<&str>| c == colour.as_deref();
            let group = board.group(h, &AROUND);
            let rows_of: BTreeSet<i64> = group.iter().map(|g| g.0).collect();
            let cols_of: BTreeSet<i64> = group.iter().map(|g| g.1).collect();
            let expected = BTreeMap::from([
                ("GROUP", group.len() as i64),
                ("ROW", board.group(h, &["E", "W"]).len() as i64),
                ("AXES", board.group(h, &["NE", "SW", "E", "W"]).len() as i64),
                ("SPAN", 100 * rows_of.len() as i64 + cols_of.len() as i64),
                ("FREE", board.around(h, |c| c.is_none())),
                ("SAME", board.around(h, same)),
                (
                    "LINE",
                    board.line(h, "E", same) + 100 * board.line(h, "SW", same),
                ),
                ("OPEN", board.line(h, "NW", |c| c.is_none())),
                ("TOP", i64::from(group.iter().any(|g| g.0 == 0))),
                (
                    "LOW",
                    i64::from(board.group(h, &["NW", "SE"]).iter().all(|g| g.0 > 1)),
                ),
            ]);
            for (name, want) in expected {
                assert_eq!(
                    game.get(name).copied().unwrap_or(0),
                    want,
                    "seed {seed}, stone at {h:?}: {name}\n{}",
                    state.describe()
                );
            }
            placements += 1;
        }
    }
    assert!(placements as u64 >= games * 10, "{placements} placements");
}

/// Each shape played by the compiled rules and by the evaluator.
fn check_both(shape: &str, geometry: (i64, i64, bool, bool), pairs: u32, games: u64) {
    let r = rules(shape, pairs);
    check(&r, geometry, games);
    check(&r.uncompiled(), geometry, games);
}

#[test]
fn a_hex_board_of_at_most_128_spaces_agrees_with_the_reading() {
    // 117 spaces, not square: rows and columns are not swapped.
    check_both("(hex 9 13)", (9, 13, false, false), 40, 6);
}

#[test]
fn a_hex_board_of_more_than_128_spaces_agrees_with_the_reading() {
    check_both("(hex 12 11)", (12, 11, false, false), 45, 4);
}

#[test]
fn wrapped_hex_boards_agree_with_the_reading() {
    check_both("(hex 5 6 (wrap columns rows))", (5, 6, true, true), 14, 6);
    check_both("(hex 4 7 (wrap columns))", (4, 7, false, true), 13, 6);
    check_both("(hex 7 3 (wrap rows))", (7, 3, true, false), 10, 6);
}

/// The message of the rules error that ends a game of `src`, compiled
/// and through the evaluator alike.
fn rules_error(src: &str) -> String {
    use cardboard::drivers::run::run_game;
    use cardboard::drivers::GameEnd;
    let rules = Rules::from_source("t.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()));
    let options = GameOptions {
        seed: 1,
        overrides: Vec::new(),
    };
    let ends: Vec<GameEnd> = [rules.clone(), rules.uncompiled()]
        .iter()
        .map(|r| run_game(r, &options, 20).end)
        .collect();
    assert_eq!(ends[0], ends[1], "compiled and evaluated differ");
    match &ends[0] {
        GameEnd::Error(why) => why.clone(),
        other => panic!("not an error: {other:?}"),
    }
}

/// A direction the board lacks, computed while playing (so the check of
/// the file cannot see it), is a rules error naming the place and the
/// direction: in a `group`'s directions, in `line` and in `neighbour`.
#[test]
fn a_computed_direction_a_hex_board_lacks_is_a_rules_error() {
    let game = |form: &str| {
        format!(
            "(game
              (declare (NE, N) 'DIRS)
              (setup (create players 2) (create board HEX (hex 5 5)))
              (do ((set (game str D) S)))
              (stage player (end (> (game sto T) 1))
               (choice
                ((any (spaces HEX) 'S
                  (set (game sto T) {form})))))
              (scoring max 0))"
        )
    };
    let cases = [
        ("(size (group 'S 'DIRS 'V (onboard 'V)))", "not N"),
        ("(size (line 'S (game str D) 'V (onboard 'V)))", "not S"),
        ("(index (neighbour 'S (game str D)))", "not S"),
    ];
    for (form, part) in cases {
        let why = rules_error(&game(form));
        assert!(why.contains("line 8, column 19:"), "{form}: {why}");
        assert!(
            why.contains(&format!(
                "`HEX` is a hex board: its directions are E W NE NW SE SW, {part}"
            )),
            "{form}: {why}"
        );
    }
}

/// The reference's Hex example (section 11.11), as written there, in a
/// whole game: it ends exactly when a chain of the mover's colour joins
/// their two sides (top and bottom rows for Red, left and right columns
/// for Blue), as a search over the stones finds, and the mover wins.
#[test]
fn the_reference_hex_example_ends_the_game_at_the_first_connection() {
    let src = "(game
      (declare 5 'SIZE)
      (setup (create players 2) (create board HEX (hex 'SIZE 'SIZE))
             (repeat (* 'SIZE 'SIZE) (create deck (game vloc REDS) (deck (COLOR (RED)))))
             (repeat (* 'SIZE 'SIZE) (create deck (game vloc BLUES) (deck (COLOR (BLUE))))))
      (do ((set ((0 player) str COLOR) RED) (set ((1 player) str COLOR) BLUE)))
      (stage player (end (or (== (game str WINNER) RED) (== (game str WINNER) BLUE)))
       (choice
        (((== ((current player) str COLOR) RED)
          (any (filter (spaces HEX) 'S (== (size ('S vloc STONE)) 0)) 'S
               (move (top (game vloc REDS)) (top ('S vloc STONE)))))
         ((== ((current player) str COLOR) BLUE)
          (any (filter (spaces HEX) 'S (== (size ('S vloc STONE)) 0)) 'S
               (move (top (game vloc BLUES)) (top ('S vloc STONE)))))))
       (let (where (last moved)) 'HERE
        (let (cardatt COLOR (top ('HERE vloc STONE))) 'C
         (let (group 'HERE 'V (== (cardatt COLOR (top ('V vloc STONE))) 'C)) 'G
          (do (((and (== 'C RED) (== (rows 'G) 'SIZE)) (set (game str WINNER) RED))
               ((and (== 'C BLUE) (== (cols 'G) 'SIZE)) (set (game str WINNER) BLUE)))))))
       ((== (game str WINNER) ((current player) str COLOR)) (set ((current player) sto WIN) 1)))
      (scoring max ((current player) sto WIN)))";
    let rules = Rules::from_source("hex.rcy", src).unwrap_or_else(|e| panic!("{}", e.render()));
    let size = 5;
    for r in [rules.clone(), rules.uncompiled()] {
        for seed in 0..20 {
            let options = GameOptions {
                seed,
                overrides: Vec::new(),
            };
            let mut state = r.start(&options).unwrap();
            let mut rng = GameRng::new(seed);
            loop {
                let mover = state.current_player().expect("a player to move");
                let moves = state.legal_moves();
                state.apply(&moves[below(&mut rng, moves.len())]).unwrap();
                let (stones, _) = read(&state);
                let board = Board {
                    rows: size,
                    cols: size,
                    wrap_rows: false,
                    wrap_cols: false,
                    stones,
                };
                // Does a chain of `colour` join its two sides?
                let joined = |colour: &str, rows: bool| {
                    let side = |at: (i64, i64), k: i64| if rows { at.0 == k } else { at.1 == k };
                    board.stones.iter().any(|(&at, c)| {
                        c == colour
                            && side(at, 0)
                            && board.group(at, &AROUND).iter().any(|&g| side(g, size - 1))
                    })
                };
                let (red, blue) = (joined("RED", true), joined("BLUE", false));
                assert!(!(red && blue), "seed {seed}: both joined");
                if state.status() == Status::Finished {
                    assert!(
                        red || blue,
                        "seed {seed}: ended unjoined\n{}",
                        state.describe()
                    );
                    let winner = if red { 0 } else { 1 };
                    assert_eq!(mover, winner, "seed {seed}");
                    let outcome = state.outcome().expect("an outcome");
                    assert_eq!(outcome.winners, vec![winner], "seed {seed}");
                    break;
                }
                assert!(
                    !red && !blue,
                    "seed {seed}: joined, not ended\n{}",
                    state.describe()
                );
            }
        }
    }
}
