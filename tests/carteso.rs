//! Carteso (`games/carteso.rcy`) against the designers' rules (see its
//! header): the komi and side decisions, who places
//! first, the moves of a turn, group ownership by span (the square case
//! included), finished and unfinished groups, claiming, stones that join a
//! claimed group, the end after two passes, scoring with komi, perft counts
//! derived by hand, a comparison of every claim with a direct Rust reading
//! of the rules over random games, and many random games without error.
//!
//! Seat 0 is the first player (chooses the komi), seat 1 the second (chooses
//! a side). Scores are doubled in the file: a stone is 2, a komi of k + 0.5
//! is 2k + 1.

use cardboard::drivers::check::{check_file, FileCheck};
use cardboard::drivers::perft::perft;
use cardboard::drivers::simulate::{simulate, SimulateConfig};
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, Status};
use cardboard::random::{below, GameRng};
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

/// The rules file; `CARTESO_RULES=FILE` tests another file instead (to see
/// that these tests catch a broken copy of the rules).
fn path() -> PathBuf {
    match std::env::var_os("CARTESO_RULES") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/carteso.rcy"),
    }
}

fn rules() -> Rules {
    Rules::load(&path()).unwrap_or_else(|e| panic!("games/carteso.rcy does not load:\n{e}"))
}

fn options(size: usize, seed: u64) -> GameOptions {
    GameOptions {
        seed,
        overrides: vec![("SIZE".into(), size.to_string())],
    }
}

fn start(size: usize) -> State {
    rules().start(&options(size, 1)).unwrap()
}

/// Plays the legal move whose text is exactly `text`.
fn play(s: &mut State, text: &str) {
    let mv = s.move_from_text(text).unwrap_or_else(|e| {
        let texts: Vec<String> = s.legal_moves().iter().map(|m| s.move_to_text(m)).collect();
        panic!("`{text}`: {e}\nlegal moves:\n{}", texts.join("\n"))
    });
    s.apply(&mv).unwrap();
}

fn place(s: &mut State, colour: &str, r: usize, c: usize) {
    play(
        s,
        &format!("move {colour} game {colour} -> GRID[{r},{c}] STONE"),
    );
}

/// Starts a game on a `size` board: seat 0 picks the komi `twice_komi / 2`,
/// seat 1 picks `side` (VERTICAL or HORIZONTAL).
fn begin(size: usize, twice_komi: i64, side: &str) -> State {
    let mut s = start(size);
    play(&mut s, &format!("game TWICEKOMI = {twice_komi}"));
    let other = if side == "VERTICAL" {
        "HORIZONTAL"
    } else {
        "VERTICAL"
    };
    play(&mut s, &format!("p1 SIDE = {side}; p0 SIDE = {other}"));
    s
}

/// The table as `describe` writes it: each owner (`game`, `p0`, `GRID[1,2]`)
/// with its lines.
struct View(BTreeMap<String, Vec<String>>);

impl View {
    fn of(s: &State) -> View {
        let mut blocks: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut current = String::new();
        for line in s.describe().lines() {
            if let Some(l) = line.strip_prefix("  ") {
                blocks
                    .entry(current.clone())
                    .or_default()
                    .push(l.to_string());
            } else if let Some(name) = line.strip_suffix(':') {
                current = name.to_string();
            }
        }
        View(blocks)
    }

    fn value(&self, owner: &str, key: &str) -> Option<String> {
        let prefix = format!("{key} = ");
        self.0
            .get(owner)?
            .iter()
            .find_map(|l| l.strip_prefix(&prefix).map(str::to_string))
    }

    /// An integer storage (0 when unset, as the engine starts them).
    fn int(&self, owner: &str, name: &str) -> i64 {
        self.value(owner, &format!("sto {name}"))
            .map(|v| v.parse().unwrap())
            .unwrap_or(0)
    }

    fn score(&self, seat: usize) -> i64 {
        self.int(&format!("p{seat}"), "SCORE")
    }

