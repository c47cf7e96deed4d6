//! Arithmetic compiled: the operators of `+`, `-`, `*`, `//`, `%`, `^`
//! and the bit operators, the comparisons, and the operands of compiled
//! nodes ([`Opnd`]). An operator with a literal operand, and a comparison,
//! is one closure of its own, fixed for its operator (no call through a
//! function pointer, no test of the operator), that reads a leaf operand in
//! place.

use super::expr::int;
use super::leaf::{AnyLeaf, IntLeaf, ReadInt, WithLeaf};
use super::{Ctx, Run, Thin, CR};
use crate::engine::eval::{int_op, overflow};
use crate::engine::exec::Machine;
use crate::ir::{BoolExpr, IntExpr, IntOp};

/// `(OP A B)`, `e` the whole expression.
pub(super) fn binary_op(op: IntOp, a: &IntExpr, b: &IntExpr, e: &IntExpr, cx: &Ctx) -> Run<i64> {
    match (a, b) {
        // `(- 'X 1)`, `(bitand 'F 85)`, `(shl 'F 2)`: one closure.
        (x, IntExpr::Lit(k)) => by_literal(op, x, (*k, false), e, cx)
            .unwrap_or_else(|| binary(op, int(a, cx), int(b, cx))),
        // `(* 2 'X)`, `(bitxor 255 'F)`: an operator that does not mind
        // the order of its operands, the literal taken as the right one (a
        // literal has no effect to order).
        (IntExpr::Lit(k), x) if commutes(op) => by_literal(op, x, (*k, true), e, cx)
            .unwrap_or_else(|| binary(op, int(a, cx), int(b, cx))),
        _ => binary(op, int(a, cx), int(b, cx)),
    }
}

/// Whether `a op b` is `b op a` for every pair (and neither fails).
fn commutes(op: IntOp) -> bool {
    matches!(
        op,
        IntOp::Add
            | IntOp::Mul
            | IntOp::BitAnd
            | IntOp::BitOr
            | IntOp::BitXor
            | IntOp::Min
            | IntOp::Max
    )
}

/// `(+ A B)` and the other operators: A, then B, as the evaluator does
/// (overflow and division by zero its errors, [`int_op`]).
fn binary(op: IntOp, a: Run<i64>, b: Run<i64>) -> Run<i64> {
    match op {
        IntOp::Add => Box::new(move |m| {
            let (a, b) = (a(m)?, b(m)?);
            a.checked_add(b).ok_or_else(|| failed(IntOp::Add, a, b))
        }),
        IntOp::Sub => Box::new(move |m| {
            let (a, b) = (a(m)?, b(m)?);
            a.checked_sub(b).ok_or_else(|| failed(IntOp::Sub, a, b))
        }),
        IntOp::Mul => Box::new(move |m| {
            let (a, b) = (a(m)?, b(m)?);
            a.checked_mul(b).ok_or_else(|| failed(IntOp::Mul, a, b))
        }),
        IntOp::BitAnd => Box::new(move |m| Ok(a(m)? & b(m)?)),
        IntOp::BitOr => Box::new(move |m| Ok(a(m)? | b(m)?)),
        IntOp::BitXor => Box::new(move |m| Ok(a(m)? ^ b(m)?)),
        IntOp::Min => Box::new(move |m| Ok(a(m)?.min(b(m)?))),
        IntOp::Max => Box::new(move |m| Ok(a(m)?.max(b(m)?))),
        IntOp::Rem | IntOp::Div | IntOp::Mod | IntOp::Pow | IntOp::Shl | IntOp::Shr => {
            Box::new(move |m| {
                let (a, b) = (a(m)?, b(m)?);
                Ok(int_op(op, a, b)?)
            })
        }
    }
}

/// The error of `(OP a b)`, computed again by the evaluator's operator
/// (out of line: only a failure comes here).
#[cold]
#[inline(never)]
fn failed(op: IntOp, a: i64, b: i64) -> Thin {
    match int_op(op, a, b) {
        Err(f) => f.into(),
        Ok(_) => overflow(op, a, b).into(),
    }
}

