//! Lowering of the display section, `(display ...)`: how the game looks
//! to people (docs/language.md, "Display"). Each item names something the
//! rules already have (a location, a storage, a card attribute and its
//! value, a named choice), so a typo is an error at its place, as
//! anywhere else in the file. Nothing here reaches play: the section is
//! kept in [`crate::ir::Program::display`] for the observation and the
//! move labels only.

use super::context::Lowerer;
use crate::ir::Display;
use crate::observation::{Appearance, CardFaceView};
use crate::syntax::SExpr;

/// The shapes of a piece.
pub const PIECES: [&str; 6] = ["disc", "square", "ring", "cross", "star", "triangle"];

/// The named palette (and `seat0`..`seat7`, a seat's own colour).
pub const COLORS: [&str; 10] = [
    "black", "white", "red", "blue", "green", "yellow", "orange", "purple", "brown", "grey",
];

/// The placeholders a phrase may use (`crate::label`).
pub const PLACEHOLDERS: [&str; 6] = ["card", "from", "to", "at", "value", "player"];

/// The longest name, label or phrase, in characters.
const MAX_TEXT: usize = 60;

const SHAPE: &str = "the display section is written `(display ITEM...)`, each item one of `(players NAME...)`, `(place LOCATION NAME)`, `(storage STORAGE VALUE LOOK...)`, `(attribute KEY VALUE LOOK...)`, `(card (corner KEY) (center KEY))`, `(phrase CHOICE \"TEXT\")`";

impl Lowerer {
    /// `(display ITEM...)`.
    pub(super) fn display(&mut self, e: &SExpr) -> Display {
        let mut out = Display::default();
        let items = e.as_list().unwrap_or(&[]);
        for item in items.get(1..).unwrap_or(&[]) {
            let parts = item.as_list().unwrap_or(&[]);
            match (item.head(), parts.get(1..).unwrap_or(&[])) {
                (Some("players"), names) if !names.is_empty() => {
                    out.view.players = names.iter().filter_map(|n| self.shown_text(n)).collect();
                }
                (Some("place"), [loc, name]) => {
                    let known = loc.as_name().is_some_and(|l| self.is_location(l));
                    if !known {
                        self.error(
                            loc.span(),
                            format!("{} is not a location of the rules", loc.describe()),
                        );
                    }
                    if let (true, Some(l), Some(n)) = (known, loc.as_name(), self.shown_text(name))
                    {
                        out.view.places.insert(l.to_string(), n);
                    }
                }
                (Some("storage"), [name, value, looks @ ..]) => {
                    let look = self.appearance(looks, item);
                    if let Some(value) = self.storage_value(name, value) {
                        let key = name.as_name().unwrap_or_default().to_string();
                        out.view
                            .storages
                            .entry(key)
                            .or_default()
                            .insert(value, look);
                    }
                }
                (Some("attribute"), [key, value, looks @ ..]) => {
                    let look = self.appearance(looks, item);
                    if let Some(value) = self.attribute_value(key, value) {
                        let key = key.as_name().unwrap_or_default().to_string();
                        out.view
                            .attributes
                            .entry(key)
                            .or_default()
                            .insert(value, look);
                    }
                }
                (Some("card"), faces) if !faces.is_empty() => {
                    out.view.card = Some(self.card_face(faces, item));
                }
                (Some("phrase"), [choice, text]) => {
                    if let Some(phrase) = self.phrase(choice, text) {
                        out.phrases.push(phrase);
                    }
                }
                _ => self.error(item.span(), SHAPE),
            }
        }
        out
    }

    /// A name shown to people: a text in quotes, a name or a number.
    fn shown_text(&mut self, e: &SExpr) -> Option<String> {
        let text = match e {
            SExpr::Text(t, _) => t.clone(),
            SExpr::Name(n, _) => n.clone(),
            SExpr::Int(i, _) => i.to_string(),
            _ => {
                self.error(
                    e.span(),
                    format!(
                        "expected a name to show, such as `\"Black\"`, found {}",
                        e.describe()
                    ),
                );
                return None;
            }
        };
        let bad = text.chars().count() > MAX_TEXT || text.chars().any(char::is_control);
        if bad {
            self.error(
                e.span(),
                format!("a name to show is one line of at most {MAX_TEXT} characters"),
            );
            return None;
        }
        Some(text)
    }

