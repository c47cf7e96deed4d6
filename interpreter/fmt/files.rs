//! The `cardboard fmt` command over files: rewrite them in place, check
//! them (`--check`), or print them (`--stdout`, or `-` for standard input).
//! A folder stands for the `.rcy` files under it. A file that does not
//! parse is told with file, line and column, and left as it is.

use super::format_source;
use crate::diagnostic::render;
use crate::drivers::check::{EXIT_BAD_FILE, EXIT_UNREADABLE};
use crate::loading::{read_text, MAX_RULES_BYTES};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// What `cardboard fmt` does with each formatted file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Rewrite the files that are not formatted.
    Write,
    /// Change nothing: list the files that are not formatted.
    Check,
    /// Print the formatted text.
    Stdout,
}

/// The files named: a folder stands for the `.rcy` files under it, in
/// name order; `-` is standard input.
pub fn expand(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            rcy_files(path, &mut found);
            found.sort();
            out.extend(found);
        } else {
            out.push(path.clone());
        }
    }
    out
}

fn rcy_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rcy_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rcy") {
            found.push(path);
        }
    }
}

/// Formats every file (folders expanded, `-` for standard input) and
/// returns the exit code: 0 when all went well (with --check: all are
/// formatted), [`EXIT_BAD_FILE`] when some do not parse (or, with
/// --check, are not formatted), [`EXIT_UNREADABLE`] when some cannot be
/// read or written. Formatted text and the list of files not formatted
/// go to `out`, errors to `errors`.
pub fn fmt_files(
    paths: &[PathBuf],
    mode: Mode,
    width: usize,
    out: &mut dyn Write,
    errors: &mut dyn Write,
) -> i32 {
    let files = expand(paths);
    let mut code = 0;
    let mut differ = 0usize;
    for path in &files {
        let stdin = path.as_os_str() == "-";
        let name = if stdin {
            "<stdin>".to_string()
        } else {
            path.display().to_string()
        };
        let source = if stdin {
            let mut text = String::new();
            match std::io::stdin()
                .take(MAX_RULES_BYTES + 1)
                .read_to_string(&mut text)
            {
                Ok(n) if n as u64 > MAX_RULES_BYTES => Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    format!("larger than {MAX_RULES_BYTES} bytes, the most a rules file may have"),
                )),
                Ok(_) => Ok(text),
                Err(e) => Err(e),
            }
        } else {
            read_text(path, MAX_RULES_BYTES, "a rules file")
        };
        let source = match source {
            Ok(s) => s,
            Err(e) => {
                let _ = writeln!(errors, "error: cannot read {name}: {e}");
                code = code.max(EXIT_UNREADABLE);
                continue;
            }
        };
        let text = match format_source(&source, width) {
            Ok(text) => text,
            Err(d) => {
                let _ = errors.write_all(render(&name, &source, &[d]).as_bytes());
                code = code.max(EXIT_BAD_FILE);
                continue;
            }
        };
        match mode {
            Mode::Stdout => {
                let _ = out.write_all(text.as_bytes());
            }
            _ if stdin => {
                let _ = out.write_all(text.as_bytes());
            }
            Mode::Check => {
                if text != source {
                    let _ = writeln!(out, "{name}");
                    differ += 1;
                    code = code.max(EXIT_BAD_FILE);
                }
            }
            Mode::Write => {
                if text != source {
                    if let Err(e) = std::fs::write(path, &text) {
                        let _ = writeln!(errors, "error: cannot write {name}: {e}");
                        code = code.max(EXIT_UNREADABLE);
                    }
                }
            }
        }
    }
    if differ > 0 {
        let _ = writeln!(
            errors,
            "{differ} of {} file{} not formatted: `cardboard fmt FILE` formats them",
            files.len(),
            if files.len() == 1 { " is" } else { "s are" }
        );
    }
    code
}
