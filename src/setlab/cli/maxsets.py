"""``setlab maxsets``, ``setlab minsets``, ``setlab verify``: proven extremal set counts."""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING, Any

from setlab.cards import Card, check_properties
from setlab.certificates import trusted, verify_store
from setlab.cli.common import (
    add_properties,
    add_scheduler,
    add_store,
    counted,
    extremal_json,
    int_in,
    print_json,
    provenance,
    provenance_text,
    reach_scheduler,
    value_bar,
)
from setlab.errors import SetlabError
from setlab.store import PROBLEMS, Sense, Store, interval_text

if TYPE_CHECKING:
    from setlab.extremal.maxsets import Solver, Value


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
            help="largest n for the pruned max search, which proves M(n) (default: 30 for P = 4)",
        )
        parser.add_argument(
            "--min-search-up-to",
            type=int_in(0),
            metavar="K",
            default=None,
            help="largest n for the pruned min search, which proves m(n); either problem may need "
            "the other through the complement identity (default: 33 for P = 4)",
        )
        if sense == "max":
            parser.add_argument("--variant", choices=["set", "ultra"], default="set",
                                help="count UltraSets instead of sets (exact where the classes "
                                "reach; --table for P <= 3)")  # fmt: skip
        parser.add_argument("--json", action="store_true", help="print one JSON object")
        add_store(parser)
        add_scheduler(parser)
        parser.set_defaults(run=run_extremes, sense=sense, variant="set")

    verify = commands.add_parser(
        "verify",
        help="re-check every stored witness and bound with setlab's own code (the independent "
        "check is certify's bundle)",
        description="Re-count every witness with a plain loop over its pairs and re-check every "
        "bound from its proof record, on $SETLAB_WORKERS processes (default: every core); --rerun "
        "repeats searches and exhaustive walks.",
    )
    add_properties(verify, default=None)
    verify.add_argument("--rerun", action="store_true", help="repeat searches and walks")
    verify.add_argument("--json", action="store_true", help="print one JSON object")
    add_store(verify, writes=False)
    add_scheduler(verify)
    verify.set_defaults(run=run_verify)


def _solver(args: argparse.Namespace, store: Store) -> Solver:
    from setlab.extremal.maxsets import Solver  # OR-Tools and SciPy: only when solving

    for limit in (args.search_up_to, args.min_search_up_to):
        if limit is not None and limit < 0:
            raise SetlabError("search limits must be non-negative")
    return Solver(
        args.properties,
        store,
        search_cards=args.search_up_to,
        min_search_cards=args.min_search_up_to,
        scheduler=reach_scheduler(args),
    )


def run_extremes(args: argparse.Namespace) -> int:
    if args.variant == "ultra":
        return run_ultra(args)
    with Store(args.store) as store:
        solver = _solver(args, store)
        if args.table:
            if len(_proven_cells(solver)) < 2 * (solver.size + 1):  # something to compute
                store.check_writable()
            return _print_table(solver, args.json, args.command)
        read = solver.get(args.sense, args.cards).proven
        if not read:
            store.check_writable()
        started = time.perf_counter()
        value = solver.max(args.cards) if args.sense == "max" else solver.min(args.cards)
        seconds = time.perf_counter() - started
        solver.forget_checkpoints()
    origin = provenance(read, value.updated if read else None, None if read else seconds)
    if args.json:
        print_json({"command": args.command, **value_json(value, origin)})
        return 0
    _print_value(value, origin)
    return 0


def value_json(value: Value, origin: dict[str, Any]) -> dict[str, Any]:
    """M(n) or m(n) in the one extremal shape of every ``--json``."""
    return extremal_json(
        problem=PROBLEMS[value.sense],
        properties=value.properties,
        cards=value.cards,
        sense=value.sense,
        lower=value.lower,
        upper=value.upper,
        value=value.value,
        method=value.method,
        witness=value.witness,
        witness_method=value.witness_method,
        origin=origin,
    )


def _print_value(value: Value, origin: dict[str, Any]) -> None:
    letter = "M" if value.sense == "max" else "m"
    known = interval_text(f"{letter}({value.cards})", value.lower, value.upper)
    status = (
        f"proven by {value.method}"
        if value.proven
        else "not proven" + (f" (bound by {value.method})" if value.method else "")
    )
    sets = "set" if value.lower == value.upper == 1 else "sets"
    print(
        f"{known} {sets} among {value.cards} cards of AG({value.properties},3): {status}, "
        f"{provenance_text(origin)}"
    )
    if value.witness is not None:
        cards = [Card(c, value.properties).code for c in value.witness]
        print(f"witness with {counted(value.value, 'set')} ({value.witness_method}): "
              + " ".join(cards))  # fmt: skip


def _cell(low: int | None, high: int | None) -> str:
    """A table cell: the value when proven, else the proven range ``low..high``."""
    if low is not None and low == high:
        return str(low)
    return f"{'?' if low is None else low}..{'?' if high is None else high}"


SENSES: tuple[Sense, Sense] = ("max", "min")


def _proven_cells(solver: Solver) -> set[tuple[Sense, int]]:
    """The (sense, n) of the table the store already proves."""
    return {(s, n) for s in SENSES for n in range(solver.size + 1) if solver.get(s, n).proven}


