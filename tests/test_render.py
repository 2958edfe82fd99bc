"""Pictures: cards, boards and AG(P,3) configurations parse as SVG and show what they should."""

from __future__ import annotations

import io
import itertools
import re
import xml.etree.ElementTree as ET
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from seed_oracles import PAPER_BOARD
from setlab.cards import Card, deck
from setlab.cli import main
from setlab.errors import SetlabError
from setlab.find import find_sets
from setlab.render import (
    Drawing,
    blocking_graph_svg,
    board_svg,
    card_svg,
    configuration_svg,
    deck_svg,
    grid_cell,
    point_position,
    sets_svg,
)
from setlab.render.cards import CARD_HEIGHT, CARD_WIDTH, COLOURS, SHAPE_NAMES
from setlab.render.grid import _curve

SVG = "{http://www.w3.org/2000/svg}"


def parse(drawing: Drawing) -> ET.Element:
    return ET.fromstring(drawing.svg)


def with_class(root: ET.Element, word: str) -> list[ET.Element]:
    return [e for e in root.iter() if word in e.get("class", "").split()]


@pytest.mark.parametrize("card", deck(4), ids=lambda c: c.code)
def test_every_card_draws_its_number_shape_colour_and_shading(card):
    number, colour, shading, shape = card.vector
    root = parse(card_svg(card))
    symbols = with_class(root, "symbol")
    assert len(symbols) == number + 1
    for symbol in symbols:
        assert SHAPE_NAMES[shape] in symbol.get("class").split()
        outline = symbol.findall(f"{SVG}path")[-1]
        assert outline.get("stroke") == COLOURS[colour]
        assert outline.get("fill") == (COLOURS[colour] if shading == 0 else "none")
        clipped = symbol.findall(f"{SVG}g")
        if shading == 1:
            assert len(clipped) == 1
            clip_id = re.fullmatch(r"url\(#(.+)\)", clipped[0].get("clip-path")).group(1)
            clip = next(e for e in root.iter(f"{SVG}clipPath") if e.get("id") == clip_id)
            assert clip[0].get("d") == outline.get("d")  # stripes clipped to the symbol
        else:
            assert clipped == []


def test_generic_glyph_marks_one_dot_per_coordinate():
    card = Card.parse("20112", properties=5)
    root = parse(card_svg(card))
    marks = with_class(root, "digit-mark")
    assert len(marks) == 5
    assert [round((float(m.get("cx")) - 30) / 20) for m in marks] == [2, 0, 1, 1, 2]
    assert "20112" in "".join(root.itertext())


def test_png_export_has_the_drawing_size(tmp_path):
    path = card_svg(Card.parse("3GTS")).save(tmp_path / "card.png", scale=2)
    image = Image.open(path)
    assert image.size == (2 * CARD_WIDTH, 2 * CARD_HEIGHT)
    board = board_svg([Card.parse(c) for c in PAPER_BOARD], sets=True)
    image = Image.open(io.BytesIO(board.png(scale=0.5)))
    assert image.size == (round(board.width * 0.5), round(board.height * 0.5))
    image.load()  # decodes the pixels
    assert len(image.getcolors(1 << 20)) > 10  # not blank


def test_save_writes_pdf_and_rejects_other_formats(tmp_path):
    assert card_svg(Card(0)).save(tmp_path / "card.pdf").read_bytes()[:5] == b"%PDF-"
    with pytest.raises(SetlabError, match=r"\.svg, \.png or \.pdf"):
        card_svg(Card(0)).save(tmp_path / "card.gif")


def test_jupyter_sees_svg():
    drawing = board_svg([Card(0), Card(1), Card(2)], sets=True)
    assert drawing._repr_svg_() == drawing.svg
    ET.fromstring(drawing._repr_svg_())


