"""Largest boards with no UltraSet / no 4Set: the Sidon search against exhaustive enumeration."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from setlab.cli import main
from setlab.extremal.sidon import largest_structure_free, pair_count_bound
from setlab.store import Store
from setlab.variants import count_structures_batch
from variant_oracles import brute_force


def largest_free_by_enumeration(name, properties, values):
    """The largest subset of the deck with no structure, by the brute-force oracle (subsets of
    a structure-free board are structure-free, so the first size with none ends the walk)."""
    n = values**properties
    for size in range(1, n + 1):
        if all(
            brute_force(list(s), name, properties) for s in itertools.combinations(range(n), size)
        ):
            return size - 1
    return n


@pytest.mark.parametrize(
    ("name", "properties", "values"),
    [("ultra", 1, 3), ("ultra", 2, 3), ("4set", 1, 4), ("4set", 2, 4), ("ghost", 1, 3),
     ("ghost", 2, 3)],
)
def test_small_decks_agree_with_enumeration(name, properties, values):
    result = largest_structure_free(name, properties)
    assert result.proven
    assert result.lower == largest_free_by_enumeration(name, properties, values)
    assert brute_force(result.witness, name, properties) == []


def test_any_seven_cards_of_ag33_hold_an_ultraset():
    result = largest_structure_free("ultra", 3)
    assert (result.lower, result.proven) == (6, True)
    sevens = np.array(list(itertools.combinations(range(27), 7)), dtype=np.int64)
    assert count_structures_batch(sevens, "ultra", 3).min() > 0
    sixes = np.array(list(itertools.combinations(range(27), 6)), dtype=np.int64)
    assert count_structures_batch(sixes, "ultra", 3).min() == 0


def test_any_ten_cards_hold_an_ultraset():
    result = largest_structure_free("ultra", 4)
    assert (result.lower, result.upper, result.proven) == (9, 9, True)
    assert brute_force(result.witness, "ultra", 4) == []
    assert result.upper <= pair_count_bound("ultra", 4)


def test_unfinished_search_prints_bounds_not_a_value():
    result = largest_structure_free("4set", 4, node_limit=1000)
    assert not result.proven and result.upper == pair_count_bound("4set", 4) == 23
    assert brute_force(result.witness, "4set", 4) == [] and result.lower < result.upper


def test_results_are_stored_and_the_command_reads_them(capsys, tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        largest_structure_free("4set", 3, store=store)
        stored = store.get("maxfree", 3, 0, {"variant": "4set"})
        assert stored.proven and stored.value == 9
    assert main(["caps", "--variant", "ultra", "-p", "3", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["variant"] == "ultra" and got["size"] == 6 and got["proven"] is True
    assert len(got["witness"]) == 6
    assert main(["caps", "--variant", "ghost", "-p", "7"]) == 2
    assert main(["caps", "--variant", "ultra", "count"]) == 2


def test_ghostset_free_boards_of_ag33():
    """Nine cards with no GhostSet, by the digit-by-digit oracle; no ten of AG(3,3) (every
    ten-card board, by the batch finder, itself checked against the oracle in test_variants)."""
    result = largest_structure_free("ghost", 3)
    assert (result.lower, result.proven) == (9, True)
    assert brute_force(result.witness, "ghost", 3) == []
    assert result.upper <= pair_count_bound("ghost", 3)


@pytest.mark.slow
def test_no_ten_cards_of_ag33_are_ghostset_free():
    tens = itertools.combinations(range(27), 10)
    while block := list(itertools.islice(tens, 200_000)):
        assert count_structures_batch(np.array(block), "ghost", 3).min() > 0


def test_ghostset_free_bounds_of_ag43_are_honest(capsys):
    result = largest_structure_free("ghost", 4, node_limit=20_000)
    assert brute_force(result.witness, "ghost", 4) == []
    assert result.lower <= result.upper == pair_count_bound("ghost", 4) == 18
    assert main(["caps", "--variant", "ghost", "-p", "2", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["variant"], got["size"], got["proven"]) == ("ghost", 6, True)


def test_the_ghost_pair_bound_by_brute_force():
    """Three disjoint pairs with one sum make a GhostSet: so a sum is shared by two pairs at
    most on a GhostSet-free board (random boards of AG(3,3), the oracle deciding)."""
    import random

    rng = random.Random(2)
    for _ in range(200):
        board = rng.sample(range(27), rng.randrange(6, 10))
        words = [[(c // 3**k) % 3 for k in range(3)] for c in board]
        counts = {}
        for i, j in itertools.combinations(range(len(board)), 2):
            key = tuple((a + b) % 3 for a, b in zip(words[i], words[j], strict=True))
            counts[key] = counts.get(key, 0) + 1
        if max(counts.values()) >= 3:
            assert brute_force(board, "ghost", 3) != []


@pytest.mark.slow
def test_any_thirteen_cards_hold_a_ghostset():
    """The exhaustive search of AG(4,3) finishes (about 10 minutes on two loaded cores)."""
    result = largest_structure_free("ghost", 4, node_limit=3 * 10**8)
    assert (result.lower, result.upper, result.searched_out) == (12, 12, True)
    assert not result.proven  # no certificate a separate checker re-checks (CERTIFIED_FREE)
    assert brute_force(result.witness, "ghost", 4) == []


GHOST_FREE_12 = ["0000", "0001", "0002", "0010", "0011", "0100", "0101", "1000", "1001", "1122",
                 "1212", "2112"]  # fmt: skip
"""Twelve cards of AG(4,3) with no GhostSet (a witness setlab's search found)."""


def test_a_value_only_setlab_search_closes_is_shown_as_two_bounds(capsys, tmp_path):
    """GhostSet P = 4: the long search's 12 = 12 stays out of the proof bundle, so the command
    shows both bounds and says why, never "proven" (the rule for every proven value)."""
    cards = [int(word, 3) for word in GHOST_FREE_12]
    assert brute_force(cards, "ghost", 4) == []
    store_path = tmp_path / "s.sqlite"
    with Store(store_path) as store:  # what the slow test's search records
        store.record_witness("maxfree", 4, 0, "max", 12, cards, "search", {"variant": "ghost"})
        store.record_bound("maxfree", 4, 0, "max", 12, {"method": "exhaustive search"},
                           "exhaustive search", {"variant": "ghost"})  # fmt: skip
        found = largest_structure_free("ghost", 4, store=store)
    assert found.searched_out and not found.proven
    assert main(["caps", "--variant", "ghost", "--store", str(store_path)]) == 0
    out = capsys.readouterr().out
    assert "between 12 and 12 cards" in out and "not proven" in out and "proven (" not in out
    assert main(["caps", "--variant", "ghost", "--store", str(store_path), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert (got["lower"], got["upper"], got["proven"], got["size"]) == (12, 12, False, None)
    # and the proof bundle of P = 4 leaves it out
    assert main(["caps", "--variant", "ultra", "--store", str(store_path)]) == 0
    capsys.readouterr()
    assert main(["certify", "-p", "4", "--store", str(store_path),
                 "--out", str(tmp_path / "bundle")]) == 0  # fmt: skip
    manifest = json.loads((tmp_path / "bundle" / "manifest.json").read_text())
    assert [(v["variant"], v["value"]) for v in manifest["variants"]] == [("ultra", 9)]
