"""Shared helpers of the package's tests: the repository's rules files and
the `cardboard` binary the tests compare the package with."""

import os
import pathlib

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

# Every shipped game and example (the tests play each of them).
RULES = sorted(
    str(p.relative_to(REPO)) for d in ("games", "examples") for p in (REPO / d).glob("*.rcy")
)


def binary():
    """The `cardboard` binary: $CARDBOARD_BIN, else the repository's release
    or debug build. A test that needs it fails (it does not skip) without
    one: build it with `cargo build --release`."""
    candidates = [os.environ.get("CARDBOARD_BIN")] + [
        str(REPO / "target" / kind / "cardboard") for kind in ("release", "debug")
    ]
    for c in candidates:
        if c and os.access(c, os.X_OK):
            return c
    pytest.fail("no cardboard binary: set CARDBOARD_BIN or run `cargo build --release`")


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    """Paths in the tests are relative to the repository's root."""
    monkeypatch.chdir(REPO)
