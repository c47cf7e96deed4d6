//! Positions (docs/positions.md): saving a game at any decision and loading
//! it gives the same table, legal moves, player to move and whole future;
//! hand-written positions load and play as written; bad positions are
//! refused with the line and the reason, never a panic.

mod common;

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::{GameState, Status};
use cardboard::random::{below, GameRng};
use std::path::Path;

fn load(path: &Path) -> Rules {
    Rules::load(path).unwrap_or_else(|e| panic!("{} does not load:\n{e}", path.display()))
}

fn agram() -> Rules {
    load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/agram.rcy"))
}

fn start(rules: &Rules, seed: u64, set: &[(&str, &str)]) -> State {
    let overrides = set
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    rules
        .start(&GameOptions { seed, overrides })
        .unwrap_or_else(|e| panic!("the game does not start: {e}"))
}

/// The legal moves as text (each text costs a pass over all moves, so for
/// long lists only the first and last few).
fn move_texts(state: &State) -> Vec<String> {
    let moves = state.legal_moves();
    let n = moves.len();
    moves
        .iter()
        .enumerate()
        .filter(|(i, _)| n <= 40 || *i < 5 || *i + 5 >= n)
        .map(|(_, m)| state.move_to_text(m))
        .collect()
}

/// Asserts that two states look and play the same now (`texts`: compare
/// the move texts and observations too, which costs more).
fn same_now(a: &State, b: &State, texts: bool, context: &str) {
    assert_eq!(a.describe(), b.describe(), "{context}: describe");
    assert_eq!(a.status(), b.status(), "{context}: status");
    assert_eq!(a.current_player(), b.current_player(), "{context}: player");
    assert_eq!(a.legal_moves(), b.legal_moves(), "{context}: moves");
    assert_eq!(a.outcome(), b.outcome(), "{context}: outcome");
    assert_eq!(a.decisions(), b.decisions(), "{context}: decisions");
    if texts {
        assert_eq!(move_texts(a), move_texts(b), "{context}: move texts");
        for p in 0..a.num_players() {
            assert_eq!(
                a.observation(p),
                b.observation(p),
                "{context}: observation {p}"
            );
        }
    }
}

/// Moves of the future compared after a round trip (some corpus games run
/// for thousands of decisions).
const FUTURE: usize = 300;

/// Saves `state`, loads it back, checks the copy against the original now
/// and (with `future`) along the rest of the game under the same random
/// moves. Returns the position text.
fn round_trip(rules: &Rules, state: &State, future: Option<u64>, context: &str) -> String {
    let text = state.to_position();
    let loaded = rules
        .load_position(&text)
        .unwrap_or_else(|e| panic!("{context}: the saved position does not load: {e}\n{text}"));
    same_now(state, &loaded, true, context);
    assert_eq!(loaded.to_position(), text, "{context}: saved again differs");
    if let Some(seed) = future {
        let (mut a, mut b) = (state.clone(), loaded);
        let mut rng = GameRng::new(seed);
        let mut steps = 0;
        while a.status() == Status::Running && steps < FUTURE {
            let moves = a.legal_moves();
            let mv = moves[below(&mut rng, moves.len())].clone();
            a.apply(&mv).expect("the original plays");
            b.apply(&mv).expect("the loaded copy plays the same move");
            steps += 1;
            same_now(&a, &b, false, &format!("{context}, {steps} moves later"));
        }
    }
    text
}

/// Plays a seeded random game, round-tripping the position at every
/// decision (and at the end); the whole future is compared at the decisions
/// `future` selects.
fn check_game(
    rules: &Rules,
    seed: u64,
    set: &[(&str, &str)],
    limit: u64,
    future: impl Fn(u64) -> bool,
    name: &str,
) {
    let mut state = start(rules, seed, set);
    let mut rng = GameRng::new(seed ^ 0xABCD);
    loop {
        let n = state.decisions();
        let context = format!("{name} seed {seed} decision {n}");
        round_trip(rules, &state, future(n).then_some(seed + n), &context);
        if state.status() != Status::Running || n >= limit {
            break;
        }
        let moves = state.legal_moves();
        let mv = moves[below(&mut rng, moves.len())].clone();
        state.apply(&mv).unwrap();
    }
}

