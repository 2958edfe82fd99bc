"""``setlab find``, ``setlab third``, ``setlab deck``: cards and the sets among them."""

from __future__ import annotations

import argparse

from setlab.cards import deck, parse_board
from setlab.cli.common import add_properties, card_lists, print_json, read_cards
from setlab.find import find_sets, third_card


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
    find.set_defaults(run=run_find)

    third = commands.add_parser("third", help="the card completing two cards to a set")
    third.add_argument("first", metavar="A")
    third.add_argument("second", metavar="B")
    add_properties(third)
    third.add_argument("--json", action="store_true", help="print one JSON object")
    third.set_defaults(run=run_third)

    cards = commands.add_parser("deck", help="list every card: index, code, digits, name")
    add_properties(cards)
    cards.add_argument("--json", action="store_true", help="print one JSON object")
    cards.set_defaults(run=run_deck)


def run_find(args: argparse.Namespace) -> int:
    board = read_cards(args)
    sets = find_sets(board, args.properties)
    if args.json:
        digits, codes = card_lists(board, args.properties)
        print_json(
            {
                "command": "find",
                "properties": args.properties,
                "cards": digits,
                "codes": codes,
                "sets": [list(s) for s in sets],
                "count": len(sets),
            }
        )
        return 0
    noun = "set" if len(sets) == 1 else "sets"
    print(f"{len(board)} cards, {len(sets)} {noun}")
    for number, triple in enumerate(sets, 1):
        print(f"{number:3d}. " + "  +  ".join(board[i].name for i in triple))
    return 0


def run_third(args: argparse.Namespace) -> int:
    a, b = parse_board([args.first, args.second], args.properties)
    card = third_card(a, b)
    if args.json:
        digits, codes = card_lists([card], args.properties)
        print_json(
            {"command": "third", "properties": args.properties, "card": digits[0], "code": codes[0]}
        )
    else:
        print(f"{card.code}  {card.name}" if args.properties == 4 else card.code)
    return 0


def run_deck(args: argparse.Namespace) -> int:
    cards = deck(args.properties)
    if args.json:
        digits, codes = card_lists(cards, args.properties)
        print_json(
            {
                "command": "deck",
                "properties": args.properties,
                "cards": digits,
                "codes": codes,
                "names": [c.name for c in cards],
            }
        )
        return 0
    for card in cards:
        print(f"{card.index:5d}  {card.code:>4}  {card.digits}  {card.name}")
    return 0
