"""The variants people play: their games simulated, and the largest boards without a structure.

Each mode of :mod:`setlab.game.variants` is played by the fork's dealing rule; the mean number of
structures on a first deal of k cards is exactly C(k, s) T / C(N, s) (T structures in the deck
of N cards, s cards each), which the simulation must meet. A board with no UltraSet (no 4Set) is
a Sidon set of F_3^P (of F_2^(2P)): :mod:`setlab.extremal.sidon` finds the largest, proven when
its search is exhaustive, else an interval.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

from setlab.extremal.sidon import (
    CERTIFIED_FREE,
    FREE_VARIANTS,
    PROBLEM,
    StructureFree,
    largest_structure_free,
)
from setlab.game.statistics import Estimate
from setlab.game.variants import MODES, VariantSummary, simulate_variant
from setlab.render import board_svg
from setlab.report.model import Context, Figure, Number, Section, Table, Text
from setlab.store import Result, interval_text
from setlab.variants import count_structures, find_structures, variant

__all__ = ["EXTREMAL", "GAMES", "QUICK_GAMES", "QUICK_NODE_LIMIT", "SEED", "TITLE", "build"]

TITLE = "The variants: UltraSet, GhostSet, 4Set, MegaSet, Junior and Set-Chain"

GAMES = 10_000
"""Games simulated per mode in the default run (the eight modes take about 8 s on 2 cores)."""

QUICK_GAMES = 2_000
"""Games per mode with ``--quick``."""

SEED = 1
"""The simulation seed (game g of a mode plays the random stream of (SEED, g))."""

EXTREMAL = (
    ("ultra", 1, 10**7), ("ultra", 2, 10**7), ("ultra", 3, 10**7), ("ultra", 4, 10**7),
    ("ultra", 5, 10**6),
    ("4set", 1, 10**7), ("4set", 2, 10**7), ("4set", 3, 10**7), ("4set", 4, 10**6),
    ("ghost", 1, 10**7), ("ghost", 2, 10**7), ("ghost", 3, 10**7), ("ghost", 4, 10**6),
)  # fmt: skip
"""(variant, P, node limit) of the extremal table: each search stops within about a second; the
last of each variant does not finish, so its row is an interval."""

QUICK_NODE_LIMIT = 10**5
"""With ``--quick``, the node limit of the searches that do not finish anyway (the intervals)."""


def _interval(e: Estimate, digits: int = 4) -> str:
    if not math.isfinite(e.low) or not math.isfinite(e.high):
        return "none"
    return f"[{e.low:.{digits}g}, {e.high:.{digits}g}]"


def _estimate(source: Number, e: Estimate) -> Number:
    """A Number holding the estimate ``e`` of the simulation ``source`` (one footnote a run)."""
    return replace(source, value=round(e.value, 6))


def _times(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def _odds(e: Estimate, never: str | None = None) -> str:
    """The odds against no structure on the first deal, X:1 with its interval; ``never`` when a
    proven largest structure-free board is smaller than the deal (then the chance is 0)."""
    if never is not None:
        return never
    if e.value == 0:
        return f"none in {e.observations:,} (p <= {e.high:.2g})"
    odds = e.odds()
    high = "inf" if not math.isfinite(odds.high) else _times(odds.high)
    return f"{_times(odds.value)}:1 [{_times(odds.low)}, {high}]"


def _mode_row(name: str, run: Number, free: dict[tuple[str, int], int]) -> tuple:
    """A mode's row; ``free`` holds the proven largest structure-free boards (f_v(P))."""
    s: VariantSummary = run.value
    m = MODES[name]
    largest = free.get((m.structure, m.properties))
    never = None
    if largest is not None and m.deal > largest:
        never = f"never: f_{m.structure}({m.properties}) = {largest} < {m.deal} (proven)"
    first = s.first_deal_structures
    exact = f"{s.exact_mean} = {float(s.exact_mean):.4f}"
    inside = "yes" if first.low <= s.exact_mean <= first.high else "no"
    return (
        f"`{name}`",
        variant(m.structure).title if m.structure != "set" else "set",
        f"{m.values}^{m.properties} = {m.cards}",
        str(m.deal),
        _odds(s.first_deal_none, never),
        _estimate(run, first),
        _interval(first),
        exact,
        inside,
        _estimate(run, s.structures_per_board),
        _estimate(run, s.game_length),
        _estimate(run, s.cards_left),
    )


