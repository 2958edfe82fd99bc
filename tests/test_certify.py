"""Proof bundles and their standalone checker; the verifier's citations and stored levels.

The checker (src/setlab/proofcheck/check.py) is run as a separate program on bundles written by
``setlab certify``; each tampering below must make it fail naming the value, and the same
tampering of the store must make ``setlab verify`` fail.
"""

from __future__ import annotations

import ast
import itertools
import json
import shutil
import sqlite3
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import standalone
from setlab.bundle import write_bundle
from setlab.certificates import check_citations, recount, verify_store
from setlab.cli import main
from setlab.errors import SetlabError
from setlab.extremal.maxsets import Solver
from setlab.geometry import random_affine_map
from setlab.store import Store
from setlab.symmetry import orbit_representatives

CHECKER = Path(__file__).resolve().parents[1] / "src" / "setlab" / "proofcheck"


def run_checker(bundle: Path, workers: int = 1) -> tuple[int, list[str]]:
    done = subprocess.run(
        [sys.executable, str(bundle / "check.py"), str(bundle), "--workers", str(workers)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert not done.stderr.strip(), done.stderr
    return done.returncode, done.stdout.splitlines()


def failures(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("FAIL")]



@given(st.integers(1, 4).flatmap(
    lambda p: st.tuples(st.just(p), st.sets(st.integers(0, 3**p - 1), max_size=30))))
@settings(max_examples=200, deadline=None)
def test_recount_over_pairs_is_the_triple_loop(drawn):
    """verify re-counts a witness over its pairs; here every triple is tested, digit by digit."""
    p, cards = drawn
    digits = [[(c // 3**i) % 3 for i in range(p)] for c in cards]
    triples = sum(all((a + b + c) % 3 == 0 for a, b, c in zip(x, y, z, strict=True))
                  for x, y, z in itertools.combinations(digits, 3))  # fmt: skip
    assert recount(sorted(cards), p) == triples

@pytest.fixture(scope="module")
def p4_sample(tmp_path_factory):
    """A P = 4 store with M(n), m(n) proven for n <= 12 (trivial, deletion, search) and
    M(75) (complement of a cap)."""
    root = tmp_path_factory.mktemp("p4")
    store = Store(root / "store.sqlite")
    solver = Solver(4, store, workers=1)
    for n in range(13):
        solver.max(n)
        solver.min(n)
    solver.max(75)
    yield store
    store.close()


@pytest.fixture
def sample_bundle(p4_sample, tmp_path):
    return write_bundle(p4_sample, 4, tmp_path / "bundle").directory


def edit_json(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def test_the_checker_imports_only_the_standard_library_numpy_and_igraph():
    for path in CHECKER.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{path.name}: a relative import"
                names = [node.module or ""]
            for name in names:
                top = name.split(".")[0]
                assert top in sys.stdlib_module_names or top in ("numpy", "igraph"), (
                    f"{path.name} imports {name}"
                )


LOAD_THE_CHECKER = """
import importlib.util, json, sys
drawing = ("matplotlib", "cairo", "cairocffi")
{before}
spec = importlib.util.spec_from_file_location("bundle_check", sys.argv[1])
checker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checker)
print(json.dumps(sorted(name for name in (*drawing, "igraph") if name in sys.modules)))
print(json.dumps(checker.igraph.Graph(n=3, edges=[(0, 1)]).canonical_permutation(color=[0, 0, 1])))
{after}
"""


@pytest.mark.parametrize("before, after, loaded", [
    ("", "", ["igraph"]),
    ("import matplotlib; mpl = matplotlib", "print(sys.modules['matplotlib'] is mpl)",
     ["igraph", "matplotlib", "True"]),
])  # fmt: skip
def test_the_checker_loads_igraph_without_its_drawing(before, after, loaded):
    """igraph imports matplotlib and cairo for drawing when they are there (a second of start-up
    for every checker run); the checker hides them while igraph loads, and puts back what the
    process had."""
    script = LOAD_THE_CHECKER.format(before=before, after=after)
    done = subprocess.run([sys.executable, "-c", script, str(CHECKER / "check.py")],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 0, done.stderr
    names, permutation, *rest = done.stdout.splitlines()
    assert [*json.loads(names), *rest] == loaded and len(json.loads(permutation)) == 3


def load_checker():
    return standalone.load(CHECKER / "check.py", "bundle_check")


@pytest.mark.parametrize("argv, reason", [
    ([], "which bundle?"),
    (["{bundle}", "--workers"], "--workers needs a whole number"),
    (["{bundle}", "--workers", "two"], "--workers needs a whole number"),
    (["{bundle}", "--workers", "0"], "--workers needs a whole number"),
    (["{bundle}", "--bogus"], "unexpected argument '--bogus'"),
    (["{bundle}", "{bundle}"], "unexpected argument"),
    (["{bundle}/nowhere"], "No such file or directory"),
])  # fmt: skip
def test_the_checker_refuses_bad_arguments_in_one_line_before_any_work(tmp_path, argv, reason):
    """Bad input: one line ``error: ...`` on stderr, nothing on stdout (nothing checked), exit 2."""
    (tmp_path / "manifest.json").write_text(json.dumps({"format": "setlab-proof-bundle/1"}))
    argv = [a.format(bundle=tmp_path) for a in argv]
    done = subprocess.run([sys.executable, str(CHECKER / "check.py"), *argv],
                          capture_output=True, text=True, timeout=300)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and reason in done.stderr
    assert len(done.stderr.splitlines()) == 1


@pytest.mark.parametrize("raised, seen", [
    (KeyboardInterrupt(), KeyboardInterrupt),
    ("bliss", KeyboardInterrupt),  # a Ctrl-C inside igraph's C code: SystemError caused by it
    (SystemError("a real fault"), SystemError),  # not an interrupt: never hidden
])  # fmt: skip
def test_the_checker_turns_an_interrupt_anywhere_into_one_interrupt_and_ends_its_pool(
    tmp_path, monkeypatch, raised, seen
):
    """main ends its pool and raises KeyboardInterrupt (``__main__`` prints the one line, 130),
    also for a Ctrl-C that igraph's C code reports as a SystemError; other errors pass through."""
    checker = load_checker()
    (tmp_path / "manifest.json").write_text(
        json.dumps({"format": "setlab-proof-bundle/1", "values": []}))  # fmt: skip
    if raised == "bliss":
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as cause:
            raised = SystemError("<built-in method count_automorphisms> returned a result with "
                                 "an exception set")  # fmt: skip
            raised.__cause__ = cause
    closed = []

    def interrupted(self, bundle):
        raise raised

    monkeypatch.setattr(checker.Runner, "split_ahead", interrupted)
    monkeypatch.setattr(checker.Runner, "close", lambda self, ended=False: closed.append(ended))
    with pytest.raises(seen) as caught:
        checker.main([str(tmp_path)])
    assert closed == [seen is KeyboardInterrupt]
    assert (caught.value is raised) == (seen is SystemError)


@pytest.mark.parametrize("seed", range(6))
def test_the_checkers_canonical_form_is_a_complete_invariant(seed):
    """bliss's form: equal on affine images, different on inequivalent configurations (the
    classes of 4-subsets of AG(3,3) by nauty, an independent count)."""
    check = load_checker()
    space = check.space(3)
    rng = np.random.default_rng(seed)
    cards = sorted(rng.choice(27, int(rng.integers(2, 14)), replace=False).tolist())
    image = sorted(int(c) for c in random_affine_map(3, seed)(cards))
    assert space.form(cards) == space.form(image)
    subsets = [list(c) for c in itertools.combinations(range(27), 4)][seed::50]
    forms = {space.form(c) for c in subsets}
    assert len(forms) == len(orbit_representatives(subsets, 3))


@pytest.mark.parametrize("seed", range(4))
def test_the_checkers_cheap_invariants_are_invariant_and_rigid_means_no_symmetry(seed):
    """The colour-refinement keys agree on affine images; a row called rigid has a trivial
    stabiliser (bliss counts the affine maps fixing it), over configurations of 3..33 cards,
    half of them unions of orbits of a random map (so that some have symmetry)."""
    check = load_checker()
    space = check.space(4)
    rng = np.random.default_rng(seed)
    rows = []
    for _ in range(40):
        k = int(rng.integers(3, 34))
        if rng.random() < 0.5:
            cards = rng.choice(81, k, replace=False).tolist()
        else:  # closed under a map of order 2 or 3 where it fits
            f = random_affine_map(4, rng).permutation()
            cards = []
            for x in rng.permutation(81).tolist():
                orbit = {x, int(f[x]), int(f[f[x]])}
                if len(cards) + len(orbit) <= k and not orbit & set(cards):
                    cards += sorted(orbit)
            cards = cards or [0, 1, 2]
        rows.append(sorted(cards))
    for cards in rows:
        image = sorted(int(c) for c in random_affine_map(4, rng)(cards))
        both = np.asarray([cards, image], dtype=np.int64)
        _, degree, _ = space.profile(both)
        keys, rigid = check.invariants(space, both, degree)
        assert keys[0] == keys[1]
        assert rigid[0] == rigid[1]
        if rigid[0]:
            assert space.stabiliser_order(cards) == 1
    symmetric = [c for c in rows if space.stabiliser_order(c) > 1]
    assert symmetric  # the test meets configurations the rigidity test must not pass


def test_the_p3_bundle_passes_the_checker(tmp_path):
    store = Store(tmp_path / "p3.sqlite")
    Solver(3, store).table()
    out = tmp_path / "p3"
    assert (
        main(["certify", "-p", "3", "--out", str(out), "--store", str(tmp_path / "p3.sqlite")]) == 0
    )
    manifest = json.loads((out / "manifest.json").read_text())
    assert len(manifest["values"]) == 56
    code, lines = run_checker(out)
    assert code == 0 and lines[-1] == "56 passed, 0 failed", failures(lines)
    value = json.loads((out / "values" / "M3-009.json").read_text())
    assert {"properties", "cards", "sense", "value", "witness", "proof"} <= set(value)
    assert value["value"] == 12 and value["proof"]["method"] == "exhaustive"
    edit_json(out / "values" / "M3-009.json", lambda d: d.update(value=11))  # 12 is the max
    code, lines = run_checker(out)
    assert code == 1 and [f.split()[1] for f in failures(lines)] == ["M_3(9)"]


@pytest.mark.parametrize("tamper", [None, "one more", "cites its own size", "a line"])
def test_the_largest_cap_of_ag33_rests_on_the_bundles_minimum(tmp_path, tamper):
    """The largest cap of AG(P,3), P <= 4, has no certificate of its own: its claim cites the
    bundle's m(s + 1) >= 1 (any s + 1 cards hold a set), checked with the values, and a witness
    of s cards holding no set. Without the table of minima there is no claim."""
    from setlab.extremal.caps import largest_cap

    alone = Store(tmp_path / "alone.sqlite")
    assert largest_cap(3, store=alone).proven
    with pytest.raises(SetlabError, match="holds no proven value"):  # no m(10): no claim
        write_bundle(alone, 3, tmp_path / "alone")
    store = Store(tmp_path / "p3.sqlite")
    Solver(3, store).table()
    largest_cap(3, store=store)
    out = write_bundle(store, 3, tmp_path / "bundle").directory
    path = out / "caps" / "largest-P3.json"
    claim = json.loads(path.read_text())
    assert claim["value"] == 9 and claim["proof"] == {"method": "minimum", "cards": 10}
    if tamper == "one more":  # a tenth card: the witness then holds a line
        claim["value"] = 10
        claim["witness"].append(next([a, b, c] for a in range(3) for b in range(3)
                                     for c in range(3) if [a, b, c] not in claim["witness"]))
        claim["proof"]["cards"] = 11  # fmt: skip
    elif tamper == "cites its own size":  # 8 cards, citing m(9) = 0: a 9-cap exists
        claim["value"], claim["witness"], claim["proof"]["cards"] = 8, claim["witness"][:8], 9
    elif tamper == "a line":
        claim["witness"][:3] = [[0, 0, 0], [0, 0, 1], [0, 0, 2]]
    if tamper:
        write_claim(out, "caps", "caps/largest-P3.json", claim)
    code, lines = run_checker(out)
    caps = [line for line in lines if "largest cap" in line]
    if tamper is None:
        assert code == 0 and caps == ["ok   largest cap of AG(3,3) = 9 (minimum)"], failures(lines)
    else:
        assert code == 1 and [f.split()[1:6] for f in failures(lines)] == [
            ["largest", "cap", "of", "AG(3,3)", "="]
        ]


def test_the_largest_caps_claim_asks_for_the_minimum_of_its_own_p(tmp_path):
    """m(s + 1) of P itself: a bundle of P also holds cited values of P - 1 (a slice program's
    m_{P-1}(k)), and one of those at the same n must not stand in for it."""
    from setlab import bundle
    from setlab.extremal.caps import largest_cap

    store = Store(tmp_path / "s.sqlite")
    largest_cap(3, store=store)
    for written, claims in (({(2, 10, "min")}, 0), ({(3, 10, "min")}, 1)):
        work = tmp_path / f"work{claims}"
        work.mkdir()
        assert len(bundle._write_caps(work, store, 3, written)) == claims


def test_a_p4_sample_bundle_passes_and_so_does_verify(p4_sample, sample_bundle):
    code, lines = run_checker(sample_bundle, workers=2)
    assert code == 0, failures(lines)
    methods = {json.loads(p.read_text())["proof"]["method"] for p in sample_bundle.glob("values/*")}
    assert methods == {"trivial", "deletion", "search", "complement"}
    assert lines[-1] == f"{len(list(sample_bundle.glob('values/*')))} passed, 0 failed"
    seen = []
    assert all(c.ok for c in verify_store(p4_sample, progress=lambda *done: seen.append(done)))
    results = p4_sample.results("maxsets") + p4_sample.results("minsets")
    assert seen == [(k, len(results)) for k in range(len(results) + 1)]  # one per value



def test_verify_on_two_worker_processes_gives_the_checks_of_one(p4_sample, tmp_path):
    """The results are checked in two processes reading the store's file: the same checks in
    the same order, a tampered witness still caught, and progress over every result."""
    path = copy_store(p4_sample, tmp_path / "tampered.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE results SET value=value+1 WHERE problem='minsets' AND cards=9")
    with Store(path) as store:
        seen = []
        pooled = verify_store(store, workers=2, progress=lambda *done: seen.append(done))
        alone = verify_store(store, workers=1)
    assert pooled == alone
    assert [(c.cards, c.what) for c in pooled if not c.ok][:1] == [(9, "witness")]
    total = len(store.results("maxsets")) + len(store.results("minsets"))
    assert seen[0] == (0, total) and seen[-1] == (total, total) and len(seen) == total + 1

@pytest.mark.parametrize("step", [1, -1])
def test_a_value_changed_by_one_fails(sample_bundle, step):
    edit_json(sample_bundle / "values" / "M4-012.json", lambda d: d.update(value=d["value"] + step))
    code, lines = run_checker(sample_bundle)
    assert code == 1 and "FAIL M_4(12)" in " ".join(failures(lines))


def test_a_replaced_witness_card_fails(sample_bundle):
    def replace(data):
        deck = [
            [a, b, c, d] for a in range(3) for b in range(3) for c in range(3) for d in range(3)
        ]
        data["witness"][-1] = next(card for card in deck if card not in data["witness"])

    edit_json(sample_bundle / "values" / "M4-011.json", replace)
    code, lines = run_checker(sample_bundle)
    assert code == 1 and "FAIL M_4(11)" in " ".join(failures(lines))


def test_a_representative_removed_from_a_search_level_fails(sample_bundle):
    value = json.loads((sample_bundle / "values" / "M4-012.json").read_text())
    levels = value["proof"]["certificate"]["levels"]
    k, path = next(
        (k, sample_bundle / p)
        for k, p in enumerate(levels, start=1)
        if len(json.loads((sample_bundle / p).read_text())["representatives"]) > 1
    )
    edit_json(path, lambda d: d["representatives"].pop())
    code, lines = run_checker(sample_bundle)
    failed = " ".join(failures(lines))
    assert code == 1 and "FAIL M_4(12)" in failed and f"level {k - 1} -> {k}" in failed


def test_an_equivalent_representative_added_to_a_level_fails(sample_bundle):
    """An affine image of a representative has the same cheap invariant: bliss's forms decide."""
    value = json.loads((sample_bundle / "values" / "M4-012.json").read_text())
    k, path = len(value["proof"]["certificate"]["levels"]), None
    for k, p in enumerate(value["proof"]["certificate"]["levels"], start=1):
        if k >= 6:
            path = sample_bundle / p
            break
    rep = json.loads(path.read_text())["representatives"][0]
    image = sorted(int(c) for c in random_affine_map(4, 5)(rep))
    edit_json(path, lambda d: d["representatives"].append(image))
    code, lines = run_checker(sample_bundle)
    failed = " ".join(failures(lines))
    assert code == 1 and "FAIL M_4(12)" in failed and "two equivalent representatives" in failed


def test_the_child_by_child_replay_passes_the_sample_and_fails_a_removed_representative(
    sample_bundle,
):
    done = subprocess.run(
        [sys.executable, str(sample_bundle / "check.py"), str(sample_bundle), "--replay"],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert done.returncode == 0 and done.stdout.splitlines()[-1].endswith(" 0 failed")
    value = json.loads((sample_bundle / "values" / "M4-011.json").read_text())
    path = sample_bundle / value["proof"]["certificate"]["levels"][6]
    edit_json(path, lambda d: d["representatives"].pop(0))
    done = subprocess.run(
        [sys.executable, str(sample_bundle / "check.py"), str(sample_bundle), "--replay"],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    failed = " ".join(failures(done.stdout.splitlines()))
    assert done.returncode == 1 and "FAIL M_4(11)" in failed and "(replay)" in failed


def test_a_citation_cycle_fails(sample_bundle):
    cycle = {"method": "deletion", "certificate": {},
             "cites": [{"properties": 4, "cards": 9, "sense": "max"}]}  # fmt: skip
    edit_json(sample_bundle / "values" / "M4-008.json", lambda d: d.update(proof=cycle))
    assert json.loads((sample_bundle / "values" / "M4-009.json").read_text())["proof"]["cites"]
    code, lines = run_checker(sample_bundle)
    failed = failures(lines)
    assert code == 1 and any("citation cycle" in f for f in failed)
    assert {f.split()[1] for f in failed} >= {"M_4(8)", "M_4(9)"}


def test_a_program_bound_without_certificate_fails_honestly(sample_bundle):
    program = {"method": "farkas", "program": "slice-ilp", "certificate": None, "cites": []}
    edit_json(sample_bundle / "values" / "M4-010.json", lambda d: d.update(proof=program))
    code, lines = run_checker(sample_bundle)
    assert code == 1 and any("M_4(10)" in f and "no certificate" in f for f in failures(lines))


# -- the same tampering of the store: setlab verify -------------------------------------------


def copy_store(store: Store, path: Path) -> Path:
    with sqlite3.connect(store.path) as source, sqlite3.connect(path) as target:
        source.backup(target)
    return path


def verify_fails(path: Path, capsys, name: str) -> None:
    assert main(["verify", "--store", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"P=4 n={name}" in out and "trusted:" in out


@pytest.mark.parametrize("step", [1, -1])
def test_verify_fails_a_value_changed_by_one(p4_sample, tmp_path, capsys, step):
    path = copy_store(p4_sample, tmp_path / "tampered.sqlite")
    with sqlite3.connect(path) as db:
        db.execute("UPDATE results SET value=value+?, bound=bound+? WHERE problem='maxsets' "
                   "AND properties=4 AND cards=12", (step, step))  # fmt: skip
    verify_fails(path, capsys, "12")


def test_verify_fails_a_replaced_witness_card(p4_sample, tmp_path, capsys):
    path = copy_store(p4_sample, tmp_path / "tampered.sqlite")
    witness = p4_sample.get("maxsets", 4, 11).witness
    spare = next(c for c in range(81) if c not in witness)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE results SET witness=? WHERE problem='maxsets' AND properties=4 AND "
                   "cards=11", (json.dumps([*witness[:-1], spare]),))  # fmt: skip
    verify_fails(path, capsys, "11")


def test_verify_fails_a_representative_removed_from_a_stored_level(p4_sample, tmp_path, capsys):
    path = copy_store(p4_sample, tmp_path / "tampered.sqlite")
    names = p4_sample.get("maxsets", 4, 12).proof["levels"]
    name = next(n for n in names if len(p4_sample.level(n)) > 1)
    level = np.asarray(p4_sample.level(name), dtype=np.uint16)[:-1]
    with sqlite3.connect(path) as db:
        db.execute("UPDATE levels SET count=?, data=? WHERE name=?",
                   (len(level), zlib.compress(level.tobytes()), name))  # fmt: skip
    verify_fails(path, capsys, "12")


def test_verify_checks_a_search_record_against_its_stored_levels(p4_sample, tmp_path):
    """A class count changed at an earlier level, or the last levels left out, passed while the
    record was checked only against itself; the stored levels now contradict both."""
    result = p4_sample.get("maxsets", 4, 12)
    for change in ("count", "levels"):
        proof = dict(result.proof)
        if change == "count":
            proof["classes"] = [c + (k == 5) for k, c in enumerate(proof["classes"])]
        else:
            proof["levels"] = proof["levels"][:-2]
        path = copy_store(p4_sample, tmp_path / f"{change}.sqlite")
        with sqlite3.connect(path) as db:
            db.execute("UPDATE results SET proof=? WHERE problem='maxsets' AND properties=4 AND "
                       "cards=12", (json.dumps(proof),))  # fmt: skip
        with Store(path) as store:
            bad = [c for c in verify_store(store) if not c.ok]
        assert [(c.cards, c.what) for c in bad] == [(12, "bound")], change
        assert "level" in bad[0].detail


def test_verify_rejects_a_citation_cycle(tmp_path):
    """Two records citing each other (a false M(31) = 120 once passed this way)."""
    store = Store(tmp_path / "cycle.sqlite")
    identity = 1080 - 31 * 50 // 2
    store.record_bound("maxsets", 4, 31, "max", 120,
                       {"method": "complement", "identity": identity, "min_bound": identity - 120},
                       "complement")  # fmt: skip
    store.record_bound("minsets", 4, 50, "min", identity - 120,
                       {"method": "complement", "identity": identity, "max_bound": 120},
                       "complement")  # fmt: skip
    check = check_citations(store.get("maxsets", 4, 31), store)
    assert not check.ok and check.detail == "citation cycle M_4(31) -> m_4(50) -> M_4(31)"
    assert not check_citations(store.get("minsets", 4, 50), store).ok


@pytest.mark.slow
def test_the_whole_p4_bundle(tmp_path):
    """Every proven value of the real deck: the checker passes them all (a program-proven value
    whose certificate the producer could not build would fail with "no certificate", and only
    such values and what cites them may fail)."""
    store = Store(tmp_path / "p4.sqlite")
    Solver(4, store).table()
    bundle = write_bundle(store, 4, tmp_path / "p4")
    code, lines = run_checker(bundle.directory, workers=2)
    failed = failures(lines)
    programs = {
        json.loads(p.read_text())["proof"]["method"] == "farkas"
        and json.loads(p.read_text())["proof"]["certificate"] is None
        for p in bundle.directory.glob("values/*")
    }
    if True not in programs:
        assert code == 0 and not failed, failed
    else:
        assert failed and all("no certificate" in line for line in failed), failed
    assert lines[-1].endswith(f"{len(failed)} failed")


def test_a_merged_search_record_brings_its_levels(p4_sample, tmp_path):
    target = Store(tmp_path / "merged.sqlite")
    target.merge(p4_sample, "maxsets", 4)
    checks = [c for c in verify_store(target, 4) if c.what == "bound" and c.cards == 12]
    assert checks[0].ok and "stored levels checked" in checks[0].detail


# -- the variants' structure-free boards ----------------------------------------------------------


def brute_largest_free(variant: str, properties: int) -> int:
    """The largest board with no structure, by testing every subset of every size (this file's
    own structure test: the sum of the structure's cards, or a + b = c + d for UltraSets)."""
    values = 4 if variant == "4set" else 3
    cards = list(itertools.product(range(values), repeat=properties))

    def add(x, y):
        if values == 4:
            return tuple(a ^ b for a, b in zip(x, y, strict=True))
        return tuple((a + b) % 3 for a, b in zip(x, y, strict=True))

    def holds(board):
        if variant == "ultra":
            return any(add(a, b) == add(c, d) for a, b, c, d in itertools.permutations(board, 4))
        size = 4 if variant == "4set" else 6
        zero = tuple([0] * properties)
        for subset in itertools.combinations(board, size):
            total = zero
            for x in subset:
                total = add(total, x)
            if total == zero:
                return True
        return False

    best = 0
    for k in range(1, len(cards) + 1):
        if not any(not holds(b) for b in itertools.combinations(cards, k)):
            break
        best = k
    return best


@pytest.mark.parametrize(
    ("variant", "properties"), [("ultra", 1), ("ultra", 2), ("4set", 1), ("ghost", 1), ("ghost", 2)]
)
def test_the_variant_checker_finds_free_boards_exactly_as_brute_force(variant, properties):
    module = load_variants_checker()
    largest = brute_largest_free(variant, properties)
    assert [module.exists_free_board(variant, properties, k) for k in range(1, largest + 2)] == [
        True
    ] * largest + [False]


def brute_most_ultrasets(properties: int) -> list[int]:
    """The most UltraSets among n cards of F_3^P for every n, over every subset (four cards
    a, b, c, d with a + b = c + d, counted once per 4-set)."""
    cards = list(itertools.product(range(3), repeat=properties))

    def add(x, y):
        return tuple((a + b) % 3 for a, b in zip(x, y, strict=True))

    def ultras(board):
        return sum(
            add(a, b) == add(c, d) or add(a, c) == add(b, d) or add(a, d) == add(b, c)
            for a, b, c, d in itertools.combinations(board, 4)
        )

    best = [0] * (len(cards) + 1)
    for mask in range(1 << len(cards)):
        board = [c for i, c in enumerate(cards) if mask >> i & 1]
        best[len(board)] = max(best[len(board)], ultras(board))
    return best


def test_the_checkers_ultraset_bounds_hold_against_every_subset_of_ag23():
    module = load_variants_checker()
    most = brute_most_ultrasets(2)
    assert most == [0, 0, 0, 0, 1, 3, 9, 15, 30, 54]
    for n in range(10):
        assert module.pair_sum_bound(2, n) >= most[n]
        for known in range(n):
            assert module.deletion_chain(known, most[known], n) >= most[n]
    assert module.pair_sum_bound(2, 9) == 54  # the whole plane meets it


def load_variants_checker():
    return standalone.load(CHECKER / "variants_check.py")


@pytest.fixture
def variants_bundle(tmp_path):
    from setlab.extremal.sidon import largest_structure_free
    from setlab.extremal.ultrasets import most_ultrasets_table

    store = Store(tmp_path / "p2.sqlite")
    Solver(2, store).table()
    for variant in ("ultra", "4set", "ghost"):
        assert largest_structure_free(variant, 2, store=store).proven
    most_ultrasets_table(2, store=store)
    return write_bundle(store, 2, tmp_path / "bundle")


def test_the_variants_claims_go_into_the_bundle_and_pass(variants_bundle):
    assert variants_bundle.variants == 3 + 10
    code, lines = run_checker(variants_bundle.directory)
    assert code == 0, failures(lines)
    assert {line for line in lines if "-free_" in line} == {
        "ok   UltraSet-free_2 = 4 (search)",  # AG(2,3): 4 cards, no a + b = c + d
        "ok   4Set-free_2 = 6 (search)",
        "ok   GhostSet-free_2 = 6 (search)",
    }
    most = [int(line.split()[3]) for line in lines if line.startswith("ok   U_2(")]
    assert most == brute_most_ultrasets(2)


def change_most(root: Path, n: int, change) -> None:
    path = root / "variants" / f"ultra-most-P2-n{n:03d}.json"
    claim = json.loads(path.read_text())
    change(claim, root)
    path.write_text(json.dumps(claim))
    manifest = json.loads((root / "manifest.json").read_text())
    for entry in manifest["variants"]:
        if entry["file"].endswith(path.name):
            entry["value"] = claim["value"]
    (root / "manifest.json").write_text(json.dumps(manifest))


@pytest.mark.parametrize("tamper", ["value", "class removed", "class repeated"])
def test_a_tampered_most_ultrasets_claim_fails(variants_bundle, tamper):
    root = variants_bundle.directory

    def edit(claim, root):
        if tamper == "value":  # U(5) = 3 claimed 4, with a witness of 5 cards holding 4 ...
            claim["value"] += 1  # ... which no 5 cards hold: the witness fails its count
            return
        path = root / claim["proof"]["classes"]
        level = json.loads(path.read_text())
        if tamper == "class removed":
            level["representatives"].pop()
        else:  # an equivalent copy: translate the first representative by card 1
            first = level["representatives"][0]
            level["representatives"].append(
                sorted((c // 3) * 3 + (c % 3 + 1) % 3 for c in first)
            )
        path.write_text(json.dumps(level))

    change_most(root, 5, edit)
    code, lines = run_checker(root)
    # the classes of 5 cards prove U(5) directly and U(4) through their complements
    expected = ["U_2(5)"] if tamper == "value" else ["U_2(4)", "U_2(5)"]
    assert code == 1 and [f.split()[1] for f in failures(lines)] == expected


@pytest.mark.parametrize("tamper", ["one more", "one fewer", "a structure"])
def test_a_tampered_structure_free_claim_fails(variants_bundle, tamper):
    root = variants_bundle.directory
    path = root / "variants" / "ultra-free-P2.json"
    claim = json.loads(path.read_text())
    if tamper == "one more":  # a fifth card: some a + b = c + d appears
        claim["value"] += 1
        claim["witness"].append(next(c for c in range(9) if c not in claim["witness"]))
    elif tamper == "one fewer":  # a true board, but 3 is not the largest
        claim["value"] -= 1
        claim["witness"].pop()
    else:
        claim["witness"] = [0, 1, 3, 4]  # 0 + 4 = 1 + 3
    write_claim(root, "variants", "variants/ultra-free-P2.json", claim)
    code, lines = run_checker(root)
    assert code == 1 and [f.split()[1] for f in failures(lines)] == ["UltraSet-free_2"]


def write_claim(root: Path, section: str, file: str, claim: dict) -> None:
    """Put a changed ``claim`` into the bundle at ``root``, its value in the manifest's
    ``section`` too (so the file and the manifest agree, and only the claim's proof can fail)."""
    (root / file).write_text(json.dumps(claim))
    manifest = json.loads((root / "manifest.json").read_text())
    for entry in manifest[section]:
        if entry["file"] == file:
            entry["value"] = claim["value"]
    (root / "manifest.json").write_text(json.dumps(manifest))


def test_verify_rerun_replays_the_levels_and_repeats_the_search(tmp_path, capsys):
    """``verify --rerun`` on a search-proven value: every child of every stored level is found
    in the next stored level, and the repeated search has the recorded level hashes (the replay
    once fed bare card lists to the extension step and stopped with a traceback)."""
    path = tmp_path / "rerun.sqlite"
    with Store(path) as store:
        Solver(4, store, workers=1).max(6)  # M(6) = 3, proven by search
        bound = next(c for c in verify_store(store, 4, rerun=True) if c.what == "bound")
    assert bound.ok and "closure replayed" in bound.detail and "search repeated" in bound.detail
    assert main(["verify", "-p", "4", "--rerun", "--store", str(path)]) == 0
    assert "checks passed" in capsys.readouterr().out


@pytest.fixture
def valued_caps_bundle(tmp_path):
    """A store holding only the largest caps of decks of V != 3 values with P = 2 (no table of
    maxima): the bundle is written all the same, one claim per deck."""
    from setlab.extremal.caps import largest_cap

    store = Store(tmp_path / "valued.sqlite")
    for values in (2, 4, 5):
        assert largest_cap(2, values, store=store).proven
    return write_bundle(store, 2, tmp_path / "bundle")


def test_the_largest_caps_of_valued_decks_go_into_the_bundle_and_pass(valued_caps_bundle):
    assert (valued_caps_bundle.values, valued_caps_bundle.caps) == (0, 3)
    code, lines = run_checker(valued_caps_bundle.directory)
    assert code == 0, failures(lines)
    # V = 2: no three distinct cards are all different anywhere, so the whole deck; V >= 4: at
    # most two cards a row and a column, and no three in distinct rows and columns (docs/caps.md)
    assert sorted(line for line in lines if "largest cap" in line) == [
        "ok   largest cap of the 2^2 deck = 4 (search)",
        "ok   largest cap of the 4^2 deck = 4 (search)",
        "ok   largest cap of the 5^2 deck = 4 (search)",
    ]


@pytest.mark.parametrize("tamper", ["one more", "one fewer", "a set"])
def test_a_tampered_valued_cap_claim_fails(valued_caps_bundle, tamper):
    root = valued_caps_bundle.directory
    path = root / "caps" / "largest-P2-V5.json"
    claim = json.loads(path.read_text())
    if tamper == "one more":  # a fifth card: it makes a set with two of the four
        claim["value"] += 1
        claim["witness"].append(next([a, b] for a in range(5) for b in range(5)
                                     if [a, b] not in claim["witness"]))  # fmt: skip
    elif tamper == "one fewer":  # a true cap of 3, but not the largest
        claim["value"] -= 1
        claim["witness"].pop()
    else:  # 00, 11, 22: all different in both properties
        claim["witness"][:3] = [[0, 0], [1, 1], [2, 2]]
    write_claim(root, "caps", "caps/largest-P2-V5.json", claim)
    code, lines = run_checker(root)
    assert code == 1 and [" ".join(f.split()[1:7]) for f in failures(lines)] == [
        "largest cap of the 5^2 deck"
    ]


@pytest.mark.parametrize(
    ("properties", "values", "size"), [(1, 7, 2), (2, 16, 4), (3, 4, 12), (5, 2, 32)]
)
def test_the_valued_cap_checker_accepts_the_true_sizes_and_refuses_one_less(
    properties, values, size
):
    """The claims setlab makes (docs/caps.md), each with setlab's witness: passed; the same
    witness less a card, claimed as the largest: refused with a cap one card larger."""
    from setlab.extremal.caps import card_words, largest_cap

    module = standalone.load(CHECKER / "valued_caps_check.py")
    found = largest_cap(properties, values)
    words = card_words(found.witness, properties, values)
    claim = {"kind": "valued cap", "properties": properties, "values": values,
             "value": size, "witness": words}  # fmt: skip
    assert found.size == size and module.check_valued_cap(claim) == []
    smaller = dict(claim, value=size - 1, witness=words[:-1])
    errors = module.check_valued_cap(smaller)
    assert len(errors) == 1 and errors[0].startswith(f"a cap of {size} cards exists")


def test_certify_says_what_a_bundle_of_caps_alone_holds(tmp_path, capsys):
    from setlab.extremal.caps import largest_cap

    store = tmp_path / "caps.sqlite"
    largest_cap(2, 4, store=Store(store))
    assert main(["certify", "-p", "2", "--store", str(store), "--out", str(tmp_path / "b")]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith("1 largest cap, ") and "values" not in first, first


@pytest.fixture(scope="module")
def split_bundle(tmp_path_factory):
    """A P = 4 bundle whose M(10..13) are proven by the big-slice split, all four listing the
    split maximum S(4, 4, 2) of AG(2,3) (bounded by brute force here), citing the proven
    maxima of AG(3,3) and AG(2,3); each witness from a search in another store."""
    from setlab.extremal.split import prove_split_bound
    from test_splitmax import exact_split_maxima

    root = tmp_path_factory.mktemp("split")
    store, scratch = Store(root / "store.sqlite"), Store(":memory:")
    Solver(2, store).table()
    Solver(3, store).table()
    plane, space = Solver(2, store).known_max(2), Solver(3, store).known_max(3)
    exact = int(exact_split_maxima(2)[4, 4, 2])
    for n in range(10, 14):
        Solver(4, scratch, workers=1).max(n)
        found = scratch.get("maxsets", 4, n)
        store.record_witness("maxsets", 4, n, "max", found.value, found.witness, "search")
        record = prove_split_bound(4, n, found.value + 1, space, plane)
        record["split_maxima"] = [[4, 4, 2, exact]]
        store.record_bound("maxsets", 4, n, "max", found.value,
                           {"method": "split", "record": record}, "split")  # fmt: skip
    directory = write_bundle(store, 4, root / "bundle").directory
    store.close()
    return directory


def test_split_values_checked_side_by_side_say_what_one_process_says(split_bundle, tmp_path):
    """The pool checks the split values (and their split maxima, once) ahead of the walk: the
    verdicts are those of one process, line for line, whole and tampered."""

    def outcome(bundle, workers, done=None):
        code, lines = done or run_checker(bundle, workers=workers)
        return code, [line for line in lines if not line.startswith("checking the ")]

    def tamper(name, change):
        bundle = tmp_path / name
        shutil.copytree(split_bundle, bundle)
        for path in (bundle / "values").glob("*.json"):
            data = json.loads(path.read_text())
            if change(data):
                path.write_text(json.dumps(data))
        return bundle

    code, lines = run_checker(split_bundle, workers=2)
    assert code == 0 and lines[0] == "checking the 4 split values and their 1 split maxima " \
        "side by side on 2 workers", lines[0]
    splits = [line for line in lines if line.endswith("(split)")]
    assert [line.split()[1] for line in splits] == [f"M_4({n})" for n in range(10, 14)]
    assert outcome(split_bundle, 1) == outcome(split_bundle, 2, (code, lines))

    def lower_split_maximum(data):  # S(4, 4, 2) one below its true value, in M(12) alone
        if data["cards"] != 12 or data["properties"] != 4:
            return False
        entry = data["proof"]["certificate"]["split_maxima"][0]
        entry["bound"] -= 1
        return True

    def raise_cited(data):  # M_3(9) claimed one higher than its witness: it fails, so do its users
        if (data["properties"], data["cards"], data["sense"]) != (3, 9, "max"):
            return False
        data["value"] += 1
        return True

    for name, change, failing in (
        ("low", lower_split_maximum, ["M_4(12)"]),
        ("cited", raise_cited, ["M_3(9)", "M_4(10)", "M_4(11)", "M_4(12)", "M_4(13)"]),
    ):
        bundle = tamper(name, change)
        one, two = outcome(bundle, 1), outcome(bundle, 2)
        assert one == two and one[0] == 1
        assert sorted(line.split()[1] for line in failures(one[1])) == failing, one[1]


def test_the_walk_takes_the_split_verdicts_reached_ahead(split_bundle):
    """After split_ahead, the walk checks no split value itself: each verdict it gives is the
    pool's, reached on the citations it has checked."""
    checker = standalone.load(split_bundle / "check.py", "bundle_check_ahead")
    bundle, run = checker.Bundle(split_bundle), checker.Runner(2)
    try:
        assert run.split_ahead(bundle) == 4
        split_check = checker.sibling("split_check")
        real = split_check.check_split
        split_check.check_split = lambda *args: ["checked again"]
        try:
            for key in sorted(bundle.values):
                assert checker.check_value(bundle, key, run) == [], key
        finally:
            split_check.check_split = real
    finally:
        run.close()
    assert len(run.splits) == 4 and all(errors == [] for errors in run.splits.values())
