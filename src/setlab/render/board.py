"""Boards: cards dealt in a grid, each chosen set highlighted by an outline colour of its own.

A card lying on several highlighted sets gets one concentric outline per set, so a set is read
off as the three cards carrying the same colour. Colours come from :func:`set_colours`.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Sequence

from setlab.cards import Card
from setlab.errors import SetlabError
from setlab.find import find_sets
from setlab.render.cards import CARD_HEIGHT, CARD_WIDTH, card_defs, card_markup
from setlab.render.drawing import Drawing, element

__all__ = [
    "RING_GAP",
    "board_svg",
    "default_columns",
    "highlighted_sets",
    "set_colours",
    "sets_svg",
]

_BASE_COLOURS = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
    "#17becf", "#bcbd22", "#7f7f7f",
)  # fmt: skip
RING_GAP = 4.5
"""Distance between concentric set outlines around a card."""


def set_colours(count: int) -> list[str]:
    """``count`` distinct outline colours: ten hand-picked ones, then golden-angle hues.

    Examples
    --------
    >>> set_colours(2)
    ['#1f77b4', '#ff7f0e']
    >>> len(set(set_colours(30)))
    30
    """
    colours = list(_BASE_COLOURS[:count])
    for k in range(count - len(colours)):
        r, g, b = colorsys.hls_to_rgb((0.13 + 0.618034 * k) % 1.0, 0.42, 0.75)
        colours.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return colours


def highlighted_sets(
    cards: Sequence[Card], sets: Sequence[Sequence[int]] | bool, what: str
) -> list[tuple[int, ...]]:
    """The sets to draw on a board or configuration of ``cards``, as position triples.

    ``sets`` is True (every set among the cards), False (none) or explicit triples; the cards
    must be non-empty and of one game.

    Examples
    --------
    >>> highlighted_sets([Card.parse(c) for c in ("1RSD", "2RSD", "3RSD")], True, "board")
    [(0, 1, 2)]
    """
    if not cards:
        raise SetlabError(f"empty {what}: give at least one card")
    properties = cards[0].properties
    if any(card.properties != properties for card in cards):
        raise SetlabError(f"all cards of a {what} must belong to one game (same P)")
    if sets is True:
        sets = find_sets(cards, properties)
    elif sets is False:
        sets = []
    triples = [tuple(int(i) for i in triple) for triple in sets]
    for triple in triples:
        if len(triple) != 3 or any(not 0 <= i < len(cards) for i in triple):
            raise SetlabError(f"set {triple} is not three positions of the {what}")
    return triples


def default_columns(n_cards: int) -> int:
    """Columns of a board: one row up to 6 cards, three rows up to 27 cards, 9 columns above.

    Examples
    --------
    >>> default_columns(3), default_columns(12), default_columns(81)
    (3, 4, 9)
    """
    if n_cards <= 6:
        return max(1, n_cards)
    return math.ceil(n_cards / 3) if n_cards <= 27 else 9


def board_svg(
    cards: Sequence[Card],
    sets: Sequence[Sequence[int]] | bool = False,
    columns: int | None = None,
) -> Drawing:
    """The cards in a grid, row by row, with sets outlined.

    Parameters
    ----------
    cards
        The board, all of one game (same P).
    sets
        Triples of positions into ``cards`` to highlight; ``True`` highlights every set on the
        board (found by :func:`setlab.find.find_sets`), ``False`` none.
    columns
        Cards per row (default :func:`default_columns`).

    Examples
    --------
    >>> board = [Card.parse(c) for c in ("1RSD", "2RSD", "3RSD", "1GSD", "1PSD")]
    >>> d = board_svg(board, sets=True)
    >>> d.svg.count('class="card"'), d.svg.count('class="set-outline"')
    (5, 6)
    """
    triples = highlighted_sets(cards, sets, "board")
    columns = columns or default_columns(len(cards))
    rings: list[list[int]] = [[] for _ in cards]
    for number, triple in enumerate(triples):
        for position in triple:
            rings[position].append(number)
    depth = max((len(r) for r in rings), default=0)
    margin = 8 + RING_GAP * depth
    pitch_x, pitch_y = CARD_WIDTH + 2 * margin, CARD_HEIGHT + 2 * margin
    colours = set_colours(len(triples))
    parts = [card_defs()]
    for position, card in enumerate(cards):
        row, column = divmod(position, columns)
        x, y = column * pitch_x + margin, row * pitch_y + margin
        for level, number in enumerate(rings[position]):
            grow = RING_GAP * (level + 1) - 1
            parts.append(
                element(
                    "rect",
                    x=x - grow,
                    y=y - grow,
                    width=CARD_WIDTH + 2 * grow,
                    height=CARD_HEIGHT + 2 * grow,
                    rx=9 + grow,
                    fill="none",
                    stroke=colours[number],
                    stroke_width=3,
                    class_="set-outline",
                )
            )
        parts.append(card_markup(card, x, y))
    rows = math.ceil(len(cards) / columns)
    width = min(columns, len(cards)) * pitch_x
    title = f"{len(cards)} cards" + (f", {len(triples)} sets" if triples else "")
    return Drawing("".join(parts), width, rows * pitch_y, title=title)


def sets_svg(cards: Sequence[Card], sets: Sequence[Sequence[int]], per_row: int = 2) -> Drawing:
    """Each set on its own: its three cards side by side in the set's outline colour.

    The colours are those :func:`board_svg` gives the same list of sets, so the two drawings
    read together; ``per_row`` sets share a row.

    Examples
    --------
    >>> board = [Card.parse(c) for c in ("1RSD", "2RSD", "3RSD", "1GSD", "1PSD")]
    >>> d = sets_svg(board, [(0, 1, 2), (0, 3, 4)])
    >>> d.svg.count('class="card"'), d.svg.count('class="set-outline"')
    (6, 2)
    """
    if not sets:
        raise SetlabError("no sets to draw")
    colours = set_colours(len(sets))
    gap, pad = 10, 8
    set_width = 3 * CARD_WIDTH + 2 * gap + 2 * pad
    set_height = CARD_HEIGHT + 2 * pad
    parts = [card_defs()]
    for number, triple in enumerate(sets):
        if len(triple) != 3 or any(not 0 <= int(i) < len(cards) for i in triple):
            raise SetlabError(f"set {tuple(triple)} is not three positions on the board")
        row, column = divmod(number, per_row)
        x0, y0 = column * (set_width + 3 * gap), row * (set_height + gap)
        parts.append(
            element(
                "rect",
                x=x0 + 2,
                y=y0 + 2,
                width=set_width - 4,
                height=set_height - 4,
                rx=12,
                fill="none",
                stroke=colours[number],
                stroke_width=3,
                class_="set-outline",
            )
        )
        for k, position in enumerate(triple):
            parts.append(
                card_markup(cards[int(position)], x0 + pad + k * (CARD_WIDTH + gap), y0 + pad)
            )
    rows = math.ceil(len(sets) / per_row)
    columns = min(per_row, len(sets))
    width = columns * set_width + (columns - 1) * 3 * gap
    return Drawing(
        "".join(parts), width, rows * (set_height + gap) - gap, title=f"{len(sets)} sets"
    )
