"""Research (NOT wired into the solver, NOT a proof for P = 5): the minima just past the largest
cap of AG(P,3), from a classification of the caps near it.

Let c be the size of the largest cap of AG(P,3), and suppose that every cap of c - t cards or
more lies in a largest cap, every largest cap a copy of one cap K. Let S be c + j cards with at
most j + t sets. One card taken from each set leaves a cap of c - t cards or more, so it lies
in a copy K' of K; the cards R of K' missing from S are r <= t, the cards Y of S off K' are
j + r. A card y off K' lies on s(y) secants of K', and a card of R kills at most one of them
(one line joins it to y); the others are sets of S with exactly one card in Y. So S holds at
least

    B(j) = min over r <= t and R (r cards of K) of the sum of the j + r smallest s_R(y),
           s_R(y) = s(y) - (the cards of R on y's secants)

sets, and m(c + j) >= min(j + t + 1, B(j)).

What t is:
- AG(3,3) and AG(4,3): setlab's own classification of caps (`fibre_caps`), read by this
  script: t = 0 (two classes of 8-caps are complete) and t = 1 (the one class of 19-caps lies
  in the 20-cap; some 18-caps are complete).
- AG(5,3): the literature, not checked here. Edel, Ferret, Landjev and Storme (2002): the 45-cap
  is unique. Thackeray (arXiv:2206.09804, Theorem 2.1, quoting his classification of the caps of
  41 points or more): every cap of 43 points or more is a 45-cap minus at most two points, so
  t = 2; a 42-cap is the 45-cap minus three points or of one other kind. setlab holds a
  complete 42-cap (`bigcaps.complete_42_cap`), so a cap of that kind exists, and t = 4 is
  false. ``--with-complete-42`` assumes the other kind is one class, this cap's: then caps of
  42 cards are covered too (``implied_minima``'s ``others``). ``--assume 4`` still shows what
  t = 4 would give. The docs (docs/maxsets.md, "What the classification of large caps would
  give") compare these with the proven table; setlab's table does not use them.

    PYTHONPATH=src python benchmarks/large_caps.py                  # AG(5,3), t = 2 assumed
    PYTHONPATH=src python benchmarks/large_caps.py --with-complete-42  # and the 42-caps
    PYTHONPATH=src python benchmarks/large_caps.py --assume 4       # t = 4 (false) assumed
    PYTHONPATH=src python benchmarks/large_caps.py --properties 4   # t from the classification
"""

from __future__ import annotations

if __name__ == "__main__":  # first: a Ctrl-C in the imports below is then one line (_common.py)
    from _common import Parser, run_script  # only so: tests load this file by its path

import argparse
import itertools
import sys

import numpy as np

from setlab.extremal.bigcaps import best_construction, complete_42_cap
from setlab.extremal.caps.deck import free_cards
from setlab.extremal.oneset import fibre_caps
from setlab.geometry import indices_of, third_card_table

ArgumentParser = argparse.ArgumentParser
"""The class of :func:`main`'s parser; run as a script, ``_common.Parser`` (one-line errors)."""


def secant_incidence(cap: list[int], properties: int) -> np.ndarray:
    """For each card off ``cap`` (ascending), which cards of the cap lie on its secants: a 0/1
    matrix (off cards x cap), 2 s(y) ones in row y (its s(y) secants, two cards each)."""
    inside = np.zeros(3**properties, dtype=bool)
    inside[cap] = True
    off = np.flatnonzero(~inside)
    row = np.full(3**properties, -1)
    row[off] = np.arange(len(off))
    i, k = np.triu_indices(len(cap), 1)  # every secant {cap[i], cap[k]}
    # a cap holds no set: the third card of a secant is off it
    y = row[third_card_table(properties)[np.asarray(cap)[i], np.asarray(cap)[k]]]
    incidence = np.zeros((len(off), len(cap)), dtype=np.int64)
    incidence[y, i] = incidence[y, k] = 1
    return incidence


def surviving_secants_bound(cap: list[int], properties: int, t: int, j_max: int) -> list[int]:
    """B(1..j_max): a lower bound on the sets of c + j cards that keep all but r <= t cards of
    ``cap`` (the module docstring's count; every R tried, no symmetry used).

    Examples
    --------
    >>> nine = indices_of(best_construction(3)).tolist()
    >>> surviving_secants_bound(nine, 3, 0, 4)  # 2 secants on every card off the 9-cap
    [2, 4, 6, 8]
    """
    incidence = secant_incidence(cap, properties)
    secants = incidence.sum(axis=1) // 2
    best = np.full(j_max, np.iinfo(np.int64).max)
    for r in range(t + 1):
        for removed in itertools.combinations(range(len(cap)), r):
            # A card of R on one of y's secants kills that secant (two on the same one count
            # twice here: a lower bound still). Y takes the j + r cards with fewest left.
            totals = np.cumsum(np.sort(secants - incidence[:, list(removed)].sum(axis=1)))
            best = np.minimum(best, totals[r : r + j_max])
    return best.tolist()


