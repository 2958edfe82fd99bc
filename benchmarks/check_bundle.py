"""The standalone checker on a written proof bundle: one process against its pool.

Runs ``check.py DIR --workers K`` (the split values and their split maxima checked side by
side on K processes ahead of the walk) and then ``check.py DIR --workers 1`` (the baseline:
every value checked in the one process, the split values and their split maxima one after
another), each in a child process, on the same bundle, for instance the P = 5 bundle of
``setlab certify -p 5 --out DIR``. Prints each run's wall and CPU seconds (its pool's
processes included), peak memory (its largest process), last line (passed and failed) and the
machine's load, then the ratio of the wall times. Both runs must reach the same verdict.
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
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, {load()}")
    runs = {}
    for workers in (args.workers, 1):
        command = [sys.executable, str(args.bundle / "check.py"), str(args.bundle),
                   "--workers", str(workers)]  # fmt: skip
        seconds, cpu, peak, last = child(command)
        runs[workers] = seconds, last
        print(f"check.py --workers {workers}: {seconds:.1f} s, {cpu:.1f} s CPU, peak "
              f"{peak:.0f} MiB ({last}); {load()}")  # fmt: skip
    (one, one_last), (pool, pool_last) = runs[1], runs[args.workers]
    verdict = "the same verdict" if one_last == pool_last else "DIFFERENT VERDICTS"
    print(f"ratio one process / {args.workers} workers: {one / pool:.2f}x wall, {verdict}")


if __name__ == "__main__":
    run_script(main, needs="a proof bundle's directory")
