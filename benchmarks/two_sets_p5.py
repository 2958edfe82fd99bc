"""Research (NOT wired into the solver, NOT certified): m(46) >= 3 in AG(5,3) by a two-set
fibre split, each case decided by CaDiCaL; what it prints are the solver's verdicts.

m(46) >= 2 is proven (`setlab.extremal.oneset`): 46 cards hold at least two sets. Let S be 46
cards with exactly two, L1 and L2, and look along L1 as the one-set split does: each card is
(x, a), its fibre x a point of AG(4,3) and a label a in F_3; L1's fibre o is full, D are the
fibres holding two cards (the doubles, k of them), the singles hold one. Three cards in three
fibres form a set exactly when the fibres are collinear and the labels add up to 0. L2 is:

- *parallel to L1* (shape "parallel"): a second full fibre o'. K = D + {o, o'} is a cap, every
  single lies in ext(K) (off K and its secants), at most one in each pair {x, 2o - x} and in
  each pair {x, 2o' - x}, and no line of AG(4,3) carries a set. 40 = 2k + singles.
- *crossing L1's direction* (shape "crossing": through a card of L1, or disjoint from it). K = D
  + {o} is a cap (three doubles on a line make two sets, two doubles p and 2o - p four), a single
  lies in ext(K) or on a secant of two doubles (that single makes a set with them), and at most
  one *violation* happens: a pair {x, 2o - x} holding two singles (a set through o), or a line
  of AG(4,3) carrying a set. 43 = 2k + singles.

On a line inside the occupied fibres, two singles b, c and a double missing g make no set
exactly when b + c + g = 0; three singles when b + c + d != 0; a single c on the line of two
doubles missing g, h makes one set, two when g + h + c = 0. The maps x -> Ax of AGL(4,3) and the
label shears (x, a) -> (x, a + psi(x)), psi affine, keep all of this, so K runs over setlab's
classes of caps of AG(4,3), o over the orbits of K's stabiliser, and the missing labels of the
first affinely independent doubles are 0. A case is kept when the pairs about o that meet
ext(K) (plus one for a crossing case's violation) can hold the singles.

The CNF of a case adds *counting rows*, each a proven value of a smaller space: every hyperplane
of AG(5,3) holds at most 20 cards of S (m_4(21) = 3), every 3-flat at most 10 (m_3(11) = 3), and
at most 9 unless it holds both sets (m_3(10) = 2). Along L1 the hyperplanes W x F_3 and the
3-flats pi x F_3 (W a 3-flat, pi a plane of AG(4,3)) are counts of the fibres' cards.

Cases with few doubles have large stabilisers, and the solver spends its time on their symmetry:
the crossing cases of k < ``--split-below`` (6 by default) are split by orbits. The root has one
branch per orbit of the violation's place under Stab(K, o), so the split decides "exactly two
sets" (no violation at all is a one-set board, which the proven m(46) >= 2 excludes; the whole
CNF decides "one or two"). A branch that runs out of its conflict budget (5,000, twice as many a
level down) is split on the largest orbit O of the free fibres under the maps that fix
everything placed so far: either every fibre of O is empty, or its least fibre holds a single
(any occupied fibre of O is moved there), with label 0 when it is affinely independent of the
fibres whose labels are already fixed (a label shear that keeps theirs moves it to 0).

    PYTHONPATH=src python benchmarks/two_sets_p5.py                    # AG(5,3), n = 46: all
    PYTHONPATH=src python benchmarks/two_sets_p5.py --k 8 --every 100  # a sample of k = 8
    PYTHONPATH=src python benchmarks/two_sets_p5.py --properties 4 --cards 21  # AG(4,3): none
    PYTHONPATH=src python benchmarks/two_sets_p5.py --store two_sets.sqlite    # resumable
    PYTHONPATH=src python benchmarks/two_sets_p5.py --scheduler tcp://HOST:8786  # on Dask

The cases are tasks of setlab's executor (`setlab.executor.run_tasks`): on ``--workers`` local
processes, or on the Dask cluster of ``--scheduler`` (default ``$SETLAB_SCHEDULER``; its workers
need setlab and PySAT installed, and receive this script's functions by value). With
``--store`` every verdict is a checkpoint of that results store as it comes in; run again with
the same store, the cases already decided (the same CNF options) are not redone, and the table
counts them too. Ctrl-C loses only the cases being solved.

Measured with this script and its defaults (docs/maxsets.md, "What next for m(46)"; 2 cores):
all 29,719 cases refuted, 219.8 M conflicts, 16,189 s of CPU and 8,168 s of wall time, peak
200 MiB a process.
"""

