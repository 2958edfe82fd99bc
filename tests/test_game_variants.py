"""The variants' games: the numba engine against the plain Python one on fixed seeds, and rules."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numba as nb
import numpy as np
import pytest

from setlab.extremal.caps.deck import card_words
from setlab.game.variants import (
    MODES,
    VariantTable,
    engine_tables,
    exact_mean_structures,
    game_figures,
    play_variant,
    simulate_variant,
    ultra_chain_moves,
    variant_game_figures,
    why_not,
)
from setlab.variants import find_structures, is_ultra
from variant_oracles import brute_force, four_rule, ghost_rule


@pytest.mark.parametrize("name", sorted(MODES))
def test_the_batch_engine_plays_the_reference_games(name):
    deal = MODES[name].deal
    fast = game_figures(name, 6, seed=11, first_game=3)
    slow = [variant_game_figures(play_variant(name, 11, g), deal) for g in range(3, 9)]
    assert fast.tolist() == [list(row) for row in slow]


def test_every_mode_types_its_tables_alike_so_numba_compiles_the_engine_once():
    # numba compiles a kernel once per argument types: a mode whose unused tables were typed
    # otherwise (int64, or writable where the real tables are read-only) cost a compile of its own
    kinds = {tuple(nb.typeof(table) for table in engine_tables(m)) for m in MODES.values()}
    assert len(kinds) == 1, kinds


@pytest.mark.parametrize("name", ["ultra", "ghost", "4set-junior", "chain", "ultra-chain"])
def test_every_card_is_taken_or_left_and_the_end_holds_nothing(name):
    m = MODES[name]
    for g in range(3):
        game = play_variant(name, 4, g)
        taken = [c for cards in game.taken for c in cards]
        if m.chain:  # each chained move reuses cards of the previous structure
            assert len(set(taken)) + game.cards_left == m.cards
        else:
            assert len(taken) == len(set(taken))
            assert len(taken) + game.cards_left == m.cards
        first_round, size, _ = game.inspections[0]
        assert first_round == 0 and size == m.deal
        if not m.chain:  # a table grows past the deal only to multiples of 3
            assert all(s <= m.deal or s % 3 == 0 for _, s, _ in game.inspections)
        assert game.inspections[-1][2] == 0


def test_taken_structures_are_structures():
    for name in ("ultra", "ghost", "4set", "megaset"):
        m = MODES[name]
        for cards in play_variant(name, 9, 0).taken:
            found = find_structures(list(cards), m.structure, m.properties, m.values)
            assert found == [tuple(range(m.size))]


def test_chain_sets_share_exactly_one_card_with_the_previous_set():
    taken = play_variant("chain", 2, 0).taken
    assert len(taken) > 10
    for before, after in itertools.pairwise(taken):
        assert len(set(before) & set(after)) == 1
        assert find_structures(list(after), "set", 4) == [(0, 1, 2)]


def testultra_chain_moves_carry_exactly_two_cards_of_the_previous_ultraset():
    for g in range(3):
        taken = play_variant("ultra-chain", 5, g).taken
        assert len(taken) > 5
        assert find_structures(list(taken[0]), "ultra", 4) == [(0, 1, 2, 3)]
        for before, after in itertools.pairwise(taken):
            assert len(set(before) & set(after)) == 2
            assert is_ultra(list(after), 4)  # the digit-by-digit rule


def test_ultra_chain_offers_every_move_on_a_small_table():
    """The reference engine's chain moves against every (two carried, two table) choice."""
    rng = np.random.default_rng(3)
    for _ in range(30):
        cards = rng.choice(81, size=10, replace=False).tolist()
        previous, table = cards[:4], cards[4:]
        expected = sorted(
            (i, j, p, q)
            for i, j in itertools.combinations(range(6), 2)
            for p, q in itertools.combinations(range(4), 2)
            if brute_force([previous[p], previous[q], table[i], table[j]], "ultra", 4)
        )
        assert ultra_chain_moves(table, previous, 4) == expected


