"""No n cards with exactly one set: the fibre split, each case refuted by a SAT solver.

Let S be n cards of AG(P,3) whose only set is the line L. Along L's direction each card is (x, a):
its *fibre* x, a point of AG(P-1,3), and a label a in F_3. L's fibre o holds 3 cards (no other
fibre does: a second set); let D be the fibres holding 2 (the *doubles*, k of them) and the
*singles* those holding 1. Then

- K = D + {o} is a cap of AG(P-1,3), and no single lies on a secant of K: two doubles p, q on a
  line with a third fibre z complete every label of z (their labels' sums take all three values),
  and a card in x with one in 2o - x completes to a card of the full fibre o;
- so the n - 3 - 2k singles lie in ext(K) (off K and its secants), at most one in each pair
  {x, 2o - x}: the *room* of (K, o) must hold them;
- on a line of AG(P-1,3) through ext(K) + D, labels b, c of two singles and the missing label g
  of a double make no set exactly when b + c + g = 0; three singles' labels, when a + b + c != 0.

A *case* is a class of caps K of AG(P-1,3) (:func:`~setlab.extremal.nearcaps.cap_classes`) with
o up to K's stabiliser, kept when its room holds the singles; its CNF (the singles, their labels,
the missing labels of the doubles, the lines' rules, and "at least n - 3 - 2k singles" by a
sequential counter) is satisfiable exactly when some such S exists. CaDiCaL (through PySAT)
decides each; a refutation goes to LRAT (:func:`~setlab.extremal.lrat.drup_to_lrat`), which
``proofcheck/oneset_check.py`` follows against a CNF it builds itself (its docstring states the
clauses exactly), and a model is a board of n cards with exactly one set.

For AG(5,3) and n = 46 the cases are 3,040 (k = 3..13) and all are refuted: with no 46-cap
(:mod:`setlab.extremal.caps.largest`), every 46 cards hold at least two sets.

References
----------
Y. Edel, S. Ferret, I. Landjev, L. Storme, "The classification of the largest caps in AG(5,3)",
J. Combin. Theory Ser. A 99 (2002). C. Sinz, "Towards an optimal CNF encoding of Boolean
cardinality constraints", CP 2005 (the sequential counter). A. Ignatiev, A. Morgado,
J. Marques-Silva, "PySAT: a Python toolkit for prototyping with SAT oracles", SAT 2018; its
CaDiCaL 1.9.5 is A. Biere's, K. Fazekas's and M. Fleury's solver.
"""

from __future__ import annotations

import base64
import itertools
import time
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from setlab.errors import SetlabError
from setlab.executor import run_tasks
from setlab.extremal.caps.deck import free_cards
from setlab.extremal.lrat import drup_to_lrat
from setlab.extremal.nearcaps import cap_classes
from setlab.find import count_sets
from setlab.geometry import affine_frame, lines, third_card_table
from setlab.store import Store, job_digest
from setlab.symmetry import point_orbits

__all__ = [
    "ONE_SET_JOB",
    "OneSetCase",
    "OneSetResult",
    "case_clauses",
    "fibre_caps",
    "one_set_cases",
    "one_set_claim",
    "one_set_job",
    "refute_one_set",
    "solve_case",
]

ONE_SET_JOB = "one-set-v1"
"""Checkpoint family of the fibre split's cases (one task per case; the payloads are the
certificate, so the job is kept). A change to the cases or to the CNF's clauses or their order
must raise the version: stored refutations name clauses by number."""


@dataclass(frozen=True)
class OneSetCase:
    """One case: the cap K = D + {o} of AG(P-1,3) (a class representative) and L's fibre o."""

    cap: tuple[int, ...]
    fibre: int

    @property
    def doubles(self) -> list[int]:
        return [x for x in self.cap if x != self.fibre]


@dataclass(frozen=True)
class OneSetResult:
    """The fibre split of "n cards with exactly one set": refuted, or a board that has one."""

    properties: int
    cards: int
    cases: int
    refuted: int
    board: list[int] | None
    """n cards with exactly one set, when a case is satisfiable."""
    job: str
    lemmas: int
    """LRAT clauses over all refuted cases."""
    seconds: float

    @property
    def all_refuted(self) -> bool:
        """Every case refuted by the solver (its LRAT is what ``oneset_check.py`` then checks,
        through ``setlab verify``): no n cards hold exactly one set."""
        return self.board is None and self.refuted == self.cases