def test_board_outlines_each_set_in_its_own_colour_on_its_three_cards():
    board = [Card.parse(c) for c in PAPER_BOARD]
    root = parse(board_svg(board, sets=True))
    assert len(with_class(root, "card")) == 12
    outlines = with_class(root, "set-outline")
    assert len(outlines) == 3 * 14
    assert sorted(Counter(o.get("stroke") for o in outlines).values()) == [3] * 14


def test_board_rejects_positions_off_the_board():
    with pytest.raises(SetlabError, match="three positions"):
        board_svg([Card(0), Card(1), Card(2)], sets=[(0, 1, 5)])


def test_layout_is_the_9_by_9_grid_of_3_by_3_blocks():
    positions = [point_position(c.vector) for c in deck(4)]
    assert len(set(positions)) == 81
    xs, ys = sorted({x for x, _ in positions}), sorted({y for _, y in positions})
    assert len(xs) == len(ys) == 9
    gaps = [b - a for a, b in itertools.pairwise(xs)]
    assert gaps[0] == gaps[1] < gaps[2]  # a block of 3, then a wider gap
    # The first two coordinates choose the block, the last two the place in the block.
    assert point_position((1, 2, 0, 0))[0] == xs[3] and point_position((1, 2, 0, 0))[1] == ys[6]


@pytest.mark.parametrize("properties", range(1, 7))
def test_layout_gives_every_point_its_own_place(properties):
    points = itertools.product(range(3), repeat=properties)
    assert len({point_position(p) for p in points}) == 3**properties


def _visits(path: str) -> list[tuple[float, float]]:
    """Points a set-line passes through: its anchors, and the midpoint of a lone quadratic."""
    numbers = [float(x) for x in re.findall(r"-?\d+(?:\.\d+)?", path)]
    pairs = list(zip(numbers[0::2], numbers[1::2], strict=True))
    if path.count("Q") == 1:
        (ax, ay), (cx, cy), (bx, by) = pairs
        return [(ax, ay), (0.25 * ax + 0.5 * cx + 0.25 * bx, 0.25 * ay + 0.5 * cy + 0.25 * by),
                (bx, by)]  # fmt: skip
    if "Q" in path:
        return [pairs[0], pairs[2], pairs[4]]
    return pairs


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_configurations_draw_every_point_and_every_set_through_its_points(data):
    properties = data.draw(st.integers(2, 4))
    indices = data.draw(
        st.lists(st.integers(0, 3**properties - 1), min_size=3, max_size=14, unique=True)
    )
    cards = [Card(i, properties) for i in indices]
    root = parse(configuration_svg(cards))
    points = with_class(root, "point")
    assert len(points) == len(cards)
    lines = with_class(root, "set-line")
    sets = find_sets(cards, properties)
    assert len(lines) == len(sets)
    centres = [(float(p.get("cx")), float(p.get("cy"))) for p in points]
    for triple, line in zip(sets, lines, strict=True):
        visited = _visits(line.get("d"))
        for position in triple:
            x, y = centres[position]
            if len(visited) == 2:  # straight: the middle point lies on the segment
                (ax, ay), (bx, by) = visited
                assert (
                    abs((x - ax) * (by - ay) - (y - ay) * (bx - ax))
                    < 1e-3 * (1 + abs(bx - ax) + abs(by - ay)) ** 2
                )
                assert min(ax, bx) - 0.1 <= x <= max(ax, bx) + 0.1
            else:
                assert min(abs(x - vx) + abs(y - vy) for vx, vy in visited) < 0.2


def test_collinear_sets_hop_over_points_in_their_way():
    a, m, b, other = (0.0, 0.0), (0.0, 2.0), (0.0, 4.0), (0.0, 1.0)
    assert "L" in _curve([a, m, b], [])
    bridge = _curve([a, b, m], [other])
    assert bridge.count("Q") == 2 and _visits(bridge) == [a, m, b]


