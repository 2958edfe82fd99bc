"""Pictures of the variants: each structure outlined around exactly its cards; 4Set cards drawn."""

from __future__ import annotations

import io
import itertools
import json
import random
import re
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from setlab.cards import Card, valued_name
from setlab.cli import main
from setlab.errors import SetlabError
from setlab.render import board_svg, sets_svg
from setlab.render.cards import (
    CARD_HEIGHT,
    CARD_WIDTH,
    COLOURS,
    SHADING_NAMES,
    SHAPE_NAMES,
    valued_card_svg,
)
from setlab.variants import is_four_set, is_ghost, is_ultra, is_valued_set

SVG = "{http://www.w3.org/2000/svg}"
GHOST_BOARD = ["0000", "1000", "0100", "1100", "2220", "0012", "1021", "2011", "0222", "1111"]
ULTRA_BOARD = ["0000", "1000", "0100", "1100"]

# (variant, P, V, board sizes, is_structure): the oracle is a plain search by the predicates.
CASES = [
    ("set", 4, 3, (12, 15), lambda c, p: is_valued_set(c, p, 3)),
    ("set", 3, 4, (10,), lambda c, p: is_valued_set(c, p, 4)),
    ("set", 4, 4, (12,), lambda c, p: is_valued_set(c, p, 4)),
    ("ultra", 4, 3, (9, 12), is_ultra),
    ("ghost", 4, 3, (10,), is_ghost),
    ("4set", 4, 4, (12, 15), is_four_set),
    ("4set", 3, 4, (9,), is_four_set),
]


def with_class(root: ET.Element, word: str) -> list[ET.Element]:
    return [e for e in root.iter() if word in e.get("class", "").split()]


def brute_force(board: list[int], properties: int, size: int, is_structure) -> set[tuple]:
    return {
        group
        for group in itertools.combinations(range(len(board)), size)
        if is_structure([board[i] for i in group], properties)
    }


def plant_set(board: list[int], properties: int, values: int, rng: random.Random) -> list[int]:
    """``board`` with a random set of V cards (each property all same or all different) in it."""
    columns = [
        [rng.randrange(values)] * values
        if rng.random() < 0.5
        else rng.sample(range(values), values)
        for _ in range(properties)
    ]
    planted = [
        sum(c[k] * values ** (properties - 1 - a) for a, c in enumerate(columns))
        for k in range(values)
    ]
    if len(set(planted)) < values:  # every property constant: not distinct cards
        return board
    rest = [c for c in board if c not in planted][: len(board) - values]
    return rest[:3] + planted + rest[3:]


def card_boxes(root: ET.Element) -> list[tuple[str, float, float]]:
    """Each drawn card: its title and its top-left corner, in drawing order."""
    boxes = []
    for card in with_class(root, "card"):
        x, y = map(float, re.fullmatch(r"translate\((\S+) (\S+)\)", card.get("transform")).groups())
        boxes.append((card.find(f"{SVG}title").text, x, y))
    return boxes


def surrounded(rect: ET.Element, boxes: list[tuple[str, float, float]]) -> list[int]:
    """Cards whose box meets the rectangle; each must lie wholly inside it."""
    left, top = float(rect.get("x")), float(rect.get("y"))
    right, bottom = left + float(rect.get("width")), top + float(rect.get("height"))
    inside = []
    for position, (_, x, y) in enumerate(boxes):
        if x < right and x + CARD_WIDTH > left and y < bottom and y + CARD_HEIGHT > top:
            assert left < x and x + CARD_WIDTH < right and top < y and y + CARD_HEIGHT < bottom
            inside.append(position)
    return inside


