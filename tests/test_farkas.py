"""Exact Farkas certificates for the counting-identity programs and their standalone checker."""

from __future__ import annotations

import ast
import itertools
import json
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import standalone
from setlab.extremal.farkas import farkas_certificate, record_certificate
from setlab.extremal.maxsets import Solver
from setlab.find import count_sets
from setlab.geometry import parallel_classes
from setlab.store import Store

CHECKER = Path(__file__).resolve().parents[1] / "src" / "setlab" / "proofcheck" / "farkas_check.py"


checker = standalone.load(CHECKER, "farkas_check_under_test")

# The seed paper's Table 3 (M_3(n), n = 0..27) and Table 1 (M_4(n), n = 3..12): oracles.
TABLE3 = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12, 12, 13, 14, 16, 19, 23, 26, 30, 36, 41, 47, 54, 62, 71,
          81, 92, 104, 117]  # fmt: skip
TABLE1 = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5, 8: 8, 9: 12, 10: 12, 11: 13, 12: 14}


def brute_force_extremes_ag23() -> tuple[dict[int, int], dict[int, int]]:
    """M_2(k), m_2(k) by counting the sets of all 512 subsets of AG(2,3)."""
    most, least = dict.fromkeys(range(10), 0), dict.fromkeys(range(10), 10**9)
    for mask in range(1 << 9):
        board = [i for i in range(9) if mask >> i & 1]
        sets = count_sets(board, 2)
        most[len(board)] = max(most[len(board)], sets)
        least[len(board)] = min(least[len(board)], sets)
    return most, least


M2, _ = brute_force_extremes_ag23()
CITED3 = {(2, k, "max"): v for k, v in M2.items()}
CITED4 = {(3, k, "max"): v for k, v in enumerate(TABLE3)}


def minimum3(n: int) -> int:
    """m_3(n) from Table 3 by the complement identity: 117 - n(27-n)/2 - M_3(27-n)."""
    return 117 - n * (27 - n) // 2 - TABLE3[27 - n]


@pytest.fixture(scope="module")
def p4_program_values():
    """The P = 4 maxima that the solver proves by the slice programs (no searches), with their
    proof records and the M_3 values held as proven, read back from the store."""
    store = Store(":memory:")
    solver = Solver(4, store, search_cards=0, min_search_cards=0, workers=1, anneal_restarts=0)
    values = {}
    for n in (31, 39, 47):
        value = solver.max(n)
        assert value.proven and value.method == "bounds"
        values[n] = (value.value, store.get("maxsets", 4, n).proof["record"])
    yield values, {(3, k, "max"): v for k, v in solver.known_max(3).items()}
    store.close()


def test_every_p3_value_has_a_checked_certificate_from_ag23_brute_force():
    for n in range(28):
        for sense, value in (("max", TABLE3[n]), ("min", minimum3(n))):
            certificate = farkas_certificate(3, n, sense, value, M2)
            assert certificate is not None, (sense, n)
            text = json.loads(json.dumps(certificate))  # survives JSON
            assert checker.check_farkas(3, n, sense, value, text, CITED3) == [], (sense, n)


def test_p4_values_the_solver_proves_by_programs(p4_program_values):
    values, cited = p4_program_values
    for n, (value, record) in values.items():
        assert record["method"] == "slice-ilp" and record["claim"] == f"max <= {value}"
        certificate = record_certificate(record)
        assert certificate["kind"] == "farkas"
        assert all(cited[(q, k, s)] == v for q, k, s, v in certificate["cites"])
        assert checker.check_farkas(4, n, "max", value, certificate, cited) == []
        # one less is false (the solver holds a witness), so nothing may certify it
        assert checker.check_farkas(4, n, "max", value - 1, certificate, cited) != []
        known_max = {int(k): v for k, v in record["known_max"].items()}
        assert farkas_certificate(4, n, "max", value - 1, known_max) is None


@pytest.mark.slow
def test_every_p4_max_from_the_lp_relaxation():
    # Where the paper or the solver holds the value; M(48..53), M(57..60) need more (see report).
    table = {**TABLE1, 31: 121, 35: 135, 40: 167, 44: 209, 47: 241, 54: 342, 56: 373}
    for n, value in table.items():
        certificate = farkas_certificate(4, n, "max", value, dict(enumerate(TABLE3)))
        assert checker.check_farkas(4, n, "max", value, certificate, CITED4) == []


