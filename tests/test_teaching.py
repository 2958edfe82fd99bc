"""The teaching figure: the 20-cap, one more card and every set that card completes."""

from __future__ import annotations

import itertools
import json
from importlib import resources

import jsonschema
import pytest

from setlab.cards import Card
from setlab.cli import main
from setlab.errors import SetlabError
from setlab.extremal.bigcaps import best_construction
from setlab.geometry import indices_of
from setlab.render import cap_and_completion_svg

CAP = sorted(int(c) for c in indices_of(best_construction(4)))


def vector(card: int) -> list[int]:
    """The four base-3 digits of a card index, written out here (most significant first)."""
    return [card // 27, card // 9 % 3, card // 3 % 3, card % 3]


def completed_by_hand(card: int) -> int:
    """Pairs of the cap that ``card`` completes to a set: each digit sums to 0 mod 3."""
    return sum(
        all(
            (x + y + z) % 3 == 0 for x, y, z in zip(vector(a), vector(b), vector(card), strict=True)
        )
        for a, b in itertools.combinations(CAP, 2)
    )


def test_the_cap_is_a_20_cap_and_every_outside_card_draws_the_sets_it_completes():
    assert len(CAP) == 20 and completed_by_hand(CAP[0]) == 0
    assert not any(
        all((x + y + z) % 3 == 0 for x, y, z in zip(vector(a), vector(b), vector(c), strict=True))
        for a, b, c in itertools.combinations(CAP, 3)
    )  # no set inside: a cap
    counts = []
    for card in sorted(set(range(81)) - set(CAP)):
        svg = cap_and_completion_svg(CAP, card).svg
        drawn = svg.count('class="set"')
        assert drawn == completed_by_hand(card) >= 1  # complete: every 21st card makes a set
        assert svg.count('class="cell added"') == 1 and svg.count('class="cell cap"') == 20
        assert f": {drawn} set" in svg
        counts.append(drawn)
    assert sum(counts) == 190  # each of the C(20,2) pairs has its third card outside the cap
    with pytest.raises(SetlabError, match="already in the cap"):
        cap_and_completion_svg(CAP, CAP[0])


def test_setlab_draw_teaching(tmp_path, capsys):
    out = tmp_path / "t.svg"
    assert main(["draw", "--teaching", "--card", "1RSD", "-o", str(out), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    schema = json.loads(resources.files("setlab").joinpath("data/schema.json").read_text())
    jsonschema.validate(answer, schema)
    assert answer["count"] == completed_by_hand(0) and answer["cap"] == 20
    assert all(20 in triple for triple in answer["sets"])  # every set goes through the new card
    assert out.read_text().count('class="set"') == answer["count"]
    inside = tmp_path / "in.svg"
    in_cap = Card(CAP[0], 4).code
    for argv in (["--card", in_cap], ["1RSD"], ["-p", "7"], ["--sets"]):
        code = main(["draw", "--teaching", *argv, "-o", str(inside)])
        err = capsys.readouterr().err
        assert code == 2 and len(err.splitlines()) == 1 and err.startswith("error: ")
    assert not inside.exists()
    assert main(["draw", "1RSD", "--card", "1RSD", "-o", str(inside)]) == 2
