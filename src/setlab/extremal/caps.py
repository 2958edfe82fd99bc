"""Caps: collections of cards holding no set, generated one per symmetry class, counted exactly.

A card x extends a cap S iff x is not in S and completes no pair of S to a set. Caps are generated
level by level, one per class under the deck's group G (AGL(P,3) for three values per property),
by McKay's canonical augmentation: S + x is kept iff x lies in the Aut(S + x)-orbit of a canonical
card of S + x, so every class appears exactly once. Counts follow by orbit-stabiliser,
caps(k) = sum |G| / |Aut(S)|, and k random cards hold no set with probability caps(k) / C(N, k).

References
----------
B. D. McKay, "Isomorph-free exhaustive generation", J. Algorithms 26 (1998) 306-324.
D. E. Knuth, SETSET-ALL (2001): the 682,344 caps of 20 cards in AG(4,3).
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any

import numba as nb
import numpy as np
import pynauty

from setlab.cards import check_properties
from setlab.errors import SetlabError
from setlab.executor import default_workers, run_tasks
from setlab.extremal.bigcaps import best_construction
from setlab.geometry import affine_group_order, indices_of, parallel_classes, third_card_table
from setlab.store import Store

MAX_SEARCH_CARDS = 256
"""Largest deck (V^P cards) the exact search accepts."""

CHUNK = 64
"""Caps per task of one generation level (fixed, so checkpoint keys survive a change of pool)."""


@dataclass(frozen=True, eq=False)
class Deck:
    """The game with P properties of V values each, as a 3-uniform hypergraph on V^P cards.

    Three distinct cards form a set iff every property is all same or all different on them. For
    V = 3 the cards are F_3^P, the sets are the lines of AG(P,3) and the group is AGL(P,3); for
    other V the sets have no affine structure and the group used is S_V wr S_P (permute the values
    of each property, permute the properties). Card c has digits ``c`` in base V, big-endian.

    ``completions[offsets[a * N + b] : offsets[a * N + b + 1]]`` are the cards completing the pair
    (a, b) to a set; ``slices[c, v]`` is part v of the c-th partition of the deck into copies of
    the deck with P - 1 properties (hyperplanes of one direction, or one property's values).
    """

    properties: int
    values: int
    offsets: np.ndarray
    completions: np.ndarray
    slices: np.ndarray
    group_order: int
    adjacency: dict[int, list[int]]
    colour_cells: tuple[frozenset[int], ...]

    @property
    def size(self) -> int:
        """Number of cards V^P."""
        return self.values**self.properties


def deck(properties: int, values: int = 3) -> Deck:
    """The deck with ``properties`` properties of ``values`` values (at most 256 cards).

    Examples
    --------
    >>> d = deck(2, 4)
    >>> d.size, d.group_order  # 16 cards; (4!)^2 * 2! value and property permutations
    (16, 1152)
    """
    check_properties(properties)
    if not isinstance(values, int) or values < 2:
        raise SetlabError(f"values per property must be an integer >= 2, got {values!r}")
    if values**properties > MAX_SEARCH_CARDS:
        raise SetlabError(
            f"{values}^{properties} = {values**properties} cards: the exact search takes decks of"
            f" at most {MAX_SEARCH_CARDS} cards"
        )
    return _deck(properties, values)


@cache
def _deck(properties: int, values: int) -> Deck:
    n = values**properties
    if values == 3:
        table = third_card_table(properties)
        completions = table.reshape(-1).astype(np.int32)
        offsets = np.arange(n * n + 1, dtype=np.int64)
        slices = parallel_classes(properties)
        group_order = affine_group_order(properties)
        extra: list[list[int]] = []
    else:
        words = np.indices((values,) * properties).reshape(properties, -1).T
        place = values ** np.arange(properties - 1, -1, -1)
        counts = np.zeros(n * n, dtype=np.int64)
        found: list[np.ndarray] = []
        for a, b in itertools.permutations(range(n), 2):
            choices = [
                [int(x)] if x == y else [v for v in range(values) if v not in (x, y)]
                for x, y in zip(words[a], words[b], strict=True)
            ]
            cards = np.array(list(itertools.product(*choices)), dtype=np.int64).reshape(
                -1, properties
            )
            found.append(cards @ place)
            counts[a * n + b] = len(cards)
        offsets = np.zeros(n * n + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        completions = np.concatenate(found).astype(np.int32)
        slices = np.stack(
            [[np.flatnonzero(words[:, p] == v) for v in range(values)] for p in range(properties)]
        ).astype(np.int32)
        group_order = math.factorial(values) ** properties * math.factorial(properties)
        # one vertex per property joined to its V slices: the coloured graph's group is S_V wr S_P
        extra = [list(range(n + p * values, n + (p + 1) * values)) for p in range(len(slices))]
    flat = slices.reshape(-1, slices.shape[-1])
    adjacency = {n + s: [int(c) for c in members] for s, members in enumerate(flat)}
    first_extra = n + len(flat)
    for p, joined in enumerate(extra):
        adjacency[first_extra + p] = joined
    cells = [frozenset(range(n, first_extra))]
    if extra:
        cells.append(frozenset(range(first_extra, first_extra + len(extra))))
    return Deck(
        properties, values, offsets, completions, slices, group_order, adjacency, tuple(cells)
    )


@nb.njit(cache=True)
def _free_cards(cap, offsets, completions, n):  # pragma: no cover - compiled
    """Cards that extend ``cap``: outside it and completing no pair of it to a set."""
    free = np.ones(n, dtype=np.bool_)
    for i in range(cap.shape[0]):
        free[cap[i]] = False
        for j in range(i):
            pair = cap[i] * n + cap[j]
            for t in range(offsets[pair], offsets[pair + 1]):
                free[completions[t]] = False
    return free


def free_cards(cap: Sequence[int], properties: int, values: int = 3) -> np.ndarray:
    """Boolean mask of the cards that can be added to ``cap`` keeping it a cap.

    Examples
    --------
    >>> np.flatnonzero(free_cards([0, 1], 2)).tolist()  # 2 completes (0, 1); 0, 1 are taken
    [3, 4, 5, 6, 7, 8]
    """
    d = deck(properties, values)
    return _free_cards(np.asarray(cap, dtype=np.int64), d.offsets, d.completions, d.size)


def is_cap(cards: Sequence[int], properties: int, values: int = 3) -> bool:
    """True iff the distinct cards ``cards`` hold no set (brute force over all triples).

    Examples
    --------
    >>> is_cap([0, 1, 3, 4], 2), is_cap([0, 1, 2], 2), is_cap([0, 1, 4], 2, values=4)
    (True, False, True)
    """
    d = deck(properties, values)
    cards = [int(c) for c in cards]
    if len(set(cards)) != len(cards) or not all(0 <= c < d.size for c in cards):
        raise SetlabError("a cap is a collection of distinct cards of the deck")
    chosen = set(cards)
    for a, b in itertools.combinations(cards, 2):
        pair = a * d.size + b
        if chosen.intersection(d.completions[d.offsets[pair] : d.offsets[pair + 1]].tolist()):
            return False
    return True


# -- symmetry ----------------------------------------------------------------------------------


@cache
def _base_graph(properties: int, values: int) -> pynauty.Graph:
    """The deck's incidence graph, built once per process; only its colouring changes."""
    d = _deck(properties, values)
    vertices = d.size + sum(len(c) for c in d.colour_cells)
    return pynauty.Graph(vertices, adjacency_dict=d.adjacency)


def _coloured(d: Deck, cap: np.ndarray) -> pynauty.Graph:
    graph = _base_graph(d.properties, d.values)
    chosen = {int(c) for c in cap}
    cells = [chosen, set(range(d.size)) - chosen, *(set(c) for c in d.colour_cells)]
    graph.set_vertex_coloring([cell for cell in cells if cell])
    return graph


def _stabiliser(d: Deck, cap: np.ndarray) -> tuple[tuple[float, int], np.ndarray]:
    """|Aut(cap)| in G as nauty's (mantissa, exponent) and the orbit representative of cards."""
    _, mantissa, exponent, orbits, _ = pynauty.autgrp(_coloured(d, cap))
    return (mantissa, exponent), np.asarray(orbits[: d.size], dtype=np.int64)


@cache
def _invariant_weights(length: int) -> np.ndarray:
    return np.random.default_rng(20011).integers(1, 2**62, size=length, dtype=np.uint64)


@cache
def _slice_of_card(properties: int, values: int) -> np.ndarray:
    """(classes, N) array: the part of each partition holding each card."""
    d = _deck(properties, values)
    part = np.zeros((d.slices.shape[0], d.size), dtype=np.int64)
    for c in range(d.slices.shape[0]):
        for v in range(d.slices.shape[1]):
            part[c, d.slices[c, v]] = v
    return part


@nb.njit(cache=True)
def _card_invariants(cap, part, parts, weights, offsets, completions, n):  # pragma: no cover
    """A G-invariant value per card of ``cap``: a hash of how full its slices are and of how
    crowded the completions of its pairs are.

    Card c gets sum over the slices s containing c of w[|cap & s|], plus, over the other cards a
    and every card t completing (c, a) to a set, w'[number of pairs of ``cap`` completed by t]
    (w, w' fixed pseudo-random, arithmetic mod 2^64). Both terms are defined by the set system
    alone, so a map in G carrying one cap to another carries each card's value to its image's.
    """
    classes = part.shape[0]
    k = cap.shape[0]
    fill = np.zeros((classes, parts), dtype=np.int64)
    for c in range(classes):
        for i in range(k):
            fill[c, part[c, cap[i]]] += 1
    degree = np.zeros(n, dtype=np.int64)
    for i in range(k):
        for j in range(i):
            pair = cap[i] * n + cap[j]
            for t in range(offsets[pair], offsets[pair + 1]):
                degree[completions[t]] += 1
    shift = weights.shape[0] // 2
    out = np.zeros(k, dtype=np.uint64)
    for i in range(k):
        for c in range(classes):
            out[i] += weights[fill[c, part[c, cap[i]]]]
        for j in range(k):
            if j != i:
                pair = cap[i] * n + cap[j]
                for t in range(offsets[pair], offsets[pair + 1]):
                    out[i] += weights[shift + min(degree[completions[t]], shift - 1)]
    return out


def _is_canonical_extension(d: Deck, child: np.ndarray, added: int) -> bool:
    """McKay's acceptance test: is ``added`` in the Aut(child)-orbit of child's canonical card?

    The canonical card has the greatest invariant; ties are broken by its position in nauty's
    canonical labelling of the coloured incidence graph. Both choices commute with G, so exactly
    one augmentation per class of children passes.
    """
    part = _slice_of_card(d.properties, d.values)
    weights = _invariant_weights(2 * (d.size + 1))
    values = _card_invariants(
        child, part, d.slices.shape[1], weights, d.offsets, d.completions, d.size
    )
    mine = values[np.searchsorted(child, added)]
    best = values.max()
    if mine != best:
        return False
    ties = child[values == best]
    if len(ties) == 1:
        return True
    graph = _coloured(d, child)
    position = np.empty(graph.number_of_vertices, dtype=np.int64)
    position[np.asarray(pynauty.canon_label(graph))] = np.arange(graph.number_of_vertices)
    canonical = ties[np.argmin(position[ties])]
    orbits = pynauty.autgrp(graph)[3]
    return orbits[added] == orbits[int(canonical)]


# -- one generation level ----------------------------------------------------------------------


def _upper_bound(d: Deck, cap: np.ndarray, free: np.ndarray, slice_bound: int) -> int:
    """Largest cap that can contain ``cap``: at most its size plus the free cards, and in every
    partition into slices at most min(slice_bound, cards of cap or free in the slice) per slice."""
    usable = free.astype(np.int64)
    usable[cap] = 1
    per_slice = np.minimum(usable[d.slices].sum(axis=2), slice_bound).sum(axis=1)
    return int(min(per_slice.min(), usable.sum()))


def _extend_level(
    properties: int,
    values: int,
    caps: list[list[int]],
    target: int | None,
    slice_bound: int,
    deadline: float | None = None,
) -> dict[str, Any]:
    """Children (one per class) of a chunk of class representatives of k-caps, and statistics.

    With ``target`` set, caps that provably cannot grow to ``target`` cards are dropped
    (``pruned``) and no counts are made. Past the wall-clock ``deadline`` (``time.time()``) the
    task stops and says ``timed_out``. Statistics: ``labelled`` = sum of orbit sizes,
    ``complete`` / ``complete_classes`` = caps with no free card, ``extensions`` = sum over the
    caps S of the class of |orbit(S)| * |free(S)| (= (k + 1) caps(k + 1), a cross-check).
    """
    d = _deck(properties, values)
    n = d.size
    stats = {"labelled": 0, "complete": 0, "complete_classes": 0, "extensions": 0, "pruned": 0}
    children: list[list[int]] = []
    cards = np.arange(n)
    for members in caps:
        if deadline is not None and time.time() > deadline:
            return {"children": children, "timed_out": True, **stats}
        cap = np.asarray(members, dtype=np.int64)
        free = _free_cards(cap, d.offsets, d.completions, n)
        if target is not None and _upper_bound(d, cap, free, slice_bound) < target:
            stats["pruned"] += 1
            continue
        stabiliser, orbits = _stabiliser(d, cap)
        if target is None:
            orbit = _orbit_size(d, stabiliser)
            stats["labelled"] += orbit
            stats["extensions"] += orbit * int(free.sum())
            if not free.any():
                stats["complete"] += orbit
                stats["complete_classes"] += 1
        # one augmentation per Aut(cap)-orbit of free cards
        for added in cards[free & (orbits == cards)]:
            child = np.sort(np.append(cap, added))
            if _is_canonical_extension(d, child, int(added)):
                children.append(child.tolist())
    return {"children": children, "timed_out": False, **stats}


def _orbit_size(d: Deck, stabiliser: tuple[float, int]) -> int:
    """|G| / |Aut(S)|, exact while nauty's group order is exact (orders below 2^53)."""
    mantissa, exponent = stabiliser
    order = round(mantissa * 10**exponent)
    if order > 2**53 or d.group_order % order:
        raise SetlabError("stabiliser order does not divide the group order: nauty inconsistent")
    return d.group_order // order


@dataclass(frozen=True)
class Generation:
    """Outcome of a level-by-level generation.

    ``levels[k]`` holds the statistics of the k-cap classes that were expanded (``classes``, and
    without a target ``caps``, ``complete``, ``complete_classes``, ``extensions``);
    ``largest`` is one cap of the last non-empty level; ``finished`` is False when a time or
    size budget stopped the run.
    """

    levels: list[dict[str, int]]
    largest: list[int]
    finished: bool
    seconds: float


def generate(
    properties: int,
    values: int = 3,
    *,
    target: int | None = None,
    store: Store | None = None,
    workers: int | None = None,
    time_limit: float | None = None,
    max_classes: int = 200_000,
) -> Generation:
    """Generate the caps of a deck level by level, one per class, checkpointed in ``store``.

    Without ``target`` every class of every size is generated and counted. With ``target`` only
    caps that may still grow to ``target`` cards are expanded; whenever a cap of ``target`` cards
    appears, the target rises by one, so an empty final level proves that no cap exceeds the
    largest level reached. Finished tasks are checkpointed in ``store`` (so a rerun resumes),
    except in a run with a ``time_limit``, which is not resumable.

    Examples
    --------
    >>> run = generate(2)
    >>> [level["classes"] for level in run.levels], [level["caps"] for level in run.levels]
    ([1, 1, 1, 1, 1], [1, 9, 36, 72, 54])
    """
    deck(properties, values)  # validates P and V
    slice_bound = 1 if properties == 1 else largest_cap_size_bound(properties - 1, values)
    job = f"caps-generate-P{properties}-V{values}-target{target}"
    workers = default_workers() if workers is None else workers
    start = time.perf_counter()
    deadline = None if time_limit is None else time.time() + time_limit
    level: list[list[int]] = [[]]
    levels: list[dict[str, int]] = []
    largest: list[int] = []
    pool: Executor | None = None
    finished = True
    try:
        for k in itertools.count():
            if not level:
                break
            largest = level[0]
            if (deadline is not None and time.time() > deadline) or len(level) > max_classes:
                finished = False
                break
            tasks = {
                f"k{k}.c{i}": (
                    properties,
                    values,
                    level[i : i + CHUNK],
                    target,
                    slice_bound,
                    deadline,
                )
                for i in range(0, len(level), CHUNK)
            }
            parallel = workers > 1 and len(tasks) > 2
            if parallel and pool is None:
                pool = ProcessPoolExecutor(max_workers=workers)
            results = run_tasks(
                job,
                tasks,
                _extend_level,
                store if deadline is None else None,
                workers=workers if parallel else 1,
                executor=pool if parallel else None,
                description=f"caps of {k} cards",
            )
            if any(r["timed_out"] for r in results.values()):
                finished = False
                break
            summary = {"k": k, "classes": len(level)}
            for key in ("labelled", "complete", "complete_classes", "extensions", "pruned"):
                summary[key] = sum(r[key] for r in results.values())
            summary["caps"] = summary.pop("labelled")
            if target is not None:
                for key in ("caps", "complete", "complete_classes", "extensions"):
                    del summary[key]
            levels.append(summary)
            level = [child for r in results.values() for child in r["children"]]
            if target is not None and level and k + 1 >= target:
                target = k + 2  # a (k+1)-cap exists: look for a bigger one from now on
    finally:
        if pool is not None:
            pool.shutdown()
    return Generation(levels, largest, finished, time.perf_counter() - start)


# -- counting ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CapCount:
    """Caps of k cards: labelled, up to the group, and how many of them are complete."""

    k: int
    caps: int
    classes: int
    complete: int
    complete_classes: int


def count_caps(
    properties: int, *, store: Store | None = None, workers: int | None = None
) -> list[CapCount]:
    """Number of k-caps of AG(P,3) for every k (P <= 4): labelled, classes, complete.

    With a ``store`` the finished table is kept there (job :data:`COUNT_TABLE_JOB`) and read back
    at once; without one (and default workers) it is computed once per process. Labelled
    counts are sums of orbit sizes |AGL(P,3)| / |Aut(S)| over the class representatives,
    cross-checked level by level against the double count (k + 1) caps(k + 1) = sum over k-caps S
    of the number of cards that extend S.

    Examples
    --------
    >>> [(c.k, c.caps, c.classes, c.complete) for c in count_caps(2)][3:]
    [(3, 72, 1, 0), (4, 54, 1, 54)]
    """
    check_properties(properties)
    if properties > 4:
        raise SetlabError("cap counts are computed for P <= 4 (AG(5,3) has too many classes)")
    if store is None and workers is None:
        return list(_cached_counts(properties))
    return list(_count_caps(properties, store, workers))


COUNT_TABLE_JOB = "caps-count-table"
"""Checkpoint job holding the finished count table of each P (task key ``P4``...)."""


def _count_caps(properties: int, store: Store | None, workers: int | None) -> tuple[CapCount, ...]:
    if store is not None:
        saved = store.finished_tasks(COUNT_TABLE_JOB).get(f"P{properties}")
        if saved is not None:
            return tuple(CapCount(**row) for row in saved)
    run = generate(properties, store=store, workers=workers)
    levels = run.levels
    for below, above in itertools.pairwise(levels):
        if below["extensions"] != above["k"] * above["caps"]:
            raise SetlabError(f"double count failed between caps of {below['k']} and {above['k']}")
    if levels[-1]["extensions"]:
        raise SetlabError("the last level still extends: generation incomplete")
    table = tuple(
        CapCount(lv["k"], lv["caps"], lv["classes"], lv["complete"], lv["complete_classes"])
        for lv in levels
    )
    if store is not None:
        _record_largest(
            store,
            properties,
            3,
            run.largest,
            "canonical augmentation, full count",
            {
                "method": "isomorph-free generation of all caps (canonical augmentation)",
                "counts": [vars(c) for c in table],
                "seconds": run.seconds,
            },
        )
        store.finish_task(COUNT_TABLE_JOB, f"P{properties}", [vars(c) for c in table])
    return table


@cache
def _cached_counts(properties: int) -> tuple[CapCount, ...]:
    return _count_caps(properties, None, None)


def no_set_probability(k: int, properties: int = 4, store: Store | None = None) -> Fraction:
    """Exact probability that k cards drawn at random from the 3^P hold no set.

    caps(k) / C(3^P, k), from :func:`count_caps`: read from (or computed into) ``store`` when
    given, else computed once per process (a few seconds for P = 4).

    Examples
    --------
    >>> no_set_probability(3, 2), no_set_probability(5, 2)
    (Fraction(6, 7), Fraction(0, 1))
    """
    check_properties(properties)
    n = 3**properties
    if not isinstance(k, int) or not 0 <= k <= n:
        raise SetlabError(f"the number of cards must be an integer from 0 to {n}, got {k!r}")
    counts = _cached_counts(properties) if store is None else count_caps(properties, store=store)
    caps = counts[k].caps if k < len(counts) else 0
    return Fraction(caps, math.comb(n, k))


def odds_against(probability: Fraction) -> str:
    """The odds against an event of the given probability, "q:1" as the seed writes them.

    Rounded to two significant figures.

    Examples
    --------
    >>> odds_against(Fraction(1, 31)), odds_against(Fraction(1, 2701))
    ('30:1', '2700:1')
    """
    if probability <= 0:
        return "certain"
    shown = float(f"{float((1 - probability) / probability):.2g}")
    return f"{shown:.0f}:1" if shown >= 10 else f"{shown:g}:1"


def inclusion_exclusion_caps(k: int, properties: int) -> int:
    """k-caps of AG(P,3) for k <= 5 by inclusion-exclusion over the lines inside a k-set.

    Two lines meeting in a point span 5 cards; two disjoint lines need 6 and no third line lies in
    the 5 cards of two meeting ones, so for k <= 5 only single lines and meeting pairs count:
    caps(k) = C(N,k) - L C(N-3,k-3) + Q C(N-5,k-5), with N = 3^P, L = N(N-1)/6 lines and
    Q = N C((N-1)/2, 2) pairs of lines through a common card.

    Examples
    --------
    >>> inclusion_exclusion_caps(5, 4)
    22441536
    """
    if not 0 <= k <= 5:
        raise SetlabError("the inclusion-exclusion formula covers k <= 5")
    n = 3**properties
    lines = n * (n - 1) // 6
    meeting = n * math.comb((n - 1) // 2, 2)

    def comb(a: int, b: int) -> int:
        return math.comb(a, b) if b >= 0 else 0

    return comb(n, k) - lines * comb(n - 3, k - 3) + meeting * comb(n - 5, k - 5)


# -- largest caps ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LargestCap:
    """The largest cap of a deck: size, a witness (card indices), and whether it is proven."""

    properties: int
    values: int
    size: int
    proven: bool
    witness: list[int]
    proof: dict[str, Any]


@cache
def largest_cap_size_bound(properties: int, values: int = 3) -> int:
    """Proven largest cap size of a deck small enough to settle quickly (used for slice bounds).

    Examples
    --------
    >>> largest_cap_size_bound(3), largest_cap_size_bound(2, 4)
    (9, 4)
    """
    result = largest_cap(properties, values)
    if not result.proven:
        raise SetlabError(f"largest cap of the {values}^{properties} deck is not proven")
    return result.size


def largest_cap(
    properties: int,
    values: int = 3,
    *,
    store: Store | None = None,
    workers: int | None = None,
    time_limit: float | None = None,
    start: Sequence[int] | None = None,
) -> LargestCap:
    """Largest cap of the deck with P properties of V values, proven by exhaustive generation.

    A first witness comes from ``start`` (a known cap), the constructions of
    :func:`setlab.extremal.bigcaps.best_construction` (V = 3) or greedy completion; then the
    pruned generation of :func:`generate` either finds bigger caps or proves that none exists.
    The proof record lists, per level, the classes expanded and pruned. With a ``time_limit``
    that runs out the best witness is returned with ``proven=False``. For AG(P,3) with P >= 6,
    and P = 5 unless a ``time_limit`` asks for a search, the construction is returned unproven.
    A proven result already in ``store`` is returned as stored.

    Examples
    --------
    >>> r = largest_cap(3)
    >>> r.size, r.proven, is_cap(r.witness, 3)
    (9, True, True)
    """
    check_properties(properties)
    if store is not None and start is None:
        stored = store.get("maxcap", properties, 0, {"values": values})
        if stored is not None and stored.proven and stored.witness is not None:
            proof = stored.proof or {}
            witness = sorted(stored.witness)
            return LargestCap(properties, values, len(witness), True, witness, proof)
    if values == 3 and (properties >= 6 or (properties == 5 and time_limit is None)):
        # AG(5,3) has far too many classes of caps to exhaust: report the construction
        witness = indices_of(best_construction(properties)).tolist()
        proof = {"method": "construction (product of Hill-type caps); no search", "finished": False}
        if store is not None:
            _record_largest(store, properties, values, witness, "construction", proof)
        return LargestCap(properties, values, len(witness), False, sorted(witness), proof)
    d = deck(properties, values)
    if start is not None:
        witness = [int(c) for c in start]
    elif values == 3:
        witness = indices_of(best_construction(properties)).tolist()
    else:
        witness = _greedy_witness(d)
    if not is_cap(witness, properties, values):
        raise SetlabError("the starting witness is not a cap")
    start_size = len(witness)
    run = generate(
        properties,
        values,
        target=len(witness) + 1,
        store=store,
        workers=workers,
        time_limit=time_limit,
    )
    if len(run.largest) > len(witness):
        witness = run.largest
    proven = run.finished
    size = len(witness)
    proof = {
        "method": "isomorph-free generation (canonical augmentation) with slice bounds",
        "group_order": d.group_order,
        "start_size": start_size,
        "levels": run.levels,
        "seconds": run.seconds,
        "finished": run.finished,
    }
    if store is not None:
        _record_largest(store, properties, values, witness, "canonical augmentation", proof)
    return LargestCap(properties, values, size, proven, sorted(witness), proof)


def verify_largest_cap_proof(properties: int, values: int, proof: dict[str, Any]) -> bool:
    """Re-run the generation a proof record describes and compare every level's counts.

    Examples
    --------
    >>> r = largest_cap(2)
    >>> verify_largest_cap_proof(2, 3, r.proof)
    True
    """
    rerun = largest_cap(properties, values)
    return rerun.proven and rerun.proof["levels"] == proof["levels"]


def record_largest_cap(store: Store, result: LargestCap) -> None:
    """Keep a largest-cap result in ``store`` as :func:`largest_cap` does with a ``store``.

    The witness always (problem ``"maxcap"``, ``cards = 0``, ``params = {"values": V}``); the
    proof record as the bound only when the search finished.

    Examples
    --------
    >>> store = Store(":memory:")
    >>> record_largest_cap(store, largest_cap(2))
    >>> r = store.get("maxcap", 2, 0, {"values": 3})
    >>> r.value, r.proven
    (4, True)
    """
    searched = "levels" in result.proof or "counts" in result.proof
    method = "canonical augmentation" if searched else "construction"
    _record_largest(store, result.properties, result.values, result.witness, method, result.proof)


def _greedy_witness(d: Deck) -> list[int]:
    """A maximal cap: add cards in index order while they keep it a cap."""
    cap: list[int] = []
    free = np.ones(d.size, dtype=bool)
    while free.any():
        cap.append(int(np.flatnonzero(free)[0]))
        free = _free_cards(np.asarray(cap, dtype=np.int64), d.offsets, d.completions, d.size)
    return cap


def _record_largest(
    store: Store,
    properties: int,
    values: int,
    witness: list[int],
    method: str,
    proof: dict[str, Any],
) -> None:
    params = {"values": values}
    witness = sorted(int(c) for c in witness)
    size = len(witness)
    store.record_witness("maxcap", properties, 0, "max", size, witness, method, params)
    if proof.get("finished", True):
        store.record_bound("maxcap", properties, 0, "max", size, proof, method, params)


def card_words(cards: Sequence[int], properties: int, values: int = 3) -> list[list[int]]:
    """Digit lists (base V, big-endian) of card indices.

    Examples
    --------
    >>> card_words([0, 5], 2, 4)
    [[0, 0], [1, 1]]
    """
    out = []
    for c in cards:
        word = []
        for _ in range(properties):
            c, digit = divmod(int(c), values)
            word.append(digit)
        out.append(word[::-1])
    return out
