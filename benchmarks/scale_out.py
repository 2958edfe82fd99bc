"""The same search on this machine and on a Dask cluster: what going through Dask costs.

Runs the P = 4 min search for every cap class up to n cards (default n = 12: m(12) = 0, about 30
tasks a level from level 8 on) in a fresh store each time: in one process, in a local pool of 2,
and on a Dask cluster (a ``dask scheduler`` and 1, then 2, ``dask worker`` processes of one thread
on 127.0.0.1). Prints wall time, the overhead ratio against the local run with as many processes,
bytes sent per task (pickled arguments and results), and peak memory of this process, the pool's
largest worker and the largest Dask worker. Every cluster is warmed up (compiled kernels loaded)
by a small search first, as the pool's workers inherit them from this process. With
``--p5-level K`` it times one task of level K of the AG(5,3) cap classes instead.
"""

from __future__ import annotations

from _common import Parser, in_range, run_script  # first: see _common.py

# isort: split
import importlib
import os
import pickle
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

import setlab
from setlab.errors import SetlabError
from setlab.executor import connect
from setlab.extremal.search import extend_classes, search
from setlab.store import Store

search_module = importlib.import_module("setlab.extremal.search")
SRC = str(Path(setlab.__file__).resolve().parents[1])


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_cluster(workers: int, logs: Path) -> tuple[str, list[subprocess.Popen]]:
    """A scheduler and ``workers`` one-thread workers on 127.0.0.1, as a user would start them."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join(filter(None, [SRC, os.environ.get("PYTHONPATH")]))
    )
    address = f"tcp://127.0.0.1:{free_port()}"
    log = open(logs / f"dask-{workers}.log", "ab")  # noqa: SIM115 - lives with the processes
    scheduler = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1"]
    scheduler += ["--port", address.rsplit(":", 1)[1], "--dashboard-address", "127.0.0.1:0"]
    worker = [sys.executable, "-m", "distributed.cli.dask_worker", address, "--host", "127.0.0.1"]
    worker += ["--nthreads", "1", "--no-nanny", "--no-dashboard"]
    processes: list[subprocess.Popen] = []
    try:  # a session of their own: Ctrl-C reaches this process, which stops them in order
        for command in (scheduler, *[worker] * workers):
            processes.append(subprocess.Popen(command, stdout=log, stderr=log, env=env,
                                              start_new_session=True))  # fmt: skip
    except BaseException:  # Ctrl-C (or a failed start) half-way: stop those started
        stop(processes)
        raise
    return address, processes


def stop(processes: list[subprocess.Popen]) -> None:
    """Stop the workers, then the scheduler (``processes[0]``): a worker told to stop by SIGTERM
    and by its closing scheduler at once can hang in its shutdown until it is killed."""
    try:
        for group in (processes[1:], processes[:1]):
            for process in group:
                process.terminate()
            for process in group:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
    except BaseException:  # Ctrl-C while they shut down: none is left running
        for process in processes:
            process.kill()
            process.wait()
        raise


def worker_peak_mib(address: str) -> float:
    """Largest peak resident memory among the cluster's workers."""
    peaks = connect(address).run(resource.getrusage, resource.RUSAGE_SELF)
    return max(usage.ru_maxrss for usage in peaks.values()) / 1024


class Traffic:
    """Pickled bytes of every task's arguments and result, recorded around ``run_tasks``."""

    def __init__(self) -> None:
        self.sent: list[int] = []
        self.returned: list[int] = []
        self.real = search_module.run_tasks

    def __call__(self, job: str, tasks: dict[str, Any], function: Any, *args: Any, **kw: Any):
        payloads = self.real(job, tasks, function, *args, **kw)
        for key, task in tasks.items():
            self.sent.append(len(pickle.dumps((function, task))))
            self.returned.append(len(pickle.dumps(payloads[key])))
        return payloads


def run(cards: int, directory: Path, name: str, **where: Any) -> tuple[float, Any]:
    with Store(directory / f"{name}.sqlite") as store:
        started = time.perf_counter()
        result = search(4, cards, "min", 0, store, **where)
        return time.perf_counter() - started, result


