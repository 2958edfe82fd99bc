"""`setlab reproduce`: the report holds the seed values, its images resolve, sections plug in."""

from __future__ import annotations

import base64
import math
import re
import types
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import pytest

from report_helpers import claim_rows
from seed_oracles import PAPER_BOARD
from setlab.cards import Card
from setlab.cli import main
from setlab.errors import SetlabError
from setlab.find import count_sets
from setlab.render import card_svg
from setlab.report import (
    Claim,
    Claims,
    Context,
    Figure,
    Number,
    Section,
    Table,
    Text,
    build_report,
)
from setlab.report.sections import SECTIONS, real_games
from setlab.store import Store


class _Images(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.sources.append(dict(attrs)["src"])


@pytest.fixture(scope="module")
def quick_report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    with pytest.MonkeyPatch.context() as patch:  # fewer games keep the suite fast
        patch.setattr(real_games, "QUICK_GAMES", 20_000)
        # module fixtures run before the per-test private store: give the report its own
        patch.setenv("SETLAB_STORE", str(tmp_path_factory.mktemp("store") / "store.sqlite"))
        assert main(["reproduce", "--quick", "--out", str(out)]) == 0
    return out


def test_quick_report_holds_the_seed_values(quick_report):
    html = (quick_report / "index.html").read_text()
    values = claim_rows(html)
    assert values["12 cards: Theorem 2.5, section 2.1"] == "14"
    assert values["5 cards: Theorem 1.2, Figure 1"] == "2"
    assert values["11 cards: Corollary 2.4"] == "13"
    # formulas the seed's text lost: 81 * 80 / 3! sets (two cards fix the third), C(81, 12)
    assert values["There are 1080 unique sets"] == str(81 * 80 // 6)
    assert values["Number of different 12-card deals"] == str(math.comb(81, 12))
    assert values["Probability that 3 random cards form a set"] == "1/79"
    assert [values[f"Percent of sets differing in {d} feature(s)"] for d in (1, 2, 3, 4)] == [
        "10", "30", "40", "20",
    ]  # fmt: skip
    assert "**NO**" not in (quick_report / "report.md").read_text()
    assert "computed in this run" in html


def test_quick_report_holds_the_game_odds(quick_report):
    html = (quick_report / "index.html").read_text()
    values = claim_rows(html)
    assert 25 < float(values["No set among 12 cards, first round: odds X:1"]) < 36
    assert 80 < float(values["No set among 15 cards in play: odds X:1"]) < 100
    assert 25 < float(values["Games never needing 15 cards (percent)"]) < 35
    assert values["Average sets among 12 random cards, exact"] == "220/79"
    assert values["Average sets among 15 random cards, exact"] == "455/79"
    assert (
        abs(float(values["Average sets among 12 random cards, simulated first deals"]) - 2.785)
        < 0.05
    )
    assert values["In play the numbers are smaller: 12 cards"] == "True"
    assert "20,000 games played by the rules" in html
    assert real_games.NOT_AVAILABLE not in html  # the cap counter gives the exact odds
    markdown = (quick_report / "report.md").read_text()
    assert "No set among 12 random cards, exact (cap count): " in markdown
    assert "images/games-odds-by-round.svg" in (quick_report / "report.md").read_text()


def test_every_image_link_resolves(quick_report):
    parser = _Images()
    parser.feed((quick_report / "index.html").read_text())
    assert len(parser.sources) >= 10
    for source in parser.sources:
        assert source.startswith("data:image/svg+xml;base64,")
        ET.fromstring(base64.b64decode(source.split(",", 1)[1]))
    markdown = (quick_report / "report.md").read_text()
    links = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", markdown)
    assert len(links) == len(parser.sources)
    for link in links:
        ET.parse(quick_report / link)


def test_report_md_lists_every_section(quick_report):
    markdown = (quick_report / "report.md").read_text()
    for number, module in enumerate(SECTIONS, 1):
        assert f"## {number}. {module.TITLE}\n" in markdown


def test_a_new_section_is_one_build_function(tmp_path):
    def build(context: Context) -> Section:
        sets = context.compute("count_sets on the paper board", count_sets, range(3))
        return Section(
            "Toy",
            "a test",
            (
                Text("One **set**."),
                Table(("what", "value"), (("sets", sets),)),
                Claims((Claim("three collinear cards hold one set", 1, sets),)),
                Figure("toy-card", card_svg(Card(0)), "a card"),
            ),
        )

    toy = types.SimpleNamespace(__name__="toy", TITLE="Toy", build=build)
    report = build_report(tmp_path, sections=[toy], progress=False)
    assert report.reproduced == (1, 1)
    html = (tmp_path / "index.html").read_text()
    assert "<strong>set</strong>" in html and "count_sets on the paper board" in html
    assert (tmp_path / "images" / "toy-card.svg").exists()


def test_only_values_the_seed_s_text_states_count_as_seed_values(tmp_path):
    """A conjecture, a formula the seed's text lost, setlab's exact reference: further checks,
    counted apart and marked in the "Seed says" cell, never "seed values reproduced"."""

    def build(context: Context) -> Section:
        sets = context.compute("count_sets on the deck", count_sets, range(81))
        claims = (
            Claim("the deck has 1080 sets", 1080, sets, stated="formula"),
            Claim("a stated value", 1080, sets),
            Claim("a conjecture that fails", 1081, sets, stated="conjecture"),
        )
        return Section("Toy", "a test", (Claims(claims),))

    toy = types.SimpleNamespace(__name__="toy", TITLE="Toy", build=build)
    report = build_report(tmp_path, sections=[toy], progress=False)
    assert report.reproduced == (1, 1) and report.checked == (1, 2)
    markdown = (tmp_path / "report.md").read_text()
    assert "| the deck has 1080 sets | 1,080 (by a formula the seed's text lost) |" in markdown
    assert "reproduces **1 of 1**. 1 of 2 further claims agree" in markdown
    assert "Not reproduced:" in markdown and "a conjecture that fails" in markdown
    with pytest.raises(ValueError, match="stated must be one of"):
        Claim("a value from nowhere", 1, Number(1, "a test", 0.0), stated="rumour")


def test_stored_numbers_carry_their_certificate_and_are_reverified(tmp_path):
    store = Store(tmp_path / "store.sqlite")
    board = [int(c, 3) for c in PAPER_BOARD]
    store.record_witness("max_sets", 4, 12, "max", 14, board, "paper")
    result = store.get("max_sets", 4, 12)
    context = Context()
    number = context.stored(result, lambda r: count_sets(r.witness), "count_sets on the witness")
    assert (number.value, number.source, number.certificate) == (14, "store", result.id)
    assert f"certificate #{result.id}" in number.provenance
    with pytest.raises(SetlabError, match="claims 14 but its witness gives 13"):
        context.stored(result, lambda r: count_sets(r.witness[:-1]), "a wrong check")


def test_numbers_say_where_they_come_from():
    number = Number(1080, "count_sets on the deck", 3.2e-5)
    assert number.provenance == "computed in this run: count_sets on the deck (32 us)"
    assert str(number) == "1,080"


def test_reproduce_reports_unwritable_directory(tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["reproduce", "--quick", "--out", str(blocker / "sub")]) == 2
    assert capsys.readouterr().err.startswith("error: cannot create")
    assert not Path(blocker / "sub").exists()


def test_figure_names_must_be_unique(tmp_path):
    def build(context: Context) -> Section:
        figure = Figure("same", card_svg(Card(0)), "a card")
        return Section("Twice", "a test", (figure, figure))

    twice = types.SimpleNamespace(__name__="twice", TITLE="Twice", build=build)
    with pytest.raises(SetlabError, match="'same' is malformed or used twice"):
        build_report(tmp_path, sections=[twice], progress=False)


def test_quick_report_holds_the_cmm_section(quick_report):
    html = (quick_report / "index.html").read_text()
    values = claim_rows(html)
    assert values["CMM, 18 cards, 4 properties: sets"] == "35"
    assert values["CMM, 18 cards, 3 properties: sets"] == "35"
    assert values["18 cards with 36 sets exist (Table 3): local search witness, re-counted"] == "36"
    assert "search beats CMM (+1)" in html


def test_numbers_of_one_provenance_share_a_footnote(tmp_path):
    def build(context: Context) -> Section:
        run = context.compute("one run", len, range(5))
        return Section("Toy", "a test", (Table(("a", "b"), ((run, run), (run, run))),))

    toy = types.SimpleNamespace(__name__="toy", TITLE="Toy", build=build)
    build_report(tmp_path, sections=[toy], progress=False)
    markdown = (tmp_path / "report.md").read_text()
    assert markdown.count("[1]") == 4 and "[2]" not in markdown


def test_the_report_reads_like_a_paper(tmp_path):
    """A summary of the findings first; tables and figures numbered through the report; a
    note per kind of computation; long tables folded; a page that fits a phone."""

    def first(context: Context) -> Section:
        runs = [context.compute("one count", len, range(k)) for k in (3, 4)]
        return Section(
            "First",
            "a test",
            (
                Table(("a",), ((runs[0],), (runs[1],)), "two runs of one kind"),
                Figure("one-card", card_svg(Card(0)), "a card"),
                Figure("two-card", card_svg(Card(1)), "another card"),
            ),
            findings=("**three** is the first count",),
        )

    def second(context: Context) -> Section:
        rows = tuple((str(k),) for k in range(40))
        return Section("Second", "a test", (Table(("k",), rows, "forty rows"),))

    modules = [types.SimpleNamespace(__name__=f.__name__, TITLE=f.__name__, build=f)
               for f in (first, second)]  # fmt: skip
    build_report(tmp_path, sections=modules, progress=False)
    page = (tmp_path / "index.html").read_text()
    markdown = (tmp_path / "report.md").read_text()
    assert page.index('id="summary"') < page.index('id="first"')
    assert "<strong>three</strong> is the first count" in page
    assert "- **three** is the first count" in markdown
    for label in ("**Table 1.** two runs of one kind", "**Figure 1.** a card",
                  "**Figure 2.** another card", "**Table 2.** forty rows"):  # fmt: skip
        assert label in markdown
    assert "<strong>Table 2.</strong> forty rows" in page
    assert "computed in this run: one count (2 runs," in markdown and "[2]" not in markdown
    assert page.count("<details>") == 1 and "Table 2: 40 rows" in page  # only the long one
    assert page.count('<div class="figures">') == 1  # the two figures share a grid
    assert 'name="viewport"' in page
    assert "## 2. Second" in markdown


def test_the_paper_s_configurations_leave_out_the_coordinates_they_share(quick_report):
    """12 cards of AG(4,3) sharing their first digit are drawn on AG(3,3), points labelled by
    three digits (on the 9 x 9 layout they sat in one column of its blocks, two thirds empty)."""
    root = ET.parse(quick_report / "images" / "paper-config-12.svg").getroot()
    labels = {t.text for t in root.iter() if t.tag.endswith("text") and (t.text or "").isdigit()}
    assert {"000", "022", "100", "120", "220"} <= labels
    assert not any(len(label) == 4 for label in labels)
