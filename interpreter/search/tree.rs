//! The search tree shared by MCTS and ISMCTS: UCT over the moves of the
//! [`GameState`] interface, one tree per decision.
//!
//! Each iteration plays from a fresh state that the caller draws (a copy of
//! the game with its chance drawn anew for MCTS, a determinization for
//! ISMCTS): down the tree by UCB1 while every move available there has been
//! tried, then one new move, then a random playout to the end, whose reward
//! every node on the way adds up from the point of view of the seat that
//! played the node's move. Since the drawn states differ (chance,
//! determinizations), the moves available at a node may differ from one
//! iteration to the next: a child's UCB1 counts the iterations in which its
//! move was available, not the parent's visits (Cowling, Powley and
//! Whitehouse's single-observer ISMCTS, which is plain UCT when every
//! drawn state is the same).

use crate::game::{GameState, Outcome, Status};
use crate::random::{below, GameRng};
use std::time::{Duration, Instant};

/// How hard a search works and how it weighs exploring.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Iterations per decision.
    pub iterations: u32,
    /// The UCB1 exploration constant (rewards lie in 0..=1).
    pub exploration: f64,
    /// A playout still running after this many decisions is scored as the
    /// game stands ([`GameState::score_now`]; a draw, `1 / seats` each,
    /// when the game cannot score then).
    pub playout_limit: u32,
    /// A budget in time as well (the search stops at whichever comes
    /// first): what it plays then depends on the machine's speed, so a
    /// game is no longer the same for a seed (`None`: iterations only).
    pub time: Option<Duration>,
}

impl SearchConfig {
    /// `iterations` per decision, exploration 0.7, playouts of at most
    /// [`PLAYOUT_LIMIT`] decisions.
    pub fn with_iterations(iterations: u32) -> SearchConfig {
        SearchConfig {
            iterations,
            exploration: 0.7,
            playout_limit: PLAYOUT_LIMIT,
            time: None,
        }
    }

    /// As many iterations as `time` allows (at least one), exploration
    /// 0.7, playouts of at most [`PLAYOUT_LIMIT`] decisions. Not
    /// reproducible: the iterations done depend on the machine and its
    /// load.
    pub fn with_time(time: Duration) -> SearchConfig {
        SearchConfig {
            time: Some(time),
            ..SearchConfig::with_iterations(u32::MAX)
        }
    }
}

/// The decisions of a playout before it is cut and scored as the game
/// stands: a long game (Cardbot Derby: some 1,600 decisions when played at
/// random) is searched at a hundred times the iterations a second, with
/// the game's own scoring as the only judge of a position. The other
/// shipped games end within it nearly always.
pub const PLAYOUT_LIMIT: u32 = 100;

/// A search whose first this many iterations all met a rules error or a
/// limit (the game failed or stopped) stops there: it picks among the
/// moves those iterations tried.
pub const GIVE_UP_AFTER: u32 = 8;

/// No child yet for this move.
const NONE: u32 = u32::MAX;

/// One node: the moves seen available here and the child of each, and the
/// statistics of the move that led here.
struct Node<M> {
    /// Every move seen available here, in the order first seen
    /// ([`Identity::Value`]).
    moves: Vec<M>,
    /// The texts of the moves seen available here, in the order first seen
    /// ([`Identity::Text`]).
    texts: Vec<String>,
    /// The child of each of `moves` ([`NONE`] until tried).
    child: Vec<u32>,
    /// Whether `moves` are the legal moves of every state that reaches
    /// this node with no chance drawn ([`GameState::chance_drawn`]): they
    /// were listed in such a state, and no other was added since. Such a
    /// state is the same position in every iteration ([`Identity::Value`]:
    /// the game's copy, the same moves), so its moves are not listed again
    /// and the chosen one is played unchecked ([`GameState::apply_legal`]).
    sure: bool,
    /// The index of the state kept for this node ([`Source::Copies`]: a
    /// sure node gone through with no chance drawn), or [`NONE`].
    kept: u32,
    /// The seat that played the move leading here (the root: the searcher).
    mover: usize,
    visits: u32,
    /// Iterations in which this node's move was available at its parent.
    avail: u32,
    /// Sum of the mover's rewards.
    reward: f64,
}

