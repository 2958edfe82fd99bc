"""The lines among the cards an arrangement leaves out (setlab.extremal.complement_lines) and
their standalone check: the budget held to a plain count, every certificate held to every
complement there is on small cases, and the checker to tampering."""

from __future__ import annotations

import copy
import itertools
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import standalone
from setlab.extremal import complement_lines
from setlab.extremal.arrangements import arrangements
from setlab.extremal.complement_lines import (
    complement_certificate,
    complement_shape,
    local_certificate,
)
from test_arrangements import lines_of, points

split_check = standalone.load(standalone.ROOT / "src" / "setlab" / "proofcheck" / "split_check.py")


def plain_lines(p: int) -> np.ndarray:
    """Every line of AG(p,3) as three point numbers, by a plain loop over pairs."""
    number = {tuple(v): i for i, v in enumerate(points(p).tolist())}
    found = set()
    for x, y in itertools.combinations(points(p).tolist(), 2):
        z = tuple(-(a + b) % 3 for a, b in zip(x, y, strict=True))
        found.add(tuple(sorted((number[tuple(x)], number[tuple(y)], number[z]))))
    return np.array(sorted(found))


def every_complement(p: int, planes: list, low: int, high: int, cards: int):
    """Every T the shape allows: off the meetings, |T ∩ H_i| in [3^(p-1) - high, 3^(p-1) -
    low], t cards in all (the complements of every S the certificates speak of)."""
    shape = complement_shape(p, planes, low, high, cards)
    groups = [np.flatnonzero(shape.group == g).tolist() for g in range(len(shape.counts))]
    for sizes in itertools.product(*(range(lo, hi + 1) for lo, hi in shape.counts[:-1])):
        rest = shape.t - sum(sizes)
        if not shape.counts[-1][0] <= rest <= shape.counts[-1][1] or rest > len(groups[-1]):
            continue
        for chosen in itertools.product(*(itertools.combinations(g, m) for g, m in
                                          zip(groups, [*sizes, rest], strict=True))):  # fmt: skip
            board = np.zeros(3**p, dtype=bool)
            for part in chosen:
                board[list(part)] = True
            yield board


def arrangement_entry(p: int, planes: list, low: int, high: int, cards: int, sets: int,
                      found: dict) -> tuple:  # fmt: skip
    """The checker's arguments for one arrangement (basis form: r leading unit hyperplanes)."""
    rows = np.array([[*xi, c] for xi, c in planes], dtype=np.int64)
    r = 0
    while r < len(rows) and rows[r].tolist() == [int(i == r) for i in range(p)] + [0]:
        r += 1
    return p, r, rows, low, high, cards, sets, copy.deepcopy(found)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from([(3, 2), (3, 3), (4, 2), (4, 3)]))
def test_the_budget_is_the_complement_identity(seed: int, pk: tuple) -> None:
    # For any S with the arrangement's meetings inside, a plain count of L(S) and of L(T) for
    # T the complement: L(S) = constant - L(T), the shape's constant.
    p, k = pk
    rng = random.Random(seed)
    planes = list(arrangements(p, k))[rng.randrange(len(list(arrangements(p, k))))]
    shape = complement_shape(p, planes, 0, 3 ** (p - 1), 3**p)  # counts do not matter here
    board = (shape.group < 0) | np.array([rng.random() < 0.6 for _ in range(3**p)])
    shape = complement_shape(p, planes, 0, 3 ** (p - 1), int(board.sum()))
    assert lines_of(board, p) == shape.constant - lines_of(~board, p)


# Small shapes where every T can be read: fibres of one line (rank 2 in AG(3,3)) and of one
# card (rank 3: the cube {1, 2}^3 and its twelve edges, one local structure of 20 cards).
SMALL = [
    ([((1, 0, 0), 0), ((0, 1, 0), 0)], 6, 7, 16),
    ([((1, 0, 0), 0), ((0, 1, 0), 0), ((1, 1, 0), 1)], 7, 7, 18),
    ([((1, 0, 0), 0), ((0, 1, 0), 0), ((0, 0, 1), 0)], 7, 7, 17),
    ([((1, 0, 0), 0), ((0, 1, 0), 0), ((0, 0, 1), 0)], 6, 7, 15),
]


