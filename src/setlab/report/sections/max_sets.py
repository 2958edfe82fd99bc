"""The seed paper's question: the most sets among n cards (Tables 1-3 and every n for P = 4).

The paper proves M(n) for n <= 12 cards of the real deck (Table 1), brute-forces n <= 7 in up to
29 hours (Table 2), tabulates 3 properties (Table 3), conjectures that 4 properties give the same
maxima and leaves n > 12 open. :class:`setlab.extremal.maxsets.Solver` proves each value by
isomorph-free search, the deletion and complement identities and the counting bounds of
:mod:`setlab.extremal.bounds`; :mod:`setlab.certificates` re-checks what the store keeps.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from math import comb

from setlab.cards import Card, deck_size
from setlab.certificates import verify_store
from setlab.errors import SetlabError
from setlab.extremal.bruteforce import brute_force_extremes
from setlab.extremal.identities import total_lines
from setlab.extremal.maxsets import Solver, Value
from setlab.render import configuration_svg
from setlab.report.model import (
    Block,
    Claim,
    Claims,
    Context,
    Figure,
    Number,
    Section,
    Table,
    Text,
    format_seconds,
)
from setlab.seeds import TABLE_1, TABLE_2, TABLE_3, TABLE_3_SECONDS
from setlab.store import PROBLEMS, Sense, Store

TITLE = "The paper: the most sets among n cards (Tables 1-3 and the open question)"


BRUTE_FORCE_CARDS = (3, 4, 5)
"""n of setlab's brute force (the paper's method, compiled) in Table 2; ``QUICK_BRUTE_FORCE``
with --quick."""
QUICK_BRUTE_FORCE = (3, 4)

PAST_THE_PAPER = 13
"""The first n the paper leaves open, drawn with its optimum."""


@dataclass(frozen=True)
class Known:
    """M(n) or m(n) as the section knows it: the solver's view and the number to print."""

    value: Value
    number: Number

    @property
    def text(self) -> str:
        """The value, with the proven range when it is open: ``"276"``, ``"276..279 (open)"``."""
        v = self.value
        if v.proven:
            return str(v.value)
        if v.bound is None:
            return f"{v.value} (open)"
        low, high = sorted((v.value, v.bound))
        return f"{low}..{high} (open)"

    @property
    def shown(self) -> Number:
        """The number, its value marked when it is not proven (a claim then disagrees)."""
        return self.number if self.value.proven else replace(self.number, value=self.text)


Knowledge = dict[tuple[Sense, int], Known]
"""What a section knows of one P, by (sense, n)."""


def _solved(
    context: Context, properties: int, how: str, run: Callable[[Solver], object]
) -> Knowledge:
    """Run a fresh solver (in memory) now, keep its results in the store, return what it knows.

    Every number of the run shares one provenance: ``how`` and the run's time.
    """
    memory = Store(":memory:")
    solver = Solver(properties, memory, scheduler=context.scheduler)
    started = time.perf_counter()
    run(solver)
    seconds = time.perf_counter() - started
    for problem in PROBLEMS.values():  # with the smaller dimensions its bounds rest on
        for dimension in range(1, properties + 1):
            context.store.merge(memory, problem, dimension)
    known: Knowledge = {}
    for sense in PROBLEMS:
        for n in range(deck_size(properties) + 1):
            v = solver.get(sense, n)
            if v.value is not None:
                known[sense, n] = Known(v, Number(v.value, how, seconds))
    return known