    fn side(&self, seat: usize) -> String {
        self.value(&format!("p{seat}"), "str SIDE")
            .unwrap_or_default()
    }

    /// The side that claimed the stone at (r, c), if any.
    fn claim(&self, r: usize, c: usize) -> Option<String> {
        let space = format!("GRID[{r},{c}]");
        let claimed = self.int(&space, "CLAIMED");
        let claim = self.value(&space, "str CLAIM");
        assert_eq!(
            claimed == 1,
            claim.is_some(),
            "{space}: CLAIMED and CLAIM disagree"
        );
        claim
    }

    /// The colour of the stone at (r, c), if any.
    fn stone(&self, r: usize, c: usize) -> Option<String> {
        self.0
            .get(&format!("GRID[{r},{c}]"))?
            .iter()
            .find_map(|l| l.strip_prefix("vloc STONE (1): ").map(str::to_string))
    }
}

fn claims(s: &State, spaces: &[(usize, usize)]) -> Vec<Option<String>> {
    let v = View::of(s);
    spaces.iter().map(|&(r, c)| v.claim(r, c)).collect()
}

fn all(side: &str, n: usize) -> Vec<Option<String>> {
    vec![Some(side.to_string()); n]
}

#[test]
fn check_reports_no_error() {
    match check_file(&path()) {
        FileCheck::Good => {}
        FileCheck::Bad(e) => panic!("{}", e.render()),
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_first_player_picks_one_of_eleven_komis_then_the_second_picks_a_side() {
    let mut s = start(9);
    assert_eq!(s.current_player(), Some(0));
    let texts: Vec<String> = s.legal_moves().iter().map(|m| s.move_to_text(m)).collect();
    let expected: Vec<String> = (0..=10)
        .map(|k| format!("game TWICEKOMI = {}", 2 * k + 1))
        .collect();
    assert_eq!(texts, expected);
    play(&mut s, "game TWICEKOMI = 7"); // komi 3.5
    assert_eq!(s.current_player(), Some(1));
    let texts: Vec<String> = s.legal_moves().iter().map(|m| s.move_to_text(m)).collect();
    assert_eq!(
        texts,
        [
            "p1 SIDE = VERTICAL; p0 SIDE = HORIZONTAL",
            "p1 SIDE = HORIZONTAL; p0 SIDE = VERTICAL"
        ]
    );
}

#[test]
fn vertical_places_first_whichever_seat_it_is() {
    let s = begin(3, 1, "VERTICAL");
    assert_eq!(s.current_player(), Some(1));
    let v = View::of(&s);
    assert_eq!(
        (v.side(0).as_str(), v.side(1).as_str()),
        ("HORIZONTAL", "VERTICAL")
    );

    let mut s = begin(3, 1, "HORIZONTAL");
    assert_eq!(s.current_player(), Some(0));
    // Then turns alternate.
    place(&mut s, "BLACK", 1, 1);
    assert_eq!(s.current_player(), Some(1));
    play(&mut s, "pass");
    assert_eq!(s.current_player(), Some(0));
}

#[test]
fn a_turn_is_a_pass_or_a_stone_of_either_colour_on_an_empty_point() {
    let mut s = begin(3, 1, "HORIZONTAL");
    let texts: Vec<String> = s.legal_moves().iter().map(|m| s.move_to_text(m)).collect();
    assert_eq!(texts.len(), 2 * 9 + 1);
    assert_eq!(texts[0], "pass");
    for colour in ["BLACK", "WHITE"] {
        for r in 0..3 {
            for c in 0..3 {
                let t = format!("move {colour} game {colour} -> GRID[{r},{c}] STONE");
                assert!(texts.contains(&t), "{t} missing from {texts:?}");
            }
        }
    }
    place(&mut s, "WHITE", 0, 2);
    let texts: Vec<String> = s.legal_moves().iter().map(|m| s.move_to_text(m)).collect();
    assert_eq!(texts.len(), 2 * 8 + 1);
    assert!(!texts.iter().any(|t| t.contains("GRID[0,2]")), "{texts:?}");
    assert_eq!(View::of(&s).stone(0, 2).as_deref(), Some("WHITE"));
}

/// Seat 0 is Vertical and places first. Black fills column 0, white column
/// 1, black column 2 (3 x 3 board).
///
/// ```text
///   B W B
///   B W B
///   B W B
/// ```
#[test]
fn a_group_spanning_more_rows_than_columns_is_claimed_by_vertical_once_finished() {
    let col = |c: usize| [(0, c), (1, c), (2, c)];
    let mut s = begin(3, 21, "HORIZONTAL");
    place(&mut s, "BLACK", 0, 0);
    place(&mut s, "BLACK", 1, 0);
    place(&mut s, "BLACK", 2, 0);
    // Three rows by one column, but it can still grow into columns 1 and 2:
    // not finished, not claimed.
    assert_eq!(claims(&s, &col(0)), vec![None; 3]);
    place(&mut s, "WHITE", 0, 1);
    place(&mut s, "WHITE", 1, 1);
    assert_eq!(claims(&s, &col(0)), vec![None; 3]);
    // Column 1 is white: black column 0 can grow no more. It is finished
    // and claimed by Vertical (3 rows > 1 column), although Horizontal
    // placed the stone that finished it.
    place(&mut s, "WHITE", 2, 1);
    assert_eq!(claims(&s, &col(0)), all("VERTICAL", 3));
    assert_eq!(
        claims(&s, &col(1)),
        vec![None; 3],
        "white can still reach column 2"
    );
    let v = View::of(&s);
    assert_eq!((v.score(0), v.score(1)), (6, 0));
    place(&mut s, "BLACK", 0, 2);
    place(&mut s, "BLACK", 1, 2);
    // Two rows of column 2, which can still reach row 2: not finished.
    assert_eq!(claims(&s, &col(2)), vec![None, None, None]);
    // Filling (2, 2) finishes black column 2 and white column 1 at once.
    place(&mut s, "BLACK", 2, 2);
    assert_eq!(claims(&s, &col(1)), all("VERTICAL", 3));
    assert_eq!(claims(&s, &col(2)), all("VERTICAL", 3));
    let v = View::of(&s);
    assert_eq!((v.score(0), v.score(1)), (18, 0));
}

/// The same position turned a quarter: rows instead of columns, so every
/// group is Horizontal's.
#[test]
fn a_group_spanning_more_columns_than_rows_is_claimed_by_horizontal() {
    let row = |r: usize| [(r, 0), (r, 1), (r, 2)];
    let mut s = begin(3, 1, "HORIZONTAL");
    for c in 0..3 {
        place(&mut s, "BLACK", 0, c);
    }
    assert_eq!(claims(&s, &row(0)), vec![None; 3]);
    for c in 0..3 {
        place(&mut s, "WHITE", 1, c);
    }
    assert_eq!(claims(&s, &row(0)), all("HORIZONTAL", 3));
    assert_eq!(claims(&s, &row(1)), vec![None; 3]);
    for c in 0..3 {
        place(&mut s, "BLACK", 2, c);
    }
    assert_eq!(claims(&s, &row(1)), all("HORIZONTAL", 3));
    assert_eq!(claims(&s, &row(2)), all("HORIZONTAL", 3));
    let v = View::of(&s);
    assert_eq!((v.score(0), v.score(1)), (0, 18));
}

/// A lone black stone in the corner, shut in by two white stones, spans one
/// row and one column: it goes to the opponent of whoever placed the
/// stone that finished it.
#[test]
fn a_group_spanning_as_many_rows_as_columns_goes_to_the_opponent_of_the_last_placer() {
    // Vertical (seat 0) places the finishing stone: Horizontal claims.
    let mut s = begin(3, 1, "HORIZONTAL");
    place(&mut s, "BLACK", 0, 0); // Vertical
    place(&mut s, "WHITE", 0, 1); // Horizontal
    assert_eq!(claims(&s, &[(0, 0)]), vec![None]);
    place(&mut s, "WHITE", 1, 0); // Vertical
    assert_eq!(
        claims(&s, &[(0, 0), (0, 1), (1, 0)]),
        vec![Some("HORIZONTAL".into()), None, None]
    );
    let v = View::of(&s);
    assert_eq!((v.score(0), v.score(1)), (0, 2));

    // Horizontal (seat 0 this time) places the finishing stone: Vertical
    // claims.
    let mut s = begin(3, 1, "VERTICAL");
    place(&mut s, "WHITE", 0, 1); // Vertical (seat 1)
    place(&mut s, "BLACK", 0, 0); // Horizontal
    place(&mut s, "BLACK", 2, 2); // Vertical
    assert_eq!(claims(&s, &[(0, 0)]), vec![None]);
    place(&mut s, "WHITE", 1, 0); // Horizontal
    assert_eq!(claims(&s, &[(0, 0)]), vec![Some("VERTICAL".into())]);
    let v = View::of(&s);
    assert_eq!((v.score(0), v.score(1)), (0, 2), "seat 1 is Vertical");
}

/// A larger square: an L of three white stones spans two rows and two
/// columns (4 x 4 board).
///
/// ```text
///   W B . .
///   W W B .
///   B B . .
///   . . . .
/// ```
#[test]
fn a_two_by_two_group_is_a_square_too() {
    let mut s = begin(4, 1, "HORIZONTAL");
    place(&mut s, "WHITE", 0, 0); // V
    place(&mut s, "WHITE", 1, 0); // H
    place(&mut s, "WHITE", 1, 1); // V
    place(&mut s, "BLACK", 0, 1); // H
    place(&mut s, "BLACK", 1, 2); // V
    place(&mut s, "BLACK", 2, 0); // H
    assert_eq!(claims(&s, &[(0, 0), (1, 0), (1, 1)]), vec![None; 3]);
    place(&mut s, "BLACK", 2, 1); // V: shut in; 2 rows = 2 columns
    assert_eq!(claims(&s, &[(0, 0), (1, 0), (1, 1)]), all("HORIZONTAL", 3));
    let v = View::of(&s);
    assert_eq!((v.score(0), v.score(1)), (0, 6));
}

/// White is claimed with an empty point inside its rows and columns; the
/// stones placed there later join the claimed group and count for its
/// claimer.
///
/// ```text
///   W W W
///   W . W
///   B B B
/// ```
#[test]
fn stones_that_join_a_claimed_group_count_for_its_claimer() {
    let mut s = begin(3, 1, "HORIZONTAL");
    place(&mut s, "BLACK", 2, 0); // V
    place(&mut s, "BLACK", 2, 1); // H
    place(&mut s, "BLACK", 2, 2); // V
    place(&mut s, "WHITE", 0, 0); // H
    place(&mut s, "WHITE", 0, 1); // V
    place(&mut s, "WHITE", 0, 2); // H: one row, can still grow into row 1
    assert_eq!(claims(&s, &[(0, 0), (0, 1), (0, 2)]), vec![None; 3]);
    // Two rows and three columns, and its room (the white stones and the
    // empty (1,1), (1,2)) spans no more: finished, Horizontal's.
    place(&mut s, "WHITE", 1, 0); // V
    assert_eq!(
        claims(&s, &[(0, 0), (0, 1), (0, 2), (1, 0)]),
        all("HORIZONTAL", 4)
    );
    assert_eq!(View::of(&s).score(1), 8);
    // A stone joins the claimed group: it is Horizontal's too.
    place(&mut s, "WHITE", 1, 2); // H
    assert_eq!(claims(&s, &[(1, 2)]), all("HORIZONTAL", 1));
    assert_eq!(View::of(&s).score(1), 10);
    // Black row 2 can still grow into (1,1).
    assert_eq!(claims(&s, &[(2, 0), (2, 1), (2, 2)]), vec![None; 3]);
    // The last point: white joins the claimed group, and black row 2 is
    // finished (one row, three columns: Horizontal's).
    place(&mut s, "WHITE", 1, 1); // V
    let v = View::of(&s);
    for r in 0..3 {
        for c in 0..3 {
            assert_eq!(v.claim(r, c).as_deref(), Some("HORIZONTAL"), "({r},{c})");
        }
    }
    assert_eq!((v.score(0), v.score(1)), (0, 18));
}

#[test]
fn two_consecutive_passes_end_the_game() {
    let mut s = begin(3, 5, "HORIZONTAL");
    play(&mut s, "pass");
    place(&mut s, "BLACK", 1, 1);
    play(&mut s, "pass");
    assert_eq!(s.status(), Status::Running, "a pass after a placement");
    play(&mut s, "pass");
    assert_eq!(s.status(), Status::Finished);
    assert_eq!(s.current_player(), None);
    // Nothing was claimed; Horizontal (seat 1) has the komi, 2.5.
    let out = s.outcome().unwrap();
    assert_eq!(out.scores, vec![0, 5]);
    assert_eq!(out.winners, vec![1]);

    // Two passes before any stone end it too.
    let mut s = begin(3, 1, "VERTICAL");
    play(&mut s, "pass");
    assert_eq!(s.status(), Status::Running);
    play(&mut s, "pass");
    assert_eq!(s.status(), Status::Finished);
    assert_eq!(
        s.outcome().unwrap().scores,
        vec![1, 0],
        "seat 0 is Horizontal"
    );
}

/// The column game above played to the end: Vertical claims all nine
/// stones (18, doubled); Horizontal has only the komi.
fn column_game(twice_komi: i64) -> State {
    let mut s = begin(3, twice_komi, "HORIZONTAL");
    for (colour, c) in [("BLACK", 0), ("WHITE", 1), ("BLACK", 2)] {
        for r in 0..3 {
            place(&mut s, colour, r, c);
        }
    }
    assert_eq!(
        s.legal_moves().len(),
        1,
        "a full board leaves only the pass"
    );
    play(&mut s, "pass");
    play(&mut s, "pass");
    s
}

#[test]
fn scores_are_the_claimed_stones_plus_the_komi_for_horizontal() {
    // Komi 10.5: Horizontal 21 (doubled) beats Vertical's nine stones (18).
    let out = column_game(21).outcome().unwrap();
    assert_eq!(out.scores, vec![18, 21]);
    assert_eq!(out.winners, vec![1]);
    // Komi 8.5: 17 < 18, Vertical wins.
    let out = column_game(17).outcome().unwrap();
    assert_eq!(out.scores, vec![18, 17]);
    assert_eq!(out.winners, vec![0]);
}

/// Counted by hand from the rules, on a 3 x 3 board. Claims never change
/// which moves are legal, so only the empty points matter: with e empty
/// points a turn has 2e + 1 moves (either colour on each, or pass), and a
/// pass that follows a pass ends the game.
///
/// - depth 1: the komi, 11.
/// - depth 2: the side, 11 x 2 = 22.
/// - depth 3: first turn, 9 empty points: 22 x 19 = 418.
/// - depth 4: after a placement (18 of them) 8 empty points, 17 moves;
///   after the pass, 19 moves (one of them the pass that ends the game):
///   22 x (18 x 17 + 19) = 22 x 325 = 7150.
/// - depth 5: the three turns t1 t2 t3, X a placement, P a pass; P P ends
///   the game at depth 4, so it has no continuation:
///   X X X 18 x 16 x 14 = 4032, X X P 18 x 16 = 288, X P X 18 x 16 = 288,
///   P X X 18 x 16 = 288, X P P 18, P X P 18: 4932; 22 x 4932 = 108504.
#[test]
fn perft_on_three_by_three_matches_the_count_by_hand() {
    let counts = perft(&start(3), 5).unwrap();
    assert_eq!(counts, vec![1, 11, 22, 418, 7150, 108504]);
}

/// 4 x 4: 16 points, 2 x 16 + 1 = 33 moves for the first turn;
/// depth 4 = 22 x (32 x 31 + 33) = 22 x 1025 = 22550.
#[test]
fn perft_on_four_by_four_matches_the_count_by_hand() {
    let counts = perft(&start(4), 4).unwrap();
    assert_eq!(counts, vec![1, 11, 22, 22 * 33, 22550]);
}

/// The rules read directly, without any of the file's shortcuts: after a
/// placement by `placer`, every group is looked at; a group holding a
/// claimed stone is claimed (all its stones) by that claimer; an unclaimed
/// group is claimed when the empty points and stones of its colour it can
/// reach span no more rows and columns than it does.
struct Reference {
    size: usize,
    claims: HashMap<(usize, usize), String>,
}

impl Reference {
    fn neighbours(&self, (r, c): (usize, usize)) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        if r > 0 {
            out.push((r - 1, c));
        }
        if c > 0 {
            out.push((r, c - 1));
        }
        if r + 1 < self.size {
            out.push((r + 1, c));
        }
        if c + 1 < self.size {
            out.push((r, c + 1));
        }
        out
    }

    /// The points connected to `from` through points where `keep` holds.
    fn flood(
        &self,
        from: (usize, usize),
        keep: impl Fn((usize, usize)) -> bool,
    ) -> Vec<(usize, usize)> {
        let mut seen = vec![from];
        let mut i = 0;
        while i < seen.len() {
            for n in self.neighbours(seen[i]) {
                if keep(n) && !seen.contains(&n) {
                    seen.push(n);
                }
            }
            i += 1;
        }
        seen
    }

    fn span(points: &[(usize, usize)]) -> (usize, usize) {
        let rows = points.iter().map(|p| p.0);
        let cols = points.iter().map(|p| p.1);
        (
            rows.clone().max().unwrap() - rows.min().unwrap() + 1,
            cols.clone().max().unwrap() - cols.min().unwrap() + 1,
        )
    }

    fn after_placement(&mut self, board: &HashMap<(usize, usize), String>, placer_side: &str) {
        let mut done: Vec<(usize, usize)> = Vec::new();
        for (&p, colour) in board {
            if done.contains(&p) {
                continue;
            }
            let group = self.flood(p, |q| board.get(&q) == Some(colour));
            done.extend(&group);
            let mut claimers: Vec<&String> =
                group.iter().filter_map(|q| self.claims.get(q)).collect();
            claimers.sort();
            claimers.dedup();
            assert!(claimers.len() <= 1, "a group with two claimers: {group:?}");
            let owner = if let Some(owner) = claimers.first() {
                owner.to_string()
            } else {
                let room = self.flood(p, |q| board.get(&q).is_none_or(|c| c == colour));
                let (rows, cols) = Self::span(&group);
                if Self::span(&room) != (rows, cols) {
                    continue;
                }
                let opponent = if placer_side == "VERTICAL" {
                    "HORIZONTAL"
                } else {
                    "VERTICAL"
                };
                match rows.cmp(&cols) {
                    std::cmp::Ordering::Greater => "VERTICAL",
                    std::cmp::Ordering::Less => "HORIZONTAL",
                    std::cmp::Ordering::Equal => opponent,
                }
                .to_string()
            };
            for q in group {
                self.claims.insert(q, owner.clone());
            }
        }
    }
}

/// Plays random games and, after every placement, compares the file's
/// claims and scores with [`Reference`]; at the end, the scores with komi.
fn compare_with_reference(size: usize, games: u64) -> usize {
    let rules = rules();
    let mut claimed_groups = 0;
    for seed in 1..=games {
        let mut s = rules.start(&options(size, seed)).unwrap();
        let mut rng = GameRng::new(seed ^ 0xca27e50);
        let mut reference = Reference {
            size,
            claims: HashMap::new(),
        };
        let mut stones = 0;
        let mut twice_komi = 0;
        while let Some(p) = s.current_player() {
            let moves = s.legal_moves();
            // Fewer passes than a uniform choice, so that boards fill up.
            let mv = if moves.len() > 1 && below(&mut rng, 8) != 0 {
                moves[1 + below(&mut rng, moves.len() - 1)].clone()
            } else {
                moves[below(&mut rng, moves.len())].clone()
            };
            let placer_side = View::of(&s).side(p);
            s.apply(&mv).unwrap();
            let v = View::of(&s);
            twice_komi = v.int("game", "TWICEKOMI");
            let mut board = HashMap::new();
            for r in 0..size {
                for c in 0..size {
                    if let Some(colour) = v.stone(r, c) {
                        board.insert((r, c), colour);
                    }
                }
            }
            if board.len() == stones {
                continue; // a decision without a placement
            }
            assert_eq!(board.len(), stones + 1, "seed {seed}");
            stones += 1;
            let before = reference.claims.len();
            reference.after_placement(&board, &placer_side);
            if reference.claims.len() > before + 1 {
                claimed_groups += 1;
            }
            for r in 0..size {
                for c in 0..size {
                    assert_eq!(
                        v.claim(r, c),
                        reference.claims.get(&(r, c)).cloned(),
                        "seed {seed}, ({r},{c}), after {stones} stones:\n{}",
                        s.describe()
                    );
                }
            }
            for seat in 0..2 {
                let side = v.side(seat);
                let mine = reference.claims.values().filter(|c| **c == side).count() as i64;
                assert_eq!(v.score(seat), 2 * mine, "seed {seed}, seat {seat}");
            }
        }
        let out = s.outcome().unwrap();
        let v = View::of(&s);
        for seat in 0..2 {
            let side = v.side(seat);
            let mine = 2 * reference.claims.values().filter(|c| **c == side).count() as i64;
            let komi = if side == "HORIZONTAL" { twice_komi } else { 0 };
            assert_eq!(out.scores[seat], mine + komi, "seed {seed}, seat {seat}");
        }
        assert_eq!(out.winners.len(), 1, "doubled scores never tie");
    }
    claimed_groups
}

#[test]
fn claims_agree_with_a_direct_reading_of_the_rules_in_random_games() {
    let mut claimed = 0;
    for (size, games) in [(3, 60), (4, 60), (5, 40), (9, 10)] {
        claimed += compare_with_reference(size, games);
    }
    // The comparison means something only if groups got claimed (a claim of
    // one stone is not counted here, so this is a low bound).
    assert!(
        claimed > 100,
        "only {claimed} groups of two or more claimed"
    );
}

#[test]
fn two_hundred_random_games_on_nine_by_nine_and_five_by_five_finish_without_error() {
    for size in [9, 5] {
        let config = SimulateConfig {
            games: 200,
            seed: 7,
            overrides: vec![("SIZE".into(), size.to_string())],
            max_decisions: 10_000,
            jobs: 0,
        };
        let report = simulate(&rules(), &config, &|_| {}).unwrap();
        assert_eq!(report.errors, 0, "{size}x{size}: {:?}", report.first_errors);
        assert_eq!(
            report.completed, 200,
            "{size}x{size}: {:?}",
            report.first_stops
        );
        // Doubled scores never tie.
        assert_eq!(report.wins.iter().sum::<u64>(), 200);
        // A random game fills most of the board before two passes meet:
        // at least the two opening decisions and a few turns.
        assert!(report.min_decisions >= 4, "{report:?}");
        assert!(
            report.mean_decisions > (size * size) as f64 / 2.0,
            "{report:?}"
        );
    }
}
