"""The variants' structures on a board, or on millions of boards at once.

A board of the variant's deck (V^P cards, card c written in base V) is validated here and handed
to the compiled finders of :mod:`setlab.variants.kernels`: every structure is met once and
returned as an ascending tuple of positions into the board, the list sorted.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np

from setlab.errors import SetlabError
from setlab.find import batch_boards, batch_chunks
from setlab.geometry import third_card_table
from setlab.variants import kernels
from setlab.variants.structures import (
    MAX_TABLE_PROPERTIES,
    negative_table,
    sum_table,
    variant,
    vectors,
)

__all__ = [
    "Tables",
    "count_structures",
    "count_structures_batch",
    "find_structures",
    "find_structures_batch",
    "tables",
]


class Tables:
    """What the kernels read for one variant and deck: the kernel code and its lookup tables."""

    def __init__(self, name: str, properties: int, values: int) -> None:
        kind = variant(name)
        kind.check(properties, values)
        self.name, self.properties, self.values = name, properties, values
        self.size = kind.size(values)
        self.n_cards = values**properties
        # A kind leaves the tables it does not read empty, typed as the real ones are for decks
        # of at most 3^5 cards (read-only; third cards uint8, sums int32): numba compiles a
        # kernel once per argument types, so every kind then shares one compiled kernel.
        self.third = np.zeros((0, 0), dtype=np.uint8)
        self.plus = np.zeros((0, 0), dtype=np.int32)
        self.negative = np.zeros(0, dtype=np.int32)
        for table in (self.third, self.plus, self.negative):
            table.setflags(write=False)
        self.words = np.zeros((0, 0), dtype=np.int64)
        if name == "set" and values == 3 and properties <= MAX_TABLE_PROPERTIES:
            self.kind, self.third = kernels.SET, third_card_table(properties)
        elif name == "set":
            self.kind = kernels.VALUED
            self.words = vectors(np.arange(self.n_cards), properties, values)
        elif name == "ultra":
            self.kind, self.third = kernels.ULTRA, third_card_table(properties)
        elif name == "ghost":
            self.kind = kernels.GHOST
            self.plus, self.negative = sum_table(properties), negative_table(properties)
        else:
            self.kind = kernels.FOUR

    def board(self, cards: np.ndarray, out: np.ndarray) -> int:
        """The structures of one valid board into ``out``; how many."""
        position = np.full(self.n_cards, -1, dtype=np.int64)
        return kernels.structures_of_board(
            self.kind, cards, self.third, self.plus, self.negative, self.words, self.values,
            position, out,
        )  # fmt: skip


@cache
def tables(name: str, properties: int, values: int | None = None) -> Tables:
    """The kernel tables of variant ``name`` for P properties (V values; its own V by default).

    Examples
    --------
    >>> t = tables("4set", 3)
    >>> t.n_cards, t.size, t.values
    (64, 4, 4)
    """
    if values is None:
        values = variant(name).values or 3
    return Tables(name, properties, values)


def _as_board(board: Sequence[int] | np.ndarray, t: Tables) -> np.ndarray:
    try:
        indices = [int(c) for c in board]
    except TypeError:
        raise SetlabError("a board is a one-dimensional sequence of cards") from None
    if indices and (min(indices) < 0 or max(indices) >= t.n_cards):
        raise SetlabError(f"card index out of range for {t.values}^{t.properties} cards")
    if len(set(indices)) != len(indices):
        raise SetlabError("a board holds every card at most once")
    return np.array(indices, dtype=np.int64)


def find_structures(
    board: Sequence[int] | np.ndarray,
    name: str = "set",
    properties: int = 4,
    values: int | None = None,
) -> list[tuple[int, ...]]:
    """Every structure of variant ``name`` on a board: ascending position tuples, sorted.

    Parameters
    ----------
    board : cards as indices of the V^P deck (base-V digits), in table order
    name : "set" (V cards, each property all same or all different), "ultra", "ghost", "4set"
    properties : P
    values : V for "set" (default 3); the others fix their own

    Returns
    -------
    list of tuples of positions into ``board``

    Examples
    --------
    >>> find_structures([0, 4, 1, 3, 8], "ultra", 2)  # (0,0) + (1,1) = (0,1) + (1,0)
    [(0, 1, 2, 3)]
    >>> find_structures([0, 5, 10, 15, 1, 4], "4set", 2)  # 0^5^10^15 = 0^5^1^4 = 10^15^1^4 = 0
    [(0, 1, 2, 3), (0, 1, 4, 5), (2, 3, 4, 5)]
    """
    t = tables(name, properties, values)
    cards = _as_board(board, t)
    total = t.board(cards, np.zeros((0, t.size), dtype=np.int64))
    out = np.zeros((total, t.size), dtype=np.int64)
    t.board(cards, out)
    return [tuple(row) for row in out.tolist()]


def count_structures(
    board: Sequence[int] | np.ndarray,
    name: str = "set",
    properties: int = 4,
    values: int | None = None,
) -> int:
    """Number of structures of variant ``name`` on a board.

    Examples
    --------
    >>> count_structures(range(16), "4set", 2)  # every triple of the deck has its fourth card
    140
    """
    t = tables(name, properties, values)
    return int(t.board(_as_board(board, t), np.zeros((0, t.size), dtype=np.int64)))


def _batch(
    boards: np.ndarray, t: Tables, lengths: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    boards, lengths = batch_boards(boards, lengths)
    if not len(boards):
        return boards, lengths, np.zeros(0, dtype=np.int64)
    counts = kernels.count_structures_batch(
        t.kind, boards, lengths, t.third, t.plus, t.negative, t.words, t.values, t.n_cards,
        batch_chunks(len(boards)),
    )  # fmt: skip
    bad = np.flatnonzero(counts < 0)
    if len(bad):
        raise SetlabError(f"board {bad[0]} holds a card twice or out of range")
    return boards, lengths, counts


def count_structures_batch(
    boards: np.ndarray,
    name: str = "set",
    properties: int = 4,
    values: int | None = None,
    lengths: np.ndarray | None = None,
) -> np.ndarray:
    """Structures of variant ``name`` on each row of a (B, k) array of card indices.

    Examples
    --------
    >>> count_structures_batch(np.array([[0, 5, 10, 15], [0, 1, 2, 4]]), "4set", 2).tolist()
    [1, 0]
    """
    return _batch(boards, tables(name, properties, values), lengths)[2]


def find_structures_batch(
    boards: np.ndarray,
    name: str = "set",
    properties: int = 4,
    values: int | None = None,
    lengths: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Every structure on each row of a batch: ``(offsets, rows)``, as for sets.

    Board b's structures are ``rows[offsets[b]:offsets[b + 1]]``: ascending positions, sorted
    within each board as in :func:`find_structures`.

    Examples
    --------
    >>> offsets, rows = find_structures_batch(np.array([[0, 4, 1, 3], [0, 1, 2, 3]]), "ultra", 2)
    >>> offsets.tolist(), rows.tolist()
    ([0, 1, 1], [[0, 1, 2, 3]])
    """
    t = tables(name, properties, values)
    boards, lengths, counts = _batch(boards, t, lengths)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    rows = np.zeros((offsets[-1], t.size), dtype=np.int64)
    if len(boards):
        kernels.fill_structures_batch(
            t.kind, boards, lengths, t.third, t.plus, t.negative, t.words, t.values, t.n_cards,
            offsets, rows, batch_chunks(len(boards)),
        )  # fmt: skip
    return offsets, rows
