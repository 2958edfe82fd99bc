"""The arrangement lemma of ``benchmarks/p5_big_classes.py`` (research, HiGHS's verdicts): its
enumeration of hyperplane configurations up to AGL(5,3), checked where the answer is known by
arithmetic and against configurations that exist (any n cards and any hyperplanes of different
classes: the enumeration must never call their numbers impossible)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from scipy.optimize import Bounds, LinearConstraint, milp

import standalone

big_classes = standalone.load(standalone.ROOT / "benchmarks" / "p5_big_classes.py")
CARDS = np.array(list(itertools.product(range(3), repeat=5)))


def test_two_full_hyperplanes_need_135_cards() -> None:
    # Two hyperplanes of different classes meet in a 3-flat: 81 + 81 - 27 cards when both are full.
    assert big_classes.no_arrangement(2, 81, 81, 27, 134)
    assert not big_classes.no_arrangement(2, 81, 81, 27, 135)


def test_three_full_hyperplanes_need_162_cards() -> None:
    # Three full hyperplanes of different classes: independent classes leave (2/3)^3 of the
    # cards outside (union 171); three classes of one pencil cover 7 of the 9 cells of the
    # quotient plane through a common 3-flat (189), or 6 as a triangle of lines (162).
    assert big_classes.no_arrangement(3, 81, 81, 27, 161)
    assert not big_classes.no_arrangement(3, 81, 81, 27, 162)


def random_hyperplanes(rng: random.Random, k: int, rank: int) -> list[tuple[tuple[int, ...], int]]:
    """k hyperplanes of different classes whose classes span at most ``rank`` dimensions, in
    random coordinates (a random invertible change of the classes)."""
    while True:
        basis = np.array([[rng.randrange(3) for _ in range(5)] for _ in range(5)])
        if round(np.linalg.det(basis)) % 3:
            break
    classes: set[tuple[int, ...]] = set()
    while len(classes) < k:
        mix = np.array([rng.randrange(3) if i < rank else 0 for i in range(5)])
        xi = tuple(int(v) for v in mix @ basis % 3)
        if any(xi):
            first = next(v for v in xi if v)
            classes.add(tuple(v * first % 3 for v in xi))  # first nonzero 1 (2 * 2 = 1)
    return [(xi, rng.randrange(3)) for xi in sorted(classes)]


@pytest.mark.parametrize("seed", range(12))
def test_configurations_that_exist_are_found(seed: int) -> None:
    rng = random.Random(seed)
    k = rng.choice([3, 4, 5])
    rank = rng.choice([r for r in (2, 3, 4, 5) if (3**r - 1) // 2 >= k])
    hyperplanes = random_hyperplanes(rng, k, rank)
    board = np.array([rng.random() < rng.choice([0.5, 0.7, 0.9]) for _ in range(243)])
    inside = [((CARDS @ np.array(xi)) % 3 == c) & board for xi, c in hyperplanes]
    sizes = [int(part.sum()) for part in inside]
    pairs = itertools.combinations(range(k), 2)
    meeting = min(int((inside[i] & inside[j]).sum()) for i, j in pairs)
    # these k hyperplanes and these cards are such a configuration, so it is not impossible
    assert not big_classes.no_arrangement(k, min(sizes), max(sizes), meeting, int(board.sum()))


def fewest_cards(k: int, low: int, high: int, sigma: int) -> int | None:
    """The fewest cards such k hyperplanes need, over every configuration with the basis x_1 =
    0, ..., x_r = 0 and the others in its span, with no reduction by symmetry (a minimum per
    configuration); None when there is none."""
    best = None
    for rank in range(1, min(k, 5) + 1):
        span = [xi + (0,) * (5 - rank) for xi in itertools.product(range(3), repeat=rank)
                if any(xi) and next(v for v in xi if v) == 1]  # fmt: skip
        basis = [tuple(int(i == j) for j in range(5)) for i in range(rank)]
        others = [(xi, c) for xi in span if xi not in basis for c in range(3)]
        for chosen in itertools.combinations(others, k - rank):
            classes = basis + [xi for xi, _ in chosen]
            if len(set(classes)) < k or len(chosen) + rank != k:
                continue
            planes = [(b, 0) for b in basis] + list(chosen)
            inside = [(CARDS @ np.array(xi)) % 3 == c for xi, c in planes]
            rows = [*inside, *(a & b for a, b in itertools.combinations(inside, 2))]
            low_rows = [low] * k + [sigma] * (len(rows) - k)
            high_rows = [high] * k + [np.inf] * (len(rows) - k)
            rule = LinearConstraint(np.array(rows, float), low_rows, high_rows)
            found = milp(np.ones(243), integrality=np.ones(243), bounds=Bounds(0, 1),
                         constraints=rule)
            if found.status == 0:
                cards = round(found.fun)
                best = cards if best is None else min(best, cards)
    return best


@pytest.mark.parametrize("seed", range(6))
def test_the_least_cards_agree_with_every_configuration(seed: int) -> None:
    # Tight numbers: the verdict flips exactly at the fewest cards any configuration needs.
    rng = random.Random(100 + seed)
    k = 4 if seed < 4 else 5
    hyperplanes = random_hyperplanes(rng, k, rng.choice([3, 4, 5] if k == 5 else [2, 3, 4]))
    board = np.array([rng.random() < 0.8 for _ in range(243)])
    inside = [((CARDS @ np.array(xi)) % 3 == c) & board for xi, c in hyperplanes]
    sizes = [int(part.sum()) for part in inside]
    meeting = min(int((a & b).sum()) for a, b in itertools.combinations(inside, 2))
    least = fewest_cards(k, min(sizes), max(sizes), meeting)
    assert least is not None and least <= board.sum()
    assert big_classes.no_arrangement(k, min(sizes), max(sizes), meeting, least - 1)
    assert not big_classes.no_arrangement(k, min(sizes), max(sizes), meeting, least)


def test_case_argument() -> None:
    assert big_classes.case("148:2466") == (148, 2466)
    for text in ("148", "148:x", "100:2466"):
        with pytest.raises(Exception, match="N"):
            big_classes.case(text)
