"""The seed paper's consecutive-maximization method (section 3.4, appendix A) beside a local search.

CMM (Vinci) adds, card by card, the card completing the most pairs of the cards already chosen;
its n-card prefixes are lower bounds for the maximum number of sets among n cards. The paper
notes it gives 35 sets for n = 18 while Table 3 has 36; setlab's annealing search finds 36. Only
values meeting :func:`setlab.extremal.heuristics.counting_bound` are proven maxima.
"""

from __future__ import annotations

from dataclasses import replace

from setlab.cards import Card
from setlab.extremal.heuristics import cmm, counting_bound, default_iterations, local_search
from setlab.find import count_sets
from setlab.render import configuration_svg
from setlab.report.model import Claim, Claims, Context, Figure, Number, Section, Table, Text
from setlab.seeds import TABLE_3

TITLE = "The paper: the consecutive-maximization method (section 3.4)"

SEED = 0
"""Seed of every local search in this section (restart r depends only on (SEED, r))."""

RESTARTS = 100
"""Annealing restarts per n (restart 0 starts from CMM's cards); ``QUICK_RESTARTS`` with --quick."""
QUICK_RESTARTS = 10

SIZES_P4 = (*range(13, 28), 40, *range(50, 63))
"""Numbers of cards of the P = 4 comparison (``QUICK_SIZES_P4`` with --quick)."""
QUICK_SIZES_P4 = (16, 17, 18, 19, 20, 27, 54, 61)


def _search(context: Context, properties: int, cards: int, restarts: int) -> Number:
    """A local search for the maximum as a Number whose value is its
    :class:`~setlab.extremal.heuristics.AnnealResult`."""
    return context.compute(
        f"local_search(P={properties}, n={cards}, seed={SEED}, at most {restarts} restarts)",
        local_search, properties, cards, "max", seconds=None, restarts=restarts, seed=SEED,
    )  # fmt: skip


def _verdict(cmm_sets: int, found: int, bound: int) -> str:
    """What the row shows: whether the search beats CMM, and whether the bound proves it optimal."""
    words = [f"**search beats CMM (+{found - cmm_sets})**"] if found > cmm_sets else []
    if found == bound:
        words.append("optimal: meets the counting bound")
    return "; ".join(words)


def _where(sizes: list[int] | list[str]) -> str:
    """The n of a list, in words.

    Examples
    --------
    >>> _where([18]), _where(["52", "53"]), _where([])
    ('n = 18', 'n = 52, 53', 'no n')
    """
    return f"n = {', '.join(map(str, sizes))}" if sizes else "no n"


def _rows(
    context: Context, properties: int, sizes: tuple[int, ...], cmm_run: Number, restarts: int
) -> tuple[tuple[object, ...], ...]:
    """One row per n: n, CMM's sets, the search's sets, the counting bound, the verdict."""
    bounds = context.compute(
        f"counting_bound({properties}, n) for n in the table",
        lambda: {n: counting_bound(properties, n, "max") for n in sizes},
    )
    rows = []
    for n in sizes:
        cmm_sets = replace(cmm_run, value=int(cmm_run.value.sets[n]))
        search = _search(context, properties, n, restarts)
        found = replace(search, value=search.value.sets)
        bound = replace(bounds, value=bounds.value[n])
        verdict = _verdict(cmm_sets.value, found.value, bound.value)
        seed = (str(TABLE_3[n]),) if properties == 3 else ()
        rows.append((str(n), *seed, cmm_sets, found, bound, verdict))
    return tuple(rows)


