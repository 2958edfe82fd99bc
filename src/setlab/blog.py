"""The finding-sets methods of the seed blog "Finding sets in the card game SET", re-implemented.

A card is a tuple of P digits in {0, 1, 2}; three cards form a set iff on every coordinate they
are all equal or all different, equivalently iff their digits sum to 0 mod 3. The methods are
(1) generate and test every triple, (2) the same with the mod-3 test, (3) for every pair, build
the third card -(x + y) mod 3 and look it up in a dict of positions, and (4) the same with cards
packed 2 bits per coordinate, the third card computed by bitwise logic and looked up in a list
of 4^P entries (256 for P = 4). Each returns the sets as sorted position triples (i < j < k) in
lexicographic order, exactly like :func:`setlab.find.find_sets`; they are the plain-Python
baselines that setlab's kernels are measured against.

References
----------
Seed blog "Finding sets in the card game SET" (finding-sets-blog.md): the four methods; the
bitwise third-card formula below is derived here from the truth table of -(x + y) mod 3.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = [
    "METHODS",
    "Triple",
    "Vector",
    "encode_bits",
    "find_sets_bits",
    "find_sets_dict",
    "find_sets_generate_and_test",
    "find_sets_mod",
    "find_sets_packed",
    "is_set_mod",
    "is_set_readable",
    "third_card_bits",
    "third_card_simple",
]

Vector = tuple[int, ...]
Triple = tuple[int, int, int]


def is_set_readable(a: Vector, b: Vector, c: Vector) -> bool:
    """The rule as stated: on every coordinate all the same or all different.

    Examples
    --------
    >>> is_set_readable((1, 0, 2, 2), (1, 1, 0, 2), (1, 2, 1, 2))
    True
    >>> is_set_readable((0, 0, 1, 1), (1, 1, 1, 2), (1, 2, 1, 0))
    False
    """
    return all((u == v == w) or len({u, v, w}) == 3 for u, v, w in zip(a, b, c, strict=True))


def is_set_mod(a: Vector, b: Vector, c: Vector) -> bool:
    """The integer test: every coordinate sums to 0 mod 3.

    Examples
    --------
    >>> is_set_mod((1, 0, 2, 2), (1, 1, 0, 2), (1, 2, 1, 2))
    True
    """
    return all((u + v + w) % 3 == 0 for u, v, w in zip(a, b, c, strict=True))


def find_sets_generate_and_test(
    cards: Sequence[Vector], test: Callable[[Vector, Vector, Vector], bool] = is_set_readable
) -> list[Triple]:
    """Method 1 (and 2 with ``test=is_set_mod``): test all C(n, 3) triples, first card first.

    Examples
    --------
    >>> find_sets_generate_and_test([(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)])
    [(0, 1, 2), (0, 3, 4)]
    """
    found = []
    for i, ci in enumerate(cards):
        for j in range(i + 1, len(cards)):
            cj = cards[j]
            for k in range(j + 1, len(cards)):
                if test(ci, cj, cards[k]):
                    found.append((i, j, k))
    return found


def find_sets_mod(cards: Sequence[Vector]) -> list[Triple]:
    """Method 2: generate and test with the mod-3 test.

    Examples
    --------
    >>> find_sets_mod([(0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (0, 1, 2, 0)])  # 0+1+2 = 0 mod 3
    [(0, 1, 2)]
    """
    return find_sets_generate_and_test(cards, is_set_mod)


def third_card_simple(a: Vector, b: Vector) -> Vector:
    """The card completing a and b: -(a + b) mod 3 coordinatewise.

    Examples
    --------
    >>> third_card_simple((0, 1, 2, 0), (0, 2, 2, 1))
    (0, 0, 2, 2)
    """
    return tuple((-u - v) % 3 for u, v in zip(a, b, strict=True))


def find_sets_dict(cards: Sequence[Vector]) -> list[Triple]:
    """Method 3: per pair, look the third card up in a dict card -> position.

    The set {i, j, k} is kept only at its first two cards, i.e. when the third lies after j.

    Examples
    --------
    >>> find_sets_dict([(0, 0), (0, 1), (0, 2), (1, 0), (2, 0)])
    [(0, 1, 2), (0, 3, 4)]
    """
    have = {card: position for position, card in enumerate(cards)}
    found = []
    for i, ci in enumerate(cards):
        for j in range(i + 1, len(cards)):
            k = have.get(third_card_simple(ci, cards[j]), -1)
            if k > j:
                found.append((i, j, k))
    return found


def encode_bits(card: Vector) -> int:
    """Pack a card 2 bits per coordinate (0 -> 00, 1 -> 01, 2 -> 10), first coordinate highest.

    Examples
    --------
    >>> encode_bits((1, 0, 2, 1))  # 01 00 10 01
    73
    """
    bits = 0
    for digit in card:
        bits = (bits << 2) | digit
    return bits


def third_card_bits(x: int, y: int, properties: int = 4) -> int:
    """The third card of two packed cards, every coordinate at once by bitwise logic.

    Per coordinate, with h, l the high and low bit and "zero" meaning neither is set, the third
    value -(x + y) mod 3 is 2 exactly for the pairs {0, 1} and {2, 2} (x + y = 1 mod 3) and 1
    exactly for {0, 2} and {1, 1} (x + y = 2 mod 3), which reads as
    ``h = (zero_x & l_y) | (l_x & zero_y) | (h_x & h_y)`` and
    ``l = (zero_x & h_y) | (h_x & zero_y) | (l_x & l_y)``, evaluated on all low-bit lanes.

    Examples
    --------
    >>> third_card_bits(encode_bits((0, 1, 2, 0)), encode_bits((0, 2, 2, 1))) == encode_bits(
    ...     (0, 0, 2, 2))
    True
    """
    lanes = int("01" * properties, 2)
    xl, xh = x & lanes, (x >> 1) & lanes
    yl, yh = y & lanes, (y >> 1) & lanes
    x0 = ~(x | (x >> 1)) & lanes
    y0 = ~(y | (y >> 1)) & lanes
    high = (x0 & yl) | (xl & y0) | (xh & yh)
    low = (x0 & yh) | (xh & y0) | (xl & yl)
    return (high << 1) | low


def find_sets_bits(cards: Sequence[Vector]) -> list[Triple]:
    """Method 4: packed cards, bitwise third card, positions in a list of 4^P entries (-1 = absent).

    Examples
    --------
    >>> find_sets_bits([(0, 0, 0, 0), (0, 0, 0, 1), (0, 0, 0, 2), (1, 0, 0, 0), (2, 0, 0, 0)])
    [(0, 1, 2), (0, 3, 4)]
    """
    if not cards:
        return []
    return find_sets_packed([encode_bits(card) for card in cards], len(cards[0]))


def find_sets_packed(bits: Sequence[int], properties: int = 4) -> list[Triple]:
    """Method 4 on cards already packed by :func:`encode_bits` (the blog keeps them packed).

    Examples
    --------
    >>> find_sets_packed([0b00000000, 0b00000001, 0b00000010, 0b01000000])
    [(0, 1, 2)]
    """
    have = [-1] * (4**properties)
    for position, b in enumerate(bits):
        have[b] = position
    found = []
    for i, bi in enumerate(bits):
        for j in range(i + 1, len(bits)):
            k = have[third_card_bits(bi, bits[j], properties)]
            if k > j:
                found.append((i, j, k))
    return found


METHODS: dict[str, Callable[[Sequence[Vector]], list[Triple]]] = {
    "generate and test": find_sets_generate_and_test,
    "generate and test, mod 3": find_sets_mod,
    "third card, dict lookup": find_sets_dict,
    "third card, 8-bit cards and 256-list": find_sets_bits,
}
"""The blog's methods by name, slowest first."""
