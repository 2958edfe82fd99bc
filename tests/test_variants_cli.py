"""``setlab find --variant``: JSON answers checked by brute force, and one-line refusals."""

from __future__ import annotations

import json

import pytest

from setlab.cli import main
from setlab.variants import is_four_set, is_ghost, is_ultra
from variant_oracles import brute_force


def answer(capsys, *argv: str) -> dict:
    assert main(list(argv)) == 0
    return json.loads(capsys.readouterr().out)


def refused(capsys, *argv: str) -> str:
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


ULTRA_BOARD = ["0000", "1000", "0100", "1100", "2220", "0012", "2101", "1021", "0222"]
FOUR_BOARD = ["0000", "1111", "2222", "3333", "0123", "3210", "0011", "1100", "2233"]


def test_ultra_json_lists_every_ultraset(capsys):
    got = answer(capsys, "find", "--variant", "ultra", "--json", *ULTRA_BOARD)
    assert set(got) >= {"variant", "properties", "cards", "found"}
    assert got["variant"] == "ultra" and got["properties"] == 4
    indices = [int(c, 3) for c in ULTRA_BOARD]
    assert got["found"] == [list(s) for s in brute_force(indices, "ultra", 4)]
    assert [0, 1, 2, 3] in got["found"]
    assert all(is_ultra([indices[i] for i in s], 4) for s in got["found"])


def test_four_set_json_takes_digits_codes_and_names(capsys):
    got = answer(capsys, "find", "--variant", "4set", "--json", *FOUR_BOARD)
    indices = [int(c, 4) for c in FOUR_BOARD]
    assert got["found"] == [list(s) for s in brute_force(indices, "4set", 4)]
    assert all(is_four_set([indices[i] for i in s], 4) for s in got["found"])
    named = answer(capsys, "find", "--variant", "4set", "--json", "4 blue dotted triangles",
                   "1RSD", "2 green striped squiggles", "3POO")  # fmt: skip
    assert named["found"] == [[0, 1, 2, 3]] and named["codes"][0] == "4BDT"
    assert named["cards"][0] == [3, 3, 3, 3]


def test_ghost_and_three_property_boards(capsys):
    board = ["000", "001", "002", "010", "011", "012", "222"]
    got = answer(capsys, "find", "--variant", "ghost", "-p", "3", "--json", *board)
    indices = [int(c, 3) for c in board]
    assert got["found"] == [list(s) for s in brute_force(indices, "ghost", 3)]
    assert [0, 1, 2, 3, 4, 5] in got["found"]
    assert all(is_ghost([indices[i] for i in s], 3) for s in got["found"])


def test_valued_sets_and_plain_sets(capsys):
    got = answer(capsys, "find", "--variant", "set", "--values", "4", "--json", *FOUR_BOARD)
    assert got["found"] == [
        list(s) for s in brute_force([int(c, 4) for c in FOUR_BOARD], "set", 4, 4)
    ]
    plain = answer(capsys, "find", "--variant", "set", "--json", "1RSD", "2RSD", "3RSD", "1GSD")
    assert plain["found"] == [[0, 1, 2]]


def test_text_output_names_the_fourth_values(capsys):
    assert main(["find", "--variant", "4set", "4BDT", "1RSD", "2GTS", "3POO"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("4 cards, 1 4Set") and "4 blue dotted triangles" in out


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--variant", "ultra", "1230", "0000", "1111", "2222"], "4Set card"),
        (["--variant", "set", "4BDT", "1RSD", "2RSD"], "4Set card"),
        (["--variant", "ghost", "0000", "1111", "2222"], "needs at least 6"),
        (["--variant", "ultra", "0000", "1111", "2222"], "needs at least 4"),
        (["--variant", "4set", "0000", "1111", "2222"], "needs at least 4"),
        (["--variant", "4set", "0000", "1111", "2224", "3333"], "digits from 0 to 3"),
        (["--variant", "4set", "--values", "3", "0000"], "4 values"),
        (["--variant", "ultra", "--values", "4", "0000"], "3 values"),
        (["--variant", "set", "--values", "4", "0000", "0000", "1111", "2222"], "duplicate"),
        (["--variant", "ultra", "-p", "7", "0000000"], "at most 6 properties"),
    ],
)
def test_bad_variant_boards_are_one_line_errors(capsys, argv, words):
    assert words in refused(capsys, "find", *argv)


def test_caps_variant_says_whether_it_computed_or_read_its_value(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "s.sqlite"))
    origins = []
    for _ in range(2):
        assert main(["caps", "--variant", "ultra", "-p", "2", "--json"]) == 0
        answer = json.loads(capsys.readouterr().out)
        assert answer["lower"] == answer["upper"] == 4  # AG(2,3): 4 cards with distinct sums
        origins.append(answer["provenance"]["source"])
    assert origins == ["computed", "store"]
    assert main(["caps", "--variant", "ultra", "-p", "2"]) == 0
    assert "read from the store" in capsys.readouterr().out
