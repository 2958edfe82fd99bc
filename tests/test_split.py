"""Tests for the big-slice split: the pencil bound, its maximum, the proofs and their checker."""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import standalone
from seed_oracles import PAPER_TABLE_1, PAPER_TABLE_3
from setlab.extremal import split as split_module
from setlab.extremal.bounds import (
    forced_types,
    prove_max_bound,
    slice_maxima,
    slice_program,
    solve_highs,
    verify_max_bound,
)
from setlab.extremal.identities import across_bounds, degree_bound
from setlab.extremal.split import (
    PLANE as PLANE_LINES,
)
from setlab.extremal.split import (
    _Optima,
    covers,
    middle_patterns,
    middle_types,
    pencil_bound,
    pencil_maximum,
    pencil_multipliers,
    prove_split_bound,
    split_bounds,
    split_job,
    split_maxima_job,
    split_upper_bound,
    two_big_hyperplanes,
    verify_split_bound,
)
from setlab.extremal.splitmax import split_table
from setlab.find import count_sets, find_sets
from setlab.geometry import digits, linear_forms
from setlab.store import Store
from test_bounds import brute_force_maxima
from test_splitmax import exact_split_maxima

TABLE_3 = {0: 0, 1: 0, 2: 0, **dict(zip(range(3, 28), PAPER_TABLE_3, strict=True))}
TABLE_1 = dict(zip(range(3, 13), PAPER_TABLE_1, strict=True))


LINE, PLANE = brute_force_maxima(1), brute_force_maxima(2)


def _checker(module: str):
    return standalone.load(standalone.ROOT / "src" / "setlab" / "proofcheck" / f"{module}.py")


split_check = _checker("split_check")
TRIANGLES = split_check._multipliers(pencil_multipliers().tolist())  # as a record lists them


def pattern_of(board: list[int], properties: int, f: int, g: int) -> list[int]:
    """The nine cell sizes of ``board`` in the pencil of the classes f and g: cell 3i + j holds
    the cards x with f(x) = i and g(x) = j (the cells of one plane line are the cards of a
    hyperplane of f, of g, of f + g or of f + 2g)."""
    forms = linear_forms(properties)
    d = digits(properties)[board].astype(np.int64)
    i, j = d @ forms[f] % 3, d @ forms[g] % 3
    return np.bincount(3 * i + j, minlength=9).tolist()


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_the_pencil_bound_holds_for_real_configurations(data):
    # Any board, any two classes: its sets never exceed the bound of its pencil's pattern
    # (AG(4,3) with the true maxima of planes and 3-flats; AG(5,3) with the degree bound for
    # hyperplanes, a weaker but valid bound).
    properties = data.draw(st.sampled_from([4, 5]))
    size = 3**properties
    dense = data.draw(st.booleans())
    if dense:  # a flat and a few cards more: many sets, the case that matters
        base = list(range(3 ** (properties - 1)))
        extra = data.draw(st.lists(st.integers(0, size - 1), max_size=12, unique=True))
        board = sorted(set(base) | set(extra))
    else:
        board = data.draw(st.lists(st.integers(0, size - 1), min_size=3, unique=True))
    classes = len(linear_forms(properties))
    f = data.draw(st.integers(0, classes - 1))
    g = data.draw(st.integers(0, classes - 1).filter(lambda c: c != f))
    if properties == 4:
        most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    else:
        most, below = slice_maxima(5, {}), slice_maxima(4, TABLE_3)
    cells = pattern_of(board, properties, f, g)
    assert count_sets(board, properties) <= pencil_bound(cells, properties, most, below)


PLANE_SPLITS = exact_split_maxima(1)  # AG(2,3) split over three parallel lines


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_pencil_bound_with_split_maxima_holds(data):
    # AG(3,3): the hyperplanes of a pencil are planes, their cells lines; with the exact maxima
    # of a plane given its three parallel lines (there no sharper than M_2 and the lines' own
    # bound) the bound holds for every board and is never above the bound without them.
    dense = data.draw(st.booleans())
    extra = data.draw(st.lists(st.integers(0, 26), max_size=8, unique=True))
    board = sorted(set(range(9)) | set(extra)) if dense else extra
    f = data.draw(st.integers(0, 12))
    g = data.draw(st.integers(0, 12).filter(lambda c: c != f))
    cells = pattern_of(board, 3, f, g)
    most, below = slice_maxima(3, PLANE), slice_maxima(2, LINE)
    sharp = pencil_bound(cells, 3, most, below, split_most=PLANE_SPLITS)
    assert count_sets(board, 3) <= sharp <= pencil_bound(cells, 3, most, below)


def test_split_maxima_sharpen_the_pencils_of_ag43():
    # A 3-flat with 4 + 4 + 2 points in parallel planes holds at most 9 sets, where M_3(10) = 12
    # and the planes' own bound allow 10. With that one entry known, a pencil of AG(4,3) whose
    # hyperplanes split so is bounded lower, and real boards still respect the sharper bound.
    exact = exact_split_maxima(2)[4, 4, 2]  # AG(3,3) split over three parallel planes
    assert exact == 9 < TABLE_3[10]
    split_most = np.full((10, 10, 10), 10**6, dtype=np.int64)
    for order in itertools.permutations((4, 4, 2)):
        split_most[order] = exact
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    cells = [4, 4, 2, 4, 4, 2, 2, 2, 0]  # rows 0, 1 and columns 0, 1 split 4 + 4 + 2
    assert pencil_bound(cells, 4, most, below, split_most) < pencil_bound(cells, 4, most, below)
    rng = np.random.default_rng(1)
    forms = linear_forms(4)
    for _ in range(200):
        board = sorted(rng.choice(81, size=int(rng.integers(10, 40)), replace=False).tolist())
        f, g = rng.choice(len(forms), size=2, replace=False)
        pattern = pattern_of(board, 4, int(f), int(g))
        assert count_sets(board, 4) <= pencil_bound(pattern, 4, most, below, split_most)


def test_the_whole_space_meets_the_pencil_bound():
    assert pencil_bound([3] * 9, 3, slice_maxima(3, PLANE), slice_maxima(2, LINE)) == 117
    assert pencil_bound([9] * 9, 4, slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)) == 1080


def test_two_big_hyperplanes_of_ag53_allow_what_two_full_ones_hold():
    # 140 cards with two hyperplanes of more than 72 each hold at most 2187 sets (planes and
    # 3-flats at the paper's maxima, hyperplanes at the degree bound), and two full hyperplanes
    # with five cards more, two of them in one cell, hold exactly that many.
    most, below = slice_maxima(5, {}), slice_maxima(4, TABLE_3)
    largest, cells = two_big_hyperplanes(5, 140, 72, most, below)
    assert largest == 2187 == pencil_bound(cells, 5, most, below)
    assert cells[:4] == [27, 27, 27, 27] and cells[6] == 27
    # the bundle's checker, sharing no code with the split, finds the same largest bound
    theirs = split_check.largest_pencil_bound(5, 140, 72, most, below, 2186, None, TRIANGLES)
    assert theirs[0] == 2187
    d = digits(5).astype(np.int64)
    union = [x for x in range(243) if d[x, 0] == 0 or d[x, 1] == 0]
    outside = {(i, j): [x for x in range(243) if (d[x, 0], d[x, 1]) == (i, j)]
               for i in (1, 2) for j in (1, 2)}  # fmt: skip
    extra = outside[1, 1][:2] + outside[1, 2][:1] + outside[2, 1][:1] + outside[2, 2][:1]
    board = union + extra
    assert len(board) == 140 and count_sets(board, 5) == 2187


@pytest.mark.parametrize("cards", range(6, 28))
def test_the_split_never_undercuts_table_3(cards):
    # From the planes' and lines' maxima (brute force) alone; the split proves Table 3 itself
    # for n = 6, 7 and 10..17.
    value = TABLE_3[cards]
    upper, record = split_upper_bound(3, cards, PLANE, LINE, value, degree_bound(3, cards) + 1)
    assert upper >= value
    if cards in (6, 7, *range(10, 18)):
        assert upper == value and verify_split_bound(record)


def test_the_split_proves_table_1_from_table_3():
    for cards in range(10, 13):
        upper, record = split_upper_bound(4, cards, TABLE_3, PLANE, TABLE_1[cards], 99)
        assert upper == TABLE_1[cards]
        assert record["method"] == "split" and verify_split_bound(record)


def test_the_splits_run_side_by_side_and_resume_from_their_checkpoints(tmp_path):
    # Table 1 of the paper (M_4(10..12)) from Table 3, one task per n in a pool of two.
    store = Store(tmp_path / "split.sqlite")
    ranges = {cards: (TABLE_1[cards], 99) for cards in range(10, 13)}
    found = split_bounds(4, ranges, TABLE_3, PLANE, store, workers=2)
    assert {n: payload["bound"] for n, payload in found.items()} == {n: TABLE_1[n] for n in ranges}
    assert all(verify_split_bound(payload["record"]) for payload in found.values())
    job = split_job(4, TABLE_3, PLANE)
    assert sorted(store.finished_tasks(job)) == [f"{n}/{TABLE_1[n]}" for n in ranges]
    # Started again with other uppers (as after recording some bounds): nothing is recomputed,
    # the payloads are the checkpointed ones (their times too); a new lower is a new task.
    again = split_bounds(4, {n: (low, 40) for n, (low, _) in ranges.items()}, TABLE_3, PLANE, store)
    assert again == found
    fresh = split_bounds(4, {12: (TABLE_1[12] - 1, 99)}, TABLE_3, PLANE, store, workers=1)
    assert fresh[12]["bound"] == TABLE_1[12] and fresh[12]["seconds"] != found[12]["seconds"]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_theta_search_skips_programs_highs_does_not_decide(data):
    """The program's optimum does not decrease with theta; HiGHS may leave some theta undecided
    (its time limit: at n = 145 of AG(5,3), theta = 64). The search must return the largest
    theta whose optimum HiGHS knows below the threshold, never an undecided one, from the
    optima the walk asked for and its verdicts on the threshold (an optimum known below at
    a larger theta settles an undecided smaller one, the search's start among them), and
    never ask HiGHS what an optimum already says."""
    steps = data.draw(st.lists(st.integers(0, 2), min_size=18, max_size=18))
    values = dict(zip(range(9, 27), itertools.accumulate(steps, initial=100), strict=False))
    undecided = data.draw(st.sets(st.integers(9, 26)))
    optimized = data.draw(st.sets(st.integers(9, 26)))  # optima the walk already asked for
    threshold = data.draw(st.integers(95, 140))  # 140 sets: the counting bound of 30 cards
    asked: list[tuple[int, int]] = []

    def verdict(self, theta, at_least):
        asked.append((theta, at_least))
        return None if theta in undecided else values[theta] < at_least

    optima = _Optima(4, 30, {})  # theta from 9 up to 26, each answer made up here
    optima.seen = {t: None if t in undecided else values[t] for t in optimized}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_Optima, "_verdict", verdict)
        found = optima.largest_below(threshold)
    usable = [t for t, v in values.items() if t not in undecided and v < threshold]
    known = [t for t in usable if t == 9 or t in optimized]  # below at 9, as asked or known
    assert found == (max(usable) if known else None)
    assert all(t not in optima.seen or optima.seen[t] is None for t, _ in asked)