impl<M> Node<M> {
    fn new(mover: usize) -> Node<M> {
        Node {
            moves: Vec::new(),
            texts: Vec::new(),
            child: Vec::new(),
            sure: false,
            kept: NONE,
            mover,
            visits: 0,
            avail: 0,
            reward: 0.0,
        }
    }
}

/// Adds the child reached by move `i` of node `at`, played by `player`
/// (available once: in this iteration), and goes down to it; its index.
fn grow<M>(
    nodes: &mut Vec<Node<M>>,
    at: usize,
    i: usize,
    player: usize,
    path: &mut Vec<u32>,
) -> u32 {
    let c = nodes.len() as u32;
    let mut node = Node::new(player);
    node.avail = 1;
    nodes.push(node);
    nodes[at].child[i] = c;
    path.push(c);
    c
}

/// Each seat's reward for a game that ended as `state` did: a win alone is
/// 1, a first place shared by `k` seats `1 / k` each, other places 0; a
/// game that did not finish (stopped, failed, cut at the playout limit) is
/// a draw, `1 / seats` each.
pub fn rewards(outcome: Option<&Outcome>, seats: usize, out: &mut Vec<f64>) {
    out.clear();
    out.resize(seats, 0.0);
    match outcome {
        Some(o) if !o.winners.is_empty() => {
            let share = 1.0 / o.winners.len() as f64;
            for &w in &o.winners {
                if let Some(r) = out.get_mut(w) {
                    *r = share;
                }
            }
        }
        _ => out.iter_mut().for_each(|r| *r = 1.0 / seats.max(1) as f64),
    }
}

/// How a node tells its moves apart from one drawn state to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Identity {
    /// By the move itself (`==`): every drawn state is a copy of the game
    /// with its chance drawn anew, whose moves mean the same (MCTS).
    Value,
    /// By the move's text as the seat to play may read it
    /// ([`GameState::moves_to_text_for`]): a move names what
    /// it does ("move HEARTS-ACE p0 HAND -> p0 TRICK"), while the move
    /// itself may only say which item of a collection it picks, a different
    /// card in a different determinization (ISMCTS).
    Text,
}

