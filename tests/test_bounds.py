"""Tests for the counting identities and the slice integer programs (upper/lower bounds)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setlab.errors import SetlabError
from setlab.extremal.bounds import (
    _solve_integer,
    max_upper_bound,
    prove_max_bound,
    prove_min_bound,
    slice_maxima,
    slice_minima,
    slice_program,
    solve_cpsat,
    solve_highs,
    verify_max_bound,
)
from setlab.extremal.identities import (
    across_bounds,
    complement_sets,
    degree_bound,
    inside_sets,
    power_sums,
    slice_sizes,
)
from setlab.extremal.nearcaps import cap_classes, prove_min_near_caps, verify_near_caps
from setlab.find import count_sets
from setlab.geometry import flats, lines, parallel_classes, random_affine_map
from setlab.symmetry import orbit_size

# The seed paper's Table 3 (maximum sets among k cards of AG(3,3)), used as input data only.
PAPER_TABLE_3 = dict(
    zip(
        range(28),
        [
            0,
            0,
            0,
            1,
            1,
            2,
            3,
            5,
            8,
            12,
            12,
            13,
            14,
            16,
            19,
            23,
            26,
            30,
            36,
            41,
            47,
            54,
            62,
            71,
            81,
            92,
            104,
            117,
        ],
        strict=True,
    )
)
# The seed paper's Table 1 (maximum sets among n cards of AG(4,3), n = 3..12).
PAPER_TABLE_1 = dict(zip(range(3, 13), [1, 1, 2, 3, 5, 8, 12, 12, 13, 14], strict=True))


def brute_force_maxima(properties: int) -> dict[int, int]:
    """M_P(k) for every k by counting the sets of all 2^(3^P) subsets (P <= 2)."""
    n = 3**properties
    best = dict.fromkeys(range(n + 1), 0)
    for mask in range(1 << n):
        board = [i for i in range(n) if mask >> i & 1]
        best[len(board)] = max(best[len(board)], count_sets(board, properties))
    return best


def dense_boards(properties: int):
    """Boards with many sets: a random subset of a random flat plus a few random cards."""
    n = 3**properties

    @st.composite
    def board(draw):
        dim = draw(st.integers(1, properties))
        flat = flats(properties, dim)[draw(st.integers(0, len(flats(properties, dim)) - 1))]
        keep = draw(st.lists(st.sampled_from(flat.tolist()), unique=True))
        extra = draw(st.lists(st.integers(0, n - 1), max_size=6, unique=True))
        return sorted(set(keep) | set(extra))

    return board()


any_board = st.lists(st.integers(0, 80), unique=True)
boards4 = st.one_of(any_board, dense_boards(4))


@settings(max_examples=60, deadline=None)
@given(boards4)
def test_power_sum_identities(board):
    n, sets = len(board), count_sets(board, 4)
    sizes = slice_sizes(board, 4)
    assert tuple(int((sizes**k).sum()) for k in (1, 2, 3)) == power_sums(4, n, sets)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 26), unique=True))
def test_power_sum_identities_p3(board):
    sizes = slice_sizes(board, 3)
    sums = tuple(int((sizes**k).sum()) for k in (1, 2, 3))
    assert sums == power_sums(3, len(board), count_sets(board, 3))


@settings(max_examples=40, deadline=None)
@given(boards4)
def test_inside_sets_total_13_per_set(board):
    # A set lies inside a hyperplane of exactly 13 of the 40 classes.
    assert int(inside_sets(board, 4).sum()) == 13 * count_sets(board, 4)


@settings(max_examples=40, deadline=None)
@given(boards4)
def test_complement_identity(board):
    rest = sorted(set(range(81)) - set(board))
    assert count_sets(rest, 4) == complement_sets(4, len(board), count_sets(board, 4))


@settings(max_examples=60, deadline=None)
@given(boards4)
def test_across_bounds_hold_in_every_class(board):
    member = np.zeros(81, dtype=bool)
    member[board] = True
    own = lines(4)[member[lines(4)].all(axis=1)]
    for slices in parallel_classes(4):
        side = np.zeros(81, dtype=np.int64)
        for s, hyperplane in enumerate(slices):
            side[hyperplane] = s
        across = int((np.sort(side[own], axis=1) == [0, 1, 2]).all(axis=1).sum())
        low, high = across_bounds(*member[slices].sum(axis=1).tolist(), 27)
        assert low <= across <= high


def test_across_bounds_are_attained_by_full_and_empty_slices():
    assert across_bounds(27, 27, 5, 27) == (135, 135)
    assert across_bounds(27, 4, 5, 27) == (20, 20)
    assert across_bounds(0, 9, 9, 27) == (0, 0)


def profile_point(program, board, properties):
    """The program's columns evaluated at a real configuration (L, x_t, y_t = [x_t > 0])."""
    sizes = np.sort(slice_sizes(board, properties), axis=1)[:, ::-1]
    counts = {}
    for a, b, c in sizes.tolist():
        counts[f"{a}_{b}_{c}"] = counts.get(f"{a}_{b}_{c}", 0) + 1
    value = {"L": count_sets(board, properties)}
    for name, _, _ in program.variables[1:]:
        key = name[2:]
        value[name] = counts.get(key, 0) if name[0] == "x" else int(counts.get(key, 0) > 0)
    assert set(counts) <= {name[2:] for name, _, _ in program.variables}, "a used type is missing"
    return [value[name] for name, _, _ in program.variables]


