"""Caps of a deck generated level by level, one per class under the deck's group G.

McKay's canonical augmentation: a (k+1)-cap S + x is kept iff x lies in the Aut(S + x)-orbit of
a canonical card of S + x, and x is tried once per Aut(S)-orbit of the cards extending S, so
every class appears exactly once with no certificate table. Each level also counts the caps it
stands for by orbit-stabiliser, |G| / |Aut(S)| per class. This is the second rule
(:class:`AugmentationRule`) of the one level loop, :func:`setlab.extremal.search.grow_levels`,
so the levels' tasks and checkpoints are named and run as the searches' are.

References
----------
B. D. McKay, "Isomorph-free exhaustive generation", J. Algorithms 26 (1998) 306-324.
"""

from __future__ import annotations

import time
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import cache
from typing import Any

import numba as nb
import numpy as np

from setlab.executor import default_workers, process_pool
from setlab.extremal.caps.deck import Deck, deck, deck_pair_completions
from setlab.extremal.search import LevelTasks, grow_levels
from setlab.store import Store

__all__ = ["CHUNK", "AugmentationRule", "Generation", "generate"]

CHUNK = 64
"""Caps per task of one generation level (fixed, so checkpoint names survive a change of pool)."""


@cache
def _invariant_weights(length: int) -> np.ndarray:
    return np.random.default_rng(20011).integers(1, 2**62, size=length, dtype=np.uint64)


@cache
def _slice_of_card(properties: int, values: int) -> np.ndarray:
    """(classes, N) array: the part of each partition holding each card."""
    d = deck(properties, values)
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
    degree = deck_pair_completions(cap, offsets, completions, n)
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


@nb.njit(cache=True)
def _invariant_verdicts(  # pragma: no cover - compiled
    cap, candidates, part, parts, weights, offsets, completions, n
):
    """The invariants' verdict on each child cap + x, x in ``candidates`` (``cap`` sorted).

    0: some card of cap + x has a greater invariant than x, so x is not canonical; 1: x alone
    has the greatest, so it is; 2: x ties for the greatest with other cards, and nauty decides.
    One compiled call per parent cap: the children are built in place, not as arrays each.
    """
    k = cap.shape[0]
    verdicts = np.zeros(candidates.shape[0], dtype=np.int8)
    child = np.empty(k + 1, dtype=np.int64)
    for j in range(candidates.shape[0]):
        x = candidates[j]
        # child = cap + x, sorted; x lands at position `mine`
        mine = 0
        while mine < k and cap[mine] < x:
            child[mine] = cap[mine]
            mine += 1
        child[mine] = x
        for i in range(mine, k):
            child[i + 1] = cap[i]
        values = _card_invariants(child, part, parts, weights, offsets, completions, n)
        best = values.max()
        if values[mine] == best:
            verdicts[j] = 1 if (values == best).sum() == 1 else 2
    return verdicts


