#!/usr/bin/env python3
"""Standalone check of the variants' claims in a setlab proof bundle.

Two kinds of claim. "free": the largest board of the variant's deck holding none of its
structures has s cards (a witness of s cards comes with it). "most": the most UltraSets among n
cards of F_3^P is v (with a witness of n cards holding v). The structures, from the mathematics
alone:

* UltraSet: four distinct cards of F_3^P with a + b = c + d (two pairs completing to one third
  card). A board holds none iff the sums of its pairs of distinct cards are all distinct.
* 4Set: four distinct cards of (F_2^2)^P = F_2^(2P) with a + b + c + d = 0 (XOR of the indices).
  A board holds none iff the XORs of its pairs are all distinct.
* GhostSet: six distinct cards of F_3^P summing to 0.

The check: the witness has s distinct cards and no structure (every 4- or 6-subset tested), and
no board of s + 1 cards holds none, by a search of this file. Symmetry used, proven here: each
structure is kept by the affine maps x -> Ax + b (the translations cancel: 2b = 2b in a + b =
c + d, 4b = 0 over F_2, 6b = 0 over F_3). Over F_3 the affine group is transitive on ordered
pairs of points, and the maps fixing 0 and e = (0, ..., 0, 1) fix the line {0, e, 2e} pointwise
and are transitive on the points off it. So a board of >= 3 cards is the image of one that
holds 0, e and either 2e (cards 0, 1, 2) or, not holding 2e, e' = (0, ..., 1, 0) (cards 0, 1, 3,
and no card 2). Over F_2 any three distinct points are affinely independent and the group is
transitive on such triples: the board holds cards 0, 1, 2. The search then adds cards in
increasing index order, all partial boards of one size at a time (numpy rows), and drops a row
whose size plus its remaining candidates is below s + 1.
"""

from __future__ import annotations

import itertools
import math
from functools import cache
from typing import Any

import numpy as np

VARIANTS = {"ultra": (3, 4), "4set": (4, 4), "ghost": (3, 6)}
"""variant -> (values per property, cards in one structure)."""


