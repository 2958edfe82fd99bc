"""Big caps of AG(P,3), P <= 10: verification, algebraic constructions, a greedy harness.

S is a cap iff no two cards x != y of S have their third card -(x + y) in S. Constructions: the
product A x B of caps of AG(m,3) and AG(n,3) is a cap of AG(m + n,3) (a line of the product
projects to a line or a point in each factor); the vectors +-v over the points v of a cap of
PG(n-1,3) form a cap of AG(n,3) (x + y + z = 0 makes the three points collinear or two of them
opposite, and then the third is 0). Hill's 56-cap of PG(5,3) is found as a union of orbits of the
Singer subgroup of order 7: it lifts to 112 cards in AG(6,3), and the 45 of its points off a
hyperplane meeting it in 11 points form a cap of AG(5,3).

References
----------
R. Hill, "On the largest size of cap in S_{5,3}", Atti Accad. Naz. Lincei 54 (1973) 378-384.
Y. Edel, S. Ferret, I. Landjev, L. Storme, "The classification of the largest caps in AG(5,3)",
J. Combin. Theory Ser. A 99 (2002) 95-110.
B. Romera-Paredes et al., "Mathematical discoveries from program search with large language
models", Nature 625 (2024) (the greedy priority-function set-up).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

import numpy as np

from setlab.cards import MAX_PROPERTIES, check_properties
from setlab.errors import SetlabError
from setlab.geometry import indices_of, third_cards

__all__ = [
    "Priority",
    "best_construction",
    "complete_42_cap",
    "elliptic_quadric_cap",
    "find_set_in",
    "greedy_cap",
    "hill_affine_cap",
    "hill_cap",
    "lift",
    "product_cap",
    "read_cap_file",
]

Priority = Callable[[np.ndarray], np.ndarray]
"""A priority function: the (3^P, P) digit matrix of all cards -> one score per card."""


def find_set_in(vectors: np.ndarray) -> tuple[int, int, int] | None:
    """Rows i < j < k of a (k, P) digit array summing to 0 mod 3, or None if it is a cap.

    Examples
    --------
    >>> find_set_in(np.array([[0, 0], [0, 1], [1, 0], [1, 1]])) is None
    True
    >>> find_set_in(np.array([[0, 0], [1, 1], [0, 1], [2, 2]]))
    (0, 1, 3)
    """
    vectors = np.asarray(vectors, dtype=np.int64)
    if vectors.ndim != 2 or not 1 <= vectors.shape[1] <= MAX_PROPERTIES:
        raise SetlabError(f"cards must be rows of 1 to {MAX_PROPERTIES} digits")
    if ((vectors < 0) | (vectors > 2)).any():
        raise SetlabError("card digits must be 0, 1 or 2")
    properties = vectors.shape[1]
    index = indices_of(vectors)
    order = np.argsort(index)
    ranked = index[order]
    if (ranked[1:] == ranked[:-1]).any():
        raise SetlabError("a card appears twice")
    for i in range(len(index) - 1):  # every pair (i, j > i), one row of pairs at a time
        third = third_cards(np.full(len(index) - i - 1, index[i]), index[i + 1 :], properties)
        where = np.searchsorted(ranked, third).clip(max=len(ranked) - 1)
        hit = np.flatnonzero(ranked[where] == third)
        if len(hit):
            j = i + 1 + int(hit[0])
            k = int(order[where[hit[0]]])
            first, second, third_row = sorted((i, j, k))
            return first, second, third_row
    return None


def read_cap_file(path: str) -> np.ndarray:
    """Cards of a text file, one per line as P digits (blank lines and ``#`` comments skipped).

    Examples
    --------
    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    ...     _ = f.write("00\\n01 # a comment\\n\\n10\\n")
    >>> read_cap_file(f.name).tolist()
    [[0, 0], [0, 1], [1, 0]]
    >>> os.unlink(f.name)
    """
    try:
        with open(path, encoding="utf-8") as handle:
            lines = handle.read().splitlines()
    except OSError as error:
        raise SetlabError(f"cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise SetlabError(f"{path} is not a text file") from None
    rows = []
    for number, line in enumerate(lines, 1):
        text = line.split("#")[0].strip()
        if not text:
            continue
        if set(text) - set("012"):
            raise SetlabError(f"{path}:{number}: '{text}' is not a card of digits 0, 1, 2")
        if rows and len(text) != len(rows[0]):
            raise SetlabError(f"{path}:{number}: cards of different lengths")
        rows.append([int(ch) for ch in text])
    if not rows:
        raise SetlabError(f"{path} holds no cards")
    check_properties(len(rows[0]))
    return np.array(rows, dtype=np.int64)


def product_cap(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """The product cap: every card of ``first`` followed by every card of ``second``.

    Examples
    --------
    >>> product_cap(np.array([[0], [1]]), np.array([[0], [1]])).tolist()
    [[0, 0], [0, 1], [1, 0], [1, 1]]
    """
    first, second = np.asarray(first), np.asarray(second)
    left = np.repeat(first, len(second), axis=0)
    right = np.tile(second, (len(first), 1))
    return np.hstack([left, right]).astype(np.int64)


def lift(projective_cap: np.ndarray) -> np.ndarray:
    """The affine cap {v, -v} of F_3^n over the points v of a cap of PG(n-1,3).

    Examples
    --------
    >>> lift(np.array([[1, 0], [0, 1]])).tolist()
    [[1, 0], [0, 1], [2, 0], [0, 2]]
    """
    points = np.asarray(projective_cap, dtype=np.int64) % 3
    return np.vstack([points, (-points) % 3])


def elliptic_quadric_cap() -> np.ndarray:
    """The 20-cap of AG(4,3): the lift of the elliptic quadric x0 x1 + x2^2 + x3^2 = 0 of PG(3,3).

    The form x2^2 + x3^2 has no nonzero zero over F_3, so the quadric is elliptic: 10 points,
    no three collinear (an ovoid).

    Examples
    --------
    >>> cap = elliptic_quadric_cap()
    >>> len(cap), find_set_in(cap) is None
    (20, True)
    """
    points = [
        v
        for v in itertools.product(range(3), repeat=4)
        if any(v) and _first_nonzero(v) == 1 and (v[0] * v[1] + v[2] ** 2 + v[3] ** 2) % 3 == 0
    ]
    return lift(np.array(points))


def _first_nonzero(v: tuple[int, ...]) -> int:
    return next(x for x in v if x)


@cache
def _singer_matrix() -> np.ndarray:
    """Companion matrix of a primitive polynomial of degree 6 over F_3: an element of order 728."""
    for tail in itertools.product(range(3), repeat=6):
        if tail[0] == 0:
            continue
        c = np.zeros((6, 6), dtype=np.int64)
        c[1:, :-1] = np.eye(5, dtype=np.int64)
        c[:, -1] = [(-t) % 3 for t in tail]
        if all(
            not np.array_equal(_matrix_power(c, 728 // p), np.eye(6, dtype=np.int64))
            for p in (2, 7, 13)
        ) and np.array_equal(_matrix_power(c, 728), np.eye(6, dtype=np.int64)):
            return c
    raise AssertionError("F_729 has a primitive element")  # pragma: no cover


def _matrix_power(m: np.ndarray, e: int) -> np.ndarray:
    result = np.eye(len(m), dtype=np.int64)
    base = m % 3
    while e:
        if e & 1:
            result = result @ base % 3
        base = base @ base % 3
        e >>= 1
    return result


@cache
def hill_cap() -> np.ndarray:
    """Hill's 56-cap of PG(5,3), one representative vector per point (a (56, 6) array).

    Search: the group H generated by -1 and the Singer element of order 7 has 52 orbits of 14 on
    the nonzero vectors of F_3^6; a union of 8 of them that is an affine cap is the lift of a
    projective 56-cap. The Singer cycle permutes the orbits transitively, so the first orbit is
    fixed; depth-first search over the other orbits in increasing order.

    Examples
    --------
    >>> from setlab.extremal.bigcaps import hill_cap
    >>> hill_cap().shape, find_set_in(lift(hill_cap())) is None
    ((56, 6), True)
    """
    singer = _singer_matrix()
    seven = _matrix_power(singer, 104)
    vectors = np.array(list(itertools.product(range(3), repeat=6)), dtype=np.int64)[1:]
    seen = np.zeros(729, dtype=bool)
    orbits = []
    for v in vectors:
        if seen[indices_of(v)]:
            continue
        members = [v]
        for _ in range(6):
            members.append(seven @ members[-1] % 3)
        block = np.array(members + [(-m) % 3 for m in members])
        index = indices_of(block)
        seen[index] = True
        orbits.append(np.unique(index))
    found = _orbit_search(orbits, [0], 8)
    if found is None:  # pragma: no cover - Hill's cap has an automorphism of order 7
        raise AssertionError("no union of Singer orbits is a 112-cap")
    cards = np.concatenate([orbits[i] for i in found])
    points = np.array([v for v in _digits6(cards) if _first_nonzero(tuple(v)) == 1])
    return points


def _digits6(index: np.ndarray) -> np.ndarray:
    return np.array([[(int(i) // 3 ** (5 - a)) % 3 for a in range(6)] for i in index])


def _orbit_search(orbits: list[np.ndarray], chosen: list[int], wanted: int) -> list[int] | None:
    """Extend ``chosen`` (orbit numbers, increasing) to ``wanted`` orbits whose union is a cap.

    Invariant: the union of the chosen orbits is a cap; an orbit is added only if the union stays
    one (no card of the new orbit is a third card of the union, checked on all new pairs).
    """
    if len(chosen) == wanted:
        return chosen
    cards = np.concatenate([orbits[i] for i in chosen])
    for nxt in range(chosen[-1] + 1, len(orbits)):
        if len(orbits) - nxt < wanted - len(chosen):
            break
        union = np.concatenate([cards, orbits[nxt]])
        if _is_affine_cap(union, 6):
            found = _orbit_search(orbits, [*chosen, nxt], wanted)
            if found is not None:
                return found
    return None


def _is_affine_cap(index: np.ndarray, properties: int) -> bool:
    a, b = np.triu_indices(len(index), 1)
    third = third_cards(index[a], index[b], properties)
    return not np.isin(third, index).any()


def hill_affine_cap() -> np.ndarray:
    """A 45-cap of AG(5,3): Hill's cap minus a hyperplane meeting it in 11 points.

    Points off the hyperplane f = 0, scaled to f = 1, form a copy of AG(5,3); dropping a
    coordinate where f is nonzero is an affine bijection onto F_3^5.

    Examples
    --------
    >>> cap = hill_affine_cap()
    >>> cap.shape, find_set_in(cap) is None
    ((45, 5), True)
    """
    points = hill_cap()
    for form in itertools.product(range(3), repeat=6):
        if not any(form) or _first_nonzero(form) != 1:
            continue
        values = points @ np.array(form) % 3
        if (values == 0).sum() == 11:
            scaled = points[values != 0] * values[values != 0, None] % 3  # f = 1: scale by f
            drop = int(np.flatnonzero(form)[0])
            return np.delete(scaled, drop, axis=1)
    raise AssertionError("Hill's cap has hyperplanes meeting it in 11 points")  # pragma: no cover


# The cards of complete_42_cap as words x1 x2 x3 x4 x5: the hyperplane x5 = 0 holds the quadric
# 20-cap of AG(4,3) (best_construction(4) with x5 = 0), x5 = 1 six cards, x5 = 2 sixteen.
_COMPLETE_42 = """
    00121 00222 01000 01202 02000 02012 02112 10000 10022 10122 10202 11101 11110 11120
    11202 11210 11212 11220 12010 12020 12022 12100 12122 12200 12212 20000 20002 20021
    20102 20221 21001 21010 21020 21100 21200 21201 21212 22110 22120 22210 22220 22222
"""


def complete_42_cap() -> np.ndarray:
    """A complete 42-cap of AG(5,3): no card can join it, so it lies in no 45-cap.

    Every card off it lies on at least 3 of its 861 secants, and one hyperplane meets it in a
    20-cap (Hill's 45-cap meets every hyperplane in 9, 15 or 18 points). Thackeray's
    classification of the caps of 41 points or more names two kinds of 42-cap, the 45-cap minus
    three points and one other; lying in no 45-cap, this one is of the other kind (the
    classification is quoted, not checked by setlab). It was found by CaDiCaL with
    the quadric 20-cap of AG(4,3) fixed in the hyperplane x5 = 0 (19 s); its stabiliser in
    AGL(5,3) has order 288, with orbits of 18 and 24 cards. It lies on exactly one quadric,
    x1 x2 + x3^2 + x4^2 + x5 (x1 + x2 + x3 + x4 + 1) = 0, of 81 cards; at x5 = 0 that is the
    cone whose vertex 0 is all the 20-cap lacks.

    Examples
    --------
    >>> from setlab.extremal.caps.deck import free_cards
    >>> cap = complete_42_cap()
    >>> cap.shape, find_set_in(cap) is None, int(free_cards(indices_of(cap), 5).sum())
    ((42, 5), True, 0)

    References
    ----------
    H. R. Thackeray, "The cap set problem: up to dimension 7", arXiv:2206.09804 (2022),
    Theorem 2.1, quoting his classification of the caps of AG(5,3) of 41 points or more.
    """
    return np.array([[int(d) for d in word] for word in _COMPLETE_42.split()], dtype=np.int64)


def best_construction(properties: int) -> np.ndarray:
    """The largest cap of AG(P,3) setlab builds, P <= 10 (a (size, P) digit array).

    Base caps: {0, 1} (P = 1), a 9-cap (P = 3), the quadric 20-cap (P = 4), Hill's 45 and 112
    (P = 5, 6); larger P take the best product of base caps (P = 7: 224, P = 8: 448).

    Examples
    --------
    >>> [len(best_construction(p)) for p in (1, 2, 3, 4)]
    [2, 4, 9, 20]
    """
    check_properties(properties)
    sizes = _base_sizes()
    best = {0: (1, ())}  # dimension -> (size, base dimensions)
    for p in range(1, properties + 1):
        best[p] = max((best[p - b][0] * sizes[b], (*best[p - b][1], b)) for b in sizes if b <= p)
    cap = np.zeros((1, 0), dtype=np.int64)
    for b in best[properties][1]:
        cap = product_cap(cap, _base_cap(b))
    return cap


def _base_sizes() -> dict[int, int]:
    return {1: 2, 3: 9, 4: 20, 5: 45, 6: 112}


def _base_cap(dimension: int) -> np.ndarray:
    if dimension == 1:
        return np.array([[0], [1]])
    if dimension == 3:  # the 9-cap {x : x2 = x0^2 + x1^2}, a cylinder on a conic
        return np.array(
            [(a, b, (a * a + b * b) % 3) for a in range(3) for b in range(3)], dtype=np.int64
        )
    if dimension == 4:
        return elliptic_quadric_cap()
    if dimension == 5:
        return hill_affine_cap()
    return lift(hill_cap())


def greedy_cap(properties: int, priority: Priority, start: np.ndarray | None = None) -> np.ndarray:
    """Greedy cap: score every card with ``priority``, then add cards best first if admissible.

    ``priority`` receives the (3^P, P) digit matrix of all cards and returns one score per card
    (higher first, ties in index order). Cards of ``start`` (a cap) are taken first. This is the
    FunSearch set-up: plug in your own priority function.

    Examples
    --------
    >>> def weight(cards):  # prefer cards with few nonzero digits
    ...     return -(cards != 0).sum(axis=1)
    >>> cap = greedy_cap(4, weight)
    >>> len(cap), find_set_in(cap) is None
    (16, True)
    """
    check_properties(properties)
    n = 3**properties
    all_cards = np.indices((3,) * properties).reshape(properties, -1).T.astype(np.int64)
    scores = np.asarray(priority(all_cards), dtype=float)
    if scores.shape != (n,):
        raise SetlabError(f"the priority function must return {n} scores, one per card")
    order = np.argsort(-scores, kind="stable")
    blocked = np.zeros(n, dtype=bool)
    cap: list[int] = []
    first: list[int] = []
    if start is not None:
        start = np.asarray(start, dtype=np.int64).reshape(-1, properties)
        if find_set_in(start) is not None:
            raise SetlabError("the starting cards hold a set")
        first = indices_of(start).tolist()
    for card in itertools.chain(first, order.tolist()):
        if blocked[card]:
            continue
        if cap:
            blocked[third_cards(np.array(cap), np.full(len(cap), card), properties)] = True
        blocked[card] = True
        cap.append(card)
    return all_cards[cap]
