//! How the terminal names things: a board's coordinates (`C4`), a card's
//! short face, a place's and a player's name, and the glyph of a piece,
//! each from the rules file's display section
//! ([`DisplayView`](crate::observation::DisplayView)) when it says, from
//! defaults otherwise (docs/protocol.md, "The terminal").

use crate::observation::{Appearance, CardView, DisplayView, Observation};

/// The glyphs of small integers on a board's spaces without a display
/// section: value 1 is `●`, 2 `○`, then one distinct glyph per value up
/// to 8 (seat colours in the page).
pub const DEFAULT_GLYPHS: [char; 8] = ['●', '○', '▲', '■', '◆', '★', '▼', '✚'];

/// A column's letters: `A` for column 0, `Z` for 25, then `AA`, `AB`...
pub fn column_letters(col: u32) -> String {
    let mut n = col as u64 + 1;
    let mut out = Vec::new();
    while n > 0 {
        n -= 1;
        out.push(b'A' + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// A space's coordinates as a person reads them: its column's letters
/// and its row counted from 1 (`GRID[0,2]` is `C1`).
pub fn coordinates(row: u32, col: u32) -> String {
    format!("{}{}", column_letters(col), row as u64 + 1)
}

/// The name shown for location `name`: the display section's, else the
/// rules' own.
pub fn place_name<'a>(seen: &'a Observation, name: &'a str) -> &'a str {
    (seen.display.as_ref())
        .and_then(|d| d.places.get(name))
        .map_or(name, String::as_str)
}

/// The name of seat `seat` for people: `p0`, with the display section's
/// name after it when it gives one (`p0 Black`).
pub fn player_name(seen: &Observation, seat: usize) -> String {
    match (seen.display.as_ref()).and_then(|d| d.players.get(seat)) {
        Some(name) if !name.is_empty() => format!("p{seat} {name}"),
        _ => format!("p{seat}"),
    }
}

/// The appearance the display section gives storage `name` holding
/// `value`, if any.
pub fn storage_look<'a>(seen: &'a Observation, name: &str, value: &str) -> Option<&'a Appearance> {
    (seen.display.as_ref())
        .and_then(|d| d.storages.get(name))
        .and_then(|values| values.get(value))
}

/// The text of an appearance at a terminal: its symbol, else its label,
/// else a glyph of its piece (hollow for a light colour).
pub fn appearance_text(look: &Appearance) -> Option<String> {
    if let Some(s) = look.symbol.as_ref().filter(|s| !s.is_empty()) {
        return Some(s.clone());
    }
    if let Some(l) = look.label.as_ref().filter(|l| !l.is_empty()) {
        return Some(l.clone());
    }
    let light = matches!(look.color.as_deref(), Some("white" | "yellow" | "seat1"));
    let glyph = match (look.piece.as_deref()?, light) {
        ("disc", false) => '●',
        ("disc", true) => '○',
        ("square", false) => '■',
        ("square", true) => '□',
        ("ring", _) => '◎',
        ("cross", _) => '✚',
        ("star", false) => '★',
        ("star", true) => '☆',
        ("triangle", false) => '▲',
        ("triangle", true) => '△',
        _ => return None,
    };
    Some(glyph.to_string())
}

/// A card's face in short: with a display section that gives its
/// attributes a symbol or label, those (the corner's first: `A♥`); else
/// its name.
pub fn card_text(card: &CardView, display: Option<&DisplayView>) -> String {
    let Some(display) = display.filter(|d| !d.attributes.is_empty()) else {
        return card.name.clone();
    };
    let shown = |key: &str| -> Option<String> {
        let value = card.attrs.get(key)?;
        let look = display.attributes.get(key).and_then(|v| v.get(value));
        Some(
            look.and_then(|l| l.label.clone().or_else(|| l.symbol.clone()))
                .unwrap_or_else(|| value.clone()),
        )
    };
    let face = display.card.as_ref();
    let keys: Vec<&str> = match face.map(|f| (f.corner.as_deref(), f.center.as_deref())) {
        Some((Some(corner), Some(center))) => vec![corner, center],
        Some((Some(one), None)) | Some((None, Some(one))) => vec![one],
        _ => {
            // In the order of the card's name (its attributes' order).
            let mut keys: Vec<&str> = Vec::new();
            for part in card.name.split('-') {
                if let Some((k, _)) = card
                    .attrs
                    .iter()
                    .find(|(k, v)| *v == part && !keys.contains(&k.as_str()))
                {
                    keys.push(k);
                }
            }
            keys
        }
    };
    let parts: Vec<String> = keys.iter().filter_map(|k| shown(k)).collect();
    let any_look = keys.iter().any(|k| {
        card.attrs.get(*k).is_some_and(|v| {
            display
                .attributes
                .get(*k)
                .is_some_and(|m| m.contains_key(v))
        })
    });
    if parts.is_empty() || !any_look {
        return card.name.clone();
    }
    parts.concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_letters_and_rows_count_from_one() {
        assert_eq!(coordinates(0, 2), "C1");
        assert_eq!(coordinates(7, 0), "A8");
        assert_eq!(column_letters(25), "Z");
        assert_eq!(column_letters(26), "AA");
        assert_eq!(column_letters(27), "AB");
    }

    #[test]
    fn a_card_is_drawn_from_its_attributes_looks() {
        let card = CardView {
            name: "ACE-HEARTS".into(),
            attrs: [("RANK", "ACE"), ("SUIT", "HEARTS")]
                .into_iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        };
        assert_eq!(card_text(&card, None), "ACE-HEARTS");
        let display: DisplayView = serde_json::from_str(
            r#"{"attributes": {"SUIT": {"HEARTS": {"symbol": "♥", "color": "red"}},
                               "RANK": {"ACE": {"label": "A"}}}}"#,
        )
        .unwrap();
        assert_eq!(card_text(&card, Some(&display)), "A♥");
    }
}