#[test]
fn agram_round_trips_at_every_decision() {
    let rules = agram();
    for seed in 0..4 {
        check_game(&rules, seed, &[], 1000, |_| true, "agram");
    }
    for (seed, set) in [
        (7, [("NUMP", "3")]),
        (8, [("NUMP", "6")]),
        (9, [("HANDSIZE", "5")]),
    ] {
        check_game(&rules, seed, &set, 1000, |_| true, "agram");
    }
}

#[test]
fn shipped_and_corpus_games_round_trip() {
    let mut files = common::game_files();
    files.extend(common::corpus_files());
    let mut checked = 0;
    for path in &files {
        // Files that do not compile are the other tests' business.
        let Ok(rules) = Rules::load(path) else {
            continue;
        };
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        // Games that do not start are the invariants test's business.
        if rules.start(&GameOptions::default()).is_err() {
            continue;
        }
        let t = std::time::Instant::now();
        check_game(&rules, 1, &[], 200, |n| n % 25 == 3, &name);
        eprintln!("{name}: {:.2}s", t.elapsed().as_secs_f64());
        checked += 1;
    }
    eprintln!("round-tripped {checked} games");
}

/// Agram, second trick of four players: p0 led the nine of hearts, p1
/// followed with the four; p2 holds two hearts, so must play one of them.
/// Written by hand, with the cards every player holds.
const AGRAM_PUZZLE: &str = "\
cardboard position 1
# p2 must follow hearts: the three or the ace
set NUMP=4
set HANDSIZE=6
decisions 6
frames top:1 stage0:0 stage1:0
cycles player 0 0 2
chance seed=5
game hloc STOCK (11): SPADES-FOUR SPADES-FIVE CLUBS-FOUR CLUBS-FIVE DIAMONDS-THREE \
DIAMONDS-FOUR HEARTS-FIVE HEARTS-SIX CLUBS-SIX CLUBS-SEVEN SPADES-TEN
game vloc PLAYED (4): DIAMONDS-SIX DIAMONDS-SEVEN DIAMONDS-EIGHT DIAMONDS-NINE
game sto HANDSIZE = 6
game str LEADSUIT = HEARTS
game points RANKING = ((RANK : ACE) 14) ((RANK : TEN) 10) ((RANK : NINE) 9) \
((RANK : EIGHT) 8) ((RANK : SEVEN) 7) ((RANK : SIX) 6) ((RANK : FIVE) 5) \
((RANK : FOUR) 4) ((RANK : THREE) 3)
p0 iloc HAND: HEARTS-TEN CLUBS-THREE SPADES-THREE SPADES-SIX
p0 vloc TRICK: HEARTS-NINE
p1 iloc HAND (4): CLUBS-ACE CLUBS-EIGHT SPADES-SEVEN SPADES-EIGHT
p1 vloc TRICK: HEARTS-FOUR
p2 iloc HAND: HEARTS-THREE CLUBS-TEN HEARTS-ACE SPADES-NINE DIAMONDS-FIVE
p3 iloc HAND: DIAMONDS-TEN DIAMONDS-ACE CLUBS-NINE HEARTS-SEVEN HEARTS-EIGHT
";

/// The puzzle's text.
fn puzzle() -> String {
    AGRAM_PUZZLE.to_string()
}

#[test]
fn a_hand_written_agram_position_plays_as_written() {
    let rules = agram();
    let state = rules
        .load_position(&puzzle())
        .unwrap_or_else(|e| panic!("the puzzle does not load: {e}"));
    assert_eq!(state.current_player(), Some(2));
    assert_eq!(state.decisions(), 6);
    let mut texts = move_texts(&state);
    texts.sort();
    assert_eq!(
        texts,
        [
            "move HEARTS-ACE p2 HAND -> p2 TRICK",
            "move HEARTS-THREE p2 HAND -> p2 TRICK"
        ]
    );
    // The ace wins the trick (p3 has hearts too, but lower): p2 leads next.
    let mut s = state.clone();
    let ace = s
        .move_from_text("move HEARTS-ACE p2 HAND -> p2 TRICK")
        .unwrap();
    s.apply(&ace).unwrap();
    assert_eq!(s.current_player(), Some(3));
    assert_eq!(move_texts(&s).len(), 2, "p3 follows with a heart");
    let seven = s
        .move_from_text("move HEARTS-SEVEN p3 HAND -> p3 TRICK")
        .unwrap();
    s.apply(&seven).unwrap();
    assert_eq!(s.current_player(), Some(2), "the ace's owner leads");
    assert_eq!(s.legal_moves().len(), 4, "any of p2's four cards");
    // Saved again, the hand-written position reads as the canonical text.
    let canonical = state.to_position();
    assert!(canonical
        .contains("p2 iloc HAND (5): HEARTS-THREE CLUBS-TEN HEARTS-ACE SPADES-NINE DIAMONDS-FIVE"));
    assert!(canonical.contains("teams 0 1 2 3"));
    assert!(canonical.contains("cycles team 0\n"));
    round_trip(&rules, &state, Some(11), "the puzzle");
}

