"""Start-up of the command line: ``setlab find <board>`` against ``python -c pass``, same run.

Both run as fresh processes, alternately, several times; the medians are compared. The target
of issue 17: ``setlab find`` on one board answers within 0.3 s of Python's own start-up. Last
lines: the extra seconds, the ratio, and the peak memory of one ``setlab find``.

Usage: python benchmarks/cli_startup.py [--runs N]
"""

from __future__ import annotations

from _common import Parser, in_range, run_script  # first: see _common.py

# isort: split
import os
import resource
import statistics
import subprocess
import sys
import time

BOARD = ["1RSD", "2GTS", "3POO", "1GSD", "2 red striped ovals", "3PSD", "1ROS", "2GOD"]


def wall(argv: list[str]) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds = time.perf_counter() - start
    if done.returncode:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise SystemExit(f"error: {' '.join(argv[1:3])} failed (exit {done.returncode}): {last}")
    return seconds


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--runs", type=in_range(int, 1, 1000), default=9, help="default 9")
    args = parser.parse_args()
    python = [sys.executable, "-c", "pass"]
    setlab = [sys.executable, "-m", "setlab", "find", *BOARD]
    wall(setlab)  # bytecode caches written before timing
    base, find = [], []
    for _ in range(args.runs):
        base.append(wall(python))
        find.append(wall(setlab))
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    b, f = statistics.median(base), statistics.median(find)
    print(f"python -c pass      median {b * 1000:7.1f} ms over {args.runs} runs")
    print(f"setlab find (board) median {f * 1000:7.1f} ms over {args.runs} runs")
    print(f"setlab find beyond Python's start-up: {(f - b) * 1000:.1f} ms (target < 300 ms)")
    print(f"ratio setlab find / python -c pass: {f / b:.1f}")
    print(f"peak memory of a child: {before / 1024:.0f} MiB (cores: {os.cpu_count()})")


if __name__ == "__main__":
    run_script(main)
