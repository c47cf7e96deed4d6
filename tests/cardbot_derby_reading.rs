//! Cardbot Derby against an independent reading of its rules, in Rust.
//!
//! Seeded random games are played through the engine. At the start of every
//! round the table is read from the position text; the round's decisions
//! (the order each owner gives its five cards, the ping directions) are
//! recorded; at the start of the next round (or at the end of the game) the
//! round is replayed here from the rules as the rules file's header reads
//! them — priorities and tie-breaks, moves, shoves, pings, belts, ice,
//! teleports, sticky turns, targets, piles and the win — and every robot's
//! place, facing, next target and pile must be what the engine made. Every
//! ping must be asked of the enacting player, offering exactly the free
//! sides.

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::GameState;
use std::collections::HashMap;
use std::path::Path;

const N: usize = 7;
const DIRS: [&str; 4] = ["N", "E", "S", "W"];
const TARGETS: [(i64, i64); 3] = [(3, 3), (6, 3), (0, 3)];
const WANTS: [&str; 4] = ["JACK", "QUEEN", "KING", "DONE"];

#[derive(Clone, Copy, Default)]
struct Opts {
    nump: usize,
    belt2: u8,
    teleport: bool,
    sticky: bool,
    slippery: bool,
}

impl Opts {
    fn robots(&self) -> usize {
        self.nump.max(4)
    }
    fn house(&self, r: usize) -> bool {
        self.nump == 3 && r == 3
    }
    fn owner(&self, r: usize) -> usize {
        r % self.nump
    }
    /// The belt on a cell: (place along the belt from 1, direction).
    fn belt(&self, (row, col): (i64, i64)) -> Option<(i64, usize)> {
        if row == 1 && (1..=4).contains(&col) {
            return Some((5 - col, 3));
        }
        match self.belt2 {
            1 if row == 5 && (1..=4).contains(&col) => Some((col, 1)),
            2 if col == 2 && (2..=5).contains(&row) => Some((6 - row, 0)),
            3 if row == 5 => Some((col + 1, 1)),
            _ => None,
        }
    }
    fn sticky_at(&self, c: (i64, i64)) -> bool {
        self.sticky && (c == (3, 1) || c == (3, 5))
    }
    fn ice_at(&self, c: (i64, i64)) -> bool {
        self.slippery && (c == (2, 3) || c == (4, 3))
    }
    fn sets(&self) -> Vec<(String, String)> {
        [
            ("NUMP", self.nump.to_string()),
            ("BELT2", self.belt2.to_string()),
            ("TELEPORT", (self.teleport as u8).to_string()),
            ("STICKY", (self.sticky as u8).to_string()),
            ("SLIPPERY", (self.slippery as u8).to_string()),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b))
        .collect()
    }
}

fn value(card: &str) -> i64 {
    match card.split('-').nth(1).unwrap() {
        "ACE" => 14,
        "KING" => 13,
        "QUEEN" => 12,
        "JACK" => 11,
        "TEN" => 10,
        "NINE" => 9,
        "EIGHT" => 8,
        "SEVEN" => 7,
        "SIX" => 6,
        "FIVE" => 5,
        "FOUR" => 4,
        "THREE" => 3,
        "TWO" => 2,
        other => panic!("rank {other}"),
    }
}

/// The position text as maps from `OWNER KIND NAME` to cards (top first)
/// and from `OWNER sto|str NAME` to values.
#[derive(Default)]
struct Table {
    locs: HashMap<String, Vec<String>>,
    vals: HashMap<String, String>,
}

