//! The path of a move: the item picked at each `any` of its option, kept
//! inline for short paths (moves are copied and compared often).

/// The items picked at the `any`s of a move: a short list of indices, kept
/// inline (no allocation) up to [`Path::INLINE`] picks.
#[derive(Eq, Default)]
pub struct Path {
    len: u32,
    inline: [u32; Path::INLINE],
    /// All picks, when there are more than fit inline.
    heap: Vec<u32>,
}

impl Path {
    /// Picks held without allocating.
    pub const INLINE: usize = 6;

    /// A path from its picks.
    pub fn from_slice(picks: &[u32]) -> Path {
        if picks.len() <= Path::INLINE {
            Path {
                len: picks.len() as u32,
                // Element by element: no call to copy a pick or two.
                inline: std::array::from_fn(|i| picks.get(i).copied().unwrap_or(0)),
                heap: Vec::new(),
            }
        } else {
            Path {
                len: picks.len() as u32,
                inline: [0; Path::INLINE],
                heap: picks.to_vec(),
            }
        }
    }

    /// Adds a pick at the end (allocating only past [`Path::INLINE`]).
    pub fn push(&mut self, pick: u32) {
        let n = self.len as usize;
        if n < Path::INLINE {
            self.inline[n] = pick;
        } else {
            if n == Path::INLINE {
                // Spilled: every pick on the heap, the inline room zeroed
                // (as `from_slice` leaves it, so equal paths compare equal).
                self.heap = self.inline.to_vec();
                self.inline = [0; Path::INLINE];
            }
            self.heap.push(pick);
        }
        self.len += 1;
    }

    /// The picks.
    pub fn as_slice(&self) -> &[u32] {
        if self.len as usize <= Path::INLINE {
            &self.inline[..self.len as usize]
        } else {
            &self.heap
        }
    }
}

impl PartialEq for Path {
    /// The same picks. Element by element: a call to `memcmp` for a pick or
    /// two stalls on the stores that just wrote them (a drawn move is
    /// compared right after it was copied).
    #[inline]
    fn eq(&self, o: &Path) -> bool {
        let (a, b) = (self.as_slice(), o.as_slice());
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
    }
}

impl std::hash::Hash for Path {
    /// The picks, as equality compares them.
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.as_slice().hash(h);
    }
}

impl Clone for Path {
    /// A copy; only a path too long to be held inline allocates.
    #[inline]
    fn clone(&self) -> Path {
        Path {
            len: self.len,
            inline: self.inline,
            heap: if self.heap.is_empty() {
                Vec::new()
            } else {
                self.heap.clone()
            },
        }
    }
}

impl std::ops::Deref for Path {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        self.as_slice()
    }
}

impl From<Vec<u32>> for Path {
    fn from(v: Vec<u32>) -> Path {
        Path::from_slice(&v)
    }
}

impl std::fmt::Debug for Path {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.as_slice().fmt(f)
    }
}