def _stored(context: Context, properties: int) -> Knowledge:
    """What the store holds for P, every result re-verified now by ``setlab verify``'s checks
    on every core (:func:`setlab.certificates.verify_store`): its witness re-counted over its
    pairs, its proof record and the values it cites re-checked."""
    started = time.perf_counter()

    def progress(done: int, total: int) -> None:
        context.progress(f"P = {properties}: {done} of {total} values verified")

    checks = verify_store(context.store, properties, progress=progress)
    failed = next((c for c in checks if not c.ok), None)
    if failed is not None:
        raise SetlabError(
            f"the results store fails setlab verify: {failed.problem} P={failed.properties} "
            f"n={failed.cards}, {failed.what}: {failed.detail}"
        )
    results = [
        result
        for problem in PROBLEMS.values()
        for result in context.store.results(problem, properties)
        if result.value is not None and result.witness is not None and result.bound is not None
    ]
    share = (time.perf_counter() - started) / max(1, len(results))  # the check's time, shared
    how = "witness re-counted over its pairs, proof record re-checked (setlab.certificates)"
    reader = Solver(properties, context.store)
    known: Knowledge = {}
    for result in results:
        number = Number(result.value, how, share, source="store", certificate=result.id)
        known[result.sense, result.cards] = Known(reader.get(result.sense, result.cards), number)
    return known


def _known(
    context: Context, properties: int, how: str, run: Callable[[Solver], object]
) -> Knowledge:
    """Full run: ``run`` a fresh solver now. ``--quick``: read and re-verify the store, and
    solve now only if the store does not prove every maximum."""
    if context.quick:
        stored = _stored(context, properties)
        size = deck_size(properties)
        if all(("max", n) in stored and stored["max", n].value.proven for n in range(size + 1)):
            return stored
    return _solved(context, properties, how, run)


def _maxima(context: Context, cards: range) -> tuple[dict[int, Number], Solver]:
    """M(n) for P = 4 and each n of ``cards`` (in order, from 0), solved now by a fresh solver:
    the numbers (one provenance) and the solver (its witnesses and each n's own time)."""
    solver = Solver(4, Store(":memory:"), scheduler=context.scheduler)
    run = context.compute(
        f"Solver(4).max(n) for n = 0..{cards[-1]} in order, on an empty store",
        lambda: [solver.max(n) for n in range(cards[-1] + 1)],
    )
    numbers = {}
    for n in cards:
        v = run.value[n]
        shown = v.value if v.proven else Known(v, run).text  # an open value as its range
        numbers[n] = replace(run, value=shown)
    return numbers, solver


def _method(known: Known | None) -> str:
    if known is None:
        return ""
    v = known.value
    return (v.method or "") if v.proven else f"open ({v.method} bound)"


METHODS = {
    "trivial": "n <= 2, the whole deck, or a minimum of 0",
    "exhaustive": "every subset",
    "search": "the pruned isomorph-free search",
    "deletion": "an n-card configuration with T sets has a card in at most floor(3T/n) of them, "
    "so M(n-1) >= T - floor(3T/n)",
    "complement": "M(n) + m({N}-n) = {lines} - n({N}-n)/2",
    "bounds": "the counting identities over parallel classes (integer programs)",
    "split": "the big-slice split: at most one parallel class has a hyperplane above a size "
    "theta (a slice program) or the pencil of two such hyperplanes bounds the sets",
    "one set": "46 cards holding exactly one set are a 45-cap and a card on one of its "
    "secants; every case is refuted with SAT proofs (the fibre split)",
    "no cap": "more cards than the largest cap (proven) hold a set",
}
"""What each proof method of the table says, for its caption (docs/maxsets.md has the rest)."""


def _big_table(known: Knowledge, properties: int) -> Table:
    """Every n = 0..3^P: M(n), m(n), each with how it is proven."""
    size = deck_size(properties)
    rows = []
    for n in range(size + 1):
        high, low = known.get(("max", n)), known.get(("min", n))
        rows.append(
            (str(n), high.text if high else "", _method(high), low.text if low else "",
             _method(low))
        )  # fmt: skip
    used = {k.value.method for k in known.values()}
    glossary = "; ".join(
        f"*{name}*: " + what.format(N=size, lines=total_lines(properties))
        for name, what in METHODS.items()
        if name in used
    )
    return Table(
        ("n", "M(n)", "proven by", "m(n)", "proven by"),
        tuple(rows),
        f"{properties} properties: the most (M) and the fewest (m) sets among n of the {size} "
        f"cards. {glossary}. *a..b (open)*: a witness with a sets and a proven bound b (the "
        f"other way round for m). Every value: {_provenance(known)}.",
    )


