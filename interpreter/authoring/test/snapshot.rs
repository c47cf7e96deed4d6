//! Snapshots on disk and their differences.
//!
//! The snapshots of `NAME.tests` lie in the folder `NAME.snap/` beside it,
//! one plain text file per case that records something, `SLUG.snap`: a
//! comment line naming the case, then the sections the case recorded. A
//! difference is shown as a line diff (`-` the snapshot, `+` now) with
//! three lines of context, each hunk headed by the lines it covers.

use std::path::{Path, PathBuf};

/// The snapshot folder of the tests file at `tests`: `NAME.snap` beside
/// `NAME.tests`.
pub fn snap_dir(tests: &Path) -> PathBuf {
    tests.with_extension("snap")
}

/// The whole text of a case's snapshot file.
pub fn snap_text(case_name: &str, tests_file: &str, body: &str) -> String {
    format!("# case `{case_name}` of {tests_file} (written by `cardboard test --accept`)\n\n{body}")
}

/// Reads a snapshot, line breaks made `\n`; `None` when there is none.
pub fn read_snap(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(text.replace("\r\n", "\n"))
}

/// One line of a diff.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// In both: (line in old, line in new).
    Same(usize, usize),
    /// Only in the old text (the snapshot).
    Old(usize),
    /// Only in the new text (now).
    New(usize),
}

/// The edits from `old` to `new`, line by line (a longest common
/// subsequence of the lines between the common start and end; a middle
/// too large for that is shown as all removed, then all added).
pub fn diff(old: &[&str], new: &[&str]) -> Vec<Edit> {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let mut edits: Vec<Edit> = (0..head).map(|i| Edit::Same(i, i)).collect();
    if a.len().saturating_mul(b.len()) > 4_000_000 {
        edits.extend((0..a.len()).map(|i| Edit::Old(head + i)));
        edits.extend((0..b.len()).map(|j| Edit::New(head + j)));
    } else {
        // lcs[i][j]: the common lines of a[i..] and b[j..].
        let w = b.len() + 1;
        let mut lcs = vec![0u32; (a.len() + 1) * w];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                lcs[i * w + j] = if a[i] == b[j] {
                    lcs[(i + 1) * w + j + 1] + 1
                } else {
                    lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                edits.push(Edit::Same(head + i, head + j));
                i += 1;
                j += 1;
            } else if i < a.len() && (j == b.len() || lcs[(i + 1) * w + j] >= lcs[i * w + j + 1]) {
                edits.push(Edit::Old(head + i));
                i += 1;
            } else {
                edits.push(Edit::New(head + j));
                j += 1;
            }
        }
    }
    let (oe, ne) = (old.len() - tail, new.len() - tail);
    edits.extend((0..tail).map(|k| Edit::Same(oe + k, ne + k)));
    edits
}

/// The first line of `new` (from 0) that a change touches: the line
/// added, or the line after the one removed.
pub fn first_change(edits: &[Edit]) -> Option<usize> {
    let mut next_new = 0;
    for e in edits {
        match *e {
            Edit::Same(_, j) => next_new = j + 1,
            Edit::New(j) => return Some(j),
            Edit::Old(_) => return Some(next_new),
        }
    }
    None
}

/// The diff of `old` and `new` as text: hunks with three lines of
/// context, at most `max_lines` lines (the rest counted).
pub fn render_diff(old: &str, new: &str, max_lines: usize) -> String {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let edits = diff(&old, &new);
    let changed: Vec<usize> = edits
        .iter()
        .enumerate()
        .filter(|(_, e)| !matches!(e, Edit::Same(..)))
        .map(|(k, _)| k)
        .collect();
    let mut shown = vec![false; edits.len()];
    for &k in &changed {
        let from = k.saturating_sub(3);
        let to = (k + 4).min(edits.len());
        shown[from..to].iter_mut().for_each(|s| *s = true);
    }
    let mut out = Vec::new();
    let mut k = 0;
    while k < edits.len() {
        if !shown[k] {
            k += 1;
            continue;
        }
        let start = k;
        while k < edits.len() && shown[k] {
            k += 1;
        }
        let (o, n) = hunk_start(&edits[start..k]);
        out.push(format!("@@ snapshot line {o}, now line {n} @@"));
        for e in &edits[start..k] {
            out.push(match *e {
                Edit::Same(i, _) => format!("  {}", old[i]),
                Edit::Old(i) => format!("- {}", old[i]),
                Edit::New(j) => format!("+ {}", new[j]),
            });
        }
    }
    let total = out.len();
    if total > max_lines {
        out.truncate(max_lines);
        out.push(format!(
            "... and {} more lines of the diff",
            total - max_lines
        ));
    }
    let mut text = out.join("\n");
    text.push('\n');
    text
}

/// The first old and new line numbers (from 1) a hunk covers.
fn hunk_start(edits: &[Edit]) -> (usize, usize) {
    let old = edits.iter().find_map(|e| match *e {
        Edit::Same(i, _) | Edit::Old(i) => Some(i + 1),
        Edit::New(_) => None,
    });
    let new = edits.iter().find_map(|e| match *e {
        Edit::Same(_, j) | Edit::New(j) => Some(j + 1),
        Edit::Old(_) => None,
    });
    (old.unwrap_or(0), new.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_is_one_removal_and_one_addition() {
        let old = ["a", "b", "c", "d"];
        let new = ["a", "x", "c", "d", "e"];
        let edits = diff(&old, &new);
        assert_eq!(
            edits,
            [
                Edit::Same(0, 0),
                Edit::Old(1),
                Edit::New(1),
                Edit::Same(2, 2),
                Edit::Same(3, 3),
                Edit::New(4)
            ]
        );
        assert_eq!(first_change(&edits), Some(1));
        let text = render_diff("a\nb\nc\n", "a\nx\nc\n", 100);
        assert_eq!(
            text,
            "@@ snapshot line 1, now line 1 @@\n  a\n- b\n+ x\n  c\n"
        );
    }
}
