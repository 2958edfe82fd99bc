"""CMM and local search: brute-force recounts, the seed paper's statements, store and CLI."""

from __future__ import annotations

import itertools
import json
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setlab.cli import main
from setlab.extremal.heuristics import cmm, counting_bound, local_search, record_search
from setlab.geometry import digits, indices_of
from setlab.store import Store

# Table 3 of Stevens & Wilson (2025): the maximum number of sets among n cards of AG(3,3).
TABLE_3 = {
    3: 1, 4: 1, 5: 2, 6: 3, 7: 5, 8: 8, 9: 12, 10: 12, 11: 13, 12: 14, 13: 16, 14: 19, 15: 23,
    16: 26, 17: 30, 18: 36, 19: 41, 20: 47, 21: 54, 22: 62, 23: 71, 24: 81, 25: 92, 26: 104,
    27: 117,
}  # fmt: skip


def brute_force_sets(cards: list[int], properties: int) -> int:
    """Sets among ``cards``: every triple, tested digit by digit (x + y + z = 0 mod 3)."""
    vectors = digits(properties).astype(int)[cards]
    return sum(
        1
        for a, b, c in itertools.combinations(range(len(cards)), 3)
        if not ((vectors[a] + vectors[b] + vectors[c]) % 3).any()
    )


def prefix_sets_brute_force(order: np.ndarray, properties: int) -> list[int]:
    """Sets among the first n cards of ``order`` for every n, by one plain triple loop."""
    vectors = digits(properties).astype(int)[order]
    closes = [0] * (len(order) + 1)  # closes[n]: sets whose last card is the n-th
    for a, b, c in itertools.combinations(range(len(order)), 3):
        if not ((vectors[a] + vectors[b] + vectors[c]) % 3).any():
            closes[c + 1] += 1
    return list(itertools.accumulate(closes))


@pytest.mark.parametrize("properties", [2, 3, 4])
def test_cmm_is_nested_and_its_counts_are_right(properties: int) -> None:
    result = cmm(properties)
    assert sorted(result.order.tolist()) == list(range(3**properties))  # one card per turn
    assert result.sets.tolist() == prefix_sets_brute_force(result.order, properties)
    for n in (1, 5, 3**properties):
        assert result.witness(n) == result.order[:n].tolist()


def test_cmm_follows_the_pseudocode_opening() -> None:
    # cubes[1] and cubes[2] give 0000 and 0100, the third card completes the set, and turn 4
    # takes the first card of the first cube without a selected card (cube 10xx).
    opening = indices_of(np.array([[0, 0, 0, 0], [0, 1, 0, 0], [0, 2, 0, 0], [1, 0, 0, 0]]))
    assert cmm(4).order[:4].tolist() == opening.tolist()


@pytest.mark.parametrize("properties", [3, 4, 5])
def test_cmm_gives_the_papers_35_sets_for_18_cards(properties: int) -> None:
    assert cmm(properties).sets[18] == 35


def test_cmm_meets_table_3_except_at_18_cards() -> None:
    sets = cmm(3).sets
    misses = {n: (int(sets[n]), best) for n, best in TABLE_3.items() if sets[n] != best}
    assert misses == {18: (35, 36)}


def test_local_search_beats_cmm_at_18_cards() -> None:
    for properties in (3, 4):
        result = local_search(properties, 18, restarts=3, seconds=None, seed=0)
        assert result.sets == 36 == brute_force_sets(result.witness, properties)


@pytest.mark.parametrize("cards", [12, 16, 18, 20, 23])
def test_local_search_reaches_table_3(cards: int) -> None:
    result = local_search(3, cards, restarts=20, seconds=None, seed=1, target=TABLE_3[cards])
    assert result.sets == TABLE_3[cards]


