"""Pictures of a cap (cards of AG(P,3) with no line among them): the deck and the blocking graph.

The deck is drawn on the AG(P,3) layout of :mod:`setlab.render.layout`, one square per card, the
cap's cards filled. The blocking graph joins each card of the cap (left) to every line through
it (right); a cap meets every line in at most two cards, and the lines met twice are the ones the
cap blocks (drawn red, listed first).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from setlab.cards import check_properties
from setlab.errors import SetlabError
from setlab.geometry import digits, lines, third_card_table
from setlab.render.drawing import Drawing, element, text
from setlab.render.layout import (
    MAX_GRID_PROPERTIES,
    Point,
    axis_labels,
    block_frames,
    layout_key,
    layout_size,
    point_position,
)

__all__ = ["blocking_graph_svg", "cap_and_completion_svg", "cap_mask", "deck_svg"]

CAP_FILL = "#c0392b"
"""Fill of a card of the cap (and colour of a blocked line)."""
DECK_FILL = "#ecf0f1"
"""Fill of a card outside the cap."""
ADDED_FILL = "#2471a3"
"""Fill of the card added to a cap in :func:`cap_and_completion_svg`."""
SET_COLOURS = ("#f39c12", "#27ae60", "#8e44ad", "#16a085", "#d35400", "#2c3e50")
"""Colours of the sets an added card completes, in turn."""


def cap_mask(cap: Sequence[int], properties: int) -> np.ndarray:
    """Boolean mask over the 3^P cards (by index) of the cards in ``cap``.

    Examples
    --------
    >>> cap_mask([0, 4], 2).nonzero()[0].tolist()
    [0, 4]
    """
    check_properties(properties)
    if properties > MAX_GRID_PROPERTIES:
        raise SetlabError(f"pictures of the deck are drawn for P <= {MAX_GRID_PROPERTIES}")
    n = 3**properties
    mask = np.zeros(n, dtype=bool)
    cards = [int(c) for c in cap]
    if any(not 0 <= c < n for c in cards):
        raise SetlabError(f"card index out of range for {properties} properties")
    mask[cards] = True
    return mask


def deck_svg(cap: Sequence[int], properties: int) -> Drawing:
    """The 3^P cards as squares on the AG(P,3) layout, the cards of ``cap`` (indices) filled.

    Parameters
    ----------
    cap
        Card indices (base-3 digit strings read as numbers, :mod:`setlab.cards`).
    properties
        P, at most 6.

    Returns
    -------
    Drawing
        One ``<rect class="cell">`` per card (``cell cap`` if in the cap), titled by its
        digits; digit labels for P <= 4; the layout's key below.

    Examples
    --------
    >>> d = deck_svg([0, 1, 3, 4], 2)
    >>> d.svg.count('class="cell cap"'), d.svg.count('class="cell"')
    (4, 5)
    """
    mask = cap_mask(cap, properties)
    return _deck(mask, properties, f"a cap of {int(mask.sum())} cards in AG({properties},3)")


def _deck(
    mask: np.ndarray,
    properties: int,
    title: str,
    added: int | None = None,
    sets: Sequence[tuple[int, int, int]] = (),
) -> Drawing:
    """The deck on the layout, ``mask`` filled; ``added`` filled in its own colour and each of
    ``sets`` (index triples) drawn as a closed path through its three cards, under the cards."""
    scale = 34.0 if properties > 2 else 48.0
    margin = 0.6
    width_cells, height_cells = layout_size(properties)
    vectors = digits(properties).tolist()

    def page(p: Point) -> Point:
        return ((p[0] + margin) * scale, (p[1] + margin) * scale)

    side = 0.86 * scale
    parts = [block_frames(properties, page, scale, stroke="#95a5a6")]
    for number, triple in enumerate(sets):
        corners = [page(point_position(vectors[c])) for c in triple]
        path = "M " + " L ".join(f"{x:.1f} {y:.1f}" for x, y in corners) + " Z"
        colour = SET_COLOURS[number % len(SET_COLOURS)]
        parts.append(element("path", d=path, fill="none", stroke=colour, stroke_width=3.5,
                             stroke_linejoin="round", opacity=0.85, class_="set"))  # fmt: skip
    for card, vector in enumerate(vectors):
        x, y = page(point_position(vector))
        name = "".join(map(str, vector))
        inside = bool(mask[card]) or card == added
        fill = ADDED_FILL if card == added else CAP_FILL if inside else DECK_FILL
        kind = "cell added" if card == added else "cell cap" if inside else "cell"
        parts.append(
            element(
                "rect",
                element("title", name),
                x=x - side / 2,
                y=y - side / 2,
                width=side,
                height=side,
                rx=3,
                fill=fill,
                stroke="#7f8c8d",
                stroke_width=0.8,
                class_=kind,
            )
        )
        if properties <= 4:
            parts.append(
                text(
                    name,
                    x=x,
                    y=y + 3,
                    text_anchor="middle",
                    font_size=8.5 if properties > 2 else 12,
                    fill="white" if inside else "#2c3e50",
                )
            )
    height = (height_cells + 2 * margin) * scale
    width = (width_cells + 2 * margin) * scale
    labels = axis_labels(range(properties), properties)
    key, key_height = layout_key(labels, 8, height, width - 16)
    parts.append(key)
    heading = text(title, x=width / 2, y=14, text_anchor="middle", font_size=12, fill="#2c3e50")
    body = heading + element("g", "".join(parts), transform="translate(0 18)")
    return Drawing(body, width, height + key_height + 18, title=title)


def cap_and_completion_svg(cap: Sequence[int], card: int, properties: int = 4) -> Drawing:
    """A cap, one more card, and every set that card completes with two cards of the cap.

    The teaching picture of a complete cap (the 20-cap of AG(4,3)): no card can be added
    without making a set. The cap's cards are filled red, the added card blue, and each set
    through it is a coloured path through its three cards.

    Parameters
    ----------
    cap
        Card indices of a cap.
    card
        Index of a card outside the cap.
    properties
        P, at most 6.

    Returns
    -------
    Drawing
        As :func:`deck_svg`, with ``<rect class="cell added">`` and one ``<path class="set">``
        per set completed.

    Examples
    --------
    >>> d = cap_and_completion_svg([0, 1, 3, 4], 2, 2)  # 2 completes 0 and 1
    >>> d.svg.count('class="cell added"'), d.svg.count('class="set"')
    (1, 1)
    """
    mask = cap_mask(cap, properties)
    n = 3**properties
    if not 0 <= int(card) < n:
        raise SetlabError(f"card index out of range for {properties} properties")
    if mask[card]:
        raise SetlabError("the added card is already in the cap")
    third = third_card_table(properties)
    members = np.flatnonzero(mask)
    sets = [
        (int(a), int(b), int(card))
        for a, b in itertools.combinations(members, 2)
        if third[a, b] == card
    ]
    count = f"{len(sets)} set" + ("" if len(sets) == 1 else "s")
    title = f"a cap of {len(members)} cards in AG({properties},3) and one more card: {count}"
    return _deck(mask, properties, title, int(card), sets)


def blocking_graph_svg(cap: Sequence[int], properties: int) -> Drawing:
    """The bipartite graph of the cap's cards (left) and the lines of AG(P,3) through them (right).

    A line joined to two cards is blocked by the cap (red, listed first); to one card, grey.

    Raises
    ------
    SetlabError
        If three of the cards are a line (not a cap).

    Examples
    --------
    >>> d = blocking_graph_svg([0, 1, 3, 4], 2)
    >>> d.svg.count('class="edge blocked"'), d.svg.count('class="line-node"')
    (12, 10)
    """
    mask = cap_mask(cap, properties)
    every_line = lines(properties)
    hits = mask[every_line].sum(axis=1)
    if (hits == 3).any():
        raise SetlabError("these cards hold a set: not a cap")
    touched = np.flatnonzero(hits > 0)
    touched = touched[np.argsort(-hits[touched], kind="stable")]
    cards = np.flatnonzero(mask).tolist()
    height = float(min(900, max(240, 6 * len(cards), 1.5 * len(touched))))
    width, top, left, right = 420.0, 34.0, 60.0, 360.0

    def spread(count: int) -> list[float]:
        if count == 1:
            return [top + height / 2]
        return [top + height * k / (count - 1) for k in range(count)]

    card_y = dict(zip(cards, spread(len(cards)), strict=True))
    line_y = dict(zip(touched.tolist(), spread(len(touched)), strict=True))
    grey, red = [], []
    for line, y in line_y.items():
        blocked = hits[line] == 2
        for card in every_line[line]:
            if mask[card]:
                edge = element(
                    "line",
                    x1=left,
                    y1=card_y[int(card)],
                    x2=right,
                    y2=y,
                    stroke=CAP_FILL if blocked else "#bdc3c7",
                    stroke_width=0.5 if blocked else 0.3,
                    class_="edge blocked" if blocked else "edge",
                )
                (red if blocked else grey).append(edge)
    nodes = [
        element("circle", cx=right, cy=y, r=1.6, fill="#7f8c8d", class_="line-node")
        for y in line_y.values()
    ]
    labelled = len(cards) <= 40 and properties <= 6
    names = digits(properties)
    for card, y in card_y.items():
        nodes.append(element("circle", cx=left, cy=y, r=3.5, fill="#2c3e50", class_="card-node"))
        if labelled:
            label = "".join(map(str, names[card]))
            nodes.append(text(label, x=left - 8, y=y + 3, text_anchor="end", font_size=9))
    blocked = int((hits == 2).sum())
    title = f"{len(cards)} cards, {len(touched)} sets through them, {blocked} blocked"
    heading = text(title, x=width / 2, y=18, text_anchor="middle", font_size=12, fill="#2c3e50")
    body = heading + "".join(itertools.chain(grey, red, nodes))
    return Drawing(body, width, height + top + 14, title=title)