def test_exact_means_count_the_deck():
    assert exact_mean_structures("junior", 9) == Fraction(math.comb(9, 3), 25)
    # UltraSets in F_3^P: each card is the third of (N - 1)/2 pairs, any two of them disjoint
    n = 81
    ultras = n * math.comb((n - 1) // 2, 2)
    assert exact_mean_structures("ultra", 12) == Fraction(
        math.comb(12, 4) * ultras, math.comb(n, 4)
    )
    # 4Sets: every triple has its own fourth card, C(N,3)/4 in all: C(k,4)/(N - 3) on k cards
    assert exact_mean_structures("4set", 12) == Fraction(math.comb(12, 4), 256 - 3)
    # the first deal of a chain game is a plain deal: 2.785 sets in 12 cards, as in SET
    assert exact_mean_structures("chain", 12) == Fraction(math.comb(12, 3) * 1080, math.comb(81, 3))
    assert exact_mean_structures("ultra-chain", 12) == exact_mean_structures("ultra", 12)


def test_the_summary_agrees_with_the_exact_mean_and_the_games():
    s = simulate_variant("ultra9", 3000, seed=1, batch=700)
    # UltraSets of AG(4,3): for each of the 81 sums s, the 40 pairs {a, s - a} (a != s - a), any
    # two of them (disjoint, as a pair is fixed by a card and the sum): 81 C(40, 2) among the
    # C(81, 4) four-card subsets; a deal of 9 holds C(9, 4) of those on average times that share
    assert s.exact_mean == Fraction(math.comb(9, 4) * 81 * math.comb(40, 2), math.comb(81, 4))
    e = s.first_deal_structures
    assert e.low <= float(s.exact_mean) <= e.high
    figures = game_figures("ultra9", 3000, seed=1)
    assert s.game_length.value == pytest.approx(figures[:, 0].mean())
    assert sum(s.cards_left_counts.values()) == 3000
    assert s.first_deal_none.value == np.count_nonzero(figures[:, 2] == 0) / 3000


def test_simulate_variant_command(capsys):
    from setlab.cli import main

    assert main(["simulate", "--variant", "4set-junior", "--games", "300", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["mode"] == "4set-junior" and got["deal"] == 9 and got["games"] == 300
    assert got["exact_mean_structures"] == pytest.approx(math.comb(9, 4) / 61)
    low, high = got["first_deal_none"]["ci"]
    assert low <= got["first_deal_none"]["value"] <= high
    for argv in (["-p", "5"], ["--plot", "x.png"], ["--strategy", "first"]):
        assert main(["simulate", "--variant", "junior", *argv]) == 2
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and err.startswith("error: ")


# -- the interactive table and its explanations (the web's Play modes) ------------------------

ORACLE_MODES = {"ultra": "ultra", "ultra9": "ultra", "ghost": "ghost", "4set": "4set",
                "4set-junior": "4set", "junior": "set", "megaset": "set", "chain": "set",
                "ultra-chain": "ultra"}  # fmt: skip


def brute_structures(name, cards):
    m = MODES[name]
    return brute_force(cards, ORACLE_MODES[name], m.properties, m.values)


@pytest.mark.parametrize(
    "name", ["ultra9", "ghost", "4set-junior", "junior", "chain", "ultra-chain"]
)
def test_a_table_played_by_claims_ends_with_no_structure_by_brute_force(name):
    m = MODES[name]
    table = VariantTable(name, seed=3)
    seen = set(table.cards)
    while not table.over:
        found = table.sets()
        if found:
            assert table.claim(found[-1]).ok
        else:
            before, left = len(table.cards), table.deck_left
            assert m.chain or brute_structures(name, table.cards) == []
            assert table.no_set().ok
            assert len(table.cards) == before + min(3 - before % 3, left)
        seen |= set(table.cards)
    assert seen == set(range(m.cards))
    taken = [c for cards in table.taken for c in cards]
    if m.chain:  # each move after the first takes two table cards and carries the rest
        assert m.size + 2 * (len(table.taken) - 1) + len(table.cards) == m.cards
        for before, after in itertools.pairwise(table.taken):
            assert len(set(before) & set(after)) == m.size - 2
            assert brute_structures(name, list(after)) == [tuple(range(m.size))]
    else:
        assert len(taken) + len(table.cards) == m.cards
        assert brute_structures(name, table.cards) == []


@pytest.mark.parametrize("name", ["ultra", "ghost", "4set", "junior", "megaset"])
def test_why_not_is_empty_exactly_for_structures(name):
    m = MODES[name]
    rng = np.random.default_rng(7)
    for _ in range(150):
        cards = [int(c) for c in rng.choice(m.cards, m.size, replace=False)]
        if rng.random() < 0.3:  # make some real structures: a structure of a bigger board
            board = [int(c) for c in rng.choice(m.cards, 15, replace=False)]
            found = brute_structures(name, board)
            if found:
                cards = [board[i] for i in found[0]]
        reasons = why_not(name, cards)
        assert (reasons == []) == bool(brute_structures(name, cards)), (cards, reasons)


def test_why_not_names_the_failing_properties_of_ghost_and_4set():
    words = ("number", "colour", "shading", "shape")
    rng = np.random.default_rng(1)
    for name, values, size, rule in (("ghost", 3, 6, ghost_rule), ("4set", 4, 4, four_rule)):
        for _ in range(100):
            cards = [int(c) for c in rng.choice(values**4, size, replace=False)]
            digits = card_words(cards, 4, values)
            failing = [words[axis] for axis in range(4) if not rule([(d[axis],) for d in digits])]
            assert [r.split(":")[0] for r in why_not(name, cards)] == failing


def test_a_chain_claim_must_hold_one_card_of_the_previous_set():
    table = VariantTable("chain", seed=5)
    while not table.sets():
        table.no_set()
    first = table.sets()[0]
    assert table.claim(first).ok and table.previous == list(first)
    plain = [
        s for s in itertools.combinations(table.cards, 3) if find_structures(list(s), "set", 4)
    ]
    if plain:  # a set of three table cards is not a chain move
        reasons = table.claim(plain[0]).reasons
        assert reasons == (
            "a chain set holds exactly one card of the previous set and two of the table",
        )
    while not table.sets():
        table.no_set()
    a, b, kept = table.sets()[0]
    assert kept in first and table.hint(2) == [a, b]
    assert table.claim([kept, a, b]).ok and table.previous == [kept, a, b]
