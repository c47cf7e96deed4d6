//! `cardboard check`: compiles rules files and reports every error in each,
//! and the warnings of a file that compiles (what most likely holds a
//! typo, `lower::warnings`). A good file without warnings prints nothing.

use crate::diagnostic::render_warnings;
use crate::loading::{compile_file, read_source, CheckError, LoadError};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Exit code when a file has errors.
pub const EXIT_BAD_FILE: i32 = 1;
/// Exit code when a file cannot be read (wins over [`EXIT_BAD_FILE`]).
pub const EXIT_UNREADABLE: i32 = 2;

/// The verdict on one file.
#[derive(Debug)]
pub enum FileCheck {
    /// It compiles.
    Good,
    /// It has errors.
    Bad(CheckError),
    /// It cannot be read: the message names it.
    Unreadable(String),
}

/// Reads and compiles one file.
pub fn check_file(path: &Path) -> FileCheck {
    let source = match read_source(path) {
        Ok(source) => source,
        Err(LoadError::Io(message)) => return FileCheck::Unreadable(message),
        Err(LoadError::Check(e)) => return FileCheck::Bad(e),
    };
    match compile_file(&path.display().to_string(), &source) {
        Ok(_) => FileCheck::Good,
        Err(e) => FileCheck::Bad(e),
    }
}

/// The warnings of a rules file that compiles (a location only ever read,
/// a `cardatt` of an attribute no deck defines: `lower::warnings`),
/// rendered, and how many; `None` when it has none (or cannot be read).
pub fn warnings_of(path: &Path) -> Option<(String, usize)> {
    let source = read_source(path).ok()?;
    let warnings = crate::lower::warnings(&source);
    if warnings.is_empty() {
        return None;
    }
    let name = path.display().to_string();
    Some((render_warnings(&name, &source, &warnings), warnings.len()))
}

/// Checks every file, writes the errors and warnings to `errors` and
/// returns the exit code: 0 when all are good (warnings or not, unless
/// `deny_warnings`), [`EXIT_BAD_FILE`] when some have errors (or
/// warnings, with `deny_warnings`), [`EXIT_UNREADABLE`] when some cannot
/// be read.
pub fn check_files(paths: &[PathBuf], deny_warnings: bool, errors: &mut dyn Write) -> i32 {
    let mut code = 0;
    let mut bad = 0usize;
    for path in paths {
        let (message, file_code) = match check_file(path) {
            FileCheck::Good => match warnings_of(path) {
                None => continue,
                Some((text, _)) if !deny_warnings => {
                    let _ = errors.write_all(text.as_bytes());
                    continue;
                }
                Some((text, _)) => (text, EXIT_BAD_FILE),
            },
            FileCheck::Bad(e) => (e.render(), EXIT_BAD_FILE),
            FileCheck::Unreadable(m) => (format!("error: {m}\n"), EXIT_UNREADABLE),
        };
        bad += 1;
        code = code.max(file_code);
        let _ = errors.write_all(message.as_bytes());
    }
    if paths.len() > 1 && bad > 0 {
        let _ = writeln!(errors, "{bad} of {} files have errors", paths.len());
    }
    code
}
