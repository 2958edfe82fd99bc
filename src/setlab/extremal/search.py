"""Isomorph-free, pruned generation of n-card configurations of AG(P,3) up to AGL(P,3).

Level k holds one representative per AGL-orbit of the k-card configurations whose set count
passes the level threshold T_k. Level k is built by adding every card to every level-(k-1)
representative (one card per orbit of the representative's stabiliser) and keeping one child per
canonical form (:func:`~setlab.symmetry.canonical_form`, a complete invariant read off nauty's
canonical labelling). A configuration passing T_k has a card whose deletion leaves one passing
T_{k-1} (see :func:`level_thresholds`), so no orbit passing T_n is ever missed. The max and min
searches (:func:`search`) and the cap classes of :mod:`setlab.extremal.nearcaps` (threshold 0
for min: no set at all) keep children by this rule (:class:`CertificateRule`); the caps of the
V-valued decks (:func:`setlab.extremal.caps.generate`) keep them by canonical augmentation. Both
rules run in the one level loop :func:`grow_levels`, whose step :func:`run_level` sends a level's
parents out in named, checkpointed tasks.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, Protocol

import numpy as np

from setlab.cards import check_properties, deck_size
from setlab.errors import SetlabError
from setlab.executor import default_workers, run_tasks
from setlab.extremal.identities import greatest_degree_bound, least_degree_bound
from setlab.geometry import affine_group_order, third_card_table
from setlab.kernels import pair_completions
from setlab.store import Sense, Store
from setlab.symmetry import canonical_form, point_orbits, stabiliser_order

__all__ = [
    "CertificateRule",
    "Level",
    "LevelRule",
    "LevelTasks",
    "SearchResult",
    "extend_classes",
    "generate_levels",
    "grow_levels",
    "job_name",
    "level_thresholds",
    "merge_classes",
    "orbit_sizes",
    "run_level",
    "search",
    "task_key",
]

CODE_VERSION = "search-v3"
"""Version of the level rules (pruning, one card per stabiliser orbit, dedup by the canonical
form, the representative first met in level order): it names every checkpoint, so a
checkpoint written under other rules is never read."""

_SERIAL_WORK = 20_000
"""Below this many (parent, card) pairs a level runs in this process: a pool costs more."""

_CHUNKS_PER_LEVEL = 32
"""A level's parents go out in about this many tasks (at most 500 parents each): enough to keep
a few workers busy and to lose little work to an interruption, and the same for any pool size."""


# -- what each level keeps -----------------------------------------------------------------------


def level_thresholds(sense: Sense, cards: int, threshold: int) -> list[int]:
    """The thresholds T_0..T_n that a search for n-card configurations passing T keeps.

    Max (configurations with at least T sets): a k-card configuration with L sets has a card on at
    most min(floor(3L/k), floor((k-1)/2)) of them (the average degree is 3L/k; a card pairs with
    the k-1 others in disjoint pairs), and L - floor(3L/k) does not decrease with L, so deleting it
    leaves at least T_{k-1} = T_k - min(floor(3 T_k / k), floor((k-1)/2)) sets. Thresholds <= 0
    keep everything and are written 0.

    Min (configurations with at most T sets): some card lies on at least ceil(3L/k) of the L sets,
    and L - ceil(3L/k) does not decrease with L, so T_{k-1} = T_k - ceil(3 T_k / k). Below three
    cards no configuration has a set (L = 0 whatever T_k is), so T_k is carried down unchanged;
    a negative T_k keeps nothing and is written -1.

    The two degree inequalities are :func:`setlab.extremal.identities.least_degree_bound` and
    :func:`~setlab.extremal.identities.greatest_degree_bound`.

    Examples
    --------
    >>> level_thresholds("max", 12, 15)
    [0, 0, 0, 1, 1, 2, 3, 4, 5, 7, 9, 12, 15]
    >>> level_thresholds("min", 6, 1)
    [0, 0, 0, 0, 0, 0, 1]
    """
    if sense not in ("max", "min"):
        raise SetlabError(f"sense is 'max' or 'min', got {sense!r}")
    if cards < 0:
        raise SetlabError("the number of cards must be non-negative")
    out = [0] * (cards + 1)
    out[cards] = threshold
    for k in range(cards, 0, -1):
        t = out[k]
        if sense == "max":
            # delete a card of least degree: at least T_k - least_degree_bound sets remain
            out[k - 1] = max(0, t - least_degree_bound(k, t))
        elif t < 0:
            out[k - 1] = -1
        else:
            # delete a card of greatest degree: at most T_k - greatest_degree_bound sets remain
            out[k - 1] = t - (greatest_degree_bound(k, t) if k >= 3 else 0)
    return out


def _passes(sense: Sense, count: int, threshold: int) -> bool:
    return count >= threshold if sense == "max" else count <= threshold


def _unpruned(sense: Sense, k: int, threshold: int) -> bool:
    """True when every k-card configuration passes (0 <= sets <= k(k-1)/6)."""
    return threshold <= 0 if sense == "max" else threshold >= k * (k - 1) // 6


# -- how a level extends -------------------------------------------------------------------------


def extend_classes(
    properties: int, sense: Sense, threshold: int, parents: list[list[Any]]
) -> dict[str, Any]:
    """One task: the children passing ``threshold`` of each parent ``[cards, sets]``, deduplicated.

    A child adds a card x to the parent S; its set count is sets(S) plus the number of pairs of S
    whose third card is x. Only one x per orbit of Aut(S) is tried. Returns the classes found
    (``[canonical form, cards, sets]``, first seen kept) and the work done.

    Examples
    --------
    >>> out = extend_classes(3, "max", 1, [[[0, 1], 0]])
    >>> [(cards, sets) for _, cards, sets in out["classes"]]
    [([0, 1, 2], 1)]
    """
    n = deck_size(properties)
    third = third_card_table(properties).astype(np.int64)
    found: dict[str, list[Any]] = {}  # canonical form -> [form, cards, sets]
    children = certificate_calls = automorphism_calls = 0
    for cards, sets in parents:
        s = np.asarray(cards, dtype=np.int64)
        # Adding x to S creates exactly completes[x] sets: one per pair of S whose third is x.
        completes = pair_completions(s, third)
        # Cards in one Aut(S)-orbit give equivalent children, so one card per orbit is tried:
        # the orbit's label is its smallest point. The empty configuration's group (all of
        # AGL) is transitive on the cards, so card 0 alone stands for every child then.
        if len(s):
            orbits = point_orbits(s, properties)
            automorphism_calls += 1
        else:
            orbits = np.zeros(n, dtype=np.int64)
        free = np.ones(n, dtype=bool)
        free[s] = False
        candidates = np.flatnonzero(free & (orbits == np.arange(n)))
        for x in candidates.tolist():
            count = int(sets + completes[x])
            children += 1
            # Pruning: a child failing T_k is no deletion of a configuration passing T_n.
            if not _passes(sense, count, threshold):
                continue
            # Isomorph rejection: equivalent children share a canonical form (a complete
            # invariant, not a digest); the first is kept.
            child = sorted([*cards, x])
            form = canonical_form(child, properties)
            certificate_calls += 1
            found.setdefault(form, [form, child, count])
    return {
        "classes": list(found.values()),
        "children": children,
        "certificate_calls": certificate_calls,
        "automorphism_calls": automorphism_calls,
    }


# -- the level loop ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Level:
    """Level k of a generation: one ``[cards, sets]`` per class kept, and the work it took.

    ``hash`` digests the sorted canonical forms of the classes, so equal levels hash equally
    whatever their representatives.
    """

    k: int
    classes: list[list[Any]]
    children: int
    certificate_calls: int
    automorphism_calls: int
    hash: str


def _hash(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()


def task_key(job: str, arguments: Sequence[Any], parents: Sequence[Any]) -> str:
    """Checkpoint key of one task: a hash of all its input (its job, whose name carries the code
    version and the level, the arguments and the parents it extends), never its position in a
    level. A checkpoint is found only by a task with the same input, so a stale or foreign one
    is recomputed, not trusted.

    Examples
    --------
    >>> a = task_key("search-v3/max/P3/level3", (3, "max", 1), [[[0, 1], 0]])
    >>> a == task_key("search-v3/max/P3/level3", (3, "max", 1), [[[0, 1], 0]])
    True
    >>> a == task_key("search-v3/max/P3/level3", (3, "max", 1), [[[0, 2], 0]])  # other parents
    False
    """
    return _hash([job, list(arguments), list(parents)])


def merge_classes(items: Iterable[list[Any]]) -> list[list[Any]]:
    """One ``[form, cards, sets]`` per class among ``items``, the first met kept.

    The forms are :func:`~setlab.symmetry.canonical_form`: complete invariants, so equal forms
    are one class and unequal forms two; nothing is decided by a digest.

    Examples
    --------
    >>> line, other_line, triangle = [0, 1, 2], [0, 3, 6], [0, 1, 3]
    >>> items = [[canonical_form(c, 3), c, 0] for c in (line, other_line, triangle)]
    >>> [cards for _, cards, _ in merge_classes(items)]
    [[0, 1, 2], [0, 1, 3]]
    """
    kept: dict[str, list[Any]] = {}
    for item in items:
        kept.setdefault(item[0], item)
    return list(kept.values())


def job_name(properties: int, sense: Sense, thresholds: list[int], level: int) -> str:
    """Checkpoint job name of one level. Level k depends only on P, the sense and T_0..T_k (and
    the level rules, versioned by :data:`CODE_VERSION`), so searches for different n share
    equal levels; each task inside is keyed by :func:`task_key`.

    Examples
    --------
    >>> job_name(3, "max", [0, 0, 0, 1], 3).split("/")[:4]
    ['search-v3', 'max', 'P3', 'level3']
    >>> job_name(3, "max", [0, 0, 0, 1], 2) == job_name(3, "max", [0, 0, 0, 5], 2)  # shared
    True
    """
    prefix = _hash(thresholds[: level + 1])[:16]
    return f"{CODE_VERSION}/{sense}/P{properties}/level{level}/{prefix}"


def run_level(
    job: str,
    level: Sequence[Any],
    extend: Callable[..., dict[str, Any]],
    arguments: tuple[Any, ...],
    size: int,
    *,
    store: Store | None = None,
    workers: int | None = None,
    executor: Executor | None = None,
    scheduler: str | None = None,
    description: str = "",
    summary: Callable[[dict[str, Any]], str] | None = None,
) -> list[dict[str, Any]]:
    """Extend one level of a generation: ``extend(*arguments, parents)`` on each run of ``size``
    consecutive parents of ``level``; the payloads in the order of the level.

    The step every level-by-level generator shares, whatever its rule for children (certificate
    deduplication in :func:`generate_levels`, canonical augmentation in
    :func:`setlab.extremal.caps.generate`). A task is keyed by a hash of its whole input
    (:func:`task_key`), never by its position, and the runs depend on the level and ``size``
    alone, never on the number of workers: a generation checkpointed under ``job`` and resumed
    with another pool size (or on a Dask cluster, ``scheduler``; see
    :func:`setlab.executor.run_tasks`) finds a finished task only if it did exactly this work.

    Examples
    --------
    Two parents of AG(2,3) in tasks of one parent each; every child of a card is a line's pair:

    >>> out = run_level("demo", [[[0], 0], [[0, 1], 0]], extend_classes, (2, "max", 0), 1)
    >>> [[(cards, sets) for _, cards, sets in payload["classes"]] for payload in out]
    [[([0, 1], 0)], [([0, 1, 2], 1), ([0, 1, 3], 0)]]
    """
    runs = [list(level[begin : begin + size]) for begin in range(0, len(level), size)]
    tasks = {task_key(job, arguments, run): (*arguments, run) for run in runs}
    payloads = run_tasks(
        job,
        tasks,
        extend,
        store,
        workers=workers,
        executor=executor,
        scheduler=scheduler,
        description=description,
        summary=summary,
    )
    return [payloads[key] for key in tasks]  # in the order of the level


@dataclass(frozen=True)
class LevelTasks:
    """How one level goes out: ``extend(*arguments, parents)`` on runs of ``size`` parents,
    checkpointed under ``job``, on ``workers`` processes (or ``executor``), with a progress
    label and a postfix (see :func:`run_level`)."""

    job: str
    extend: Callable[..., dict[str, Any]]
    arguments: tuple[Any, ...]
    size: int
    workers: int | None = None
    executor: Executor | None = None
    description: str = ""
    summary: Callable[[dict[str, Any]], str] | None = None


class LevelRule(Protocol):
    """The two choices that make a level-by-level generator (McKay 1998): how a level extends
    (:meth:`tasks`, whose task function tries one card per orbit of each parent's stabiliser)
    and which children it keeps (:meth:`children`: one per class, passing the level's test)."""

    def stop(self, k: int, level: list[Any]) -> bool:
        """True to end the generation before extending level ``k`` (a budget is spent)."""
        ...

    def tasks(self, k: int, level: list[Any]) -> LevelTasks:
        """How level ``k`` (its classes in ``level``) goes out as tasks."""
        ...

    def children(self, k: int, payloads: list[dict[str, Any]]) -> tuple[list[Any], Any]:
        """Level ``k`` built from the tasks' payloads (in level order): its classes, and what the
        generator yields for it (None: nothing, the level is abandoned)."""
        ...


def grow_levels(
    rule: LevelRule,
    level: list[Any],
    first: int = 0,
    last: int | None = None,
    *,
    store: Store | None = None,
    scheduler: str | None = None,
) -> Iterator[Any]:
    """The one level loop: from ``level`` (level ``first``) build levels first + 1, ... by
    ``rule``, yielding what the rule makes of each, until level ``last``, an empty level, or the
    rule's :meth:`~LevelRule.stop`.

    Every isomorph-free generation of setlab runs here: the max and min searches and the cap
    classes (:func:`generate_levels`, one child per canonical form) and the caps of the V-valued
    decks (:func:`setlab.extremal.caps.generate`, canonical augmentation). Each level runs
    through :func:`run_level`, so its tasks are named by what they extend and checkpointed in
    ``store``, locally or on the Dask cluster at ``scheduler``.

    Examples
    --------
    The certificate rule of :func:`generate_levels` on AG(2,3), caps only (threshold 0 for min):

    >>> rule = CertificateRule(2, "min", [0] * 6, workers=1)
    >>> [len(built.classes) for built in grow_levels(rule, [[[], 0]], last=5)]
    [1, 1, 1, 1, 0]
    """
    for k in itertools.count(first):
        # Invariant: ``level`` holds one representative of each class the rule keeps at level
        # k, so extending each by every card (one per orbit of its stabiliser) reaches every
        # class of level k + 1 that the rule keeps.
        if (last is not None and k >= last) or rule.stop(k, level):
            return
        plan = rule.tasks(k, level)
        payloads = run_level(
            plan.job,
            level,
            plan.extend,
            plan.arguments,
            plan.size,
            store=store,
            workers=plan.workers,
            executor=plan.executor,
            scheduler=scheduler,
            description=plan.description,
            summary=plan.summary,
        )
        level, built = rule.children(k + 1, payloads)
        if built is not None:
            yield built
        if not level:
            return


class CertificateRule:
    """The searches' rule: level k keeps the children passing T_k, one per canonical form.

    Children come from :func:`extend_classes`; across tasks the first child of each form met
    in level order is kept (:func:`merge_classes`), and the level is then ordered by form
    (``order="certificate"``) or left as found (``"found"``). Checkpoint jobs are
    :func:`job_name`, which names a level by its thresholds alone. Yields a :class:`Level`.

    Examples
    --------
    >>> rule = CertificateRule(3, "max", [0, 0, 0, 1], workers=1)
    >>> rule.tasks(2, [[[0, 1], 0]]).arguments  # level 3 keeps what has >= 1 set
    (3, 'max', 1)
    """

    def __init__(
        self,
        properties: int,
        sense: Sense,
        thresholds: Sequence[int],
        *,
        order: Literal["certificate", "found"] = "certificate",
        workers: int | None = None,
        description: str = "",
    ) -> None:
        self.properties, self.sense, self.thresholds = properties, sense, list(thresholds)
        self.order, self.workers = order, workers
        self.description = description or f"{sense} P={properties}"

    def stop(self, k: int, level: list[Any]) -> bool:
        return False  # no budget: the thresholds alone decide

    def tasks(self, k: int, level: list[Any]) -> LevelTasks:
        # Work split: parents in about _CHUNKS_PER_LEVEL contiguous runs (see run_level), a
        # pool only when the level is big enough to pay for one.
        work = len(level) * (deck_size(self.properties) - k)
        return LevelTasks(
            job_name(self.properties, self.sense, self.thresholds, k + 1),
            extend_classes,  # looked up at run time (tests stand in a failing one)
            (self.properties, self.sense, self.thresholds[k + 1]),
            min(500, max(1, math.ceil(len(level) / _CHUNKS_PER_LEVEL))),
            workers=1 if work < _SERIAL_WORK else (self.workers or default_workers()),
            description=f"{self.description} level {k + 1}",
            summary=lambda done: f"{sum(len(p['classes']) for p in done.values())} children kept",
        )

    def children(self, k: int, payloads: list[dict[str, Any]]) -> tuple[list[Any], Level]:
        # Isomorph rejection across tasks: one child per canonical form, the first in level order.
        merged = merge_classes(item for payload in payloads for item in payload["classes"])
        if self.order == "certificate":
            merged.sort(key=lambda item: (item[0], item[1]))
        level = [[item[1], item[2]] for item in merged]
        return level, Level(
            k,
            level,
            sum(p["children"] for p in payloads),
            sum(p["certificate_calls"] for p in payloads),
            sum(p["automorphism_calls"] for p in payloads),
            _hash(sorted(item[0] for item in merged)),
        )


def generate_levels(
    properties: int,
    sense: Sense,
    thresholds: Sequence[int],
    *,
    start: list[list[Any]] | None = None,
    first: int = 0,
    order: Literal["certificate", "found"] = "certificate",
    store: Store | None = None,
    workers: int | None = None,
    description: str = "",
    scheduler: str | None = None,
) -> Iterator[Level]:
    """Levels first + 1, ..., n of the classes passing T_k: :func:`grow_levels` by the
    :class:`CertificateRule`.

    Level ``first`` is ``start`` (``[cards, sets]`` per class; default: the empty configuration
    at level 0); ``thresholds[k]`` (T_k, kept when >= for max, <= for min) decides what level k
    keeps, n = len(thresholds) - 1. Each level is yielded as it is built; the loop stops after
    an empty level (so an empty level 1 when the empty configuration fails T_0).

    A level's classes are ordered by certificate (``order="certificate"``), or as first found,
    parent by parent and card by card (``"found"``, which keeps as representative of each class
    the first child met). With a ``store``, finished tasks are checkpointed under
    :func:`job_name`, which names a level by its thresholds alone: so checkpoints need the whole
    chain from level 0 in certificate order. With a ``scheduler`` address (or
    ``$SETLAB_SCHEDULER``) the tasks run on that Dask cluster (:func:`setlab.executor.run_tasks`).

    Examples
    --------
    >>> [len(level.classes) for level in generate_levels(2, "min", [0] * 6, workers=1)]
    [1, 1, 1, 1, 0]
    """
    if store is not None and (start is not None or order != "certificate"):
        raise SetlabError("checkpoints name levels by thresholds: start at level 0, by certificate")
    if start is None:  # level 0: the empty configuration, no sets, if it passes T_0
        first, level = 0, ([[[], 0]] if _passes(sense, 0, thresholds[0]) else [])
    else:
        level = [[list(cards), sets] for cards, sets in start]
    rule = CertificateRule(
        properties, sense, thresholds, order=order, workers=workers, description=description
    )
    yield from grow_levels(
        rule, level, first, len(thresholds) - 1, store=store, scheduler=scheduler
    )


# -- the max and min searches --------------------------------------------------------------------


@dataclass
class SearchResult:
    """Outcome and proof record of a pruned level-by-level search.

    ``classes[k]`` is the number of orbits kept at level k; ``best``/``witness`` the extreme set
    count at level n among the kept orbits (None when none passes: the claim is refuted).
    ``orbit_checks[k]`` records, on unpruned levels, that the orbit sizes sum to C(N, k).
    ``levels[k - 1]`` names level k's representatives in the store (:meth:`Store.level`), for
    each level built, so a checker can replay the closure of every level.
    """

    properties: int
    cards: int
    sense: Sense
    threshold: int
    thresholds: list[int]
    classes: list[int] = field(default_factory=list)
    children: list[int] = field(default_factory=list)
    certificate_calls: list[int] = field(default_factory=list)
    automorphism_calls: list[int] = field(default_factory=list)
    orbit_checks: dict[str, bool] = field(default_factory=dict)
    level_hashes: list[str] = field(default_factory=list)
    levels: list[str] = field(default_factory=list)
    best: int | None = None
    witness: list[int] | None = None
    seconds: float = 0.0

    def record(self) -> dict[str, Any]:
        """The JSON-able proof record (with hashes of its input and of every level's classes)."""
        out = asdict(self)
        out["method"] = "search"
        out["input_hash"] = _hash([self.properties, self.cards, self.sense, self.threshold])
        return out


def search(
    properties: int,
    cards: int,
    sense: Sense,
    threshold: int,
    store: Store | None = None,
    *,
    workers: int | None = None,
    check_orbits: bool = True,
    scheduler: str | None = None,
) -> SearchResult:
    """All AGL-orbits of ``cards``-card configurations with >= (max) or <= (min) ``threshold`` sets.

    Level by level from the empty configuration (:func:`generate_levels`); each level's parents
    are split into tasks run by :func:`setlab.executor.run_tasks` and checkpointed in ``store``,
    so an interrupted search resumes; ``scheduler`` (a Dask scheduler address) runs them on a
    cluster; every level's representatives are stored there too (:meth:`Store.record_level`,
    named in ``levels``). Unpruned levels are checked by orbit-stabiliser when ``check_orbits``.

    Returns a :class:`SearchResult`. For max, ``best is None`` proves that no configuration has
    ``threshold`` sets; otherwise ``best`` is the maximum (every configuration with at least
    ``threshold`` sets was found). Min likewise.

    Examples
    --------
    >>> r = search(3, 9, "max", 12, workers=1)
    >>> r.best, r.classes
    (12, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
    >>> search(3, 9, "max", 13, workers=1).best is None
    True

    References
    ----------
    B. D. McKay, "Isomorph-free exhaustive generation", J. Algorithms 26 (1998) (orderly
    generation with isomorph rejection by canonical certificates).
    """
    check_properties(properties)
    n = deck_size(properties)
    if not 0 <= cards <= n:
        raise SetlabError(f"cards must be between 0 and {n}, got {cards}")
    started = time.perf_counter()
    thresholds = level_thresholds(sense, cards, threshold)
    result = SearchResult(properties, cards, sense, threshold, thresholds)
    # Level 0: the empty configuration, no sets; it passes T_0 unless a min threshold is < 0.
    kept = _passes(sense, 0, thresholds[0])
    result.classes.append(1 if kept else 0)
    result.children.append(0)
    result.certificate_calls.append(0)
    result.automorphism_calls.append(0)
    result.level_hashes.append(_hash([]))
    level: list[list[Any]] = [[[], 0]] if kept else []
    for built in generate_levels(
        properties,
        sense,
        thresholds,
        store=store,
        workers=workers,
        description=f"{sense}sets P={properties} n={cards}",
        scheduler=scheduler,
    ):
        level = built.classes
        result.classes.append(len(level))
        result.children.append(built.children)
        result.certificate_calls.append(built.certificate_calls)
        result.automorphism_calls.append(built.automorphism_calls)
        result.level_hashes.append(built.hash)
        if store is not None:
            name = job_name(properties, sense, thresholds, built.k)
            store.record_level(name, properties, built.k, [cards for cards, _ in level])
            result.levels.append(name)
        # Orbit-stabiliser check: on a level that prunes nothing the orbit sizes of the classes
        # add up to all C(N, k) configurations; a missed or doubled class breaks the sum.
        if check_orbits and _unpruned(sense, built.k, thresholds[built.k]):
            total = sum(orbit_sizes([c for c, _ in level], properties))
            result.orbit_checks[str(built.k)] = total == math.comb(n, built.k)
            if total != math.comb(n, built.k):
                k = built.k
                raise SetlabError(
                    f"orbit-stabiliser check failed at level {k}: {total} != C({n},{k})"
                )
    result.classes += [0] * (cards + 1 - len(result.classes))
    if level and len(level[0][0]) == cards:
        pick = max if sense == "max" else min
        best = pick(level, key=lambda item: item[1])
        result.best, result.witness = int(best[1]), [int(c) for c in best[0]]
    result.seconds = time.perf_counter() - started
    return result


def orbit_sizes(configurations: list[list[int]], properties: int) -> list[int]:
    """|AGL(P,3)| / |Aut(S)| for each configuration S.

    Examples
    --------
    >>> orbit_sizes([[0, 1, 2], [0, 1, 3]], 3)  # lines and triangles of AG(3,3)
    [117, 2808]
    """
    group = affine_group_order(properties)
    return [group // stabiliser_order(c, properties) for c in configurations]
