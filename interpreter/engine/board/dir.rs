//! Directions of travel on a board: the eight of a grid (six of which are
//! a hex board's) and the two of a track, their steps in rows and
//! columns, opposites and quarter turns.

/// A direction of travel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    N,
    E,
    S,
    W,
    NE,
    NW,
    SE,
    SW,
    /// Along a track: index + 1.
    Next,
    /// Along a track: index - 1.
    Prev,
}

impl Dir {
    /// How many directions there are.
    pub const COUNT: usize = 10;

    /// Every direction, in `Dir as usize` order: the eight of a grid, then
    /// the two of a track.
    pub const ALL: [Dir; Dir::COUNT] = [
        Dir::N,
        Dir::E,
        Dir::S,
        Dir::W,
        Dir::NE,
        Dir::NW,
        Dir::SE,
        Dir::SW,
        Dir::Next,
        Dir::Prev,
    ];

    /// Reads a direction name (`N`, `NE`, `NEXT`, ...).
    pub fn parse(name: &str) -> Option<Dir> {
        Some(match name {
            "N" => Dir::N,
            "E" => Dir::E,
            "S" => Dir::S,
            "W" => Dir::W,
            "NE" => Dir::NE,
            "NW" => Dir::NW,
            "SE" => Dir::SE,
            "SW" => Dir::SW,
            "NEXT" => Dir::Next,
            "PREV" => Dir::Prev,
            _ => return None,
        })
    }

    /// The opposite direction.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::N => Dir::S,
            Dir::S => Dir::N,
            Dir::E => Dir::W,
            Dir::W => Dir::E,
            Dir::NE => Dir::SW,
            Dir::SW => Dir::NE,
            Dir::NW => Dir::SE,
            Dir::SE => Dir::NW,
            Dir::Next => Dir::Prev,
            Dir::Prev => Dir::Next,
        }
    }

    /// The name of the direction, as written in rules (`N`, `NEXT`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Dir::N => "N",
            Dir::E => "E",
            Dir::S => "S",
            Dir::W => "W",
            Dir::NE => "NE",
            Dir::NW => "NW",
            Dir::SE => "SE",
            Dir::SW => "SW",
            Dir::Next => "NEXT",
            Dir::Prev => "PREV",
        }
    }

    /// The direction turned `quarters` quarter turns clockwise (negative:
    /// anticlockwise), taken modulo 4: N→E→S→W→N and NE→SE→SW→NW→NE. A
    /// track's directions only turn by half turns: 2 swaps `NEXT` and
    /// `PREV`, 4 keeps them; an odd number is an error.
    pub fn rotate(self, quarters: i64) -> Result<Dir, String> {
        const ORTHOGONAL: [Dir; 4] = [Dir::N, Dir::E, Dir::S, Dir::W];
        const DIAGONAL: [Dir; 4] = [Dir::NE, Dir::SE, Dir::SW, Dir::NW];
        let q = quarters.rem_euclid(4) as usize;
        let turn = |ring: &[Dir; 4]| {
            let at = ring.iter().position(|d| *d == self).unwrap_or(0);
            ring[(at + q) % 4]
        };
        match self {
            Dir::N | Dir::E | Dir::S | Dir::W => Ok(turn(&ORTHOGONAL)),
            Dir::NE | Dir::SE | Dir::SW | Dir::NW => Ok(turn(&DIAGONAL)),
            Dir::Next | Dir::Prev if q == 0 => Ok(self),
            Dir::Next | Dir::Prev if q == 2 => Ok(self.opposite()),
            Dir::Next | Dir::Prev => Err(format!(
                "`rotate` cannot turn `{}` by {quarters} quarter turn{}: a track's directions turn only by half turns (an even number; 2 swaps `NEXT` and `PREV`)",
                self.name(),
                if quarters == 1 || quarters == -1 { "" } else { "s" }
            )),
        }
    }

    /// A direction relative to a seat (`FORWARD`, `BACKWARD`, `LEFT`,
    /// `RIGHT`, `FORWARD_LEFT`, `FORWARD_RIGHT`, `BACKWARD_LEFT`,
    /// `BACKWARD_RIGHT`), as it is for a seat that faces north.
    pub fn relative(name: &str) -> Option<Dir> {
        Some(match name {
            "FORWARD" => Dir::N,
            "BACKWARD" => Dir::S,
            "LEFT" => Dir::W,
            "RIGHT" => Dir::E,
            "FORWARD_LEFT" => Dir::NW,
            "FORWARD_RIGHT" => Dir::NE,
            "BACKWARD_LEFT" => Dir::SW,
            "BACKWARD_RIGHT" => Dir::SE,
            _ => return None,
        })
    }

    /// The quarter turns clockwise from north of the way seat `seat` of
    /// `players` faces: the seats sit around the board clockwise from the
    /// south edge, `4 seat / players` (two players: north, then south;
    /// four: north, east, south, west).
    pub fn facing(seat: usize, players: usize) -> i64 {
        (4 * seat / players.max(1)) as i64
    }

    /// Row and column change on a hex board, in axial coordinates (row 0
    /// at the top, each row half a hexagon right of the one above): `E`
    /// and `W` along the row, `NW` and `SE` along the column, `NE` and
    /// `SW` across both.
    pub(super) fn hex_delta(self) -> Option<(i64, i64)> {
        Some(match self {
            Dir::E => (0, 1),
            Dir::W => (0, -1),
            Dir::NE => (-1, 1),
            Dir::NW => (-1, 0),
            Dir::SE => (1, 0),
            Dir::SW => (1, -1),
            _ => return None,
        })
    }

    /// Row and column change on a grid (row 0 at the top).
    pub(super) fn delta(self) -> Option<(i64, i64)> {
        Some(match self {
            Dir::N => (-1, 0),
            Dir::S => (1, 0),
            Dir::E => (0, 1),
            Dir::W => (0, -1),
            Dir::NE => (-1, 1),
            Dir::NW => (-1, -1),
            Dir::SE => (1, 1),
            Dir::SW => (1, -1),
            Dir::Next | Dir::Prev => return None,
        })
    }
}