def _canonical_children(d: Deck, cap: np.ndarray, candidates: np.ndarray) -> list[list[int]]:
    """McKay's acceptance test on each child cap + x: is x in the Aut(cap + x)-orbit of the
    child's canonical card?

    The canonical card has the greatest invariant; ties are broken by its position in nauty's
    canonical labelling of the coloured incidence graph. Both choices commute with G, so exactly
    one augmentation per class of children passes.
    """
    part = _slice_of_card(d.properties, d.values)
    weights = _invariant_weights(2 * (d.size + 1))
    verdicts = _invariant_verdicts(
        cap, candidates, part, d.slices.shape[1], weights, d.offsets, d.completions, d.size
    )
    children = []
    for added, verdict in zip(candidates.tolist(), verdicts.tolist(), strict=True):
        if verdict == 0:
            continue
        child = np.sort(np.append(cap, added))
        if verdict == 2:  # a tie: the child's orbits, then if need be nauty's labelling, decide
            values = _card_invariants(
                child, part, d.slices.shape[1], weights, d.offsets, d.completions, d.size
            )
            ties = child[values == values.max()]
            orbits = d.incidence.stabiliser(child)[1]
            # the tied cards in one orbit: the canonical card is among them, so x is in its
            # orbit; else the canonical card is the tie first in the canonical labelling
            if np.any(orbits[ties] != orbits[added]):
                position = d.incidence.canonical_labelling(child)
                canonical = ties[np.argmin(position[ties])]
                if orbits[added] != orbits[int(canonical)]:
                    continue
        children.append(child.tolist())
    return children


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
    target: int | None,
    slice_bound: int,
    deadline: float | None,
    caps: list[list[int]],
) -> dict[str, Any]:
    """Children (one per class) of a chunk of class representatives of k-caps, and statistics.

    With ``target`` set, caps that provably cannot grow to ``target`` cards are dropped
    (``pruned``) and no counts are made. Past the wall-clock ``deadline`` (``time.time()``) the
    task stops and says ``timed_out``. Statistics: ``labelled`` = sum of orbit sizes,
    ``complete`` / ``complete_classes`` = caps with no free card, ``extensions`` = sum over the
    caps S of the class of |orbit(S)| * |free(S)| (= (k + 1) caps(k + 1), a cross-check).
    """
    d = deck(properties, values)
    n = d.size
    stats = {"labelled": 0, "complete": 0, "complete_classes": 0, "extensions": 0, "pruned": 0}
    children: list[list[int]] = []
    cards = np.arange(n)
    for members in caps:
        if deadline is not None and time.time() > deadline:
            return {"children": children, "timed_out": True, **stats}
        cap = np.sort(np.asarray(members, dtype=np.int64))
        # the free cards: off the cap, completing none of its pairs
        free = deck_pair_completions(cap, d.offsets, d.completions, n) == 0
        free[cap] = False
        if target is not None and _upper_bound(d, cap, free, slice_bound) < target:
            stats["pruned"] += 1
            continue
        stabiliser, orbits = d.incidence.stabiliser(cap)
        if target is None:
            orbit = d.incidence.index(stabiliser)
            stats["labelled"] += orbit
            stats["extensions"] += orbit * int(free.sum())
            if not free.any():
                stats["complete"] += orbit
                stats["complete_classes"] += 1
        # one augmentation per Aut(cap)-orbit of free cards
        children += _canonical_children(d, cap, cards[free & (orbits == cards)])
    return {"children": children, "timed_out": False, **stats}


class AugmentationRule:
    """The caps' rule for :func:`~setlab.extremal.search.grow_levels`: canonical augmentation.

    Level k holds one k-cap per class; :func:`_extend_level` tries one free card per orbit of
    each cap's stabiliser and keeps a child when the added card is canonical, so no table of
    forms is needed and the tasks' children are simply joined. With a ``target``, a cap of
    ``target`` cards raises it by one (look for a bigger one from now on). The generation stops,
    unfinished, past ``deadline`` (``time.time()``) or at a level of more than ``max_classes``
    caps. Checkpoint jobs: ``caps-generate-P{P}-V{V}-target{T}/level{k}``, T the target asked.
    Yields each level's statistics (see :class:`Generation`).

    Examples
    --------
    >>> rule = AugmentationRule(2, 3, target=None, slice_bound=3, workers=1)
    >>> rule.tasks(0, [[]]).job
    'caps-generate-P2-V3-targetNone/level0'
    """

    def __init__(
        self,
        properties: int,
        values: int,
        *,
        target: int | None,
        slice_bound: int,
        workers: int,
        deadline: float | None = None,
        max_classes: int = 200_000,
    ) -> None:
        self.properties, self.values, self.target = properties, values, target
        self.slice_bound, self.workers, self.deadline = slice_bound, workers, deadline
        self.max_classes = max_classes
        self.prefix = f"caps-generate-P{properties}-V{values}-target{target}"
        self.jobs: list[str] = []
        self.largest: list[int] = []
        self.finished = True
        self.pool: Executor | None = None
        self.expanded = 0  # caps in the level being extended

    def stop(self, k: int, level: list[list[int]]) -> bool:
        self.largest = level[0]
        if (self.deadline is not None and time.time() > self.deadline) or (
            len(level) > self.max_classes
        ):
            self.finished = False
        return not self.finished

    def tasks(self, k: int, level: list[list[int]]) -> LevelTasks:
        # The level's caps go out CHUNK at a time; one pool serves every level big enough.
        parallel = self.workers > 1 and len(level) > 2 * CHUNK
        if parallel and self.pool is None:
            self.pool = process_pool(self.workers)
        self.jobs.append(f"{self.prefix}/level{k}")
        self.expanded = len(level)
        return LevelTasks(
            self.jobs[-1],
            _extend_level,
            (self.properties, self.values, self.target, self.slice_bound, self.deadline),
            CHUNK,
            workers=self.workers if parallel else 1,
            executor=self.pool if parallel else None,
            description=f"caps of {k} cards",
        )

    def children(
        self, k: int, payloads: list[dict[str, Any]]
    ) -> tuple[list[list[int]], dict[str, int] | None]:
        if any(p["timed_out"] for p in payloads):
            self.finished = False
            return [], None  # the level is incomplete: abandoned
        summary = {"k": k - 1, "classes": self.expanded}
        for key in ("labelled", "complete", "complete_classes", "extensions", "pruned"):
            summary[key] = sum(p[key] for p in payloads)
        summary["caps"] = summary.pop("labelled")
        if self.target is not None:
            for key in ("caps", "complete", "complete_classes", "extensions"):
                del summary[key]
        level = [child for p in payloads for child in p["children"]]
        if self.target is not None and level and k >= self.target:
            self.target = k + 1  # a k-cap exists: look for a bigger one from now on
        return level, summary

    def close(self) -> None:
        """Shut down the pool, if one was started."""
        if self.pool is not None:
            self.pool.shutdown()
            self.pool = None


