//! Reading a rules file from disk and compiling it, with errors that carry
//! everything needed to show them (file name, source, every diagnostic).
//!
//! ```no_run
//! use cardboard::loading::load_file;
//! match load_file(std::path::Path::new("games/agram.rcy")) {
//!     Ok(program) => println!("{} stages", program.stages.len()),
//!     Err(e) => eprintln!("{e}"),
//! }
//! ```

use crate::diagnostic::{render, Diagnostic};
use crate::ir::Program;
use std::fmt;
use std::path::Path;

/// A rules file that does not compile: every error found in it.
#[derive(Clone, Debug, PartialEq)]
pub struct CheckError {
    /// The name shown in messages (usually the path as the user wrote it).
    pub file_name: String,
    /// The whole text of the file.
    pub source: String,
    /// Every problem found, in source order as the checker reports them.
    pub diagnostics: Vec<Diagnostic>,
}

impl CheckError {
    /// Every error as text: file, line, column, a caret under the source.
    pub fn render(&self) -> String {
        if self.diagnostics.is_empty() {
            return format!("error: {} was refused without a message\n", self.file_name);
        }
        render(&self.file_name, &self.source, &self.diagnostics)
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for CheckError {}

/// Why a rules file could not be loaded.
#[derive(Clone, Debug, PartialEq)]
pub enum LoadError {
    /// The file could not be read; the text names the file and the reason.
    Io(String),
    /// The file was read but has errors.
    Check(CheckError),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(message) => f.write_str(message),
            LoadError::Check(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LoadError {}

impl From<CheckError> for LoadError {
    fn from(e: CheckError) -> LoadError {
        LoadError::Check(e)
    }
}

/// Compiles the text of a rules file; `file_name` is only used in messages.
pub fn compile_file(file_name: &str, source: &str) -> Result<Program, CheckError> {
    crate::lower::compile(source).map_err(|diagnostics| CheckError {
        file_name: file_name.to_string(),
        source: source.to_string(),
        diagnostics,
    })
}

/// Reads and compiles the rules file at `path`.
pub fn load_file(path: &Path) -> Result<Program, LoadError> {
    let source = read_source(path)?;
    Ok(compile_file(&path.display().to_string(), &source)?)
}

/// Reads a rules file as text, with an error that names it.
pub fn read_source(path: &Path) -> Result<String, LoadError> {
    read_text(path, MAX_RULES_BYTES, "a rules file")
        .map_err(|e| LoadError::Io(format!("cannot read rules file `{}`: {e}", path.display())))
}

/// The most bytes a rules file may have (the largest shipped game or
/// program of the corpus has some 32 KB).
pub const MAX_RULES_BYTES: u64 = 4 << 20;

/// The most bytes a position (`--position`), a record of moves
/// (`--moves`) or a report (`merge`) may have.
pub const MAX_DATA_BYTES: u64 = 64 << 20;

/// Reads the text file at `path`, of at most `limit` bytes (`what` names
/// the kind of file in the error): a larger file is refused before it is
/// read, and a file that grows or never ends (`/dev/zero`) after `limit`
/// bytes, so that nothing is read past the limit.
pub fn read_text(path: &Path, limit: u64, what: &str) -> std::io::Result<String> {
    use std::io::Read;
    let too_large = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("larger than {limit} bytes, the most {what} may have"),
        )
    };
    let file = std::fs::File::open(path)?;
    if file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() > limit)
    {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large());
    }
    String::from_utf8(bytes).map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "not text (UTF-8): the bytes at offset {} are not",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}
