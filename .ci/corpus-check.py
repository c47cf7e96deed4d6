#!/usr/bin/env python3
"""Corpus conformance: every RECYCLE program under ../shared/corpus must pass
`cardboard check` and play 100 random games with zero errors (a game stopped
at the decision limit is not an error). Exit 1 on any failure.

It prints the mean decisions per game beside the reference engine's figure
from the corpus README. CardStock's simulator stops a game after 501
decisions (its CHOICELIMIT of 500) and averages those games in, so the
comparison is made with `--max-decisions 501` (`--limit` changes it); the
`limit` column then compares with the README's "games over 500".

Usage: .ci/corpus-check.py [CORPUS_DIR] [--games N] [--limit M] [--bin PATH]
"""
import json
import pathlib
import re
import subprocess
import sys


def main() -> int:
    args = sys.argv[1:]
    games = 100
    limit = 501
    binary = "target/release/cardboard"
    corpus = pathlib.Path("../shared/corpus")
    i = 0
    while i < len(args):
        if args[i] == "--games":
            games = int(args[i + 1]); i += 2
        elif args[i] == "--limit":
            limit = int(args[i + 1]); i += 2
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
    print(f"{'':32} {'':5} {'limit 10000':>11} {'':4} {'limit ' + str(limit):>16}")
    print(f"{'file':32} {'games':>5} {'done':>5} {'limit':>5} {'err':>4} {'>limit':>6} {'mean dec':>9} {'ref':>8} {'ratio':>6}")
    for f in files:
        check = subprocess.run([binary, "check", str(f)], capture_output=True, text=True)
        if check.returncode != 0:
            failures.append(f"{f.name}: check failed\n{check.stderr}")
            print(f"{f.name:32} CHECK FAILED")
            continue
        runs = {}
        for lim in (10000, limit):
            sim = subprocess.run(
                [binary, "simulate", str(f), "--games", str(games), "--seed", "1", "--json",
                 "--max-decisions", str(lim)],
                capture_output=True, text=True)
            if sim.returncode != 0:
                failures.append(f"{f.name}: simulate (limit {lim}) exited {sim.returncode}\n{sim.stderr}")
                break
            r = json.loads(sim.stdout)
            if r["completed"] + r["stopped_at_limit"] + r["errors"] != r["games"]:
                failures.append(f"{f.name}: games do not add up: {r}")
            if r["errors"]:
                failures.append(f"{f.name} (limit {lim}): {r['errors']} errors: {r.get('first_errors')}")
            runs[lim] = r
        if len(runs) < 2:
            print(f"{f.name:32} SIMULATE FAILED")
            continue
        full, capped = runs[10000], runs[limit]
        ref = reference.get(f.name)
        ratio = (capped["mean_decisions"] / ref) if ref else float("nan")
        print(f"{f.name:32} {full['games']:5} {full['completed']:5} {full['stopped_at_limit']:5} "
              f"{full['errors'] + capped['errors']:4} {capped['stopped_at_limit']:6} "
              f"{capped['mean_decisions']:9.2f} {ref if ref else '-':>8} {ratio:6.2f}")
    print(f"\n{len(files) - len(failures)} passed, {len(failures)} failed")
    for fail in failures:
        print("FAILED:", fail)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
