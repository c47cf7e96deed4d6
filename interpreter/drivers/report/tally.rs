//! The counts a simulation keeps while it plays: integers only, so that
//! the tallies of any split of the games (threads, chunks, shards run on
//! other machines) add up to exactly the tally of the whole run, and every
//! statistic of the report is computed from them at the end.
//!
//! Memory does not grow with the number of games: game lengths go to an
//! exact histogram (one counter per length seen), legal moves to a profile
//! of at most [`PROFILE_BUCKETS`] buckets over the decision index.

use super::GameNote;
use std::collections::BTreeMap;

/// How many errors and stops a report quotes.
pub const QUOTED: usize = 5;
/// The most buckets of the branching profile: the bucket width is the
/// smallest power of two that fits the longest counted game into this
/// many buckets, so any two profiles nest and add up exactly.
pub const PROFILE_BUCKETS: usize = 20;
/// Lengths below this are counted in a dense array, longer ones in a map.
const DENSE: u64 = 1 << 16;

/// An exact histogram of non-negative integers (game lengths).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Histogram {
    dense: Vec<u64>,
    sparse: BTreeMap<u64, u64>,
}

impl Histogram {
    /// Counts one `value`.
    #[inline]
    pub fn add(&mut self, value: u64) {
        self.add_n(value, 1);
    }

    /// Counts `value` `n` times.
    pub fn add_n(&mut self, value: u64, n: u64) {
        if value < DENSE {
            let i = value as usize;
            if self.dense.len() <= i {
                self.dense.resize(i + 1, 0);
            }
            self.dense[i] += n;
        } else {
            *self.sparse.entry(value).or_insert(0) += n;
        }
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &Histogram) {
        for (value, n) in other.iter() {
            self.add_n(value, n);
        }
    }

    /// The values counted and how often, in increasing order (values never
    /// counted left out).
    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let dense = self
            .dense
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(v, &n)| (v as u64, n));
        dense.chain(self.sparse.iter().map(|(&v, &n)| (v, n)))
    }

    /// How many values were counted.
    pub fn count(&self) -> u64 {
        self.iter().map(|(_, n)| n).sum()
    }

    /// The sum of the values counted.
    pub fn sum(&self) -> u128 {
        self.iter().map(|(v, n)| v as u128 * n as u128).sum()
    }

    /// The smallest value counted.
    pub fn min(&self) -> Option<u64> {
        self.iter().next().map(|(v, _)| v)
    }

    /// The largest value counted.
    pub fn max(&self) -> Option<u64> {
        match self.sparse.last_key_value() {
            Some((&v, _)) => Some(v),
            None => self.dense.iter().rposition(|&n| n > 0).map(|v| v as u64),
        }
    }

    /// The nearest-rank `p`-quantile (`0 < p <= 1`): the smallest value
    /// `x` such that at least `ceil(p * count)` values are `<= x`.
    pub fn quantile(&self, p: f64) -> Option<u64> {
        let count = self.count();
        if count == 0 {
            return None;
        }
        let rank = ((p * count as f64).ceil() as u64).clamp(1, count);
        let mut seen = 0;
        for (v, n) in self.iter() {
            seen += n;
            if seen >= rank {
                return Some(v);
            }
        }
        self.max()
    }

    /// The population standard deviation of the values counted.
    pub fn std_dev(&self) -> f64 {
        let count = self.count();
        if count == 0 {
            return 0.0;
        }
        let mean = self.sum() as f64 / count as f64;
        let squares: f64 = self
            .iter()
            .map(|(v, n)| {
                let d = v as f64 - mean;
                d * d * n as f64
            })
            .sum();
        (squares / count as f64).sqrt()
    }
}

/// Decisions, legal moves and forced decisions (one legal move) counted
/// together.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Decisions counted.
    pub decisions: u64,
    /// Their legal moves, summed.
    pub legal_moves: u64,
    /// Those with exactly one legal move.
    pub forced: u64,
}

impl Counts {
    #[inline]
    fn add(&mut self, moves: u64) {
        self.decisions += 1;
        self.legal_moves += moves;
        self.forced += u64::from(moves == 1);
    }

