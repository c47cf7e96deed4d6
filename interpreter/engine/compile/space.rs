//! Conditions on one space, compiled once per rules file: the conditions
//! of `group` and the bodies of `any`/`all` over spaces, tested at every
//! space a search reaches.
//!
//! A [`SpaceCond`] compares what lies on the space (the top card's
//! attribute, a location's size, a storage, the row, column or index, the
//! space itself) with a [leaf](super::leaf) that does not depend on the
//! space (a literal, another variable, a storage of the game...), under
//! `and`, `or` and `not`. It is tested without binding the space to its
//! variable and without any call per node: a search over a hundred spaces
//! costs a few reads per space.
//!
//! Before a search the caller reads the leaves once ([`SpaceCond::load`]):
//! they do not depend on the space, so their values hold for the whole
//! search. When one holds a value of another kind than expected, there is
//! no load and the search is left to the evaluator (which gives its usual
//! value or error).
//! Spaces tested come from a board (a search's, or a collection of spaces
//! the engine made), so their row and column always exist.

use super::leaf::{IntLeaf, StrLeaf};
use super::Ctx;
use crate::engine::board::BoardGeom;
use crate::engine::exec::Machine;
use crate::engine::spaceset::{self, Bits, Lies, SpaceSet, MAX_BITS};
use crate::engine::spatial::{board_in, board_number};
use crate::engine::state::Table;
use crate::engine::value::Value;
use crate::ir::*;

/// What a condition reads of the space.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Probe {
    /// `(size ('V vloc NAME))`.
    Size(u32),
    /// `('V sto NAME)`.
    Sto(usize),
    Row,
    Col,
    Index,
}

/// The most leaves a compiled condition reads.
const MAX_LEAVES: usize = 8;

/// The values of a condition's leaves, read before a search (strings and
/// spaces as integers; no space is -1).
pub(in crate::engine) type Loaded = [i64; MAX_LEAVES];

/// A leaf of a condition.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Leaf {
    Int(IntLeaf),
    Str(StrLeaf),
    /// A space variable (no space: -1).
    Space(VarId),
}

/// A node of a compiled condition; `other` is a leaf's number.
#[derive(Debug, PartialEq)]
enum Node {
    Int {
        probe: Probe,
        op: CmpOp,
        other: usize,
    },
    /// The attribute `key` of the top card of location `loc` ("" if empty)
    /// is (or is not) the leaf's string.
    TopAttr {
        loc: u32,
        key: usize,
        eq: bool,
        other: usize,
    },
    /// The space is (or is not) the leaf's space.
    Is {
        eq: bool,
        other: usize,
    },
    And(Box<[Node]>),
    Or(Box<[Node]>),
    Not(Box<Node>),
}

/// A compiled condition on the space bound to one variable.
#[derive(Debug, PartialEq)]
pub(in crate::engine) struct SpaceCond {
    node: Node,
    leaves: Vec<Leaf>,
    /// Whether the condition reads the space's row, column or index.
    place: bool,
    /// Whether the index of what lies on the spaces may answer it for a
    /// whole board ([`SpaceCond::mask`]).
    indexed: bool,
}

/// The same comparison with its operands swapped: `a < b` is `b > a`.
fn swapped(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        other => other,
    }
}

/// `('V KIND NAME)` with a fixed name: the name's id.
fn own_location(l: &LocationExpr, var: VarId) -> Option<u32> {
    match (&l.owner, &l.name) {
        (OwnerExpr::Space(SpaceExpr::Var(v)), NameRef::Fixed(id)) if *v == var => Some(*id as u32),
        _ => None,
    }
}

/// What `e` reads of the space in `var`, if that is all it is.
fn probe(e: &IntExpr, var: VarId) -> Option<Probe> {
    let on = |s: &SpaceExpr| matches!(s, SpaceExpr::Var(v) if *v == var);
    Some(match e {
        IntExpr::SpaceRow(s) if on(s) => Probe::Row,
        IntExpr::SpaceCol(s) if on(s) => Probe::Col,
        IntExpr::SpaceIndex(s) if on(s) => Probe::Index,
        IntExpr::Size(c) => match &**c {
            CollectionExpr::Cards(CardsExpr::Location(l)) => Probe::Size(own_location(l, var)?),
            _ => return None,
        },
        IntExpr::Storage(IntStorage {
            owner: OwnerExpr::Space(SpaceExpr::Var(v)),
            name: NameRef::Fixed(id),
        }) if *v == var => Probe::Sto(*id as usize),
        _ => return None,
    })
}

