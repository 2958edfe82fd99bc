"""What a finished command leaves in the results store: its results, never its checkpoints.

Searches and cap generations checkpoint every finished task, so an interrupted run resumes; once
the result they prove is recorded, the checkpoints have served and are dropped.
"""

from __future__ import annotations

import sqlite3

from setlab.cli import main
from setlab.extremal.caps import COUNT_TABLE_JOB
from setlab.extremal.search import CODE_VERSION
from setlab.store import Store


def checkpoint_jobs(path) -> set[str]:
    with sqlite3.connect(path) as db:
        return {job for (job,) in db.execute("SELECT job FROM checkpoints")}


def test_a_finished_search_leaves_no_checkpoints(tmp_path, capsys, monkeypatch):
    store = tmp_path / "s.sqlite"
    written: list[str] = []
    real = Store.finish_task

    def counting(self, job, task, payload):
        written.append(job)
        return real(self, job, task, payload)

    monkeypatch.setattr(Store, "finish_task", counting)
    assert main(["maxsets", "-p", "4", "-n", "8", "--store", str(store)]) == 0
    assert "proven by search" in capsys.readouterr().out
    assert any(job.startswith(f"{CODE_VERSION}/max/P4/") for job in written)  # it did checkpoint
    assert checkpoint_jobs(store) == set()


def test_finished_cap_commands_keep_their_results_only(tmp_path, capsys, monkeypatch):
    store = tmp_path / "s.sqlite"
    monkeypatch.setenv("SETLAB_STORE", str(store))
    assert main(["caps", "-p", "3", "count"]) == 0
    assert checkpoint_jobs(store) == {COUNT_TABLE_JOB}  # the count table itself, a result
    assert main(["caps", "-p", "3", "--values", "4"]) == 0  # the largest cap of 4^3 cards
    assert "proven maximal" in capsys.readouterr().out
    assert checkpoint_jobs(store) == {COUNT_TABLE_JOB}