from __future__ import annotations

if __name__ == "__main__":  # first: a Ctrl-C in the imports below is then one line (_common.py)
    from _common import Parser, run_script  # only so: tests load this file by its path

import argparse
import itertools
import resource
import sqlite3
import sys
import time
from collections import Counter

import numpy as np
from pysat.card import CardEnc, EncType
from pysat.solvers import Solver

from setlab.errors import SetlabError
from setlab.executor import (
    check_scheduler,
    connect,
    default_scheduler,
    default_workers,
    run_tasks,
)
from setlab.extremal.caps.deck import free_cards
from setlab.extremal.oneset import fibre_caps
from setlab.find import count_sets
from setlab.geometry import affine_frame, flats, lines, third_card_table
from setlab.store import Store
from setlab.symmetry import affine_incidence, point_orbits

ArgumentParser = argparse.ArgumentParser
"""The class of :func:`main`'s parser; run as a script, ``_common.Parser`` (one-line errors)."""


class Cnf:
    """Clauses over numbered variables, with the cardinality encodings the cases use."""

    def __init__(self) -> None:
        self.top = 0
        self.clauses: list[list[int]] = []

    def new(self) -> int:
        self.top += 1
        return self.top

    def cardinality(self, lits: list[int], bound: int, *, at_least: bool = False) -> None:
        """At most (or at least) ``bound`` of ``lits`` true: Sinz's sequential counter (at
        least b of them is at most len - b of their negations)."""
        if at_least:
            lits, bound = [-x for x in lits], len(lits) - bound
        if bound >= len(lits):
            return
        if bound < 0:
            self.clauses.append([])
            return
        e = CardEnc.atmost(lits=lits, bound=bound, top_id=self.top, encoding=EncType.seqcounter)
        self.clauses += e.clauses
        self.top = max(self.top, e.nv)


class Space:
    """AG(P-1,3), the space of the fibres: its lines, planes, 3-flats and third points."""

    def __init__(self, properties: int) -> None:
        self.dimension = properties - 1
        self.third = third_card_table(self.dimension).astype(int)
        self.lines = lines(self.dimension).tolist()
        # The planes and 3-flats W, whose W x F_3 the counting rows bound.
        self.flats = [set(f) for dim in (2, 3) if dim < self.dimension
                      for f in flats(self.dimension, dim).tolist()]

    def independent(self, frame: list[int], point: int) -> bool:
        """Is ``point`` affinely independent of the points of ``frame`` (a frame itself)?"""
        return len(self.frame([*frame, point])) > len(frame)

    def frame(self, points: list[int]) -> list[int]:
        """The first affinely independent points of ``points``, in order."""
        return affine_frame(points, self.dimension)


def row_bound(space: Space, flat: set[int], full: list[int]) -> int:
    """The most cards of S in flat x F_3: 20 in a hyperplane (m_4(21) = 3), 10 in a 3-flat
    (m_3(11) = 3) and 9 unless it holds both sets (m_3(10) = 2), as the full fibres tell."""
    if len(flat) == 27:
        return 20
    both = sum(o in flat for o in full) == 2 or (len(full) == 1 and full[0] in flat)
    return 10 if both else 9


