//! `cardboard check`: compiles rules files and reports every error in each.
//! A good file prints nothing.

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

/// Checks every file, writes the errors to `errors` and returns the exit
/// code: 0 when all are good, [`EXIT_BAD_FILE`] when some have errors,
/// [`EXIT_UNREADABLE`] when some cannot be read.
pub fn check_files(paths: &[PathBuf], errors: &mut dyn Write) -> i32 {
    let mut code = 0;
    let mut bad = 0usize;
    for path in paths {
        let (message, file_code) = match check_file(path) {
            FileCheck::Good => continue,
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
