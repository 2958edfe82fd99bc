"""Research (HiGHS's verdicts, nothing proven): the split's middle case for M(n) of AG(5,3) with a
count of the classes that have a big hyperplane.

Where the sharpened split (docs/bounds.md) stops one set below today's bound, it stops on a few
quadruples of class types at some t, each the row, column and diagonal types of a pencil, whose
forced program (at most one class above t, the four types present, no hyperplane above row 0's
c cards) stays feasible. Such a program is free to give many classes a hyperplane of nearly c
cards; this script counts them.

1. *Two big classes meet in a nearly full 3-flat.* Any two classes of a configuration form a
   pencil: rows the one class with row 0 its largest hyperplane, columns the other likewise, the
   diagonal classes at most c (no hyperplane holds more than row 0's c cards). With L sets,
   some pattern of their two types must have a pencil bound of L or more, so the least cell 0
   over the patterns past the target, sigma, bounds |H ∩ H'| from below for the largest
   hyperplanes H, H' of any two classes with a part in [h, c].
2. *Few of them fit in n cards.* No k hyperplanes from different classes, each of h..c cards,
   every two meeting in sigma cards or more, fit in n cards: up to AGL(5,3) a largest independent
   set of their classes is x_1 = 0, ..., x_r = 0 and the others are hyperplanes whose class lies
   in the span of those r (any offset), so the configurations are listed exhaustively, and each
   is refuted by the linear program over the 243 cards (0 <= s_x <= 1), or by its integer
   program where the LP does not do it.
3. *The program cannot do with k - 1.* The forced program with the row "at most k - 1 classes
   have a part of h or more" is infeasible.

Together the quadruple is refuted. Where every quadruple left is, and the rest of the split
holds (the program below theta, the pencils above top, the other t), M(n) <= target follows, by
HiGHS's verdicts here, not yet by certificates a checker follows: the table keeps its bounds.

    python benchmarks/p5_big_classes.py --store STORE N:U [N:U ...]   (try M(N) <= U)

STORE holds the proven P = 4 table (a P = 5 table run's store; the exact split maxima it keeps
are read from it and new ones added). Measured: docs/maxsets.md, "A count of big classes".
"""

from __future__ import annotations

if __name__ == "__main__":  # first: a Ctrl-C in the imports below is then one line (_common.py)
    from _common import Parser, existing_store, require_results, run_script  # tests load the file

import argparse
import functools
import itertools
import resource
import time

import numpy as np
from scipy.optimize import Bounds, LinearConstraint, milp

from setlab.extremal import split
from setlab.extremal.bounds import SliceProgram, slice_program
from setlab.extremal.identities import degree_bound
from setlab.extremal.maxsets import GUIDE_CARDS, Solver
from setlab.extremal.splitmax import split_maxima_found, split_table
from setlab.store import Store

CARDS = np.array(list(itertools.product(range(3), repeat=5)))
LEVELS = 3
"""Levels h = c, c - 1, ... tried per quadruple."""