@pytest.mark.parametrize(("planes", "low", "high", "cards"), SMALL)
def test_no_certificate_passes_the_fewest_lines_there_are(planes, low, high, cards) -> None:
    # The fewest lines over every T the shape allows, by a plain count: a certificate's least
    # never passes it, none is found for a budget at it or above, the first found (budgets
    # going down from there) proves at least one line less, and the checker holds each
    # certificate found to exactly the budgets below its least.
    complement_lines._PROVEN.clear()
    complement_lines._HOPELESS.clear()
    p = 3
    shape = complement_shape(p, planes, low, high, cards)
    boards = np.array(list(every_complement(p, planes, low, high, cards)))
    fewest = int(boards[:, plain_lines(p)].all(axis=2).sum(axis=1).min())
    sets_at = shape.constant - fewest  # S of the complement with the fewest: its sets
    assert complement_certificate(p, planes, low, high, cards, sets_at) is None
    found = None
    for sets in range(sets_at + 1, sets_at + 40):
        found = complement_certificate(p, planes, low, high, cards, sets)
        if found is not None:
            break
    assert found is not None, "no certificate even far above the fewest"
    assert found["least"] <= fewest  # a complement with the fewest lines exists
    assert found["least"] >= max(fewest - 1, 1)  # and these small ones come close to it
    budget = shape.budget(sets)
    assert found["least"] > budget
    assert split_check._complement_errors(*arrangement_entry(p, planes, low, high, cards, sets,
                                                             found)) == []  # fmt: skip
    looser = shape.constant - found["least"]  # a budget of exactly the least: refused
    assert split_check._complement_errors(*arrangement_entry(p, planes, low, high, cards,
                                                             looser, found))  # fmt: skip


@pytest.fixture(scope="module")
def rank_three() -> tuple:
    # The count at n = 168 of AG(5,3): five hyperplanes of 72 cards, every two meeting in a
    # whole 3-flat, arrangement 6 of arrangements(5, 5) (rank 3): T holds at least 86 lines
    # where 3418 sets allow 83, by one box.
    planes = list(arrangements(5, 5))[6]
    found = complement_certificate(5, planes, 72, 72, 168, 3418)
    assert found is not None and found["kind"] == "fibres" and found["least"] == 86
    return planes, found


def test_the_checker_accepts_the_fibres(rank_three: tuple) -> None:
    planes, found = rank_three
    assert split_check._complement_errors(*arrangement_entry(5, planes, 72, 72, 168, 3418,
                                                             found)) == []  # fmt: skip
    # 3415 sets allow 86 lines: the same certificate refutes no more
    errors = split_check._complement_errors(*arrangement_entry(5, planes, 72, 72, 168, 3415,
                                                               found))  # fmt: skip
    assert "not above 86" in errors[0]


@pytest.mark.parametrize("change", ["line", "sign", "split", "kind", "scale"])
def test_the_checker_checks_the_fibres(rank_three: tuple, change: str) -> None:
    planes, found = rank_three
    tampered = copy.deepcopy(found)
    leaf = tampered["tree"]
    if change == "line":
        leaf["lines"][0][2][0] += 1  # one part above the fewest solutions
    elif change == "sign":
        leaf["rows"][1] = -abs(leaf["rows"][1]) - 1  # an "at least" row's multiplier below 0
    elif change == "split":
        tampered["tree"] = {"split": [0, 9], "low": leaf, "high": leaf}  # t_v <= 9: no box
    elif change == "kind":
        tampered["kind"] = "cube"
    else:
        tampered["scale"] = 1
    assert split_check._complement_errors(*arrangement_entry(5, planes, 72, 72, 168, 3418,
                                                             tampered))  # fmt: skip


