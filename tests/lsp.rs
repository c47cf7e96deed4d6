//! `cardboard lsp` driven as an editor drives it: LSP messages written to
//! the standard input of the built binary, answers read from its standard
//! output, every read bounded in time.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

const TICTACTOE: &str = include_str!("../examples/tictactoe.rcy");
const URI: &str = "file:///tmp/tictactoe.rcy";

/// A running server: its input, and its messages read by a thread.
struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
    /// The file whose diagnostics are awaited.
    uri: &'static str,
}

impl Client {
    fn start(uri: &'static str) -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_cardboard"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("cardboard lsp starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(n) = line.strip_prefix("Content-Length: ") {
                        length = n.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("a Content-Length header")];
                if reader.read_exact(&mut body).is_err() {
                    return;
                }
                let value = serde_json::from_slice(&body).expect("a JSON message");
                if send.send(value).is_err() {
                    return;
                }
            }
        });
        Client {
            child,
            stdin,
            messages,
            next_id: 1,
            uri,
        }
    }

    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// The next message from the server, within ten seconds.
    fn receive(&mut self) -> Value {
        self.messages
            .recv_timeout(Duration::from_secs(10))
            .expect("the server answers within 10 s")
    }

    /// Sends a request and returns its result (notifications in between
    /// are skipped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let m = self.receive();
            if m["id"] == json!(id) {
                assert!(m.get("error").is_none(), "{method} failed: {m}");
                return m["result"].clone();
            }
        }
    }

    /// The next diagnostics published.
    fn diagnostics(&mut self) -> Vec<Value> {
        loop {
            let m = self.receive();
            if m["method"] == "textDocument/publishDiagnostics" {
                assert_eq!(m["params"]["uri"], self.uri);
                return m["params"]["diagnostics"].as_array().unwrap().clone();
            }
        }
    }
}

/// The (line, UTF-16 column) of the first `needle` in `text`.
fn find(text: &str, needle: &str) -> (u32, u32) {
    let offset = text.find(needle).expect("needle in text");
    let before = &text[..offset];
    let line = before.matches('\n').count() as u32;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].encode_utf16().count() as u32)
}

#[test]
fn an_editor_session() {
    let mut client = Client::start(URI);
    let init = client.request("initialize", json!({"capabilities": {}}));
    assert!(init["capabilities"]["documentFormattingProvider"].as_bool() == Some(true));
    client.notify("initialized", json!({}));

    // A file with an unknown form: one error, at that form.
    let broken = TICTACTOE.replace("(inc (game sto MARKS) 1)", "(incr (game sto MARKS) 1)");
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rcy", "version": 1, "text": broken}}),
    );
    let diagnostics = client.diagnostics();
    assert!(!diagnostics.is_empty(), "{diagnostics:?}");
    let (line, character) = find(&broken, "(incr");
    let start = &diagnostics[0]["range"]["start"];
    assert_eq!(start["line"], line, "{diagnostics:?}");
    assert!(
        start["character"].as_u64().unwrap() <= u64::from(character) + 1,
        "{diagnostics:?}"
    );
    assert_eq!(diagnostics[0]["severity"], 1);

    // The fix clears them.
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2},
               "contentChanges": [{"text": TICTACTOE}]}),
    );
    assert_eq!(client.diagnostics(), Vec::<Value>::new());

    // Formatting a badly laid-out file gives the text `cardboard fmt` gives.
    let messy = TICTACTOE.replace("(setup (create players 2)", "(setup   (create players 2)");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 3},
               "contentChanges": [{"text": messy}]}),
    );
    client.diagnostics();
    let edits = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let expected = cardboard::fmt::format_source(&messy, cardboard::fmt::DEFAULT_WIDTH).unwrap();
    assert_ne!(expected, messy);
    assert_eq!(edits.as_array().map(Vec::len), Some(1), "{edits}");
    assert_eq!(edits[0]["newText"], expected);
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 0, "character": 0})
    );

    // Hover on a keyword (`let`) shows its section of the language reference.
    let (line, character) = find(&messy, "(let ");
    let hover = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character + 2}}),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap_or("")
            .contains("`let`"),
        "{hover}"
    );

    // Definition of a declared name, and hover on it.
    let declared = messy
        .replacen("(game\n", "(game\n  (declare 3 'LINE)\n", 1)
        .replace(
            "3))\n                        (set",
            "'LINE))\n                        (set",
        );
    assert_ne!(declared, messy);
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 4},
               "contentChanges": [{"text": declared}]}),
    );
    assert_eq!(client.diagnostics(), Vec::<Value>::new());
    let (use_line, use_char) = find(&declared, "'LINE))");
    let (decl_line, decl_char) = find(&declared, "'LINE)\n");
    let position = json!({"textDocument": {"uri": URI}, "position": {"line": use_line, "character": use_char + 2}});
    let definition = client.request("textDocument/definition", position.clone());
    assert_eq!(
        definition["range"]["start"],
        json!({"line": decl_line, "character": decl_char}),
        "{definition}"
    );
    let hover = client.request("textDocument/hover", position);
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap_or("")
            .contains("(declare 3 'LINE)"),
        "{hover}"
    );

    // Completion offers keywords and the declared name.
    let items = client.request(
        "textDocument/completion",
        json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}),
    );
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    for expected in ["let", "shuffle", "LINE"] {
        assert!(labels.contains(&expected), "{expected} not in {labels:?}");
    }

    client.shutdown();
}

