//! Long calls that Ctrl-C interrupts: the work runs on a thread of its
//! own, off the GIL, while the calling thread waits for it (looking every
//! 0.2 ms whether it ended) a tenth of a second at a time and asks Python
//! for signals in between; on a signal
//! the work's cancel flag is raised, the work is waited for (it stops at
//! its next check), and the signal's exception (`KeyboardInterrupt`) is
//! raised.

use pyo3::prelude::*;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the waiting thread looks for a signal.
const POLL: Duration = Duration::from_millis(100);
/// How often, while waiting off the GIL, it looks whether the work ended.
const STEP: Duration = Duration::from_micros(200);

/// Runs `work` (given its cancel flag) and returns what it returns, or the
/// exception of a signal (Ctrl-C) that came while it ran.
pub(crate) fn interruptible<R: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> R + Send,
) -> PyResult<R> {
    let cancel = AtomicBool::new(false);
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let (cancel, finished) = (&cancel, &finished);
        let handle = scope.spawn(move || {
            let out = work(cancel);
            finished.store(true, Ordering::Release);
            out
        });
        let wait = || {
            let mut waited = Duration::ZERO;
            while !finished.load(Ordering::Acquire) && waited < POLL {
                std::thread::sleep(STEP);
                waited += STEP;
            }
        };
        while !finished.load(Ordering::Acquire) {
            py.detach(wait);
            if let Err(e) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                py.detach(|| {
                    let _ = handle.join();
                });
                return Err(e);
            }
        }
        handle
            .join()
            .map_err(|_| pyo3::exceptions::PyRuntimeError::new_err("the work panicked"))
    })
}

/// Whether `cancel` was raised.
pub(crate) fn cancelled(cancel: &AtomicBool) -> bool {
    cancel.load(Ordering::Relaxed)
}
