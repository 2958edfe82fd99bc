"""How many caps of each size AG(P,3) has, and the chance that k random cards hold no set.

caps(k) = sum over the classes of k-caps of |AGL(P,3)| / |Aut(S)| (orbit-stabiliser), from the
generation of :mod:`setlab.extremal.caps.generate`, cross-checked by the double count
(k + 1) caps(k + 1) = sum over k-caps of their free cards; k random cards hold no set with
probability caps(k) / C(N, k). For k <= 5 inclusion-exclusion gives caps(k) in closed form.

References
----------
D. E. Knuth, SETSET-ALL (2001): the 682,344 caps of 20 cards in AG(4,3).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from fractions import Fraction

from setlab.cards import check_properties
from setlab.errors import SetlabError
from setlab.executor import default_scheduler
from setlab.extremal.caps.generate import generate
from setlab.extremal.caps.largest import LargestCap, record_largest_cap
from setlab.store import Store

__all__ = [
    "CAP_COUNTS_COVER",
    "COUNT_TABLE_JOB",
    "MAX_COUNTED_PROPERTIES",
    "CapCount",
    "count_caps",
    "inclusion_exclusion_caps",
    "no_set_probability",
    "odds_against",
]


MAX_COUNTED_PROPERTIES = 4
"""Largest P whose caps are counted exactly (AG(5,3) has far too many classes of caps)."""

CAP_COUNTS_COVER = (
    f"cap counts are computed for P <= {MAX_COUNTED_PROPERTIES} (AG(5,3) has too many classes)"
)
"""Why no exact cap count (nor exact no-set probability beyond 5 cards) exists for larger P."""


@dataclass(frozen=True)
class CapCount:
    """Caps of k cards: labelled, up to the group, and how many of them are complete."""

    k: int
    caps: int
    classes: int
    complete: int
    complete_classes: int


def count_caps(
    properties: int,
    *,
    store: Store | None = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> list[CapCount]:
    """Number of k-caps of AG(P,3) for every k (P <= 4): labelled, classes, complete.

    With a ``store`` the finished table is kept there (job :data:`COUNT_TABLE_JOB`) and read back
    at once; the generation itself runs once per process, whichever store it is for, unless
    ``workers``, or a cluster with a store, are asked for. ``scheduler``:
    the address of a Dask cluster to run the generation on (default ``$SETLAB_SCHEDULER``). Labelled
    counts are sums of orbit sizes |AGL(P,3)| / |Aut(S)| over the class representatives,
    cross-checked level by level against the double count (k + 1) caps(k + 1) = sum over k-caps S
    of the number of cards that extend S.

    Examples
    --------
    >>> [(c.k, c.caps, c.classes, c.complete) for c in count_caps(2)][3:]
    [(3, 72, 1, 0), (4, 54, 1, 54)]
    """
    check_properties(properties)
    if properties > MAX_COUNTED_PROPERTIES:
        raise SetlabError(CAP_COUNTS_COVER)
    return list(_count_caps(properties, store, workers, scheduler))


COUNT_TABLE_JOB = "caps-count-table"
"""Checkpoint job holding the finished count table of each P (task key ``P4``...)."""


def _count_caps(
    properties: int, store: Store | None, workers: int | None, scheduler: str | None = None
) -> tuple[CapCount, ...]:
    if store is not None:
        saved = store.finished_tasks(COUNT_TABLE_JOB).get(f"P{properties}")
        if saved is not None:
            table = tuple(CapCount(**row) for row in saved)
            _TABLES.setdefault(properties, table)
            return table
    # one generation per process serves every call, unless a pool is asked for, or a cluster
    # for a store (`setlab caps count --scheduler`: the count runs there)
    on_cluster = store is not None and (default_scheduler() if scheduler is None else scheduler)
    if properties not in _TABLES or workers is not None or on_cluster:
        _TABLES[properties], _LARGEST[properties] = _generate_counts(
            properties, store, workers, scheduler
        )
    table = _TABLES[properties]
    if store is not None:  # kept, whether generated into this store or earlier in the process
        if properties in _LARGEST:
            largest = _LARGEST[properties]
            record_largest_cap(store, largest, method="canonical augmentation, full count")
        store.finish_task(COUNT_TABLE_JOB, f"P{properties}", [vars(c) for c in table])
    return table


def _generate_counts(
    properties: int, store: Store | None, workers: int | None, scheduler: str | None
) -> tuple[tuple[CapCount, ...], LargestCap]:
    """Every class of caps generated (checkpoints in ``store``), the labelled counts checked by
    the double count; the table and the largest cap it proves."""
    run = generate(properties, store=store, workers=workers, scheduler=scheduler)
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
    proof = {
        "method": "isomorph-free generation of all caps (canonical augmentation)",
        "counts": [vars(c) for c in table],
        "seconds": run.seconds,
    }
    largest = LargestCap(properties, 3, len(run.largest), True, sorted(run.largest), proof)
    run.forget(store)  # the caller keeps the table: the level checkpoints have served
    return table, largest


_TABLES: dict[int, tuple[CapCount, ...]] = {}
"""The count tables this process has generated or read from a store, by P (the same wherever
and for whichever store they ran)."""

_LARGEST: dict[int, LargestCap] = {}
"""The largest cap each generation of this process proved, by P."""


def no_set_probability(
    k: int, properties: int = 4, store: Store | None = None, scheduler: str | None = None
) -> Fraction:
    """Exact probability that k cards drawn at random from the 3^P hold no set.

    caps(k) / C(3^P, k), from :func:`count_caps`: read from (or computed into) ``store`` when
    given, else computed once per process (a few seconds for P = 4), on the Dask cluster of
    ``scheduler`` when given (default ``$SETLAB_SCHEDULER``). For k <= 5 the closed form
    :func:`inclusion_exclusion_caps` answers for any P; beyond that a deck with P > 4 is refused
    (a SetlabError, before any work): its caps are not counted.

    Examples
    --------
    >>> no_set_probability(3, 2), no_set_probability(5, 2)
    (Fraction(6, 7), Fraction(0, 1))
    >>> no_set_probability(12, 5)
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: cap counts are computed for P <= 4 (AG(5,3) has too many classes)
    """
    check_properties(properties)
    n = 3**properties
    if not isinstance(k, int) or not 0 <= k <= n:
        raise SetlabError(f"the number of cards must be an integer from 0 to {n}, got {k!r}")
    if k <= 5:  # closed form, for any deck
        return Fraction(inclusion_exclusion_caps(k, properties), math.comb(n, k))
    if properties > MAX_COUNTED_PROPERTIES:  # refused before any work, as count_caps does
        raise SetlabError(CAP_COUNTS_COVER)
    counts = count_caps(properties, store=store, scheduler=scheduler)
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
