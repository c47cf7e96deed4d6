//! Sets of the spaces of one board: [`Bits`], fixed words of bits, and
//! the [`SpaceSet`] trait, which lets a search hold its sets as `Bits` or,
//! on a board of at most 128 spaces, as a `u128` passed in registers, with
//! one code for both.
//!
//! Bit `i` of a set stands for the board's space `first + i`. Boards of
//! more than [`MAX_BITS`] spaces are searched one space at a time instead.

use super::spaceset::{spread, spread128, Reach};

/// Words of a set.
const WORDS: usize = 8;

/// The most spaces a board searched with bit sets may have.
pub const MAX_BITS: u32 = (WORDS * 64) as u32;

/// A set of spaces of one board (bit `i`: the board's `i`-th space).
/// Only the words a board needs are used: words past the first `n` are
/// always zero and operations stop before them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bits {
    w: [u64; WORDS],
    /// Words in use.
    n: usize,
}

impl Bits {
    /// No space, of a board of `len` spaces.
    #[inline]
    pub fn empty(len: u32) -> Bits {
        Bits {
            w: [0; WORDS],
            n: (len as usize).div_ceil(64).min(WORDS),
        }
    }

    /// The set of space `i` alone, of a board of `len` spaces.
    #[inline]
    pub fn one(len: u32, i: u32) -> Bits {
        let mut b = Bits::empty(len);
        b.insert(i);
        b
    }

    /// Every space of a board of `n` spaces.
    pub fn first(n: u32) -> Bits {
        Bits::below(n, n)
    }

    /// The spaces `0..hi` of a board of `len` spaces.
    pub fn below(len: u32, hi: u32) -> Bits {
        let mut b = Bits::empty(len);
        let hi = hi.min(len);
        for (k, w) in b.w[..b.n].iter_mut().enumerate() {
            let lo = (k * 64) as u32;
            *w = match hi.saturating_sub(lo) {
                0 => 0,
                r if r >= 64 => u64::MAX,
                r => (1u64 << r) - 1,
            };
        }
        b
    }

    #[inline]
    pub fn contains(&self, i: u32) -> bool {
        self.w[..self.n]
            .get(i as usize / 64)
            .is_some_and(|w| w >> (i % 64) & 1 == 1)
    }

    #[inline]
    pub fn insert(&mut self, i: u32) {
        if let Some(w) = self.w[..self.n].get_mut(i as usize / 64) {
            *w |= 1 << (i % 64);
        }
    }

    #[inline]
    pub fn remove(&mut self, i: u32) {
        if let Some(w) = self.w[..self.n].get_mut(i as usize / 64) {
            *w &= !(1 << (i % 64));
        }
    }

    // The operations between sets run over every word: the words past
    // `n` are zero in every set of the board and stay zero, and a loop of
    // fixed length needs no branch.

    #[inline]
    pub fn and(mut self, o: &Bits) -> Bits {
        self.and_in(o);
        self
    }

    /// Keeps only the spaces also in `o`.
    #[inline]
    pub fn and_in(&mut self, o: &Bits) {
        for k in 0..WORDS {
            self.w[k] &= o.w[k];
        }
    }

    /// Adds the spaces of `o`.
    #[inline]
    pub fn or_in(&mut self, o: &Bits) {
        for k in 0..WORDS {
            self.w[k] |= o.w[k];
        }
    }

    /// The spaces of `self` not in `o`.
    #[inline]
    pub fn minus(mut self, o: &Bits) -> Bits {
        for k in 0..WORDS {
            self.w[k] &= !o.w[k];
        }
        self
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.w.iter().fold(0, |acc, w| acc | w) == 0
    }

    /// The number of members.
    #[inline]
    pub fn count(&self) -> u32 {
        self.w.iter().map(|w| w.count_ones()).sum()
    }

    /// The least member.
    #[inline]
    pub fn least(&self) -> Option<u32> {
        self.least_from(0)
    }

    /// The least member not below `k`.
    #[inline]
    pub fn least_from(&self, k: u32) -> Option<u32> {
        let mut word = k as usize / 64;
        let mut w = *self.w.get(word)? & (u64::MAX << (k % 64));
        loop {
            if w != 0 {
                return Some(word as u32 * 64 + w.trailing_zeros());
            }
            word += 1;
            w = *self.w.get(word)?;
        }
    }

