"""`setlab verify` on a finished store: one process against every core, and the witness re-count.

Prints, in one run on the same store (``--store``, default a fresh one filled with the P = 4
table first): the time of ``setlab verify -p P`` as a whole command, each in a fresh process (no
cache warm), on one process (``SETLAB_WORKERS=1``, the baseline) and on every core (the usable
cores), with their verdicts; the time to re-count every stored witness of that P with a plain
triple loop (every C(n, 3) triple tested, as verify did before) and with
:func:`setlab.certificates.recount` (C(n, 2) pairs, each pair's third card looked up); and peak
memory (the largest process).
The last line is the headline ratio (one process / every core).

Typical use: ``python benchmarks/verify.py -p 5 --store STORE`` on the store of a finished P = 5
table (``setlab maxsets -p 5 --table --store STORE`` or ``benchmarks/maxsets_p5.py --store``).
"""

from __future__ import annotations

from _common import Parser, existing_store, require_results, run_script  # first: see _common.py

# isort: split
import itertools
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from maxsets import timed  # benchmarks/maxsets.py, beside this script
from setlab.cards import vector_of
from setlab.certificates import recount
from setlab.executor import default_workers
from setlab.extremal.maxsets import Solver
from setlab.store import PROBLEMS, Store


def triple_loop(cards: list[int], properties: int) -> int:
    """Sets among ``cards`` by testing every triple digit by digit: verify's count before."""
    vectors = [vector_of(c, properties) for c in cards]
    return sum(
        all((a + b + c) % 3 == 0 for a, b, c in zip(x, y, z, strict=True))
        for x, y, z in itertools.combinations(vectors, 3)
    )


def verdict(run: subprocess.CompletedProcess) -> str:
    """The line of verify's output that counts the checks passed, and its exit code."""
    line = next((x for x in run.stdout.splitlines() if "checks passed" in x), "no verdict")
    return f"{line} (exit {run.returncode})"


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("-p", "--properties", type=int, default=4, help="the P to verify")
    parser.add_argument("--store", default=None, type=existing_store,
                        help="a finished store (default: a fresh P = 4)")
    args = parser.parse_args()
    if args.store is not None:
        require_results(parser, args.store, args.properties)
    elif args.properties != 4:
        parser.error(f"-p {args.properties} needs --store: the fresh store holds P = 4 only")
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(args.store or Path(tmp) / "p4.sqlite")
        if args.store is None:
            _, seconds = timed(Solver(4, store).table)
            print(f"(the P = 4 table, to verify: {seconds:.1f} s)")
        p = args.properties
        command = [sys.executable, "-m", "setlab", "verify", "-p", str(p), "--store", store.path]
        one, one_seconds = timed(subprocess.run, command, env={**os.environ, "SETLAB_WORKERS": "1"},
                                 capture_output=True, text=True)  # fmt: skip
        print(f"setlab verify -p {p} on one process (baseline): {one_seconds:.1f} s, "
              f"{verdict(one)}")  # fmt: skip
        workers = default_workers()
        every, every_seconds = timed(subprocess.run, command, capture_output=True, text=True)
        print(f"setlab verify -p {p} on {workers} processes: {every_seconds:.1f} s, "
              f"{verdict(every)}")  # fmt: skip

        witnesses = [r for problem in PROBLEMS.values() for r in store.results(problem, p)
                     if r.witness is not None]  # fmt: skip
        by_triples, triple_seconds = timed(
            lambda: [triple_loop(r.witness, p) for r in witnesses]
        )
        by_pairs, pair_seconds = timed(lambda: [recount(r.witness, p) for r in witnesses])
        print(f"re-counting the {len(witnesses)} witnesses: every triple {triple_seconds:.1f} s, "
              f"over pairs (recount) {pair_seconds:.1f} s, {triple_seconds / pair_seconds:.0f}x; "
              f"the same counts: {by_triples == by_pairs}")  # fmt: skip
        peak = max(resource.getrusage(who).ru_maxrss
                   for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024  # fmt: skip
        print(f"peak memory: {peak:.0f} MiB (the largest process)")
        print(f"verify, one process / {workers} processes: {one_seconds / every_seconds:.2f}x")


if __name__ == "__main__":
    run_script(main)
