"""The pencil programs and the chain that proves AG(5,3)'s largest cap: real caps satisfy every
row, the chain's certificates pass the standalone checker, and tampered ones fail."""

from __future__ import annotations

import copy
import itertools
import json
from fractions import Fraction

import numpy as np
import pytest

from setlab.extremal.bigcaps import best_construction
from setlab.extremal.caps import largest_cap
from setlab.extremal.caps.pencils import (
    TWENTY_CAP_SPLITS,
    _all_caps,
    gaussian_binomial,
    largest_cap_certificate,
    pencil_program,
    refute,
    sections_impossible,
)
from setlab.geometry import digits
from setlab.proofcheck.caps_check import _sections_impossible as checkers_sections_impossible
from setlab.proofcheck.caps_check import check_largest_cap
from setlab.store import Store


def _normal(v: tuple[int, ...]) -> tuple[int, ...]:
    lead = next(x for x in v if x)
    return tuple((x * lead) % 3 for x in v)  # lead * lead = 1 mod 3


def _forms(d: int) -> list[tuple[int, ...]]:
    return sorted({_normal(v) for v in itertools.product(range(3), repeat=d) if any(v)})


def _pencils(d: int) -> list[tuple[tuple[int, ...], tuple[int, ...]]]:
    """One basis (f, g) of each 2-dimensional subspace of the dual of F_3^d, by brute force."""
    seen, out = set(), []
    for f, g in itertools.combinations(_forms(d), 2):
        span = frozenset(_normal(tuple((a * x + b * y) % 3 for x, y in zip(f, g, strict=True)))
                         for a in range(3) for b in range(3) if a or b)  # fmt: skip
        if span not in seen:
            seen.add(span)
            out.append((f, g))
    return out


@pytest.mark.parametrize("d", [2, 3, 4, 5])
def test_gaussian_binomial_counts_planes_of_the_dual(d):
    assert gaussian_binomial(d, 2) == len(_pencils(d))
    assert gaussian_binomial(d, 1) == len(_forms(d))


def _real_x(cap: np.ndarray, program) -> np.ndarray:
    """A x for the true counts of a cap: every pencil's pattern column, every class's column."""
    d = cap.shape[1]
    total = np.zeros(len(program.rows))
    known = set(map(tuple, program.matrix.T.tolist()))  # entries are quarters: exact floats
    for f, g in _pencils(d):
        i, j = (cap @ np.array(f)) % 3, (cap @ np.array(g)) % 3
        grid = np.bincount(3 * i + j, minlength=9)
        column = program.pattern_column(grid)
        assert tuple(column.tolist()) in known  # the program has it
        total += column
    for f in _forms(d):
        sizes = np.bincount((cap @ np.array(f)) % 3, minlength=3)
        total += program.type_column(tuple(int(s) for s in sizes))
    return total


def _random_cap(d: int, size: int, seed: int) -> np.ndarray:
    """Random points added while no two chosen ones complete to them (restart until size)."""
    rng = np.random.default_rng(seed)
    while True:
        cap: list[np.ndarray] = []
        for p in digits(d).astype(np.int64)[rng.permutation(3**d)]:
            if not any(((p + q + r) % 3 == 0).all() for q, r in itertools.combinations(cap, 2)):
                cap.append(p)
            if len(cap) == size:
                return np.array(cap)


@pytest.mark.parametrize(("d", "size", "seed"), [(3, 8, 1), (3, 9, 2), (4, 14, 3), (4, 17, 4)])
def test_every_row_holds_for_real_caps(d, size, seed):
    cap = _random_cap(d, size, seed)
    cell_max, line_max = {3: (2, 4), 4: (4, 9)}[d]
    program = pencil_program(d, size, cell_max, line_max)
    assert np.array_equal(_real_x(cap, program), program.rhs)


def test_every_row_holds_for_the_45_cap():
    cap = best_construction(5).astype(np.int64)
    program = pencil_program(5, 45, 9, 20, forbidden=(*TWENTY_CAP_SPLITS, (3, 8, 8)))
    assert np.array_equal(_real_x(cap, program), program.rhs)
    assert refute(program) is None  # a 45-cap exists, so no certificate may


