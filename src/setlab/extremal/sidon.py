"""The largest boards with no UltraSet, no 4Set or no GhostSet: Sidon sets and their kin.

A collection S holds no UltraSet iff the sums a + b of its pairs of distinct cards are all
distinct (two pairs with one sum are disjoint, and then a + b = c + d); it holds no 4Set iff the
XORs of its pairs are distinct. Counting the pairs gives C(|S|, 2) <= 3^P (resp. 4^P - 1). It
holds no GhostSet iff no five of its cards sum to minus a sixth; three disjoint pairs with one
sum s sum to 3s = 0, so each sum is shared by at most two pairs: C(|S|, 2) <= 2 * 3^P. The
exact value comes from a depth-first search over cards in index order after fixing, by the
affine group's transitivity, the first cards: {0, 1} and then 2 (on their line) or 3 in F_3^P,
{0, 1, 2} in F_2^(2P) (any three distinct points of F_2^n are affinely independent).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba as nb
import numpy as np

from setlab.errors import SetlabError
from setlab.store import Store
from setlab.variants import count_structures
from setlab.variants.structures import MAX_TABLE_PROPERTIES, negative_table, sum_table

__all__ = [
    "CERTIFIED_FREE",
    "FREE_VARIANTS",
    "SIDON_VARIANTS",
    "StructureFree",
    "largest_structure_free",
    "pair_count_bound",
]

SIDON_VARIANTS = {"ultra": 3, "4set": 4}
"""The variants whose structure-free boards are Sidon sets, with their values per property."""

FREE_VARIANTS = {**SIDON_VARIANTS, "ghost": 3}
"""Every variant whose largest structure-free board is computed here (GhostSet too)."""

CERTIFIED_FREE = {"ultra": 4, "4set": 3, "ghost": 3}
"""Largest P, per variant, whose largest structure-free board the proof bundle holds and its
standalone checker re-proves (``proofcheck/variants_check.py``, a plain search of its own, under
a minute each). Beyond it setlab's own exhaustive search may close the gap (GhostSet P = 4: 12,
after 3 x 10^8 nodes), but with no certificate a separate checker accepts the value is not called
proven: both bounds are shown."""

PROBLEM = "maxfree"
"""The store's name for the largest structure-free board of a variant (params: the variant)."""


@dataclass(frozen=True)
class StructureFree:
    """The largest board of a variant's deck with none of its structures, as far as known.

    ``lower`` is the size of ``witness`` (checked to hold no structure); ``upper`` a proven
    bound; ``proven`` when they meet because an exhaustive search finished.
    """

    variant: str
    properties: int
    lower: int
    upper: int
    witness: list[int]
    method: str

    @property
    def searched_out(self) -> bool:
        """True when setlab's exhaustive search finished: no larger board exists, by its word."""
        return self.lower == self.upper

    @property
    def proven(self) -> bool:
        """True when the witness is proven largest: the search finished and the claim is one the
        proof bundle certifies (``P <= CERTIFIED_FREE[variant]``)."""
        return self.searched_out and self.properties <= CERTIFIED_FREE.get(self.variant, 0)


def pair_count_bound(variant: str, properties: int) -> int:
    """The largest s with C(s, 2) <= the pairs the sums allow (3^P, 4^P - 1, 2 * 3^P).

    Examples
    --------
    >>> pair_count_bound("ultra", 4), pair_count_bound("4set", 4), pair_count_bound("ghost", 4)
    (13, 23, 18)
    """
    sums = {"ultra": 3**properties, "4set": 4**properties - 1, "ghost": 2 * 3**properties}[variant]
    s = math.isqrt(2 * sums) + 2
    while s * (s - 1) // 2 > sums:
        s -= 1
    return s


