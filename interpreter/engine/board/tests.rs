//! Unit tests of the board geometry: sets and their lines, floods, names;
//! hex boards and the searches over given directions against a plain
//! reading of their neighbours.

use super::geom::*;
use super::spaceset::{Bits, SpaceSet};

fn grid(rows: u32, cols: u32, wrap_cols: bool) -> BoardGeom {
    BoardGeom::new(
        10,
        (rows, cols, Kind::Grid),
        (false, wrap_cols),
        "G".into(),
        &[],
    )
}

/// The spaces, rows and columns of sets of every size (small ones are
/// read a member at a time, large ones a row at a time) on boards of
/// several shapes, against the coordinates of each member.
#[test]
fn spaces_and_lines_list_a_set_and_its_lines() {
    for (rows, cols) in [(9, 9), (5, 13), (11, 3), (1, 40), (16, 8), (20, 20)] {
        let g = grid(rows, cols, false);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        for density in [1, 3, 8, 30, 64] {
            let mut bits = Bits::empty(g.len());
            for i in 0..g.len() {
                // A fixed pseudo-random set of about density/64 of the spaces.
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                if state % 64 < density {
                    bits.insert(i);
                }
            }
            let mut out = Vec::new();
            let lines = g.spaces_and_lines(bits, &mut out);
            let members: Vec<u32> = (0..g.len()).filter(|&i| bits.contains(i)).collect();
            let expected: Vec<SpaceId> = members.iter().map(|&i| g.first + i).collect();
            assert_eq!(out, expected, "{rows} x {cols}, density {density}");
            let (mut r, mut c) = (0u64, 0u64);
            for &i in &members {
                r |= 1 << (i / cols);
                c |= 1 << (i % cols);
            }
            assert_eq!(lines, Some((r, c)), "{rows} x {cols}, density {density}");
        }
    }
}

#[test]
fn steps_stop_at_edges_and_wrap_where_asked() {
    let g = grid(3, 4, false);
    let corner = g.at(0, 3).unwrap();
    assert_eq!(g.step(corner, Dir::E), Ok(None));
    assert_eq!(g.step(corner, Dir::N), Ok(None));
    assert_eq!(g.step(corner, Dir::S), Ok(g.at(1, 3)));
    let w = grid(3, 4, true);
    assert_eq!(w.step(corner, Dir::E), Ok(w.at(0, 0)));
    assert_eq!(w.step(corner, Dir::N), Ok(None));
    assert!(g.step(corner, Dir::Next).is_err());
    assert_eq!(g.coords(g.at(2, 1).unwrap()), (2, 1));
}

#[test]
fn rotate_turns_quarter_turns_clockwise_modulo_four() {
    assert_eq!(Dir::N.rotate(1), Ok(Dir::E));
    assert_eq!(Dir::W.rotate(1), Ok(Dir::N));
    assert_eq!(Dir::N.rotate(2), Ok(Dir::S));
    assert_eq!(Dir::E.rotate(-1), Ok(Dir::N));
    assert_eq!(Dir::N.rotate(-5), Ok(Dir::W));
    assert_eq!(Dir::S.rotate(4), Ok(Dir::S));
    assert_eq!(Dir::S.rotate(0), Ok(Dir::S));
    assert_eq!(Dir::NE.rotate(1), Ok(Dir::SE));
    assert_eq!(Dir::NW.rotate(1), Ok(Dir::NE));
    assert_eq!(Dir::SW.rotate(-1), Ok(Dir::SE));
    assert_eq!(Dir::NE.rotate(2), Ok(Dir::SW));
    assert_eq!(Dir::E.rotate(i64::MIN), Ok(Dir::E));
    for d in &Dir::ALL[..8] {
        let d = *d;
        assert_eq!(d.rotate(2), Ok(d.opposite()));
        assert_eq!(Dir::parse(d.name()), Some(d));
    }
    assert_eq!(Dir::Next.rotate(2), Ok(Dir::Prev));
    assert_eq!(Dir::Prev.rotate(-2), Ok(Dir::Next));
    assert_eq!(Dir::Next.rotate(4), Ok(Dir::Next));
    assert_eq!(Dir::Prev.rotate(0), Ok(Dir::Prev));
    let err = Dir::Next.rotate(1).unwrap_err();
    assert!(
        err.contains("cannot turn `NEXT` by 1 quarter turn:"),
        "{err}"
    );
    assert!(Dir::Prev
        .rotate(-3)
        .unwrap_err()
        .contains("by -3 quarter turns"));
}

#[test]
fn flood_follows_the_condition() {
    let g = grid(3, 3, false);
    let boards = Boards {
        boards: vec![g.clone()],
    };
    // Keep the middle column only.
    let col1 = |s: SpaceId| Ok(g.coords(s).1 == 1);
    let got = g.flood(g.at(0, 1).unwrap(), None, col1).unwrap();
    assert_eq!(
        got,
        vec![
            g.at(0, 1).unwrap(),
            g.at(1, 1).unwrap(),
            g.at(2, 1).unwrap()
        ]
    );
    assert!(g.flood(g.at(0, 0).unwrap(), None, col1).unwrap().is_empty());
    assert_eq!(boards.name(g.at(2, 1).unwrap()), "G[2,1]");
}

