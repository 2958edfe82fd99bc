"""Shared test fixtures: a private results store per test, so tests never touch the user's."""

from __future__ import annotations

import os
import sys
import tempfile

import pytest

# Each pytest-xdist worker compiles into a numba cache of its own. numba's cache is not safe for
# two processes saving the same function at once: each reads the index, picks the first free
# file number and writes the index back, so two workers saving different signatures of one
# kernel can leave an index that names the other signature's code. The tests' own subprocesses
# run inside one worker's turn and share its cache, as a user's commands share theirs.
if worker := os.environ.get("PYTEST_XDIST_WORKER"):
    base = os.environ.get("NUMBA_CACHE_DIR") or os.path.join(
        tempfile.gettempdir(), "setlab-numba-tests"
    )
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(base, worker)
    if "numba.core.config" in sys.modules:  # read the variable again
        sys.modules["numba.core.config"].reload_config()


@pytest.fixture(autouse=True)
def _private_store(tmp_path, monkeypatch):
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "store.sqlite"))
    monkeypatch.setenv("SETLAB_WORKERS", "2")
