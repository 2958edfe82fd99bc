"""The fibre split of "n cards with exactly one set", its LRAT refutations and their checker."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seed_oracles import PAPER_TABLE_3
from setlab.errors import SetlabError
from setlab.extremal.bigcaps import elliptic_quadric_cap
from setlab.extremal.lrat import drup_to_lrat
from setlab.extremal.oneset import (
    OneSetCase,
    case_clauses,
    one_set_cases,
    one_set_claim,
    refute_one_set,
)
from setlab.proofcheck.oneset_check import case_cnf, check_lrat, check_one_set
from setlab.store import Store

pysat = pytest.importorskip("pysat.solvers")


def plain_sets(cards: list[int], properties: int) -> int:
    """Sets among card indices by a triple loop over their digits (no setlab code)."""
    vectors = [[(c // 3**i) % 3 for i in range(properties)] for c in cards]
    return sum(
        all((a + b + c) % 3 == 0 for a, b, c in zip(x, y, z, strict=True))
        for x, y, z in itertools.combinations(vectors, 3)
    )


def refutation(clauses: list[list[int]], variables: int) -> list[str] | None:
    with pysat.Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        if solver.solve():
            return None
        return drup_to_lrat(variables, clauses, solver.get_proof())


@pytest.mark.parametrize(
    "properties, cards, sample",
    [(3, 7, 1), (4, 18, 1), (4, 19, 1), (4, 20, 1),
     pytest.param(5, 46, 97, marks=pytest.mark.slow)],
)
def test_the_checker_builds_the_provers_cnf_clause_for_clause(properties, cards, sample):
    """Two codes, one CNF: the LRAT of one is read against the other's clause numbers."""
    cases = list(one_set_cases(properties, cards))[::sample]
    assert cases
    for case in cases:
        built = case_clauses(properties, cards, case)
        assert case_cnf(properties - 1, list(case.cap), case.fibre, cards) == built


