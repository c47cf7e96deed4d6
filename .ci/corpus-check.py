#!/usr/bin/env python3
"""Corpus conformance: every RECYCLE program under ../shared/corpus must pass
`cardboard check` and play 100 random games with zero errors (a game stopped
at the decision limit is not an error). Prints mean decisions per game beside
the reference engine's figure from the corpus README. Exit 1 on any failure.

Usage: .ci/corpus-check.py [CORPUS_DIR] [--games N] [--bin PATH]
"""
import json
import pathlib
import re
import subprocess
import sys


def main() -> int:
    args = sys.argv[1:]
    games = 100
    binary = "target/release/cardboard"
    corpus = pathlib.Path("../shared/corpus")
    i = 0
    while i < len(args):
        if args[i] == "--games":
            games = int(args[i + 1]); i += 2
        elif args[i] == "--bin":
            binary = args[i + 1]; i += 2
        else:
            corpus = pathlib.Path(args[i]); i += 1
    files = sorted(corpus.glob("**/*.rcy"))
    if not files:
        print(f"no .rcy files under {corpus}")
        return 1
    reference = {}
    readme = corpus / "README.md"
    if readme.exists():
        for m in re.finditer(r"^\| (\S+\.rcy) \| ([0-9.]+) \|", readme.read_text(), re.M):
            reference[m.group(1)] = float(m.group(2))
    failures = []
    print(f"{'file':32} {'games':>5} {'done':>5} {'limit':>5} {'err':>4} {'mean dec':>9} {'ref':>8} {'ratio':>6}")
    for f in files:
        check = subprocess.run([binary, "check", str(f)], capture_output=True, text=True)
        if check.returncode != 0:
            failures.append(f"{f.name}: check failed\n{check.stderr}")
            print(f"{f.name:32} CHECK FAILED")
            continue
        sim = subprocess.run(
            [binary, "simulate", str(f), "--games", str(games), "--seed", "1", "--json"],
            capture_output=True, text=True)
        if sim.returncode != 0:
            failures.append(f"{f.name}: simulate exited {sim.returncode}\n{sim.stderr}")
            print(f"{f.name:32} SIMULATE FAILED")
            continue
        r = json.loads(sim.stdout)
        ref = reference.get(f.name)
        ratio = (r["mean_decisions"] / ref) if ref else float("nan")
        print(f"{f.name:32} {r['games']:5} {r['completed']:5} {r['stopped_at_limit']:5} {r['errors']:4} "
              f"{r['mean_decisions']:9.2f} {ref if ref else '-':>8} {ratio:6.2f}")
        if r["errors"]:
            failures.append(f"{f.name}: {r['errors']} errors: {r.get('first_errors')}")
    print(f"\n{len(files) - len(failures)} passed, {len(failures)} failed")
    for fail in failures:
        print("FAILED:", fail)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
