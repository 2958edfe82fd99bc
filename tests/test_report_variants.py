"""The variants' report section: exact means from counting, honest extremal rows, the figure."""

from __future__ import annotations

import itertools
import re
import xml.etree.ElementTree as ET
from fractions import Fraction
from math import comb

import pytest

from report_helpers import quick_run
from setlab.cards import Card
from setlab.errors import SetlabError
from setlab.report.sections import variants
from setlab.store import Store
from setlab.variants import is_ultra


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("variants")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(variants, "QUICK_GAMES", 300)
        quick_run(out, out / "store.db", variants)
    return out


def rows(markdown: str, first: str) -> list[list[str]]:
    return [
        [cell.strip() for cell in line.strip("|").split("|")]
        for line in markdown.splitlines()
        if line.startswith(f"| {first}")
    ]


def test_the_exact_means_are_the_counting_values(report):
    markdown = (report / "report.md").read_text()
    table = {row[0]: row for row in rows(markdown, "`")}
    assert set(table) == {f"`{m}`" for m in variants.MODES}
    # Junior: each pair of the 27 cards lies on one set, T = 27 * 26 / 6.
    # UltraSet: each card is the third of 40 pairs, T = 81 * C(40, 2).
    # 4Set Junior: any 3 distinct cards of F_2^6 have one distinct fourth, T = 64 * 63 * 62 / 24.
    expected = {
        "`junior`": Fraction(comb(9, 3) * 117, comb(27, 3)),
        "`ultra`": Fraction(comb(12, 4) * 81 * comb(40, 2), comb(81, 4)),
        "`ultra9`": Fraction(comb(9, 4) * 81 * comb(40, 2), comb(81, 4)),
        "`4set-junior`": Fraction(comb(9, 4) * 64 * 63 * 62 // 24, comb(64, 4)),
    }
    for mode, value in expected.items():
        assert table[mode][7].startswith(f"{value} = "), table[mode]
    # Set-Chain's first deal is a plain deal of 12 cards: C(12, 3) * 1080 / C(81, 3)
    assert table["`chain`"][7].startswith(f"{Fraction(comb(12, 3) * 1080, comb(81, 3))} = ")


def test_extremal_rows_say_equal_only_when_proven(report):
    markdown = (report / "report.md").read_text()
    known = {
        (row[0], row[1]): row[4] for row in rows(markdown, "UltraSet") + rows(markdown, "4Set")
    }
    assert known["UltraSet", "4"] == "f_ultra(4) = 9"
    assert known["4Set", "3"] == "f_4set(3) = 9"
    assert re.fullmatch(r"\d+ <= f_ultra\(5\) <= 22", known["UltraSet", "5"])
    assert re.fullmatch(r"\d+ <= f_4set\(4\) <= 23", known["4Set", "4"])


def test_a_deal_larger_than_a_proven_structure_free_board_never_misses_one(report):
    """f_ultra(4) = 9 is proven, so 12 cards always hold an UltraSet: the odds column says
    "never", where a simulation alone could only say "none in N games"; 9 cards may miss one."""
    markdown = (report / "report.md").read_text()
    table = {row[0]: row for row in rows(markdown, "`")}
    for mode in ("`ultra`", "`ultra-chain`"):
        assert table[mode][4] == "never: f_ultra(4) = 9 < 12 (proven)"
    assert not table["`ultra9`"][4].startswith("never")
    assert not table["`ghost`"][4].startswith("never")  # f_ghost(4) is not proven


def test_the_figure_outlines_every_ultraset_of_ten_cards_through_the_tenth(report):
    root = ET.parse(report / "images" / "variants-ultra-board.svg").getroot()
    cards = [c for c in root.iter() if c.get("class") == "card"]
    digits = [c.find("{http://www.w3.org/2000/svg}title").text for c in cards]
    board = [Card.parse(name).index for name in digits]
    assert len(board) == 10
    expected = {
        g for g in itertools.combinations(range(10), 4) if is_ultra([board[i] for i in g], 4)
    }
    assert all(9 in g for g in expected) and expected  # the first 9 hold none
    drawn = {
        tuple(int(p) for p in g.get("data-positions").split())
        for g in root.iter()
        if g.get("class") == "structure"
    }
    assert drawn == expected


def test_quick_reads_a_proven_stored_value_with_its_witness_rechecked(tmp_path, monkeypatch):
    monkeypatch.setattr(variants, "QUICK_GAMES", 200)
    store_path = tmp_path / "store.db"
    store = Store(store_path)

    store.record_witness("maxfree", 2, 0, "max", 4, [0, 1, 2, 4], "test", {"variant": "ultra"})
    store.record_bound("maxfree", 2, 0, "max", 4, {"method": "test"}, "test", {"variant": "ultra"})
    report = quick_run(tmp_path / "out", store_path, variants)
    markdown = (tmp_path / "out" / "report.md").read_text()
    assert "read from the results store" in markdown
    assert report.sections[0].title == variants.TITLE


def test_a_stored_witness_holding_a_structure_stops_the_run(tmp_path, monkeypatch):
    monkeypatch.setattr(variants, "QUICK_GAMES", 200)
    store = Store(tmp_path / "store.db")
    params = {"variant": "ultra"}
    store.record_witness("maxfree", 2, 0, "max", 4, [0, 1, 3, 4], "bad", params)  # 0+4 = 1+3
    store.record_bound("maxfree", 2, 0, "max", 4, {"method": "test"}, "test", params)
    with pytest.raises(SetlabError, match="claims 4 but its witness gives -1"):
        quick_run(tmp_path / "out", tmp_path / "store.db", variants)
