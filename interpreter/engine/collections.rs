//! Set operations and groupings of cards: `intersect`, `disjunction`,
//! `tuples`, `subsets`, `runs` and `run top|bottom`.

use super::state::CardId;
use std::collections::HashSet;

/// Cards collected once each, in order of first appearance, in time
/// linear in the cards: a few are compared one by one, more are kept in a
/// hash set (a union of two piles of 10^5 cards compared every card with
/// every other, 10^10 comparisons).
#[derive(Default)]
pub struct Distinct {
    pub out: Vec<CardId>,
    seen: Option<HashSet<CardId>>,
}

/// Past this many cards, [`Distinct`] keeps a hash set.
const FEW: usize = 32;

impl Distinct {
    /// Adds `id` unless it is in already.
    pub fn push(&mut self, id: CardId) {
        let new = match &mut self.seen {
            Some(seen) => seen.insert(id),
            None if self.out.len() < FEW => !self.out.contains(&id),
            None => {
                let seen = self.seen.insert(self.out.iter().copied().collect());
                seen.insert(id)
            }
        };
        if new {
            self.out.push(id);
        }
    }

    /// Whether `id` is in.
    pub fn contains(&self, id: CardId) -> bool {
        match &self.seen {
            Some(seen) => seen.contains(&id),
            None => self.out.contains(&id),
        }
    }

    /// The cards of `list`, once each.
    pub fn of(list: &[CardId]) -> Distinct {
        let mut d = Distinct::default();
        list.iter().for_each(|&id| d.push(id));
        d
    }
}

/// Largest collection `subsets` accepts (2^16 subsets).
const MAX_SUBSET_SOURCE: usize = 16;
/// Most groups any grouping may produce.
const MAX_GROUPS: usize = 100_000;

/// Cards in every list, in the first list's order.
pub fn intersect(lists: Vec<Vec<CardId>>) -> Vec<CardId> {
    let mut it = lists.into_iter();
    let Some(first) = it.next() else {
        return Vec::new();
    };
    let rest: Vec<Distinct> = it.map(|l| Distinct::of(&l)).collect();
    first
        .into_iter()
        .filter(|c| rest.iter().all(|l| l.contains(*c)))
        .collect()
}

/// Cards in exactly one of the lists, in order of appearance.
pub fn disjunction(lists: Vec<Vec<CardId>>) -> Vec<CardId> {
    // How many lists hold each card (a card twice in one list counts once).
    let sets: Vec<Distinct> = lists.iter().map(|l| Distinct::of(l)).collect();
    let mut count: std::collections::HashMap<CardId, usize> = std::collections::HashMap::new();
    for set in &sets {
        for &c in &set.out {
            *count.entry(c).or_insert(0) += 1;
        }
    }
    let mut out = Distinct::default();
    for l in &lists {
        for &c in l {
            if count.get(&c) == Some(&1) {
                out.push(c);
            }
        }
    }
    out.out
}

/// Every group of `n` cards with the same score (combinations, in order).
pub fn tuples(list: &[CardId], scores: &[i64], n: usize) -> Result<Vec<Vec<CardId>>, String> {
    let mut out = Vec::new();
    if n == 0 || n > list.len() {
        return Ok(out);
    }
    let mut idx: Vec<usize> = (0..n).collect();
    loop {
        let s = scores[idx[0]];
        if idx.iter().all(|&i| scores[i] == s) {
            out.push(idx.iter().map(|&i| list[i]).collect());
            if out.len() > MAX_GROUPS {
                return Err("`tuples` made too many groups".into());
            }
        }
        // Next combination.
        let mut k = n;
        loop {
            if k == 0 {
                return Ok(out);
            }
            k -= 1;
            if idx[k] < list.len() - n + k {
                idx[k] += 1;
                for j in k + 1..n {
                    idx[j] = idx[j - 1] + 1;
                }
                break;
            }
        }
    }
}

/// Every subset, the empty one included (as CardStock), smallest masks first.
pub fn subsets(list: &[CardId]) -> Result<Vec<Vec<CardId>>, String> {
    if list.len() > MAX_SUBSET_SOURCE {
        return Err(format!(
            "`subsets` of {} cards is too many (at most {MAX_SUBSET_SOURCE})",
            list.len()
        ));
    }
    let mut out = Vec::new();
    for mask in 0u32..(1u32 << list.len()) {
        out.push(
            list.iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, c)| *c)
                .collect(),
        );
    }
    Ok(out)
}

