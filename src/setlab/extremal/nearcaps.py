"""Few sets among n cards just above the cap bound: every such board is a cap plus a few cards.

A board S of n cards with at most t sets contains a cap of n - t cards (delete one card of each
set, then any cards: subsets of caps are caps). So "m(n) > t" follows from classifying the caps of
n - t cards up to AGL(P,3) and checking that no t cards added to a representative make a board
with at most t sets. Caps are classified by the one generator of :mod:`setlab.extremal.search`
as the configurations with at most 0 sets: a (k+1)-cap is a k-cap plus a card on none of its
secants, and nauty certificates (:mod:`setlab.symmetry`) merge equivalent caps.
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

from setlab.cards import deck_size
from setlab.extremal.caps.deck import free_cards
from setlab.extremal.search import generate_levels
from setlab.geometry import third_card_table
from setlab.kernels import add_card, pair_completions, remove_card
from setlab.symmetry import orbit_size

__all__ = ["cap_classes", "extension_count_check", "prove_min_near_caps", "verify_near_caps"]


@cache
def cap_classes(properties: int, size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Representatives of the AGL(P,3)-classes of caps of k cards, for k = 0..size.

    Level k+1 is a level of :func:`setlab.extremal.search.generate_levels` with threshold 0 for
    min (no set): it extends every level-k representative by every card off its secants, one per
    orbit of its stabiliser (complete: deleting a card of a (k+1)-cap leaves a k-cap equivalent
    to a representative) and keeps the first cap found of each certificate.

    Examples
    --------
    >>> [len(level) for level in cap_classes(3, 10)]  # AG(3,3): the largest caps have 9 cards
    [1, 1, 1, 1, 2, 2, 3, 2, 3, 1, 0]
    """
    if size == 0:
        return (((),),)  # one level holding one cap, the empty one
    levels = cap_classes(properties, size - 1)  # cached: each level is built once per P
    # One more level, from the (size - 1)-caps; "found" order keeps each class's first cap.
    start = [[list(cap), 0] for cap in levels[-1]]
    built = generate_levels(
        properties, "min", [0] * (size + 1), start=start, first=size - 1, order="found"
    )
    level = next(built, None)
    caps = () if level is None else tuple(tuple(cards) for cards, _ in level.classes)
    return (*levels, caps)


def _extensions(
    properties: int, cap: tuple[int, ...], extra: int, budget: int
) -> tuple[int, tuple[int, ...] | None]:
    """Depth-first: add ``extra`` cards (increasing index) to ``cap`` keeping <= budget sets.

    deg[q] counts the pairs of the current board completing q to a set, so adding q adds deg[q]
    sets; the sets only grow, which prunes any branch past the budget. Returns (nodes visited,
    a board within budget or None).
    """
    table = third_card_table(properties).astype(np.int64)
    size = deck_size(properties)
    member = np.zeros(size, dtype=bool)
    member[list(cap)] = True
    deg = pair_completions(np.array(cap, dtype=np.int64), table)
    nodes = 0

    def extend(start: int, left: int, sets: int, board: list[int]) -> tuple[int, ...] | None:
        nonlocal nodes
        nodes += 1
        if left == 0:
            return tuple(board)
        for q in range(start, size):
            # pruning: adding q creates deg[q] sets, and sets never go away deeper down
            if member[q] or sets + deg[q] > budget:
                continue
            partners = np.flatnonzero(member)  # the board before q
            created = add_card(deg, partners, q, table)
            member[q] = True
            board.append(q)
            found = extend(q + 1, left - 1, sets + int(created), board)
            board.pop()
            member[q] = False
            remove_card(deg, partners, q, table)
            if found is not None:
                return found
        return None

    board = extend(0, extra, 0, list(cap))
    return nodes, board


def prove_min_near_caps(properties: int, cards: int, threshold: int) -> dict | None:
    """Proof record refuting "some board of ``cards`` cards has <= threshold sets", or None.

    Classifies the caps of c = max(0, cards - threshold) cards and extends each representative
    by cards - c cards within the budget of ``threshold`` sets. None when an extension succeeds
    (that board has at most ``threshold`` sets). When no c-cap exists the claim holds at once.

    Examples
    --------
    >>> record = prove_min_near_caps(3, 10, 0)  # no 10-cap in AG(3,3)
    >>> record["claim"], record["cap_classes"][-1]
    ('min >= 1', 0)
    """
    start = time.perf_counter()
    if threshold < 0 or not 0 <= cards <= deck_size(properties):
        return None
    cap_size = max(0, cards - threshold)
    levels = cap_classes(properties, cap_size)
    nodes = 0
    for cap in levels[cap_size]:
        visited, board = _extensions(properties, cap, cards - cap_size, threshold)
        nodes += visited
        if board is not None:
            return None
    return {
        "method": "near-cap",
        "properties": properties,
        "cards": cards,
        "threshold": threshold,
        "claim": f"min >= {threshold + 1}",
        "cap_size": cap_size,
        "cap_classes": [len(level) for level in levels],
        "caps_per_level": [sum(orbit_size(cap, properties) for cap in level) for level in levels],
        "extension_nodes": nodes,
        "seconds": round(time.perf_counter() - start, 3),
    }


def extension_count_check(properties: int, size: int) -> bool:
    """Orbit-stabiliser check of the classification: (k+1) N_{k+1} = sum over k-caps of e(C).

    Counting pairs (k-cap C, card extending it to a cap) two ways, with N_k the number of
    k-caps (sum of the orbit sizes |AGL| / |Aut| of the classes) and e(C) the cards on no secant
    of C. A merge of inequivalent caps or a missed class breaks the identity.

    Examples
    --------
    >>> extension_count_check(3, 10)
    True
    """
    levels = cap_classes(properties, size)
    totals = [sum(orbit_size(cap, properties) for cap in level) for level in levels]
    for k in range(size):
        pairs = 0
        for cap in levels[k]:
            pairs += orbit_size(cap, properties) * int(free_cards(cap, properties).sum())
        if pairs != (k + 1) * totals[k + 1]:
            return False
    return True


def verify_near_caps(record: dict) -> bool:
    """Re-run the extensions, check the classification by :func:`extension_count_check`, and
    compare every count with the record.

    Examples
    --------
    >>> verify_near_caps(prove_min_near_caps(3, 10, 0))
    True
    """
    again = prove_min_near_caps(record["properties"], record["cards"], record["threshold"])
    keys = ("claim", "cap_size", "cap_classes", "caps_per_level", "extension_nodes")
    return (
        again is not None
        and all(again[key] == record[key] for key in keys)
        and extension_count_check(record["properties"], record["cap_size"])
    )
