//! Checked integer arithmetic of the rules: the operators, powers, sums
//! and range widths, where leaving the 64-bit range (or dividing by zero)
//! is a rules error, never a wrap. Shared by the evaluator and the
//! compiled closures (re-exported from `eval`).

use super::eval::{Fault, R};
use crate::ir::IntOp;

/// `(OP A B)` of two integers: arithmetic that leaves the 64-bit range
/// is a rules error (never a wrap), and so is a division by zero.
#[inline(always)]
pub(super) fn int_op(op: IntOp, a: i64, b: i64) -> R<i64> {
    let r = match op {
        IntOp::Add => a.checked_add(b),
        IntOp::Sub => a.checked_sub(b),
        IntOp::Mul => a.checked_mul(b),
        IntOp::Div | IntOp::Mod | IntOp::Rem if b == 0 => return Err(divided_by_zero(op)),
        IntOp::Div => a.checked_div(b),
        // MIN % -1 is 0, though MIN // -1 is out of range.
        IntOp::Mod | IntOp::Rem if b == -1 => Some(0),
        IntOp::Mod => a.checked_rem_euclid(b),
        IntOp::Rem => a.checked_rem(b),
        IntOp::Min => Some(a.min(b)),
        IntOp::Max => Some(a.max(b)),
        IntOp::Pow => power(a, b),
        _ => return bit_op(op, a, b),
    };
    r.ok_or_else(|| overflow(op, a, b))
}

/// `(^ a b)`: 0 for a negative exponent (integers have no fractions),
/// `None` when the power leaves the 64-bit range.
fn power(a: i64, b: i64) -> Option<i64> {
    if b < 0 {
        return Some(0);
    }
    match u32::try_from(b) {
        Ok(b) => a.checked_pow(b),
        // Only 0, 1 and -1 have powers this high in range.
        Err(_) => match a {
            0 | 1 => Some(a),
            -1 => Some(if b % 2 == 0 { 1 } else { -1 }),
            _ => None,
        },
    }
}

/// The word of an operator in the rules.
pub(super) fn op_name(op: IntOp) -> &'static str {
    match op {
        IntOp::Add => "+",
        IntOp::Sub => "-",
        IntOp::Mul => "*",
        IntOp::Div => "//",
        IntOp::Mod => "%",
        IntOp::Pow => "^",
        IntOp::BitAnd => "bitand",
        IntOp::BitOr => "bitor",
        IntOp::BitXor => "bitxor",
        IntOp::Shl => "shl",
        IntOp::Shr => "shr",
        IntOp::Rem => "rem",
        IntOp::Min => "min",
        IntOp::Max => "max",
    }
}

/// The error of `(OP a b)` leaving the range of integers.
#[cold]
#[inline(never)]
pub(super) fn overflow(op: IntOp, a: i64, b: i64) -> Fault {
    too_big(format_args!("`({} {a} {b})`", op_name(op)))
}

/// The error of a division (`//` or `%`) by zero.
#[cold]
#[inline(never)]
fn divided_by_zero(op: IntOp) -> Fault {
    format!("division by zero in `{}`", op_name(op)).into()
}

/// The error of a result outside the range of integers.
#[cold]
#[inline(never)]
pub(super) fn too_big(what: std::fmt::Arguments) -> Fault {
    format!(
        "integer overflow: {what} is outside the integers' range ({} to {})",
        i64::MIN,
        i64::MAX
    )
    .into()
}

/// `a + b` for a sum of several values (`what` names it), overflow a
/// rules error.
#[inline(always)]
pub(super) fn add(a: i64, b: i64, what: &str) -> R<i64> {
    a.checked_add(b)
        .ok_or_else(|| too_big(format_args!("{what} (adding {b} to {a})")))
}

/// The largest N whose Fibonacci number fits in 64 bits.
pub const MAX_FIB: i64 = 92;

/// `(fib N)`: exact up to [`MAX_FIB`], an overflow past it; a negative N
/// is a rules error (the sequence starts at 0).
pub(super) fn fib(n: i64) -> R<i64> {
    if n < 0 {
        return Err(format!("`(fib {n})`: the Fibonacci numbers start at `(fib 0)`").into());
    }
    if n > MAX_FIB {
        return Err(too_big(format_args!("`(fib {n})`")));
    }
    let (mut a, mut b) = (0i64, 1i64);
    for _ in 0..n {
        // b is fib(k + 1), in range while k < MAX_FIB; the last step's
        // b (fib 93) is never read, so it is only made when it fits.
        (a, b) = (b, a.checked_add(b).unwrap_or(i64::MAX));
    }
    Ok(a)
}

/// Most integers a `range` may list.
pub const MAX_RANGE: i128 = 1_000_001;

/// The number of integers of `(range a .. b)` (0 when `b < a`), a rules
/// error past [`MAX_RANGE`]; worked out in 128 bits, so that no width
/// overflows.
pub(super) fn range_len(a: i64, b: i64) -> R<usize> {
    let n = i128::from(b) - i128::from(a) + 1;
    if n > MAX_RANGE {
        return Err(format!(
            "`range` from {a} to {b} is too large: {n} integers, at most {MAX_RANGE} are allowed"
        )
        .into());
    }
    Ok(n.max(0) as usize)
}

/// The bitwise operators and shifts of integers (`bitand`, `bitor`,
/// `bitxor`, `shl`, `shr`); the others are not asked for here.
pub(super) fn bit_op(op: IntOp, a: i64, b: i64) -> R<i64> {
    let shift = |name: &str| -> R<u32> {
        u32::try_from(b)
            .ok()
            .filter(|b| *b < 64)
            .ok_or_else(|| format!("`{name}` by {b}: a shift is by 0 to 63 bits").into())
    };
    Ok(match op {
        IntOp::BitAnd => a & b,
        IntOp::BitOr => a | b,
        IntOp::BitXor => a ^ b,
        IntOp::Shl => a << shift("shl")?,
        IntOp::Shr => a >> shift("shr")?,
        _ => 0,
    })
}