def _provenance(known: Knowledge) -> str:
    """Where the values of a table come from, in one line (they share it: one solver run, or
    one store read with each result re-verified).

    Examples
    --------
    >>> run = Number(5, "Solver(4).table()", 80.0)
    >>> v = Value(4, 7, "max", 5, 5, True, "deletion", [], "search")
    >>> _provenance({("max", 7): Known(v, run)})
    'computed in this run: Solver(4).table() (80.0 s)'
    """
    numbers = [k.number for k in known.values()]
    if all(n.source == "computed" for n in numbers):
        return numbers[0].provenance
    ids = sorted(n.certificate for n in numbers if n.certificate is not None)
    return (
        f"read from the results store (certificates #{ids[0]}..#{ids[-1]}), each re-verified in "
        f"this run: {numbers[0].how} ({format_seconds(sum(n.seconds for n in numbers))} in all)"
    )


def _open(known: Knowledge, sense: Sense) -> list[int]:
    return [n for (s, n), k in sorted(known.items()) if s == sense and not k.value.proven]


def _open_values(known: Knowledge, properties: int) -> tuple[list[int], list[int]] | None:
    """The n whose M(n) and whose m(n) are open, or None when the table of every n is missing."""
    if len(known) < 2 * (deck_size(properties) + 1):
        return None
    return _open(known, "max"), _open(known, "min")


def _answer(known: Knowledge, properties: int) -> str:
    """What the table of every n says: all proven, which n are open, or that it is missing."""
    size = deck_size(properties)
    opened = _open_values(known, properties)
    if opened is None:
        return (
            f"The table of every n is computed by the full report or `setlab maxsets -p "
            f"{properties} --table`; this results store does not hold it yet."
        )
    open_max, open_min = opened
    if not open_max and not open_min:
        return (
            f"setlab's answer: **all {size + 1} maxima and all {size + 1} minima are proven** "
            "(the table below), which settles the paper's open question for this deck."
        )
    pairs = (("M", open_max), ("m", open_min))
    gaps = [f"{name}(n) for n = {_ranges(ns)}" for name, ns in pairs if ns]
    return (
        f"setlab's answer: **{size + 1 - len(open_max)} of the {size + 1} maxima and "
        f"{size + 1 - len(open_min)} of the minima are proven**; open: "
        + " and ".join(gaps)
        + ", each between the two values shown."
    )


def _finding(known: Knowledge, properties: int) -> str:
    """The summary's sentence on the table of every n: what is proven, what stays open."""
    size = deck_size(properties)
    opened = _open_values(known, properties)
    if opened is None:
        return (
            f"The most and fewest sets among n cards for every n (the paper's open question) "
            f"are in the full report; this results store does not hold them for P = {properties}."
        )
    open_max, open_min = opened
    if not open_max and not open_min:
        return (
            f"**The paper's open question is settled for {_deck(properties)}**: the most sets M(n) "
            f"and the fewest m(n) among n of the {size} cards are proven for every n = 0..{size}, "
            "each with a certificate `setlab verify` re-checks."
        )
    return (
        f"{size + 1 - len(open_max)} of the {size + 1} maxima M(n) and "
        f"{size + 1 - len(open_min)} of the minima m(n) among n of the {size} cards are proven; "
        "the rest are bracketed by two bounds."
    )


def _gap_sum(known: Knowledge, sense: Sense) -> int:
    """The widths of the open intervals of one sense, added up (0 when all are proven)."""
    return sum(abs(k.value.bound - k.value.value) for (s, _), k in known.items()
               if s == sense and not k.value.proven and k.value.bound is not None)  # fmt: skip


def _holds_table(store: Store, properties: int) -> bool:
    """Whether the store holds a witness and a bound for every M(n) and m(n) of P."""
    every = set(range(deck_size(properties) + 1))
    return all(
        {r.cards for r in store.results(problem, properties)
         if r.value is not None and r.witness is not None and r.bound is not None} >= every
        for problem in PROBLEMS.values()
    )  # fmt: skip


