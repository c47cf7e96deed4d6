//! One row per game (`simulate --games-out FILE.csv` or `.jsonl`): its
//! index, seed, how it ended, decisions, winners, scores, and what stopped
//! it. The CSV has a header row and reads as is with pandas' `read_csv`;
//! winners and scores hold one number per seat separated by spaces.

use crate::drivers::GameEnd;
use std::fmt::Write;

/// The format of the rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RowFormat {
    /// Comma-separated values with a header.
    Csv,
    /// One JSON object a line.
    Jsonl,
}

impl RowFormat {
    /// The format a file name asks for: `.csv` or `.jsonl` (`.json` too).
    pub fn of_path(path: &std::path::Path) -> Result<RowFormat, String> {
        match path.extension().and_then(|e| e.to_str()) {
            Some(e) if e.eq_ignore_ascii_case("csv") => Ok(RowFormat::Csv),
            Some(e) if e.eq_ignore_ascii_case("jsonl") || e.eq_ignore_ascii_case("json") => {
                Ok(RowFormat::Jsonl)
            }
            _ => Err(format!(
                "--games-out {}: name a .csv or a .jsonl file",
                path.display()
            )),
        }
    }

    /// What comes before the first row.
    pub fn header(self) -> &'static str {
        match self {
            RowFormat::Csv => "game,seed,end,decisions,winners,scores,message\n",
            RowFormat::Jsonl => "",
        }
    }

    /// Appends the row of game `game` (seed `seed`), which ended with `end`
    /// after `decisions` decisions, to `out`.
    pub fn row(self, out: &mut String, game: u64, seed: u64, end: &GameEnd, decisions: u64) {
        let (kind, winners, scores, message): (&str, &[usize], &[i64], &str) = match end {
            GameEnd::Finished(o) => ("finished", &o.winners, &o.scores, ""),
            GameEnd::Stopped(why) => ("stopped", &[], &[], why),
            GameEnd::AtLimit => ("at_limit", &[], &[], ""),
            GameEnd::Error(why) => ("error", &[], &[], why),
        };
        let joined = |items: Vec<String>| items.join(" ");
        match self {
            RowFormat::Csv => {
                let _ = writeln!(
                    out,
                    "{game},{seed},{kind},{decisions},{},{},{}",
                    joined(winners.iter().map(|w| w.to_string()).collect()),
                    joined(scores.iter().map(|s| s.to_string()).collect()),
                    csv_field(message)
                );
            }
            RowFormat::Jsonl => {
                let value = serde_json::json!({
                    "game": game,
                    "seed": seed,
                    "end": kind,
                    "decisions": decisions,
                    "winners": winners,
                    "scores": scores,
                    "message": message,
                });
                let _ = writeln!(out, "{value}");
            }
        }
    }
}

/// `text` as one CSV field: quoted (quotes doubled) when it holds a comma,
/// a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    #[test]
    fn rows_quote_what_needs_quoting() {
        let mut out = String::new();
        let won = GameEnd::Finished(Outcome {
            scores: vec![3, -1, 3],
            winners: vec![0, 2],
        });
        RowFormat::Csv.row(&mut out, 4, 99, &won, 17);
        let failed = GameEnd::Error("rules error: \"x\", line 3".to_string());
        RowFormat::Csv.row(&mut out, 5, 7, &failed, 2);
        assert_eq!(
            out,
            "4,99,finished,17,0 2,3 -1 3,\n5,7,error,2,,,\"rules error: \"\"x\"\", line 3\"\n"
        );
        let mut line = String::new();
        RowFormat::Jsonl.row(&mut line, 4, 99, &won, 17);
        let v: serde_json::Value = serde_json::from_str(&line).unwrap();
        assert_eq!(v["winners"], serde_json::json!([0, 2]));
        assert_eq!(v["end"], "finished");
    }
}
