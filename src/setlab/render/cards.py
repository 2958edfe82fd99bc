"""SET cards as SVG: 1-3 symbols (diamond, squiggle, oval), red/green/purple, solid/striped/open.

A card of the real game (P = 4) is the vector (number, colour, shading, shape) of
:mod:`setlab.cards`; it is drawn as a portrait card with ``number + 1`` horizontal symbols stacked
vertically. Striped symbols are thin vertical lines clipped to the symbol's outline. The 4-valued
deck of 4Set adds a fourth value of each: four symbols, blue, dotted (a grid of dots), triangle.
Cards of other games (P != 4, or more than 4 values) get a generic glyph: the digit string over
a P x V grid of dots, one filled per coordinate at the column of its digit.
"""

from __future__ import annotations

from collections.abc import Sequence

from setlab.cards import Card, valued_digits, valued_name
from setlab.render.drawing import Drawing, element, text

__all__ = [
    "CARD_HEIGHT",
    "CARD_WIDTH",
    "COLOURS",
    "SHADING_NAMES",
    "SHAPE_NAMES",
    "SHAPE_PATHS",
    "SYMBOL_PITCH",
    "card_defs",
    "card_markup",
    "card_svg",
    "face_markup",
    "symbol_markup",
    "valued_card_markup",
    "valued_card_svg",
]

CARD_WIDTH = 100
CARD_HEIGHT = 154
COLOURS = ("#e2231a", "#00953a", "#5c2d91", "#0b7fd9")
"""Red, green, purple: the printed colours of the deck, by colour digit; then 4Set's blue."""

SHADING_NAMES = ("solid", "striped", "open", "dotted")
"""Shadings by digit; the fourth (dotted) is 4Set's."""

SHAPE_NAMES = ("diamond", "squiggle", "oval", "triangle")
SHAPE_PATHS = (
    "M -32 0 L 0 -15 L 32 0 L 0 15 Z",
    # A point-symmetric squiggle of cubic Bezier arcs, tangent-continuous at every joint.
    "M -31 10 C -35.5 -2 -26 -14 -12 -11 C -4 -9.3 2 -5 12 -11 C 22 -17 28 -18 31 -10 "
    "C 35.5 2 26 14 12 11 C 4 9.3 -2 5 -12 11 C -22 17 -28 18 -31 10 Z",
    "M -18 -15 L 18 -15 A 15 15 0 0 1 18 15 L -18 15 A 15 15 0 0 1 -18 -15 Z",
    "M -30 14 L 0 -16 L 30 14 Z",
)
"""Outline of each shape centred at the origin, about 67 x 32 units (before any scaling); the
fourth, 4Set's triangle, is 60 x 30."""

SYMBOL_PITCH = 36
"""Vertical distance between the centres of neighbouring symbols on a card."""

FOUR_SCALE = 0.8
"""Size of the symbols on a card of four (4Set), so that four fit one above the other."""


def card_defs() -> str:
    """``<defs>``: a clip path per shape (striped symbols), a dot pattern per colour (dotted).

    Both live in each symbol's own coordinates, so identical definitions in several inline
    SVGs of one HTML page are interchangeable. They are put once before any card markup.

    Examples
    --------
    >>> defs = card_defs()
    >>> defs.startswith("<defs>"), defs.count("<clipPath"), defs.count("<pattern")
    (True, 4, 4)
    >>> 'id="setlab-clip-oval"' in defs, 'id="setlab-dots-3"' in defs  # 4Set's blue dots
    (True, True)
    """
    clips = "".join(
        element("clipPath", element("path", d=d), id=f"setlab-clip-{name}")
        for name, d in zip(SHAPE_NAMES, SHAPE_PATHS, strict=True)
    )
    dots = "".join(
        element(
            "pattern",
            element("circle", cx=3, cy=3, r=1.6, fill=ink),
            id=f"setlab-dots-{number}",
            patternUnits="userSpaceOnUse",
            x=0,
            y=0,
            width=6,
            height=6,
        )
        for number, ink in enumerate(COLOURS)
    )
    return f"<defs>{clips}{dots}</defs>"


def symbol_markup(
    colour: int, shading: int, shape: int, x: float, y: float, scale: float = 1.0
) -> str:
    """One symbol centred at (x, y): outline plus solid fill, clipped stripes or dots.

    Examples
    --------
    >>> 'class="symbol squiggle striped"' in symbol_markup(0, 1, 1, 50, 77)
    True
    >>> 'fill="url(#setlab-dots-3)"' in symbol_markup(3, 3, 3, 50, 77)
    True
    """
    ink = COLOURS[colour]
    path = SHAPE_PATHS[shape]
    name = SHAPE_NAMES[shape]
    shading_name = SHADING_NAMES[shading]
    fill = {0: ink, 3: f"url(#setlab-dots-{colour})"}.get(shading, "none")
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
        fill=fill,
        stroke=ink,
        stroke_width=2.5,
        stroke_linejoin="round",
    )
    transform = f"translate({x:g} {y:g})" + (f" scale({scale:g})" if scale != 1 else "")
    return element(
        "g",
        inner + outline,
        transform=transform,
        class_=f"symbol {name} {shading_name}",
    )


