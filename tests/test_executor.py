"""The executor resumes a job from its checkpoints and runs tasks in a process pool."""

from __future__ import annotations

import math
import subprocess
import sys
import threading
import time
from concurrent.futures import process

import pytest

from setlab.executor import run_tasks
from setlab.store import Store


def test_pool_results_match_serial_results(tmp_path):
    tasks = {str(n): (n,) for n in range(12)}
    serial = run_tasks("fact-serial", tasks, math.factorial, workers=1)
    pooled = run_tasks("fact-pool", tasks, math.factorial, workers=2)
    assert serial == pooled == {str(n): math.factorial(n) for n in range(12)}


def test_a_finished_pool_job_leaves_no_pool_thread_running():
    # The pool's manager thread, left running after the job, raced the interpreter's exit and
    # printed "Exception ignored ... Bad file descriptor" after some finished research runs.
    assert run_tasks("fact-pool", {str(n): (n,) for n in range(12)}, math.factorial, workers=2)
    managers = [t for t in threading.enumerate() if isinstance(t, process._ExecutorManagerThread)]
    assert managers == []


def test_finished_tasks_are_not_run_again(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    store.finish_task("job", "3", "from an earlier run")
    calls = []

    def square(n):
        calls.append(n)
        return n * n

    result = run_tasks("job", {str(n): (n,) for n in range(5)}, square, store, workers=1)
    assert result["3"] == "from an earlier run"
    assert sorted(calls) == [0, 1, 2, 4]
    assert store.finished_tasks("job")["4"] == 16



def test_progress_counts_the_finished_tasks_from_the_checkpoints_on(tmp_path):
    """A caller's progress(done, total) starts at the tasks an earlier run finished and moves
    by one per task run now, ending at the total."""
    store = Store(tmp_path / "s.sqlite")
    store.finish_task("job", "3", 9)
    seen = []
    tasks = {str(n): (n,) for n in range(5)}
    run_tasks("job", tasks, abs, store, workers=2, progress=lambda *done: seen.append(done))
    assert seen == [(k, 5) for k in range(1, 6)]

_ORPHAN_SCRIPT = """
import os, sys, time
from setlab.executor import run_tasks

def sleep_and_report(path):
    with open(path, "a") as f:
        f.write(f"{os.getpid()}\\n")
    time.sleep(120)

path = sys.argv[1]
run_tasks("orphans", {"a": (path,), "b": (path,)}, sleep_and_report, workers=2)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split()[2] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal is Linux")
def test_pool_workers_die_with_a_killed_parent(tmp_path):
    """kill -9 of a running job leaves no worker process behind."""
    script = tmp_path / "job.py"
    script.write_text(_ORPHAN_SCRIPT)
    pids = tmp_path / "pids.txt"
    parent = subprocess.Popen([sys.executable, str(script), str(pids)])
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if pids.exists() and len(pids.read_text().split()) == 2:
                break
            time.sleep(0.1)
        workers = [int(p) for p in pids.read_text().split()]
        assert len(workers) == 2 and all(_alive(p) for p in workers)
    finally:
        parent.kill()
        parent.wait()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(_alive(p) for p in workers):
        time.sleep(0.1)
    assert not any(_alive(p) for p in workers)
