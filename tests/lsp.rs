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
}

impl Client {
    fn start() -> Client {
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
                assert_eq!(m["params"]["uri"], URI);
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
    let mut client = Client::start();
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

    // Shutdown, exit: the server ends with status 0.
    let shutdown = client.request("shutdown", Value::Null);
    assert_eq!(shutdown, Value::Null);
    client.notify("exit", Value::Null);
    for _ in 0..100 {
        if let Some(status) = client.child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            return;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = client.child.kill();
    panic!("the server did not exit within 10 s");
}
