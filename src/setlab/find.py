"""Sets on a board: test, complete, find and count, for one board or millions at once.

Three distinct cards form a set iff they are collinear in AG(P,3): x + y + z = 0. To find every
set on a board of k cards, walk the C(k,2) pairs in board order, look up the third card in the
table of :func:`setlab.geometry.third_card_table`, and keep the triple when that card lies on the
board *after* the pair's second card (so each set is met exactly once, at its first two cards).
One board is walked by a numpy expression over its pairs (no compiler to load, so a single
answer comes at once); the batch kernels of :mod:`setlab.kernels` do the same per board inside
numba, boards split across cores, and are loaded on first use.

References
----------
P. Norvig-style exposition of the generate-and-test method and its optimisations: the seed blog
"Finding sets in the card game SET" (finding-sets-blog.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from setlab.cards import PROPERTY_NAMES, Card, check_properties, deck_size
from setlab.errors import SetlabError
from setlab.geometry import third_card_table

__all__ = [
    "Board",
    "Mismatch",
    "batch_boards",
    "batch_chunks",
    "count_sets",
    "count_sets_batch",
    "find_sets",
    "find_sets_batch",
    "hint",
    "is_set",
    "mismatches",
    "third_card",
]

Board = Sequence[int | Card] | np.ndarray
"""A board: cards as :class:`Card` objects or indices, in table order."""


def is_set(a: Card, b: Card, c: Card) -> bool:
    """True iff three distinct cards form a set: every property all same or all different.

    In F_3^P that is a + b + c = 0: three values of a property sum to 0 mod 3 exactly when they
    are all equal or all different.

    Parameters
    ----------
    a, b, c : Card
        Three cards of one deck; two equal cards are never a set.

    Returns
    -------
    bool

    Examples
    --------
    >>> is_set(Card.parse("1RSD"), Card.parse("2RSD"), Card.parse("3RSD"))
    True
    >>> is_set(Card.parse("1RSD"), Card.parse("2RSD"), Card.parse("3RSO"))
    False
    """
    if len({a, b, c}) < 3:
        return False
    return all((x + y + z) % 3 == 0 for x, y, z in zip(a.vector, b.vector, c.vector, strict=True))


@dataclass(frozen=True)
class Mismatch:
    """A property that keeps three cards from being a set: two of them agree, one differs."""

    axis: int
    property: str
    values: tuple[int, int, int]


def mismatches(a: Card, b: Card, c: Card) -> list[Mismatch]:
    """Why three cards are not a set: each property that is neither all same nor all different.

    Empty exactly when the cards form a set (three distinct cards; a card given twice is
    refused). For P = 4 the properties are named, otherwise called ``digit i``, counted from 1
    (``axis`` counts from 0).

    Examples
    --------
    >>> [m.property for m in mismatches(*(Card.parse(t) for t in ("1RSD", "2GSD", "3GSO")))]
    ['colour', 'shape']
    >>> mismatches(Card.parse("1RSD"), Card.parse("2RSD"), Card.parse("3RSD"))
    []
    """
    if len({a, b, c}) < 3:
        raise SetlabError("a set needs three different cards")
    if not a.properties == b.properties == c.properties:
        raise SetlabError("cards of different games")
    names = PROPERTY_NAMES
    if a.properties != 4:
        names = tuple(f"digit {i + 1}" for i in range(a.properties))
    return [
        Mismatch(axis, names[axis], (x, y, z))
        for axis, (x, y, z) in enumerate(zip(a.vector, b.vector, c.vector, strict=True))
        if (x + y + z) % 3
    ]


def hint(board: Board, properties: int = 4) -> tuple[int | None, int]:
    """One card of a set on the board, without the rest: ``(position, number of sets)``.

    The card lying in the most sets (the first such on the board), or None when there is no
    set: a player looks for the two cards that complete it.

    Examples
    --------
    >>> hint([Card.parse(c) for c in ("1RSD", "2RSD", "3RSD", "1GSD", "1PSD")])
    (0, 2)
    >>> hint([0, 1])
    (None, 0)
    """
    sets = find_sets(board, properties)
    if not sets:
        return None, 0
    size = len(_as_board(board, properties))
    through = np.bincount(np.array(sets).ravel(), minlength=size)
    return int(np.argmax(through)), len(sets)


def third_card(a: Card, b: Card) -> Card:
    """The unique card that completes two distinct cards to a set.

    In F_3^P the third card is -(a + b): in each property the shared value, or the one neither
    card has.

    Parameters
    ----------
    a, b : Card
        Two different cards of one deck.

    Returns
    -------
    Card

    Examples
    --------
    >>> print(third_card(Card.parse("3 red solid diamonds"), Card.parse("2 green solid squiggles")))
    1 purple solid oval
    """
    if a == b:
        raise SetlabError(f"third card of '{a.code}' and itself: give two different cards")
    return a.third(b)


def _as_board(board: Board, properties: int) -> np.ndarray:
    check_properties(properties)
    if isinstance(board, np.ndarray):
        if board.ndim != 1:
            raise SetlabError("a board is a one-dimensional sequence of cards")
        indices = board.tolist()
    else:
        try:
            indices = [int(c) for c in board]
        except TypeError:
            raise SetlabError("a board is a one-dimensional sequence of cards") from None
    if indices and (min(indices) < 0 or max(indices) >= deck_size(properties)):
        raise SetlabError(f"card index out of range for {properties} properties")
    if len(set(indices)) != len(indices):
        raise SetlabError("a board holds every card at most once")
    return np.array(indices, dtype=np.int64)


def _sets_of_board(cards: np.ndarray, properties: int) -> np.ndarray:
    """Rows (i, j, k), i < j < k, of the sets of one board: the walk of
    :func:`setlab.kernels.sets_of_board` over all pairs at once, in numpy."""
    position = np.full(deck_size(properties), -1, dtype=np.int64)
    position[cards] = np.arange(len(cards))
    first, second = np.triu_indices(len(cards), 1)
    third = position[third_card_table(properties)[cards[first], cards[second]]]
    keep = third > second  # each set met once: at its two first cards
    return np.stack([first[keep], second[keep], third[keep]], axis=1)


def find_sets(board: Board, properties: int = 4) -> list[tuple[int, int, int]]:
    """All sets on a board, as sorted triples of positions into ``board``, in order.

    Parameters
    ----------
    board : sequence of Card or int, or a 1-D array of card indices
        The cards on the table, distinct, in table order.
    properties : int, default 4
        P: the cards are points of F_3^P (the real deck has 4 properties, 81 cards).

    Returns
    -------
    list of (int, int, int)
        Each set as three positions i < j < k into ``board``, sorted.

    Examples
    --------
    >>> board = [Card.parse(c) for c in ("1RSD", "2RSD", "3RSD", "1GSD", "1PSD")]
    >>> find_sets(board)
    [(0, 1, 2), (0, 3, 4)]
    """
    return [tuple(row) for row in _sets_of_board(_as_board(board, properties), properties).tolist()]


def count_sets(board: Board, properties: int = 4) -> int:
    """Number of sets on a board.

    Parameters
    ----------
    board : sequence of Card or int, or a 1-D array of card indices
        The cards on the table, distinct.
    properties : int, default 4
        P, the number of properties.

    Returns
    -------
    int
        ``len(find_sets(board, properties))``, without building the triples.

    Examples
    --------
    >>> count_sets(range(81))  # the whole deck
    1080
    """
    return len(_sets_of_board(_as_board(board, properties), properties))


def batch_chunks(n_boards: int) -> int:
    """Work units for the parallel batch kernels: a few per thread, each reusing one table.

    Examples
    --------
    >>> 1 <= batch_chunks(1000) <= 1000 and batch_chunks(1) == 1
    True
    """
    import numba as nb

    return max(1, min(n_boards, 8 * nb.get_num_threads()))


def batch_boards(
    boards: np.ndarray, lengths: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """A batch of boards checked for shape: (B, k) int64 card indices and each row's length.

    Row b holds a board of ``lengths[b]`` cards (default: all k) in its first places; what the
    cards must be (in range, distinct) is for the kernel that reads them to check.

    Examples
    --------
    >>> boards, lengths = batch_boards(np.array([[0, 1, 2], [3, 4, 0]]), [3, 2])
    >>> boards.dtype.name, lengths.tolist()
    ('int64', [3, 2])
    """
    boards = np.ascontiguousarray(boards)
    if boards.ndim != 2:
        raise SetlabError("a batch of boards is a 2-d array: one board of cards per row")
    if not np.issubdtype(boards.dtype, np.integer):
        raise SetlabError("boards must hold integer card indices")
    boards = boards.astype(np.int64, copy=False)
    if lengths is None:
        lengths = np.full(len(boards), boards.shape[1], dtype=np.int64)
    lengths = np.asarray(lengths, dtype=np.int64)
    if lengths.shape != (len(boards),) or (lengths < 0).any() or (lengths > boards.shape[1]).any():
        raise SetlabError("lengths must give, per board, a card count within the row")
    return boards, lengths


def _batch_counts(
    boards: np.ndarray, properties: int, lengths: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Validated boards, lengths and set counts (the kernel checks every board as it counts)."""
    check_properties(properties)
    boards, lengths = batch_boards(boards, lengths)
    if not len(boards):
        return boards, lengths, np.zeros(0, dtype=np.int64)
    from setlab.kernels import count_batch  # numba: loaded with the first batch

    n = deck_size(properties)
    chunks = batch_chunks(len(boards))
    counts = count_batch(boards, third_card_table(properties), n, lengths, chunks)
    bad = np.flatnonzero(counts < 0)
    if len(bad):
        board = boards[bad[0], : lengths[bad[0]]]
        problem = "a card out of range" if ((board < 0) | (board >= n)).any() else "a card twice"
        raise SetlabError(f"board {bad[0]} holds {problem} ({properties} properties)")
    return boards, lengths, counts


