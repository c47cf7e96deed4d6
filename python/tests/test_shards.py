"""Shards from Python: `simulate(..., shard=(k, n))` plays the games of
`cardboard simulate --shard k/n`, and `cardboard.merge` of the n shards'
reports is the whole run's report (timing aside), as `cardboard merge`
makes it."""

import json
import subprocess

import cardboard
import pytest
from conftest import binary

# The fields that measure time or threads: the only ones a merge changes
# (the binary's own test, tests/report.rs, leaves out the same three).
TIMING = ("seconds", "games_per_second", "jobs")

# Three seats of a card game (ties and games of varied length), a number of
# games that the shards do not divide evenly.
PATH, GAMES, SEED, SET = "games/agram.rcy", 101, 4, {"NUMP": 3}


def without_timing(report):
    report = dict(report)
    for key in TIMING:
        assert key in report, "the report has %s" % key
        del report[key]
    return report


def cli(*args):
    out = subprocess.run([binary(), *args], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def python_shards(n, **kw):
    return [
        cardboard.simulate(PATH, GAMES, seed=SEED, jobs=1, shard=(k, n), dataframe=False, **SET, **kw)
        for k in range(n)
    ]


@pytest.mark.parametrize("n", [1, 3, 4])
def test_merged_shards_are_the_whole_run(n, tmp_path):
    whole = cardboard.simulate(PATH, GAMES, seed=SEED, jobs=2, dataframe=False, **SET)
    shards = python_shards(n)
    assert sum(s["games"] for s in shards) == GAMES
    if n > 1:
        assert [s["shards"] for s in shards] == [{"of": n, "played": [k]} for k in range(n)]
    merged = cardboard.merge(shards)
    assert without_timing(merged) == without_timing(whole)
    assert merged["seconds"] == pytest.approx(sum(s["seconds"] for s in shards))
    # The rows of the shards, together in game order, are the whole run's.
    assert merged.rows == whole.rows
    # Any order, and merged in two steps.
    assert without_timing(cardboard.merge(shards[::-1])) == without_timing(whole)
    if n > 2:
        front, back = cardboard.merge(shards[:2]), cardboard.merge(shards[2:])
        assert front["shards"] == {"of": n, "played": [0, 1]}
        assert without_timing(cardboard.merge([back, front])) == without_timing(whole)

    # The binary plays the same shards, and its merge of the Python shards'
    # reports is the Python merge.
    args = [PATH, "--games", str(GAMES), "--seed", str(SEED), "--set", "NUMP=3", "--json"]
    files = []
    for k, report in enumerate(shards):
        cli_shard = cli("simulate", *args, "--shard", "%d/%d" % (k, n))
        assert without_timing(cli_shard) == without_timing(report)
        files.append(tmp_path / ("shard-%d.json" % k))
        files[-1].write_text(json.dumps(report))
    by_cli = cli("merge", *map(str, files), "--json")
    assert without_timing(by_cli) == without_timing(merged)
    # The binary's report files merge in Python (JSON texts or dicts).
    texts = [f.read_text() for f in files]
    assert without_timing(cardboard.merge(texts)) == without_timing(merged)
    assert cardboard.merge(texts).rows is None


def test_shard_as_text_and_dataframe():
    pandas = pytest.importorskip("pandas")
    parts = [cardboard.simulate(PATH, 20, seed=SEED, shard="%d/2" % k, **SET) for k in range(2)]
    assert all(isinstance(p.rows, pandas.DataFrame) for p in parts)
    merged = cardboard.merge(parts)
    assert list(merged.rows["game"]) == list(range(20))


def test_merge_refuses_other_runs_and_shards_twice():
    shards = python_shards(2, rows=False)
    with pytest.raises(ValueError, match="shard 0 is in two of the reports"):
        cardboard.merge([shards[0], shards[0]])
    other_seed = cardboard.simulate(PATH, GAMES, seed=SEED + 1, shard=(1, 2), rows=False, **SET)
    with pytest.raises(ValueError, match="another run"):
        cardboard.merge([shards[0], other_seed])
    other_count = cardboard.simulate(PATH, GAMES, seed=SEED, shard=(1, 3), rows=False, **SET)
    with pytest.raises(ValueError, match="shard count"):
        cardboard.merge([shards[0], other_count])
    with pytest.raises(ValueError, match="nothing to merge"):
        cardboard.merge([])
    with pytest.raises(ValueError, match="report 2"):
        cardboard.merge([shards[0], "{not json"])


@pytest.mark.parametrize("shard", [(2, 2), (-1, 2), (0, 0), "1", "a/b", (1.0, 2), (True, 2), (0, 1, 2)])
def test_bad_shards(shard):
    with pytest.raises(ValueError, match="shard"):
        cardboard.simulate(PATH, 10, shard=shard)
