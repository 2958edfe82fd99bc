"""Reference solvers that look at every n-subset of AG(P,3), with no symmetry at all.

``brute_force_extremes`` is the paper's complete solver: every one of the C(3^P, n) subsets, each
tested on all C(n,3) triples (x + y + z = 0 digitwise). ``exhaustive_table`` walks all 2^(3^P)
subsets of AG(P,3), P <= 3, in reflected Gray-code order: consecutive subsets differ by one card c,
and the set count changes by the number of lines through c whose two other points are present.
The walk splits by the cards of highest index into chunks, walked in parallel here or as tasks
on a Dask cluster.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np

from setlab.cards import check_properties, deck_size
from setlab.errors import SetlabError
from setlab.executor import default_scheduler, run_tasks
from setlab.geometry import digits, third_card_table
from setlab.interrupts import ctrl_c_held

__all__ = [
    "WALK_TASKS",
    "Extremes",
    "brute_force_extremes",
    "exhaustive_table",
    "walk_chunks",
]

WALK_SLICE = 8
"""Assignments of the high cards walked per compiled call of :func:`exhaustive_table` (a slice
is 1/8 of the P = 3 walk, about a second)."""


@dataclass(frozen=True)
class Extremes:
    """Most and fewest sets among n cards, with one subset attaining each.

    ``examined`` is the number of subsets looked at.
    """

    properties: int
    cards: int
    max: int
    max_witness: list[int]
    min: int
    min_witness: list[int]
    examined: int


@nb.njit(cache=True)
def _is_collinear(d, a, b, c):  # pragma: no cover - compiled
    ok = True
    for axis in range(d.shape[1]):
        ok = ok and (d[a, axis] + d[b, axis] + d[c, axis]) % 3 == 0
    return ok


@nb.njit(cache=True)
def _brute_force(d, n_cards, k):  # pragma: no cover - compiled
    """Every k-combination of 0..n_cards-1 in lexicographic order, sets counted triple by triple."""
    chosen = np.arange(k)
    best_max, best_min = -1, 1 << 30
    arg_max = chosen.copy()
    arg_min = chosen.copy()
    examined = 0
    while True:
        count = 0
        for i in range(k):
            for j in range(i + 1, k):
                for m in range(j + 1, k):
                    if _is_collinear(d, chosen[i], chosen[j], chosen[m]):
                        count += 1
        examined += 1
        if count > best_max:
            best_max = count
            arg_max[:] = chosen
        if count < best_min:
            best_min = count
            arg_min[:] = chosen
        # next combination: bump the rightmost entry that can still move
        i = k - 1
        while i >= 0 and chosen[i] == n_cards - k + i:
            i -= 1
        if i < 0:
            break
        chosen[i] += 1
        for j in range(i + 1, k):
            chosen[j] = chosen[j - 1] + 1
    return best_max, arg_max, best_min, arg_min, examined


def brute_force_extremes(properties: int, cards: int) -> Extremes:
    """Max and min number of sets among ``cards`` cards by checking all C(3^P, n) subsets.

    Faithful to the complete solver of the seed paper: no symmetry, no incremental counting, every
    triple of every subset tested. Exponential: P = 4 takes seconds for n = 4 and ~10 s for n = 5.

    Examples
    --------
    >>> e = brute_force_extremes(2, 4)
    >>> e.max, e.min, e.examined
    (1, 0, 126)

    References
    ----------
    The seed paper max-sets-paper.txt, section 3.2 (set_searcher_complete.py).
    """
    check_properties(properties)
    n = deck_size(properties)
    if not 0 <= cards <= n:
        raise SetlabError(f"cards must be between 0 and {n}, got {cards}")
    d = np.ascontiguousarray(digits(properties), dtype=np.int64)
    best_max, arg_max, best_min, arg_min, examined = _brute_force(d, n, cards)
    return Extremes(
        properties, cards, int(best_max), arg_max.tolist(), int(best_min), arg_min.tolist(),
        int(examined),
    )  # fmt: skip


@nb.njit(cache=True)
def _gray_code_chunk(partners, n_cards, low_bits, prefix):  # pragma: no cover - compiled
    """Walk the 2^low_bits subsets whose high cards are fixed by ``prefix``, in Gray-code order.

    ``partners[c]`` lists the pairs (a, b) with {a, b, c} a line. Returns, per size k, the max and
    min set count and a bitmask of a subset attaining each.
    """
    present = np.zeros(n_cards, dtype=np.bool_)
    mask = np.int64(prefix) << np.int64(low_bits)
    size = 0
    for c in range(n_cards):
        if (mask >> c) & 1:
            present[c] = True
            size += 1
    count = 0  # sets of the starting subset, each met once at its smallest card
    for c in range(n_cards):
        if present[c]:
            for t in range(partners.shape[1]):
                a, b = partners[c, t, 0], partners[c, t, 1]
                if a > c and present[a] and present[b]:
                    count += 1
    best_max = np.full(n_cards + 1, -1, dtype=np.int64)
    best_min = np.full(n_cards + 1, 1 << 40, dtype=np.int64)
    mask_max = np.zeros(n_cards + 1, dtype=np.int64)
    mask_min = np.zeros(n_cards + 1, dtype=np.int64)
    best_max[size] = best_min[size] = count
    mask_max[size] = mask_min[size] = mask
    for step in range(1, 1 << low_bits):
        c = 0  # the card flipped at this step: the lowest set bit of the step number
        while not (step >> c) & 1:
            c += 1
        lines_through = 0  # lines {a, b, c} with a, b present (c's own state does not matter)
        for t in range(partners.shape[1]):
            if present[partners[c, t, 0]] and present[partners[c, t, 1]]:
                lines_through += 1
        if present[c]:
            present[c] = False
            count -= lines_through
            size -= 1
        else:
            present[c] = True
            count += lines_through
            size += 1
        mask ^= np.int64(1) << c
        if count > best_max[size]:
            best_max[size] = count
            mask_max[size] = mask
        if count < best_min[size]:
            best_min[size] = count
            mask_min[size] = mask
    return best_max, mask_max, best_min, mask_min


@nb.njit(parallel=True, cache=True)
def _gray_code_walk(partners, n_cards, high_bits, first, count):  # pragma: no cover - compiled
    """The subsets whose high cards are assignment ``first .. first + count - 1``: one Gray-code
    walk of the low cards per assignment."""
    low_bits = n_cards - high_bits
    best_max = np.full((count, n_cards + 1), -1, dtype=np.int64)
    best_min = np.full((count, n_cards + 1), 1 << 40, dtype=np.int64)
    mask_max = np.zeros((count, n_cards + 1), dtype=np.int64)
    mask_min = np.zeros((count, n_cards + 1), dtype=np.int64)
    for row in nb.prange(count):
        hi, hi_mask, lo, lo_mask = _gray_code_chunk(partners, n_cards, low_bits, first + row)
        best_max[row], mask_max[row] = hi, hi_mask
        best_min[row], mask_min[row] = lo, lo_mask
    return best_max, mask_max, best_min, mask_min


def _partners(properties: int) -> np.ndarray:
    """(N, (N-1)/2, 2) array: for each card c, the pairs a < b completing c to a line."""
    n = deck_size(properties)
    table = third_card_table(properties).astype(np.int64)
    out = np.zeros((n, (n - 1) // 2, 2), dtype=np.int64)
    for c in range(n):
        others = [a for a in range(n) if a != c]
        pairs = sorted({(min(a, int(table[c, a])), max(a, int(table[c, a]))) for a in others})
        out[c] = pairs
    return out


WALK_TASKS = 8
"""Tasks the walk is split into on a Dask cluster (each a run of consecutive chunks)."""


def walk_chunks(properties: int, high_bits: int, first: int, last: int) -> list[list[list[int]]]:
    """One task of the walk on a cluster: chunks ``first``..``last - 1`` of the subsets.

    Chunk ``c`` holds the subsets whose ``high_bits`` cards of highest index are the bits of
    ``c``; per chunk, the rows of :func:`_gray_code_walk`: max and its mask, min and its mask,
    one entry per size.

    Examples
    --------
    The chunk of AG(1,3) whose subsets hold card 2 (no subset of 0 cards: -1):

    >>> best_max, mask_max, best_min, mask_min = walk_chunks(1, 1, 1, 2)[0]
    >>> best_max, mask_max
    ([-1, 0, 0, 1], [0, 4, 5, 7])
    """
    partners, n = _partners(properties), deck_size(properties)
    out = []
    for prefix in range(first, last):
        rows = _gray_code_chunk(partners, n, n - high_bits, prefix)
        out.append([row.tolist() for row in rows])
    return out


def _walk_on_cluster(properties: int, high_bits: int, address: str) -> tuple[np.ndarray, ...]:
    """The rows of :func:`_gray_code_walk`, the chunks run as tasks on the Dask cluster at
    ``address`` (:func:`setlab.executor.run_tasks`); the same arrays as the local walk."""
    chunks = 1 << high_bits
    step = -(-chunks // WALK_TASKS)
    tasks = {
        f"chunks{first}-{min(first + step, chunks)}": (
            properties, high_bits, first, min(first + step, chunks),
        )
        for first in range(0, chunks, step)
    }  # fmt: skip
    payloads = run_tasks(
        f"walk-P{properties}",
        tasks,
        walk_chunks,
        scheduler=address,
        description=f"walk of AG({properties},3)",
    )
    rows = [chunk for key in tasks for chunk in payloads[key]]  # in chunk order
    return tuple(np.array([chunk[i] for chunk in rows], dtype=np.int64) for i in range(4))


def exhaustive_table(properties: int, *, scheduler: str | None = None) -> list[Extremes]:
    """Max and min number of sets among n cards for every n = 0..3^P, over all 2^(3^P) subsets.

    For P = 3 this walks 2^27 = 134,217,728 subsets (a few seconds), reproducing Table 3 of the
    seed paper and the minima alongside. The walk runs here (numba threads over its chunks), or,
    given a ``scheduler`` address (default ``$SETLAB_SCHEDULER``; ``""`` for none), as
    :data:`WALK_TASKS` tasks on that Dask cluster, with the same table and witnesses.

    Examples
    --------
    >>> [(e.max, e.min) for e in exhaustive_table(2)][3:]
    [(1, 0), (1, 0), (2, 1), (3, 2), (5, 5), (8, 8), (12, 12)]

    References
    ----------
    The seed paper max-sets-paper.txt, Table 3 (set_searcher_3d_table.py).
    """
    check_properties(properties)
    if properties > 3:
        raise SetlabError("the exhaustive walk over all subsets is for P <= 3 (2^27 subsets)")
    n = deck_size(properties)
    high_bits = min(6, n // 2)
    address = default_scheduler() if scheduler is None else scheduler
    if address:
        best_max, mask_max, best_min, mask_min = _walk_on_cluster(properties, high_bits, address)
    else:
        partners, slices, assignments = _partners(properties), [], 1 << high_bits
        for first in range(0, assignments, WALK_SLICE):  # a Ctrl-C is answered between slices
            count = min(WALK_SLICE, assignments - first)
            with ctrl_c_held():
                slices.append(_gray_code_walk(partners, n, high_bits, first, count))
        best_max, mask_max, best_min, mask_min = (
            np.concatenate(p) for p in zip(*slices, strict=True)
        )
    top = best_max.argmax(axis=0)  # per size, the chunk holding the first maximum
    bottom = best_min.argmin(axis=0)

    def cards_of(mask: int) -> list[int]:
        return [c for c in range(n) if (int(mask) >> c) & 1]

    table = []
    for k in range(n + 1):
        high, low = int(best_max[top[k], k]), int(best_min[bottom[k], k])
        witnesses = cards_of(mask_max[top[k], k]), cards_of(mask_min[bottom[k], k])
        examined = math.comb(n, k)
        table.append(Extremes(properties, k, high, witnesses[0], low, witnesses[1], examined))
    return table
