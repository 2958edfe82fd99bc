"""``setlab draw``: cards as a board of SET cards, or a configuration on the AG(P,3) layout.

With ``--variant`` the board is one of a variant's deck (4Set cards, V-valued cards) and every
structure on it (set, UltraSet, GhostSet, 4Set) is outlined.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from setlab.cards import Card, parse_card, valued_code, valued_digits
from setlab.cli.common import (
    add_properties,
    card_lists,
    counted,
    float_in,
    int_in,
    output_path,
    print_json,
    read_cards,
    read_variant_board,
)
from setlab.errors import SetlabError
from setlab.find import find_sets
from setlab.render import board_svg, cap_and_completion_svg, configuration_svg, sets_svg
from setlab.render.layout import MAX_GRID_PROPERTIES
from setlab.variants import VARIANTS

__all__ = ["MAX_SCALE", "register", "run_draw"]

MAX_SCALE = 100.0
"""Largest ``--scale``: PNG pixels per SVG unit (a board is a few hundred units wide)."""


def register(commands: argparse._SubParsersAction) -> None:
    draw = commands.add_parser(
        "draw",
        help="draw cards as SET cards (or a configuration on the AG(P,3) grid) to SVG or PNG",
        description="Draw CARD... as a board of SET cards, or with --config FILE the cards of "
        "FILE (one per line) as points of the standard AG(P,3) layout with every set drawn.",
    )
    draw.add_argument(
        "cards", nargs="*", metavar="CARD", help="cards: names, codes or digits (or on stdin)"
    )
    draw.add_argument(
        "--config",
        metavar="FILE",
        help="read the cards from FILE and draw them on the AG(P,3) layout, sets as curves",
    )
    draw.add_argument("-f", "--file", help="read the board's cards from a file, one per line")
    draw.add_argument("--sets", action="store_true", help="outline every set on the board")
    draw.add_argument(
        "--variant",
        choices=list(VARIANTS),
        help="a board of this variant's deck with every structure outlined: sets of V cards "
        "(set), UltraSets, GhostSets or 4Sets (4Set cards are digits 0-3, codes or names)",
    )
    draw.add_argument("--values", type=int_in(2, 10), metavar="V",
                      help="values per property for --variant set (default 3)")  # fmt: skip
    draw.add_argument(
        "--apart",
        action="store_true",
        help="draw each set (or structure) on its own, its cards side by side, instead of the "
        "board",
    )
    draw.add_argument("--columns", type=int_in(1), metavar="K", help="cards per row of a board")
    draw.add_argument(
        "--drop-constant",
        action="store_true",
        help="with --config: leave out coordinates shared by all cards (as the paper's figures)",
    )
    draw.add_argument(
        "--scale",
        type=float_in(0, MAX_SCALE, open_low=True),
        help=f"PNG pixels per SVG unit (default 2, at most {MAX_SCALE:g})",
    )
    draw.add_argument(
        "--teaching",
        action="store_true",
        help="the teaching figure: the largest cap setlab knows (the 20-cap for P = 4), one more "
        "card and every set it completes",
    )
    draw.add_argument("--card", metavar="CARD", help="with --teaching: the card added to the cap")
    draw.add_argument("-o", "--output", required=True, metavar="FILE", help="FILE.svg or FILE.png")
    add_properties(draw)
    draw.add_argument("--json", action="store_true", help="print one JSON object")
    draw.set_defaults(run=run_draw)


def run_draw(args: argparse.Namespace) -> int:
    output = output_path(args.output, (".svg", ".png"), "--output")
    if args.scale is not None and output.suffix.lower() != ".png":
        raise SetlabError("--scale sets a PNG's resolution: it does not apply to an SVG")
    args.scale = 2.0 if args.scale is None else args.scale
    if args.teaching:
        return _run_teaching(args, output)
    if args.card is not None:
        raise SetlabError("--card goes with --teaching")
    if args.drop_constant and args.config is None:
        raise SetlabError("--drop-constant goes with --config (a configuration's grid)")
    variant_board = args.variant is not None or args.values is not None
    if args.config is not None and (variant_board or args.apart):
        given = "--variant/--values" if variant_board else "--apart"
        raise SetlabError(f"--config draws a configuration of SET cards: {given} does not apply")
    if variant_board:
        return _run_variant(args, output)
    if args.config is not None and args.file is not None:
        raise SetlabError("give either --file (a board) or --config (a configuration), not both")
    if args.config is not None and args.cards:
        raise SetlabError("give either cards (a board) or --config (a configuration), not both")
    if args.config is not None and args.columns is not None:
        raise SetlabError("--columns lays out a board: it does not apply to --config")
    if args.config is not None:
        args.file = args.config
    cards = read_cards(args)
    if args.config is not None:
        drawing = configuration_svg(cards, sets=True, drop_constant=args.drop_constant)
        what = f"{len(cards)} points, {_count(cards, args.properties)}"
    elif args.apart:
        sets = find_sets(cards, args.properties)
        if not sets:
            raise SetlabError("--apart: no set on the board to draw")
        drawing = sets_svg(cards, sets)
        what = _count(cards, args.properties)
    else:
        drawing = board_svg(cards, sets=args.sets, columns=args.columns)
        what = f"{len(cards)} cards" + (
            f", {_count(cards, args.properties)} outlined" if args.sets else ""
        )
    path = drawing.save(output, scale=args.scale)
    if args.json:
        _print_json(path, cards, find_sets(cards, args.properties), args.properties)
        return 0
    print(f"wrote {path} ({what})")
    return 0


def _run_variant(args: argparse.Namespace, output: Path) -> int:
    """A board of a variant's deck (as ``setlab find --variant`` reads it), structures outlined."""
    kind, values, board = read_variant_board(args)
    from setlab.variants import find_structures  # numba: loaded for the variants only

    found = find_structures(board, kind.name, args.properties, values)
    deck = {"variant": kind.name, "properties": args.properties, "values": values}
    if args.apart:
        if not found:
            raise SetlabError(f"--apart: no {kind.title} on the board to draw")
        drawing = sets_svg(board, found, **deck)
    else:
        drawing = board_svg(board, found, args.columns, **deck)
    path = drawing.save(output, scale=args.scale)
    if args.json:
        print_json({"command": "draw", "path": str(path), **deck,
                    "cards": [[int(d) for d in valued_digits(c, args.properties, values)]
                              for c in board],
                    "codes": [valued_code(c, args.properties, values) for c in board],
                    "found": [list(s) for s in found], "count": len(found)})  # fmt: skip
        return 0
    noun = "set" if kind.name == "set" else kind.title
    print(f"wrote {path} ({len(board)} cards, {counted(len(found), noun)} outlined)")
    return 0