@nb.njit(cache=True)
def _search(n, xor, plus, fixed, node_limit, best_size, best):  # pragma: no cover - compiled
    """Largest Sidon set containing ``fixed``, other cards above max(fixed), beating best_size.

    Returns (size, nodes, finished); ``best`` receives the largest set found when it beats
    ``best_size``.
    """
    used = np.zeros(n, dtype=np.bool_)
    chosen = np.zeros(n, dtype=np.int64)
    size = 0
    for i in range(fixed.shape[0]):
        x = fixed[i]
        for t in range(size):
            s = (x ^ chosen[t]) if xor else plus[x, chosen[t]]
            if used[s]:
                return best_size, 0, True  # the fixed cards are not Sidon: nothing here
            used[s] = True
        chosen[size] = x
        size += 1
    if size > best_size:
        best_size = size
        best[:size] = chosen[:size]
    start = fixed.max() + 1 if fixed.shape[0] else 0
    cands = np.zeros((n + 1, n), dtype=np.int64)
    ncand = np.zeros(n + 1, dtype=np.int64)
    cursor = np.zeros(n + 1, dtype=np.int64)
    for x in range(start, n):
        ok = True
        for t in range(size):
            if used[(x ^ chosen[t]) if xor else plus[x, chosen[t]]]:
                ok = False
                break
        if ok:
            cands[0, ncand[0]] = x
            ncand[0] += 1
    depth = 0
    nodes = 0
    while depth >= 0:
        if cursor[depth] >= ncand[depth] or size + ncand[depth] - cursor[depth] <= best_size:
            depth -= 1
            if depth >= 0:  # take back the card chosen at this depth
                size -= 1
                x = chosen[size]
                for t in range(size):
                    used[(x ^ chosen[t]) if xor else plus[x, chosen[t]]] = False
                cursor[depth] += 1
            continue
        nodes += 1
        if nodes > node_limit:
            return best_size, nodes, False
        x = cands[depth, cursor[depth]]
        for t in range(size):
            used[(x ^ chosen[t]) if xor else plus[x, chosen[t]]] = True
        chosen[size] = x
        size += 1
        if size > best_size:
            best_size = size
            best[:size] = chosen[:size]
        count = 0
        for c in range(cursor[depth] + 1, ncand[depth]):
            y = cands[depth, c]
            ok = True
            for t in range(size):
                if used[(y ^ chosen[t]) if xor else plus[y, chosen[t]]]:
                    ok = False
                    break
            if ok:
                cands[depth + 1, count] = y
                count += 1
        depth += 1
        ncand[depth] = count
        cursor[depth] = 0
    return best_size, nodes, True


@nb.njit(cache=True)
def _sums_add(sums, plus, x):  # pragma: no cover - compiled
    """``sums[k, v]``: k-subsets (k <= 5) of the chosen cards summing to v; now with x."""
    for k in range(sums.shape[0] - 1, 0, -1):
        for v in range(sums.shape[1]):
            if sums[k - 1, v]:
                sums[k, plus[v, x]] += sums[k - 1, v]


@nb.njit(cache=True)
def _sums_remove(sums, plus, x):  # pragma: no cover - compiled
    """Undo :func:`_sums_add` of x."""
    for k in range(1, sums.shape[0]):
        for v in range(sums.shape[1]):
            if sums[k - 1, v]:
                sums[k, plus[v, x]] -= sums[k - 1, v]


@nb.njit(cache=True)
def _ghost_search(n, plus, negative, fixed, node_limit, best_size, best):  # pragma: no cover
    """Largest GhostSet-free collection containing ``fixed``, other cards above max(fixed).

    A card x joins iff no five chosen cards sum to -x. Returns (size, nodes, finished) as
    :func:`_search`.
    """
    sums = np.zeros((6, n), dtype=np.int64)
    sums[0, 0] = 1  # the empty subset sums to 0
    chosen = np.zeros(n, dtype=np.int64)
    size = 0
    for i in range(fixed.shape[0]):
        x = fixed[i]
        if sums[5, negative[x]]:
            return best_size, 0, True
        _sums_add(sums, plus, x)
        chosen[size] = x
        size += 1
    if size > best_size:
        best_size = size
        best[:size] = chosen[:size]
    start = fixed.max() + 1 if fixed.shape[0] else 0
    cands = np.zeros((n + 1, n), dtype=np.int64)
    ncand = np.zeros(n + 1, dtype=np.int64)
    cursor = np.zeros(n + 1, dtype=np.int64)
    for x in range(start, n):
        if sums[5, negative[x]] == 0:
            cands[0, ncand[0]] = x
            ncand[0] += 1
    depth = 0
    nodes = 0
    while depth >= 0:
        if cursor[depth] >= ncand[depth] or size + ncand[depth] - cursor[depth] <= best_size:
            depth -= 1
            if depth >= 0:
                size -= 1
                _sums_remove(sums, plus, chosen[size])
                cursor[depth] += 1
            continue
        nodes += 1
        if nodes > node_limit:
            return best_size, nodes, False
        x = cands[depth, cursor[depth]]
        _sums_add(sums, plus, x)
        chosen[size] = x
        size += 1
        if size > best_size:
            best_size = size
            best[:size] = chosen[:size]
        count = 0
        for c in range(cursor[depth] + 1, ncand[depth]):
            y = cands[depth, c]
            if sums[5, negative[y]] == 0:
                cands[depth + 1, count] = y
                count += 1
        depth += 1
        ncand[depth] = count
        cursor[depth] = 0
    return best_size, nodes, True


