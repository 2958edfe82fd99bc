"""The CMM section of `setlab reproduce`: CMM's 35 at n = 18, the search's 36, CMM vs search."""

from __future__ import annotations

import pytest

from seed_oracles import PAPER_TABLE_3
from setlab.extremal.heuristics import cmm, counting_bound
from setlab.find import count_sets
from setlab.report.model import Context, Figure, Number, Table
from setlab.report.sections import cmm as cmm_section


@pytest.fixture(scope="module")
def quick_section():
    return cmm_section.build(Context(quick=True))


def _tables(section) -> list[Table]:
    return [block for block in section.blocks if isinstance(block, Table)]


def test_claims_reproduce_the_paper(quick_section):
    claims = {claim.statement: claim for claim in quick_section.claims}
    assert all(claim.agrees for claim in claims.values())
    assert claims["CMM, 18 cards, 4 properties: sets"].value.value == 35
    assert claims["CMM, 18 cards, 3 properties: sets"].value.value == 35
    recount = claims["18 cards with 36 sets exist (Table 3): local search witness, re-counted"]
    assert recount.value.value == 36 == counting_bound(3, 18, "max")


def test_table_3_rows_are_recounted_and_the_search_meets_table_3(quick_section):
    table_3 = _tables(quick_section)[0]
    sequence = cmm(3)
    for n, paper, by_cmm, found, bound, verdict in table_3.rows:
        n = int(n)
        assert all(isinstance(cell, Number) for cell in (by_cmm, found, bound))
        # CMM's cell against an independent count of its n cards
        assert by_cmm.value == count_sets(sequence.witness(n), 3)
        assert found.value == int(paper) == PAPER_TABLE_3[n - 3] <= bound.value
        assert ("search beats CMM" in verdict) == (n == 18)
        assert ("optimal" in verdict) == (found.value == counting_bound(3, n, "max"))


def test_p4_table_marks_where_the_search_beats_cmm(quick_section):
    table_4 = _tables(quick_section)[1]
    sequence = cmm(4)
    sizes = [int(row[0]) for row in table_4.rows]
    assert sizes == list(cmm_section.QUICK_SIZES_P4)
    beaten = []
    for n, by_cmm, found, bound, verdict in table_4.rows:
        assert by_cmm.value == count_sets(sequence.witness(int(n)), 4)
        assert by_cmm.value <= found.value <= bound.value
        if found.value > by_cmm.value:
            beaten.append(int(n))
            assert f"+{found.value - by_cmm.value}" in verdict
        else:
            assert "beats" not in verdict
    assert 18 in beaten and 54 in beaten and 20 not in beaten


def test_figures_draw_35_and_36_sets(quick_section):
    figures = {f.name: f for f in quick_section.blocks if isinstance(f, Figure)}
    assert figures["cmm-18-cards"].drawing.svg.count('class="set-line"') == 35
    assert figures["search-18-cards-36-sets"].drawing.svg.count('class="set-line"') == 36
    assert figures["cmm-18-cards"].drawing.svg.count('class="point"') == 18


@pytest.mark.slow
def test_full_section_beats_cmm_from_52_cards():
    section = cmm_section.build(Context(quick=False))
    table_4 = _tables(section)[1]
    beaten = {int(row[0]) for row in table_4.rows if row[2].value > row[1].value}
    assert beaten == {18, *range(52, 63)}