    fn is_location(&self, name: &str) -> bool {
        (self.loc_names.items.iter())
            .any(|l| self.symbols.get(l.name as usize).is_some_and(|s| s == name))
    }

    fn names_sym(&self, table: &[crate::ir::Sym], name: &str) -> bool {
        (table.iter()).any(|&s| self.symbols.get(s as usize).is_some_and(|t| t == name))
    }

    /// A storage's value as the observation writes it: an integer of a
    /// `sto`, a name of a `str`.
    fn storage_value(&mut self, name: &SExpr, value: &SExpr) -> Option<String> {
        let Some(n) = name.as_name() else {
            self.error(
                name.span(),
                format!("expected a storage's name, found {}", name.describe()),
            );
            return None;
        };
        let int = self.names_sym(&self.int_names.items, n);
        let text = self.names_sym(&self.str_names.items, n);
        match value {
            SExpr::Int(v, _) if int => Some(v.to_string()),
            SExpr::Name(v, _) if text => Some(v.clone()),
            _ if !int && !text => {
                self.error(
                    name.span(),
                    format!("`{n}` is not a storage of the rules (`sto` or `str`)"),
                );
                None
            }
            _ => {
                let want = if int { "an integer" } else { "a name" };
                self.error(
                    value.span(),
                    format!("`{n}` holds {want}, found {}", value.describe()),
                );
                None
            }
        }
    }

    /// A card attribute's value: the key must be a deck's, and the value
    /// one the decks give it.
    fn attribute_value(&mut self, key: &SExpr, value: &SExpr) -> Option<String> {
        let Some(id) = key.as_name().and_then(|k| self.attr_key(k)) else {
            self.error(
                key.span(),
                format!("{} is not a card attribute of the decks", key.describe()),
            );
            return None;
        };
        let Some(v) = value.as_name() else {
            self.error(
                value.span(),
                format!(
                    "expected a value of the attribute, found {}",
                    value.describe()
                ),
            );
            return None;
        };
        let values = self.attr_values_of(id);
        if !self.names_sym(&values, v) {
            let k = key.as_name().unwrap_or_default();
            self.error(value.span(), format!("no deck gives `{k}` the value `{v}`"));
            return None;
        }
        Some(v.to_string())
    }

    /// `(piece WORD)`, `(color WORD)`, `(symbol "TEXT")`, `(label TEXT)`.
    fn appearance(&mut self, looks: &[SExpr], item: &SExpr) -> Appearance {
        let mut a = Appearance::default();
        if looks.is_empty() {
            self.error(
                item.span(),
                "say how it looks: `(piece disc)`, `(color red)`, `(symbol \"♥\")` or `(label \"A\")`",
            );
        }
        for look in looks {
            match (look.head(), look.as_list().unwrap_or(&[])) {
                (Some("piece"), [_, w]) => {
                    a.piece = self.word_of(w, &PIECES, "piece");
                }
                (Some("color"), [_, w]) => {
                    let seat = w.as_name().is_some_and(|n| {
                        n.strip_prefix("seat")
                            .is_some_and(|d| d.len() == 1 && d.as_bytes()[0].is_ascii_digit() && d < "8")
                    });
                    a.color = match seat {
                        true => w.as_name().map(str::to_string),
                        false => self.word_of(w, &COLORS, "colour"),
                    };
                }
                (Some("symbol"), [_, t]) => {
                    let s = self.shown_text(t);
                    if s.as_ref().is_some_and(|s| s.chars().count() > 4) {
                        self.error(t.span(), "a symbol is one or two signs, such as `\"♥\"`");
                    }
                    a.symbol = s;
                }
                (Some("label"), [_, t]) => a.label = self.shown_text(t),
                _ => self.error(
                    look.span(),
                    format!(
                        "expected `(piece WORD)`, `(color WORD)`, `(symbol \"TEXT\")` or `(label TEXT)`, found {}",
                        look.describe()
                    ),
                ),
            }
        }
        a
    }