def _branches(variant: str, n: int) -> list[list[int]]:
    if variant in ("ultra", "ghost"):
        return [b for b in ([0, 1, 2], [0, 1, 3]) if max(b) < n] or [[0, 1]]
    return [[0, 1, 2]] if n >= 4 else [[0, 1]]


def largest_structure_free(
    variant: str, properties: int, node_limit: int = 10**7, store: Store | None = None
) -> StructureFree:
    """The largest board with no UltraSet (``"ultra"``), no 4Set (``"4set"``) or no GhostSet
    (``"ghost"``).

    The search is exhaustive unless it visits more than ``node_limit`` nodes; then the answer
    keeps the best witness found and the counting bound, unproven. Results go to ``store``.

    Examples
    --------
    >>> r = largest_structure_free("ultra", 2)
    >>> r.lower, r.upper, r.proven
    (4, 4, True)
    """
    if variant not in FREE_VARIANTS:
        raise SetlabError(f"the largest structure-free board is computed for "
                          f"{', '.join(FREE_VARIANTS)}, not {variant!r}")  # fmt: skip
    if variant in ("ultra", "ghost") and not 1 <= properties <= MAX_TABLE_PROPERTIES:
        title = "UltraSet" if variant == "ultra" else "GhostSet"
        raise SetlabError(f"{title}-free boards: P from 1 to {MAX_TABLE_PROPERTIES}")
    if variant == "4set" and not 1 <= properties <= 5:
        raise SetlabError("4Set-free boards: P from 1 to 5")
    params = {"variant": variant}
    if store is not None:
        stored = store.get(PROBLEM, properties, 0, params)
        if stored is not None and stored.proven and stored.witness is not None:
            return StructureFree(variant, properties, stored.value, stored.bound,  # type: ignore[arg-type]
                                 stored.witness, stored.bound_method or "")  # fmt: skip
    n = FREE_VARIANTS[variant] ** properties
    xor = variant == "4set"
    if xor:  # 4Set reads no sum table: a placeholder typed as sum_table's, so one compile
        plus = np.zeros((1, 1), dtype=np.int32)
        plus.setflags(write=False)
    else:
        plus = sum_table(properties)
    best = np.zeros(n, dtype=np.int64)
    best_size, finished, nodes = 0, True, 0
    for fixed in _branches(variant, n):
        start = np.array(fixed, dtype=np.int64)
        if variant == "ghost":
            best_size, used, done = _ghost_search(n, plus, negative_table(properties), start,
                                                  node_limit - nodes, best_size, best)  # fmt: skip
        else:
            best_size, used, done = _search(n, xor, plus, start, node_limit - nodes, best_size,
                                            best)  # fmt: skip
        nodes += used
        finished = finished and done
    witness = sorted(int(c) for c in best[:best_size])
    if count_structures(witness, variant, properties) != 0:  # re-checked by the finder
        raise SetlabError("internal error: the search's witness holds a structure")
    bound = best_size if finished else pair_count_bound(variant, properties)
    method = "exhaustive search" if finished else "pair-count bound"
    if store is not None:
        store.record_witness(PROBLEM, properties, 0, "max", best_size, witness,
                             "GhostSet-free search" if variant == "ghost" else "Sidon search",
                             params)  # fmt: skip
        store.record_bound(PROBLEM, properties, 0, "max", bound,
                           {"method": method, "nodes": nodes}, method, params)  # fmt: skip
    return StructureFree(variant, properties, best_size, bound, witness, method)
