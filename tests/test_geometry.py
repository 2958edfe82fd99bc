"""AG(P,3): third cards, lines, flats, parallel classes, affine maps, from first principles."""

from __future__ import annotations

import itertools
import math
from math import comb

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setlab.geometry import (
    affine_group_order,
    digits,
    flats,
    lines,
    parallel_classes,
    random_affine_map,
    rank_mod3,
    third_card_table,
    third_cards,
)


def gaussian_binomial(n: int, k: int, q: int = 3) -> int:
    numerator = denominator = 1
    for i in range(k):
        numerator *= q ** (n - i) - 1
        denominator *= q ** (i + 1) - 1
    return numerator // denominator


@pytest.mark.parametrize("properties", [1, 2, 3, 4, 5, 6])
def test_any_two_cards_determine_exactly_one_third_card(properties):
    d = digits(properties).astype(int)
    table = third_card_table(properties).astype(int)
    n = len(d)
    # the table's third card completes every pair to a zero-sum triple
    assert (((d[:, None, :] + d[None, :, :] + d[table]) % 3) == 0).all()
    # and it is the only one: for distinct x, y no other z has x + y + z = 0
    pairs = np.array(list(itertools.combinations(range(n), 2)))[:2000]
    for x, y in pairs:
        sums = (d[x] + d[y] + d) % 3
        assert np.flatnonzero(~sums.any(axis=1)).tolist() == [table[x, y]]
        assert table[x, y] not in (x, y)


def test_third_cards_arithmetic_matches_the_table():
    rng = np.random.default_rng(0)
    x, y = rng.integers(0, 243, size=(2, 500))
    assert (third_cards(x, y, 5) == third_card_table(5)[x, y]).all()


@pytest.mark.parametrize(("properties", "count"), [(2, 12), (3, 117), (4, 1080), (5, 9801)])
def test_line_counts(properties, count):
    n = 3**properties
    found = lines(properties)
    assert len(found) == count == n * (n - 1) // 6
    assert (np.diff(found, axis=1) > 0).all()
    assert (digits(properties)[found].sum(axis=1) % 3 == 0).all()


@pytest.mark.parametrize(("properties", "dim"), [(3, 1), (3, 2), (4, 2), (4, 3), (5, 2)])
def test_flats_are_cosets_and_counted_by_gaussian_binomials(properties, dim):
    found = flats(properties, dim)
    assert len(found) == 3 ** (properties - dim) * gaussian_binomial(properties, dim)
    d = digits(properties).astype(int)
    for flat in found[:: max(1, len(found) // 50)]:
        differences = (d[flat] - d[flat[0]]) % 3
        assert rank_mod3(differences) == dim
        # closed under lines: the third card of any two members is a member
        table = third_card_table(properties)
        assert set(table[np.ix_(flat, flat)].ravel()) == set(flat.tolist())


def test_magic_squares_hold_twelve_sets_each():
    table = third_card_table(4)
    for square in flats(4, 2)[:100]:
        members = set(square.tolist())
        inside = sum(int(table[a, b]) in members for a, b in itertools.combinations(square, 2))
        assert inside == 3 * 12  # each of the plane's 12 lines, once from each of its 3 pairs


def test_parallel_classes_partition_the_deck():
    classes = parallel_classes(4)
    assert classes.shape == (40, 3, 27)
    for slices in classes:
        assert sorted(slices.ravel().tolist()) == list(range(81))
    hyperplanes = {tuple(s) for s in classes.reshape(-1, 27).tolist()}
    assert hyperplanes == {tuple(h) for h in flats(4, 3).tolist()}


def test_affine_group_order_matches_a_brute_count_for_p2():
    invertible = sum(
        rank_mod3(np.array(m).reshape(2, 2)) == 2 for m in itertools.product(range(3), repeat=4)
    )
    assert affine_group_order(2) == 9 * invertible == 432
    # |AGL(4,3)| = 3^4 translations times |GL(4,3)| = (81 - 1)(81 - 3)(81 - 9)(81 - 27)
    assert affine_group_order(4) == 81 * math.prod(81 - 3**i for i in range(4))


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_affine_maps_permute_cards_and_map_lines_to_lines(properties, seed):
    f = random_affine_map(properties, seed)
    perm = f.permutation()
    assert sorted(perm.tolist()) == list(range(3**properties))
    images = np.sort(f(lines(properties)), axis=1)
    assert {tuple(r) for r in images.tolist()} == {tuple(r) for r in lines(properties).tolist()}


def test_lines_through_a_point():
    # every card lies on (N - 1) / 2 lines
    found = lines(4)
    assert (np.bincount(found.ravel(), minlength=81) == 40).all()
    assert comb(81, 2) == 3 * len(found)