def case(text: str) -> tuple[int, int]:
    """An argparse ``type=``: N:U, the target M(N) <= U."""
    try:
        n, target = (int(part) for part in text.split(":"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected N:U, e.g. 148:2466, got {text!r}") from None
    if not 148 <= n <= 197 or target < 0:
        raise argparse.ArgumentTypeError(f"N must be in 148..197: {text!r}")
    return n, target


def left_quadruples(n, target, known_max, known_below, store):
    """{t: quadruples} where the sharpened split for M(n) <= target stops (the middle case at
    each t from theta + 1 to top, with the exact split maxima it bounded), or a sentence where
    it closes or stops before the middle case."""
    optima = split._Optima(5, n, known_max)
    guide = split_maxima_found(3, GUIDE_CARDS)
    exhaustive: dict = {}
    if split._sharpened_split(5, n, target, known_max, known_below, optima, guide, exhaustive,
                              store) is not None:  # fmt: skip
        return "the split closes without the count"
    theta = optima.largest_below(target + 1)
    most, below = split._tables_for(5, known_max, known_below)
    table = split_table(3, exhaustive) if exhaustive else None
    for top in split._hopeful_tops(5, n, target, known_max, known_below, optima, guide):
        largest, _ = split.two_big_hyperplanes(5, n, top, most, below, floor=target,
                                               cutoff=target, split_most=table)  # fmt: skip
        if largest > target:
            continue
        left = {}
        for t in range(theta + 1, top + 1):
            quads = split.middle_types(5, n, t, most, below, target, split_most=table)
            left[t] = uncovered(n, target, known_max, t, quads)
        return {t: quads for t, quads in left.items() if quads}
    return "the pencils above every top pass the target"


def uncovered(n, target, known_max, t, quads):
    """Every quadruple of the middle case at t whose program, and its (row, column) pair's, HiGHS
    does not refute (the split's own walk stops at the first pair it cannot cover)."""
    known = tuple(sorted(known_max.items()))

    def refuted(forced):
        return any(split._forced_infeasible(5, n, target + 1, known, t, forced, relaxed)
                   for relaxed in (True, False))  # fmt: skip

    left = []
    for quad in quads:
        pair = tuple(sorted(quad[:2], reverse=True))
        if not refuted(pair) and not refuted(tuple(quad)):
            left.append(quad)
    return left


def least_meeting(n, target, ceiling, types, tables, buffer):
    """sigma: the least cell 0 over pencils past ``target`` whose rows and columns have two of
    ``types`` (diagonal classes at most ``ceiling``: either may be the row's class, so t would
    not do where row 0 is above t); None when no such pencil exists."""
    below, across2, across1, hyperplane, _ = tables
    by_part = split._held_with_part(hyperplane)
    plane, kind = split.PLANE, np.zeros(3, np.int64)
    least = None
    for rows, columns in itertools.combinations_with_replacement(types, 2):
        rows, columns = np.array(rows, np.int64), np.array(columns, np.int64)
        count = split._cell_patterns(rows, columns, 27, target, across1, hyperplane, by_part,
                                     buffer)  # fmt: skip
        for s in buffer[:count]:
            diagonal = []
            for k in (2, 3):
                split._class_type(s, plane, k, kind)
                diagonal.append(kind[0])
            if max(diagonal) > ceiling:
                continue
            if split._pattern_bound(s, plane, below, across2, across1, hyperplane) > target:
                least = int(s[0]) if least is None else min(least, int(s[0]))
    return least


def _normal(xi: tuple[int, ...], c: int) -> tuple[tuple[int, ...], int]:
    """The hyperplane xi . x = c written with the first nonzero coordinate of xi equal to 1."""
    if next(v for v in xi if v) == 2:
        return tuple(-v % 3 for v in xi), -c % 3
    return xi, c


@functools.cache
def no_arrangement(k: int, low: int, high: int, sigma: int, n: int) -> bool:
    """Whether no k hyperplanes from different classes, each of low..high of n cards, every two
    meeting in sigma or more, exist (step 2 of the module docstring).

    The basis x_1 = 0, ..., x_r = 0 is kept by permuting and negating its coordinates (r! 2^r
    maps), so of the hyperplanes added to it only one set per orbit of that group is solved:
    the least of its images, each written as sorted indices.
    """
    pairs = list(itertools.combinations(range(k), 2))
    for rank in range(1, min(k, 5) + 1):  # the classes' rank, at most k and 5
        if (3**rank - 1) // 2 < k:  # r independent classes span (3^r - 1) / 2 classes
            continue
        basis = [(tuple(int(i == j) for j in range(5)), 0) for i in range(rank)]
        span = [xi + (0,) * (5 - rank) for xi in itertools.product(range(3), repeat=rank)
                if any(xi) and next(v for v in xi if v) == 1]  # fmt: skip
        others = [(xi, c) for xi in span if (xi, 0) not in basis for c in range(3)]
        index = {h: i for i, h in enumerate(others)}
        images = np.array([
            [index[_normal(tuple(sign[j] * xi[order[j]] % 3 for j in range(rank)) + xi[rank:], c)]
             for xi, c in others]
            for order in itertools.permutations(range(rank))
            for sign in itertools.product((1, 2), repeat=rank)
        ])  # fmt: skip
        for chosen in itertools.combinations(range(len(others)), k - rank):
            if len({others[i][0] for i in chosen}) < len(chosen):  # two in one class
                continue
            mapped = np.sort(images[:, chosen], axis=1)
            if any(tuple(row) < chosen for row in mapped.tolist()):  # not its orbit's least
                continue
            hyperplanes = basis + [others[i] for i in chosen]
            inside = np.array([(CARDS @ np.array(xi)) % 3 == c for xi, c in hyperplanes])
            rows = [np.ones(243), *inside, *(inside[i] & inside[j] for i, j in pairs)]
            low_rows = [0, *[low] * k, *[sigma] * len(pairs)]
            high_rows = [n, *[high] * k, *[np.inf] * len(pairs)]
            constraint = LinearConstraint(np.array(rows, dtype=float), low_rows, high_rows)
            for integral in (0.0, 1.0):  # the LP first; its integer program where it fails
                found = milp(np.zeros(243), constraints=constraint, bounds=Bounds(0, 1),
                             integrality=np.full(243, integral))  # fmt: skip
                if found.status == 2:
                    break
            else:
                return False
    return True


def program_with_count(n, target, known_max, t, quad, part, most):
    """The forced program of ``quad`` at t with one more row: at most ``most`` classes have a
    part of ``part`` or more; whether HiGHS finds it infeasible."""
    program = slice_program(5, n, target + 1, degree_bound(5, n), known_max, None, t, quad,
                            max(quad[0]))  # fmt: skip
    big = tuple((i, 1) for i, (name, _, _) in enumerate(program.variables)
                if name.startswith("x_") and int(name.split("_")[1]) >= part)  # fmt: skip
    counted = SliceProgram(program.variables, (*program.rows, (big, None, most)))
    return split.solve_highs(counted)[0] == "infeasible"


def count_refutes(n, target, known_max, t, quad, tables, buffer) -> tuple[bool, str]:
    """Whether the count refutes one quadruple (steps 1 to 3 of the module docstring, at the
    levels h = c, c - 1, ... in turn), and what each level found."""
    ceiling, steps = quad[0][0], []
    for part in range(ceiling, ceiling - LEVELS, -1):
        types = [(a, b, n - a - b) for a in range(part, ceiling + 1)
                 for b in range(a + 1) if 0 <= n - a - b <= b]  # fmt: skip
        # the fewest classes with such a part the program needs (infeasible with fewer)
        fewest = next((k for k in range(9) if not program_with_count(
            n, target, known_max, t, quad, part, k)), None)  # fmt: skip
        if fewest is None:
            steps.append(f"parts {part}..{ceiling}: the program needs more than 8 classes")
            continue
        sigma = least_meeting(n, target, ceiling, types, tables, buffer)
        if sigma is None:  # no two such classes at all
            steps.append(f"parts {part}..{ceiling}: no two classes; the program needs {fewest}")
            if fewest >= 2:
                return True, "; ".join(steps)
            continue
        free = 2 <= fewest <= 8 and no_arrangement(fewest, part, ceiling, sigma, n)
        steps.append(f"parts {part}..{ceiling} meet in >= {sigma}, the program needs {fewest}, "
                     f"and they {'do not' if free else 'do'} fit in {n} cards")  # fmt: skip
        if free:
            return True, "; ".join(steps)
    return False, "; ".join(steps)


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--store", type=existing_store, required=True, help="a results store")
    parser.add_argument("cases", nargs="+", type=case, metavar="N:U", help="try M(N) <= U")
    args = parser.parse_args()
    require_results(parser, args.store, 4)
    with Store(args.store) as store:
        known_max, known_below = Solver(4, store).known_max(4), Solver(3, store).known_max(3)
        if len(known_max) < 82:
            parser.error(f"{args.store} does not hold the whole proven P = 4 table")
        most, below = split._tables_for(5, known_max, known_below)
        buffer = np.empty((28**4, 9), np.int64)
        for n, target in args.cases:
            started = time.perf_counter()
            left = left_quadruples(n, target, known_max, known_below, store)
            if isinstance(left, str):
                print(f"M({n}) <= {target}: {left} ({time.perf_counter() - started:.0f} s)")
                continue
            print(f"M({n}) <= {target}: the middle case leaves "
                  + ", ".join(f"{len(q)} quadruple(s) at t = {t}" for t, q in left.items())
                  + f" ({time.perf_counter() - started:.0f} s)", flush=True)  # fmt: skip
            tables = split._tables(5, n, most, below)
            quads = [(t, quad) for t, group in left.items() for quad in group]
            outcomes: dict[tuple[bool, str], list] = {}
            for t, quad in quads:
                found = count_refutes(n, target, known_max, t, quad, tables, buffer)
                outcomes.setdefault(found, []).append(quad)
            for (_, steps), group in outcomes.items():
                print(f"  {len(group)} quadruple(s), e.g. {group[0]}: {steps}")
            closed = sum(len(group) for (refuted, _), group in outcomes.items() if refuted)
            print(f"  {closed} of {len(quads)} refuted by the count: M({n}) <= {target} "
                  f"{'follows (HiGHS)' if closed == len(quads) else 'stays open'} "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)  # fmt: skip
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak:.0f} MiB")


if __name__ == "__main__":
    run_script(main, needs="--store STORE N:U")
