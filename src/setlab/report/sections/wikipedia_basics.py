"""The Wikipedia article's basic counts, recomputed from the geometry of AG(4,3).

The deck is F_3^4 (81 cards), sets are its 1080 lines; any two cards lie on exactly one line; a
line whose three cards differ in d features is a direction vector with d non-zero coordinates,
so C(4, d) 2^d of the 80 directions: 10, 30, 40 and 20 % for d = 1..4.
"""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import numpy as np

from setlab.cards import Card, deck
from setlab.find import count_sets, find_sets
from setlab.geometry import digits, lines, third_card_table
from setlab.render import board_svg, point_position
from setlab.report.model import Claim, Claims, Context, Figure, Section, Text

TITLE = "Wikipedia: the deck, its sets and deals"


def pairs_with_unique_third_card() -> int:
    """Pairs of distinct cards with exactly one card completing them, found by testing all 81.

    Brute force over every (pair, card) with the per-feature rule, independent of the table;
    each found card is also checked against :func:`setlab.geometry.third_card_table`.

    Examples
    --------
    >>> pairs_with_unique_third_card()
    3240
    """
    d = digits(4).astype(np.int64)
    collinear = ((d[:, None, None, :] + d[None, :, None, :] + d[None, None, :, :]) % 3 == 0).all(-1)
    a, b = np.triu_indices(81, k=1)
    completions = collinear[a, b]  # (pairs, 81): which cards complete each pair
    unique = completions.sum(axis=1) == 1
    table = third_card_table(4)
    agrees = completions.argmax(axis=1) == table[a, b]
    return int((unique & agrees).sum())


def sets_by_differing_features() -> dict[int, int]:
    """Number of the 1080 sets whose three cards differ in exactly d features, d = 1..4.

    Examples
    --------
    >>> sets_by_differing_features()
    {1: 108, 2: 324, 3: 432, 4: 216}
    """
    d = digits(4)[lines(4)]  # (1080, 3, 4)
    differing = (d[:, 0, :] != d[:, 1, :]).sum(axis=1)
    return {k: int((differing == k).sum()) for k in range(1, 5)}


def deck_sums_to_zero() -> bool:
    """True iff the 81 cards sum to 0 in F_3^4: so after 26 sets the last 3 cards are a set.

    Examples
    --------
    >>> deck_sums_to_zero()  # each digit takes each value 27 times: 27 * (0 + 1 + 2) = 81
    True
    """
    return bool((digits(4).astype(np.int64).sum(axis=0) % 3 == 0).all())


def build(context: Context) -> Section:
    """The article's numbers, each recomputed, and its two example sets drawn."""
    sets_in_deck = context.compute("count_sets on all 81 cards", count_sets, range(81))
    unique = context.compute("all 3240 pairs x 81 cards tested", pairs_with_unique_third_card)
    split = context.compute(
        "differing features of each line of lines(4)", sets_by_differing_features
    )
    total = sum(split.value.values())
    odds = context.compute(
        "1080 / C(81, 3)", lambda: str(Fraction(len(lines(4)), math.comb(81, 3)))
    )
    deals = context.compute("math.comb(81, 12)", math.comb, 81, 12)
    zero = context.compute("sum of the 81 card vectors mod 3", deck_sums_to_zero)
    claims = [
        Claim("The deck has 81 cards", 81, context.compute("len(deck(4))", lambda: len(deck(4)))),
        Claim("There are 1080 unique sets", 1080, sets_in_deck, stated="formula"),
        Claim("Any two cards: exactly one card completes the set (pairs checked)", 3240, unique,
              stated="count"),
        Claim("Probability that 3 random cards form a set", "1/79", odds),
    ]
    for d, percent in zip(range(1, 5), (10, 30, 40, 20), strict=True):
        share = replace(split, value=Fraction(100 * split.value[d], total))
        claims.append(Claim(f"Percent of sets differing in {d} feature(s)", percent, share))
    claims += [
        Claim("Number of different 12-card deals", 70724320184700, deals, stated="formula"),
        Claim("After 26 sets the last three cards form a 27th set", True, zero),
    ]
    examples = (
        ("3 solid red diamonds", "2 solid green squiggles", "1 solid purple oval"),
        ("1 red striped diamond", "2 red solid diamonds", "3 red open diamonds"),
    )
    layout = sorted(deck(4), key=lambda card: point_position(card.vector)[::-1])
    figures = [
        Figure(
            "wikipedia-deck",
            board_svg(layout, columns=9),
            "The 81 cards in the 9 x 9 layout of AG(4,3): each 3 x 3 block holds one number "
            "and colour, and inside a block shading changes along rows and shape down columns.",
        )
    ]
    for number, names in enumerate(examples, 1):
        cards = [Card.parse(name) for name in names]
        figures.append(
            Figure(
                f"wikipedia-example-{number}",
                board_svg(cards, sets=find_sets(cards)),
                f"The article's example set {number}: "
                + ", ".join(names)
                + f" ({'a set' if find_sets(cards) else 'NOT a set'}, checked now).",
            )
        )
    return Section(
        TITLE,
        "Wikipedia, *Set (card game)* (seed article)",
        (
            Text(
                "Cards are the points of F_3^4 and sets its lines. The percentages are "
                f"computed from the {total} lines of `lines(4)`: "
                + ", ".join(f"{split.value[d]} differ in {d}" for d in range(1, 5))
                + " (in exact agreement with C(4, d) 2^d / 80)."
            ),
            Claims(
                tuple(claims),
                "Every number of the article's mathematics section that "
                "needs no search; caps and game odds come in their own sections.",
            ),
            *figures,
        ),
    )