@dataclass(frozen=True)
class Generation:
    """Outcome of a level-by-level generation.

    ``levels[k]`` holds the statistics of the k-cap classes that were expanded (``classes``, and
    without a target ``caps``, ``complete``, ``complete_classes``, ``extensions``);
    ``largest`` is one cap of the last non-empty level; ``finished`` is False when a time or
    size budget stopped the run. ``jobs`` names the checkpoint jobs of its levels in the store:
    the caller forgets them (:meth:`Generation.forget`) once it has recorded what they prove.
    """

    levels: list[dict[str, int]]
    largest: list[int]
    finished: bool
    seconds: float
    jobs: tuple[str, ...] = ()

    def forget(self, store: Store | None) -> None:
        """Drop the level checkpoints of a finished run from ``store`` (its result is recorded);
        an unfinished run keeps them, so a rerun resumes."""
        if store is not None and self.finished:
            for job in self.jobs:
                store.forget_job(job)


def generate(
    properties: int,
    values: int = 3,
    *,
    target: int | None = None,
    store: Store | None = None,
    workers: int | None = None,
    time_limit: float | None = None,
    max_classes: int = 200_000,
    slice_bound: int | None = None,
    scheduler: str | None = None,
) -> Generation:
    """Generate the caps of a deck level by level, one per class, checkpointed in ``store``.

    Without ``target`` every class of every size is generated and counted. With ``target`` only
    caps that may still grow to ``target`` cards are expanded; whenever a cap of ``target`` cards
    appears, the target rises by one, so an empty final level proves that no cap exceeds the
    largest level reached. Finished tasks are checkpointed in ``store`` (so a rerun resumes),
    except in a run with a ``time_limit``, which is not resumable. ``slice_bound`` is the most
    cards a cap may have in one slice (a copy of the deck with P - 1 properties), used with a
    ``target`` to prune; :func:`setlab.extremal.caps.largest.largest_cap` passes the proven
    largest cap of that smaller deck, and without one only the slice's size bounds it. With a
    ``scheduler`` address (default ``$SETLAB_SCHEDULER``) the tasks run on that Dask cluster.

    Examples
    --------
    >>> run = generate(2)
    >>> [level["classes"] for level in run.levels], [level["caps"] for level in run.levels]
    ([1, 1, 1, 1, 1], [1, 9, 36, 72, 54])
    """
    d = deck(properties, values)  # validates P and V
    rule = AugmentationRule(
        properties,
        values,
        target=target,
        slice_bound=d.slices.shape[-1] if slice_bound is None else slice_bound,
        workers=default_workers() if workers is None else workers,
        deadline=None if time_limit is None else time.time() + time_limit,
        max_classes=max_classes,
    )
    start = time.perf_counter()
    try:
        # a run with a deadline is not resumable, so it checkpoints nothing
        checkpoints = store if rule.deadline is None else None
        levels = list(grow_levels(rule, [[]], store=checkpoints, scheduler=scheduler))
    finally:
        rule.close()
    jobs = tuple(rule.jobs) if store is not None and rule.deadline is None else ()
    return Generation(levels, rule.largest, rule.finished, time.perf_counter() - start, jobs)
