//! The geometry layer: boards, their spaces, how spaces reach one
//! another, and the sets of spaces and spatial queries built on them.
//!
//! - [`geom`]: each board's shape (track, grid or hex) and sizes, its spaces numbered over all
//!   boards, the steps between them (worked out once when a game starts),
//!   wrapping, and the flood fill that can stop early;
//! - [`layout`]: boards that are no rectangle (hexagons, graphs): their
//!   spaces in order with their coordinates, a graph's points and links;
//! - [`flood`]: the floods that test one space at a time;
//! - [`dir`]: directions of travel, their opposites and quarter turns;
//! - [`bits`]: sets of one board's spaces as bit sets (`u128` on a board
//!   of at most 128 spaces), one code for both through `SpaceSet`;
//! - [`spaceset`]: the index of what lies on the spaces, so that a
//!   condition on one space is answered for a whole board as a set, and
//!   the flood of such sets;
//! - [`regions`]: the groups that compiled `let`s bound, kept as bit sets
//!   so that their rows, columns and members are read without a walk;
//! - [`spatial`]: the machine's spatial queries (`space`, `neighbour`,
//!   `after`/`before`, `group`) over this layer.
//!
//! The rest of the engine names the modules it uses as
//! `engine::spaceset`, `engine::regions` and `engine::spatial` (imported
//! there) and the geometry's types as `engine::board::BoardGeom`.

pub mod bits;
pub mod dir;
mod flood;
mod geom;
pub mod layout;
pub mod regions;
pub mod spaceset;
pub mod spatial;
#[cfg(test)]
mod tests;

pub(in crate::engine) use flood::flood_with;
pub use geom::{BoardGeom, Boards, Dir, Kind, SpaceId};
