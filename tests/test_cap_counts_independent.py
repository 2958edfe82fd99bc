"""Cap counts of AG(P,3) recomputed with no setlab code: orbit-stabiliser with bliss (igraph).

Problem: a k-cap of AG(P,3) is a set of k of the 3^P points (cards) holding no line, i.e. no
three distinct points x, y, z with x + y + z = 0 in F_3^P (a set, in the game). setlab counts
the k-caps of AG(4,3) for every k (``count_caps``): labelled, up to the affine group, and how
many are complete (no point extends them). Here the counts are recomputed independently and
setlab's rows are held to them; setlab supplies only the values under test.

Method: the affine group AGL(P,3), of order 3^P (3^P - 1)(3^P - 3)...(3^P - 3^(P-1)), is the full
automorphism group of the point-line incidence of AG(P,3). A subset S is encoded as a vertex-
coloured graph: the 3^P points and the 3^(P-1)(3^P - 1)/2 lines as vertices, point-line
incidence as edges, points coloured by membership in S, lines in a third colour. Then the
stabiliser of S in AGL(P,3) is the automorphism group of that coloured graph and two subsets lie
in one orbit iff their graphs are isomorphic, both decided by bliss through igraph (a canonical
labelling and the automorphism count). The classes of k-caps are generated level by level: every
class representative of size k - 1 is extended by one free point of each orbit of its stabiliser
on the free points, and the children are deduplicated by canonical form. Then

* caps(k) = sum over the classes of k-caps of |AGL(P,3)| / |Stab(S)| (orbit-stabiliser),
* (k + 1) caps(k + 1) = sum over the classes of k-caps of |AGL(P,3)| / |Stab(S)| * free(S),
  where free(S) counts the points extending S (each (k + 1)-cap loses any of its k + 1 points),
* a cap is complete iff free(S) = 0.

The encoding is first checked on AG(2,3) and AG(3,3) against a depth-first enumeration of all
their caps and against the orbits of the explicitly listed group AGL(P,3).

References
----------
T. Junttila and P. Kaski, Engineering an efficient canonical labeling tool for large and sparse
graphs, ALENEX 2007 (bliss). D. E. Knuth, SETSET-ALL (2001): the 682,344 caps of 20 cards in
AG(4,3).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import igraph
import numpy as np
import pytest

from setlab.extremal.caps import count_caps

IN_CAP, OFF_CAP, LINE = 0, 1, 2  # vertex colours of the incidence graph


def affine_group_order(p: int) -> int:
    """|AGL(P,3)| = 3^P |GL(P,3)|, |GL(P,3)| = (3^P - 1)(3^P - 3)...(3^P - 3^(P-1))."""
    n = 3**p
    return n * math.prod(n - 3**i for i in range(p))


# -- AG(P,3) as an incidence graph ------------------------------------------------------------


def _relabelling_reads_new_to_old() -> bool:
    """How igraph reads a permutation vector: entry j is the old vertex put at place j, or the
    place vertex j goes to. canonical_permutation is meant for permute_vertices, so ask the latter
    on a graph of one edge 0-1 and a third vertex, permuted by [2, 0, 1]."""
    edges = igraph.Graph(n=3, edges=[(0, 1)]).permute_vertices([2, 0, 1]).get_edgelist()
    assert [tuple(sorted(e)) for e in edges] in ([(1, 2)], [(0, 2)])
    return [tuple(sorted(e)) for e in edges] == [(1, 2)]


NEW_TO_OLD = _relabelling_reads_new_to_old()


@dataclass
class Geometry:
    """AG(P,3): points 0..3^P - 1 (base-3 digits as coordinates), lines, incidence graph."""

    p: int
    n: int = field(init=False)
    third: list[list[int]] = field(init=False)  # third[x][y]: the point completing x, y to a line
    graph: igraph.Graph = field(init=False)
    edges: np.ndarray = field(init=False)  # the graph's edges, one row (point, line) each

    def __post_init__(self) -> None:
        coords = list(itertools.product(range(3), repeat=self.p))
        index = {c: i for i, c in enumerate(coords)}
        self.n = len(coords)
        # x + y + z = 0 coordinatewise: z = -(x + y) mod 3 (for x = y this gives z = x)
        self.third = [
            [index[tuple((-a - b) % 3 for a, b in zip(x, y, strict=True))] for y in coords]
            for x in coords
        ]
        lines = sorted(
            {
                tuple(sorted((x, y, self.third[x][y])))
                for x, y in itertools.combinations(range(self.n), 2)
            }
        )
        assert len(lines) == self.n * (self.n - 1) // 6  # one line through every pair, 3 points
        self.edges = np.array(
            [(x, self.n + i) for i, line in enumerate(lines) for x in line], dtype=np.int64
        )
        self.graph = igraph.Graph(n=self.n + len(lines), edges=self.edges.tolist())

    def colours(self, cap: tuple[int, ...]) -> list[int]:
        colours = [OFF_CAP] * self.n + [LINE] * (self.graph.vcount() - self.n)
        for x in cap:
            colours[x] = IN_CAP
        return colours

    def free_points(self, cap: tuple[int, ...]) -> list[int]:
        """Points that extend the cap: not in it, on no line through two of its points."""
        blocked = set(cap)
        blocked.update(self.third[x][y] for x, y in itertools.combinations(cap, 2))
        return [x for x in range(self.n) if x not in blocked]

    def stabiliser_order(self, cap: tuple[int, ...]) -> int:
        return self.graph.count_automorphisms(color=self.colours(cap))

    def canonical_form(self, cap: tuple[int, ...]) -> bytes:
        """The coloured graph relabelled canonically by bliss: equal iff the caps are in one
        orbit of AGL(P,3). Both the edges and the colours are kept, so equality is exact."""
        colours = self.colours(cap)
        perm = np.array(self.graph.canonical_permutation(color=colours), dtype=np.int64)
        new_label = np.argsort(perm) if NEW_TO_OLD else perm  # new_label[v]: v's canonical place
        vertices = self.graph.vcount()
        ends = np.sort(new_label[self.edges], axis=1)
        edges = np.sort(ends[:, 0] * vertices + ends[:, 1])
        canonical_colours = np.empty(vertices, dtype=np.int8)
        canonical_colours[new_label] = colours
        return edges.tobytes() + canonical_colours.tobytes()

    def orbit_representatives(self, cap: tuple[int, ...], points: list[int]) -> list[int]:
        """One point of each orbit of Stab(cap) on the given (Stab-invariant) points."""
        generators = self.graph.automorphism_group(color=self.colours(cap))
        seen: set[int] = set()
        representatives = []
        for x in points:
            if x in seen:
                continue
            representatives.append(x)
            orbit, todo = {x}, [x]
            while todo:
                y = todo.pop()
                for g in generators:
                    if g[y] not in orbit:
                        orbit.add(g[y])
                        todo.append(g[y])
            seen |= orbit
        return representatives


@cache
def geometry(p: int) -> Geometry:
    return Geometry(p)


# -- generation of the classes, counts by orbit-stabiliser -------------------------------------


@dataclass
class Level:
    """The k-caps: labelled count, classes (representative, orbit size), complete ones."""

    k: int
    caps: int = 0
    complete: int = 0
    complete_classes: int = 0
    extensions: int = 0  # sum over all labelled k-caps of their free points = (k + 1) caps(k + 1)
    classes: list[tuple[tuple[int, ...], int]] = field(default_factory=list)


@cache
def cap_levels(p: int, top: int) -> tuple[Level, ...]:
    """Levels k = 0..top (fewer if the caps end sooner), every class of k-caps generated."""
    geo = geometry(p)
    group = affine_group_order(p)
    representatives: list[tuple[int, ...]] = [()]
    levels = []
    for k in range(top + 1):
        if not representatives:
            break
        level = Level(k)
        children: dict[bytes, tuple[int, ...]] = {}
        for cap in representatives:
            stabiliser = geo.stabiliser_order(cap)
            assert group % stabiliser == 0  # Lagrange: Stab(S) is a subgroup of AGL(P,3)
            orbit = group // stabiliser
            free = geo.free_points(cap)
            level.classes.append((cap, orbit))
            level.caps += orbit
            level.extensions += orbit * len(free)
            if not free:
                level.complete += orbit
                level.complete_classes += 1
            if k == top or not free:
                continue
            # every (k + 1)-cap is, up to the group, S + x for a class S and x free: x may be
            # moved within its Stab(S)-orbit, so one x per orbit reaches every class
            extending = free if stabiliser == 1 else geo.orbit_representatives(cap, free)
            for x in extending:
                child = tuple(sorted((*cap, x)))
                children.setdefault(geo.canonical_form(child), child)
        levels.append(level)
        representatives = list(children.values())
    return tuple(levels)


def check_double_count(levels: tuple[Level, ...]) -> None:
    """(k + 1) caps(k + 1) = sum over k-caps of their free points, level by level."""
    for below, above in itertools.pairwise(levels):
        assert below.extensions == above.k * above.caps, (below.k, above.k)


# -- brute force and the explicit group for AG(2,3), AG(3,3) ------------------------------------


def brute_force_caps(p: int) -> tuple[dict[int, set[int]], dict[int, set[int]]]:
    """Every cap of AG(P,3) by depth-first search in increasing point order, as bitmasks by
    size, and the complete ones. A point is blocked when in the cap or on a line through two of
    its points; a cap is complete when every point is blocked."""
    coords = list(itertools.product(range(3), repeat=p))
    n = len(coords)
    full = (1 << n) - 1

    def on_line(x: int, y: int) -> int:  # the bit of the third point of the line through x, y
        z = tuple((-a - b) % 3 for a, b in zip(coords[x], coords[y], strict=True))
        return 1 << coords.index(z)

    line_bit = [[on_line(x, y) for y in range(n)] for x in range(n)]
    caps: dict[int, set[int]] = {}
    complete: dict[int, set[int]] = {}

    def extend(cap: list[int], mask: int, blocked: int, start: int) -> None:
        caps.setdefault(len(cap), set()).add(mask)
        if blocked == full:
            complete.setdefault(len(cap), set()).add(mask)
        for x in range(start, n):
            if not blocked >> x & 1:
                more = 1 << x
                for y in cap:
                    more |= line_bit[x][y]
                extend([*cap, x], mask | 1 << x, blocked | more, x + 1)

    extend([], 0, 0, 0)
    return caps, complete


def affine_group_images(p: int) -> np.ndarray:
    """Row g: the image of every point under the g-th map x -> A x + b, A invertible mod 3."""
    coords = np.array(list(itertools.product(range(3), repeat=p)), dtype=np.int64)
    n = len(coords)
    weights = 3 ** np.arange(p - 1, -1, -1)  # base-3 index of a coordinate row

    matrices = np.array(list(itertools.product(range(3), repeat=p * p))).reshape(-1, p, p)
    linear = np.einsum("mij,xj->mxi", matrices, coords) % 3 @ weights  # (matrix, point) -> index
    # A is invertible iff x -> A x is one-to-one on the points
    linear = linear[[len(set(row)) == n for row in linear.tolist()]]
    plus = (coords[:, None, :] + coords[None, :, :]) % 3 @ weights  # plus[i, j]: point i + j
    images = plus[linear[:, None, :], np.arange(n)[None, :, None]]  # (A, b, x) -> A x + b
    return images.reshape(-1, n)


def orbit_masks(images: np.ndarray, cap: tuple[int, ...]) -> set[int]:
    masks = np.zeros(len(images), dtype=np.int64)
    for x in cap:
        masks |= np.int64(1) << images[:, x]
    return set(np.unique(masks).tolist())


def assert_rows_match(levels: tuple[Level, ...], table) -> None:
    """setlab's rows (k, caps, classes, complete, complete_classes) against the levels here."""
    mine = [(lv.k, lv.caps, len(lv.classes), lv.complete, lv.complete_classes) for lv in levels]
    theirs = [(r.k, r.caps, r.classes, r.complete, r.complete_classes) for r in table]
    assert theirs[: len(mine)] == mine


