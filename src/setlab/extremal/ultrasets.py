"""The most UltraSets among n cards of F_3^P: exact by isomorph-free classes, else bounded.

An UltraSet is four distinct cards with a + b = c + d; two pairs with one sum are disjoint, so
with r_s the number of pairs of S summing to s, S holds U(S) = sum_s C(r_s, 2) UltraSets. The
UltraSets of the deck form a 2-design (every pair lies on 3(N - 3)/2 of them, a triple on 3 or,
when it is a set, none), which ties S to its complement T (:func:`complement_count`). Exact
values come from every AGL(P,3)-class of k-card collections (:func:`setlab.extremal.search.
generate_levels` with no pruning), counted directly for n = k and through the complement for
n = N - k; elsewhere a witness from annealing and the pair-sum bound (:func:`pair_sum_bound`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numba as nb
import numpy as np

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.extremal.search import generate_levels
from setlab.kernels import split_deck
from setlab.store import Store
from setlab.variants import count_structures
from setlab.variants.structures import MAX_TABLE_PROPERTIES, sum_table

__all__ = [
    "PROBLEM",
    "UltraValue",
    "anneal_ultrasets",
    "class_reach",
    "complement_count",
    "deletion_bound",
    "most_ultrasets",
    "most_ultrasets_table",
    "pair_sum_bound",
]

PROBLEM = "maxstructures"
"""The store's name for the most structures of a variant among n cards (params: the variant)."""

PARAMS = {"variant": "ultra"}


@dataclass(frozen=True)
class UltraValue:
    """The most UltraSets among ``cards`` cards of F_3^P, as far as known.

    ``lower`` is the count of ``witness``; ``upper`` a proven bound (``method`` says how);
    proven when they meet; ``stored_at`` when it was read from the store, the time it was
    computed.
    """

    properties: int
    cards: int
    lower: int
    upper: int
    witness: list[int]
    witness_method: str
    method: str
    stored_at: float | None = None

    @property
    def proven(self) -> bool:
        """True when the witness is proven best."""
        return self.lower == self.upper


