"""Boards: cards dealt in a grid, each chosen structure highlighted by an outline colour of its own.

A structure is a set of SET (three cards), or of a variant (:mod:`setlab.variants`): the
V cards of a V-valued set, an UltraSet or a 4Set (four cards), a GhostSet (six). A card lying on
several highlighted structures gets one concentric outline per structure, so a structure is read
off as the cards carrying the same colour. Colours come from :func:`set_colours`.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from setlab.cards import Card, check_values
from setlab.errors import SetlabError
from setlab.find import find_sets
from setlab.render.cards import (
    CARD_HEIGHT,
    CARD_WIDTH,
    card_defs,
    card_markup,
    valued_card_markup,
)
from setlab.render.drawing import Drawing, element
from setlab.variants.structures import Variant, variant

__all__ = [
    "RING_GAP",
    "board_svg",
    "default_columns",
    "highlighted_sets",
    "ring_levels",
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


_COUNT_WORDS = {3: "three", 4: "four", 5: "five", 6: "six"}


@dataclass(frozen=True)
class _Board:
    """Cards of one deck as the renderer needs them: indices, the deck, how to draw each."""

    indices: tuple[int, ...]
    properties: int
    values: int
    kind: Variant
    cards: tuple[Card, ...] | None  # the Card objects when given (SET cards), else None

    @property
    def size(self) -> int:
        """Cards in one structure."""
        return self.kind.size(self.values)

    def noun(self, count: int) -> str:
        """``count`` structures, in words: "1 set", "14 sets", "3 UltraSets"."""
        word = "set" if self.kind.name == "set" else self.kind.title
        return f"{count} {word}" + ("" if count == 1 else "s")

    def markup(self, position: int) -> Callable[[float, float], str]:
        """Draws the card at ``position`` with its top-left corner at (x, y)."""
        if self.cards is not None:
            card = self.cards[position]
            return lambda x, y: card_markup(card, x, y)
        index = self.indices[position]
        return lambda x, y: valued_card_markup(index, self.properties, self.values, x, y)

    def structures(self) -> list[tuple[int, ...]]:
        """Every structure of the variant on the board, as ascending position tuples."""
        if self.cards is not None and self.kind.name == "set":
            return [tuple(t) for t in find_sets(list(self.cards), self.properties)]
        from setlab.variants import find_structures  # numba's finders: loaded for variants only

        return find_structures(list(self.indices), self.kind.name, self.properties, self.values)


def _board(
    cards: Sequence[Card] | Sequence[int],
    what: str,
    name: str = "set",
    properties: int | None = None,
    values: int | None = None,
) -> _Board:
    """Check the cards of a board (or configuration) and name their deck."""
    kind = variant(name)
    if not cards:
        raise SetlabError(f"empty {what}: give at least one card")
    if all(isinstance(card, Card) for card in cards):
        given = tuple(card for card in cards if isinstance(card, Card))
        properties = given[0].properties
        if any(card.properties != properties for card in given):
            raise SetlabError(f"all cards of a {what} must belong to one game (same P)")
        if values not in (None, 3):
            raise SetlabError(f"Card objects are SET cards (3 values), not {values}-valued")
        kind.check(properties, 3)
        return _Board(tuple(c.index for c in given), properties, 3, kind, given)
    if any(isinstance(card, Card) for card in cards):
        raise SetlabError(f"a {what} is either Card objects or card indices, not both")
    values = values or kind.values or 3
    properties = 4 if properties is None else properties
    check_values(properties, values)
    kind.check(properties, values)
    indices = tuple(int(c) for c in cards)
    if any(not 0 <= c < values**properties for c in indices):
        raise SetlabError(f"card index out of range for {values}^{properties} cards")
    return _Board(indices, properties, values, kind, None)


def _structures(
    board: _Board, sets: Sequence[Sequence[int]] | bool, what: str
) -> list[tuple[int, ...]]:
    """The structures to outline: every one (True), none (False) or the given ones, checked."""
    if sets is True:
        groups: Sequence[Sequence[int]] = board.structures()
    elif sets is False:
        groups = []
    else:
        groups = sets
    out = [tuple(int(i) for i in group) for group in groups]
    size = board.size
    noun = "set" if board.kind.name == "set" else board.kind.title
    for group in out:
        if (
            len(group) != size
            or len(set(group)) != size
            or any(not 0 <= i < len(board.indices) for i in group)
        ):
            raise SetlabError(f"{noun} {group} is not {_COUNT_WORDS.get(size, size)} "
                              f"positions of the {what}")  # fmt: skip
    return out


def highlighted_sets(
    cards: Sequence[Card] | Sequence[int],
    sets: Sequence[Sequence[int]] | bool,
    what: str,
    *,
    variant: str = "set",
    properties: int | None = None,
    values: int | None = None,
) -> list[tuple[int, ...]]:
    """The structures to draw on a board or configuration of ``cards``, as position tuples.

    ``sets`` is True (every structure of ``variant`` among the cards), False (none) or explicit
    position tuples; the cards must be non-empty and of one game. Cards are :class:`Card`
    objects (SET) or indices of the deck of ``properties`` properties (default 4) and
    ``values`` values (default: the variant's, else 3).

    Examples
    --------
    >>> highlighted_sets([Card.parse(c) for c in ("1RSD", "2RSD", "3RSD")], True, "board")
    [(0, 1, 2)]
    >>> highlighted_sets([0, 5, 10, 15], True, "board", variant="4set", properties=2)
    [(0, 1, 2, 3)]
    """
    board = _board(cards, what, variant, properties, values)
    return _structures(board, sets, what)


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


def ring_levels(groups: Sequence[Sequence[int]], n_cards: int) -> list[int]:
    """A ring level per structure, the same on each of its cards, distinct on a shared card.

    Greedy, in order: each structure takes the innermost level free on all its cards, so a
    structure is one colour at one distance from each of its cards.

    Examples
    --------
    >>> ring_levels([(0, 1, 2), (3, 4, 5), (0, 3, 6), (1, 4, 7)], 8)
    [0, 0, 1, 1]
    """
    used: list[set[int]] = [set() for _ in range(n_cards)]
    levels = []
    for group in groups:
        taken = set().union(*(used[p] for p in group))
        level = next(k for k in range(len(taken) + 1) if k not in taken)
        for p in group:
            used[p].add(level)
        levels.append(level)
    return levels


def board_svg(
    cards: Sequence[Card] | Sequence[int],
    sets: Sequence[Sequence[int]] | bool = False,
    columns: int | None = None,
    *,
    variant: str = "set",
    properties: int | None = None,
    values: int | None = None,
) -> Drawing:
    """The cards in a grid, row by row, with sets (or a variant's structures) outlined.

    Parameters
    ----------
    cards
        The board: :class:`Card` objects of one game, or card indices of the deck with
        ``properties`` properties and ``values`` values (4Set: indices of the 4-valued deck).
    sets
        Position tuples into ``cards`` to highlight, each one structure of ``variant``;
        ``True`` highlights every one on the board (found by :func:`setlab.find.find_sets` or
        :func:`setlab.variants.find_structures`), ``False`` none.
    columns
        Cards per row (default :func:`default_columns`).
    variant
        ``"set"`` (SET, or the V-valued game with ``values``), ``"ultra"``, ``"ghost"`` or
        ``"4set"``: what a structure is.
    properties, values
        The deck of index cards (default P = 4, the variant's V, else 3).

    Returns
    -------
    Drawing
        Each structure is a ``<g class="structure" data-positions="...">`` holding one ring
        (``class="set-outline"``) around each of its cards, in the structure's colour and at
        the same distance from each card (:func:`ring_levels`).

    Examples
    --------
    >>> board = [Card.parse(c) for c in ("1RSD", "2RSD", "3RSD", "1GSD", "1PSD")]
    >>> d = board_svg(board, sets=True)
    >>> d.svg.count('class="card"'), d.svg.count('class="set-outline"')
    (5, 6)
    >>> d = board_svg([0, 1, 4, 5, 10], sets=True, variant="4set", properties=2)
    >>> d.svg.count('class="structure"'), d.title
    (1, '5 cards, 1 4Set')
    """
    board = _board(cards, "board", variant, properties, values)
    groups = _structures(board, sets, "board")
    n_cards = len(board.indices)
    columns = columns or default_columns(n_cards)
    levels = ring_levels(groups, n_cards)
    depth = max(levels, default=-1) + 1
    margin = 8 + RING_GAP * depth
    pitch_x, pitch_y = CARD_WIDTH + 2 * margin, CARD_HEIGHT + 2 * margin
    corners = [
        (column * pitch_x + margin, row * pitch_y + margin)
        for row, column in (divmod(position, columns) for position in range(n_cards))
    ]
    colours = set_colours(len(groups))
    parts = [card_defs()]
    for number, group in enumerate(groups):
        outlines = []
        for position in group:
            x, y = corners[position]
            grow = RING_GAP * (levels[number] + 1) - 1
            outlines.append(
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
        parts.append(
            element(
                "g",
                "".join(outlines),
                class_="structure",
                data_positions=" ".join(str(p) for p in group),
            )
        )
    parts.extend(board.markup(position)(x, y) for position, (x, y) in enumerate(corners))
    rows = math.ceil(n_cards / columns)
    width = min(columns, n_cards) * pitch_x
    title = f"{n_cards} cards" + (f", {board.noun(len(groups))}" if groups else "")
    return Drawing("".join(parts), width, rows * pitch_y, title=title)


def sets_svg(
    cards: Sequence[Card] | Sequence[int],
    sets: Sequence[Sequence[int]],
    per_row: int | None = None,
    *,
    variant: str = "set",
    properties: int | None = None,
    values: int | None = None,
) -> Drawing:
    """Each set (or structure of ``variant``) on its own: its cards side by side in its colour.

    The colours are those :func:`board_svg` gives the same list of structures, so the two
    drawings read together; ``per_row`` structures share a row (default 2, and 1 for structures
    of more than four cards). ``cards``, ``variant``,
    ``properties`` and ``values`` are as for :func:`board_svg`.

    Examples
    --------
    >>> board = [Card.parse(c) for c in ("1RSD", "2RSD", "3RSD", "1GSD", "1PSD")]
    >>> d = sets_svg(board, [(0, 1, 2), (0, 3, 4)])
    >>> d.svg.count('class="card"'), d.svg.count('class="set-outline"')
    (6, 2)
    """
    if not sets:
        raise SetlabError("no sets to draw")
    board = _board(cards, "board", variant, properties, values)
    groups = _structures(board, sets, "board")
    colours = set_colours(len(groups))
    gap, pad = 10, 8
    size = board.size
    per_row = per_row or (2 if size <= 4 else 1)
    set_width = size * CARD_WIDTH + (size - 1) * gap + 2 * pad
    set_height = CARD_HEIGHT + 2 * pad
    parts = [card_defs()]
    for number, group in enumerate(groups):
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
        for k, position in enumerate(group):
            parts.append(board.markup(position)(x0 + pad + k * (CARD_WIDTH + gap), y0 + pad))
    rows = math.ceil(len(groups) / per_row)
    columns = min(per_row, len(groups))
    width = columns * set_width + (columns - 1) * 3 * gap
    return Drawing(
        "".join(parts), width, rows * (set_height + gap) - gap, title=board.noun(len(groups))
    )