class Case:
    """The CNF of one case: fibres ``full`` (1 or 2), doubles ``doubles``, n cards."""

    def __init__(self, space: Space, cap: tuple[int, ...], full: list[int], cards: int,
                 rows: bool = True) -> None:
        third = space.third
        self.space, self.full = space, full
        self.doubles = [x for x in cap if x not in full]
        crossing = len(full) == 1
        self.need = cards - 3 * len(full) - 2 * len(self.doubles)
        ext = np.flatnonzero(free_cards(list(cap), space.dimension)).tolist()
        # F: where a single may lie. Crossing: also on a secant of two doubles, off K and off
        # the secants through o (such a point is a third point 2o - p, and makes two sets).
        spots = set(ext)
        if crossing:
            anti = {int(third[full[0], p]) for p in self.doubles}
            spots |= {int(third[p, q]) for p, q in itertools.combinations(self.doubles, 2)}
            spots -= set(cap) | anti
        self.spots = sorted(spots)
        cnf = self.cnf = Cnf()
        self.s = {(x, a): cnf.new() for x in self.spots for a in range(3)}
        self.g = {(p, a): cnf.new() for p in self.doubles for a in range(3)}
        self.u = {x: cnf.new() for x in self.spots}
        two = list(itertools.combinations(range(3), 2))
        for p in self.doubles:  # a double misses exactly one label
            cnf.clauses.append([self.g[p, a] for a in range(3)])
            cnf.clauses += [[-self.g[p, a], -self.g[p, b]] for a, b in two]
        for p in space.frame(self.doubles):  # the shears: the frame's missing labels are 0
            cnf.clauses.append([self.g[p, 0]])
        for x in self.spots:  # u(x) iff fibre x holds a single, with one label
            cnf.clauses += [[-self.s[x, a], -self.s[x, b]] for a, b in two]
            cnf.clauses.append([-self.u[x]] + [self.s[x, a] for a in range(3)])
            cnf.clauses += [[-self.s[x, a], self.u[x]] for a in range(3)]
        self.violations: dict[frozenset[int], int] = {}
        for o in full:  # pairs {x, 2o - x}: two singles make a set through o
            for x in self.spots:
                x2 = int(third[o, x])
                if x < x2 and x2 in spots:
                    if crossing:
                        w = self.violations[frozenset((x, x2))] = cnf.new()
                        cnf.clauses += [[-self.u[x], -self.u[x2], w], [-w, self.u[x]],
                                        [-w, self.u[x2]]]
                    else:
                        cnf.clauses.append([-self.u[x], -self.u[x2]])
        self._lines(crossing)
        if crossing:
            cnf.cardinality(list(self.violations.values()), 1)
        cnf.cardinality([self.u[x] for x in self.spots], self.need, at_least=True)
        if rows:
            for flat in space.flats:
                fixed = 2 * len(flat & set(self.doubles)) + 3 * len(flat & set(full))
                lits = [self.u[x] for x in self.spots if x in flat]
                cnf.cardinality(lits, row_bound(space, flat, full) - fixed)

    def _lines(self, crossing: bool) -> None:
        """Forbid every labelling of a line that makes a set (crossing: unless it is the one
        violation)."""
        cnf, s, g = self.cnf, self.s, self.g
        dset, allowed = set(self.doubles), set(self.spots) | set(self.doubles)
        for line in self.space.lines:
            if not all(x in allowed for x in line):
                continue
            on = [x for x in line if x in dset]
            v: list[int] = []
            if crossing:
                w = self.violations[frozenset(line)] = cnf.new()
                v = [w]
                cnf.clauses += [[-w, self.u[y]] for y in line if y not in dset]
            if len(on) == 2:  # a single on the line of two doubles: one set, two if g + h + c = 0
                (z,) = [x for x in line if x not in dset]
                p, q = on
                for c in range(3):
                    cnf.clauses.append([-s[z, c], *v])
                    cnf.clauses += [[-s[z, c], -g[p, a], -g[q, (-c - a) % 3]] for a in range(3)]
                continue
            for labels in itertools.product(range(3), repeat=3):
                if (sum(labels) % 3 != 0) if on else (sum(labels) % 3 == 0):
                    cards = zip(line, labels, strict=True)
                    cnf.clauses.append([-((g if x in dset else s)[x, a]) for x, a in cards] + v)

    def board(self, model: set[int]) -> list[int]:
        """The cards of a model (card (x, a) is 3x + a)."""
        cards = [3 * o + a for o in self.full for a in range(3)]
        for p in self.doubles:
            missing = next(a for a in range(3) if self.g[p, a] in model)
            cards += [3 * p + (missing + 1) % 3, 3 * p + (missing + 2) % 3]
        return cards + [3 * x + a for (x, a), var in self.s.items() if var in model]


