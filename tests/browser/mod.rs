//! A headless Chromium driven over the Chrome DevTools Protocol (a
//! WebSocket, with the tokio-tungstenite the server's tests use already):
//! pages in browser contexts of their own, scripts evaluated, mouse
//! clicks, screenshots. Used by `tests/web.rs`.

use base64::Engine as _;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// The longest one DevTools call, or one wait for the page, may take.
pub const WAIT: Duration = Duration::from_secs(30);

/// Run in each page before its own scripts: keeps the whole DOM each time
/// the page draws a new state (its `#game` gets the state's decision), in
/// `window.cardboardDoms`, which the test empties at each look. A
/// mutation observer runs once the page's handling of the message is done,
/// so each copy is a whole drawing.
pub const RECORD_DOMS: &str = r#"
window.cardboardDoms = [];
document.addEventListener('DOMContentLoaded', () => {
  const game = document.getElementById('game');
  new MutationObserver(() => {
    window.cardboardDoms.push([Number(game.dataset.decision), document.documentElement.outerHTML]);
  }).observe(game, { attributes: true, attributeFilter: ['data-decision'] });
});
"#;

/// How to skip the browser tests, said with every skip.
pub const HOW_TO_SKIP: &str = "set CARDBOARD_CHROMIUM=none to skip the browser tests, or \
     CARDBOARD_CHROMIUM=PATH to a Chromium or Chrome that starts";

/// The browser to use, if one is installed (`CARDBOARD_CHROMIUM=none`:
/// none, the browser tests skipped).
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("CARDBOARD_CHROMIUM") {
        if path.is_empty() || path == "none" {
            return None;
        }
        return Some(PathBuf::from(path));
    }
    let dirs = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&dirs) {
            let path = dir.join(name);
            if path.is_file() {
                return Some(path);
            }
        }
    }
    None
}

/// A headless Chromium and the DevTools connection to it.
pub struct Browser {
    pub child: Child,
    pub profile: PathBuf,
    pub socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    pub next_id: u64,
}

/// One page (a tab, in a browser context of its own).
#[derive(Clone)]
pub struct Page {
    pub session: String,
    pub name: String,
}

impl Browser {
    /// Starts Chromium with a fresh profile; `None` (and a message) when
    /// none is installed or it cannot start.
    pub async fn launch(test: &str) -> Option<Browser> {
        let Some(binary) = find_chromium() else {
            skip(
                test,
                "no Chromium found (install Debian's `chromium`, or set \
                 CARDBOARD_CHROMIUM to a Chromium or Chrome)",
            );
            return None;
        };
        Browser::launch_with(&binary, test).await
    }

    /// Starts the browser `binary` as [`Browser::launch`] does; `None`,
    /// and a message saying why and how to skip, when it cannot start (it
    /// exits, as under a memory limit, or opens no DevTools port in time).
    pub async fn launch_with(binary: &Path, test: &str) -> Option<Browser> {
        let profile = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-{test}"));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("a profile folder");
        // These flags keep Chromium from reaching for the network (this
        // machine's is closed) and from needing a sandbox or a GPU.
        let child = Command::new(binary)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--window-size=1200,900",
                "--remote-debugging-port=0",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(
                std::fs::File::create(profile.join("stderr.txt"))
                    .map_or_else(|_| Stdio::null(), Stdio::from),
            )
            .spawn();
        let mut child = match child {
            Ok(child) => child,
            Err(e) => {
                skip(test, &format!("{} cannot start: {e}", binary.display()));
                return None;
            }
        };
        // Why it did not start: how it ended and its last word.
        let failed = |child: &mut Child, how: String| {
            let _ = child.kill();
            let _ = child.wait();
            let said = std::fs::read_to_string(profile.join("stderr.txt")).unwrap_or_default();
            let last = said
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            let last: String = last.chars().take(200).collect();
            let _ = std::fs::remove_dir_all(&profile);
            skip(
                test,
                &format!(
                    "{} did not start: {how}{}",
                    binary.display(),
                    if last.is_empty() {
                        String::new()
                    } else {
                        format!(" (its last words: {last})")
                    }
                ),
            );
        };
        // Chromium writes its port and the browser's DevTools path here.
        let port_file = profile.join("DevToolsActivePort");
        let start = Instant::now();
        let (port, path) = loop {
            if let Ok(text) = std::fs::read_to_string(&port_file) {
                let mut lines = text.lines();
                if let (Some(port), Some(path)) = (lines.next(), lines.next()) {
                    break (port.trim().to_string(), path.trim().to_string());
                }
            }
            if let Ok(Some(status)) = child.try_wait() {
                failed(
                    &mut child,
                    format!("it ended ({status}) before it opened a DevTools port"),
                );
                return None;
            }
            if start.elapsed() >= WAIT {
                failed(
                    &mut child,
                    format!("it opened no DevTools port in {} s", WAIT.as_secs()),
                );
                return None;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        };
        let url = format!("ws://127.0.0.1:{port}{path}");
        let (socket, _) = tokio::time::timeout(WAIT, tokio_tungstenite::connect_async(&url))
            .await
            .expect("DevTools answers in time")
            .expect("DevTools connects");
        Some(Browser {
            child,
            profile,
            socket,
            next_id: 0,
        })
    }

    /// Calls a DevTools method (on a page's session, or on the browser)
    /// and returns its result; events met meanwhile are dropped.
    pub async fn call(&mut self, page: Option<&Page>, method: &str, params: Value) -> Value {
        match self.try_call(page, method, params).await {
            Ok(result) => result,
            Err(error) => panic!("{method}: {error}"),
        }
    }

    /// Calls a DevTools method; its error (a page being reloaded has no
    /// context to evaluate in, say) as an `Err`.
    pub async fn try_call(
        &mut self,
        page: Option<&Page>,
        method: &str,
        params: Value,
    ) -> Result<Value, Value> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(page) = page {
            message["sessionId"] = json!(page.session);
        }
        self.socket
            .send(Message::Text(message.to_string().into()))
            .await
            .expect("DevTools takes the call");
        loop {
            let reply = tokio::time::timeout(WAIT, self.socket.next())
                .await
                .unwrap_or_else(|_| panic!("{method}: no answer in time"));
            let Some(Ok(Message::Text(text))) = reply else {
                panic!("{method}: DevTools closed");
            };
            let reply: Value = serde_json::from_str(text.as_str()).expect("DevTools JSON");
            if reply["id"] == json!(id) {
                if let Some(error) = reply.get("error") {
                    return Err(error.clone());
                }
                return Ok(reply["result"].clone());
            }
        }
    }