def build(context: Context) -> Section:
    """Run CMM for P = 3 and 4, search at n = 18, and compare CMM with the search for P = 4."""
    restarts = QUICK_RESTARTS if context.quick else RESTARTS
    sizes_p4 = QUICK_SIZES_P4 if context.quick else SIZES_P4
    local_search(3, 9, restarts=1, seconds=None)  # load the compiled kernels before timing
    cmm_3 = context.compute("cmm(3), the whole nested sequence n = 1..27", cmm, 3)
    cmm_4 = context.compute("cmm(4), the whole nested sequence n = 1..81", cmm, 4)

    search_18 = _search(context, 3, 18, restarts)
    witness_18 = search_18.value.witness
    recount_18 = context.compute("count_sets on the search's 18-card witness", count_sets,
                                 witness_18, 3)  # fmt: skip
    bound_18 = counting_bound(3, 18, "max")
    cmm_3_18 = replace(cmm_3, value=int(cmm_3.value.sets[18]))
    optimal_18 = (
        f"so the search's {recount_18} is the maximum"
        + (f" and CMM's {cmm_3_18} is not" if cmm_3_18.value < bound_18 else "")
        if recount_18.value == bound_18
        else f"which the search's {recount_18} does not reach"
    )
    cmm_witness_18 = [Card(c, 3) for c in cmm_3.value.witness(18)]
    claims = (
        Claim("CMM, 18 cards, 4 properties: sets", 35,
              replace(cmm_4, value=int(cmm_4.value.sets[18]))),
        Claim("CMM, 18 cards, 3 properties: sets", 35, cmm_3_18),
        Claim("18 cards with 36 sets exist (Table 3): local search witness, re-counted", 36,
              recount_18),
    )  # fmt: skip

    headers = ("n", "CMM", "local search", "counting bound", "")
    rows_3 = _rows(context, 3, tuple(TABLE_3), cmm_3, restarts)
    rows_4 = _rows(context, 4, sizes_p4, cmm_4, restarts)
    cmm_misses = [n for n in TABLE_3 if cmm_3.value.sets[n] != TABLE_3[n]]
    search_misses = [row[0] for row in rows_3 if row[3].value != int(row[1])]
    beaten_4 = [row[0] for row in rows_4 if row[2].value > row[1].value]
    table_3_misses_4 = [
        row[0] for row in rows_4 if int(row[0]) <= 27 and row[2].value != TABLE_3[int(row[0])]
    ]
    table_3 = Table(
        (headers[0], "Table 3 (paper)", *headers[1:]),
        rows_3,
        "3 properties: CMM and the local search beside the paper's Table 3 (seed "
        f"{SEED}, at most {restarts} restarts of {default_iterations(3):,} proposed swaps per n, "
        "stopping early at the counting bound).",
    )
    table_4 = Table(
        headers,
        rows_4,
        f"4 properties: CMM against the local search (seed {SEED}, at most {restarts} "
        f"restarts of {default_iterations(4):,} proposed swaps per n, stopping early at the "
        "counting bound).",
    )
    order = " ".join(Card(c, 3).digits for c in cmm_3.value.order)
    return Section(
        TITLE,
        "Stevens and Wilson, *The maximum number of sets for 12 cards is 14* (seed paper), "
        "section 3.4, Table 3 and appendix A; J. Vinci (2009)",
        (
            Text(
                "CMM starts from a set across the cubes (the 2-flats fixing the first P - 2 "
                "digits) and then, turn by turn, adds the card completing the most pairs of the "
                "cards chosen so far (`setlab.extremal.heuristics.cmm`, following the paper's "
                "pseudocode; docs/heuristics.md lists the choices where it is silent). One run "
                "gives every n at once. For P = 3 it selects, in order: "
                f"`{order}`. The paper says CMM *estimates there are 35 sets for n = 18, while "
                "Table 3 shows that there can be 36*."
            ),
            Text(
                "Beside it, `local_search` anneals one-card swaps (restart 0 starts from CMM's "
                f"cards, the others from random cards; seed {SEED}, a fixed number of restarts, "
                "so every value below is the same on any machine). `local_search` re-counts each "
                "witness with `count_sets`, and the n = 18 witness is re-counted again here. "
                "These are lower bounds for the maximum: a value is proven optimal only where "
                "it meets the counting bound `counting_bound` (sets <= n floor((n-1)/2)/3, as a "
                "card lies on at most floor((n-1)/2) sets, the other cards pairing up around "
                "it; and sets <= lines - m(3^P - 1)/2 + C(m,2) with m = 3^P - n, with equality "
                "iff the other m cards form a cap); it is the maximum for n <= 4, 8, 9 and, "
                "with 3 properties, n >= 18, with 4, n = 26, 27 and n >= 61. At n = 18 with 3 "
                "properties it is "
                f"{bound_18}, {optimal_18}."
            ),
            Claims(claims, "CMM's value at n = 18 and the 36 sets of Table 3, computed now."),
            table_3,
            table_4,
            Text(
                f"With 3 properties CMM differs from Table 3 at {_where(cmm_misses)} and the "
                f"search at {_where(search_misses)}. With 4 properties the search beats CMM at "
                f"{_where(beaten_4)} of the n tried, and never falls below it (restart 0 starts "
                f"from CMM's cards). For n <= 27 the P = 4 search differs from Table 3 at "
                f"{_where(table_3_misses_4)} (the paper conjectures the maxima are equal); "
                "only the values marked optimal are proven maxima."
            ),
            Figure(
                "cmm-18-cards",
                configuration_svg(cmm_witness_18),
                "CMM's 18 cards of AG(3,3) (the first 18 it selects) with their "
                f"{count_sets(cmm_witness_18, 3)} sets drawn.",
            ),
            Figure(
                "search-18-cards-36-sets",
                configuration_svg([Card(c, 3) for c in witness_18]),
                f"The local search's 18 cards of AG(3,3) with their {recount_18} sets "
                f"(the counting bound is {bound_18}).",
            ),
        ),
        findings=(
            f"The paper's greedy method CMM finds {cmm_3_18.value} sets among 18 cards of "
            f"AG(3,3); a seeded local search finds {recount_18.value} (Table 3's maximum is "
            f"{TABLE_3[18]}) and beats CMM at {len(beaten_4)} of the {len(rows_4)} sizes tried "
            "with 4 properties.",
        ),
    )
