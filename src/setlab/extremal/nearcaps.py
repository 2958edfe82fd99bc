"""Few sets among n cards just above the cap bound: every such board is a cap plus a few cards.

A board S of n cards with at most t sets contains a cap of n - t cards (delete one card of each
set, then any cards: subsets of caps are caps). So "m(n) > t" follows from classifying the caps of
n - t cards up to AGL(P,3) and checking that no t cards added to a representative make a board
with at most t sets. Caps are classified level by level: a (k+1)-cap is a k-cap plus a card on
none of its secants, and nauty certificates (:mod:`setlab.symmetry`) merge equivalent caps.
"""

from __future__ import annotations

import time
from functools import cache

import numpy as np

from setlab.cards import deck_size
from setlab.geometry import third_card_table
from setlab.symmetry import certificate, orbit_size


@cache
def cap_classes(properties: int, size: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """Representatives of the AGL(P,3)-classes of caps of k cards, for k = 0..size.

    Level k+1 extends every level-k representative by every card off its secants (complete:
    deleting a card of a (k+1)-cap leaves a k-cap equivalent to a representative) and keeps the
    first cap of each certificate.

    Examples
    --------
    >>> [len(level) for level in cap_classes(3, 10)]  # AG(3,3): the largest caps have 9 cards
    [1, 1, 1, 1, 2, 2, 3, 2, 3, 1, 0]
    """
    if size == 0:
        return (((),),)  # one level holding one cap, the empty one
    levels = cap_classes(properties, size - 1)  # cached: each level is built once per P
    table = third_card_table(properties).astype(np.int64)
    found: dict[bytes, tuple[int, ...]] = {}
    for cap in levels[-1]:
        blocked = np.zeros(len(table), dtype=bool)
        members = np.array(cap, dtype=np.int64)
        blocked[members] = True
        blocked[table[np.ix_(members, members)].ravel()] = True  # third cards of secants
        for card in np.flatnonzero(~blocked):
            bigger = tuple(sorted((*cap, int(card))))
            found.setdefault(certificate(bigger, properties), bigger)
    return (*levels, tuple(found.values()))


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
    members = np.array(cap, dtype=np.int64)
    deg = np.zeros(size, dtype=np.int64)
    for i, x in enumerate(members):  # each pair {x, y} completes to its third card
        np.add.at(deg, table[x, members[i + 1 :]], 1)
    nodes = 0

    def extend(start: int, left: int, sets: int, board: list[int]) -> tuple[int, ...] | None:
        nonlocal nodes
        nodes += 1
        if left == 0:
            return tuple(board)
        for q in range(start, size):
            if member[q] or sets + deg[q] > budget:
                continue
            partners = np.flatnonzero(member)
            thirds = table[q, partners]
            deg[thirds] += 1
            member[q] = True
            board.append(q)
            found = extend(q + 1, left - 1, sets + int(deg[q]), board)
            board.pop()
            member[q] = False
            deg[thirds] -= 1
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
    table = third_card_table(properties).astype(np.int64)
    levels = cap_classes(properties, size)
    totals = [sum(orbit_size(cap, properties) for cap in level) for level in levels]
    for k in range(size):
        pairs = 0
        for cap in levels[k]:
            blocked = np.zeros(len(table), dtype=bool)
            members = np.array(cap, dtype=np.int64)
            blocked[members] = True
            blocked[table[np.ix_(members, members)].ravel()] = True
            pairs += orbit_size(cap, properties) * int((~blocked).sum())
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