def _stored_free(context: Context, name: str, properties: int) -> Result | None:
    return context.store.get(PROBLEM, properties, 0, {"variant": name})


def _verified(context: Context, stored: Result, name: str, properties: int) -> Number:
    """A stored structure-free board's size, its witness re-checked to hold no structure."""

    def verify(result: Result) -> int:
        witness = sorted(set(result.witness or []))
        return len(witness) if count_structures(witness, name, properties) == 0 else -1

    return context.stored(stored, verify, f"count_structures({name!r}) = 0 on the stored witness")


def _extremal(
    context: Context, name: str, properties: int, limit: int
) -> tuple[Number, str, list[int]]:
    """The largest board of ``name``'s deck with no structure: (size, interval text, witness).

    A proven stored value is re-checked and used (``--quick``); otherwise the search runs now,
    and a better stored witness or bound (a longer search run by ``setlab caps --variant``) is
    folded in after its witness is re-checked.
    """
    symbol = f"f_{name}({properties})"
    stored = _stored_free(context, name, properties)
    certified = properties <= CERTIFIED_FREE.get(name, 0)  # else both bounds, never "="
    if context.quick and stored is not None and stored.proven and stored.witness:
        size = _verified(context, stored, name, properties)
        text = interval_text(symbol, stored.value, stored.bound, proven=certified)
        return size, text, sorted(stored.witness)
    if context.quick and limit < max(row[2] for row in EXTREMAL):
        limit = QUICK_NODE_LIMIT
    how = f"largest_structure_free({name!r}, {properties}, node_limit={limit:.0e})"
    run = context.compute(how, largest_structure_free, name, properties, limit)
    found: StructureFree = run.value
    lower, upper, witness = found.lower, found.upper, found.witness
    size = replace(run, value=lower, how=f"{how}: {found.method}")
    if stored is not None and stored.witness and (stored.value or 0) > lower:
        size = _verified(context, stored, name, properties)
        lower, witness = size.value, sorted(stored.witness)
    if stored is not None and stored.bound is not None and stored.bound < upper:
        upper = stored.bound
    return size, interval_text(symbol, lower, upper, proven=certified), witness


def _ultra_figure(witness: list[int]) -> tuple[Figure, int, int]:
    """The proven largest UltraSet-free board of the 81 cards, one card more, UltraSets outlined."""
    extra = next(card for card in range(81) if card not in witness)
    board = [*witness, extra]
    found = find_structures(board, "ultra", 4)
    drawing = board_svg(board, found, columns=5, variant="ultra", properties=4)
    caption = (
        f"The {len(witness)} cards of a largest board with no UltraSet (proven: any 10 cards "
        f"hold one) and one card more (last): its {len(found)} UltraSet"
        f"{'' if len(found) == 1 else 's'}, each outlined in a colour of its own at the same "
        "distance from its four cards, all pass through the new card."
    )
    return Figure("variants-ultra-board", drawing, caption), len(found), extra


def _four_set_figure() -> Figure:
    """Twelve random 4Set cards (seeded; the first such board with 2-4 4Sets), 4Sets outlined."""
    rng = random.Random(SEED)
    while True:
        board = rng.sample(range(256), 12)
        found = find_structures(board, "4set", 4)
        if 2 <= len(found) <= 4:
            break
    drawing = board_svg(board, found, variant="4set", properties=4)
    return Figure(
        "variants-4set-board",
        drawing,
        f"Twelve random 4Set cards (the fourth values: four symbols, blue, dotted, triangle) and "
        f"their {len(found)} 4Sets: in every property the four cards are all equal, all "
        "different, or two pairs.",
    )