impl Table {
    fn read(state: &State) -> Table {
        let mut t = Table::default();
        for line in state.to_position().lines() {
            if let Some((key, cards)) = line.split_once(": ") {
                let key = key.rsplit_once(" (").map_or(key, |x| x.0);
                let mut list = Vec::new();
                for c in cards.split_whitespace() {
                    match c.split_once('*') {
                        Some((name, n)) => {
                            list.extend((0..n.parse().unwrap()).map(|_| name.into()))
                        }
                        None => list.push(c.to_string()),
                    }
                }
                t.locs.insert(key.to_string(), list);
            } else if let Some((key, v)) = line.split_once(" = ") {
                t.vals.insert(key.to_string(), v.to_string());
            }
        }
        t
    }
    fn loc(&self, key: &str) -> Vec<String> {
        self.locs.get(key).cloned().unwrap_or_default()
    }
    fn val(&self, key: &str) -> String {
        self.vals.get(key).cloned().unwrap_or_default()
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Robot {
    at: (i64, i64),
    facing: usize,
    want: usize,
    /// The five cards drawn (or to be drawn) this round, in any order.
    hand: Vec<String>,
    /// The pile under them, top first.
    rest: Vec<String>,
}

fn robots_of(t: &Table, o: &Opts) -> Vec<Robot> {
    (0..o.robots())
        .map(|r| {
            let id = format!("R{r}");
            assert_eq!(t.val(&format!("ROBOTS[{r}] str ID")), id);
            let at = (0..N as i64)
                .flat_map(|row| (0..N as i64).map(move |col| (row, col)))
                .find(|(row, col)| {
                    t.loc(&format!("GRID[{row},{col}] vloc ROBOT"))
                        .contains(&id)
                })
                .unwrap_or_else(|| panic!("{id} is on no space"));
            let facing = DIRS
                .iter()
                .position(|d| *d == t.val(&format!("ROBOTS[{r}] str FACING")))
                .unwrap();
            let want = WANTS
                .iter()
                .position(|w| *w == t.val(&format!("ROBOTS[{r}] str WANT")))
                .unwrap();
            let pile = t.loc(&format!("ROBOTS[{r}] hloc PILE"));
            let hand = t.loc(&format!("p{} iloc HAND", o.owner(r)));
            let suit = t.val(&format!("ROBOTS[{r}] str SUIT"));
            let (hand, rest) = if !hand.is_empty() && hand.iter().all(|c| c.starts_with(&suit)) {
                (hand, pile)
            } else {
                (pile[..5].to_vec(), pile[5..].to_vec())
            };
            Robot {
                at,
                facing,
                want,
                hand,
                rest,
            }
        })
        .collect()
}

struct Ping {
    player: usize,
    sides: Vec<usize>,
    chosen: usize,
}

/// One round replayed from the rules.
struct Round<'a> {
    o: &'a Opts,
    robots: Vec<Robot>,
    reached: Vec<bool>,
    pings: std::vec::IntoIter<Ping>,
    unknown: bool,
}

impl Round<'_> {
    fn step(&self, (row, col): (i64, i64), d: usize) -> Option<(i64, i64)> {
        let (dr, dc) = [(-1, 0), (0, 1), (1, 0), (0, -1)][d];
        let row = row + dr;
        (0..N as i64)
            .contains(&row)
            .then(|| (row, (col + dc).rem_euclid(N as i64)))
    }
    fn who(&self, c: (i64, i64)) -> Option<usize> {
        self.robots.iter().position(|r| r.at == c)
    }
    fn free(&self, c: Option<(i64, i64)>) -> Option<(i64, i64)> {
        c.filter(|&c| self.who(c).is_none())
    }
    /// A move of robot `r` in direction `d`, by the rules of a move.
    fn go(&mut self, r: usize, d: usize) {
        let Some(to) = self.step(self.robots[r].at, d) else {
            return; // off the top or bottom: no move
        };
        match self.who(to) {
            None => self.robots[r].at = to,
            Some(o) => {
                if let Some(on) = self.free(self.step(to, d)) {
                    self.robots[o].at = on;
                    self.robots[r].at = to;
                    return;
                }
                // A ping: the free sides, in the order N E S W.
                let sides: Vec<usize> = (0..4)
                    .filter(|&s| s % 2 != d % 2 && self.free(self.step(to, s)).is_some())
                    .collect();
                if sides.is_empty() {
                    return;
                }
                let side = if self.o.house(r) {
                    // Chance picks among two sides: this round is not
                    // checked (the next one starts from the engine's table).
                    self.unknown |= sides.len() > 1;
                    sides[0]
                } else {
                    let p = self.pings.next().expect("a ping the engine did not ask");
                    let enactor = (self.o.owner(r) + 1) % self.o.nump;
                    assert_eq!(p.player, enactor, "the enacting player chooses");
                    assert_eq!(p.sides, sides, "the free sides are offered");
                    p.chosen
                };
                self.robots[o].at = self.step(to, side).unwrap();
                self.robots[r].at = to;
            }
        }
    }
    fn targets(&mut self) {
        for r in 0..self.robots.len() {
            let want = self.robots[r].want;
            if want < 3 && self.robots[r].at == TARGETS[want] {
                self.reached[r] = true;
            }
        }
    }
    fn play(&mut self, programs: &[Vec<String>]) {
        let n = self.robots.len();
        for k in 0..5 {
            // Priority: this card, the previous ones latest first, the next.
            let key = |r: usize| -> Vec<i64> {
                let p = &programs[r];
                let order = (0..=k).rev().chain(k + 1..5);
                order.map(|i| value(&p[i])).collect()
            };
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| key(b).cmp(&key(a)).then(a.cmp(&b)));
            for r in order {
                let v = value(&programs[r][k]);
                if v >= 10 {
                    self.go(r, self.robots[r].facing);
                } else if !self.o.sticky_at(self.robots[r].at) {
                    self.robots[r].facing = (self.robots[r].facing + v as usize) % 4;
                }
                self.targets();
            }
            // Belts: further along first, each robot once.
            let mut done = vec![false; n];
            while let Some(r) = (0..n)
                .filter(|&r| !done[r])
                .filter_map(|r| self.o.belt(self.robots[r].at).map(|(p, _)| (p, r)))
                .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)))
                .map(|x| x.1)
            {
                done[r] = true;
                let (_, d) = self.o.belt(self.robots[r].at).unwrap();
                self.go(r, d);
                self.targets();
            }
            // Ice: slide while on ice, until a slide fails.
            let mut slides = vec![0; n];
            while let Some(r) = (0..n).find(|&r| slides[r] < 7 && self.o.ice_at(self.robots[r].at))
            {
                slides[r] += 1;
                let before = self.robots[r].at;
                self.go(r, self.robots[r].facing);
                if self.robots[r].at == before {
                    slides[r] = 7;
                }
                self.targets();
            }
            if self.o.teleport {
                let (a, b) = ((2, 1), (4, 5));
                let (ra, rb) = (self.who(a), self.who(b));
                if let Some(r) = ra {
                    self.robots[r].at = b;
                }
                if let Some(r) = rb {
                    self.robots[r].at = a;
                }
            }
        }
        assert!(
            self.unknown || self.pings.next().is_none(),
            "the engine asked a ping the rules do not make"
        );
    }
}

