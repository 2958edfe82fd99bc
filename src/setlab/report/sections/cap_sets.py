"""The cap-set README and the Wikipedia article's cap facts, recomputed by setlab's cap search.

A cap is a collection of cards holding no set. The README asks, by integer programming, for the
largest cap of the deck of M^P properties with M^V values (4, 9, 20 cards for M^V = 3); setlab
proves each maximum by isomorph-free generation, counts every cap of AG(4,3) (682,344 of 20
cards, one class under AGL(4,3)) and gives the exact chance caps(k) / C(81, k) of no set.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from setlab.extremal.bigcaps import best_construction, find_set_in
from setlab.extremal.caps import (
    COUNT_TABLE_JOB,
    CapCount,
    count_caps,
    inclusion_exclusion_caps,
    is_cap,
    largest_cap,
    no_set_probability,
    record_largest_cap,
)
from setlab.geometry import digits
from setlab.render import blocking_graph_svg, cap_and_completion_svg, deck_svg
from setlab.report.model import Claim, Claims, Context, Figure, Number, Section, Table, Text
from setlab.seeds import CAPSET_README_TABLE
from setlab.store import Result
from setlab.symmetry import orbit_size

TITLE = "The cap-set README: largest collections of cards without a set"

SEED_TABLE = CAPSET_README_TABLE
"""The README's table: M^P properties, M^V values, largest number of cards without a set."""

DECKS = (
    (2, 2), (3, 2), (4, 2),
    (1, 3), (2, 3), (3, 3), (4, 3),
    (1, 4), (2, 4), (3, 4),
    (2, 5), (3, 5),
    (2, 6), (3, 6),
)  # fmt: skip
"""Decks (P, V) of the extended table: each finishes within seconds (the full run)."""

QUICK_DECKS = frozenset({(2, 2), (3, 2), (4, 2), (1, 3), (2, 3), (3, 3), (4, 3), (1, 4), (2, 4),
                         (3, 4), (2, 5)})  # fmt: skip
"""Decks computed with ``--quick`` when the store has no proven result (the others are read
from the store if there, else left out)."""

PENCIL_PROVEN = 5
"""The dimension whose largest cap the pencil chain proves (:mod:`setlab.extremal.caps.pencils`)."""

PENCIL_STATUS = ("the maximum, proven by setlab's pencil chain (no 46-cap; the theorem of Edel, "
                 "Ferret, Landjev, Storme 2002)")  # fmt: skip

BIG_CAPS = (
    (5, "a construction; 45 is the maximum (Edel, Ferret, Landjev, Storme 2002), not proven here"),
    (6, "a construction; 112 is the maximum (Potechin 2008), not proven here"),
)
"""Dimensions of the big-cap line, with the status of each construction."""

SEARCH = "isomorph-free generation with slice bounds"


def _largest(context: Context, properties: int, values: int) -> tuple[Number, list[int]] | None:
    """Largest cap of a deck: (size Number whose value is (size, proven), witness), or None.

    Full run: computed now and kept in the store. ``--quick``: a proven stored result with its
    witness re-checked by ``is_cap``, else computed (and stored) if the deck is quick, else None.
    """
    if context.quick:
        stored = context.store.get("maxcap", properties, 0, {"values": values})
        if stored is not None and stored.proven and stored.witness:

            def verify(result: Result) -> int:
                witness = result.witness or []
                return len(set(witness)) if is_cap(witness, properties, values) else 0

            size = context.stored(stored, verify, "is_cap on the stored witness, its cards counted")
            return replace(size, value=(size.value, True)), sorted(stored.witness)
        if (properties, values) not in QUICK_DECKS:
            return None
    how = f"largest_cap({properties}, {values}): {SEARCH}"
    run = context.compute(how, largest_cap, properties, values, scheduler=context.scheduler)
    record_largest_cap(context.store, run.value)
    return replace(run, value=(run.value.size, run.value.proven)), run.value.witness


