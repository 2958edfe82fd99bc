"""The real-games section: tolerances from the seed's rounding and the CI, the exact hook, plots."""

from __future__ import annotations

import types
import xml.etree.ElementTree as ET
from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from setlab.game import Estimate, plot_odds_by_round, plot_sets_on_table, simulate, summary
from setlab.report import Claim, Claims, Number, Section, build_report
from setlab.report.sections import real_games

finite = st.floats(-1e3, 1e3, allow_nan=False)


@given(finite, finite, finite, finite, st.floats(0, 100))
def test_a_claim_agrees_iff_the_seed_rounding_meets_the_interval(a, b, c, seed, rounding):
    low, value, high = sorted((a, b, c))
    e = Estimate(value, low, high, 1)
    claim = real_games._claim("x", seed, rounding, e, Number(value, "test", 0.0))
    overlap = max(seed - rounding, low) <= min(seed + rounding, high)
    margin = 1e-9 * (1 + abs(seed) + abs(value) + rounding)
    if abs(max(seed - rounding, low) - min(seed + rounding, high)) > margin:
        assert claim.agrees == overlap


def test_a_claim_outside_its_tolerance_is_shown_as_not_reproduced(tmp_path):
    def build(context):
        claims = (
            Claim("far", 30, Number(20.0, "test", 0.0), tolerance=0.5),
            Claim("near", 30, Number(29.7, "test", 0.0), tolerance=0.5),
        )
        return Section("Odds", "a test", (Claims(claims),))

    module = types.SimpleNamespace(__name__="odds", TITLE="Odds", build=build)
    report = build_report(tmp_path, sections=[module], progress=False)
    assert report.reproduced == (1, 2)
    markdown = (tmp_path / "report.md").read_text()
    assert "| far | 30 ± 0.5 | 20 [1] | **NO** |" in markdown
    assert "| near | 30 ± 0.5 | 29.7 [1] | yes |" in markdown  # one provenance, one note


def test_exact_values_appear_only_when_the_hook_gives_them(tmp_path, monkeypatch):
    monkeypatch.setattr(real_games, "QUICK_GAMES", 2_000)
    monkeypatch.setattr(real_games, "exact_no_set_probability", lambda k: None)  # no counter
    report = build_report(tmp_path / "none", sections=[real_games], quick=True, progress=False)
    statements = [c.statement for c in report.sections[0].claims]
    assert not any("exact odds (cap count)" in s for s in statements)
    markdown = (tmp_path / "none" / "report.md").read_text()
    row = next(line for line in markdown.splitlines() if "no set among 12 random cards (" in line)
    assert row.endswith(f"| {real_games.NOT_AVAILABLE} |")

    fake = {12: Fraction(1, 31), 15: Fraction(1, 2701)}  # stand-ins, not the true values
    monkeypatch.setattr(real_games, "exact_no_set_probability", lambda k: fake[k])
    report = build_report(tmp_path / "hook", sections=[real_games], quick=True, progress=False)
    claims = {c.statement: c for c in report.sections[0].claims}
    exact_12 = claims["No set among 12 random cards: exact odds (cap count) vs simulated"]
    exact_15 = claims["No set among 15 random cards: exact odds (cap count) vs simulated"]
    assert (exact_12.seed, exact_15.seed) == (30.0, 2700.0)
    assert (
        exact_12.value.value == claims["No set among 12 cards, first round: odds X:1"].value.value
    )
    markdown = (tmp_path / "hook" / "report.md").read_text()
    assert real_games.NOT_AVAILABLE not in markdown
    assert "No set among 12 random cards, exact (cap count): 30:1." in markdown
    row = next(line for line in markdown.splitlines() if "no set among 12 random cards (" in line)
    assert f"| {float(fake[12]):.4g} [" in row  # the exact probability beside the simulated one


def test_the_two_game_plots_are_standalone_svg_drawings():
    stats = summary(simulate(300, seed=4))
    for drawing in (plot_odds_by_round(stats), plot_sets_on_table(stats)):
        root = ET.fromstring(drawing.svg)
        assert root.get("width") == f"{drawing.width:g}"
        inner = root.find("{http://www.w3.org/2000/svg}svg")
        assert inner is not None and inner.get("width") is None
        assert inner.get("viewBox") == f"0 0 {drawing.width:g} {drawing.height:g}"
