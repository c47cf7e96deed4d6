//! Chess (`examples/chess.rcy`) against the published perft counts: from
//! the start (20, 400, 8902, 197281) and from three standard test
//! positions (Kiwipete, "position 3" and "position 4" of the chess
//! programming wiki's perft results), each written as a position
//! (docs/positions.md) from its FEN: the start's position with its
//! squares, kings and castling rights replaced.

use cardboard::drivers::perft::perft;
use cardboard::engine::{GameOptions, Rules, State};
use std::path::PathBuf;

fn chess() -> Rules {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/chess.rcy");
    Rules::load(&path).unwrap_or_else(|e| panic!("chess.rcy does not load:\n{e}"))
}

fn start(r: &Rules) -> State {
    r.start(&GameOptions {
        seed: 1,
        overrides: Vec::new(),
    })
    .expect("the game starts")
}

/// The position of a FEN with white to move: square (row, column) with
/// row 0 the eighth rank; colour 1 white, 2 black; kinds 1 pawn ... 6
/// king; R on the squares of the kings and rooks that may still castle.
fn from_fen(r: &Rules, fen: &str) -> State {
    let mut parts = fen.split(' ');
    let (board, side, castling) = (
        parts.next().unwrap(),
        parts.next().unwrap(),
        parts.next().unwrap(),
    );
    assert_eq!(side, "w", "white to move only");
    let base = start(r).to_position();
    let mut lines: Vec<String> = base
        .lines()
        .filter(|l| {
            !l.starts_with("B[") && !l.contains(" sto KI ") && !l.starts_with("game sto EP")
        })
        .map(str::to_string)
        .collect();
    for (row, rank) in board.split('/').enumerate() {
        let mut col = 0;
        for ch in rank.chars() {
            if let Some(n) = ch.to_digit(10) {
                col += n as usize;
                continue;
            }
            let colour = if ch.is_ascii_uppercase() { 1 } else { 2 };
            let kind = "pnbrqk".find(ch.to_ascii_lowercase()).unwrap() + 1;
            lines.push(format!("B[{row},{col}] sto C = {colour}"));
            lines.push(format!("B[{row},{col}] sto K = {kind}"));
            if kind == 6 {
                lines.push(format!("p{} sto KI = {}", colour - 1, row * 8 + col));
            }
            col += 1;
        }
    }
    let mut rights = Vec::new();
    for (flag, squares) in [
        ('K', [(7, 4), (7, 7)]),
        ('Q', [(7, 4), (7, 0)]),
        ('k', [(0, 4), (0, 7)]),
        ('q', [(0, 4), (0, 0)]),
    ] {
        if castling.contains(flag) {
            rights.extend(squares);
        }
    }
    rights.sort();
    rights.dedup();
    for (row, col) in rights {
        lines.push(format!("B[{row},{col}] sto R = 1"));
    }
    let text = lines.join("\n") + "\n";
    r.load_position(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn chess_perft_from_the_start() {
    let r = chess();
    assert_eq!(
        perft(&start(&r), 4).unwrap(),
        vec![1, 20, 400, 8902, 197281]
    );
}

#[test]
fn chess_perft_from_standard_positions() {
    let r = chess();
    // Kiwipete: castling both ways, en passant, promotions, pins.
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
    assert_eq!(
        perft(&from_fen(&r, kiwipete), 2).unwrap(),
        vec![1, 48, 2039]
    );
    // Position 3: an endgame of checks, pins along ranks and en passant.
    let third = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -";
    assert_eq!(
        perft(&from_fen(&r, third), 4).unwrap(),
        vec![1, 14, 191, 2812, 43238]
    );
    // Position 4: promotions (with captures) and castling under attack.
    let fourth = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq -";
    assert_eq!(
        perft(&from_fen(&r, fourth), 3).unwrap(),
        vec![1, 6, 264, 9467]
    );
}
