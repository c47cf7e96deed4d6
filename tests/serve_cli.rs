//! `cardboard serve` and `cardboard join` as programs: the server prints
//! its URL and serves `/`; a person at `join` (here a script answering
//! each prompt with a move's number) plays a whole game against the
//! computer; the server prints the game's line, writes its record, and
//! exits. Loopback only, bounded in time.

use cardboard::game::GameState;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const LIMIT: Duration = Duration::from_secs(120);

fn cardboard() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_cardboard"));
    command.current_dir(env!("CARGO_MANIFEST_DIR"));
    command
}

/// Kills the child when the test ends, however it ends.
struct Guard(Child);

impl Drop for Guard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Waits for `child` to exit, at most until `deadline`.
fn wait(child: &mut Child, deadline: Instant) -> std::process::ExitStatus {
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            return status;
        }
        assert!(Instant::now() < deadline, "the program did not end in time");
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_person_at_join_plays_a_game_served_by_serve() {
    let deadline = Instant::now() + LIMIT;
    let record = std::env::temp_dir().join(format!("cardboard-serve-{}.jsonl", std::process::id()));
    let mut server = Guard(
        cardboard()
            .args([
                "serve",
                "games/agram.rcy",
                "--set",
                "NUMP=2",
                "--seats",
                "remote,random",
                "--seed",
                "5",
            ])
            .arg("--record")
            .arg(&record)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
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
    let mut page_line = String::new();
    lines.read_line(&mut page_line).expect("the page line");
    assert!(
        page_line.starts_with("page: http://127.0.0.1:"),
        "{page_line}"
    );

    // `/` answers a page.
    let addr = url.trim_start_matches("ws://").trim_end_matches("/ws");
    let mut http = std::net::TcpStream::connect(addr).expect("connects");
    http.set_read_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    write!(
        http,
        "GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("asks");
    let mut page = String::new();
    let _ = http.read_to_string(&mut page);
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
    assert!(page.contains("/ws"));

    // The player: answers every prompt with move 0.
    let mut join = Guard(
        cardboard()
            .args(["join", &url, "--name", "ann"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("join starts"),
    );
    let mut stdin = join.0.stdin.take().expect("stdin");
    let mut stdout = join.0.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        let mut buffer = [0u8; 4096];
        while let Ok(n) = stdout.read(&mut buffer) {
            if n == 0
                || tx
                    .send(String::from_utf8_lossy(&buffer[..n]).into_owned())
                    .is_err()
            {
                break;
            }
        }
    });
    let mut screen = String::new();
    let mut answered = 0;
    loop {
        match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(text) => screen.push_str(&text),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
        }
        assert!(
            Instant::now() < deadline,
            "the game did not end in time:\n{screen}"
        );
        let prompts = screen.matches("your move (number or text)> ").count();
        while answered < prompts {
            // A move typed that is not one is answered, and asked again.
            if answered == 0 {
                writeln!(stdin, "fly").expect("types");
            }
            writeln!(stdin, "0").expect("types");
            answered += 1;
        }
    }
    let status = wait(&mut join.0, deadline);
    assert!(status.success(), "join exits 0:\n{screen}");
    assert!(screen.contains("you are player 0 of 2"), "{screen}");
    assert!(screen.contains("`fly` is not one of the moves"), "{screen}");
    assert!(screen.contains("player 1 played: "), "{screen}");
    assert!(screen.contains("== the game is over =="), "{screen}");
    assert!(answered >= 6, "{answered} moves played:\n{screen}");

    let status = wait(&mut server.0, deadline);
    assert!(status.success());
    let mut rest = String::new();
    lines.read_to_string(&mut rest).expect("reads");
    assert!(
        rest.starts_with("table 0 game 0: 12 commands, scores"),
        "{rest}"
    );
    let saved = std::fs::read_to_string(&record).expect("the record is written");
    let _ = std::fs::remove_file(&record);
    let records = cardboard::command::read_records(&saved).expect("a record");
    assert_eq!(records.len(), 1, "{saved}");
    let record = &records[0];
    assert_eq!(record.commands.len(), 12);
    assert_eq!(record.seats, ["remote", "random"]);
    assert_eq!((record.table, record.game), (Some(0), Some(0)));
    let rules = cardboard::engine::Rules::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/agram.rcy"),
    )
    .expect("loads");
    let replayed = record.replay(&rules).expect("replays");
    assert_eq!(replayed.state().status(), cardboard::game::Status::Finished);
}
