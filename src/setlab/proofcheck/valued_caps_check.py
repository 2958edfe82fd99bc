#!/usr/bin/env python3
"""Standalone check of a largest-cap claim for a deck of V != 3 values: the largest cap of the
deck of V^P cards has exactly s cards (a witness of s cards comes with it).

Standalone: numpy and the standard library, nothing from setlab.

The claim: {"kind": "valued cap", "properties": P, "values": V, "value": s, "witness": [[d_1,
..., d_P], ...]}, with 2 <= V <= 16, P >= 1, V^P <= 256. A card is a P-tuple of digits 0..V-1
(index: the digits read in base V, first property most significant). Three distinct cards form
a set iff in every property their values are all the same or all different (for V = 2 all
different is impossible, so no three distinct cards form a set). A cap holds no set.

The check. (1) The claim's shape: ints in range, s distinct cards of the deck. (2) The witness
is a cap: every triple is tested (numpy, one first card at a time). (3) No cap of s + 1 cards
exists, unless s = V^P (no larger collection exists at all). Every subset of a cap is a cap, so
it suffices that no cap of exactly s + 1 cards exists; this file's own search decides that, and
any cap it reports is re-tested by (2)'s triple test before it is believed.

The search, and why it is sound. The completion of a pair {a, b}: the cards c with c_i = a_i
where a_i = b_i, and c_i not in {a_i, b_i} where a_i != b_i (possibly many cards, none of them a
or b). {a, b, c} is a set iff c completes {a, b}. A *plane* (i, x) is the set of cards with
property i equal to x; in it property i is constant, so three of its cards form a set iff they
do in the other P - 1 properties: a plane is a copy of the deck with P - 1 properties, and a cap
meets it in at most c(P - 1) cards, c(P - 1) the largest cap of that deck, computed first by
this same search (c(0) = 1: that deck has one card).

Symmetry. Permuting the P properties, and independently for each property permuting its V
values, maps cards to cards and sets to sets (all same / all different is kept per property),
so it maps caps to caps of the same size. If a cap T of n = s + 1 cards exists, one in its orbit
satisfies, in order (each step uses only maps that keep what the earlier steps arranged):

* Q1, Q2: the plane (0, 0) holds m cards of T, the most of any plane (i, x), and
  |T n (0, x)| >= |T n (0, x + 1)| for every x: permute the properties so that a fullest plane
  is a plane of the first property, then sort the first property's values by their planes'
  sizes, decreasing (a fullest plane comes first).
* Q3: 0...0 is in T: plane (0, 0) holds a card t (m >= 1); for each property i >= 1 swap the
  values t_i and 0. This fixes the first property's planes (Q1, Q2 kept).
* Q4 (m >= 2): among the cards of T n (0, 0) other than 0...0 let y have the fewest nonzero
  digits, k of them (1 <= k <= P - 1; the digit of property 0 is 0). Permute the properties
  1..P-1 to put y's nonzero ones last and, in each of those, swap the values y_i and 1 (both
  nonzero, so 0 stays fixed): y becomes e_k = 0...01...1 (k ones), and no card of T in plane
  (0, 0) other than 0...0 has fewer than k nonzero digits (the maps keep that count). Planes
  (0, x) are kept, and the other planes are only permuted among themselves (Q1-Q3 kept).

So the search tries m = ceil(n / V) .. min(n, c(P - 1)) (the V planes (0, x) hold n cards, each
at most m), and for m >= 2 each k, and looks for a cap T of n cards with Q1-Q4, holding 0...0
and e_k. Cards are added in increasing index order, after 0...0 and e_k: every other card of T
has a larger index than e_k, those off plane (0, 0) as their first digit is not 0, those in it by
Q4 (a smaller index means all digits but the last k are 0 and one of those k is 0, so fewer
than k nonzero digits). Every rule below only discards partial caps that no such T extends.
"""

from __future__ import annotations

import itertools
from functools import cache
from typing import Any, NamedTuple

import numpy as np

__all__ = ["check_valued_cap"]

MAX_CARDS = 256
"""The largest deck a claim may name."""


class _Deck(NamedTuple):
    """The deck of V^P cards as bitmasks over card indices (bit c = card c)."""

    digits: list[tuple[int, ...]]  # card index -> its P digits
    planes: list[list[int]]  # planes[i][x]: the cards with property i equal to x
    completion: list[list[int]]  # completion[a][b]: the cards c making {a, b, c} a set


