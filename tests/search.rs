//! The searching players (`interpreter/search/`): MCTS finds the winning
//! move of small positions, beats random players clearly in Carteso, and
//! plays the same for a given seed and budget on any number of threads;
//! resampling keeps what a seat sees and spreads what it does not; ISMCTS
//! decides alike whatever the hidden cards and asks the true state for
//! nothing but its moves and determinizations.

use cardboard::drivers::run::run_seated;
use cardboard::drivers::simulate::{simulate_seated, SimulateConfig, SimulateReport};
use cardboard::engine::{GameOptions, Move, Rules, State};
use cardboard::game::{GameState, Outcome, PlayError, Status};
use cardboard::player::Player;
use cardboard::random::GameRng;
use cardboard::search::seats::Seats;
use cardboard::search::tree::SearchConfig;
use cardboard::search::{Method, Searcher};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

fn rules(path: &str) -> Rules {
    Rules::load(std::path::Path::new(path)).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

fn options(seed: u64, set: &[(&str, &str)]) -> GameOptions {
    GameOptions {
        seed,
        overrides: set
            .iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect(),
    }
}

fn config(games: u64, seed: u64, jobs: usize, set: &[(&str, &str)]) -> SimulateConfig {
    SimulateConfig {
        games,
        seed,
        overrides: options(seed, set).overrides,
        max_decisions: 10_000,
        jobs,
    }
}

/// The JSON report without the fields that measure time or threads.
fn without_timing(report: &SimulateReport) -> serde_json::Value {
    let mut json: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
    let object = json.as_object_mut().unwrap();
    for key in ["seconds", "games_per_second", "jobs"] {
        assert!(object.remove(key).is_some(), "missing {key}");
    }
    json
}

#[test]
fn mcts_takes_the_only_winning_move_of_nim() {
    // From a pile that is not a multiple of 4, the only winning move takes
    // the pile's remainder by 4 (the text lists one `move` per stone).
    let nim = rules("tests/search/nim.rcy");
    for stones in [5, 6, 7, 9, 10, 11] {
        for seed in 0..3 {
            let pile = stones.to_string();
            let state = nim.start(&options(seed, &[("STONES", &pile)])).unwrap();
            let mut player = Seats::parse("mcts:400").unwrap().player(seed);
            let mv = player.choose_move(&state).unwrap().unwrap();
            let taken = state.move_to_text(&mv).matches("move STONE").count();
            assert_eq!(taken, stones % 4, "pile {stones}, seed {seed}");
        }
    }
}

#[test]
fn mcts_takes_the_only_winning_move_of_a_saved_position() {
    // Seven stones, player 1 to move: taking three wins, one or two lose.
    let nim = rules("tests/search/nim.rcy");
    let text = std::fs::read_to_string("tests/search/nim-7.pos").unwrap();
    let state = nim.load_position(&text).unwrap();
    assert_eq!(state.current_player(), Some(1));
    for seed in 0..5 {
        let mut player = Seats::parse("random,mcts:300").unwrap().player(seed);
        let mv = player.choose_move(&state).unwrap().unwrap();
        let taken = state.move_to_text(&mv).matches("move STONE").count();
        assert_eq!(taken, 3, "seed {seed}");
    }
}

#[test]
fn a_seed_and_a_budget_fix_the_game() {
    let nim = rules("tests/search/nim.rcy");
    let seats = Seats::parse("mcts:40,mcts:80").unwrap();
    let play = |seed| {
        let set = [("STONES", "30")];
        run_seated(&nim, &options(seed, &set), 1_000, &seats).0.text
    };
    let first = play(4);
    assert!(first.contains("seats: mcts:40, mcts:80"), "{first}");
    assert_eq!(first, play(4));
    // The searchers' seeds come from the game's: another seed, other games
    // (the first moves of a won pile differ among equally lost replies).
    let others: Vec<String> = (5..9).map(play).collect();
    assert!(others.iter().any(|t| *t != first));
}

#[test]
fn a_simulation_with_searchers_is_the_same_for_any_jobs() {
    // 70 games are three chunks of games: two threads share them out.
    let nim = rules("tests/search/nim.rcy");
    let seats = Seats::parse("random,mcts:30").unwrap();
    let set = [("STONES", "21")];
    let one = simulate_seated(&nim, &config(70, 3, 1, &set), &seats, &|_| {}).unwrap();
    let two = simulate_seated(&nim, &config(70, 3, 2, &set), &seats, &|_| {}).unwrap();
    assert_eq!(without_timing(&one), without_timing(&two));
    assert_eq!(one.seats, ["random", "mcts:30"]);
    assert_eq!(one.completed, 70);
    // Nim from 21 is won by the first player with perfect play; a search
    // of 30 iterations as second player still wins most games.
    assert!(one.wins[1] > one.wins[0], "{:?}", one.wins);
}

#[test]
fn seats_are_checked_against_the_game() {
    let nim = rules("tests/search/nim.rcy");
    let seats = Seats::parse("mcts:10,mcts:10,random").unwrap();
    let err = simulate_seated(&nim, &config(3, 0, 1, &[]), &seats, &|_| {}).unwrap_err();
    assert_eq!(err, "--seats names 3 seats but the game has 2 players");
    let (run, state) = run_seated(&nim, &options(0, &[]), 100, &seats);
    assert!(run.text.contains(&err), "{}", run.text);
    assert!(state.is_none());
    for (bad, why) in [
        ("mcts:0", "is not a number of iterations"),
        ("mcts:x", "is not a number of iterations"),
        ("random:5", "takes no budget"),
        ("alphabeta", "unknown kind `alphabeta`"),
        ("mcts,,random", "seat 1 is empty"),
        ("mcts:0s", "is not a number of seconds"),
        ("ismcts:-1s", "is not a number of seconds"),
        ("ismcts:fasts", "is not a number of seconds"),
        ("random:1s", "takes no budget"),
    ] {
        let e = Seats::parse(bad).unwrap_err();
        assert!(e.contains(why), "{bad}: {e}");
    }
}

#[test]
fn a_budget_in_seconds_stops_the_search_on_time() {
    // Carteso's first decision with 50 ms: the search stops long before
    // the iterations run out (u32::MAX), and has searched.
    let carteso = rules("games/carteso.rcy");
    let state = carteso.start(&options(1, &[])).unwrap();
    let moves = state.legal_moves();
    let config = SearchConfig::with_time(std::time::Duration::from_millis(50));
    let mut searcher = Searcher::new(Method::Mcts, config, 1);
    let started = std::time::Instant::now();
    let visits = searcher.visits(&state, &moves).unwrap();
    let took = started.elapsed();
    assert!(visits.iter().sum::<u32>() >= 1, "{visits:?}");
    // Generous for a loaded machine: the clock is read every 16
    // iterations, each well under a millisecond.
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
    let seats = Seats::parse("ismcts:0.05s,random").unwrap();
    assert_eq!(seats.describe(2), ["ismcts:0.05s", "random"]);
}

#[test]
fn mcts_beats_random_players_in_carteso() {
    // Ten games with fixed seeds, five in each seat. A player no stronger
    // than random would win 9 or more of 10 with probability about 1%.
    let carteso = rules("games/carteso.rcy");
    let mut won = 0;
    for seed in 0..10u64 {
        let seat = (seed % 2) as usize;
        let names = if seat == 0 {
            "mcts:200"
        } else {
            "random,mcts:200"
        };
        let seats = Seats::parse(names).unwrap();
        let (run, _) = run_seated(&carteso, &options(seed, &[]), 10_000, &seats);
        match run.end {
            cardboard::drivers::GameEnd::Finished(o) if o.winners == [seat] => won += 1,
            _ => {}
        }
    }
    assert!(won >= 9, "mcts won {won} of 10");
}

// ---- resampling and ISMCTS ----

#[test]
fn resampling_keeps_the_view_and_spreads_the_unseen_cards() {
    // Agram, four players, at the first decision: player 0 sees its hand;
    // the other 29 cards lie in three hands of 6 and a stock of 11.
    let agram = rules("games/agram.rcy");
    let mut state = agram.start(&options(11, &[])).unwrap();
    state.keep_seen();
    let view = state.observation(0);
    let truth = state.describe();
    let mut rng = GameRng::new(5);
    // For each card (as its name), how often it lands in each place.
    let mut counts: HashMap<String, HashMap<String, u32>> = HashMap::new();
    let samples = 2_000;
    let mut differ = 0;
    for _ in 0..samples {
        let drawn = state.resample(0, &mut rng).unwrap();
        assert_eq!(drawn.observation(0), view);
        assert_eq!(drawn.legal_moves().len(), state.legal_moves().len());
        let table = drawn.describe();
        if table != truth {
            differ += 1;
        }
        for (place, cards) in places(&table) {
            for card in cards {
                *counts
                    .entry(card)
                    .or_default()
                    .entry(place.clone())
                    .or_default() += 1;
            }
        }
    }
    assert!(differ > samples * 9 / 10, "{differ}");
    // Player 0's own cards never move; every other card goes to a hand of
    // 6 with probability 6/29 and to the stock with 11/29.
    let own = places(&truth)
        .into_iter()
        .find(|(p, _)| p == "p0 HAND")
        .unwrap()
        .1;
    let mut chi2 = 0.0;
    let mut cells = 0;
    for (card, at) in &counts {
        if own.contains(card) {
            assert_eq!(at.get("p0 HAND"), Some(&samples), "{card}");
            continue;
        }
        for (place, size) in [
            ("p1 HAND", 6.0),
            ("p2 HAND", 6.0),
            ("p3 HAND", 6.0),
            ("game STOCK", 11.0),
        ] {
            let expected = f64::from(samples) * size / 29.0;
            let seen = f64::from(at.get(place).copied().unwrap_or(0));
            chi2 += (seen - expected).powi(2) / expected;
            cells += 1;
        }
    }
    // 29 cards in 4 places: 87 degrees of freedom (mean 87, deviation
    // about 13); 150 is nearly five deviations out, while a resampling
    // that kept any card where it truly lies would pass it by thousands.
    assert_eq!(cells, 29 * 4);
    assert!(chi2 < 150.0, "chi-squared {chi2:.1}");
}

/// The cards of each location in a `describe` text: (owner and name, the
/// cards' names).
fn places(table: &str) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    let mut owner = String::new();
    for line in table.lines() {
        if !line.starts_with(' ') {
            owner = line.trim_end_matches(':').to_string();
            continue;
        }
        let Some((head, cards)) = line.trim().split_once("): ") else {
            continue;
        };
        let name = head.split(' ').nth(1).unwrap_or("");
        let cards = cards.split(' ').map(str::to_string).collect();
        out.push((format!("{owner} {name}"), cards));
    }
    out
}