def _read_table(context: Context, properties: int, command: str) -> tuple[list[Block], str]:
    """The table of every n for a deck too large to solve in the report (P = 5: 36 to 43 minutes
    on 2 cores), read from the store and re-verified now when ``command`` has filled it; else a
    sentence saying how to fill it. Returns the blocks and the summary's finding ('' if none)."""
    size = deck_size(properties)
    if not _holds_table(context.store, properties):
        return [Text(
            f"**{properties} properties** ({size} cards): the table of every n is not in this "
            f"results store. `{command}` computes it, and the report then reads it here, each "
            "value re-verified."
        )], ""  # fmt: skip
    known = _stored(context, properties)
    gaps = ""
    if _open_values(known, properties) != ([], []):
        gaps = (f"; the open gaps add up to {_gap_sum(known, 'max')} for M(n) and "
                f"{_gap_sum(known, 'min')} for m(n)")  # fmt: skip
    text = Text(
        f"**{properties} properties** ({size} cards), read from this results store (filled by "
        f"`{command}`) and re-verified now. " + _answer(known, properties).rstrip(".") + gaps + "."
    )
    finding = _finding(known, properties).rstrip(".") + gaps + "."
    return [text, _big_table(known, properties)], finding


def _deck(properties: int) -> str:
    """The deck of P properties in words: the real deck is P = 4."""
    return "the real deck" if properties == 4 else f"{properties} properties"


def _ranges(ns: list[int]) -> str:
    """Consecutive runs of ``ns`` as text.

    Examples
    --------
    >>> _ranges([31, 32, 33, 48, 49, 50, 60])
    '31..33, 48..50, 60'
    >>> _ranges([])
    'none'
    """
    runs: list[list[int]] = []
    for n in ns:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}..{r[-1]}" for r in runs) or "none"


def _figure(name: str, cards: list[int], caption: str) -> Figure:
    return Figure(name, configuration_svg([Card(c, 4) for c in cards]), caption)


