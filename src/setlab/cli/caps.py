"""``setlab caps``: largest caps, cap counts, no-set probabilities, cap verification."""

from __future__ import annotations

import argparse
import time
from decimal import Decimal, localcontext

from setlab.cards import Card, valued_code
from setlab.cli.common import (
    add_properties,
    add_scheduler,
    add_store,
    counted,
    extremal_json,
    float_in,
    int_in,
    one_file_each,
    output_path,
    print_json,
    provenance,
    provenance_text,
    reach_scheduler,
)
from setlab.errors import SetlabError
from setlab.extremal.bigcaps import best_construction, find_set_in, read_cap_file
from setlab.extremal.caps import (
    COUNT_TABLE_JOB,
    card_words,
    count_caps,
    largest_cap,
    no_set_probability,
    odds_against,
)
from setlab.extremal.sidon import FREE_VARIANTS, largest_structure_free
from setlab.extremal.sidon import PROBLEM as FREE_PROBLEM
from setlab.render import blocking_graph_svg, deck_svg
from setlab.store import Store, interval_text


def register(commands: argparse._SubParsersAction) -> None:
    caps = commands.add_parser(
        "caps",
        help="caps: largest collections of cards with no set, their counts and probabilities",
        description="Largest cap (default), or one of the subcommands below. -p and --json "
        "may stand before a subcommand that takes them; the other options are the largest cap's.",
        argument_default=argparse.SUPPRESS,  # absent options stay absent: see _settle
    )
    add_properties(caps, absent=True)
    caps.add_argument(
        "--values",
        type=int,
        metavar="V",
        help="values per property (default 3); a set stays three cards, each property all same "
        "or all different (find --values V: sets of V cards)",
    )
    caps.add_argument(
        "--time-limit",
        type=float_in(0, 1e9, open_low=True),
        metavar="S",
        help="stop the search after S s",
    )
    caps.add_argument("--json", action="store_true", help="print one JSON object")
    caps.add_argument(
        "--picture", metavar="FILE", help="draw the deck with the cap (.png/.svg/.pdf; V = 3)"
    )
    caps.add_argument(
        "--graph", metavar="FILE", help="draw the cap's cards and the sets through them (V = 3)"
    )
    caps.add_argument("--variant", choices=["set", *FREE_VARIANTS],
                      help="largest board with no UltraSet, 4Set or GhostSet "
                      "(default: set)")  # fmt: skip
    add_scheduler(caps)
    add_store(caps)
    caps.set_defaults(run=run_largest)
    sub = caps.add_subparsers(dest="caps_command", metavar="SUBCOMMAND", parser_class=type(caps))
    quiet = {"argument_default": argparse.SUPPRESS}  # so a subcommand keeps the group's -p/--json

    count = sub.add_parser(
        "count", help="number of k-card caps of AG(P,3) for every k (P <= 4)", **quiet
    )
    add_properties(count, absent=True)
    count.add_argument("--json", action="store_true", help="print one JSON object")
    add_scheduler(count)
    add_store(count)
    count.set_defaults(run=run_count)

    probability = sub.add_parser(
        "probability", help="exact chance that k cards hold no set", **quiet
    )
    add_properties(probability, absent=True)
    probability.add_argument(
        "--cards", type=int_in(0), required=True, metavar="K", help="cards drawn"
    )
    probability.add_argument("--json", action="store_true", help="print one JSON object")
    add_scheduler(probability)
    add_store(probability)
    probability.set_defaults(run=run_probability)

    verify = sub.add_parser("verify", help="check that a file of cards (digits) is a cap", **quiet)
    verify.add_argument("file", metavar="FILE", help="one card per line as P digits, P <= 10")
    verify.add_argument("--json", action="store_true", help="print one JSON object")
    verify.set_defaults(run=run_verify, interrupted=None)  # reads a file, keeps nothing

    construct = sub.add_parser(
        "construct", help="print setlab's largest construction for P", **quiet
    )
    add_properties(construct, absent=True)
    construct.add_argument("--json", action="store_true", help="print one JSON object")
    construct.set_defaults(run=run_construct, interrupted=None)


OPTIONS = {"properties": 4, "values": 3, "time_limit": None, "json": False, "picture": None,
           "graph": None, "variant": None, "scheduler": None, "store": None}  # fmt: skip
"""The options of ``setlab caps`` and their defaults; a subcommand takes some of them."""