def test_aag43_has_boards_of_19_cards_with_one_set_and_none_of_20():
    """AG(4,3): 19 cards with exactly one set exist (recounted here); 20 do not, and the
    standalone checker accepts the refutation (cap classes, every case, every LRAT)."""
    found = refute_one_set(4, 19, workers=1)
    assert not found.all_refuted and len(set(found.board)) == 19
    assert plain_sets(found.board, 4) == 1
    store = Store(":memory:")
    refuted = refute_one_set(4, 20, store, workers=1)
    assert refuted.all_refuted and refuted.cases > 0
    claim, lrat = one_set_claim(4, 20, store)
    assert check_one_set(claim, lrat) == []
    # The same answer by hand: take away a card of the one set and a 19-cap is left, which is
    # the 20-cap K minus a card p (every 19-cap lies in a 20-cap, tests/test_caps.py); the card c
    # put back then completes exactly one pair of K - p, for no p and c.
    cap = [int(c) for c in elliptic_quadric_cap() @ (3 ** np.arange(4))]
    assert plain_sets(cap, 4) == 0 and len(set(cap)) == 20
    digits = {c: [(c // 3**i) % 3 for i in range(4)] for c in range(81)}

    def third(a: int, b: int) -> int:
        pairs = zip(digits[a], digits[b], strict=True)
        return sum((-(x + y) % 3) * 3**i for i, (x, y) in enumerate(pairs))

    for p in cap:
        rest = [c for c in cap if c != p]
        completed = Counter(third(a, b) for a, b in itertools.combinations(rest, 2))
        assert not [c for c in range(81) if c not in rest and completed[c] == 1]


@pytest.mark.parametrize("cards", range(10, 28))
def test_ag33_agrees_with_the_papers_table_3(cards):
    """Above the 9-cap, one set is possible exactly where m_3(n) = 1, with m_3(n) from the paper's
    maxima by M(n) + m(27 - n) = 117 - n(27 - n)/2."""
    table = {0: 0, 1: 0, 2: 0, **dict(zip(range(3, 28), PAPER_TABLE_3, strict=True))}
    fewest = 117 - (27 - cards) * cards // 2 - table[27 - cards]
    result = refute_one_set(3, cards, workers=1)
    assert result.all_refuted == (fewest >= 2)
    if not result.all_refuted:
        assert plain_sets(result.board, 3) == 1 and len(set(result.board)) == cards


def test_the_checker_rejects_a_doctored_refutation():
    store = Store(":memory:")
    refute_one_set(4, 20, store, workers=1)
    claim, lrat = one_set_claim(4, 20, store)

    def dropped_hint(i: int) -> list[str]:
        lines = lrat(i)
        words = lines[-1].split()
        lines[-1] = " ".join(words[:-3] + words[-2:])  # the empty clause loses a hint
        return lines

    assert any("case" in e for e in check_one_set(claim, dropped_hint))
    assert "malformed LRAT" in check_one_set(claim, lambda i: ["5 x 0"])[0]
    missing = {**claim, "cases": claim["cases"][1:]}
    assert check_one_set(missing, lambda i: lrat(i + 1))[0].startswith("no case for the cap")
    short = {**claim, "caps": [*claim["caps"][:-2], []]}  # the 20-caps left out
    assert check_one_set(short, lrat)[0].startswith("caps of AG(3,3)")


def test_bad_input_is_refused():
    with pytest.raises(SetlabError):
        refute_one_set(4, 2)
    with pytest.raises(SetlabError):
        case_clauses(4, 30, OneSetCase((0, 1, 3, 4, 9), 0))  # no room for 23 singles


def pigeons(holes: int) -> list[list[int]]:
    """holes + 1 pigeons in ``holes`` holes: unsatisfiable (variable p * holes + h + 1)."""
    var = [[p * holes + h + 1 for h in range(holes)] for p in range(holes + 1)]
    clauses = [row[:] for row in var]
    for h in range(holes):
        pairs = itertools.combinations(range(holes + 1), 2)
        clauses += [[-var[p][h], -var[q][h]] for p, q in pairs]
    return clauses


def test_the_pigeonhole_refutations_pass_and_a_changed_literal_fails():
    for holes in range(1, 6):
        clauses = pigeons(holes)
        lines = refutation(clauses, holes * (holes + 1))
        assert check_lrat(clauses, lines) is None
    words = lines[0].split()
    words[1] = str(-int(words[1]))
    assert check_lrat(clauses, [" ".join(words), *lines[1:]]) is not None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(-6, 6).filter(bool), min_size=1, max_size=3), min_size=1,
                max_size=60))  # fmt: skip
def test_random_unsatisfiable_cnfs_refute_in_lrat(clauses):
    """Every refutation the solver logs becomes LRAT the checker accepts; a satisfiable CNF has
    a model (checked against every clause)."""
    lines = refutation(clauses, 6)
    if lines is None:
        with pysat.Solver(name="cadical195", bootstrap_with=clauses) as solver:
            assert solver.solve()
            model = set(solver.get_model())
        assert all(any(x in model for x in c) for c in clauses)
    else:
        assert check_lrat(clauses, lines) is None


def test_the_solver_records_a_refuted_split_as_m_at_least_2_and_a_model_as_a_witness():
    """The solver's step (run for AG(5,3) at n = 46): a refuted split is the bound 2, a
    satisfiable case a witness with one set. AG(4,3) at n = 21 (no case: m_4(21) = 3 >= 2) and
    n = 19 (19 cards with one set)."""
    from setlab.extremal.maxsets import Solver

    solver = Solver(4, Store(":memory:"), workers=1)
    solver._one_set(21)
    stored = solver.store.get("minsets", 4, 21)
    assert stored.bound == 2 and stored.proof["method"] == "one set"
    assert stored.proof["cases"] == 0
    solver._one_set(19)
    witness = solver.store.get("minsets", 4, 19)
    assert witness.value == 1 and plain_sets(witness.witness, 4) == 1