#[test]
fn a_card_seen_then_hidden_stays_known_and_an_unseen_one_moves() {
    // Player 0 drew two cards and put one face down on the pile: it knows
    // that card's place; player 1 saw nothing, so for player 1 the pile's
    // card is any of the four.
    let keep = rules("tests/search/keep.rcy");
    let mut state = keep.start(&options(2, &[])).unwrap();
    state.keep_seen();
    let mv = state.legal_moves()[0].clone();
    state.apply(&mv).unwrap();
    let pile = |s: &State| {
        places(&s.describe())
            .into_iter()
            .find(|(p, _)| p == "game PILE")
            .unwrap()
            .1
    };
    let truth = pile(&state);
    let mut rng = GameRng::new(1);
    let mut for_1 = std::collections::HashSet::new();
    for _ in 0..200 {
        assert_eq!(pile(&state.resample(0, &mut rng).unwrap()), truth);
        for_1.insert(pile(&state.resample(1, &mut rng).unwrap()));
    }
    assert_eq!(for_1.len(), 4, "{for_1:?}");
}

#[test]
fn what_a_seat_knows_depends_on_what_it_observed_only() {
    // ANT and BEE go from the table to two hidden piles, one each, in an
    // order the shuffle decides: games that differ only in that order look
    // the same to player 0 at every decision, so its determinizations must
    // be the same (were it to keep either card where it truly lies, they
    // would differ). Every determinization is a deal player 0 cannot rule
    // out: the four cards over the piles and the deck, two in the deck.
    let hide = rules("tests/search/hide.rcy");
    let pile = |s: &State, name: &str| {
        places(&s.describe())
            .into_iter()
            .find(|(p, _)| p == name)
            .map_or_else(Vec::new, |(_, cards)| cards)
    };
    let mut by_left: HashMap<Vec<String>, (Vec<String>, Vec<String>)> = HashMap::new();
    for seed in 0..20 {
        let mut state = hide.start(&options(seed, &[])).unwrap();
        state.keep_seen();
        let mut views = vec![state.observation(0)];
        let mut drawn = Vec::new();
        while state.status() == Status::Running {
            let mv = state.legal_moves()[0].clone();
            state.apply(&mv).unwrap();
            views.push(state.observation(0));
            let mut rng = GameRng::new(9);
            for _ in 0..50 {
                let d = state.resample(0, &mut rng).unwrap();
                assert_eq!(d.observation(0), state.observation(0));
                let (left, right) = (pile(&d, "game LEFT"), pile(&d, "game RIGHT"));
                assert_eq!((left.len(), right.len()), (1, 1), "{}", d.describe());
                assert_eq!(pile(&d, "game DECK").len(), 2, "{}", d.describe());
                drawn.push(d.describe());
            }
        }
        by_left.insert(pile(&state, "game LEFT"), (views, drawn));
    }
    let games: Vec<_> = by_left.values().collect();
    assert_eq!(games.len(), 2, "both orders among 20 seeds");
    assert_eq!(games[0].0, games[1].0, "the views differ");
    assert!(games[0].1 == games[1].1, "the determinizations differ");
    // Player 0 forgot both cards: each goes anywhere hidden.
    let lefts: std::collections::HashSet<_> = games[0]
        .1
        .iter()
        .map(|d| places(d).into_iter().find(|(p, _)| p == "game LEFT"))
        .collect();
    assert_eq!(lefts.len(), 4, "{lefts:?}");
}