def test_the_checker_checks_a_local_structure() -> None:
    planes, low, high, cards = SMALL[2]
    complement_lines._PROVEN.clear()
    complement_lines._HOPELESS.clear()
    constant = complement_shape(3, planes, low, high, cards).constant
    found = next(c for s in range(constant - 20, constant + 1)
                 if (c := local_certificate(3, planes, low, high, cards, s)) is not None)
    sets = constant - found["least"] + 1
    args = arrangement_entry(3, planes, low, high, cards, sets, found)
    assert split_check._complement_errors(*args) == []
    for change in ("constant", "card", "multiplier"):
        tampered = copy.deepcopy(found)
        entry = tampered["structures"][0]
        if change == "constant":
            entry["constant"] += 1
        elif change == "card":
            entry["cards"][0] = 0  # the card 000 lies in every meeting
        else:
            entry["multipliers"][0] += 10**6
        assert split_check._complement_errors(*args[:-1], tampered), change


@pytest.mark.slow
def test_the_five_hyperplanes_of_168() -> None:
    # All eleven arrangements of five 72-card hyperplanes left open by the fit and the sets'
    # row: each complement holds more than the 83 lines 3418 sets allow, and the checker
    # passes the whole arrangements certificate (some minutes: two trees of hundreds of boxes).
    from setlab.extremal.arrangements import arrangement_certificate

    assert arrangement_certificate(5, 5, 72, 72, 27, 168, 3418) is None  # the rows alone
    found = arrangement_certificate(5, 5, 72, 72, 27, 168, 3418, complement=True)
    assert found is not None
    kinds = [item["complement"]["kind"] for item in found["arrangements"] if "complement" in item]
    assert sorted(kinds) == ["fibres"] * 10 + ["local"]
    assert split_check._arrangement_errors(5, copy.deepcopy(found)) == []


# A tree of about a hundred boxes: two hyperplanes of AG(4,3) (rank 2, fibres of nine cards), each
# holding 13 of 40 cards, refuted at 169 sets.
STEADY = ([((1, 0, 0, 0), 0), ((0, 1, 0, 0), 0)], 13, 13, 40, 169)
RELAXATION = complement_lines._relaxation


def boxes_of(
    monkeypatch: pytest.MonkeyPatch, nodes: int = complement_lines.NODES, **constants: int
) -> tuple[list, dict | None]:
    """The fibre certificate of STEADY within ``nodes`` boxes, the module's constants set,
    and each box it opened: (its integer points, whether its relaxation alone closes it)."""
    planes, low, high, cards, sets = STEADY
    budget = complement_shape(4, planes, low, high, cards).budget(sets)
    opened = []

    def counted(program, box):
        found = RELAXATION(program, box)
        size = int(np.prod(box[:, 1] - box[:, 0] + 1))
        opened.append((size, found is None or found[0] > budget + 1e-6))
        return found

    monkeypatch.setattr(complement_lines, "_relaxation", counted)
    for name, value in constants.items():
        monkeypatch.setattr(complement_lines, name, value)
    return opened, complement_lines.fibre_certificate(4, planes, low, high, cards, sets, nodes)


def test_the_pace_rule_leaves_a_steady_tree_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without the rule the tree closes after more than LOOK boxes; with the default rule it
    # opens the same boxes and returns the same certificate.
    free, whole = boxes_of(monkeypatch, PACE=10**9)
    assert whole is not None and len(free) > complement_lines.LOOK
    paced, found = boxes_of(monkeypatch)
    assert found == whole and paced == free


def test_the_pace_rule_gives_up_where_its_forecast_runs_over(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The forecast, recomputed from the boxes the whole tree opens: once LOOK boxes are open,
    # the next one is refused when (boxes opened, it included) / (share of the root's integer
    # points in closed boxes) exceeds PACE * nodes. With LOOK = 10 and PACE * nodes = 60 the
    # tree stops at the first such box, and gives up.
    whole, _ = boxes_of(monkeypatch, PACE=10**9)
    root = whole[0][0]
    covered, stop = 0, None
    for opened, (size, closed) in enumerate(whole, 1):
        covered += size if closed else 0
        if opened >= 10 and (opened + 1) * root > 60 * covered:
            stop = opened
            break
    assert stop is not None and stop + 1 < len(whole)
    paced, found = boxes_of(monkeypatch, 60, LOOK=10, PACE=1)
    assert found is None and paced == whole[:stop]
