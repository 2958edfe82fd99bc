"""Configurations up to the affine group AGL(P,3), by graph isomorphism (nauty).

Let G be the bipartite incidence graph of the points and the hyperplanes of AG(P,3). Its
automorphisms preserving the side of points are the collineations of AG(P,3), which for P >= 2
are exactly the affine maps x -> Ax + b (fundamental theorem of affine geometry; F_3 has no field
automorphism but the identity). So two configurations S, T of points are AGL-equivalent iff G with
S coloured apart is isomorphic to G with T coloured apart, and nauty's canonical certificate of
the coloured graph is a complete invariant of the AGL-orbit of S. Its automorphism group is the
stabiliser of S, whence the orbit size |AGL(P,3)| / |Aut(S)| (orbit-stabiliser).

For P = 1 the "hyperplanes" are the three points themselves, and the graph's group is S_3 =
AGL(1,3) as well.

References
----------
B. D. McKay and A. Piperno, "Practical graph isomorphism, II", J. Symbolic Comput. 60 (2014).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from functools import cache

import numpy as np
import pynauty

from setlab.cards import deck_size
from setlab.errors import SetlabError
from setlab.geometry import affine_group_order, flats


@cache
def _incidence_graph(properties: int) -> pynauty.Graph:
    """The point-hyperplane incidence graph: points 0..N-1, then one vertex per hyperplane.

    Built once per P; only its vertex colouring changes between calls (nauty copies the graph
    into its own structures on every call, so reusing the object is safe within one process).
    """
    n = deck_size(properties)
    hyperplanes = flats(properties, properties - 1)
    adjacency = {n + h: [int(p) for p in members] for h, members in enumerate(hyperplanes)}
    return pynauty.Graph(n + len(hyperplanes), adjacency_dict=adjacency)


def _graph(configuration: Iterable[int], properties: int) -> pynauty.Graph:
    """The incidence graph coloured (S, other points, hyperplanes)."""
    n = deck_size(properties)
    chosen = {int(c) for c in configuration}
    if any(not 0 <= c < n for c in chosen):
        raise SetlabError(f"card index out of range for {properties} properties")
    graph = _incidence_graph(properties)
    cells = [chosen, set(range(n)) - chosen, set(range(n, graph.number_of_vertices))]
    graph.set_vertex_coloring([cell for cell in cells if cell])
    return graph


def certificate(configuration: Iterable[int], properties: int) -> bytes:
    """A 16-byte key equal for two configurations iff one is an affine image of the other.

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
    configuration = list(configuration)
    digest = hashlib.blake2b(digest_size=16)
    digest.update(len(configuration).to_bytes(4, "little"))
    digest.update(pynauty.certificate(_graph(configuration, properties)))
    return digest.digest()


def stabiliser_order(configuration: Iterable[int], properties: int) -> int:
    """|Aut(S)|: the number of affine maps fixing the configuration S as a set.

    Examples
    --------
    >>> stabiliser_order([0, 1, 2], 2)  # |AGL(2,3)| / (12 lines) = 432 / 12
    36
    """
    _, mantissa, exponent, _, _ = pynauty.autgrp(_graph(configuration, properties))
    return round(mantissa * 10**exponent)


def orbit_size(configuration: Iterable[int], properties: int) -> int:
    """Number of configurations affinely equivalent to S: |AGL(P,3)| / |Aut(S)|.

    Examples
    --------
    >>> orbit_size([0, 1, 2], 4)  # every line of AG(4,3) is equivalent
    1080
    """
    group = affine_group_order(properties)
    stabiliser = stabiliser_order(configuration, properties)
    if group % stabiliser:
        raise SetlabError("stabiliser order does not divide |AGL|: nauty result inconsistent")
    return group // stabiliser


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
    orbits = pynauty.autgrp(_graph(configuration, properties))[3]
    return np.asarray(orbits[: deck_size(properties)], dtype=np.int64)