def test_drop_constant_draws_the_papers_plane_figures():
    five = [Card.parse(c) for c in ("0000", "0001", "0002", "0010", "0020")]
    small, full = parse(configuration_svg(five, drop_constant=True)), parse(configuration_svg(five))
    assert len(list(small.iter(f"{SVG}circle"))) == 9 + 5  # the plane F_3^2, then the points
    assert len(list(full.iter(f"{SVG}circle"))) == 81 + 5
    assert {"00", "01", "02", "10", "20"} <= set(small.itertext())


def test_configuration_refuses_too_many_properties():
    with pytest.raises(SetlabError, match="P <= 6"):
        configuration_svg([Card(0, 7), Card(1, 7)])


def test_cli_draws_a_board_and_a_configuration(tmp_path, capsys):
    out = tmp_path / "board.svg"
    assert main(["draw", *PAPER_BOARD, "--sets", "-o", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote {out} (12 cards, 14 sets outlined)\n"
    assert len(with_class(ET.parse(out).getroot(), "set-outline")) == 42
    config = tmp_path / "cards.txt"
    config.write_text("0000\n0001  # a comment\n0002\n0010\n0020\n")
    png = tmp_path / "five.png"
    assert main(["draw", "--config", str(config), "--drop-constant", "-o", str(png)]) == 0
    assert capsys.readouterr().out == f"wrote {png} (5 points, 2 sets)\n"
    assert Image.open(png).format == "PNG"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["1RSD", "-o", "x.pdf"], "must end in .svg or .png"),
        (["blue", "-o", "x.svg"], "unknown word 'blue'"),
        (["--config", "missing.txt", "-o", "x.svg"], "cannot read missing.txt"),
        (["1RSD", "1RSD", "-o", "x.svg"], "duplicate card"),
    ],
)
def test_cli_draw_errors_are_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["draw", *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and err.count("\n") == 1
    assert not (tmp_path / "x.svg").exists()


def test_sets_strip_draws_three_cards_per_set_in_the_board_colours():
    board = [Card.parse(c) for c in PAPER_BOARD]
    sets = find_sets(board)
    strip = parse(sets_svg(board, sets))
    assert len(with_class(strip, "card")) == 3 * 14
    on_board = parse(board_svg(board, sets=sets))
    colours = [o.get("stroke") for o in with_class(strip, "set-outline")]
    assert colours == list(
        dict.fromkeys(o.get("stroke") for o in with_class(on_board, "set-outline"))
    )
    titles = [card.find(f"{SVG}title").text for card in with_class(strip, "card")]
    assert titles == [board[i].name for triple in sets for i in triple]


def _key_digits(root: ET.Element) -> dict[str, list[int]]:
    """From the key's text: the digits along each axis ("right", "down"), innermost first."""
    found = {}
    for line in with_class(root, "layout-key"):
        axis = {"→": "right", "↓": "down"}[line.text[0]]
        found[axis] = [int(d) for d in re.findall(r"x(\d+)", line.text)]
    return found


@pytest.mark.parametrize("properties", range(1, 7))
def test_layout_is_a_bijection_whose_key_says_where_each_digit_runs(properties):
    points = list(itertools.product(range(3), repeat=properties))
    cells = [grid_cell(p) for p in points]
    key = _key_digits(parse(deck_svg([], properties)))
    right, down = key["right"], key.get("down", [])
    assert sorted(right + down) == list(range(properties))  # every digit on one axis
    columns, rows = 3 ** len(right), 3 ** len(down)
    assert sorted(cells) == [(c, r) for c in range(columns) for r in range(rows)]  # bijection
    for point, (column, row) in zip(points, cells, strict=True):
        # independently of the layout code: the key's digits, innermost first, in base 3
        assert column == sum(point[d] * 3**k for k, d in enumerate(right))
        assert row == sum(point[d] * 3**k for k, d in enumerate(down))


@pytest.mark.parametrize("properties", [2, 3, 4, 5])
def test_lines_of_a_fixed_2_flat_run_where_the_key_says(properties):
    """The flat through a point spanned by the key's two innermost digits is one 3 x 3 block:
    its lines in the first direction are page rows, those in the second page columns."""
    root = parse(deck_svg([], properties))
    key = _key_digits(root)
    across, down = key["right"][0], key["down"][0]
    centre = {}
    for cell in with_class(root, "cell"):
        x = float(cell.get("x")) + float(cell.get("width")) / 2
        y = float(cell.get("y")) + float(cell.get("height")) / 2
        centre[cell.find(f"{SVG}title").text] = (x, y)
    base = [(7 * k + 1) % 3 for k in range(properties)]

    def moved(a: int, b: int) -> str:
        point = list(base)
        point[across] = (point[across] + a) % 3
        point[down] = (point[down] + b) % 3
        return "".join(map(str, point))

    for b in range(3):  # a line in direction e_across: one page row, left to right
        xs, ys = zip(*(centre[moved(a, b)] for a in range(3)), strict=True)
        assert len(set(ys)) == 1 and len(set(xs)) == 3
    for a in range(3):  # a line in direction e_down: one page column
        xs, ys = zip(*(centre[moved(a, b)] for b in range(3)), strict=True)
        assert len(set(xs)) == 1 and len(set(ys)) == 3
    # and the flat is compact: its nine cells within 3 cell pitches each way
    xs, ys = zip(*(centre[moved(a, b)] for a in range(3) for b in range(3)), strict=True)
    pitch = sorted(set(xs))[1] - sorted(set(xs))[0]
    assert max(xs) - min(xs) < 2.5 * pitch and max(ys) - min(ys) < 2.5 * pitch


def _ranks(places: dict[str, tuple[float, float]]) -> dict[str, tuple[int, int]]:
    xs = sorted({round(x, 3) for x, _ in places.values()})
    ys = sorted({round(y, 3) for _, y in places.values()})
    return {k: (xs.index(round(x, 3)), ys.index(round(y, 3))) for k, (x, y) in places.items()}


@pytest.mark.parametrize("properties", [2, 3, 4])
def test_cap_picture_and_configuration_put_each_card_in_the_same_cell(properties):
    every = deck(properties)
    cap = [c.index for c in every]  # not a cap; the deck picture only fills cells
    cells = with_class(parse(deck_svg(cap, properties)), "cell")
    in_deck = {}
    for cell in cells:
        x = float(cell.get("x")) + float(cell.get("width")) / 2
        y = float(cell.get("y")) + float(cell.get("height")) / 2
        in_deck[cell.find(f"{SVG}title").text] = (x, y)
    points = with_class(parse(configuration_svg(every, sets=False)), "point")
    in_config = {
        p.find(f"{SVG}title").text: (float(p.get("cx")), float(p.get("cy"))) for p in points
    }
    assert len(in_deck) == len(in_config) == 3**properties
    assert _ranks(in_deck) == _ranks(in_config)
    twenty = [9, 18, 27, 40, 41, 43, 44, 46, 47, 48, 51, 54, 64, 65, 66, 69, 76, 77, 79, 80]
    if properties == 4:  # the same 20-cap, the same cells in both pictures
        filled = with_class(parse(deck_svg(twenty, 4)), "cap")
        names = {c.find(f"{SVG}title").text for c in filled}
        assert names == {Card(i).digits for i in twenty}


def test_blocking_graph_counts_the_lines_through_a_cap():
    twenty = [9, 18, 27, 40, 41, 43, 44, 46, 47, 48, 51, 54, 64, 65, 66, 69, 76, 77, 79, 80]
    root = parse(blocking_graph_svg(twenty, 4))
    # 20 cards on 40 lines each; the 190 pairs each block one line: 800 - 190 lines touched
    assert len(with_class(root, "line-node")) == 20 * 40 - 190
    assert len(with_class(root, "blocked")) == 2 * 190
    assert len(with_class(root, "card-node")) == 20
    with pytest.raises(SetlabError, match="not a cap"):
        blocking_graph_svg([0, 1, 2], 2)
