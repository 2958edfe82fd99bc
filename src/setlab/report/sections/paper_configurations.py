"""The seed paper's configurations of sections 1-2: n cards of AG(4,3) with many sets, drawn.

For n = 5, 6, 7, 8, 9, 11, 12 the paper gives a configuration attaining its Table 1 value; here
each one's sets are counted now by :func:`setlab.find.find_sets` (a lower bound witness; proofs of
maximality are the exact solver's section) and drawn with every set a line or curve.
"""

from __future__ import annotations

from dataclasses import replace

from setlab.cards import Card
from setlab.cli.demo import PAPER_BOARD
from setlab.find import find_sets
from setlab.render import board_svg, configuration_svg, sets_svg
from setlab.report.model import Claim, Claims, Context, Figure, Section, Text

TITLE = "The paper: configurations with many sets (sections 1-2)"

_MAGIC_SQUARE = tuple(f"00{a}{b}" for a in "012" for b in "012")
CONFIGURATIONS: tuple[tuple[str, int, tuple[str, ...], bool], ...] = (
    ("Theorem 1.2, Figure 1", 2, ("0000", "0001", "0002", "0010", "0020"), True),
    ("Theorem 1.3, Figure 2", 3, ("0000", "0001", "0002", "0010", "0011", "0020"), True),
    ("Theorem 1.5, Figure 3", 5,
     ("0000", "0001", "0002", "0010", "0011", "0020", "0021"), True),
    ("Corollary 2.2, Figure 4 (magic square minus a point)", 8, _MAGIC_SQUARE[:-1], True),
    ("Theorem 2.1 (the magic square)", 12, _MAGIC_SQUARE, True),
    ("Corollary 2.4", 13,
     ("0000", "0100", "0200", "1000", "2000", "1100", "2200", "1200", "2100", "0001", "0002"),
     False),
    ("Theorem 2.5, section 2.1", 14, PAPER_BOARD, False),
)  # fmt: skip
"""(where in the paper, sets it states, the cards as digit strings, drawn in F_3^2 as it does)."""


def build(context: Context) -> Section:
    """Count and draw every configuration; the 12-card board also as real cards."""
    find_sets([Card(0), Card(1)])  # load the third-card table and the compiled kernel first
    claims = []
    figures = []
    for where, stated, texts, plane in CONFIGURATIONS:
        cards = [Card.parse(t) for t in texts]
        sets = context.compute(f"find_sets on the {len(cards)} cards", find_sets, cards)
        count = replace(sets, value=len(sets.value))
        claims.append(Claim(f"{len(cards)} cards: {where}", stated, count))
        layout = "F_3^2, first two coordinates dropped" if plane else "the 9 x 9 layout of AG(4,3)"
        figures.append(
            Figure(
                f"paper-config-{len(cards)}",
                configuration_svg(cards, sets.value, drop_constant=plane),
                f"{len(cards)} cards, {len(sets.value)} sets ({where}), drawn on {layout}: "
                "each set is a line or curve through its three points.",
            )
        )
    board = [Card.parse(t) for t in PAPER_BOARD]
    figures.append(
        Figure(
            "paper-board-12",
            board_svg(board, sets=True),
            "The 12-card board of section 2.1 as SET cards; each of its 14 sets has its own "
            "outline colour (a card carries one ring per set through it).",
        )
    )
    figures.append(
        Figure(
            "paper-board-12-sets",
            sets_svg(board, find_sets(board)),
            "The paper asks: *can you find all 14 sets?* Here they are, in the colours of the "
            "board above.",
        )
    )
    return Section(
        TITLE,
        "Stevens and Wilson, *The maximum number of sets for 12 cards is 14* (seed paper)",
        (
            Text(
                "Each configuration the paper gives is re-read from its text, and its sets are "
                "counted in this run. These counts show the paper's values are *attained*; "
                "that nothing larger is possible is the exact solver's business."
            ),
            Claims(tuple(claims), "Sets on each configuration of the paper, counted now."),
            *figures,
        ),
    )
