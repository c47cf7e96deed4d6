"""Every Python example of docs/python.md runs (from the repository's root);
the Dask example is run by test_dask.py, which also checks its report."""

import re

import pytest
from conftest import REPO

BLOCKS = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "python.md").read_text(), re.S)
BLOCKS = [b for b in BLOCKS if "LocalCluster" not in b]


def test_the_guide_has_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index):
    exec(compile(BLOCKS[index], "docs/python.md example %d" % index, "exec"), {})