def refute_split(case: Case, solver: Solver, budget: int) -> tuple[str, int]:
    """Refute a crossing case branch by branch (module docstring); returns (verdict, splits)."""
    space, o, dset = case.space, case.full[0], set(case.doubles)
    incidence = affine_incidence(space.dimension)
    splits = 0

    def node(fixed: list[set[int]], occupied: list[int], empty: list[set[int]], base: list[int],
             depth: int) -> str:
        nonlocal splits
        labelled = space.frame(case.doubles)
        units = []
        for y in occupied:  # a label shear keeping the frame's labels moves y's to 0
            if len(labelled) <= space.dimension and space.independent(labelled, y):
                labelled.append(y)
                units.append(case.s[y, 0])
        cube = base + [case.u[y] for y in occupied] + [-case.u[y] for e in empty for y in e] + units
        solver.conf_budget(budget * 2**depth)
        verdict = solver.solve_limited(assumptions=cube)
        if verdict is not None:
            return "SAT" if verdict else "UNSAT"
        cells = [set(dset) - set().union(*fixed), {o}, *fixed, *({y} for y in occupied), *empty]
        placed = set().union(*fixed, occupied, *empty)
        free = [y for y in case.spots if y not in placed]
        if not free:
            return "UNKNOWN"
        splits += 1
        labels = incidence.automorphisms(cells)[1]  # orbits of the maps fixing what is placed
        by_orbit: dict[int, list[int]] = {}
        for y in free:
            by_orbit.setdefault(int(labels[y]), []).append(y)
        orbit = max(by_orbit.values(), key=len)
        verdict = node(fixed, occupied, [*empty, set(orbit)], base, depth + 1)  # O empty
        if verdict == "UNSAT":  # or its least fibre holds a single
            verdict = node(fixed, [*occupied, orbit[0]], empty, base, depth + 1)
        return verdict

    # The root: one branch per orbit of the violation's place under Stab(K, o).
    stabiliser = incidence.automorphisms([dset, {o}])[0]
    keys = list(case.violations)
    parent = {key: key for key in keys}

    def root(key: frozenset[int]) -> frozenset[int]:
        while parent[key] != key:
            key = parent[key]
        return key

    for gen in stabiliser:
        for key in keys:
            a, b = root(key), root(frozenset(int(gen[x]) for x in key))
            if a != b:
                parent[max(a, b, key=sorted)] = min(a, b, key=sorted)
    for key in sorted({root(key) for key in keys}, key=sorted):
        singles = sorted(y for y in key if y not in dset)
        verdict = node([set(key) & dset] if set(key) & dset else [], singles, [],
                       [case.violations[key]], 0)
        if verdict != "UNSAT":
            return verdict, splits
    return "UNSAT", splits


def room(space: Space, cap: tuple[int, ...], o: int) -> int:
    """How many pairs {x, 2o - x} meet ext(K)."""
    ext = np.flatnonzero(free_cards(list(cap), space.dimension)).tolist()
    return len({tuple(sorted((x, int(space.third[o, x])))) for x in ext})


