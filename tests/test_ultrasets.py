"""The most UltraSets among n cards: the class walk against brute force on small decks."""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

from setlab.cli import main
from setlab.extremal.ultrasets import (
    complement_count,
    deletion_bound,
    most_ultrasets,
    most_ultrasets_table,
    pair_sum_bound,
)
from setlab.store import Store
from setlab.variants import count_structures, count_structures_batch
from variant_oracles import brute_force


def ultras(cards, properties):
    """UltraSets by testing every four cards digit by digit (the oracle shares no code)."""
    return len(brute_force(list(cards), "ultra", properties))


def sets(cards, properties):
    """Sets (lines) by testing every three cards digit by digit."""
    return len(brute_force(list(cards), "set", properties))


@pytest.fixture(scope="module")
def plane_by_enumeration():
    best = [0] * 10
    for n in range(10):
        for s in itertools.combinations(range(9), n):
            best[n] = max(best[n], ultras(s, 2))
    return best


def test_the_plane_table_is_every_subset_s_maximum(plane_by_enumeration):
    table = most_ultrasets_table(2)
    assert [v.lower for v in table] == plane_by_enumeration
    assert all(v.proven for v in table)
    for v in table:
        assert len(set(v.witness)) == v.cards and ultras(v.witness, 2) == v.lower
        assert v.upper <= pair_sum_bound(2, v.cards)


def test_ag33_values_beat_random_subsets_and_their_witnesses_hold():
    table = most_ultrasets_table(3)
    assert table[9].lower == table[10].lower == 9 * 6  # a plane; an extra card adds nothing
    assert table[27].lower == 27 * 13 * 12 // 2
    rng = random.Random(5)
    for n in range(4, 28):
        v = table[n]
        count = ultras(v.witness, 3) if n <= 14 else count_structures(v.witness, "ultra", 3)
        assert len(set(v.witness)) == n and count == v.lower
        assert pair_sum_bound(3, n) >= v.lower
        samples = np.array([rng.sample(range(27), n) for _ in range(300)], dtype=np.int64)
        assert count_structures_batch(samples, "ultra", 3).max() <= v.lower
    # one-card deletions of the best (n + 1)-collection: none beats the best n-collection
    for n in range(4, 27):
        w = table[n + 1].witness
        deletions = np.array([[c for c in w if c != x] for x in w], dtype=np.int64)
        assert count_structures_batch(deletions, "ultra", 3).max() <= table[n].lower


@pytest.mark.parametrize("properties", [2, 3])
def test_the_complement_identity_by_brute_force(properties):
    n = 3**properties
    rng = random.Random(properties)
    for _ in range(30):
        t = rng.sample(range(n), rng.randrange(0, 9))
        rest = [c for c in range(n) if c not in t]
        assert complement_count(properties, len(t), sets(t, properties), ultras(t, properties)) \
            == ultras(rest, properties)  # fmt: skip


def test_the_pair_sum_bound_is_attained_by_flats_and_holds_on_random_collections():
    for p in (2, 3, 4):
        for k in range(min(p, 3) + 1):
            size = 3**k
            assert pair_sum_bound(p, size) >= ultras(range(size), p)
            if k >= 1:
                assert pair_sum_bound(p, size) == ultras(range(size), p) or size == 3
    rng = random.Random(1)
    for _ in range(30):
        n = rng.randrange(4, 16)
        assert ultras(rng.sample(range(81), n), 4) <= pair_sum_bound(4, n)


def test_the_deletion_bound_holds_on_the_plane(plane_by_enumeration):
    best = plane_by_enumeration
    for k in range(4, 9):
        for n in range(k + 1, 10):
            assert deletion_bound(k, best[k], n) >= best[n]


def test_beyond_the_classes_an_honest_interval_is_stored(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        v = most_ultrasets(3, 14, store=store, reach=8, iterations=20_000)
        assert v.lower <= v.upper and ultras(v.witness, 3) == v.lower
        assert v.upper <= deletion_bound(8, most_ultrasets(3, 8).lower, 14)
        assert v.upper >= most_ultrasets_table(3)[14].lower  # the bound is a true bound
        stored = store.get("maxstructures", 3, 14, {"variant": "ultra"})
        assert (stored.value, stored.bound) == (v.lower, v.upper)
        again = most_ultrasets(3, 8, store=store)
        assert again.proven and most_ultrasets(3, 8, store=store).stored_at is not None


def test_the_maxsets_command(capsys, tmp_path):
    store = str(tmp_path / "s.sqlite")
    assert main(["maxsets", "--variant", "ultra", "-p", "2", "-n", "7", "--json",
                 "--store", store]) == 0  # fmt: skip
    got = json.loads(capsys.readouterr().out)
    assert got["variant"] == "ultra" and (got["lower"], got["upper"]) == (15, 15)
    assert main(["maxsets", "--variant", "ultra", "-p", "2", "--table", "--json",
                 "--store", store]) == 0  # fmt: skip
    rows = json.loads(capsys.readouterr().out)["rows"]
    # every n-subset of the 9 cards tried, digit by digit: 54 UltraSets on the whole plane
    brute = [max(len(brute_force(s, "ultra", 2)) for s in itertools.combinations(range(9), n))
             for n in range(10)]  # fmt: skip
    assert [(r["max"]["lower"], r["max"]["upper"]) for r in rows] == [(b, b) for b in brute]
    for argv in (["-p", "4", "--table"], ["-p", "2", "-n", "10"], ["-p", "2", "-n", "3",
                 "--search-up-to", "3"]):  # fmt: skip
        assert main(["maxsets", "--variant", "ultra", *argv, "--store", store]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and err.startswith("error: ")
