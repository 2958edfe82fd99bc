"""``setlab find``, ``setlab third``, ``setlab deck``: cards and the sets among them."""

from __future__ import annotations

import argparse

from setlab.cards import deck, parse_board, parse_valued_card, valued_code, valued_name
from setlab.cli.common import add_properties, int_in, print_json, read_card_texts, read_cards
from setlab.errors import SetlabError
from setlab.find import find_sets, third_card
from setlab.variants import VARIANTS, find_structures, variant


def register(commands: argparse._SubParsersAction) -> None:
    find = commands.add_parser(
        "find",
        help="all sets on a board",
        description="Print every set among the given cards. A card is a name in quotes "
        "('2 red striped ovals'), a code (2RTO) or a digit string (1012).",
    )
    find.add_argument("cards", nargs="*", metavar="CARD")
    find.add_argument("-f", "--file", help="read cards from a file, one per line")
    add_properties(find)
    find.add_argument("--json", action="store_true", help="print one JSON object")
    find.add_argument("--variant", choices=list(VARIANTS), help="UltraSets, GhostSets, 4Sets or "
                      "(set, the default) sets of V cards; 4Set cards are digits 0-3")  # fmt: skip
    find.add_argument("--values", type=int_in(2, 10), default=None, metavar="V",
                      help="values per property for --variant set (default 3)")  # fmt: skip
    find.set_defaults(run=run_find)

    third = commands.add_parser("third", help="the card completing two cards to a set")
    third.add_argument("first", metavar="A")
    third.add_argument("second", metavar="B")
    add_properties(third)
    third.add_argument("--json", action="store_true", help="print one JSON object")
    third.set_defaults(run=run_third)

    cards = commands.add_parser("deck", help="list every card: index, code, digits, name")
    add_properties(cards)
    cards.add_argument("--json", action="store_true", help="print one JSON list")
    cards.set_defaults(run=run_deck)


def run_find(args: argparse.Namespace) -> int:
    if args.variant is not None or args.values is not None:
        return run_find_variant(args)
    board = read_cards(args)
    sets = find_sets(board, args.properties)
    if args.json:
        print_json(
            {
                "properties": args.properties,
                "cards": [card.code for card in board],
                "sets": [list(s) for s in sets],
            }
        )
        return 0
    noun = "set" if len(sets) == 1 else "sets"
    print(f"{len(board)} cards, {len(sets)} {noun}")
    for number, triple in enumerate(sets, 1):
        print(f"{number:3d}. " + "  +  ".join(board[i].name for i in triple))
    return 0


def run_find_variant(args: argparse.Namespace) -> int:
    """``setlab find --variant NAME``: every structure of a variant, on a board of its deck."""
    kind = variant(args.variant or "set")
    if args.values is not None and kind.values is not None and args.values != kind.values:
        raise SetlabError(f"--values: {kind.title} is played with {kind.values} values")
    values = args.values or kind.values or 3
    kind.check(args.properties, values)
    texts = read_card_texts(args)
    board: list[int] = []
    for text in texts:
        card = parse_valued_card(text, args.properties, values)
        if card in board:
            raise SetlabError(f"duplicate card '{text.strip()}'")
        board.append(card)
    size = kind.size(values)
    if len(board) < size:
        raise SetlabError(f"{len(board)} cards: a {kind.title} board needs at least {size}")
    found = find_structures(board, kind.name, args.properties, values)
    codes = [valued_code(c, args.properties, values) for c in board]
    if args.json:
        print_json({"variant": kind.name, "properties": args.properties, "values": values,
                    "cards": codes, "found": [list(s) for s in found]})  # fmt: skip
        return 0
    noun = kind.title if len(found) == 1 else f"{kind.title}s"
    print(f"{len(board)} cards, {len(found)} {noun}")
    for number, group in enumerate(found, 1):
        print(f"{number:3d}. " + "  +  ".join(
            valued_name(board[i], args.properties, values) for i in group))  # fmt: skip
    return 0


def run_third(args: argparse.Namespace) -> int:
    a, b = parse_board([args.first, args.second], args.properties)
    card = third_card(a, b)
    if args.json:
        print_json({"card": card.code})
    else:
        print(f"{card.code}  {card.name}" if args.properties == 4 else card.code)
    return 0


def run_deck(args: argparse.Namespace) -> int:
    cards = deck(args.properties)
    if args.json:
        print_json([{"index": c.index, "code": c.code, "digits": c.digits} for c in cards])
        return 0
    for card in cards:
        print(f"{card.index:5d}  {card.code:>4}  {card.digits}  {card.name}")
    return 0