def fibre_caps(properties: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The classes of k-caps of AG(P-1,3) for k = 0, 1, ... up to the first empty level.

    Examples
    --------
    >>> [len(level) for level in fibre_caps(4)]  # AG(3,3): the largest caps have 9 points
    [1, 1, 1, 1, 2, 2, 3, 2, 3, 1, 0]
    """
    size = 1
    while cap_classes(properties - 1, size)[-1]:  # cached: one more level each time
        size += 1
    return cap_classes(properties - 1, size)


def _room(dimension: int, cap: tuple[int, ...], fibre: int) -> tuple[np.ndarray, list[list[int]]]:
    """ext(K) ascending, and its points grouped by the pairs {x, 2o - x}, sorted by the pairs."""
    ext = np.flatnonzero(free_cards(list(cap), dimension))
    third = third_card_table(dimension)
    groups: dict[tuple[int, int], list[int]] = {}
    for x in ext.tolist():
        antipode = int(third[fibre, x])
        groups.setdefault((min(x, antipode), max(x, antipode)), []).append(x)
    return ext, [groups[pair] for pair in sorted(groups)]


def one_set_cases(properties: int, cards: int) -> Iterator[OneSetCase]:
    """The cases of the fibre split: (K, o) with room for the n - 3 - 2k singles.

    Examples
    --------
    >>> [(case.cap, case.fibre) for case in one_set_cases(4, 20)]  # AG(4,3): 3 cases at n = 20
    [((0, 1, 3, 4, 9), 9), ((0, 1, 3, 9, 13), 0), ((0, 1, 3, 4, 9, 13), 1)]
    """
    dimension = properties - 1
    for level in fibre_caps(properties):
        for cap in level:
            orbits = point_orbits(cap, dimension)
            for fibre in sorted({int(orbits[x]) for x in cap}):  # the least point of each orbit
                need = cards - 3 - 2 * (len(cap) - 1)
                if need >= 0 and len(_room(dimension, cap, fibre)[1]) >= need:
                    yield OneSetCase(tuple(cap), fibre)


def case_clauses(properties: int, cards: int, case: OneSetCase) -> tuple[int, list[list[int]]]:
    """The CNF of a case as ``oneset_check.py`` states it: (variables, clauses).

    Variables: s(x, a) "a card of fibre x at label a" for x in ext(K), then g(p, a) "double p
    misses label a", then y(t) "pair t holds a single", then the counter's R(t, j) "at least
    j + 1 of the first t + 1 pairs are empty" (j < r, r = pairs - need).

    Examples
    --------
    >>> variables, clauses = case_clauses(3, 7, OneSetCase((0, 1, 3), 0))
    >>> variables, len(clauses)  # ext(K) = 3 points in 2 pairs about o; 7 = 3 + 2 * 2 + 0 singles
    (21, 72)
    >>> 3 * 3 + 3 * 2 + 2 + 2 * 2  # s(x, a), g(p, a) for the 2 doubles, y(t), R(t, j)
    21
    """
    dimension = properties - 1
    ext, groups = _room(dimension, case.cap, case.fibre)
    doubles = case.doubles
    need = cards - 3 - 2 * len(doubles)
    spare = len(groups) - need  # r: pairs that may stay empty
    if need < 0 or spare < 0:
        raise SetlabError(f"no room for {need} singles in the case {case}")
    s = {int(x): 3 * i + 1 for i, x in enumerate(ext)}  # s(x, a) = s[x] + a
    g = {p: 3 * len(ext) + 3 * j + 1 for j, p in enumerate(doubles)}
    y = 3 * len(ext) + 3 * len(doubles) + 1  # y(t) = y + t
    counter = y + len(groups)  # R(t, j) = counter + spare * t + j
    clauses: list[list[int]] = []
    for p in doubles:  # each double misses exactly one label
        clauses += [[g[p], g[p] + 1, g[p] + 2], [-g[p], -g[p] - 1], [-g[p], -g[p] - 2]]
        clauses.append([-g[p] - 1, -g[p] - 2])
    # The shears (x, a) -> (x, a + psi(x)) move the missing labels of affinely independent
    # doubles to 0.
    clauses += [[g[p]] for p in affine_frame(doubles, dimension)]
    # At most one single per pair {x, 2o - x}; y(t) only if pair t holds one.
    for t, group in enumerate(groups):
        options = [s[x] + a for x in group for a in range(3)]
        clauses += [[-u, -v] for u, v in itertools.combinations(options, 2)]
        clauses.append([-(y + t), *options])
    # At least need singles: at most `spare` of the literals -y(t), Sinz's sequential counter.
    if spare == 0:
        clauses += [[y + t] for t in range(len(groups))]
    else:
        def at_least(t: int, j: int) -> int:
            return counter + spare * t + j

        clauses.append([y, at_least(0, 0)])
        for t in range(1, len(groups)):
            clauses.append([y + t, at_least(t, 0)])
            clauses += [[-at_least(t - 1, j), at_least(t, j)] for j in range(spare)]
            clauses += [[y + t, -at_least(t - 1, j - 1), at_least(t, j)] for j in range(1, spare)]
            clauses.append([y + t, -at_least(t - 1, spare - 1)])
    # The lines through ext(K) + D: forbid every labelling that makes a set.
    allowed = np.zeros(3**dimension, dtype=bool)
    allowed[ext] = True
    allowed[doubles] = True
    every = lines(dimension)
    for line in every[allowed[every].all(axis=1)].tolist():
        double = [x in g for x in line]
        for labels in itertools.product(range(3), repeat=3):
            if (sum(labels) % 3 == 0) != any(double):
                clauses.append(
                    [-((g[x] if x in g else s[x]) + a) for x, a in zip(line, labels, strict=True)]
                )
    return counter - 1 + spare * len(groups), clauses


def _board(case: OneSetCase, ext: np.ndarray, model: set[int]) -> list[int]:
    """The cards a model of the case's CNF describes, L's first, then the doubles', then the
    singles' (at least n in all): card (x, a) is index 3x + a."""
    cards = [3 * case.fibre + a for a in range(3)]
    base = 3 * len(ext)
    for j, p in enumerate(case.doubles):
        missing = next(a for a in range(3) if base + 3 * j + a + 1 in model)
        cards += [3 * p + (missing + 1) % 3, 3 * p + (missing + 2) % 3]
    cards += [3 * int(x) + a for i, x in enumerate(ext) for a in range(3) if 3 * i + a + 1 in model]
    return cards


def solve_case(properties: int, cards: int, cap: list[int], fibre: int) -> dict[str, Any]:
    """Decide one case (a task of :func:`refute_one_set`): ``{"refuted": True, "lrat": ...}``
    with the LRAT refutation (zlib, base64), or ``{"refuted": False, "board": ...}``.

    Examples
    --------
    >>> solve_case(4, 20, [0, 1, 3, 4, 9], 9)["refuted"]
    True
    """
    from pysat.solvers import Solver  # the SAT solver: only for this job

    case = OneSetCase(tuple(cap), fibre)
    start = time.perf_counter()
    variables, clauses = case_clauses(properties, cards, case)
    with Solver(name="cadical195", bootstrap_with=clauses, with_proof=True) as solver:
        satisfiable = solver.solve()
        model = set(solver.get_model() or []) if satisfiable else set()
        log = [] if satisfiable else solver.get_proof()
    if satisfiable:
        ext, _ = _room(properties - 1, case.cap, fibre)
        board = sorted(_board(case, ext, model)[:cards])  # fewer singles keep the one set
        if len(board) < cards or count_sets(board, properties) != 1:
            raise SetlabError(f"the model of case {case} is no board with one set")
        return {"refuted": False, "board": board}
    text = "\n".join(drup_to_lrat(variables, clauses, log)).encode()
    return {
        "refuted": True,
        "lrat": base64.b64encode(zlib.compress(text, 6)).decode(),
        "lemmas": text.count(b"\n") + 1,
        "seconds": round(time.perf_counter() - start, 3),
    }


def one_set_job(properties: int, cards: int) -> str:
    """The store's job of the fibre split of n cards of AG(P,3): its cases' checkpoints (their
    LRAT refutations) are the tasks of this job, and a bound proven by them names it.

    Examples
    --------
    >>> one_set_job(5, 46).startswith(ONE_SET_JOB + "/P5-n46/")
    True
    """
    return f"{ONE_SET_JOB}/P{properties}-n{cards}/{job_digest([properties, cards])}"


def refute_one_set(
    properties: int,
    cards: int,
    store: Store | None = None,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
) -> OneSetResult:
    """Run the fibre split of "``cards`` cards of AG(P,3) with exactly one set".

    Each case is a task checkpointed in ``store`` (kept: its payload is the certificate), so an
    interrupted run resumes where it stopped.

    Parameters
    ----------
    properties, cards
        P >= 2 and n.
    store
        The results store for the checkpoints.
    workers, scheduler
        As :func:`setlab.executor.run_tasks`.

    Returns
    -------
    OneSetResult

    Examples
    --------
    >>> refute_one_set(4, 20, workers=1).all_refuted  # AG(4,3): no 20 cards with exactly one set
    True
    >>> result = refute_one_set(4, 19, workers=1)  # but 19 such cards exist
    >>> result.all_refuted, len(result.board)
    (False, 19)
    """
    if properties < 2:
        raise SetlabError(f"the fibre split needs P >= 2, got {properties}")
    if not 3 <= cards <= 3**properties:
        raise SetlabError(f"cards must be between 3 and {3**properties}, got {cards}")
    start = time.perf_counter()
    cases = list(one_set_cases(properties, cards))
    tasks = {str(i): (properties, cards, list(c.cap), c.fibre) for i, c in enumerate(cases)}
    job = one_set_job(properties, cards)
    payloads = run_tasks(
        job, tasks, solve_case, store, workers=workers, scheduler=scheduler,
        description=f"fibre split, {cards} cards of AG({properties},3)",
        summary=lambda done: f"{sum(p['refuted'] for p in done.values())} refuted",
    )  # fmt: skip
    found = [p["board"] for p in payloads.values() if not p["refuted"]]
    return OneSetResult(
        properties=properties,
        cards=cards,
        cases=len(cases),
        refuted=sum(p["refuted"] for p in payloads.values()),
        board=found[0] if found else None,
        job=job,
        lemmas=sum(p.get("lemmas", 0) for p in payloads.values()),
        seconds=round(time.perf_counter() - start, 3),
    )


def one_set_claim(
    properties: int, cards: int, store: Store
) -> tuple[dict[str, Any], Callable[[int], list[str]]] | None:
    """The claim ``oneset_check.check_one_set`` checks, from the stored cases, and the reader of
    case i's LRAT lines; None unless every case is stored refuted.

    Examples
    --------
    >>> store = Store(":memory:")
    >>> _ = refute_one_set(3, 10, store, workers=1)  # AG(3,3): no (K, o) has room at n = 10
    >>> claim, lrat = one_set_claim(3, 10, store)
    >>> claim["cases"], [len(level) for level in claim["caps"]]  # the caps of AG(2,3)
    ([], [1, 1, 1, 1, 1, 0])
    """
    done = store.finished_tasks(one_set_job(properties, cards))
    cases = list(one_set_cases(properties, cards))
    if len(done) != len(cases) or not all(p["refuted"] for p in done.values()):
        return None
    claim = {
        "properties": properties,
        "cards": cards,
        "caps": [[list(cap) for cap in level] for level in fibre_caps(properties)],
        "cases": [{"cap": list(c.cap), "fibre": c.fibre} for c in cases],
    }

    def lrat(i: int) -> list[str]:
        try:  # a damaged payload is a malformed refutation for the checker (ValueError)
            return zlib.decompress(base64.b64decode(done[str(i)]["lrat"])).decode().split("\n")
        except zlib.error as error:
            raise ValueError(f"case {i}: the stored refutation does not decompress") from error

    return claim, lrat