/// Runs: sets of cards with consecutive scores, one card per score, at least
/// `min` long. `largest`: only maximal runs; otherwise every run of length
/// `min` or more. Cards of equal score make several runs (one per choice).
pub fn runs(
    list: &[CardId],
    scores: &[i64],
    min: usize,
    largest: bool,
) -> Result<Vec<Vec<CardId>>, String> {
    let mut distinct: Vec<i64> = scores.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    // Maximal stretches of consecutive scores.
    let mut stretches: Vec<(i64, i64)> = Vec::new();
    for &s in &distinct {
        match stretches.last_mut() {
            Some((_, hi)) if *hi + 1 == s => *hi = s,
            _ => stretches.push((s, s)),
        }
    }
    let mut out = Vec::new();
    for (lo, hi) in stretches {
        let len = (hi - lo + 1) as usize;
        if len < min {
            continue;
        }
        let windows: Vec<(i64, i64)> = if largest {
            vec![(lo, hi)]
        } else {
            let mut w = Vec::new();
            for size in min..=len {
                for start in lo..=hi - size as i64 + 1 {
                    w.push((start, start + size as i64 - 1));
                }
            }
            w
        };
        for (a, b) in windows {
            // One card per score, every combination.
            let mut combos: Vec<Vec<CardId>> = vec![Vec::new()];
            for s in a..=b {
                let cards: Vec<CardId> = list
                    .iter()
                    .zip(scores)
                    .filter(|(_, sc)| **sc == s)
                    .map(|(c, _)| *c)
                    .collect();
                let mut next = Vec::new();
                for combo in &combos {
                    for c in &cards {
                        let mut v = combo.clone();
                        v.push(*c);
                        next.push(v);
                    }
                }
                combos = next;
                if combos.len() > MAX_GROUPS {
                    return Err("`runs` made too many groups".into());
                }
            }
            out.extend(combos);
        }
    }
    Ok(out)
}

/// The longest stretch of at least `min` cards at the top (or bottom) of
/// `list` whose scores are distinct and consecutive in some order; empty if
/// there is none.
pub fn run_from(list: &[CardId], scores: &[i64], top: bool, min: usize) -> Vec<CardId> {
    let n = list.len();
    for k in (min.max(1)..=n).rev() {
        let range = if top { n - k..n } else { 0..k };
        let mut s: Vec<i64> = scores[range.clone()].to_vec();
        s.sort_unstable();
        if s.windows(2).all(|w| w[1] == w[0] + 1) {
            return list[range].to_vec();
        }
    }
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distinct_keeps_the_first_of_each_card_in_order_past_a_few() {
        // 1000 cards, each three times: past FEW a hash set answers, and
        // the order of first appearance is kept.
        let list: Vec<CardId> = (0..3000).map(|i| (i * 7919) % 1000).collect();
        let d = Distinct::of(&list);
        assert!(d.seen.is_some());
        let mut first = Vec::new();
        for &c in &list {
            if !first.contains(&c) {
                first.push(c);
            }
        }
        assert_eq!(d.out, first);
        assert!(d.contains(999) && !d.contains(1000));
        let a: Vec<CardId> = (0..100).collect();
        let b: Vec<CardId> = (50..150).collect();
        assert_eq!(
            intersect(vec![a.clone(), b.clone()]),
            (50..100).collect::<Vec<_>>()
        );
        let mut sym: Vec<CardId> = (0..50).collect();
        sym.extend(100..150);
        assert_eq!(disjunction(vec![a, b]), sym);
    }

    #[test]
    fn runs_and_tuples() {
        // cards 0..5 with scores 3,4,4,5,9
        let list = [0, 1, 2, 3, 4];
        let scores = [3, 4, 4, 5, 9];
        let r = runs(&list, &scores, 3, true).unwrap();
        assert_eq!(r, vec![vec![0, 1, 3], vec![0, 2, 3]]);
        let t = tuples(&list, &scores, 2).unwrap();
        assert_eq!(t, vec![vec![1, 2]]);
        assert_eq!(
            run_from(&list[..4], &scores[..4], true, 3),
            Vec::<u32>::new()
        );
        assert_eq!(run_from(&[7, 8, 9], &[5, 3, 4], true, 3), vec![7, 8, 9]);
        assert_eq!(
            subsets(&[1, 2]).unwrap(),
            vec![vec![], vec![1], vec![2], vec![1, 2]]
        );
        assert_eq!(intersect(vec![vec![1, 2, 3], vec![3, 1]]), vec![1, 3]);
        assert_eq!(disjunction(vec![vec![1, 2], vec![2, 3]]), vec![1, 3]);
    }
}
