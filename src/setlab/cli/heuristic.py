"""``setlab heuristic cmm`` and ``setlab heuristic search``: good configurations fast.

Both record every configuration they find in the results store (``--store PATH``, default the
user's store) as a witness, so the exact solvers start from the best known bounds.
"""

from __future__ import annotations

import argparse

from setlab.cli.common import add_properties, float_in, int_in, print_json
from setlab.extremal.heuristics import (
    cmm,
    counting_bound,
    local_search,
    record_cmm,
    record_search,
)
from setlab.geometry import digits
from setlab.store import Store


def register(commands: argparse._SubParsersAction) -> None:
    group = commands.add_parser(
        "heuristic",
        help="heuristic configurations with many or few sets (CMM, local search)",
        description="Heuristic lower bounds for the maximum (upper bounds for the minimum) "
        "number of sets among n cards of AG(P,3).",
    )
    verbs = group.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True

    nested = verbs.add_parser(
        "cmm",
        help="the consecutive-maximization method: nested configurations for n = 1..3^P",
        description="Vinci's consecutive-maximization method as Algorithms 1-2 of Stevens & "
        "Wilson: one nested sequence of configurations and their numbers of sets.",
    )
    add_properties(nested)
    _add_store(nested)
    nested.add_argument("--json", action="store_true", help="print one JSON list")
    nested.set_defaults(run=run_cmm)

    search = verbs.add_parser(
        "search",
        help="simulated annealing over one-card swaps for n cards",
        description="Simulated annealing with restarts over swaps of one card in and one out.",
    )
    add_properties(search)
    search.add_argument("-n", "--cards", type=int_in(0), required=True, metavar="N")
    search.add_argument("--minimize", action="store_true", help="fewest sets instead of most")
    search.add_argument(
        "--seconds",
        type=float_in(0, 1e9, open_low=True),
        default=2.0,
        metavar="S",
        help="time budget (default 2)",
    )
    search.add_argument(
        "--seed", type=int_in(0), default=0, metavar="X", help="random seed (default 0)"
    )
    _add_store(search)
    search.add_argument("--json", action="store_true", help="print one JSON object")
    search.set_defaults(run=run_search)


def _add_store(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store", metavar="PATH", help="results store (default $SETLAB_STORE or the user's store)"
    )


def _cards_as_digits(witness: list[int], properties: int) -> list[list[int]]:
    return digits(properties)[witness].tolist()


def run_cmm(args: argparse.Namespace) -> int:
    result = cmm(args.properties)
    with Store(args.store) as store:
        improved = record_cmm(store, result)
    rows = [
        {
            "cards": n,
            "sets": int(result.sets[n]),
            "witness": _cards_as_digits(result.witness(n), args.properties),
        }
        for n in range(1, len(result.order) + 1)
    ]
    if args.json:
        print_json(rows)
        return 0
    print(f"CMM for P = {args.properties}: cards in selection order, sets among the first n")
    for row in rows:
        last = "".join(map(str, row["witness"][-1]))
        print(f"{row['cards']:5d}  {last}  {row['sets']:6d}")
    print(f"{improved} stored witnesses improved")
    return 0


def run_search(args: argparse.Namespace) -> int:
    sense = "min" if args.minimize else "max"
    result = local_search(args.properties, args.cards, sense, seconds=args.seconds, seed=args.seed)
    with Store(args.store) as store:
        improved = record_search(store, result)
    cards = _cards_as_digits(result.witness, args.properties)
    optimal = result.sets == counting_bound(result.properties, result.cards, sense)
    if args.json:
        print_json(
            {
                "properties": result.properties,
                "cards": result.cards,
                "sense": result.sense,
                "sets": result.sets,
                "witness": cards,
                "seed": result.seed,
                "restarts": result.restarts,
                "seconds": round(result.seconds, 3),
                "method": result.method,
                "optimal": optimal,
                "stored": improved,
            }
        )
        return 0
    most = "most" if sense == "max" else "fewest"
    restarts = f"{result.restarts} restart" + ("s" if result.restarts > 1 else "")
    print(
        f"{result.cards} cards of AG({result.properties},3), {most} sets found: {result.sets}"
        f" ({restarts} in {result.seconds:.2f} s, seed {result.seed})"
        + (", optimal: it meets the counting bound" if optimal else "")
    )
    print(" ".join("".join(map(str, card)) for card in cards))
    print("stored as a new best witness" if improved else "the store already had as good a one")
    return 0
