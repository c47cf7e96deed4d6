//! Snapshots of the messages given for small broken rules files: each file
//! of `tests/errors/` holds one family of mistakes (its first line says
//! which); the snapshot is the rendered report, as an author would see it.

use cardboard::diagnostic::render;
use cardboard::lower::compile;

#[test]
fn broken_files_are_reported_clearly() {
    insta::glob!("errors/*.rcy", |path| {
        let source = std::fs::read_to_string(path).expect("readable test file");
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let report = match compile(&source) {
            Ok(_) => String::from("(no error: this file should be broken)"),
            Err(errors) => render(&name, &source, &errors),
        };
        insta::assert_snapshot!(report);
    });
}
