//! Every shipped game and example: the tensor keeps its length through
//! random games and holds no card hidden from its seat (a resampled state
//! gives the same tensor); where the game has an action space, every
//! legal move has its own index and the index finds the move back.
use super::action::{key_of, ActionSpace};
use super::Layout;
use crate::engine::{GameOptions, Rules, State};
use crate::game::GameState;
use crate::random::{below, GameRng};
use std::path::{Path, PathBuf};

fn rules_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["games", "examples"] {
        let entries = std::fs::read_dir(root.join(dir)).expect("the folder is there");
        for e in entries.flatten() {
            let path = e.path();
            if path.extension().is_some_and(|x| x == "rcy") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn start(rules: &Rules, seed: u64) -> Option<State> {
    let options = GameOptions {
        seed,
        overrides: vec![],
    };
    let mut state = rules.start(&options).ok()?;
    state.keep_seen();
    Some(state)
}

fn layout_of(rules: &Rules) -> Layout {
    let first = start(rules, 0).expect("the game starts");
    Layout::new(&rules.program, &first.whole_view())
}

fn tensor(layout: &Layout, state: &State, seat: usize) -> Vec<f32> {
    let mut out = vec![f32::NAN; layout.size()];
    layout.encode(&state.observe(seat), &mut out);
    out
}

/// The files whose action space the docs promise.
const WITH_ACTIONS: [&str; 6] = [
    "tictactoe.rcy",
    "tictactoe-pieces.rcy",
    "connect4.rcy",
    "othello.rcy",
    "hex.rcy",
    "agram.rcy",
];

#[test]
fn tensors_are_fixed_and_hold_no_hidden_card() {
    for path in rules_files() {
        let rules = Rules::load(&path).expect("a shipped file loads");
        let layout = layout_of(&rules);
        assert!(layout.size() > 0, "{}", path.display());
        for seed in 0..2 {
            let mut state = start(&rules, seed).expect("starts");
            let mut rng = GameRng::new(seed + 100);
            for decision in 0..60 {
                for seat in 0..state.num_players() {
                    let t = tensor(&layout, &state, seat);
                    assert!(t.iter().all(|x| x.is_finite()), "{}", path.display());
                    let Some(other) = state.resample(seat, &mut rng) else {
                        continue;
                    };
                    assert_eq!(
                        t,
                        tensor(&layout, &other, seat),
                        "{} seed {seed} decision {decision} seat {seat}: the tensor of a \
                         resampled state differs, so it holds something hidden",
                        path.display()
                    );
                }
                let moves = state.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = &moves[below(&mut rng, moves.len())];
                if state.apply(mv).is_err() {
                    break;
                }
            }
        }
    }
}

#[test]
fn action_spaces_map_each_legal_move_to_its_own_index() {
    let mut with = Vec::new();
    for path in rules_files() {
        let rules = Rules::load(&path).expect("a shipped file loads");
        let layout = layout_of(&rules);
        let space = ActionSpace::probe(&layout, |seed| start(&rules, seed));
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if let Some(why) = &space.refusal {
            eprintln!("{name}: none: {why}");
            continue;
        }
        let mut refused = None;
        'games: for seed in 10..12 {
            let mut state = start(&rules, seed).expect("starts");
            let mut rng = GameRng::new(seed);
            while let Some(seat) = state.current_player() {
                let seen = state.observe(seat);
                let legal = match space.legal(&layout, &seen) {
                    Ok(legal) => legal,
                    // Refused at this decision, as the docs say it may be.
                    Err(why) => {
                        refused = Some(why);
                        break 'games;
                    }
                };
                assert_eq!(legal.len(), seen.moves.len(), "{name}");
                let mut actions: Vec<usize> = legal.iter().map(|(a, _)| *a).collect();
                actions.dedup();
                assert_eq!(
                    actions.len(),
                    legal.len(),
                    "{name}: two moves share an index"
                );
                for (a, id) in &legal {
                    assert!(*a < space.size(), "{name}");
                    let key = key_of(&layout, &seen.moves[*id].steps, &seen.boards).unwrap();
                    assert_eq!(space.key(*a), Some(key), "{name}");
                    assert!(space.name(&layout, *a).is_some(), "{name}");
                }
                let (_, id) = legal[below(&mut rng, legal.len())];
                let moves = state.legal_moves();
                if state.apply(&moves[id]).is_err() {
                    break;
                }
            }
        }
        match refused {
            Some(why) => eprintln!("{name}: refused later: {why}"),
            None => {
                eprintln!("{name}: {} actions", space.size());
                with.push(name);
            }
        }
    }
    for name in WITH_ACTIONS {
        assert!(
            with.iter().any(|w| w == name),
            "{name} has no action space: {with:?}"
        );
    }
}