/// `(cardatt KEY (top ('V vloc NAME)))`: the location's and key's ids.
fn top_attr(e: &StrExpr, var: VarId) -> Option<(u32, usize)> {
    let StrExpr::CardAtt(AttrRef::Key(k), card) = e else {
        return None;
    };
    let CardExpr::At(Pos::Top, cards) = &**card else {
        return None;
    };
    let CardsExpr::Location(l) = &**cards else {
        return None;
    };
    Some((own_location(l, var)?, *k as usize))
}

/// Whether an integer leaf reads variable `var`.
fn int_uses(leaf: IntLeaf, var: VarId) -> bool {
    match leaf {
        IntLeaf::Lit(_)
        | IntLeaf::GameSto(_)
        | IntLeaf::CurrentLocSize { .. }
        | IntLeaf::GameLocSize(_) => false,
        IntLeaf::PlayerLocSize { var: v, .. } => v == var,
        IntLeaf::Var(v) | IntLeaf::Row(v) | IntLeaf::Col(v) => v == var,
        IntLeaf::SpaceSto { var: v, .. } | IntLeaf::LocSize { var: v, .. } => v == var,
    }
}

/// Whether a string leaf reads variable `var`.
fn str_uses(leaf: StrLeaf, var: VarId) -> bool {
    match leaf {
        StrLeaf::Var(v) | StrLeaf::TopAttr { var: v, .. } => v == var,
        StrLeaf::Lit(_) | StrLeaf::GameStr(_) | StrLeaf::CurrentStr(..) | StrLeaf::LastAttr(_) => {
            false
        }
    }
}

/// Compiles conditions, numbering their leaves.
struct Compiler<'c, 'x> {
    var: VarId,
    cx: &'c Ctx<'x>,
    leaves: Vec<Leaf>,
    place: bool,
}

impl Compiler<'_, '_> {
    fn leaf(&mut self, leaf: Leaf) -> Option<usize> {
        (self.leaves.len() < MAX_LEAVES).then(|| {
            self.leaves.push(leaf);
            self.leaves.len() - 1
        })
    }

    fn node(&mut self, e: &BoolExpr) -> Option<Node> {
        let (var, cx) = (self.var, self.cx);
        Some(match e {
            BoolExpr::And(xs) | BoolExpr::Or(xs) => {
                let parts: Option<Vec<_>> = xs.iter().map(|x| self.node(x)).collect();
                let parts = parts?.into_boxed_slice();
                if matches!(e, BoolExpr::And(_)) {
                    Node::And(parts)
                } else {
                    Node::Or(parts)
                }
            }
            BoolExpr::Not(x) => Node::Not(Box::new(self.node(x)?)),
            // The space tested is one of a board: `(onboard 'V)` holds (an
            // empty `and`).
            BoolExpr::OnBoard(SpaceExpr::Var(v)) if *v == var => Node::And(Box::new([])),
            BoolExpr::Int(op, a, b) => {
                let fixed = |x: &IntExpr| IntLeaf::of(x, cx).filter(|l| !int_uses(*l, var));
                let (probe, op, other) = match (probe(a, var), probe(b, var)) {
                    (Some(probe), None) => (probe, *op, fixed(b)?),
                    (None, Some(probe)) => (probe, swapped(*op), fixed(a)?),
                    _ => return None,
                };
                self.place |= matches!(probe, Probe::Row | Probe::Col | Probe::Index);
                Node::Int {
                    probe,
                    op,
                    other: self.leaf(Leaf::Int(other))?,
                }
            }
            BoolExpr::Str { eq, left, right } => {
                let fixed = |x: &StrExpr| StrLeaf::of(x, cx).filter(|l| !str_uses(*l, var));
                let ((loc, key), other) = match (top_attr(left, var), top_attr(right, var)) {
                    (Some(a), None) => (a, fixed(right)?),
                    (None, Some(a)) => (a, fixed(left)?),
                    _ => return None,
                };
                Node::TopAttr {
                    loc,
                    key,
                    eq: *eq,
                    other: self.leaf(Leaf::Str(other))?,
                }
            }
            BoolExpr::Space { eq, left, right } => match (left, right) {
                (SpaceExpr::Var(a), SpaceExpr::Var(b)) if (*a == var) != (*b == var) => {
                    let other = if *a == var { *b } else { *a };
                    Node::Is {
                        eq: *eq,
                        other: self.leaf(Leaf::Space(other))?,
                    }
                }
                _ => return None,
            },
            _ => return None,
        })
    }
}