    /// The greatest member.
    #[inline]
    pub fn greatest(&self) -> Option<u32> {
        let k = self.w.iter().rposition(|w| *w != 0)?;
        Some(k as u32 * 64 + 63 - self.w[k].leading_zeros())
    }

    /// The first 128 members' bits (space `i`: bit `i`), for a board of
    /// at most 128 spaces.
    #[inline]
    pub fn low128(&self) -> u128 {
        u128::from(self.w[0]) | u128::from(self.w[1]) << 64
    }

    /// Calls `f` with each member, in increasing order.
    #[inline]
    pub fn each(&self, mut f: impl FnMut(u32)) {
        for (k, &w) in self.w[..self.n].iter().enumerate() {
            let mut w = w;
            while w != 0 {
                f((k * 64) as u32 + w.trailing_zeros());
                w &= w - 1;
            }
        }
    }
}

/// A set of the spaces of one board as a search computes it: [`Bits`],
/// or, for a board of at most 128 spaces, a `u128` (bit `i`: the board's
/// `i`-th space), which is passed and returned in registers.
pub trait SpaceSet: Copy {
    /// The set `b` is.
    fn of(b: &Bits) -> Self;
    /// No space, of a board of `len` spaces.
    fn none(len: u32) -> Self;
    /// The set of space `i` alone, of a board of `len` spaces.
    fn one(len: u32, i: u32) -> Self;
    /// The spaces of `self` not in `o`.
    fn minus(self, o: Self) -> Self;
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// The spaces `0..hi` of a board of `len` spaces.
    fn below(len: u32, hi: u32) -> Self;
    /// The most spaces a board searched with such sets may have.
    const MOST: u32;
    /// The set as [`Bits`] of a board of `len` spaces.
    fn bits(self, len: u32) -> Bits;
    /// The first 128 members' bits.
    fn low128(self) -> u128;
    /// Whether space `i` is a member.
    fn contains(self, i: u32) -> bool;
    /// Calls `f` with each member, in increasing order.
    fn each(self, f: impl FnMut(u32));
    /// [`spread`] of sets of this type.
    fn spread(reach: &Reach, start: u32, mask: Self, stop: Self) -> (Self, bool);
}

impl SpaceSet for Bits {
    #[inline(always)]
    fn of(b: &Bits) -> Bits {
        *b
    }
    #[inline(always)]
    fn none(len: u32) -> Bits {
        Bits::empty(len)
    }
    #[inline(always)]
    fn one(len: u32, i: u32) -> Bits {
        Bits::one(len, i)
    }
    #[inline(always)]
    fn minus(self, o: Bits) -> Bits {
        Bits::minus(self, &o)
    }
    #[inline(always)]
    fn and(self, o: Bits) -> Bits {
        Bits::and(self, &o)
    }
    #[inline(always)]
    fn or(mut self, o: Bits) -> Bits {
        self.or_in(&o);
        self
    }
    #[inline(always)]
    fn below(len: u32, hi: u32) -> Bits {
        Bits::below(len, hi)
    }
    const MOST: u32 = MAX_BITS;
    #[inline(always)]
    fn bits(self, _: u32) -> Bits {
        self
    }
    #[inline(always)]
    fn low128(self) -> u128 {
        Bits::low128(&self)
    }
    #[inline(always)]
    fn contains(self, i: u32) -> bool {
        Bits::contains(&self, i)
    }
    #[inline(always)]
    fn each(self, f: impl FnMut(u32)) {
        Bits::each(&self, f)
    }
    #[inline(always)]
    fn spread(reach: &Reach, start: u32, mask: Bits, stop: Bits) -> (Bits, bool) {
        spread(reach, start, &mask, Some(&stop))
    }
}