fn check_game(o: Opts, seed: u64) -> usize {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/cardbot-derby.rcy");
    let rules = Rules::load(&path).unwrap_or_else(|e| panic!("{e}"));
    let mut state = rules
        .start(&GameOptions {
            seed,
            overrides: o.sets(),
        })
        .unwrap_or_else(|e| panic!("{e}"));
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut start: Option<Vec<Robot>> = None;
    let mut picks: Vec<Vec<String>> = vec![Vec::new(); o.robots()];
    let mut pings: Vec<Ping> = Vec::new();
    let mut rounds = 0;
    let mut decisions = 0;
    loop {
        let t = Table::read(&state);
        let new_round = state.current_player().is_none()
            || ((0..o.nump).all(|p| t.loc(&format!("p{p} iloc PROG")).is_empty())
                && t.loc("game iloc HOUSE").is_empty()
                && (0..o.robots()).all(|r| t.loc(&format!("ROBOTS[{r}] vloc SHOWN")).is_empty()));
        if new_round {
            let now = robots_of(&t, &o);
            if let Some(before) = start.take() {
                let programs: Vec<Vec<String>> = (0..o.robots())
                    .map(|r| {
                        if o.house(r) {
                            // The house plays its cards as they come.
                            return before[r].hand.clone();
                        }
                        let mut p = picks[r].clone();
                        assert_eq!(p.len(), 4, "seed {seed} round {rounds}: robot {r}'s picks");
                        let last: Vec<String> = before[r]
                            .hand
                            .iter()
                            .filter(|c| !p.contains(c))
                            .cloned()
                            .collect();
                        p.extend(last);
                        p
                    })
                    .collect();
                let mut round = Round {
                    o: &o,
                    robots: before.clone(),
                    reached: vec![false; o.robots()],
                    pings: std::mem::take(&mut pings).into_iter(),
                    unknown: false,
                };
                round.play(&programs);
                let what = format!("seed {seed}, round {rounds}");
                if round
                    .robots
                    .iter()
                    .zip(&now)
                    .any(|(a, b)| a.at != b.at || a.facing != b.facing)
                {
                    eprintln!("{what}: programs {programs:?}");
                    for r in 0..o.robots() {
                        eprintln!(
                            "  robot {r}: before {:?} {} | rules {:?} {} | engine {:?} {}",
                            before[r].at,
                            DIRS[before[r].facing],
                            round.robots[r].at,
                            DIRS[round.robots[r].facing],
                            now[r].at,
                            DIRS[now[r].facing]
                        );
                    }
                }
                for r in (0..o.robots()).filter(|_| !round.unknown) {
                    let (want, got) = (&round.robots[r], &now[r]);
                    assert_eq!(want.at, got.at, "{what}: robot {r}'s place");
                    assert_eq!(want.facing, got.facing, "{what}: robot {r}'s facing");
                    let mut pile = want.rest.clone();
                    pile.extend(programs[r].iter().cloned());
                    let mut wanted = want.want;
                    if round.reached[r] {
                        let card = pile
                            .iter()
                            .position(|c| c.ends_with(WANTS[wanted]))
                            .unwrap();
                        let card = pile.remove(card);
                        let (tr, tc) = TARGETS[wanted];
                        assert!(
                            t.loc(&format!("GRID[{tr},{tc}] vloc WON")).contains(&card),
                            "{what}: {card} under its target"
                        );
                        wanted += 1;
                    }
                    assert_eq!(
                        WANTS[wanted], WANTS[got.want],
                        "{what}: robot {r}'s next target"
                    );
                    let mut got_pile = got.hand.clone();
                    got_pile.extend(got.rest.iter().cloned());
                    if round.reached[r] || got.hand.len() != 5 {
                        let (mut a, mut b) = (pile.clone(), got_pile.clone());
                        a.sort();
                        b.sort();
                        assert_eq!(a, b, "{what}: robot {r}'s pile (shuffled)");
                    } else {
                        assert_eq!(pile[5..], got.rest[..], "{what}: robot {r}'s pile");
                        let (mut a, mut b) = (pile[..5].to_vec(), got.hand.clone());
                        a.sort();
                        b.sort();
                        assert_eq!(a, b, "{what}: robot {r}'s next five");
                    }
                }
                rounds += 1;
            }
            if state.current_player().is_none() {
                // The win: the players with a robot at its third target.
                let winners: Vec<usize> = (0..o.nump)
                    .filter(|&p| {
                        (0..o.robots()).any(|r| !o.house(r) && o.owner(r) == p && now[r].want == 3)
                    })
                    .collect();
                assert!(
                    !winners.is_empty(),
                    "seed {seed}: the game ended without a winner"
                );
                assert_eq!(
                    state.outcome().unwrap().winners,
                    winners,
                    "seed {seed}: winners"
                );
                return rounds;
            }
            start = Some(now);
            picks = vec![Vec::new(); o.robots()];
        }
        // A random decision, recorded.
        let me = state.current_player().unwrap();
        let moves = state.legal_moves();
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let mv = moves[(rng % moves.len() as u64) as usize].clone();
        let text = state.move_to_text(&mv);
        if let Some(rest) = text.strip_prefix("game PSIDE = ") {
            let side = |t: &str| {
                DIRS.iter()
                    .position(|d| t.starts_with(&format!("game PSIDE = {d};")))
                    .unwrap()
            };
            let mut sides: Vec<usize> =
                moves.iter().map(|m| side(&state.move_to_text(m))).collect();
            sides.sort();
            let chosen = DIRS
                .iter()
                .position(|d| rest.starts_with(&format!("{d};")))
                .unwrap();
            pings.push(Ping {
                player: me,
                sides,
                chosen,
            });
        } else {
            let card = text
                .strip_prefix("move ")
                .unwrap()
                .split(' ')
                .next()
                .unwrap()
                .to_string();
            let r = (0..o.robots())
                .find(|&r| {
                    o.owner(r) == me
                        && !o.house(r)
                        && t.val(&format!("ROBOTS[{r}] str SUIT"))
                            == card.split('-').next().unwrap()
                })
                .unwrap();
            picks[r].push(card);
        }
        state.apply(&mv).unwrap();
        decisions += 1;
        assert!(decisions < 20_000, "seed {seed}: the game does not end");
    }
}