def test_table1_values_and_no_certificate_below_them():
    for n, value in TABLE1.items():
        certificate = farkas_certificate(4, n, "max", value, dict(enumerate(TABLE3)))
        assert checker.check_farkas(4, n, "max", value, certificate, CITED4) == []
        if value > 0:
            assert farkas_certificate(4, n, "max", value - 1, dict(enumerate(TABLE3))) is None


def test_a_branching_certificate_where_only_the_integer_program_is_infeasible():
    # M(49) <= 265: the LP relaxation reaches 266 sets, the integer program does not.
    known = dict(enumerate(TABLE3))
    certificate = farkas_certificate(4, 49, "max", 265, known, nodes=400)
    assert certificate["kind"] == "branch"
    assert checker.check_farkas(4, 49, "max", 265, certificate, CITED4) == []
    leaf = certificate
    while leaf["kind"] == "branch":
        leaf = leaf["high"]
    assert checker.check_farkas(4, 49, "max", 265, {**leaf, "cites": certificate["cites"]},
                                CITED4) != []  # fmt: skip


def test_a_branching_certificate_for_a_minimum():
    # With Table 3 as slice bounds the program refutes m_4(32) <= 30 only as an integer
    # program: the tree's relaxation is pushed toward fewer sets (L minimised, its upper bound
    # dropped), and every leaf is refuted with L in [0, 30].
    known = dict(enumerate(TABLE3))
    certificate = farkas_certificate(4, 32, "min", 31, known)
    assert certificate["kind"] == "branch"
    assert checker.check_farkas(4, 32, "min", 31, certificate, CITED4) == []
    assert checker.check_farkas(4, 32, "min", 32, certificate, CITED4) != []  # 31 not refuted
    assert farkas_certificate(4, 32, "min", 31, known, nodes=1) is None  # needs the tree


def test_a_deep_branching_tree_is_checked_to_its_last_leaf():
    # A Farkas tree valid on a box is valid on every box inside it, so the real certificate
    # of M(49) <= 265 may hang below any chain of branches: branch on a variable at each of its
    # values in turn (x <= lo: the certificate; x >= lo + 1: go on), over five variables, about
    # 200 levels deep (M(122) of AG(5,3) needs 83; the checker once stopped at 64).
    known = dict(enumerate(TABLE3))
    certificate = farkas_certificate(4, 49, "max", 265, known, nodes=400)
    box, _ = checker.program(4, 49, 266, checker.degree_bound(4, 49), known, {})
    widest = sorted(box, key=lambda v: box[v][1] - box[v][0])[-5:]

    def padded(last: dict) -> dict:
        root: dict = {}
        node = root
        for v in widest:
            for k in range(*box[v]):
                node.update(kind="branch", variable=v, at=k, low=certificate, high={})
                node = node["high"]
        node.update(last)
        return {**root, "cites": certificate["cites"]}

    deep = padded(certificate)
    depth, node = 0, deep
    while node["kind"] == "branch" and node["variable"] in widest:
        depth, node = depth + 1, node["high"]
    assert depth > 150
    assert checker.check_farkas(4, 49, "max", 265, deep, CITED4) == []
    broken = padded({"kind": "farkas", "multipliers": {}})
    assert checker.check_farkas(4, 49, "max", 265, broken, CITED4) != []


def _scaled(certificate: dict, factor: Fraction) -> dict:
    out = json.loads(json.dumps(certificate))
    name = sorted(out["multipliers"])[0]
    out["multipliers"][name] = str(Fraction(out["multipliers"][name]) * factor)
    return out


