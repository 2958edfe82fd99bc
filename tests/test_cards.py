"""Cards: names, codes and digit vectors round-trip; bad names fail with one clear message."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from setlab.cards import Card, deck, index_of, parse_board, parse_card, vector_of
from setlab.errors import SetlabError


def test_all_81_cards_round_trip_through_name_code_and_digits():
    names, codes = set(), set()
    for card in deck(4):
        assert Card.parse(card.name) == card
        assert Card.parse(card.code) == card
        assert Card.parse(card.digits) == card
        assert Card.from_vector(card.vector) == card
        assert len(card.code) <= 4
        names.add(card.name)
        codes.add(card.code)
    assert len(names) == len(codes) == 81


def test_coordinate_order_is_number_colour_shading_shape():
    assert Card.parse("2 red striped ovals").vector == (1, 0, 1, 2)
    assert Card.parse("3 purple open squiggles").vector == (2, 2, 2, 1)
    assert Card.parse("0120").index == 15


@pytest.mark.parametrize(
    "text",
    [
        "ovals striped red 2",
        "two lined red pills",
        "2 RED STRIPED OVAL",
        "two, red, shaded, ellipses",
        "double red hatched oval",
    ],
)
def test_words_in_any_order_with_synonyms_and_plurals(text):
    assert Card.parse(text).code == "2RTO"


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("2 blue striped ovals", "blue"),
        ("2 red striped", "shape"),
        ("2 red green striped ovals", "colour"),
        ("01201", "4 digits"),
        ("", "empty"),
    ],
)
def test_bad_cards_name_the_offending_token(text, word):
    with pytest.raises(SetlabError, match=word):
        parse_card(text)


def test_synonyms_for_open_and_solid():
    for word in ("empty", "outlined", "hollow", "open"):
        assert Card.parse(f"1 green {word} diamond").code == "1GOD"
    assert Card.parse("1 green filled diamond").code == "1GSD"


def test_other_numbers_of_properties_use_digit_strings():
    card = Card.parse("21020", properties=5)
    assert card.vector == (2, 1, 0, 2, 0) and card.code == card.name == "21020"
    with pytest.raises(SetlabError, match="digits"):
        Card.parse("1 red solid diamond", properties=3)


def test_parse_board_rejects_duplicates_and_emptiness():
    with pytest.raises(SetlabError, match="duplicate"):
        parse_board(["1RSD", "one red solid diamond"])
    with pytest.raises(SetlabError, match="empty"):
        parse_board([])


@given(st.integers(1, 8).flatmap(lambda p: st.tuples(st.just(p), st.integers(0, 3**p - 1))))
def test_index_vector_round_trip(case):
    properties, index = case
    assert index_of(vector_of(index, properties)) == index


def test_a_card_given_twice_is_named_once_or_with_its_other_spelling():
    with pytest.raises(SetlabError) as same:
        parse_board(["0000", "1111", "0000"])
    assert str(same.value) == "duplicate card '0000'"
    with pytest.raises(SetlabError) as other:
        parse_board(["1RSD", "1 red solid diamond"])
    assert str(other.value) == "duplicate card '1 red solid diamond' (same as '1RSD')"
