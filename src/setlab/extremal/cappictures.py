"""Pictures of caps (PNG, SVG or PDF by the file name): the deck with a cap highlighted, and the
bipartite graph of the cap's cards and the sets through them.

The deck of 3^P cards is drawn as a 3^ceil(P/2) x 3^floor(P/2) grid: the first half of a card's
digits gives its row, the rest its column (for P = 4 the familiar 9 x 9 board of 3 x 3 blocks).
In the graph every set through a card of the cap is a node on the right; a cap meets every set
in at most two cards, and the sets met twice are the ones the cap blocks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from setlab.cards import check_properties
from setlab.errors import SetlabError
from setlab.geometry import digits, lines


def _figure_path(path: str) -> None:
    if not path.lower().endswith((".png", ".svg", ".pdf")):
        raise SetlabError(f"picture file '{path}' must end in .png, .svg or .pdf")


def _cap_mask(cap: Sequence[int], properties: int) -> np.ndarray:
    check_properties(properties)
    if properties > 6:
        raise SetlabError("pictures of the deck are drawn for P <= 6")
    n = 3**properties
    mask = np.zeros(n, dtype=bool)
    cards = [int(c) for c in cap]
    if any(not 0 <= c < n for c in cards):
        raise SetlabError(f"card index out of range for {properties} properties")
    mask[cards] = True
    return mask


def draw_deck(cap: Sequence[int], properties: int, path: str) -> None:
    """Save the deck as a grid of cells, the cards of ``cap`` filled, to ``path``.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "cap.svg")
    >>> draw_deck([0, 1, 3, 4], 2, path)
    >>> open(path).read(5)
    '<?xml'
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    _figure_path(path)
    mask = _cap_mask(cap, properties)
    top = (properties + 1) // 2
    rows, cols = 3**top, 3 ** (properties - top)
    d = digits(properties).astype(np.int64)
    row = d[:, :top] @ 3 ** np.arange(top - 1, -1, -1)
    col = d[:, top:] @ 3 ** np.arange(properties - top - 1, -1, -1)
    figure, axes = plt.subplots(figsize=(0.5 * cols + 1, 0.5 * rows + 1))
    for card in range(len(mask)):
        axes.add_patch(
            plt.Rectangle(
                (col[card], rows - 1 - row[card]),
                0.9,
                0.9,
                facecolor="#c0392b" if mask[card] else "#ecf0f1",
                edgecolor="#7f8c8d",
            )
        )
        if properties <= 4:
            axes.text(
                col[card] + 0.45,
                rows - 1 - row[card] + 0.45,
                "".join(map(str, d[card])),
                ha="center",
                va="center",
                fontsize=6,
                color="white" if mask[card] else "#2c3e50",
            )
    for k in range(0, cols + 1, 3):
        axes.axvline(k - 0.05, color="#2c3e50", linewidth=1.5 if k % 9 == 0 else 0.8)
    for k in range(0, rows + 1, 3):
        axes.axhline(k - 0.05, color="#2c3e50", linewidth=1.5 if k % 9 == 0 else 0.8)
    axes.set_xlim(-0.2, cols + 0.1)
    axes.set_ylim(-0.2, rows + 0.1)
    axes.set_aspect("equal")
    axes.axis("off")
    axes.set_title(f"a cap of {int(mask.sum())} cards in AG({properties},3)")
    figure.savefig(path, bbox_inches="tight")
    plt.close(figure)


def draw_blocking_graph(cap: Sequence[int], properties: int, path: str) -> None:
    """Save the bipartite graph: cap cards (left) and the sets through them (right).

    A set joined to two cards (drawn red) is blocked by the cap; to one card, grey.

    Examples
    --------
    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "graph.png")
    >>> draw_blocking_graph([0, 1, 3, 4], 2, path)
    >>> open(path, "rb").read(4)
    b'\\x89PNG'
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    _figure_path(path)
    mask = _cap_mask(cap, properties)
    sets = lines(properties)
    hits = mask[sets].sum(axis=1)
    if (hits == 3).any():
        raise SetlabError("these cards hold a set: not a cap")
    touched = np.flatnonzero(hits > 0)
    touched = touched[np.argsort(-hits[touched], kind="stable")]
    cards = np.flatnonzero(mask)
    left = dict(zip(cards.tolist(), np.linspace(1, 0, len(cards)), strict=True))
    right = dict(zip(touched.tolist(), np.linspace(1, 0, len(touched)), strict=True))
    figure, axes = plt.subplots(figsize=(6, 8))
    for s in touched:
        blocked = hits[s] == 2
        for card in sets[s]:
            if mask[card]:
                axes.plot(
                    [0, 1],
                    [left[int(card)], right[int(s)]],
                    color="#c0392b" if blocked else "#bdc3c7",
                    linewidth=0.4 if blocked else 0.2,
                    zorder=2 if blocked else 1,
                )
    axes.scatter(np.zeros(len(cards)), list(left.values()), s=12, color="#2c3e50", zorder=3)
    axes.scatter(np.ones(len(touched)), list(right.values()), s=2, color="#7f8c8d", zorder=3)
    axes.set_xlim(-0.1, 1.1)
    axes.axis("off")
    axes.set_title(
        f"{len(cards)} cards, {len(touched)} sets through them, {int((hits == 2).sum())} blocked"
    )
    figure.savefig(path, bbox_inches="tight")
    plt.close(figure)