/// Where the state of each iteration comes from.
pub enum Source<'a, S> {
    /// A copy of this state with its chance drawn anew from a seed the
    /// search draws ([`GameState::reseed_chance`]): MCTS, whose moves are
    /// told apart by [`Identity::Value`].
    Copies(&'a S),
    /// Put in the slot by the function (which may reuse the state there),
    /// or none (`false`: the iteration is skipped): ISMCTS's
    /// determinizations.
    Drawn(&'a mut dyn FnMut(&mut Option<S>, &mut GameRng) -> bool),
}

/// The states of at most this many tree nodes are kept (those first gone
/// through: the nearest the root), so that a long search of a large game
/// does not hold a copy of the game per node.
pub const KEPT_STATES: usize = 4096;

/// Searches `config.iterations` iterations from the root, whose legal moves
/// are `root_moves` and whose player is `me`, on states drawn from `source`.
/// With [`Identity::Text`], `root_texts` are the texts of `root_moves` and a
/// drawn state's root moves are found by them (a root move whose text the
/// drawn state does not offer is not available in that iteration); with
/// [`Identity::Value`] the drawn state's legal moves must be `root_moves`.
/// Returns the visits of each root move.
///
/// With [`Source::Copies`], a node reached with no chance drawn
/// ([`GameState::chance_drawn`]) is the same position in every such
/// iteration: its moves are listed once ([`Node::sure`]) and the state
/// there is kept, so that later iterations go down such nodes without
/// playing their moves and start from the deepest kept state, its chance
/// drawn anew as the root's copy would have it (the same choices as
/// playing the moves from the root).
pub fn search<S: GameState>(
    root_moves: &[S::Move],
    root_texts: &[String],
    identity: Identity,
    me: usize,
    config: &SearchConfig,
    rng: &mut GameRng,
    mut source: Source<'_, S>,
) -> Vec<u32> {
    let mut nodes: Vec<Node<S::Move>> = vec![Node::new(me)];
    nodes[0].moves = root_moves.to_vec();
    nodes[0].child = vec![NONE; root_moves.len()];
    if identity == Identity::Text {
        nodes[0].texts = root_texts.to_vec();
    }
    // The root's state is the source's own; others are kept here.
    let copies = match source {
        Source::Copies(root) => (identity == Identity::Value
            && root.current_player().is_some()
            && !root_moves.is_empty())
        .then_some(root),
        Source::Drawn(_) => None,
    };
    let mut kept: Vec<S> = Vec::new();
    let mut slot: Option<S> = None;
    let mut path: Vec<u32> = Vec::new();
    // The indices (in the node) of the moves the drawn state offers, and
    // those moves as the drawn state has them.
    let mut available: Vec<usize> = Vec::new();
    let mut offered: Vec<S::Move> = Vec::new();
    let mut reward = Vec::new();
    let deadline = config.time.map(|t| Instant::now() + t);
    // Iterations whose game failed (a rules error) or stopped (a limit).
    let mut failed = 0u32;
    for done in 0..config.iterations {
        // A game that failed along every line tried so far fails along
        // (nearly) every line: each such iteration may cost a whole
        // `--max-steps`, so the search stops there.
        if failed >= GIVE_UP_AFTER && failed == done {
            break;
        }
        // The clock is read every 16 iterations (always after the first).
        if done % 16 == 1 && deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        path.clear();
        path.push(0);
        let mut met_error = false;
        let mut at = 0usize;
        // Whether the iteration goes on down the tree from `at`.
        let mut descend = true;
        match &mut source {
            Source::Drawn(draw) => {
                if !draw(&mut slot, rng) {
                    continue;
                }
            }
            Source::Copies(root) => {
                let seed = rand::Rng::next_u64(rng);
                let state = slot.get_or_insert_with(|| (*root).clone());
                match copies {
                    Some(root) => {
                        let kept = Kept {
                            root,
                            states: &kept,
                            seed,
                        };
                        let bufs = (&mut path, &mut available);
                        (at, descend, met_error) =
                            down_kept(&mut nodes, &kept, config, rng, state, bufs);
                    }
                    None => {
                        state.clone_from(*root);
                        state.reseed_chance(seed);
                    }
                }
            }
        }
        let Some(state) = slot.as_mut() else {
            continue;
        };
        // Down the tree, then one new node.
        while let (true, Some(player)) = (descend, state.current_player()) {
            available.clear();
            offered.clear();
            // The chosen move was listed in this very position.
            let mut listed = false;
            match (identity, at) {
                (Identity::Value, 0) => available.extend(0..root_moves.len()),
                (Identity::Value, _) if nodes[at].sure && !state.chance_drawn() => {
                    available.extend(0..nodes[at].moves.len());
                    listed = true;
                }
                (Identity::Value, _) => {
                    let moves = state.legal_moves();
                    let node = &mut nodes[at];
                    let (fresh, seen) = (node.child.is_empty(), node.moves.len());
                    note_available(node, moves, &mut available);
                    // Listed without chance (nor a limit met while
                    // listing) the first time, and nothing new since.
                    node.sure = if fresh {
                        !state.chance_drawn() && state.current_player().is_some()
                    } else {
                        node.sure && node.moves.len() == seen
                    };
                }
                (Identity::Text, _) => {
                    let moves = state.legal_moves();
                    let texts = state.moves_to_text_for(&moves, player);
                    note_texts(
                        &mut nodes[at],
                        at != 0,
                        moves,
                        texts,
                        &mut available,
                        &mut offered,
                    );
                }
            }
            if available.is_empty() {
                break;
            }
            // The first time a sure node is gone through with no chance
            // drawn, its state is kept.
            let node = &mut nodes[at];
            if copies.is_some()
                && at != 0
                && node.kept == NONE
                && node.sure
                && kept.len() < KEPT_STATES
                && !state.chance_drawn()
            {
                node.kept = kept.len() as u32;
                kept.push(state.clone());
            }
            let (k, expanded) = pick(&mut nodes, at, &available, config, rng);
            let i = available[k];
            let chosen = match identity {
                Identity::Value => &nodes[at].moves[i],
                Identity::Text => &offered[k],
            };
            let played = if listed {
                state.apply_legal(chosen)
            } else {
                state.apply(chosen)
            };
            if played.is_err() {
                met_error = true;
                break;
            }
            let Some(child) = expanded else {
                grow(&mut nodes, at, i, player, &mut path);
                break;
            };
            path.push(child);
            at = child as usize;
        }
        // A random playout to the end.
        let mut steps = 0u32;
        while state.current_player().is_some() && steps < config.playout_limit {
            let Some(mv) = state.random_move(rng) else {
                break;
            };
            if state.apply(&mv).is_err() {
                met_error = true;
                break;
            }
            steps += 1;
        }
        // A game stopped at `--max-steps` is not an error of `apply`.
        met_error |= matches!(state.status(), Status::Stopped(_) | Status::Failed(_));
        failed += u32::from(met_error);
        // A game cut at the playout limit is scored as it stands.
        let outcome = match state.current_player() {
            None => state.outcome(),
            Some(_) => state.score_now(),
        };
        rewards(outcome.as_ref(), state.num_players(), &mut reward);
        for &n in &path {
            let node = &mut nodes[n as usize];
            node.visits += 1;
            node.reward += reward.get(node.mover).copied().unwrap_or(0.0);
        }
    }
    nodes[0]
        .child
        .iter()
        .take(root_moves.len())
        .map(|&c| {
            if c == NONE {
                0
            } else {
                nodes[c as usize].visits
            }
        })
        .collect()
}

/// The states kept for the nodes of a [`Source::Copies`] search: the
/// root's (`root`), the others', and the seed of this iteration's chance.
struct Kept<'a, S> {
    root: &'a S,
    states: &'a [S],
    seed: u64,
}

