"""Item 5 of issue 12: can a stronger counting program prove M_4(48..53) = 252, 264, 276, 289,
305, 323, which today rest on the min search (the slice program alone gives 253, 265, 279, 293,
309, 324)? Two candidates, each added to the slice program of `setlab.extremal.bounds`:

* planes: v_s planes (2-flats) hold s cards; sum v = 1170, sum s v = 130 n, sum C(s,2) v =
  13 C(n,2), sum C(s,3) v = C(n,3) + 12 L, 13 L between sum m_2(s) v and sum M_2(s) v; tied to
  the classes by k-sets in a common hyperplane: sum_classes sum_slices C(s,4) = C(n,4) + 3 Q_4
  and 4 Q_k <= sum C(s,k) <= C(n,k) + 3 Q_k (k = 5..9), Q_k = sum_s v_s C(s,k).
* pencils (two parallel classes coupled): the 130 pencils (2-dim spaces of linear forms) cut
  AG(4,3) into 9 parallel planes forming a quotient AG(2,3); z_g pencils have cell pattern g
  (up to AGL(2,3)). Per pencil, lines inside a cell are between m_2 and M_2 of its size, and
  lines onto a quotient line between the across bounds (F = 9); summed, 13 L inside, 117 L
  onto; sum z = 130, sum z sum s^2 = 130 n + 13 n(n-1), sum z sum s^3 = 130 n + 39 n(n-1) +
  n(n-1)(n-2) + 72 L; each class lies in 13 pencils: sum_g z_g #(g's quotient classes of type t)
  = 13 x_t. Patterns g whose line range misses [low, high] are left out.

Each program's integer optimum of L is printed against the true value (HiGHS through scipy).

    PYTHONPATH=src python benchmarks/stronger_programs.py [n ...]   (default 48; pencils ~5 min/n)
"""

from __future__ import annotations

from _common import Parser, run_script  # first: see _common.py

# isort: split
import itertools
import resource
import time
from math import comb

import numba
import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from setlab.extremal.bounds import slice_program
from setlab.extremal.identities import across_bounds, degree_bound
from setlab.geometry import parallel_classes
from setlab.seeds import TABLE_3

M3 = {n: TABLE_3.get(n, 0) for n in range(28)}
MOST2 = np.array([0, 0, 0, 1, 1, 2, 3, 5, 8, 12])
LEAST2 = np.array([0, 0, 0, 0, 0, 1, 2, 4, 8, 12])
TRUTH = {48: 252, 49: 264, 50: 276, 51: 289, 52: 305, 53: 323}
QUOTIENT = parallel_classes(2)  # (4, 3, 3): the quotient AG(2,3)'s classes of lines
LINES = QUOTIENT.reshape(12, 3)
ACROSS = np.array(
    [[[across_bounds(a, b, c, 9) for c in range(10)] for b in range(10)] for a in range(10)]
)
GROUP = np.array(  # AGL(2,3) as permutations of the 9 cells (card index 3i + j)
    [
        [
            3 * ((a * i + b * j + u) % 3) + (c * i + d * j + v) % 3
            for i in range(3)
            for j in range(3)
        ]
        for a, b, c, d in itertools.product(range(3), repeat=4)
        if (a * d - b * c) % 3
        for u in range(3)
        for v in range(3)
    ]
)


class Program:
    """The slice program as dense rows, to which extra columns and rows are appended."""

    def __init__(self, n: int, low: int, high: int, extra: int) -> None:
        self.base = slice_program(4, n, low, high, M3)
        self.width = len(self.base.variables) + extra
        self.rows, self.low, self.high = [], [], []
        for coefficients, lo, hi in self.base.rows:
            row = self.row()
            for i, a in coefficients:
                row[i] = a
            self.add(row, lo, hi)

    def row(self) -> np.ndarray:
        return np.zeros(self.width)

    def add(self, row: np.ndarray, low: float | None, high: float | None) -> None:
        self.rows.append(row)
        self.low.append(-np.inf if low is None else low)
        self.high.append(np.inf if high is None else high)

    def types(self) -> dict[tuple[int, ...], int]:
        return {
            tuple(int(s) for s in name[2:].split("_")): i
            for i, (name, _, _) in enumerate(self.base.variables)
            if name.startswith("x_")
        }

    def optimum(self, extra_upper: list[int]) -> float | None:
        cost = self.row()
        cost[0] = -1
        result = milp(
            cost,
            constraints=LinearConstraint(np.array(self.rows), self.low, self.high),
            integrality=np.ones(self.width),
            bounds=Bounds(
                [lo for _, lo, _ in self.base.variables] + [0] * len(extra_upper),
                [hi for _, _, hi in self.base.variables] + extra_upper,
            ),
            options={"time_limit": 600},
        )
        return None if result.x is None else float(result.x[0])