def build(context: Context) -> Section:
    """Simulate every mode, compute the extremal table, draw the UltraSet and 4Set boards."""
    games = QUICK_GAMES if context.quick else GAMES
    rows, results, free = [], {}, {}
    for name, properties, limit in EXTREMAL:
        size, text, witness = _extremal(context, name, properties, limit)
        results[name, properties] = (text, witness)
        if text == interval_text(f"f_{name}({properties})", size.value, size.value):
            free[name, properties] = size.value  # proven: any more cards hold a structure
        rows.append((variant(name).title, str(properties),
                     f"{FREE_VARIANTS[name]}^{properties}", size, text))  # fmt: skip
    extremal = Table(
        ("variant", "P", "deck", "largest board found with none", "known"),
        tuple(rows),
        "f_v(P): the most cards of the deck with no structure of variant v (for UltraSet "
        "and 4Set a weak Sidon set: no two disjoint pairs of cards share a sum). Exact where "
        "the search finished; otherwise the witness found and the pair-count bound "
        "C(s, 2) <= 3^P (4^P - 1 for 4Set; 2 x 3^P for GhostSet, where no sum is shared by "
        "three disjoint pairs).",
    )  # fmt: skip

    runs = {}
    for name in MODES:
        how = f"simulate_variant({name!r}, {games:,} games, seed {SEED})"
        runs[name] = context.compute(how, simulate_variant, name, games, SEED)
    modes = Table(
        ("mode", "structure", "deck", "dealt", "no structure on the first deal (odds)",
         "structures on the first deal", "95% CI", "exact", "exact in the CI",
         "per board in play", "taken per game", "cards left"),
        tuple(_mode_row(name, run, free) for name, run in runs.items()),
        f"{games:,} games of each mode (seed {SEED}; a structure taken uniformly at random; "
        "cards added up to the next multiple of 3 while the table holds none). *Exact* is "
        "C(k, s) T / C(N, s) with T the structures among all N cards (counted by the kernel); "
        "a 95% interval misses the exact value about one time in twenty; a deal larger than "
        "the proven largest board with no structure (the table below) never misses one.",
    )  # fmt: skip

    ultra_text, ultra_witness = results["ultra", 4]
    any_ten = ultra_text == interval_text("f_ultra(4)", 9, 9)  # proven, and 9
    blocks: list = [
        Text(
            "The modes of *Set with Friends* and its fork, played by setlab's engine "
            "(`setlab.game.variants`, rules and choices in docs/variants.md): Set-Chain, "
            "Junior (27 cards), MegaSet (243 cards), UltraSet (four cards a, b, c, d with "
            "a + b = c + d) dealt 12 or 9, GhostSet (six cards summing to 0) and 4Set (four "
            "cards of the 4-valued deck summing to 0 in (F_2^2)^P). No seed document covers "
            "the variants, so this section states setlab's own numbers, each simulated figure "
            "beside the exact value counting gives."
        ),
        modes,
        extremal,
    ]
    findings = []
    if any_ten:
        figure, count, _ = _ultra_figure(ultra_witness)
        blocks.append(figure)
        findings.append(
            "Any 10 of the 81 cards hold an UltraSet (the fork's help page), proven by an "
            f"exhaustive search: the largest UltraSet-free board has 9 cards; adding a card to "
            f"the one drawn makes {count} UltraSet{'' if count == 1 else 's'}."
        )
    blocks.append(_four_set_figure())
    ultra = runs["ultra"].value.first_deal_structures
    findings.append(
        f"An UltraSet deal of 12 cards holds {ultra.value:.1f} UltraSets on average (exact "
        f"{float(runs['ultra'].value.exact_mean):.2f}); the largest 4Set-free board among the "
        f"256 cards of the 4Set deck: {results['4set', 4][0]}."
    )
    return Section(
        TITLE,
        "The variants of issue 14 (*Set with Friends* and its fork); docs/variants.md",
        tuple(blocks),
        findings=tuple(findings),
    )
