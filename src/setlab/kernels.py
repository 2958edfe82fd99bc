"""The hot loops every algorithm of setlab shares, compiled with numba.

Cards are indices 0..N-1 of AG(P,3) (N = 3^P) and ``third`` is the table of
:func:`setlab.geometry.third_card_table`: ``third[a, b]`` is the card completing a and b to a line.
Two quantities carry every algorithm:

- the *set count* of a board, each line met once at its two first cards in board order;
- the *pair-completion counts* of a configuration S: ``completes[z]`` is the number of pairs
  {a, b} of S whose third card is z. Adding z to S creates exactly ``completes[z]`` new sets;
  the sets of S number sum over z in S of completes[z], divided by 3 (each set is counted once
  per card). Moving one card in or out updates ``completes`` in O(|S|).

Every function here works on plain int64 arrays, is callable from Python and from other numba
code, and does no input checking: the public functions of :mod:`setlab.find` and the algorithms
validate their input and call these. Python calls a long one under
:func:`setlab.interrupts.ctrl_c_held`.
"""

from __future__ import annotations

import numba as nb
import numpy as np

__all__ = [
    "add_card",
    "close_gaps",
    "count_batch",
    "fill_batch",
    "is_board",
    "pair_completions",
    "remove_card",
    "sets_of_board",
    "sets_of_completions",
    "split_deck",
]


@nb.njit(cache=True)
def sets_of_board(cards, third, position, out):  # pragma: no cover - compiled
    """Write the sets of one board into ``out`` (rows i < j < k); return how many.

    ``position`` has one entry per card of the deck, all -1 on entry and on exit. Pass an ``out``
    with no rows to count only.

    Examples
    --------
    >>> from setlab.geometry import third_card_table
    >>> position = np.full(81, -1, dtype=np.int64)
    >>> out = np.zeros((4, 3), dtype=np.int64)
    >>> sets_of_board(np.array([0, 1, 2, 3]), third_card_table(4), position, out)
    1
    >>> out[0].tolist()
    [0, 1, 2]
    """
    k = cards.shape[0]
    for i in range(k):
        position[cards[i]] = i
    found = 0
    for i in range(k):
        for j in range(i + 1, k):
            p = position[third[cards[i], cards[j]]]
            if p > j:  # the set {i, j, p} is met once: at its two first cards
                if out.shape[0] > 0:
                    out[found, 0] = i
                    out[found, 1] = j
                    out[found, 2] = p
                found += 1
    for i in range(k):
        position[cards[i]] = -1
    return found


@nb.njit(cache=True)
def is_board(cards, position):  # pragma: no cover - compiled
    """True iff every card is in range and none repeats; ``position`` (all -1) is left as is.

    Examples
    --------
    >>> position = np.full(81, -1, dtype=np.int64)
    >>> is_board(np.array([0, 5, 80]), position), is_board(np.array([0, 5, 0]), position)
    (True, False)
    """
    n = position.shape[0]
    valid = True
    placed = 0
    for i in range(cards.shape[0]):
        c = cards[i]
        if c < 0 or c >= n or position[c] != -1:
            valid = False
            break
        position[c] = i
        placed += 1
    for i in range(placed):
        position[cards[i]] = -1
    return valid


@nb.njit(parallel=True, cache=True)
def count_batch(boards, third, n_cards, lengths, n_chunks):  # pragma: no cover - compiled
    """Sets on every board (row b holds ``lengths[b]`` cards), or -1 for a board that is not one.

    Rows are dealt to ``n_chunks`` work units across cores, each with its own position table.

    Examples
    --------
    >>> from setlab.geometry import third_card_table
    >>> boards = np.array([[0, 1, 2, 3], [0, 1, 3, 4], [0, 0, 1, 2]])
    >>> count_batch(boards, third_card_table(4), 81, np.array([4, 4, 4]), 2).tolist()
    [1, 0, -1]
    """
    n_boards = boards.shape[0]
    counts = np.zeros(n_boards, dtype=np.int64)
    empty = np.zeros((0, 3), dtype=np.int64)
    for chunk in nb.prange(n_chunks):
        position = np.full(n_cards, -1, dtype=np.int64)
        for b in range(chunk, n_boards, n_chunks):
            board = boards[b, : lengths[b]]
            if is_board(board, position):
                counts[b] = sets_of_board(board, third, position, empty)
            else:
                counts[b] = -1
    return counts


