"""Shared test fixtures: a private results store per test, so tests never touch the user's."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _private_store(tmp_path, monkeypatch):
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "store.sqlite"))
    monkeypatch.setenv("SETLAB_WORKERS", "2")
