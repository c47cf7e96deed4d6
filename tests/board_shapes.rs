//! Boards of any shape (docs/language.md section 11.15): a graph's points
//! by name, its directions and links (`neighbour`, `group`, a direction it
//! lacks), a hexagon's cells, directions seen from each seat, the
//! observation of a graph (its points and links) and positions written
//! and read back on both shapes; and the refusals of a malformed graph.

use cardboard::engine::{GameOptions, Rules, State};
use cardboard::game::GameState;

fn rules(source: &str) -> Rules {
    Rules::from_source("test.rcy", source).unwrap_or_else(|e| panic!("{}", e.render()))
}

fn start(r: &Rules) -> State {
    r.start(&GameOptions {
        seed: 1,
        overrides: Default::default(),
    })
    .unwrap_or_else(|e| panic!("{e}"))
}

/// A game whose setup is `setup` (after two players) and whose start
/// runs `actions`; a pass ends it.
fn game(setup: &str, actions: &str) -> String {
    format!(
        "(game (setup (create players 2) {setup})
           (do ({actions}))
           (stage player (end (== (game sto DONE) 1))
             (choice ((do ((set (game sto DONE) 1) (turn pass))))))
           (scoring max 0))"
    )
}

/// A path A - B - C going east, C - D going south, and D - A with no
/// direction.
const GRAPH: &str =
    "(create board G (graph (points (A 0 0) (B 0 1) (C 0 2) (D 1 2)) (links (A B C E) (C D S) (D A))))";

fn line_of(describe: &str, prefix: &str) -> Option<String> {
    describe
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with(prefix))
        .map(str::to_string)
}