@nb.njit(parallel=True, cache=True)
def fill_batch(boards, third, n_cards, lengths, offsets, out, n_chunks):  # pragma: no cover
    """Write the sets of board b into ``out[offsets[b]:offsets[b + 1]]`` (boards already valid).

    Examples
    --------
    >>> from setlab.geometry import third_card_table
    >>> out = np.zeros((1, 3), dtype=np.int64)
    >>> boards, lengths = np.array([[0, 1, 2, 3], [0, 1, 3, 4]]), np.array([4, 4])
    >>> fill_batch(boards, third_card_table(4), 81, lengths, np.array([0, 1, 1]), out, 2)
    >>> out.tolist()
    [[0, 1, 2]]
    """
    n_boards = boards.shape[0]
    for chunk in nb.prange(n_chunks):
        position = np.full(n_cards, -1, dtype=np.int64)
        for b in range(chunk, n_boards, n_chunks):
            sets_of_board(
                boards[b, : lengths[b]], third, position, out[offsets[b] : offsets[b + 1]]
            )


@nb.njit(cache=True)
def pair_completions(cards, third):  # pragma: no cover - compiled
    """``completes[z]``: the number of pairs of ``cards`` whose third card is z, for every z.

    Examples
    --------
    >>> from setlab.geometry import third_card_table
    >>> completes = pair_completions(np.array([0, 1, 3]), third_card_table(2))
    >>> completes.tolist()  # pairs {0,1} -> 2, {0,3} -> 6, {1,3} -> 8
    [0, 0, 1, 0, 0, 0, 1, 0, 1]
    """
    completes = np.zeros(third.shape[0], dtype=np.int64)
    k = cards.shape[0]
    for i in range(k):
        for j in range(i + 1, k):
            completes[third[cards[i], cards[j]]] += 1
    return completes


@nb.njit(cache=True)
def sets_of_completions(cards, completes):  # pragma: no cover - compiled
    """The number of sets of S from its pair-completion counts: each set is counted at its 3 cards.

    Examples
    --------
    >>> from setlab.geometry import third_card_table
    >>> cards = np.array([0, 1, 2, 3])
    >>> sets_of_completions(cards, pair_completions(cards, third_card_table(2)))
    1
    """
    total = 0
    for i in range(cards.shape[0]):
        total += completes[cards[i]]
    return total // 3


@nb.njit(cache=True)
def add_card(completes, cards, x, third):  # pragma: no cover - compiled
    """Update ``completes`` of S = ``cards`` to that of S + {x} (x not in S); return the new sets.

    The new pairs are {a, x} for a in S; the sets created are ``completes[x]`` before the update.

    Examples
    --------
    >>> from setlab.geometry import third_card_table
    >>> third = third_card_table(2)
    >>> completes = pair_completions(np.array([0, 1]), third)
    >>> add_card(completes, np.array([0, 1]), 2, third), completes.tolist()
    (1, [1, 1, 1, 0, 0, 0, 0, 0, 0])
    """
    created = completes[x]
    for i in range(cards.shape[0]):
        completes[third[cards[i], x]] += 1
    return created


@nb.njit(cache=True)
def remove_card(completes, cards, x, third):  # pragma: no cover - compiled
    """Update ``completes`` of S to that of S - {x} (``cards`` may still hold x); return sets lost.

    The pairs {a, x} for a in S - {x} leave; the sets destroyed are ``completes[x]`` after.

    Examples
    --------
    >>> from setlab.geometry import third_card_table
    >>> third = third_card_table(2)
    >>> cards = np.array([0, 1, 2])
    >>> completes = pair_completions(cards, third)
    >>> remove_card(completes, cards, 2, third), completes.tolist()
    (1, [0, 0, 1, 0, 0, 0, 0, 0, 0])
    """
    for i in range(cards.shape[0]):
        a = cards[i]
        if a != x:
            completes[third[a, x]] -= 1
    return completes[x]


@nb.njit(cache=True)
def close_gaps(table, size):  # pragma: no cover - compiled
    """Move the cards of ``table[:size]`` that are not -1 to its front, in order; return how
    many (the games' tables after cards are taken and not replaced).

    Examples
    --------
    >>> table = np.array([5, -1, 7, -1, 2])
    >>> n = close_gaps(table, 5)
    >>> table[:n].tolist()
    [5, 7, 2]
    """
    kept = 0
    for i in range(size):
        if table[i] >= 0:
            table[kept] = table[i]
            kept += 1
    return kept



@nb.njit(cache=True)
def split_deck(members, n_deck):  # pragma: no cover - compiled
    """The indicator of ``members`` among the ``n_deck`` cards, and the other cards in order
    (the local searches' state: a swap moves one card from each side to the other).

    Examples
    --------
    >>> inside, outside = split_deck(np.array([4, 0]), 6)
    >>> inside.astype(int).tolist(), outside.tolist()
    ([1, 0, 0, 0, 1, 0], [1, 2, 3, 5])
    """
    inside = np.zeros(n_deck, dtype=np.bool_)
    for x in members:
        inside[x] = True
    outside = np.empty(n_deck - members.shape[0], dtype=np.int64)
    k = 0
    for z in range(n_deck):
        if not inside[z]:
            outside[k] = z
            k += 1
    return inside, outside
