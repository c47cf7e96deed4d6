#!/usr/bin/env python3
"""Corpus conformance: every RECYCLE program of a corpus folder must pass
`cardboard check` and play 100 random games with zero errors (a game stopped
at the decision limit is not an error). Exit 1 on any failure.

The corpus is CardStock's RECYCLE programs (github.com/mgoadric/cardstock,
folder CardStock/games): the project's developers have them beside the
repository in ../shared/corpus (the default folder); anyone else clones
CardStock and names its games folder with --listed, which checks the 63
programs named in .ci/corpus-reference.tsv (that folder holds more, some
unfinished) wherever they lie under it. Without --listed every .rcy file
under the folder is checked.

It prints the mean decisions per game beside the reference engine's figure
(from the corpus README.md when the folder has one, else from
.ci/corpus-reference.tsv). CardStock's simulator stops a game after 501
decisions (its CHOICELIMIT of 500) and averages those games in, so the
comparison is made with `--max-decisions 501` (`--limit` changes it); the
`limit` column then compares with the reference's "games over 500".

Usage: .ci/corpus-check.py [CORPUS_DIR] [--listed] [--games N] [--limit M] [--bin PATH]
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
    listed = False
    i = 0
    while i < len(args):
        if args[i] == "--listed":
            listed = True; i += 1
        elif args[i] == "--games":
            games = int(args[i + 1]); i += 2
        elif args[i] == "--limit":
            limit = int(args[i + 1]); i += 2
        elif args[i] == "--bin":
            binary = args[i + 1]; i += 2
        else:
            corpus = pathlib.Path(args[i]); i += 1
    table = pathlib.Path(__file__).with_name("corpus-reference.tsv")
    reference = {}
    for line in table.read_text().splitlines():
        if line and not line.startswith("#"):
            name, mean, _over = line.split("\t")
            reference[name] = float(mean)
    failures = []
    files = sorted(corpus.glob("**/*.rcy"))
    if listed:
        # Each listed name, the shallowest file of that name under the folder.
        by_name = {}
        for f in sorted(files, key=lambda f: (len(f.parts), str(f))):
            by_name.setdefault(f.name, f)
        files = [by_name[n] for n in sorted(reference) if n in by_name]
        for n in sorted(reference):
            if n not in by_name:
                failures.append(f"{n}: not found under {corpus}")
    if not files:
        print(f"no .rcy files under {corpus}")
        return 1
    readme = corpus / "README.md"
    if readme.exists():
        reference = {}
        for m in re.finditer(r"^\| (\S+\.rcy) \| ([0-9.]+) \|", readme.read_text(), re.M):
            reference[m.group(1)] = float(m.group(2))
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
    failed = {fail.split(":")[0].split(" ")[0] for fail in failures}
    passed = [f for f in files if f.name not in failed]
    print(f"\n{len(passed)} passed, {len(failed)} failed")
    for fail in failures:
        print("FAILED:", fail)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
