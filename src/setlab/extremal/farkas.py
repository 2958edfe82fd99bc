"""Exact Farkas certificates for the counting-identity programs of :mod:`setlab.extremal.bounds`.

A program {A x >= b (rows of each sense), l <= x <= u} has no real point iff some multipliers y
(>= 0 on >= rows, <= 0 on <= rows, free on = rows) make the largest value of (y^T A) x over the
box smaller than y^T b (Farkas' lemma). HiGHS finds such y in floating point; they are rounded to
fractions and checked exactly. Where only the integer program is infeasible, a branching tree over
integer variables carries one such certificate per leaf. The tree is grown as branch and bound
with L as the objective (:class:`_Relaxation`): a box is a leaf once the relaxation's best L
leaves the range to refute, and a node splits the fractional column that strong branching
finds best (:func:`_strong_branch`).

References
----------
D. Applegate, R. Bixby, V. Chvatal and W. Cook, "Finding cuts in the TSP", DIMACS Technical
Report 95-05 (1995): strong branching.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

import numpy as np
from scipy.optimize import linprog
from scipy.sparse import lil_matrix

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.extremal.bounds import (
    SliceProgram,
    forced_counts,
    forced_types,
    slice_minima,
    slice_program,
    solve_highs,
)
from setlab.extremal.identities import degree_bound

__all__ = [
    "FARKAS_DEPTH",
    "FARKAS_NODES",
    "farkas_certificate",
    "program_range",
    "record_certificate",
    "record_program",
    "row_names",
]

FARKAS_NODES = 20000
"""Most nodes of a branching certificate before the producer gives up (returns None)."""

FARKAS_DEPTH = 400
"""Deepest branching certificate the producer grows (it recurses; the deepest tree the tables
need is under 100 levels)."""

_DENOMINATORS = (10**4, 10**6, 10**9, 10**12)


def program_range(properties: int, cards: int, sense: str, bound: int) -> tuple[int, int]:
    """The range of L a certificate refutes: [bound+1, degree bound] (max), [0, bound-1] (min).

    Examples
    --------
    >>> program_range(4, 12, "max", 14), program_range(4, 21, "min", 3)
    ((15, 20), (0, 2))
    """
    if sense == "max":
        return bound + 1, degree_bound(properties, cards)
    if sense == "min":
        return 0, bound - 1
    raise SetlabError(f"sense must be 'max' or 'min', got {sense!r}")


def row_names(
    program: SliceProgram,
    forced: Iterable[tuple[int, int, int]] = (),
    count: tuple[int, int] | None = None,
) -> list[str]:
    """Names of the rows of a :func:`~setlab.extremal.bounds.slice_program`, as the standalone
    checker names them: count, square, cube, inside_high, inside_low, across_high, across_low,
    then occurs_/cap_/floor_ followed by the type a_b_c of the switch they involve, "big" for
    the split's row (at most one class with a part above theta), forced_a_b_c for the rows
    of the ``forced`` types the program was built with (neither has a switch), and last
    "big_classes" where it has a ``count`` row (at most k classes with a part of h or more).

    Examples
    --------
    >>> row_names(slice_program(4, 12, 14, 20, {}))[:3]
    ['count', 'square', 'cube']
    >>> forced = [(4, 4, 4)]
    >>> row_names(slice_program(4, 12, 14, 20, {}, None, 5, forced), forced)[-2:]
    ['big', 'forced_4_4_4']
    """
    names = ["count", "square", "cube", "inside_high", "inside_low", "across_high", "across_low"]
    tags = iter("forced_{}_{}_{}".format(*t) for t, _ in forced_counts(forced))
    end = len(program.rows) - (count is not None)
    for coefficients, low, _ in program.rows[len(names) : end]:
        switches = [i for i, _ in coefficients if program.variables[i][0].startswith("y_")]
        if not switches:
            names.append("big" if low is None else next(tags))
            continue
        switch = switches[0]
        tag = program.variables[switch][0][2:]
        first = program.variables[coefficients[0][0]][0]
        kind = "occurs" if first.startswith("x_") else ("cap" if low is None else "floor")
        names.append(f"{kind}_{tag}")
    return names + ([] if count is None else ["big_classes"])


def _sense(low: int | None, high: int | None) -> str:
    return "=" if low == high else (">=" if high is None else "<=")


def _exact_gap(
    program: SliceProgram, box: list[tuple[int, int]], y: dict[int, Fraction]
) -> Fraction | None:
    """y^T b minus the most (y^T A) x reaches over the box (> 0: a certificate), None if a sign
    is wrong."""
    total: dict[int, Fraction] = {}
    rhs = Fraction(0)
    for r, value in y.items():
        coefficients, low, high = program.rows[r]
        sense = _sense(low, high)
        if (sense == ">=" and value < 0) or (sense == "<=" and value > 0):
            return None
        for i, a in coefficients:
            total[i] = total.get(i, Fraction(0)) + value * a
        rhs += value * (high if sense == "<=" else low)
    most = sum((a * (box[i][1] if a > 0 else box[i][0]) for i, a in total.items()), Fraction(0))
    return rhs - most


def _farkas_float(program: SliceProgram, box: list[tuple[int, int]]) -> np.ndarray | None:
    """Float multipliers y with gap >= 1 (an LP over y and the bound multipliers), or None."""
    rows, width = len(program.rows), len(program.variables)
    matrix = np.zeros((rows, width))
    rhs = np.zeros(rows)
    senses = []
    for r, (coefficients, low, high) in enumerate(program.rows):
        for i, a in coefficients:
            matrix[r, i] = a
        senses.append(_sense(low, high))
        rhs[r] = high if senses[-1] == "<=" else low
    # columns: y+ (rows), y- (rows), z_up (width), z_low (width); y = y+ - y-
    lower = np.array([lo for lo, _ in box], dtype=float)
    upper = np.array([hi for _, hi in box], dtype=float)
    equal = np.hstack([matrix.T, -matrix.T, -np.eye(width), np.eye(width)])
    gap = np.concatenate([-rhs, rhs, upper, -lower])[None, :]  # -(b^T y - u z_up + l z_low) <= -1
    y_bounds = [(0, 0 if s == "<=" else None) for s in senses]
    y_bounds += [(0, 0 if s == ">=" else None) for s in senses]
    cost = np.concatenate([np.ones(2 * rows), np.full(2 * width, 1e-3)])
    result = linprog(
        cost,
        A_ub=gap,
        b_ub=[-1.0],
        A_eq=equal,
        b_eq=np.zeros(width),
        bounds=y_bounds + [(0, None)] * (2 * width),
        method="highs",
    )
    if result.status != 0:
        return None
    return result.x[:rows] - result.x[rows : 2 * rows]


def _leaf(program: SliceProgram, box: list[tuple[int, int]]) -> dict[int, Fraction] | None:
    """Exact multipliers refuting the LP relaxation over ``box``, checked, or None."""
    if any(lo > hi for lo, hi in box):
        return {}
    ray = _farkas_float(program, box)
    if ray is None:
        return None
    scale = float(np.max(np.abs(ray))) or 1.0
    for denominator in _DENOMINATORS:
        y = {}
        for r, value in enumerate(ray / scale):
            exact = Fraction(float(value)).limit_denominator(denominator)
            sense = _sense(program.rows[r][1], program.rows[r][2])
            if (sense == ">=" and exact < 0) or (sense == "<=" and exact > 0):
                exact = Fraction(0)
            if exact:
                y[r] = exact
        gap = _exact_gap(program, box, y)
        if gap is not None and gap > 0:
            return y
    return None


class _Relaxation:
    """The LP relaxation of a program, pushed toward the range of L it must refute.

    Branching needs a fractional point to cut off, and not any point: the one that comes nearest
    to the range. For "max" (the range [low, degree bound]) the relaxation maximises L with L's
    lower bound dropped, for "min" it minimises L with the upper bound dropped. A box is closed
    when that optimum falls outside the range (or the box has no real point): then the LP over
    the box with the range restored is infeasible and :func:`_leaf` finds its multipliers. This
    is branch and bound with L as the objective. A feasibility LP returns an arbitrary vertex:
    branching on its first fractional switch, the trees of the largest split programs of AG(5,3)
    had 11 times the leaves (``benchmarks/farkas_trees.py``), though on a few programs (M(122),
    a chain of types excluded one by one) it does better, 210 leaves against 296.
    """

    def __init__(self, program: SliceProgram, sense: str) -> None:
        width = len(program.variables)
        upper: list[tuple[list[tuple[int, int]], int]] = []
        equal: list[tuple[list[tuple[int, int]], int]] = []
        for coefficients, low, high in program.rows:  # the senses of _sense
            if low is not None and low == high:
                equal.append((list(coefficients), low))
            elif high is not None:
                upper.append((list(coefficients), high))
            elif low is not None:  # a >= row, negated
                upper.append(([(i, -a) for i, a in coefficients], -low))
        self.upper, self.upper_rhs = _sparse(upper, width)
        self.equal, self.equal_rhs = _sparse(equal, width)
        self.maximise = sense == "max"
        self.low, self.high = program.variables[0][1], program.variables[0][2]  # L is column 0
        self.cost = np.zeros(width)
        self.cost[0] = -1.0 if self.maximise else 1.0

    def optimum(self, box: list[tuple[int, int]]) -> tuple[float, np.ndarray] | None:
        """(the optimum of L, the optimal point) over ``box`` with L's range side dropped, or
        None when the box has no real point."""
        bounds: list[tuple[float | None, float | None]] = [(lo, hi) for lo, hi in box]
        bounds[0] = (None, box[0][1]) if self.maximise else (box[0][0], None)
        result = linprog(
            self.cost,
            A_ub=self.upper,
            b_ub=self.upper_rhs,
            A_eq=self.equal,
            b_eq=self.equal_rhs,
            bounds=bounds,
            method="highs",
        )
        if result.status != 0:
            return None
        return float(result.x[0]), result.x

    def closed(self, value: float | None) -> bool:
        """Whether an optimum (None: no real point) lies outside the range to refute."""
        if value is None:
            return True
        return value < self.low - 1e-7 if self.maximise else value > self.high + 1e-7


def _sparse(rows: list[tuple[list[tuple[int, int]], int]], width: int) -> tuple[Any, Any]:
    """A CSR matrix and right-hand side of (coefficients, rhs) rows, (None, None) for none."""
    if not rows:
        return None, None
    matrix = lil_matrix((len(rows), width))
    for r, (coefficients, _) in enumerate(rows):
        for i, a in coefficients:
            matrix[r, i] = a
    return matrix.tocsr(), np.array([rhs for _, rhs in rows], dtype=float)


def _fractional(point: np.ndarray, box: list[tuple[int, int]]) -> list[int]:
    """The columns of ``point`` that are not integers and can still be split in ``box``; L
    (column 0) only when no other column is fractional, as branching on L only rounds the
    objective."""
    columns = [i for i, v in enumerate(point) if abs(v - round(v)) > 1e-6 and box[i][0] < box[i][1]]
    return [i for i in columns if i] or columns


def _children(box: list[tuple[int, int]], column: int, at: int) -> tuple[list, list]:
    """The two boxes of a branch: column <= at, column >= at + 1."""
    low_box, high_box = list(box), list(box)
    low_box[column] = (box[column][0], at)
    high_box[column] = (at + 1, box[column][1])
    return low_box, high_box


def _strong_branch(
    relaxation: _Relaxation, box: list[tuple[int, int]], point: np.ndarray, columns: list[int]
) -> int:
    """The column to branch on, by strong branching: solve both children of each candidate and
    take the one that closes most children, then the one whose better child moves L furthest
    toward closing, then its worse child."""

    def score(column: int) -> tuple[int, float, float]:
        at = int(np.floor(point[column]))
        values = []
        for child in _children(box, column, at):
            found = relaxation.optimum(child)
            values.append(None if found is None else found[0])
        closed = sum(relaxation.closed(v) for v in values)
        sign = 1.0 if relaxation.maximise else -1.0
        moved = [np.inf if relaxation.closed(v) else sign * (point[0] - v) for v in values]
        return closed, min(moved), max(moved)

    return max(columns, key=score)


def _tree(
    program: SliceProgram,
    relaxation: _Relaxation,
    box: list[tuple[int, int]],
    names: list[str],
    budget: list[int],
    depth: int = 0,
) -> dict[str, Any] | None:
    """A Farkas leaf where the relaxation closes the box, else a branch on a fractional column
    of the relaxation's optimum (chosen by :func:`_strong_branch`); None when an integer point
    lies in the range, the budget of nodes runs out or the tree grows deeper than
    :data:`FARKAS_DEPTH`."""
    budget[0] -= 1
    if budget[0] < 0 or depth > FARKAS_DEPTH:
        return None
    found = relaxation.optimum(box)
    if relaxation.closed(None if found is None else found[0]):
        y = _leaf(program, box)
        if y is not None:
            return {"kind": "farkas", "multipliers": {names[r]: str(v) for r, v in y.items()}}
    if found is None:
        return None
    columns = _fractional(found[1], box)
    if not columns:  # an integer point: the integer program is feasible here
        return None
    column = _strong_branch(relaxation, box, found[1], columns) if len(columns) > 1 else columns[0]
    at = int(np.floor(found[1][column]))
    low_box, high_box = _children(box, column, at)
    left = _tree(program, relaxation, low_box, names, budget, depth + 1)
    right = None
    if left is not None:
        right = _tree(program, relaxation, high_box, names, budget, depth + 1)
    if right is None:
        return None
    return {
        "kind": "branch",
        "variable": program.variables[column][0],
        "at": at,
        "low": left,
        "high": right,
    }


def _cites(
    properties: int, known_max: dict[int, int], known_min: dict[int, int]
) -> list[list[Any]]:
    """The (P-1)-dimensional values the program used: maxima below the degree bound, minima
    above what the complement identity gives."""
    flat = deck_size(properties - 1)
    out: list[list[Any]] = [
        [properties - 1, k, "max", v]
        for k, v in sorted(known_max.items())
        if 0 <= k <= flat and v < degree_bound(properties - 1, k)
    ]
    derived = slice_minima(properties, known_max)
    out += [
        [properties - 1, k, "min", v]
        for k, v in sorted(known_min.items())
        if 0 <= k <= flat and v > derived[k]
    ]
    return out


def farkas_certificate(
    properties: int,
    cards: int,
    sense: str,
    bound: int,
    known_max: dict[int, int],
    known_min: dict[int, int] | None = None,
    nodes: int = FARKAS_NODES,
    big: int | None = None,
    forced: Iterable[tuple[int, int, int]] = (),
    ceiling: int | None = None,
    count: tuple[int, int] | None = None,
    cells: int | None = None,
) -> dict[str, Any] | None:
    """An exact certificate that no n cards of AG(P,3) hold more than ``bound`` sets ("max") or
    fewer than ``bound`` ("min"), for the program of :func:`~setlab.extremal.bounds.slice_program`.

    Parameters
    ----------
    properties, cards
        P and n.
    sense, bound
        "max": refutes L in [bound+1, degree bound]; "min": refutes L in [0, bound-1].
    known_max, known_min
        Proven M_{P-1}(k), m_{P-1}(k), the program's slice bounds (cited in ``"cites"``).
    nodes
        Most nodes of a branching tree before giving up.
    big
        Refute only the configurations in which at most one class holds a hyperplane of more
        than ``big`` cards (the program of :mod:`setlab.extremal.split`; ``"big"`` in the
        certificate).
    forced
        Refute only the configurations with classes of these types (sorted triples, one per
        class; the split's middle case; ``"forced"`` in the certificate).
    ceiling
        Refute only the configurations with no hyperplane of more than ``ceiling`` cards
        (``"ceiling"`` in the certificate).
    count
        (h, k): refute only the configurations in which at most k classes have a part of h or
        more (``"count"`` in the certificate; the split's count of big classes).
    cells
        Refute only the configurations in which the four ``forced`` types are one pencil's
        and its nine cells hold at most ``cells`` lines (``"cells"`` in the certificate; the
        split's middle case, :func:`~setlab.extremal.bounds.slice_program`).

    Returns
    -------
    dict or None
        ``{"kind": "empty", ...}`` when the range is empty; ``{"kind": "farkas", "multipliers":
        {row: "p/q"}, ...}``; or ``{"kind": "branch", "variable", "at", "low", "high", ...}``
        whose leaves are such certificates. Always with ``"cites"``: [[P-1, k, sense, value]].
        None when neither the LP relaxation nor a tree within ``nodes`` nodes refutes the range.
        The multipliers are checked in exact arithmetic before they are returned.

    Examples
    --------
    >>> table3 = {5: 2, 6: 3, 7: 5, 8: 8, 9: 12, 10: 12}  # the paper's M_3(k)
    >>> certificate = farkas_certificate(4, 10, "max", 12, table3)
    >>> certificate["kind"], certificate["range"], certificate["cites"][0]
    ('farkas', [13, 13], [3, 5, 'max', 2])
    >>> farkas_certificate(4, 30, "max", 119, table3)["cites"][:2]  # M_3(5), M_3(6) used
    [[3, 5, 'max', 2], [3, 6, 'max', 3]]
    >>> farkas_certificate(4, 9, "max", 12, table3)["kind"]  # 12 is the degree bound
    'empty'

    References
    ----------
    J. Farkas, "Theorie der einfachen Ungleichungen", J. Reine Angew. Math. 124 (1902).
    """
    if not 0 <= cards <= deck_size(properties):
        raise SetlabError(f"AG({properties},3) has {deck_size(properties)} cards, not {cards}")
    known_min = known_min or {}
    forced = forced_types(forced)
    low, high = program_range(properties, cards, sense, bound)
    head: dict[str, Any] = {
        "program": "slice",
        "range": [low, high],
        "cites": _cites(properties, known_max, known_min),
        **({} if big is None else {"big": big}),
        **({"forced": forced} if forced else {}),
        **({} if ceiling is None else {"ceiling": ceiling}),
        **({} if count is None else {"count": list(count)}),
        **({} if cells is None else {"cells": cells}),
    }
    if low > high:
        return {"kind": "empty", **head}
    program = slice_program(
        properties, cards, low, high, known_max, known_min, big, forced, ceiling, count, cells
    )
    if solve_highs(program)[0] == "feasible":  # an integer point in the range: no tree exists
        return None
    box = [(lo, hi) for _, lo, hi in program.variables]
    names = row_names(program, forced, count)
    tree = _tree(program, _Relaxation(program, sense), box, names, [nodes])
    if tree is None:
        return None
    return {**tree, **head}


def record_certificate(record: dict[str, Any], nodes: int = FARKAS_NODES) -> dict[str, Any] | None:
    """The certificate of a proof record of :func:`~setlab.extremal.bounds.prove_max_bound` or
    :func:`~setlab.extremal.bounds.prove_min_bound` ("counting" or "slice-ilp"), for the value
    its claim states and with the slice bounds it assumed; None for other methods.

    Examples
    --------
    >>> from setlab.extremal.bounds import prove_max_bound
    >>> record = prove_max_bound(4, 10, 13, {9: 12})
    >>> record_certificate(record)["kind"], record_certificate({"method": "near-cap"})
    ('farkas', None)
    """
    if record.get("method") not in ("counting", "slice-ilp"):
        return None
    return farkas_certificate(**_record_claim(record), nodes=nodes)


def record_program(record: dict[str, Any]) -> tuple[SliceProgram, str]:
    """The slice program a "counting" or "slice-ilp" record refutes, as
    :func:`record_certificate` builds it, and its sense ("max" or "min").

    Examples
    --------
    >>> from setlab.extremal.bounds import prove_max_bound
    >>> program, sense = record_program(prove_max_bound(4, 10, 13, {9: 12}))
    >>> program.variables[0][0], sense
    ('L', 'max')
    """
    claim = _record_claim(record)
    low, high = program_range(claim["properties"], claim["cards"], claim["sense"], claim["bound"])
    program = slice_program(claim["properties"], claim["cards"], low, high, claim["known_max"],
                            claim["known_min"], claim["big"], forced_types(claim["forced"]),
                            claim["ceiling"], claim["count"], claim["cells"])  # fmt: skip
    return program, claim["sense"]


def _record_claim(record: dict[str, Any]) -> dict[str, Any]:
    """The arguments of :func:`farkas_certificate` (all but ``nodes``) for the claim a proof
    record states, with the slice bounds it assumed."""
    max_claim = str(record["claim"]).startswith("max")
    return {
        "properties": int(record["properties"]),
        "cards": int(record["cards"]),
        "sense": "max" if max_claim else "min",
        "bound": int(record["low"]) - 1 if max_claim else int(record["high"]) + 1,
        "known_max": {int(k): int(v) for k, v in record["known_max"].items()},
        "known_min": {int(k): int(v) for k, v in record["known_min"].items()},
        "big": record.get("big"),
        "forced": record.get("forced") or [],
        "ceiling": record.get("ceiling"),
        "count": None if record.get("count") is None else tuple(record["count"]),
        "cells": record.get("cells"),
    }