@pytest.mark.parametrize("seconds", [2.0, 0.0])
def test_the_threshold_verdicts_agree_with_the_optima(seconds, monkeypatch, solver_calls):
    # The verdicts on "L >= threshold" (the LP relaxation, then CP-SAT) and the optima (CP-SAT,
    # else HiGHS) against HiGHS's optima of L, asked here directly, on the real programs of 48
    # cards of AG(4,3) (optima -1, -1, 180, 236, ..., 253 for theta = 15..27); with no time for
    # CP-SAT, HiGHS's optimum answers every question instead.
    monkeypatch.setattr(split_module, "INTEGER_FIRST_SECONDS", seconds)
    programs = _Optima(4, 48, TABLE_3)
    optima = {}
    for theta in range(15, 28):
        status, best, _ = solve_highs(programs._program(theta), 1)
        optima[theta] = -1 if status == "infeasible" else best
    solver_calls.clear()
    assert {theta: programs(theta) for theta in optima} == optima
    for theta, best in optima.items():
        fresh = _Optima(4, 48, TABLE_3)
        if best < 0:  # no profile at all: below every threshold
            assert fresh.below(theta, 0) is True
            continue
        assert fresh.below(theta, best) is False and fresh.below(theta, best + 1) is True
        # and what those two verdicts say elsewhere, by the optimum's growth with theta
        assert fresh.below(theta, best + 5) is True and fresh.below(theta - 1, best + 1) is True
        assert fresh.below(theta + 1, best) is False
        # an L a solver found is one the program admits: never above the optimum
        assert all(found <= optima[t] for t, found in fresh.attained.items())
    for threshold in range(170, 260, 7):  # the search's thetas stop below 27, a whole flat
        fresh = _Optima(4, 48, TABLE_3)
        under = [theta for theta, best in optima.items() if theta < 27 and best < threshold]
        assert fresh.largest_below(threshold) == max(under, default=None)
    # HiGHS's integer programs (its optima) only where CP-SAT has no time; solve_highs above
    # is bounds' own, not the split's recorded one
    assert ("solve_cpsat", False) in solver_calls
    assert (("solve_highs", False) in solver_calls) == (seconds == 0.0)


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_the_theta_walk_finds_the_best_theta(data):
    """Over theta the program's optimum does not decrease and the pencils' bound does not
    increase; the walk must find the least larger-of-the-two, across plateaus of the program
    (at n = 148 of AG(5,3) theta = 71 and 70 both give 2474, and 69 gives 2472) and undecided
    programs. Both sides are made up here, and the answer is checked by trying every theta."""
    thetas = range(9, 27)  # 30 cards of AG(4,3)
    rises = data.draw(st.lists(st.integers(0, 3), min_size=18, max_size=18))
    falls = data.draw(st.lists(st.integers(0, 4), min_size=18, max_size=18))
    program = dict(zip(thetas, itertools.accumulate(rises, initial=90), strict=False))
    pencils = dict(zip(reversed(thetas), itertools.accumulate(falls, initial=80), strict=False))
    undecided = data.draw(st.sets(st.integers(10, 26)))
    lower, upper = data.draw(st.integers(85, 110)), data.draw(st.integers(111, 160))

    def pencil_search(properties, cards, theta, most, most_below, floor, cutoff):
        return (pencils[theta], [0] * 9) if pencils[theta] > floor else (floor, None)

    best = min([max(program[t], lower, pencils[t]) for t in thetas if t not in undecided] + [upper])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_Optima, "__call__", lambda self, t: None if t in undecided else program[t])
        patch.setattr(
            _Optima, "_verdict", lambda self, t, at: None if t in undecided else program[t] < at
        )
        patch.setattr(split_module, "two_big_hyperplanes", pencil_search)
        patch.setattr(split_module, "_decide", lambda *args: split_module._Decided(
            *args[:2], {}, {}, args[2], args[5], args[5], args[6], [], {}))  # fmt: skip
        patch.setattr(split_module, "_build", lambda decided: {"theta": decided.theta})
        patch.setattr(split_module, "_middle_split", lambda *args: None)  # the walk alone
        found, record = split_upper_bound(4, 30, {}, {}, lower, upper)
    assert found == best and (record is None) == (best == upper)


@pytest.mark.parametrize(
    ("failing", "built", "expected"),
    [
        ((), [96], 95),
        ((96, 97), [96, 97, 98], 97),
        (tuple(range(96, 102)), list(range(96, 102)), 101),
    ],
)
def test_the_walk_builds_only_its_last_step_and_the_one_before_where_cp_sat_disagrees(
    failing, built, expected
):
    # Each step of the middle-case walk, one set lower than the one before, is decided by
    # HiGHS's verdicts; only the last one's record is built, and where it cannot be (CP-SAT
    # does not decide a program HiGHS refutes) the step before it is built instead.
    tried: list[int] = []

    def step(properties, cards, target, *args):
        return (
            split_module._Decided(
                properties, cards, {}, {}, target + 1, 20, 21, (target, None), [], {}
            )
            if target >= 95
            else None
        )

    def build(decided):
        tried.append(decided.threshold)
        return (
            None if decided.threshold in failing else {"claim": f"max <= {decided.threshold - 1}"}
        )

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_Optima, "__call__", lambda self, theta: 100)
        patch.setattr(_Optima, "_verdict", lambda self, theta, at_least: at_least > 100)
        patch.setattr(split_module, "two_big_hyperplanes", lambda *args, **kw: (10**6, [0] * 9))
        patch.setattr(split_module, "_middle_split", step)
        patch.setattr(split_module, "_build", build)
        found, record = split_upper_bound(4, 30, {}, {}, 90, 101)
    assert tried == built and found == expected
    assert (record is None) == (expected == 101)


def test_a_split_record_does_not_pass_as_a_plain_bound():
    record = prove_split_bound(3, 12, 15, PLANE, LINE)
    program = record["program"]
    assert program["big"] == 8
    assert not verify_max_bound(program)  # alone it bounds only one case
    assert verify_max_bound(program, big=8)
    assert prove_max_bound(3, 12, 15, PLANE, big=8) is not None
    assert verify_split_bound(record)
    assert not verify_split_bound({**record, "theta": 7})
    assert not verify_split_bound({**record, "claim": "max <= 13"})


def test_verify_follows_a_split_to_the_values_it_assumed():
    from setlab.certificates import check_bound, citations
    from setlab.extremal.maxsets import Solver
    from setlab.store import Store

    store = Store(":memory:")
    Solver(2, store).table()
    Solver(3, store).table()
    record = prove_split_bound(4, 12, 15, TABLE_3, PLANE)
    store.record_bound("maxsets", 4, 12, "max", 14, {"method": "split", "record": record}, "split")
    result = store.get("maxsets", 4, 12)
    assert check_bound(result, store).ok
    assert (3, 9, "max") in citations(result) and (2, 9, "max") in citations(result)
    loose = {**record, "pencil": {**record["pencil"], "known_below": {"9": 11}}}
    store.record_bound("maxsets", 4, 11, "max", 14, {"method": "split", "record": loose}, "split")
    assert not check_bound(store.get("maxsets", 4, 11), store).ok  # M_2(9) = 12 is proven


@settings(max_examples=40, deadline=None)
@given(st.integers(5, 27), st.integers(2, 8), st.integers(-1, 60))
def test_the_checker_finds_what_setlab_finds_in_ag33(cards, theta, floor):
    most, below = slice_maxima(3, PLANE), slice_maxima(2, LINE)
    mine = two_big_hyperplanes(3, cards, theta, most, below, floor)[0]
    theirs = split_check.largest_pencil_bound(3, cards, theta, most, below, max(floor, 0), None,
                                             TRIANGLES)[0]  # fmt: skip
    assert max(mine, 0) == theirs


@pytest.mark.parametrize(("cards", "theta", "floor"), [(30, 17, 100), (40, 20, 150), (45, 25, 200)])
def test_the_checker_finds_what_setlab_finds_in_ag43(cards, theta, floor):
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    mine = two_big_hyperplanes(4, cards, theta, most, below, floor)
    theirs = split_check.largest_pencil_bound(4, cards, theta, most, below, floor, None, TRIANGLES)
    assert mine[0] == theirs[0]


def class_types_by_hand(cells: list[int]) -> set[tuple[int, int, int]]:
    """The four parallel classes of the plane of cells 3i + j (rows, columns, i + j and i - j
    fixed), each as its three line sums, largest first."""
    classes = [lambda i, j: i, lambda i, j: j, lambda i, j: (i + j) % 3, lambda i, j: (i - j) % 3]
    types = set()
    for line_of in classes:
        sums = [0, 0, 0]
        for i, j in itertools.product(range(3), repeat=2):
            sums[line_of(i, j)] += cells[3 * i + j]
        types.add(tuple(sorted(sums, reverse=True)))
    return types