/// Goes down from the root by UCB1 as long as the child picked is a sure
/// node whose state is kept (adding it to `path`), without playing; then
/// puts in `state` the deepest kept state, its chance drawn anew from the
/// iteration's seed (what a copy of the root would be after the same
/// moves, since none drew chance), and plays the move picked there: into
/// a child whose state is not kept, from which the iteration goes on down,
/// or into a new child (made here), from which it plays out. Returns the
/// node the iteration is at, whether it goes on down from it, and whether
/// the move met an error (the iteration then goes no further).
fn down_kept<S: GameState>(
    nodes: &mut Vec<Node<S::Move>>,
    kept: &Kept<'_, S>,
    config: &SearchConfig,
    rng: &mut GameRng,
    state: &mut S,
    (path, available): (&mut Vec<u32>, &mut Vec<usize>),
) -> (usize, bool, bool) {
    let mut at = 0usize;
    loop {
        available.clear();
        available.extend(0..nodes[at].moves.len());
        let (k, expanded) = pick(nodes, at, available, config, rng);
        let i = available[k];
        if let Some(c) = expanded {
            let child = &nodes[c as usize];
            if child.sure && child.kept != NONE {
                path.push(c);
                at = c as usize;
                continue;
            }
        }
        let from = match at {
            0 => kept.root,
            _ => &kept.states[nodes[at].kept as usize],
        };
        state.clone_from(from);
        state.reseed_chance(kept.seed);
        let Some(player) = state.current_player() else {
            return (at, false, false);
        };
        // The root's moves are the caller's: checked as before.
        let mv = &nodes[at].moves[i];
        let played = match at {
            0 => state.apply(mv),
            _ => state.apply_legal(mv),
        };
        if played.is_err() {
            return (at, false, true);
        }
        let Some(c) = expanded else {
            return (grow(nodes, at, i, player, path) as usize, false, false);
        };
        path.push(c);
        break (c as usize, true, false);
    }
}

