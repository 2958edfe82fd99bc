"""``setlab heuristic cmm`` and ``setlab heuristic search``: good configurations fast.

Both record every configuration they find in the results store (``--store PATH``, default the
user's store) as a witness, so the exact solvers start from the best known bounds.
"""

from __future__ import annotations

import argparse

from setlab.cli.common import (
    add_properties,
    add_store,
    extremal_json,
    float_in,
    int_in,
    print_json,
    provenance,
)
from setlab.extremal.heuristics import (
    cmm,
    counting_bound,
    local_search,
    record_cmm,
    record_search,
)
from setlab.store import PROBLEMS, Store, interval_text


def register(commands: argparse._SubParsersAction) -> None:
    group = commands.add_parser(
        "heuristic",
        help="heuristic configurations with many or few sets (CMM, local search)",
        description="Heuristic lower bounds for the maximum (upper bounds for the minimum) "
        "number of sets among n cards of AG(P,3). -p and --json may stand before the verb.",
    )
    # -p and --json on the group and on each verb, absent unless given (see _settle): a verb's
    # own defaults would otherwise overwrite what was given before it
    add_properties(group, absent=True)
    group.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                       help="print one JSON object")  # fmt: skip
    verbs = group.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True

    nested = verbs.add_parser(
        "cmm",
        help="the consecutive-maximization method: nested configurations for n = 1..3^P",
        description="Vinci's consecutive-maximization method as Algorithms 1-2 of Stevens & "
        "Wilson: one nested sequence of configurations and their numbers of sets.",
    )
    add_properties(nested, absent=True)
    add_store(nested)
    nested.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print one JSON object")  # fmt: skip
    nested.set_defaults(run=run_cmm)

    search = verbs.add_parser(
        "search",
        help="simulated annealing over one-card swaps for n cards",
        description="Simulated annealing with restarts over swaps of one card in and one out.",
    )
    add_properties(search, absent=True)
    search.add_argument("-n", "--cards", type=int_in(0), required=True, metavar="N",
                        help="number of cards")  # fmt: skip
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
    search.add_argument(
        "--cells",
        type=_cells,
        metavar="S0,S1,...",
        help="keep S_c cards in cell c: with 3^k sizes the cells are the flats of the cards "
        "sharing their first k digits (3: a split over parallel hyperplanes; 9: a pattern of the "
        "big-slice split, cell 3i+j)",
    )
    add_store(search)
    search.add_argument("--json", action="store_true", default=argparse.SUPPRESS,
                        help="print one JSON object")  # fmt: skip
    search.set_defaults(run=run_search)


def _cells(text: str) -> list[int]:
    """An argparse ``type=``: comma-separated cell sizes (how many, their sum and range are
    checked by :func:`~setlab.extremal.heuristics.local_search`, which knows P and n)."""
    parts = text.split(",")
    if not all(p.strip().isdigit() for p in parts):
        raise argparse.ArgumentTypeError(f"expected counts such as 21,21,9, got '{text}'")
    return [int(p) for p in parts]


def _interval(properties: int, cards: int, sense: str, sets: int) -> tuple[int, int]:
    """What a witness with ``sets`` sets and the counting bound prove of the optimum."""
    bound = counting_bound(properties, cards, "max" if sense == "max" else "min")
    return (sets, bound) if sense == "max" else (bound, sets)


def _settle(args: argparse.Namespace) -> None:
    """Fill in -p (default 4) and --json (default off) where given neither before nor after
    the verb."""
    if not hasattr(args, "properties"):
        args.properties = 4
    if not hasattr(args, "json"):
        args.json = False


def run_cmm(args: argparse.Namespace) -> int:
    _settle(args)
    with Store(args.store) as store:  # opened first: a store that cannot record costs no work
        store.check_writable()
        result = cmm(args.properties)
        improved = record_cmm(store, result)
    origin = provenance(False)
    rows = []
    for n in range(1, len(result.order) + 1):
        sets = int(result.sets[n])
        lower, upper = _interval(args.properties, n, "max", sets)
        rows.append(
            extremal_json(
                problem=PROBLEMS["max"],
                properties=args.properties,
                cards=n,
                sense="max",
                lower=lower,
                upper=upper,
                value=sets,
                method="counting bound",
                witness=result.witness(n),
                witness_method="cmm",
                origin=origin,
            )
        )
    if args.json:
        print_json({"command": "heuristic cmm", "properties": args.properties, "rows": rows})
        return 0
    print(
        f"CMM for P = {args.properties}: cards in selection order, sets among the first n, "
        "and what they and the counting bound prove of M(n)"
    )
    for row in rows:
        last = "".join(map(str, row["witness"][-1]))
        known = interval_text(f"M({row['cards']})", row["lower"], row["upper"])
        print(f"{row['cards']:5d}  {last}  {row['value']:6d}  {known}")
    print(f"{improved} stored witnesses improved")
    return 0


def run_search(args: argparse.Namespace) -> int:
    _settle(args)
    sense = "min" if args.minimize else "max"
    with Store(args.store) as store:  # opened first: a store that cannot record costs no work
        store.check_writable()
        result = local_search(
            args.properties, args.cards, sense, seconds=args.seconds, seed=args.seed,
            cells=args.cells,
        )  # fmt: skip
        improved = record_search(store, result)
    lower, upper = _interval(result.properties, result.cards, sense, result.sets)
    optimal = lower == upper
    answer = extremal_json(
        problem=PROBLEMS[sense],
        properties=result.properties,
        cards=result.cards,
        sense=sense,
        lower=lower,
        upper=upper,
        value=result.sets,
        method="counting bound",
        witness=result.witness,
        witness_method=result.method,
        origin=provenance(False, seconds=result.seconds),
    )
    if args.json:
        print_json(
            {
                "command": "heuristic search",
                **answer,
                "sets": result.sets,
                "seed": result.seed,
                "restarts": result.restarts,
                "optimal": optimal,
                "stored": improved,
            }
        )
        return 0
    most = "most" if sense == "max" else "fewest"
    restarts = f"{result.restarts} restart" + ("s" if result.restarts > 1 else "")
    kept = "" if result.cells is None else " with cells " + ",".join(map(str, result.cells))
    print(
        f"{result.cards} cards of AG({result.properties},3){kept}, {most} sets found: "
        f"{result.sets} ({restarts} in {result.seconds:.2f} s, seed {result.seed})"
        + (", optimal: it meets the counting bound" if optimal else "")
    )
    letter = "M" if sense == "max" else "m"
    known = interval_text(f"{letter}({result.cards})", lower, upper)
    print(f"so {known} (the witness and the counting bound)")
    print(" ".join("".join(map(str, card)) for card in answer["witness"]))
    print("stored as a new best witness" if improved else "the store already had as good a one")
    return 0
