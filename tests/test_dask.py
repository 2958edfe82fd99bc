"""The searches and walks on a Dask cluster: the local levels, results and proof bundles, through
a lost worker and a lost client; every searching command refuses an unreachable scheduler.

A module fixture starts a real ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1
(free ports, one thread each) and stops every process it started, also when a test fails. The
default suite compares the cap-class min search m(11) = 0 level by level; the real min search of
m(21) = 3 (about a minute in one process) is the slow variant.
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
from setlab import executor
from setlab.bundle import write_bundle
from setlab.cli import main
from setlab.extremal.bruteforce import WALK_TASKS
from setlab.extremal.search import job_name, level_thresholds, search
from setlab.extremal.split import split_bounds
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
        env = {**_environment(), "DASK_TEMPORARY_DIRECTORY": str(self.logs)}  # not /tmp's
        process = subprocess.Popen(command, stdout=log, stderr=log, env=env)
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
        # the workers first: a worker told to stop by SIGTERM and by its closing scheduler at
        # once can hang in its own shutdown until it is killed
        for group in (self.workers, [self.scheduler]):
            for process in group:
                if process.poll() is None:
                    process.terminate()
            for process in group:
                try:
                    process.wait(timeout=5)
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
            # and the client setlab's runs made in this process (it would try to reconnect)
            made = executor._clients.pop(running.address, None)
            if made is not None:
                made.close()
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


def _levels(path: Path, problem: tuple[int, int, str, int] = CAPS) -> dict[str, dict[str, object]]:
    """Every checkpointed task of the search ``problem`` in the store at ``path``: job -> task
    -> payload."""
    properties, cards, sense, threshold = problem
    store = Store(path)
    thresholds = level_thresholds(sense, cards, threshold)
    jobs = [job_name(properties, sense, thresholds, k) for k in range(1, cards + 1)]
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


MIN21 = (4, 21, "min", 3)
"""m(21) = 3 of AG(4,3): the min search the solver runs for it (22 levels, 2,489 classes at
the widest; about a minute in one process)."""


@pytest.mark.slow
def test_the_min_search_of_m21_on_dask_equals_the_local_search(cluster, tmp_path):
    """Every level of the search (class count, hash, stored representatives) and every task's
    payload are those of the one-process run; the minimum is 3."""
    cluster.wait_for(cluster.client, 2)
    paths = {where: tmp_path / f"{where}.sqlite" for where in ("local", "dask")}
    with Store(paths["local"]) as store:
        local = search(*MIN21, store, workers=1)
        local_levels = [store.level(name) for name in local.levels]
    with Store(paths["dask"]) as store:
        remote = search(*MIN21, store, scheduler=cluster.address)
        remote_levels = [store.level(name) for name in remote.levels]
    assert remote.best == local.best == 3
    assert remote.classes == local.classes and remote.classes[14] == 2489
    assert remote.level_hashes == local.level_hashes and remote.levels == local.levels
    assert remote_levels == local_levels and len(remote_levels) == MIN21[1]
    assert remote.witness == local.witness
    assert _levels(paths["dask"], MIN21) == _levels(paths["local"], MIN21)


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


def _bundle(store_path: Path, properties: int, out: Path) -> dict[str, bytes]:
    """The proof bundle of ``store_path``: file -> bytes, the manifest without its date."""
    with Store(store_path) as store:
        write_bundle(store, properties, out)
    return _files(out)


def _files(out: Path) -> dict[str, bytes]:
    """The bundle in ``out``: file -> bytes, the manifest without its date."""
    files = {str(f.relative_to(out)): f.read_bytes() for f in out.rglob("*") if f.is_file()}
    manifest = json.loads(files.pop("manifest.json"))
    assert manifest.pop("created")
    files["manifest.json"] = json.dumps(manifest).encode()
    return files


def test_the_walk_and_a_search_on_dask_give_the_local_results_and_proof_bundles(
    cluster, tmp_path, monkeypatch, capsys
):
    """``setlab maxsets -p 4 -n 6 --scheduler``: the P = 3 table it needs (the walk over all
    2^27 subsets) and the search proving M(6) = 3 run as tasks on the cluster; the stores then
    give the P = 3 and P = 4 proof bundles of a local run byte for byte."""
    cluster.wait_for(cluster.client, 2)
    monkeypatch.delenv("SETLAB_SCHEDULER", raising=False)
    stores = {where: tmp_path / f"{where}.sqlite" for where in ("local", "dask")}
    assert main(["maxsets", "-p", "4", "-n", "6", "--store", str(stores["local"])]) == 0
    local = capsys.readouterr()
    assert "Dask" not in local.err
    with distributed.get_task_stream(client=cluster.client) as stream:
        argv = ["maxsets", "-p", "4", "-n", "6", "--store", str(stores["dask"])]
        assert main([*argv, "--scheduler", cluster.address]) == 0
    remote = capsys.readouterr()
    assert remote.out.splitlines()[0].split(", computed")[0] == local.out.splitlines()[0].split(
        ", computed")[0] == "M(6) = 3 sets among 6 cards of AG(4,3): proven by search"
    keys = [task["key"] for task in stream.data]
    walked = [k for k in keys if k.startswith("setlab:walk_chunks:walk-P3:")]
    assert len(walked) == WALK_TASKS  # every chunk of the walk, on the cluster
    assert any(k.startswith("setlab:extend_classes:") for k in keys)  # and the search
    for properties in (3, 4):
        bundles = [_bundle(stores[w], properties, tmp_path / f"{w}{properties}") for w in stores]
        assert bundles[0] == bundles[1]
        assert any(name.startswith("levels/") for name in bundles[0]) == (properties == 4)


def test_certify_builds_the_program_certificates_on_the_cluster(
    cluster, tmp_path, monkeypatch, capsys
):
    """``setlab certify --scheduler``: the certificate of each program proof is a task on the
    cluster, and the bundle is the local one byte for byte. M(10) = 12 and M(11) = 13 of AG(4,3)
    (the paper's Table 1), each bounded by its program from the value before: a plane and one
    card, a plane and two cards on a line through one of its cards."""
    from setlab.extremal.bounds import prove_max_bound
    from setlab.find import count_sets

    cluster.wait_for(cluster.client, 2)
    monkeypatch.delenv("SETLAB_SCHEDULER", raising=False)
    path = tmp_path / "store.sqlite"
    with Store(path) as store:
        for n, witness, value, before in ((10, [*range(10)], 12, 12),
                                          (11, [*range(10), 18], 13, 12)):  # fmt: skip
            assert count_sets(witness, 4) == value
            record = prove_max_bound(4, n, value + 1, {n - 1: before})
            assert record is not None  # the program refutes value + 1
            proof = {"method": "bounds", "record": record}
            store.record_bound("maxsets", 4, n, "max", value, proof, "bounds")
            store.record_witness("maxsets", 4, n, "max", value, witness, "given")
    local = _bundle(path, 4, tmp_path / "local")
    assert sum(name.startswith("values/") for name in local) == 2
    with distributed.get_task_stream(client=cluster.client) as stream:
        argv = ["certify", "-p", "4", "--store", str(path), "--out", str(tmp_path / "dask")]
        assert main([*argv, "--scheduler", cluster.address]) == 0
    assert "2 values (2 farkas)" in capsys.readouterr().out
    keys = [task["key"] for task in stream.data]
    assert sum(k.startswith("setlab:slow_certificate:bundle-P4:") for k in keys) == 2
    assert _files(tmp_path / "dask") == local


def test_caps_probability_counts_on_the_cluster(cluster, tmp_path, monkeypatch, capsys):
    """The exact chance that 7 cards of AG(3,3) hold no set, from the caps counted on the
    cluster: caps(7) = 126,360 of C(27, 7) = 888,030, that is 36/253."""
    cluster.wait_for(cluster.client, 2)
    monkeypatch.delenv("SETLAB_SCHEDULER", raising=False)
    with distributed.get_task_stream(client=cluster.client) as stream:
        argv = ["caps", "-p", "3", "probability", "--cards", "7", "--json"]
        assert main([*argv, "--scheduler", cluster.address]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert (answer["numerator"], answer["denominator"]) == (36, 253)
    assert any(t["key"].startswith("setlab:_extend_level:caps-generate-P3") for t in stream.data)


def test_the_splits_run_on_the_cluster(cluster, tmp_path):
    """The split's tasks (one per n; AG(5,3)'s table spends most of its time in them) on the
    cluster: M(10..12) of AG(4,3), 12, 13 and 14 (Table 1 of the paper), from M_3 and M_2."""
    cluster.wait_for(cluster.client, 2)
    space = dict(enumerate([0, 0, 0, 1, 1, 2, 3, 5, 8, 12, 12, 13, 14]))  # M_3(0..12), Table 3
    plane = dict(enumerate([0, 0, 0, 1, 1, 2, 3, 5, 8, 12]))  # M_2
    store = Store(tmp_path / "split.sqlite")
    with distributed.get_task_stream(client=cluster.client) as stream:
        found = split_bounds(
            4, {10: (12, 99), 11: (13, 99), 12: (14, 99)}, space, plane, store,
            scheduler=cluster.address,
        )  # fmt: skip
    assert {n: payload["bound"] for n, payload in found.items()} == {10: 12, 11: 13, 12: 14}
    assert sum(t["key"].startswith("setlab:split_task:") for t in stream.data) == 3


def test_the_two_set_research_split_runs_on_the_cluster(cluster, tmp_path):
    """``benchmarks/two_sets_p5.py`` on the cluster, as a user runs it: its functions travel by
    value to the workers, and the verdicts are the local run's (AG(4,3), 21 cards: m_4(21) = 3,
    so every case is refuted)."""
    cluster.wait_for(cluster.client, 2)
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "two_sets_p5.py"
    script = [sys.executable, str(path), "--properties", "4", "--cards", "21"]
    env = {**_environment(), "SETLAB_SCHEDULER": ""}
    local = subprocess.run(script, capture_output=True, text=True, env=env, timeout=300)
    with distributed.get_task_stream(client=cluster.client) as stream:
        remote = subprocess.run([*script, "--scheduler", cluster.address], capture_output=True,
                                text=True, env=env, timeout=300)
    assert local.returncode == remote.returncode == 0, remote.stderr
    assert "Traceback" not in local.stderr + remote.stderr
    verdicts = [line.split()[:4] for line in local.stdout.splitlines() if "cases refuted" in line]
    assert verdicts == [["7", "of", "7", "cases"]]
    assert [line.split()[:4] for line in remote.stdout.splitlines()
            if "cases refuted" in line] == verdicts
    assert f"on the cluster at {cluster.address}" in remote.stdout
    assert sum(t["key"].startswith("setlab:decide:two-sets:P4:n21") for t in stream.data) == 7


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


SEARCHING_COMMANDS = [
    ["maxsets", "-p", "3", "--table"],  # the P <= 3 walk
    ["maxsets", "-p", "4", "-n", "12"],
    ["minsets", "-p", "4", "-n", "25"],
    ["verify", "--rerun"],
    ["caps", "-p", "3"],
    ["caps", "-p", "3", "count"],
    ["caps", "-p", "4", "probability", "--cards", "12"],
    ["reproduce", "--quick"],
]
"""Every command that runs a search or a walk (certify only reads the store)."""


@pytest.mark.parametrize("how", ["option", "environment"])
@pytest.mark.parametrize("command", SEARCHING_COMMANDS, ids=" ".join)
def test_every_searching_command_refuses_an_unreachable_scheduler_before_any_work(
    command, how, tmp_path, monkeypatch, capsys
):
    address = f"tcp://127.0.0.1:{_free_port()}"
    report = tmp_path / "report"
    argv = [*command, "--out", str(report)] if command[0] == "reproduce" else list(command)
    if how == "option":
        argv += ["--scheduler", address]
    else:
        monkeypatch.setenv("SETLAB_SCHEDULER", address)
    started = time.monotonic()
    assert main(argv) == 2
    assert time.monotonic() - started < 10
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"error: cannot reach the Dask scheduler at {address}: "
                              "Connection refused\n")  # fmt: skip
    assert not report.exists()  # reproduce wrote nothing


def test_reproduce_hands_its_scheduler_to_every_section(tmp_path):
    """The sections run their searches with ``context.scheduler`` (the run of the whole report on
    a cluster takes minutes: see docs/scale-out.md)."""
    import types

    from setlab.report import build_report
    from setlab.report.model import Section, Text

    seen = []

    def build(context):
        seen.append(context.scheduler)
        return Section("Probe", "a test", (Text("nothing"),))

    probe = types.SimpleNamespace(__name__="probe", build=build)
    build_report(tmp_path, [probe, probe], progress=False, scheduler="tcp://node7:8786")
    assert seen == ["tcp://node7:8786"] * 2