@pytest.mark.parametrize(("name", "properties", "values", "sizes", "is_structure"), CASES)
def test_every_structure_is_one_outline_around_exactly_its_cards(
    name, properties, values, sizes, is_structure
):
    rng = random.Random(f"{name}-{properties}-{values}")
    size = values if name == "set" else {"ultra": 4, "ghost": 6, "4set": 4}[name]
    seen = 0
    for n_cards in sizes:
        for _ in range(6):
            board = rng.sample(range(values**properties), n_cards)
            if name == "set":  # plant a V-valued set: V = 4 sets are rare among random cards
                board = plant_set(board, properties, values, rng)
            expected = brute_force(board, properties, size, is_structure)
            seen += len(expected)
            drawing = board_svg(board, True, variant=name, properties=properties, values=values)
            root = ET.fromstring(drawing.svg)
            boxes = card_boxes(root)
            assert [title for title, _, _ in boxes] == [
                valued_name(c, properties, values) for c in board
            ]
            groups = with_class(root, "structure")
            assert len(groups) == len(expected)
            drawn = set()
            for group in groups:
                rings = with_class(group, "set-outline")
                assert len(rings) == size and len({r.get("stroke") for r in rings}) == 1
                cards = [surrounded(ring, boxes) for ring in rings]
                assert all(len(c) == 1 for c in cards)  # each ring around one card, no other
                positions = tuple(sorted(c[0] for c in cards))
                assert positions == tuple(int(p) for p in group.get("data-positions").split())
                drawn.add(positions)
            assert drawn == expected
            strokes = [g.find(f"{SVG}rect").get("stroke") for g in groups]
            assert len(set(strokes)) == len(strokes)  # a colour of its own
            # A card on several structures: one ring each, at different distances.
            for position in range(n_cards):
                grows = [
                    float(r.get("width"))
                    for g in groups
                    for r in with_class(g, "set-outline")
                    if surrounded(r, boxes) == [position]
                ]
                assert len(set(grows)) == len(grows)
    assert seen > 0


def test_sets_card_objects_draw_as_before_and_variants_take_card_objects():
    board = [Card(i) for i in (0, 1, 2, 3, 6, 4, 8)]
    as_cards = ET.fromstring(board_svg(board, True).svg)
    as_indices = ET.fromstring(board_svg([c.index for c in board], True).svg)
    assert ET.tostring(as_cards) == ET.tostring(as_indices)
    ultra = board_svg(board, True, variant="ultra")
    expected = brute_force([c.index for c in board], 4, 4, is_ultra)
    assert ultra.svg.count('class="structure"') == len(expected) > 0
    with pytest.raises(SetlabError, match="4 values"):
        board_svg(board, True, variant="4set")


def test_chosen_structures_are_checked():
    with pytest.raises(SetlabError, match="UltraSet \\(0, 1, 2\\) is not four positions"):
        board_svg(list(range(6)), [(0, 1, 2)], variant="ultra")
    with pytest.raises(SetlabError, match="out of range"):
        board_svg([0, 1, 2, 81], variant="ultra")


def test_structures_apart_draw_each_structure_in_its_board_colour():
    board = [0, 1, 4, 5, 10, 15, 2, 8]
    found = sorted(brute_force(board, 2, 4, is_four_set))
    apart = ET.fromstring(sets_svg(board, found, variant="4set", properties=2).svg)
    titles = [c.find(f"{SVG}title").text for c in with_class(apart, "card")]
    assert titles == [valued_name(board[i], 2, 4) for group in found for i in group]
    on_board = ET.fromstring(board_svg(board, found, variant="4set", properties=2).svg)
    assert [r.get("stroke") for r in with_class(apart, "set-outline")] == [
        g.find(f"{SVG}rect").get("stroke") for g in with_class(on_board, "structure")
    ]


def test_every_4set_card_draws_its_four_values():
    for index in range(256):
        number, colour, shading, shape = ((index >> shift) & 3 for shift in (6, 4, 2, 0))
        root = ET.fromstring(valued_card_svg(index, 4, 4).svg)
        symbols = with_class(root, "symbol")
        assert len(symbols) == number + 1
        for symbol in symbols:
            assert symbol.get("class").split()[1:] == [SHAPE_NAMES[shape], SHADING_NAMES[shading]]
            outline = symbol.findall(f"{SVG}path")[-1]
            assert outline.get("stroke") == COLOURS[colour]
            if shading == 3:  # dotted: a pattern of dots in the symbol's colour
                pattern_id = re.fullmatch(r"url\(#(.+)\)", outline.get("fill")).group(1)
                pattern = next(p for p in root.iter(f"{SVG}pattern") if p.get("id") == pattern_id)
                assert pattern.find(f"{SVG}circle").get("fill") == COLOURS[colour]