def satisfies(program, point):
    for (_, lo, hi), v in zip(program.variables, point, strict=True):
        if not lo <= v <= hi:
            return False
    for coefficients, lo, hi in program.rows:
        total = sum(c * point[i] for i, c in coefficients)
        if (lo is not None and total < lo) or (hi is not None and total > hi):
            return False
    return True


@settings(max_examples=60, deadline=None)
@given(boards4, st.integers(0, 10**6))
def test_real_configurations_are_integer_points(board, seed):
    # Soundness: every configuration's class profile satisfies the program built on the paper's
    # Table 3 maxima (also after a random affine map), for L range [L, L] and [0, degree bound].
    board = sorted(random_affine_map(4, seed)(np.array(board, dtype=np.int64)).tolist())
    n, sets = len(board), count_sets(board, 4)
    for low, high in ((sets, sets), (0, degree_bound(4, n))):
        program = slice_program(4, n, low, high, PAPER_TABLE_3)
        assert satisfies(program, profile_point(program, board, 4))


def test_every_subset_of_ag23_is_an_integer_point():
    # Exhaustive soundness check one dimension down (AG(2,3), slice maxima brute-forced in AG(1,3)).
    maxima = brute_force_maxima(1)
    for mask in range(1 << 9):
        board = [i for i in range(9) if mask >> i & 1]
        sets = count_sets(board, 2)
        program = slice_program(2, len(board), sets, sets, maxima)
        assert satisfies(program, profile_point(program, board, 2))


def test_slice_minima_from_complement():
    minima = slice_minima(4, PAPER_TABLE_3)
    assert minima[27] == 117 and minima[26] == 104 and minima[:10] == [0] * 10  # 9-caps exist
    m1 = brute_force_maxima(1)
    least = dict.fromkeys(range(10), 10**9)
    for mask in range(1 << 9):
        board = [i for i in range(9) if mask >> i & 1]
        least[len(board)] = min(least[len(board)], count_sets(board, 2))
    assert all(slice_minima(3, m1)[k] <= least[k] for k in range(4))
    assert all(slice_minima(3, brute_force_maxima(2))[k] == least[k] for k in range(10))
    assert slice_maxima(4, {})[9] == 12  # degree bound 9*4/3


def test_ag23_maxima_from_ag13_brute_force():
    # The program alone finds the exact maxima of AG(2,3) from those of AG(1,3).
    m1, m2 = brute_force_maxima(1), brute_force_maxima(2)
    assert [max_upper_bound(2, n, m1)[0] for n in range(10)] == [m2[n] for n in range(10)]


def test_ag33_upper_bounds_equal_table_3_from_brute_force_of_ag23():
    # The whole of the paper's Table 3 as upper bounds, from brute force of AG(2,3) only.
    m2 = brute_force_maxima(2)
    bounds = [solve_highs(slice_program(3, n, 0, degree_bound(3, n), m2), 1)[1] for n in range(28)]
    assert bounds == [PAPER_TABLE_3[n] for n in range(28)]


def test_table_1_upper_bounds():
    for n, value in PAPER_TABLE_1.items():
        upper, record = max_upper_bound(4, n, PAPER_TABLE_3)
        assert upper == value
        assert verify_max_bound(record)


def test_records_verify_and_tampering_fails():
    record = prove_max_bound(4, 20, 48, PAPER_TABLE_3)
    assert record["method"] == "slice-ilp"
    assert record["statuses"] == {"highs": "infeasible", "cp-sat": "infeasible"}
    assert verify_max_bound(record)
    assert not verify_max_bound({**record, "low": 47})
    assert not verify_max_bound({**record, "known_max": {**record["known_max"], "20": 40}})
    assert prove_max_bound(4, 20, 47, PAPER_TABLE_3) is None  # 47 sets: 27-flat minus 7 cards
    assert verify_max_bound(json.loads(json.dumps(record)))  # records survive JSON
    with pytest.raises(SetlabError):
        prove_max_bound(4, 82, 1, PAPER_TABLE_3)


