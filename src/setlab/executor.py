"""Where tasks run: a process pool or a Dask cluster, with a progress bar and per-task checkpoints.

A long computation is a *job* split into independent *tasks*, each a picklable top-level function
applied to JSON-serialisable arguments and returning a JSON-serialisable payload. Finished tasks
are checkpointed in the results store the moment they finish, so a job interrupted by Ctrl-C or
SIGKILL and started again loses at most the tasks that were running. Tasks run in this process,
in a local pool, or (given a scheduler address) on a Dask distributed cluster.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import signal
import socket
import sys
from collections.abc import Callable, Mapping
from concurrent.futures import (
    FIRST_COMPLETED,
    Executor,
    Future,
    ProcessPoolExecutor,
    ThreadPoolExecutor,
    wait,
)
from typing import Any

from tqdm import tqdm

from setlab.errors import SetlabError
from setlab.store import Store

__all__ = [
    "SCHEDULER_TIMEOUT",
    "check_scheduler",
    "connect",
    "default_scheduler",
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
    >>> os.environ["SETLAB_WORKERS"] = "0"
    >>> default_workers()
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: SETLAB_WORKERS must be a whole number of workers, 1 or more, got '0'
    >>> del os.environ["SETLAB_WORKERS"]
    """
    text = os.environ.get("SETLAB_WORKERS", "").strip()
    if text:
        if not text.isdigit() or int(text) < 1:
            raise SetlabError(
                f"SETLAB_WORKERS must be a whole number of workers, 1 or more, got {text!r}"
            )
        return int(text)
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


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the workers of ``pool`` now, abandoning their tasks.

    A worker ignores Ctrl-C and the pool has no public way to stop a running task, so without
    this an interrupted command would wait, at exit, for every running task to finish.
    """
    workers = list((getattr(pool, "_processes", None) or {}).values())  # no public name
    for worker in workers:
        if worker.is_alive():
            worker.terminate()
    for worker in workers:
        worker.join(timeout=5)
        if worker.is_alive():  # SIGTERM not acted on in time (a loaded machine): SIGKILL
            worker.kill()
            worker.join(timeout=5)


# -- a Dask cluster -------------------------------------------------------------------------------

SCHEDULER_TIMEOUT = 5.0
"""Seconds to reach a Dask scheduler before giving up with one line."""

TASK_RETRIES = 2
"""Times Dask runs a task again after it raised (a worker that dies mid-task is separate: the
scheduler reruns its tasks elsewhere, up to its ``allowed-failures``)."""

_ADDRESS = re.compile(
    r"(?:(tcp|tls|ws|wss)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9][A-Za-z0-9.-]*):(\d+)"
)
_clients: dict[str, Any] = {}
"""One ``distributed.Client`` per scheduler address, reused by every job of this process."""


def default_scheduler() -> str | None:
    """The Dask scheduler address in ``$SETLAB_SCHEDULER``, checked; None when unset or empty.

    Examples
    --------
    >>> os.environ["SETLAB_SCHEDULER"] = "127.0.0.1:8786"
    >>> default_scheduler()
    'tcp://127.0.0.1:8786'
    >>> del os.environ["SETLAB_SCHEDULER"]
    >>> default_scheduler() is None
    True
    """
    text = os.environ.get("SETLAB_SCHEDULER", "").strip()
    return check_scheduler(text) if text else None


def check_scheduler(address: str) -> str:
    """``address`` as ``PROTOCOL://HOST:PORT`` if it names a Dask scheduler, else refuse.

    The protocol is ``tcp`` (the default when left out), ``tls``, ``ws`` or ``wss``; the host
    a name or an IP address (IPv6 in brackets); the port 1..65535. Only the syntax is checked.

    Examples
    --------
    >>> check_scheduler("tcp://10.0.0.5:8786"), check_scheduler("node7:8786")
    ('tcp://10.0.0.5:8786', 'tcp://node7:8786')
    >>> check_scheduler("http://node7")
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: not a Dask scheduler address: 'http://node7' (expected tcp://HOST:PORT)
    """
    match = _ADDRESS.fullmatch(address.strip())
    if match is None or not 1 <= int(match[3]) <= 65535:
        raise SetlabError(f"not a Dask scheduler address: {address!r} (expected tcp://HOST:PORT)")
    return f"{match[1] or 'tcp'}://{match[2]}:{int(match[3])}"


def connect(address: str, timeout: float = SCHEDULER_TIMEOUT) -> Any:
    """A ``distributed.Client`` of the scheduler at ``address``, made once per process.

    Prints the scheduler's dashboard address (when it serves one) on stderr. An unreachable
    scheduler is a :class:`~setlab.errors.SetlabError` at once when refused and after ``timeout``
    seconds when silent, never a hang. Dask is imported here, so a local run never loads it.

    Examples
    --------
    >>> try:
    ...     connect("tcp://127.0.0.1:1")
    ... except SetlabError as error:
    ...     print(error)
    cannot reach the Dask scheduler at tcp://127.0.0.1:1: Connection refused
    """
    address = check_scheduler(address)
    client = _clients.get(address)
    if client is not None and client.status == "running":
        return client
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - distributed is a dependency
        raise SetlabError("running on a Dask cluster needs the 'distributed' package") from None
    # Ask the address who it is first: a Client that fails half-way leaves a thread that hangs
    # at exit, and a server that is not Dask's can answer with anything (even a huge frame size).
    try:
        if address.startswith("tcp://"):  # a refused connection fails now, not after timeout
            host, port = address[len("tcp://") :].rsplit(":", 1)
            socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
        # in a thread of its own: the caller may be running an event loop (a notebook)
        with ThreadPoolExecutor(1) as thread:
            import asyncio  # only to ask a scheduler who it is

            identity = thread.submit(asyncio.run, _identity(address, timeout)).result()
    except OSError as error:  # refused, unknown host, or no answer in time
        reason = error.strerror or f"no answer within {timeout:g} s"
        raise SetlabError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
    except Exception:
        identity = {}
    if not isinstance(identity, dict) or identity.get("type") != "Scheduler":
        raise SetlabError(f"{address} does not answer as a Dask scheduler")
    client = Client(address, timeout=timeout, set_as_default=False)
    _clients[address] = client
    dashboard = (identity.get("services") or {}).get("dashboard")
    if dashboard:  # none when the scheduler runs with --no-dashboard
        host = address.split("://", 1)[1].rsplit(":", 1)[0]
        print(f"Dask dashboard: http://{host}:{dashboard}/status", file=sys.stderr)
    return client


async def _identity(address: str, timeout: float) -> Any:
    """The reply of the Dask server at ``address`` to an ``identity`` request."""
    import asyncio

    from distributed.comm import connect as open_comm

    comm = await open_comm(address, timeout=timeout)
    try:
        await comm.write({"op": "identity"})
        return await asyncio.wait_for(comm.read(), timeout)
    finally:
        comm.abort()


def _run_on_dask(
    address: str,
    job: str,
    tasks: Mapping[str, tuple[Any, ...]],
    todo: list[str],
    function: Callable[..., Any],
    finish: Callable[[str, Any], None],
) -> None:
    """Submit every task in ``todo`` to the cluster; ``finish`` each result as it arrives.

    A task's Dask key is its job and name, so it is the same from one run to the next; tasks
    still queued or running when this stops (an error, Ctrl-C) are cancelled on the cluster.
    """
    from distributed import as_completed

    client = connect(address)
    name = getattr(function, "__qualname__", "task")
    running = {
        client.submit(
            function, *tasks[key], key=f"setlab:{name}:{job}:{key}", retries=TASK_RETRIES
        ): key
        for key in todo
    }
    try:
        for future in as_completed(list(running), loop=client.loop):
            key = running.pop(future)
            try:
                payload = future.result()
            except ModuleNotFoundError as error:
                raise SetlabError(
                    f"a Dask worker cannot import {error.name}: start the workers in an "
                    "environment where setlab is installed"
                ) from None
            except Exception as error:
                kind = type(error).__name__
                if kind in ("KilledWorker", "CancelledError", "FutureCancelledError"):
                    raise SetlabError(
                        f"Dask lost task {key} of {job} ({kind}); finished tasks are kept in "
                        "the store, run the command again to resume"
                    ) from None
                raise
            future.release()
            finish(key, payload)
    finally:
        if running:
            client.cancel(list(running))


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
    scheduler: str | None = None,
    progress: Callable[[int, int], None] | None = None,
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
    scheduler
        Address of a Dask scheduler (``tcp://HOST:PORT``; default ``$SETLAB_SCHEDULER``, ``""``
        for none). When there is one, every task goes to its cluster (``workers`` and
        ``executor`` are not used) and each result is checkpointed as it arrives.
    progress
        Called as ``progress(done, total)`` after each task, for a caller that shows its own
        bar; the job's bar is then not drawn.

    Examples
    --------
    >>> run_tasks("squares", {str(i): (i,) for i in range(4)}, abs, workers=1)
    {'0': 0, '1': 1, '2': 2, '3': 3}
    """
    done: dict[str, Any] = store.finished_tasks(job) if store is not None else {}
    todo = [key for key in tasks if key not in done]
    address = default_scheduler() if scheduler is None else scheduler and check_scheduler(scheduler)
    workers = default_workers() if workers is None and not address else workers
    bar = tqdm(
        total=len(tasks),
        initial=len(tasks) - len(todo),
        desc=description or job,
        unit="task",
        file=sys.stderr,
        disable=True if progress else None,  # None: silent when stderr is not a terminal
        leave=False,
    )
    count = len(tasks) - len(todo)  # tasks finished
    if progress is not None:
        progress(count, len(tasks))

    def finish(key: str, payload: Any) -> None:
        nonlocal count
        done[key] = payload
        count += 1
        if store is not None:
            store.finish_task(job, key, payload)
        bar.update()
        if progress is not None:
            progress(count, len(tasks))
        if summary is not None:
            bar.set_postfix_str(summary(done), refresh=False)

    try:
        if address:
            if todo:
                _run_on_dask(address, job, tasks, todo, function, finish)
        elif workers == 1 and executor is None:
            for key in todo:
                finish(key, function(*tasks[key]))
        else:
            pool = executor or process_pool(workers or 1)
            try:
                running: dict[Future[Any], str] = {
                    pool.submit(function, *tasks[key]): key for key in todo
                }
                while running:
                    finished, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in finished:
                        finish(running.pop(future), future.result())
            except BaseException:  # Ctrl-C or a failed task: the running tasks are abandoned
                if executor is None:
                    _stop_workers(pool)
                    pool.shutdown(wait=False, cancel_futures=True)
                raise
            if executor is None:
                # Every task is done: join the workers and the pool's manager thread now. Left
                # to run (wait=False), that thread may close its wake-up pipe while the
                # interpreter's exit writes to it, and Python 3.11 prints "Exception ignored
                # ... Bad file descriptor" after a finished job.
                pool.shutdown(wait=True)
    finally:
        bar.close()
    return {key: done[key] for key in tasks}