def test_a_case_pencil_respects_its_refuted_types():
    most, below = slice_maxima(3, PLANE), slice_maxima(2, LINE)
    largest, cells = pencil_maximum(3, 12, most, below, (6, 9), (6, 9))
    rows = tuple(sorted((sum(cells[3 * i : 3 * i + 3]) for i in range(3)), reverse=True))
    assert largest == 14 and rows in class_types_by_hand(cells)
    again, other = pencil_maximum(3, 12, most, below, (6, 9), (6, 9), refuted=[rows])
    assert again <= largest and other is not None
    assert sum(other) == 12 and rows not in class_types_by_hand(other)


def _split_certificate(
    cards: int, value: int, theta: int | None = None, top: int | None = None
) -> tuple[dict, dict]:
    from setlab.extremal.farkas import record_certificate

    record = prove_split_bound(4, cards, value + 1, TABLE_3, PLANE, theta, top)
    certificate = {
        "theta": record["theta"],
        "program": record_certificate(record["program"]),
        "pencil": {
            "theta": record["pencil"]["theta"],
            "multipliers": record["pencil"]["multipliers"],
        },
        "middle": [record_certificate(entry) for entry in record["middle"]],
    }
    cited = {(3, k, "max"): v for k, v in TABLE_3.items()}
    cited.update({(2, k, "max"): v for k, v in PLANE.items()})
    return certificate, cited


def _pencil_program(
    cells: list[int], properties: int, most: list[int], below: list[int],
    sets: int | None = None,
) -> float | None:  # fmt: skip
    """The optimum of the pencil's own linear program (split's module docstring), built here
    from the plane's lines by hand and solved by HiGHS: variables I(c) for the nine cells and
    X(l) for the twelve lines of i + uj or j fixed. With ``sets``, the most lines inside the
    cells, sum I(c), when L >= sets (None: no solution)."""
    from scipy.optimize import linprog

    lines = [[3 * i + j for i in range(3) for j in range(3) if j == b] for b in range(3)]
    lines += [[3 * i + j for i in range(3) for j in range(3) if i == a] for a in range(3)]
    for u in (1, 2):
        lines += [[3 * i + j for i in range(3) for j in range(3) if (i + u * j) % 3 == e]
                  for e in range(3)]  # fmt: skip
    flat, cell = 3 ** (properties - 1), 3 ** (properties - 2)
    held = [sum(cells[c] for c in line) for line in lines]
    across = [across_bounds(*(cells[c] for c in line), cell)[1] for line in lines]
    rows, limits = [], []
    for c in range(9):  # a cell holds at most M_{P-2} of its cards
        rows.append([int(x == c) for x in range(9)] + [0] * 12)
        limits.append(below[cells[c]])
    for k, line in enumerate(lines):  # across a line, and inside its hyperplane
        rows.append([0] * 9 + [int(x == k) for x in range(12)])
        limits.append(across[k])
        rows.append([int(x in line) for x in range(9)] + [int(x == k) for x in range(12)])
        own = sum(below[cells[c]] for c in line) + across[k]
        limits.append(min(most[held[k]], own))
    for k in range(4):  # the sets across a class cross its three hyperplanes
        rows.append([0] * 9 + [int(x // 3 != k) for x in range(12)])
        limits.append(across_bounds(*held[3 * k : 3 * k + 3], flat)[1])
    objective = [-1] * 21
    if sets is not None:  # L >= sets; the cells' lines the objective
        rows.append([-1] * 21)
        limits.append(-sets)
        objective = [-1] * 9 + [0] * 12
    found = linprog(objective, A_ub=rows, b_ub=limits, bounds=(0, None), method="highs")
    return -found.fun if found.status == 0 else None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=9, max_size=9))
def test_the_triangles_never_pass_below_the_pencils_own_program(cells):
    # Every row of pencil_multipliers is a dual solution of the pencil's linear program, so
    # the bound is never below its optimum (rounded down), and never above the checker's
    # bound without multipliers.
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    bound = pencil_bound(cells, 4, most, below)
    assert math.floor(_pencil_program(cells, 4, most, below) + 1e-9) <= bound
    closed = split_check._bounds(np.array([cells]), np.array(most), np.array(below), 4, None)
    assert bound <= int(closed[0])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=9, max_size=9), st.integers(0, 400))