#[test]
fn a_finished_position_loads_with_its_outcome() {
    let rules = agram();
    let mut state = start(&rules, 4, &[]);
    let mut rng = GameRng::new(4);
    while state.status() == Status::Running {
        let moves = state.legal_moves();
        state.apply(&moves[below(&mut rng, moves.len())]).unwrap();
    }
    let text = state.to_position();
    assert!(text.contains("\nframes\n"), "{text}");
    let loaded = rules.load_position(&text).unwrap();
    assert_eq!(loaded.status(), Status::Finished);
    assert_eq!(loaded.outcome(), state.outcome());
    assert_eq!(loaded.current_player(), None);
}

/// Replaces the first line that starts with `prefix` by `with` (or removes
/// it when `with` is empty).
fn edit(text: &str, prefix: &str, with: &str) -> String {
    let mut done = false;
    let mut out = String::new();
    for l in text.lines() {
        if !done && l.starts_with(prefix) {
            done = true;
            if !with.is_empty() {
                out.push_str(with);
                out.push('\n');
            }
        } else {
            out.push_str(l);
            out.push('\n');
        }
    }
    assert!(done, "no line starts with `{prefix}`");
    out
}

#[test]
fn bad_positions_say_which_line_and_what() {
    let rules = agram();
    let good = start(&rules, 2, &[]).to_position();
    let line_of = |text: &str, prefix: &str| {
        1 + text
            .lines()
            .position(|l| l.starts_with(prefix))
            .unwrap_or_else(|| panic!("no line `{prefix}`"))
    };
    let hand = good
        .lines()
        .find(|l| l.starts_with("p0 iloc HAND"))
        .unwrap()
        .to_string();
    let first_card = hand
        .split(": ")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    let p1_hand = good
        .lines()
        .find(|l| l.starts_with("p1 iloc HAND"))
        .unwrap()
        .to_string();
    let cases: Vec<(String, usize, &str)> = vec![
        (String::new(), 0, "the position is empty"),
        (
            "hello\n".into(),
            1,
            "begins with the line `cardboard position 1`",
        ),
        (
            good.replace("cardboard position 1", "cardboard position 2"),
            1,
            "reads `cardboard position 1` only",
        ),
        (
            edit(
                &good,
                "p1 iloc HAND",
                &format!("{} {first_card}", p1_hand.replace(" (6)", "")),
            ),
            line_of(&good, "p1 iloc HAND"),
            "appears twice",
        ),
        (
            edit(&good, "p1 iloc HAND", ""),
            0,
            "cards of the rules are missing from the position",
        ),
        (
            edit(
                &good,
                "p0 iloc HAND",
                &hand.replace(&first_card, "HEARTS-KING"),
            ),
            line_of(&good, "p0 iloc HAND"),
            "no card of the rules is called `HEARTS-KING`",
        ),
        (
            edit(&good, "p0 iloc HAND", &hand.replace("(6)", "(5)")),
            line_of(&good, "p0 iloc HAND"),
            "says (5) but lists 6 cards",
        ),
        (
            edit(&good, "p0 iloc HAND", &hand.replace("iloc", "vloc")),
            line_of(&good, "p0 iloc HAND"),
            "no location `vloc HAND` (it has `iloc HAND`)",
        ),
        (
            edit(&good, "p0 iloc HAND", &hand.replace("p0", "p9")),
            line_of(&good, "p0 iloc HAND"),
            "`p9` is neither a line kind nor an owner",
        ),
        (
            edit(&good, "p0 iloc HAND", &hand.replace(":", "")),
            line_of(&good, "p0 iloc HAND"),
            "with a colon before the cards",
        ),
        (
            edit(&good, "p0 iloc HAND", "p0 iloc HAND: HEARTS-TEN*40"),
            line_of(&good, "p0 iloc HAND"),
            "`HEARTS-TEN*40`: more cards than the 35 the rules have",
        ),
        (
            edit(&good, "p0 iloc HAND", "p0 iloc HAND: HEARTS-TEN*2"),
            line_of(&good, "p0 iloc HAND"),
            "card HEARTS-TEN appears twice",
        ),
        (
            edit(&good, "set NUMP", "set NUMP=3"),
            line_of(&good, "teams"),
            "team3 has seat 3, but the seats are 0 to 2",
        ),
        (
            edit(&good, "set NUMP", "set PLAYERS=3"),
            line_of(&good, "set NUMP"),
            "the rules declare no `'PLAYERS`",
        ),
        (
            edit(&good, "set NUMP", "set NUMP=four"),
            line_of(&good, "set NUMP"),
            "an integer",
        ),
        (
            edit(&good, "set NUMP", "set NUMP=99"),
            0,
            "cannot start with the position's settings",
        ),
        (
            edit(&good, "decisions", "decisions -1"),
            line_of(&good, "decisions"),
            "not a number of decisions",
        ),
        (edit(&good, "frames", ""), 0, "missing the `frames` line"),
        (
            edit(&good, "frames", "frames top:0"),
            line_of(&good, "frames"),
            "not at a decision: item 0 of top is not a choice",
        ),
        (
            edit(&good, "frames", "frames top:1 stage1:0"),
            line_of(&good, "frames"),
            "item 1 of top is stage0, not stage1",
        ),
        (
            edit(&good, "frames", "frames top:1 stage7:0"),
            line_of(&good, "frames"),
            "there is no stage7",
        ),
        (
            edit(&good, "frames", "frames top:9"),
            line_of(&good, "frames"),
            "top has items 0 to 1, not 9",
        ),
        (
            edit(&good, "frames", "frames stage0:0"),
            line_of(&good, "frames"),
            "the first frame is `top:N`",
        ),
        (
            edit(&good, "frames", "frames top:x"),
            line_of(&good, "frames"),
            "`x` is not an item number",
        ),
        (
            edit(&good, "cycles player", "cycles player 0 0"),
            line_of(&good, "cycles player"),
            "the frames need 3",
        ),
        (
            edit(&good, "cycles player", "cycles player 0 0 4"),
            line_of(&good, "cycles player"),
            "the players are 0 to 3",
        ),
        (
            edit(&good, "cycles player", "cycles player 0 0 1>7"),
            line_of(&good, "cycles player"),
            "player 7",
        ),
        (
            edit(&good, "cycles player", "cycles robot 0"),
            line_of(&good, "cycles player"),
            "`player` or `team`",
        ),
        (
            edit(&good, "teams", "teams 0,1 1,2 3"),
            line_of(&good, "teams"),
            "seat 1 is in team0 and in team1",
        ),
        (
            edit(&good, "teams", "teams 0,1 2"),
            line_of(&good, "teams"),
            "seat 3 is in no team",
        ),
        (
            edit(&good, "teams", "teams 0 1 2 3 4"),
            line_of(&good, "teams"),
            "seat 4",
        ),
        (
            edit(&good, "chance", "chance key=00 stream=0 word=0"),
            line_of(&good, "chance"),
            "64 hexadecimal digits",
        ),
        (
            edit(&good, "chance", "chance dice"),
            line_of(&good, "chance"),
            "`seed=N`",
        ),
        (
            edit(&good, "chance", "chance seed=1 seed=2"),
            line_of(&good, "chance"),
            "appears twice",
        ),
        (
            edit(&good, "chance", "chance word=5"),
            line_of(&good, "chance"),
            "`key=HEX stream=N word=N`",
        ),
        (
            edit(&good, "game sto HANDSIZE", "game sto HANDSIZE = lots"),
            line_of(&good, "game sto"),
            "not an integer",
        ),
        (
            edit(&good, "game sto HANDSIZE", "game sto HANDSIZ = 6"),
            line_of(&good, "game sto"),
            "no integer storage `HANDSIZ`",
        ),
        (
            edit(&good, "game sto HANDSIZE", "game sto HANDSIZE 6"),
            line_of(&good, "game sto"),
            "`OWNER sto NAME = VALUE`",
        ),
        (
            edit(&good, "game sto HANDSIZE", "game cup HANDSIZE = 6"),
            line_of(&good, "game sto"),
            "`cup` is not a kind of location or storage",
        ),
        (
            edit(
                &good,
                "game points",
                "game points RANKING = ((RANK : ACE) 14",
            ),
            line_of(&good, "game points"),
            "expected `)`, found the end of the line",
        ),
        (
            edit(
                &good,
                "game points",
                "game points RANKING = ((COLOUR : ACE) 14)",
            ),
            line_of(&good, "game points"),
            "`COLOUR` is not an attribute of the rules",
        ),
        (
            edit(
                &good,
                "game points",
                "game points RANKING = ((SUIT : ACE) many)",
            ),
            line_of(&good, "game points"),
            "`many` is not a number of points",
        ),
        (
            format!("{good}game str LEADSUIT = PURPLE\n"),
            good.lines().count() + 1,
            "`PURPLE` is not a value of the rules",
        ),
        (
            format!("{good}game sto HANDSIZE = 5\n"),
            good.lines().count() + 1,
            "`game sto HANDSIZE` appears twice (first at line",
        ),
        (
            format!("{good}cardboard position 1\n"),
            good.lines().count() + 1,
            "header line appears again",
        ),
    ];
    for (text, line, what) in cases {
        match rules.load_position(&text) {
            Ok(_) => panic!("accepted a bad position (expected `{what}`):\n{text}"),
            Err(e) => {
                assert!(
                    e.message.contains(what),
                    "expected `{what}` in the message, got `{e}`\n{text}"
                );
                assert_eq!(e.line, line, "line of `{e}`");
            }
        }
    }
}