def cases(
    space: Space, cards: int, shapes: set[str]
) -> list[tuple[str, tuple[int, ...], list[int]]]:
    """Every case: (shape, K, its full fibres), K a class representative, the first full fibre
    one per orbit of Stab(K); kept when the room holds the singles."""
    out = []
    for level in fibre_caps(space.dimension + 1):
        for cap in level:
            labels = point_orbits(cap, space.dimension)
            for o in sorted({int(labels[x]) for x in cap}):
                need = cards - 3 - 2 * (len(cap) - 1)
                if "crossing" in shapes and need >= 0 and room(space, cap, o) + 1 >= need:
                    out.append(("crossing", tuple(cap), [o]))
                need = cards - 6 - 2 * (len(cap) - 2)
                if "parallel" in shapes and len(cap) >= 2 and need >= 0:
                    out += [("parallel", tuple(cap), [o, o2]) for o2 in cap if o2 != o
                            and min(room(space, cap, o), room(space, cap, o2)) >= need]
    return out


def decide(task: tuple) -> tuple:
    """One case: (shape, k, K, its full fibres, verdict, conflicts, splits, seconds, board or
    None).

    Its Space is built here (30 ms at P = 5; the tables it reads are cached by setlab): Dask
    sends this script's functions by value, so a cache of the script's own would not last.
    """
    properties, cards, shape, cap, full, rows, split, budget = task
    start = time.perf_counter()
    case = Case(Space(properties), cap, full, cards, rows)
    splits = 0
    with Solver(name="cadical195", bootstrap_with=case.cnf.clauses) as solver:
        if split:
            verdict, splits = refute_split(case, solver, budget)
        else:
            verdict = {True: "SAT", False: "UNSAT"}[solver.solve()]
        conflicts = solver.accum_stats().get("conflicts", 0)
        board = None
        if verdict == "SAT":
            board = sorted(set(case.board(set(solver.get_model()))))[:cards]
    seconds = time.perf_counter() - start
    return shape, len(case.doubles), cap, full, verdict, conflicts, splits, seconds, board


def job_name(args: argparse.Namespace) -> str:
    """The checkpoint job of a run: every option that changes a case's CNF or its split."""
    rows = "no-rows" if args.no_rows else "rows"
    return (f"two-sets:P{args.properties}:n{args.cards}:{rows}:split-below{args.split_below}"
            f":budget{args.budget}")