def test_min_bound_and_complement():
    # 81 - n cards: the minimum for n' = 81 - n is the complement of the maximum for n.
    record = prove_min_bound(4, 54, 8, PAPER_TABLE_3, {})
    assert record is not None and verify_max_bound(record)
    assert record["claim"] == "min >= 9"
    assert prove_max_bound(4, 27, 343, PAPER_TABLE_3) is not None  # 351 - 343 < 9


@settings(max_examples=25, deadline=None)
@given(st.integers(9, 30), st.integers(0, 60))
def test_highs_verdict_agrees_with_its_integer_solve(cards, sets):
    # The record's HiGHS verdict comes from the LP relaxation where that has no solution, else
    # from the integer program: either way the integer program's own status.
    program = slice_program(4, cards, sets, sets + 3, PAPER_TABLE_3)
    assert _solve_integer("highs", program)[0] == solve_highs(program)[0]


@pytest.mark.parametrize("relaxation, asked_for", [("feasible", [True, False]),
                                                   ("infeasible", [True])])
def test_highs_branches_only_where_the_relaxation_has_a_solution(
    monkeypatch, relaxation, asked_for
):
    asked = []

    def stub(program, sense=0, relaxed=False, seconds=None):
        asked.append(relaxed)
        return (relaxation if relaxed else "infeasible"), None, 0.5

    monkeypatch.setattr("setlab.extremal.bounds.solve_highs", stub)
    program = slice_program(4, 12, 14, 14, PAPER_TABLE_3)
    assert _solve_integer("highs", program) == ("infeasible", None, 0.5 * len(asked_for))
    assert asked == asked_for


def test_two_solvers_agree_on_feasible_models():
    program = slice_program(4, 12, 14, 14, PAPER_TABLE_3)
    assert solve_highs(program)[0] == solve_cpsat(program)[0] == "feasible"


@pytest.mark.slow
def test_upper_bounds_for_every_n_of_ag43():
    for n in range(82):
        upper, record = max_upper_bound(4, n, PAPER_TABLE_3)
        assert upper >= PAPER_TABLE_3.get(n, 0) and verify_max_bound(record)


def brute_force_minima(properties: int) -> dict[int, int]:
    n = 3**properties
    least = dict.fromkeys(range(n + 1), 10**9)
    for mask in range(1 << n):
        board = [i for i in range(n) if mask >> i & 1]
        least[len(board)] = min(least[len(board)], count_sets(board, properties))
    return least


def test_cap_classification_counts_all_caps_of_ag23():
    # Orbit-stabiliser: the orbit sizes of the cap classes add up to the number of caps.
    levels = cap_classes(2, 9)
    caps = dict.fromkeys(range(10), 0)
    for mask in range(1 << 9):
        board = [i for i in range(9) if mask >> i & 1]
        caps[len(board)] += count_sets(board, 2) == 0
    assert [sum(orbit_size(c, 2) for c in level) for level in levels] == [
        caps[k] for k in range(10)
    ]


def test_cap_classes_of_ag43_small_levels():
    levels = cap_classes(4, 4)
    totals = [sum(orbit_size(c, 4) for c in level) for level in levels]
    # k-caps: all k-subsets but those containing a set (a 4-subset holds at most one set).
    assert totals == [1, 81, 3240, 85320 - 1080, 1663740 - 1080 * 78]


def test_near_cap_minima_match_brute_force_in_ag23():
    least = brute_force_minima(2)
    for n in range(10):
        if least[n] > 0:
            record = prove_min_near_caps(2, n, least[n] - 1)
            assert record is not None and record["claim"] == f"min >= {least[n]}"
            assert verify_near_caps(record)
        assert prove_min_near_caps(2, n, least[n]) is None  # a board with least[n] sets exists


@pytest.mark.slow
def test_21_cards_of_ag43_hold_at_least_3_sets():
    record = prove_min_near_caps(4, 21, 2)
    assert record is not None and record["cap_classes"][19:] == [1]
    assert verify_near_caps(record)  # includes the orbit-stabiliser extension count check
    assert prove_min_near_caps(4, 21, 3) is None  # some 19-cap plus 2 cards holds 3 sets
    # By the complement identity: 60 cards hold at most 1080 - 21*60/2 - 3 = 447 sets.
    record = prove_max_bound(4, 60, 448, PAPER_TABLE_3)
    assert record["method"] == "near-cap-complement" and verify_max_bound(record)
    assert prove_min_bound(4, 21, 2, PAPER_TABLE_3, {})["method"] == "near-cap"
