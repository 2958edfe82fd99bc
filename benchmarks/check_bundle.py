"""The standalone checker on a written proof bundle: one process against its pool.

Runs ``check.py DIR --workers K`` (the split values and their split maxima checked side by
side on K processes ahead of the walk) and then ``check.py DIR --workers 1`` (the baseline:
every value checked in the one process, the split values and their split maxima one after
another), each in a child process, on the same bundle, for instance the P = 5 bundle of
``setlab certify -p 5 --out DIR``. Prints each run's wall and CPU seconds (its pool's
processes included), peak memory (its largest process), last line (passed and failed) and the
machine's load, then the ratio of the wall times. Both runs must reach the same verdict.

With ``--vs OLD`` (a bundle of the same values whose checker is another version, say the one
a bundle of an earlier release carries) that checker's one-process run on OLD comes third,
and the ratio of the two one-process runs is printed too: what the checker's own change gains,
measured in the same run.
"""

from __future__ import annotations

from _common import Parser, in_range, run_script  # first: see _common.py

# isort: split
import argparse
import os
import sys
from pathlib import Path

from certify import child, load  # benchmarks/certify.py, beside this script


def bundle_directory(text: str) -> Path:
    """An argparse ``type=``: a directory holding a bundle's manifest and checker."""
    path = Path(text)
    if not (path / "manifest.json").is_file() or not (path / "check.py").is_file():
        raise argparse.ArgumentTypeError(f"no proof bundle (manifest.json, check.py) in {text}")
    return path


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("bundle", type=bundle_directory, help="the bundle's directory")
    parser.add_argument("--workers", type=in_range(int, 2, 256), default=2,
                        help="the pool's processes (default 2)")  # fmt: skip
    parser.add_argument("--vs", type=bundle_directory, metavar="OLD",
                        help="a bundle of the same values with another checker: its one-process "
                             "run comes third, against this one's")  # fmt: skip
    args = parser.parse_args()
    if args.vs is not None and args.vs.resolve() == args.bundle.resolve():
        parser.error("--vs names the bundle itself: give a bundle with another checker")
    print(f"{os.cpu_count()} cores, {load()}")
    runs = {}
    plan = [(args.bundle, args.workers), (args.bundle, 1)]
    for root, workers in plan + ([(args.vs, 1)] if args.vs is not None else []):
        command = [sys.executable, str(root / "check.py"), str(root), "--workers", str(workers)]
        seconds, cpu, peak, last = child(command)
        runs[root, workers] = seconds, last
        print(f"{root}: check.py --workers {workers}: {seconds:.1f} s, {cpu:.1f} s CPU, peak "
              f"{peak:.0f} MiB ({last}); {load()}")  # fmt: skip
    (pool, pool_last), (one, one_last) = (runs[key] for key in plan)
    print(f"ratio one process / {args.workers} workers: {one / pool:.2f}x wall, "
          f"{verdict(pool_last, one_last)}")  # fmt: skip
    if args.vs is not None:
        old, old_last = runs[args.vs, 1]
        print(f"ratio OLD's checker / this one's, one process each: {old / one:.2f}x wall, "
              f"{verdict(old_last, one_last)}")  # fmt: skip


def verdict(first: str, second: str) -> str:
    """Whether two checks' last lines (their passed and failed counts) agree."""
    return "the same verdict" if first == second else "DIFFERENT VERDICTS"


if __name__ == "__main__":
    run_script(main, needs="a proof bundle's directory")