    /// Opens `url` in a new page of a new browser context.
    pub async fn open(&mut self, url: &str, name: &str) -> Page {
        let context = self
            .call(None, "Target.createBrowserContext", json!({}))
            .await;
        let target = self
            .call(
                None,
                "Target.createTarget",
                json!({"url": "about:blank", "browserContextId": context["browserContextId"]}),
            )
            .await;
        let session = self
            .call(
                None,
                "Target.attachToTarget",
                json!({"targetId": target["targetId"], "flatten": true}),
            )
            .await;
        let page = Page {
            session: session["sessionId"]
                .as_str()
                .expect("a session")
                .to_string(),
            name: name.to_string(),
        };
        self.call(
            Some(&page),
            "Emulation.setDeviceMetricsOverride",
            json!({"width": 1200, "height": 900, "deviceScaleFactor": 1, "mobile": false}),
        )
        .await;
        self.call(Some(&page), "Page.enable", json!({})).await;
        self.call(
            Some(&page),
            "Page.addScriptToEvaluateOnNewDocument",
            json!({"source": RECORD_DOMS}),
        )
        .await;
        self.call(Some(&page), "Page.navigate", json!({"url": url}))
            .await;
        page
    }

    /// Evaluates `expression` in the page; its value as JSON.
    pub async fn eval(&mut self, page: &Page, expression: &str) -> Value {
        let result = self
            .call(
                Some(page),
                "Runtime.evaluate",
                json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            )
            .await;
        if let Some(e) = result.get("exceptionDetails") {
            panic!("{}: the page threw on `{expression}`: {e}", page.name);
        }
        result["result"]["value"].clone()
    }

    /// Waits until `expression` is true in the page (an expression that
    /// throws, or a page still loading, is not true yet).
    pub async fn wait_for(&mut self, page: &Page, expression: &str, what: &str) {
        let start = Instant::now();
        let guarded = format!(
            "(() => {{ try {{ return !!({expression}); }} catch (e) {{ return false; }} }})()"
        );
        loop {
            let result = self
                .try_call(
                    Some(page),
                    "Runtime.evaluate",
                    json!({"expression": guarded, "returnByValue": true}),
                )
                .await;
            if result.is_ok_and(|r| r["result"]["value"] == json!(true)) {
                return;
            }
            assert!(
                start.elapsed() < WAIT,
                "{}: {what} did not happen",
                page.name
            );
            tokio::time::sleep(Duration::from_millis(40)).await;
        }
    }

    /// Clicks the middle of the element `selector` finds (its `index`th),
    /// with the mouse, as a person would.
    pub async fn click(&mut self, page: &Page, selector: &str, index: usize) {
        let expression = format!(
            "(() => {{ const n = document.querySelectorAll({sel})[{index}]; if (!n) return null; \
             n.scrollIntoView({{block: 'center', inline: 'center'}}); const r = n.getBoundingClientRect(); \
             return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            sel = json!(selector)
        );
        let at = self.eval(page, &expression).await;
        let (Some(x), Some(y)) = (at[0].as_f64(), at[1].as_f64()) else {
            panic!("{}: nothing to click at {selector} [{index}]", page.name);
        };
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                Some(page),
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            )
            .await;
        }
    }

    /// Saves a screenshot of the whole page as a PNG file.
    pub async fn screenshot(&mut self, page: &Page, path: &Path) {
        let shot = self
            .call(
                Some(page),
                "Page.captureScreenshot",
                json!({"format": "png", "captureBeyondViewport": true}),
            )
            .await;
        let png = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().expect("image data"))
            .expect("DevTools sends base64");
        assert!(png.starts_with(b"\x89PNG"), "a PNG image");
        std::fs::write(path, png).expect("the screenshot is written");
        println!("screenshot: {}", path.display());
    }
}

/// Says that the browser test `test` is skipped and why, straight to the
/// standard error, past the test harness's capture: a skip is to be seen.
fn skip(test: &str, why: &str) {
    let _ = writeln!(
        std::io::stderr(),
        "skipped: {why}: the browser test {test} did not run ({HOW_TO_SKIP})"
    );
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
