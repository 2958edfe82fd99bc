"""The blog's methods find exactly the sets setlab finds, and its bit trick is the third card."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setlab.blog import (
    METHODS,
    encode_bits,
    find_sets_bits,
    is_set_mod,
    is_set_readable,
    third_card_bits,
)
from setlab.find import find_sets
from setlab.geometry import digits, third_card_table


def boards(max_properties: int = 5):
    return st.integers(1, max_properties).flatmap(
        lambda p: st.tuples(
            st.just(p),
            st.lists(st.integers(0, 3**p - 1), min_size=0, max_size=min(3**p, 20), unique=True),
        )
    )


@settings(max_examples=60, deadline=None)
@given(boards())
@pytest.mark.parametrize("name", list(METHODS))
def test_every_blog_method_finds_the_sets_setlab_finds(name, board):
    properties, indices = board
    vectors = [tuple(int(x) for x in digits(properties)[i]) for i in indices]
    expected = find_sets(indices, properties) if indices else []
    assert METHODS[name](vectors) == expected


def test_bitwise_third_card_is_the_third_card_table_for_every_pair():
    table = third_card_table(4)
    vectors = [tuple(int(x) for x in row) for row in digits(4)]
    bits = [encode_bits(v) for v in vectors]
    for x, y in itertools.product(range(81), repeat=2):
        assert third_card_bits(bits[x], bits[y]) == bits[table[x, y]]


def test_the_two_set_tests_agree_on_all_triples_of_p3():
    vectors = [tuple(int(x) for x in row) for row in digits(3)]
    for a, b, c in itertools.combinations(vectors, 3):
        assert is_set_readable(a, b, c) == is_set_mod(a, b, c)


def test_the_whole_deck_has_1080_sets_by_the_fastest_blog_method():
    assert len(find_sets_bits([tuple(int(x) for x in row) for row in digits(4)])) == 1080