/// What a test of one space knows of it.
struct At {
    s: u32,
    owner: u32,
    /// Row and column (when the condition reads them).
    rc: (u32, u32),
    first: u32,
}

impl SpaceCond {
    /// Compiles `e`, a condition on the space in `var`, or `None` when it
    /// has another shape (or reads more than a few leaves).
    pub fn of(e: &BoolExpr, var: VarId, cx: &Ctx) -> Option<SpaceCond> {
        let mut c = Compiler {
            var,
            cx,
            leaves: Vec::new(),
            place: false,
        };
        let node = c.node(e)?;
        Some(SpaceCond {
            indexed: indexed(&node),
            node,
            leaves: c.leaves,
            place: c.place,
        })
    }

    /// The leaves' values now, or `None` when one holds a value of another
    /// kind than expected (the evaluator then decides).
    #[inline(always)]
    pub fn load(&self, m: &Machine) -> Option<Loaded> {
        let mut out = [0; MAX_LEAVES];
        for (slot, leaf) in out.iter_mut().zip(&self.leaves) {
            *slot = match *leaf {
                Leaf::Int(l) => l.read(m)?,
                Leaf::Str(l) => i64::from(l.read(m)?),
                Leaf::Space(v) => match m.var(v) {
                    Value::Space(s) => i64::from(*s),
                    Value::Unset => -1,
                    _ => return None,
                },
            };
        }
        Some(out)
    }

    /// The condition's value for space `s`, the leaves as `loaded`.
    #[inline(always)]
    pub fn holds(&self, m: &Machine, loaded: &Loaded, s: u32) -> bool {
        let t = &*m.table;
        let (rc, first) = if self.place {
            match board_in(&t.boards, s) {
                Ok(b) => (b.coords(s), b.first),
                Err(_) => return false,
            }
        } else {
            ((0, 0), 0)
        };
        let at = At {
            s,
            owner: t.space_owner(s),
            rc,
            first,
        };
        test(&self.node, m, loaded, &at)
    }
}

/// Whether every comparison of `node` may be answered for a whole board:
/// a top card's attribute, a location's size, the row, column or index, or
/// the space itself (not a storage).
fn indexed(node: &Node) -> bool {
    match node {
        Node::Int { probe, .. } => !matches!(probe, Probe::Sto(_)),
        Node::TopAttr { .. } | Node::Is { .. } => true,
        Node::And(xs) | Node::Or(xs) => xs.iter().all(indexed),
        Node::Not(x) => indexed(x),
    }
}

impl SpaceCond {
    /// The spaces of board number `bi` of the game's boards where the
    /// condition holds, the leaves as `loaded`, answered from the index of
    /// what lies on the spaces (kept in `t`, whose fields are borrowed
    /// apart: no board is copied); `None` when the condition reads
    /// something else (or compares a location's size with a number the
    /// index cannot answer: only empty against not empty), or the board is
    /// too large for sets of type `S` (more than `S::MOST` spaces).
    #[inline]
    pub fn mask<S: SpaceSet>(
        &self,
        t: &mut Table,
        loc_count: usize,
        loaded: &Loaded,
        bi: u32,
    ) -> Option<S> {
        if !self.indexed {
            return None;
        }
        let (index, boards, lies) = Lies::of(t);
        let board = boards.boards.get(bi as usize)?;
        if board.len() > S::MOST {
            return None;
        }
        let mut ix = Ix {
            index,
            lies,
            loc_count,
        };
        mask(&self.node, &mut ix, loaded, (board, bi))
    }

    /// [`SpaceCond::mask`] on the board of space `s`, with the board's
    /// first space; `None` as there, or when the index is off
    /// ([`Rules::uncompiled`](crate::engine::Rules::uncompiled)).
    #[inline]
    fn mask_at<S: SpaceSet>(&self, m: &mut Machine, loaded: &Loaded, s: u32) -> Option<(u32, S)> {
        if !self.indexed || !m.tabs.space_bits {
            return None;
        }
        let bi = board_number(&m.table.boards, s).ok()?;
        let first = m.table.boards.boards[bi as usize].first;
        Some((first, self.mask(m.table, m.tabs.loc_count, loaded, bi)?))
    }

