"""SET cards as SVG: 1-3 symbols (diamond, squiggle, oval), red/green/purple, solid/striped/open.

A card of the real game (P = 4) is the vector (number, colour, shading, shape) of
:mod:`setlab.cards`; it is drawn as a portrait card with ``number + 1`` horizontal symbols stacked
vertically. Striped symbols are thin vertical lines clipped to the symbol's outline. Cards of other
games (P != 4) get a generic glyph: the digit string over a P x 3 grid of dots, one filled per
coordinate at the column of its digit.
"""

from __future__ import annotations

from setlab.cards import Card
from setlab.render.drawing import Drawing, element, text

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "COLOURS",
    "SHAPE_NAMES",
    "SHAPE_PATHS",
    "SYMBOL_PITCH",
    "card_defs",
    "card_markup",
    "card_svg",
    "symbol_markup",
]

CARD_WIDTH = 100
CARD_HEIGHT = 154
COLOURS = ("#e2231a", "#00953a", "#5c2d91")
"""Red, green, purple: the printed colours of the deck, by colour digit."""

SHAPE_NAMES = ("diamond", "squiggle", "oval")
SHAPE_PATHS = (
    "M -32 0 L 0 -15 L 32 0 L 0 15 Z",
    # A point-symmetric squiggle of cubic Bezier arcs, tangent-continuous at every joint.
    "M -31 10 C -35.5 -2 -26 -14 -12 -11 C -4 -9.3 2 -5 12 -11 C 22 -17 28 -18 31 -10 "
    "C 35.5 2 26 14 12 11 C 4 9.3 -2 5 -12 11 C -22 17 -28 18 -31 10 Z",
    "M -18 -15 L 18 -15 A 15 15 0 0 1 18 15 L -18 15 A 15 15 0 0 1 -18 -15 Z",
)
"""Outline of each shape centred at the origin, about 67 x 32 units (before any scaling)."""

SYMBOL_PITCH = 36
"""Vertical distance between the centres of neighbouring symbols on a card."""


def card_defs() -> str:
    """``<defs>`` with one clip path per shape, shared by every striped symbol of a document.

    Clip paths live in each symbol's own coordinates, so identical definitions in several
    inline SVGs of one HTML page are interchangeable.
    """
    clips = "".join(
        element("clipPath", element("path", d=d), id=f"setlab-clip-{name}")
        for name, d in zip(SHAPE_NAMES, SHAPE_PATHS, strict=True)
    )
    return f"<defs>{clips}</defs>"


def symbol_markup(colour: int, shading: int, shape: int, x: float, y: float) -> str:
    """One symbol centred at (x, y): outline plus solid fill or clipped stripes.

    Examples
    --------
    >>> 'class="symbol squiggle striped"' in symbol_markup(0, 1, 1, 50, 77)
    True
    """
    ink = COLOURS[colour]
    path = SHAPE_PATHS[shape]
    name = SHAPE_NAMES[shape]
    shading_name = ("solid", "striped", "open")[shading]
    inner = ""
    if shading == 1:
        stripes = "".join(f"M {x} -19 V 19 " for x in range(-36, 37, 4))
        inner = element(
            "g",
            element("path", d=stripes, stroke=ink, stroke_width=1.1),
            clip_path=f"url(#setlab-clip-{name})",
        )
    outline = element(
        "path",
        d=path,
        fill=ink if shading == 0 else "none",
        stroke=ink,
        stroke_width=2.5,
        stroke_linejoin="round",
    )
    return element(
        "g",
        inner + outline,
        transform=f"translate({x:g} {y:g})",
        class_=f"symbol {name} {shading_name}",
    )


def card_markup(card: Card, x: float = 0, y: float = 0) -> str:
    """Markup of one card with its top-left corner at (x, y); needs :func:`card_defs`."""
    frame = element(
        "rect",
        width=CARD_WIDTH,
        height=CARD_HEIGHT,
        rx=9,
        fill="white",
        stroke="#9a9a9a",
        stroke_width=1.2,
    )
    cx, cy = CARD_WIDTH / 2, CARD_HEIGHT / 2
    if card.properties == 4:
        number, colour, shading, shape = card.vector
        top = cy - number * SYMBOL_PITCH / 2
        body = "".join(
            symbol_markup(colour, shading, shape, cx, top + k * SYMBOL_PITCH)
            for k in range(number + 1)
        )
    else:
        body = _glyph(card)
    return element(
        "g",
        element("title", card.name) + frame + body,
        transform=f"translate({x:g} {y:g})",
        class_="card",
    )


def _glyph(card: Card) -> str:
    """Generic card of P properties: digit string, then one row of three dots per coordinate."""
    p = card.properties
    label = text(
        card.digits,
        x=CARD_WIDTH / 2,
        y=30,
        text_anchor="middle",
        font_size=min(22.0, 150 / p),
        font_family="DejaVu Sans Mono, monospace",
        fill="#333",
    )
    pitch = min(16.0, 100 / p)
    top = 44 + (100 - pitch * p) / 2 + pitch / 2
    dots = []
    for row, digit in enumerate(card.vector):
        for column in range(3):
            filled = column == digit
            dots.append(
                element(
                    "circle",
                    cx=30 + 20 * column,
                    cy=top + row * pitch,
                    r=pitch * 0.3,
                    fill=COLOURS[column] if filled else "none",
                    stroke=COLOURS[column] if filled else "#bbb",
                    stroke_width=1.2,
                    class_="digit-mark" if filled else None,
                )
            )
    return label + "".join(dots)


def card_svg(card: Card) -> Drawing:
    """One card as a drawing (100 x 154 units).

    Examples
    --------
    >>> d = card_svg(Card.parse("3 green striped squiggles"))
    >>> d.svg.count('class="symbol squiggle striped"'), d.width, d.height
    (3, 100, 154)
    """
    return Drawing(card_defs() + card_markup(card), CARD_WIDTH, CARD_HEIGHT, title=card.name)