# -- tests ------------------------------------------------------------------------------------


@pytest.mark.parametrize("p", [2, 3, 4])
def test_the_incidence_graph_has_exactly_the_affine_group(p):
    # AGL(P,3) maps lines to lines, so it sits inside the automorphisms that keep points and
    # lines apart; equal orders make the two groups one, and stabilisers are automorphisms
    geo = geometry(p)
    assert geo.graph.vcount() == 3**p + 3 ** (p - 1) * (3**p - 1) // 2
    assert geo.stabiliser_order(()) == affine_group_order(p)


@pytest.mark.parametrize("p", [2, 3])
def test_small_planes_and_spaces_against_brute_force_and_the_explicit_group(p):
    caps, complete = brute_force_caps(p)
    images = affine_group_images(p)
    assert len(images) == affine_group_order(p)
    levels = cap_levels(p, 3**p)
    assert [lv.k for lv in levels] == sorted(caps)  # AG(2,3): k <= 4, AG(3,3): k <= 9
    check_double_count(levels)
    assert levels[-1].extensions == 0
    for level in levels:
        # the classes' orbits, listed by the explicit group, are disjoint, of the sizes bliss
        # gave, and together make every k-cap; the complete classes make every complete one
        orbits = [orbit_masks(images, cap) for cap, _ in level.classes]
        assert [len(o) for o in orbits] == [size for _, size in level.classes]
        assert sum(map(len, orbits)) == len(set().union(*orbits))
        assert set().union(*orbits) == caps[level.k]
        complete_orbits = [
            orbit
            for orbit, (cap, _) in zip(orbits, level.classes, strict=True)
            if not geometry(p).free_points(cap)
        ]
        assert set().union(*complete_orbits) == complete.get(level.k, set())
        assert level.caps == len(caps[level.k])
        assert level.complete == len(complete.get(level.k, ()))
    assert max(caps) == {2: 4, 3: 9}[p]  # the largest caps of the plane and of the space
    assert_rows_match(levels, count_caps(p))
    assert len(count_caps(p)) == len(levels)