    /// One of `words`, or an error naming them.
    fn word_of(&mut self, w: &SExpr, words: &[&str], what: &str) -> Option<String> {
        match w.as_name() {
            Some(n) if words.contains(&n) => Some(n.to_string()),
            _ => {
                let extra = if what == "colour" {
                    ", or `seat0`..`seat7`"
                } else {
                    ""
                };
                self.error(
                    w.span(),
                    format!(
                        "{} is not a {what}: one of {}{extra}",
                        w.describe(),
                        words.join(", ")
                    ),
                );
                None
            }
        }
    }

    /// `(card (corner KEY) (center KEY))`.
    fn card_face(&mut self, faces: &[SExpr], item: &SExpr) -> CardFaceView {
        let mut face = CardFaceView::default();
        for f in faces {
            let key = match f.as_list() {
                Some([_, SExpr::Name(k, span)]) => {
                    if self.attr_key(k).is_none() {
                        self.error(*span, format!("`{k}` is not a card attribute of the decks"));
                        continue;
                    }
                    k.clone()
                }
                _ => {
                    self.error(f.span(), "expected `(corner KEY)` or `(center KEY)`");
                    continue;
                }
            };
            match f.head() {
                Some("corner") => face.corner = Some(key),
                Some("center") => face.center = Some(key),
                _ => self.error(f.span(), "expected `(corner KEY)` or `(center KEY)`"),
            }
        }
        let _ = item;
        face
    }

    /// `(phrase CHOICE "TEXT")`: a named choice and a phrase whose
    /// placeholders are known.
    fn phrase(&mut self, choice: &SExpr, text: &SExpr) -> Option<(String, String)> {
        let name = choice.as_name().unwrap_or_default();
        if !self.choices.iter().any(|c| c.name == name) {
            self.error(
                choice.span(),
                format!(
                    "{} is not the name of a choice: name one, as in `(choice PLAY (...))`",
                    choice.describe()
                ),
            );
            return None;
        }
        let SExpr::Text(t, span) = text else {
            self.error(
                text.span(),
                format!(
                    "a phrase is a text in quotes, such as `\"play {{card}}\"`, found {}",
                    text.describe()
                ),
            );
            return None;
        };
        let mut rest = t.as_str();
        while let Some(open) = rest.find('{') {
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                self.error(*span, "a `{` of this phrase is never closed by `}`");
                return None;
            };
            let key = &after[..close];
            if !PLACEHOLDERS.contains(&key) {
                self.error(
                    *span,
                    format!(
                        "`{{{key}}}` is not a placeholder of a phrase: one of {}",
                        PLACEHOLDERS.map(|p| format!("{{{p}}}")).join(", ")
                    ),
                );
                return None;
            }
            rest = &after[close + 1..];
        }
        if t.chars().count() > MAX_TEXT * 2 || t.chars().any(char::is_control) {
            self.error(*span, "a phrase is one line of at most 120 characters");
            return None;
        }
        Some((name.to_string(), t.clone()))
    }
}

impl Lowerer {
    /// `(announce PART...)`: each part a text in quotes, an integer, a
    /// string, a player, a team or a card.
    pub(super) fn announce(&mut self, e: &SExpr, items: &[SExpr]) -> crate::ir::Action {
        use crate::ir::{AnnouncePart as P, ValueType as T};
        let parts = items.get(1..).unwrap_or(&[]);
        if parts.is_empty() {
            self.error(
                e.span(),
                "`announce` is written `(announce PART...)`, as in `(announce (current player) \"wins the trick\")`",
            );
        }
        let mut out = Vec::with_capacity(parts.len());
        for p in parts {
            let part = match p {
                SExpr::Text(t, _) => P::Text(t.clone()),
                _ => match self.kind_of(p) {
                    Some(T::Int) => P::Int(self.int(p)),
                    Some(T::Str) => P::Str(self.string(p)),
                    Some(T::Player) => P::Player(self.player(p)),
                    Some(T::Team) => P::Team(self.team(p)),
                    Some(T::Card) => P::Card(self.card(p)),
                    _ => {
                        self.error(
                            p.span(),
                            format!(
                                "`announce` tells texts in quotes, integers, strings, players, teams and cards; {} is none of them",
                                p.describe()
                            ),
                        );
                        continue;
                    }
                },
            };
            out.push(part);
        }
        crate::ir::Action::Announce(out)
    }
}