def build(context: Context) -> Section:
    """Tables 1-3 now, the conjecture M4(n) = M3(n), and the table of every n for P = 4."""
    maxima, solver = _maxima(context, range(3, 28))
    claims_1 = tuple(
        Claim(f"Most sets among {n} cards, 4 properties (Table 1)", TABLE_1[n], maxima[n])
        for n in TABLE_1
    )
    conjecture = tuple(
        Claim(f"Most sets among {n} cards, 4 properties = Table 3's value (the paper's "
              "conjecture)", TABLE_3[n], maxima[n], stated="conjecture")
        for n in range(13, 28)
    )  # fmt: skip

    sizes = QUICK_BRUTE_FORCE if context.quick else BRUTE_FORCE_CARDS
    brute = {
        n: context.compute(f"brute_force_extremes(4, {n}): all C(81, {n}) subsets",
                           brute_force_extremes, 4, n)
        for n in sizes
    }  # fmt: skip
    rows_2 = []
    for n, (paper_time, paper_seconds) in TABLE_2.items():
        force = brute.get(n)
        rows_2.append((
            str(n), f"{comb(81, n):,}", str(TABLE_1[n]), paper_time,
            replace(force, value=force.value.max) if force else "",
            format_seconds(force.seconds) if force else "",
            maxima[n], format_seconds(solver.seconds["max", n]),
            f"{paper_seconds / solver.seconds['max', n]:,.0f}" if paper_seconds else "",
        ))  # fmt: skip
    table_2 = Table(
        ("n", "C(81, n)", "max (paper)", "paper's time", "setlab brute force", "its time",
         "setlab solver", "its time", "paper's time / solver's"),
        tuple(rows_2),
        "Table 2 of the paper beside setlab, measured now: `brute_force_extremes` is the paper's "
        "complete search (every triple of every subset, no symmetry) compiled with numba; the "
        "solver proves each value by isomorph-free search or the deletion bound. A solver time "
        "is its share of one run over n = 3..27, each n reusing what the smaller ones found "
        "(the first row carries the start-up), and the paper's machine is not this one: the "
        "last column is the order of the gain, not a benchmark. Blank brute-force cells are the "
        "n it is not run for (C(81, n) subsets take too long).",
    )  # fmt: skip

    walk = "Solver(3): one exhaustive walk over all 2^27 subsets of AG(3,3) in Gray-code order"
    three = _known(context, 3, walk, lambda s: s.max(3))
    claims_3 = tuple(
        Claim(f"Most sets among {n} cards, 3 properties (Table 3)", TABLE_3[n],
              three["max", n].shown)
        for n in TABLE_3
    )  # fmt: skip
    rows_3 = tuple(
        (str(n), str(TABLE_3[n]), three["max", n].shown, three["min", n].shown,
         f"{TABLE_3_SECONDS[n]:.2f}")
        for n in TABLE_3
    )  # fmt: skip
    table_3 = Table(
        ("n", "max (paper)", "max (setlab)", "min (setlab)", "paper's time (s)"),
        rows_3,
        f"Table 3 of the paper (about {sum(TABLE_3_SECONDS.values()) / 3600:.0f} hours of "
        "compute, one search per n) beside setlab's one walk, which gives every n and the "
        "minima too.",
    )

    how = "Solver(4).table(): every n = 0..81, max and min, on an empty store"
    four = _stored(context, 4) if context.quick else _solved(context, 4, how, Solver.table)
    complete = len(four) == 2 * (deck_size(4) + 1)
    answer = _answer(four, 4)
    blocks: list[Block] = [
        Text(
            "Table 1 is proven by hand in the paper (n <= 12 cards of the real deck) and Table 2 "
            "by a complete computer search (n <= 7, 29 hours for n = 7). setlab proves every "
            "value below with a certificate: the pruned isomorph-free search under AGL(4,3) "
            "(classes of configurations up to affine maps, canonical forms by nauty), the "
            "deletion bound, the complement identity and the counting bounds, each re-checked "
            "by `setlab verify` (docs/maxsets.md)."
        ),
        Claims(claims_1, "Table 1, each value proven now by a fresh solver."),
        table_2,
        Claims(claims_3, "Table 3 recomputed: every subset of the 27 cards of AG(3,3)."),
        table_3,
        Text(
            "*It remains an open question to find, with proof, the maximum number of sets with "
            "4 properties for n > 12. We conjecture that the values in Table 3 for 3 properties "
            "are the same maximum as for 4 properties.* (the paper, section 4). "
            + (
                "The conjecture holds for n <= 27: each maximum below is proven now. "
                if all(c.agrees for c in conjecture)
                else ""
            )
            + answer
        ),
        Claims(conjecture, "The paper's conjecture for n = 13..27, 4 properties."),
    ]
    if complete:
        blocks.append(_big_table(four, 4))
    first = solver.get("max", PAST_THE_PAPER)
    blocks.append(
        _figure(
            f"max-sets-{PAST_THE_PAPER}-cards",
            first.witness or [],
            f"{PAST_THE_PAPER} cards with {first.value} sets"
            + (", the most possible" if first.proven else "")
            + ": the first n past the paper's Table 1.",
        )
    )
    five, five_finding = _read_table(context, 5, "setlab maxsets -p 5 --table")
    blocks.extend(five)
    findings = [_finding(four, 4), *([five_finding] if five_finding else [])]
    if all(c.agrees for c in conjecture):
        findings.append(
            "The paper's conjecture holds for n = 13..27: with 4 properties the most sets among "
            "n cards is Table 3's value for 3 properties, each maximum proven."
        )
    return Section(
        TITLE,
        "Stevens and Wilson, *The maximum number of sets for 12 cards is 14* (seed paper), "
        "Tables 1-3 and section 4",
        tuple(blocks),
        findings=tuple(findings),
    )