def count_sets_batch(
    boards: np.ndarray, properties: int = 4, lengths: np.ndarray | None = None
) -> np.ndarray:
    """Number of sets on each row of a (B, k) array of card indices.

    Parameters
    ----------
    boards : ndarray of int, shape (B, k)
        One board per row, its cards distinct indices of the deck.
    properties : int, default 4
        P, the number of properties.
    lengths : ndarray of int, shape (B,), optional
        ``lengths[b]`` says that only the first ``lengths[b]`` cards of row b are on the board
        (boards of different sizes in one array).

    Returns
    -------
    ndarray of int64, shape (B,)
        The number of sets on each board, counted by a compiled kernel over the boards in
        parallel.

    Examples
    --------
    >>> count_sets_batch(np.array([[0, 1, 2, 3], [0, 1, 3, 4]])).tolist()
    [1, 0]
    """
    return _batch_counts(boards, properties, lengths)[2]


def find_sets_batch(
    boards: np.ndarray, properties: int = 4, lengths: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """All sets on each row of a (B, k) array of card indices.

    Parameters
    ----------
    boards : ndarray of int, shape (B, k)
        One board per row, as in :func:`count_sets_batch`.
    properties : int, default 4
        P, the number of properties.
    lengths : ndarray of int, shape (B,), optional
        The number of cards on each board, as in :func:`count_sets_batch`.

    Returns
    -------
    offsets : ndarray of int64, shape (B + 1,)
    sets : ndarray of int64, shape (offsets[-1], 3)
        The sets of board b are the rows ``sets[offsets[b]:offsets[b + 1]]``, sorted position
        triples as in :func:`find_sets`.

    Examples
    --------
    >>> offsets, sets = find_sets_batch(np.array([[0, 1, 2, 3], [0, 1, 3, 4]]))
    >>> offsets.tolist(), sets.tolist()
    ([0, 1, 1], [[0, 1, 2]])
    """
    boards, lengths, counts = _batch_counts(boards, properties, lengths)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    sets = np.zeros((offsets[-1], 3), dtype=np.int64)
    if len(boards):
        from setlab.kernels import fill_batch

        table = third_card_table(properties)
        chunks = batch_chunks(len(boards))
        fill_batch(boards, table, deck_size(properties), lengths, offsets, sets, chunks)
    return offsets, sets
