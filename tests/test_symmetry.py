"""AGL(P,3) certificates: invariant under affine maps, complete on small cases."""

from __future__ import annotations

import itertools
import math
import random
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setlab.errors import SetlabError
from setlab.extremal.caps import deck
from setlab.geometry import random_affine_map
from setlab.symmetry import (
    affine_incidence,
    canonical_form,
    certificate,
    orbit_representatives,
    orbit_size,
    point_orbits,
    stabiliser_order,
)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 20))
def test_certificates_are_invariant_under_random_affine_maps(seed, size):
    rng = np.random.default_rng(seed)
    configuration = rng.choice(81, size=size, replace=False)
    f = random_affine_map(4, rng)
    assert certificate(configuration, 4) == certificate(f(configuration), 4)


@pytest.mark.parametrize(("properties", "k"), [(2, 3), (2, 4), (2, 5), (3, 3), (3, 4), (3, 5)])
def test_orbits_of_k_subsets_add_up_to_all_subsets(properties, k):
    representatives = orbit_representatives(
        itertools.combinations(range(3**properties), k), properties
    )
    assert sum(orbit_size(r, properties) for r in representatives) == comb(3**properties, k)


def test_known_orbit_counts():
    # 4 points of AG(2,3): a line plus a point, or 4 points in general position (an affine frame
    # plus one more determines it): exactly two classes; in AG(3,3) three (coplanar or not).
    assert len(orbit_representatives(itertools.combinations(range(9), 4), 2)) == 2
    assert len(orbit_representatives(itertools.combinations(range(27), 4), 3)) == 3
    # the whole deck is fixed by every affine map: |AGL(4,3)| = 81 |GL(4,3)|
    assert stabiliser_order(range(81), 4) == 81 * math.prod(81 - 3**i for i in range(4))


@pytest.mark.parametrize(
    ("properties", "values", "k"), [(2, 4, 3), (2, 4, 4), (2, 2, 3), (3, 2, 4)]
)
def test_orbits_of_a_valued_deck_add_up_to_all_subsets(properties, values, k):
    """The V-valued decks share the nauty set-up: orbit-stabiliser over all k-subsets."""
    d = deck(properties, values)
    seen = {}
    for subset in itertools.combinations(range(d.size), k):
        seen.setdefault(d.incidence.certificate(subset), subset)
    assert sum(d.incidence.orbit_size(c) for c in seen.values()) == comb(d.size, k)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 12))
def test_the_two_pictures_of_ag33_give_one_group(seed, size):
    """AG(3,3) as points and hyperplanes (symmetry) and as the V = 3 deck's slices (caps)."""
    rng = np.random.default_rng(seed)
    a, b = (rng.choice(27, size=size, replace=False) for _ in range(2))
    slices = deck(3).incidence
    assert slices.orbit_size(a) == orbit_size(a, 3)
    same = slices.certificate(a) == slices.certificate(b)
    assert same == (certificate(a, 3) == certificate(b, 3))
    assert np.array_equal(slices.stabiliser(a)[1], point_orbits(a, 3))
    assert np.array_equal(affine_incidence(3).stabiliser(b)[1], point_orbits(b, 3))


def test_inexact_group_orders_are_refused():
    with pytest.raises(SetlabError, match="nauty inconsistent"):
        affine_incidence(2).index(7)  # 7 does not divide |AGL(2,3)| = 432


def test_canonical_forms_are_equal_exactly_for_affine_images():
    """The canonical form is a complete invariant: on AG(2,3), two configurations have equal
    forms iff one of the 432 affine maps carries one onto the other (brute force); on AG(3,3)
    and AG(4,3) the forms split random configurations and their images as nauty's whole
    certificates do."""
    vectors = [tuple(int(d) for d in v) for v in itertools.product(range(3), repeat=2)]
    index = {v: i for i, v in enumerate(vectors)}
    maps = []
    for a, b, c, d, e, f in itertools.product(range(3), repeat=6):
        if (a * d - b * c) % 3:
            maps.append([index[((a * x + b * y + e) % 3, (c * x + d * y + f) % 3)]
                         for x, y in vectors])  # fmt: skip
    assert len(maps) == 432
    rng = random.Random(7)
    configurations = [sorted(rng.sample(range(9), rng.randint(0, 9))) for _ in range(60)]
    for s, t in itertools.combinations(configurations, 2):
        images = {tuple(sorted(g[x] for x in s)) for g in maps}
        assert (canonical_form(s, 2) == canonical_form(t, 2)) == (tuple(t) in images)
    for properties in (3, 4):
        n = 3**properties
        sample = []
        for _ in range(80):
            s = sorted(rng.sample(range(n), rng.randint(1, 15)))
            image = sorted(int(x) for x in random_affine_map(properties, rng.randrange(10**6))(s))
            sample += [s, image]
        forms = {}
        for s in sample:
            forms.setdefault(canonical_form(s, properties), set()).add(certificate(s, properties))
        assert all(len(certificates) == 1 for certificates in forms.values())
        assert len(forms) == len({certificate(s, properties) for s in sample})
