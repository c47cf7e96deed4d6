//! The groups that compiled `let`s bound, kept as bit sets for the
//! machine that found them ([`Regions`]): the rows, columns, least and
//! greatest row, column or index and the members of such a variable are
//! read from its bit set instead of walking its list of spaces.

use super::spaceset::Bits;

/// The spaces a compiled `(let (group ...) 'G ...)` bound to `G`, also as
/// a bit set of their board, so that the rows, columns, least row or
/// column and membership of `G` are a few word operations.
///
/// A slot's entry counts only for the machine that wrote it (`gen`, new
/// for every machine). Within one machine a variable slot is written by
/// its one binding form only (every binding has its own slot), and a
/// compiled group `let` writes or clears the entry of its slot every time
/// it binds: so an entry of this machine always describes the spaces the
/// variable holds.
#[derive(Debug, Default)]
pub struct Regions {
    /// This machine's mark.
    gen: u64,
    slots: Vec<Region>,
}

/// One slot's bit set: see [`Regions`].
#[derive(Clone, Copy, Debug)]
struct Region {
    gen: u64,
    group: Group,
}

/// A group found as a bit set: its board's first space, its spaces (bit
/// `i`: space `first + i`), and the rows and the columns it lies in (bit
/// `r`: row `r`), when the board has at most 64 of each.
#[derive(Clone, Copy, Debug)]
pub struct Group {
    pub first: u32,
    pub bits: Bits,
    pub lines: Option<(u64, u64)>,
}

impl Regions {
    /// None recorded (for a thread's first machine).
    pub const fn new() -> Regions {
        Regions {
            gen: 0,
            slots: Vec::new(),
        }
    }

    /// Starts a new machine's records: a mark no earlier machine with
    /// these records used, so that theirs no longer count.
    #[inline]
    pub fn renew(&mut self) {
        self.gen += 1;
    }

    /// Whether the records own memory.
    pub fn has_room(&self) -> bool {
        self.slots.capacity() != 0
    }

    /// Records that slot `var` holds the spaces of `group`, or (`None`)
    /// forgets it.
    #[inline]
    pub fn set(&mut self, var: usize, region: Option<Group>) {
        match region {
            Some(group) => {
                if self.slots.len() <= var {
                    self.slots.resize(var + 1, Region { gen: 0, group });
                }
                self.slots[var] = Region {
                    gen: self.gen,
                    group,
                };
            }
            None => {
                if let Some(r) = self.slots.get_mut(var) {
                    r.gen = 0;
                }
            }
        }
    }

    /// The group slot `var` holds, when this machine recorded it.
    #[inline]
    pub fn get(&self, var: usize) -> Option<&Group> {
        let r = self.slots.get(var)?;
        (r.gen == self.gen).then_some(&r.group)
    }
}
