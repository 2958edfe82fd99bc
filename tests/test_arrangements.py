"""Arrangements of big hyperplanes (setlab.extremal.arrangements) and their standalone check:
the listing up to AGL(P,3) held to every arrangement listed without the reduction, the
verdicts to arithmetic and to configurations that exist, and the checker to tampering."""

from __future__ import annotations

import copy
import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog

import standalone
from setlab.extremal.arrangements import arrangement_certificate, arrangements

split_check = standalone.load(standalone.ROOT / "src" / "setlab" / "proofcheck" / "split_check.py")


def points(p: int) -> np.ndarray:
    return np.array(list(itertools.product(range(3), repeat=p)))


def normalised(p: int) -> list[tuple[int, ...]]:
    """One normal per parallel class of hyperplanes of AG(P,3): first nonzero coordinate 1."""
    return [xi for xi in itertools.product(range(3), repeat=p)
            if any(xi) and next(v for v in xi if v) == 1]  # fmt: skip


def least_cards_lp(p: int, planes: list, low: int, high: int, meeting: int) -> float:
    """The least sum of s over 0 <= s <= 1 meeting the rows of ``planes`` (inf: none)."""
    inside = [((points(p) @ np.array(xi)) % 3 == c).astype(float) for xi, c in planes]
    meets = [a * b for a, b in itertools.combinations(inside, 2)]
    rows = np.array([*inside, *[-row for row in inside], *meets])
    b = [low] * len(inside) + [-high] * len(inside) + [meeting] * len(meets)
    found = linprog(np.ones(3**p), A_ub=-rows, b_ub=[-v for v in b], bounds=(0, 1))
    return found.fun if found.status == 0 else math.inf


def every_arrangement(p: int, k: int):
    """Every k hyperplanes of AG(P,3) from different classes, up to AGL(P,3) only in that two
    of them are x_1 = 0 and x_2 = 0 (the group is transitive on pairs of non-parallel
    hyperplanes), with no other reduction."""
    first, second = (tuple(int(i == j) for j in range(p)) for i in (0, 1))
    others = [xi for xi in normalised(p) if xi not in (first, second)]
    for classes in itertools.combinations(others, k - 2):
        for offsets in itertools.product(range(3), repeat=k - 2):
            yield [(first, 0), (second, 0), *zip(classes, offsets, strict=True)]


def test_two_full_hyperplanes_need_135_cards() -> None:
    # Two hyperplanes of different classes meet in a 3-flat: 81 + 81 - 27 cards when both full.
    assert arrangement_certificate(5, 2, 81, 81, 27, 134) is not None
    assert arrangement_certificate(5, 2, 81, 81, 27, 135) is None


def test_three_full_hyperplanes_need_162_cards() -> None:
    # Independent classes leave (2/3)^3 of the cards outside (171 inside); three classes of one
    # pencil cover 7 of the 9 cells of the quotient plane (189), or 6 as a triangle (162).
    assert arrangement_certificate(5, 3, 81, 81, 27, 161) is not None
    assert arrangement_certificate(5, 3, 81, 81, 27, 162) is None


@pytest.mark.parametrize(("p", "k"), [(2, 2), (2, 3), (2, 4), (3, 2), (3, 3), (3, 4), (4, 3)])
def test_the_listing_keeps_the_least_of_every_arrangement(p: int, k: int) -> None:
    # Over random numbers, the least cards (LP) over the listed arrangements equal the least
    # over every arrangement of AG(P,3), listed without any reduction: a missing orbit would
    # show wherever it is the least. And the verdict flips exactly there.
    rng = random.Random(10 * p + k)
    flat = 3 ** (p - 1)
    for _ in range(4):
        low = rng.randrange(1, flat + 1)
        high = rng.randrange(low, flat + 1)
        meeting = rng.randrange(0, 3 ** (p - 2) + 1)
        listed = min(least_cards_lp(p, a, low, high, meeting) for a in arrangements(p, k))
        every = min(least_cards_lp(p, a, low, high, meeting) for a in every_arrangement(p, k))
        assert listed == pytest.approx(every)
        if every < math.inf:
            cards = math.ceil(every - 1e-9)
            assert arrangement_certificate(p, k, low, high, meeting, cards - 1) is not None
            assert arrangement_certificate(p, k, low, high, meeting, cards) is None


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 5), st.sampled_from([0.5, 0.7, 0.9]))
def test_configurations_that_exist_are_never_refuted(seed: int, k: int, density: float) -> None:
    # Any cards and any k hyperplanes of different classes of AG(4,3) are such a configuration.
    rng = random.Random(seed)
    classes = rng.sample(normalised(4), k)
    planes = [(xi, rng.randrange(3)) for xi in classes]
    board = np.array([rng.random() < density for _ in range(81)])
    inside = [((points(4) @ np.array(xi)) % 3 == c) & board for xi, c in planes]
    sizes = [int(part.sum()) for part in inside]
    meeting = min(int((a & b).sum()) for a, b in itertools.combinations(inside, 2))
    cards = int(board.sum())
    assert arrangement_certificate(4, k, min(sizes), max(sizes), meeting, cards) is None


def test_the_listing_counts() -> None:
    # AG(5,3): the counts the split's docs quote (orbits of the basis's signed permutations).
    assert [sum(1 for _ in arrangements(5, k)) for k in (5, 6)] == [27, 173]


# the standalone checker


@pytest.fixture(scope="module")
def certificate() -> dict:
    found = arrangement_certificate(5, 6, 69, 69, 26, 148)  # the count at n = 148 of AG(5,3)
    assert found is not None
    return copy.deepcopy(found)


def test_the_checker_accepts_the_certificate(certificate: dict) -> None:
    assert split_check._arrangement_errors(5, certificate) == []
    assert len(certificate["arrangements"]) == 173


def test_the_checker_needs_every_orbit(certificate: dict) -> None:
    dropped = copy.deepcopy(certificate)
    dropped["arrangements"].pop(3)
    assert "cover" in split_check._arrangement_errors(5, dropped)[0]
    twice = copy.deepcopy(certificate)
    twice["arrangements"][3] = copy.deepcopy(twice["arrangements"][4])
    assert "orbit" in split_check._arrangement_errors(5, twice)[0]


def test_the_checker_checks_the_multipliers(certificate: dict) -> None:
    changed = copy.deepcopy(certificate)
    changed["arrangements"][0]["multipliers"][1] += 5
    assert "contradiction" in split_check._arrangement_errors(5, changed)[0]
    sign = copy.deepcopy(certificate)
    sign["arrangements"][0]["multipliers"][0] = 1  # the sum's row is "at most"
    assert "sign" in split_check._arrangement_errors(5, sign)[0]
    weaker = copy.deepcopy(certificate)
    weaker["low"], weaker["meeting"] = 60, 20  # the same multipliers for weaker rows
    assert split_check._arrangement_errors(5, weaker)


def test_the_checker_needs_the_basis_form(certificate: dict) -> None:
    moved = copy.deepcopy(certificate)
    moved["arrangements"][0]["planes"][0][-1] = 1  # x_1 = 1: not the basis
    assert "basis form" in split_check._arrangement_errors(5, moved)[0]
    scaled = copy.deepcopy(certificate)
    plane = scaled["arrangements"][-1]["planes"][-1]
    plane[:] = [2 * v % 3 for v in plane]  # the same hyperplane, not normalised
    assert "normalised" in split_check._arrangement_errors(5, scaled)[0]