#[test]
fn a_position_where_the_player_cannot_move_is_refused() {
    let rules = agram();
    // p2 to lead, with an empty hand: no legal move.
    let text = puzzle()
        .replace(
            "p2 iloc HAND: HEARTS-THREE CLUBS-TEN HEARTS-ACE SPADES-NINE DIAMONDS-FIVE\n",
            "",
        )
        .replace(
            "game vloc PLAYED (4): ",
            "game vloc PLAYED (9): HEARTS-THREE CLUBS-TEN HEARTS-ACE SPADES-NINE DIAMONDS-FIVE ",
        );
    let e = rules.load_position(&text).unwrap_err();
    assert!(e.message.contains("no legal move"), "{e}");
}

/// Random damage to saved positions (lines dropped, duplicated, swapped,
/// cut, characters changed) is refused or accepted, never a panic.
#[test]
fn damaged_positions_never_panic() {
    let mut texts = vec![start(&agram(), 3, &[]).to_position(), puzzle()];
    for name in ["carteso.rcy", "cartagena.rcy"] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games")
            .join(name);
        if let Ok(rules) = Rules::load(&path) {
            if let Ok(state) = rules.start(&GameOptions::default()) {
                texts.push(state.to_position());
            }
        }
    }
    let rules_for = |i: usize| -> Option<Rules> {
        match i {
            0 | 1 => Some(agram()),
            2 => Rules::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/carteso.rcy")).ok(),
            _ => {
                Rules::load(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/cartagena.rcy")).ok()
            }
        }
    };
    let junk = [
        "",
        " ",
        ":",
        "=",
        "(",
        ")",
        "#",
        ">",
        ",",
        "[",
        "]",
        "0",
        "-1",
        "99999999999999999999",
        "p0",
        "game",
        "top:",
        "stage",
        "?",
        "\"\"",
        "\u{e9}",
        "key=",
        "\t",
    ];
    let mut rng = GameRng::new(99);
    for (i, text) in texts.iter().enumerate() {
        let Some(rules) = rules_for(i) else { continue };
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..400 {
            let mut ls: Vec<String> = lines.iter().map(|s| s.to_string()).collect();
            for _ in 0..1 + below(&mut rng, 3) {
                let k = below(&mut rng, ls.len().max(1)).min(ls.len().saturating_sub(1));
                match below(&mut rng, 6) {
                    0 => {
                        ls.remove(k);
                    }
                    1 => {
                        let l = ls[k].clone();
                        ls.insert(k, l);
                    }
                    2 => {
                        let j = below(&mut rng, ls.len());
                        ls.swap(k, j);
                    }
                    3 => {
                        let cut = below(&mut rng, ls[k].len() + 1);
                        let cut = (0..=cut)
                            .rev()
                            .find(|&c| ls[k].is_char_boundary(c))
                            .unwrap_or(0);
                        ls[k].truncate(cut);
                    }
                    _ => {
                        let words: Vec<String> = ls[k].split(' ').map(str::to_string).collect();
                        let w = below(&mut rng, words.len());
                        let mut words = words;
                        words[w] = junk[below(&mut rng, junk.len())].to_string();
                        ls[k] = words.join(" ");
                    }
                }
                if ls.is_empty() {
                    break;
                }
            }
            let damaged = ls.join("\n");
            if let Ok(state) = rules.load_position(&damaged) {
                // Whatever loads must be playable.
                let _ = state.legal_moves();
                let _ = state.to_position();
                let _ = state.describe();
            }
        }
    }
}

