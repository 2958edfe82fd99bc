"""The blog's four ways of finding all sets on a table, timed against setlab's kernels.

The same random 12-card boards go through every method of :mod:`setlab.blog` and through
:func:`setlab.find.find_sets` (one board per call) and :func:`setlab.find.find_sets_batch` (all
boards in one call); every method must return exactly the same sets on every board.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from setlab.blog import METHODS
from setlab.errors import SetlabError
from setlab.find import find_sets, find_sets_batch
from setlab.geometry import digits
from setlab.report.model import Context, Number, Section, Table, Text

TITLE = "The blog: finding sets, then and now"


def random_boards(count: int, size: int = 12, seed: int = 2013) -> np.ndarray:
    """``count`` boards of ``size`` distinct random cards (rows of card indices), reproducibly.

    Examples
    --------
    >>> boards = random_boards(3)
    >>> boards.shape, all(len(set(row)) == 12 for row in boards.tolist())
    ((3, 12), True)
    """
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((count, 81)), axis=1)[:, :size]


REPEATS = 3
"""Each method runs this many times on all boards; the best time counts (the machine is shared)."""


def _timed(function: Callable[[], Any]) -> tuple[Any, float]:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        value = function()
        best = min(best, time.perf_counter() - start)
    return value, best


def build(context: Context) -> Section:
    """Time every method on the same boards; check they all agree with setlab."""
    count = 300 if context.quick else 3000
    boards = random_boards(count)
    vectors = [[tuple(int(x) for x in digits(4)[c]) for c in row] for row in boards.tolist()]
    find_sets(boards[0])  # load the table and compiled kernels before timing
    find_sets_batch(boards)
    reference, single = _timed(lambda: [find_sets(row) for row in boards])
    (offsets, sets), batch = _timed(lambda: find_sets_batch(boards))
    batch_sets = [[tuple(s) for s in sets[offsets[b] : offsets[b + 1]].tolist()]
                  for b in range(count)]  # fmt: skip
    if batch_sets != reference:
        raise SetlabError("find_sets_batch disagrees with find_sets")
    found = sum(len(r) for r in reference)
    rows = []
    slowest = None
    for name, method in METHODS.items():
        result, seconds = _timed(lambda method=method: [method(v) for v in vectors])
        if result != reference:
            raise SetlabError(f"the blog method '{name}' disagrees with setlab.find")
        slowest = slowest or seconds
        rows.append((f"blog: {name}", seconds, slowest))
    rows.append(("setlab: `find_sets`, one call per board", single, slowest))
    rows.append(("setlab: `find_sets_batch`, one call for all boards", batch, slowest))
    table_rows = tuple(
        (
            name,
            Number(round(seconds / count * 1e6, 2), f"{count} boards, best of {REPEATS}", seconds),
            Number(round(base / seconds, 1), "generate-and-test time / this time", seconds),
        )
        for name, seconds, base in rows
    )
    return Section(
        TITLE,
        "*Finding sets in the card game SET* (seed blog), methods re-implemented in `setlab.blog`",
        (
            Text(
                f"{count} random 12-card boards (fixed seed) holding {found} sets in all. "
                "Every method returned exactly the sets `setlab.find.find_sets` returns, on "
                "every board. The blog's methods are plain Python, as in the blog; setlab's "
                "are numba kernels over the shared third-card table."
            ),
            Table(
                ("Method", "Microseconds per board", "Speed-up over generate and test"),
                table_rows,
                "Measured in this run on this machine; the ratio is the headline.",
            ),
        ),
        findings=(
            f"Finding every set on a board: setlab's batch kernel is "
            f"{table_rows[-1][2].value:,.0f} times faster than the blog's generate-and-test, "
            f"{table_rows[-1][1].value} microseconds per 12-card board.",
        ),
    )