def test_ag33_has_one_class_of_largest_caps():
    levels = cap_levels(3, 27)
    assert levels[-1].k == 9 and len(levels[-1].classes) == 1


def _ag43_counts_to(k: int) -> int:
    """Count the caps of AG(4,3) to k cards here, match setlab's table, and return caps(k + 1)
    by the double count (no class of (k + 1)-caps is listed)."""
    levels = cap_levels(4, k)
    check_double_count(levels)
    table = count_caps(4)
    assert_rows_match(levels, table)
    assert levels[k].extensions % (k + 1) == 0
    more = levels[k].extensions // (k + 1)
    assert table[k + 1].caps == more
    return more


def test_ag43_counts_to_10_cards_and_the_11_card_count():
    # (to 11 cards and the seed's 12-card odds: the slow test below, 4x longer)
    _ag43_counts_to(10)


@pytest.mark.slow
def test_ag43_counts_to_11_cards_and_the_12_card_odds():
    twelve = _ag43_counts_to(11)
    assert Fraction(twelve, math.comb(81, 12)) == Fraction(325432404, 10074689485)


@pytest.mark.slow
def test_ag43_every_count_class_and_complete_cap_to_the_20_cap():
    levels = cap_levels(4, 81)
    check_double_count(levels)
    assert levels[-1].k == 20 and levels[-1].extensions == 0  # no 21-cap
    assert levels[-1].caps == 682344 and len(levels[-1].classes) == 1
    table = count_caps(4)
    assert len(table) == len(levels)
    assert_rows_match(levels, table)
    assert Fraction(levels[12].caps, math.comb(81, 12)) == Fraction(325432404, 10074689485)
