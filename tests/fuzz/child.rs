//! One run of the `cardboard` binary in a child process, bounded in time and
//! memory, and the verdict on how it ended.
//!
//! The memory bound is the child's address space (`ulimit -v`, set by `sh`
//! just before it `exec`s the binary, so the child is the binary itself and
//! nothing stays between it and us). An allocation past the bound fails, and
//! Rust aborts on a failed allocation: the child dies by `SIGABRT` with
//! "memory allocation of N bytes failed". The time bound is wall-clock time:
//! past it the child is killed.
//!
//! A clean end is exit code 0, 1 (a bad file, a rules error, a refused
//! position) or 2 (an unreadable file, a bad flag). Anything else is a
//! failure: a signal, a panic (exit code 101 when panics unwind, `SIGABRT`
//! when they abort), another exit code, a run over the time bound.

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The bounds every child runs under.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    pub time: Duration,
    pub memory_mb: u64,
}

/// How a child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// It exited with this code.
    Exit(i32),
    /// A signal ended it.
    Signal(i32),
    /// It ran past the time bound and was killed.
    Timeout,
}

/// A child's end and what it wrote to standard error (the first 16 KB).
#[derive(Clone, Debug)]
pub struct Outcome {
    pub end: End,
    pub stderr: String,
}

/// How much of a child's standard error is kept.
const STDERR_KEPT: usize = 16 * 1024;

/// Runs `program args` in the folder `cwd` under `bounds`, standard output
/// thrown away.
pub fn run(program: &Path, args: &[String], bounds: Bounds, cwd: &Path) -> Outcome {
    let script = format!(
        "ulimit -v {} && exec \"$0\" \"$@\"",
        bounds.memory_mb * 1024
    );
    let mut child = Command::new("sh")
        .arg("-c")
        .arg(script)
        .arg(program)
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start a child through sh");
    let mut pipe = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut kept = Vec::new();
        let mut buf = [0u8; 4096];
        while let Ok(n) = pipe.read(&mut buf) {
            if n == 0 {
                break;
            }
            let room = STDERR_KEPT.saturating_sub(kept.len());
            kept.extend_from_slice(&buf[..n.min(room)]);
        }
        kept
    });
    let start = Instant::now();
    let mut nap = Duration::from_millis(1);
    let end = loop {
        match child.try_wait().expect("wait for a child") {
            Some(status) => {
                break match (status.code(), status.signal()) {
                    (Some(code), _) => End::Exit(code),
                    (None, Some(signal)) => End::Signal(signal),
                    (None, None) => End::Exit(-1),
                };
            }
            None if start.elapsed() > bounds.time => {
                // Killing may race with the child's own end: either way it is over.
                let _ = child.kill();
                let _ = child.wait();
                break End::Timeout;
            }
            None => {
                std::thread::sleep(nap);
                nap = (nap * 2).min(Duration::from_millis(20));
            }
        }
    };
    let stderr = String::from_utf8_lossy(&reader.join().unwrap_or_default()).into_owned();
    Outcome { end, stderr }
}

impl Outcome {
    /// `None` for a clean end; for a failure, its class in a few words
    /// (what findings are grouped by): "panicked at src/x.rs:10:5: capacity
    /// overflow", "over the memory bound", "over the time bound", "signal 11".
    pub fn failure(&self) -> Option<String> {
        let panic = self.panic_line();
        match self.end {
            End::Exit(0..=2) => None,
            End::Timeout => Some("over the time bound".into()),
            _ if self.stderr.contains("memory allocation of") => {
                Some("over the memory bound".into())
            }
            End::Exit(101) | End::Signal(6) | End::Exit(134) if panic.is_some() => panic,
            End::Exit(code) => Some(format!("exit code {code}")),
            End::Signal(signal) => Some(match panic.or_else(|| self.first_line()) {
                Some(line) => format!("signal {signal}: {line}"),
                None => format!("signal {signal}"),
            }),
        }
    }

    /// The panic's place and message, numbers in the message left out so
    /// that one bug makes one class.
    fn panic_line(&self) -> Option<String> {
        let mut lines = self.stderr.lines();
        let head = lines.find(|l| l.contains("panicked at"))?;
        let place = head.split("panicked at").nth(1).unwrap_or("").trim();
        let message: String = lines
            .next()
            .unwrap_or("")
            .chars()
            .map(|c| if c.is_ascii_digit() { 'N' } else { c })
            .take(120)
            .collect();
        Some(format!("panicked at {place} {message}"))
    }

    fn first_line(&self) -> Option<String> {
        self.stderr
            .lines()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.chars().take(120).collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, time_ms: u64) -> Outcome {
        let bounds = Bounds {
            time: Duration::from_millis(time_ms),
            memory_mb: 1024,
        };
        run(
            Path::new("sh"),
            &["-c".into(), script.into()],
            bounds,
            Path::new("."),
        )
    }

    #[test]
    fn clean_ends_are_not_failures() {
        for code in [0, 1, 2] {
            let out = sh(&format!("echo no >&2; exit {code}"), 5000);
            assert_eq!(out.end, End::Exit(code));
            assert_eq!(out.stderr, "no\n");
            assert_eq!(out.failure(), None);
        }
    }

    #[test]
    fn panics_signals_and_hangs_are_failures() {
        let panic = sh(
            "echo \"thread 'main' panicked at src/a.rs:3:9:\" >&2; echo 'index 7 out of range' >&2; exit 101",
            5000,
        );
        assert_eq!(
            panic.failure().as_deref(),
            Some("panicked at src/a.rs:3:9: index N out of range")
        );
        let abort = sh("kill -ABRT $$", 5000);
        assert_eq!(abort.end, End::Signal(6));
        assert_eq!(abort.failure().as_deref(), Some("signal 6"));
        let oom = sh(
            "echo 'memory allocation of 8 bytes failed' >&2; kill -ABRT $$",
            5000,
        );
        assert_eq!(oom.failure().as_deref(), Some("over the memory bound"));
        assert_eq!(sh("exit 3", 5000).failure().as_deref(), Some("exit code 3"));
        let start = Instant::now();
        let hang = sh("exec sleep 10", 200);
        assert_eq!(hang.end, End::Timeout);
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_eq!(hang.failure().as_deref(), Some("over the time bound"));
    }
}
