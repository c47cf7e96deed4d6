//! Reading a tests file (`NAME.tests`, docs/authoring.md): one directive
//! a line, `#` starting a comment line, cases opened by `case NAME`.
//!
//! ```text
//! rules cartagena.rcy          # optional: NAME.rcy beside the file
//!
//! case the blog's worked example
//! position worked.pos          # or: seed 5 / set NUMP=3 / an inline position
//! moves                        # recorded in the snapshot
//! play move GREEN TRACK[9] TOKENS -> TRACK[5] TOKENS; game DRAWS = 1
//! expect turn 1                # checked here, no snapshot
//! ```
//!
//! Every mistake of the file is collected, each with its line, before any
//! case runs.

use std::path::PathBuf;

/// A tests file, read.
#[derive(Clone, Debug, Default)]
pub struct TestsFile {
    /// The rules file named by `rules` (relative to the tests file's
    /// folder), if any.
    pub rules: Option<PathBuf>,
    /// The cases, in the file's order.
    pub cases: Vec<Case>,
}

/// One case: how its game starts and the steps played and checked.
#[derive(Clone, Debug, Default)]
pub struct Case {
    /// The name after `case`.
    pub name: String,
    /// The name as a file name: the snapshot is `SLUG.snap`.
    pub slug: String,
    /// The line of `case`.
    pub line: usize,
    /// `seed N` (0 when not given).
    pub seed: u64,
    /// `set NAME=VALUE` lines, in order.
    pub set: Vec<(String, String)>,
    /// `position FILE` or an inline position.
    pub position: Option<Position>,
    /// `edit`'s lines: changes to the starting position, each replacing
    /// the line about the same location or storage (or removing it, when
    /// it ends with `:` and nothing after).
    pub edits: Vec<String>,
    /// The steps after the start.
    pub steps: Vec<Step>,
}

/// Where a case's position comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Position {
    /// A position file, relative to the tests file's folder.
    File(PathBuf),
    /// The indented lines after `position`, their indentation removed.
    Inline(String),
}

/// A step of a case and its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The line of the tests file.
    pub line: usize,
    /// What it does.
    pub kind: StepKind,
}

/// What a step does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// `play MOVE`: a move by its id in `moves` or its text.
    Play(String),
    /// Something written to the snapshot.
    Record(Record),
    /// Something checked at once.
    Expect(Expect),
}

/// What a case records in its snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    /// `moves`: the legal moves, id and text, as the player to move reads them.
    Moves,
    /// `observation SEAT`: what that seat sees.
    Observation(usize),
    /// `table`: the whole table, hidden cards included.
    Table,
    /// `outcome`: the status, and the scores and winners once finished.
    Outcome,
    /// `transcript [MAX]`: the game played on by random players, as
    /// `cardboard run` prints it, at most MAX decisions.
    Transcript(u64),
    /// `perft DEPTH`: the move counts to that depth, as `cardboard perft`.
    Perft(usize),
}

/// What a case checks without a snapshot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    /// `expect legal MOVE`.
    Legal(String),
    /// `expect illegal MOVE`.
    Illegal(String),
    /// `expect winner SEAT...` or `expect winner none`: the game is over
    /// and these seats, no more, share first place.
    Winners(Vec<usize>),
    /// `expect score SEAT N`.
    Score(usize, i64),
    /// `expect turn SEAT` or `expect turn none`.
    Turn(Option<usize>),
    /// `expect position LINE`: the position (docs/positions.md) has this line.
    PositionLine(String),
    /// `expect error WORDS`: the start or the last play met a rules error
    /// whose message holds WORDS.
    Error(String),
}

/// A mistake in a tests file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

const DIRECTIVES: &str =
    "rules, case, seed, set, position, edit, play, moves, observation, table, \
                          outcome, transcript, perft, expect";