def card_markup(card: Card, x: float = 0, y: float = 0) -> str:
    """Markup of one card of the real game with its top-left corner at (x, y).

    A ``<g class="card">`` titled with the card's name; its striped and dotted symbols refer to
    the clip paths and patterns of :func:`card_defs`, which the document must hold.

    Examples
    --------
    >>> markup = card_markup(Card.parse("2 red striped ovals"), x=110)
    >>> markup.startswith('<g transform="translate(110 0)" class="card"><title>2 red striped')
    True
    >>> markup.count('class="symbol oval striped"'), "url(#setlab-clip-oval)" in markup
    (2, True)
    """
    return face_markup(card.vector, 3, card.name, x, y)


def valued_card_markup(index: int, properties: int, values: int, x: float = 0, y: float = 0) -> str:
    """Markup of card ``index`` of the deck with ``values`` values per property (4Set: 4).

    Examples
    --------
    >>> valued_card_markup(255, 4, 4).count('class="symbol triangle dotted"')
    4
    """
    vector = [int(d) for d in valued_digits(index, properties, values)]
    return face_markup(vector, values, valued_name(index, properties, values), x, y)


def face_markup(vector: Sequence[int], values: int, name: str, x: float = 0, y: float = 0) -> str:
    """A card's face from its digit ``vector`` (each below ``values``), titled ``name``.

    Four properties and at most four values: the printed symbols (:func:`symbol_markup`);
    otherwise the generic glyph of digits and dots.

    Examples
    --------
    >>> face_markup((2, 1, 0, 0), 3, "3 green solid diamonds").count('class="symbol diamond')
    3
    >>> glyph = face_markup((0, 2, 1), 3, "021")  # P = 3: digits over a 3 x 3 grid of dots
    >>> ">021</text>" in glyph, glyph.count("<circle"), glyph.count('class="digit-mark"')
    (True, 9, 3)
    """
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
    if len(vector) == 4 and values <= 4:
        number, colour, shading, shape = vector
        scale = FOUR_SCALE if number == 3 else 1.0
        pitch = SYMBOL_PITCH * (0.86 if number == 3 else 1.0)
        top = cy - number * pitch / 2
        body = "".join(
            symbol_markup(colour, shading, shape, cx, top + k * pitch, scale)
            for k in range(number + 1)
        )
    else:
        body = _glyph(vector, values)
    return element(
        "g",
        element("title", name) + frame + body,
        transform=f"translate({x:g} {y:g})",
        class_="card",
    )


def _glyph(vector: Sequence[int], values: int) -> str:
    """Generic card of P properties: digit string, then one row of V dots per coordinate."""
    p = len(vector)
    label = text(
        "".join(str(d) for d in vector),
        x=CARD_WIDTH / 2,
        y=30,
        text_anchor="middle",
        font_size=min(22.0, 150 / p),
        font_family="DejaVu Sans Mono, monospace",
        fill="#333",
    )
    pitch = min(16.0, 100 / p)
    top = 44 + (100 - pitch * p) / 2 + pitch / 2
    across = min(20.0, 84 / values)
    radius = min(pitch, across) * 0.3
    dots = []
    for row, digit in enumerate(vector):
        for column in range(values):
            filled = column == digit
            ink = COLOURS[column] if column < len(COLOURS) else "#555"
            dots.append(
                element(
                    "circle",
                    cx=CARD_WIDTH / 2 + across * (column - (values - 1) / 2),
                    cy=top + row * pitch,
                    r=radius,
                    fill=ink if filled else "none",
                    stroke=ink if filled else "#bbb",
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


def valued_card_svg(index: int, properties: int = 4, values: int = 4) -> Drawing:
    """Card ``index`` of the V-valued deck as a drawing (4Set: ``values=4``).

    Examples
    --------
    >>> d = valued_card_svg(255)  # 4 blue dotted triangles
    >>> d.title, d.svg.count('class="symbol triangle dotted"')
    ('4 blue dotted triangles', 4)
    """
    return Drawing(
        card_defs() + valued_card_markup(index, properties, values),
        CARD_WIDTH,
        CARD_HEIGHT,
        title=valued_name(index, properties, values),
    )