/// An integer operand of a compiled node: a literal or a leaf read in
/// place (no call), else its compiled closure.
pub(super) enum Opnd {
    Lit(i64),
    /// A leaf, and its expression for the evaluator when the leaf holds a
    /// value of another kind.
    Leaf(IntLeaf, Box<IntExpr>),
    Run(Run<i64>),
}

impl Opnd {
    pub fn of(e: &IntExpr, cx: &Ctx) -> Opnd {
        match IntLeaf::of(e, cx) {
            Some(IntLeaf::Lit(i)) => Opnd::Lit(i),
            Some(leaf) => Opnd::Leaf(leaf, Box::new(e.clone())),
            None => Opnd::Run(int(e, cx)),
        }
    }

    /// The operand's value, as its closure would give it.
    #[inline(always)]
    pub fn get(&self, m: &mut Machine) -> CR<i64> {
        match self {
            Opnd::Lit(i) => Ok(*i),
            Opnd::Leaf(leaf, e) => match leaf.read(m) {
                Some(i) => Ok(i),
                None => evaluate(m, e),
            },
            Opnd::Run(r) => r(m),
        }
    }
}

/// `x op k`, the literal `k` as the right operand, in one closure, for
/// the operators that fail only by overflow (division and remainder fail
/// otherwise too, and so does a shift by other than 0 to 63 bits: they
/// keep their general closures). A leaf `x` is read in place (the whole expression `e` goes to
/// the evaluator when it holds a value of another kind).
/// `swapped`: the literal is written first (its error shows it so).
fn by_literal(
    op: IntOp,
    x: &IntExpr,
    (k, swapped): (i64, bool),
    e: &IntExpr,
    cx: &Ctx,
) -> Option<Run<i64>> {
    const ADD: u8 = 0;
    const SUB: u8 = 1;
    const MUL: u8 = 2;
    const AND: u8 = 3;
    const OR: u8 = 4;
    const XOR: u8 = 5;
    const SHL: u8 = 6;
    const SHR: u8 = 7;
    #[inline(always)]
    fn apply<const OP: u8>(a: i64, k: i64, swapped: bool) -> CR<i64> {
        let r = match OP {
            ADD => a.checked_add(k),
            SUB => a.checked_sub(k),
            MUL => a.checked_mul(k),
            AND => Some(a & k),
            OR => Some(a | k),
            XOR => Some(a ^ k),
            SHL => Some(a << (k & 63)),
            _ => Some(a >> (k & 63)),
        };
        match r {
            Some(r) => Ok(r),
            None if swapped => Err(failed(op_of::<OP>(), k, a)),
            None => Err(failed(op_of::<OP>(), a, k)),
        }
    }
    /// The operator of `OP`, for its error.
    fn op_of<const OP: u8>() -> IntOp {
        match OP {
            ADD => IntOp::Add,
            SUB => IntOp::Sub,
            _ => IntOp::Mul,
        }
    }
    /// The closure of `x op k` for a leaf `x` of one kind.
    struct Make<const OP: u8> {
        k: i64,
        swapped: bool,
        e: IntExpr,
    }
    impl<const OP: u8> WithLeaf for Make<OP> {
        type Out = Run<i64>;
        fn with<L: ReadInt>(self, leaf: L) -> Run<i64> {
            let Make { k, swapped, e } = self;
            Box::new(move |m| match leaf.read(m) {
                Some(a) => apply::<OP>(a, k, swapped),
                None => evaluate(m, &e),
            })
        }
    }
    fn make<const OP: u8>(x: &IntExpr, k: (i64, bool), e: &IntExpr, cx: &Ctx) -> Run<i64> {
        let (k, swapped) = k;
        match IntLeaf::of(x, cx) {
            Some(leaf) => leaf.dispatch(Make::<OP> {
                k,
                swapped,
                e: e.clone(),
            }),
            None => {
                let a = int(x, cx);
                Box::new(move |m| apply::<OP>(a(m)?, k, swapped))
            }
        }
    }
    Some(match op {
        IntOp::Add => make::<ADD>(x, (k, swapped), e, cx),
        IntOp::Sub => make::<SUB>(x, (k, swapped), e, cx),
        IntOp::Mul => make::<MUL>(x, (k, swapped), e, cx),
        IntOp::BitAnd => make::<AND>(x, (k, swapped), e, cx),
        IntOp::BitOr => make::<OR>(x, (k, swapped), e, cx),
        IntOp::BitXor => make::<XOR>(x, (k, swapped), e, cx),
        IntOp::Shl if (0..64).contains(&k) => make::<SHL>(x, (k, swapped), e, cx),
        IntOp::Shr if (0..64).contains(&k) => make::<SHR>(x, (k, swapped), e, cx),
        IntOp::Div
        | IntOp::Mod
        | IntOp::Rem
        | IntOp::Pow
        | IntOp::Shl
        | IntOp::Shr
        | IntOp::Min
        | IntOp::Max => return None,
    })
}