    fn merge(&mut self, other: &Counts) {
        self.decisions += other.decisions;
        self.legal_moves += other.legal_moves;
        self.forced += other.forced;
    }
}

/// Legal moves by decision index, in buckets of `width` decisions:
/// bucket `j` holds decisions `j * width + 1` to `(j + 1) * width`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// Decisions per bucket, a power of two.
    pub width: u64,
    /// The buckets, from the first decision on (at most
    /// [`PROFILE_BUCKETS`]).
    pub buckets: Vec<Counts>,
}

impl Default for Profile {
    fn default() -> Profile {
        Profile {
            width: 1,
            buckets: Vec::new(),
        }
    }
}

impl Profile {
    /// Counts decision `index` (from 1) with `moves` legal moves.
    pub fn add(&mut self, index: u64, moves: u64) {
        let index = index.max(1);
        let mut width = self.width;
        while (index - 1) / width >= PROFILE_BUCKETS as u64 {
            width *= 2;
        }
        self.widen(width);
        let j = ((index - 1) / self.width) as usize;
        if self.buckets.len() <= j {
            self.buckets.resize(j + 1, Counts::default());
        }
        self.buckets[j].add(moves);
    }

    /// Regroups the buckets into buckets of `width` (a power of two at
    /// least the current width).
    fn widen(&mut self, width: u64) {
        if width <= self.width {
            return;
        }
        let factor = (width / self.width) as usize;
        let mut wide = vec![Counts::default(); self.buckets.len().div_ceil(factor)];
        for (j, b) in self.buckets.iter().enumerate() {
            wide[j / factor].merge(b);
        }
        self.buckets = wide;
        self.width = width;
    }

    /// Adds `other`'s counts, in the wider of the two bucket widths.
    pub fn merge(&mut self, other: &Profile) {
        let mut other = other.clone();
        let width = self.width.max(other.width);
        self.widen(width);
        other.widen(width);
        if self.buckets.len() < other.buckets.len() {
            self.buckets.resize(other.buckets.len(), Counts::default());
        }
        for (mine, theirs) in self.buckets.iter_mut().zip(&other.buckets) {
            mine.merge(theirs);
        }
    }
}

/// The legal moves counted: over the games counted, per seat to move, and
/// by decision index.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChoiceTally {
    /// Games whose moves were counted (without error).
    pub games: u64,
    /// All their decisions.
    pub all: Counts,
    /// Per seat to move.
    pub seats: Vec<Counts>,
    /// By decision index.
    pub profile: Profile,
}

impl ChoiceTally {
    /// Counts decision `index` (from 1) of `seat` (None when the engine
    /// names nobody), which had `moves` legal moves.
    pub fn add(&mut self, index: u64, seat: Option<usize>, moves: u64) {
        self.all.add(moves);
        if let Some(seat) = seat {
            if self.seats.len() <= seat {
                self.seats.resize(seat + 1, Counts::default());
            }
            self.seats[seat].add(moves);
        }
        self.profile.add(index, moves);
    }

    /// Adds `other`'s counts.
    pub fn merge(&mut self, other: &ChoiceTally) {
        self.games += other.games;
        self.all.merge(&other.all);
        if self.seats.len() < other.seats.len() {
            self.seats.resize(other.seats.len(), Counts::default());
        }
        for (mine, theirs) in self.seats.iter_mut().zip(&other.seats) {
            mine.merge(theirs);
        }
        self.profile.merge(&other.profile);
    }
}

/// Counts over a set of games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Games finished normally.
    pub completed: u64,
    /// Games stopped (at the decision limit or by the engine).
    pub stopped: u64,
    /// Games failed with a rules error.
    pub errors: u64,
    /// Per seat: finished games won alone.
    pub wins: Vec<u64>,
    /// Per seat: finished games with first place shared.
    pub ties: Vec<u64>,
    /// Finished games in which every seat (two or more) shared first place.
    pub all_tied: u64,
    /// Finished games with nobody in first place.
    pub no_winner: u64,
    /// Decisions per game, over the games without error.
    pub lengths: Histogram,
    /// The legal moves counted.
    pub choice: ChoiceTally,
    /// The first few games that failed, in game order.
    pub first_errors: Vec<GameNote>,
    /// The first few games that were stopped, in game order.
    pub first_stops: Vec<GameNote>,
}

