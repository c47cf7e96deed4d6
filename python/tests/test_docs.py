"""Every Python example of docs/python.md runs (from the repository's root)."""

import re

import pytest
from conftest import REPO

BLOCKS = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "python.md").read_text(), re.S)


def test_the_guide_has_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index):
    exec(compile(BLOCKS[index], "docs/python.md example %d" % index, "exec"), {})