@cache
def group_tables(values: int, properties: int) -> tuple[np.ndarray, np.ndarray]:
    """The sum table and the negation of the deck's group (F_3^P, or F_2^(2P) for 4 values),
    built once per deck (read only)."""
    n = values**properties
    if values == 4:
        index = np.arange(n)
        return index[:, None] ^ index[None, :], index  # x + y = x XOR y, -x = x
    weights = 3 ** np.arange(properties - 1, -1, -1)
    digits = (np.arange(n)[:, None] // weights) % 3
    plus = ((digits[:, None, :] + digits[None, :, :]) % 3) @ weights
    return plus, ((-digits) % 3) @ weights


def has_structure(variant: str, cards: list[int], properties: int) -> bool:
    """True when some 4 (UltraSet, 4Set) or 6 (GhostSet) of ``cards`` form a structure."""
    values, size = VARIANTS[variant]
    plus, _ = group_tables(values, properties)
    for subset in itertools.combinations(cards, size):
        if variant == "ultra":
            a, b, c, d = subset
            if plus[a, b] == plus[c, d] or plus[a, c] == plus[b, d] or plus[a, d] == plus[b, c]:
                return True
        else:
            total = 0
            for x in subset:
                total = plus[total, x]
            if total == 0:
                return True
    return False


def exists_free_board(variant: str, properties: int, target: int) -> bool:
    """True when some board of ``target`` cards holds no structure of ``variant``."""
    values, _ = VARIANTS[variant]
    plus, negative = group_tables(values, properties)
    n = values**properties
    starts = [[0, 1, 2]] if values == 4 else [[0, 1, 2], [0, 1, 3]]
    if target <= 3:
        return target <= n  # any 3 distinct cards hold no structure of 4 or 6 cards
    for start in starts:
        if max(start) >= n:
            continue
        if has_structure(variant, start, properties):
            continue
        if _grow(variant, plus, negative, n, start, target):
            return True
    return False


BATCH = 20_000
"""Partial boards extended together: bounds the memory of the search (a few hundred MiB)."""


def _grow(variant: str, plus: np.ndarray, negative: np.ndarray, n: int, start: list[int],
          target: int) -> bool:  # fmt: skip
    """Grow every structure-free board holding ``start`` (other cards above max(start)) to
    ``target`` cards; True when one gets there.

    A batch is some partial boards of one size (rows of ``cards``) and what decides which card
    may join each: for UltraSet and 4Set ``state[r, v]`` says some pair of board r sums to v,
    and y may join iff y + t is unused for every card t of the board (the new pair sums are
    then new, and distinct from each other); for GhostSet ``state[r, k, v]`` says some k
    distinct cards of board r (k <= 5) sum to v, and y may join iff no five sum to -y.
    Batches are taken from a stack, deepest first, so few are held at once.
    """
    ghost = variant == "ghost"
    cards = np.array([start], dtype=np.int64)
    if ghost:
        state = np.zeros((1, 6, n), dtype=bool)
        state[0, 0, 0] = True
        for x in start:  # k cards with x sum to v when k - 1 others sum to v - x
            state[0, 1:] |= state[0, :-1][:, plus[negative[x]]]
    else:
        state = np.zeros((1, n), dtype=bool)
        for i, j in itertools.combinations(start, 2):
            state[0, plus[i, j]] = True
    index = np.arange(n)

    def candidates(cards: np.ndarray, state: np.ndarray) -> np.ndarray:
        above = index[None, :] > cards[:, -1:]  # cards join in increasing order
        if ghost:
            return above & ~state[:, 5][:, negative]
        rows = np.arange(len(cards))[:, None]
        blocked = np.zeros((len(cards), n), dtype=bool)
        for t in range(cards.shape[1]):
            blocked |= state[rows, plus[cards[:, t]]]  # y is blocked when y + t is used
        return above & ~blocked

    stack = [(np.array([sorted(start)], dtype=np.int64), state)]
    while stack:
        cards, state = stack.pop()
        if cards.shape[1] >= target:
            return True
        free = candidates(cards, state)
        # Pruning: a board cannot reach ``target`` when its size plus its candidates is short.
        keep = cards.shape[1] + free.sum(axis=1) >= target
        cards, state, free = cards[keep], state[keep], free[keep]
        parent, added = np.nonzero(free)
        for begin in range(0, len(parent), BATCH):
            rows, ys = parent[begin : begin + BATCH], added[begin : begin + BATCH]
            old = state[rows]
            if ghost:
                new = old.copy()
                for k in range(1, 6):  # k cards with y sum to v when k - 1 others sum to v - y
                    new[:, k] |= np.take_along_axis(old[:, k - 1], plus[negative[ys]], axis=1)
            else:
                new = old
                line = np.arange(len(rows))
                for t in range(cards.shape[1]):  # the new pair sums y + t
                    new[line, plus[ys, cards[rows, t]]] = True
            stack.append((np.concatenate([cards[rows], ys[:, None]], axis=1), new))
    return False


def ultra_count(cards: list[int], properties: int) -> int:
    """UltraSets among ``cards``: with r_s the pairs of distinct cards summing to s, two pairs
    with one sum are disjoint (a + b = a + c forces b = c), and each UltraSet {a, b, c, d} is
    one of its three pairings with equal sums (two at once would force a repeated card), so the
    count is sum_s C(r_s, 2)."""
    plus, _ = group_tables(3, properties)
    s = np.asarray(cards, dtype=np.int64)
    i, j = np.triu_indices(len(s), 1)
    r = np.bincount(plus[s[i], s[j]], minlength=3**properties)
    return int((r * (r - 1) // 2).sum())


def pair_sum_bound(properties: int, n: int) -> int:
    """U(S) <= this for every n cards S of F_3^P.

    The pairs of S with sum s are disjoint, and the card -s (if in S) is in none of them, since
    -s + b = s gives b = 2s = -s: so r_s <= floor(n/2), and r_s <= floor((n - 1)/2) when -s is
    in S, which happens for exactly n sums s. The r_s add up to
    C(n, 2) and U = sum C(r_s, 2) with C(r, 2) convex: filling the largest allowances first
    gives the most. Also U <= C(n, 4): four cards hold at most one UltraSet.
    """
    left = n * (n - 1) // 2
    allowances = sorted([n // 2] * (3**properties - n) + [(n - 1) // 2] * n, reverse=True)
    bound = 0
    for cap in allowances:
        take = min(cap, left)
        bound += take * (take - 1) // 2
        left -= take
    return min(bound, math.comb(n, 4))


def deletion_chain(known: int, value: int, n: int) -> int:
    """U(n) <= this when U(known) <= value: every UltraSet of n' cards survives the deletion of
    each of the n' - 4 cards off it, so (n' - 4) U(S) <= n' U(n' - 1), step by step."""
    for m in range(known + 1, n + 1):
        value = m * value // (m - 4) if m > 4 else math.comb(m, 4)
    return value


def check_most(claim: dict[str, Any], space: Any, classes: list[list[int]] | None,
               cited: dict[int, int]) -> list[str]:  # fmt: skip
    """Errors of one most-UltraSets claim. ``space`` gives canonical forms and stabiliser
    orders under AGL(P,3) (``form``, ``stabiliser_order``, ``group_order``); ``classes`` the
    representatives a classes proof names; ``cited`` the checked values U(k) it may cite."""
    p, n, v = int(claim["properties"]), int(claim["cards"]), int(claim["value"])
    size = 3**p
    witness = [int(c) for c in claim.get("witness", [])]
    if len(witness) != n or len(set(witness)) != n or any(not 0 <= c < size for c in witness):
        return [f"the witness is not {n} distinct cards"]
    if (count := ultra_count(witness, p)) != v:
        return [f"the witness holds {count} UltraSets, not {v}"]
    proof = claim.get("proof") or {}
    method = proof.get("method")
    if method == "pair sums":
        bound = pair_sum_bound(p, n)
        return [] if bound <= v else [f"the pair sums allow {bound}, not {v}"]
    if method == "deletion":
        known = int(proof["from"])
        if known not in cited or known >= n:
            return [f"a deletion chain cites U({known}), which did not pass"]
        bound = deletion_chain(known, cited[known], n)
        return [] if bound <= v else [f"the deletion chain from U({known}) allows {bound}"]
    if method not in ("classes", "complement classes") or classes is None:
        return [f"unknown method {method!r}"]
    # Every k-card collection lies in the orbit of one representative: distinct canonical forms
    # are distinct orbits, and orbits of sizes |AGL| / |Aut| adding up to C(N, k) are all of them.
    k = n if method == "classes" else size - n
    if any(len(rep) != k or len(set(rep)) != k for rep in classes):
        return [f"a representative is not {k} distinct cards"]
    forms = [space.form(rep) for rep in classes]
    if len(set(forms)) != len(forms):
        return ["two representatives are equivalent"]
    total = sum(space.group_order // space.stabiliser_order(rep) for rep in classes)
    if total != math.comb(size, k):
        return [f"the orbits hold {total} collections of {k} cards, not C({size}, {k})"]
    deck = np.arange(size)
    if method == "classes":
        best = max(ultra_count(rep, p) for rep in classes)
    else:
        best = max(ultra_count(deck[~np.isin(deck, rep)].tolist(), p) for rep in classes)
    return [] if best == v else [f"the most over every class is {best}, not {v}"]


def check_free(entry: dict[str, Any]) -> list[str]:
    """Errors of one structure-free claim (empty when it holds)."""
    variant, p, s = entry["variant"], int(entry["properties"]), int(entry["value"])
    if variant not in VARIANTS:
        return [f"unknown variant {variant!r}"]
    values, _ = VARIANTS[variant]
    n = values**p
    witness = [int(c) for c in entry.get("witness", [])]
    if len(witness) != s or len(set(witness)) != s or any(not 0 <= c < n for c in witness):
        return [f"the witness is not {s} distinct cards of the deck"]
    if has_structure(variant, witness, p):
        return ["the witness holds a structure"]
    if exists_free_board(variant, p, s + 1):
        return [f"a board of {s + 1} cards holds no structure"]
    return []
