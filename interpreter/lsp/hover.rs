//! Hover on a language keyword: the section of docs/language.md whose
//! heading names it (`### 4.7 `move``), up to the next heading, clipped.

use lsp_types::{Hover, HoverContents, MarkupContent, MarkupKind};

const LANGUAGE: &str = include_str!("../../docs/language.md");

/// The most text a hover shows.
const MAX_HOVER: usize = 1500;

/// The word at byte `offset` of `source` and its byte range.
pub fn word_at(source: &str, offset: usize) -> Option<(usize, usize)> {
    let is_word = |c: char| !(c.is_whitespace() || "()[];,'\"".contains(c));
    let offset = offset.min(source.len());
    if !source.is_char_boundary(offset) {
        return None;
    }
    let start = source[..offset]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word(c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = source[offset..]
        .char_indices()
        .find(|&(_, c)| !is_word(c))
        .map_or(source.len(), |(i, _)| offset + i);
    (start < end).then_some((start, end))
}

/// The documentation section of keyword `word`, if a heading names it.
pub fn keyword_doc(word: &str) -> Option<String> {
    let quoted = format!("`{word}`");
    let quoted_open = format!("`{word} ");
    let mut lines = LANGUAGE.lines();
    let heading = lines
        .by_ref()
        .find(|l| l.starts_with("###") && (l.contains(&quoted) || l.contains(&quoted_open)))?;
    let mut text = format!("**{}**\n", heading.trim_start_matches('#').trim());
    for line in lines.skip_while(|l| l.trim().is_empty()) {
        if line.starts_with('#') || text.len() > MAX_HOVER {
            break;
        }
        text.push('\n');
        text.push_str(line);
    }
    if text.len() > MAX_HOVER {
        let mut cut = MAX_HOVER;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("\n…");
    }
    Some(text)
}

/// The hover at byte `offset` of `source`: a name's definition and
/// uses, else a keyword's section of the language reference.
pub fn hover(source: &str, offset: usize) -> Option<Hover> {
    let index = super::symbols::Index::of(source);
    let (start, end, doc) = match index.at(offset) {
        Some(o) => (
            o.at.start as usize,
            o.at.end as usize,
            name_doc(source, &index, o),
        ),
        None => {
            let (start, end) = word_at(source, offset)?;
            (start, end, keyword_doc(&source[start..end])?)
        }
    };
    Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: doc,
        }),
        range: Some(super::position::range(source, start, end)),
    })
}

/// What a hover says of a name: what it is, the form that gives it (or
/// the first place it is written), and how often it is written.
fn name_doc(source: &str, index: &super::symbols::Index, o: &super::symbols::Occurrence) -> String {
    let uses = index.references(&o.key).count();
    let mut doc = format!("{} `{}`", o.key.describe(), o.key.name());
    if let Some(def) = index.definition(&o.key) {
        let line = def.at.line_col(source).0;
        match def.form {
            Some(form) => {
                let mut text = source[form.start as usize..form.end as usize].to_string();
                if text.len() > MAX_HOVER {
                    let mut cut = MAX_HOVER;
                    while !text.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    text.truncate(cut);
                    text.push_str(" …");
                }
                doc.push_str(&format!(", given at line {line}:\n\n```\n{text}\n```"));
            }
            None => doc.push_str(&format!(
                ", first written at line {line}{}",
                if def.in_setup { " (in the setup)" } else { "" }
            )),
        }
    }
    doc.push_str(&format!(
        "\n\nwritten {uses} time{} in this file",
        if uses == 1 { "" } else { "s" }
    ));
    doc
}

/// Words that begin a form but that no heading of docs/language.md names
/// (they are described inside its sections).
const UNHEADED: [&str; 23] = [
    "and",
    "or",
    "not",
    "size",
    "sum",
    "random",
    "current",
    "owner",
    "other",
    "range",
    "abs",
    "sign",
    "rem",
    "clamp",
    "tri",
    "fib",
    "score",
    "last",
    "tuples",
    "partition",
    "subsets",
    "runs",
    "put",
];

/// The keywords the headings of docs/language.md's sections on the
/// language (2 to 11) name (the first word in each of their backquotes),
/// and the few forms described without a heading of their own, sorted,
/// without repeats.
pub fn keywords() -> Vec<String> {
    let mut section = 0;
    let mut out: Vec<String> = LANGUAGE
        .lines()
        .filter(|l| {
            if let Some(rest) = l.strip_prefix("## ") {
                section = rest
                    .split('.')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
            }
            l.starts_with("###") && (2..=11).contains(&section)
        })
        .flat_map(|l| l.split('`').skip(1).step_by(2))
        .filter_map(|q| q.trim_start_matches('(').split_whitespace().next())
        .filter(|w| {
            w.starts_with(|c: char| c.is_ascii_lowercase())
                && w.chars().all(|c| c.is_ascii_lowercase() || c == '-')
        })
        .chain(UNHEADED)
        .map(str::to_string)
        .collect();
    out.sort();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keywords_have_their_section() {
        assert!(keyword_doc("shuffle").unwrap().contains("shuffle"));
        assert!(keyword_doc("no-such-form").is_none());
        assert_eq!(word_at("(move x)", 2), Some((1, 5)));
        let k = keywords();
        assert!(k.contains(&"move".to_string()) && k.contains(&"rotate".to_string()));
        assert!(!k
            .iter()
            .any(|w| w == "--set" || w == "check" || w == "cardboard"));
    }
}
