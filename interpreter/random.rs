//! Portable randomness: the same seed gives the same numbers on every machine
//! and with every dependency version we allow.
//!
//! Everything random in cardboard (the engine's shuffles and random tie
//! breaks, the random players) draws from a ChaCha8 generator built with
//! [`rng_from_seed`] (or [`GameRng::new`], the same generator but cloneable)
//! and uses [`below`] and [`shuffle`], never `rand`'s distribution helpers,
//! whose algorithms may change between versions.
//!
//! ```
//! use cardboard::random::{below, shuffle, GameRng};
//! let mut rng = GameRng::new(7);
//! let k = below(&mut rng, 6);
//! assert!(k < 6);
//! let mut deck = [1, 2, 3, 4, 5];
//! shuffle(&mut rng, &mut deck);
//! deck.sort();
//! assert_eq!(deck, [1, 2, 3, 4, 5]);
//! ```

use rand::rngs::ChaCha8Rng;
use rand::{Rng, SeedableRng, TryRng};
use std::convert::Infallible;

/// The golden-ratio increment of splitmix64.
const GOLDEN_GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

/// The splitmix64 output function: a bijective mix of 64 bits, so that
/// neighbouring inputs (seeds 1, 2, 3) give unrelated outputs.
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The `i`-th output (counting from 0) of a splitmix64 generator whose state
/// starts at `state`.
pub fn splitmix64(state: u64, i: u64) -> u64 {
    mix64(state.wrapping_add(GOLDEN_GAMMA.wrapping_mul(i.wrapping_add(1))))
}

/// A ChaCha8 generator from a 64-bit seed. The 32-byte key is four
/// splitmix64 outputs in little-endian order: fixed here, independent of
/// `rand_core`'s own `seed_from_u64`.
pub fn rng_from_seed(seed: u64) -> ChaCha8Rng {
    let mut key = [0u8; 32];
    for (i, chunk) in key.chunks_exact_mut(8).enumerate() {
        chunk.copy_from_slice(&splitmix64(seed, i as u64).to_le_bytes());
    }
    ChaCha8Rng::from_seed(key)
}

/// A ChaCha8 generator that can be cloned (a game state carries one, and
/// cloning the state must clone its chance). `rand`'s `ChaCha8Rng` is not
/// `Clone`; this clones it through its serialized state (seed, stream,
/// position), so the clone continues with exactly the same numbers.
pub struct GameRng(ChaCha8Rng);

impl GameRng {
    /// The generator [`rng_from_seed`] makes.
    pub fn new(seed: u64) -> GameRng {
        GameRng(rng_from_seed(seed))
    }

    /// The generator's exact state: the 32-byte key, the stream (8 bytes,
    /// little-endian) and the position in words (9 bytes, little-endian).
    /// [`GameRng::from_state`] continues with exactly the same numbers.
    pub fn state(&self) -> [u8; 49] {
        self.0.serialize_state()
    }

    /// How many 32-bit words were drawn since the generator was seeded
    /// (0 for a new one, whatever its seed).
    pub fn words_drawn(&self) -> u128 {
        self.0.get_word_pos()
    }

    /// A generator from the state [`GameRng::state`] gave.
    pub fn from_state(state: &[u8; 49]) -> GameRng {
        GameRng(ChaCha8Rng::deserialize_state(state))
    }
}

impl Clone for GameRng {
    fn clone(&self) -> GameRng {
        GameRng(ChaCha8Rng::deserialize_state(&self.0.serialize_state()))
    }
}

impl std::fmt::Debug for GameRng {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "GameRng(word {})", self.0.get_word_pos())
    }
}

impl PartialEq for GameRng {
    fn eq(&self, other: &GameRng) -> bool {
        self.0 == other.0
    }
}

impl Eq for GameRng {}

impl TryRng for GameRng {
    type Error = Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        Ok(self.0.next_u32())
    }
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        Ok(self.0.next_u64())
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), Infallible> {
        self.0.fill_bytes(dest);
        Ok(())
    }
}

/// A uniform integer in `0..n`, by Lemire's multiply-shift method with
/// rejection on 64-bit words (so the result does not depend on the
/// platform's `usize`). Works with [`GameRng`] and `ChaCha8Rng` alike.
///
/// # Panics
/// If `n == 0` (there is nothing to pick from: a bug in the caller).
pub fn below<R: Rng + ?Sized>(rng: &mut R, n: usize) -> usize {
    assert!(n > 0, "below(rng, 0): empty range");
    let n = n as u64;
    let mut product = u128::from(rng.next_u64()) * u128::from(n);
    let mut low = product as u64;
    if low < n {
        // 2^64 mod n: the number of low words that would bias the result.
        let threshold = n.wrapping_neg() % n;
        while low < threshold {
            product = u128::from(rng.next_u64()) * u128::from(n);
            low = product as u64;
        }
    }
    (product >> 64) as usize
}

/// Shuffles `items` in place (Fisher–Yates, drawing with [`below`]).
pub fn shuffle<R: Rng + ?Sized, T>(rng: &mut R, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i + 1);
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn below_stays_in_range_and_covers_it() {
        let mut rng = rng_from_seed(1);
        let mut seen = [0u32; 7];
        for _ in 0..7000 {
            seen[below(&mut rng, 7)] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800 && c < 1200), "{seen:?}");
        assert_eq!(below(&mut rng, 1), 0);
    }

    #[test]
    fn same_seed_same_numbers_different_seed_different_numbers() {
        let draw = |seed| {
            let mut rng = rng_from_seed(seed);
            (0..8).map(|_| below(&mut rng, 1000)).collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }

    #[test]
    fn sequence_is_pinned() {
        // These numbers must never change: transcripts depend on them.
        let mut rng = rng_from_seed(0);
        let got: Vec<usize> = (0..6).map(|_| below(&mut rng, 100)).collect();
        assert_eq!(got, PINNED);
    }
    const PINNED: [usize; 6] = [74, 22, 23, 9, 36, 4];

    #[test]
    fn a_clone_continues_with_the_same_numbers() {
        let mut rng = GameRng::new(5);
        for skip in [0, 1, 3, 17, 64, 65, 200] {
            for _ in 0..skip {
                rng.next_u32();
            }
            let mut copy = rng.clone();
            assert_eq!(copy, rng);
            let a: Vec<u64> = (0..150).map(|_| rng.next_u64()).collect();
            let b: Vec<u64> = (0..150).map(|_| copy.next_u64()).collect();
            assert_eq!(a, b, "after skipping {skip} words");
        }
        let mut plain = rng_from_seed(5);
        let mut wrapped = GameRng::new(5);
        assert_eq!(plain.next_u64(), wrapped.next_u64());
    }

    #[test]
    fn splitmix_matches_the_reference() {
        // First output of the reference splitmix64 seeded with 0.
        assert_eq!(splitmix64(0, 0), 0xE220_A839_7B1D_CDAF);
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut rng = rng_from_seed(9);
        let mut v: Vec<u32> = (0..52).collect();
        shuffle(&mut rng, &mut v);
        assert_ne!(v, (0..52).collect::<Vec<_>>());
        v.sort_unstable();
        assert_eq!(v, (0..52).collect::<Vec<_>>());
    }
}
