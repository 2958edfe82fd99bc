"""Max/min sets among n cards: paper tables, brute force, search soundness, certificates, resume."""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import sqlite3

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setlab.bundle import write_bundle
from setlab.cards import index_of
from setlab.certificates import check_bound, check_witness, recount, verify_store
from setlab.cli import main
from setlab.extremal import maxsets as maxsets_module
from setlab.extremal import search as search_module
from setlab.extremal.bruteforce import brute_force_extremes, exhaustive_table
from setlab.extremal.identities import (
    complement_sum,
    greatest_degree_bound,
    least_degree_bound,
)
from setlab.extremal.maxsets import Solver, cap_witness, deletion_bound
from setlab.extremal.search import job_name, level_thresholds, search
from setlab.find import count_sets
from setlab.geometry import random_affine_map
from setlab.store import Store
from setlab.symmetry import orbit_representatives

# The seed paper (max-sets-paper.txt): Table 3 (P = 3, n = 0..27; n < 3 have no sets) and
# Table 1 (P = 4, n = 3..12).
TABLE3 = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12, 12, 13, 14, 16, 19, 23, 26, 30, 36, 41, 47, 54, 62, 71,
          81, 92, 104, 117]  # fmt: skip
TABLE1 = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5, 8: 8, 9: 12, 10: 12, 11: 13, 12: 14}


@pytest.fixture(scope="module")
def p3_table():
    return exhaustive_table(3)


@pytest.fixture(scope="module")
def solved(tmp_path_factory):
    """A store with P = 4 solved for n <= 12 (max) and the minima the caps give."""
    store = Store(tmp_path_factory.mktemp("maxsets") / "store.sqlite")
    solver = Solver(4, store, workers=1)
    for n in range(13):
        solver.max(n)
        solver.min(n)
    yield solver
    store.close()


def test_exhaustive_walk_reproduces_table3_and_the_complement_identity(p3_table):
    assert [e.max for e in p3_table] == TABLE3
    for e in p3_table:
        assert count_sets(e.max_witness, 3) == e.max and len(e.max_witness) == e.cards
        assert count_sets(e.min_witness, 3) == e.min and len(e.min_witness) == e.cards
        assert e.max + p3_table[27 - e.cards].min == complement_sum(3, e.cards)
    assert max(e.cards for e in p3_table if e.min == 0) == 9  # the largest cap of AG(3,3)


def test_brute_force_agrees_with_the_exhaustive_walk():
    walk = exhaustive_table(2)
    for n in range(10):
        brute = brute_force_extremes(2, n)
        assert (brute.max, brute.min) == (walk[n].max, walk[n].min)
        assert brute.examined == math.comb(9, n)
    p3 = brute_force_extremes(3, 4)
    assert (p3.max, p3.min, count_sets(p3.max_witness, 3)) == (1, 0, 1)


def test_search_proves_table1_and_agrees_with_brute_force(solved):
    for n, value in TABLE1.items():
        result = solved.get("max", n)
        assert (result.value, result.bound, result.proven) == (value, value, True)
        assert recount(result.witness, 4) == value
    for n in (3, 4):
        assert brute_force_extremes(4, n).max == TABLE1[n] == search(4, n, "max", 1).best