def test_the_sizes_that_exist_are_not_refuted():
    assert refute(pencil_program(3, 9, 2, 4)) is None
    assert refute(pencil_program(4, 20, 4, 9)) is None
    assert refute(pencil_program(4, 20, 4, 9, forced=(2, 9, 9))) is None  # the 20-cap's splits
    assert refute(pencil_program(4, 20, 4, 9, forced=(6, 6, 8))) is None
    assert refute(pencil_program(3, 10, 2, 4)) is not None


def _twenty_cap() -> np.ndarray:
    """A 20-cap of AG(4,3), checked by plain loops: all 20-caps are one class under affine maps
    (tests/test_caps.py counts them), so any one has the sections of every other."""
    cap = best_construction(4).astype(np.int64)
    assert len({tuple(x) for x in cap.tolist()}) == 20
    assert not any(((a + b + c) % 3 == 0).all() for a, b, c in itertools.combinations(cap, 3))
    return cap


def test_the_twenty_cap_splits_are_those_of_the_twenty_cap():
    cap = _twenty_cap()
    real = {tuple(sorted(np.bincount((cap @ np.array(f)) % 3, minlength=3).tolist()))
            for f in _forms(4)}  # fmt: skip
    assert real == {(2, 9, 9), (6, 6, 8)}
    every = {t for t in itertools.combinations_with_replacement(range(10), 3) if sum(t) == 20}
    assert set(TWENTY_CAP_SPLITS) == every - real


@pytest.mark.parametrize(("d", "k"), [(2, 3), (2, 4), (2, 5), (3, 4), (3, 1), (1, 3)])
def test_every_cap_is_listed_once(d, k):
    # the sections search reads every cap of AG(3,3) of a size: against all k-subsets by hand
    points = list(itertools.product(range(3), repeat=d))
    by_hand = {
        subset for subset in itertools.combinations(range(3**d), k)
        if not any(all(sum(c) % 3 == 0 for c in zip(*(points[i] for i in t), strict=True))
                   for t in itertools.combinations(subset, 3))
    }  # fmt: skip
    listed = [tuple(cap) for cap in _all_caps(d, k).tolist()]
    assert len(listed) == len(set(listed)) and set(listed) == by_hand


def test_sections_search():
    # every 19-cap of AG(4,3) is the 20-cap less a point (tests/test_caps.py), so the sections
    # a 19-cap can have are those of the 20-cap less each of its points, by plain loops
    cap = _twenty_cap().tolist()
    real = set()
    for p in cap:
        rest = [x for x in cap if x != p]
        for form in _forms(4):
            sizes = [0, 0, 0]
            for x in rest:
                sizes[sum(f * v for f, v in zip(form, x, strict=True)) % 3] += 1
            real.add(tuple(sorted(sizes)))
    # the prover's search and the standalone checker's own (which shares no code with it)
    for search in (sections_impossible, checkers_sections_impossible):
        # a <= 3, b >= 5, 19 cards; (2, 9, 8) is the 20-cap less a point of a 9-section
        sections = [(1, 9, 9), (2, 8, 9), (3, 7, 9), (3, 8, 8), (2, 9, 8)]
        verdicts = {s: search(s) for s in sections}
        assert verdicts == {s: tuple(sorted(s)) not in real for s in sections}, search
        assert verdicts[3, 8, 8] and not verdicts[2, 9, 8] and not verdicts[1, 9, 9]
        with pytest.raises(Exception, match="a <= 3"):
            search((4, 7, 8))


def _claim(properties: int) -> dict:
    chain = largest_cap_certificate(properties)
    witness = best_construction(properties).tolist()
    return {"kind": "largest cap", "properties": properties, "value": chain["value"],
            "witness": witness, "proof": {"method": "pencil chain", "steps": chain["steps"]}}