def _print_table(solver: Solver, as_json: bool, command: str) -> int:
    read = _proven_cells(solver)
    rows = solver.table()
    if as_json:
        values = []
        for row in rows:
            n = row["cards"]
            item: dict[str, Any] = {"cards": n, "seconds": row["seconds"]}
            for sense in SENSES:
                value = solver.get(sense, n)
                was_read = (sense, n) in read
                origin = provenance(was_read, value.updated if was_read else None)
                item[sense] = value_json(value, origin)
            values.append(item)
        print_json({"command": f"{command} table", "properties": solver.properties, "rows": values})
        return 0
    header = f"{'n':>3} {'M(n)':>11} {'max method':<12} {'m(n)':>11} {'min method':<12}"
    print(f"{header} {'seconds':>8}")
    for row in rows:
        high = _cell(row["max"], row["max_bound"])
        low = _cell(row["min_bound"], row["min"])
        print(
            f"{row['cards']:>3} {high:>11} {row['max_method'] or '-':<12} "
            f"{low:>11} {row['min_method'] or '-':<12} {row['seconds']:>8.2f}"
        )
    unproven = sum(not (r["max_proven"] and r["min_proven"]) for r in rows)
    print(
        f"{len(rows) - unproven} of {len(rows)} rows fully proven "
        "(a range a..b: the proven bounds of an open value)"
    )
    return 0


def run_verify(args: argparse.Namespace) -> int:
    if args.scheduler and not args.rerun:  # "local" ('') is no cluster
        raise SetlabError("--scheduler runs the searches that --rerun repeats: give both")
    address = reach_scheduler(args) if args.rerun else None
    if args.properties is not None:
        check_properties(args.properties)
    store = Store(args.store)
    if not store.exists:  # a mistyped path must not pass "0 of 0"
        raise SetlabError(f"no results store at {store.path}")
    bar, progress = value_bar("setlab verify", quiet=args.json)
    with store, bar:
        checks = verify_store(store, args.properties, rerun=args.rerun, scheduler=address,
                              progress=progress)  # fmt: skip
    if not checks:
        of = "" if args.properties is None else f" of P = {args.properties}"
        raise SetlabError(f"nothing to check: the store at {store.path} holds no results{of}")
    failed = [c for c in checks if not c.ok]
    if args.json:
        print_json(
            {
                "command": "verify",
                "checks": [c.as_json() for c in checks],
                "passed": len(checks) - len(failed),
                "count": len(checks),
            }
        )
    else:
        for check in failed:
            print(f"FAIL {check.problem} P={check.properties} n={check.cards} {check.what}: "
                  f"{check.detail}")  # fmt: skip
        print(f"{len(checks) - len(failed)} of {len(checks)} checks passed")
        print(trusted(args.rerun))
    return 1 if failed else 0


def run_ultra(args: argparse.Namespace) -> int:
    """``setlab maxsets --variant ultra``: the most UltraSets among n cards."""
    from setlab.cards import deck_size
    from setlab.extremal.ultrasets import PROBLEM, most_ultrasets, most_ultrasets_table

    for option, value in (("--search-up-to", args.search_up_to),
                          ("--min-search-up-to", args.min_search_up_to),
                          ("--scheduler", args.scheduler or None)):  # fmt: skip
        if value is not None:
            raise SetlabError(f"{option} does not apply to 'setlab maxsets --variant ultra'")
    if not 1 <= args.properties <= 6:
        raise SetlabError("--variant ultra: P from 1 to 6")
    if args.table and args.properties > 3:
        raise SetlabError("--variant ultra --table: P from 1 to 3 (every class of AG(P,3))")
    if not args.table and args.cards > deck_size(args.properties):
        raise SetlabError(f"-n: at most {deck_size(args.properties)} cards for P = "
                          f"{args.properties}")  # fmt: skip
    with Store(args.store) as store:
        store.check_writable()  # a table is always walked, and a value's walk records it
        started = time.perf_counter()
        if args.table:
            values = most_ultrasets_table(args.properties, store=store)
        else:
            values = [most_ultrasets(args.properties, args.cards, store=store)]
        seconds = time.perf_counter() - started
    answers = []
    for value in values:
        read = value.stored_at is not None and not args.table  # a table is always walked
        origin = provenance(read, value.stored_at if read else None, None if read else seconds)
        answer = extremal_json(problem=PROBLEM, properties=value.properties, cards=value.cards,
                               sense="max", lower=value.lower, upper=value.upper,
                               value=value.lower, method=value.method, witness=value.witness,
                               witness_method=value.witness_method, origin=origin)  # fmt: skip
        answers.append({"variant": "ultra", **answer})
    if args.json:
        if args.table:
            print_json({"command": "maxsets table", "variant": "ultra",
                        "properties": args.properties,
                        "rows": [{"cards": a["cards"], "max": a} for a in answers]})  # fmt: skip
        else:
            print_json({"command": "maxsets", **answers[0]})
        return 0
    if args.table:
        print(f"{'n':>3} {'U(n)':>9} method")
        for value in values:
            print(f"{value.cards:>3} {_cell(value.lower, value.upper):>9} {value.method}")
        print(f"the most UltraSets among n cards of AG({args.properties},3), all proven, "
              f"computed in {seconds:.2f} s")  # fmt: skip
        return 0
    value, origin = values[0], answers[0]["provenance"]
    known = interval_text(f"U({value.cards})", value.lower, value.upper)
    status = (f"proven by {value.method}" if value.proven
              else f"not proven (bound by {value.method})")  # fmt: skip
    print(f"{known} UltraSets among {value.cards} cards of AG({value.properties},3): {status}, "
          f"{provenance_text(origin)}")  # fmt: skip
    cards = [Card(c, value.properties).code for c in value.witness]
    print(f"witness with {value.lower} UltraSets ({value.witness_method}): " + " ".join(cards))
    return 0
