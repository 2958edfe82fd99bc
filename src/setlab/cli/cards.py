"""``setlab find``, ``setlab third``, ``setlab deck``: cards and the sets among them."""

from __future__ import annotations

import argparse

from setlab.cards import (
    VALUE_NAMES,
    accepted_words,
    deck,
    parse_board,
    valued_code,
    valued_digits,
    valued_name,
)
from setlab.cli.common import (
    add_properties,
    card_lists,
    counted,
    int_in,
    print_json,
    read_cards,
    read_variant_board,
)
from setlab.errors import SetlabError
from setlab.find import find_sets, hint, mismatches, third_card
from setlab.variants import VARIANTS


def register(commands: argparse._SubParsersAction) -> None:
    find = commands.add_parser(
        "find",
        help="all sets on a board",
        description="Print every set among the given cards. A card is a name in quotes "
        "('2 red striped ovals'), a code (2RTO) or a digit string (1012).",
    )
    find.add_argument("cards", nargs="*", metavar="CARD")
    find.add_argument("-f", "--file", help="read cards from a file, one per line")
    find.add_argument(
        "--hint", action="store_true", help="show one card of a set, not the set itself"
    )
    add_properties(find)
    find.add_argument("--json", action="store_true", help="print one JSON object")
    find.add_argument("--variant", choices=list(VARIANTS), help="UltraSets, GhostSets, 4Sets or "
                      "(set, the default) sets of V cards; 4Set cards are digits 0-3")  # fmt: skip
    find.add_argument("--values", type=int_in(2, 10), default=None, metavar="V",
                      help="values per property for --variant set (default 3)")  # fmt: skip
    find.set_defaults(run=run_find)

    third = commands.add_parser(
        "third",
        help="the card completing two cards to a set",
        description="Print the one card that makes a set with cards A and B: in each property "
        "the same value if A and B share it, else the value neither has.",
    )
    third.add_argument("first", metavar="A")
    third.add_argument("second", metavar="B")
    add_properties(third)
    third.add_argument("--json", action="store_true", help="print one JSON object")
    third.set_defaults(run=run_third)

    check = commands.add_parser(
        "check",
        help="are three cards a set? if not, which property fails",
        description="Say whether three cards form a set (every property all the same or all "
        "different) and, if not, which properties fail.",
    )
    check.add_argument("cards", nargs="+", metavar="CARD", help="three cards")
    add_properties(check)
    check.add_argument("--json", action="store_true", help="print one JSON object")
    check.set_defaults(run=run_check)

    words = commands.add_parser(
        "words",
        help="every word a card name may use",
        description="Print the words of card names (numbers, colours, shadings, shapes) and "
        "their letters in card codes such as 2RTO.",
    )
    words.add_argument("--json", action="store_true", help="print one JSON object")
    words.set_defaults(run=run_words)

    cards = commands.add_parser(
        "deck",
        help="list every card: index, code, digits, name",
        description="List the 3^P cards of the deck, one a line: index, code, digits, name.",
    )
    add_properties(cards)
    cards.add_argument("--json", action="store_true", help="print one JSON object")
    cards.set_defaults(run=run_deck)


def run_find(args: argparse.Namespace) -> int:
    if args.hint:
        if args.variant not in (None, "set") or args.values not in (None, 3):
            raise SetlabError("--hint is for the game of SET: not with --variant or --values")
        return _print_hint(read_cards(args), args)
    if args.variant is not None or args.values is not None:
        return run_find_variant(args)
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
    print(f"{len(board)} cards, {counted(len(sets), 'set')}")
    for number, triple in enumerate(sets, 1):
        print(f"{number:3d}. " + "  +  ".join(board[i].name for i in triple))
    return 0


def _print_hint(board: list, args: argparse.Namespace) -> int:
    position, count = hint(board, args.properties)
    if args.json:
        digits, codes = card_lists(board, args.properties)
        print_json(
            {
                "command": "hint",
                "properties": args.properties,
                "cards": digits,
                "codes": codes,
                "hint": position,
                "code": None if position is None else codes[position],
                "count": count,
            }
        )
        return 0
    if position is None:
        print(f"{len(board)} cards, no set: deal three more")
        return 0
    print(f"{len(board)} cards, {counted(count, 'set')}. Hint: look for a set with "
          f"{board[position].name}")  # fmt: skip
    return 0


def run_check(args: argparse.Namespace) -> int:
    board = parse_board(args.cards, args.properties)
    if len(board) != 3:
        raise SetlabError(f"give exactly three cards, got {len(board)}")
    failing = mismatches(*board)
    from setlab.game.play import why_not_a_set  # the game's words for what fails

    reasons = why_not_a_set([card.index for card in board], args.properties)
    if args.json:
        digits, codes = card_lists(board, args.properties)
        print_json(
            {
                "command": "check",
                "properties": args.properties,
                "cards": digits,
                "codes": codes,
                "set": not failing,
                "failing": [
                    {"axis": m.axis, "property": m.property, "values": _values(m, args)}
                    for m in failing
                ],
            }
        )
        return 0 if not failing else 1
    names = " + ".join(card.name for card in board)
    if not failing:
        print(f"a set: {names}")
        return 0
    print(f"not a set: {names}")
    for reason in reasons:
        print(f"  {reason} (all same or all different)")
    return 1


def _values(m, args: argparse.Namespace) -> list[str]:
    """The values of a failing property, as words for P = 4 (red, green), else digits."""
    if args.properties == 4:
        return [VALUE_NAMES[m.axis][v] for v in m.values]
    return [str(v) for v in m.values]


def run_words(args: argparse.Namespace) -> int:
    words = accepted_words()
    if args.json:
        print_json({"command": "words", "words": words})
        return 0
    print("Words a card name may use (any order, singular or plural), or a code such as 2RTO")
    for prop, values in words.items():
        print(f"{prop}:")
        for value, synonyms in values.items():
            print(f"  {value:<9} {', '.join(synonyms)}")
    return 0


def run_find_variant(args: argparse.Namespace) -> int:
    """``setlab find --variant NAME``: every structure of a variant, on a board of its deck."""
    kind, values, board = read_variant_board(args)
    from setlab.variants import find_structures  # numba: loaded for the variants only

    found = find_structures(board, kind.name, args.properties, values)
    codes = [valued_code(c, args.properties, values) for c in board]
    if args.json:
        digits = [[int(d) for d in valued_digits(c, args.properties, values)] for c in board]
        print_json({"command": "find", "variant": kind.name, "properties": args.properties,
                    "values": values, "cards": digits, "codes": codes,
                    "found": [list(s) for s in found], "count": len(found)})  # fmt: skip
        return 0
    print(f"{len(board)} cards, {counted(len(found), kind.title)}")
    for number, group in enumerate(found, 1):
        print(f"{number:3d}. " + "  +  ".join(
            valued_name(board[i], args.properties, values) for i in group))  # fmt: skip
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