impl SpaceSet for u128 {
    #[inline(always)]
    fn of(b: &Bits) -> u128 {
        b.low128()
    }
    #[inline(always)]
    fn none(_: u32) -> u128 {
        0
    }
    #[inline(always)]
    fn one(_: u32, i: u32) -> u128 {
        1u128.checked_shl(i).unwrap_or(0)
    }
    #[inline(always)]
    fn minus(self, o: u128) -> u128 {
        self & !o
    }
    #[inline(always)]
    fn and(self, o: u128) -> u128 {
        self & o
    }
    #[inline(always)]
    fn or(self, o: u128) -> u128 {
        self | o
    }
    #[inline(always)]
    fn below(len: u32, hi: u32) -> u128 {
        match hi.min(len) {
            h if h >= 128 => u128::MAX,
            h => (1u128 << h) - 1,
        }
    }
    const MOST: u32 = 128;
    #[inline(always)]
    fn bits(self, len: u32) -> Bits {
        Bits::from_low128(len, self)
    }
    #[inline(always)]
    fn low128(self) -> u128 {
        self
    }
    #[inline(always)]
    fn contains(self, i: u32) -> bool {
        i < 128 && (self >> i) & 1 == 1
    }
    #[inline(always)]
    fn each(self, mut f: impl FnMut(u32)) {
        for (k, mut w) in [self as u64, (self >> 64) as u64].into_iter().enumerate() {
            while w != 0 {
                f(k as u32 * 64 + w.trailing_zeros());
                w &= w - 1;
            }
        }
    }
    #[inline(always)]
    fn spread(reach: &Reach, start: u32, mask: u128, stop: u128) -> (u128, bool) {
        spread128(reach, start, mask, stop)
    }
}

impl Bits {
    /// The set of the members of `b` (bit `i`: space `i`) of a board of
    /// `len` spaces, at most 128.
    #[inline]
    pub fn from_low128(len: u32, b: u128) -> Bits {
        let mut out = Bits::empty(len);
        out.w[0] = b as u64;
        out.w[1] = (b >> 64) as u64;
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_and_list_their_members_in_order() {
        let mut b = Bits::first(70);
        assert!(b.contains(0) && b.contains(69) && !b.contains(70));
        b.remove(3);
        b = b.minus(&Bits::first(2));
        let mut got = Vec::new();
        b.each(|i| got.push(i));
        assert_eq!(got.len(), 67);
        assert_eq!(&got[..3], &[2, 4, 5]);
        assert_eq!(
            Bits::one(70, 600),
            Bits::empty(70),
            "past the last word: ignored"
        );
    }

    /// The operations give the same sets whether held as `Bits` or as
    /// `u128`, on a board of 128 spaces (every bit in use).
    #[test]
    fn both_kinds_of_sets_agree() {
        let len = 128;
        let a: Vec<u32> = (0..len).filter(|i| i % 3 == 0 || i % 7 == 1).collect();
        let b: Vec<u32> = (0..len).filter(|i| i % 2 == 0 || *i > 100).collect();
        let set = |m: &[u32]| {
            let mut s = Bits::empty(len);
            m.iter().for_each(|&i| s.insert(i));
            s
        };
        let (ba, bb) = (set(&a), set(&b));
        let (wa, wb) = (ba.low128(), bb.low128());
        assert_eq!(Bits::from_low128(len, wa), ba);
        let pairs: [(Bits, u128); 7] = [
            (SpaceSet::minus(ba, bb), SpaceSet::minus(wa, wb)),
            (SpaceSet::and(ba, bb), SpaceSet::and(wa, wb)),
            (SpaceSet::or(ba, bb), SpaceSet::or(wa, wb)),
            (
                <Bits as SpaceSet>::below(len, 77),
                <u128 as SpaceSet>::below(len, 77),
            ),
            (
                <Bits as SpaceSet>::below(len, 200),
                <u128 as SpaceSet>::below(len, 200),
            ),
            (
                <Bits as SpaceSet>::one(len, 127),
                <u128 as SpaceSet>::one(len, 127),
            ),
            (<Bits as SpaceSet>::none(len), <u128 as SpaceSet>::none(len)),
        ];
        for (k, (x, w)) in pairs.into_iter().enumerate() {
            assert_eq!(x.low128(), w, "operation {k}");
            assert_eq!(SpaceSet::bits(w, len), x, "operation {k}");
            let (mut xs, mut ws) = (Vec::new(), Vec::new());
            SpaceSet::each(x, |i| xs.push(i));
            SpaceSet::each(w, |i| ws.push(i));
            assert_eq!(xs, ws, "operation {k}");
            for i in [0, 1, 63, 64, 100, 127, 128, 500] {
                let (x_has, w_has) = (SpaceSet::contains(x, i), SpaceSet::contains(w, i));
                assert_eq!(x_has, w_has, "operation {k}, space {i}");
            }
        }
        assert_eq!(<u128 as SpaceSet>::below(len, 128), u128::MAX);
    }
}