def p5_task(level: int) -> None:
    """Time and memory of one task of level ``level`` of the AG(5,3) cap classes (min, T = 0),
    the parents chunked as :func:`setlab.extremal.search.generate_levels` chunks them."""
    thresholds = [0] * level
    parents: list[list[Any]] = []
    started = time.perf_counter()
    for built in search_module.generate_levels(5, "min", thresholds, workers=1):
        parents = built.classes
        print(f"P=5 caps level {built.k}: {len(parents):,} classes")
    print(f"P=5 levels 1..{level - 1} in this process: {time.perf_counter() - started:.1f} s")
    size = min(500, max(1, -(-len(parents) // 32)))  # as generate_levels: 32 tasks, <= 500 each
    chunk = parents[:size]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    tracemalloc.start()
    started = time.perf_counter()
    out = extend_classes(5, "min", 0, chunk)
    seconds = time.perf_counter() - started
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    tasks = -(-len(parents) // size)
    print(f"P=5 level {level}: {tasks} tasks of {size} parents; one task: {seconds:.2f} s, "
          f"{len(out['classes']):,} children kept, Python peak {peak / 2**20:.1f} MiB, "
          f"process peak +{grown / 1024:.0f} MiB, arguments {len(pickle.dumps(chunk)):,} B, "
          f"result {len(pickle.dumps(out)):,} B")  # fmt: skip


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--cards", type=in_range(int, 1, 81), default=12,
                        help="n of the P = 4 cap search (default 12)")
    parser.add_argument("--p5-level", type=in_range(int, 2, 45), metavar="K",
                        help="only time a P = 5 level-K task")
    args = parser.parse_args()
    if args.p5_level is not None:
        return p5_task(args.p5_level)
    search(4, 6, "min", 0, workers=1)  # compile the kernels outside the timings

    rows: list[tuple[str, float, float | None, float]] = []
    with tempfile.TemporaryDirectory() as temporary:
        directory = Path(temporary)
        traffic = Traffic()
        search_module.run_tasks = traffic
        try:
            serial, reference = run(args.cards, directory, "serial", workers=1)
        finally:
            search_module.run_tasks = traffic.real
        tasks = len(traffic.sent)
        rows.append(("this process", serial, None, 0.0))
        pooled, result = run(args.cards, directory, "pool", workers=2)
        assert result.level_hashes == reference.level_hashes
        pool_peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        rows.append(("local pool, 2 processes", pooled, None, pool_peak))
        baseline = {1: serial, 2: pooled}
        for workers in (1, 2):
            address, processes = start_cluster(workers, directory)
            client = None
            try:
                deadline = time.monotonic() + 60
                while True:
                    try:
                        client = connect(address)
                        break
                    except SetlabError:
                        if time.monotonic() > deadline:
                            raise
                        time.sleep(0.5)
                client.wait_for_workers(workers, timeout=120)
                client.run(extend_classes, 4, "min", 0, [[[0, 1], 0]])  # kernels on every worker
                seconds, result = run(args.cards, directory, f"dask{workers}", scheduler=address)
                assert result.level_hashes == reference.level_hashes
                peak = worker_peak_mib(address)
            finally:
                if client is not None:  # before its scheduler stops (or it logs its lost link)
                    client.close()
                stop(processes)
            rows.append(
                (f"Dask, {workers} worker{'s' * (workers > 1)}", seconds, baseline[workers], peak)
            )

    print(f"P=4 min search, every cap class up to {args.cards} cards: {tasks} tasks, "
          f"{sum(reference.classes):,} classes")  # fmt: skip
    print(f"{'where':<26} {'seconds':>8} {'overhead':>9} {'worker peak MiB':>16}")
    for name, seconds, base, peak in rows:
        ratio = f"{seconds / base:.2f}x" if base else "-"
        memory = f"{peak:.0f}" if peak else "-"
        print(f"{name:<26} {seconds:>8.2f} {ratio:>9} {memory:>16}")
    print(f"mean task: {serial / tasks:.3f} s in one process")
    print(f"bytes per task: arguments {statistics.mean(traffic.sent):,.0f} (max "
          f"{max(traffic.sent):,}), result {statistics.mean(traffic.returned):,.0f} (max "
          f"{max(traffic.returned):,})")  # fmt: skip
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory of this process (client): {own:.0f} MiB")
    print(f"headline: Dask with 2 workers / local pool of 2 = {rows[-1][1] / pooled:.2f}x")


if __name__ == "__main__":
    run_script(main)
