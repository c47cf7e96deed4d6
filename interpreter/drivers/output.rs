//! Where the command line writes: standard output through a writer that
//! checks every write, and standard error for messages.
//!
//! A reader that has gone away (`cardboard run FILE | head -1`) ends the
//! output quietly, as other command-line tools do: nothing more is written
//! and nothing is said. Any other failure (a full disk) is kept and told at
//! the end ([`Output::finish`]), and the command exits with
//! [`EXIT_OUTPUT`]. Output is flushed and checked before the exit, so a
//! transcript lost on the way is never reported as a success.

use std::io::{self, ErrorKind, Write};

/// Exit code when the output cannot be written (as for a file that cannot
/// be read: [`EXIT_UNREADABLE`](super::check::EXIT_UNREADABLE)).
pub const EXIT_OUTPUT: i32 = super::check::EXIT_UNREADABLE;

/// A checked writer: remembers whether its reader has gone and the first
/// failure, and writes nothing after either.
pub struct Output<W: Write> {
    inner: W,
    closed: bool,
    failed: Option<io::Error>,
}

impl<W: Write> Output<W> {
    /// Output going to `inner` (standard output, or a buffer in tests).
    pub fn new(inner: W) -> Output<W> {
        Output {
            inner,
            closed: false,
            failed: None,
        }
    }

    /// Writes `text`, unless the reader has gone or a write has failed.
    pub fn put(&mut self, text: &str) {
        if self.is_open() {
            let result = self.inner.write_all(text.as_bytes());
            self.note(result);
        }
    }

    /// Whether more output can still be written: false once the reader has
    /// gone or a write has failed (work done only to be shown can stop).
    pub fn is_open(&self) -> bool {
        !self.closed && self.failed.is_none()
    }

    /// Flushes what is buffered and says how the output went: `Ok` when it
    /// was all written or the reader went away, the first failure otherwise.
    pub fn finish(mut self) -> Result<(), io::Error> {
        if self.is_open() {
            let result = self.inner.flush();
            self.note(result);
        }
        match self.failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn note(&mut self, result: io::Result<()>) {
        match result {
            Ok(()) => {}
            Err(e) if e.kind() == ErrorKind::BrokenPipe => self.closed = true,
            Err(e) => self.failed = Some(e),
        }
    }
}

/// Writes `message` to standard error. Standard error is where
/// failures are told: when it cannot be written there is nowhere left to
/// tell that, so its failures are ignored (the exit code still says what
/// happened).
pub fn tell(message: std::fmt::Arguments) {
    let mut err = io::stderr().lock();
    let _ = err.write_fmt(message);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer that accepts `room` bytes and then fails with `kind`.
    struct Limited {
        written: Vec<u8>,
        room: usize,
        kind: ErrorKind,
    }

    impl Write for Limited {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.written.len() + buf.len() > self.room {
                return Err(io::Error::from(self.kind));
            }
            self.written.extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn limited(room: usize, kind: ErrorKind) -> Output<Limited> {
        Output::new(Limited {
            written: Vec::new(),
            room,
            kind,
        })
    }

    #[test]
    fn a_closed_reader_ends_the_output_quietly() {
        let mut out = limited(4, ErrorKind::BrokenPipe);
        out.put("abc");
        assert!(out.is_open());
        out.put("def");
        assert!(!out.is_open());
        out.put("g");
        assert_eq!(out.inner.written, b"abc");
        assert!(out.finish().is_ok());
    }

    #[test]
    fn a_full_disk_is_kept_and_told() {
        let mut out = limited(4, ErrorKind::StorageFull);
        out.put("abc");
        out.put("def");
        assert!(!out.is_open());
        out.put("g");
        let e = out.finish().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::StorageFull);
    }
}