@pytest.mark.parametrize("cards", [9, 10, 12, 14, 17])
def test_minimising_search_reaches_the_complements_of_table_3(cards: int) -> None:
    # A line meets S in 0..3 cards; counting pairs and incidences gives, for the complement,
    # sets(deck - S) = lines - |S|(N-1)/2 + C(|S|,2) - sets(S). So Table 3 at 27 - n is the
    # minimum at n, and the minimising search starts from random cards only.
    n = 27 - cards
    fewest = 117 - n * 26 // 2 + comb(n, 2) - TABLE_3[n]
    result = local_search(3, cards, "min", restarts=30, seconds=None, seed=2, target=fewest)
    assert result.sets == fewest == brute_force_sets(result.witness, 3)


@settings(max_examples=25, deadline=None)
@given(
    properties=st.integers(2, 4),
    fraction=st.floats(0, 1),
    sense=st.sampled_from(["max", "min"]),
    seed=st.integers(0, 2**32),
)
def test_local_search_reports_the_sets_its_witness_has(
    properties: int, fraction: float, sense: str, seed: int
) -> None:
    cards = round(fraction * 3**properties)
    result = local_search(
        properties, cards, sense, restarts=2, seconds=None, seed=seed, iterations=3000
    )
    assert len(set(result.witness)) == len(result.witness) == cards
    assert result.sets == brute_force_sets(result.witness, properties)


def brute_force_maxima(properties: int, largest: int) -> list[int]:
    """The most sets among n cards of AG(P,3) for n = 0..largest, over every n-subset."""
    deck = range(3**properties)
    return [
        max(brute_force_sets(list(c), properties) for c in itertools.combinations(deck, n))
        for n in range(largest + 1)
    ]


def test_counting_bound_holds_and_is_met_where_caps_exist() -> None:
    # Never below the true maximum: every subset of AG(2,3), and of AG(3,3) up to 5 cards.
    for properties, largest in ((2, 9), (3, 5)):
        for n, best in enumerate(brute_force_maxima(properties, largest)):
            assert best <= counting_bound(properties, n, "max")
    # Caps of AG(3,3) have up to 9 cards, so the bound is the maximum for n >= 18 cards.
    assert all(counting_bound(3, n, "max") == TABLE_3[n] for n in range(18, 28))
    assert all(counting_bound(3, n, "max") >= TABLE_3[n] for n in range(3, 18))


