//! Unit tests of the lowering pass.

#[test]
fn tmp_corpus() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let mut fails = 0;
    for folder in ["recycle", "seed"] {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let path = entry.unwrap().path();
            let src = std::fs::read_to_string(&path).unwrap();
            if let Err(e) = super::compile(&src) {
                fails += 1;
                let name = path.file_name().unwrap().to_string_lossy().into_owned();
                println!("{}", crate::diagnostic::render(&name, &src, &e));
            }
        }
    }
    assert_eq!(fails, 0);
}