def pair_sum_bound(properties: int, cards: int) -> int:
    """An upper bound on the UltraSets among n cards: the pair sums shared out greedily.

    With r_s pairs of S summing to s, U(S) = sum_s C(r_s, 2) and sum_s r_s = C(n, 2). The pairs
    with sum s are a matching of S in which the card -s (the fixed point of a -> s - a) has no
    partner, so r_s <= floor(n/2), and r_s <= floor((n - 1)/2) for the n sums s with -s in S.
    C(r, 2) is convex, so sum C(r_s, 2) under these caps is largest when the pairs fill the
    largest caps first (moving pairs from a smaller bucket to a larger one only spreads the
    distribution). For odd n this gives n C((n - 1)/2, 2) = n(n - 1)(n - 3)/8, attained by
    every flat; also U(S) <= C(n, 4) (four cards make at most one UltraSet).

    Examples
    --------
    >>> [pair_sum_bound(2, n) for n in range(10)]
    [0, 0, 0, 0, 1, 5, 12, 21, 30, 54]
    >>> pair_sum_bound(4, 27) == 27 * 26 * 24 // 8
    True
    """
    n, total = cards, math.comb(cards, 2)
    caps = [n // 2] * (deck_size(properties) - n) + [(n - 1) // 2] * n
    bound = 0
    for cap in sorted(caps, reverse=True):
        take = min(cap, total)
        bound += math.comb(take, 2)
        total -= take
        if total == 0:
            break
    return min(bound, math.comb(n, 4))


def deletion_bound(known: int, value: int, cards: int) -> int:
    """An upper bound on the UltraSets among ``cards`` cards from M(known) <= ``value``.

    Each UltraSet of S misses n - 4 of the n one-card deletions of S, so
    (n - 4) U(S) = sum_x U(S - x) <= n M(n - 1): M(n) <= floor(n M(n - 1) / (n - 4)), applied
    step by step from n = known + 1.

    Examples
    --------
    >>> deletion_bound(10, 54, 11), deletion_bound(10, 54, 12)
    (84, 126)
    """
    for n in range(known + 1, cards + 1):
        value = n * value // (n - 4) if n > 4 else math.comb(n, 4)
    return value


def complement_count(properties: int, size: int, sets: int, ultras: int) -> int:
    """UltraSets among the complement of a collection T of ``size`` cards with ``sets`` sets and
    ``ultras`` UltraSets.

    Inclusion-exclusion over the cards of T: the deck has B = N(N - 1)(N - 3)/8 UltraSets, a card
    lies on (N - 1)(N - 3)/2, a pair on 3(N - 3)/2, three cards on 3 unless they form a set (then
    none: the fourth card would be one of them), four cards on one iff they are an UltraSet.

    Examples
    --------
    >>> complement_count(2, 0, 0, 0)  # the whole plane: 9 C(4, 2)
    54
    >>> complement_count(2, 1, 0, 0)  # eight cards: every card lies on 4 * 6 = 24 of them
    30
    """
    n, t = deck_size(properties), size
    whole, card, pair = n * (n - 1) * (n - 3) // 8, (n - 1) * (n - 3) // 2, 3 * (n - 3) // 2
    return whole - t * card + math.comb(t, 2) * pair - 3 * (math.comb(t, 3) - sets) + ultras


def class_reach(properties: int) -> int:
    """Largest k whose classes :func:`most_ultrasets` enumerates by default (all for P <= 3;
    level 10 of AG(4,3) has 1,658 classes, a few seconds; level 11 takes a minute).

    Examples
    --------
    >>> class_reach(3), class_reach(4)
    (27, 10)
    """
    if properties <= 3:
        return deck_size(properties)
    return {4: 10, 5: 7}.get(properties, 6)


def _best_per_level(properties: int, up_to: int, workers: int | None = None
                    ) -> dict[int, tuple[int, list[int], int, list[int]]]:  # fmt: skip
    """For each k <= up_to: (most UltraSets, a witness, most in complements, a witness) over
    every class of k-card collections."""
    n = deck_size(properties)
    out: dict[int, tuple[int, list[int], int, list[int]]] = {0: (0, [], complement_count(
        properties, 0, 0, 0), list(range(n)))}  # fmt: skip
    for level in generate_levels(properties, "max", [0] * (up_to + 1), workers=workers):
        best, best_rest = (-1, []), (-1, [])
        for cards, sets in level.classes:
            ultras = count_structures(cards, "ultra", properties)
            rest = complement_count(properties, level.k, sets, ultras)
            best = max(best, (ultras, cards), key=lambda item: item[0])
            best_rest = max(best_rest, (rest, cards), key=lambda item: item[0])
        chosen = set(best_rest[1])
        out[level.k] = (best[0], list(best[1]), best_rest[0],
                        [c for c in range(n) if c not in chosen])  # fmt: skip
    return out


@nb.njit(cache=True)
def _anneal(plus, start, iterations, t_start, t_end, seed):  # pragma: no cover - compiled
    """Annealing over one-card swaps maximising sum_s C(r_s, 2); (best count, best cards).

    ``pairs[s]`` is r_s, the pairs of the current collection summing to s; removing x takes
    r_{x+z} - 1 away for each other card z, adding y gives r_{y+z} before it grows.
    """
    np.random.seed(seed)
    n_deck = plus.shape[0]
    n = start.shape[0]
    members = start.copy()
    inside, outside = split_deck(members, n_deck)
    pairs = np.zeros(n_deck, dtype=np.int64)
    count = 0
    for i in range(n):
        for j in range(i + 1, n):
            s = plus[members[i], members[j]]
            count += pairs[s]
            pairs[s] += 1
    best = count
    best_members = members.copy()
    if n == 0 or n == n_deck:
        return best, best_members
    cooling = (t_end / t_start) ** (1.0 / max(iterations, 1))
    temperature = t_start
    for _ in range(iterations):
        temperature *= cooling
        i = np.random.randint(n)
        j = np.random.randint(n_deck - n)
        x, y = members[i], outside[j]
        delta = 0
        for t in range(n):
            if t != i:
                pairs[plus[x, members[t]]] -= 1
                delta -= pairs[plus[x, members[t]]]
        for t in range(n):
            if t != i:
                delta += pairs[plus[y, members[t]]]
                pairs[plus[y, members[t]]] += 1
        if delta < 0 and np.random.random() >= math.exp(delta / temperature):
            for t in range(n):  # undo: y out, x back
                if t != i:
                    pairs[plus[y, members[t]]] -= 1
                    pairs[plus[x, members[t]]] += 1
            continue
        members[i] = y
        outside[j] = x
        inside[x], inside[y] = False, True
        count += delta
        if count > best:
            best = count
            best_members[:] = members
    return best, best_members


def anneal_ultrasets(properties: int, cards: int, iterations: int = 200_000, seed: int = 0
                     ) -> tuple[int, list[int]]:  # fmt: skip
    """A collection of ``cards`` cards with many UltraSets: annealing from the first ``cards``
    cards in index order (a union of flats), and the count it reaches.

    Examples
    --------
    >>> anneal_ultrasets(2, 9, 10)[0]  # the whole plane
    54
    """
    plus = sum_table(properties)
    start = np.arange(cards, dtype=np.int64)
    count, best = _anneal(plus, start, iterations, 2.0, 0.05, seed)
    return int(count), sorted(int(c) for c in best)


def _check(properties: int, cards: int) -> None:
    if not 1 <= properties <= MAX_TABLE_PROPERTIES:
        raise SetlabError(f"the most UltraSets: P from 1 to {MAX_TABLE_PROPERTIES}")
    if not 0 <= cards <= deck_size(properties):
        raise SetlabError(f"n must lie between 0 and {deck_size(properties)} for P = {properties}")


def _stored(store: Store | None, properties: int, cards: int) -> UltraValue | None:
    if store is None:
        return None
    got = store.get(PROBLEM, properties, cards, PARAMS)
    if got is None or got.value is None or got.bound is None or got.witness is None:
        return None
    return UltraValue(properties, cards, got.value, got.bound, got.witness,
                      got.witness_method or "", got.bound_method or "", got.updated)  # fmt: skip


def _record(store: Store | None, value: UltraValue, proof: dict) -> None:
    if store is None:
        return
    store.record_witness(PROBLEM, value.properties, value.cards, "max", value.lower,
                         value.witness, value.witness_method, PARAMS)  # fmt: skip
    store.record_bound(PROBLEM, value.properties, value.cards, "max", value.upper,
                       dict(proof, method=value.method), value.method, PARAMS)  # fmt: skip


def most_ultrasets(
    properties: int,
    cards: int,
    *,
    store: Store | None = None,
    reach: int | None = None,
    iterations: int = 200_000,
    workers: int | None = None,
) -> UltraValue:
    """The most UltraSets among ``cards`` cards of F_3^P, with a witness.

    Exact when n or N - n is at most ``reach`` (default :func:`class_reach`): the maximum over
    every AGL(P,3)-class, directly or through :func:`complement_count`. Otherwise an annealing
    witness and the better of :func:`pair_sum_bound` and :func:`deletion_bound` from the exact
    value at ``reach``, proven only when witness and bound meet. A proven value in ``store``
    is read; results are written to it (problem ``maxstructures``, params ``variant: ultra``).

    Examples
    --------
    >>> v = most_ultrasets(2, 4)
    >>> v.lower, v.upper, v.method
    (1, 1, 'exhaustive classes')
    """
    _check(properties, cards)
    stored = _stored(store, properties, cards)
    if stored is not None and stored.proven:
        return stored
    n = deck_size(properties)
    reach = class_reach(properties) if reach is None else reach
    bound = pair_sum_bound(properties, cards)
    if min(cards, n - cards) <= reach:
        direct = cards <= n - cards
        k = cards if direct else n - cards
        levels = _best_per_level(properties, k, workers)
        count, witness, rest, rest_witness = levels[k]
        if direct:
            value = UltraValue(properties, cards, count, count, witness, "exhaustive classes",
                               "exhaustive classes")  # fmt: skip
        else:
            value = UltraValue(properties, cards, rest, rest, rest_witness,
                               "exhaustive classes of the complement",
                               "exhaustive classes of the complement")  # fmt: skip
        proof = {"classes_up_to": k}
    else:
        count, witness = anneal_ultrasets(properties, cards, iterations)
        method, proof = "pair-sum bound", {"bound": bound}
        if count < bound and cards > reach:
            below = most_ultrasets(properties, reach, store=store, reach=reach, workers=workers)
            chained = deletion_bound(reach, below.upper, cards)
            if chained < bound:
                bound, method = chained, "deletion chain"
                proof = {"bound": bound, "from": reach, "value": below.upper}
        method += " attained" if count == bound else ""
        value = UltraValue(properties, cards, count, bound, witness, "annealing", method)
    if count_structures(value.witness, "ultra", properties) != value.lower:  # the finder recounts
        raise SetlabError("internal error: the witness does not hold its UltraSets")
    _record(store, value, proof)
    return value


def most_ultrasets_table(
    properties: int,
    *,
    store: Store | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int | None = None,
) -> list[UltraValue]:
    """The most UltraSets among n cards for every n = 0..3^P, exact, for P <= 3 (one walk over
    every class, each level read both ways).

    Examples
    --------
    >>> [v.lower for v in most_ultrasets_table(2)]
    [0, 0, 0, 0, 1, 3, 9, 15, 30, 54]
    """
    if not 1 <= properties <= 3:
        raise SetlabError("the table of the most UltraSets is computed for P from 1 to 3")
    n = deck_size(properties)
    levels = _best_per_level(properties, n // 2, workers)
    out = []
    for cards in range(n + 1):
        if cards <= n // 2:
            count, witness = levels[cards][:2]
            method = "exhaustive classes"
        else:
            count, witness = levels[n - cards][2:]
            method = "exhaustive classes of the complement"
        value = UltraValue(properties, cards, count, count, witness, method, method)
        _record(store, value, {"classes_up_to": n // 2})
        out.append(value)
        if progress is not None:
            progress(cards)
    return out
