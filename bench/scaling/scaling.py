"""Processor time a game against simulate's --jobs: do threads slow each other?

Threads of `cardboard simulate` play separate games and share only what
does not change, so the processor time (user + system) a game takes must
not grow with the number of threads. A write to memory that all threads
share on the path of every move makes it grow, often many times over.
For each rules file, each binary and each J of --jobs, this plays J times
the one-thread number of games with J threads and prints the processor
milliseconds a game (the median of --repeats runs, binaries and Js
alternating) and its growth against one thread.

Pinning (on by default where the kernel says which processors share a
core): a run of J threads is pinned to J processors on J distinct
physical cores, so two threads never share one core's execution units
(hardware threads) and the J = 1 and J = 2 figures compare like with
like. `--no-pin` leaves placement to the scheduler.

    bench/scaling/scaling.py [BINARY ...] [--jobs 1 2 16] [--repeats 3]
        [--seconds 1] [--files FILE ...]

Run it on an otherwise idle machine with at least as many cores as the
largest J. See README.md.
"""

import argparse
import glob
import os
import platform
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# simulate hands games to threads 32 at a time (drivers/simulate.rs,
# CHUNK): J threads all work only with at least 32 J games.
CHUNK = 32

# A random game of chess runs to the 10,000 decisions of --max-decisions
# (seconds a game); a shorter limit keeps its runs as short as the others'.
EXTRA = {"examples/chess.rcy": ["--max-decisions", "100"]}


def physical_cores():
    """One processor per physical core, in order, from sysfs (None where
    the kernel does not say)."""
    allowed = sorted(os.sched_getaffinity(0))
    seen, firsts = set(), []
    for cpu in allowed:
        path = f"/sys/devices/system/cpu/cpu{cpu}/topology/thread_siblings_list"
        try:
            with open(path) as f:
                siblings = f.read().strip()
        except OSError:
            return None
        if siblings not in seen:
            seen.add(siblings)
            firsts.append(cpu)
    return firsts


def threads_per_core():
    cores = physical_cores()
    if not cores:
        return "unknown"
    return f"{len(os.sched_getaffinity(0)) / len(cores):g}"


def run(binary, path, games, jobs, cpus):
    """Plays `games` games with `jobs` threads; (processor s, wall s)."""
    cmd = [binary, "simulate", path, "--games", str(games), "--jobs", str(jobs),
           "--seed", "1", *EXTRA.get(path, [])]
    pre = (lambda: os.sched_setaffinity(0, cpus)) if cpus else None
    started = time.perf_counter()
    child = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, preexec_fn=pre)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    err = child.stderr.read().decode(errors="replace")
    child.stderr.close()
    if status != 0:
        sys.exit(f"{' '.join(cmd)} failed:\n{err}")
    return usage.ru_utime + usage.ru_stime, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binaries", nargs="*", default=["target/release/cardboard"])
    ap.add_argument("--jobs", nargs="+", type=int, default=[1, 2, 16])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="processor seconds a thread plays in one run (about)")
    ap.add_argument("--files", nargs="+",
                    default=sorted(glob.glob(os.path.join(ROOT, "games", "*.rcy")))
                    + sorted(glob.glob(os.path.join(ROOT, "examples", "*.rcy"))))
    ap.add_argument("--no-pin", action="store_true")
    args = ap.parse_args()
    files = [os.path.relpath(os.path.abspath(f), ROOT) for f in args.files]
    binaries = [os.path.abspath(b) for b in args.binaries]
    cores = None if args.no_pin else physical_cores()
    if cores is not None and len(cores) < max(args.jobs):
        print(f"# only {len(cores)} physical cores: runs of more threads are not pinned")

    def cpus_for(jobs):
        if cores is None or len(cores) < jobs:
            return None
        return cores[:jobs]

    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    print(f"# {os.cpu_count()} processors ({model}), hardware threads a core: "
          f"{threads_per_core()}, pinned: {'no' if cores is None else 'to distinct cores'}")
    print(f"# load before: {' '.join(open('/proc/loadavg').read().split()[:3])}")
    print(f"# each figure: median of {args.repeats} runs of about {args.seconds:g} "
          f"processor s a thread")
    print()
    print("| file | binary | threads | games | ms a game (median) | spread | "
          "growth against 1 | games/s (wall) |")
    print("|---|---|---:|---:|---:|---|---:|---:|")
    worst = {}
    for path in files:
        # Calibrate on the first binary: 32 games on one thread.
        cpu, _ = run(binaries[0], path, CHUNK, 1, cpus_for(1))
        per_game = max(cpu / CHUNK, 1e-6)
        games1 = max(CHUNK, int(args.seconds / per_game) // CHUNK * CHUNK)
        samples = {}
        for r in range(args.repeats):
            order = binaries if r % 2 == 0 else binaries[::-1]
            for jobs in args.jobs:
                for b in order:
                    cpu, wall = run(b, path, games1 * jobs, jobs, cpus_for(jobs))
                    samples.setdefault((b, jobs), []).append((cpu, wall))
        for b in binaries:
            base = None
            for jobs in args.jobs:
                runs = samples[(b, jobs)]
                games = games1 * jobs
                ms = [1000 * c / games for c, _ in runs]
                med = statistics.median(ms)
                rate = statistics.median(games / w for _, w in runs)
                if jobs == args.jobs[0]:
                    base = med
                growth = 100 * (med / base - 1)
                if jobs == 2:
                    worst[(path, b)] = growth
                print(f"| {path} | {os.path.basename(b)} | {jobs} | {games} | {med:.4f} | "
                      f"{min(ms):.4f}-{max(ms):.4f} | {growth:+.1f}% | {rate:,.{0 if rate >= 100 else 1}f} |",
                      flush=True)
    print()
    print(f"# load after: {' '.join(open('/proc/loadavg').read().split()[:3])}")
    if worst:
        over = [(p, os.path.basename(b), g) for (p, b), g in worst.items() if g > 5]
        print(f"# two threads against one: {len(worst) - len(over)} of {len(worst)} "
              f"within 5%" + ("" if not over else "; over: " + ", ".join(
                  f"{p} ({b}) {g:+.1f}%" for p, b, g in over)))


if __name__ == "__main__":
    main()