def _count_table(context: Context) -> tuple[Number, bool]:
    """The AG(4,3) cap count table as a Number (a tuple of CapCount), and whether it is stored.

    Computed (once per process, shared with the real-games section) and then kept in the store.

    ``--quick`` reads the table the store keeps beside the proven 20-cap (certificate), and
    re-derives in this run the rows k <= 5 by inclusion-exclusion and the row k = 20 as the
    orbit of the stored 20-cap under AGL(4,3) (nauty); the other rows are read as stored.
    """
    if context.quick:
        saved = context.store.finished_tasks(COUNT_TABLE_JOB).get("P4")
        result = context.store.get("maxcap", 4, 0, {"values": 3})
        if saved is not None and result is not None and result.proven:
            rows = tuple(CapCount(**row) for row in saved)

            def verify(stored: Result) -> tuple[CapCount, ...]:
                checked = list(rows)
                for k in range(6):
                    checked[k] = replace(rows[k], caps=inclusion_exclusion_caps(k, 4))
                checked[20] = replace(rows[20], caps=orbit_size(stored.witness or [], 4))
                return tuple(checked)

            how = (
                f"job {COUNT_TABLE_JOB}; rows k <= 5 re-derived by inclusion-exclusion, k = 20 as "
                "the orbit of the stored 20-cap under AGL(4,3) (nauty), other rows as stored"
            )
            return context.stored(replace(result, value=rows), verify, how), True
    how = "count_caps(4): every cap class generated, double count checked level by level"
    table = context.compute(how, lambda: tuple(count_caps(4, scheduler=context.scheduler)))
    if context.store.finished_tasks(COUNT_TABLE_JOB).get("P4") is None:
        # kept as count_caps(4, store=...) keeps it, for the next --quick run
        context.store.finish_task(COUNT_TABLE_JOB, "P4", [vars(c) for c in table.value])
    return table, False


def _construction(properties: int) -> int:
    """Size of setlab's best cap construction in AG(P,3) once ``find_set_in`` finds no set in it
    (0 if it finds one)."""
    cap = best_construction(properties)
    return len(cap) if find_set_in(cap) is None else 0