def planes_optimum(n: int) -> float | None:
    program = Program(n, 0, degree_bound(4, n), 10)
    v = slice(program.width - 10, program.width)
    sizes = np.arange(10)
    for weights, on_l, value in (
        (np.ones(10), 0, 1170),
        (sizes, 0, 130 * n),
        (np.array([comb(s, 2) for s in sizes]), 0, 13 * comb(n, 2)),
        (np.array([comb(s, 3) for s in sizes]), -12, comb(n, 3)),
    ):
        row = program.row()
        row[v], row[0] = weights, on_l
        program.add(row, value, value)
    for weights, side in ((MOST2, (0, None)), (LEAST2, (None, 0))):
        row = program.row()
        row[v], row[0] = weights, -13
        program.add(row, *side)
    for k in range(4, 10):
        row = program.row()
        for sizes_t, i in program.types().items():
            row[i] = sum(comb(s, k) for s in sizes_t)
        q = np.array([comb(s, k) for s in range(10)], dtype=float)
        if k == 4:
            row[v] = -3 * q
            program.add(row, comb(n, 4), comb(n, 4))
        else:
            lower, upper = row.copy(), row.copy()
            lower[v], upper[v] = -4 * q, -3 * q
            program.add(lower, 0, None)
            program.add(upper, None, comb(n, k))
    return program.optimum([1170] * 10)


@numba.njit
def _patterns(n, low, high, most, least, across, lines):
    """Codes (base 10) of the 9-cell patterns of sum n whose line range meets [low, high]."""
    out = []
    g = np.zeros(9, np.int64)
    for code in range(10**8):  # the first eight cells; the ninth is n minus their sum
        rest, total = code, 0
        for k in range(7, -1, -1):
            g[k] = rest % 10
            rest //= 10
            total += g[k]
        g[8] = n - total
        if g[8] < 0 or g[8] > 9:
            continue
        hi, lo = 0, 0
        for k in range(9):
            hi += most[g[k]]
            lo += least[g[k]]
        for m in range(12):
            lo += across[g[lines[m, 0]], g[lines[m, 1]], g[lines[m, 2]], 0]
            hi += across[g[lines[m, 0]], g[lines[m, 1]], g[lines[m, 2]], 1]
        if hi >= low and lo <= high:
            out.append(code * 10 + g[8])
    return out


def pencil_orbits(n: int, low: int, high: int) -> tuple[np.ndarray, int]:
    """Representatives of the AGL(2,3)-orbits of admissible patterns, and the patterns' count."""
    codes = np.array(_patterns(n, low, high, MOST2, LEAST2, ACROSS, LINES), dtype=np.int64)
    place = 10 ** np.arange(8, -1, -1)
    patterns = (codes[:, None] // place) % 10
    canonical = np.full(len(patterns), 10**10, dtype=np.int64)
    for permutation in GROUP:
        canonical = np.minimum(canonical, patterns[:, permutation] @ place)
    return (np.unique(canonical)[:, None] // place) % 10, len(patterns)


def pencils_optimum(n: int, low: int) -> tuple[float | None, int, int]:
    high = degree_bound(4, n)
    reps, count = pencil_orbits(n, low, high)
    program = Program(n, low, high, len(reps))
    z = slice(program.width - len(reps), program.width)
    across = ACROSS[reps[:, LINES[:, 0]], reps[:, LINES[:, 1]], reps[:, LINES[:, 2]]]
    cube = 130 * n + 39 * n * (n - 1) + n * (n - 1) * (n - 2)
    for weights, on_l, side in (
        (np.ones(len(reps)), 0, (130, 130)),
        ((reps**2).sum(1), 0, (130 * n + 13 * n * (n - 1),) * 2),
        ((reps**3).sum(1), -72, (cube, cube)),
        (MOST2[reps].sum(1), -13, (0, None)),
        (LEAST2[reps].sum(1), -13, (None, 0)),
        (across[:, :, 1].sum(1), -117, (0, None)),
        (across[:, :, 0].sum(1), -117, (None, 0)),
    ):
        row = program.row()
        row[z], row[0] = weights, on_l
        program.add(row, *side)
    coupling: dict[tuple[int, ...], np.ndarray] = {}
    for g, pattern in enumerate(reps):
        for quotient_class in QUOTIENT:
            t = tuple(sorted((int(pattern[line].sum()) for line in quotient_class), reverse=True))
            coupling.setdefault(t, np.zeros(len(reps)))[g] += 1
    types = program.types()
    for t in set(coupling) | set(types):
        row = program.row()
        if t in coupling:
            row[z] = coupling[t]
        if t in types:
            row[types[t]] = -13
        program.add(row, 0, 0)
    return program.optimum([130] * len(reps)), len(reps), count


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("cards", metavar="n", nargs="*", type=int, default=[48],
                        help="n in 48..53 (default 48)")
    cards = parser.parse_args().cards
    if any(n not in TRUTH for n in cards):
        parser.error(f"n is in 48..53, not {[n for n in cards if n not in TRUTH]}")
    for n in cards:
        began = time.perf_counter()
        plane = planes_optimum(n)
        middle = time.perf_counter()
        pencil, orbits, patterns = pencils_optimum(n, TRUTH[n] + 1)
        end = time.perf_counter()
        print(
            f"M({n}) = {TRUTH[n]}: slice+planes optimum {plane:.0f} ({middle - began:.1f} s);",
            end="",
        )
        state = "infeasible: proves it" if pencil is None else f"optimum {pencil:.0f}"
        print(f" slice+pencils for L >= {TRUTH[n] + 1}: {state}", end="")
        print(f" ({orbits} pattern orbits of {patterns} patterns, {end - middle:.1f} s)")
    print(f"peak memory {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    run_script(main)
