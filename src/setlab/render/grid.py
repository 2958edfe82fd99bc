"""Configurations drawn on the standard layout of AG(P,3), each set a line or curve.

Point x = (x_0, ..., x_{P-1}) sits at column (x_0, x_2, x_4, ...) and row (x_1, x_3, ...), read
as base-3 numbers with a gap between blocks at each level: for P = 4 this is the 9 x 9 layout of
3 x 3 blocks of 3 x 3 (block from x_0, x_1; place in the block from x_2, x_3), for P = 3 three
3 x 3 blocks side by side, for P = 2 the 3 x 3 plane. A set through three points is drawn as the
straight segment when they are collinear on the page and no other configuration point lies on
it, as a two-arc bridge when they are collinear but the segment would cross other points, and
otherwise as the parabola through the three points (the middle point met half-way).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from setlab.cards import Card
from setlab.errors import SetlabError
from setlab.render.board import highlighted_sets, set_colours
from setlab.render.drawing import Drawing, element, text

MAX_GRID_PROPERTIES = 6
"""Largest P with a layout (27 x 27 points)."""
CELL = 44.0
"""Distance between neighbouring points inside a 3 x 3 block (doubled for P <= 2)."""
BLOCK_GAP = 0.6
"""Extra space between blocks, in cells, growing by this much per level."""

Point = tuple[float, float]


def _axis_position(axis_digits: Sequence[int]) -> float:
    """Position along one page axis of the digits assigned to it, most significant first."""
    position, span = 0.0, 1.0
    for level, digit in enumerate(reversed(axis_digits)):
        position += digit * span
        span = 3 * span + BLOCK_GAP * (level + 1)
    return position


def point_position(vector: Sequence[int]) -> Point:
    """Page position of a point, in cells: columns from even coordinates, rows from odd ones.

    Examples
    --------
    >>> point_position((0, 0, 2, 1))
    (2.0, 1.0)
    >>> point_position((1, 0, 0, 0))
    (3.6, 0.0)
    """
    return _axis_position(vector[0::2]), _axis_position(vector[1::2])


def _layout_size(properties: int) -> Point:
    last = (2,) * properties
    return point_position(last)


def _curve(points: list[Point], others: list[Point]) -> str:
    """SVG path data for one set through three page points (see the module docstring)."""
    # Order the three points so that the middle one makes the shortest path a -> m -> b.
    a, m, b = min(
        ((points[i], points[j], points[k]) for i, j, k in ((0, 1, 2), (1, 0, 2), (0, 2, 1))),
        key=lambda t: math.dist(t[0], t[1]) + math.dist(t[1], t[2]),
    )
    cross = (m[0] - a[0]) * (b[1] - a[1]) - (m[1] - a[1]) * (b[0] - a[0])
    length = math.dist(a, b)
    if abs(cross) > 1e-9 * length * length:
        # Quadratic Bezier through a, m, b with m at t = 1/2.
        cx, cy = 2 * m[0] - (a[0] + b[0]) / 2, 2 * m[1] - (a[1] + b[1]) / 2
        return f"M {a[0]:.1f} {a[1]:.1f} Q {cx:.1f} {cy:.1f} {b[0]:.1f} {b[1]:.1f}"
    if not any(_on_segment(p, a, b) for p in others):
        return f"M {a[0]:.1f} {a[1]:.1f} L {b[0]:.1f} {b[1]:.1f}"
    # Collinear with other points in between: hop over them in two arcs, bulging to one side.
    nx, ny = (a[1] - b[1]) / length, (b[0] - a[0]) / length
    path = f"M {a[0]:.1f} {a[1]:.1f}"
    for start, end in ((a, m), (m, b)):
        bulge = 0.35 * math.dist(start, end)
        cx = (start[0] + end[0]) / 2 + nx * bulge
        cy = (start[1] + end[1]) / 2 + ny * bulge
        path += f" Q {cx:.1f} {cy:.1f} {end[0]:.1f} {end[1]:.1f}"
    return path


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    """True iff p lies strictly inside the segment ab (not at its ends)."""
    if p in (a, b):
        return False
    cross = (p[0] - a[0]) * (b[1] - a[1]) - (p[1] - a[1]) * (b[0] - a[0])
    if abs(cross) > 1e-6:
        return False
    dot = (p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])
    return 0 < dot < math.dist(a, b) ** 2


def configuration_svg(
    cards: Sequence[Card],
    sets: Sequence[Sequence[int]] | bool = True,
    labels: bool | None = None,
    drop_constant: bool = False,
) -> Drawing:
    """The cards as points of the AG(P,3) layout, every highlighted set a line or curve.

    Parameters
    ----------
    cards
        The configuration, all of one game (P <= 6).
    sets
        Triples of positions into ``cards``; ``True`` (default) draws every set among them.
    labels
        Write each point's digit string beside it (default: when P <= 4).
    drop_constant
        Leave out the coordinates on which all cards agree, as the seed paper draws its 5- to
        8-card figures in F_3^2 (at least one coordinate is kept).

    Examples
    --------
    >>> five = [Card.parse(c) for c in ("0000", "0001", "0002", "0010", "0020")]
    >>> d = configuration_svg(five, drop_constant=True)
    >>> d.svg.count('class="point"'), d.svg.count('class="set-line"')
    (5, 2)
    """
    triples = highlighted_sets(cards, sets, "configuration")
    properties = cards[0].properties
    vectors = np.array([card.vector for card in cards], dtype=np.int64)
    if drop_constant:
        varying = [axis for axis in range(properties) if len(set(vectors[:, axis])) > 1]
        vectors = vectors[:, varying or [properties - 1]]
    shown = vectors.shape[1]
    if shown > MAX_GRID_PROPERTIES:
        raise SetlabError(
            f"configurations are drawn for P <= {MAX_GRID_PROPERTIES}, not {shown} properties"
        )
    if labels is None:
        labels = shown <= 4
    margin = 0.8
    width_cells, height_cells = _layout_size(shown)
    scale = CELL if shown > 2 else 2 * CELL

    def page(p: Point) -> Point:
        return ((p[0] + margin) * scale, (p[1] + margin) * scale)

    parts = []
    # Faint block frames (one per 3 x 3 block) and every point of the space as a small dot.
    for vector in itertools.product(range(3), repeat=shown):
        x, y = page(point_position(vector))
        parts.append(element("circle", cx=x, cy=y, r=2.2, fill="#cfcfcf"))
    if shown >= 2:
        for block in itertools.product(range(3), repeat=shown - 2):
            x0, y0 = page(point_position((*block, 0, 0)))
            x1, y1 = page(point_position((*block, 2, 2)))
            parts.append(
                element(
                    "rect",
                    x=x0 - 0.45 * scale,
                    y=y0 - 0.45 * scale,
                    width=x1 - x0 + 0.9 * scale,
                    height=y1 - y0 + 0.9 * scale,
                    rx=6,
                    fill="none",
                    stroke="#e3e3e3",
                    stroke_width=1.5,
                )
            )
    positions = [page(point_position(tuple(v))) for v in vectors]
    colours = set_colours(len(triples))
    for number, triple in enumerate(triples):
        if len(triple) != 3 or any(not 0 <= i < len(cards) for i in triple):
            raise SetlabError(f"set {triple} is not three positions of the configuration")
        others = [positions[i] for i in range(len(cards)) if i not in triple]
        parts.append(
            element(
                "path",
                d=_curve([positions[i] for i in triple], others),
                fill="none",
                stroke=colours[number],
                stroke_width=2.6,
                stroke_linecap="round",
                stroke_opacity=0.85,
                class_="set-line",
            )
        )
    for card, (x, y) in zip(cards, positions, strict=True):
        parts.append(
            element("circle", cx=x, cy=y, r=6, fill="#222", class_="point").replace(
                "/>", f"><title>{card.digits}</title></circle>", 1
            )
        )
    if labels:
        for vector, (x, y) in zip(vectors, positions, strict=True):
            parts.append(
                text(
                    "".join(map(str, vector)),
                    x=x + 7,
                    y=y - 8,
                    font_size=9 if shown > 2 else 13,
                    fill="#555",
                )
            )
    title = f"{len(cards)} points of AG({shown},3), {len(triples)} sets"
    return Drawing(
        "".join(parts),
        (width_cells + 2 * margin) * scale,
        (height_cells + 2 * margin) * scale,
        title=title,
    )