fn cardboard(args: &[&str]) -> (i32, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cardboard"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("run cardboard");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn command_line_saves_and_starts_from_positions() {
    let dir = std::env::temp_dir().join(format!("cardboard-positions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let pos = dir.join("five.pos");
    let pos_arg = pos.to_str().unwrap();

    // Save after five decisions of seed 7: the position of the library.
    let (code, out, err) = cardboard(&[
        "run",
        "games/agram.rcy",
        "--seed",
        "7",
        "--save-at",
        "5",
        "--save",
        pos_arg,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("== stopped at the limit of 5 decisions =="),
        "{out}"
    );
    assert!(
        err.contains("saved the position after 5 decisions"),
        "{err}"
    );
    let saved = std::fs::read_to_string(&pos).unwrap();
    let rules = agram();
    let mut state = start(&rules, 7, &[]);
    let mut player = cardboard::player::RandomPlayer::new(cardboard::drivers::player_seed(7));
    for _ in 0..5 {
        use cardboard::player::Player;
        let moves = state.legal_moves();
        let i = player.choose(&state, &moves);
        state.apply(&moves[i]).unwrap();
    }
    assert_eq!(saved, state.to_position());

    // Run on from it: the transcript starts at the position's table.
    let (code, out, err) = cardboard(&[
        "run",
        "games/agram.rcy",
        "--position",
        pos_arg,
        "--seed",
        "3",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&format!("position: {pos_arg}")), "{out}");
    assert!(out.contains("set: NUMP=4, HANDSIZE=6"), "{out}");
    assert!(out.contains(&state.describe().lines().next().unwrap().to_string()));
    assert!(out.contains("== finished after 19 decisions =="), "{out}");

    // perft from it agrees with the library.
    let (code, out, err) = cardboard(&["perft", "games/agram.rcy", "3", "--position", pos_arg]);
    assert_eq!(code, 0, "{err}");
    let counts = cardboard::drivers::perft::perft(&state, 3).unwrap();
    assert_eq!(out, cardboard::drivers::perft::perft_table(&counts));

    // simulate from it: every game has the 19 decisions left.
    let (code, out, err) = cardboard(&[
        "simulate",
        "games/agram.rcy",
        "--games",
        "50",
        "--position",
        pos_arg,
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"completed\": 50"), "{out}");
    assert!(out.contains("\"min_decisions\": 19"), "{out}");
    assert!(out.contains("\"max_decisions\": 19"), "{out}");

    // A bad position: file, line, what; exit code 1.
    let bad = dir.join("bad.pos");
    std::fs::write(&bad, saved.replace("decisions 5", "decisions five")).unwrap();
    let bad_arg = bad.to_str().unwrap();
    let (code, _, err) = cardboard(&["run", "games/agram.rcy", "--position", bad_arg]);
    assert_eq!(code, 1);
    let line = 1 + saved
        .lines()
        .position(|l| l.starts_with("decisions"))
        .unwrap();
    assert!(
        err.contains(&format!(
            "{bad_arg}:{line}: `five` is not a number of decisions"
        )),
        "{err}"
    );
    let (code, _, err) = cardboard(&["perft", "games/agram.rcy", "2", "--position", "no/such.pos"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read no/such.pos"), "{err}");
    let (code, _, err) = cardboard(&[
        "run",
        "games/agram.rcy",
        "--position",
        pos_arg,
        "--set",
        "NUMP=3",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("cannot be used with"), "{err}");
    let (code, _, err) = cardboard(&["run", "games/agram.rcy", "--save-at", "3"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--save"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
