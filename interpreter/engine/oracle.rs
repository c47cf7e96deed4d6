//! Which item each `any` of a choice's option picks: the [`Oracle`] a
//! machine follows while it runs an option (a move's path, or a path it
//! extends while exploring), and the collections of the `any`s kept from
//! one move's replay to the next while the texts of a decision's moves
//! are made ([`Picks`]).

use super::cards::Picker;
use super::Path;

/// Which item each `any` picks while running a choice's option.
#[derive(Clone, Debug, Default)]
pub struct Oracle {
    /// Item index per `any` reached, in order.
    pub path: Path,
    /// Next `any` to answer.
    pub pos: usize,
    /// Collection size seen at each `any` (kept inline, as a path).
    pub sizes: Path,
    /// Exploring: extend `path` with 0 past its end.
    pub probing: bool,
    /// The path did not fit the option (too short, too long or out of range).
    pub invalid: bool,
    /// When the texts of a decision's moves are made: the collection of
    /// each `any` reached so far, kept for the next move whose picks start
    /// alike (see [`Picks`]).
    pub kept: Option<Picks>,
}

/// The collections of the `any`s a move's replay reached, one per `any`
/// in order, kept from one move's replay to the next while the texts of a
/// decision's moves are made: the collection at the k-th `any` of an
/// option depends only on the option and the k items picked before it
/// (the table is the same at the start of every replay), so moves that
/// share those picks share it. Without it, every text evaluated its
/// `any`'s collection again (a `range` of 10^6 numbers made 10^6 times).
#[derive(Clone, Debug, Default)]
pub struct Picks {
    option: Option<u16>,
    path: Path,
    pickers: Vec<Option<Picker>>,
}

impl Picks {
    /// Keeps what the replay of `option` along `path` can reuse: the
    /// collections of the `any`s reached with the same picks before them.
    pub fn prepare(&mut self, option: u16, path: &Path) {
        let same = match self.option {
            Some(o) if o == option => {
                let common = self
                    .path
                    .iter()
                    .zip(path.iter())
                    .take_while(|(a, b)| a == b)
                    .count();
                common + 1
            }
            _ => 0,
        };
        self.pickers.truncate(same);
        self.option = Some(option);
        self.path.clone_from(path);
    }

    /// The collection of the `k`-th `any`, if kept (taken out: give it
    /// back with [`Picks::keep`]).
    pub fn take(&mut self, k: usize) -> Option<Picker> {
        self.pickers.get_mut(k)?.take()
    }

    /// Keeps the collection of the `k`-th `any` (when the ones before it
    /// are kept).
    pub fn keep(&mut self, k: usize, picker: Picker) {
        let n = self.pickers.len();
        if k < n {
            self.pickers[k] = Some(picker);
        } else if k == n {
            self.pickers.push(Some(picker));
        }
    }
}
