"""Finding sets: single boards, batches, against a plain triple loop and the paper's boards."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setlab.cards import Card, deck
from setlab.errors import SetlabError
from setlab.find import (
    count_sets,
    count_sets_batch,
    find_sets,
    find_sets_batch,
    is_set,
    third_card,
)
from setlab.geometry import digits, random_affine_map

PAPER_BOARD_14 = ["0000", "0001", "0002", "0010", "0011", "0012",
                  "0020", "0021", "0022", "0100", "0220", "0120"]  # fmt: skip


def triple_loop(board, properties):
    """Independent reference: test every triple digit by digit, as the blog's first method."""
    d = digits(properties).astype(int)
    return [
        (i, j, k)
        for i, j, k in itertools.combinations(range(len(board)), 3)
        if all(
            len({a, b, c}) != 2
            for a, b, c in zip(d[board[i]], d[board[j]], d[board[k]], strict=True)
        )
    ]


def test_paper_board_of_section_2_1_holds_14_sets():
    board = [Card.parse(c) for c in PAPER_BOARD_14]
    assert count_sets(board) == 14
    assert find_sets(board) == triple_loop([c.index for c in board], 4)


@pytest.mark.parametrize(
    ("cards", "sets"),
    [
        (["0000", "0001", "0002", "0010", "0020"], 2),
        (["0000", "0001", "0002", "0010", "0011", "0020"], 3),
        (["0000", "0001", "0002", "0010", "0011", "0020", "0021"], 5),
        (
            [
                "0000",
                "0100",
                "0200",
                "1000",
                "2000",
                "1100",
                "2200",
                "1200",
                "2100",
                "0001",
                "0002",
            ],
            13,
        ),
    ],
)
def test_paper_section_1_and_2_configurations(cards, sets):
    assert count_sets([Card.parse(c) for c in cards]) == sets


def test_whole_decks():
    assert count_sets(range(81)) == 1080
    assert count_sets(range(27), properties=3) == 117


def test_is_set_and_third_card_agree_on_every_pair_of_the_deck():
    cards = deck(4)
    for a, b in itertools.combinations(cards[::4], 2):
        c = third_card(a, b)
        assert is_set(a, b, c) and c not in (a, b)
    assert not is_set(cards[0], cards[0], cards[0])
    with pytest.raises(SetlabError):
        third_card(cards[3], cards[3])


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 6), st.integers(0, 2**32 - 1), st.data())
def test_single_board_matches_triple_loop(properties, seed, data):
    rng = np.random.default_rng(seed)
    size = data.draw(st.integers(1, min(18, 3**properties)))
    board = rng.choice(3**properties, size=size, replace=False).tolist()
    assert find_sets(board, properties) == triple_loop(board, properties)


@pytest.mark.parametrize("properties", [3, 4, 5])
def test_batch_equals_triple_loop_on_random_boards(properties):
    rng = np.random.default_rng(properties)
    boards = np.array([rng.choice(3**properties, size=12, replace=False) for _ in range(300)])
    counts = count_sets_batch(boards, properties)
    offsets, sets = find_sets_batch(boards, properties)
    for b, board in enumerate(boards.tolist()):
        expected = triple_loop(board, properties)
        assert counts[b] == len(expected)
        assert [tuple(s) for s in sets[offsets[b] : offsets[b + 1]].tolist()] == expected


def test_batch_with_boards_of_different_sizes():
    boards = np.array([[0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 99, 99]])
    assert count_sets_batch(boards[:1]).tolist() == [2]
    assert count_sets_batch(boards, lengths=np.array([6, 4])).tolist() == [2, 1]


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_set_counts_are_invariant_under_random_affine_maps(seed):
    rng = np.random.default_rng(seed)
    boards = np.array([rng.choice(81, size=15, replace=False) for _ in range(20)])
    f = random_affine_map(4, rng)
    assert (count_sets_batch(boards) == count_sets_batch(f(boards))).all()


@pytest.mark.parametrize(
    ("board", "message"),
    [([0, 0, 1], "at most once"), ([0, 81], "out of range"), ([[0, 1]], "one-dimensional")],
)
def test_bad_boards(board, message):
    with pytest.raises(SetlabError, match=message):
        find_sets(board)


def test_bad_batches():
    with pytest.raises(SetlabError, match="board 1 holds a card twice"):
        count_sets_batch(np.array([[0, 1, 2], [3, 3, 4]]))
    with pytest.raises(SetlabError, match="board 0 holds a card out of range"):
        find_sets_batch(np.array([[0, 1, 81]]))
    # slots beyond a board's length are not on the board, whatever they hold
    assert count_sets_batch(np.array([[0, 1, 2, 2, -5]]), lengths=np.array([3])).tolist() == [1]
