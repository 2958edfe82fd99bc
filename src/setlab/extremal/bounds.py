"""Upper and lower bounds on the number of sets among n cards of AG(P,3), by integer programs.

x_t counts the parallel classes cutting S in slice sizes t = (a >= b >= c). The identities of
:mod:`setlab.extremal.identities` are linear in (x, L); per class L = inside + across with the
inside sets between the (P-1)-dimensional minima and maxima of the slices and the across sets
bounded by :func:`~setlab.extremal.identities.across_bounds`, and summed over classes the inside
sets number K1 L. An infeasible integer program refutes the claimed range of L.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import sys
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from importlib.metadata import version
from typing import Any

import numpy as np
from ortools.sat.python import cp_model
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse import csr_array

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.extremal.identities import (
    across_bounds,
    class_count,
    classes_through_direction,
    complement_sets,
    degree_bound,
    power_sums,
)
from setlab.extremal.nearcaps import prove_min_near_caps, verify_near_caps
from setlab.interrupts import ctrl_c_held

__all__ = [
    "BOUNDS_VERSION",
    "NEAR_CAP_BUDGET",
    "NEAR_CAP_PROPERTIES",
    "RETRIES",
    "SOLVER_SECONDS",
    "SliceProgram",
    "bound_table",
    "forced_counts",
    "forced_types",
    "max_upper_bound",
    "min_lower_bound",
    "prove_max_bound",
    "prove_min_bound",
    "slice_maxima",
    "slice_minima",
    "slice_program",
    "solve_cpsat",
    "solve_highs",
    "solve_interruptibly",
    "verify_max_bound",
    "write_mps",
]

SOLVER_SECONDS = 60.0
"""Time limit per solver call; an undecided model proves nothing."""

NEAR_CAP_PROPERTIES = 4
"""Largest P whose caps :mod:`setlab.extremal.nearcaps` classifies (AG(4,3): about 2 minutes)."""

NEAR_CAP_BUDGET = 5
"""Most sets a near-cap search allows: boards of n cards with <= t sets are caps plus t cards."""

RETRIES = 3
"""Thresholds tried above an optimum before falling back to the degree bound."""

BOUNDS_VERSION = 1
"""Bumped whenever :func:`max_upper_bound` may prove more: it names the store's record of the
bounds it gave (``Solver._slice_bound`` of :mod:`setlab.extremal.maxsets`), which later tables
read instead of solving the programs again."""


def slice_maxima(properties: int, known_max: dict[int, int]) -> list[int]:
    """Upper bounds M_{P-1}(k), k = 0..3^(P-1): ``known_max`` where given, else the degree bound.

    Examples
    --------
    >>> slice_maxima(3, {})  # slices of AG(3,3) are planes AG(2,3): exact already
    [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]
    """
    return list(_slice_maxima(properties, tuple(sorted(known_max.items()))))


@functools.lru_cache(maxsize=256)
def _slice_maxima(properties: int, known: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    """:func:`slice_maxima` of the table ``known`` as (k, value) pairs, once per table."""
    flat, known_max = deck_size(properties - 1), dict(known)
    return tuple(
        min(known_max.get(k, degree_bound(properties - 1, k)), degree_bound(properties - 1, k))
        for k in range(flat + 1)
    )


def slice_minima(
    properties: int, known_max: dict[int, int], known_min: dict[int, int] | None = None
) -> list[int]:
    """Lower bounds m_{P-1}(k): the complement identity sets(A) = T - k(N'-k)/2 - sets(A^c).

    With A^c of N' - k cards holding at most M_{P-1}(N' - k) sets (N' = 3^(P-1), T = N'(N'-1)/6),
    and ``known_min`` where it says more.

    Examples
    --------
    >>> slice_minima(3, {})[-3:]
    [5, 8, 12]
    """
    known_min = known_min or {}
    flat = deck_size(properties - 1)
    maxima = slice_maxima(properties, known_max)
    return [
        max(0, complement_sets(properties - 1, k, maxima[flat - k]), known_min.get(k, 0))
        for k in range(flat + 1)
    ]


@dataclass(frozen=True)
class SliceProgram:
    """The integer program in canonical, hashable form: all variables integer, all data integer.

    ``variables`` are (name, lower, upper); ``rows`` are (coefficients as (column, value) pairs,
    lower, upper) with None for an absent side.
    """

    variables: tuple[tuple[str, int, int], ...]
    rows: tuple[tuple[tuple[tuple[int, int], ...], int | None, int | None], ...]

    def canonical(self) -> str:
        return json.dumps({"variables": self.variables, "rows": self.rows}, separators=(",", ":"))

    def digest(self) -> str:
        """sha256 of the canonical JSON text of the model."""
        return hashlib.sha256(self.canonical().encode()).hexdigest()


def slice_program(
    properties: int,
    cards: int,
    low: int,
    high: int,
    known_max: dict[int, int],
    known_min: dict[int, int] | None = None,
    big: int | None = None,
    forced: Iterable[tuple[int, int, int]] = (),
    ceiling: int | None = None,
    count: tuple[int, int] | None = None,
    cells: int | None = None,
) -> SliceProgram:
    """The integer program whose integer points are the class profiles with low <= L <= high.

    Columns: L, then per admissible type t one count x_t and, where the type allows only part of
    [low, high], a switch y_t with x_t <= C y_t and y_t = 1 forcing L into the type's range
    [min inside + min across, max inside + max across]. With ``big`` = theta one more row: at
    most one class has a hyperplane of more than theta cards (sum of x_t over the types with a
    part above theta <= 1), the first case of :mod:`setlab.extremal.split`. Then one row per
    type of ``forced`` (sorted (a, b, c) with a >= b >= c, repeated as often as classes of that
    type are required), last, in the order of :func:`forced_counts`: x_t >= its multiplicity,
    the middle case of the split. A forced type with no column cannot occur for L in [low,
    high]; its row has no coefficients (0 >= k), which makes the program infeasible. With
    ``ceiling`` no class has a hyperplane of more than ``ceiling`` cards: those types get no
    column (the middle case knows the largest hyperplane of all). With ``count`` = (h, k) one
    row last: at most k classes have a part of h or more (sum of x_t over the types with a >= h
    is at most k; the split's count of big classes, :func:`setlab.extremal.split.
    meeting_bound`). With ``cells`` = I the four ``forced`` types are those of one pencil's
    classes (the four classes of hyperplanes through one (P-2)-flat W) and the lines of S
    inside the nine translates of W, its cells, number at most I: such a line lies inside a
    hyperplane of all four classes, a line meeting three cells inside one of them, so those
    classes hold 4 I(cells) + X = 3 I(cells) + L lines inside their hyperplanes, and the row
    "inside" takes that for their four types' M_{P-1} bounds: sum_t x_t M(t) - (K1 - 1) L >=
    sum of the four types' M(t) - 3 I (the split's middle case, :func:`setlab.extremal.split.
    middle_cells`).

    Examples
    --------
    >>> program = slice_program(4, 12, 14, 20, {})
    >>> program.variables[:2], program.rows[0][1:]  # L, a first type, and sum x_t = 40
    ((('L', 14, 20), ('x_12_0_0', 0, 40)), (40, 40))
    >>> forced = slice_program(4, 12, 14, 20, {}, forced=[(4, 4, 4), (6, 6, 0), (4, 4, 4)])
    >>> forced.rows[-2:]  # two classes 6 6 0 (no column: none has 14 sets) and 4 4 4
    (((), 1, None), (((16, 1),), 2, None))
    """
    forced = [tuple(kind) for kind in forced]
    flat = deck_size(properties - 1)
    c = class_count(properties)
    k1 = classes_through_direction(properties, 1)
    maxima = slice_maxima(properties, known_max)
    minima = slice_minima(properties, known_max, known_min)
    _, second, third_at_zero = power_sums(properties, cards, 0)
    per_set = power_sums(properties, cards, 1)[2] - third_at_zero  # 6 (K1 - K2)

    variables: list[tuple[str, int, int]] = [("L", low, high)]
    count_row: list[tuple[int, int]] = []
    square_row: list[tuple[int, int]] = []
    cube_row: list[tuple[int, int]] = [(0, -per_set)]
    inside_high: list[tuple[int, int]] = [(0, -k1)]
    inside_low: list[tuple[int, int]] = [(0, -k1)]
    across_high: list[tuple[int, int]] = [(0, -(c - k1))]
    across_low: list[tuple[int, int]] = [(0, -(c - k1))]
    switches: list[tuple[tuple[tuple[int, int], ...], int | None, int | None]] = []
    for a, b, rest, lo_inside, hi_inside, lo_across, hi_across in _class_types(
        flat, cards, tuple(maxima), tuple(minima)
    ):
        if ceiling is not None and a > ceiling:
            continue
        cap, floor = hi_inside + hi_across, lo_inside + lo_across
        if cap < low or floor > high:  # no class of this type can occur
            continue
        column = len(variables)
        variables.append((f"x_{a}_{b}_{rest}", 0, c))
        count_row.append((column, 1))
        square_row.append((column, a * a + b * b + rest * rest))
        cube_row.append((column, a**3 + b**3 + rest**3))
        inside_high.append((column, hi_inside))
        inside_low.append((column, lo_inside))
        across_high.append((column, hi_across))
        across_low.append((column, lo_across))
        if cap < high or floor > low:
            switch = len(variables)
            variables.append((f"y_{a}_{b}_{rest}", 0, 1))
            switches.append((((column, 1), (switch, -c)), None, 0))
            if cap < high:  # y = 1 => L <= cap
                switches.append((((0, 1), (switch, high - cap)), None, high))
            if floor > low:  # y = 1 => L >= floor
                switches.append((((0, 1), (switch, low - floor)), low, None))
    rows = [
        (tuple(count_row), c, c),
        (tuple(square_row), second, second),
        (tuple(cube_row), third_at_zero, third_at_zero),
        (tuple(inside_high), 0, None),
        (tuple(inside_low), None, 0),
        (tuple(across_high), 0, None),
        (tuple(across_low), None, 0),
        *switches,
    ]
    if big is not None:
        over = tuple((i, 1) for i, (name, _, _) in enumerate(variables)
                     if name.startswith("x_") and _part(name) > big)  # fmt: skip
        if over:
            rows.append((over, None, 1))
    column_of = {name: i for i, (name, _, _) in enumerate(variables)}
    for (a, b, rest), times in forced_counts(forced):
        column = column_of.get(f"x_{a}_{b}_{rest}")
        rows.append((() if column is None else ((column, 1),), times, None))
    if count is not None:
        part, most = count
        heavy = tuple((i, 1) for i, (name, _, _) in enumerate(variables)
                      if name.startswith("x_") and _part(name) >= part)  # fmt: skip
        rows.append((heavy, None, most))
    if cells is not None:
        kinds = list(forced)
        if len(kinds) != 4:
            raise SetlabError(f"a bound on the cells needs one pencil's four types, got {kinds}")
        held = sum(maxima[s] for kind in kinds for s in kind)
        inside = tuple((i, v + 1 if i == 0 else v) for i, v in inside_high)  # L: -(K1 - 1)
        rows[3] = (inside, held - 3 * cells, None)
    return SliceProgram(tuple(variables), tuple(rows))


@functools.lru_cache(maxsize=256)
def _class_types(
    flat: int, cards: int, maxima: tuple[int, ...], minima: tuple[int, ...]
) -> tuple[tuple[int, int, int, int, int, int, int], ...]:
    """Every type (a, b, c) of a parallel class of ``cards`` cards, a >= b >= c and a at most
    ``flat``, the largest a first and then the largest b, with the least and most sets inside
    its three slices (``minima``, ``maxima``) and across them (:func:`across_bounds`): the
    rows (a, b, c, least inside, most inside, least across, most across). The slice programs
    of one n ask for the same table thousands of times, so it is made once."""
    types = []
    for a in range(min(flat, cards), -1, -1):
        for b in range(min(a, cards - a), -1, -1):
            rest = cards - a - b
            if rest > b:
                break
            size = (a, b, rest)
            low, high = across_bounds(*size, flat)
            inside_low, inside_high = sum(minima[s] for s in size), sum(maxima[s] for s in size)
            types.append((a, b, rest, inside_low, inside_high, low, high))
    return tuple(types)


def forced_counts(forced: Iterable[Iterable[int]]) -> list[tuple[tuple[int, int, int], int]]:
    """The distinct class types of ``forced`` with their multiplicities, in the order of the
    program's forced rows (decreasing types).

    Examples
    --------
    >>> forced_counts([(6, 6, 0), (8, 2, 2), (6, 6, 0)])
    [((8, 2, 2), 1), ((6, 6, 0), 2)]
    """
    counts: dict[tuple[int, int, int], int] = {}
    for a, b, c in (sorted(map(int, t), reverse=True) for t in forced):
        counts[a, b, c] = counts.get((a, b, c), 0) + 1
    return sorted(counts.items(), reverse=True)


def forced_types(forced: Iterable[Iterable[int]]) -> list[list[int]]:
    """``forced`` as records and certificates keep it: one sorted type per class, decreasing.

    Examples
    --------
    >>> forced_types([(0, 6, 6), (8, 2, 2)])
    [[8, 2, 2], [6, 6, 0]]
    """
    return [list(t) for t, times in forced_counts(forced) for _ in range(times)]


def _part(name: str) -> int:
    """The largest part a of the type column ``x_a_b_c``."""
    return int(name.split("_")[1])


@contextmanager
def _quiet_stdout() -> Iterator[None]:
    """Point file descriptor 1 at /dev/null: HiGHS's MIP solver prints debug lines there that
    scipy's ``disp=False`` does not silence (they would break ``setlab maxsets --json``)."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 1)
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def solve_highs(
    program: SliceProgram, sense: int = 0, relaxed: bool = False, seconds: float = SOLVER_SECONDS
) -> tuple[str, int | None, float]:
    """Solve with HiGHS (through scipy.optimize.milp): (status, L found, seconds).

    ``sense`` 1 maximizes L, -1 minimizes it, 0 only decides feasibility. Status is one of
    "infeasible", "feasible", "optimal" (when optimizing L), "unknown". HiGHS
    is reached through scipy because the ``highspy`` and ``ortools`` wheels export clashing
    HiGHS symbols and cannot be loaded in one process. ``relaxed`` solves the LP relaxation
    (every variable continuous; L is then not rounded): where it is infeasible, one set of
    Farkas multipliers refutes the program, a certificate without branching. ``seconds``
    limits the time; past it the status is "unknown".

    Examples
    --------
    >>> solve_highs(slice_program(4, 10, 13, 15, {9: 12}))[0]
    'infeasible'
    >>> solve_highs(slice_program(4, 10, 13, 15, {9: 12}), relaxed=True)[0]
    'infeasible'
    """
    start = time.perf_counter()
    width = len(program.variables)
    # sparse, as HiGHS takes it: the dense matrix of a program of n = 157 (thousands of
    # columns, a few in each row) took longer to scan for its nonzeros than to fill
    columns: list[int] = []
    values: list[int] = []
    starts = [0]
    for coefficients, _, _ in program.rows:
        row = dict(coefficients)  # a column given twice: the last, as before
        kept = sorted(i for i, v in row.items() if v)
        columns += kept
        values += [row[i] for i in kept]
        starts.append(len(columns))
    matrix = csr_array(
        (np.array(values, dtype=float), np.array(columns, dtype=np.int64), np.array(starts)),
        shape=(len(program.rows), width),
    )
    row_low = [-np.inf if lo is None else lo for _, lo, _ in program.rows]
    row_high = [np.inf if hi is None else hi for _, _, hi in program.rows]
    cost = np.zeros(width)
    cost[0] = -float(sense)
    with _quiet_stdout():
        result = milp(
            cost,
            constraints=LinearConstraint(matrix, row_low, row_high),
            integrality=np.zeros(width) if relaxed else np.ones(width),
            bounds=Bounds(
                [lo for _, lo, _ in program.variables], [hi for _, _, hi in program.variables]
            ),
            options={"time_limit": seconds, "presolve": True},
        )
    elapsed = time.perf_counter() - start
    if result.status == 2:
        return "infeasible", None, elapsed
    if result.status == 0:
        return ("optimal" if sense else "feasible"), round(result.x[0]), elapsed
    return "unknown", None, elapsed


def write_mps(program: SliceProgram, path: str) -> None:
    """Write the program as a fixed-integer MPS file (all columns integer, no objective).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     write_mps(slice_program(4, 10, 13, 15, {9: 12}), os.path.join(d, "m.mps"))
    ...     open(os.path.join(d, "m.mps")).readline().strip()
    'NAME slice_program'
    """
    names = [name for name, _, _ in program.variables]
    lines = ["NAME slice_program", "ROWS", " N obj"]
    senses = []
    for r, (_, lo, hi) in enumerate(program.rows):
        sense = "E" if lo == hi else ("G" if hi is None else ("L" if lo is None else "G"))
        senses.append(sense)
        lines.append(f" {sense} r{r}")
    lines.append("COLUMNS")
    lines.append(" MARKER 'MARKER' 'INTORG'")
    entries: dict[int, list[tuple[int, int]]] = {}
    for r, (coefficients, _, _) in enumerate(program.rows):
        for i, v in coefficients:
            entries.setdefault(i, []).append((r, v))
    for i, name in enumerate(names):
        lines.extend(f" {name} r{r} {v}" for r, v in entries.get(i, []))
    lines.append(" MARKER 'MARKER' 'INTEND'")
    lines.append("RHS")
    for r, (_, lo, hi) in enumerate(program.rows):
        lines.append(f" rhs r{r} {hi if senses[r] == 'L' else lo}")
    ranged = [
        (r, hi - lo)
        for r, (_, lo, hi) in enumerate(program.rows)
        if lo is not None and hi is not None and lo != hi
    ]
    if ranged:
        lines.append("RANGES")
        lines.extend(f" rng r{r} {width}" for r, width in ranged)
    lines.append("BOUNDS")
    for name, lo, hi in program.variables:
        lines.append(f" LO bnd {name} {lo}")
        lines.append(f" UP bnd {name} {hi}")
    lines.append("ENDATA")
    with open(path, "w") as handle:
        handle.write("\n".join(lines) + "\n")


def solve_cpsat(
    program: SliceProgram, sense: int = 0, seconds: float = SOLVER_SECONDS
) -> tuple[str, int | None, float]:
    """Solve with OR-Tools CP-SAT (exact integer arithmetic): same contract as :func:`solve_highs`
    (``seconds`` limits the time; past it the status is "unknown").

    CP-SAT runs without its presolve's probing (fixing each variable in turn to see what
    follows), which costs these small programs more than it finds: on those of the split of
    n = 157 of AG(5,3), the 362 its record refutes took 13.7 s without it against 24.2 s with
    it (the longest 0.10 s against 0.63 s), and the 126 integer verdicts of its walk 6.7 s
    against 20.1 s, every verdict the same and one more program decided within its 2 s.

    Examples
    --------
    >>> solve_cpsat(slice_program(4, 10, 13, 15, {9: 12}))[0]
    'infeasible'
    """
    start = time.perf_counter()
    model = cp_model.CpModel()
    columns = [model.new_int_var(lo, hi, name) for name, lo, hi in program.variables]
    for coefficients, lo, hi in program.rows:
        expression = sum(v * columns[i] for i, v in coefficients)
        if lo is not None:
            model.add(expression >= lo)
        if hi is not None:
            model.add(expression <= hi)
    if sense:
        model.maximize(sense * columns[0])
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 1
    solver.parameters.cp_model_probing_level = 0
    status = solve_interruptibly(solver, model)
    elapsed = time.perf_counter() - start
    if status == cp_model.INFEASIBLE:
        return "infeasible", None, elapsed
    if status == cp_model.OPTIMAL or (status == cp_model.FEASIBLE and not sense):
        return ("optimal" if sense else "feasible"), int(solver.value(columns[0])), elapsed
    return "unknown", None, elapsed


def solve_interruptibly(solver: cp_model.CpSolver, model: cp_model.CpModel) -> Any:
    """``solver.solve(model)`` that leaves Ctrl-C to Python: CP-SAT's own SIGINT handler would
    replace Python's for the rest of the process (a later Ctrl-C then killed setlab without a
    word) and end the solve as "unknown". The solve runs in a thread (it releases the GIL) while
    this one waits; a SIGINT meanwhile stops the search and is raised as KeyboardInterrupt once
    the solver has let go (raising it while the solver thread runs aborts the process at exit).

    Examples
    --------
    >>> model = cp_model.CpModel()
    >>> x = model.new_int_var(0, 9, "x")
    >>> model.maximize(x)
    >>> solver = cp_model.CpSolver()
    >>> solve_interruptibly(solver, model) == cp_model.OPTIMAL, solver.value(x)
    (True, 9)
    """
    solver.parameters.catch_sigint_signal = False
    if threading.current_thread() is not threading.main_thread():
        return solver.solve(model)
    outcome: dict[str, Any] = {}

    def solve() -> None:
        try:
            outcome["status"] = solver.solve(model)
        except BaseException as error:  # handed to the waiting thread
            outcome["error"] = error

    with ctrl_c_held() as interrupted:  # raised as the block ends, the solver let go
        worker = threading.Thread(target=solve, name="cp-sat", daemon=True)
        worker.start()
        while worker.is_alive():
            worker.join(0.05)
            if interrupted:
                solver.stop_search()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["status"]


_SOLVERS = {"highs": solve_highs, "cp-sat": solve_cpsat}


def _solve_integer(name: str, program: SliceProgram) -> tuple[str, int | None, float]:
    """One solver's verdict on the integer program, HiGHS's from the LP relaxation first: a
    relaxation with no solution leaves the integer program none, and HiGHS finds that sooner
    than its integer solve does (the record of n = 157 of AG(5,3): 311 of its 362 programs have
    no relaxed solution, 1.8 s as LPs against 5.1 s as integer programs). Where the relaxation
    has a solution, HiGHS solves the integer program.

    Examples
    --------
    >>> program = slice_program(4, 10, 13, 15, {9: 12})
    >>> _solve_integer("highs", program)[0], _solve_integer("cp-sat", program)[0]
    ('infeasible', 'infeasible')
    """
    if name != "highs":
        return _SOLVERS[name](program)
    status, _, first = solve_highs(program, relaxed=True)
    if status == "infeasible":
        return status, None, first
    status, found, elapsed = solve_highs(program)
    return status, found, first + elapsed


def _versions() -> dict[str, str]:
    """The solvers' and setlab's versions, as each record names them (a new dict each time)."""
    return dict(_installed())


@functools.cache
def _installed() -> tuple[tuple[str, str], ...]:
    """The versions of scipy, ortools and setlab, read once a process: reading the three from
    their metadata takes some 5 ms, and n = 154 of AG(5,3) builds 1,746 records (9 s)."""
    return tuple((name, version(name)) for name in ("scipy", "ortools", "setlab"))


def _refute_range(
    properties: int,
    cards: int,
    low: int,
    high: int,
    known_max: dict[int, int],
    known_min: dict[int, int] | None,
    mps_path: str | None,
    big: int | None = None,
    forced: Iterable[tuple[int, int, int]] = (),
    ceiling: int | None = None,
    count: tuple[int, int] | None = None,
    cells: int | None = None,
) -> dict | None:
    """A proof record that no n-card S has low <= sets(S) <= high, or None (``big``, ``forced``,
    ``ceiling``, ``count``, ``cells``: the programs of the split's cases, recorded under these
    names)."""
    forced = forced_types(forced)
    if not 0 <= cards <= deck_size(properties):
        raise SetlabError(f"AG({properties},3) has {deck_size(properties)} cards, not {cards}")
    base = {
        "properties": properties,
        "cards": cards,
        "low": low,
        "high": high,
        "known_max": {str(k): v for k, v in sorted(known_max.items())},
        "known_min": {str(k): v for k, v in sorted((known_min or {}).items())},
        "versions": _versions(),
        **({} if big is None else {"big": big}),
        **({"forced": forced} if forced else {}),
        **({} if ceiling is None else {"ceiling": ceiling}),
        **({} if count is None else {"count": list(count)}),
        **({} if cells is None else {"cells": cells}),
    }
    if low > high:
        return {**base, "method": "counting", "model_sha256": None, "statuses": {}}
    program = slice_program(
        properties, cards, low, high, known_max, known_min, big, forced, ceiling, count, cells
    )
    if mps_path:
        write_mps(program, mps_path)
    statuses, seconds = {}, {}
    for name in _SOLVERS:
        status, _, elapsed = _solve_integer(name, program)
        statuses[name], seconds[name] = status, round(elapsed, 4)
        if status != "infeasible":
            return None
    return {
        **base,
        "method": "slice-ilp",
        "model_sha256": program.digest(),
        "variables": len(program.variables),
        "constraints": len(program.rows),
        "statuses": statuses,
        "seconds": seconds,
        "found_by": "highs",
    }


def prove_max_bound(
    properties: int,
    cards: int,
    threshold: int,
    known_max: dict[int, int],
    mps_path: str | None = None,
    big: int | None = None,
    forced: Iterable[tuple[int, int, int]] = (),
    ceiling: int | None = None,
    count: tuple[int, int] | None = None,
    cells: int | None = None,
) -> dict | None:
    """Proof record refuting "some n-card configuration of AG(P,3) has >= threshold sets".

    ``known_max[k]`` must be a proven maximum M_{P-1}(k) for k cards of AG(P-1,3); missing k fall
    back to :func:`degree_bound`. Sets of S range over [threshold, degree_bound]; the record says
    "counting" when that range is empty, else "slice-ilp" with the model's hash and the
    statuses of HiGHS and CP-SAT, both "infeasible". None when the program is feasible or either
    solver does not decide. ``mps_path`` writes the model as MPS. With ``big`` = theta only the
    configurations with at most one class holding a hyperplane of more than theta cards are
    refuted (a part of :func:`setlab.extremal.split.prove_split_bound`'s proof, not a bound of
    its own; the near-cap search is then not tried); with ``forced`` class types only those in
    which classes of these types occur, with ``ceiling`` those with no hyperplane above it
    (the split's middle case), with ``count`` = (h, k) those where at most k classes have a
    part of h or more (the count of big classes), with ``cells`` those whose forced types are
    one pencil's and whose cells hold at most that many lines (:func:`slice_program`).

    Examples
    --------
    >>> table3 = {9: 12}  # the paper's Table 3 value M_3(9) = 12, as input data
    >>> prove_max_bound(4, 9, 13, table3)["method"]
    'counting'
    >>> prove_max_bound(4, 10, 13, table3)["statuses"]
    {'highs': 'infeasible', 'cp-sat': 'infeasible'}

    References
    ----------
    J. Stevens and D. Wilson, "The Maximum Number of Sets for 12 Cards is 14" (2025), Tables 1, 3.
    """
    high = degree_bound(properties, cards)
    forced = forced_types(forced)
    record = _refute_range(
        properties, cards, threshold, high, known_max, None, mps_path, big, forced, ceiling, count,
        cells,
    )  # fmt: skip
    if record is not None:
        record["claim"] = f"max <= {threshold - 1}"
        return record
    if big is not None or forced or ceiling is not None or count is not None:
        return None
    rest = deck_size(properties) - cards  # S has >= T sets iff S^c has <= the complement's count
    budget = complement_sets(properties, cards, threshold)
    if properties <= NEAR_CAP_PROPERTIES and 0 <= budget <= NEAR_CAP_BUDGET:
        inner = prove_min_near_caps(properties, rest, budget)
        if inner is not None:
            return {
                "method": "near-cap-complement",
                "properties": properties,
                "cards": cards,
                "low": threshold,
                "high": high,
                "claim": f"max <= {threshold - 1}",
                "complement": inner,
            }
    return None


def prove_min_bound(
    properties: int,
    cards: int,
    threshold: int,
    known_max: dict[int, int],
    known_min: dict[int, int],
    mps_path: str | None = None,
) -> dict | None:
    """Proof record refuting "some n-card configuration of AG(P,3) has <= threshold sets".

    The same program with sets(S) in [0, threshold]; slice minima come from ``known_min`` and
    from ``known_max`` via the complement identity m_{P-1}(k) = T' - k(N'-k)/2 - M_{P-1}(N'-k)
    (T' = N'(N'-1)/6, N' = 3^(P-1)). In AG(P,3) itself the identity turns this into a maximum
    bound for the complement: min over n cards >= t+1 iff max over N-n cards <=
    N(N-1)/6 - n(N-n)/2 - (t+1).

    Examples
    --------
    >>> table3 = {k: v for k, v in zip(range(3, 28), [1, 1, 2, 3, 5, 8, 12, 12, 13, 14, 16, 19,
    ...     23, 26, 30, 36, 41, 47, 54, 62, 71, 81, 92, 104, 117])}  # the paper's Table 3
    >>> prove_min_bound(4, 80, 1000, table3, {})["claim"]
    'min >= 1001'
    """
    record = _refute_range(properties, cards, 0, threshold, known_max, known_min, mps_path)
    if record is not None:
        record["claim"] = f"min >= {threshold + 1}"
        return record
    if properties <= NEAR_CAP_PROPERTIES and 0 <= threshold <= NEAR_CAP_BUDGET:
        return prove_min_near_caps(properties, cards, threshold)
    return None


def _check_range_record(record: dict) -> bool:
    """Re-check a record refuting low <= sets(S) <= high (independent solver, same model)."""
    properties, cards = int(record["properties"]), int(record["cards"])
    low, high = int(record["low"]), int(record["high"])
    if record["method"] == "counting":
        return low > high
    if record["method"] != "slice-ilp":
        return False
    known_max = {int(k): int(v) for k, v in record["known_max"].items()}
    known_min = {int(k): int(v) for k, v in record["known_min"].items()}
    big, forced, ceiling = record.get("big"), record.get("forced") or [], record.get("ceiling")
    count = record.get("count")
    count = None if count is None else (int(count[0]), int(count[1]))
    program = slice_program(
        properties, cards, low, high, known_max, known_min, big, forced, ceiling, count,
        record.get("cells"),
    )  # fmt: skip
    if program.digest() != record["model_sha256"]:
        return False
    other = "cp-sat" if record.get("found_by") == "highs" else "highs"
    return _solve_integer(other, program)[0] == "infeasible"


def verify_max_bound(
    record: dict,
    big: int | None = None,
    forced: Iterable[tuple[int, int, int]] = (),
    ceiling: int | None = None,
    count: tuple[int, int] | None = None,
    cells: int | None = None,
) -> bool:
    """Re-check a proof record of :func:`prove_max_bound` or :func:`prove_min_bound`.

    Checks that the claim matches the refuted range (the whole of [threshold, degree bound] for
    a maximum, [0, threshold] for a minimum), rebuilds the program from the record's parameters,
    compares its sha256 with the stored one and re-solves it with CP-SAT if HiGHS found it (and
    conversely); "counting" records are re-checked by arithmetic. A record of the split's
    restricted program (``"big"`` in it) passes only when ``big`` names the same theta: alone it
    bounds nothing (:func:`setlab.extremal.split.verify_split_bound` pairs it with its other
    cases); likewise a record with ``"forced"`` types or a ``"ceiling"`` only when ``forced``
    and ``ceiling`` name the same, and a record with a ``"count"`` (``"cells"``) only when
    ``count`` (``cells``) does.

    Examples
    --------
    >>> record = prove_max_bound(4, 10, 13, {9: 12})
    >>> verify_max_bound(record), verify_max_bound({**record, "low": 12})
    (True, False)
    """
    properties, cards = int(record["properties"]), int(record["cards"])
    claim = record.get("claim")
    if record.get("big") != big or (record.get("forced") or []) != forced_types(forced):
        return False
    if record.get("ceiling") != ceiling:
        return False
    if record.get("count") != (None if count is None else list(count)):
        return False
    if record.get("cells") != cells:
        return False
    if record["method"] == "near-cap":
        return claim == f"min >= {int(record['threshold']) + 1}" and verify_near_caps(record)
    low, high = int(record["low"]), int(record["high"])
    if record["method"] == "near-cap-complement":
        inner = record["complement"]
        return (
            claim == f"max <= {low - 1}"
            and inner["cards"] == deck_size(properties) - cards
            and inner["threshold"] == complement_sets(properties, cards, low)
            and verify_near_caps(inner)
        )
    if claim == f"max <= {low - 1}" and high == degree_bound(properties, cards):
        return _check_range_record(record)
    if claim == f"min >= {high + 1}" and low == 0:
        return _check_range_record(record)
    return False


def _optimum(properties: int, cards: int, sense: int, known_max: dict[int, int]) -> int:
    """HiGHS's optimum of L over the whole program (sense 1: maximum, -1: minimum)."""
    high = degree_bound(properties, cards)
    status, best, _ = solve_highs(slice_program(properties, cards, 0, high, known_max), sense)
    if status != "optimal" or best is None:
        return high if sense > 0 else 0
    return best


def max_upper_bound(
    properties: int, cards: int, known_max: dict[int, int]
) -> tuple[int, dict | None]:
    """The least U with a proof that no n-card configuration has more than U sets.

    HiGHS maximizes L over the program; the proof then refutes L >= U + 1 with both solvers,
    raising U while that fails, at most ``RETRIES`` times, then falling back to the degree bound
    (which "counting" proves). Then U is lowered while :func:`prove_max_bound` still refutes
    L >= U (the near-cap search on the complement, for P <= 4 and few complement sets).

    Examples
    --------
    >>> max_upper_bound(4, 9, {9: 12})[0]
    12
    """
    upper = _optimum(properties, cards, 1, known_max)
    for _ in range(RETRIES):  # a failed proof just above HiGHS's optimum: try a little higher
        record = prove_max_bound(properties, cards, upper + 1, known_max)
        if record is not None:
            break
        upper += 1
    else:
        upper = degree_bound(properties, cards)
        record = prove_max_bound(properties, cards, upper + 1, known_max)
    # below the program's optimum only the near-cap search (on the complement) can help
    while upper > 0 and (lower := prove_max_bound(properties, cards, upper, known_max)):
        upper, record = upper - 1, lower
    return upper, record


def min_lower_bound(
    properties: int, cards: int, known_max: dict[int, int]
) -> tuple[int, dict | None]:
    """The greatest l with a proof that every n-card configuration has at least l sets.

    Returns (l, record); l = 0 needs no proof (record None).

    Examples
    --------
    >>> table3 = {k: v for k, v in zip(range(3, 28), [1, 1, 2, 3, 5, 8, 12, 12, 13, 14, 16, 19,
    ...     23, 26, 30, 36, 41, 47, 54, 62, 71, 81, 92, 104, 117])}  # the paper's Table 3
    >>> min_lower_bound(4, 21, table3)[0]  # no 21-cap in AG(4,3)
    1
    """
    lower = _optimum(properties, cards, -1, known_max)
    for _ in range(RETRIES):
        if lower <= 0:
            break
        record = prove_min_bound(properties, cards, lower - 1, known_max, {})
        if record is not None:
            return lower, record
        lower -= 1
    return 0, None


def bound_table(
    properties: int,
    known_max: dict[int, int],
    lower_bounds: dict[int, int],
    cards: Iterable[int] | None = None,
) -> list[dict]:
    """For every n = 0..3^P: the best proven upper bound on M_P(n), its method and proof record.

    ``known_max`` holds proven upper bounds on M_{P-1}(k) (exact maxima or not: only their
    validity matters); ``lower_bounds[n]`` are values attained by known witnesses (not checked
    here); ``cards`` restricts the rows to those n. Each row: cards, lower, upper, meets, method
    ("counting", "slice-ilp" or "near-cap-complement"), seconds, proof, and the complement's
    proven minimum m_P(N - n) >= N(N-1)/6 - n(N-n)/2 - upper.

    Examples
    --------
    >>> rows = bound_table(2, {0: 0, 1: 0, 2: 0, 3: 1}, {9: 12})
    >>> [row["upper"] for row in rows], rows[9]["meets"]
    ([0, 0, 0, 1, 1, 2, 3, 5, 8, 12], True)
    """
    rows = []
    for n in range(deck_size(properties) + 1) if cards is None else cards:
        start = time.perf_counter()
        upper, record = max_upper_bound(properties, n, known_max)
        lower = lower_bounds.get(n)
        rows.append(
            {
                "properties": properties,
                "cards": n,
                "lower": lower,
                "upper": upper,
                "meets": lower == upper,
                "method": record["method"],
                "complement_min_at_least": complement_sets(properties, n, upper),
                "seconds": round(time.perf_counter() - start, 3),
                "proof": record,
            }
        )
    return rows
