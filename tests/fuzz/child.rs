//! One run of the `cardboard` binary in a child process, bounded in time and
//! memory, and the verdict on how it ended.
//!
//! Both bounds are set by `sh` just before it `exec`s the binary, so the
//! child is the binary itself and nothing stays between it and us. The
//! memory bound is the child's address space (`ulimit -v`): an allocation
//! past it fails, and Rust aborts on a failed allocation, so the child dies
//! by `SIGABRT` with "memory allocation of N bytes failed". The time bound
//! is processor time (`ulimit -t`): past it the kernel ends the child with
//! `SIGXCPU` (the soft limit; the hard one, two seconds later, kills).
//! Processor time, not the clock, so that a machine busy with
//! other work does not turn a slow run into a failure; the clock is bounded
//! too, at [`WALL_FACTOR`] times the time bound, for a child that waits
//! instead of working: past that it is killed.
//!
//! A clean end is exit code 0, 1 (a bad file, a rules error, a refused
//! position) or 2 (an unreadable file, a bad flag, a full disk). Anything
//! else is a failure: a signal, a panic (exit code 101 when panics unwind,
//! `SIGABRT` when they abort), another exit code, a run over a bound.

use std::io::Read;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The bounds every child runs under.
#[derive(Clone, Copy, Debug)]
pub struct Bounds {
    /// Processor time (whole seconds are what `ulimit -t` sets: rounded up).
    pub time: Duration,
    /// Address space, in megabytes.
    pub memory_mb: u64,
    /// Time by the clock (in the campaign, [`WALL_FACTOR`] times `time`).
    pub wall: Duration,
}

/// How many times the time bound a child may take by the clock.
pub const WALL_FACTOR: u32 = 10;

/// `SIGXCPU`: the signal of a process over its processor time.
const SIGXCPU: i32 = 24;

/// How a child ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// It exited with this code.
    Exit(i32),
    /// A signal ended it.
    Signal(i32),
    /// It ran past the clock's bound and was killed.
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
/// thrown away. Exit code 125 (a failure) if the bounds cannot be set.
pub fn run(program: &Path, args: &[String], bounds: Bounds, cwd: &Path) -> Outcome {
    let seconds = bounds.time.as_secs() + u64::from(bounds.time.subsec_nanos() > 0);
    let script = format!(
        "ulimit -v {} && ulimit -S -t {} && ulimit -H -t {} || exit 125; exec \"$0\" \"$@\"",
        bounds.memory_mb * 1024,
        seconds.max(1),
        seconds.max(1) + 2
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
            None if start.elapsed() > bounds.wall => {
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
            End::Timeout | End::Signal(SIGXCPU) => Some("over the time bound".into()),
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

    /// Runs a shell script under a bound of `time_ms` of processor time
    /// and `wall_ms` by the clock.
    fn sh(script: &str, time_ms: u64, wall_ms: u64) -> Outcome {
        let bounds = Bounds {
            time: Duration::from_millis(time_ms),
            memory_mb: 1024,
            wall: Duration::from_millis(wall_ms),
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
            let out = sh(&format!("echo no >&2; exit {code}"), 5000, 60_000);
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
            60_000,
        );
        assert_eq!(
            panic.failure().as_deref(),
            Some("panicked at src/a.rs:3:9: index N out of range")
        );
        let abort = sh("kill -ABRT $$", 5000, 60_000);
        assert_eq!(abort.end, End::Signal(6));
        assert_eq!(abort.failure().as_deref(), Some("signal 6"));
        let oom = sh(
            "echo 'memory allocation of 8 bytes failed' >&2; kill -ABRT $$",
            5000,
            60_000,
        );
        assert_eq!(oom.failure().as_deref(), Some("over the memory bound"));
        assert_eq!(
            sh("exit 3", 5000, 60_000).failure().as_deref(),
            Some("exit code 3")
        );
        // The clock is generous: a loaded machine gives the loop a slice of a core.
        let spin = sh("while :; do :; done", 1000, 300_000);
        assert_eq!(spin.end, End::Signal(SIGXCPU));
        assert_eq!(spin.failure().as_deref(), Some("over the time bound"));
        // Killed by the wall-clock bound (a sleep left alone would end by
        // itself, exit 0, after 20 s): no assertion on the time it took,
        // which depends on the machine's load.
        let hang = sh("exec sleep 20", 1000, 500);
        assert_eq!(hang.end, End::Timeout);
        assert_eq!(hang.failure().as_deref(), Some("over the time bound"));
    }
}
