"""The recorded AG(5,3) max witnesses: re-counted here by a plain loop over pairs of cards,
independent of setlab's kernels, and taken up by the solver as witnesses."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest

import standalone
from setlab.bundle import split_certificate
from setlab.certificates import check_bound
from setlab.errors import SetlabError
from setlab.extremal import maxsets as maxsets_module
from setlab.extremal.maxsets import Solver, recorded_witnesses
from setlab.store import Store

# loaded from its file, as the proof bundle runs it
split_check = standalone.load(standalone.ROOT / "src" / "setlab" / "proofcheck" / "split_check.py")

# Best values setlab had before these witnesses (its constructions and annealed minima).
BEFORE = {155: 2741, 156: 2784, 157: 2828, 158: 2873, 159: 2919, 160: 2966, 161: 3014,
          162: 3063, 181: 4148, 182: 4211, 183: 4275, 184: 4340, 197: 5264}  # fmt: skip
# Proven upper bounds of the slice programs (docs/maxsets.md): no witness may pass them.
UPPER = {155: 2776, 156: 2824, 157: 2873, 158: 2924, 159: 2974, 160: 3028, 161: 3084,
         162: 3135, 181: 4171, 182: 4233, 183: 4295, 184: 4358, 197: 5270}  # fmt: skip


def digits(card: int) -> tuple[int, ...]:
    return tuple((card // 3**k) % 3 for k in range(4, -1, -1))


def plain_count(cards: list[int]) -> int:
    """Sets among ``cards`` of AG(5,3): every pair i < j, its third card digit by digit."""
    members = {digits(c) for c in cards}
    points = sorted(members)
    count = 0
    for i, x in enumerate(points):
        for y in points[i + 1 :]:
            z = tuple((-a - b) % 3 for a, b in zip(x, y, strict=True))
            if z in members and z > y:
                count += 1
    return count


def test_every_recorded_witness_recounts_and_beats_the_earlier_best():
    data = json.loads((resources.files("setlab") / "data" / "p5_witnesses.json").read_text())
    assert data["properties"] == 5 and data["sense"] == "max"
    assert {int(n) for n in data["witnesses"]} == set(BEFORE)
    for n, entry in data["witnesses"].items():
        cards = entry["cards"]
        assert len(set(cards)) == len(cards) == int(n)
        assert all(0 <= c < 243 for c in cards)
        sets = plain_count(cards)
        assert sets == entry["sets"]
        assert BEFORE[int(n)] < sets <= UPPER[int(n)]
    assert {n: len(w) for n, w in recorded_witnesses(5).items()} == {n: n for n in BEFORE}


def test_a_witness_that_does_not_recount_is_refused(tmp_path, monkeypatch):
    data = json.loads((resources.files("setlab") / "data" / "p5_witnesses.json").read_text())
    data["witnesses"]["162"]["sets"] += 1
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "p5_witnesses.json").write_text(json.dumps(data))

    class Files:
        @staticmethod
        def files(package: str) -> Path:
            return tmp_path

    monkeypatch.setattr(maxsets_module, "resources", Files)
    recorded_witnesses.cache_clear()
    try:
        with pytest.raises(SetlabError, match="n = 162"):
            recorded_witnesses(5)
    finally:
        recorded_witnesses.cache_clear()


@pytest.mark.slow
def test_the_solver_takes_up_the_recorded_witness(tmp_path):
    solver = Solver(5, Store(tmp_path / "p5.sqlite"))
    value = solver.max(160)  # solves the P = 4 table first
    assert value.value == 3017 and value.witness_method == "recorded witness"
    assert not value.proven and value.value < value.bound <= UPPER[160]  # open: both bounds
    # the split (through its middle case) meets the recorded witness at 161, and then the
    # deletion bound from M(161) = 3074 meets it at 162
    for n, sets, method in ((161, 3074, "split"), (162, 3132, "deletion")):
        value = solver.max(n)
        assert value.value == sets and value.witness_method == "recorded witness"
        assert value.proven and value.method == method
        assert check_bound(solver.store.get("maxsets", 5, n), solver.store).ok
    # M(161) <= 3074 once more by the bundle's standalone checker, which shares no code with the
    # split: it redoes the pencils and the middle case itself; one set fewer is refused
    certificate = split_certificate(solver.store.get("maxsets", 5, 161))
    cited = {(p, k, "max"): v for p in (3, 4) for k, v in solver.known_max(p).items()}
    assert split_check.check_split(5, 161, 3074, certificate, cited) == []
    assert split_check.check_split(5, 161, 3073, certificate, cited)