def _settle(args: argparse.Namespace, takes: tuple[str, ...]) -> None:
    """Give absent options their defaults; refuse one the (sub)command does not take.

    The parsers leave an option out of ``args`` unless it is given, so ``caps -p 3 count`` counts
    for P = 3 and ``caps --picture x.svg count`` is an error instead of being ignored.
    """
    for name, default in OPTIONS.items():
        if name not in vars(args):
            setattr(args, name, default)
        elif name not in takes:
            option = "-p" if name == "properties" else "--" + name.replace("_", "-")
            raise SetlabError(f"{option} does not apply to 'setlab caps {args.caps_command}'")


def run_largest(args: argparse.Namespace) -> int:
    _settle(args, tuple(OPTIONS))
    if args.variant not in (None, "set"):
        return run_variant_caps(args)
    pictures = {}
    for option, picture in (("--picture", args.picture), ("--graph", args.graph)):
        if picture is not None:
            if args.values != 3:
                raise SetlabError("pictures are drawn for three values per property")
            pictures[option] = output_path(picture, (".png", ".svg", ".pdf"), option)
    one_file_each(list(pictures.items()))
    scheduler = reach_scheduler(args)
    with Store(args.store) as store:
        stored = store.get("maxcap", args.properties, 0, {"values": args.values})
        if stored is None or not stored.proven:
            store.check_writable()
        result = largest_cap(
            args.properties,
            args.values,
            store=store,
            time_limit=args.time_limit,
            scheduler=scheduler,
        )
    if "--picture" in pictures:
        deck_svg(result.witness, args.properties).save(pictures["--picture"])
    if "--graph" in pictures:
        blocking_graph_svg(result.witness, args.properties).save(pictures["--graph"])
    words = card_words(result.witness, args.properties, args.values)
    read = result.stored_at is not None
    origin = provenance(read, result.stored_at, None if read else result.proof.get("seconds"))
    upper = result.size if result.proven else None
    if args.json:
        answer = extremal_json(
            problem="maxcap",
            properties=result.properties,
            cards=None,
            sense="max",
            lower=result.size,
            upper=upper,
            value=result.size,
            method=result.proof["method"],
            witness=result.witness if args.values == 3 else None,
            witness_method=result.proof["method"],
            origin=origin,
        )
        if args.values != 3:  # cards of a deck with V values: their digits and codes
            answer["witness"] = words
            answer["witness_codes"] = [valued_code(c, args.properties, args.values)
                                       for c in result.witness]  # fmt: skip
        print_json({"command": "caps", "values": result.values, **answer})
        return 0
    status = "proven maximal" if result.proven else "not proven maximal"
    print(
        f"Largest cap with {counted(args.properties, 'property')} of {args.values} values: "
        f"{interval_text('size', result.size, upper)}, {status} ({result.proof['method']}; "
        f"{provenance_text(origin)})"
    )
    text = ["".join(map(str, w)) for w in words]
    for row in range(0, len(text), 10):
        print("  " + " ".join(text[row : row + 10]))
    return 0


def _counted(store: Store, properties: int) -> tuple[bool, float | None]:
    """Whether the cap count table of P is in ``store``, and when it was computed (the time of
    the largest cap recorded with it)."""
    if f"P{properties}" not in store.finished_tasks(COUNT_TABLE_JOB):
        return False, None
    stored = store.get("maxcap", properties, 0, {"values": 3})
    return True, None if stored is None else stored.updated


def run_count(args: argparse.Namespace) -> int:
    _settle(args, ("properties", "json", "scheduler", "store"))
    scheduler = reach_scheduler(args)
    with Store(args.store) as store:
        read, when = _counted(store, args.properties)
        if not read:
            store.check_writable()
        started = time.perf_counter()
        table = count_caps(args.properties, store=store, scheduler=scheduler)
    origin = provenance(read, when, None if read else time.perf_counter() - started)
    if args.json:
        print_json(
            {
                "command": "caps count",
                "properties": args.properties,
                "rows": [vars(r) for r in table],
                "provenance": origin,
            }
        )
        return 0
    print(
        f"Caps of AG({args.properties},3) by size (labelled; classes under AGL; complete), "
        f"{provenance_text(origin)}"
    )
    print(f"{'k':>3} {'caps':>16} {'classes':>8} {'complete':>14} {'complete cl.':>12}")
    for row in table:
        print(
            f"{row.k:>3} {row.caps:>16,} {row.classes:>8,} {row.complete:>14,}"
            f" {row.complete_classes:>12,}"
        )
    return 0


