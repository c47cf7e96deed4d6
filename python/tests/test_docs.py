"""Every Python example of docs/python.md runs (from the repository's root);
the Dask example is run by test_dask.py, which also checks its report."""

import re

import pytest
from conftest import REPO

BLOCKS = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "python.md").read_text(), re.S)
BLOCKS = [b for b in BLOCKS if "LocalCluster" not in b]

# An example that needs an optional extra says so on its first line:
# `# needs: pyspiel` (modules, comma-separated). Without them it is
# skipped, and the skip says which extra to install.
NEEDS = re.compile(r"#\s*needs:\s*(.+)")


def test_the_guide_has_examples():
    assert len(BLOCKS) >= 3


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_example_runs(index):
    needs = NEEDS.match(BLOCKS[index])
    for module in needs.group(1).split(",") if needs else []:
        pytest.importorskip(module.strip(), reason="the example needs %s (an extra)" % module.strip())
    exec(compile(BLOCKS[index], "docs/python.md example %d" % index, "exec"), {})
