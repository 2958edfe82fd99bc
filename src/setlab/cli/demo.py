"""``setlab demo``: the paper's 12-card board with 14 sets, solved."""

from __future__ import annotations

import argparse
import time

from setlab.cards import Card
from setlab.cli.common import card_lists, print_json
from setlab.find import find_sets
from setlab.seeds import PAPER_BOARD

__all__ = ["register", "run_demo"]


def register(commands: argparse._SubParsersAction) -> None:
    demo = commands.add_parser(
        "demo",
        help="solve the paper's 12-card board with 14 sets",
        description="Find every set on the 12-card board of the seed paper (14 sets) and time it.",
    )
    demo.add_argument("--json", action="store_true", help="print one JSON object")
    demo.set_defaults(run=run_demo)


def run_demo(args: argparse.Namespace) -> int:
    board = [Card.parse(text) for text in PAPER_BOARD]
    find_sets(board)  # first call loads the third-card table and the compiled kernel
    start = time.perf_counter()
    sets = find_sets(board)
    elapsed = time.perf_counter() - start
    if args.json:
        digits, codes = card_lists(board, 4)
        print_json(
            {
                "command": "demo",
                "properties": 4,
                "cards": digits,
                "codes": codes,
                "sets": [list(s) for s in sets],
                "count": len(sets),
                "seconds": elapsed,
            }
        )
        return 0
    print("The 12-card board of Stevens & Wilson, section 2.1 (the maximum for 12 cards):")
    for row in range(0, 12, 3):
        print("   " + " | ".join(f"{c.digits} {c.code}" for c in board[row : row + 3]))
    print(f"\n{len(sets)} sets found in {elapsed * 1e6:.0f} us:")
    for number, triple in enumerate(sets, 1):
        print(f"{number:3d}. " + "  +  ".join(board[i].name for i in triple))
    return 0
