"""The searches on a Dask cluster: the local levels, through a lost worker and a lost client.

A module fixture starts a real ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1
(free ports, one thread each) and stops every process it started, also when a test fails.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

import setlab
from setlab.cli import main
from setlab.extremal.search import job_name, level_thresholds, search
from setlab.store import Store

distributed = pytest.importorskip("distributed")

SRC = str(Path(setlab.__file__).resolve().parents[1])
"""Where setlab is imported from: the workers get it on their path (the same environment)."""

CAPS = (4, 11, "min", 0)
"""A P = 4 min search (m(11) = 0, every cap class up to 11 cards: 267 at the last level, in
about 30 tasks a level from level 8 on)."""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    return env


class Cluster:
    """A scheduler and its workers, each a process of ours, with its log in ``logs``."""

    def __init__(self, logs: Path) -> None:
        self.logs = logs
        self.port = _free_port()
        self.dashboard = _free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.workers: list[subprocess.Popen] = []
        self.client: distributed.Client | None = None
        self.scheduler = self._start(
            "scheduler",
            "distributed.cli.dask_scheduler",
            ["--host", "127.0.0.1", "--port", str(self.port)],
            ["--dashboard-address", f"127.0.0.1:{self.dashboard}"],
        )

    def _start(self, name: str, module: str, *options: list[str]) -> subprocess.Popen:
        log = open(self.logs / f"{name}.log", "ab")  # noqa: SIM115 - closed with the process
        command = [sys.executable, "-m", module, *(o for group in options for o in group)]
        process = subprocess.Popen(command, stdout=log, stderr=log, env=_environment())
        log.close()
        return process

    def add_worker(self) -> subprocess.Popen:
        worker = self._start(
            f"worker{len(self.workers)}",
            "distributed.cli.dask_worker",
            [self.address, "--host", "127.0.0.1", "--nthreads", "1", "--no-nanny"],
            ["--no-dashboard", "--death-timeout", "60"],
        )
        self.workers.append(worker)
        return worker

    def live_workers(self) -> list[subprocess.Popen]:
        return [w for w in self.workers if w.poll() is None]

    def wait_for(self, client: distributed.Client, count: int) -> None:
        while len(self.live_workers()) < count:
            self.add_worker()
        client.wait_for_workers(count, timeout=120)

    def stop(self) -> None:
        processes = [*self.workers, self.scheduler]
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory) -> Iterator[Cluster]:
    running = Cluster(tmp_path_factory.mktemp("dask"))
    try:
        client = distributed.Client(running.address, timeout=60, set_as_default=False)
        try:
            running.wait_for(client, 2)
            running.client = client  # the tests' own view of the cluster
            yield running
        finally:
            client.close()
    finally:
        running.stop()


@pytest.fixture(scope="module")
def local_store(tmp_path_factory) -> Path:
    """A store holding the search run here, in one process: the reference of every cluster run."""
    path = tmp_path_factory.mktemp("local") / "local.sqlite"
    with Store(path) as store:
        search(*CAPS, store, workers=1)
    return path


@pytest.fixture(scope="module")
def local_caps(local_store) -> object:
    """The local search's result (read back from its checkpoints)."""
    with Store(local_store) as store:
        return search(*CAPS, store, workers=1)


def _levels(path: Path) -> dict[str, dict[str, object]]:
    """Every checkpointed task of the store at ``path``: job -> task -> payload."""
    store = Store(path)
    thresholds = level_thresholds("min", CAPS[1], CAPS[3])
    jobs = [job_name(4, "min", thresholds, k) for k in range(1, CAPS[1] + 1)]
    return {job: store.finished_tasks(job) for job in jobs}


def test_search_on_dask_equals_the_local_search_level_by_level(
    cluster, local_store, local_caps, tmp_path
):
    cluster.wait_for(cluster.client, 2)
    store = Store(tmp_path / "dask.sqlite")
    remote = search(*CAPS, store, scheduler=cluster.address)
    assert remote.classes == local_caps.classes  # 1, 1, 1, 1, 2, 3, 7, 11, 33, 91, 267, 670
    assert remote.level_hashes == local_caps.level_hashes
    assert remote.best == local_caps.best == 0
    # every level's tasks are stored, with the payloads of the one-process run of the same tasks
    levels = _levels(tmp_path / "dask.sqlite")
    assert levels == _levels(local_store)
    assert sum(len(tasks) for tasks in levels.values()) > 100


def _rows(path: Path, job: str) -> dict[str, int]:
    """"job/task" -> SQLite rowid of its checkpoint, for ``job`` and the jobs under it
    ("job/level7"); a task finished again gets a new row."""
    if not path.exists():
        return {}
    with contextlib.closing(sqlite3.connect(path)) as db:
        try:
            rows = db.execute(
                "SELECT job, task, rowid FROM checkpoints WHERE job=? OR job LIKE ?",
                (job, f"{job}/%"),
            )
            return {f"{j}/{task}": rowid for j, task, rowid in rows}
        except sqlite3.OperationalError:  # the store is still being created
            return {}