fn check(o: Opts, seeds: std::ops::Range<u64>) {
    let mut rounds = 0;
    for seed in seeds {
        rounds += check_game(o, seed);
    }
    assert!(rounds > 100, "only {rounds} rounds checked");
}

#[test]
fn four_players_follow_the_rules() {
    check(
        Opts {
            nump: 4,
            ..Opts::default()
        },
        1..6,
    );
}

#[test]
fn two_players_with_two_robots_each_follow_the_rules() {
    check(
        Opts {
            nump: 2,
            ..Opts::default()
        },
        1..6,
    );
}

#[test]
fn three_players_and_the_house_robot_follow_the_rules() {
    check(
        Opts {
            nump: 3,
            ..Opts::default()
        },
        1..4,
    );
}

#[test]
fn six_players_with_a_third_deck_follow_the_rules() {
    check(
        Opts {
            nump: 6,
            ..Opts::default()
        },
        1..4,
    );
}

#[test]
fn every_advanced_rule_follows_the_rules() {
    for belt2 in 1..=3 {
        check(
            Opts {
                nump: 4,
                belt2,
                ..Opts::default()
            },
            1..3,
        );
    }
    let all = Opts {
        nump: 5,
        belt2: 3,
        teleport: true,
        sticky: true,
        slippery: true,
    };
    check(all, 1..4);
    check(
        Opts {
            nump: 4,
            teleport: true,
            ..Opts::default()
        },
        1..3,
    );
    check(
        Opts {
            nump: 4,
            sticky: true,
            ..Opts::default()
        },
        1..3,
    );
    check(
        Opts {
            nump: 4,
            slippery: true,
            ..Opts::default()
        },
        1..3,
    );
}
