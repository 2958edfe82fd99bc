"""The one layout of AG(P,3) on the page, shared by every picture of points of F_3^P.

Digits are read in (column, row) pairs from the end: the last two, (x_{P-2}, x_{P-1}), place a
card inside a 3 x 3 block (a 2-flat: the seed paper's magic square, its leading digits fixed);
the two before them place that block in a 3 x 3 block of blocks, and so on outwards. For odd P
the leading digit x_0 is left alone and picks a column of outermost blocks (side by side). A key
drawn on the picture says which digit runs along which axis, inner to outer.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from setlab.cards import PROPERTY_NAMES
from setlab.render.drawing import element, text

__all__ = [
    "BLOCK_GAP",
    "MAX_GRID_PROPERTIES",
    "Point",
    "axis_labels",
    "block_frames",
    "grid_cell",
    "layout_axes",
    "layout_key",
    "layout_size",
    "point_position",
]

MAX_GRID_PROPERTIES = 6
"""Largest P with a layout (27 x 27 points)."""
BLOCK_GAP = 0.6
"""Extra space between blocks, in cells, growing by this much per level."""

Point = tuple[float, float]


def layout_axes(properties: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The digits along the columns and along the rows, each most significant (outermost) first.

    Examples
    --------
    >>> layout_axes(4)
    ((0, 2), (1, 3))
    >>> layout_axes(3)
    ((0, 1), (2,))
    >>> layout_axes(2), layout_axes(1)
    (((0,), (1,)), ((0,), ()))
    """
    columns: list[int] = []
    rows: list[int] = []
    for last in range(properties - 1, 0, -2):
        columns.insert(0, last - 1)
        rows.insert(0, last)
    if properties % 2:
        columns.insert(0, 0)
    return tuple(columns), tuple(rows)


def grid_cell(vector: Sequence[int]) -> tuple[int, int]:
    """(column, row) of a point in the 3^a x 3^b grid of cells: its axis digits read in base 3.

    Examples
    --------
    >>> grid_cell((0, 0, 2, 1)), grid_cell((1, 2, 0, 0))
    ((2, 1), (3, 6))
    """
    columns, rows = layout_axes(len(vector))
    column = row = 0
    for axis in columns:
        column = 3 * column + int(vector[axis])
    for axis in rows:
        row = 3 * row + int(vector[axis])
    return column, row


def _axis_position(axis_digits: Sequence[int]) -> float:
    """Position along one page axis of the digits assigned to it, most significant first."""
    position, span = 0.0, 1.0
    for level, digit in enumerate(reversed(axis_digits)):
        position += digit * span
        span = 3 * span + BLOCK_GAP * (level + 1)
    return position


def point_position(vector: Sequence[int]) -> Point:
    """Page position of a point in cells: :func:`grid_cell` with a gap between blocks.

    Examples
    --------
    >>> point_position((0, 0, 2, 1))
    (2.0, 1.0)
    >>> point_position((1, 0, 0, 0))
    (3.6, 0.0)
    """
    columns, rows = layout_axes(len(vector))
    return (
        _axis_position([int(vector[a]) for a in columns]),
        _axis_position([int(vector[a]) for a in rows]),
    )


def layout_size(properties: int) -> Point:
    """Page position of the last point (2, ..., 2): the layout spans [0, x] x [0, y] cells.

    Examples
    --------
    >>> layout_size(4), layout_size(2)
    ((9.2, 9.2), (2.0, 2.0))
    """
    return point_position((2,) * properties)


def axis_labels(kept: Sequence[int], properties: int) -> list[str]:
    """Names of the drawn coordinates ``kept`` of a deck with ``properties`` digits.

    Examples
    --------
    >>> axis_labels([2, 3], 4)
    ['x2 (shading)', 'x3 (shape)']
    >>> axis_labels([0, 1, 2], 3)
    ['x0', 'x1', 'x2']
    """
    return [f"x{axis}" + (f" ({PROPERTY_NAMES[axis]})" if properties == 4 else "") for axis in kept]


_LEVELS = ("in a block", "across blocks", "across groups of blocks")


def _key_line(arrow: str, labels: list[str]) -> str:
    """One line of the key: the digits of one page axis, innermost first."""
    if len(labels) == 1:
        return f"{arrow} {labels[0]}"
    inner_first = reversed(labels)
    return f"{arrow} " + ", ".join(
        f"{label} {_LEVELS[level]}" for level, label in enumerate(inner_first)
    )


def layout_key(
    labels: Sequence[str], x: float, y: float, width: float = 400.0
) -> tuple[str, float]:
    """Markup of the key naming the digit along each axis, its top-left at (x, y); its height.

    ``labels`` names the drawn coordinates in order (see :func:`axis_labels`); the text is made
    small enough to fit in ``width``. Each axis gets one line, innermost digit first.

    Examples
    --------
    >>> markup, height = layout_key(axis_labels(range(4), 4), 0, 0)
    >>> "→ x2 (shading) in a block, x0 (number) across blocks" in markup, height
    (True, 36)
    """
    columns, rows = layout_axes(len(labels))
    lines = [_key_line("→", [labels[a] for a in columns])]
    if rows:
        lines.append(_key_line("↓", [labels[a] for a in rows]))
    size = min(11.0, width / (0.62 * max(len(line) for line in lines)))
    markup = "".join(
        text(line, x=x, y=y + 14 + 16 * k, font_size=size, fill="#444", class_="layout-key")
        for k, line in enumerate(lines)
    )
    return markup, 4 + 16 * len(lines)


def block_frames(
    shown: int, page: Callable[[Point], Point], scale: float, stroke: str = "#e3e3e3"
) -> str:
    """Rounded frames around each 3 x 3 block (the 2-flat of the last two digits).

    ``page`` maps a layout position (cells) to page coordinates; ``scale`` is pixels per cell.

    Examples
    --------
    >>> block_frames(4, lambda p: p, 1.0).count('class="block"')
    9
    """
    if shown < 2:
        return ""
    parts = []
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
                stroke=stroke,
                stroke_width=1.5,
                class_="block",
            )
        )
    return "".join(parts)
