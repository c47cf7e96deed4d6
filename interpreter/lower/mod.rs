//! Lowering: syntax tree -> compiled [`Program`] (stub).
use crate::diagnostic::Diagnostic;
use crate::ir::Program;

/// Reads, checks and compiles a rules file, reporting every error found.
pub fn compile(_source: &str) -> Result<Program, Vec<Diagnostic>> {
    todo!()
}
