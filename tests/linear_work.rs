//! Work that should grow in proportion to a game's size does (issue 20,
//! section 3, "no quadratic paths"), measured as work counted (the steps
//! `--max-steps` counts, [`work_on_this_thread`]) rather than by the clock,
//! so that the checks hold on any machine under any load: each test plays
//! the same game at two sizes, ten times apart, on the test's own thread,
//! and the work must grow at most twice as fast as the size (a quadratic
//! path grows a hundred times).

use cardboard::engine::limits::work_on_this_thread;
use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::GameState;

/// The rules of `tests/limits/NAME`.
fn rules(name: &str) -> Rules {
    let path = format!("{}/tests/limits/{name}", env!("CARGO_MANIFEST_DIR"));
    Rules::load(std::path::Path::new(&path)).unwrap_or_else(|e| panic!("{path}: {e:?}"))
}

fn start(rules: &Rules, name: &str, value: u64) -> State {
    let options = GameOptions {
        seed: 3,
        overrides: vec![(name.to_string(), value.to_string())],
    };
    rules.start(&options).expect("starts")
}

/// The work `f` counts on this thread.
fn work(f: impl FnOnce()) -> u64 {
    let before = work_on_this_thread();
    f();
    work_on_this_thread().wrapping_sub(before)
}

/// `work` at the larger size is at most 20 times `work` at the smaller,
/// ten times smaller, size, and the work is not nothing.
fn linear(what: &str, small: u64, large: u64) {
    assert!(small > 0, "{what}: no work counted");
    assert!(
        large <= 20 * small,
        "{what}: {small} steps, then {large} at ten times the size"
    );
}

/// Plays `decisions` decisions with the random player, making the texts
/// of every legal move at each (as `run`'s transcript does).
fn play_listing(game: &mut State, decisions: usize) {
    let mut rng = cardboard::random::GameRng::new(7);
    for _ in 0..decisions {
        if game.status() != cardboard::game::Status::Running {
            break;
        }
        let moves = game.legal_moves();
        let texts = game.moves_to_text(&moves);
        assert_eq!(texts.len(), moves.len());
        let mv = game.random_move(&mut rng).expect("a move");
        game.apply(&mv).expect("plays");
    }
}

/// `any` over a pile, listed and played: a pile of 10^5 cards costs about
/// ten times the work of a pile of 10^4 (it cost a hundred times when a
/// checked move searched its card's location, and when every move's text
/// took its card out of the pile and back). Replaces a test that bounded
/// the time by the clock.
#[test]
fn any_over_a_big_pile_is_linear_in_the_pile() {
    let r = rules("pile.rcy");
    let at = |size: u64| {
        work(|| {
            let mut game = start(&r, "SIZE", size);
            play_listing(&mut game, 4);
        })
    };
    linear("pile", at(4), at(5));
}

/// The texts of a choice of n moves, each an item of one `any` over a
/// range: they cost work in proportion to n (every text evaluated the
/// range again: 10^6 moves took 138 µs each).
#[test]
fn the_texts_of_a_wide_choice_are_linear_in_its_moves() {
    let r = rules("wide.rcy");
    let at = |width: u64| {
        let game = start(&r, "WIDTH", width);
        work(|| {
            let moves = game.legal_moves();
            assert_eq!(moves.len() as u64, width);
            let texts = game.moves_to_text(&moves);
            assert_eq!(texts[width as usize - 1], format!("game PICK = {width}"));
        })
    };
    linear("texts", at(10_000), at(100_000));
}

/// `repeat all` over the cards of one colour of a mixed pool, each from
/// under the tokens of other colours: the setup of a pool of 4 x 10^5
/// tokens costs about ten times the work of 4 x 10^4 (each card moved one
/// by one searched and shifted the pool: Cartagena with 65,536 tokens a
/// player took 11 s to set up, fuzz finding 07).
#[test]
fn moving_a_colour_out_of_a_mixed_pool_is_linear_in_the_pool() {
    let r = rules("sort.rcy");
    let at = |copies: u64| {
        work(|| {
            let game = start(&r, "COPIES", copies);
            let status = game.status();
            assert_eq!(status, cardboard::game::Status::Running, "{copies}");
            let table = game.observation(0);
            let each = format!("vloc TOKENS ({copies})");
            assert_eq!(table.matches(&each).count(), 4, "{copies}: {each}");
        })
    };
    linear("pool", at(10_000), at(100_000));
}

/// Players take the tokens of one colour from a mixed pool of 80 (20 of
/// each), with `repeat all` over a `filter`, to the top or the bottom of
/// their pile, in a choice (so the moves are explored, their texts made
/// and taken back, then played).
fn taking(to: &str, from_end: &str, to_end: &str) -> Rules {
    let source = format!(
        "(game
 (setup (create players 2))
 (do ((repeat 20 (create deck (game vloc POOL) (deck (COLOR (RED, BLUE, GREEN, GOLD)))))
      (set (game str WHERE) TOKENS)))
 (stage player (end (== (size (game vloc POOL)) 0))
   (choice ((any (game vloc POOL) 'C
              (repeat all (move ({from_end} (filter (game vloc POOL) 'T
                                         (== (cardatt COLOR 'T) (cardatt COLOR 'C))))
                                ({to_end} ((current player) vloc {to}))))))))
 (scoring max (size ((current player) vloc TOKENS))))"
    );
    Rules::from_source("taking.rcy", &source).expect("compiles")
}

/// The moves made in one pass (a destination named without reading any
/// pile) are the moves one by one (the same destination named through a
/// storage, which the one pass does not take): the same transcripts, move
/// texts, tables and scores, for both ends of the pool and of the pile.
#[test]
fn moves_in_one_pass_are_the_moves_one_by_one() {
    use cardboard::drivers::run::run_game;
    for (from_end, to_end) in [("top", "top"), ("bottom", "bottom"), ("top", "bottom")] {
        let one_pass = taking("TOKENS", from_end, to_end);
        let one_by_one = taking("(game str WHERE)", from_end, to_end);
        for seed in 0..6 {
            let options = GameOptions {
                seed,
                overrides: vec![],
            };
            let a = run_game(&one_pass, &options, 100);
            let b = run_game(&one_by_one, &options, 100);
            assert!(a.text.contains("move GOLD game POOL -> p"), "{}", a.text);
            assert_eq!(a.text, b.text, "{from_end} {to_end} seed {seed}");
        }
    }
}
