//! Bounds on the values integer storages can hold, read from the rules.
//!
//! A storage starts at 0, and only `set`, `inc` and `dec` change it (a
//! loaded position aside, see below). So when every `set` of a storage
//! name, whatever its owner, writes a value of magnitude at most B (found
//! as [`trim`](super::trim) bounds an integer: literals, variables bound
//! by a `let` to such values, other storages by their own bounds, sums and
//! products of those) and nothing `inc`s or `dec`s it, the storage holds
//! at most B in magnitude in every game played from the start. The bounds
//! are a fixed point: each pass reads the bounds the last one found,
//! starting from 0; a name whose bound still grows after [`PASSES`] passes
//! is unbounded (`u64::MAX`), as is every name when some `set`, `inc` or
//! `dec` names its storage by a computed string.
//!
//! Othello writes the disc of a square as `(set ('X sto DISC) 'C)`, 'C a
//! colour read from `(current player) sto COLOUR`, which is only ever set
//! to 1 or 2: DISC is bounded by 2, so the check of a move can tell that
//! `(- 3 'C)` cannot overflow (see `trim.rs`).
//!
//! A position (`engine/position/`) may load any value into a storage; a
//! table holding one beyond these bounds is marked
//! (`Table::beyond_bounds`), and a sampler checks its slots whole there.

use super::trim::{int_bound, items, Env, Kind};
use super::Ctx;
use crate::ir::{Action, Condact, IntStorage, NameRef, Program, StageItem, ValueExpr};

/// Passes over the rules before a bound still growing is given up.
const PASSES: usize = 16;

/// The bound on the magnitude of each integer storage name's values, by
/// name (`u64::MAX`: unbounded).
pub(super) fn storage_bounds(prog: &Program, cx: &Ctx) -> Vec<u64> {
    let n = prog.int_names.len();
    let mut bounds = vec![0; n];
    for pass in 0.. {
        let mut next = vec![0; n];
        {
            let mut w = Writes {
                env: Env::new(prog, cx, &bounds),
                out: &mut next,
            };
            w.program(prog);
        }
        if next == bounds {
            break;
        }
        if pass >= PASSES {
            // Still growing: what changed is unbounded.
            for (b, &nb) in next.iter_mut().zip(&bounds) {
                if *b != nb {
                    *b = u64::MAX;
                }
            }
        }
        bounds = next;
    }
    bounds
}

/// One pass over every action of the rules, bounding what each write
/// stores.
struct Writes<'a, 'b> {
    env: Env<'a>,
    out: &'b mut Vec<u64>,
}

impl Writes<'_, '_> {
    fn program(&mut self, prog: &Program) {
        for a in &prog.setup.actions {
            self.action(a);
        }
        let stages = prog.stages.iter().map(|s| &s.items);
        for items in std::iter::once(&prog.body).chain(stages) {
            for item in items {
                match item {
                    StageItem::Choice(options, _) => options.iter().for_each(|c| self.condact(c)),
                    StageItem::Run(c) | StageItem::Else(c) => self.condact(c),
                    StageItem::Stage(_) => {}
                }
            }
        }
    }

    fn condact(&mut self, c: &Condact) {
        self.action(&c.action);
    }

    /// `f` with `var` bound to a value of kind `k` (every binder shadows
    /// what an outer one bound to the same variable).
    fn with(&mut self, var: u16, k: Kind, f: impl FnOnce(&mut Self)) {
        self.env.push(var, k);
        f(self);
        self.env.pop();
    }

    fn action(&mut self, a: &Action) {
        match a {
            Action::Do(items) => items.iter().for_each(|c| self.condact(c)),
            Action::Any { over, var, body }
            | Action::All { over, var, body }
            | Action::Chain {
                over, var, body, ..
            } => {
                let k = items(over, &mut self.env).unwrap_or(Kind::Other);
                self.with(*var, k, |w| w.condact(body));
            }
            Action::Afterwards { body, .. } => self.condact(body),
            Action::Let { value, var, body } => {
                let k = match value {
                    ValueExpr::Int(e) => Kind::Int(int_bound(e, &mut self.env).unwrap_or(u64::MAX)),
                    _ => Kind::Other,
                };
                self.with(*var, k, |w| w.condact(body));
            }
            Action::Repeat { body, .. } => self.action(body),
            Action::SetInt(s, v) => {
                let b = int_bound(v, &mut self.env).unwrap_or(u64::MAX);
                self.write(s, b);
            }
            Action::IncInt(s, _) | Action::DecInt(s, _) => self.write(s, u64::MAX),
            _ => {}
        }
    }

