"""Proof bundles: the time to write and to check the P = 4 bundle, its size, peak memory.

Solves the P = 4 table in a fresh store (or uses ``--store``), writes the bundle
(``setlab certify``), then runs the standalone checker on it in a child process, and two
baselines in the same run: a child process that only reads every stored result and search level,
and the checker with ``--replay`` (it also replays closure child by child, one canonical
labelling per child: the checker's method before the orbit count). Prints wall and CPU times,
the bundle's size on disk, each child's peak memory (max RSS of its largest process), the
machine's load, and the ratios.
"""

from __future__ import annotations

from _common import (  # first: see _common.py
    Parser,
    existing_store,
    in_range,
    require_results,
    run_script,
)

# isort: split
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from setlab.bundle import write_bundle
from setlab.extremal.maxsets import Solver
from setlab.store import Store

READ_STORE = """
import sys
from setlab.store import PROBLEMS, Store
store = Store(sys.argv[1])
names = set()
for problem in PROBLEMS.values():
    for result in store.results(problem):
        names.update((result.proof or {}).get("levels") or [])
print(sum(len(store.level(name)) for name in names), "representatives read")
"""

MEASURE = """
import os, subprocess, sys, time
started = time.perf_counter()
child = subprocess.Popen(sys.argv[2:])
_, status, usage = os.wait4(child.pid, 0)
seconds = time.perf_counter() - started
with open(sys.argv[1], "w") as figures:
    figures.write(f"{seconds} {usage.ru_utime + usage.ru_stime} {usage.ru_maxrss}")
sys.exit(os.waitstatus_to_exitcode(status))
"""
"""Runs a command and writes its wall and CPU seconds and max RSS (KiB, of its largest process).
A process's max RSS counts the RSS of its parent when it was forked: measured from this
process, large after the table and the bundle, every child would seem to take as much."""


def child(command: list[str]) -> tuple[float, float, float, str]:
    """Wall seconds, CPU seconds (with its pool's processes), peak RSS in MiB (of its largest
    process) and the last output line of a child process, started through ``MEASURE``."""
    with tempfile.TemporaryDirectory() as tmp, open(Path(tmp) / "out", "w+b") as out:
        figures = Path(tmp) / "figures"
        launcher = subprocess.Popen(
            [sys.executable, "-c", MEASURE, str(figures), *command],
            stdout=out, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        try:
            launcher.wait()
        except BaseException:  # Ctrl-C: the launcher, the child and its pool, none left
            os.killpg(launcher.pid, signal.SIGKILL)
            launcher.wait()
            raise
        if not figures.exists():
            raise SystemExit(f"error: could not run {' '.join(command[:2])}")
        seconds, cpu, peak = (float(x) for x in figures.read_text().split())
        out.seek(0)
        lines = out.read().decode(errors="replace").strip().splitlines()
    return seconds, cpu, peak / 1024, (lines or [""])[-1]


def load() -> str:
    return "load average " + ", ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--store", default=None, type=existing_store,
                        help="a store with the P = 4 table solved")
    parser.add_argument("--workers", type=in_range(int, 1, 256), default=2,
                        help="checker processes")
    parser.add_argument("--no-replay", action="store_true", help="skip the --replay baseline")
    args = parser.parse_args()
    if args.store is not None:
        require_results(parser, args.store, 4)
    print(f"{os.cpu_count()} cores, {load()}")
    with tempfile.TemporaryDirectory() as tmp:
        path = args.store or str(Path(tmp) / "p4.sqlite")
        store = Store(path)
        if args.store is None:
            started = time.perf_counter()
            Solver(4, store).table()
            print(f"P = 4 table solved in {time.perf_counter() - started:.1f} s")
        summary = write_bundle(store, 4, Path(tmp) / "bundle")
        store.close()
        print(
            f"bundle written in {summary.seconds:.1f} s: {summary.values} values "
            f"{summary.methods}, {summary.levels} level files, {summary.bytes / 1e6:.2f} MB, "
            f"{summary.without_certificate} program bounds without certificate"
        )
        read_s, read_cpu, read_mb, read_out = child([sys.executable, "-c", READ_STORE, path])
        print(f"baseline (read the store): {read_s:.1f} s, {read_cpu:.1f} s CPU, peak "
              f"{read_mb:.0f} MiB ({read_out})")  # fmt: skip
        check = [sys.executable, str(summary.directory / "check.py"), str(summary.directory),
                 "--workers", str(args.workers)]  # fmt: skip
        check_s, check_cpu, check_mb, check_out = child(check)
        print(f"check.py ({args.workers} workers): {check_s:.1f} s, {check_cpu:.1f} s CPU, peak "
              f"{check_mb:.0f} MiB ({check_out}); {load()}")  # fmt: skip
        print(
            f"ratios: check / write time {check_s / summary.seconds:.1f}, check / read-store time "
            f"{check_s / read_s:.1f}, check / read-store peak memory {check_mb / read_mb:.1f}"
        )
        if not args.no_replay:
            replay_s, replay_cpu, replay_mb, replay_out = child([*check, "--replay"])
            print(f"check.py --replay: {replay_s:.1f} s, {replay_cpu:.1f} s CPU, peak "
                  f"{replay_mb:.0f} MiB ({replay_out}); {load()}")  # fmt: skip
            print(f"ratio replay / check: {replay_s / check_s:.1f} wall, "
                  f"{replay_cpu / check_cpu:.1f} CPU")  # fmt: skip


if __name__ == "__main__":
    run_script(main)
