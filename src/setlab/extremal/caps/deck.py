"""Decks with P properties of V values: cards, sets, and the pairs each card completes.

Three distinct cards form a set iff every property is all same or all different on them: a
3-uniform hypergraph on the V^P cards (for V = 3 the lines of AG(P,3)). A pair of cards has one
completing card when V = 3 and up to (V - 2)^P otherwise, stored once per deck as a table.
A cap holds no set: a card x extends a cap S iff x is not in S and completes no pair of S.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numba as nb
import numpy as np

from setlab.cards import check_properties, valued_digits
from setlab.errors import SetlabError
from setlab.geometry import affine_group_order, parallel_classes, third_card_table
from setlab.symmetry import Incidence

__all__ = [
    "MAX_SEARCH_CARDS",
    "Deck",
    "card_words",
    "deck",
    "deck_pair_completions",
    "free_cards",
    "is_cap",
]

MAX_SEARCH_CARDS = 256
"""Largest deck (V^P cards) the exact search accepts."""


@dataclass(frozen=True, eq=False)
class Deck:
    """The game with P properties of V values each, as a 3-uniform hypergraph on V^P cards.

    Three distinct cards form a set iff every property is all same or all different on them. For
    V = 3 the cards are F_3^P, the sets are the lines of AG(P,3) and the group is AGL(P,3); for
    other V the sets have no affine structure and the group used is S_V wr S_P (permute the values
    of each property, permute the properties). Card c has digits ``c`` in base V, big-endian.

    ``completions[offsets[a * N + b] : offsets[a * N + b + 1]]`` are the cards completing the pair
    (a, b) to a set; ``slices[c, v]`` is part v of the c-th partition of the deck into copies of
    the deck with P - 1 properties (hyperplanes of one direction, or one property's values).
    ``incidence`` is the structure whose automorphisms are the group: the cards, one vertex per
    slice joined to its cards and, for V != 3, one vertex per property joined to its V slices.
    """

    properties: int
    values: int
    offsets: np.ndarray
    completions: np.ndarray
    slices: np.ndarray
    incidence: Incidence

    @property
    def size(self) -> int:
        """Number of cards V^P."""
        return self.values**self.properties

    @property
    def group_order(self) -> int:
        """|G|: the order of AGL(P,3) (V = 3) or of S_V wr S_P."""
        return self.incidence.group_order


def deck(properties: int, values: int = 3) -> Deck:
    """The deck with ``properties`` properties of ``values`` values (at most 256 cards).

    Examples
    --------
    >>> d = deck(2, 4)
    >>> d.size, d.group_order  # 16 cards; (4!)^2 * 2! value and property permutations
    (16, 1152)
    """
    check_properties(properties)
    if not isinstance(values, int) or values < 2:
        raise SetlabError(f"values per property must be an integer >= 2, got {values!r}")
    if values**properties > MAX_SEARCH_CARDS:
        raise SetlabError(
            f"{values}^{properties} = {values**properties} cards: the exact search takes decks of"
            f" at most {MAX_SEARCH_CARDS} cards"
        )
    return _deck(properties, values)


@cache
def _deck(properties: int, values: int) -> Deck:
    n = values**properties
    if values == 3:
        table = third_card_table(properties)
        completions = table.reshape(-1).astype(np.int32)
        offsets = np.arange(n * n + 1, dtype=np.int64)
        slices = parallel_classes(properties)
        group_order = affine_group_order(properties)
        extra: list[list[int]] = []
    else:
        words = np.indices((values,) * properties).reshape(properties, -1).T
        place = values ** np.arange(properties - 1, -1, -1)
        counts = np.zeros(n * n, dtype=np.int64)
        found: list[np.ndarray] = []
        for a, b in itertools.permutations(range(n), 2):
            choices = [
                [int(x)] if x == y else [v for v in range(values) if v not in (x, y)]
                for x, y in zip(words[a], words[b], strict=True)
            ]
            cards = np.array(list(itertools.product(*choices)), dtype=np.int64).reshape(
                -1, properties
            )
            found.append(cards @ place)
            counts[a * n + b] = len(cards)
        offsets = np.zeros(n * n + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        completions = np.concatenate(found).astype(np.int32)
        slices = np.stack(
            [[np.flatnonzero(words[:, p] == v) for v in range(values)] for p in range(properties)]
        ).astype(np.int32)
        group_order = math.factorial(values) ** properties * math.factorial(properties)
        # one vertex per property joined to its V slices: the coloured graph's group is S_V wr S_P
        extra = [list(range(n + p * values, n + (p + 1) * values)) for p in range(len(slices))]
    flat = slices.reshape(-1, slices.shape[-1])
    adjacency = {n + s: [int(c) for c in members] for s, members in enumerate(flat)}
    first_extra = n + len(flat)
    for p, joined in enumerate(extra):
        adjacency[first_extra + p] = joined
    cells = [frozenset(range(n, first_extra))]
    if extra:
        cells.append(frozenset(range(first_extra, first_extra + len(extra))))
    incidence = Incidence(n, adjacency, tuple(cells), group_order)
    return Deck(properties, values, offsets, completions, slices, incidence)


@nb.njit(cache=True)
def deck_pair_completions(cap, offsets, completions, n):  # pragma: no cover - compiled
    """``completes[z]``: the number of pairs of ``cap`` that card z completes to a set.

    The one walk of a deck's completion table: :func:`setlab.kernels.pair_completions` for a
    deck whose pairs may have several completing cards.

    Examples
    --------
    >>> d = deck(2, 4)
    >>> deck_pair_completions(np.array([0, 5]), d.offsets, d.completions, d.size).tolist()
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 1, 1]
    """
    completes = np.zeros(n, dtype=np.int64)
    for i in range(cap.shape[0]):
        for j in range(i):
            pair = cap[i] * n + cap[j]
            for t in range(offsets[pair], offsets[pair + 1]):
                completes[completions[t]] += 1
    return completes


def free_cards(cap: Sequence[int], properties: int, values: int = 3) -> np.ndarray:
    """Boolean mask of the cards that can be added to ``cap`` keeping it a cap.

    Examples
    --------
    >>> np.flatnonzero(free_cards([0, 1], 2)).tolist()  # 2 completes (0, 1); 0, 1 are taken
    [3, 4, 5, 6, 7, 8]
    """
    d = deck(properties, values)
    cap = np.asarray(cap, dtype=np.int64)
    free = deck_pair_completions(cap, d.offsets, d.completions, d.size) == 0
    free[cap] = False
    return free


def is_cap(cards: Sequence[int], properties: int, values: int = 3) -> bool:
    """True iff the distinct cards ``cards`` hold no set (brute force over all triples).

    Examples
    --------
    >>> is_cap([0, 1, 3, 4], 2), is_cap([0, 1, 2], 2), is_cap([0, 1, 4], 2, values=4)
    (True, False, True)
    """
    d = deck(properties, values)
    cards = [int(c) for c in cards]
    if len(set(cards)) != len(cards) or not all(0 <= c < d.size for c in cards):
        raise SetlabError("a cap is a collection of distinct cards of the deck")
    chosen = set(cards)
    for a, b in itertools.combinations(cards, 2):
        pair = a * d.size + b
        if chosen.intersection(d.completions[d.offsets[pair] : d.offsets[pair + 1]].tolist()):
            return False
    return True


def card_words(cards: Sequence[int], properties: int, values: int = 3) -> list[list[int]]:
    """Digit lists (base V, big-endian) of card indices.

    Examples
    --------
    >>> card_words([0, 5], 2, 4)
    [[0, 0], [1, 1]]
    """
    return [[int(d) for d in valued_digits(int(c), properties, values)] for c in cards]