impl Client {
    /// Shutdown, exit: the server ends with status 0.
    fn shutdown(mut self) {
        let shutdown = self.request("shutdown", Value::Null);
        assert_eq!(shutdown, Value::Null);
        self.notify("exit", Value::Null);
        for _ in 0..100 {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}");
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        panic!("the server did not exit within 10 s");
    }
}

/// A small card game with a board, locations, storages, a definition
/// and a named choice.
const CARDS: &str = "(game
  (declare 2 'NUMP)
  (define (HAS 'P) (> (size ('P iloc HAND)) 0))
  (setup
    (create players 'NUMP)
    (create board ROW (track 3))
    (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE, FOUR)))))
  (do ((shuffle (game iloc STOCK))
       (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
  (stage player
    (end (all player 'P (not (HAS 'P))))
    (choice PLAY
      ((any ((current player) iloc HAND) 'C
         (any (spaces ROW) 'S
           (do ((move 'C (top ('S vloc CELL)))
                (inc ((current player) sto PLAYED) 1))))))))
  (scoring max ((current player) sto PLAYED)))
";
const CARDS_URI: &str = "file:///tmp/cards.rcy";

/// The (line, UTF-16 column) of each `needle` in `text`, in order.
fn find_all(text: &str, needle: &str) -> Vec<Value> {
    text.match_indices(needle)
        .map(|(i, _)| position_of(text, i))
        .collect()
}

/// The LSP position of byte `offset` of `text`.
fn position_of(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let start = before.rfind('\n').map_or(0, |n| n + 1);
    json!({"line": line, "character": before[start..].encode_utf16().count()})
}

/// The position just inside the `at`-th `needle` of `text` (its second
/// character), as request parameters.
fn at(text: &str, needle: &str, nth: usize) -> Value {
    let mut p = find_all(text, needle)[nth].clone();
    p["character"] = json!(p["character"].as_u64().unwrap() + 1);
    json!({"textDocument": {"uri": CARDS_URI}, "position": p})
}

