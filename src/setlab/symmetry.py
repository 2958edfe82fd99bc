"""Configurations up to a deck's symmetry group, by graph isomorphism (nauty).

An incidence structure is a set of points (the cards) and blocks (sets of points), possibly with
further vertices joined to blocks; its incidence graph G has the points, the blocks and those
vertices, coloured by kind. For a configuration S of points, colour S apart: two configurations
are equivalent under Aut(G) iff their coloured graphs are isomorphic, nauty's canonical
certificate of the coloured graph is a complete invariant of the orbit of S, and the coloured
graph's automorphism group is the stabiliser of S, whence |orbit| = |G| / |Aut(S)|.

For AG(P,3) the blocks are the hyperplanes. The automorphisms of the point-hyperplane graph
keeping points on their side are the collineations of AG(P,3), which for P >= 2 are exactly the
affine maps x -> Ax + b (fundamental theorem of affine geometry; F_3 has no field automorphism
but the identity). For P = 1 the "hyperplanes" are the three points themselves, and the graph's
group is S_3 = AGL(1,3) as well. The decks with V values per property
(:mod:`setlab.extremal.caps.deck`) bring their own structure.

References
----------
B. D. McKay and A. Piperno, "Practical graph isomorphism, II", J. Symbolic Comput. 60 (2014).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from functools import cache, cached_property

import numpy as np
import pynauty

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.geometry import affine_group_order, digits, flats

__all__ = [
    "Incidence",
    "affine_incidence",
    "canonical_form",
    "certificate",
    "certificate_key",
    "orbit_representatives",
    "orbit_size",
    "point_orbits",
    "stabiliser_order",
]

EXACT_ORDER = 2**53
"""nauty reports group orders as floating point: below this they are exact integers."""


class Incidence:
    """Points ``0..points-1`` and further vertices (blocks, ...) with their neighbours.

    ``adjacency`` maps each vertex numbered from ``points`` on to the vertices it is joined to;
    ``cells`` are the colour classes of those vertices (points are coloured per configuration);
    ``group_order`` is |Aut| of the uncoloured structure, the group the configurations live in.

    Examples
    --------
    >>> triangle = Incidence(3, {3: [0, 1], 4: [1, 2], 5: [0, 2]}, (frozenset({3, 4, 5}),), 6)
    >>> triangle.orbit_size([0]), triangle.orbit_size([0, 1]), triangle.stabiliser([0])[0]
    (3, 3, 2)
    """

    def __init__(
        self,
        points: int,
        adjacency: Mapping[int, list[int]],
        cells: tuple[frozenset[int], ...],
        group_order: int,
    ) -> None:
        self.points = points
        self.adjacency = dict(adjacency)
        self.cells = cells
        self.group_order = group_order
        self.vertices = points + sum(len(cell) for cell in cells)

    @cached_property
    def _graph(self) -> pynauty.Graph:
        # Built once per structure and process; only its vertex colouring changes between calls
        # (nauty copies the graph into its own structures on every call, so reuse is safe).
        return pynauty.Graph(self.vertices, adjacency_dict=self.adjacency)

    def coloured(self, configuration: Iterable[int]) -> pynauty.Graph:
        """The incidence graph coloured (S, the other points, then each cell of ``cells``)."""
        chosen = {int(c) for c in configuration}
        if not chosen <= self._point_set:
            raise SetlabError(f"card index out of range: the deck has {self.points} cards")
        graph = self._graph
        cells = [chosen, self._point_set - chosen, *self._cells]
        graph.set_vertex_coloring([cell for cell in cells if cell])
        return graph

    @cached_property
    def _point_set(self) -> frozenset[int]:
        return frozenset(range(self.points))

    @cached_property
    def _cells(self) -> list[set[int]]:
        return [set(cell) for cell in self.cells]

    def certificate(self, configuration: Iterable[int]) -> bytes:
        """nauty's whole canonical certificate (the canonically labelled coloured graph),
        prefixed by the size of S: equal for two configurations iff they lie in one orbit.
        Index it by :func:`certificate_key`; decide equality on these bytes."""
        configuration = list(configuration)
        certificate = pynauty.certificate(self.coloured(configuration))
        return len(configuration).to_bytes(4, "little") + certificate

    def stabiliser(self, configuration: Iterable[int]) -> tuple[int, np.ndarray]:
        """|Aut(S)| and the orbit labels of the points under Aut(S) (each its orbit's least)."""
        _, mantissa, exponent, orbits, _ = pynauty.autgrp(self.coloured(configuration))
        return round(mantissa * 10**exponent), np.asarray(orbits[: self.points], dtype=np.int64)

    def automorphisms(self, cells: Iterable[Iterable[int]]) -> tuple[list[np.ndarray], np.ndarray]:
        """Generators of the automorphisms that fix each of ``cells`` (disjoint sets of points)
        as a set, as permutations of the points, and the orbit labels of the points under them
        (each its orbit's least).

        Examples
        --------
        >>> generators, orbits = affine_incidence(2).automorphisms([{0, 1, 2}, {3}])
        >>> orbits.tolist()  # a line L, a point p off it: p's parallel to L, the third parallel
        [0, 0, 0, 3, 4, 4, 6, 6, 6]
        >>> all(set(g[[0, 1, 2]].tolist()) == {0, 1, 2} and g[3] == 3 for g in generators)
        True
        """
        parts = [{int(x) for x in cell} for cell in cells]
        rest = set(range(self.points)).difference(*parts)
        graph = self._graph
        colouring = [*parts, rest, *(set(cell) for cell in self.cells)]
        graph.set_vertex_coloring([cell for cell in colouring if cell])
        generators, _, _, orbits, _ = pynauty.autgrp(graph)
        return (
            [np.asarray(g[: self.points], dtype=np.int64) for g in generators],
            np.asarray(orbits[: self.points], dtype=np.int64),
        )

    def index(self, order: int) -> int:
        """|G| / ``order``: the orbit size of a configuration whose stabiliser has that order."""
        if order > EXACT_ORDER or self.group_order % order:
            raise SetlabError(
                "stabiliser order does not divide the group order: nauty inconsistent"
            )
        return self.group_order // order

    def orbit_size(self, configuration: Iterable[int]) -> int:
        """|G| / |Aut(S)|: the number of configurations equivalent to S."""
        return self.index(self.stabiliser(configuration)[0])

    def canonical_labelling(self, configuration: Iterable[int]) -> np.ndarray:
        """Each point's position in nauty's canonical labelling of S's coloured graph.

        Examples
        --------
        >>> s = affine_incidence(2)  # two pairs of cards land on the same positions
        >>> [s.canonical_labelling(pair)[pair].tolist() for pair in ([0, 1], [0, 4])]
        [[0, 1], [0, 1]]
        """
        position = np.empty(self.vertices, dtype=np.int64)
        position[np.asarray(pynauty.canon_label(self.coloured(configuration)))] = np.arange(
            self.vertices
        )
        return position[: self.points]


@cache
def affine_incidence(properties: int) -> Incidence:
    """AG(P,3) as points and hyperplanes: points 0..N-1, then one vertex per hyperplane.

    Examples
    --------
    >>> s = affine_incidence(2)
    >>> s.points, s.vertices, s.group_order  # 9 points, 12 lines; |AGL(2,3)| = 432
    (9, 21, 432)
    """
    n = deck_size(properties)
    hyperplanes = flats(properties, properties - 1)
    adjacency = {n + h: [int(p) for p in members] for h, members in enumerate(hyperplanes)}
    cells = (frozenset(range(n, n + len(hyperplanes))),)
    return Incidence(n, adjacency, cells, affine_group_order(properties))


def certificate(configuration: Iterable[int], properties: int) -> bytes:
    """The full canonical certificate: equal for two configurations iff one is an affine image
    of the other (a few kilobytes for P = 4; :func:`certificate_key` indexes it).

    Examples
    --------
    >>> from setlab.geometry import random_affine_map
    >>> square = [0, 1, 2, 3, 4, 5, 6, 7, 8]  # a 2-flat of AG(4,3)
    >>> f = random_affine_map(4, 1)
    >>> certificate(square, 4) == certificate(f(square), 4)
    True
    >>> certificate([0, 1, 2], 4) == certificate([0, 1, 3], 4)  # a line vs a triangle
    False
    """
    return affine_incidence(properties).certificate(configuration)


def canonical_form(configuration: Iterable[int], properties: int) -> str:
    """A complete invariant of S under AGL(P,3), as short as S: the cards of S written in an
    affine frame that nauty's canonical labelling picks out.

    nauty's canonical labelling of S's coloured graph orders the points, and an affine map g
    carries the order for S to the order for g(S) (up to automorphisms of S). Take the first
    point as origin o and, going down the order, each point p whose p - o is independent of
    those taken, until P are taken: a frame F_S, with g(F_S) = F_g(S). The coordinates of S in
    its frame are therefore equal for equivalent configurations; and when two configurations
    have equal coordinates, the affine map sending one frame to the other sends one
    configuration to the other. So equal forms <=> one orbit: the form decides equality
    itself, it is not a digest. The form is the sorted coordinate indices, in hex.

    Examples
    --------
    >>> from setlab.geometry import random_affine_map
    >>> square = [0, 1, 2, 3, 4, 5, 6, 7, 8]  # a 2-flat of AG(4,3)
    >>> f = random_affine_map(4, 1)
    >>> canonical_form(square, 4) == canonical_form(f(square), 4)
    True
    >>> canonical_form([0, 1, 2], 4) == canonical_form([0, 1, 3], 4)  # a line vs a triangle
    False
    """
    cards = [int(c) for c in configuration]
    incidence = affine_incidence(properties)
    order = [v for v in pynauty.canon_label(incidence.coloured(cards)) if v < incidence.points]
    vectors = _vectors(properties)
    origin = vectors[order[0]]
    # The frame: reduce each p - o against the rows taken so far (Gauss-Jordan mod 3, each row
    # with a leading 1 in its own pivot column); a non-zero remainder is independent. Beside
    # each row, the combination of frame vectors it is, so that the rows end as F^-1.
    rows: list[list[int]] = []
    pivots: list[int] = []
    frame: list[tuple[int, ...]] = []
    for point in order[1:]:
        rest = [(a - b) % 3 for a, b in zip(vectors[point], origin, strict=True)]
        rest += [int(j == len(frame)) for j in range(properties)]  # which frame vector it is
        for row, pivot in zip(rows, pivots, strict=True):
            factor = rest[pivot]
            if factor:
                rest = [(a - factor * b) % 3 for a, b in zip(rest, row, strict=True)]
        if not any(rest[:properties]):
            continue  # p - o lies in the span of the frame so far
        pivot = next(i for i in range(properties) if rest[i])
        rest = [(a * rest[pivot]) % 3 for a in rest]  # 1 * 1 = 2 * 2 = 1 mod 3: a leading 1
        rows = [
            [(a - row[pivot] * b) % 3 for a, b in zip(row, rest, strict=True)] for row in rows
        ] + [rest]
        pivots.append(pivot)
        frame.append(vectors[point])
        if len(frame) == properties:
            break
    # The rows now read e_pivot = sum_j inverse[pivot][j] (f_j - o): so the coordinates of
    # s - o in the frame are inverse^T applied to it, pivot by pivot.
    inverse = np.zeros((properties, properties), dtype=np.int64)
    for row, pivot in zip(rows, pivots, strict=True):
        inverse[pivot] = row[properties:]
    shifted = (np.array([vectors[c] for c in cards], dtype=np.int64).reshape(-1, properties)
               - np.array(origin)) % 3  # fmt: skip
    coordinates = (shifted @ inverse) % 3
    indices = sorted((coordinates @ (3 ** np.arange(properties - 1, -1, -1))).tolist())
    return f"{len(cards)}:" + ",".join(f"{i:x}" for i in indices)


@cache
def _vectors(properties: int) -> list[tuple[int, ...]]:
    return [tuple(int(d) for d in row) for row in digits(properties)]


def certificate_key(certificate: bytes) -> str:
    """A 32-hex-digit digest of a certificate, to index a dictionary of certificates by.

    Equal certificates have equal keys; equal keys do not prove equal certificates, so a key only
    finds the candidates, and the whole certificates decide (as :func:`orbit_representatives`
    and the search do).

    Examples
    --------
    >>> key = certificate_key(certificate([0, 1, 2], 3))
    >>> len(key), key == certificate_key(certificate([0, 3, 6], 3))  # two lines
    (32, True)
    """
    return hashlib.blake2b(certificate, digest_size=16).hexdigest()


def stabiliser_order(configuration: Iterable[int], properties: int) -> int:
    """|Aut(S)|: the number of affine maps fixing the configuration S as a set.

    Examples
    --------
    >>> stabiliser_order([0, 1, 2], 2)  # |AGL(2,3)| / (12 lines) = 432 / 12
    36
    """
    return affine_incidence(properties).stabiliser(configuration)[0]


def orbit_size(configuration: Iterable[int], properties: int) -> int:
    """Number of configurations affinely equivalent to S: |AGL(P,3)| / |Aut(S)|.

    Examples
    --------
    >>> orbit_size([0, 1, 2], 4)  # every line of AG(4,3) is equivalent
    1080
    """
    return affine_incidence(properties).index(stabiliser_order(configuration, properties))


def orbit_representatives(
    configurations: Iterable[Iterable[int]], properties: int
) -> list[np.ndarray]:
    """One configuration per AGL-orbit among ``configurations``, in first-seen order.

    Examples
    --------
    >>> import itertools
    >>> len(orbit_representatives(itertools.combinations(range(27), 3), 3))  # line, triangle
    2
    """
    seen: dict[bytes, np.ndarray] = {}
    for configuration in configurations:
        configuration = np.asarray(list(configuration), dtype=np.int64)
        seen.setdefault(certificate(configuration, properties), configuration)
    return list(seen.values())


def point_orbits(configuration: Iterable[int], properties: int) -> np.ndarray:
    """Orbit labels of the 3^P points under the stabiliser Aut(S) of the configuration S.

    ``labels[x] == labels[y]`` iff some affine map fixing S as a set sends x to y; so adding x or
    y to S gives affinely equivalent configurations. Each label is the smallest point of its orbit.

    Examples
    --------
    >>> point_orbits([0, 1, 2], 2).tolist()  # the line itself, and the six points off it
    [0, 0, 0, 3, 3, 3, 3, 3, 3]
    """
    return affine_incidence(properties).stabiliser(configuration)[1]
