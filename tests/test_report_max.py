"""The max-sets section of `setlab reproduce`: Tables 1-3, the conjecture, the store round trip."""

from __future__ import annotations

import sqlite3
import xml.etree.ElementTree as ET

import pytest

from report_helpers import claim_rows, quick_run
from seed_oracles import PAPER_TABLE_1, PAPER_TABLE_3
from setlab.errors import SetlabError
from setlab.report.model import Context
from setlab.report.sections import SECTIONS, max_sets, paper_configurations


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two quick runs on one store: the first walks AG(3,3) (and stores), the second reads."""
    base = tmp_path_factory.mktemp("max-report")
    store = base / "store.sqlite"
    reports = [
        quick_run(base / "first", store, max_sets),
        quick_run(base / "second", store, max_sets),
    ]
    return base, reports


def test_section_follows_the_paper_configurations():
    assert SECTIONS.index(max_sets) == SECTIONS.index(paper_configurations) + 1


@pytest.mark.parametrize("run", [0, 1])
def test_quick_report_reproduces_tables_1_and_3_and_the_conjecture(runs, run):
    base, reports = runs
    name = ("first", "second")[run]
    assert reports[run].reproduced == (35, 35)  # 10 of Table 1, 25 of Table 3
    assert reports[run].checked == (15, 15)  # the conjecture, n = 13..27: no stated values
    values = claim_rows((base / name / "index.html").read_text())
    for n, value in enumerate(PAPER_TABLE_1, start=3):
        assert values[f"Most sets among {n} cards, 4 properties (Table 1)"] == str(value)
    for n, value in enumerate(PAPER_TABLE_3, start=3):
        assert values[f"Most sets among {n} cards, 3 properties (Table 3)"] == str(value)
        if n >= 13:
            statement = (
                f"Most sets among {n} cards, 4 properties = Table 3's value (the paper's "
                "conjecture)"
            )
            assert values[statement] == str(value)
    report = (base / name / "report.md").read_text()
    assert "**NO**" not in report
    assert "| 7 | 3,477,216,600 | 5 | 29 hours, 12 minutes |" in report  # Table 2, beside setlab
    assert "| 18 | 36 | 36 [" in report  # Table 3's row with setlab's max and min
    root = ET.parse(base / name / "images" / "max-sets-13-cards.svg").getroot()
    assert root.tag.endswith("svg")
    svg = (base / name / "images" / "max-sets-13-cards.svg").read_text()
    assert svg.count('class="point"') == 13 and svg.count('class="set-line"') == 16


def test_first_run_walks_second_reads_the_store(runs):
    base, _ = runs
    first = (base / "first" / "report.md").read_text()
    second = (base / "second" / "report.md").read_text()
    assert "computed in this run: Solver(3): one exhaustive walk" in first
    assert "computed in this run: Solver(3)" not in second
    assert "read from the results store (certificate" in second
    assert "witness re-counted over its pairs" in second
    # without the P = 4 table in the store, --quick says how to get it instead of computing it
    assert "this results store does not hold it yet" in second
    assert "| n | M(n) | proven by | m(n) | proven by |" not in second


def test_table_of_every_n_from_the_store(runs, monkeypatch):
    """The table of every n, as the full run prints it for P = 4, here from the P = 3 store."""
    base, _ = runs
    monkeypatch.setenv("SETLAB_STORE", str(base / "store.sqlite"))
    context, seen = Context(quick=True), []
    context.progress = seen.append  # the report's bar shows this beside the section's name
    known = max_sets._stored(context, 3)
    assert len(known) == 2 * 28 and all(k.value.proven for k in known.values())
    assert seen[0] == "P = 3: 0 of 56 values verified"
    assert seen[-1] == "P = 3: 56 of 56 values verified"
    table = max_sets._big_table(known, 3)
    rows = {row[0]: row for row in table.rows}
    assert rows["18"] == ("18", "36", "exhaustive", "24", "exhaustive")
    assert rows["27"][1] == rows["27"][3] == "117"
    assert "*exhaustive*: every subset." in table.caption and "*complement*" not in table.caption
    assert "Every value: read from the results store (certificates #" in table.caption
    assert "each re-verified in this run: witness re-counted" in table.caption


def test_a_tampered_store_is_refused(runs, tmp_path):
    """A stored witness that no longer has its claimed count stops the quick run."""
    base, _ = runs
    store = tmp_path / "store.sqlite"
    with sqlite3.connect(base / "store.sqlite") as source, sqlite3.connect(store) as copy:
        source.backup(copy)
    with sqlite3.connect(store) as db:
        db.execute(
            "UPDATE results SET witness='[0, 1, 3, 4]' "
            "WHERE problem='maxsets' AND properties=3 AND cards=4"
        )
    with pytest.raises(SetlabError, match="n=4"):
        quick_run(tmp_path / "report", store, max_sets)


def test_open_values_show_their_range():
    v = max_sets.Value(4, 48, "max", 252, 253, False, "bounds", [], "search")
    known = max_sets.Known(v, max_sets.Number(252, "example", 0.0))
    assert known.text == "252..253 (open)" and known.shown.value == "252..253 (open)"
    low = max_sets.Known(
        max_sets.Value(4, 31, "min", 29, 26, False, "complement", [], "search"), known.number
    )
    assert low.text == "26..29 (open)"


def test_the_answer_names_what_is_open(runs, monkeypatch):
    base, _ = runs
    monkeypatch.setenv("SETLAB_STORE", str(base / "store.sqlite"))
    known = max_sets._stored(Context(quick=True), 3)
    assert "**all 28 maxima and all 28 minima are proven**" in max_sets._answer(known, 3)
    for n in (20, 21, 23):
        v = known["max", n].value
        known["max", n] = max_sets.Known(
            max_sets.Value(3, n, "max", v.value, v.value + 1, False, "bounds", v.witness, "x"),
            known["max", n].number,
        )
    answer = max_sets._answer(known, 3)
    assert "**25 of the 28 maxima and 28 of the minima are proven**" in answer
    assert "open: M(n) for n = 20..21, 23, each between" in answer
    del known["min", 5]
    assert "does not hold it yet" in max_sets._answer(known, 3)


def test_a_deck_too_large_to_solve_is_read_from_the_store(runs, monkeypatch, tmp_path):
    """The P = 5 table (36 minutes) is never computed by the report: an empty store gets a
    sentence saying how to fill it; a full one (here the P = 3 walk's) is read, re-verified,
    and tabled with the proof methods it uses, and the summary has its finding."""
    base, _ = runs
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "empty.sqlite"))
    blocks, finding = max_sets._read_table(Context(quick=True), 5, "setlab maxsets -p 5 --table")
    assert finding == "" and len(blocks) == 1
    assert "not in this results store. `setlab maxsets -p 5 --table` computes it" in (
        blocks[0].markdown
    )
    monkeypatch.setenv("SETLAB_STORE", str(base / "store.sqlite"))
    blocks, finding = max_sets._read_table(Context(quick=True), 3, "setlab maxsets -p 3 --table")
    text, table = blocks
    assert "**all 28 maxima and all 28 minima are proven**" in text.markdown
    assert "re-verified now" in text.markdown and "gaps" not in text.markdown
    assert len(table.rows) == 28 and table.rows[18][1:] == ("36", "exhaustive", "24", "exhaustive")
    assert "*exhaustive*: every subset" in table.caption and "*split*" not in table.caption
    assert "**The paper's open question is settled for 3 properties**" in finding


def test_the_open_gaps_add_up_by_sense():
    number = max_sets.Number(0, "example", 0.0)

    def known(sense, n, value, bound, method="split"):
        v = max_sets.Value(5, n, sense, value, bound, value == bound, method, [], "x")
        return max_sets.Known(v, number)

    values = [("max", 148, 2461, 2467), ("max", 161, 3074, 3074), ("min", 95, 310, 304),
              ("min", 46, 5, 2)]  # fmt: skip
    table = {(sense, n): known(sense, n, value, bound) for sense, n, value, bound in values}
    assert max_sets._gap_sum(table, "max") == 6 and max_sets._gap_sum(table, "min") == 9
    caption = max_sets._big_table(table, 5).caption  # the glossary: the methods used, no other
    assert "*split*: the big-slice split" in caption and "*exhaustive*" not in caption
    table["min", 82] = known("min", 82, 126, 126, "complement")
    caption = max_sets._big_table(table, 5).caption
    assert "*complement*: M(n) + m(243-n) = 9801 - n(243-n)/2;" in caption  # 243 * 242 / 6 lines