def main(argv: list[str] | None = None) -> int:
    parser = ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--properties", type=int, default=5, help="P (default 5)")
    parser.add_argument("--cards", type=int, default=46, help="n (default 46)")
    parser.add_argument("--shape", choices=["crossing", "parallel", "both"], default="both")
    parser.add_argument("--k", help="only these numbers of doubles, e.g. 6,7")
    parser.add_argument("--every", type=int, default=1, help="every N-th case (a sample)")
    parser.add_argument("--split-below", type=int, default=6,
                        help="split the crossing cases with fewer doubles (default 6)")
    parser.add_argument("--budget", type=int, default=5000, help="conflicts at the split's root")
    parser.add_argument("--no-rows", action="store_true", help="leave out the counting rows")
    parser.add_argument("--workers", type=int,
                        help="local processes (default $SETLAB_WORKERS, else the usable cores)")
    parser.add_argument("--store", default=":memory:",
                        help="a results store (SQLite) that keeps every verdict; a rerun resumes")
    parser.add_argument("--scheduler", metavar="ADDRESS", default=None,
                        help="decide the cases on the Dask cluster of this scheduler, "
                             "tcp://HOST:PORT (default $SETLAB_SCHEDULER; none: this machine)")
    args = parser.parse_args(argv)
    if args.properties not in (3, 4, 5) or not 0 < args.cards <= 3**args.properties:
        print("error: --properties is 3, 4 or 5 and --cards in 1..3^P", file=sys.stderr)
        return 2
    if args.every < 1 or (args.workers is not None and args.workers < 1) or args.budget < 1:
        print("error: --every, --workers and --budget are positive", file=sys.stderr)
        return 2
    try:
        only = {int(k) for k in args.k.split(",")} if args.k else None
    except ValueError:
        print(f"error: --k takes numbers, e.g. 6,7, not {args.k!r}", file=sys.stderr)
        return 2
    shapes = {"crossing", "parallel"} if args.shape == "both" else {args.shape}
    try:
        args.scheduler = (default_scheduler() if args.scheduler is None
                          else args.scheduler and check_scheduler(args.scheduler)) or ""
        if args.scheduler:
            connect(args.scheduler)  # an unreachable cluster is refused before any work
        args.workers = args.workers or default_workers()
        store = Store(args.store)
        return run(args, only, shapes, store)
    except SetlabError as error:  # a bad store or scheduler address, an unreachable cluster
        print(f"error: {error}", file=sys.stderr)
        return 2
    except sqlite3.Error as error:  # a store that became read-only or locked mid-run, as the CLI
        print(f"error: results store {args.store}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


def run(args: argparse.Namespace, only: set[int] | None, shapes: set[str], store: Store) -> int:
    """List the cases, decide those ``store`` lacks (on ``args.workers`` processes, or on the
    Dask cluster of ``args.scheduler``), print the table of all of them."""
    start = time.perf_counter()
    space = Space(args.properties)
    todo = [c for c in cases(space, args.cards, shapes)
            if only is None or len(c[1]) - len(c[2]) in only][:: args.every]
    print(f"AG({args.properties},3), n = {args.cards}: {len(todo)} cases "
          f"(listed in {time.perf_counter() - start:.1f} s)", flush=True)
    tasks = {
        f"{shape}:{','.join(map(str, cap))}:{','.join(map(str, full))}": ((
            args.properties, args.cards, shape, cap, full, not args.no_rows,
            shape == "crossing" and len(cap) - 1 < args.split_below, args.budget),)
        for shape, cap, full in todo
    }
    job = job_name(args)
    earlier = len(store.finished_tasks(job).keys() & tasks.keys())
    if earlier:
        print(f"  {earlier} cases decided in an earlier run ({args.store}), "
              f"{len(tasks) - earlier} to go", flush=True)
    started = time.perf_counter()
    results = run_tasks(job, tasks, decide, store, workers=args.workers,
                        scheduler=args.scheduler, description="two-set cases")
    table: dict[tuple[str, int], Counter] = {}
    worst: dict[tuple[str, int], tuple[int, float]] = {}
    found = []
    for shape, k, cap, full, verdict, conflicts, splits, seconds, board in results.values():
        row = table.setdefault((shape, k), Counter())
        row[verdict] += 1
        row["conflicts"] += conflicts
        row["splits"] += splits
        row["seconds"] += seconds
        worst[shape, k] = max(worst.get((shape, k), (0, 0.0)), (conflicts, seconds))
        if board is not None:
            found.append(board)
            print(f"  {shape} k={k} {cap} {full}: {len(board)} cards, "
                  f"{count_sets(board, args.properties)} sets", flush=True)
    print(f"{'shape':>9} {'k':>3} {'cases':>6} {'refuted':>8} {'conflicts':>11} {'splits':>7} "
          f"{'CPU s':>8} {'hardest (conflicts, s)':>24}")
    for (shape, k), row in sorted(table.items()):
        cases_k = sum(row[v] for v in ("SAT", "UNSAT", "UNKNOWN"))
        hard = worst[shape, k]
        print(f"{shape:>9} {k:>3} {cases_k:>6} {row['UNSAT']:>8} {row['conflicts']:>11} "
              f"{row['splits']:>7} {row['seconds']:>8.0f} {hard[0]:>14} {hard[1]:>8.1f}")
    refuted = sum(row["UNSAT"] for row in table.values())
    peak = max(resource.getrusage(who).ru_maxrss for who in
               (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)) / 1024
    where = f"the cluster at {args.scheduler}" if args.scheduler else f"{args.workers} workers"
    print(f"{refuted} of {len(tasks)} cases refuted, {len(found)} boards found; "
          f"{time.perf_counter() - started:.0f} s wall for the {len(tasks) - earlier} decided "
          f"in this run on {where}, peak {peak:.0f} MiB (one process)")
    print("These are CaDiCaL's verdicts, not certificates: nothing here is proven.")
    return 0


if __name__ == "__main__":
    ArgumentParser = Parser
    run_script(main)
