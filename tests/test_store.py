"""The results store keeps the best witness and bound, survives reopening and failed writes."""

from __future__ import annotations

import pytest

from setlab.cli import main
from setlab.errors import SetlabError
from setlab.store import Store


def test_best_witness_and_bound_are_kept(tmp_path):
    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        assert store.record_witness("maxsets", 4, 12, "max", 13, range(12), "first")
        assert store.record_witness("maxsets", 4, 12, "max", 14, range(1, 13), "better")
        assert not store.record_witness("maxsets", 4, 12, "max", 12, range(12), "worse")
        assert store.record_bound("maxsets", 4, 12, "max", 20, {"why": "loose"}, "a")
        assert store.record_bound("maxsets", 4, 12, "max", 14, {"why": "tight"}, "b")
        assert not store.record_bound("maxsets", 4, 12, "max", 15, {"why": "worse"}, "c")
    with Store(path) as store:
        result = store.get("maxsets", 4, 12)
        assert result.value == 14 and result.witness == list(range(1, 13))
        assert result.witness_method == "better"
        assert result.bound == 14 and result.proof["why"] == "tight" and result.proven
        assert "numpy" in result.proof["software"]


def test_min_problems_keep_the_smallest_value(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        store.record_witness("minsets", 4, 30, "min", 9, range(30), "a")
        store.record_witness("minsets", 4, 30, "min", 7, range(30), "b")
        assert store.get("minsets", 4, 30).value == 7
        with pytest.raises(SetlabError, match="min problem"):
            store.record_witness("minsets", 4, 30, "max", 7, range(30), "c")


def test_a_failed_write_leaves_the_store_unchanged(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        store.record_witness("maxsets", 3, 9, "max", 12, range(9), "a")
        with pytest.raises(TypeError):
            store.record_witness("maxsets", 3, 9, "max", 13, [object()], "broken")
        assert store.get("maxsets", 3, 9).value == 12


def test_checkpoints(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        store.finish_task("job", "a", {"classes": 3})
        store.finish_task("job", "b", [1, 2])
        assert store.finished_tasks("job") == {"a": {"classes": 3}, "b": [1, 2]}
        store.forget_job("job")
        assert store.finished_tasks("job") == {}


def test_remembered_work_is_done_once_per_store_file(tmp_path):
    """The first run computes and keeps the payload; a later Store on the same file reads it
    (as JSON: a tuple comes back a list), another task or job computes again, and a failed
    computation keeps nothing."""
    calls = []

    def compute(value):
        calls.append(value)
        return value, {"k": [1, 2]}

    path = tmp_path / "s.sqlite"
    with Store(path) as store:
        assert store.remembered("job-v1/x", "7", lambda: compute(7)) == (7, {"k": [1, 2]})
    with Store(path) as store:
        assert store.remembered("job-v1/x", "7", lambda: compute(8)) == [7, {"k": [1, 2]}]
        store.remembered("job-v1/x", "8", lambda: compute(8))
        store.remembered("job-v2/x", "7", lambda: compute(9))
        with pytest.raises(ZeroDivisionError):
            store.remembered("job-v1/x", "9", lambda: 1 / 0)
        assert calls == [7, 8, 9] and "9" not in store.finished_tasks("job-v1/x")


def test_a_kept_job_replaces_only_its_own_older_generations(tmp_path):
    """A new generation of a kept job drops the same family and part under another version or
    digest, and nothing else: not the other P, not a family whose name starts the same, not the
    search levels (resumable, not kept) nor any other job."""
    jobs = [
        "split-v5/P5/0123abcd", "split-v6/P5/4567ef01", "split-v6/P4/89ab", "split-v6/P5/fe01",
        "split-maxima-v2/AG(4,3)/cd01", "split-guide-v1/AG(4,3)", "anneal-min-v1/P5",
        "anneal-min-v0/P5", "bounds-v1/P5/aa", "search-v3/max/P5/level3/ab12",
        "caps-generate-P5-V3-targetNone/level2", "caps-count-table", "walk-P3",
    ]  # fmt: skip
    with Store(tmp_path / "s.sqlite") as store:
        for job in jobs:
            store.finish_task(job, "t", job)
        assert store.forget_superseded("split-v6/P5/fe01") == 2
        assert store.forget_superseded("anneal-min-v1/P5") == 1
        assert store.forget_superseded("search-v3/max/P5/level3/ab12") == 0  # not a kept job
        left = [job for job in jobs if store.finished_tasks(job)]
        gone = {"split-v5/P5/0123abcd", "split-v6/P5/4567ef01", "anneal-min-v0/P5"}
        assert left == [job for job in jobs if job not in gone]


def test_a_file_that_is_not_a_store_is_a_clear_error(tmp_path):
    path = tmp_path / "junk.sqlite"
    path.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(SetlabError, match="cannot open results store"):
        Store(path)


def test_a_store_where_no_directory_can_be_made_is_a_clear_error(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(SetlabError, match="cannot open results store"):
        Store(blocker / "sub" / "store.sqlite")
    assert main(["verify", "--store", str(blocker / "store.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: argument --store: not a directory: {blocker}"), err
    assert err.count("\n") == 1


def _open_at(path: str, start: float, out) -> None:
    import os
    import time

    while time.time() < start:  # all at one instant
        pass
    try:
        Store(path).finish_task("job", f"task {os.getpid()}", {"done": True})
        out.put("ok")
    except SetlabError as error:
        out.put(str(error))


def test_processes_opening_a_new_store_at_once_all_get_it(tmp_path):
    """A job's workers and its parent create a new store together: each switches it to WAL and
    makes the tables. SQLite refuses a lock two of them would wait for in turn at once ("database
    is locked", about one opening in eleven here before); the opening is tried again instead."""
    import multiprocessing
    import time

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("needs fork")
    context = multiprocessing.get_context("fork")
    answers = []
    for trial in range(10):
        path = str(tmp_path / f"new{trial}.sqlite")
        out = context.Queue()
        start = time.time() + 0.2
        workers = [context.Process(target=_open_at, args=(path, start, out)) for _ in range(4)]
        for worker in workers:
            worker.start()
        answers += [out.get(timeout=120) for _ in workers]
        for worker in workers:
            worker.join()
        assert len(Store(path).finished_tasks("job")) == 4
    assert answers == ["ok"] * 40