def _count(cards: list[Card], properties: int) -> str:
    return counted(len(find_sets(cards, properties)), "set")


def _run_teaching(args: argparse.Namespace, output: Path) -> int:
    """The cap and one more card with the sets it completes (render.cap_and_completion_svg)."""
    given = [name for name, value in (("CARD", args.cards), ("--config", args.config),
             ("--file", args.file), ("--sets", args.sets), ("--columns", args.columns),
             ("--drop-constant", args.drop_constant), ("--variant", args.variant),
             ("--values", args.values), ("--apart", args.apart)) if value]  # fmt: skip
    if given:
        raise SetlabError(f"--teaching draws its own cards: {', '.join(given)} does not apply")
    if not 1 <= args.properties <= MAX_GRID_PROPERTIES:
        raise SetlabError(f"--teaching: the deck is drawn for P from 1 to {MAX_GRID_PROPERTIES}")
    from setlab.extremal.bigcaps import best_construction  # the known construction
    from setlab.geometry import indices_of

    cap = sorted(int(c) for c in indices_of(best_construction(args.properties)))
    if args.card is None:
        card = next(c for c in range(3**args.properties) if c not in cap)
    else:
        card = parse_card(args.card, args.properties)
        if card in cap:
            raise SetlabError(f"--card {args.card}: that card is in the cap; choose one outside")
    drawing = cap_and_completion_svg(cap, card, args.properties)
    path = drawing.save(output, scale=args.scale)
    cards = [*cap, card]
    sets = [s for s in find_sets([Card(c, args.properties) for c in cards], args.properties)]
    if args.json:
        _print_json(path, cards, sets, args.properties, cap=len(cap))
        return 0
    name = Card(card, args.properties).code
    print(
        f"wrote {path} (a cap of {len(cap)} cards and {name}, which completes "
        f"{counted(len(sets), 'set')} with it)"
    )
    return 0


def _print_json(
    path: Path, cards: Sequence[Card | int], sets: Sequence[Sequence[int]], properties: int,
    **extra: object,
) -> None:
    """The ``draw`` JSON object: the file written, its cards and their sets."""
    digits, codes = card_lists(cards, properties)
    print_json({"command": "draw", "path": str(path), "properties": properties, "cards": digits,
                "codes": codes, "sets": [list(s) for s in sets], "count": len(sets), **extra})
