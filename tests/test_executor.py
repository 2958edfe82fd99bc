"""The executor resumes a job from its checkpoints and runs tasks in a process pool."""

from __future__ import annotations

import math

from setlab.executor import run_tasks
from setlab.store import Store


def test_pool_results_match_serial_results(tmp_path):
    tasks = {str(n): (n,) for n in range(12)}
    serial = run_tasks("fact-serial", tasks, math.factorial, workers=1)
    pooled = run_tasks("fact-pool", tasks, math.factorial, workers=2)
    assert serial == pooled == {str(n): math.factorial(n) for n in range(12)}


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
