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


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(3, 6))
def test_each_arrangement_is_refuted_exactly_where_its_lp_has_no_solution(seed: int, k: int):
    # The multipliers are sought over the arrangement's atoms (the points cut by the same
    # hyperplanes), the oracle is the program over the points themselves: the least cards its
    # rows allow (scipy, the primal). Refuted below that, never at or above it, and every
    # refutation's multipliers pass the exact check over the points.
    from setlab.extremal.arrangements import _multipliers, arrangement_rows, check_arrangement

    rng = random.Random(seed)
    listed = list(arrangements(4, k))
    for planes in rng.sample(listed, min(3, len(listed))):
        low = rng.randrange(12, 28)
        high = rng.randrange(low, 28)
        meeting = rng.randrange(0, 10)
        least = least_cards_lp(4, planes, low, high, meeting)
        below = [] if least == math.inf else [math.ceil(least - 1e-9) - 1]  # just below it
        for cards in {rng.randrange(30, 82), *below}:
            if not 0 <= cards <= 81 or abs(cards - least) < 1e-6:
                continue
            rows = arrangement_rows(4, planes, low, high, meeting, cards)
            y = _multipliers(*rows)
            assert (y is not None) == (cards < least)
            assert y is None or check_arrangement(*rows, y)


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


# the row of the sets: arrangements whose meetings are whole flats


def lines_of(board: np.ndarray, p: int) -> int:
    """The sets among the marked points, by a plain loop over pairs (each set three times)."""
    marked = [tuple(v) for v, m in zip(points(p).tolist(), board.tolist(), strict=True) if m]
    have = set(marked)
    thirds = sum(tuple(-(a + b) % 3 for a, b in zip(x, y, strict=True)) in have
                 for x, y in itertools.combinations(marked, 2))  # fmt: skip
    return thirds // 3


def meeting_configuration(p: int, k: int, extra: float, rng: random.Random):
    """k hyperplanes of different classes and cards holding every two of them's meeting flat,
    with each other card in with probability ``extra``."""
    planes = [(xi, rng.randrange(3)) for xi in rng.sample(normalised(p), k)]
    inside = [(points(p) @ np.array(xi)) % 3 == c for xi, c in planes]
    forced = np.zeros(3**p, bool)
    for a, b in itertools.combinations(inside, 2):
        forced |= a & b
    board = forced | np.array([rng.random() < extra for _ in range(3**p)])
    return inside, forced, board


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(3, 2), (3, 3), (4, 2), (4, 3), (4, 4)]),
       st.sampled_from([0.0, 0.2, 0.5]))  # fmt: skip
def test_the_sets_row_holds_for_configurations_that_exist(seed: int, pk: tuple, extra: float):
    # Cards S that hold the meetings of k hyperplanes: S holds L(S) sets, counted by a plain
    # loop, and the row of the sets with sets = L(S) holds at S; so no certificate refutes S's
    # own numbers (its hyperplanes' least and largest parts, its largest hyperplane as the
    # ceiling), however many sets it holds.
    from setlab.extremal.arrangements import set_row

    p, k = pk
    inside, forced, board = meeting_configuration(p, k, extra, random.Random(seed))
    held = lines_of(board, p)
    weights, right = set_row(p, forced, int(board.sum()), held)
    assert int(weights @ board) >= right
    sizes = [int((part & board).sum()) for part in inside]
    every = [((points(p) @ np.array(xi)) % 3 == c) for xi in normalised(p) for c in range(3)]
    high = max(int((h & board).sum()) for h in every)
    found = arrangement_certificate(p, k, min(sizes), high, 3 ** (p - 2), int(board.sum()), held)
    assert found is None


def test_the_sets_row_over_every_configuration_of_a_pencil() -> None:
    # AG(3,3): three planes through one line, each with 7 of its 9 points, hold the line and 4
    # points more each (15 points). Over every such choice of the 12 other points the row of
    # the sets holds with the sets the points hold (a plain count); so the arrangement's
    # program with the row is not refuted for the most of them, and it is for more than the
    # row's weights can reach (the line's set and the 12 largest weights over 6).
    from setlab.extremal.arrangements import _multipliers, arrangement_rows, set_row

    planes = [((1, 0, 0), 0), ((0, 1, 0), 0), ((1, 1, 0), 0)]
    inside = [(points(3) @ np.array(xi)) % 3 == c for xi, c in planes]
    line = inside[0] & inside[1]
    assert (line == (inside[0] & inside[2])).all()
    other = [np.flatnonzero(part & ~line) for part in inside]  # 6 points each
    most = 0
    for chosen in itertools.product(*(itertools.combinations(o.tolist(), 4) for o in other)):
        board = line.copy()
        board[[x for part in chosen for x in part]] = True
        held = lines_of(board, 3)
        weights, right = set_row(3, line, 15, held)
        assert int(weights @ board) >= right
        most = max(most, held)
    assert _multipliers(*arrangement_rows(3, planes, 7, 7, 3, 15, most)) is None
    reach = 1 + int(np.sort(set_row(3, line, 15, 0)[0])[-12:].sum()) // 6
    assert _multipliers(*arrangement_rows(3, planes, 7, 7, 3, 15, reach + 1)) is not None