def _finished(path: Path, job: str) -> int:
    return len(_rows(path, job))


def test_a_worker_killed_mid_run_changes_nothing(cluster, local_caps, tmp_path):
    cluster.wait_for(cluster.client, 2)
    path = tmp_path / "killed.sqlite"
    Store(path).close()
    last = job_name(4, "min", level_thresholds("min", CAPS[1], CAPS[3]), CAPS[1])
    outcome: dict[str, object] = {}

    def run() -> None:
        try:
            with Store(path) as store:
                outcome["result"] = search(*CAPS, store, scheduler=cluster.address)
        except BaseException as error:  # handed to the test thread
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    victim = None
    try:
        deadline = time.monotonic() + 300
        while victim is None and thread.is_alive() and time.monotonic() < deadline:
            busy = {w: tasks for w, tasks in cluster.client.processing().items() if tasks}
            if _finished(path, last) >= 2 and len(busy) == 2:
                address = next(iter(busy))
                pid = cluster.client.run(os.getpid, workers=[address])[address]
                victim = next(w for w in cluster.workers if w.pid == pid)
                victim.send_signal(signal.SIGKILL)
            time.sleep(0.05)
    finally:
        thread.join()
    assert victim is not None, "the search finished before a worker could be killed"
    assert victim.wait() == -signal.SIGKILL
    assert "error" not in outcome, outcome.get("error")
    result = outcome["result"]
    assert result.classes == local_caps.classes
    assert result.level_hashes == local_caps.level_hashes


def test_a_killed_client_resumes_without_redoing_finished_tasks(cluster, local_caps, tmp_path):
    """``setlab caps -p 4 count`` killed mid-run, then run again: the same table, and every task
    checkpointed before the kill is taken from the store, not run again."""
    cluster.wait_for(cluster.client, 2)
    path = tmp_path / "client.sqlite"
    job = "caps-generate-P4-V3-targetNone"
    env = {**_environment(), "SETLAB_STORE": str(path), "SETLAB_SCHEDULER": ""}
    command = [sys.executable, "-m", "setlab", "caps", "-p", "4"]
    command += ["--scheduler", cluster.address, "count", "--json"]
    first = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 300
        while first.poll() is None and time.monotonic() < deadline:
            if any(k.startswith(f"{job}/level12/") for k in _rows(path, job)):
                break
            time.sleep(0.05)
    finally:
        first.kill()
        _, stderr = first.communicate()
    assert first.returncode == -signal.SIGKILL, "the count finished before it could be killed"
    assert f"Dask dashboard: http://127.0.0.1:{cluster.dashboard}/status" in stderr.decode()
    before = _rows(path, job)
    assert len(before) > 20

    # Every checkpoint the second run writes is logged by a trigger (a finished generation
    # drops its checkpoints at the end, so the log, not the table, says what ran again).
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE rerun (job TEXT, task TEXT)")
        db.execute(
            "CREATE TRIGGER log_rerun AFTER INSERT ON checkpoints "
            "BEGIN INSERT INTO rerun VALUES (new.job, new.task); END"
        )
        db.commit()
    again = subprocess.run(command, env=env, capture_output=True, timeout=600)
    assert again.returncode == 0, again.stderr.decode()
    table = json.loads(again.stdout)["rows"]
    with contextlib.closing(sqlite3.connect(path)) as db:
        rerun = [f"{j}/{t}" for j, t in db.execute("SELECT job, task FROM rerun")]
    # none of the finished tasks ran again; the others ran once each
    assert rerun and not set(rerun) & set(before) and len(rerun) == len(set(rerun))
    # the table: cap classes up to 12 cards as the (independent) level search found them, and
    # the 682,344 labelled 20-caps of AG(4,3), all one class
    assert [row["classes"] for row in table][: CAPS[1] + 1] == local_caps.classes
    assert (table[20]["caps"], table[20]["classes"], len(table)) == (682344, 1, 21)


def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path, capsys):
    address = f"tcp://127.0.0.1:{_free_port()}"  # nothing listens there
    env = {**_environment(), "SETLAB_STORE": str(tmp_path / "s.sqlite")}
    started = time.monotonic()
    out = subprocess.run(
        [sys.executable, "-m", "setlab", "maxsets", "-p", "4", "-n", "12", "--scheduler", address],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert time.monotonic() - started < 60  # start-up and one refused connection, no hang
    assert (out.returncode, out.stdout) == (2, "")
    assert (
        out.stderr == f"error: cannot reach the Dask scheduler at {address}: Connection refused\n"
    )
    # a malformed address is refused by the parser, before anything is imported or connected
    assert main(["minsets", "-p", "4", "-n", "12", "--scheduler", "localhost"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: argument --scheduler: not a Dask scheduler address: 'localhost'")
    assert len(err.splitlines()) == 1
