"""The most and the fewest sets among n cards of AG(P,3): M(n) and m(n), proven, with witnesses.

Complement identity: for S of n cards and N = 3^P, sets(S) + sets(complement) = N(N-1)/6 -
n(N-n)/2 (a line meets S in 0..3 points; count lines by how many), so M(N-n) = that - m(n).
m(n) = 0 while an n-cap exists. M(n) comes from witnesses (constructions, the store) and upper
bounds: deletion from M(n-1), the pruned search, or the bounds module. Just above the largest cap
of AG(5,3), the fibre split (:mod:`setlab.extremal.oneset`) shows that no 46 cards hold exactly
one set, so m(46) >= 2.

The store layout of both problems is :data:`setlab.store.PROBLEMS` (re-exported here).
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass
from functools import cache
from importlib import resources
from typing import Any

import numpy as np
from tqdm import tqdm

from setlab.cards import check_properties, deck_size, vector_of
from setlab.errors import SetlabError
from setlab.extremal.bigcaps import best_construction
from setlab.extremal.bounds import BOUNDS_VERSION, max_upper_bound
from setlab.extremal.bruteforce import exhaustive_table
from setlab.extremal.caps.largest import largest_cap
from setlab.extremal.heuristics import LOCAL_SEARCH_VERSION, local_search
from setlab.extremal.identities import (
    complement_sum,
    greatest_degree_bound,
    least_degree_bound,
    total_lines,
)
from setlab.extremal.oneset import one_set_job, refute_one_set
from setlab.extremal.search import job_name, search
from setlab.extremal.split import split_bounds, split_jobs
from setlab.extremal.splitmax import split_maxima_found
from setlab.find import count_sets
from setlab.geometry import indices_of, third_card_table
from setlab.kernels import pair_completions
from setlab.store import PROBLEMS, Result, Sense, Store, interval, job_digest

__all__ = [
    "DEFAULT_ANNEAL_RESTARTS",
    "DEFAULT_MIN_SEARCH_CARDS",
    "DEFAULT_SEARCH_CARDS",
    "KNOWN_CAP_SIZES",
    "PROBLEMS",
    "Solver",
    "Step",
    "Value",
    "cap_witness",
    "deletion_bound",
    "recorded_witnesses",
]

KNOWN_CAP_SIZES = {1: 2, 2: 4, 3: 9, 4: 20, 5: 45, 6: 112}
"""Largest caps of AG(P,3) (Pellegrino 1971 for P = 4; Edel, Ferret, Landjev, Storme 2002 for
P = 5; Potechin 2008 for P = 6): the target of :func:`cap_witness`."""

DEFAULT_SEARCH_CARDS = {4: 30, 5: 9}
"""Largest n for which the solver runs the pruned max search by default (P = 4: seconds each)."""

DEFAULT_MIN_SEARCH_CARDS = {4: 33}
"""Largest n for which the solver runs the pruned min search by default (P = 4, n = 21..33: about
a minute for the first, seconds for most others, which share its levels). It also gives M(N - n)
by the complement identity, which closes the P = 4 table: every M(n) and m(n) proven in about
100 s on 2 cores."""

GUIDE_CARDS = 30
"""The smallest splits (a + b + c points of AG(4,3)) whose maxima the P = 5 table anneals to
guide the big-slice split (:meth:`Solver._guide`); the hyperplanes that stop its pencils at
n = 147 hold 51."""

RECORDED_WITNESSES = {5: "p5_witnesses.json"}
"""Data files (in ``setlab/data``) of max witnesses found outside the solver, by P."""


@cache
def recorded_witnesses(properties: int) -> dict[int, list[int]]:
    """Max witnesses kept in the package's data files, by n, each re-counted on load.

    For P = 5 these beat the constructions and the annealed minima for n = 155..162, 181..184
    and 197 (docs/maxsets.md, "What was tried for AG(5,3)", "Witnesses"). A file whose stated
    count differs from the re-count is refused.

    Examples
    --------
    >>> found = recorded_witnesses(5)
    >>> len(found[162]), count_sets(found[162], 5), recorded_witnesses(4)
    (162, 3132, {})
    """
    name = RECORDED_WITNESSES.get(properties)
    if name is None:
        return {}
    data = json.loads((resources.files("setlab") / "data" / name).read_text())
    out: dict[int, list[int]] = {}
    for cards, entry in data["witnesses"].items():
        witness = [int(c) for c in entry["cards"]]
        if len(set(witness)) != int(cards) or count_sets(witness, properties) != entry["sets"]:
            raise SetlabError(f"recorded witness for n = {cards} in {name} does not re-count")
        out[int(cards)] = witness
    return out


Step = tuple[str, int]
"""One unit of the solver's work, run once per solver: ``("table", P')`` solves every M(n), m(n)
of AG(P',3) (the constructions and slice bounds of AG(P'+1,3) rest on them); ``("max-start", n)``
records M(n)'s witnesses and deletion bound; ``("max", n)`` and ``("min", n)`` solve M(n), m(n)
from what their prerequisites stored. :meth:`Solver.plan` orders them."""

DEFAULT_ANNEAL_RESTARTS = 200
"""Annealing restarts per open minimum: a fixed number, so every machine finds the same witness
(P = 5: about 1 s each; when it came in it narrowed the then open m(46..80) by 40 % in all, and
M(163..197) with them)."""


def deletion_bound(cards: int, previous: int, sense: Sense = "max") -> int:
    """The bound on M(n) given M(n-1) <= previous, or on m(n) given m(n-1) >= previous.

    Maximum: an n-card configuration with T sets has a card on at most
    :func:`~setlab.extremal.identities.least_degree_bound` (n, T) = min(floor(3T/n),
    floor((n-1)/2)) of them; deleting it leaves n - 1 cards with at least T - that many sets, so
    M(n-1) >= T - least_degree_bound(n, T). That amount does not decrease with T, so the T it
    does not push above ``previous`` run from 0 up to one largest T, and M(n) <= that T.

    Minimum: a configuration with T sets has a card on at least
    :func:`~setlab.extremal.identities.greatest_degree_bound` (n, T) = ceil(3T/n) of them;
    deleting it leaves at most T - ceil(3T/n) sets, which must reach m(n-1) >= previous. That
    amount does not decrease with T either, so m(n) >= the least T where it reaches
    ``previous``.

    Examples
    --------
    >>> deletion_bound(9, 8)  # M(8) = 8 forces M(9) <= 12
    12
    >>> deletion_bound(47, 2, "min"), deletion_bound(22, 3, "min")  # m(46) >= 2 (P = 5), m(21) = 3
    (3, 4)
    """
    if sense == "min":
        if cards <= 3:  # T - ceil(3T/n) <= 0: only m(n) >= m(n-1), deletion never adds sets
            return previous
        t = previous
        while t - greatest_degree_bound(cards, t) < previous:
            t += 1
        return t
    if cards < 3:
        return 0
    t = previous
    while (t + 1) - least_degree_bound(cards, t + 1) <= previous:
        t += 1
    return t


def cap_witness(properties: int, size: int, node_limit: int = 200_000) -> list[int]:
    """The largest cap (no three cards in a set) of at most ``size`` cards a depth-first search
    finds within ``node_limit`` nodes.

    Starts from an affine basis 0, e_1, ..., e_P (every cap spanning AG(P,3) is an affine image
    of one containing it), then adds the smallest still-allowed card first, pruning branches that
    cannot reach ``size``.

    Examples
    --------
    >>> cap = cap_witness(4, 20)
    >>> len(cap), count_sets(cap, 4)
    (20, 0)
    """
    n = deck_size(properties)
    table = third_card_table(properties).astype(np.int64)
    start = ([0] + [3**i for i in range(properties)])[: max(0, size)]
    allowed = (1 << n) - 1
    for i, c in enumerate(start):
        allowed &= ~(1 << c)
        for a in start[:i]:
            allowed &= ~(1 << int(table[a, c]))
    best = list(start)
    nodes = 0

    def extend(cap: list[int], allowed: int) -> bool:
        nonlocal nodes, best
        nodes += 1
        if len(cap) > len(best):
            best = cap
        if len(cap) >= size:
            return True
        while allowed and nodes < node_limit:
            if len(cap) + allowed.bit_count() < size:
                return False
            c = (allowed & -allowed).bit_length() - 1
            allowed &= ~(1 << c)
            child = allowed
            for a in cap:  # the third card of c and any cap card is now forbidden
                child &= ~(1 << int(table[a, c]))
            if extend([*cap, c], child):
                return True
        return False

    extend(list(start), allowed)
    return sorted(best)


@dataclass(frozen=True)
class Value:
    """M(n) or m(n) as known: the witness value, whether proven, and by which methods."""

    properties: int
    cards: int
    sense: Sense
    value: int | None
    bound: int | None
    proven: bool
    method: str | None
    witness: list[int] | None
    witness_method: str | None
    updated: float | None = None
    """When the store last changed this value (seconds since the epoch)."""

    @property
    def lower(self) -> int | None:
        """Proven lower bound of the optimum (see :func:`setlab.store.interval`)."""
        return interval(self.sense, self.value, self.bound)[0]

    @property
    def upper(self) -> int | None:
        """Proven upper bound of the optimum (see :func:`setlab.store.interval`)."""
        return interval(self.sense, self.value, self.bound)[1]

    def as_json(self, seconds: float | None = None) -> dict[str, Any]:
        """A JSON object: the fields, ``lower`` and ``upper``, witness cards as P digits."""
        out = asdict(self)
        out["lower"], out["upper"] = self.lower, self.upper
        out["witness"] = (
            None
            if self.witness is None
            else [list(vector_of(c, self.properties)) for c in self.witness]
        )
        if seconds is not None:
            out["seconds"] = round(seconds, 3)
        return out


def _value(result: Result | None, properties: int, cards: int, sense: Sense) -> Value:
    if result is None:
        return Value(properties, cards, sense, None, None, False, None, None, None)
    return Value(
        properties, cards, sense, result.value, result.bound, result.proven,
        result.bound_method, result.witness, result.witness_method, result.updated,
    )  # fmt: skip


class Solver:
    """Computes, proves and stores M(n) and m(n) for one P.

    Parameters
    ----------
    properties
        P, the dimension.
    store
        Where witnesses, bounds and search checkpoints go.
    search_cards
        Largest n for which the pruned search runs (default: :data:`DEFAULT_SEARCH_CARDS`).
    min_search_cards
        Largest n for which the pruned min search runs (default: :data:`DEFAULT_MIN_SEARCH_CARDS`).
    use_bounds
        Call :func:`setlab.extremal.bounds.max_upper_bound` (counting identities over parallel
        classes, near-caps) where nothing else proves a value.
    anneal_restarts
        Restarts of the annealed swap search (:func:`setlab.extremal.heuristics.local_search`,
        seed 0) for a better witness where a minimum stays open (0: none).
    workers
        Process pool size for the search (default: all cores).
    scheduler
        Address of a Dask scheduler whose cluster runs the tasks of the searches and of the
        P <= 3 walk (default ``$SETLAB_SCHEDULER``; see :func:`setlab.executor.run_tasks`).

    Examples
    --------
    >>> solver = Solver(4, Store(":memory:"), workers=1)
    >>> v = solver.max(12)
    >>> v.value, v.proven, v.method
    (14, True, 'search')
    >>> solver.min(20).value, solver.max(70).value, solver.max(70).method
    (0, 695, 'complement')
    """

    def __init__(
        self,
        properties: int,
        store: Store,
        *,
        search_cards: int | None = None,
        min_search_cards: int | None = None,
        use_bounds: bool = True,
        anneal_restarts: int = DEFAULT_ANNEAL_RESTARTS,
        workers: int | None = None,
        scheduler: str | None = None,
    ) -> None:
        check_properties(properties)
        self.properties = properties
        self.size = deck_size(properties)
        self.store = store
        self.search_cards = (
            DEFAULT_SEARCH_CARDS.get(properties, 0) if search_cards is None else search_cards
        )
        self.min_search_cards = (
            DEFAULT_MIN_SEARCH_CARDS.get(properties, 0)
            if min_search_cards is None
            else min_search_cards
        )
        self.use_bounds = use_bounds
        self.anneal_restarts = anneal_restarts
        self.workers = workers
        self.scheduler = scheduler
        self.seconds: dict[tuple[Sense, int], float] = {}
        self._cap: list[int] | None = None
        self._jobs: set[str] = set()
        self._done: set[Step] = set()
        self._deferred: list[int] | None = None  # maxima whose split waits for split_bounds
        # the table's split job (P >= 5): its "wall" time and the sum of its "tasks"' own times
        self.split_seconds: dict[str, float] = {}
        self._split_guide: dict[tuple[int, int, int], int] | None = None
        self._kept_jobs: set[str] = set()  # kept jobs whose older generations are dropped

    def forget_checkpoints(self) -> None:
        """Drop the checkpoints of the searches this solver finished (their results are stored;
        searches for several n share levels, so this is left until the caller is done)."""
        for job in sorted(self._jobs):
            self.store.forget_job(job)
        self._jobs.clear()

    # -- helpers -------------------------------------------------------------------------------

    def _kept(self, job: str) -> str:
        """``job``, the name of work kept for later runs (:meth:`~setlab.store.Store.remembered`,
        the split's job), once the store has dropped the older generations it replaces
        (:meth:`~setlab.store.Store.forget_superseded`; once per solver)."""
        if job not in self._kept_jobs:
            self.store.forget_superseded(job)
            self._kept_jobs.add(job)
        return job

    def _check(self, cards: int) -> None:
        if not isinstance(cards, int) or not 0 <= cards <= self.size:
            raise SetlabError(f"cards must be between 0 and {self.size}, got {cards}")

    def get(self, sense: Sense, cards: int) -> Value:
        """What the store knows about M(n) (``"max"``) or m(n) (``"min"``)."""
        self._check(cards)
        return _value(
            self.store.get(PROBLEMS[sense], self.properties, cards),
            self.properties, cards, sense,
        )  # fmt: skip

    def _complement(self, cards: list[int]) -> list[int]:
        """The cards of the deck not in ``cards``, in order."""
        chosen = set(cards)
        return [c for c in range(self.size) if c not in chosen]

    def _witness(self, sense: Sense, cards: list[int], method: str) -> None:
        value = count_sets(cards, self.properties)
        self.store.record_witness(
            PROBLEMS[sense], self.properties, len(cards), sense, value, cards, method
        )

    def _bound(self, sense: Sense, cards: int, bound: int, proof: dict[str, Any]) -> bool:
        """Record a proven bound; True when it improves the stored one."""
        return self.store.record_bound(
            PROBLEMS[sense], self.properties, cards, sense, bound, proof, proof["method"]
        )

    def cap(self) -> list[int]:
        """The largest cap known: :func:`setlab.extremal.bigcaps.best_construction` (the known
        maxima 2, 4, 9, 20, 45, 112 for P <= 6), or :func:`cap_witness` where it finds more."""
        if self._cap is None:
            target = KNOWN_CAP_SIZES.get(self.properties, 2**self.properties)
            built = sorted(int(c) for c in indices_of(best_construction(self.properties)))
            if len(built) < target:
                built = max(built, cap_witness(self.properties, target), key=len)
            self._cap = built
        return self._cap

    def _beyond_largest_cap(self, cards: int) -> bool:
        """True when n cards must hold a set because a proof that no larger cap exists is known
        beyond the searches: AG(5,3), whose 45-cap the pencil chain proves maximal
        (:func:`setlab.extremal.caps.largest.largest_cap`, kept in the store). For P <= 4 the
        searches settle every value anyway."""
        if self.properties != 5 or cards <= len(self.cap()):
            return False
        largest = largest_cap(self.properties, store=self.store)
        return largest.proven and largest.size == len(self.cap())

    def _trivial(self, sense: Sense, cards: int) -> bool:
        """Record n <= 2 (no sets) and n = N (every line); True when it applied."""
        if 2 < cards < self.size:
            return False
        witness = list(range(cards))
        self._witness(sense, witness, "trivial")
        value = 0 if cards <= 2 else total_lines(self.properties)
        self._bound(sense, cards, value, {"method": "trivial", "argument": "n <= 2 or n = N"})
        return True

    def _exhaustive_all(self) -> None:
        """P <= 3: record every M(n), m(n) from the walk over all subsets."""
        for e in exhaustive_table(self.properties, scheduler=self.scheduler):
            proof = {"method": "exhaustive", "subsets": 2**self.size, "order": "gray code"}
            self._witness("max", e.max_witness, "exhaustive")
            self._bound("max", e.cards, e.max, dict(proof, value=e.max))
            self._witness("min", e.min_witness, "exhaustive")
            self._bound("min", e.cards, e.min, dict(proof, value=e.min))

    def known_max(self, properties: int) -> dict[int, int]:
        """Proven M(n) of AG(``properties``,3) by n, as stored (the bounds module's
        ``known_max``). The plan of a value that needs them solves them first: see :meth:`plan`."""
        return {
            r.cards: r.bound
            for r in self.store.results(PROBLEMS["max"], properties)
            if r.proven and r.bound is not None
        }

    def _sub_witnesses(self) -> dict[int, list[int]]:
        """Best known (P-1)-dimensional max witnesses by size, read as cards of the hyperplane
        x_0 = 0 (a leading digit 0 keeps every index)."""
        return {
            r.cards: r.witness
            for r in self.store.results(PROBLEMS["max"], self.properties - 1)
            if r.witness is not None
        }

    def constructions(self, cards: int) -> list[tuple[list[int], str]]:
        """Candidate max witnesses: the best (P-1)-dimensional ones embedded, and a full
        hyperplane H with (P-1)-optimal sets A, B in the two parallel hyperplanes (sets inside
        H, A, B, and all |A||B| lines through a point of A, one of B and one of H). They come
        from the stored (P-1)-dimensional witnesses (the ``("table", P - 1)`` step of a plan)."""
        sub = self._sub_witnesses()
        third = self.size // 3
        out: list[tuple[list[int], str]] = []
        if cards in sub:
            out.append((sub[cards], "embedded"))
        if third in sub and len(sub[third]) == third:
            for a in range(max(0, cards - 2 * third), min(third, cards - third) + 1):
                b = cards - third - a
                if a in sub and b in sub:
                    slice_a = [c + third for c in sub[a]]
                    slice_b = [c + 2 * third for c in sub[b]]
                    out.append((sub[third] + slice_a + slice_b, f"hyperplane+{a}+{b}"))
        return out

    def _extend_greedily(self, cards: int) -> tuple[list[int], str] | None:
        """The witness for n-1 plus the card completing most sets with it (the first such card:
        adding z creates as many sets as pairs of the witness have third card z)."""
        previous = self.get("max", cards - 1).witness
        if not previous or len(previous) != cards - 1:
            return None
        s = np.asarray(previous, dtype=np.int64)
        gain = pair_completions(s, third_card_table(self.properties))
        gain[s] = -1
        return sorted([*previous, int(np.argmax(gain))]), "greedy extension"

    # -- the plan: which steps a value needs, in order ------------------------------------------

    def _needs_sub_table(self) -> bool:
        """True when the (P-1)-dimensional table must be solved first: its witnesses feed the
        constructions and its proven maxima the slice bounds. Setlab proves the whole table for
        P - 1 <= 4 (P - 1 = 4 in about 100 s), so it is solved when any value is missing."""
        below = self.properties - 1
        if not 3 <= below <= 4:
            return False
        proven = sum(r.proven for r in self.store.results(PROBLEMS["max"], below))
        return proven < deck_size(below) + 1

    def _settled(self, sense: Sense, cards: int) -> bool:
        """True when M(n) or m(n) needs no other value: proven already, P <= 3 (one exhaustive
        walk), n <= 2 or n = N, or a cap of n cards (min) or of N - n cards (max) is known."""
        if self.properties <= 3 or not 2 < cards < self.size or self.get(sense, cards).proven:
            return True
        other = cards if sense == "min" else self.size - cards
        return other <= len(self.cap())

    def _prerequisites(self, step: Step) -> list[Step]:
        """The steps that must run before ``step``, in order (see :data:`Step`).

        ``("max", n)``: M(n)'s witnesses and deletion bound (``"max-start"``), and m(N-n) when
        the min search covers N - n (its search starts from that bound, and M(n) is read off it
        by the complement identity). ``("min", n)``: M(N-n) when the min search does not cover
        n (m(n) is read off it). Both need the (P-1)-dimensional table for the constructions and
        the slice bounds. The arrows run max -> min only where N - n <= ``min_search_cards``
        and min -> max only where n > ``min_search_cards``, so no value needs itself.
        """
        kind, cards = step
        if kind in ("table", "max-start") or self._settled(kind, cards):
            return []
        table: list[Step] = [("table", self.properties - 1)] if self._needs_sub_table() else []
        if kind == "max":
            other: list[Step] = (
                [("min", self.size - cards)] if self.size - cards <= self.min_search_cards else []
            )
            return [*table, ("max-start", cards), *other]
        if cards <= self.min_search_cards:
            return table
        return [("max", self.size - cards)]

    def plan(self, sense: Sense, cards: int) -> list[Step]:
        """The steps that solve M(n) (``"max"``) or m(n) (``"min"``), prerequisites first, each
        once, leaving out what this solver has done already.

        The dependency graph is acyclic (see :meth:`_prerequisites`), so a depth-first walk over
        it lists every step after the steps it needs; the solver then runs them in this order,
        each reading what it needs from the store.

        Examples
        --------
        >>> solver = Solver(4, Store(":memory:"), workers=1)
        >>> solver.plan("max", 50)
        [('table', 3), ('max-start', 50), ('min', 31), ('max', 50)]
        >>> solver.plan("min", 40)
        [('table', 3), ('max-start', 41), ('max', 41), ('min', 40)]
        >>> solver.plan("min", 12), solver.plan("max", 70)
        ([('min', 12)], [('max', 70)])
        """
        self._check(cards)
        order: list[Step] = []
        waiting: set[Step] = set()  # listed once the steps they need are
        pending: list[tuple[Step, bool]] = [((sense, cards), False)]
        while pending:  # depth-first, post-order
            step, expanded = pending.pop()
            if step in order or step in self._done:
                continue
            if expanded:
                waiting.discard(step)
                order.append(step)
                continue
            if step in waiting:  # cannot happen while the arrows run as documented
                raise SetlabError(f"the solver's plan needs {step} before itself")
            waiting.add(step)
            pending.append((step, True))
            pending.extend((need, False) for need in reversed(self._prerequisites(step)))
        return order

    # -- the two problems ----------------------------------------------------------------------

    def max(self, cards: int) -> Value:
        """M(n): best witness and proven upper bound, computing what is missing."""
        return self._solve("max", cards)

    def min(self, cards: int) -> Value:
        """m(n): best witness and proven lower bound, computing what is missing."""
        return self._solve("min", cards)

    def _solve(self, sense: Sense, cards: int) -> Value:
        """Run the steps of :meth:`plan` once per solver: a later call (the other problem asking
        for this value) reads the store, so an open value is not searched for again.

        :attr:`seconds` of the value asked for is the time of its whole plan (the values it
        needed first included); a value solved on the way gets the time of its own steps.
        """
        steps = self.plan(sense, cards)
        started = time.perf_counter()
        for step in steps:
            began = time.perf_counter()
            self._run(step)
            self._done.add(step)
            kind, n = step
            if kind != "table":
                value: tuple[Sense, int] = ("min" if kind == "min" else "max", n)
                self.seconds[value] = self.seconds.get(value, 0.0) + time.perf_counter() - began
        if steps:  # the last step solved this value
            self.seconds[sense, cards] = time.perf_counter() - started
        return self.get(sense, cards)

    def _run(self, step: Step) -> None:
        kind, cards = step
        if kind == "table":
            self._sub_table(cards)
        elif kind == "max-start":
            self._max_start(cards)
        elif kind == "max":
            self._max(cards)
        else:
            self._min(cards)

    def _sub_table(self, properties: int) -> None:
        """Solve and store every M(n), m(n) of AG(``properties``,3), with a progress bar."""
        Solver(properties, self.store, workers=self.workers, scheduler=self.scheduler).table(
            f"AG({properties},3) first (AG({self.properties},3) rests on it)"
        )

    def _max_witnesses(self, cards: int) -> None:
        """Record the constructions, the greedy extension, the first n cards (a prefix of
        nested flats: a witness even on an empty store) and any recorded witness
        (:func:`recorded_witnesses`) as max witnesses; :meth:`_witness` re-counts each."""
        candidates = [*self.constructions(cards), (list(range(cards)), "first cards")]
        recorded = recorded_witnesses(self.properties).get(cards)
        if recorded is not None:
            candidates.append((recorded, "recorded witness"))
        greedy = self._extend_greedily(cards)
        if greedy is not None:
            candidates.append(greedy)
        for witness, method in candidates:
            self._witness("max", witness, method)

    def _max_start(self, cards: int) -> None:
        """M(n)'s witnesses, and its deletion bound if M(n-1) is bounded in the store."""
        self._max_witnesses(cards)
        self._max_deletion(cards)

    def _max_deletion(self, cards: int) -> bool:
        """M(n) from a stored bound on M(n-1) by :func:`deletion_bound`; True when it improves
        the stored bound of M(n)."""
        previous = self.get("max", cards - 1)
        if previous.bound is None:
            return False
        bound = deletion_bound(cards, previous.bound)
        return self._bound("max", cards, bound, {"method": "deletion", "previous": previous.bound})

    def _max(self, cards: int) -> None:
        """M(n) once its prerequisites are stored: exhaustive (P <= 3), trivial, the complement
        of a cap, or m(N-n) by the complement identity; then the search or the bounds module."""
        if self.get("max", cards).proven:
            return
        if self.properties <= 3:
            return self._exhaustive_all()
        if self._trivial("max", cards):
            return
        if self.size - cards <= len(self.cap()):  # complement of a cap: m(N-n) = 0
            cap = self.cap()[: self.size - cards]
            self._witness("max", self._complement(cap), "complement of cap")
            return self._max_from_min(cards, 0)
        if self._beyond_largest_cap(self.size - cards):  # m(N-n) >= 1
            self._max_from_min(cards, 1)
        if self.size - cards <= self.min_search_cards:  # M(n) from m(N-n) by the identity
            low = self.get("min", self.size - cards)
            if low.witness is not None:
                self._witness("max", self._complement(low.witness), "complement")
            if low.bound is not None:
                self._max_from_min(cards, low.bound)
        current = self.get("max", cards)
        if current.proven:
            return
        value = current.value if current.value is not None else 0
        if cards <= self.search_cards:
            self._search("max", cards, value + 1)
            return
        if self.use_bounds:  # counting identities over parallel classes, near-caps
            self._slice_bound(cards)
            self._split(cards)

    def _slice_bound(self, cards: int) -> None:
        """M(n) <= the slice programs' bound (:func:`~setlab.extremal.bounds.max_upper_bound`),
        kept in the store under the code version and the (P-1)-dimensional table it read, so a
        later table records it again instead of solving the programs again (an open n of
        AG(5,3) takes seconds to a minute)."""
        known = self.known_max(self.properties - 1)
        digest = job_digest(sorted(known.items()))
        job = self._kept(f"bounds-v{BOUNDS_VERSION}/P{self.properties}/{digest}")
        bound, record = self.store.remembered(
            job, str(cards), lambda: max_upper_bound(self.properties, cards, known)
        )
        if record is not None:
            self._bound("max", cards, bound, {"method": "bounds", "record": record})

    def _split(self, cards: int) -> None:
        """The big-slice split (:mod:`setlab.extremal.split`) for a maximum the slice program
        leaves open, P >= 5 (for P <= 4 the searches and the programs settle every value)."""
        current = self.get("max", cards)
        if self.properties < 5 or current.proven or current.value is None:
            return
        if self._deferred is not None:  # the table runs the splits side by side, later
            self._deferred.append(cards)
            return
        ranges = {cards: (current.value, current.bound)}
        known_max, known_below = self._split_tables()
        payload = split_bounds(
            self.properties, ranges, known_max, known_below, self.store, workers=1,
            guide=self._guide(),
        )[cards]  # fmt: skip
        if payload["record"] is not None:
            record = payload["record"]
            self._bound("max", cards, payload["bound"], {"method": "split", "record": record})

    def _split_tables(self) -> tuple[dict[int, int], dict[int, int]]:
        """The proven M_{P-1} and M_{P-2} the split reads; the older generations of the split's
        kept jobs (:func:`~setlab.extremal.split.split_jobs`) are dropped first."""
        known_max, known_below = (self.known_max(self.properties - k) for k in (1, 2))
        for job in split_jobs(self.properties, known_max, known_below):
            self._kept(job)
        return known_max, known_below

    def _split_deferred(self) -> None:
        """The splits the maxima of the table deferred, as one job of tasks side by side
        (:func:`~setlab.extremal.split.split_bounds`: a local pool or a Dask cluster, each task
        checkpointed), each bound recorded; then the deletion bounds above them are renewed
        (M(162) of AG(5,3) follows from M(161) so)."""
        deferred, self._deferred = self._deferred or [], None
        ranges = {}
        for n in deferred:
            current = self.get("max", n)
            if not current.proven and current.value is not None and current.bound is not None:
                ranges[n] = (current.value, current.bound)
        if not ranges:
            return
        known_max, known_below = self._split_tables()
        started = time.perf_counter()
        found = split_bounds(
            self.properties, ranges, known_max, known_below, self.store,
            workers=self.workers, scheduler=self.scheduler, guide=self._guide(),
        )  # fmt: skip
        self.split_seconds = {
            "wall": time.perf_counter() - started,
            "tasks": sum(payload["seconds"] for payload in found.values()),
        }
        for n, payload in found.items():
            record = payload["record"]
            if record is not None:
                self._bound("max", n, payload["bound"], {"method": "split", "record": record})
            self.seconds["max", n] = self.seconds.get(("max", n), 0.0) + payload["seconds"]
        for n in range(min(ranges) + 1, self.size + 1):
            if not self.get("max", n).proven:
                self._max_deletion(n)

    def _guide(self) -> dict[tuple[int, int, int], int] | None:
        """Split maxima of AG(P-1,3) found by annealing, which tell the split where exhaustive
        bounds on them may pay (:func:`~setlab.extremal.splitmax.split_maxima_found`): for P = 5,
        every split of at least :data:`GUIDE_CARDS` points, found once per store (about 40 s)."""
        if self.properties != 5:
            return None
        if self._split_guide is None:
            job = self._kept(f"split-guide-v{LOCAL_SEARCH_VERSION}/AG({self.properties - 1},3)")
            rows = self.store.remembered(job, str(GUIDE_CARDS), lambda: [
                [*split, found]
                for split, found in split_maxima_found(self.properties - 2, GUIDE_CARDS).items()
            ])  # fmt: skip
            self._split_guide = {(a, b, c): found for a, b, c, found in rows}
        return self._split_guide

    def _max_from_min(self, cards: int, min_bound: int) -> None:
        """M(n) <= identity - m(N-n) <= identity - min_bound."""
        identity = complement_sum(self.properties, cards)
        proof = {"method": "complement", "identity": identity, "min_bound": min_bound}
        self._bound("max", cards, identity - min_bound, proof)

    def _search(self, sense: Sense, cards: int, threshold: int) -> None:
        """Run the pruned search for ``threshold`` and record what it proves and finds: every
        orbit passing the threshold is found, so the extreme one found is exact, and finding
        none proves the bound one step back."""
        result = search(
            self.properties,
            cards,
            sense,
            threshold,
            self.store,
            workers=self.workers,
            scheduler=self.scheduler,
        )
        self._jobs.update(
            job_name(self.properties, sense, result.thresholds, k) for k in range(1, cards + 1)
        )
        if result.witness is not None:
            self._witness(sense, result.witness, "search")
        step = 1 if sense == "max" else -1
        bound = threshold - step if result.best is None else result.best
        self._bound(sense, cards, bound, result.record())

    def _min(self, cards: int) -> None:
        """m(n) once its prerequisites are stored: exhaustive, trivial, a cap, M(N-n) by the
        complement identity, then the min search or the annealed search for a witness."""
        if self.get("min", cards).proven:
            return
        if self.properties <= 3:
            return self._exhaustive_all()
        if self._trivial("min", cards):
            return
        cap = self.cap()
        if cards <= len(cap):
            self._witness("min", cap[:cards], "cap")
            self._bound("min", cards, 0, {"method": "trivial", "argument": "counts are >= 0"})
            return
        self._bound("min", cards, 0, {"method": "trivial", "argument": "counts are >= 0"})
        if self._beyond_largest_cap(cards):
            self._bound("min", cards, 1, {"method": "no cap", "largest_cap": len(self.cap())})
            if cards == len(self.cap()) + 1:
                self._one_set(cards)
        identity = complement_sum(self.properties, cards)
        searching = cards <= self.min_search_cards
        if searching:  # only the witnesses of M(N-n): its bound comes from this minimum
            self._max_witnesses(self.size - cards)
            other = self.get("max", self.size - cards)
        else:  # M(N-n) is a prerequisite: solved already
            other = self.get("max", self.size - cards)
        if other.witness is not None:
            self._witness("min", self._complement(other.witness), "complement")
        if other.bound is not None and identity - other.bound > 0:
            proof = {"method": "complement", "identity": identity, "max_bound": other.bound}
            self._bound("min", cards, identity - other.bound, proof)
        self._min_deletion(cards)
        current = self.get("min", cards)
        if searching and not current.proven and current.value:
            self._search("min", cards, current.value - 1)
        current = self.get("min", cards)
        if not current.proven and self.anneal_restarts:
            self._anneal_min(cards, current.bound)

    def _one_set(self, cards: int) -> None:
        """m(n) >= 2 when no n cards hold exactly one set (n one above the largest cap, which
        gives m(n) >= 1): the fibre split's cases (:func:`~setlab.extremal.oneset.refute_one_set`,
        P = 5: 3,040 cases, a few minutes; kept in the store, so a second table reads them). A
        satisfiable case would be a board with exactly one set: a witness of m(n) = 1. M(N-n),
        a prerequisite of m(n), is bounded again by the complement identity.

        A stored bound of 2 or more stands: the split proves no more, so it is not run again
        (listing its cases alone, to read their checkpoints, takes P = 5 some 20 s), unless the
        bound is the split's own from another version of its cases: then it runs, so that the
        checkpoints of this version, which ``setlab verify`` checks, are there."""
        stored = self.store.get(PROBLEMS["min"], self.properties, cards)
        if stored is not None and stored.bound is not None and stored.bound >= 2:
            proof = stored.proof or {}
            if proof.get("method") != "one set" or proof.get("job") == one_set_job(
                self.properties, cards
            ):
                return
        result = refute_one_set(
            self.properties, cards, self.store, workers=self.workers, scheduler=self.scheduler
        )
        self._kept(result.job)
        if result.board is not None:
            self._witness("min", result.board, "one set")
        elif result.all_refuted:
            proof = {"method": "one set", "job": result.job, "cases": result.cases,
                     "largest_cap": len(self.cap()), "lemmas": result.lemmas}  # fmt: skip
            if self._bound("min", cards, 2, proof):  # M(N-n) was solved before m(n)
                self._max_from_min(self.size - cards, 2)

    def _min_deletion(self, cards: int) -> None:
        """m(n) from a stored m(n-1) > 0 by :func:`deletion_bound`, and through the complement
        identity M(N-n) from it (just above the largest cap of AG(5,3), m(46) >= 1 gives m(47)
        >= 2 and so on, each one set below M(N-n)'s bound otherwise)."""
        previous = self.get("min", cards - 1)
        if previous.bound is None or previous.bound <= 0:
            return
        chain = deletion_bound(cards, previous.bound, "min")
        if self._bound("min", cards, chain, {"method": "deletion", "previous": previous.bound}):
            self._max_from_min(self.size - cards, chain)

    def _anneal_min(self, cards: int, bound: int | None) -> None:
        """A better witness for an open m(n) by the annealed swap search, and its complement for
        M(N-n). (For maxima the constructions were never beaten; for minima above the largest
        cap the search does better: P = 5, n = 46..80.) Seeded, so the same arguments give the
        same run: the store keeps what it found and a later table records that again."""
        job = self._kept(f"anneal-min-v{LOCAL_SEARCH_VERSION}/P{self.properties}")
        task = f"{cards}/{self.anneal_restarts}/{bound}"
        witness, method = self.store.remembered(job, task, lambda: self._annealed_min(cards, bound))
        self._witness("min", witness, method)
        self._witness("max", self._complement(witness), "complement")

    def _annealed_min(self, cards: int, bound: int | None) -> tuple[list[int], str]:
        """The annealed swap search's witness and method for m(n), seed 0."""
        found = local_search(
            self.properties, cards, "min", seconds=None, restarts=self.anneal_restarts, seed=0,
            target=bound,
        )  # fmt: skip
        return [int(card) for card in found.witness], found.method

    def table(self, description: str | None = None) -> list[dict[str, Any]]:
        """Every n = 0..N: max, min, proven flags, methods and seconds (the CLI's ``--table``).

        Max values first in increasing n (each deletion bound uses the previous one), then the
        minima, mostly by the complement identity. A row's seconds are the time of its calls,
        including values they needed first (M(48) runs the min search for m(33) for P = 4).
        A progress bar on stderr (labelled ``description``) counts the values.
        """
        values = [(sense, n) for sense in ("max", "min") for n in range(self.size + 1)]
        bar = tqdm(
            values,
            desc=description or f"M(n), m(n) of AG({self.properties},3)",
            unit="value",
            file=sys.stderr,
            disable=None,  # silent when stderr is not a terminal
            leave=False,
        )
        self._deferred = [] if self.properties >= 5 else None
        try:
            for sense, n in bar:
                if sense == "min" and self._deferred is not None:
                    self._split_deferred()
                self._solve(sense, n)
        finally:
            self._deferred = None
        self.forget_checkpoints()
        rows = []
        for n in range(self.size + 1):
            high, low = self.get("max", n), self.get("min", n)
            rows.append(
                {
                    "properties": self.properties,
                    "cards": n,
                    "max": high.value,
                    "max_bound": high.bound,
                    "max_proven": high.proven,
                    "max_method": high.method,
                    "min": low.value,
                    "min_bound": low.bound,
                    "min_proven": low.proven,
                    "min_method": low.method,
                    "seconds": round(
                        self.seconds.get(("max", n), 0.0) + self.seconds.get(("min", n), 0.0), 3
                    ),
                }
            )
        return rows
