"""The cap-set section of `setlab reproduce`: seed values, the store round trip, re-verification."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET

import pytest

from report_helpers import claim_rows, quick_run
from setlab.errors import SetlabError
from setlab.extremal.caps import COUNT_TABLE_JOB
from setlab.report.sections import SECTIONS, cap_sets, wikipedia_basics
from setlab.store import Store

SEED_CLAIMS = {
    "M^P = 2, M^V = 3: largest number of cards without a set": "4",
    "M^P = 3, M^V = 3: largest number of cards without a set": "9",
    "M^P = 4, M^V = 3: largest number of cards without a set": "20",
    "Caps of 20 cards in AG(4,3) (Knuth)": "682344",
    "... essentially one: classes of 20-caps under affine maps": "1",
    "No 21 cards without a set: largest caps of AG(4,3) have 20 cards": "20",
}


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two quick runs on one store: the first computes (and stores), the second reads."""
    base = tmp_path_factory.mktemp("caps-report")
    store = base / "store.sqlite"
    quick_run(base / "first", store, cap_sets)
    quick_run(base / "second", store, cap_sets)
    return base


def test_section_follows_the_wikipedia_section():
    assert SECTIONS.index(cap_sets) == SECTIONS.index(wikipedia_basics) + 1


@pytest.mark.parametrize("run", ["first", "second"])
def test_quick_report_reproduces_the_seed_claims(runs, run):
    html = (runs / run / "index.html").read_text()
    values = claim_rows(html)
    for statement, value in SEED_CLAIMS.items():
        assert values[statement] == value, statement
    assert 29.5 < float(values["No set among 12 random cards: exact odds against, X:1"]) < 30.5
    assert 2650 < float(values["No set among 15 random cards: exact odds against, X:1"]) < 2750
    report = (runs / run / "report.md").read_text()
    assert "**NO**" not in report
    assert "| 12 | 325,432,404/10,074,689,485 |" in report  # caps(12) / C(81, 12), exact
    assert "| 5 | 45 [" in report and "| 6 | 112 [" in report  # the big caps, checked
    for name in ("caps-deck-20", "caps-graph-2-3-4", "caps-graph-3-3-9", "caps-graph-4-3-20"):
        root = ET.parse(runs / run / "images" / f"{name}.svg").getroot()
        assert root.tag.endswith("svg")
        assert f"images/{name}.svg" in report


def test_first_run_computes_second_reads_the_store(runs):
    first = (runs / "first" / "report.md").read_text()
    second = (runs / "second" / "report.md").read_text()
    assert "computed in this run: largest_cap(4, 3)" in first
    assert "computed in this run: count_caps(4)" in first
    assert "computed in this run: largest_cap(4, 3)" not in second
    assert "computed in this run: count_caps(4)" not in second
    # AG(5,3)'s 45-cap: the pencil chain runs once, then the proven result is read back
    assert "computed in this run: largest_cap(5, 3)" in first
    assert "computed in this run: largest_cap(5, 3)" not in second
    assert all("proven by setlab's pencil chain" in run for run in (first, second))
    assert "is_cap on the stored witness" in second
    assert "k = 20 as the orbit of the stored 20-cap" in second
    # decks left out of --quick on an empty store are named
    assert "the decks (3, 5), (2, 6), (3, 6) are left out" in first


def test_a_stored_witness_that_is_not_a_cap_stops_the_run(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    square = [0, 1, 2, 3]  # holds the set 0, 1, 2 of AG(2,3)
    store.record_witness("maxcap", 2, 0, "max", 4, square, "tampered", {"values": 3})
    store.record_bound("maxcap", 2, 0, "max", 4, {"finished": True}, "tampered", {"values": 3})
    store.close()
    with pytest.raises(SetlabError, match="witness gives 0"):
        quick_run(tmp_path / "out", tmp_path / "store.sqlite", cap_sets)


def test_a_tampered_count_table_stops_the_run(runs, tmp_path):
    path = tmp_path / "store.sqlite"
    for suffix in ("", "-wal", "-shm"):  # the store's write-ahead log holds recent writes
        if (runs / f"store.sqlite{suffix}").exists():
            shutil.copy(runs / f"store.sqlite{suffix}", f"{path}{suffix}")
    store = Store(path)
    rows = store.finished_tasks(COUNT_TABLE_JOB)["P4"]
    rows[4]["caps"] += 1
    store.finish_task(COUNT_TABLE_JOB, "P4", rows)
    store.close()
    with pytest.raises(SetlabError, match="witness gives"):
        quick_run(tmp_path / "out", path, cap_sets)