def test_counting_bound_uses_the_degree_inequality_not_pairs_alone() -> None:
    # A card lies on at most floor((n-1)/2) sets, so n cards hold at most n floor((n-1)/2)/3:
    # with 4 cards 1 set (not C(4,2)/3 = 2), with 8 cards 8 (not 9), and both are attained
    # (Table 3, and brute force of AG(2,3)); the weaker C(n,2)/3 would miss these maxima.
    maxima_2 = brute_force_maxima(2, 9)
    for n in (3, 4, 8, 9):
        assert counting_bound(2, n, "max") == maxima_2[n] == TABLE_3[n]
        assert counting_bound(3, n, "max") == counting_bound(4, n, "max") == TABLE_3[n]
    assert all(TABLE_3[n] < comb(n, 2) // 3 for n in (4, 8))
    assert [counting_bound(3, n, "max") for n in (6, 10, 12)] == [4, 13, 20]


def test_fixed_seeds_reproduce() -> None:
    runs = [local_search(4, 30, "min", restarts=3, seconds=None, seed=7) for _ in range(2)]
    assert runs[0].witness == runs[1].witness and runs[0].sets == runs[1].sets


def test_search_witness_goes_to_the_store() -> None:
    store = Store(":memory:")
    result = local_search(3, 18, restarts=3, seconds=None, seed=0)
    assert record_search(store, result)
    stored = store.get("maxsets", 3, 18)
    assert stored.value == 36 and sorted(stored.witness) == sorted(result.witness)
    assert (
        stored.witness_method
        == result.method
        == f"local-search(seed=0, restarts={result.restarts})"
    )


def test_cli_cmm_json_and_store(tmp_path, capsys) -> None:
    path = tmp_path / "results.sqlite"
    assert main(["heuristic", "cmm", "--properties", "3", "--json", "--store", str(path)]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert [row["cards"] for row in rows] == list(range(1, 28))
    assert rows[17]["value"] == rows[17]["lower"] == 35 and rows[17]["upper"] >= 35
    assert brute_force_sets(indices_of(np.array(rows[17]["witness"])).tolist(), 3) == 35
    with Store(path) as store:
        assert store.get("maxsets", 3, 18).witness_method == "cmm"


def test_cli_search_json_and_store(tmp_path, capsys) -> None:
    path = str(tmp_path / "results.sqlite")
    args = ["heuristic", "search", "-p", "3", "--cards", "9", "--minimize", "--seconds", "0.2"]
    assert main([*args, "--seed", "5", "--json", "--store", path]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["properties"] == 3 and answer["cards"] == 9 and answer["optimal"] is True
    witness = indices_of(np.array(answer["witness"])).tolist()
    assert answer["sets"] == brute_force_sets(witness, 3) == 0  # a 9-card cap exists
    with Store(path) as store:
        stored = store.get("minsets", 3, 9)
        assert stored.sense == "min" and stored.value == 0
        assert stored.witness_method == "local-search(seed=5, seconds=0.2)"


def test_cli_search_kept_in_cells(tmp_path, capsys) -> None:
    path = str(tmp_path / "results.sqlite")
    args = ["heuristic", "search", "-p", "3", "-n", "13", "--cells", "9,3,1", "--seconds", "0.2"]
    assert main([*args, "--json", "--store", path]) == 0
    answer = json.loads(capsys.readouterr().out)
    witness = indices_of(np.array(answer["witness"])).tolist()
    assert cell_sizes(witness, 3, 1) == [9, 3, 1]
    # a full plane, a line beside it and one card: 12 + 1 + the 3 pairs completing in the plane
    assert answer["sets"] == brute_force_sets(witness, 3) == brute_force_pattern_maximum([9, 3, 1])
    assert "cells=9/3/1" in answer["witness_method"]
    assert main([*args, "--store", path]) == 0
    assert "13 cards of AG(3,3) with cells 9,3,1, most sets found: 16" in capsys.readouterr().out


@pytest.mark.parametrize(
    "args",
    [
        ["search", "-p", "4", "--cards", "82"],
        ["search", "-p", "7", "--cards", "10"],
        ["search", "-p", "4", "--cards", "10", "--seconds", "0"],
        ["search", "-p", "4", "--cards", "10", "--seconds", "nan"],
        ["cmm", "-p", "1"],
        ["search", "-p", "4", "--cards", "10", "--cells", "5,5"],
        ["search", "-p", "4", "--cards", "10", "--cells", "5,4,0"],
        ["search", "-p", "4", "--cards", "30", "--cells", "28,1,1"],
        ["search", "-p", "4", "--cards", "10", "--cells", "5,x,5"],
    ],
)
def test_cli_bad_input_is_one_line(args: list[str], tmp_path, capsys) -> None:
    assert main(["heuristic", *args, "--store", str(tmp_path / "s.sqlite")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1


def test_local_search_beats_cmm_for_52_cards_of_ag43() -> None:
    result = local_search(4, 52, seconds=None, restarts=100, seed=0)
    assert result.sets > cmm(4).sets[52]
    assert result.sets == brute_force_sets(result.witness, 4)


@pytest.mark.parametrize("properties", [3, 4])
def test_local_search_never_falls_below_cmm(properties: int) -> None:
    sets = cmm(properties).sets
    for cards in range(0, 3**properties + 1, 1 if properties == 3 else 7):
        assert local_search(properties, cards, restarts=1, seconds=None).sets >= sets[cards]


# -- the search kept inside one pattern of cell sizes ---------------------------------------------


def cell_sizes(cards: list[int], properties: int, k: int) -> list[int]:
    """How many cards share each value of their first k digits (in base-3 order), read off the
    digit vectors."""
    first = digits(properties).astype(int)[cards][:, :k]
    return [
        int((first == prefix).all(axis=1).sum()) for prefix in itertools.product(range(3), repeat=k)
    ]


@settings(max_examples=30, deadline=None)
@given(
    properties=st.integers(2, 4),
    k=st.integers(1, 2),
    weights=st.lists(st.integers(0, 100), min_size=9, max_size=9),
    sense=st.sampled_from(["max", "min"]),
    seed=st.integers(0, 2**32),
)
def test_a_search_kept_in_cells_keeps_them(
    properties: int, k: int, weights: list[int], sense: str, seed: int
) -> None:
    cell = 3 ** (properties - k)
    cells = [w * cell // 100 for w in weights[: 3**k]]
    result = local_search(
        properties, sum(cells), sense, restarts=2, seconds=None, seed=seed, iterations=2000,
        cells=cells,
    )  # fmt: skip
    assert cell_sizes(result.witness, properties, k) == cells
    assert result.sets == brute_force_sets(result.witness, properties)
    assert "cells=" + "/".join(map(str, cells)) in result.method


def brute_force_pattern_maximum(cells: list[int]) -> int:
    """The most sets among the boards of AG(3,3) with cells[c] cards in cell c (the cards of
    one cell share their first k digits, 3^k cells), over every such board: each board's
    indicator against the 117 lines, found as the triples summing to 0 digit by digit."""
    vectors = digits(3).astype(int)
    lines = np.array(
        [t for t in itertools.combinations(range(27), 3) if not (vectors[list(t)].sum(0) % 3).any()]
    )
    size = 27 // len(cells)
    choices = [
        [list(c) for c in itertools.combinations(range(size * k, size * k + size), s)]
        for k, s in enumerate(cells)
    ]
    boards = np.zeros((np.prod([len(c) for c in choices]), 27), dtype=bool)
    for row, board in enumerate(itertools.product(*choices)):
        boards[row, [card for part in board for card in part]] = True
    return int(boards[:, lines].all(axis=2).sum(axis=1).max())


@pytest.mark.parametrize(
    "cells",
    [
        [3, 3, 3, 2, 0, 0, 1, 0, 0],
        [3, 2, 2, 2, 1, 1, 2, 1, 1],
        [2, 2, 1, 2, 2, 1, 1, 1, 2],
        [9, 3, 1],  # three sizes: a split over the planes x_0 = 0, 1, 2
        [2, 7, 1],
    ],
)
def test_a_search_kept_in_cells_finds_the_patterns_maximum(cells: list[int]) -> None:
    best = brute_force_pattern_maximum(cells)
    result = local_search(3, sum(cells), restarts=10, seconds=None, seed=3, cells=cells)
    assert result.sets == best


def test_a_search_kept_in_cells_never_passes_the_pencil_bound() -> None:
    # Annealed boards of AG(4,3) are as dense as the pattern allows: the bound of the big-slice
    # split (planes and 3-flats at their true maxima) must hold for them too.
    from setlab.extremal.split import pencil_bound

    plane = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]
    space = [0, 0, 0, *(TABLE_3[k] for k in range(3, 28))]
    rng = np.random.default_rng(5)
    for _ in range(6):
        cells = [int(v) for v in rng.integers(3, 10, size=9)]
        found = local_search(4, sum(cells), restarts=2, seconds=None, seed=1, cells=cells)
        assert found.sets <= pencil_bound(cells, 4, space, plane)


@pytest.mark.parametrize(
    ("cells", "error"),
    [([1] * 8, "3\\^k sizes"), ([10] + [0] * 8, "3\\^k sizes"), ([1] * 9, "hold 9 cards, not 10")],
)
def test_a_search_kept_in_cells_refuses_bad_cells(cells: list[int], error: str) -> None:
    from setlab.errors import SetlabError

    with pytest.raises(SetlabError, match=error):
        local_search(4, 10, restarts=1, seconds=None, cells=cells)