    /// A write of a value of magnitude at most `b` to storage `s`.
    fn write(&mut self, s: &IntStorage, b: u64) {
        match s.name {
            NameRef::Fixed(n) => {
                if let Some(o) = self.out.get_mut(n as usize) {
                    *o = (*o).max(b);
                }
            }
            NameRef::Dynamic(_) => self.out.fill(u64::MAX),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::Rules;

    /// The bound of every integer storage of `source`, by name.
    fn bounds(source: &str) -> Vec<(String, u64)> {
        let rules = Rules::from_source("t.rcy", source).expect("checks");
        let prog = &rules.tabs.prog;
        let names = prog
            .int_names
            .iter()
            .map(|&s| prog.symbols[s as usize].clone());
        names
            .zip(rules.tabs.compiled.bounds.iter().copied())
            .collect()
    }

    fn bound(source: &str, name: &str) -> u64 {
        let all = bounds(source);
        all.iter().find(|(n, _)| n == name).expect("a storage").1
    }

    const OTHELLO: &str = include_str!("../../../examples/othello.rcy");

    /// Othello's discs and colours are 0, 1 or 2: DISC is set to a
    /// colour read from COLOUR (a fixed point of two passes).
    #[test]
    fn othello_storages_are_bounded() {
        assert_eq!(bound(OTHELLO, "COLOUR"), 2);
        assert_eq!(bound(OTHELLO, "DISC"), 2);
    }

    /// An `inc`, a value that grows with every pass, a computed value and
    /// a storage named by a string are unbounded.
    #[test]
    fn what_can_grow_is_unbounded() {
        let set = "(set ((1 player) sto COLOUR) 2)";
        assert!(OTHELLO.contains(set));
        let with = |extra: &str| OTHELLO.replace(set, &format!("{set} {extra}"));
        let inc = with("(inc ((0 player) sto COLOUR) 1)");
        assert_eq!(bound(&inc, "COLOUR"), u64::MAX);
        assert_eq!(bound(&inc, "DISC"), u64::MAX);
        let grows = with("(set ((0 player) sto COLOUR) (+ ((0 player) sto COLOUR) 1))");
        assert_eq!(bound(&grows, "COLOUR"), u64::MAX);
        let computed = with("(set ((0 player) sto COLOUR) (// 7 2))");
        assert_eq!(bound(&computed, "COLOUR"), u64::MAX);
        let small = with("(set ((0 player) sto COLOUR) (+ 1 (* 2 3)))");
        assert_eq!(bound(&small, "COLOUR"), 7);
        assert_eq!(bound(&small, "DISC"), 7);
    }
}

#[cfg(test)]
mod positions {
    use crate::engine::{GameOptions, Rules};
    use crate::game::GameState;
    use crate::random::GameRng;

    const OTHELLO: &str = include_str!("../../../examples/othello.rcy");

    /// A position may hold a value the rules never write: the table is
    /// marked, its slots are checked whole, and it plays as the evaluator
    /// plays it (no legal square for colour 7: black passes).
    #[test]
    fn a_position_beyond_the_bounds_is_checked_whole() {
        let rules = Rules::from_source("t.rcy", OTHELLO).expect("checks");
        let start = rules.start(&GameOptions::default()).expect("starts");
        let text = start.to_position();
        let line = "p0 sto COLOUR = 1";
        assert!(text.contains(line), "{text}");
        let same = rules.load_position(&text).expect("loads");
        assert!(!same.table.borrow().beyond_bounds);
        let wild = text.replace(line, "p0 sto COLOUR = 7");
        let loaded = rules.load_position(&wild).expect("loads");
        assert!(loaded.table.borrow().beyond_bounds);
        let reference = rules.uncompiled().load_position(&wild).expect("loads");
        // The same random game both ways, drawn by the sampler.
        let (mut a, mut b) = (loaded, reference);
        let (mut ra, mut rb) = (GameRng::new(5), GameRng::new(5));
        assert_eq!(a.legal_moves().len(), 1);
        while let Some(mv) = a.random_move(&mut ra) {
            let other = b.random_move(&mut rb).expect("the reference moves too");
            assert_eq!(a.move_to_text(&mv), b.move_to_text(&other));
            a.apply(&mv).expect("plays");
            b.apply(&other).expect("plays");
        }
        assert!(b.random_move(&mut rb).is_none());
        assert_eq!(a.to_position(), b.to_position());
    }
}