/// Reads a tests file's text; every mistake is returned, each with its line.
pub fn parse(text: &str) -> Result<TestsFile, Vec<ParseError>> {
    let mut file = TestsFile::default();
    let mut errors = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = i + 1;
        let raw = lines[i];
        i += 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (word, rest) = match trimmed.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (trimmed, ""),
        };
        let mut fail = |message: String| errors.push(ParseError { line, message });
        if word == "case" {
            if rest.is_empty() {
                fail("`case` needs a name: `case NAME`".to_string());
                continue;
            }
            let slug = slug(rest);
            if let Some(other) = file.cases.iter().find(|c| c.slug == slug) {
                fail(format!(
                    "a case whose snapshot is `{slug}.snap` is already named on line {}",
                    other.line
                ));
            }
            file.cases.push(Case {
                name: rest.to_string(),
                slug,
                line,
                ..Case::default()
            });
            continue;
        }
        if word == "rules" {
            if !file.cases.is_empty() {
                fail("`rules FILE` comes before the first case".to_string());
            } else if rest.is_empty() {
                fail("`rules` needs a file: `rules FILE.rcy`".to_string());
            } else {
                file.rules = Some(PathBuf::from(rest));
            }
            continue;
        }
        let Some(case) = file.cases.last_mut() else {
            fail(format!(
                "`{word}` outside a case: start one with `case NAME`"
            ));
            continue;
        };
        let setup_done = !case.steps.is_empty();
        match word {
            "seed" | "set" | "position" | "edit" if setup_done => fail(format!(
                "`{word}` after a step: a case's seed, settings and position come first"
            )),
            "seed" => match rest.parse::<u64>() {
                Ok(n) => case.seed = n,
                Err(_) => fail(format!("`seed` needs a number, not `{rest}`")),
            },
            "set" => match crate::drivers::parse_set(rest) {
                Ok(_) if case.position.is_some() => {
                    fail("`set` with `position`: the position carries its settings".into())
                }
                Ok(pair) => case.set.push(pair),
                Err(e) => fail(e),
            },
            "position" | "edit" => {
                if word == "position" && !case.set.is_empty() {
                    fail("`position` with `set`: the position carries its settings".into());
                }
                if word == "position" && !rest.is_empty() {
                    case.position = Some(Position::File(PathBuf::from(rest)));
                    continue;
                }
                if !rest.is_empty() {
                    fail("`edit` takes its lines indented below it".into());
                    continue;
                }
                let mut block = Vec::new();
                while i < lines.len() {
                    let next = lines[i];
                    if !next.trim().is_empty() && !next.starts_with([' ', '\t']) {
                        break;
                    }
                    block.push(next);
                    i += 1;
                }
                while block.last().is_some_and(|l| l.trim().is_empty()) {
                    block.pop();
                }
                if block.is_empty() {
                    fail(format!(
                        "`{word}` needs {}",
                        if word == "edit" {
                            "the lines to change, indented below it"
                        } else {
                            "a file, or the position's lines indented below it"
                        }
                    ));
                    continue;
                }
                if word == "edit" {
                    let text = dedent(&block);
                    let edits = text.lines().filter(|l| !l.trim().is_empty());
                    case.edits.extend(edits.map(str::to_string));
                } else {
                    case.position = Some(Position::Inline(dedent(&block)));
                }
            }
            _ => match step(word, rest) {
                Ok(kind) => case.steps.push(Step { line, kind }),
                Err(message) => fail(message),
            },
        }
    }
    if errors.is_empty() {
        Ok(file)
    } else {
        Err(errors)
    }
}

/// A step's directive read.
fn step(word: &str, rest: &str) -> Result<StepKind, String> {
    let none = |kind: StepKind| {
        if rest.is_empty() {
            Ok(kind)
        } else {
            Err(format!("`{word}` takes nothing after it, found `{rest}`"))
        }
    };
    match word {
        "play" if rest.is_empty() => Err("`play` needs a move: its id or its text".into()),
        "play" => Ok(StepKind::Play(rest.to_string())),
        "moves" => none(StepKind::Record(Record::Moves)),
        "table" => none(StepKind::Record(Record::Table)),
        "outcome" => none(StepKind::Record(Record::Outcome)),
        "observation" => number(word, rest).map(|n| StepKind::Record(Record::Observation(n))),
        "perft" => number(word, rest).map(|n| StepKind::Record(Record::Perft(n))),
        "transcript" if rest.is_empty() => Ok(StepKind::Record(Record::Transcript(
            crate::drivers::DEFAULT_MAX_DECISIONS,
        ))),
        "transcript" => rest
            .parse::<u64>()
            .map(|n| StepKind::Record(Record::Transcript(n)))
            .map_err(|_| format!("`transcript` takes a number of decisions, not `{rest}`")),
        "expect" => expect(rest).map(StepKind::Expect),
        _ => Err(format!(
            "unknown directive `{word}`: expected one of {DIRECTIVES}"
        )),
    }
}