/// The engine's directions are the lowering's, in the same order (a
/// `group`'s written directions are a mask over them).
#[test]
fn directions_are_in_the_order_of_the_ir() {
    let names: Vec<&str> = Dir::ALL.iter().map(|d| d.name()).collect();
    assert_eq!(names, crate::ir::DIRECTIONS);
}

/// The spaces connected to `start` through `keep` over the directions
/// `mask`, by plain steps.
fn plain_group(b: &BoardGeom, start: SpaceId, mask: DirMask, keep: &[bool]) -> Vec<SpaceId> {
    let local = |s: SpaceId| (s - b.first) as usize;
    if !keep[local(start)] {
        return Vec::new();
    }
    let (mut seen, mut todo) = (vec![start], vec![start]);
    while let Some(s) = todo.pop() {
        for d in Dir::ALL
            .into_iter()
            .filter(|d| mask & 1 << *d as usize != 0)
        {
            if let Ok(Some(n)) = b.step(s, d) {
                if keep[local(n)] && !seen.contains(&n) {
                    seen.push(n);
                    todo.push(n);
                }
            }
        }
    }
    seen.sort_unstable();
    seen
}

/// On tracks, grids and hex boards, wrapped or not, of at most 128 spaces
/// and more: for every set of the board's directions, the group found
/// with bit sets (each set's search worked out when the board is built)
/// and the floods one space at a time give the group of plain steps.
#[test]
fn searches_over_any_directions_agree_with_plain_steps() {
    let shapes = [
        (1, 9, Kind::Track, (false, false)),
        (5, 6, Kind::Grid, (false, false)),
        (4, 5, Kind::Grid, (true, true)),
        (12, 11, Kind::Grid, (false, false)),
        (5, 6, Kind::Hex, (false, false)),
        (11, 11, Kind::Hex, (false, false)),
        (4, 5, Kind::Hex, (false, true)),
        (12, 12, Kind::Hex, (true, false)),
    ];
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for (rows, cols, kind, wraps) in shapes {
        let probe = BoardGeom::new(7, (rows, cols, kind), wraps, "B".into(), &[]);
        let all = probe.dir_mask();
        let masks: Vec<DirMask> = (0..=all).filter(|m| m & !all == 0).collect();
        let b = BoardGeom::new(7, (rows, cols, kind), wraps, "B".into(), &masks);
        for &mask in &masks {
            let spread = b.spread_of(mask).expect("the board's directions");
            assert_eq!(spread.is_none(), mask == b.own_dirs());
            for _ in 0..3 {
                let keep: Vec<bool> = (0..b.len()).map(|_| next() % 3 != 0).collect();
                let start = b.first + (next() % u64::from(b.len())) as u32;
                let want = plain_group(&b, start, mask, &keep);
                let holds = |s: SpaceId| keep[(s - b.first) as usize];
                let mut out = Vec::new();
                b.flood_where_into(start, spread, &mut out, holds);
                out.sort_unstable();
                assert_eq!(out, want, "{kind:?} {rows}x{cols} mask {mask:#b}");
                let mut flooded = b.flood(start, spread, |s| Ok(holds(s))).unwrap();
                flooded.sort_unstable();
                assert_eq!(flooded, want);
                let mut mask_bits = Bits::empty(b.len());
                (0..b.len())
                    .filter(|&i| keep[i as usize])
                    .for_each(|i| mask_bits.insert(i));
                let reach = b.reach(spread).expect("worked out when built");
                let (bits, _) =
                    Bits::spread(reach, start - b.first, mask_bits, Bits::empty(b.len()));
                let mut members = Vec::new();
                bits.each(|i| members.push(b.first + i));
                assert_eq!(
                    members, want,
                    "{kind:?} {rows}x{cols} mask {mask:#b}, bit sets"
                );
            }
        }
        // A set of directions the board lacks is an error.
        if kind != Kind::Grid {
            let n = 1 << Dir::N as usize;
            assert!(b.spread_of(n).is_err(), "{kind:?}");
        }
    }
}

#[test]
fn a_hex_board_steps_in_its_six_directions_only() {
    let b = BoardGeom::new(0, (3, 4, Kind::Hex), (false, false), "H".into(), &[]);
    let at = |r, c| b.at(r, c).unwrap();
    let from = at(1, 1);
    for (d, want) in [
        (Dir::E, Some(at(1, 2))),
        (Dir::W, Some(at(1, 0))),
        (Dir::NE, Some(at(0, 2))),
        (Dir::NW, Some(at(0, 1))),
        (Dir::SE, Some(at(2, 1))),
        (Dir::SW, Some(at(2, 0))),
    ] {
        assert_eq!(b.step(from, d), Ok(want), "{d:?}");
    }
    assert_eq!(b.step(at(0, 3), Dir::NE), Ok(None));
    for d in [Dir::N, Dir::S, Dir::Next] {
        let e = b.step(from, d).unwrap_err();
        assert!(e.contains("`H` is a hex board"), "{e}");
    }
    let mut near: Vec<_> = b.neighbours(from).collect();
    near.sort_unstable();
    assert_eq!(
        near,
        [at(0, 1), at(0, 2), at(1, 0), at(1, 2), at(2, 0), at(2, 1)]
    );
    assert_eq!(
        b.around_dirs(),
        [Dir::NE, Dir::E, Dir::SE, Dir::SW, Dir::W, Dir::NW]
    );
    assert_eq!(
        Boards {
            boards: vec![b.clone()]
        }
        .name(at(2, 3)),
        "H[2,3]"
    );
}
