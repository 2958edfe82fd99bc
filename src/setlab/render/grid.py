"""Configurations drawn on the standard layout of AG(P,3), each set a line or curve.

Points sit where :mod:`setlab.render.layout` puts them (for P = 4 the 9 x 9 grid of 3 x 3
blocks, the block from x_0, x_1, the place in it from x_2, x_3), with its key below. A set is
drawn as the straight segment when its points are collinear on the page and no other point lies
on it, as a two-arc bridge when the segment would cross other points, and otherwise as the
parabola through the three points (the middle point met half-way).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import numpy as np

from setlab.cards import Card, check_properties, index_of
from setlab.errors import SetlabError
from setlab.render.board import highlighted_sets, set_colours
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

__all__ = ["CELL", "configuration_svg"]

CELL = 44.0
"""Distance between neighbouring points inside a 3 x 3 block (doubled for P <= 2)."""


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
    properties: int | None = None,
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
    properties
        The game P, needed only to draw an empty configuration (the bare grid).

    Every point of the space is a dot of class ``site`` whose ``data-card`` is its index (in the
    coordinates drawn), so a page can make the grid clickable.

    Examples
    --------
    >>> five = [Card.parse(c) for c in ("0000", "0001", "0002", "0010", "0020")]
    >>> d = configuration_svg(five, drop_constant=True)
    >>> d.svg.count('class="point"'), d.svg.count('class="set-line"')
    (5, 2)
    """
    if cards or properties is None:
        triples = highlighted_sets(cards, sets, "configuration")
        properties = cards[0].properties
    else:
        check_properties(properties)
        triples = []
    vectors = np.array([card.vector for card in cards], dtype=np.int64).reshape(-1, properties)
    if drop_constant:
        varying = [axis for axis in range(properties) if len(set(vectors[:, axis])) > 1]
        kept = varying or [properties - 1]
        vectors = vectors[:, kept]
    else:
        kept = list(range(properties))
    shown = vectors.shape[1]
    if shown > MAX_GRID_PROPERTIES:
        raise SetlabError(
            f"configurations are drawn for P <= {MAX_GRID_PROPERTIES}, not {shown} properties"
        )
    if labels is None:
        labels = shown <= 4
    margin = 0.8
    width_cells, height_cells = layout_size(shown)
    scale = CELL if shown > 2 else 2 * CELL

    def page(p: Point) -> Point:
        return ((p[0] + margin) * scale, (p[1] + margin) * scale)

    parts = []
    # Every point of the space as a small dot, and a faint frame around each 3 x 3 block.
    for vector in itertools.product(range(3), repeat=shown):
        x, y = page(point_position(vector))
        site = index_of(vector)
        parts.append(
            element("circle", cx=x, cy=y, r=2.2, fill="#cfcfcf", class_="site", data_card=site)
        )
    parts.append(block_frames(shown, page, scale))
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
            element(
                "circle", cx=x, cy=y, r=6, fill="#222", class_="point", data_card=card.index
            ).replace("/>", f"><title>{card.digits}</title></circle>", 1)
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
    width = (width_cells + 2 * margin) * scale
    height = (height_cells + 2 * margin - 0.3) * scale
    key, key_height = layout_key(axis_labels(kept, properties), 8, height, width - 16)
    parts.append(key)
    title = f"{len(cards)} points of AG({shown},3), {len(triples)} sets"
    return Drawing("".join(parts), width, height + key_height, title=title)