#[test]
fn names_outline_and_completion() {
    let mut client = Client::start(CARDS_URI);
    let init = client.request("initialize", json!({"capabilities": {}}));
    let caps = &init["capabilities"];
    assert_eq!(caps["referencesProvider"], true, "{init}");
    assert_eq!(caps["documentSymbolProvider"], true, "{init}");
    assert_eq!(
        caps["completionProvider"]["triggerCharacters"],
        json!(["(", "'"])
    );
    client.notify("initialized", json!({}));
    client.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": CARDS_URI, "languageId": "rcy", "version": 1, "text": CARDS}}),
    );
    assert_eq!(client.diagnostics(), Vec::<Value>::new());

    // References of a location: every place `iloc HAND` is written, in order.
    let mut params = at(CARDS, "HAND", 2);
    params["context"] = json!({"includeDeclaration": true});
    let refs = client.request("textDocument/references", params.clone());
    let starts: Vec<&Value> = refs
        .as_array()
        .unwrap()
        .iter()
        .map(|r| &r["range"]["start"])
        .collect();
    let expected = find_all(CARDS, "HAND");
    assert_eq!(starts, expected.iter().collect::<Vec<_>>(), "{refs}");
    assert_eq!(refs[0]["uri"], CARDS_URI);
    // Without the declaration: the first place written (the definition
    // of a location not in the setup) is left out.
    params["context"] = json!({"includeDeclaration": false});
    let refs = client.request("textDocument/references", params);
    assert_eq!(refs.as_array().unwrap().len(), expected.len() - 1, "{refs}");
    assert_eq!(refs[0]["range"]["start"], expected[1]);

    // Definition of a location filled in the setup: its `create deck`.
    let definition = client.request("textDocument/definition", at(CARDS, "STOCK", 2));
    assert_eq!(
        definition["range"]["start"],
        find_all(CARDS, "STOCK")[0],
        "{definition}"
    );
    assert_eq!(
        definition["range"]["end"]["character"].as_u64().unwrap(),
        find_all(CARDS, "STOCK")[0]["character"].as_u64().unwrap() + 5
    );
    // Of a board: its `create board`; its references: both.
    let definition = client.request("textDocument/definition", at(CARDS, "ROW", 1));
    assert_eq!(
        definition["range"]["start"],
        find_all(CARDS, "ROW")[0],
        "{definition}"
    );
    let mut params = at(CARDS, "ROW", 0);
    params["context"] = json!({"includeDeclaration": true});
    let refs = client.request("textDocument/references", params);
    assert_eq!(refs.as_array().unwrap().len(), 2, "{refs}");
    // Of a storage written only outside the setup: the first place.
    let definition = client.request("textDocument/definition", at(CARDS, "PLAYED", 1));
    assert_eq!(
        definition["range"]["start"],
        find_all(CARDS, "PLAYED")[0],
        "{definition}"
    );
    // A definition's use.
    let definition = client.request("textDocument/definition", at(CARDS, "HAS", 1));
    assert_eq!(
        definition["range"]["start"],
        find_all(CARDS, "HAS")[0],
        "{definition}"
    );

    // Hover on a location says what it is and where it is first written.
    let hover = client.request("textDocument/hover", at(CARDS, "CELL", 0));
    let text = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(
        text.contains("location (vloc: seen by everyone) `CELL`"),
        "{hover}"
    );
    assert!(text.contains("first written at line 15"), "{hover}");
    let hover = client.request("textDocument/hover", at(CARDS, "ROW", 1));
    let text = hover["contents"]["value"].as_str().unwrap_or("");
    assert!(
        text.contains("(create board ROW (track 3))") && text.contains("line 6"),
        "{hover}"
    );

    // The outline: declares, definitions, the setup with its board and
    // deck, the stage with its named choice, the scoring.
    let symbols = client.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": CARDS_URI}}),
    );
    let names = |v: &Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        names(&symbols),
        [
            "'NUMP",
            "HAS",
            "setup",
            "stage player",
            "scoring max ((current player) sto PLAYED)"
        ]
    );
    assert_eq!(
        names(&symbols[2]["children"]),
        ["board ROW", "deck (game iloc STOCK)"]
    );
    assert_eq!(names(&symbols[3]["children"]), ["PLAY"]);
    assert_eq!(symbols[3]["range"]["start"], find_all(CARDS, "(stage")[0]);
    assert_eq!(
        symbols[3]["children"][0]["selectionRange"]["start"],
        find_all(CARDS, "PLAY")[0]
    );

    // Completion of a location's name: that kind's names first.
    let complete = |client: &mut Client, text: &str, after: &str| -> Vec<String> {
        let p = position_of(text, text.find(after).unwrap() + after.len());
        let items = client.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": CARDS_URI}, "position": p}),
        );
        let mut items = items.as_array().unwrap().clone();
        items.sort_by_key(|i| i["sortText"].as_str().unwrap_or("").to_string());
        items
            .iter()
            .map(|i| i["label"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(
        complete(&mut client, CARDS, "('S vloc ")[..3],
        ["CELL", "HAND", "STOCK"]
    );
    assert_eq!(
        complete(&mut client, CARDS, "(inc ((current player) sto "),
        ["PLAYED"]
    );
    assert!(complete(&mut client, CARDS, "(inc ((current player) ").contains(&"iloc".to_string()));
    // While typing: a form left open, after a form that takes a location.
    let typing = CARDS.replace("(do ((shuffle (game iloc STOCK))", "(do ((shuffle ");
    client.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": CARDS_URI, "version": 2},
               "contentChanges": [{"text": typing}]}),
    );
    assert!(!client.diagnostics().is_empty());
    let offered = complete(&mut client, &typing, "(shuffle ");
    assert_eq!(offered[..2], ["('P iloc HAND)", "(game iloc STOCK)"]);
    let offered = complete(&mut client, &typing, "(setup\n    (");
    assert_eq!(offered[0], "create");
    let offered = complete(&mut client, &typing, "(choice PLAY\n      ((");
    assert!(offered.contains(&"any".to_string()) && offered.contains(&"HAS".to_string()));

    client.shutdown();
}

/// The VS Code extension's files parse, name each other, and its grammar
/// knows every keyword the language reference's headings name.
#[test]
fn the_vscode_extension_is_consistent() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("editors/vscode");
    let read = |p: &str| -> Value {
        let text = std::fs::read_to_string(dir.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{p}: {e}"))
    };
    let package = read("package.json");
    let grammar_path = package["contributes"]["grammars"][0]["path"]
        .as_str()
        .unwrap();
    let grammar = read(grammar_path);
    assert_eq!(
        grammar["scopeName"],
        package["contributes"]["grammars"][0]["scopeName"]
    );
    let config = read(
        package["contributes"]["languages"][0]["configuration"]
            .as_str()
            .unwrap(),
    );
    assert_eq!(config["comments"]["lineComment"], ";;");
    assert!(dir.join(package["main"].as_str().unwrap()).exists());
    let words = |rule: &str| -> Vec<String> {
        let m = grammar["repository"][rule]["match"].as_str().unwrap();
        let inner = &m[m.find("(?:").unwrap() + 3..m.rfind(")(?!").unwrap()];
        inner.split('|').map(str::to_string).collect()
    };
    let mut known = words("control");
    known.extend(words("keyword"));
    known.extend(words("kind"));
    for k in cardboard::lsp::hover::keywords() {
        assert!(known.contains(&k), "the grammar does not highlight `{k}`");
    }
    for kind in cardboard::lsp::symbols::KINDS {
        assert!(words("kind").contains(&kind.to_string()), "{kind}");
    }
}
