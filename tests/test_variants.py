"""The variants' finders against an independent brute force over itertools.combinations.

The brute force reads each card's digits with ``extremal.caps.deck.card_words`` (the V-valued
deck's numbering) and tests the rule as the issue words it: UltraSet some pairing with equal
sums, GhostSet six cards summing to 0, 4Set AAAA/ABCD/AABB per property, a V-valued set all
same or all different per property.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setlab.cards import parse_valued_card, valued_code, valued_name
from setlab.errors import SetlabError
from setlab.extremal.caps.deck import card_words
from setlab.find import find_sets
from setlab.variants import (
    count_structures,
    count_structures_batch,
    find_structures,
    find_structures_batch,
    is_four_set,
    is_ghost,
    is_ghost_by_pairs,
    is_ultra,
    is_valued_set,
)
from setlab.variants.kernels import valued_sets_of_board
from variant_oracles import brute_force, four_rule, ghost_rule, ultra_rule, valued_rule


def boards(n_cards, sizes):
    """A strategy for boards: ``size`` distinct cards of a deck of ``n_cards``, in random order."""
    return st.sampled_from(sizes).flatmap(
        lambda k: st.permutations(range(n_cards)).map(lambda order: order[: min(k, n_cards)])
    )


# Board sizes met in play: ultra 9, 12 and up; ghost 10, 12, 15; 4set 9 to 18; set 3 to 21.
@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 4).flatmap(
        lambda p: st.tuples(st.just(p), boards(3**p, [0, 4, 5, 9, 12, 15, 18, 21]))
    )
)
def test_ultra_matches_brute_force(case):
    properties, board = case
    assert find_structures(board, "ultra", properties) == brute_force(board, "ultra", properties)


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 4).flatmap(lambda p: st.tuples(st.just(p), boards(3**p, [6, 7, 10, 12, 15]))))
def test_ghost_matches_brute_force(case):
    properties, board = case
    assert find_structures(board, "ghost", properties) == brute_force(board, "ghost", properties)


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 4).flatmap(lambda p: st.tuples(st.just(p), boards(4**p, [4, 5, 9, 12, 15, 18])))
)
def test_four_set_matches_brute_force(case):
    properties, board = case
    assert find_structures(board, "4set", properties) == brute_force(board, "4set", properties)


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(
        [(2, 2), (3, 3), (4, 3), (2, 4), (3, 4), (4, 4), (2, 5), (3, 5), (2, 6)]
    ).flatmap(lambda pv: st.tuples(st.just(pv), boards(pv[1] ** pv[0], [3, 6, 9, 12, 16])))
)
def test_valued_set_matches_brute_force(case):
    (properties, values), board = case
    got = find_structures(board, "set", properties, values)
    assert got == brute_force(board, "set", properties, values)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 4).flatmap(lambda p: st.tuples(st.just(p), boards(3**p, [3, 9, 12, 18]))))
def test_the_valued_walk_at_three_values_finds_the_sets(case):
    properties, board = case
    words = np.array(card_words(board, properties, 3), dtype=np.int64).reshape(-1, properties)
    out = np.zeros((len(board) ** 3 + 1, 3), dtype=np.int64)
    found = valued_sets_of_board(words, 3, out)
    assert sorted(map(tuple, out[:found].tolist())) == find_sets(board, properties)
    assert find_structures(board, "set", properties) == find_sets(board, properties)


@pytest.mark.parametrize(
    ("name", "properties", "k"),
    [("ultra", 4, 12), ("ghost", 4, 10), ("4set", 4, 15), ("set", 4, 12)],
)
def test_batch_agrees_with_one_board_at_a_time(name, properties, k):
    rng = np.random.default_rng(5)
    n = (4 if name == "4set" else 3) ** properties
    boards_ = np.array([rng.permutation(n)[:k] for _ in range(60)])
    lengths = rng.integers(0, k + 1, size=60)
    counts = count_structures_batch(boards_, name, properties, lengths=lengths)
    offsets, rows = find_structures_batch(boards_, name, properties, lengths=lengths)
    for b in range(60):
        board = boards_[b, : lengths[b]]
        assert counts[b] == count_structures(board, name, properties)
        found = [tuple(r) for r in rows[offsets[b] : offsets[b + 1]].tolist()]
        assert found == find_structures(board, name, properties)


def test_whole_decks_hold_the_counted_structures():
    # 4Set: every triple of F_2^(2P) has a distinct fourth card: C(4^P, 3)/4 structures
    assert count_structures(range(64), "4set", 3) == 64 * 63 * 62 // 6 // 4
    # UltraSet in F_3^2: sum over z of C(m_z, 2), m_z = 4 pairs complete to each card
    assert count_structures(range(9), "ultra", 2) == 9 * 6
    assert count_structures(range(9), "ultra", 2) == len(brute_force(list(range(9)), "ultra", 2))


def test_predicates_agree_with_the_brute_force_rules():
    rng = np.random.default_rng(1)
    for _ in range(300):
        board = rng.permutation(81)[:6].tolist()
        words = card_words(board, 4, 3)
        assert is_ultra(board[:4], 4) == ultra_rule(words[:4])
        assert is_ghost(board, 4) == ghost_rule(words)
        four = rng.permutation(256)[:4].tolist()
        assert is_four_set(four, 4) == four_rule(card_words(four, 4, 4))
        assert is_valued_set(four, 4, 4) == valued_rule(4)(card_words(four, 4, 4))
    assert not is_ultra([0, 0, 1, 2], 2)


def _zero_sum_sixes(properties, rng, count):
    """Random six distinct cards of F_3^P summing to 0 (five random cards and minus their sum)."""
    found = []
    while len(found) < count:
        five = rng.permutation(3**properties)[:5].tolist()
        words = card_words(five, properties, 3)
        last = [(-sum(column)) % 3 for column in zip(*words, strict=True)]
        sixth = int(np.dot(last, 3 ** np.arange(properties - 1, -1, -1)))
        if sixth not in five:
            found.append([*five, sixth])
    return found


def test_the_two_ghost_rules_agree_on_every_six_cards_of_the_plane():
    for six in itertools.combinations(range(9), 6):
        assert is_ghost(six, 2) == is_ghost_by_pairs(six, 2)


def test_the_two_ghost_rules_agree_on_zero_sum_sixes_and_random_sixes():
    rng = np.random.default_rng(2)
    for properties in (3, 4):
        for six in _zero_sum_sixes(properties, rng, 150):
            assert is_ghost(six, properties) and is_ghost_by_pairs(six, properties)
    for _ in range(200):
        six = rng.permutation(81)[:6].tolist()
        assert is_ghost(six, 4) == is_ghost_by_pairs(six, 4)


@pytest.mark.slow
def test_the_two_ghost_rules_agree_on_every_six_cards_of_ag33():
    sixes = list(itertools.combinations(range(27), 6))
    ghosts = [six for six in sixes if is_ghost(six, 3)]
    assert all(is_ghost_by_pairs(six, 3) for six in ghosts)
    assert len(ghosts) == count_structures(range(27), "ghost", 3)


def test_bad_boards_are_refused():
    with pytest.raises(SetlabError, match=r"twice|at most once"):
        find_structures([0, 0, 1, 2], "ultra", 2)
    with pytest.raises(SetlabError, match="out of range"):
        find_structures([0, 81], "ultra", 4)
    with pytest.raises(SetlabError, match="4 values"):
        find_structures([0, 1], "4set", 2, values=3)
    with pytest.raises(SetlabError, match="unknown variant"):
        find_structures([0, 1], "hyper", 2)


def test_four_valued_cards_read_and_write():
    assert parse_valued_card("4 blue dotted triangles", 4, 4) == 255
    assert parse_valued_card("4BDT", 4, 4) == 255
    assert parse_valued_card("two blue solid ovals", 4, 4) == parse_valued_card("1302", 4, 4)
    for index in range(256):
        assert parse_valued_card(valued_code(index, 4, 4), 4, 4) == index
        assert parse_valued_card(valued_name(index, 4, 4), 4, 4) == index
    with pytest.raises(SetlabError, match="fourth value"):
        parse_valued_card("1230", 4, 3)
    with pytest.raises(SetlabError, match="fourth value"):
        parse_valued_card("3 blue solid ovals", 4, 3)
    with pytest.raises(SetlabError, match="digits from 0 to 3"):
        parse_valued_card("1240", 4, 4)