def test_the_checker_accepts_the_chain_of_ag43_and_refuses_tampering():
    claim = _claim(4)
    assert [s["lemma"] for s in claim["proof"]["steps"]] == [
        "AG(3,3) has no 10-cap", "AG(4,3) has no 21-cap"]
    assert check_largest_cap(json.loads(json.dumps(claim))) == []
    bigger = copy.deepcopy(claim)
    bigger["value"] = 19
    assert check_largest_cap(bigger)
    changed = copy.deepcopy(claim)
    row, value = next(iter(changed["proof"]["steps"][1]["multipliers"].items()))
    changed["proof"]["steps"][1]["multipliers"][row] = str(-2 * Fraction(value) - 1)
    assert any("AG(4,3)" in e for e in check_largest_cap(changed))
    alone = copy.deepcopy(claim)
    del alone["proof"]["steps"][0]  # the AG(3,3) bound the cells rest on
    assert any("not proven" in e for e in check_largest_cap(alone))
    line = copy.deepcopy(claim)
    first, third = line["witness"][0], line["witness"][2]
    line["witness"][1] = [(-(a + b)) % 3 for a, b in zip(first, third, strict=True)]
    assert any("line" in e or "distinct" in e for e in check_largest_cap(line))


def test_the_checker_refuses_unproven_splits():
    step = {"lemma": "x", "dimension": 4, "cards": 21, "cell_max": 4, "line_max": 9,
            "forbidden": [[4, 4, 1]], "multipliers": {}}  # fmt: skip
    claim = _claim(4)
    claim["proof"]["steps"].append(step)
    assert any("not proven impossible" in e for e in check_largest_cap(claim))


def test_largest_cap_of_ag53_is_proven_and_stored(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        result = largest_cap(5, store=store)
        assert (result.size, result.proven) == (45, True)
        assert result.proof["steps"][-1]["lemma"] == "AG(5,3) has no 46-cap"
        again = largest_cap(5, store=store)
        assert again.stored_at is not None and again.proven


@pytest.mark.slow
def test_the_checker_accepts_the_chain_of_ag53():
    claim = json.loads(json.dumps(_claim(5)))
    assert check_largest_cap(claim) == []
    forged = copy.deepcopy(claim)
    forged["proof"]["steps"] = [s for s in forged["proof"]["steps"] if "sections" not in s]
    assert any("not proven impossible" in e for e in check_largest_cap(forged))


def _no_cap_bound(store: Store, cards: int, largest: int):
    proof = {"method": "no cap", "largest_cap": largest}
    store.record_bound("minsets", 5, cards, "min", 1, proof, "no cap")
    return store.get("minsets", 5, cards)


def test_verify_refuses_a_no_cap_bound_without_a_proven_cap():
    from setlab.certificates import check_bound

    with Store(":memory:") as store:
        assert not check_bound(_no_cap_bound(store, 46, 45), store).ok  # no cap stored


@pytest.mark.slow
def test_verify_checks_a_no_cap_bound_by_the_standalone_chain():
    from setlab.certificates import check_bound, check_citations

    with Store(":memory:") as store:
        largest_cap(5, store=store)
        good = _no_cap_bound(store, 46, 45)
        assert check_bound(good, store).ok and check_citations(good, store).ok
        assert not check_bound(_no_cap_bound(store, 45, 45), store).ok  # 45 cards hold no set
        assert not check_bound(_no_cap_bound(store, 47, 44), store).ok  # not the stored size


def test_the_checker_refuses_a_forced_type_of_another_size():
    """A forced class type must be one of the program's (sum n): else the lemma it would add
    (a split impossible for n-caps) would be about caps of another size."""
    step = {"lemma": "x", "dimension": 4, "cards": 20, "cell_max": 4, "line_max": 9,
            "forced": [0, 0, 5], "multipliers": {}}  # fmt: skip
    claim = _claim(4)
    claim["proof"]["steps"].insert(2, step)
    assert any("forced type" in e for e in check_largest_cap(claim))


def test_the_checker_reports_a_multiplier_that_is_not_a_fraction():
    claim = _claim(4)
    row = next(iter(claim["proof"]["steps"][1]["multipliers"]))
    claim["proof"]["steps"][1]["multipliers"][row] = "1/0"
    assert any("not a fraction" in e for e in check_largest_cap(claim))
