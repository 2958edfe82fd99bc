"""The compiled loops that find the variants' structures on a board, one board or a batch.

Each finder meets every structure exactly once and writes it as a row of ascending positions,
rows in lexicographic order:
UltraSets by bucketing the C(k,2) pairs by their third card (a + b = c + d iff the pairs share
a third card; two such pairs are disjoint), GhostSets by walking the 5-subsets and looking up
minus their sum after the fifth card, 4Sets by walking the triples and looking up their XOR after
the third card, and V-valued sets by a depth-first walk keeping, per property, the values used.
Like :mod:`setlab.kernels` these do no input checking; :mod:`setlab.variants.find` does.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from setlab.kernels import is_board, sets_of_board

__all__ = [
    "FOUR",
    "GHOST",
    "SET",
    "ULTRA",
    "VALUED",
    "count_structures_batch",
    "fill_structures_batch",
    "four_sets_of_board",
    "ghosts_of_board",
    "structures_of_board",
    "ultras_of_board",
    "valued_sets_of_board",
]

SET, VALUED, ULTRA, GHOST, FOUR = 0, 1, 2, 3, 4
"""Kernel codes: SET (V = 3, the third-card table), the V-valued set, UltraSet, GhostSet, 4Set."""


@nb.njit(cache=True)
def _sorted_row(out, row, values, count):  # pragma: no cover - compiled
    """Write ``values[:count]`` into ``out[row]`` in ascending order (insertion sort)."""
    for a in range(count):
        v = values[a]
        b = a
        while b > 0 and out[row, b - 1] > v:
            out[row, b] = out[row, b - 1]
            b -= 1
        out[row, b] = v


@nb.njit(cache=True)
def ultras_of_board(cards, third, heads, out):  # pragma: no cover - compiled
    """Write the UltraSets of a board into ``out`` (ascending rows, sorted); return how many.

    ``heads`` has one entry per card of the deck, all -1 on entry and on exit. Pass an ``out``
    with no rows to count only.

    Examples
    --------
    >>> from setlab.geometry import third_card_table
    >>> heads = np.full(9, -1, dtype=np.int64)
    >>> out = np.zeros((3, 4), dtype=np.int64)
    >>> ultras_of_board(np.array([0, 4, 1, 3, 8]), third_card_table(2), heads, out)
    1
    >>> out[0].tolist()
    [0, 1, 2, 3]
    """
    k = cards.shape[0]
    link = np.empty(k * k, dtype=np.int64)
    quad = np.empty(4, dtype=np.int64)
    found = 0
    for i in range(k):
        for j in range(i + 1, k):
            z = third[cards[i], cards[j]]
            q = heads[z]
            while q >= 0:
                if out.shape[0] > 0:
                    quad[0] = q // k
                    quad[1] = q % k
                    quad[2] = i
                    quad[3] = j
                    _sorted_row(out, found, quad, 4)
                found += 1
                q = link[q]
            p = i * k + j
            link[p] = heads[z]
            heads[z] = p
    for i in range(k):
        for j in range(i + 1, k):
            heads[third[cards[i], cards[j]]] = -1
    if out.shape[0] > 0 and found > 1:  # rows in lexicographic order, as the other finders
        keys = np.empty(found, dtype=np.int64)
        for r in range(found):
            keys[r] = ((out[r, 0] * k + out[r, 1]) * k + out[r, 2]) * k + out[r, 3]
        order = np.argsort(keys)
        rows = out[:found].copy()
        for r in range(found):
            for t in range(4):
                out[r, t] = rows[order[r], t]
    return found


@nb.njit(cache=True)
def ghosts_of_board(cards, plus, negative, position, out):  # pragma: no cover - compiled
    """Write the GhostSets (six cards summing to 0) of a board into ``out``; return how many.

    ``plus[a, b]`` is a + b and ``negative[a]`` is -a in F_3^P; ``position`` (all -1) as in
    :func:`setlab.kernels.sets_of_board`. Each GhostSet is met once: at its first five cards.

    Examples
    --------
    >>> from setlab.variants.structures import negative_table, sum_table
    >>> position = np.full(9, -1, dtype=np.int64)
    >>> out = np.zeros((1, 6), dtype=np.int64)
    >>> ghosts_of_board(np.arange(6), sum_table(2), negative_table(2), position, out)
    1
    """
    k = cards.shape[0]
    for i in range(k):
        position[cards[i]] = i
    six = np.empty(6, dtype=np.int64)
    found = 0
    for a in range(k):
        for b in range(a + 1, k):
            s2 = plus[cards[a], cards[b]]
            for c in range(b + 1, k):
                s3 = plus[s2, cards[c]]
                for d in range(c + 1, k):
                    s4 = plus[s3, cards[d]]
                    for e in range(d + 1, k - 1):
                        f = position[negative[plus[s4, cards[e]]]]
                        if f > e:
                            if out.shape[0] > 0:
                                six[0] = a
                                six[1] = b
                                six[2] = c
                                six[3] = d
                                six[4] = e
                                six[5] = f
                                _sorted_row(out, found, six, 6)
                            found += 1
    for i in range(k):
        position[cards[i]] = -1
    return found


@nb.njit(cache=True)
def four_sets_of_board(cards, position, out):  # pragma: no cover - compiled
    """Write the 4Sets of a board of the 4-valued deck into ``out``; return how many.

    Four cards sum to 0 in (F_2^2)^P iff the XOR of their indices is 0: the fourth card of a
    triple is the XOR of the three, met once at the triple of its first three cards.

    Examples
    --------
    >>> position = np.full(16, -1, dtype=np.int64)
    >>> out = np.zeros((1, 4), dtype=np.int64)
    >>> four_sets_of_board(np.array([0, 5, 10, 15, 1]), position, out), out[0].tolist()
    (1, [0, 1, 2, 3])
    """
    k = cards.shape[0]
    for i in range(k):
        position[cards[i]] = i
    found = 0
    for a in range(k):
        for b in range(a + 1, k):
            ab = cards[a] ^ cards[b]
            for c in range(b + 1, k - 1):
                d = position[ab ^ cards[c]]
                if d > c:
                    if out.shape[0] > 0:
                        out[found, 0] = a
                        out[found, 1] = b
                        out[found, 2] = c
                        out[found, 3] = d
                    found += 1
    for i in range(k):
        position[cards[i]] = -1
    return found


@nb.njit(cache=True)
def valued_sets_of_board(words, values, out):  # pragma: no cover - compiled
    """Write the sets of V = ``values`` cards of a board (rows of ``words``: digits) into ``out``.

    A depth-first walk over positions in increasing order keeps, per depth and property, the
    bitmask of values used: past two cards a property with one value used must repeat it and
    one with several must take a new value.

    Examples
    --------
    >>> words = np.array([[0, 0], [1, 1], [2, 2], [3, 3], [0, 1]])
    >>> out = np.zeros((1, 4), dtype=np.int64)
    >>> valued_sets_of_board(words, 4, out), out[0].tolist()
    (1, [0, 1, 2, 3])
    """
    k, n_properties = words.shape
    if k < values:
        return 0
    chosen = np.zeros(values, dtype=np.int64)
    cursor = np.zeros(values, dtype=np.int64)
    masks = np.zeros((values + 1, n_properties), dtype=np.int64)
    found = 0
    depth = 0
    while depth >= 0:
        c = cursor[depth]
        if c > k - (values - depth):
            depth -= 1
            if depth >= 0:
                cursor[depth] += 1
            continue
        fits = True
        if depth >= 2:
            for p in range(n_properties):
                bit = np.int64(1) << words[c, p]
                m = masks[depth, p]
                if m & (m - 1) == 0:
                    if bit != m:
                        fits = False
                        break
                elif bit & m:
                    fits = False
                    break
        if not fits:
            cursor[depth] += 1
            continue
        chosen[depth] = c
        for p in range(n_properties):
            masks[depth + 1, p] = masks[depth, p] | (np.int64(1) << words[c, p])
        if depth + 1 == values:
            if out.shape[0] > 0:
                for t in range(values):
                    out[found, t] = chosen[t]
            found += 1
            cursor[depth] += 1
        else:
            depth += 1
            cursor[depth] = c + 1
    return found


@nb.njit(cache=True)
def structures_of_board(
    kind, cards, third, plus, negative, words, values, position, out
):  # pragma: no cover - compiled
    """The structures of kind ``kind`` on one board: write them into ``out``, return how many.

    ``third`` serves SET and UltraSet, ``plus`` and ``negative`` GhostSet, ``words`` (the
    deck's digit vectors) the V-valued set; ``position`` (all -1, one entry per card of the
    deck) any of them. Unused tables may be empty.

    Examples
    --------
    The tables of :func:`setlab.variants.find.tables` (all empty for 4Set):

    >>> from setlab.variants.find import tables
    >>> t, position = tables("4set", 2), np.full(16, -1, dtype=np.int64)
    >>> out = np.zeros((0, 4), dtype=np.int64)
    >>> cards = np.array([0, 5, 10, 15])
    >>> structures_of_board(FOUR, cards, t.third, t.plus, t.negative, t.words, 4, position, out)
    1
    """
    if kind == SET:
        return sets_of_board(cards, third, position, out)
    if kind == ULTRA:
        return ultras_of_board(cards, third, position, out)
    if kind == GHOST:
        return ghosts_of_board(cards, plus, negative, position, out)
    if kind == FOUR:
        return four_sets_of_board(cards, position, out)
    board_words = np.empty((cards.shape[0], words.shape[1]), dtype=np.int64)
    for i in range(cards.shape[0]):
        for p in range(words.shape[1]):
            board_words[i, p] = words[cards[i], p]
    return valued_sets_of_board(board_words, values, out)


@nb.njit(parallel=True, cache=True)
def count_structures_batch(
    kind, boards, lengths, third, plus, negative, words, values, n_cards, n_chunks
):  # pragma: no cover - compiled
    """Structures on every board (row b holds ``lengths[b]`` cards), or -1 for a non-board.

    Examples
    --------
    >>> from setlab.variants.find import tables
    >>> t = tables("4set", 2)
    >>> boards = np.array([[0, 5, 10, 15], [0, 1, 2, 4], [0, 0, 1, 2]])
    >>> args = (t.third, t.plus, t.negative, t.words, 4, 16, 2)
    >>> count_structures_batch(FOUR, boards, np.array([4, 4, 4]), *args).tolist()
    [1, 0, -1]
    """
    n_boards = boards.shape[0]
    counts = np.zeros(n_boards, dtype=np.int64)
    empty = np.zeros((0, 1), dtype=np.int64)
    for chunk in nb.prange(n_chunks):
        position = np.full(n_cards, -1, dtype=np.int64)
        for b in range(chunk, n_boards, n_chunks):
            board = boards[b, : lengths[b]]
            if is_board(board, position):
                counts[b] = structures_of_board(
                    kind, board, third, plus, negative, words, values, position, empty
                )
            else:
                counts[b] = -1
    return counts


@nb.njit(parallel=True, cache=True)
def fill_structures_batch(
    kind, boards, lengths, third, plus, negative, words, values, n_cards, offsets, out, n_chunks
):  # pragma: no cover - compiled
    """Write the structures of board b into ``out[offsets[b]:offsets[b + 1]]`` (valid boards).

    Examples
    --------
    >>> from setlab.variants.find import tables
    >>> t, out = tables("4set", 2), np.zeros((1, 4), dtype=np.int64)
    >>> boards, lengths = np.array([[0, 5, 10, 15], [0, 1, 2, 4]]), np.array([4, 4])
    >>> args = (t.third, t.plus, t.negative, t.words, 4, 16, np.array([0, 1, 1]), out, 2)
    >>> fill_structures_batch(FOUR, boards, lengths, *args)
    >>> out.tolist()
    [[0, 1, 2, 3]]
    """
    n_boards = boards.shape[0]
    for chunk in nb.prange(n_chunks):
        position = np.full(n_cards, -1, dtype=np.int64)
        for b in range(chunk, n_boards, n_chunks):
            structures_of_board(
                kind, boards[b, : lengths[b]], third, plus, negative, words, values,
                position, out[offsets[b] : offsets[b + 1]],
            )  # fmt: skip