def run_probability(args: argparse.Namespace) -> int:
    _settle(args, ("properties", "json", "scheduler", "store"))
    scheduler = reach_scheduler(args)
    with Store(args.store) as store:
        read, when = _counted(store, args.properties)
        started = time.perf_counter()
        p = no_set_probability(args.cards, args.properties, store=store, scheduler=scheduler)
    origin = provenance(read, when, None if read else time.perf_counter() - started)
    with localcontext() as context:
        context.prec = 30
        decimal = Decimal(p.numerator) / Decimal(p.denominator)
    odds = odds_against(p)
    if args.json:
        print_json(
            {
                "command": "caps probability",
                "properties": args.properties,
                "cards": args.cards,
                "numerator": p.numerator,
                "denominator": p.denominator,
                "probability": float(p),
                "decimal": f"{decimal:.20g}",
                "odds": None if p == 0 else float((1 - p) / p),
                "odds_text": odds,
                "provenance": origin,
            }
        )
        return 0
    print(f"P(no set among {args.cards} random cards of {3**args.properties})")
    print(f"  = {p.numerator}/{p.denominator}")
    print(f"  = {decimal:.20g}")
    print(f"  odds against no set: {odds}")  # exact whether read or computed: no timing line
    return 0


def run_verify(args: argparse.Namespace) -> int:
    _settle(args, ("json",))
    cards = read_cap_file(args.file)
    found = find_set_in(cards)
    properties = cards.shape[1]
    if args.json:
        print_json(
            {
                "command": "caps verify",
                "properties": properties,
                "size": len(cards),
                "cap": found is None,
                "sets": [] if found is None else [[int(i) for i in found]],
            }
        )
        return 0 if found is None else 1
    if found is None:
        print(f"cap: {len(cards)} cards of AG({properties},3), no three of them form a set")
        return 0
    lines = ", ".join(f"{i + 1} ({''.join(map(str, cards[i]))})" for i in found)
    print(f"not a cap: the cards on lines {lines} form a set")
    return 1


def run_construct(args: argparse.Namespace) -> int:
    _settle(args, ("properties", "json"))
    cards = [[int(d) for d in card] for card in best_construction(args.properties)]
    if args.json:
        codes = [Card.from_vector(card).code for card in cards]
        print_json(
            {
                "command": "caps construct",
                "properties": args.properties,
                "size": len(cards),
                "cards": cards,
                "codes": codes,
            }
        )
        return 0
    for card in cards:
        print("".join(map(str, card)))
    return 0


def run_variant_caps(args: argparse.Namespace) -> int:
    """``setlab caps --variant ultra|4set|ghost``: the largest board with none of the
    structures."""
    for option, value, default in (("--values", args.values, 3), ("--picture", args.picture, None),
                                   ("--graph", args.graph, None),
                                   ("--time-limit", args.time_limit, None)):  # fmt: skip
        if value != default:
            raise SetlabError(f"{option} does not apply to 'setlab caps --variant'")
    with Store(args.store) as store:
        stored = store.get(FREE_PROBLEM, args.properties, 0, {"variant": args.variant})
        read = stored is not None and stored.proven and stored.witness is not None
        if not read:
            store.check_writable()
        started = time.perf_counter()
        result = largest_structure_free(args.variant, args.properties, store=store)
    origin = provenance(read, stored.updated if read else None,  # type: ignore[union-attr]
                        None if read else time.perf_counter() - started)  # fmt: skip
    values = FREE_VARIANTS[args.variant]
    words = card_words(result.witness, args.properties, values)
    if args.json:
        print_json({"command": "caps", "variant": args.variant, "properties": args.properties,
                    "values": values, "size": result.lower if result.proven else None,
                    "proven": result.proven, "lower": result.lower, "upper": result.upper,
                    "value": result.lower, "witness": words,
                    "witness_codes": [valued_code(c, args.properties, values)
                                      for c in result.witness],
                    "method": result.method, "provenance": origin})  # fmt: skip
        return 0
    noun = {"ultra": "an UltraSet", "4set": "a 4Set", "ghost": "a GhostSet"}[args.variant]
    board = f"Largest board with no {noun.split(' ')[1]}, {counted(args.properties, 'property')}"
    if result.proven:
        print(f"{board}: {result.lower} cards, proven ({result.method}, "
              f"{provenance_text(origin)}): any {result.lower + 1} cards hold {noun}")  # fmt: skip
    else:
        why = ("setlab's own search closes the gap, but no certificate a separate checker "
               "re-checks: not proven") if result.searched_out else "not proven"  # fmt: skip
        print(f"{board}: between {result.lower} and {result.upper} cards ({result.method}; "
              f"{why}; {provenance_text(origin)})")  # fmt: skip
    print("  " + " ".join("".join(map(str, w)) for w in words))
    return 0