@pytest.mark.parametrize("n", [12, 31, 40, 47])
def test_tampering_fails(n):
    value = {12: 14, 31: 121, 40: 167, 47: 241}[n]
    known = dict(enumerate(TABLE3))
    certificate = farkas_certificate(4, n, "max", value, known)
    check = checker.check_farkas
    assert check(4, n, "max", value, certificate, CITED4) == []
    for factor in (Fraction(2), Fraction(1, 2), Fraction(-1)):
        errors = check(4, n, "max", value, _scaled(certificate, factor), CITED4)
        assert errors and errors[0].startswith(f"max(4,{n}) = {value}")
    assert check(4, n, "max", value - 1, certificate, CITED4) != []
    assert check(4, n, "min", value, certificate, CITED4) != []
    q, k, sense, cited_value = certificate["cites"][0]
    for shift in (1, -1):
        errors = check(
            4, n, "max", value, certificate, {**CITED4, (q, k, sense): cited_value + shift}
        )
        assert any(f"cites max(3,{k})" in e for e in errors)
    assert check(4, n, "max", value, certificate, {}) != []  # nothing cited is proven
    assert check(4, n, "max", value, {**certificate, "kind": "farkas", "multipliers": {}},
                 CITED4) != []  # fmt: skip
    unknown = {**certificate, "multipliers": {**certificate["multipliers"], "no_such_row": "1"}}
    assert check(4, n, "max", value, unknown, CITED4) != []


def test_empty_ranges_are_checked_by_arithmetic():
    assert checker.check_farkas(4, 9, "max", 12, {"kind": "empty"}, {}) == []  # degree bound
    assert checker.check_farkas(4, 9, "max", 11, {"kind": "empty"}, {}) != []
    assert checker.check_farkas(4, 5, "min", 0, {"kind": "empty"}, {}) == []
    assert checker.check_farkas(4, 21, "min", 1, {"kind": "empty"}, {}) != []


def test_malformed_certificates_are_errors_not_crashes():
    for bad in ({"kind": "farkas", "multipliers": {"count": "x"}}, {"kind": "branch"}, {}):
        assert checker.check_farkas(4, 31, "max", 121, bad, CITED4) != []


def _profile_point(board: list[int], properties: int, bounds: dict) -> dict:
    """The board's class profile as a point of the checker's program (switches on if occurring)."""
    member = np.zeros(3**properties, dtype=bool)
    member[board] = True
    point = dict.fromkeys(bounds, 0)
    point["L"] = count_sets(board, properties)
    for slices in parallel_classes(properties):
        a, b, c = sorted(member[slices].sum(axis=1).tolist(), reverse=True)
        point[f"x_{a}_{b}_{c}"] += 1  # KeyError: the checker left out a type that occurs
        if f"y_{a}_{b}_{c}" in bounds:
            point[f"y_{a}_{b}_{c}"] = 1
    return point


def _satisfied(point: dict, bounds: dict, rows: dict) -> bool:
    if not all(lo <= point[v] <= hi for v, (lo, hi) in bounds.items()):
        return False
    for coefficients, sense, rhs in rows.values():
        value = sum(a * point[v] for v, a in coefficients.items())
        if not {"=": value == rhs, ">=": value >= rhs, "<=": value <= rhs}[sense]:
            return False
    return True


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 80), min_size=3, unique=True), st.integers(0, 1))
def test_the_checkers_program_holds_every_real_configuration(board, dense):
    # The checker's identities are written from the mathematics: every real board of AG(4,3)
    # must be an integer point of its program, with the paper's M_3 as slice bounds.
    if dense:
        board = sorted(set(board[:4]) | set(range(27)))
    sets = count_sets(board, 4)
    for low, high in ((sets, sets), (0, sets), (sets, sets + 5)):
        bounds, rows = checker.program(4, len(board), low, high, dict(enumerate(TABLE3)), {})
        assert _satisfied(_profile_point(board, 4, bounds), bounds, rows)


def test_the_checkers_program_holds_every_subset_of_ag23():
    m1 = {0: 0, 1: 0, 2: 0, 3: 1}
    for size in range(10):
        for board in itertools.combinations(range(9), size):
            sets = count_sets(list(board), 2)
            bounds, rows = checker.program(2, size, sets, sets, m1, {})
            assert _satisfied(_profile_point(list(board), 2, bounds), bounds, rows)


def test_the_checker_imports_only_the_standard_library_and_numpy():
    tree = ast.parse(CHECKER.read_text(encoding="utf-8"))
    modules = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            modules |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0
            modules.add(node.module.split(".")[0])
    assert "setlab" not in modules
    assert modules <= set(sys.stdlib_module_names) | {"numpy"}
