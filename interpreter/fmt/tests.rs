//! The formatter's layout rules, one small file each.

use super::format_source;

fn fmt(src: &str) -> String {
    fmt_to(src, 40)
}

fn fmt_to(src: &str, width: usize) -> String {
    let once = format_source(src, width).unwrap();
    let twice = format_source(&once, width).unwrap();
    assert_eq!(once, twice, "not idempotent for {src:?}");
    once
}

#[test]
fn a_list_that_fits_stays_on_one_line() {
    assert_eq!(
        fmt("(  game\n (declare  4 'NUMP ))"),
        "(game (declare 4 'NUMP))\n"
    );
    // Adjacent tokens get a space between them; `- 1` stays an operator.
    assert_eq!(
        fmt("(x 1..10 (SUIT:HEARTS) (- 1) -1)"),
        "(x 1 .. 10 (SUIT : HEARTS) (- 1) -1)\n"
    );
    assert_eq!(fmt(""), "");
    assert_eq!(fmt("\n\n"), "");
}

#[test]
fn a_long_list_breaks_one_item_per_line() {
    assert_eq!(
        fmt_to(
            "(create deck (game hloc STOCK) (deck (SUIT (HEARTS, DIAMONDS, CLUBS)) (RANK (ACE))))",
            60
        ),
        "(create deck (game hloc STOCK)\n        \
         (deck (SUIT (HEARTS, DIAMONDS, CLUBS))\n              \
         (RANK (ACE))))\n"
    );
    // A list of atoms alone fills its lines.
    assert_eq!(
        fmt("(RANK (ACE, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT))"),
        "(RANK (ACE, TWO, THREE, FOUR, FIVE, SIX,\n       SEVEN, EIGHT))\n"
    );
    // A block indents its items by two; its head's atoms stay.
    assert_eq!(
        fmt("(stage player (end (== (size (game vloc ROW)) 0)) (choice ((turn pass))))"),
        "(stage player\n  (end (== (size (game vloc ROW)) 0))\n  (choice ((turn pass))))\n"
    );
    // A list headed by a list: the items under the first.
    assert_eq!(
        fmt("((> (size (game vloc STOCK)) 3) (set (game sto HANDSIZE) 5))"),
        "((> (size (game vloc STOCK)) 3)\n (set (game sto HANDSIZE) 5))\n"
    );
}

#[test]
fn comments_stay_where_they_are() {
    let src = ";; Header\n\n(game ; the game\n  ;; own line\n  (declare 4 'NUMP) ; four\n\n\n  (setup (create players 'NUMP)))\n; end\n";
    assert_eq!(
        fmt(src),
        ";; Header\n\n(game ; the game\n  ;; own line\n  (declare 4 'NUMP) ; four\n\n  (setup (create players 'NUMP)))\n; end\n"
    );
    // A comment after the last item puts the `)` on a line of its own; a
    // comment right after `(` goes to the next line.
    assert_eq!(fmt("(A ; a\n)"), "(A ; a\n)\n");
    assert_eq!(fmt("( ; a\n A B)"), "(\n ; a\n A\n B)\n");
    assert_eq!(fmt("(a (b c) ; c\n d)"), "(a (b c) ; c\n   d)\n");
}

#[test]
fn commas_are_kept_after_their_item() {
    assert_eq!(fmt("(RANK (A ,B,C , D,))"), "(RANK (A, B, C, D,))\n");
    assert_eq!(fmt("(RANK (, A))"), "(RANK (A))\n");
}

#[test]
fn a_file_that_does_not_parse_is_an_error() {
    let e = format_source("(game (setup)", 80).unwrap_err();
    assert!(e.message.contains("still open"), "{}", e.message);
    let e = format_source("(game #)", 80).unwrap_err();
    assert!(e.message.contains('#'), "{}", e.message);
    let deep = format!("{}{}", "(".repeat(100_000), ")".repeat(100_000));
    let e = format_source(&deep, 80).unwrap_err();
    assert!(e.message.contains("nested too deeply"), "{}", e.message);
    // A byte-order mark and extra `)` at the end, which `check` ignores,
    // are dropped.
    assert_eq!(format_source("\u{feff}(game)", 80).unwrap(), "(game)\n");
    assert_eq!(
        format_source("(game (a b))) ; end\n)", 80).unwrap(),
        "(game (a b)) ; end\n"
    );
}

#[test]
fn narrow_widths_and_long_atoms_never_fail() {
    let src = "(game (declare 4 'AVERYLONGNAMEINDEED) (x (y (z 1 2 3) ; c\n)))";
    for width in [0, 1, 5, 10, 20, 80] {
        let once = format_source(src, width).unwrap();
        assert_eq!(format_source(&once, width).unwrap(), once, "width {width}");
    }
}

#[test]
fn texts_in_quotes_are_atoms() {
    let src = "(game (display (players \"Black; first\" \"White (second)\")) ; names\n)\n";
    let out = fmt(src);
    assert!(out.contains("\"Black; first\""), "{out}");
    assert!(out.contains("\"White (second)\""), "{out}");
    assert!(out.contains("; names"), "{out}");
    assert_eq!(fmt(&out), out);
}