    /// [`SpaceCond::mask_at`] as [`Bits`], held as a `u128` while it is
    /// found on a board of at most 128 spaces.
    pub fn mask_of(&self, m: &mut Machine, loaded: &Loaded, s: u32) -> Option<(u32, Bits)> {
        let len = board_in(&m.table.boards, s).ok()?.len();
        if len <= u128::MOST {
            let (first, mask) = self.mask_at::<u128>(m, loaded, s)?;
            return Some((first, mask.bits(len)));
        }
        self.mask_at(m, loaded, s)
    }
}

/// The spaces of `board` whose row, column or index (`probe`) compares
/// with `v` by `op`: a range of lines or numbers. `None` for another probe.
fn place_bits<S: SpaceSet>(probe: Probe, op: CmpOp, v: i64, board: &BoardGeom) -> Option<S> {
    let (len, rows) = match probe {
        Probe::Row => (board.rows, Some(true)),
        Probe::Col => (board.cols, Some(false)),
        Probe::Index => (board.len(), None),
        Probe::Size(_) | Probe::Sto(_) => return None,
    };
    let clamp = |x: i64| x.clamp(0, i64::from(len)) as u32;
    let (lo, hi, inside) = match op {
        CmpOp::Lt => (0, clamp(v), true),
        CmpOp::Le => (0, clamp(v.saturating_add(1)), true),
        CmpOp::Gt => (clamp(v.saturating_add(1)), len, true),
        CmpOp::Ge => (clamp(v), len, true),
        CmpOp::Eq => (clamp(v), clamp(v.saturating_add(1)), true),
        CmpOp::Ne => (clamp(v), clamp(v.saturating_add(1)), false),
    };
    let bits = match rows {
        Some(rows) => board.lines_as(rows, lo..hi),
        None => S::below(len, hi).minus(S::below(len, lo)),
    };
    Some(if inside {
        bits
    } else {
        S::of(board.all_bits()).minus(bits)
    })
}

impl SpaceCond {
    /// The spaces of the board starting at space `first` whose row, column
    /// or index pass the condition's leading comparisons of them (the whole
    /// condition when it is one, or the first ones of an `and`): the
    /// condition fails wherever this set has no bit, and must still be
    /// tested where it has one. `None` when the condition does not start
    /// with such a comparison. Read from the board's tables alone.
    pub fn place_sieve(&self, m: &Machine, loaded: &Loaded, first: u32) -> Option<Bits> {
        let lead: &[Node] = match &self.node {
            Node::And(xs) => xs,
            node => std::slice::from_ref(node),
        };
        let bi = board_number(&m.table.boards, first).ok()?;
        let board = &m.table.boards.boards[bi as usize];
        if board.len() > MAX_BITS {
            return None;
        }
        let mut out: Option<Bits> = None;
        for x in lead {
            let Node::Int { probe, op, other } = x else {
                break;
            };
            let Some(bits) = place_bits::<Bits>(*probe, *op, loaded[*other], board) else {
                break;
            };
            match &mut out {
                Some(o) => o.and_in(&bits),
                None => out = Some(bits),
            }
        }
        out
    }
}

/// The index and what it reads, for [`mask`].
struct Ix<'t> {
    index: &'t mut spaceset::SpaceIndex,
    lies: Lies<'t>,
    loc_count: usize,
}