def test_search_max_and_min_agree_with_the_exhaustive_walk(p3_table):
    for e in p3_table:
        assert search(3, e.cards, "max", e.max, workers=1).best == e.max
        assert search(3, e.cards, "max", e.max + 1, workers=1).best is None
    for e in p3_table[8:15]:
        assert search(3, e.cards, "min", e.min, workers=1).best == e.min
        if e.min:
            assert search(3, e.cards, "min", e.min - 1, workers=1).best is None


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(0, 26), min_size=3, max_size=27), st.integers(-3, 3))
def test_level_thresholds_are_sound(cards, shift):
    """Every configuration passing T_k loses a card and still passes T_{k-1}."""
    cards = sorted(cards)
    k, sets = len(cards), count_sets(cards, 3)
    below = [count_sets(cards[:i] + cards[i + 1 :], 3) for i in range(k)]
    high = level_thresholds("max", k, max(0, sets - abs(shift)))
    assert max(below) >= high[k - 1]
    low = level_thresholds("min", k, sets + abs(shift))
    assert min(below) <= low[k - 1]


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 60), st.integers(-5, 400))
def test_level_thresholds_restate_the_worst_case_over_all_set_counts(cards, threshold):
    """T_{k-1} is the worst a deletion can leave over every count L passing T_k, not only L = T_k.

    Max: min over L >= T_k (up to the most sets k cards can hold) of L minus the least degree
    bound. Min: max over 0 <= L <= T_k of L minus the greatest degree bound (none below 3 cards).
    The minimum and maximum sit at L = T_k because L minus either bound does not decrease in L.
    """
    k, t = cards, threshold
    high = level_thresholds("max", k, t)[k - 1]
    most = max(t, k * (k - 1) // 6)
    worst = min(L - least_degree_bound(k, L) for L in range(max(t, 0), most + 1))
    assert high == max(0, worst)
    low = level_thresholds("min", k, t)[k - 1]
    if t < 0:
        assert low == -1
    else:
        bound = (lambda L: greatest_degree_bound(k, L)) if k >= 3 else (lambda L: 0)
        assert low == max(L - bound(L) for L in range(t + 1))


def test_search_classes_are_the_orbits_and_pass_orbit_stabiliser():
    """Unpruned search levels hold exactly the AGL-orbits of k-subsets (nauty-free count)."""
    result = search(2, 9, "max", 0, workers=1)
    for k in range(10):
        orbits = orbit_representatives(itertools.combinations(range(9), k), 2)
        assert result.classes[k] == len(orbits)
    assert result.orbit_checks == {str(k): True for k in range(1, 10)}


@settings(max_examples=30, deadline=None)
@given(st.sets(st.integers(0, 80), max_size=81), st.integers(0, 2**32 - 1))
def test_complement_identity_and_affine_invariance(cards, seed):
    cards = sorted(cards)
    rest = sorted(set(range(81)) - set(cards))
    assert count_sets(cards) + count_sets(rest) == complement_sum(4, len(cards))
    image = random_affine_map(4, seed)(np.array(cards, dtype=np.int64)).tolist()
    assert count_sets(image) == count_sets(cards)


def test_deletion_bound_matches_the_threshold_rule():
    for n in range(3, 40):
        for previous in range(0, 60):
            bound = deletion_bound(n, previous)
            assert level_thresholds("max", n, bound)[n - 1] <= previous
            assert level_thresholds("max", n, bound + 1)[n - 1] > previous


def test_the_min_deletion_bound_holds_on_ag23_and_ag33():
    # m(n) >= deletion_bound(n, m(n-1), "min") against every subset of AG(2,3) (counted here)
    # and the exhaustive walk of AG(3,3); it is reached at the first n above the largest cap.
    least = {}
    for mask in range(1 << 9):
        board = [i for i in range(9) if mask >> i & 1]
        least[len(board)] = min(least.get(len(board), 99), count_sets(board, 2))
    walk = {e.cards: e.min for e in exhaustive_table(3)}
    for table, size in ((least, 9), (walk, 27)):
        for n in range(1, size + 1):
            assert deletion_bound(n, table[n - 1], "min") <= table[n]
    assert deletion_bound(5, least[4], "min") == 0 and least[5] == 1  # it says nothing from 0
    assert deletion_bound(11, walk[10], "min") == 3 == walk[11]  # 2 sets among 10 force 3


def test_the_checker_applies_the_deletion_rule_the_solver_does():
    from setlab.proofcheck.check import deletion_rule

    for n in range(1, 80):
        for previous in range(0, 40):
            low = deletion_bound(n, previous, "min")
            assert deletion_rule(n, previous, low, "min")
            assert not deletion_rule(n, previous, low + 1, "min")
            if n >= 3:
                high = deletion_bound(n, previous)
                assert deletion_rule(n, previous, high)
                assert not deletion_rule(n, previous, high - 1)


def test_caps_complements_and_the_verifier(solved):
    cap = cap_witness(4, 20)
    assert len(cap) == 20 and recount(cap, 4) == 0
    for n in range(13):
        assert solved.get("min", n).proven and solved.get("min", n).value == 0
    high = solved.max(75)  # complement of a 6-cap
    assert high.proven and high.value == complement_sum(4, 75) and recount(high.witness, 4) == 855
    checks = verify_store(solved.store)
    assert checks and all(c.ok for c in checks), [c for c in checks if not c.ok]
    bad = solved.store.get("maxsets", 4, 12)
    tampered = dataclasses.replace(bad, witness=[*bad.witness[:-1], 80])
    assert not check_witness(tampered).ok


def test_search_resumes_after_interruption(tmp_path, monkeypatch):
    reference = search(4, 16, "max", 27, workers=1)
    store = Store(tmp_path / "resume.sqlite")
    calls = {"n": 0}
    real = search_module.extend_classes

    def interrupted(*args):
        calls["n"] += 1
        if calls["n"] == 10:
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(search_module, "extend_classes", interrupted)
    with pytest.raises(KeyboardInterrupt):
        search(4, 16, "max", 27, store, workers=1)
    monkeypatch.setattr(search_module, "extend_classes", real)
    thresholds = level_thresholds("max", 16, 27)
    done = [len(store.finished_tasks(job_name(4, "max", thresholds, k))) for k in range(1, 17)]
    assert sum(done) == 9  # the finished tasks were kept, the running one lost
    store.forget_job(job_name(4, "max", thresholds, 3))  # and lose a finished level too
    resumed = search(4, 16, "max", 27, store, workers=1)
    assert resumed.best is None
    assert resumed.classes == reference.classes
    assert resumed.level_hashes == reference.level_hashes


def test_checkpointed_tasks_do_not_depend_on_the_pool_size(tmp_path, monkeypatch):
    """A search resumed with another number of workers finds the same tasks for the same work.

    (Tasks were once named by chunk index with chunks sized by the pool: killed under two workers
    and resumed under one, m(33) lost classes and was still printed as proven.)
    """
    monkeypatch.setattr(search_module, "_SERIAL_WORK", 0)  # a pool-sized split on every level
    real = search_module.run_tasks
    seen: dict[int, list] = {}

    def recording(job, tasks, function, store=None, *, workers=None, **options):
        seen.setdefault(workers, []).append((job, dict(tasks)))
        return real(job, tasks, function, store, workers=1, **options)

    monkeypatch.setattr(search_module, "run_tasks", recording)
    store = Store(tmp_path / "pools.sqlite")
    two = search(4, 9, "min", 0, store, workers=2)  # the caps, up to 91 classes a level
    thresholds = level_thresholds("min", 9, 0)
    lost = 0
    with sqlite3.connect(tmp_path / "pools.sqlite") as db:  # lose every other finished task
        for k in range(1, 10):
            job = job_name(4, "min", thresholds, k)
            for task in sorted(store.finished_tasks(job))[1::2]:
                db.execute("DELETE FROM checkpoints WHERE job=? AND task=?", (job, task))
                lost += 1
    assert lost > 10
    one = search(4, 9, "min", 0, store, workers=1)  # and resume with one worker
    assert seen[1] == seen[2]
    assert one.classes == two.classes == search(4, 9, "min", 0, workers=1).classes
    assert one.level_hashes == two.level_hashes


@pytest.mark.parametrize(("first", "second"), [(2, 1), (1, 2)])
def test_a_search_killed_under_one_pool_size_resumes_under_another(
    tmp_path, monkeypatch, first, second
):
    """Killed after some finished tasks under ``first`` workers and resumed under ``second``:
    the classes per level, the children tried and the stored levels are those of a run never
    interrupted (checkpoints are keyed by the input of their task, never by its position)."""
    monkeypatch.setattr(search_module, "_SERIAL_WORK", 0)  # pools on every level
    reference = search(4, 9, "min", 0, Store(tmp_path / "reference.sqlite"), workers=1)
    store = Store(tmp_path / "killed.sqlite")
    real = Store.finish_task
    finished = {"n": 0}

    def dying(self, job, task, payload):
        real(self, job, task, payload)
        finished["n"] += 1
        if finished["n"] == 35:  # 27 tasks before level 9, 8 of its 17 done
            raise KeyboardInterrupt

    monkeypatch.setattr(Store, "finish_task", dying)
    with pytest.raises(KeyboardInterrupt):
        search(4, 9, "min", 0, store, workers=first)
    monkeypatch.setattr(Store, "finish_task", real)
    job = job_name(4, "min", level_thresholds("min", 9, 0), 9)
    assert len(store.finished_tasks(job)) == 8
    stale = {"classes": [], "children": 0, "certificate_calls": 0, "automorphism_calls": 0}
    store.finish_task(job, "0000000-0000003", stale)  # a task named by position: never read
    resumed = search(4, 9, "min", 0, store, workers=second)
    # the classes of k-caps of AG(4,3), k <= 9 (counted with bliss, no setlab code, in
    # tests/test_cap_counts_independent.py)
    assert resumed.classes == reference.classes == [1, 1, 1, 1, 2, 3, 7, 11, 33, 91]
    assert resumed.children == reference.children
    assert resumed.level_hashes == reference.level_hashes
    again = Store(tmp_path / "reference.sqlite")
    assert [store.level(name) for name in resumed.levels] == [
        again.level(name) for name in reference.levels
    ]


def test_cli_maxsets_json_table_and_errors(tmp_path, capsys):
    store = str(tmp_path / "cli.sqlite")
    assert main(["maxsets", "-p", "2", "-n", "7", "--json", "--store", store]) == 0
    out = json.loads(capsys.readouterr().out)
    assert (out["value"], out["proven"], out["method"]) == (5, True, "exhaustive")
    assert all(len(card) == 2 and set(card) <= {0, 1, 2} for card in out["witness"])
    assert recount([index_of(card) for card in out["witness"]], 2) == 5
    assert main(["minsets", "-p", "2", "--table", "--json", "--store", store]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [r["min"]["value"] for r in rows] == [0, 0, 0, 0, 0, 1, 2, 5, 8, 12]
    assert all(r["max"]["proven"] and r["min"]["proven"] for r in rows)
    assert all(recount([index_of(c) for c in r["min"]["witness"]], 2) == r["min"]["lower"]
               for r in rows)  # fmt: skip
    assert main(["verify", "--store", store]) == 0
    assert "checks passed" in capsys.readouterr().out
    assert main(["maxsets", "-p", "4", "-n", "82", "--store", store]) == 2
    assert capsys.readouterr().err.startswith("error: cards must be between 0 and 81")


@pytest.mark.slow
def test_the_whole_p4_table_is_proven_and_every_proof_reruns(tmp_path):
    """Every M(n) and m(n) of the real deck proven on an empty store (about 100 s), Table 3 for
    n <= 27, and every search and walk repeated by the verifier with the same level hashes."""
    assert brute_force_extremes(4, 5).max == 2
    solver = Solver(4, Store(tmp_path / "slow.sqlite"))
    rows = solver.table()
    assert [r["max"] for r in rows[:28]] == TABLE3
    assert all(r["max_proven"] and r["min_proven"] for r in rows)
    for n, row in enumerate(rows):
        assert row["max"] + rows[81 - n]["min"] == complement_sum(4, n)
    assert all(c.ok for c in verify_store(solver.store, rerun=True))


@pytest.mark.slow
def test_the_whole_p5_table_says_only_what_its_bundle_proves(tmp_path):
    """AG(5,3) from an empty store (about an hour on 2 cores). The largest cap has 45 points (Edel,
    Ferret, Landjev and Storme 2002), so m(n) = 0 exactly up to n = 45; every row obeys the
    complement identity; a proven value is its bound and an open one lies strictly below it;
    and the standalone checker passes every value of the P = 5 bundle."""
    from test_certify import failures, run_checker

    store = Store(tmp_path / "p5.sqlite")
    rows = Solver(5, store).table()
    assert all(row["min"] == 0 and row["min_proven"] for row in rows[:46])
    assert rows[46]["min_bound"] == 2  # no 46-cap, and no 46 cards with exactly one set
    assert rows[144]["max_proven"]  # the split's middle case: its certificate is checked below
    assert rows[147]["max"] == 2425 and rows[147]["max_proven"]  # with split maxima
    assert rows[96]["min_proven"]  # m(96) by the complement identity from M(147)
    for n, row in enumerate(rows):
        if row["max_proven"] and rows[243 - n]["min_proven"]:
            assert row["max"] + rows[243 - n]["min"] == complement_sum(5, n)
        assert (row["max"] == row["max_bound"]) == row["max_proven"]
        assert row["max"] <= row["max_bound"] and row["min"] >= row["min_bound"]
    code, lines = run_checker(write_bundle(store, 5, tmp_path / "p5").directory, workers=2)
    assert code == 0 and not failures(lines) and lines[-1].endswith(" 0 failed"), failures(lines)


def test_seconds_keep_the_time_of_the_proving_call():
    """m(69) asks for M(12) again: that second, instant call must not replace M(12)'s time."""
    solver = Solver(4, Store(":memory:"), workers=1)
    for n in range(13):
        solver.max(n)
    proving = solver.seconds["max", 12]
    assert proving > 0
    low = solver.min(69)  # by the complement identity from M(12)
    assert low.proven and low.value == complement_sum(4, 12) - 14
    assert solver.seconds["max", 12] >= proving


def test_a_slice_program_proof_needs_its_smaller_values_proven():
    """M(40) by the counting identities rests on M_3(k): verified with them, refused without."""
    store = Store(":memory:")
    solver = Solver(4, store, search_cards=0, min_search_cards=0)
    high = solver.max(40)
    assert high.proven and high.method == "bounds"
    # its witness holds that many sets, each triple's digits summed by hand
    words = [[card // 3**i % 3 for i in range(4)] for card in high.witness]
    lines = sum(all((x + y + z) % 3 == 0 for x, y, z in zip(a, b, c, strict=True))
                for a, b, c in itertools.combinations(words, 3))  # fmt: skip
    assert len(words) == 40 and lines == high.value
    result = store.get("maxsets", 4, 40)
    assert result.proof["record"]["known_max"]  # it did assume M_3 values
    assert check_bound(result, store).ok
    assert not check_bound(result, Store(":memory:")).ok  # a store without the M_3 proofs


@pytest.fixture
def bound_calls(monkeypatch):
    """The n of every call the solver makes to the slice programs (``max_upper_bound``)."""
    calls = []
    real = maxsets_module.max_upper_bound

    def counted(*args, **kwargs):
        calls.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(maxsets_module, "max_upper_bound", counted)
    return calls


def test_an_open_value_is_worked_on_once_per_solver(bound_calls):
    """m(31) asks for M(50) again; the solver must not run the bounds for the open M(50) (a
    witness of 276 against the bound 279 without searches) a second time."""
    calls = bound_calls
    solver = Solver(4, Store(":memory:"), search_cards=0, min_search_cards=0)
    assert not solver.max(50).proven
    solver.min(31)
    solver.max(50)
    assert calls == [50]


def test_a_later_solver_reads_an_open_values_programs_from_the_store(
    bound_calls, monkeypatch, tmp_path
):
    """The slice programs of the open M(50) run once per store, not once per solver: a second
    solver (a second table) records the kept bound again, with its proof, from the store, and a
    new code version solves them afresh."""
    calls = bound_calls
    path = tmp_path / "store.sqlite"
    first = Solver(4, Store(path), search_cards=0, min_search_cards=0).max(50)
    assert not first.proven and calls == [50]
    kept = Store(path)
    with sqlite3.connect(path) as db:  # the result forgotten, the programs' payload kept
        db.execute("DELETE FROM results WHERE problem = 'maxsets' AND cards = 50")
    second = Solver(4, kept, search_cards=0, min_search_cards=0).max(50)
    assert calls == [50] and (second.value, second.bound) == (first.value, first.bound)
    assert check_bound(kept.get("maxsets", 4, 50), kept).ok
    monkeypatch.setattr(maxsets_module, "BOUNDS_VERSION", maxsets_module.BOUNDS_VERSION + 1)
    old = [job for (job,) in sqlite3.connect(path).execute("SELECT job FROM checkpoints")]
    assert any(job.startswith("bounds-v") for job in old)
    Solver(4, kept, search_cards=0, min_search_cards=0).max(50)
    assert calls == [50, 50]
    assert all(not kept.finished_tasks(job) for job in old if job.startswith("bounds-v"))


def test_a_later_solver_reads_the_annealed_minimum_from_the_store(monkeypatch, tmp_path):
    """The annealed search for an open minimum is seeded, so a second solver on the same store
    records its witness again instead of annealing again; other restarts anneal."""
    calls = []
    real = maxsets_module.local_search

    def counted(*args, **kwargs):
        calls.append(kwargs["restarts"])
        return real(*args, **kwargs)

    monkeypatch.setattr(maxsets_module, "local_search", counted)
    path = tmp_path / "store.sqlite"
    Solver(4, Store(path), anneal_restarts=5)._anneal_min(25, 7)
    found = Store(path).get("minsets", 4, 25)
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM results")
    store = Store(path)
    Solver(4, store, anneal_restarts=5)._anneal_min(25, 7)
    again = store.get("minsets", 4, 25)
    assert calls == [5] and (again.value, again.witness) == (found.value, found.witness)
    assert store.get("maxsets", 4, 56).value == complement_sum(4, 25) - found.value
    Solver(4, store, anneal_restarts=6)._anneal_min(25, 7)
    assert calls == [5, 6]


def test_the_split_of_an_open_maximum_is_kept_for_later_tables(monkeypatch, tmp_path):
    """A table's split job is not forgotten when the table ends: a later table, or one value
    asked for later, reads each n's split from the store (and the guide with it) instead of
    running it again, even after a better witness; a split walked down to a lower witness
    count than any kept one runs."""
    from setlab.extremal import split as split_module

    splits, guides = [], []

    def split_task(properties, cards, known_max, known_below, lower, upper, guide, path):
        splits.append((cards, lower))
        return {"bound": upper - 1, "record": None, "seconds": 0.0}

    def guide(dimension, smallest):
        guides.append(dimension)
        return {(27, 27, 27): 117}

    monkeypatch.setattr(split_module, "split_task", split_task)
    monkeypatch.setattr(maxsets_module, "split_maxima_found", guide)
    path = tmp_path / "store.sqlite"
    store = Store(path)
    for n, (value, bound) in {150: (2540, 2546), 151: (2580, 2587)}.items():
        store.record_witness("maxsets", 5, n, "max", value, list(range(n)), "test")
        store.record_bound("maxsets", 5, n, "max", bound, {"method": "test"}, "test")
    table = Solver(5, store, workers=1)
    table._deferred = [150, 151]
    table._split_deferred()
    table.forget_checkpoints()  # what the end of a table does
    assert sorted(splits) == [(150, 2540), (151, 2580)] and guides == [3]
    later = Solver(5, Store(path))
    later._split(150)
    later._split(151)
    assert len(splits) == 2 and guides == [3]
    store.record_witness("maxsets", 5, 151, "max", 2582, list(range(151)), "test")
    later._split(151)
    assert len(splits) == 2 and guides == [3]
    found = split_module.split_bounds(5, {151: (2570, 2587)}, {}, {}, store, workers=1)
    assert splits[-1] == (151, 2570) and found[151]["bound"] == 2586


def test_annealing_an_open_minimum_also_improves_the_complementary_maximum():
    """A poor m(25) witness (25 random cards) is replaced by the annealed one, and its
    complement becomes the M(56) witness: sets(S) + sets(S^c) = 1080 - 25 * 56 / 2."""
    store = Store(":memory:")
    poor = sorted(np.random.default_rng(5).choice(81, 25, replace=False).tolist())
    store.record_witness("minsets", 4, 25, "min", count_sets(poor, 4), poor, "random")
    solver = Solver(4, store, anneal_restarts=20)
    solver._anneal_min(25, 7)
    low, high = store.get("minsets", 4, 25), store.get("maxsets", 4, 56)
    assert 7 <= low.value < count_sets(poor, 4) and low.witness_method.startswith("local")
    assert high.value == complement_sum(4, 25) - low.value == recount(high.witness, 4)
    assert sorted(set(range(81)) - set(high.witness)) == sorted(low.witness)


def test_an_empty_store_still_gives_a_witness():
    """With no smaller-dimensional witnesses stored, the first n cards (nested flats) serve:
    the first 9 cards of AG(6,3) are a plane with its 12 lines."""
    value = Solver(6, Store(":memory:"), search_cards=0, use_bounds=False).max(9)
    assert value.value == 12 and value.witness == list(range(9))
    assert value.witness_method == "first cards"


@pytest.mark.parametrize("min_search_cards", [0, 20, 33, 45, 60, 81])
def test_the_plan_lists_what_a_value_needs_before_it(min_search_cards):
    """Every plan ends with the value asked for, repeats no step, and puts m(N-n) (after M(n)'s
    witnesses and deletion bound) before M(n) where the min search covers N - n, and M(N-n)
    before m(n) where it does not; whatever the search limit, no value needs itself."""
    solver = Solver(4, Store(":memory:"), min_search_cards=min_search_cards)
    cap = len(solver.cap())
    for sense in ("max", "min"):
        for n in range(82):
            steps = solver.plan(sense, n)
            assert steps[-1] == (sense, n) and len(set(steps)) == len(steps)
            other = 81 - n
            if not 2 < n < 81 or (n if sense == "min" else other) <= cap:  # needs nothing
                assert steps == [(sense, n)]
                continue
            if sense == "min" and n > min_search_cards and other <= 2:  # M(other) is trivial
                assert steps == [("max", other), ("min", n)]
                continue
            assert steps[0] == ("table", 3)  # the slice values of AG(3,3) come first
            if sense == "max" and other <= min_search_cards:
                start, low = steps.index(("max-start", n)), steps.index(("min", other))
                assert start < low < len(steps) - 1
            if sense == "min" and n > min_search_cards:
                assert ("max", other) in steps[:-1]


def test_the_smaller_table_is_a_planned_step_not_a_side_effect():
    """Reading the (P-1)-dimensional maxima never starts their ~100 s computation; a P = 5 value
    plans the AG(4,3) table as its first step instead."""
    solver = Solver(5, Store(":memory:"))
    assert solver.known_max(4) == {}
    assert solver.plan("max", 100)[0] == ("table", 4)
    assert solver.plan("min", 10) == [("min", 10)]  # a cap of 10 cards: nothing else needed