def classified_depth(properties: int) -> int:
    """The largest t such that every cap of AG(P,3) of c - t cards or more lies in a largest cap
    and the largest caps form one class (setlab's classification of caps, P <= 4).

    Examples
    --------
    >>> classified_depth(3), classified_depth(4)
    (0, 1)
    """
    levels = [level for level in fibre_caps(properties + 1) if level]
    largest = len(levels) - 1
    if len(levels[largest]) != 1:
        return -1

    def extends(cap: tuple[int, ...]) -> bool:
        """Some chain of free cards takes ``cap`` to a largest cap."""
        if len(cap) == largest:
            return True
        free = np.flatnonzero(free_cards(list(cap), properties))
        return any(extends((*cap, int(card))) for card in free)

    t = 0
    while t < largest and all(extends(cap) for cap in levels[largest - t - 1]):
        t += 1
    return t


def implied_minima(
    properties: int, t: int, j_max: int, others: tuple[list[int], ...] = ()
) -> list[tuple[int, int, int]]:
    """(n, B(j), the bound on m(n)) for n = c + 1 .. c + j_max, on setlab's largest cap.

    ``others``: complete caps of c - t - 1 cards, assumed to be, up to affine maps, every cap of
    that size outside a largest cap. Then one level more is covered: S with j + t + 1 sets
    leaves a cap of c - t - 1 cards or more, in a largest cap (B(j) with r <= t + 1) or a copy
    of some X in ``others``, whose j + t + 1 cards off it lie on s_X(y) secants each.

    Examples
    --------
    >>> [b for _, _, b in implied_minima(3, 0, 3)]
    [2, 3, 4]
    """
    cap = indices_of(best_construction(properties)).tolist()
    c = len(cap)
    if not others:
        bounds = surviving_secants_bound(cap, properties, t, j_max)
        return [(c + j, b, min(j + t + 1, b)) for j, b in enumerate(bounds, start=1)]
    if any(len(other) != c - t - 1 for other in others):
        raise ValueError(f"the other caps hold c - t - 1 = {c - t - 1} cards")
    bounds = np.array(surviving_secants_bound(cap, properties, t + 1, j_max))
    for other in others:
        secants = np.sort(secant_incidence(other, properties).sum(axis=1) // 2)
        bounds = np.minimum(bounds, np.cumsum(secants)[t + 1 : t + 1 + j_max])
    return [(c + j, int(b), min(j + t + 2, int(b))) for j, b in enumerate(bounds, start=1)]


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--properties", default="5", help="P: 3, 4 or 5 (default 5)")
    parser.add_argument("--assume", help="t for P = 5 (default 2, Thackeray's caps of >= 43)")
    parser.add_argument("--up-to", default="16", help="j = 1..J (default 16)")
    parser.add_argument(
        "--with-complete-42",
        action="store_true",
        help="P = 5, t = 2: assume the 42-caps outside a 45-cap are copies of setlab's complete "
        "42-cap (Thackeray's other kind, if it is one class)",
    )
    args = parser.parse_args(argv)
    try:
        properties, j_max = int(args.properties), int(args.up_to)
        assume = None if args.assume is None else int(args.assume)
    except ValueError:
        print("error: --properties, --assume and --up-to take whole numbers", file=sys.stderr)
        return 2
    if properties not in (3, 4, 5):
        print("error: --properties is 3, 4 or 5", file=sys.stderr)
        return 2
    c = len(best_construction(properties))
    most = min(40, 3**properties - c - 4)  # room for j + r cards off the cap, r <= 4
    if not 1 <= j_max <= most:
        print(f"error: --up-to is in 1..{most} for P = {properties}", file=sys.stderr)
        return 2
    if properties == 5 and assume is None:
        assume = 2
    if properties < 5 and assume is not None:
        print(
            "error: --assume is for P = 5; P <= 4 read t from setlab's classification",
            file=sys.stderr,
        )
        return 2
    if assume is not None and not 0 <= assume <= 4:
        print("error: --assume takes t in 0..4", file=sys.stderr)
        return 2
    if args.with_complete_42 and assume != 2:
        print("error: --with-complete-42 is for P = 5 with t = 2 (42 cards)", file=sys.stderr)
        return 2
    try:
        if assume is None:
            t = classified_depth(properties)
            source = "setlab's classification of caps"
        else:
            t, source = assume, "assumed (the literature; not checked by setlab)"
        print(
            f"AG({properties},3): every cap of {c - t} cards or more lies in a largest cap "
            f"({source})"
        )
        others: tuple[list[int], ...] = ()
        if args.with_complete_42:
            others = (indices_of(complete_42_cap()).tolist(),)
            print("and every other 42-cap is a copy of setlab's complete 42-cap (assumed)")
        print(f"{'n':>4} {'B(j)':>6} {'m(n) >=':>8}")
        for n, b, bound in implied_minima(properties, t, j_max, others):
            print(f"{n:>4} {b:>6} {bound:>8}")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    ArgumentParser = Parser
    run_script(main)