def build(context: Context) -> Section:
    """Largest caps (seed table and extension), the AG(4,3) count, odds, big caps, figures."""
    largest: dict[tuple[int, int], tuple[Number, list[int]]] = {}
    for deck in DECKS:
        found = _largest(context, *deck)
        if found is not None:
            largest[deck] = found

    def size(deck: tuple[int, int]) -> Number:
        number = largest[deck][0]
        value, proven = number.value
        return replace(number, value=value if proven else f">= {value} (not proven)")

    claims = [
        Claim(f"M^P = {p}, M^V = {v}: largest number of cards without a set", answer, size((p, v)))
        for p, v, answer in SEED_TABLE
    ]
    rows = []
    for (p, v), (number, _) in largest.items():
        value, proven = number.value
        in_seed = "yes" if (p, v, value) in SEED_TABLE else ""
        row = (str(p), str(v), f"{v**p:,}", replace(number, value=value), "yes" if proven else "no")
        rows.append((*row, in_seed))
    left_out = [f"({p}, {v})" for p, v in DECKS if (p, v) not in largest]

    table, from_store = _count_table(context)
    counts = table.value

    def cell(value: object) -> Number:
        return replace(table, value=value)

    claims += [
        Claim("Caps of 20 cards in AG(4,3) (Knuth)", 682_344, cell(counts[20].caps)),
        Claim("... essentially one: classes of 20-caps under affine maps", 1,
              cell(counts[20].classes)),
        Claim("No 21 cards without a set: largest caps of AG(4,3) have 20 cards", 20,
              cell(len(counts) - 1)),
    ]  # fmt: skip
    count_rows = tuple(
        (str(c.k), cell(c.caps), cell(c.classes), cell(c.complete), cell(c.complete_classes))
        for c in counts
    )
    store = context.store if from_store else None
    odds_rows = []
    for cards, seed_odds, rounding in ((12, 30, 0.5), (15, 2700, 50)):
        p: Fraction = no_set_probability(cards, 4, store=store, scheduler=context.scheduler)
        odds = cell(float((1 - p) / p))
        claims.append(
            Claim(f"No set among {cards} random cards: exact odds against, X:1", seed_odds, odds,
                  tolerance=rounding)
        )  # fmt: skip
        odds_rows.append((str(cards), f"{p.numerator:,}/{p.denominator:,}", cell(float(p)), odds))

    big = []
    for properties, status in BIG_CAPS:
        n = context.compute(f"best_construction({properties}), no set by find_set_in",
                            _construction, properties)  # fmt: skip
        if properties == PENCIL_PROVEN:
            # --quick reads a proven stored result (its witness re-checked) as for every deck
            found = _largest(context, properties, 3) if context.quick else None
            if found is None:
                how = f"largest_cap({properties}, 3): pencil chain (exact Farkas certificates)"
                run = context.compute(how, largest_cap, properties, 3)
                record_largest_cap(context.store, run.value)
                found = replace(run, value=(run.value.size, run.value.proven)), run.value.witness
            size, proven = found[0].value
            if proven and size == n.value:
                n = replace(found[0], value=size)
                status = PENCIL_STATUS
        big.append((str(properties), n, status))

    witness = largest[(4, 3)][1]
    figures = [
        Figure(
            "caps-deck-20",
            deck_svg(witness, 4),
            "The 81 cards on the AG(4,3) layout (each 3 x 3 block fixes the first two "
            "properties; the key names the digit along each axis), the 20 cards of setlab's "
            "proven largest cap filled: the README's solution picture.",
        )
    ]
    added = min(set(range(81)) - set(witness))  # any card outside the cap would do
    teaching = cap_and_completion_svg(witness, added, 4)
    completed = teaching.svg.count('class="set"')
    figures.append(
        Figure(
            "caps-teaching-20",
            teaching,
            f"The 20-cap and a 21st card (blue, {''.join(map(str, digits(4)[added]))}): it "
            f"completes {completed} sets with pairs of the cap (one coloured path each). Every "
            "card outside completes at least one, so this cap cannot grow (and no 21 cards "
            "avoid a set at all: the proven largest cap above).",
        )
    )
    for p, v, answer in SEED_TABLE:
        figures.append(
            Figure(
                f"caps-graph-{p}-{v}-{answer}",
                blocking_graph_svg(largest[(p, v)][1], p),
                f"M^P = {p}, M^V = {v}: the {answer} cards (left) and the sets through them "
                "(right); the sets the cap blocks, met in two of its cards, in red.",
            )
        )
    quick_note = (
        f" With `--quick` the decks {', '.join(left_out)} are left out (not in the store)."
        if left_out
        else ""
    )
    return Section(
        TITLE,
        "The cap-set README (integer programming, solved by CPLEX) and the Wikipedia article",
        (
            Text(
                "The README's integer program finds the largest collection of cards with no set "
                "(a *cap*) in a deck of M^P properties with M^V values each (its notation; the "
                "game is M^P = 4, M^V = 3, and three cards are a set when each property is all "
                "the same or all different). setlab proves each maximum by isomorph-free "
                "generation of caps under the symmetry group of the deck "
                "(`setlab.extremal.caps.largest_cap`); a value is a proven maximum only where the "
                "search finished."
            ),
            Claims(tuple(claims)),
            Table(
                ("M^P", "M^V", "cards", "largest cap", "proven", "in the README"),
                tuple(rows),
                caption="The README's table extended to the decks setlab settles in seconds "
                f"(M^V = 2: no three cards form a set, so the whole deck).{quick_note}",
            ),
            Table(
                ("k", "caps of k cards", "classes", "complete caps", "complete classes"),
                count_rows,
                caption="Every cap of AG(4,3) by size (`count_caps(4)`): labelled, up to affine "
                "maps, and how many cannot be extended (complete).",
            ),
            Table(
                ("random cards", "P(no set) exact", "decimal", "odds against"),
                tuple(odds_rows),
                caption="Exact chance that k cards drawn from the 81 hold no set: caps(k) / "
                "C(81, k). The article's 30:1 and 2700:1 are rounded: a claim agrees within "
                "the rounding (0.5, and 50 for 2700:1).",
            ),
            Table(
                ("P", "cards in the cap", "status"),
                tuple(big),
                caption="Big caps: setlab's constructions (`best_construction`), each checked "
                "for sets by `find_set_in`; P = 5 proven maximal by the pencil chain "
                "(`setlab caps -p 5`, re-checked by the proof bundle's `caps_check.py`), P = 6 "
                "a construction only.",
            ),
            *figures,
        ),
        findings=(
            f"The largest collection of the 81 cards with no set has {len(counts) - 1} cards; "
            f"there are {counts[-1].caps:,} such caps and, up to affine maps, "
            f"{counts[-1].classes} (every cap of every size counted exactly, "
            f"{sum(c.classes for c in counts):,} classes in all).",
        ),
    )
