"""``setlab maxsets``, ``setlab minsets``, ``setlab verify``: proven extremal set counts."""

from __future__ import annotations

import argparse
import time

from setlab.cards import Card
from setlab.certificates import trusted, verify_store
from setlab.cli.common import add_properties, int_in, print_json
from setlab.errors import SetlabError
from setlab.extremal.maxsets import Solver, Value
from setlab.store import Store, default_store_path


def _add_store(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        metavar="PATH",
        default=None,
        help=f"results store (default {default_store_path()})",
    )


def register(commands: argparse._SubParsersAction) -> None:
    for sense, name, extreme in (("max", "maxsets", "most"), ("min", "minsets", "fewest")):
        parser = commands.add_parser(
            name,
            help=f"the {extreme} sets among n cards, proven, with a witness",
            description=f"The {extreme} sets among n cards of AG(P,3), with a witness and how "
            "the value is proven. Results and search checkpoints go to the results store.",
        )
        add_properties(parser)
        group = parser.add_mutually_exclusive_group(required=True)
        group.add_argument("-n", "--cards", type=int_in(0), metavar="N", help="number of cards")
        group.add_argument("--table", action="store_true", help="every n = 0..3^P")
        parser.add_argument(
            "--search-up-to",
            type=int_in(0),
            metavar="K",
            default=None,
            help="largest n for the pruned search (default: 30 for P = 4)",
        )
        parser.add_argument(
            "--min-search-up-to",
            type=int_in(0),
            metavar="K",
            default=None,
            help="largest n for the pruned min search (default: 33 for P = 4)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object/list")
        _add_store(parser)
        parser.set_defaults(run=run_extremes, sense=sense)

    verify = commands.add_parser(
        "verify",
        help="re-check every stored witness and bound independently",
        description="Re-count every witness with a plain triple loop and re-check every bound "
        "from its proof record; --rerun repeats searches and exhaustive walks.",
    )
    add_properties(verify, default=None)
    verify.add_argument("--rerun", action="store_true", help="repeat searches and walks")
    verify.add_argument("--json", action="store_true", help="print one JSON list")
    _add_store(verify)
    verify.set_defaults(run=run_verify)


def _solver(args: argparse.Namespace, store: Store) -> Solver:
    for limit in (args.search_up_to, args.min_search_up_to):
        if limit is not None and limit < 0:
            raise SetlabError("search limits must be non-negative")
    return Solver(
        args.properties,
        store,
        search_cards=args.search_up_to,
        min_search_cards=args.min_search_up_to,
    )


def run_extremes(args: argparse.Namespace) -> int:
    with Store(args.store) as store:
        solver = _solver(args, store)
        if args.table:
            return _print_table(solver, args.json)
        started = time.perf_counter()
        value = solver.max(args.cards) if args.sense == "max" else solver.min(args.cards)
        seconds = time.perf_counter() - started
        solver.forget_checkpoints()
    if args.json:
        print_json(value.as_json(seconds))
        return 0
    _print_value(value, seconds)
    return 0


def _print_value(value: Value, seconds: float) -> None:
    letter = "M" if value.sense == "max" else "m"
    status = "proven" if value.proven else f"not proven (bound {value.bound})"
    print(
        f"{letter}({value.cards}) = {value.value} sets among {value.cards} cards of "
        f"AG({value.properties},3): {status} by {value.method}, {seconds:.2f} s"
    )
    if value.witness is not None:
        cards = [Card(c, value.properties).code for c in value.witness]
        print(f"witness ({value.witness_method}): " + " ".join(cards))


def _print_table(solver: Solver, as_json: bool) -> int:
    rows = solver.table()
    if as_json:
        print_json(rows)
        return 0
    header = f"{'n':>3} {'max':>5} {'':1} {'max method':<12} {'min':>5} {'':1} {'min method':<12}"
    print(f"{header} {'seconds':>8}")
    for row in rows:
        high = "" if row["max_proven"] else "?"
        low = "" if row["min_proven"] else "?"
        print(
            f"{row['cards']:>3} {row['max']:>5} {high:1} {row['max_method'] or '-':<12} "
            f"{row['min']:>5} {low:1} {row['min_method'] or '-':<12} {row['seconds']:>8.2f}"
        )
    unproven = sum(not (r["max_proven"] and r["min_proven"]) for r in rows)
    print(f"{len(rows) - unproven} of {len(rows)} rows fully proven ('?': witness value only)")
    return 0


def run_verify(args: argparse.Namespace) -> int:
    with Store(args.store) as store:
        checks = verify_store(store, args.properties, rerun=args.rerun)
    failed = [c for c in checks if not c.ok]
    if args.json:
        print_json([c.as_json() for c in checks])
    else:
        for check in failed:
            print(f"FAIL {check.problem} P={check.properties} n={check.cards} {check.what}: "
                  f"{check.detail}")  # fmt: skip
        print(f"{len(checks) - len(failed)} of {len(checks)} checks passed")
        print(trusted(args.rerun))
    return 1 if failed else 0