/// Records which of `node`'s moves the drawn state offers (`moves`), adding
/// the ones never seen here, and lists their indices in `available`.
fn note_available<M: PartialEq>(node: &mut Node<M>, moves: Vec<M>, available: &mut Vec<usize>) {
    if node.moves.is_empty() && node.child.is_empty() {
        node.child = vec![NONE; moves.len()];
        node.moves = moves;
        available.extend(0..node.moves.len());
        return;
    }
    if node.moves == moves {
        available.extend(0..node.moves.len());
        return;
    }
    for mv in moves {
        match node.moves.iter().position(|m| *m == mv) {
            Some(i) => available.push(i),
            None => {
                node.moves.push(mv);
                node.child.push(NONE);
                available.push(node.moves.len() - 1);
            }
        }
    }
}

/// As [`note_available`], the moves told apart by their `texts`: lists in
/// `available` the index of each offered move's text in `node` (adding the
/// texts never seen here when `grow`, else leaving their moves out), and
/// the offered move beside it in `offered`.
fn note_texts<M>(
    node: &mut Node<M>,
    grow: bool,
    moves: Vec<M>,
    texts: Vec<String>,
    available: &mut Vec<usize>,
    offered: &mut Vec<M>,
) {
    if node.texts == texts {
        available.extend(0..texts.len());
        offered.extend(moves);
        return;
    }
    for (mv, text) in moves.into_iter().zip(texts) {
        let i = match node.texts.iter().position(|t| *t == text) {
            Some(i) => i,
            None if grow => {
                node.texts.push(text);
                node.child.push(NONE);
                node.texts.len() - 1
            }
            None => continue,
        };
        available.push(i);
        offered.push(mv);
    }
}

/// Picks one of the `available` moves at node `at`: an untried one at
/// random if there is any (its position in `available` and `None`), else
/// the child with the best UCB1 (its position and the child). Counts the
/// availability of the tried ones.
fn pick<M>(
    nodes: &mut [Node<M>],
    at: usize,
    available: &[usize],
    config: &SearchConfig,
    rng: &mut GameRng,
) -> (usize, Option<u32>) {
    let children = &nodes[at].child;
    let untried = available.iter().filter(|&&i| children[i] == NONE).count();
    if untried > 0 {
        let n = below(rng, untried);
        let k = available
            .iter()
            .enumerate()
            .filter(|&(_, &i)| children[i] == NONE)
            .nth(n)
            .map_or(0, |(k, _)| k);
        for &j in available {
            let c = nodes[at].child[j];
            if c != NONE {
                nodes[c as usize].avail += 1;
            }
        }
        return (k, None);
    }
    let mut best = (f64::NEG_INFINITY, 0);
    for (k, &j) in available.iter().enumerate() {
        let c = nodes[at].child[j] as usize;
        let node = &mut nodes[c];
        node.avail += 1;
        let visits = f64::from(node.visits.max(1));
        let score = node.reward / visits
            + config.exploration * (f64::from(node.avail).ln() / visits).sqrt();
        if score > best.0 {
            best = (score, k);
        }
    }
    let k = best.1;
    (k, Some(nodes[at].child[available[k]]))
}

/// The index of the most visited move (the first of equals).
pub fn most_visited(visits: &[u32]) -> usize {
    let mut best = 0;
    for (i, &v) in visits.iter().enumerate() {
        if v > visits[best] {
            best = i;
        }
    }
    best
}