#[test]
fn a_shuffle_forgets_the_cards_known_in_the_pile() {
    // Player 0 put its two cards face down on the pile: it knows the pile
    // until the pile is shuffled (two deals: the deck's order), then
    // forgets both (all 24 deals of the four cards). A shuffle that happens
    // to leave the order as it was must forget alike: the seat cannot tell.
    let game = rules("tests/search/shuffled.rcy");
    for seed in 0..8 {
        let mut state = game.start(&options(seed, &[])).unwrap();
        state.keep_seen();
        let mut rng = GameRng::new(3);
        let mut deals = Vec::new();
        for _ in 0..2 {
            let mv = state.legal_moves()[0].clone();
            state.apply(&mv).unwrap();
            let mut seen = std::collections::HashSet::new();
            for _ in 0..100 {
                let d = state.resample(0, &mut rng).unwrap();
                seen.insert(places(&d.describe()));
            }
            deals.push(seen.len());
        }
        assert_eq!(deals, [2, 24], "seed {seed}");
    }
}

#[test]
fn ismcts_decides_the_same_whatever_the_hidden_cards() {
    // Two games of Guess the colour whose hidden cards differ but which
    // look the same to player 0. MCTS reads the hidden card and guesses
    // right in both (so the two states do call for different moves);
    // ISMCTS with the same seed makes the same choice in both.
    let guess = rules("tests/search/guess.rcy");
    let states: Vec<_> = (0..40)
        .map(|seed| guess.start(&options(seed, &[])).unwrap())
        .collect();
    let top = |s: &State| places(&s.describe())[0].1[0].clone();
    let red = states.iter().find(|s| top(s) == "RED").unwrap();
    let black = states.iter().find(|s| top(s) == "BLACK").unwrap();
    assert_eq!(red.observation(0), black.observation(0));
    let choose = |method, state: &State| {
        let mut s = Searcher::new(method, SearchConfig::with_iterations(200), 7);
        let mv = s.choose_move(state).unwrap().unwrap();
        state.move_to_text(&mv)
    };
    assert!(choose(Method::Mcts, red).contains("RED"));
    assert!(choose(Method::Mcts, black).contains("BLACK"));
    for seed in 0..8 {
        let mut a = Searcher::new(Method::Ismcts, SearchConfig::with_iterations(200), seed);
        let mut b = a.clone();
        let ma = a.choose_move(red).unwrap().unwrap();
        let mb = b.choose_move(black).unwrap().unwrap();
        assert_eq!(
            red.move_to_text(&ma),
            black.move_to_text(&mb),
            "seed {seed}"
        );
        assert_eq!(
            a.visits(red, &red.legal_moves()),
            b.visits(black, &black.legal_moves())
        );
    }
}

