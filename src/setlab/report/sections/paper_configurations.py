"""The seed paper's configurations of sections 1-2: n cards of AG(4,3) with many sets, drawn.

For n = 5, 6, 7, 8, 9, 11, 12 the paper gives a configuration attaining its Table 1 value; here
each one's sets are counted now by :func:`setlab.find.find_sets` (a lower bound witness; proofs of
maximality are the exact solver's section) and drawn with every set a line or curve.
"""

from __future__ import annotations

from dataclasses import replace

from setlab.cards import Card
from setlab.find import find_sets
from setlab.render import board_svg, configuration_svg, sets_svg
from setlab.report.model import Claim, Claims, Context, Figure, Section, Text
from setlab.seeds import PAPER_BOARD, PAPER_CONFIGURATIONS

TITLE = "The paper: configurations with many sets (sections 1-2)"


def build(context: Context) -> Section:
    """Count and draw every configuration; the 12-card board also as real cards."""
    find_sets([Card(0), Card(1)])  # load the third-card table and the compiled kernel first
    claims = []
    figures = []
    for where, stated, texts, plane in PAPER_CONFIGURATIONS:
        cards = [Card.parse(t) for t in texts]
        sets = context.compute(f"find_sets on the {len(cards)} cards", find_sets, cards)
        count = replace(sets, value=len(sets.value))
        claims.append(Claim(f"{len(cards)} cards: {where}", stated, count))
        # Every figure leaves out the coordinates all its cards share, as the paper draws them:
        # 11 and 12 cards on the 9 x 9 layout of AG(4,3) sat in one column of its blocks.
        layout = "F_3^2" if plane else "AG(3,3)"
        figures.append(
            Figure(
                f"paper-config-{len(cards)}",
                configuration_svg(cards, sets.value, drop_constant=True),
                f"{len(cards)} cards, {len(sets.value)} sets ({where}), drawn on {layout}, the "
                "coordinates all its cards share left out: each set is a line or curve through "
                "its three points.",
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