def test_the_cells_bound_is_never_below_the_pencils_own_program(cells, sets):
    # cells_bound is a dual solution of "most lines inside the cells when L >= sets", so never
    # below that program's optimum; the checker's own bound is the same.
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    tables = split_module._tables(4, sum(cells), most, below)
    bound = int(split_module.cells_bound(np.array([cells]), tables, sets)[0])
    optimum = _pencil_program(cells, 4, most, below, sets)
    assert optimum is None or math.floor(optimum + 1e-9) <= bound
    assert bound <= sum(below[c] for c in cells)
    theirs = split_check._cells_held(np.array([cells]), np.array(most), np.array(below), 4, None,
                                     sets)  # fmt: skip
    assert int(theirs[0]) == bound


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_checkers_weighed_bound_is_the_docstrings_sum_small_or_huge(data):
    # floor(B / D) least over the rows, B summed by loops over cells, lines and classes; with
    # entries past 2^53 / weights the checker must leave floating point for integers
    top = data.draw(st.sampled_from([100, 2**52]))
    rows = data.draw(st.lists(st.tuples(st.lists(st.integers(0, 4), min_size=16, max_size=16),
                                        st.integers(1, 6)), min_size=1, max_size=4))  # fmt: skip
    multipliers = np.array([[*wv, d] for wv, d in rows], dtype=np.int64)
    k = data.draw(st.integers(1, 5))
    parts = [np.array(data.draw(st.lists(st.lists(st.integers(0, top), min_size=width,
                                                  max_size=width), min_size=k, max_size=k)),
                      dtype=np.int64) for width in (9, 12, 12, 4)]  # fmt: skip
    inside, across, held, crossing = parts
    lines = split_check.PLANE.tolist()
    expected = []
    for i in range(k):
        best = None
        for *wv, d in multipliers.tolist():
            w, v = wv[:12], wv[12:]
            y = [max(0, d - sum(w[l] for l in range(12) if c in lines[l])) for c in range(9)]
            z = [max(0, d - w[l] - sum(v[j] for j in range(4) if j != l // 3)) for l in range(12)]
            b = sum(int(inside[i, c]) * y[c] for c in range(9))
            b += sum(int(across[i, l]) * z[l] + int(held[i, l]) * w[l] for l in range(12))
            b += sum(int(crossing[i, j]) * v[j] for j in range(4))
            best = b // d if best is None else min(best, b // d)
        expected.append(best)
    found = split_check._weighed(multipliers, inside, across, held, crossing)
    assert found.tolist() == expected


def test_the_triangles_prove_what_the_closed_form_cannot(monkeypatch):
    # 15 cards of AG(4,3) with two hyperplanes of 6 or more: cells 2, 2, 2 / 2, 1, 1 / 2, 1, 2
    # allow 26 sets by the cells' and the classes' bounds, 25 by a triangle (the pencil's own
    # program, solved here, allows 24). So the split proves M_4(15) <= 25 at theta = top = 5
    # (M_4(15) = 23), the checker accepts it, and refuses it without the multipliers; without
    # them setlab's split does not close either.
    cells = [2, 2, 2, 2, 1, 1, 2, 1, 2]
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    closed = split_check._bounds(np.array([cells]), np.array(most), np.array(below), 4, None)
    assert int(closed[0]) == 26
    assert pencil_bound(cells, 4, most, below) == 25
    assert _pencil_program(cells, 4, most, below) == pytest.approx(24)
    certificate, cited = _split_certificate(15, 25, theta=5, top=5)
    assert split_check.check_split(4, 15, 25, certificate, cited) == []
    bare = {**certificate, "pencil": {**certificate["pencil"], "multipliers": []}}
    assert "allow 26 sets" in split_check.check_split(4, 15, 25, bare, cited)[0]
    broken = {**certificate, "pencil": {**certificate["pencil"], "multipliers": [[1] * 17 + [0]]}}
    assert "multipliers" in split_check.check_split(4, 15, 25, broken, cited)[0]
    monkeypatch.setattr(split_module, "MULTIPLIERS", np.zeros((0, 38), dtype=np.int64))
    assert prove_split_bound(4, 15, 26, TABLE_3, PLANE, theta=5, top=5) is None


def test_the_standalone_checker_accepts_a_split_and_refuses_tampering():
    certificate, cited = _split_certificate(12, 14)
    assert split_check.check_split(4, 12, 14, certificate, cited) == []
    assert split_check.check_split(4, 12, 13, certificate, cited)  # one set fewer: refused
    other = {**certificate, "theta": certificate["theta"] - 1}
    assert split_check.check_split(4, 12, 14, other, cited)  # the program's theta differs
    plain = {**certificate["program"]}
    plain.pop("big")
    assert split_check.check_split(4, 12, 14, {**certificate, "program": plain}, cited)
    farkas = _checker("farkas_check")
    assert farkas.check_farkas(4, 12, "max", 14, certificate["program"], cited)  # not alone


def _middle_cells_of(board: list[int]) -> tuple[np.ndarray, np.ndarray, int]:
    """Each card's (i, j) of ``board``'s middle-case pencil in AG(4,3), and t: f a class of
    largest maximum, g another class whose maximum t is the second largest; row 0 (i = 0) and
    column 0 (j = 0) their largest hyperplanes."""
    forms = linear_forms(4)
    values = digits(4)[board].astype(np.int64) @ forms.T % 3  # (n, classes)
    counts = np.stack([np.bincount(values[:, k], minlength=3) for k in range(len(forms))])
    maxima = counts.max(axis=1)
    f = int(np.argmax(maxima))
    g = max((k for k in range(len(forms)) if k != f), key=lambda k: maxima[k])
    i = (values[:, f] - np.argmax(counts[f])) % 3
    j = (values[:, g] - np.argmax(counts[g])) % 3
    return i, j, int(maxima[g])


def _middle_pencil(board: list[int]) -> tuple[int, list[int], tuple]:
    """t, the cells and the four class types of ``board``'s middle-case pencil in AG(4,3)
    (:func:`_middle_cells_of`)."""
    i, j, t = _middle_cells_of(board)
    cells = np.bincount(3 * i + j, minlength=9)
    sizes = cells[PLANE_LINES].sum(axis=1)
    types = [
        tuple(int(v) for v in sorted(sizes[3 * k : 3 * k + 3], reverse=True)) for k in range(4)
    ]
    return t, cells.tolist(), (types[1], types[0], *sorted(types[2:]))


def _any_board(data) -> list[int]:
    """A board of AG(4,3): a full plane or 3-flat and more (many sets), or any cards."""
    if data.draw(st.booleans()):
        base = list(range(data.draw(st.sampled_from([9, 27]))))
        extra = data.draw(st.lists(st.integers(0, 80), max_size=15, unique=True))
        return sorted(set(base) | set(extra))
    return data.draw(st.lists(st.integers(0, 80), min_size=3, max_size=50, unique=True))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_cells_row_holds_for_real_configurations(data):
    # Counted on a real board: the four classes of its middle-case pencil hold 3 I + L sets
    # inside their hyperplanes (I the sets inside cells), I is at most cells_bound at L, and
    # the program forcing the four types with the cells' bound I admits the board's own profile.
    board = _any_board(data)
    i, j, t = _middle_cells_of(board)
    _, cells, quad = _middle_pencil(board)
    sets = find_sets(board, 4)
    classes = [i, j, (i + j) % 3, (i + 2 * j) % 3]  # each card's hyperplane in each class
    inside = [sum(len({int(v[x]) for x in s}) == 1 for s in sets) for v in classes]
    held = sum(len({int(3 * i[x] + j[x]) for x in s}) == 1 for s in sets)
    assert sum(inside) == 3 * held + len(sets)
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    tables = split_module._tables(4, len(board), most, below)
    assert held <= int(split_module.cells_bound(np.array([cells]), tables, len(sets))[0])
    found = prove_max_bound(4, len(board), len(sets), TABLE_3, big=t, forced=quad, cells=held)
    assert found is None


@settings(max_examples=10, deadline=None)
@given(st.data())
def test_the_middle_case_lists_the_pencil_of_every_real_configuration(data):
    # Any board of AG(4,3) is in the middle case of its own t (the second largest class
    # maximum): its pencil's four types must be listed for any value below its sets, by setlab
    # and (as a multiset) by the standalone checker. (10 boards here, 60 under the slow marker:
    # one of 30 to 40 cards with few sets alone takes seconds, and 60 took from 4 to 70 s.)
    _middle_case_lists_the_pencil(_any_board(data))


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_middle_case_lists_the_pencil_of_60_real_configurations(data):
    _middle_case_lists_the_pencil(_any_board(data))


def _middle_case_lists_the_pencil(board: list[int]) -> None:
    t, cells, quad = _middle_pencil(board)
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    value = count_sets(board, 4) - 1
    assert pencil_bound(cells, 4, most, below) > value
    assert quad in middle_types(4, len(board), t, most, below, value)
    assert cells in middle_patterns(4, len(board), t, most, below, value, quads=[quad])
    theirs = split_check.middle_quadruples(4, len(board), t, most, below, value, None, TRIANGLES)
    assert tuple(sorted(quad)) in theirs


@pytest.mark.parametrize(
    ("cards", "t", "value"), [(12, 5, 14), (15, 6, 23), (20, 8, 47), (36, 13, 140)]
)
def test_the_checker_lists_the_middle_case_as_setlab_does(cards, t, value):
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    mine = {tuple(sorted(quad)) for quad in middle_types(4, cards, t, most, below, value)}
    assert mine and mine == split_check.middle_quadruples(4, cards, t, most, below, value, None,
                                                            TRIANGLES)  # fmt: skip
    theirs = split_check.middle_cells(4, cards, t, most, below, value, None, TRIANGLES)
    assert split_module.middle_cells(4, cards, t, most, below, value) == theirs


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(0, 80), min_size=6, max_size=40, unique=True), st.data())
def test_forcing_a_configurations_own_types_never_refutes_it(board, data):
    # The program with big = t (its second largest class maximum) and some of its pencil's
    # types forced still admits its own class profile at its own count of sets.
    t, _, quad = _middle_pencil(board)
    forced = data.draw(st.lists(st.sampled_from(range(4)), min_size=1, max_size=4, unique=True))
    sets = count_sets(board, 4)
    types = [quad[k] for k in forced]
    assert prove_max_bound(4, len(board), sets, TABLE_3, big=t, forced=types) is None


def test_a_middle_case_is_checked_by_setlab_and_the_standalone_checker():
    # M_4(20) <= 47 with theta = 6 and top = 8: the middle case t = 7, 8 takes two programs.
    record = prove_split_bound(4, 20, 48, TABLE_3, PLANE, theta=6, top=8)
    assert [entry["big"] for entry in record["middle"]] == [7, 8]
    assert verify_split_bound(record)
    assert not verify_split_bound({**record, "middle": record["middle"][1:]})
    wrong = {**record["middle"][0], "forced": [[8, 6, 6]]}  # not the model it was solved as
    assert not verify_split_bound({**record, "middle": [wrong, *record["middle"][1:]]})
    certificate, cited = _split_certificate(20, 47, theta=6, top=8)
    assert split_check.check_split(4, 20, 47, certificate, cited) == []
    dropped = {**certificate, "middle": certificate["middle"][1:]}
    assert "no program of t = 7" in split_check.check_split(4, 20, 47, dropped, cited)[0]
    lowered = {**certificate, "pencil": {"theta": 7}, "middle": certificate["middle"][:1]}
    assert split_check.check_split(4, 20, 47, lowered, cited)  # two hyperplanes of 8 allow more
    outside = {**certificate["middle"][0], "big": 6}  # t must lie in theta+1..top
    assert split_check.check_split(4, 20, 47, {**dropped, "middle": [outside]}, cited)


def test_a_forced_type_enters_the_program_its_certificate_and_the_checker():
    # The program admits 14 sets among 12 cards of AG(4,3) (M_4(12) = 14), but not with a class
    # of type (11, 1, 0): then every set lies in the hyperplane of 11 cards, M_3(11) = 13.
    from setlab.extremal.farkas import record_certificate

    assert prove_max_bound(4, 12, 14, TABLE_3) is None
    record = prove_max_bound(4, 12, 14, TABLE_3, forced=[(11, 1, 0)])
    assert record["forced"] == [[11, 1, 0]] and verify_max_bound(record, forced=[(0, 1, 11)])
    assert not verify_max_bound(record)  # alone it bounds only the configurations forced
    certificate = record_certificate(record)
    farkas = _checker("farkas_check")
    cited = {(3, k, "max"): v for k, v in TABLE_3.items()}
    assert farkas.check_farkas(4, 12, "max", 13, certificate, cited, forced=[[11, 1, 0]]) == []
    assert farkas.check_farkas(4, 12, "max", 13, certificate, cited)  # it says "forced"
    plain = {k: v for k, v in certificate.items() if k != "forced"}
    assert farkas.check_farkas(4, 12, "max", 13, plain, cited)  # no contradiction without it


def test_a_ceiling_enters_the_program_its_certificate_and_the_checker():
    # 14 sets among 12 cards of AG(4,3) need all 12 in one hyperplane: with no hyperplane
    # above 11 cards the program is infeasible, with 12 it is not.
    from setlab.extremal.farkas import record_certificate

    assert prove_max_bound(4, 12, 14, TABLE_3, ceiling=12) is None
    record = prove_max_bound(4, 12, 14, TABLE_3, ceiling=11)
    assert record["ceiling"] == 11 and verify_max_bound(record, ceiling=11)
    assert not verify_max_bound(record) and not verify_max_bound(record, ceiling=12)
    certificate = record_certificate(record)
    farkas = _checker("farkas_check")
    cited = {(3, k, "max"): v for k, v in TABLE_3.items()}
    assert farkas.check_farkas(4, 12, "max", 13, certificate, cited, ceiling=11) == []
    assert farkas.check_farkas(4, 12, "max", 13, certificate, cited)  # it says "ceiling"
    plain = {k: v for k, v in certificate.items() if k != "ceiling"}
    assert farkas.check_farkas(4, 12, "max", 13, plain, cited)  # no contradiction without it


def test_covering_counts_classes():
    quad = [(8, 6, 6), (8, 6, 6), (7, 7, 6), (8, 7, 5)]
    assert covers([(8, 6, 6), (8, 6, 6)], quad) and covers([(6, 8, 6)], quad)
    assert not covers([(7, 7, 6), (7, 7, 6)], quad)
    assert not covers([(8, 6, 6)], quad, ceiling=7)  # row 0 of 8 is above the ceiling
    assert split_check._covers([[8, 6, 6], [8, 6, 6]], 8, tuple(sorted(quad)))
    assert not split_check._covers([[8, 6, 6], [8, 6, 6]], 7, tuple(sorted(quad)))
    assert not split_check._covers([[7, 7, 6], [7, 7, 6]], None, tuple(sorted(quad)))
    # a program with a bound on the cells covers its own four types, where they hold no more
    key = tuple(sorted(quad))
    assert split_check._covers([list(k) for k in quad], 8, key, cells=40, held=40)
    assert not split_check._covers([list(k) for k in quad], 8, key, cells=40, held=41)
    assert not split_check._covers([[8, 6, 6], [8, 6, 6]], 8, key, cells=40, held=0)


def test_a_bound_on_the_cells_enters_the_program_its_certificate_and_the_checker():
    # 12 cards of AG(4,3) with 13 sets or more, a class of type (12, 0, 0) and three of
    # (9, 3, 0) in one pencil: the program admits it, but not with at most 9 sets inside the
    # pencil's cells (then the four classes hold at most 3 * 9 + L inside their hyperplanes);
    # with 10 it does again.
    from setlab.errors import SetlabError
    from setlab.extremal.farkas import record_certificate

    quad = [(12, 0, 0), (9, 3, 0), (9, 3, 0), (9, 3, 0)]
    assert prove_max_bound(4, 12, 13, TABLE_3, big=9, forced=quad) is None
    assert prove_max_bound(4, 12, 13, TABLE_3, big=9, forced=quad, cells=10) is None
    record = prove_max_bound(4, 12, 13, TABLE_3, big=9, forced=quad, cells=9)
    assert record["cells"] == 9 and verify_max_bound(record, big=9, forced=quad, cells=9)
    assert not verify_max_bound(record, big=9, forced=quad)  # alone it bounds only that case
    certificate = record_certificate(record)
    farkas = _checker("farkas_check")
    cited = {(3, k, "max"): v for k, v in TABLE_3.items()}
    forced = [list(kind) for kind in quad]
    assert farkas.check_farkas(4, 12, "max", 12, certificate, cited, big=9, forced=forced,
                               cells=9) == []  # fmt: skip
    assert farkas.check_farkas(4, 12, "max", 12, certificate, cited, big=9, forced=forced)
    plain = {k: v for k, v in certificate.items() if k != "cells"}
    assert farkas.check_farkas(4, 12, "max", 12, plain, cited, big=9, forced=forced)
    with pytest.raises(SetlabError, match="four types"):
        prove_max_bound(4, 12, 13, TABLE_3, big=9, forced=quad[:3], cells=9)


def test_a_middle_case_left_open_is_tried_again_with_sharper_split_maxima(monkeypatch):
    # M_4(20) <= 47 (theta = 6, top = 8): pretend t = 7 leaves its first quadruple unrefuted
    # until S(4, 4, 2) is bounded. The record asks for the pencils behind that quadruple (all
    # of them past 47, as middle_patterns lists them), tries t = 7 again with the bound, and
    # lists the bound, which setlab and the checker then recompute.
    real = split_module._cover_middle
    asked = []

    def cover(properties, cards, threshold, known_max, t, quads, records=True, cells=None,
              stop=None):
        entries, left = real(properties, cards, threshold, known_max, t, quads, records, cells,
                             stop)  # fmt: skip
        if t == 7 and not asked:  # left even with the pencils' cells
            return [], [quads[0]]
        return entries, left

    def sharpen(t, quads):
        asked.append((t, quads))
        patterns = middle_patterns(4, 20, t, most, below, 47, quads=quads)
        assert patterns and all(pencil_bound(c, 4, most, below) > 47 for c in patterns)
        return {(4, 4, 2): int(exact_split_maxima(2)[4, 4, 2])}

    monkeypatch.setattr(split_module, "_cover_middle", cover)
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    pencils = two_big_hyperplanes(4, 20, 8, most, below, floor=47)
    quads = middle_types(4, 20, 7, most, below, 47)
    assert split_module._record(4, 20, 48, TABLE_3, PLANE, 6, pencils, 8) is None
    asked.clear()
    record = split_module._record(4, 20, 48, TABLE_3, PLANE, 6, pencils, 8, None, sharpen)
    assert asked == [(7, [quads[0]])]
    assert record["split_maxima"] == [[4, 4, 2, 9]]
    assert [entry["big"] for entry in record["middle"]] == [7, 8]
    assert verify_split_bound(record)
    asked.clear()  # a sharpening that finds nothing leaves the case open
    nothing = split_module._record(4, 20, 48, TABLE_3, PLANE, 6, pencils, 8, None, lambda t, q: {})
    assert nothing is None


@functools.cache
def _exact_split_maxima_of_ag33() -> dict[tuple[int, int, int], int]:
    exact = exact_split_maxima(2)
    return {(a, b, c): int(exact[a, b, c]) for a, b, c in itertools.product(range(10), repeat=3)}


@given(
    st.sampled_from([(25, 10, 72), (26, 10, 82), (27, 10, 93), (29, 11, 93), (32, 12, 114)]),
    st.integers(0, 2**32 - 1),
)
@settings(max_examples=15, deadline=None)
def test_middle_quadruples_only_grow_with_the_split_maxima(case, seed):
    # The guide's gate rests on this: a quadruple past the value with split maxima S stays past
    # it with any larger bounds (here the exact S of AG(3,3), S raised at random, and none).
    # The cases are ones where the exact S removes quadruples the others leave. So does the
    # process's keeping of the middle case: for a sharper table it filters the pencils of the
    # looser one instead of searching again, and lists what a search with nothing kept lists.
    cards, t, value = case
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    exact = _exact_split_maxima_of_ag33()
    rng = np.random.default_rng(seed)
    raised = {split: v + int(rng.integers(0, 3)) for split, v in exact.items()}
    split_module._PENCILS.clear()
    plain = set(middle_types(4, cards, t, most, below, value))
    found = []
    for maxima in (raised, exact):  # each at most the one before
        table = split_table(2, maxima)
        kept = middle_patterns(4, cards, t, most, below, value, table)
        found.append(set(middle_types(4, cards, t, most, below, value, split_most=table)))
        split_module._PENCILS.clear()
        assert kept == middle_patterns(4, cards, t, most, below, value, table)
    assert found[1] <= found[0] <= plain
    assert found[1] != plain


@settings(max_examples=25, deadline=None)
@given(st.integers(20, 60), st.integers(0, 12), st.integers(0, 6), st.booleans(), st.data())
def test_the_pruned_pencil_searches_agree_with_the_checkers_full_enumeration(
    cards, theta, below_best, sharp, data
):
    # The kernels skip cells whose rows or columns cannot pass the best bound so far; the
    # checker enumerates every pattern of a margin pair at once. Near the largest bound (floor
    # a few below it), with and without the exact split maxima of AG(3,3), both find the same
    # largest bound and list the same middle quadruples.
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    split = split_table(2, _exact_split_maxima_of_ag33()) if sharp else None
    theta = min(theta + cards // 3, 26)
    largest = two_big_hyperplanes(4, cards, theta, most, below, split_most=split)[0]
    assume(largest >= 0)  # some pattern has two hyperplanes above theta
    floor = largest - below_best - 1
    mine = two_big_hyperplanes(4, cards, theta, most, below, floor, split_most=split)
    theirs = split_check.largest_pencil_bound(4, cards, theta, most, below, floor, split,
                                              TRIANGLES)  # fmt: skip
    assert mine[0] == theirs[0] == largest
    assert pencil_bound(mine[1], 4, most, below, split) == largest
    t = data.draw(st.integers(theta, min(cards, 27)))
    quads = {tuple(sorted(quad)) for quad in middle_types(4, cards, t, most, below, floor, split)}
    assert quads == split_check.middle_quadruples(4, cards, t, most, below, floor, split, TRIANGLES)


def test_a_middle_case_the_guide_cannot_close_searches_no_split_maximum(monkeypatch):
    # M_4(20) <= 47 at theta = 6, top = 8, with t = 7 made to leave its first quadruple (as in
    # the test above). The hyperplanes of its pencils split 2 + 2 + 2, 3 + 2 + 2 and 3 + 3 + 2
    # points of AG(3,3). A guide (lower bounds on S) below S(3, 3, 2) = 8 lets an exhaustive
    # bound on it look worth searching. At 7 the quadruple still passes 47, so no bound can
    # close the case and nothing is searched; at 5 it does not pass, so S(3, 3, 2) is searched
    # (and stays 8: the case stays open either way).
    real, searched = split_module._cover_middle, []
    remembered = split_module._remembered_split_maximum

    def search(dimension, split, most, store):
        searched.append(split)
        return remembered(dimension, split, most, store)

    class Optima:
        def largest_below(self, threshold):
            return 6

    monkeypatch.setattr(split_module, "_remembered_split_maximum", search)
    exact = _exact_split_maxima_of_ag33()
    assert exact[3, 3, 2] == 8
    for guess, expected in ((7, []), (5, [(3, 3, 2)])):
        guide = {split: guess if sorted(split) == [2, 3, 3] else v for split, v in exact.items()}
        left: list[int] = []

        def cover(properties, cards, threshold, known_max, t, quads, records=True, cells=None,
                  stop=None, left=left):  # fmt: skip
            entries, rest = real(properties, cards, threshold, known_max, t, quads, records,
                                 cells, stop)  # fmt: skip
            if t == 7 and not left:  # left, and left again with the pencils' cells
                left.extend([] if cells is None else [t])
                return [], [quads[0]]
            return entries, rest

        monkeypatch.setattr(split_module, "_cover_middle", cover)
        searched.clear()
        found = split_module._sharpened_split(4, 20, 47, TABLE_3, PLANE, Optima(), [8], guide, {})
        assert found is None and left == [7]
        assert searched == expected


TYPES = st.sampled_from([(9, 2, 1), (6, 3, 3), (5, 4, 3), (4, 4, 4), (7, 3, 2), (6, 4, 2)])


@given(
    st.lists(st.lists(TYPES, min_size=1, max_size=4), max_size=6),
    st.lists(TYPES, min_size=4, max_size=4),
)
@settings(max_examples=300, deadline=None)
def test_the_middle_case_index_of_programs_agrees_with_covers(programs, quad):
    # _cover_middle asks whether any program refuted so far covers a quadruple through an
    # index of their forced types; each program's ceiling is its largest part forced.
    done = {split_module._kinds(forced): max(map(max, forced)) for forced in programs}
    expected = any(covers(forced, quad, max(map(max, forced))) for forced in programs)
    assert split_module._covered(quad, done) == expected



@given(
    st.lists(
        st.tuples(st.lists(TYPES, max_size=4), st.none() | st.integers(0, 12)), max_size=6
    ),
    st.lists(TYPES, min_size=4, max_size=4),
)
@settings(max_examples=300, deadline=None)
def test_the_verifier_index_of_programs_agrees_with_covers(programs, quad):
    # verify_split_bound keeps, for each forced multiset, the highest ceiling a record gives it
    # (none above all); the index must say what covers says of the records one by one.
    index: dict = {}
    for forced, ceiling in programs:
        kinds, high = split_module._kinds(forced), math.inf if ceiling is None else ceiling
        index[kinds] = max(index.get(kinds, -math.inf), high)
    expected = any(covers(forced, quad, ceiling) for forced, ceiling in programs)
    assert split_module._covered(quad, index) == expected

@pytest.fixture
def forced_solves(monkeypatch):
    """The forced types of every program the middle case hands to ``prove_max_bound`` (HiGHS
    and CP-SAT), with the per-process caches of the forced programs emptied first."""
    split_module._forced_refutation.cache_clear()
    split_module._forced_infeasible.cache_clear()
    split_module._FEASIBLE.clear()
    solved = []
    real = split_module.prove_max_bound

    def solve(*args, **kwargs):
        solved.append(kwargs.get("forced"))
        return real(*args, **kwargs)

    monkeypatch.setattr(split_module, "prove_max_bound", solve)
    return solved


def test_the_middle_case_solves_each_forced_program_once(forced_solves):
    # The plain middle case and every top the split maxima may close meet the same programs:
    # a second pass over the quadruples of M_4(20) <= 47 at t = 7 solves nothing, and returns
    # equal records that are not the cached ones.
    solved = forced_solves
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    quads = middle_types(4, 20, 7, most, below, 47)
    first = split_module.cover_middle_case(4, 20, 48, TABLE_3, 7, quads)
    count = len(solved)
    second = split_module.cover_middle_case(4, 20, 48, TABLE_3, 7, quads)
    assert first and first == second and first[0] is not second[0]
    assert count > 0 and len(solved) == count


def test_a_middle_case_left_open_builds_no_records(forced_solves):
    # 19 cards of AG(4,3) with 40 sets exist (M_4(19) = 41, the paper's Table 3), so the middle
    # case at t = 8 cannot close. HiGHS alone finds the quadruples left, with no record (no
    # CP-SAT solve) built; they are the ones the walk with records leaves, and the program of
    # each, all four types forced, is not refuted.
    solved = forced_solves
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    quads = middle_types(4, 19, 8, most, below, 39)
    assert split_module.cover_middle_case(4, 19, 40, TABLE_3, 8, quads) is None
    entries, left = split_module._cover_middle(4, 19, 40, TABLE_3, 8, quads, records=False)
    assert entries == [] and left and solved == []
    known = tuple(sorted(TABLE_3.items()))
    walked = split_module._cover_walk(
        quads,
        lambda forced: split_module._forced_infeasible(4, 19, 40, known, 8, forced, True),
        lambda forced: split_module._forced_refutation(4, 19, 40, known, 8, forced),
    )
    assert walked == ([], left) and solved
    for quad in left:
        assert (
            prove_max_bound(4, 19, 40, TABLE_3, big=8, forced=quad, ceiling=max(map(max, quad)))
            is None
        )


@pytest.fixture
def solver_calls(monkeypatch):
    """Every call of either solver the split makes, as (solver, relaxed), in order."""
    calls = []
    for name in ("solve_highs", "solve_cpsat"):
        real = getattr(split_module, name)

        def solve(*args, real=real, name=name, **kwargs):
            calls.append((name, kwargs.get("relaxed", False)))
            return real(*args, **kwargs)

        monkeypatch.setattr(split_module, name, solve)
    return calls


def test_a_forced_program_found_feasible_is_not_solved_again_for_fewer_sets(solver_calls):
    # M_4(19) = 41, so the middle case at t = 8 leaves quadruples whose programs admit 40
    # sets; found so, each admits 39 and 38 without a solver being asked again, as the
    # solvers say when asked afresh.
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    known = tuple(sorted(TABLE_3.items()))
    quads = middle_types(4, 19, 8, most, below, 39)
    left = split_module._cover_middle(4, 19, 40, TABLE_3, 8, quads, records=False)[1]
    assert left
    solver_calls.clear()
    solves = solver_calls
    for threshold in (39, 38):
        assert not any(split_module._forced_infeasible(4, 19, threshold, known, 8, quad, False)
                       for quad in left)  # fmt: skip
    assert solves == []
    split_module._forced_infeasible.cache_clear()
    split_module._FEASIBLE.clear()
    assert not any(split_module._forced_infeasible(4, 19, 39, known, 8, quad, False)
                   for quad in left)  # fmt: skip
    assert len(solves) >= len(left)


def test_a_forced_program_feasible_with_a_cells_bound_stays_so_only_for_looser_ones(
    solver_calls,
):
    # The quadruple of the cells' example (12 cards of AG(4,3), big = 9): feasible for 13 sets
    # with 10 lines inside its pencil's cells, infeasible with 9. Found feasible with 10 at
    # 13, it stays so without a solver for fewer sets, a larger bound or none; with 9 it is
    # solved and refuted, as the solvers say afresh of every case the memory answered.
    known = tuple(sorted(TABLE_3.items()))
    quad = ((12, 0, 0), (9, 3, 0), (9, 3, 0), (9, 3, 0))
    split_module._forced_infeasible.cache_clear()
    split_module._FEASIBLE.clear()
    assert not split_module._forced_infeasible(4, 12, 13, known, 9, quad, False, cells=10)
    solver_calls.clear()
    solves = solver_calls
    remembered = [(13, 11), (12, 10), (11, 12), (13, None)]
    for threshold, cells in remembered:
        assert not split_module._forced_infeasible(4, 12, threshold, known, 9, quad, False,
                                                   cells=cells)  # fmt: skip
    assert solves == []
    assert split_module._forced_infeasible(4, 12, 13, known, 9, quad, False, cells=9)
    assert solves
    for threshold, cells in remembered:
        program = slice_program(4, 12, threshold, degree_bound(4, 12), TABLE_3, None, 9,
                                forced_types(quad), 12, None, cells)  # fmt: skip
        assert solve_highs(program)[0] == "feasible"


def test_a_forced_integer_program_goes_to_cp_sat_first_and_to_highs_where_it_does_not_decide(
    monkeypatch, solver_calls
):
    # The quadruples M_4(19) = 41 leaves at t = 8 (their programs admit 40 sets, so each
    # relaxation is feasible and the integer program is asked) and the cells' example with 9
    # lines (refuted): CP-SAT answers each integer program, HiGHS only its relaxation; with
    # CP-SAT undecided, HiGHS answers the integer programs, and the verdicts are the same.
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    known = tuple(sorted(TABLE_3.items()))
    quads = middle_types(4, 19, 8, most, below, 39)
    left = split_module._cover_middle(4, 19, 40, TABLE_3, 8, quads, records=False)[1]
    cells = ((12, 0, 0), (9, 3, 0), (9, 3, 0), (9, 3, 0))
    asked = [((4, 19, 40, known, 8, quad, False), {}) for quad in left]
    asked.append(((4, 12, 13, known, 9, cells, False), {"cells": 9}))

    def verdicts() -> list[bool]:
        split_module._forced_infeasible.cache_clear()
        split_module._FEASIBLE.clear()
        solver_calls.clear()
        return [split_module._forced_infeasible(*args, **kwargs) for args, kwargs in asked]

    first = verdicts()
    assert first[:-1] == [False] * len(left) and first[-1]
    assert ("solve_cpsat", False) in solver_calls and ("solve_highs", False) not in solver_calls
    monkeypatch.setattr(split_module, "solve_cpsat", lambda *args, **kwargs: ("unknown", None, 0.0))
    assert verdicts() == first
    assert ("solve_highs", False) in solver_calls


def test_a_split_whose_later_middle_case_fails_builds_no_records(monkeypatch, forced_solves):
    # M_4(20) <= 47 at theta = 6, top = 8, with t = 8 made to leave a quadruple: t = 7 closes,
    # but its records would be thrown away, so none is built (no CP-SAT solve at all).
    real_cover, solved = split_module._cover_middle, forced_solves

    def cover(properties, cards, threshold, known_max, t, quads, records=True, cells=None,
              stop=None):
        entries, left = real_cover(properties, cards, threshold, known_max, t, quads, records,
                                   cells, stop)  # fmt: skip
        return ([], [quads[0]]) if t == 8 else (entries, left)

    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    pencils = two_big_hyperplanes(4, 20, 8, most, below, floor=47)
    record = split_module._record(4, 20, 48, TABLE_3, PLANE, 6, pencils, 8)
    assert [entry["big"] for entry in record["middle"]] == [7, 8] and solved
    split_module._forced_refutation.cache_clear()
    solved.clear()
    monkeypatch.setattr(split_module, "_cover_middle", cover)
    assert split_module._record(4, 20, 48, TABLE_3, PLANE, 6, pencils, 8) is None
    assert solved == []


def test_what_the_count_leaves_is_sharpened_and_the_case_tried_again(monkeypatch):
    # M_4(20) <= 47 at theta = 6, top = 8, with t = 8 made to leave its first two quadruples
    # once. The count refutes the first; the sharpening is asked for the second alone, and with
    # its bound (S(4, 4, 2) = 9, exact) the case at t = 8 is tried again and closes, keeping
    # the count's refutation and the bound. Where the sharpening has nothing, the split fails.
    real, left = split_module._cover_middle, []

    def cover(properties, cards, threshold, known_max, t, quads, records=True, cells=None,
              stop=None):
        entries, rest = real(properties, cards, threshold, known_max, t, quads, records, cells,
                             stop)  # fmt: skip
        if t == 8 and not left:
            left.extend(quads[:2])
            return [], list(left)
        return entries, rest

    def count(t, quads, cells):
        return {quads[0]: split_module._Count(split_module._kinds(quads[0]), 9, 0, 0)}

    monkeypatch.setattr(split_module, "_cover_middle", cover)
    most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    pencils = two_big_hyperplanes(4, 20, 8, most, below, floor=47)
    exact = int(exact_split_maxima(2)[4, 4, 2])
    for bound in ({(4, 4, 2): exact}, {}):
        left.clear()
        asked = []

        def sharpen(t, quads, asked=asked, bound=bound):
            asked.append((t, quads))
            return bound

        decided = split_module._decide(4, 20, 48, TABLE_3, PLANE, 6, pencils, 8, None, sharpen,
                                       count)  # fmt: skip
        assert len(left) == 2 and asked == [(8, left[1:])]
        assert (decided is not None) == bool(bound)
        if bound:
            assert list(decided.counted[8]) == left[:1] and decided.split_maxima == bound


def test_the_walk_stops_at_a_quadruple_that_decides_the_case():
    # One pair of (row, column) types, five quadruples; the first, third and fifth have no
    # program that refutes them. The walk lists all three; with a stop at the third it lists
    # two and never asks for the programs after it.
    quads = [((9, 2, 1), (6, 3, 3), rest, (4, 4, 4)) for rest in
             [(5, 4, 3), (6, 4, 2), (7, 3, 2), (6, 6, 0), (5, 5, 2)]]  # fmt: skip
    asked = []

    def refute(forced):
        asked.append(forced)
        return {} if forced in (quads[1], quads[3]) else None

    for stop, left, tried in ((None, quads[0::2], quads), (quads[2], quads[0:3:2], quads[:3])):
        asked.clear()
        found = split_module._cover_walk(quads, lambda forced: False, refute,
                                         None if stop is None else stop.__eq__)  # fmt: skip
        assert found == ([], left)
        assert [forced for forced in asked if len(forced) == 4] == [quads[0], *tried[1:]]


def test_the_counted_split_gives_up_at_a_hopeless_quadruple_the_count_leaves(monkeypatch):
    # M_4(20) <= 47 at top = 8, with no program of t = 8 refuting a quadruple with the walk's
    # cells and the count refuting none. Its first pair of types holds two quadruples. Where
    # the second is hopeless (no bound on split maxima removes it) the walk tries it first and
    # stops there: the other's programs are not solved and nothing is sharpened. Where none is,
    # both are left, in order, and the count is asked for them (once: they force the same
    # types) and the sharpening after it. (The look ahead before the walk, the next test, is
    # passed: with the cells' least bound at 0 the hopeless one's program is refuted.)
    real = split_module._forced_infeasible
    quads = middle_types(4, 20, 8, slice_maxima(4, TABLE_3), slice_maxima(3, PLANE), 47)
    first, second = [quad for quad in quads if quad[0] != quad[1]]
    solved, counted, sharpened = [], [], []

    def infeasible(properties, cards, threshold, known, t, forced, relaxed, count=None,
                   cells=None):  # fmt: skip
        if t != 8:
            return real(properties, cards, threshold, known, t, forced, relaxed, count, cells)
        solved.append(forced)
        return cells == 0

    def count_refutation(properties, cards, threshold, known, below, t, forced, *rest):
        counted.append(forced)
        return None

    def sharpen(self, t, quads):
        sharpened.append(quads)
        return {}

    class Optima:
        def largest_below(self, threshold):
            return 6

    monkeypatch.setattr(split_module, "_forced_infeasible", infeasible)
    monkeypatch.setattr(split_module, "_count_refutation", count_refutation)
    monkeypatch.setattr(split_module._Sharpening, "middle", sharpen)
    guide = _exact_split_maxima_of_ag33()
    for hopeless, asked in (({second}, [second]), (set(), [first, second])):
        monkeypatch.setattr(split_module._Sharpening, "hopeless",
                            lambda self, t, quads, h=hopeless: set(quads) & h)  # fmt: skip
        monkeypatch.setattr(split_module._Sharpening, "floor", lambda self, t, h=hopeless:
                            (sorted(h), {split_module._kinds(second): 0}))  # fmt: skip
        for kept in (solved, counted, sharpened):
            kept.clear()
        found = split_module._counted_split(4, 20, 47, TABLE_3, PLANE, Optima(), [8], guide, {})
        assert found is None
        assert list(dict.fromkeys(forced for forced in solved if len(forced) == 4)) == asked
        assert [forced for forced in counted if len(forced) == 4] == [split_module._kinds(first)]
        assert sharpened == ([] if hopeless else [asked])


def _count_at_t8(monkeypatch, infeasible, count_refutation, hopeless) -> None:
    """The counted split of M_4(20) <= 47 at theta = 6 (the tests above and below) with these
    program and count verdicts, no sharpening and ``hopeless`` the hopeless quadruples."""
    monkeypatch.setattr(split_module, "_forced_infeasible", infeasible)
    monkeypatch.setattr(split_module, "_count_refutation", count_refutation)
    monkeypatch.setattr(split_module._Sharpening, "middle", lambda self, t, quads: {})
    monkeypatch.setattr(split_module._Sharpening, "hopeless",
                        lambda self, t, quads: set(quads) & hopeless)  # fmt: skip


class _Theta6:
    def largest_below(self, threshold):
        return 6


def test_the_counted_split_looks_for_a_hopeless_quadruple_before_any_walk(monkeypatch):
    # M_4(20) <= 47 at theta = 6, top = 8, as above: the second quadruple of t = 8 hopeless,
    # the count refuting nothing, and at t = 8 only a program whose cells' bound is at most 1
    # refuted (the walk's bound is 2). With the least bound there can be (the floor) at 2,
    # nothing refutes it even there, so the split gives up before any walk: no program of
    # t = 7 is solved, and the count is asked with the floor. With the floor at 1 its program
    # refutes it there, nothing is decided ahead, and the walk runs from t = 7 as before.
    real = split_module._forced_infeasible
    quads = middle_types(4, 20, 8, slice_maxima(4, TABLE_3), slice_maxima(3, PLANE), 47)
    second = [quad for quad in quads if quad[0] != quad[1]][1]
    solved, counted = [], []

    def infeasible(properties, cards, threshold, known, t, forced, relaxed, count=None,
                   cells=None):  # fmt: skip
        solved.append(t)
        if t != 8:
            return real(properties, cards, threshold, known, t, forced, relaxed, count, cells)
        return cells is not None and cells <= 1

    def count_refutation(properties, cards, threshold, known, below, t, forced, integer, held):
        counted.append((forced, held))
        return None

    _count_at_t8(monkeypatch, infeasible, count_refutation, {second})
    guide = _exact_split_maxima_of_ag33()
    for least in (2, 1):
        monkeypatch.setattr(split_module._Sharpening, "floor", lambda self, t, least=least:
                            ([second] if t == 8 else [], {split_module._kinds(second): least}))
        solved.clear()
        counted.clear()
        found = split_module._counted_split(4, 20, 47, TABLE_3, PLANE, _Theta6(), [8], guide, {})
        assert found is None and 8 in solved
        if least == 2:
            assert 7 not in solved and (split_module._kinds(second), 2) in counted
        else:
            assert solved.index(7) > solved.index(8)  # the walk after the look ahead


def test_the_look_ahead_asks_the_walks_cells_first_and_the_walk_reuses_its_verdicts(monkeypatch):
    # As above, but no program of t = 8 refutes anything and the count refutes the hopeless
    # quadruple with the cells' bound of the walk's first round at t = 8 (2), the floor being
    # 1. Refuted there, it is refuted at the floor too: the look ahead asks the count there
    # and never at the floor (its programs are asked at the floor, before any count), and the
    # walk then runs from t = 7, meets the same verdict at t = 8 without asking the count
    # anew, and closes the case. (The code that asked the floor alone asked the count with 1
    # and gave up.)
    real = split_module._forced_infeasible
    quads = middle_types(4, 20, 8, slice_maxima(4, TABLE_3), slice_maxima(3, PLANE), 47)
    second = [quad for quad in quads if quad[0] != quad[1]][1]
    kinds = split_module._kinds(second)
    solved, counted = [], []

    def infeasible(properties, cards, threshold, known, t, forced, relaxed, count=None,
                   cells=None):  # fmt: skip
        solved.append((t, cells))
        if t != 8:
            return real(properties, cards, threshold, known, t, forced, relaxed, count, cells)
        return False

    def count_refutation(properties, cards, threshold, known, below, t, forced, integer, held):
        counted.append((forced, held))
        return split_module._Count(forced, 8, 1, 0, held) if (forced, held) == (kinds, 2) else None

    _count_at_t8(monkeypatch, infeasible, count_refutation, {second})
    monkeypatch.setattr(split_module._Sharpening, "floor",
                        lambda self, t: ([second] if t == 8 else [], {kinds: 1}))  # fmt: skip
    guide = _exact_split_maxima_of_ag33()
    found = split_module._counted_split(4, 20, 47, TABLE_3, PLANE, _Theta6(), [8], guide, {})
    assert counted.count((kinds, 2)) == 1 and (kinds, 1) not in counted
    assert found is not None and second in found.counted[8]  # the case closes by that verdict
    assert (7, None) in solved[solved.index((8, 1)):]  # the walk after the look ahead


def test_split_maxima_are_searched_once_and_kept_in_the_store(tmp_path):
    # S(4, 4, 2) of AG(3,3) (9 sets, by brute force over all three parts) is bounded once and
    # kept under the table it was bounded with; a later run reads it instead of searching: a
    # store that says 8 is believed (the records' checkers bound it again, the next test).
    most = [PLANE[k] for k in range(10)]
    exact = int(exact_split_maxima(2)[4, 4, 2])
    store = Store(tmp_path / "store.sqlite")
    assert split_module._remembered_split_maximum(2, (4, 4, 2), most, store) == exact
    job = split_maxima_job(2, most)
    assert store.finished_tasks(job) == {"4,4,2": exact}
    assert split_maxima_job(2, [*most[:-1], most[-1] + 1]) != job  # another table, another job
    store.finish_task(job, "4,4,2", exact - 1)
    assert split_module._remembered_split_maximum(2, (4, 4, 2), most, store) == exact - 1
    assert split_module._remembered_split_maximum(2, (4, 4, 2), most, None) == exact


def test_split_maxima_in_a_record_are_recomputed_by_setlab_and_the_checker():
    # A record may use bounds on split maxima; setlab and the standalone checker each recompute
    # them (here 4 + 4 + 2 points of AG(3,3) in three parallel planes: 9 sets at most).
    from setlab.bundle import split_certificate

    record = prove_split_bound(4, 12, 15, TABLE_3, PLANE)
    exact = int(exact_split_maxima(2)[4, 4, 2])
    assert verify_split_bound({**record, "split_maxima": [[4, 4, 2, exact]]})
    assert not verify_split_bound({**record, "split_maxima": [[4, 4, 2, exact - 1]]})
    store = Store(":memory:")
    proof = {"method": "split", "record": {**record, "split_maxima": [[4, 4, 2, exact]]}}
    store.record_bound("maxsets", 4, 12, "max", 14, proof, "split")
    certificate = split_certificate(store.get("maxsets", 4, 12))
    assert certificate["pencil"]["multipliers"] == pencil_multipliers().tolist()
    entry = certificate["split_maxima"][0]
    assert entry["split"] == [4, 4, 2] and entry["bound"] == exact
    _, cited = _split_certificate(12, 14)
    assert split_check.check_split(4, 12, 14, certificate, cited) == []
    wrong = {**certificate, "split_maxima": [{**entry, "bound": exact - 1}]}
    assert split_check.check_split(4, 12, 14, wrong, cited)


def test_a_count_of_big_classes_enters_the_program_its_certificate_and_the_checker():
    # 14 sets among 12 cards of AG(4,3) need all 12 in one hyperplane, the class of type
    # (12, 0, 0): with "at most 0 classes have a part of 12" the program is infeasible.
    from setlab.extremal.farkas import record_certificate

    record = prove_max_bound(4, 12, 14, TABLE_3, count=(12, 0))
    assert record["count"] == [12, 0] and verify_max_bound(record, count=(12, 0))
    assert not verify_max_bound(record) and not verify_max_bound(record, count=(12, 1))
    assert prove_max_bound(4, 12, 14, TABLE_3, count=(12, 1)) is None  # one such class fits
    certificate = record_certificate(record)
    farkas = _checker("farkas_check")
    cited = {(3, k, "max"): v for k, v in TABLE_3.items()}
    assert farkas.check_farkas(4, 12, "max", 13, certificate, cited, count=[12, 0]) == []
    assert farkas.check_farkas(4, 12, "max", 13, certificate, cited)  # it says "count"
    plain = {k: v for k, v in certificate.items() if k != "count"}
    assert farkas.check_farkas(4, 12, "max", 13, plain, cited)  # no contradiction without it


def test_a_count_and_a_cells_bound_together_refute_what_neither_does_alone():
    # 13 cards of AG(4,3) with 14 sets or more, one pencil of types (12, 1, 0) and three
    # (9, 3, 1): the program with either row alone admits it, with both it does not; the
    # record carries both, and setlab's verifier and the checker ask for both.
    from setlab.extremal.farkas import record_certificate

    quad = [(12, 1, 0), (9, 3, 1), (9, 3, 1), (9, 3, 1)]
    rows = {"big": 9, "forced": quad}
    assert prove_max_bound(4, 13, 14, TABLE_3, **rows, count=(9, 4)) is None
    assert prove_max_bound(4, 13, 14, TABLE_3, **rows, cells=0) is None
    record = prove_max_bound(4, 13, 14, TABLE_3, **rows, count=(9, 4), cells=0)
    assert record["count"] == [9, 4] and record["cells"] == 0
    assert verify_max_bound(record, **rows, count=(9, 4), cells=0)
    assert not verify_max_bound(record, **rows, count=(9, 4))
    assert not verify_max_bound(record, **rows, cells=0)
    certificate = record_certificate(record)
    farkas = _checker("farkas_check")
    cited = {(3, k, "max"): v for k, v in TABLE_3.items()}
    forced = [list(kind) for kind in quad]
    check = functools.partial(farkas.check_farkas, 4, 13, "max", 13, big=9, forced=forced)
    assert check(certificate, cited, count=[9, 4], cells=0) == []
    for dropped in ("count", "cells"):
        alone = {k: v for k, v in certificate.items() if k != dropped}
        assert check(alone, cited, count=alone.get("count"), cells=alone.get("cells"))


def test_the_count_tries_its_rows_without_the_sets_first(monkeypatch):
    # Stubs: at each level seven hyperplanes do not fit, five do not hold the sets, and the
    # meeting is a whole 3-flat. Where the plain and the sets' rows both refute only the integer
    # program, the plain row is taken (its exact certificate was the cheaper one at n = 148);
    # where only the sets' row refutes, it is taken; in the LP pass too the plain rows go first.
    monkeypatch.setattr(split_module, "_meeting", lambda *args: 27)

    def certificate(properties, k, low, high, meeting, cards, sets=None):
        return {"k": k} if k >= (7 if sets is None else 5) else None

    monkeypatch.setattr(split_module, "arrangement_certificate", certificate)
    refuting: set = set()

    def infeasible(properties, cards, threshold, known, t, forced, relaxed, count, cells):
        return (relaxed, count) in refuting

    monkeypatch.setattr(split_module, "_forced_infeasible", infeasible)
    quad = ((72, 49, 49), (72, 49, 49), (61, 58, 51), (57, 57, 56))
    ask = functools.partial(split_module._count_refutation, 5, 170, 3524, (), (), 72, quad)
    refuting |= {(False, (72, 4)), (False, (71, 6))}  # the sets' row at 72, the plain at 71
    found = ask()
    assert (found.part, found.most, found.sets) == (71, 6, None)
    refuting -= {(False, (71, 6))}
    found = ask()
    assert (found.part, found.most, found.sets) == (72, 4, 3524)
    refuting |= {(True, (72, 4)), (True, (70, 6))}
    assert (ask().part, ask().sets) == (70, None)
    assert ask(integer=False).part == 70
    refuting.clear()
    assert ask() is None


def largest_hyperplanes(board: list[int], properties: int) -> list[list[np.ndarray]]:
    """Per parallel class, the cards of ``board`` in each of its largest hyperplanes."""
    d = digits(properties)[board].astype(np.int64)
    out = []
    for form in linear_forms(properties):
        values = d @ form % 3
        sizes = np.bincount(values, minlength=3)
        out.append([np.array(board)[values == v] for v in range(3) if sizes[v] == sizes.max()])
    return out


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_two_big_classes_of_real_configurations_meet_as_the_pencils_say(data):
    # Any board, any two classes with largest hyperplanes of low..c cards (c the largest
    # hyperplane of all): those hyperplanes share at least the meeting bound of the sets the
    # board has, whichever largest hyperplane of a class is taken.
    properties = data.draw(st.sampled_from([3, 4]))
    size = 3**properties
    base = list(range(3 ** (properties - 1)))  # a hyperplane and some cards more, or any
    extra = data.draw(st.lists(st.integers(0, size - 1), max_size=2 * properties, unique=True))
    board = data.draw(st.sampled_from([sorted(set(base) | set(extra)), sorted(set(extra))]))
    assume(len(board) >= 3)
    sets = count_sets(board, properties)
    largest = largest_hyperplanes(board, properties)
    ceiling = max(len(hs[0]) for hs in largest)
    f, g = data.draw(st.lists(st.integers(0, len(largest) - 1), min_size=2, max_size=2,
                              unique=True))  # fmt: skip
    low = min(len(largest[f][0]), len(largest[g][0]))
    if properties == 3:
        most, below = slice_maxima(3, PLANE), slice_maxima(2, LINE)
    else:
        most, below = slice_maxima(4, TABLE_3), slice_maxima(3, PLANE)
    meeting = split_module.meeting_bound(properties, len(board), sets - 1, low, ceiling, most,
                                         below)  # fmt: skip
    assert meeting is not None  # these two classes exist
    for h, k in itertools.product(largest[f], largest[g]):
        assert len(np.intersect1d(h, k)) >= meeting


@pytest.mark.parametrize(("properties", "cards", "value", "low", "ceiling"),
                         [(3, 12, 12, 6, 9), (3, 14, 15, 7, 9), (4, 30, 100, 12, 27),
                          (4, 36, 170, 12, 27), (4, 30, 110, 10, 20)])  # fmt: skip
def test_the_checker_finds_the_meeting_bound_setlab_finds(properties, cards, value, low, ceiling):
    # Two implementations of the meeting bound: setlab's least cell 0 is the checker's
    # threshold exactly (it holds for sigma, not for sigma + 1).
    most = slice_maxima(properties, TABLE_3 if properties == 4 else PLANE)
    below = slice_maxima(properties - 1, PLANE if properties == 4 else LINE)
    sigma = split_module.meeting_bound(properties, cards, value, low, ceiling, most, below)
    assert sigma is not None
    holds = functools.partial(split_check.meeting_holds, properties, cards, value, low, ceiling)
    assert holds(sigma, most, below, None, TRIANGLES)
    assert not holds(sigma + 1, most, below, None, TRIANGLES)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 25),
    st.integers(0, 60),
    st.sampled_from([2, 3, 256]),
    st.sampled_from([np.uint8, np.uint16]),
    st.integers(0, 2**32 - 1),
)
def test_the_distinct_rows_are_numpys(width, count, values, dtype, seed):
    # The middle case's rows of bytes sorted by 64-bit words: the same distinct rows, in the
    # same order, and the same inverse as numpy's unique by rows (few values, so many repeats).
    rng = np.random.default_rng(seed)
    rows = rng.integers(0, min(values, np.iinfo(dtype).max + 1), size=(count, width)).astype(dtype)
    distinct, where = split_module._distinct_rows(rows)
    expected, inverse = np.unique(rows, axis=0, return_inverse=True)
    assert distinct.dtype == rows.dtype
    assert distinct.tolist() == expected.tolist()
    assert where.tolist() == inverse.ravel().tolist()
