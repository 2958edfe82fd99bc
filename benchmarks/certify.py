"""Proof bundles: the time to write and to check the P = 4 bundle, its size, peak memory.

Solves the P = 4 table in a fresh store (or uses ``--store``), writes the bundle
(``setlab certify``), then runs the standalone checker on it in a child process, and, as the
baseline, a child process that only reads every stored result and search level. Prints times,
the bundle's size on disk, each child's peak memory (max RSS), and the ratios checker/baseline.
"""

from __future__ import annotations

import argparse
import resource
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


def child(command: list[str]) -> tuple[float, float, str]:
    """Seconds, peak RSS in MB and the last output line of a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of the children is the largest so far: run the bigger child last
    return seconds, max(peak, before) / 1024, (done.stdout.strip().splitlines() or [""])[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--store", default=None, help="a store with the P = 4 table solved")
    parser.add_argument("--workers", type=int, default=2, help="checker processes")
    args = parser.parse_args()
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
        read_s, read_mb, read_out = child([sys.executable, "-c", READ_STORE, path])
        print(f"baseline (read the store): {read_s:.1f} s, peak {read_mb:.0f} MB ({read_out})")
        check = [sys.executable, str(summary.directory / "check.py"), str(summary.directory)]
        check_s, check_mb, check_out = child([*check, "--workers", str(args.workers)])
        print(f"check.py ({args.workers} workers): {check_s:.1f} s, peak {check_mb:.0f} MB "
              f"({check_out})")  # fmt: skip
        print(
            f"ratios: check / write time {check_s / summary.seconds:.1f}, check / read-store time "
            f"{check_s / read_s:.1f}, check / read-store peak memory {check_mb / read_mb:.1f}"
        )


if __name__ == "__main__":
    main()