/// Draw or pass: a red and a black card shuffled face down; player 0 may
/// take the top card into its hand (and wins when it is red) or pass (and
/// loses). The draw's text names the card it takes, which player 0 cannot
/// see before it plays: ISMCTS must tell its moves apart by their text as
/// player 0 reads them, or it would match determinizations on the true
/// card.
const DRAW: &str = "
(game
 (setup (create players 2)
        (create deck (game hloc DECK) (deck (COLOR (RED, BLACK)))))
 (shuffle (game hloc DECK))
 (stage player (end (== (game sto DONE) 1))
   (choice ((move (top (game hloc DECK)) (top ((current player) iloc HAND)))
            (set (game sto PASSED) 1)))
   (set (game sto DONE) 1)
   ((== (game sto PASSED) 1) (set ((next player) sto WON) 1))
   (all ((current player) iloc HAND) 'C
     ((== (cardatt COLOR 'C) RED) (set ((current player) sto WON) 1)))
   (all ((current player) iloc HAND) 'C
     ((== (cardatt COLOR 'C) BLACK) (set ((next player) sto WON) 1))))
 (scoring max ((current player) sto WON)))
";

#[test]
fn ismcts_matches_no_move_on_a_card_it_cannot_see() {
    let draw = Rules::from_source("draw.rcy", DRAW).unwrap();
    let states: Vec<_> = (0..40)
        .map(|seed| draw.start(&options(seed, &[])).unwrap())
        .collect();
    let top = |s: &State| places(&s.describe())[0].1[0].clone();
    let red = states.iter().find(|s| top(s) == "RED").unwrap();
    let black = states.iter().find(|s| top(s) == "BLACK").unwrap();
    assert_eq!(red.observation(0), black.observation(0));
    // The engine's own texts name the card (so transcripts replay)...
    assert_ne!(
        red.moves_to_text(&red.legal_moves()),
        black.moves_to_text(&black.legal_moves())
    );
    // ...and ISMCTS searches alike in both.
    for seed in 0..8 {
        let mut a = Searcher::new(Method::Ismcts, SearchConfig::with_iterations(100), seed);
        let mut b = a.clone();
        let ma = a.choose_move(red).unwrap().unwrap();
        let mb = b.choose_move(black).unwrap().unwrap();
        assert_eq!(
            red.legal_moves().iter().position(|m| *m == ma),
            black.legal_moves().iter().position(|m| *m == mb),
            "seed {seed}"
        );
        assert_eq!(
            a.visits(red, &red.legal_moves()),
            b.visits(black, &black.legal_moves()),
            "seed {seed}"
        );
    }
}

/// A game whose every call is noted, to see what ISMCTS asks of the true
/// state; the states it resamples note nothing.
#[derive(Debug)]
struct Spy {
    inner: State,
    calls: Option<Arc<Mutex<Vec<&'static str>>>>,
}

impl Spy {
    fn note(&self, call: &'static str) {
        if let Some(calls) = &self.calls {
            calls.lock().unwrap().push(call);
        }
    }
}

impl Clone for Spy {
    fn clone(&self) -> Spy {
        self.note("clone");
        Spy {
            inner: self.inner.clone(),
            calls: self.calls.clone(),
        }
    }
}

impl GameState for Spy {
    type Move = Move;
    type Undo = cardboard::engine::MoveUndo;
    fn num_players(&self) -> usize {
        self.note("num_players");
        self.inner.num_players()
    }
    fn current_player(&self) -> Option<usize> {
        self.note("current_player");
        self.inner.current_player()
    }
    fn status(&self) -> Status {
        self.note("status");
        self.inner.status()
    }
    fn legal_moves(&self) -> Vec<Move> {
        self.note("legal_moves");
        self.inner.legal_moves()
    }
    fn random_move(&self, rng: &mut GameRng) -> Option<Move> {
        self.note("random_move");
        self.inner.random_move(rng)
    }
    fn apply(&mut self, mv: &Move) -> Result<(), PlayError> {
        self.note("apply");
        self.inner.apply(mv)
    }
    fn apply_undoable(&mut self, mv: &Move) -> Result<Self::Undo, PlayError> {
        self.note("apply_undoable");
        self.inner.apply_undoable(mv)
    }
    fn undo(&mut self, undo: Self::Undo) {
        self.note("undo");
        self.inner.undo(undo)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.note("outcome");
        self.inner.outcome()
    }
    fn score_now(&self) -> Option<Outcome> {
        self.note("score_now");
        self.inner.score_now()
    }
    fn observation(&self, player: usize) -> String {
        self.note("observation");
        self.inner.observation(player)
    }
    fn move_to_text(&self, mv: &Move) -> String {
        self.note("move_to_text");
        self.inner.move_to_text(mv)
    }
    fn moves_to_text(&self, moves: &[Move]) -> Vec<String> {
        self.note("moves_to_text");
        self.inner.moves_to_text(moves)
    }
    fn moves_to_text_for(&self, moves: &[Move], seat: usize) -> Vec<String> {
        self.note("moves_to_text_for");
        self.inner.moves_to_text_for(moves, seat)
    }
    fn move_from_text(&self, text: &str) -> Result<Move, PlayError> {
        self.note("move_from_text");
        self.inner.move_from_text(text)
    }
    fn reseed_chance(&mut self, seed: u64) {
        self.note("reseed_chance");
        self.inner.reseed_chance(seed)
    }
    fn keep_seen(&mut self) {
        self.note("keep_seen");
        self.inner.keep_seen()
    }
    fn resample(&self, observer: usize, rng: &mut GameRng) -> Option<Spy> {
        self.note("resample");
        Some(Spy {
            inner: self.inner.resample(observer, rng)?,
            calls: None,
        })
    }
}

#[test]
fn ismcts_asks_the_true_state_only_for_its_moves_and_resamples() {
    // The true state is never copied, played on, scored or looked at
    // whole: ISMCTS asks who is to play, the moves and their texts, and
    // for determinizations (which depend on the hidden cards only through
    // what the seat has seen: the test above).
    let agram = rules("games/agram.rcy");
    let calls = Arc::new(Mutex::new(Vec::new()));
    let mut state = agram.start(&options(3, &[])).unwrap();
    state.keep_seen();
    let mut searcher = Searcher::new(Method::Ismcts, SearchConfig::with_iterations(50), 1);
    for _ in 0..6 {
        let spy = Spy {
            inner: state.clone(),
            calls: Some(calls.clone()),
        };
        let mv = searcher.choose_move(&spy).unwrap().unwrap();
        state.apply(&mv).unwrap();
    }
    let mut asked: Vec<&str> = calls.lock().unwrap().clone();
    asked.sort_unstable();
    asked.dedup();
    assert_eq!(
        asked,
        [
            "current_player",
            "legal_moves",
            "moves_to_text_for",
            "resample"
        ]
    );
}

/// A long race (a file of its own would change the fuzz campaign's
/// inputs, which reads every `.rcy` under tests/): for LENGTH turns in
/// all, the player to move either scores a point or lets the turn go; the
/// most points win. A playout cut long before the end (the search's
/// playout limit) is scored as it stands (GameState::score_now), so a
/// search sees that a point now is worth having.
const RACE: &str = "
(game
 (declare 400 'LENGTH)
 (setup (create players 2))
 (stage player (end (== (game sto TURNS) 'LENGTH))
   (choice
    ((inc (game sto IDLE) 1)
     (inc ((current player) sto POINTS) 1)))
   (inc (game sto TURNS) 1))
 (scoring max ((current player) sto POINTS)))
";

fn race() -> Rules {
    Rules::from_source("race.rcy", RACE).unwrap()
}

#[test]
fn score_now_is_the_scoring_of_the_table_as_it_stands_and_changes_nothing() {
    // The race after four decisions (seed fixed): the points scored so far
    // are the scores, the seats ahead the winners; a finished game scores
    // as its outcome.
    let race = race();
    let mut state = race.start(&options(1, &[("LENGTH", "6")])).unwrap();
    let mut rng = GameRng::new(5);
    for _ in 0..4 {
        let mv = state.random_move(&mut rng).unwrap();
        state.apply(&mv).unwrap();
    }
    let points = |s: &State, p: &str| {
        let (text, key) = (s.describe(), format!("{p}:\n  sto POINTS = "));
        let at = text.find(&key).map(|i| i + key.len());
        at.map_or(0, |i| {
            text[i..]
                .split_whitespace()
                .next()
                .unwrap()
                .parse::<i64>()
                .unwrap()
        })
    };
    let now = state.score_now().unwrap();
    assert_eq!(now.scores, vec![points(&state, "p0"), points(&state, "p1")]);
    let best = *now.scores.iter().max().unwrap();
    let ahead: Vec<usize> = (0..2).filter(|&p| now.scores[p] == best).collect();
    assert_eq!(now.winners, ahead);
    while let Some(mv) = state.random_move(&mut rng) {
        state.apply(&mv).unwrap();
    }
    assert_eq!(state.status(), Status::Finished);
    assert_eq!(state.score_now(), state.outcome());

    // Scoring a running game changes nothing: a game scored at every
    // decision plays on as a copy that never was (Carteso and Agram, whose
    // scorings read piles and storages).
    for (file, set) in [
        ("games/carteso.rcy", vec![]),
        ("games/agram.rcy", vec![("NUMP", "4")]),
    ] {
        let game = rules(file);
        let mut scored = game.start(&options(9, &set)).unwrap();
        let mut plain = scored.clone();
        let (mut r1, mut r2) = (GameRng::new(3), GameRng::new(3));
        while scored.current_player().is_some() {
            assert!(scored.score_now().is_some(), "{file}");
            assert_eq!(scored.observation(0), plain.observation(0), "{file}");
            assert_eq!(scored.legal_moves(), plain.legal_moves(), "{file}");
            let (a, b) = (
                scored.random_move(&mut r1).unwrap(),
                plain.random_move(&mut r2).unwrap(),
            );
            assert_eq!(a, b, "{file}");
            scored.apply(&a).unwrap();
            plain.apply(&b).unwrap();
        }
        assert_eq!(scored.outcome(), plain.outcome(), "{file}");
        assert_eq!(scored.describe(), plain.describe(), "{file}");
    }
}

#[test]
fn a_playout_cut_before_the_end_is_scored_as_the_game_stands() {
    // In a race of 400 turns, playouts of 20 decisions never reach the
    // end: scored as draws they would tell the two moves apart by chance
    // only. Scored as the game stands, a point now is seen to be worth
    // having, for every seed.
    let race = race();
    let state = race.start(&options(0, &[])).unwrap();
    let config = SearchConfig {
        playout_limit: 20,
        ..SearchConfig::with_iterations(400)
    };
    for seed in 0..6 {
        let mut searcher = Searcher::new(Method::Mcts, config, seed);
        let visits = searcher.visits(&state, &state.legal_moves()).unwrap();
        let mv = searcher.choose_move(&state).unwrap().unwrap();
        assert!(
            state.move_to_text(&mv).contains("POINTS"),
            "seed {seed}: {visits:?}"
        );
        assert!(visits[1] > 2 * visits[0], "seed {seed}: {visits:?}");
    }
}

/// A game that stops at a limit along every line (it loops without a
/// decision after the last choice): the search gives up after its first
/// iterations instead of paying `--max-steps` in each of its 1,000, and a
/// game that plays on searches its whole budget.
#[test]
fn a_search_gives_up_on_a_game_that_stops_along_every_line() {
    use cardboard::engine::Limits;
    use cardboard::search::tree::GIVE_UP_AFTER;
    let limits = Limits {
        steps: 10_000,
        ..Limits::default()
    };
    let looping = rules("tests/search/loops.rcy").with_limits(limits);
    for (kind, method) in [("mcts", Method::Mcts), ("ismcts", Method::Ismcts)] {
        let state = looping.start(&options(1, &[])).unwrap();
        let moves = state.legal_moves();
        let mut searcher = Searcher::new(method, SearchConfig::with_iterations(1000), 7);
        let visits = searcher.visits(&state, &moves).unwrap();
        let total: u32 = visits.iter().sum();
        assert!(total <= GIVE_UP_AFTER, "{kind}: {visits:?}");
        // The game itself stops at the limit, as the search found.
        let mut game = state.clone();
        while game.current_player().is_some() {
            let mv = game.legal_moves()[0].clone();
            game.apply(&mv).unwrap();
        }
        assert!(matches!(game.status(), Status::Stopped(_)), "{kind}");
    }
    let nim = rules("tests/search/nim.rcy");
    let state = nim.start(&options(1, &[])).unwrap();
    let moves = state.legal_moves();
    let mut searcher = Searcher::new(Method::Mcts, SearchConfig::with_iterations(1000), 7);
    let total: u32 = searcher.visits(&state, &moves).unwrap().iter().sum();
    assert_eq!(total, 1000);
}