def test_blue_is_far_from_the_other_colours_and_the_dots_reach_the_png():
    def rgb(hex_colour):
        return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))

    blue = rgb(COLOURS[3])
    assert (
        min(
            sum((a - b) ** 2 for a, b in zip(blue, rgb(c), strict=True)) ** 0.5 for c in COLOURS[:3]
        )
        > 120
    )
    image = Image.open(io.BytesIO(valued_card_svg(255).png(scale=2))).convert("RGB")
    blueish = sum(
        count for count, (r, g, b) in image.getcolors(1 << 20) if b > 150 and r < 120 and b > g
    )
    assert blueish > 2000  # four dotted triangles: outlines and dots
    open_card = Image.open(io.BytesIO(valued_card_svg(0b11101011).png(scale=2))).convert("RGB")
    dotted_ink = sum(c for c, (r, g, b) in image.getcolors(1 << 20) if (r, g, b) != (255, 255, 255))
    open_ink = sum(c for c, (r, g, b) in open_card.getcolors(1 << 20) if (r, g, b) != (255,) * 3)
    assert dotted_ink > open_ink  # 4 blue open triangles: the dots add ink inside


def test_cli_draws_each_variant_with_one_outline_per_structure(tmp_path, capsys):
    cases = [
        (["--variant", "ultra", "0000", "1000", "0100", "1100", "2220", "0012", "1021"], 4),
        (["--variant", "ghost", *GHOST_BOARD], 6),
        (
            [
                "--variant",
                "4set",
                "4 blue dotted triangles",
                "1RSD",
                "2GTS",
                "3POO",
                "0123",
                "3210",
                "3322",
                "0101",
            ],
            4,
        ),
        (["--values", "4", "0000", "1111", "2222", "3333", "0123"], 4),
    ]
    for argv, size in cases:
        out = tmp_path / "board.svg"
        assert main(["draw", *argv, "--json", "--out", str(out)]) == 0
        answer = json.loads(capsys.readouterr().out)
        assert answer["count"] == len(answer["found"]) > 0
        assert all(len(group) == size for group in answer["found"])
        root = ET.parse(out).getroot()
        groups = with_class(root, "structure")
        assert [[int(p) for p in g.get("data-positions").split()] for g in groups] == answer[
            "found"
        ]
    png = tmp_path / "board.png"
    assert main(["draw", "--variant", "ultra", *ULTRA_BOARD, "-o", str(png)]) == 0
    assert capsys.readouterr().out == f"wrote {png} (4 cards, 1 UltraSet outlined)\n"
    assert Image.open(png).format == "PNG"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--variant", "ultra", "4BDT", "1RSD", "2GTS", "3POO"], "it is a 4Set card"),
        (["--variant", "4set", "0004", "1RSD", "2GTS", "3POO"], "not 4 digits from 0 to 3"),
        (["--variant", "4set", "1RSD", "2GTS", "3POO"], "a 4Set board needs at least 4"),
        (["--variant", "ghost", "0000", "1000", "0100", "1100", "2220"], "needs at least 6"),
        (["--variant", "ultra", "0000", "0000", "1000", "2000"], "duplicate card"),
        (
            ["--variant", "ultra", "--values", "4", "0000", "1000", "2000", "0100"],
            "played with 3 values",
        ),
        (
            ["--variant", "ultra", "0000", "1000", "2000", "0100", "--config", "c.txt"],
            "does not apply",
        ),
        (
            ["--variant", "ghost", "0000", "1000", "2000", "0100", "0200", "0001", "--apart"],
            "no GhostSet on the board",
        ),
    ],
)
def test_cli_variant_errors_are_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["draw", *argv, "-o", "x.svg"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "x.svg").exists()
