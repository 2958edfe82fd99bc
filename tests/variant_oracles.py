"""Independent brute force for the variants: test every subset of the right size, digit by digit.

A card's digits are its index written in base V, big-endian (the V-valued deck's numbering),
worked out here; each rule is tested as the issue words it, sharing no code with setlab.
"""

from __future__ import annotations

import itertools


def digits_of(card, properties, values):
    """The P digits of card ``card`` in base V, the first property the most significant."""
    return [card // values ** (properties - 1 - i) % values for i in range(properties)]


def ultra_rule(w):
    a, b, c, d = w
    pairings = ((a, b, c, d), (a, c, b, d), (a, d, b, c))
    return any(
        all((x + y - z - t) % 3 == 0 for x, y, z, t in zip(*p, strict=True)) for p in pairings
    )


def ghost_rule(w):
    return all(sum(column) % 3 == 0 for column in zip(*w, strict=True))


def four_rule(w):
    shapes = {(4,), (1, 1, 1, 1), (2, 2)}
    return all(
        tuple(sorted(column.count(v) for v in set(column))) in shapes
        for column in map(list, zip(*w, strict=True))
    )


def valued_rule(values):
    return lambda w: all(len(set(column)) in (1, values) for column in zip(*w, strict=True))


RULES = {"ultra": (4, 3, ultra_rule), "ghost": (6, 3, ghost_rule), "4set": (4, 4, four_rule)}


def brute_force(board, name, properties, values=3):
    """Every structure by testing each subset of the right size, digit by digit."""
    if name == "set":
        size, rule = values, valued_rule(values)
    else:
        size, values, rule = RULES[name]
    words = [digits_of(card, properties, values) for card in board]
    return [
        combo
        for combo in itertools.combinations(range(len(board)), size)
        if rule([words[i] for i in combo])
    ]
