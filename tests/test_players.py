"""For a player and a teacher at the terminal: forgiving boards, helpful errors, check, hint.

Oracles: the rules of SET by hand (a property is all same or all different), and brute force
over the board's triples for the hint.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from setlab.cards import VALUE_NAMES, Card, accepted_words, parse_board, parse_card
from setlab.cli import main
from setlab.errors import SetlabError
from setlab.find import hint, mismatches


def one_error(capsys, *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.splitlines()) == 1, (code, out, err)
    assert err.startswith("error: ")
    return err.strip()


def test_typos_get_did_you_mean(capsys):
    assert "did you mean 'green'" in one_error(capsys, "find", "1 gren open oval", "1RSD")
    assert "did you mean 'oval'" in one_error(capsys, "find", "2", "red", "striped", "ovels")
    assert "see 'setlab words'" in one_error(capsys, "find", "2 blue ovals")


@pytest.mark.parametrize("number", ["4", "0", "9"])
def test_a_number_out_of_range_says_one_to_three(capsys, number):
    line = one_error(capsys, "find", f"{number} green open ovals", "1RSD")
    assert "the number must be 1, 2 or 3" in line
    line = one_error(capsys, "find", number, "green", "open", "ovals", "1RSD")
    assert "the number must be 1, 2 or 3" in line


def test_every_listed_word_is_accepted_and_means_its_value():
    for axis, (prop, values) in enumerate(accepted_words().items()):
        for value, words in values.items():
            for word in words:
                others = ["1", "red", "solid", "diamond"]
                others[axis] = word
                digit = VALUE_NAMES[axis].index(value)
                assert Card(parse_card(" ".join(others))).vector[axis] == digit, (prop, word)


def test_words_command_lists_them(capsys):
    assert main(["words"]) == 0
    out = capsys.readouterr().out
    assert "striped" in out and "hatched" in out and "squiggle" in out


@given(st.lists(st.integers(0, 80), min_size=1, max_size=6, unique=True), st.booleans())
def test_a_board_typed_unquoted_or_with_commas_reads_as_quoted(indices, commas):
    cards = [Card(i) for i in indices]
    names = [c.name for c in cards]
    typed = [", ".join(names)] if commas else [w for name in names for w in name.split()]
    assert parse_board(typed) == cards


def test_an_ambiguous_unquoted_board_is_refused(capsys):
    assert "quote each card" in one_error(capsys, "find", "2", "red", "green", "ovals")


def brute_force_is_set(cards: list[Card]) -> bool:
    return all(len({c.vector[i] for c in cards}) in (1, 3) for i in range(cards[0].properties))


@given(st.lists(st.integers(0, 80), min_size=3, max_size=3, unique=True))
def test_mismatches_name_exactly_the_failing_properties(indices):
    cards = [Card(i) for i in indices]
    failing = mismatches(*cards)
    assert (not failing) == brute_force_is_set(cards)
    assert [m.axis for m in failing] == [
        i for i in range(4) if len({c.vector[i] for c in cards}) == 2
    ]


def test_check_command(capsys):
    assert main(["check", "1RSD", "2GSD", "3GSO"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("not a set") and "colour: two are green, one is red" in out
    assert "shape: two have diamonds, one has ovals" in out and "shading" not in out
    assert main(["check", "1 red solid diamond,", "2RSD,", "3 red solid diamonds"]) == 0
    assert capsys.readouterr().out.startswith("a set:")
    assert "three cards" in one_error(capsys, "check", "1RSD", "2RSD")
    with pytest.raises(SetlabError):
        mismatches(Card(0), Card(0), Card(1))


@given(st.lists(st.integers(0, 80), min_size=0, max_size=15, unique=True))
def test_the_hint_is_a_card_of_a_set_and_in_the_most_sets(indices):
    triples = [t for t in itertools.combinations(range(len(indices)), 3)
               if brute_force_is_set([Card(indices[i]) for i in t])]  # fmt: skip
    position, count = hint(indices)
    assert count == len(triples)
    if not triples:
        assert position is None
        return
    through = [sum(i in t for t in triples) for i in range(len(indices))]
    assert through[position] == max(through)


def test_find_hint_does_not_give_the_set_away(capsys):
    assert main(["find", "--hint", "1RSD", "2GTS", "3POO", "1GSD"]) == 0
    out = capsys.readouterr().out
    assert "Hint: look for a set with 1 red solid diamond" in out
    assert "green" not in out and "purple" not in out


def test_draw_reads_a_board_file_like_find(tmp_path, capsys):
    board = tmp_path / "board.txt"
    board.write_text("1RSD\n2RSD  # a comment\n3RSD\n")
    out = tmp_path / "board.svg"
    assert main(["draw", "-f", str(board), "--sets", "-o", str(out)]) == 0
    assert "3 cards, 1 set outlined" in capsys.readouterr().out and out.exists()
    assert "not both" in one_error(capsys, "draw", "-f", str(board), "--config", str(board),
                                   "-o", str(out))  # fmt: skip