impl Tally {
    /// Counts a finished game won by `winners` among seats with `scores`.
    pub fn finished(&mut self, winners: &[usize], scores: &[i64]) {
        self.completed += 1;
        let seats = winners.iter().max().map_or(0, |&p| p + 1);
        let seats = seats.max(scores.len());
        grow(&mut self.wins, seats);
        grow(&mut self.ties, seats);
        match winners {
            [] => self.no_winner += 1,
            [alone] => self.wins[*alone] += 1,
            shared => {
                shared.iter().for_each(|&p| self.ties[p] += 1);
                if shared.len() >= seats {
                    self.all_tied += 1;
                }
            }
        }
    }

    /// Adds the counts of other games. Notes are kept in game order when
    /// `next`'s games all come after this tally's; [`Tally::sort_notes`]
    /// puts them in order otherwise.
    pub fn merge(&mut self, next: Tally) {
        self.games += next.games;
        self.completed += next.completed;
        self.stopped += next.stopped;
        self.errors += next.errors;
        for (mine, theirs) in [(&mut self.wins, next.wins), (&mut self.ties, next.ties)] {
            grow(mine, theirs.len());
            mine.iter_mut().zip(theirs).for_each(|(a, b)| *a += b);
        }
        self.all_tied += next.all_tied;
        self.no_winner += next.no_winner;
        self.lengths.merge(&next.lengths);
        self.choice.merge(&next.choice);
        for (mine, theirs) in [
            (&mut self.first_errors, next.first_errors),
            (&mut self.first_stops, next.first_stops),
        ] {
            let room = QUOTED.saturating_sub(mine.len());
            mine.extend(theirs.into_iter().take(room));
        }
    }

    /// Puts the quoted games in game order and keeps the first
    /// [`QUOTED`] (after merging tallies of interleaved games: shards).
    pub fn sort_notes(notes: &mut Vec<GameNote>) {
        notes.sort_by_key(|n| n.game);
        notes.dedup_by_key(|n| n.game);
        notes.truncate(QUOTED);
    }
}

fn grow(counts: &mut Vec<u64>, len: usize) {
    if counts.len() < len {
        counts.resize(len, 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_quantiles_are_nearest_rank() {
        let mut h = Histogram::default();
        for v in [5, 1, 3, 3, 100_000, 2] {
            h.add(v);
        }
        assert_eq!(h.count(), 6);
        assert_eq!(h.sum(), 100_014);
        assert_eq!((h.min(), h.max()), (Some(1), Some(100_000)));
        assert_eq!(h.quantile(0.5), Some(3));
        assert_eq!(h.quantile(0.9), Some(100_000));
        assert_eq!(h.quantile(0.01), Some(1));
        assert_eq!(Histogram::default().quantile(0.5), None);
        let mut flat = Histogram::default();
        flat.add_n(7, 4);
        assert_eq!(flat.std_dev(), 0.0);
        let mut two = Histogram::default();
        two.add(1);
        two.add(3);
        assert_eq!(two.std_dev(), 1.0);
    }

    #[test]
    fn profiles_of_any_split_add_up_to_the_whole() {
        let decisions: Vec<(u64, u64)> = (1..=300).map(|i| (i % 97 + 1, i % 5)).collect();
        let mut whole = Profile::default();
        decisions.iter().for_each(|&(i, m)| whole.add(i, m));
        assert_eq!(whole.width, 8);
        assert!(whole.buckets.len() <= PROFILE_BUCKETS);
        for split in [1, 7, 150, 299] {
            let (mut a, mut b) = (Profile::default(), Profile::default());
            decisions[..split].iter().for_each(|&(i, m)| a.add(i, m));
            decisions[split..].iter().for_each(|&(i, m)| b.add(i, m));
            a.merge(&b);
            assert_eq!(a, whole, "split at {split}");
        }
        let moves: u64 = whole.buckets.iter().map(|b| b.legal_moves).sum();
        assert_eq!(moves, decisions.iter().map(|d| d.1).sum::<u64>());
    }
}