/// The comparisons, as constants (one closure of its own each).
pub(super) const LT: u8 = 0;
pub(super) const LE: u8 = 1;
pub(super) const GT: u8 = 2;
pub(super) const GE: u8 = 3;
pub(super) const EQ: u8 = 4;
pub(super) const NE: u8 = 5;

/// `a OP b`.
#[inline(always)]
fn holds<const OP: u8>(a: i64, b: i64) -> bool {
    match OP {
        LT => a < b,
        LE => a <= b,
        GT => a > b,
        GE => a >= b,
        EQ => a == b,
        _ => a != b,
    }
}

/// A comparison `OP` of two integer leaves, read in place (a literal right
/// operand known now); the evaluator decides when a leaf holds a value of
/// another kind. The closure is made for the kinds of both leaves (the
/// right one a literal, a variable or any other).
pub(super) fn compare<const OP: u8>(a: IntLeaf, b: IntLeaf, whole: BoolExpr) -> Run<bool> {
    /// The closure for a left leaf of one kind.
    struct Left<const OP: u8> {
        b: IntLeaf,
        whole: BoolExpr,
    }
    /// The closure for both leaves of one kind each.
    struct Right<const OP: u8, A: ReadInt> {
        a: A,
        whole: BoolExpr,
    }
    impl<const OP: u8> WithLeaf for Left<OP> {
        type Out = Run<bool>;
        fn with<A: ReadInt>(self, a: A) -> Run<bool> {
            let Left { b, whole } = self;
            let right = Right::<OP, A> { a, whole };
            match b {
                IntLeaf::Lit(_) | IntLeaf::Var(_) => b.dispatch(right),
                b => right.with(AnyLeaf(b)),
            }
        }
    }
    impl<const OP: u8, A: ReadInt> WithLeaf for Right<OP, A> {
        type Out = Run<bool>;
        fn with<B: ReadInt>(self, b: B) -> Run<bool> {
            let Right { a, whole } = self;
            Box::new(move |m| match (a.read(m), b.read(m)) {
                (Some(a), Some(b)) => Ok(holds::<OP>(a, b)),
                _ => evaluate_bool(m, &whole),
            })
        }
    }
    a.dispatch(Left::<OP> { b, whole })
}

/// A comparison `OP` of two compiled integers, A then B (`Err`: a literal
/// B).
pub(super) fn compare_runs<const OP: u8>(a: Run<i64>, b: Result<Run<i64>, i64>) -> Run<bool> {
    match b {
        Err(k) => Box::new(move |m| Ok(holds::<OP>(a(m)?, k))),
        Ok(b) => Box::new(move |m| {
            let a = a(m)?;
            Ok(holds::<OP>(a, b(m)?))
        }),
    }
}

/// The evaluator's value of `e` (a leaf held a value of another kind),
/// out of line.
#[cold]
#[inline(never)]
pub(super) fn evaluate(m: &mut Machine, e: &IntExpr) -> CR<i64> {
    Ok(m.int(e)?)
}

/// The evaluator's value of `e`, out of line.
#[cold]
#[inline(never)]
pub(super) fn evaluate_bool(m: &mut Machine, e: &BoolExpr) -> CR<bool> {
    Ok(m.bool(e)?)
}
