//! The reference client (`clients/python/cardboard_client.py`) against
//! `cardboard serve` as a program: two Python seats play two-player Agram
//! on the loopback to its end, each prints the result, and the server
//! exits. The client follows docs/protocol.md, so the document and a
//! client written from it cannot drift apart. Without python3 or its
//! `websockets` package the test says so and passes (`.ci/run` installs
//! them in `target/pyenv`).

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);

/// Kills the child when the test ends, however it ends.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A Python with `websockets`: `CARDBOARD_PYTHON`, the virtual
/// environment `.ci/run` makes (`target/pyenv`), or `python3`.
fn python() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let candidates = [
        std::env::var_os("CARDBOARD_PYTHON").map(PathBuf::from),
        Some(root.join("target/pyenv/bin/python3")),
        Some(PathBuf::from("python3")),
    ];
    candidates.into_iter().flatten().find(|p| {
        Command::new(p)
            .args(["-c", "import websockets"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    })
}

/// Waits for `child` to exit, at most until `deadline`.
fn wait(child: &mut Child, deadline: Instant) -> ExitStatus {
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            return status;
        }
        assert!(Instant::now() < deadline, "the program did not end in time");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn two_python_seats_play_a_whole_game() {
    let Some(python) = python() else {
        eprintln!(
            "note: skipped: no python3 with the `websockets` package \
             (python3 -m pip install websockets, or CARDBOARD_PYTHON=...)"
        );
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut server = Guard(
        Command::new(env!("CARGO_BIN_EXE_cardboard"))
            .current_dir(root)
            .args(["serve", "games/agram.rcy", "--set", "NUMP=2"])
            .args(["--seats", "remote,remote", "--seed", "7"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("serve starts"),
    );
    let mut lines = BufReader::new(server.0.stdout.take().expect("stdout"));
    let mut first = String::new();
    lines.read_line(&mut first).expect("the URL line");
    let url = first
        .split_whitespace()
        .find(|w| w.starts_with("ws://127.0.0.1:"))
        .unwrap_or_else(|| panic!("a loopback URL in `{first}`"))
        .to_string();
    let client = root.join("clients/python/cardboard_client.py");
    let seats: Vec<Guard> = (0..2)
        .map(|seat| {
            Guard(
                Command::new(&python)
                    .arg(&client)
                    .arg(&url)
                    .args(["--seat", &seat.to_string(), "--seed", &seat.to_string()])
                    .args(["--name", &format!("py{seat}")])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .expect("the client starts"),
            )
        })
        .collect();
    let deadline = Instant::now() + LIMIT;
    for mut seat in seats {
        let status = wait(&mut seat.0, deadline);
        let (mut out, mut err) = (String::new(), String::new());
        if let Some(mut pipe) = seat.0.stdout.take() {
            let _ = pipe.read_to_string(&mut out);
        }
        if let Some(mut pipe) = seat.0.stderr.take() {
            let _ = pipe.read_to_string(&mut err);
        }
        assert!(status.success(), "the client failed: {out}\n{err}");
        assert!(out.contains("token "), "{out}");
        assert!(
            out.contains("game 0 finished: scores ["),
            "no result in the client's output:\n{out}\n{err}"
        );
        assert!(out.trim_end().ends_with("bye"), "{out}");
    }
    let status = wait(&mut server.0, deadline);
    assert!(status.success(), "the server failed");
    let mut rest = String::new();
    let _ = lines.read_to_string(&mut rest);
    assert!(rest.contains("winners"), "the server's output: {rest}");
}