/// [`SpaceCond::mask`] of one node; `None` when the index cannot answer.
fn mask<S: SpaceSet>(
    node: &Node,
    ix: &mut Ix,
    loaded: &Loaded,
    at: (&BoardGeom, u32),
) -> Option<S> {
    let (board, _) = at;
    let all = || S::of(board.all_bits());
    Some(match node {
        Node::Int {
            probe: Probe::Size(loc),
            op,
            other,
        } => {
            // A size is 0 or at least 1: the index answers when every
            // size from 1 up compares alike.
            let v = loaded[*other];
            if !(v <= 0 || (v == 1 && matches!(op, CmpOp::Lt | CmpOp::Ge))) {
                return None;
            }
            let occupied = S::of(spaceset::occupied(
                ix.index,
                &ix.lies,
                ix.loc_count,
                at,
                *loc,
            ));
            match (op.holds(0, v), op.holds(1, v)) {
                (true, true) => all(),
                (false, false) => S::none(board.len()),
                (true, false) => all().minus(occupied),
                (false, true) => occupied,
            }
        }
        Node::Int { probe, op, other } => place_bits(*probe, *op, loaded[*other], board)?,
        Node::TopAttr {
            loc,
            key,
            eq,
            other,
        } => {
            let value = Sym::try_from(loaded[*other]).ok()?;
            let out: S =
                spaceset::top_is(ix.index, &ix.lies, ix.loc_count, at, (*loc, *key), value);
            if *eq {
                out
            } else {
                all().minus(out)
            }
        }
        Node::Is { eq, other } => {
            let local = loaded[*other] - i64::from(board.first);
            let out = if (0..i64::from(board.len())).contains(&local) {
                S::one(board.len(), local as u32)
            } else {
                S::none(board.len())
            };
            if *eq {
                out
            } else {
                all().minus(out)
            }
        }
        Node::And(xs) | Node::Or(xs) => {
            let and = matches!(node, Node::And(_));
            let mut out = if and { all() } else { S::none(board.len()) };
            for (i, x) in xs.iter().enumerate() {
                let part = mask::<S>(x, ix, loaded, at)?;
                out = match (i, and) {
                    (0, _) => part,
                    (_, true) => out.and(part),
                    (_, false) => out.or(part),
                };
            }
            out
        }
        Node::Not(x) => all().minus(mask::<S>(x, ix, loaded, at)?),
    })
}

#[inline(always)]
fn test(node: &Node, m: &Machine, loaded: &Loaded, at: &At) -> bool {
    match node {
        Node::And(xs) => xs.iter().all(|x| compare(x, m, loaded, at)),
        Node::Or(xs) => xs.iter().any(|x| compare(x, m, loaded, at)),
        _ => compare(node, m, loaded, at),
    }
}

/// [`test`] of a comparison (and, below it, of anything else).
#[inline(always)]
fn compare(node: &Node, m: &Machine, loaded: &Loaded, at: &At) -> bool {
    let t = &*m.table;
    match node {
        Node::Int { probe, op, other } => {
            let v = match *probe {
                Probe::Size(loc) => {
                    let slot = at.owner * m.tabs.loc_count as u32 + loc;
                    t.locs.get(slot as usize).map_or(0, Vec::len) as i64
                }
                Probe::Sto(id) => t.ints[at.owner as usize * m.tabs.int_count + id],
                Probe::Row => i64::from(at.rc.0),
                Probe::Col => i64::from(at.rc.1),
                Probe::Index => i64::from(at.s - at.first),
            };
            op.holds(v, loaded[*other])
        }
        Node::TopAttr {
            loc,
            key,
            eq,
            other,
        } => {
            let slot = at.owner * m.tabs.loc_count as u32 + loc;
            let attr = match t.locs.get(slot as usize).and_then(|l| l.last()) {
                Some(&c) => t.attrs(c).get(*key).copied().unwrap_or(EMPTY),
                None => EMPTY,
            };
            (i64::from(attr) == loaded[*other]) == *eq
        }
        Node::Is { eq, other } => (i64::from(at.s) == loaded[*other]) == *eq,
        Node::And(xs) => xs.iter().all(|x| nested(x, m, loaded, at)),
        Node::Or(xs) => xs.iter().any(|x| nested(x, m, loaded, at)),
        Node::Not(x) => !nested(x, m, loaded, at),
    }
}

/// [`test`] below the top, out of line (nesting is rare).
#[inline(never)]
fn nested(node: &Node, m: &Machine, loaded: &Loaded, at: &At) -> bool {
    test(node, m, loaded, at)
}

impl Machine<'_> {
    /// `cond`, a condition on the space in `var`, compiled now for one
    /// search by the evaluator, with its leaves read; `None` when it has
    /// another shape (the search then evaluates it at every space).
    pub(in crate::engine) fn space_cond(
        &self,
        cond: &BoolExpr,
        var: VarId,
    ) -> Option<(SpaceCond, Loaded)> {
        let tabs = self.tabs;
        let cx = Ctx {
            loc_count: tabs.loc_count,
            int_count: tabs.int_count,
            str_count: tabs.str_count,
            dirs: &tabs.dirs,
            attr_keys: &tabs.prog.attr_keys,
        };
        let test = SpaceCond::of(cond, var, &cx)?;
        let loaded = test.load(self)?;
        Some((test, loaded))
    }
}
