#!/usr/bin/env python3
"""Atomic instructions a game executes, and where: a check for shared writes.

A write that threads share on the path of every move (a reference count of
the shared rules, a shared counter) is an atomic instruction: in Rust, safe
code reaches memory another thread touches only through atomics or locks.
This script runs `cardboard simulate FILE --jobs 1` under callgrind with
per-instruction counts, twice (1 game and 1 + N games), finds the binary's
atomic instructions (`lock`-prefixed ones, and `xchg` with memory) with
objdump, and prints the atomic instructions per game, by function. Each
function it names can then be read: an atomic on a value the thread made
itself (an `Arc` of the state's own move list, freed by the same thread) is
not shared; one on the rules' tables would be.

Instructions, not time: callgrind counts the same on a busy machine as on
an idle one, so this runs anywhere (valgrind and binutils are needed).

    bench/scaling/atomics.py target/release/cardboard games/agram.rcy 200
    bench/scaling/atomics.py BINARY FILE [GAMES] [--top K]
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

ATOMIC = re.compile(r"\s+([0-9a-f]+):\s+(lock |xchg\s+%\w+,[^(]*\()")


def atomic_addresses(binary):
    dis = subprocess.run(
        ["objdump", "-d", "--no-show-raw-insn", binary],
        capture_output=True, text=True, check=True,
    ).stdout
    return {int(m.group(1), 16) for m in map(ATOMIC.match, dis.splitlines()) if m}


def profile(binary, rules, games, out):
    subprocess.run(
        ["valgrind", "--tool=callgrind", "--dump-instr=yes", "--compress-pos=no",
         "--compress-strings=no", f"--callgrind-out-file={out}",
         binary, "simulate", rules, "--games", str(games), "--seed", "1", "--jobs", "1"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True,
    )


def count(out, binary, atomics):
    """Atomic instructions executed in the binary's own code, by function."""
    name = os.path.basename(binary)
    by_fn = collections.Counter()
    mine, fn, skip = False, "?", False
    with open(out) as f:
        for line in f:
            if line.startswith("ob="):
                mine = os.path.basename(line[3:].strip()) == name
            elif line.startswith("fn="):
                fn = line[3:].strip()
            elif line.startswith("calls="):
                skip = True  # the next line is the call's inclusive cost
            elif skip:
                skip = False
            elif mine and line.startswith("0x"):
                parts = line.split()  # address, line, Ir
                if len(parts) > 2 and int(parts[0], 16) in atomics:
                    by_fn[fn] += int(parts[2])
    return by_fn


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("binary")
    p.add_argument("rules")
    p.add_argument("games", type=int, nargs="?", default=100)
    p.add_argument("--top", type=int, default=8)
    a = p.parse_args()
    atomics = atomic_addresses(a.binary)
    with tempfile.TemporaryDirectory() as tmp:
        runs = []
        for n in (1, 1 + a.games):
            out = os.path.join(tmp, f"cg.{n}")
            profile(a.binary, a.rules, n, out)
            runs.append(count(out, a.binary, atomics))
    one, many = runs
    per_fn = {k: (v - one.get(k, 0)) / a.games for k, v in many.items()}
    total = sum(per_fn.values())
    print(f"{a.rules}: {total:.1f} atomic instructions a game ({a.games} games)")
    for fn, v in sorted(per_fn.items(), key=lambda kv: -kv[1])[: a.top]:
        if v >= 0.01:
            print(f"  {v:10.2f}  {fn[:120]}")


if __name__ == "__main__":
    sys.exit(main())