#[test]
fn a_graph_steps_along_its_links_and_spreads_over_all_of_them() {
    let s = start(&rules(&game(
        GRAPH,
        "(set (game sto EAST) (index (neighbour (space G A) E)))
         (set (game sto BACK) (index (neighbour (space G B) W)))
         (set (game sto DOWN) (index (neighbour (space G C) S)))
         ((onboard (neighbour (space G A) S)) (set (game sto NOSOUTH) 1))
         (set (game sto RUN) (size (line (space G A) E 'V (== 1 1))))
         (set (game sto ALL) (size (group (space G A) 'V (== 1 1))))
         (set (game sto EASTWARD) (size (group (space G A) (E, W) 'V (== 1 1))))
         (set (game sto ROW) (row (space G D)))
         (set ((space G 3) sto HERE) 1)",
    )));
    let d = s.describe();
    let int = |name: &str| {
        line_of(&d, &format!("sto {name} = "))
            .map(|l| l.rsplit(' ').next().unwrap().parse::<i64>().unwrap())
            .unwrap_or(0)
    };
    assert_eq!(int("EAST"), 1);
    assert_eq!(int("BACK"), 0);
    assert_eq!(int("DOWN"), 3);
    assert_eq!(int("NOSOUTH"), 0);
    assert_eq!(int("RUN"), 2);
    assert_eq!(
        int("ALL"),
        4,
        "D is reached through its link with no direction"
    );
    assert_eq!(int("EASTWARD"), 3);
    assert_eq!(int("ROW"), 1);
    assert!(d.contains("G[D]:"), "{d}");
}

#[test]
fn a_direction_the_graph_lacks_is_a_rules_error() {
    // A written direction is checked with the file.
    let e = Rules::from_source(
        "t.rcy",
        &game(
            GRAPH,
            "(set (game sto X) (index (neighbour (space G A) NE)))",
        ),
    )
    .expect_err("NE is refused");
    assert!(
        e.render()
            .contains("`G` is a graph board: its directions are `N`, `E`, `S`, `W`, not `NE`"),
        "{}",
        e.render()
    );
    // A computed one while playing.
    let r = rules(
        &"(game (setup (create players 2) GRAPH)
           (stage player (end (== 1 0))
             (choice ((any (NE) 'D ((onboard (neighbour (space G A) 'D)) (turn pass))))))
           (scoring max 0))"
            .replace("GRAPH", GRAPH),
    );
    let err = r
        .start(&GameOptions {
            seed: 1,
            overrides: Default::default(),
        })
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(
        err.contains("`G` is a graph board: its directions are N E S W, not NE"),
        "{err}"
    );
}

#[test]
fn a_malformed_graph_is_refused() {
    for (shape, words) in [
        (
            "(graph (points A B) (links (A Z)))",
            "`Z` is no point of this graph",
        ),
        (
            "(graph (points A B C) (links (A B E) (A C E)))",
            "`A` has two neighbours to the E",
        ),
        (
            "(graph (points A (B 0 1)) (links (A B)))",
            "either every point of a graph has a row and a column",
        ),
        ("(graph (points A A))", "the point `A` is given twice"),
        ("(graph (points N B))", "`N` is a direction"),
        ("(graph (links (A B)))", "`graph` is written"),
        (
            "(graph 3 3 (links (A1 D1)))",
            "by column letter and row number counted from the bottom",
        ),
        (
            "(graph 3 3 (points A1) (links (A1 B1)))",
            "`graph` is written",
        ),
        (
            "(hexagon 0)",
            "a hexagon needs a side of at least one hexagon",
        ),
    ] {
        let source = game(&format!("(create board G {shape})"), "");
        let e = Rules::from_source("t.rcy", &source)
            .err()
            .unwrap_or_else(|| panic!("{shape} is accepted"));
        assert!(e.render().contains(words), "{shape}: {}", e.render());
    }
    let source = game(GRAPH, "(set ((space G Q) sto X) 1)");
    let e = Rules::from_source("t.rcy", &source).expect_err("Q is no point");
    assert!(
        e.render().contains("`G` has no point `Q`"),
        "{}",
        e.render()
    );
}

#[test]
fn a_graph_on_a_grid_takes_its_points_from_its_links() {
    let s = start(&rules(&game(
        "(create board G (graph 3 3 (links (A3 C3 E) (C3 C1 S))))",
        "(set (game sto N) (size (spaces G)))
         (set (game sto I) (index (space G C1)))
         (set (game sto R) (row (space G C1)))
         (set (game sto C) (col (space G C1)))
         (set (game sto S) (index (neighbour (space G C3) S)))",
    )));
    let d = s.describe();
    let int = |name: &str| {
        line_of(&d, &format!("sto {name} = "))
            .map(|l| l.rsplit(' ').next().unwrap().parse::<i64>().unwrap())
            .unwrap_or(0)
    };
    // A3 (row 0, column 0), C3 (0, 2), C1 (2, 2), in reading order.
    assert_eq!(int("N"), 3);
    assert_eq!(int("I"), 2);
    assert_eq!((int("R"), int("C")), (2, 2));
    assert_eq!(int("S"), 2);
}

#[test]
fn a_hexagon_has_its_cells_and_no_corners() {
    let s = start(&rules(&game(
        "(create board H (hexagon 3))",
        "(set (game sto N) (size (spaces H)))
         ((onboard (space H 0 0)) (set (game sto CORNER) 1))
         (set (game sto FIRST) (col (space H 0 2)))
         (set (game sto SIX) (size (group (space H 2 2) 'V (!= 'V (space H 2 2)))))
         (set (game sto AROUND) (size (filter (spaces H) 'V (any (E, W, NE, NW, SE, SW) 'D (== (neighbour 'V 'D) (space H 2 2)))))) 
         (set (game sto EDGE) (size (filter (spaces H) 'V (any (E, W, NE, NW, SE, SW) 'D (== (neighbour 'V 'D) (space H 0 2))))))",
    )));
    let d = s.describe();
    let int = |name: &str| {
        line_of(&d, &format!("sto {name} = "))
            .map(|l| l.rsplit(' ').next().unwrap().parse::<i64>().unwrap())
            .unwrap_or(0)
    };
    assert_eq!(int("N"), 19);
    assert_eq!(int("CORNER"), 0);
    assert_eq!(int("FIRST"), 2);
    assert_eq!(int("SIX"), 0, "the centre itself fails the condition");
    assert_eq!(int("AROUND"), 6);
    assert_eq!(int("EDGE"), 3, "a corner cell has three neighbours");
}

#[test]
fn directions_from_a_seat_turn_with_the_seat() {
    // Seat 0 faces north, seat 1 south: each marks the square in front of
    // the middle one, then to the front left of it.
    let r = rules(
        "(game (setup (create players 2) (create board B (grid 3 3)))
           (stage player (end (== (game sto TURNS) 2))
             (choice ((do ((set ((neighbour (space B 1 1) FORWARD) sto F) (+ 1 (game sto TURNS)))
                           (set ((neighbour (space B 1 1) FORWARD_LEFT) sto L) (+ 1 (game sto TURNS)))
                           (inc (game sto TURNS) 1))))))
           (scoring max 0))",
    );
    let mut s = start(&r);
    for _ in 0..2 {
        let m = s.legal_moves();
        s.apply(&m[0]).unwrap();
    }
    let d = s.describe();
    let block = |owner: &str| -> String {
        let start = d
            .find(&format!("{owner}:"))
            .unwrap_or_else(|| panic!("{owner} in {d}"));
        d[start..]
            .lines()
            .skip(1)
            .take_while(|l| l.starts_with("  "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        block("B[0,1]").contains("sto F = 1"),
        "seat 0 forward is north"
    );
    assert!(
        block("B[2,1]").contains("sto F = 2"),
        "seat 1 forward is south"
    );
    assert!(
        block("B[0,0]").contains("sto L = 1"),
        "seat 0 forward left is north-west"
    );
    assert!(
        block("B[2,2]").contains("sto L = 2"),
        "seat 1 forward left is south-east"
    );
}

#[test]
fn a_graph_is_observed_with_its_points_and_links() {
    let s = start(&rules(&game(GRAPH, "(set ((space G C) sto X) 1)")));
    let json = serde_json::to_value(s.observe(0)).unwrap();
    let board = &json["boards"][0];
    assert_eq!(board["shape"], "graph");
    assert_eq!(
        board["points"][2],
        serde_json::json!({"name": "C", "row": 0, "col": 2})
    );
    let links = board["links"].as_array().unwrap();
    assert_eq!(links.len(), 4);
    assert!(links.contains(&serde_json::json!({"from": 2, "to": 3, "dir": "S"})));
    assert!(links.contains(&serde_json::json!({"from": 0, "to": 3})));
    assert_eq!(board["spaces"][0]["owner"], "G[C]");
    // A grid keeps its JSON: no points, no links.
    let grid = start(&rules(&game("(create board B (grid 2 2))", "")));
    let json = serde_json::to_value(grid.observe(0)).unwrap();
    assert!(json["boards"][0].get("points").is_none() && json["boards"][0].get("links").is_none());
}

#[test]
fn positions_name_points_and_hexagon_cells() {
    for (setup, actions, place) in [
        (GRAPH, "(set ((space G D) sto X) 7)", "G[D]"),
        (
            "(create board H (hexagon 3))",
            "(set ((space H 1 1) sto X) 7)",
            "H[1,1]",
        ),
    ] {
        let r = rules(&game(setup, actions));
        let s = start(&r);
        let text = s.to_position();
        assert!(text.contains(&format!("{place} sto X = 7")), "{text}");
        let back = r.load_position(&text).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back.to_position(), text);
    }
    let r = rules(&game("(create board H (hexagon 3))", ""));
    let text = start(&r).to_position();
    let bad = format!("{text}\nH[0,0] sto X = 1\n");
    let e = r
        .load_position(&bad)
        .expect_err("no cell at 0,0")
        .to_string();
    assert!(
        e.contains("the hexagon H has no space at row 0, column 0"),
        "{e}"
    );
    let r = rules(&game(GRAPH, ""));
    let bad = format!("{}\nG[Q] sto X = 1\n", start(&r).to_position());
    let e = r.load_position(&bad).expect_err("no point Q").to_string();
    assert!(e.contains("the graph G has no point `Q`"), "{e}");
}

#[test]
fn the_terminal_draws_only_the_cells_a_board_has() {
    for (setup, cells) in [("(create board H (hexagon 2))", 7), (GRAPH, 4)] {
        let s = start(&rules(&game(setup, "")));
        let seen = s.observe(0);
        let drawn = cardboard::play::screen::draw_board(&seen.boards[0], &seen);
        // Every space drawn shows its name (empty boards): one word a
        // space under the title, none for a cell the board lacks.
        let words = drawn
            .lines()
            .skip(1)
            .flat_map(str::split_whitespace)
            .count();
        assert_eq!(words, cells, "{drawn}");
    }
}
