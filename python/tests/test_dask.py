"""The Dask example of docs/python.md ("On a Dask cluster") runs its shards
on a LocalCluster of two worker processes, and its merged report is the
unsharded run's (timing aside). It needs the `dask` extra (`pip install
'./python[dask]'`; `.ci/run` installs it) and is skipped, saying so, only
where Dask is absent."""

import re

import cardboard
import pytest
from conftest import REPO

pytest.importorskip(
    "dask.distributed",
    reason="Dask is not installed (the `dask` extra: pip install './python[dask]')",
)

TIMING = ("seconds", "games_per_second", "jobs")


def dask_example():
    blocks = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "python.md").read_text(), re.S)
    found = [b for b in blocks if "LocalCluster" in b]
    assert len(found) == 1, "docs/python.md has one Dask example"
    return found[0]


def test_the_dask_example_merges_to_the_whole_run():
    code = dask_example()
    assert "n_workers=2" in code, "the example's cluster has two workers"
    scope = {}
    exec(compile(code, "docs/python.md, the Dask example", "exec"), scope)
    report, n = scope["report"], scope["n"]
    whole = cardboard.simulate(scope["path"], scope["games"], seed=scope["seed"], rows=False)
    assert report["shards"] is None, "every shard came back"
    assert report["jobs"] == n, "each of the n shards ran on one thread"
    assert {k: v for k, v in report.items() if k not in TIMING} == {
        k: v for k, v in whole.items() if k not in TIMING
    }
