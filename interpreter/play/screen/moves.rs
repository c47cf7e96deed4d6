//! The legal moves at a terminal ([`draw_moves`]): each by its label (the
//! engine's short words for it, else its text), numbered, laid out in
//! columns when there are many, cut at a word and folded past a number of
//! lines so that the list never pushes the board off the screen; and
//! [`wrap`], which breaks lines between words only, so that the terminal
//! never breaks a word.

use crate::observation::MoveView;
use std::fmt::Write as _;

/// The width the screen is drawn for.
pub const WIDTH: usize = 80;
/// The most lines the list of moves takes.
pub const MOVE_LINES: usize = 16;

/// What a move is called on the screen: its label, else its text.
pub fn move_words(m: &MoveView) -> &str {
    if m.label.is_empty() {
        &m.text
    } else {
        &m.label
    }
}

/// `text` broken between words into lines of at most `width` characters
/// (a word longer than that alone on its line), the first line after
/// `first`, the others after `indent`; every line ends with a newline.
pub fn wrap(text: &str, width: usize, first: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        let len = line.chars().count();
        if !empty && len + 1 + word.chars().count() > width {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_string();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// `text` cut to at most `width` characters between words, `…` marking a
/// cut; a move's text is first cut after its first step (`;`).
fn cut(text: &str, width: usize) -> String {
    let (head, more) = match text.split_once("; ") {
        Some((head, _)) => (head, true),
        None => (text, false),
    };
    let mut out = String::new();
    for word in head.split_whitespace() {
        let next = out.chars().count() + usize::from(!out.is_empty()) + word.chars().count();
        if next + 2 > width && !out.is_empty() {
            return format!("{out} …");
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if more {
        out.push_str(" …");
    }
    out
}

/// The numbered moves in `width` columns: one a line (long ones wrapped
/// between words) when they fit in [`MOVE_LINES`] lines; else each cut
/// to one line and laid out in as many columns as fit, and past
/// [`MOVE_LINES`] lines the rest told by number (`look` lists them all).
pub fn draw_moves(moves: &[MoveView], width: usize) -> String {
    let number = |m: &MoveView| format!("  {:>2}: ", m.id);
    let full: String = (moves.iter())
        .map(|m| wrap(move_words(m), width, &number(m), "      "))
        .collect();
    if full.lines().count() <= MOVE_LINES {
        return full;
    }
    let entries: Vec<String> = (moves.iter())
        .map(|m| {
            let n = format!("{:>2}: ", m.id);
            let room = width.saturating_sub(n.len() + 2).max(8);
            format!("{n}{}", cut(move_words(m), room))
        })
        .collect();
    let widest = entries.iter().map(|e| e.chars().count()).max().unwrap_or(0);
    let columns = ((width - 2 + 3) / (widest + 3)).max(1);
    let rows_needed = entries.len().div_ceil(columns);
    let rows = rows_needed.clamp(1, MOVE_LINES - 1);
    let shown = (rows * columns).min(entries.len());
    let mut out = String::new();
    for r in 0..rows {
        let mut line = String::from("  ");
        for c in 0..columns {
            // Down the columns, in the order of the moves.
            let Some(e) = entries.get(c * rows + r).filter(|_| c * rows + r < shown) else {
                continue;
            };
            let _ = write!(line, "{e:<w$}   ", w = widest);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if shown < entries.len() {
        let first = moves[shown].id;
        let last = moves[entries.len() - 1].id;
        let _ = writeln!(
            out,
            "  ... and {} more, {first} to {last} (`look` lists every move in full)",
            entries.len() - shown
        );
    }
    out
}

/// Every move in full (the `look` command): its number, its label, and
/// its text when that says more.
pub fn draw_moves_in_full(moves: &[MoveView], width: usize) -> String {
    let mut out = String::new();
    for m in moves {
        let number = format!("  {:>2}: ", m.id);
        out.push_str(&wrap(move_words(m), width, &number, "      "));
        if !m.label.is_empty() && m.label != m.text {
            out.push_str(&wrap(&m.text, width, "      = ", "        "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(texts: &[String]) -> Vec<MoveView> {
        (texts.iter().enumerate())
            .map(|(id, t)| MoveView {
                id,
                text: t.clone(),
                ..MoveView::default()
            })
            .collect()
    }

    #[test]
    fn lines_break_between_words_only() {
        let text = "move CLUBS-FIVE p0 HAND -> p0 TRICK; then game LEADSUIT = CLUBS";
        let wrapped = wrap(text, 30, "  1: ", "     ");
        for line in wrapped.lines() {
            assert!(line.chars().count() <= 30, "{line}");
        }
        let words: Vec<&str> = wrapped.split_whitespace().collect();
        assert!(words.contains(&"CLUBS-FIVE"), "{wrapped}");
        assert_eq!(
            words.len(),
            text.split_whitespace().count() + 1,
            "{wrapped}"
        );
    }

    #[test]
    fn a_long_list_takes_a_bounded_number_of_lines() {
        let texts: Vec<String> = (0..51)
            .map(|i| {
                format!(
                    "BOARD[{},{}] DISC = 1; then BOARD[2,2] DISC = 1; then BOARD[3,3] DISC = 1",
                    i / 8,
                    i % 8
                )
            })
            .collect();
        let drawn = draw_moves(&moves(&texts), WIDTH);
        assert!(drawn.lines().count() <= MOVE_LINES, "{drawn}");
        for line in drawn.lines() {
            assert!(line.chars().count() <= WIDTH, "{line}");
        }
        // Every move is there, or told by number.
        assert!(drawn.contains(" 0: BOARD[0,0] DISC = 1 …"), "{drawn}");
        assert!(drawn.contains("50"), "{drawn}");
    }

    #[test]
    fn labels_are_shown_and_short_ones_in_columns() {
        let mut list = moves(
            &(0..30)
                .map(|i| format!("long text {i}"))
                .collect::<Vec<_>>(),
        );
        for m in &mut list {
            m.label = format!(
                "DISC at {}",
                super::super::names::coordinates(0, m.id as u32)
            );
        }
        let drawn = draw_moves(&list, WIDTH);
        assert!(drawn.lines().count() < 30, "{drawn}");
        assert!(drawn.contains("29: DISC at AD1"), "{drawn}");
        assert!(!drawn.contains("long text"), "{drawn}");
        let full = draw_moves_in_full(&list, WIDTH);
        assert!(full.contains("= long text 29"), "{full}");
    }
}
