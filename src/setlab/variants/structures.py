"""The structures of the variants, as mathematics: which collections of distinct cards they are.

SET (V = 3) and the general game: V cards of the V-valued deck, each property all same or all
different. UltraSet: four cards of F_3^P with a + b = c + d for some pairing (both pairs
complete to the same third card). GhostSet: six cards of F_3^P summing to 0. 4Set: four cards of
the 4-valued deck, (F_2^2)^P, summing to 0 (per property AAAA, ABCD or AABB): the XOR of their
indices is 0, each base-4 digit being two bits.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from setlab.cards import check_properties, check_values
from setlab.errors import SetlabError
from setlab.geometry import digits, indices_of

__all__ = [
    "MAX_TABLE_PROPERTIES",
    "VARIANTS",
    "Variant",
    "is_four_set",
    "is_ghost",
    "is_ghost_by_pairs",
    "is_ultra",
    "is_valued_set",
    "negative_table",
    "sum_table",
    "variant",
    "vectors",
]

MAX_TABLE_PROPERTIES = 6
"""Largest P for UltraSet and GhostSet: their kernels read (3^P)^2 tables of sums."""


@dataclass(frozen=True)
class Variant:
    """A structure of one variant: its name, cards per structure and values per property.

    ``values`` is None for the general game ("set"), where it is chosen per deck and a
    structure is V cards.
    """

    name: str
    cards: int
    values: int | None
    title: str

    def size(self, values: int = 3) -> int:
        """Cards in one structure (V for the general game)."""
        return values if self.values is None else self.cards

    def check(self, properties: int, values: int) -> None:
        """Refuse a deck this variant is not played with (a SetlabError)."""
        check_values(properties, values)
        if self.values is not None and values != self.values:
            raise SetlabError(f"{self.title} is played with {self.values} values per property, "
                              f"not {values}")  # fmt: skip
        if self.name in ("ultra", "ghost") and properties > MAX_TABLE_PROPERTIES:
            raise SetlabError(f"{self.title} is supported for at most {MAX_TABLE_PROPERTIES} "
                              "properties")  # fmt: skip


VARIANTS = {
    "set": Variant("set", 3, None, "SET"),
    "ultra": Variant("ultra", 4, 3, "UltraSet"),
    "ghost": Variant("ghost", 6, 3, "GhostSet"),
    "4set": Variant("4set", 4, 4, "4Set"),
}
"""The variants by name: the general V-valued set, UltraSet, GhostSet and 4Set."""


def variant(name: str) -> Variant:
    """The variant called ``name`` (a SetlabError for an unknown name).

    Examples
    --------
    >>> variant("ghost").size(), variant("set").size(5)
    (6, 5)
    """
    if name not in VARIANTS:
        raise SetlabError(f"unknown variant {name!r}: choose from {', '.join(VARIANTS)}")
    return VARIANTS[name]


def vectors(cards: Sequence[int], properties: int, values: int = 3) -> np.ndarray:
    """The (k, P) digit vectors (base V, big-endian) of card indices.

    Examples
    --------
    >>> vectors([27, 255], 4, 4).tolist()
    [[0, 1, 2, 3], [3, 3, 3, 3]]
    """
    cards = np.asarray(cards, dtype=np.int64).reshape(-1, 1)
    place = values ** np.arange(properties - 1, -1, -1, dtype=np.int64)
    return (cards // place) % values


@cache
def sum_table(properties: int) -> np.ndarray:
    """The (3^P, 3^P) table S with S[a, b] = a + b in F_3^P (int32 card indices).

    Examples
    --------
    >>> int(sum_table(2)[4, 5])  # (1,1) + (1,2) = (2,0)
    6
    """
    _check_table(properties)
    grid = digits(properties).astype(np.int64)
    table = indices_of(grid[:, None, :] + grid[None, :, :]).astype(np.int32)
    table.setflags(write=False)
    return table


@cache
def negative_table(properties: int) -> np.ndarray:
    """``negative[a]`` = -a in F_3^P, for every card.

    Examples
    --------
    >>> negative_table(1).tolist()
    [0, 2, 1]
    """
    check_properties(properties)
    table = indices_of(-digits(properties).astype(np.int64)).astype(np.int32)
    table.setflags(write=False)
    return table


def _check_table(properties: int) -> None:
    check_properties(properties)
    if properties > MAX_TABLE_PROPERTIES:
        raise SetlabError(f"sum tables are built for at most {MAX_TABLE_PROPERTIES} properties")


def _distinct(cards: Sequence[int], count: int) -> bool:
    return len(cards) == count and len(set(int(c) for c in cards)) == count


def is_ultra(cards: Sequence[int], properties: int) -> bool:
    """True iff four distinct cards of F_3^P pair up as a + b = c + d (an UltraSet).

    At most one of the three pairings can work: a + b = c + d and a + c = b + d give 2b = 2c.

    Examples
    --------
    >>> is_ultra([0, 4, 1, 3], 2)  # (0,0) + (1,1) = (0,1) + (1,0)
    True
    >>> is_ultra([0, 1, 2, 3], 2)
    False
    """
    if not _distinct(cards, 4):
        return False
    a, b, c, d = vectors(cards, properties)
    return any(
        not ((x + y - z - w) % 3).any() for x, y, z, w in ((a, b, c, d), (a, c, b, d), (a, d, b, c))
    )


def is_ghost(cards: Sequence[int], properties: int) -> bool:
    """True iff six distinct cards of F_3^P sum to 0 (a GhostSet, the fork's definition).

    Examples
    --------
    >>> is_ghost([0, 1, 2, 3, 6, 4], 2)  # (0,0)+(0,1)+(0,2)+(1,0)+(2,0)+(1,1) = (4,4) != 0
    False
    >>> is_ghost([0, 1, 2, 3, 4, 5], 2)  # two parallel sets
    True
    """
    if not _distinct(cards, 6):
        return False
    return not (vectors(cards, properties).sum(axis=0) % 3).any()


def is_ghost_by_pairs(cards: Sequence[int], properties: int) -> bool:
    """True iff six distinct cards split into three pairs whose third cards form a set.

    This is the stricter reading of the rule; it holds exactly when :func:`is_ghost` does: the
    thirds -(a+b), -(c+d), -(e+f) sum to minus the six cards, and three cards of F_3^P with sum
    0 are a set or one card thrice; if one pairing gives one card thrice, swapping b and c gives
    a + c != e + f (else b = c), hence a set.

    Examples
    --------
    >>> is_ghost_by_pairs([0, 1, 2, 3, 4, 5], 2)
    True
    """
    if not _distinct(cards, 6):
        return False
    vec = vectors(cards, properties)
    for pairs in _matchings(list(range(6))):
        thirds = {tuple(((-vec[i] - vec[j]) % 3).tolist()) for i, j in pairs}
        if len(thirds) == 3 and not (np.sum(list(thirds), axis=0) % 3).any():
            return True
    return False


def _matchings(items: list[int]) -> list[list[tuple[int, int]]]:
    """Every split of ``items`` (even length) into pairs: 15 for six items."""
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    return [
        [(first, partner), *more]
        for i, partner in enumerate(rest)
        for more in _matchings(rest[:i] + rest[i + 1 :])
    ]


def is_four_set(cards: Sequence[int], properties: int) -> bool:
    """True iff four distinct 4-valued cards show AAAA, ABCD or AABB in every property (a 4Set).

    Examples
    --------
    >>> is_four_set([0, 5, 10, 15], 2), is_four_set([0, 1, 4, 5], 2), is_four_set([0, 1, 2, 4], 2)
    (True, True, False)
    """
    if not _distinct(cards, 4):
        return False
    for column in vectors(cards, properties, 4).T:
        counts = sorted(np.bincount(column, minlength=4).tolist())
        if counts not in ([0, 0, 0, 4], [1, 1, 1, 1], [0, 0, 2, 2]):
            return False
    return True


def is_valued_set(cards: Sequence[int], properties: int, values: int) -> bool:
    """True iff V distinct cards of the V-valued deck are, per property, all same or all different.

    Examples
    --------
    >>> is_valued_set([0, 5, 10, 15], 2, 4), is_valued_set([0, 1, 4, 5], 2, 4)
    (True, False)
    """
    if not _distinct(cards, values):
        return False
    return all(
        len(set(column.tolist())) in (1, values) for column in vectors(cards, properties, values).T
    )