def test_a_stored_bound_of_two_is_not_proven_again_unless_by_an_older_split(monkeypatch):
    """The split proves m(n) >= 2 and no more: a stored bound of 2 or more stands (P = 5 lists
    3,040 cases just to read their checkpoints), except the split's own from an older version of
    its cases: then the split runs, so that this version's checkpoints, which `setlab verify`
    reads, are there."""
    from setlab.extremal import maxsets
    from setlab.extremal.oneset import ONE_SET_JOB, one_set_job

    runs = []
    real = maxsets.refute_one_set
    monkeypatch.setattr(maxsets, "refute_one_set", lambda *a, **k: runs.append(a) or real(*a, **k))
    solver = maxsets.Solver(4, Store(":memory:"), workers=1)
    solver._one_set(21)  # the bound 2, by this code's split
    solver._one_set(21)
    assert len(runs) == 1 and solver.store.get("minsets", 4, 21).bound == 2
    older = maxsets.Solver(4, Store(":memory:"), workers=1)
    proof = {"method": "one set", "job": f"{ONE_SET_JOB}-old/P4-n21/0", "cases": 0}
    assert proof["job"] != one_set_job(4, 21)
    older.store.record_bound("minsets", 4, 21, "min", 2, proof, "one set")
    older._one_set(21)
    assert len(runs) == 2
    solver.store.record_bound("minsets", 4, 21, "min", 3, {"method": "search"}, "search")
    solver._one_set(21)
    assert len(runs) == 2


def test_verify_refuses_a_one_set_bound_without_its_cases():
    from setlab.certificates import check_bound

    with Store(":memory:") as store:
        proof = {"method": "one set", "largest_cap": 45, "cases": 3040}
        store.record_bound("minsets", 5, 46, "min", 2, proof, "one set")
        assert not check_bound(store.get("minsets", 5, 46), store).ok


@pytest.mark.slow
def test_no_46_cards_of_ag53_hold_exactly_one_set(tmp_path):
    """m_5(46) >= 2: the 45-cap's pencil chain, the 3,040 cases refuted (a few minutes on 2
    cores) and every refutation re-checked by oneset_check.py through `setlab verify`'s rule."""
    from setlab.certificates import check_bound, check_citations
    from setlab.extremal.caps.largest import largest_cap
    from setlab.extremal.maxsets import Solver

    with Store(tmp_path / "p5.sqlite") as store:
        largest_cap(5, store=store)
        solver = Solver(5, store)
        solver._one_set(46)
        bound = store.get("minsets", 5, 46)
        assert bound.bound == 2 and bound.proof["cases"] == 3040
        assert check_bound(bound, store).ok and check_citations(bound, store).ok


def test_a_log_that_is_not_a_refutation_is_refused():
    cnf = [[1, 2], [-1, 2], [1, -2], [-1, -2]]
    with pytest.raises(SetlabError, match="not RUP"):
        drup_to_lrat(3, [[1, 2, 3]], ["1 0", "0"])  # -1 leaves 2 or 3: no conflict
    with pytest.raises(SetlabError, match="no empty clause"):
        drup_to_lrat(3, [[1, 2, 3]], ["1 2 3 0"])
    with pytest.raises(SetlabError, match="beyond 2"):
        drup_to_lrat(2, cnf, ["3 0", "0"])
    with pytest.raises(SetlabError, match="clause 5 of the refutation is not RUP"):
        drup_to_lrat(2, cnf, ["d 1 2 0", "2 0", "0"])  # 2 needed the clause deleted before it
    spare = [*cnf, [1, 2, 3]]
    lines = drup_to_lrat(3, spare, ["d 1 2 3 0", "2 0", "0"])  # a deletion only prunes
    assert check_lrat(spare, lines) is None
