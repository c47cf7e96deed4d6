//! `cardboard serve` and `cardboard join` as programs: the server prints
//! its URL and serves `/`; a person at `join` (here a script answering
//! each prompt with a move's number) plays a whole game against the
//! computer; the server prints the game's line, writes its record, and
//! exits; `look` before the game starts says so; a game that fails is
//! told with the rules file; seats all for the computer are refused.
//! Loopback only, bounded in time.

use cardboard::game::GameState;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
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
fn wait(child: &mut Child, deadline: Instant) -> ExitStatus {
    loop {
        if let Some(status) = child.try_wait().expect("waits") {
            return status;
        }
        assert!(Instant::now() < deadline, "the program did not end in time");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits for `child` to exit, at most until `deadline`, and reads what it
/// wrote on its standard error (a pipe).
fn wait_with_stderr(child: &mut Child, deadline: Instant) -> (ExitStatus, String) {
    let status = wait(child, deadline);
    let mut err = String::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = pipe.read_to_string(&mut err);
    }
    (status, err)
}

/// Starts `cardboard serve ARGS` and returns it with its URL and the rest
/// of its output (kept open while the test holds it: the server's lines
/// do not fail on a closed pipe; its standard error is a pipe too, left
/// in the child).
fn serve(args: &[&str]) -> (Guard, String, BufReader<ChildStdout>) {
    let mut server = Guard(
        cardboard()
            .arg("serve")
            .args(args)
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
    (server, url, lines)
}

/// [`serve`] on Agram for two players, with `--seats SEATS` and `more`
/// arguments.
fn serve_agram(seats: &str, more: &[&str]) -> (Guard, String, BufReader<ChildStdout>) {
    let mut args = vec!["games/agram.rcy", "--set", "NUMP=2", "--seats", seats];
    args.extend_from_slice(more);
    serve(&args)
}

/// `cardboard join URL ARGS`, started: its keyboard, and its screen as it
/// is printed.
struct Join {
    child: Guard,
    keyboard: ChildStdin,
    screen: mpsc::Receiver<String>,
}

/// Starts `cardboard join URL ARGS`.
fn join(url: &str, args: &[&str]) -> Join {
    let mut child = Guard(
        cardboard()
            .args(["join", url])
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("join starts"),
    );
    let keyboard = child.0.stdin.take().expect("stdin");
    let mut stdout = child.0.stdout.take().expect("stdout");
    let (tx, screen) = mpsc::channel::<String>();
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
    Join {
        child,
        keyboard,
        screen,
    }
}

/// Adds what `join` printed since the last call to `text`, waiting a
/// little for it; false once its output has ended.
fn read(screen: &mpsc::Receiver<String>, text: &mut String) -> bool {
    match screen.recv_timeout(Duration::from_millis(100)) {
        Ok(more) => {
            text.push_str(&more);
            true
        }
        Err(mpsc::RecvTimeoutError::Timeout) => true,
        Err(mpsc::RecvTimeoutError::Disconnected) => false,
    }
}

/// `cardboard join URL ARGS` with `script` piped into it (its input then
/// ends): its exit status and everything it printed.
fn join_script(url: &str, args: &[&str], script: &str, deadline: Instant) -> (ExitStatus, String) {
    let Join {
        mut child,
        mut keyboard,
        screen,
    } = join(url, args);
    keyboard.write_all(script.as_bytes()).expect("types");
    drop(keyboard);
    let mut text = String::new();
    while read(&screen, &mut text) {
        assert!(
            Instant::now() < deadline,
            "join did not end in time:\n{text}"
        );
    }
    (wait(&mut child.0, deadline), text)
}

#[test]
fn a_person_at_join_plays_a_game_served_by_serve() {
    let deadline = Instant::now() + LIMIT;
    let record = std::env::temp_dir().join(format!("cardboard-serve-{}.jsonl", std::process::id()));
    let (mut server, url, mut lines) = serve_agram(
        "remote,random",
        &["--seed", "5", "--record", record.to_str().expect("a path")],
    );
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
    let Join {
        mut child,
        mut keyboard,
        screen: printed,
    } = join(&url, &["--name", "ann"]);
    let mut screen = String::new();
    let mut answered = 0;
    while read(&printed, &mut screen) {
        assert!(
            Instant::now() < deadline,
            "the game did not end in time:\n{screen}"
        );
        let prompts = screen.matches("your move (number or text)> ").count();
        while answered < prompts {
            // A move typed that is not one is answered, and asked again.
            if answered == 0 {
                writeln!(keyboard, "fly").expect("types");
            }
            writeln!(keyboard, "0").expect("types");
            answered += 1;
        }
    }
    let status = wait(&mut child.0, deadline);
    assert!(status.success(), "join exits 0:\n{screen}");
    assert!(screen.contains("you are player 0 of 2"), "{screen}");
    assert!(screen.contains("`fly` is not one of the moves"), "{screen}");
    assert!(screen.contains("player 1 played: "), "{screen}");
    assert!(screen.contains("== the game is over =="), "{screen}");
    // The last card of the hand is a forced move: it plays itself.
    let forced = screen.matches("your only move, played for you: ").count();
    assert!(forced >= 1, "no forced move played by itself:\n{screen}");
    assert!(
        answered + forced >= 6,
        "{answered} moves typed, {forced} forced:\n{screen}"
    );
    // The result is told once.
    assert_eq!(screen.matches("Winners: ").count(), 1, "{screen}");

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

/// A whole script piped into `join` before the game starts: the lines
/// typed while it is not the seat's turn are kept, each for the seat's
/// next decision (a line that is no move is told so when its turn
/// comes), so the script plays the game to its end.
#[test]
fn a_script_piped_into_join_plays_the_whole_game() {
    let deadline = Instant::now() + LIMIT;
    let (_server, url, _lines) = serve_agram("random,remote", &["--seed", "8"]);
    let script = format!("look\nfly\n{}", "0\n".repeat(20));
    let (status, screen) = join_script(&url, &["--name", "script"], &script, deadline);
    assert!(status.success(), "{screen}");
    assert!(
        screen.contains("it is not your turn: `0` is kept for your next move"),
        "{screen}"
    );
    assert!(screen.contains("`fly` is not one of the moves"), "{screen}");
    assert!(screen.contains("== the game is over =="), "{screen}");
    assert!(
        screen.contains("the server has played its games"),
        "{screen}"
    );
    assert!(!screen.contains("end of input"), "{screen}");
}

/// `look` typed before the game starts (a second seat is still free)
/// says so, rather than nothing.
#[test]
fn look_before_the_game_starts_says_it_has_not_started() {
    let deadline = Instant::now() + LIMIT;
    let (_server, url, _lines) = serve_agram("remote,remote", &[]);
    let mut join = join(&url, &[]);
    writeln!(join.keyboard, "look").expect("types");
    let mut screen = String::new();
    // The answer to `look` and the server's welcome may come in either
    // order: `look` is answered by the client as soon as it is typed.
    while !(screen.contains("look at") && screen.contains("you are player 0 of 2")) {
        assert!(read(&join.screen, &mut screen), "join ended:\n{screen}");
        assert!(Instant::now() < deadline, "no answer to look:\n{screen}");
    }
    assert!(
        screen.contains("the game has not started yet: nothing to look at"),
        "{screen}"
    );
    assert!(!screen.contains("game 0 starts"), "{screen}");
}

/// A script shorter than the game: at the end of its lines `join` leaves
/// when it is asked for a move it has no line for.
#[test]
fn join_leaves_at_the_end_of_a_short_script() {
    let deadline = Instant::now() + LIMIT;
    let (_server, url, _lines) = serve_agram("remote,random", &[]);
    let (status, screen) = join_script(&url, &[], "0\n", deadline);
    assert!(status.success(), "{screen}");
    assert_eq!(
        screen.matches("your move (number or text)> ").count(),
        2,
        "{screen}"
    );
    assert!(
        screen.contains("end of input: leaving the game"),
        "{screen}"
    );
}

/// `serve --record` writes each game's record as the game ends: with
/// game 0 played and game 1 waiting for its player, the file holds game
/// 0, which replays.
#[test]
fn serve_writes_each_record_as_its_game_ends() {
    let deadline = Instant::now() + LIMIT;
    let record = std::env::temp_dir().join(format!("cardboard-each-{}.json", std::process::id()));
    let path = record.to_str().expect("a path");
    let (_server, url, _lines) = serve_agram("remote,random", &["--games", "2", "--record", path]);
    // Six moves for game 0, two of game 1 (every move asked, forced ones
    // too: `--no-auto-forced`), then the end of input: the player leaves
    // and game 1 waits. `join` counts games from 1.
    let (status, screen) = join_script(&url, &["--no-auto-forced"], &"0\n".repeat(8), deadline);
    assert!(status.success(), "{screen}");
    assert!(screen.contains("== game 2 starts =="), "{screen}");
    // The record is written by a thread of the server's: wait for it.
    let records = loop {
        let saved = std::fs::read_to_string(&record).unwrap_or_default();
        if let Ok(records) = cardboard::command::read_records(&saved) {
            break records;
        }
        assert!(Instant::now() < deadline, "no record written:\n{saved}");
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = std::fs::remove_file(&record);
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].game, Some(0));
    let rules = cardboard::engine::Rules::load(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("games/agram.rcy"),
    )
    .expect("loads");
    let replayed = records[0].replay(&rules).expect("replays");
    assert_eq!(replayed.state().status(), cardboard::game::Status::Finished);
}

/// A game that fails with a rules error ends for its players, and the
/// server tells it on its line and on standard error with the file, as
/// `run` does, and exits with code 1.
#[test]
fn a_game_that_fails_is_told_with_the_file() {
    let deadline = Instant::now() + LIMIT;
    let places = "tests/rules_errors/places.rcy";
    let (mut server, url, mut lines) =
        serve(&[places, "--set", "WHERE=6", "--seats", "remote,random"]);
    // The second decision's options cannot be listed.
    let (status, screen) = join_script(&url, &[], "0\n", deadline);
    assert!(status.success(), "{screen}");
    assert!(
        screen.contains("== the game ended: decision 2: "),
        "{screen}"
    );
    let (status, err) = wait_with_stderr(&mut server.0, deadline);
    assert_eq!(status.code(), Some(1), "{err}");
    let mut rest = String::new();
    lines.read_to_string(&mut rest).expect("reads");
    let why = "decision 2: option 3 of the choice at line 14, column 4 (player 1 to play): \
               line 17, column 13: division by zero in `//`";
    assert!(
        rest.ends_with(&format!("table 0 game 0: 1 commands, Failed: {why}\n")),
        "{rest}"
    );
    assert_eq!(err, format!("error: {places}: table 0 game 0: {why}\n"));
}

/// A server whose every seat is the computer's is refused at once: no
/// one could join, and its table would wait for ever.
#[test]
fn serve_refuses_seats_all_for_the_computer() {
    let deadline = Instant::now() + LIMIT;
    let mut server = Guard(
        cardboard()
            .args([
                "serve",
                "games/agram.rcy",
                "--set",
                "NUMP=2",
                "--seats",
                "random,mcts:5",
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("serve starts"),
    );
    let (status, err) = wait_with_stderr(&mut server.0, deadline);
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("error: games/agram.rcy: --seats gives every seat to the computer"),
        "{err}"
    );
}
