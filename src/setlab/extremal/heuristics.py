"""Heuristic configurations of n cards with many (or few) sets: CMM and local search.

For a configuration S of AG(P,3) let c_S(z) be the number of pairs {a, b} of S with third card
-(a + b) = z. Adding a card z to S creates exactly c_S(z) new sets, and swapping x in S for y not
in S changes the number of sets by c_S(y) - c_S(x) - [-(x + y) in S] (the one pair {x, -(x+y)}
that y completed is broken). Both heuristics keep c_S up to date in O(|S|) per card moved.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numba as nb
import numpy as np

from setlab.cards import check_properties, deck_size
from setlab.errors import SetlabError
from setlab.extremal.identities import degree_bound
from setlab.find import count_sets
from setlab.geometry import third_card_table
from setlab.kernels import add_card, pair_completions, remove_card, sets_of_completions, split_deck
from setlab.store import PROBLEMS, Sense, Store

__all__ = [
    "CUBE_SIZE",
    "LOCAL_SEARCH_VERSION",
    "AnnealResult",
    "NestedConfigurations",
    "cmm",
    "counting_bound",
    "default_iterations",
    "local_search",
    "record_cmm",
    "record_search",
]

CUBE_SIZE = 9
"""Cards per cube: a cube is the 2-flat of the 9 cards sharing their first P - 2 digits."""

LOCAL_SEARCH_VERSION = 1
"""Bumped whenever :func:`local_search` (or the runs of it that
:func:`~setlab.extremal.splitmax.split_maxima_found` makes) may find something else for the
same arguments: it names what a store keeps of those runs (the annealed minima and the split
guide of :mod:`setlab.extremal.maxsets`), which later tables read instead of annealing again."""


# -- the consecutive-maximization method ---------------------------------------------------------


@nb.njit(cache=True)
def _first_available(cube, selected):  # pragma: no cover - compiled
    """The lowest-index card of ``cube`` not yet selected, or -1."""
    for card in range(cube * CUBE_SIZE, (cube + 1) * CUBE_SIZE):
        if not selected[card]:
            return card
    return -1


@nb.njit(cache=True)
def _cmm_kernel(third, properties):  # pragma: no cover - compiled
    """Algorithm 1 of Stevens & Wilson with incremental pair counts; see :func:`cmm`.

    Invariant: ``completes[z]`` is the number of pairs of selected cards whose third card is z,
    so CountNewSets(selected + {z}) of the paper is 3 * (sets so far + completes[z]) and the
    paper's argmax over CountNewSets is the argmax over ``completes``.
    """
    n = third.shape[0]
    cubes = n // CUBE_SIZE
    order = np.empty(n, dtype=np.int64)
    sets = np.zeros(n + 1, dtype=np.int64)
    selected = np.zeros(n, dtype=np.bool_)
    completes = np.zeros(n, dtype=np.int64)
    for turn in range(1, n + 1):  # the paper's turns are 1-based: turn k selects card k
        if turn == 1:
            card = _first_available(0, selected)
        elif turn == 2:  # cubes[2]; P = 2 has one cube, so the first available card of it
            card = _first_available(1 if cubes > 1 else 0, selected)
        elif turn == 3:
            card = np.int64(third[order[0], order[1]])
        else:
            card = -1
            if (turn - 1) % 3 == 0 and (turn - 1) // 3 <= properties - 1:  # turn = 3t + 1
                for cube in range(cubes):  # SelectFromUnusedCube
                    unused = True
                    for c in range(cube * CUBE_SIZE, (cube + 1) * CUBE_SIZE):
                        if selected[c]:
                            unused = False
                            break
                    if unused:
                        card = cube * CUBE_SIZE
                        break
            if card < 0:  # a greedy turn (also when every cube is in use)
                best = -1
                last_cube = order[turn - 2] // CUBE_SIZE
                for c in range(n):  # deck order: lines 18-26 of Algorithm 1
                    if selected[c]:
                        continue
                    more = best < 0 or completes[c] > completes[best]
                    if more or (  # "prefer different cube": a later tie elsewhere wins
                        completes[c] == completes[best] and c // CUBE_SIZE != last_cube
                    ):
                        best = c
                card = best
        sets[turn] = sets[turn - 1] + add_card(completes, order[: turn - 1], card, third)
        order[turn - 1] = card
        selected[card] = True
    return order, sets


@dataclass(frozen=True)
class NestedConfigurations:
    """Cards in the order a heuristic selects them: the first n cards are its n-card configuration.

    ``sets[n]`` is the number of sets among ``order[:n]`` (``sets[0] = 0``).
    """

    properties: int
    order: np.ndarray
    sets: np.ndarray

    def witness(self, cards: int) -> list[int]:
        """The configuration of ``cards`` cards (card indices in selection order)."""
        return [int(c) for c in self.order[:cards]]


def cmm(properties: int) -> NestedConfigurations:
    """The consecutive-maximization method (CMM) for every n = 1 .. 3^P at once.

    Faithful to Algorithms 1 and 2 of the seed paper. Where the pseudocode is silent:

    - *cubes* are the 3^(P-2) 2-flats obtained by fixing the first P - 2 digits, in index
      order (cube of card x is x // 9); "first available card" of a cube is its lowest-index
      unselected card. For P = 2 there is one cube, and card 2 is its first available card.
    - turns are 1-based; at turns 3t + 1 with 1 <= t <= P - 1 the first available card of the
      first cube without a selected card is taken. When every cube is in use (P = 2, 3) the turn
      is a greedy one instead (the pseudocode would select nothing).
    - a greedy turn scans the unselected cards in index order: a card completing strictly more
      selected pairs replaces the best; a card completing equally many replaces it iff its cube
      differs from the cube of the last selected card (lines 20-24, so the *last* such tie wins).

    Examples
    --------
    >>> result = cmm(3)
    >>> result.sets[[9, 18, 27]].tolist()
    [12, 35, 117]

    References
    ----------
    J. Stevens and D. Wilson, The Maximum Number of Sets for 12 Cards is 14 (2025), appendix A;
    J. Vinci, The maximum number of sets for N cards ... (2009).
    """
    check_properties(properties)
    if not 2 <= properties <= 6:
        raise SetlabError(f"CMM is built for 2 <= P <= 6, got P = {properties}")
    order, sets = _cmm_kernel(third_card_table(properties), properties)
    return NestedConfigurations(properties, order, sets)


# -- local search --------------------------------------------------------------------------------


@nb.njit(cache=True)
def _seed_numba(seed):  # pragma: no cover - compiled
    np.random.seed(seed)


@nb.njit(cache=True)
def _anneal(third, start, iterations, t_start, t_end, sign, block):  # pragma: no cover - compiled
    """Simulated annealing over one-card swaps from ``start``; return (best count, best cards).

    ``sign`` is +1 to maximise the number of sets, -1 to minimise it. A swap x -> y keeps y in
    the block of x (``block[c]`` for card c; all zeros: any swap), so the number of cards in
    each block never changes; y is drawn uniformly among the free cards of that block by
    rejection, which with a single block takes the first draw. Invariants after every
    accepted swap: ``members`` holds S, ``outside`` the rest of the deck, ``inside`` is the
    indicator of S, ``completes[z]`` the number of pairs of S with third card z, ``sets`` the
    number of sets of S. A proposed swap x -> y changes ``sets`` by
    completes[y] - completes[x] - inside[third[x, y]] (evaluated in O(1)).
    """
    n_deck = third.shape[0]
    n = start.shape[0]
    members = start.copy()
    inside, outside = split_deck(members, n_deck)
    free = np.zeros(block.max() + 1, dtype=np.int64)  # per block: constant under the swaps
    for z in outside:
        free[block[z]] += 1
    completes = pair_completions(members, third)
    sets = sets_of_completions(members, completes)
    best = sets
    best_members = members.copy()
    if n == 0 or n == n_deck:
        return best, best_members
    cooling = (t_end / t_start) ** (1.0 / max(iterations, 1))
    temperature = t_start
    for _ in range(iterations):
        temperature *= cooling
        i = np.random.randint(n)
        x = members[i]
        if free[block[x]] == 0:
            continue
        j = np.random.randint(n_deck - n)
        while block[outside[j]] != block[x]:
            j = np.random.randint(n_deck - n)
        y = outside[j]
        delta = completes[y] - completes[x] - (1 if inside[third[x, y]] else 0)
        gain = sign * delta
        if gain < 0 and np.random.random() >= math.exp(gain / temperature):
            continue
        inside[x] = False
        # Move x to the last slot so members[:n - 1] is S - {x}; the pairs {a, x} leave, the
        # pairs {a, y} enter; y takes the slot of x, keeping the order of members (which the
        # random proposals index) as it was.
        members[i], members[n - 1] = members[n - 1], x
        remove_card(completes, members[: n - 1], x, third)
        add_card(completes, members[: n - 1], y, third)
        members[n - 1] = members[i]
        members[i] = y
        inside[y] = True
        outside[j] = x
        sets += delta
        if sign * sets > sign * best:
            best = sets
            best_members[:] = members
    return best, best_members


@dataclass(frozen=True)
class AnnealResult:
    """The best configuration the annealed local search found, and how it was found."""

    properties: int
    cards: int
    sense: Sense
    sets: int
    witness: list[int]
    seed: int
    restarts: int
    seconds: float
    budget: float | None
    cells: tuple[int, ...] | None = None
    """The cell sizes the search kept (``local_search(cells=...)``), or None."""

    @property
    def method(self) -> str:
        """The witness method recorded in the store: seed and time budget (or restarts run),
        and the cell sizes where the search kept them."""
        kept = "" if self.cells is None else ", cells=" + "/".join(map(str, self.cells))
        if self.budget is None:
            return f"local-search(seed={self.seed}, restarts={self.restarts}{kept})"
        return f"local-search(seed={self.seed}, seconds={self.budget:g}{kept})"


def counting_bound(properties: int, cards: int, sense: Sense) -> int:
    """The bound no configuration can pass: 0 for the minimum; for the maximum
    :func:`setlab.extremal.identities.degree_bound`, with N = 3^P and m = N - n,
    min(n floor((n-1)/2) // 3, N(N-1)/6 - nm/2).

    The first holds as a card of S lies in at most floor((n-1)/2) sets of S (the other cards
    pair up around it; :func:`~setlab.extremal.identities.pair_bound`), the second as
    sets(S) = N(N-1)/6 - nm/2 - sets(complement) (count the lines by how many cards of S they
    hold; :func:`~setlab.extremal.identities.complement_sum`). The second is attained when the
    complement can be a cap; the first, for instance, by a flat of 3, 9 or 27 cards.

    Examples
    --------
    >>> counting_bound(4, 61, "max"), counting_bound(3, 18, "max"), counting_bound(4, 30, "min")
    (470, 36, 0)
    >>> counting_bound(3, 8, "max")  # 8 cards: each on at most 3 sets, so at most 8 sets
    8
    """
    if sense == "min":
        return 0
    return degree_bound(properties, cards)


def default_iterations(properties: int) -> int:
    """Swaps proposed per annealing restart: 400 per card of the deck, at least 20 000.

    Examples
    --------
    >>> default_iterations(3), default_iterations(4), default_iterations(5)
    (20000, 32400, 97200)
    """
    return max(20_000, 400 * deck_size(properties))


def local_search(
    properties: int,
    cards: int,
    sense: Sense = "max",
    *,
    seconds: float | None = 2.0,
    restarts: int | None = None,
    seed: int = 0,
    iterations: int | None = None,
    target: int | None = None,
    cells: Sequence[int] | None = None,
) -> AnnealResult:
    """Best configuration of ``cards`` cards for the number of sets, by annealed card swaps.

    Restart r anneals from temperature 2 down to 0.05 over ``iterations`` proposed swaps; for
    ``sense="max"`` restart 0 starts from CMM's configuration (P >= 2), every other restart from
    uniformly random cards. Restarts run until ``restarts`` are done or ``seconds`` have passed
    (at least one runs; loading the compiled kernels is not counted), or ``target`` sets (by
    default :func:`counting_bound`, which proves optimality) are reached. Restart r is a
    function of (seed, r) only, so a fixed ``seed`` and ``restarts`` reproduce the same result
    on any machine.

    With ``cells`` (3^k sizes, 1 <= k <= P) the search keeps how many cards lie in each cell,
    a cell being the (P-k)-flat of the cards that share their first k digits, cell number = those
    digits read in base 3: ``cells[c]`` cards lie in cell c throughout (every restart starts
    from random cards of each cell, and a swap stays inside a cell). Three sizes fix a split of
    the configuration over the parallel hyperplanes x_0 = 0, 1, 2; nine fix a pattern of the
    big-slice split (:mod:`setlab.extremal.split`, cell 3i + j: first digits i, j). A
    configuration found this way is an ordinary witness; the largest count found beside a
    bound for the pattern (:func:`~setlab.extremal.split.pencil_bound`) says whether that bound
    or the witness is weak.

    Examples
    --------
    >>> local_search(3, 18, restarts=4, seconds=None, seed=1).sets
    36
    >>> row = local_search(3, 12, restarts=2, seconds=None, cells=[3, 3, 3, 3, 0, 0, 0, 0, 0])
    >>> spread = local_search(3, 12, restarts=2, seconds=None, cells=[3, 3, 3, 2, 0, 0, 1, 0, 0])
    >>> row.sets, spread.sets  # a full plane (row 0) with a line beside it, or 2 + 1 cards
    (13, 14)
    """
    check_properties(properties)
    if properties > 6:
        raise SetlabError(f"the local search is built for P <= 6, got P = {properties}")
    n_deck = deck_size(properties)
    if not 0 <= cards <= n_deck:
        raise SetlabError(f"a configuration of AG({properties},3) has 0..{n_deck} cards")
    if sense not in ("max", "min"):
        raise SetlabError(f"sense is 'max' or 'min', got {sense!r}")
    if seconds is None and restarts is None:
        raise SetlabError("give a time budget (seconds) or a number of restarts")
    if (seconds is not None and not 0 < seconds < math.inf) or (
        restarts is not None and restarts < 1
    ):
        raise SetlabError("the budget must be positive and finite")
    if seed < 0:
        raise SetlabError(f"the seed is a non-negative integer, got {seed}")
    cell = n_deck
    if cells is not None:
        cells = tuple(int(s) for s in cells)
        cell = n_deck // max(len(cells), 1)  # the cards of one cell
        if len(cells) not in (3**k for k in range(1, properties + 1)) or not all(
            0 <= s <= cell for s in cells
        ):
            raise SetlabError(
                f"cells are 3^k sizes of 0..3^(P-k) cards, 1 <= k <= P = {properties}, got {cells}"
            )
        if sum(cells) != cards:
            raise SetlabError(f"the cells hold {sum(cells)} cards, not {cards}")
        block = np.arange(n_deck, dtype=np.int64) // cell
    else:
        block = np.zeros(n_deck, dtype=np.int64)
    sign = 1 if sense == "max" else -1
    steps = default_iterations(properties) if iterations is None else iterations
    third = third_card_table(properties)
    greedy = None
    if sense == "max" and properties >= 2 and cells is None:
        greedy = cmm(properties).order[:cards].copy()
    goal = counting_bound(properties, cards, sense) if target is None else target
    _anneal(third, np.zeros(0, dtype=np.int64), 0, 2.0, 0.05, sign, block)  # load kernels first
    started = time.perf_counter()
    best, best_cards, done = -sign * 10**9, np.zeros(0, dtype=np.int64), 0
    while True:
        rng = np.random.default_rng([seed, done])
        if done == 0 and greedy is not None:
            start = greedy
        elif cells is not None:
            start = np.concatenate(
                [c * cell + rng.choice(cell, size=s, replace=False) for c, s in enumerate(cells)]
            ).astype(np.int64)
        else:
            start = np.sort(rng.choice(n_deck, size=cards, replace=False)).astype(np.int64)
        _seed_numba(int(rng.integers(2**31)))
        value, found = _anneal(third, start, steps, 2.0, 0.05, sign, block)
        done += 1
        if sign * value > sign * best:
            best, best_cards = int(value), np.sort(found)
        if restarts is not None and done >= restarts:
            break
        if seconds is not None and time.perf_counter() - started >= seconds:
            break
        if sign * best >= sign * goal:
            break
    witness = [int(c) for c in best_cards]
    if count_sets(witness, properties) != best:  # the incremental counts are an invariant
        raise AssertionError("local search lost track of its set count")
    elapsed = time.perf_counter() - started
    return AnnealResult(
        properties, cards, sense, best, witness, seed, done, elapsed, seconds, cells
    )


# -- the results store ---------------------------------------------------------------------------


def record_cmm(store: Store, result: NestedConfigurations) -> int:
    """Store every CMM configuration as a max witness; return how many improved the store.

    Examples
    --------
    >>> store = Store(":memory:")
    >>> record_cmm(store, cmm(2)), record_cmm(store, cmm(2))  # n = 1..9; then nothing new
    (9, 0)
    >>> store.get("maxsets", 2, 9).value  # the whole plane
    12
    """
    improved = 0
    for n in range(1, len(result.order) + 1):
        improved += store.record_witness(
            PROBLEMS["max"], result.properties, n, "max", int(result.sets[n]), result.witness(n),
            "cmm",
        )  # fmt: skip
    return improved


def record_search(store: Store, result: AnnealResult) -> bool:
    """Store a search's configuration as a max or min witness; True if it improved the store.

    Examples
    --------
    >>> store = Store(":memory:")
    >>> result = local_search(2, 5, "min", restarts=2, seconds=None, seed=0)
    >>> record_search(store, result), record_search(store, result), result.sets
    (True, False, 1)
    """
    return store.record_witness(
        PROBLEMS[result.sense],
        result.properties,
        result.cards,
        result.sense,
        result.sets,
        result.witness,
        result.method,
    )
