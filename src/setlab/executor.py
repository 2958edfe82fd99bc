"""Where tasks run: a process pool with a progress bar and per-task checkpoints.

A long computation is a *job* split into independent *tasks*, each a picklable top-level function
applied to JSON-serialisable arguments and returning a JSON-serialisable payload. Finished tasks
are checkpointed in the results store the moment they finish, so a job interrupted by Ctrl-C or
SIGKILL and started again loses at most the tasks that were running.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from collections.abc import Callable, Mapping
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from typing import Any

from tqdm import tqdm

from setlab.errors import SetlabError
from setlab.store import Store

__all__ = [
    "default_workers",
    "process_pool",
    "run_tasks",
]

_PR_SET_PDEATHSIG = 1
"""Linux prctl option: the signal a process receives when its parent dies."""


def default_workers() -> int:
    """Worker processes: ``$SETLAB_WORKERS`` if set, else the usable cores.

    Examples
    --------
    >>> os.environ["SETLAB_WORKERS"] = "3"
    >>> default_workers()
    3
    >>> os.environ["SETLAB_WORKERS"] = "abc"
    >>> default_workers()
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: SETLAB_WORKERS must be a whole number of worker processes, got 'abc'
    >>> del os.environ["SETLAB_WORKERS"]
    """
    text = os.environ.get("SETLAB_WORKERS", "").strip()
    if text:
        try:
            return max(1, int(text))
        except ValueError:
            raise SetlabError(
                f"SETLAB_WORKERS must be a whole number of worker processes, got {text!r}"
            ) from None
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _worker_start(parent: int) -> None:
    """Run in each pool worker as it starts: never outlive the parent, leave Ctrl-C to it.

    On Linux the kernel sends SIGKILL to the worker when the process that forked it dies (even by
    SIGKILL); if the parent died before this ran, the worker exits at once. SIGINT is ignored: the
    parent catches Ctrl-C and shuts the pool down, so no worker prints a traceback of its own.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    name = ctypes.util.find_library("c")
    if sys.platform.startswith("linux") and name:
        ctypes.CDLL(name, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(1)


def process_pool(workers: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that die with this one and leave Ctrl-C to it.

    Every pool of setlab comes from here, so no worker outlives a killed job.

    Examples
    --------
    >>> with process_pool(1) as pool:
    ...     pool.submit(abs, -3).result()
    3
    """
    return ProcessPoolExecutor(
        max_workers=workers, initializer=_worker_start, initargs=(os.getpid(),)
    )


def run_tasks(
    job: str,
    tasks: Mapping[str, tuple[Any, ...]],
    function: Callable[..., Any],
    store: Store | None = None,
    *,
    workers: int | None = None,
    description: str | None = None,
    summary: Callable[[dict[str, Any]], str] | None = None,
    executor: Executor | None = None,
) -> dict[str, Any]:
    """Run ``function(*tasks[key])`` for every key not yet finished; return all payloads by key.

    Parameters
    ----------
    job
        Name of the job in the store's checkpoint table (include every parameter in it).
    tasks
        Task key -> positional arguments.
    function
        A top-level (picklable) function.
    store
        Where to checkpoint; without one nothing survives an interruption.
    workers
        Pool size; 1 runs in this process (no pickling, easiest to debug).
    description, summary
        Progress-bar label, and a function of the payloads so far giving its postfix text
        (e.g. classes found).
    executor
        Any ``concurrent.futures`` executor to use instead of a local process pool.

    Examples
    --------
    >>> run_tasks("squares", {str(i): (i,) for i in range(4)}, abs, workers=1)
    {'0': 0, '1': 1, '2': 2, '3': 3}
    """
    done: dict[str, Any] = store.finished_tasks(job) if store is not None else {}
    todo = [key for key in tasks if key not in done]
    workers = default_workers() if workers is None else workers
    bar = tqdm(
        total=len(tasks),
        initial=len(tasks) - len(todo),
        desc=description or job,
        unit="task",
        file=sys.stderr,
        disable=None,  # silent when stderr is not a terminal
        leave=False,
    )

    def finish(key: str, payload: Any) -> None:
        done[key] = payload
        if store is not None:
            store.finish_task(job, key, payload)
        bar.update()
        if summary is not None:
            bar.set_postfix_str(summary(done), refresh=False)

    try:
        if workers == 1 and executor is None:
            for key in todo:
                finish(key, function(*tasks[key]))
        else:
            pool = executor or process_pool(workers)
            try:
                running: dict[Future[Any], str] = {
                    pool.submit(function, *tasks[key]): key for key in todo
                }
                while running:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in finished:
                        finish(running.pop(future), future.result())
            finally:
                if executor is None:
                    pool.shutdown(wait=False, cancel_futures=True)
    finally:
        bar.close()
    return {key: done[key] for key in tasks}