@pytest.fixture(scope="module")
def with_sets() -> dict:
    # The count at n = 168 of AG(5,3), t = 72: six hyperplanes of 72 cards, every two meeting in
    # a whole 3-flat, fit in 168 cards (21 of the 173 arrangements), but none holds 3419 sets.
    assert arrangement_certificate(5, 6, 72, 72, 27, 168) is None
    found = arrangement_certificate(5, 6, 72, 72, 27, 168, 3419)
    assert found is not None
    return copy.deepcopy(found)


def test_the_checker_accepts_the_sets(with_sets: dict) -> None:
    assert split_check._arrangement_errors(5, with_sets) == []
    fewer = copy.deepcopy(with_sets)
    fewer["sets"] = 3300  # the same multipliers for a weaker row
    assert "contradiction" in " ".join(split_check._arrangement_errors(5, fewer))
    plain = copy.deepcopy(with_sets)
    del plain["sets"]  # without the row: the multipliers do not fit the program
    assert split_check._arrangement_errors(5, plain)
    partial = copy.deepcopy(with_sets)
    partial["meeting"] = 26  # nothing forced: no row of the sets
    assert "meet in 27 points" in split_check._arrangement_errors(5, partial)[0]


def test_the_checker_holds_a_count_to_its_sets() -> None:
    # A count asking more sets than the bound refutes (S holds more than v: v + 1 at least) is
    # refused before anything else is checked; one asking v + 1 needs its certificate.
    entry = {"count": [72, 5], "ceiling": 72, "meeting": 27, "sets": 3420}
    errors = split_check._count_errors(5, 168, 3418, [entry], [], [], [], None)
    assert errors == ["a count asks 3420 sets of a configuration with more than 3418"]
    plane, line = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12], [0, 0, 0, 1]  # M_2, M_1
    entry = {"count": [8, 1], "ceiling": 8, "meeting": 3, "sets": 15}  # AG(3,3), 12 cards
    errors = split_check._count_errors(3, 12, 14, [entry], [], plane, line, None)
    assert any("no arrangements certificate" in error for error in errors)
    found = arrangement_certificate(3, 2, 8, 8, 3, 12)  # a certificate without the sets
    assert found is not None and "sets" not in found
    errors = split_check._count_errors(3, 12, 14, [entry], [found], plane, line, None)
    assert any("no arrangements certificate" in error for error in errors)


def test_a_fit_with_more_sets_answers_for_fewer(monkeypatch) -> None:
    # Where some arrangement holds the sets asked, it holds fewer too: the answer (no
    # certificate) is given without solving anything, and a certificate for more sets is
    # still sought. (Two full lines of AG(2,3): fit with 3 sets asked, refuted with 4.)
    import setlab.extremal.arrangements as module

    monkeypatch.setattr(module, "_FITTING", {})
    module.arrangement_certificate.cache_clear()  # each answer found here, not remembered
    assert module.arrangement_certificate(2, 2, 3, 3, 1, 5, 3) is None
    solved = []
    real = module._multipliers
    monkeypatch.setattr(module, "_multipliers", lambda *rows: solved.append(1) or real(*rows))
    assert module.arrangement_certificate(2, 2, 3, 3, 1, 5, 2) is None and not solved
    assert module.arrangement_certificate(2, 2, 3, 3, 1, 5, 4) is not None and solved


def test_the_orbits_are_listed_once_for_every_question(monkeypatch) -> None:
    # The count asks the same k with many levels, meetings and sets: the orbits are found once
    # (the listing took longer than the programs), and the answers are those of a fresh listing.
    import setlab.extremal.arrangements as module

    monkeypatch.setattr(module, "_FITTING", {})
    module.arrangement_certificate.cache_clear()
    module._listed.cache_clear()
    questions = [(3, 3, 9, 9, 3, 17), (3, 3, 9, 9, 3, 18), (3, 3, 8, 9, 3, 16), (3, 3, 9, 9, 3, 16)]
    fresh = []
    for question in questions:
        module.arrangement_certificate.cache_clear()
        module._listed.cache_clear()
        fresh.append(module.arrangement_certificate(*question))
    module.arrangement_certificate.cache_clear()
    module._listed.cache_clear()
    listed = []
    real = module.arrangements
    monkeypatch.setattr(module, "arrangements", lambda *args: listed.append(args) or real(*args))
    assert [module.arrangement_certificate(*question) for question in questions] == fresh
    assert listed == [(3, 3)]
    assert any(found is None for found in fresh) and any(found is not None for found in fresh)