/// A number after `word` (a seat, a depth).
fn number(word: &str, rest: &str) -> Result<usize, String> {
    rest.parse::<usize>()
        .map_err(|_| format!("`{word}` needs a number, not `{rest}`"))
}

/// An `expect` line's rest read.
fn expect(rest: &str) -> Result<Expect, String> {
    let (what, arg) = match rest.split_once(char::is_whitespace) {
        Some((w, a)) => (w, a.trim()),
        None => (rest, ""),
    };
    let needs = |form: &str| format!("write `expect {form}`");
    match what {
        "legal" | "illegal" | "position" | "error" if arg.is_empty() => Err(format!(
            "`expect {what}` needs {}",
            match what {
                "position" => "a line of the position",
                "error" => "words of the error's message",
                _ => "a move",
            }
        )),
        "legal" => Ok(Expect::Legal(arg.to_string())),
        "illegal" => Ok(Expect::Illegal(arg.to_string())),
        "position" => Ok(Expect::PositionLine(arg.to_string())),
        "error" => Ok(Expect::Error(arg.to_string())),
        "winner" if arg == "none" => Ok(Expect::Winners(Vec::new())),
        "winner" => {
            let seats: Result<Vec<usize>, _> = arg.split_whitespace().map(str::parse).collect();
            match seats {
                Ok(s) if !s.is_empty() => Ok(Expect::Winners(s)),
                _ => Err(needs("winner SEAT... (or `expect winner none`)")),
            }
        }
        "turn" if arg == "none" => Ok(Expect::Turn(None)),
        "turn" => arg
            .parse::<usize>()
            .map(|s| Expect::Turn(Some(s)))
            .map_err(|_| needs("turn SEAT (or `expect turn none`)")),
        "score" => {
            let words: Vec<&str> = arg.split_whitespace().collect();
            match words.as_slice() {
                [seat, score] => match (seat.parse::<usize>(), score.parse::<i64>()) {
                    (Ok(seat), Ok(score)) => Ok(Expect::Score(seat, score)),
                    _ => Err(needs("score SEAT N")),
                },
                _ => Err(needs("score SEAT N")),
            }
        }
        _ => Err(format!(
            "unknown `expect {what}`: expected legal, illegal, winner, score, turn, position or error"
        )),
    }
}

/// A case's name as a file name: letters and digits kept (lower case),
/// every run of anything else one `-`.
pub fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c == '\'' {
            continue;
        }
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    while out.ends_with('-') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("case");
    }
    out
}

/// Lines with their common indentation removed, joined with line breaks.
fn dedent(lines: &[&str]) -> String {
    let indent = lines
        .iter()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out = String::new();
    for l in lines {
        out.push_str(l.get(indent..).unwrap_or("").trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_cases_steps_and_inline_positions() {
        let file = parse(
            "rules x.rcy\n# c\ncase First one!\nseed 4\nset NUMP=3\nmoves\nplay 0\nexpect winner 0 1\n\
             case two\nposition\n  cardboard position 1\n    x\nperft 2\n",
        )
        .expect("reads");
        assert_eq!(file.rules, Some(PathBuf::from("x.rcy")));
        assert_eq!(file.cases[0].slug, "first-one");
        assert_eq!(file.cases[0].seed, 4);
        assert_eq!(file.cases[0].steps.len(), 3);
        assert_eq!(
            file.cases[0].steps[2].kind,
            StepKind::Expect(Expect::Winners(vec![0, 1]))
        );
        assert_eq!(
            file.cases[1].position,
            Some(Position::Inline("cardboard position 1\n  x\n".into()))
        );
        assert_eq!(file.cases[1].steps[0].line, 13);
    }

    #[test]
    fn every_mistake_is_told_with_its_line() {
        let errors =
            parse("moves\ncase a\nplya 0\nseed x\ncase A\nexpect score 1\n").expect_err("mistakes");
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [1, 3, 4, 5, 6]);
        assert!(errors[1].message.contains("unknown directive `plya`"));
    }
}
