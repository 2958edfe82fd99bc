"""AGL(P,3) certificates: invariant under affine maps, complete on small cases."""

from __future__ import annotations

import itertools
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setlab.geometry import random_affine_map
from setlab.symmetry import certificate, orbit_representatives, orbit_size, stabiliser_order


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
    assert stabiliser_order(range(81), 4) == 1_965_150_720