def _digits(card: int, p: int, v: int) -> tuple[int, ...]:
    return tuple(card // v ** (p - 1 - i) % v for i in range(p))


@cache
def _deck(p: int, v: int) -> _Deck:
    n = v**p
    digits = [_digits(c, p, v) for c in range(n)]
    planes = [[sum(1 << c for c in range(n) if digits[c][i] == x) for x in range(v)]
              for i in range(p)]  # fmt: skip
    # allowed[i][u][w]: the cards whose property-i value completes the values u, w to all
    # same (u = w: only u) or all different (u != w: neither u nor w)
    allowed = [[[planes[i][u] if u == w else
                 sum(planes[i][x] for x in range(v) if x not in (u, w))
                 for w in range(v)] for u in range(v)] for i in range(p)]  # fmt: skip
    completion = []
    for a in range(n):
        row = []
        for b in range(n):
            mask = (1 << n) - 1 if a != b else 0  # a card with itself completes nothing
            for i in range(p):
                mask &= allowed[i][digits[a][i]][digits[b][i]]
            row.append(mask)
        completion.append(row)
    return _Deck(digits, planes, completion)


def _first_set(cards: list[tuple[int, ...]]) -> tuple[int, int, int] | None:
    """Positions of three cards forming a set, or None: every triple i < j < k is tested,
    numpy over (j, k) for each i."""
    w = np.asarray(cards, dtype=np.int64).reshape(len(cards), -1)
    for i in range(len(cards) - 2):
        x = w[i][None, None, :]
        y, z = w[i + 1 :][:, None, :], w[i + 1 :][None, :, :]
        same = (x == y) & (y == z)
        different = (x != y) & (y != z) & (x != z)
        is_set = np.triu((same | different).all(axis=2), 1)  # only j < k
        if is_set.any():
            j, k = np.argwhere(is_set)[0]
            return i, i + 1 + int(j), i + 1 + int(k)
    return None


def _greedy(p: int, v: int) -> int:
    """The size of the cap taken greedily in index order: a lower bound of c(P)."""
    deck = _deck(p, v)
    chosen: list[int] = []
    forbidden = 0
    for c in range(v**p):
        if not forbidden >> c & 1:
            for a in chosen:
                forbidden |= deck.completion[a][c]
            chosen.append(c)
    return len(chosen)


@cache
def _largest(p: int, v: int) -> int:
    """c(P): the largest cap of the deck of V^P cards, by this file's search alone."""
    if p == 0:
        return 1  # the deck of V^0 cards is a single card
    size = _greedy(p, v)
    while _find_cap(p, v, size + 1) is not None:
        size += 1
    return size


def _find_cap(p: int, v: int, n: int) -> list[int] | None:
    """A cap of exactly n cards of the V^P deck (card indices), or None when none exists."""
    if n > v**p:
        return None
    if n <= 2:
        return list(range(n))  # a set needs three cards
    limit = _largest(p - 1, v)  # every plane holds at most this many cards of a cap
    # m, the most cards of T in a plane: the V planes (0, x) share n cards, so m >= ceil(n / V)
    for m in range(-(-n // v), min(n, limit) + 1):
        # the cards T holds by Q3 and Q4: 0...0 alone (m = 1), or with e_k, 1 <= k <= P - 1
        starts = [0] if m == 1 else [sum(v**j for j in range(k)) for k in range(1, p)]
        for k, y in enumerate(starts, start=1):
            found = _Search(p, v, n, m, k if m >= 2 else 0).run(y)
            if found is not None:
                return found
    return None


class _Search:
    """Every cap T of n cards with Q1-Q4 for this m and k (the module docstring), grown from
    0...0 and e_k in increasing index order; ``run`` returns the first one found, or None."""

    def __init__(self, p: int, v: int, n: int, m: int, k: int) -> None:
        self.p, self.v, self.n, self.m = p, v, n, m
        self.deck = _deck(p, v)
        size = v**p
        # cards a card may be followed by: the larger ones, and by Q4 none in plane (0, 0) with
        # from 1 to k - 1 nonzero digits
        digits = self.deck.digits
        low = sum(1 << c for c in range(1, size) if digits[c][0] == 0
                  and sum(d != 0 for d in digits[c]) < k)  # fmt: skip
        everything = (1 << size) - 1
        self.above = [(everything ^ ((1 << (c + 1)) - 1)) & ~low for c in range(size)]
        self.counts = [[0] * v for _ in range(p)]  # counts[i][x] = |T n plane (i, x)| so far

    def run(self, y: int) -> list[int] | None:
        chosen = [0] if y == 0 else [0, y]
        for c in chosen:
            for i, x in enumerate(self.deck.digits[c]):
                self.counts[i][x] += 1
        forbidden = self.deck.completion[0][y] if y else 0
        return self._grow(chosen, forbidden)

    def _grow(self, chosen: list[int], forbidden: int) -> list[int] | None:
        if len(chosen) == self.n:
            return chosen[:]
        deck, counts, m, v = self.deck, self.counts, self.m, self.v
        last = chosen[-1]
        # a future card: above the last card, completing no chosen pair (else a set)
        future = self.above[last] & ~forbidden
        current = deck.digits[last][0]  # cards go in index order: planes (0, x < current) are done
        row = counts[0]
        # Q1, Q2: plane (0, 0) ends with m cards, and (0, x) with at most as many as (0, x - 1)
        room = m if current == 0 else row[current - 1]
        if row[current] >= room:
            future &= ~deck.planes[0][current]
        # Q1: no plane holds more than m cards
        for i in range(1, self.p):
            for x in range(v):
                if counts[i][x] >= m:
                    future &= ~deck.planes[i][x]
        if len(chosen) + future.bit_count() < self.n:
            return None  # even all the future cards are too few
        # Bound by the first property: done planes keep their cards; the current one ends with
        # at most f = min(room, what it has + its future cards), exactly m for plane (0, 0)
        # (Q1); each later plane holds at most its future cards and (Q2) at most the final
        # size of the plane before it.
        here = row[current] + (future & deck.planes[0][current]).bit_count()
        if current == 0 and here < m:
            return None
        run = min(room, here)
        bound = len(chosen) - row[current] + run
        for x in range(current + 1, v):
            run = min(run, (future & deck.planes[0][x]).bit_count())
            bound += run
        if bound < self.n:
            return None
        # Bound by each other property i: its V planes partition the deck, each plane ends
        # with at most min(m, what it has + its future cards) (Q1).
        for i in range(1, self.p):
            total = sum(min(m, counts[i][x] + (future & deck.planes[i][x]).bit_count())
                        for x in range(v))  # fmt: skip
            if total < self.n:
                return None
        # The next card lies in the current plane, or (the current one done) in the next: a
        # skipped plane (0, x) would be empty, and by Q2 so would every later one. Plane
        # (0, 0) must first reach m (Q1).
        free = future & deck.planes[0][current]
        if current + 1 < v and not (current == 0 and row[0] < m):
            free |= future & deck.planes[0][current + 1]
        while free:
            low = free & -free
            free ^= low
            c = low.bit_length() - 1
            added = forbidden
            for a in chosen:
                added |= deck.completion[a][c]
            digits = deck.digits[c]
            for i in range(self.p):
                counts[i][digits[i]] += 1
            chosen.append(c)
            found = self._grow(chosen, added)
            chosen.pop()
            for i in range(self.p):
                counts[i][digits[i]] -= 1
            if found is not None:
                return found
        return None


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shape_errors(claim: Any) -> list[str]:
    """Errors of the claim's form (empty when it names a deck and s distinct cards of it)."""
    if not isinstance(claim, dict):
        return ["the claim is not a JSON object"]
    if claim.get("kind") != "valued cap":
        return [f"the kind is {claim.get('kind')!r}, not 'valued cap'"]
    p, v, s, witness = (claim.get(f) for f in ("properties", "values", "value", "witness"))
    if not all(_is_int(x) for x in (p, v, s)):
        return ["properties, values and value must be integers"]
    if not 1 <= p <= 8 or not 2 <= v <= 16 or v**p > MAX_CARDS:  # V >= 2: V^P > 256 for P > 8
        return [f"no deck of {v}^{p} cards here (P >= 1, 2 <= V <= 16, V^P <= {MAX_CARDS})"]
    if not 0 <= s <= v**p:
        return [f"the value {s} is not between 0 and {v**p}"]
    if not isinstance(witness, list) or len(witness) != s:
        return [f"the witness is not a list of {s} cards"]
    for card in witness:
        if (not isinstance(card, list) or len(card) != p
                or not all(_is_int(d) and 0 <= d < v for d in card)):  # fmt: skip
            return [f"the witness card {card!r} is not {p} digits from 0 to {v - 1}"]
    if len({tuple(card) for card in witness}) != s:
        repeated = next(c for c, t in itertools.combinations(witness, 2) if c == t)
        return [f"the witness holds the card {repeated} twice"]
    return []


def check_valued_cap(claim: dict[str, Any]) -> list[str]:
    """Errors of a largest-cap claim of the V^P deck (an empty list when it holds)."""
    errors = _shape_errors(claim)
    if errors:
        return errors
    p, v, s = claim["properties"], claim["values"], claim["value"]
    witness = [tuple(card) for card in claim["witness"]]
    triple = _first_set(witness) if s >= 3 else None
    if triple is not None:
        return ["the witness holds a set: " + ", ".join(str(list(witness[t])) for t in triple)]
    if s == v**p:
        return []  # the whole deck, and a cap: nothing larger exists
    found = _find_cap(p, v, s + 1)
    if found is None:
        return []
    cards = [_digits(c, p, v) for c in found]
    if len(set(cards)) != s + 1 or _first_set(cards) is not None:
        return [f"the search built a collection of {s + 1} cards that is not a cap (a bug)"]
    return [f"a cap of {s + 1} cards exists: {[list(c) for c in cards]}"]
