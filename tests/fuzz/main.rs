//! A mutation fuzzer for cardboard: mutants of the shipped games, of the
//! rules files under `tests/` and of positions saved from the shipped games,
//! each run through the `cardboard` binary in a child process bounded in
//! time and memory. A mutant fails when a child panics, dies by a signal
//! (an abort included), exits with a code other than 0, 1 or 2, runs past
//! the time bound or allocates past the memory bound. Clean errors are what
//! bad input should get, and pass.
//!
//! `cargo test` runs a bounded campaign: [`BOUNDED_MUTANTS`] mutants of
//! seed 1, with [`NUMBERS_IN_TEST`]. A long one, with the release binary:
//!
//! ```sh
//! FUZZ_MUTANTS=100000 FUZZ_SEED=7 cargo test --release --test fuzz -- --nocapture
//! ```
//!
//! Settings, all optional, from the environment:
//! - `FUZZ_SEED`: the campaign's seed (default 1);
//! - `FUZZ_MUTANTS`: how many mutants (default [`BOUNDED_MUTANTS`]);
//! - `FUZZ_MUTANT`: run only this mutant, printing every command and how it
//!   ended (to reproduce a failure: the report prints this line);
//! - `FUZZ_JOBS`: children run at once (default 2);
//! - `FUZZ_TIMEOUT`: seconds of processor time a child may use (default 10;
//!   by the clock it may take ten times that);
//! - `FUZZ_MEMORY`: megabytes of address space a child may map (default 1024);
//! - `FUZZ_NUMBERS`: `all` for every kind of number (huge ones, `i64`'s
//!   limits and past them) or `small` (at most 10 either way);
//! - `FUZZ_CORPUS`: a folder of more rules files to mutate (such as the
//!   RECYCLE corpus);
//! - `FUZZ_OUT`: where mutants are written (default `target/tmp/fuzz`);
//! - `FUZZ_BIN`: the `cardboard` binary to run (default the one Cargo built
//!   with this test; a copy stays the same while Cargo builds again).
//!
//! Mutant `i` of seed `s` is drawn from a generator seeded with
//! `splitmix64(s, i)` alone, so it can be made again by itself; a failing
//! mutant is written to `FUZZ_OUT/failures/`, and the report prints the
//! command that failed and how to run that mutant again.

mod campaign;
mod child;
mod lex;
mod mutate;

use campaign::{Campaign, Settings};
use mutate::Numbers;

/// The mutants `cargo test` tries: every kind of edit on every shipped game
/// several times, in some 20 s of a debug build on two cores.
const BOUNDED_MUTANTS: u64 = 200;

/// The numbers of `cargo test`'s campaign: all of them, huge ones and
/// `i64`'s limits included. (While overflowing sizes, run's quadratic
/// transcript and perft's copies of the root were being fixed it was small
/// numbers only; `Numbers::Small` is there for such a time.)
const NUMBERS_IN_TEST: Numbers = Numbers::All;

#[test]
fn mutants_end_cleanly() {
    let settings = Settings::from_env(BOUNDED_MUTANTS, NUMBERS_IN_TEST);
    let report = Campaign::new(settings).run();
    println!("{}", report.summary());
    assert!(
        report.failures() == 0,
        "{} mutants failed (see above)",
        report.failures()
    );
}
