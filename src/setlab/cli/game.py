"""``setlab simulate``: play many games by the rules and report what players meet."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from setlab.cards import deck_size
from setlab.cli.common import (
    add_properties,
    add_store,
    int_in,
    one_file_each,
    output_path,
    print_json,
)
from setlab.errors import SetlabError
from setlab.game import (
    MAX_GAMES,
    MAX_SIMULATION_PROPERTIES,
    STRATEGIES,
    Estimate,
    GameSummary,
    exact_no_set_probability,
    simulate,
    summary,
)
from setlab.game.rng import WORD_MASK
from setlab.game.variants import MODES, VariantSummary, simulate_variant
from setlab.store import Store

__all__ = ["DEAL", "PLOT_FORMATS", "register", "run_simulate", "write_plot"]

PLOT_FORMATS = (".png", ".svg")

PLOT_SCALE = 120 / 72
"""PNG pixels per drawing unit (matplotlib's points): 120 dpi."""


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "simulate",
        help="play many games of SET and report odds, with 95%% confidence intervals",
        description="Play N games (12 cards dealt, 3 more while no set, a set taken from more "
        "than 12 cards is not replaced, the game ends when the deck is empty and no set is left) "
        "and print the statistics with 95% confidence intervals beside exact values. "
        "A round ends each time a set is taken; odds X mean X:1 against no set.",
    )
    parser.add_argument("--games", type=int_in(1, MAX_GAMES), default=100_000, metavar="N",
                        help=f"games (default 100000, at most {MAX_GAMES:,})")  # fmt: skip
    parser.add_argument("--seed", type=int_in(0, WORD_MASK), default=0, metavar="S",
                        help="random seed below 2^64 (default 0)")  # fmt: skip
    parser.add_argument("--strategy", choices=sorted(STRATEGIES), default="random",
                        help="which set a player takes (default random)")  # fmt: skip
    add_properties(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--plot",
        action="append",
        default=[],
        metavar="FILE",
        help="draw odds by round and sets on the table (.png/.svg, repeatable)",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    parser.add_argument("--variant", choices=list(MODES), help="play a variant's games instead "
                        "(its own deck and deal; see docs/variants.md)")  # fmt: skip
    add_store(parser, writes=False)  # the cap counts behind the exact odds, kept after one count
    parser.set_defaults(run=run_simulate)


def write_plot(stats: GameSummary, path: Path) -> Path:
    """Draw both panels and write them to ``path`` (PNG or SVG, by its suffix)."""
    from setlab.game import plot_games  # matplotlib, loaded only when a plot is asked for

    return plot_games(stats).save(path, scale=PLOT_SCALE)


def _ci(e: Estimate, digits: int, factor: float = 1) -> str:
    fmt = lambda v: "inf" if not math.isfinite(v) else f"{factor * v:.{digits}f}"  # noqa: E731
    return f"[{fmt(e.low)}, {fmt(e.high)}]"


def _odds(e: Estimate, digits: int = 1) -> str:
    value = e.odds().value
    return "none seen" if not math.isfinite(value) else f"{value:.{digits}f}:1"


def _in_play(no_set: Estimate) -> str:
    if no_set.observations == 0:
        return f"{'-':>10}  (no such table in play)"
    return f"{_odds(no_set):>10} {_ci(no_set.odds(), 1)}  ({no_set.observations:,} tables)"


def _report(s: GameSummary) -> str:
    """The summary as the text ``setlab simulate`` prints."""
    k = s.deal
    here, more, most = s.boards
    exact_first = s.exact_first_round
    if exact_first is None:
        first_note = f"exact: {s.exact_first_round_note}"
    elif exact_first == 0:
        first_note = f"exact: every {k} cards hold a set"
    else:
        p = float(exact_first)
        first_note = f"exact {(1 - p) / p:.2f}:1"
    exact_mean = here.exact_mean_sets
    first_mean = s.first_deal_mean_sets
    lines = [
        f"{s.games:,} games, P = {s.properties}, seed {s.seed}, strategy "
        f"'{s.strategy}', {k} cards dealt (95% confidence intervals in brackets)",
        "",
        f"No set among {k} cards, first round      {_odds(s.first_round, 2):>10} "
        f"{_ci(s.first_round.odds(), 2)}  ({first_note})",
        f"No set among {k} cards, later rounds     {_odds(s.later_rounds, 2):>10} "
        f"{_ci(s.later_rounds.odds(), 2)}",
        f"No set among {more.cards} cards in play         " + _in_play(more.no_set),
        f"No set among {most.cards} cards in play         " + _in_play(most.no_set),
        f"Games never needing {more.cards} cards          "
        f"{100 * s.never_beyond_deal.value:9.2f}% {_ci(s.never_beyond_deal, 2, 100)}",
        f"Mean sets among {k}, first deal          {first_mean.value:10.4f} "
        f"{_ci(first_mean, 4)}  (exact {exact_mean} = {float(exact_mean):.4f})",
        f"Mean sets among {k}, all of play         {here.mean_sets.value:10.4f} "
        f"{_ci(here.mean_sets, 4)}",
        f"Cards left at the end (mean)            {s.mean_cards_left.value:10.3f} "
        f"{_ci(s.mean_cards_left, 3)}",
        "Cards left at the end: "
        + ", ".join(f"{c}: {100 * n / s.games:.2f}%" for c, n in enumerate(s.cards_left) if n),
        "",
        f"Odds against no set among {k} cards, by round (round r: r-1 sets taken before):",
    ]
    for r, e in enumerate(s.rounds, start=1):
        if e.observations:
            odds = f"{_odds(e, 2):>10} {_ci(e.odds(), 2):>18}"
            lines.append(f"  round {r:3d}  {odds}  ({e.observations:,} tables)")
    lines.append("")
    lines.append("Sets on the table (fraction of tables met in play):")
    for board in s.boards:
        shares = board.set_distribution
        if shares:
            shown = ", ".join(f"{i}: {100 * f:.2f}%" for i, f in enumerate(shares) if f >= 5e-5)
            lines.append(f"  {board.cards} cards  {shown}")
    return "\n".join(lines)


DEAL = 12
"""Cards the command deals, as the real game does (the API's ``deal`` argument changes it)."""


def run_simulate(args: argparse.Namespace) -> int:
    if args.variant is not None:
        return run_simulate_variant(args)
    if deck_size(args.properties) < DEAL:  # a deal larger than the deck is no game of SET
        raise SetlabError(
            f"-p {args.properties}: a game deals {DEAL} cards, more than the "
            f"{deck_size(args.properties)} cards of the deck; use -p 3 to "
            f"{MAX_SIMULATION_PROPERTIES}"
        )
    paths = [output_path(path, PLOT_FORMATS, "--plot") for path in args.plot]  # before playing
    one_file_each([("--plot", path) for path in paths])
    progress = not (args.no_progress or args.json) and sys.stderr.isatty()
    from setlab.extremal.caps import MAX_COUNTED_PROPERTIES  # the cap counter, on first use

    if args.properties <= MAX_COUNTED_PROPERTIES:
        # the exact first-round odds: the cap count table read from the store (or counted into
        # it, a few seconds once); the process keeps it, so the summary's exact value reads it
        with Store(args.store) as store:
            exact_no_set_probability(DEAL, args.properties, store=store)
    stats = summary(
        simulate(args.games, args.seed, args.properties, args.strategy, DEAL, progress=progress)
    )
    written: list[Path] = []
    try:
        for path in paths:
            written.append(write_plot(stats, path))
    except BaseException:
        for path in written:  # all plots or none
            path.unlink(missing_ok=True)
        raise
    for path in written:
        print(f"wrote {path}", file=sys.stderr if args.json else sys.stdout)
    if args.json:
        print_json({"command": "simulate", **stats.as_dict()})
    else:
        print(_report(stats))
    return 0


def _variant_report(s: VariantSummary) -> str:
    """A variant's summary as the text ``setlab simulate --variant`` prints."""
    m = MODES[s.mode]
    noun = {"set": "set", "ultra": "UltraSet", "ghost": "GhostSet", "4set": "4Set"}[m.structure]
    noun = f"{noun} or chain move" if m.chain else noun
    exact = f"  (exact {float(s.exact_mean):.4f})"
    k = m.deal
    rows = [
        (f"No {noun} among the first {k} dealt", _odds(s.first_deal_none, 2),
         _ci(s.first_deal_none.odds(), 2), ""),
        (f"No {noun} among {k} cards, all of play", _odds(s.deal_none, 2),
         _ci(s.deal_none.odds(), 2), ""),
        (f"Mean per board, first {k} dealt", f"{s.first_deal_structures.value:.4f}",
         _ci(s.first_deal_structures, 4), exact),
        (f"Mean per board of {k}, all of play", f"{s.structures_per_board.value:.4f}",
         _ci(s.structures_per_board, 4), ""),
        ("Game length (taken, mean)", f"{s.game_length.value:.3f}", _ci(s.game_length, 3), ""),
        ("Cards left at the end (mean)", f"{s.cards_left.value:.3f}", _ci(s.cards_left, 3), ""),
    ]  # fmt: skip
    width = max(len(r[0]) for r in rows) + 2
    lines = [
        f"{s.games:,} games of {s.mode}: {m.values}^{m.properties} = {m.cards} cards, {k} dealt, "
        f"seed {s.seed} (95% confidence intervals in brackets; odds X mean X:1 against)",
        "",
        *(f"{a:<{width}}{b:>12} {c}{d}" for a, b, c, d in rows),
        "Cards left at the end: "
        + ", ".join(
            f"{c}: {100 * n / s.games:.2f}%" for c, n in sorted(s.cards_left_counts.items())
        ),
    ]
    return "\n".join(lines)


def run_simulate_variant(args: argparse.Namespace) -> int:
    """``setlab simulate --variant NAME``: the mode's games and what players meet."""
    if args.plot:
        raise SetlabError("--plot draws the classic game only: leave it out with --variant")
    m = MODES[args.variant]
    if args.properties not in (4, m.properties):
        raise SetlabError(f"-p: {m.name} is played with {m.properties} properties")
    if args.strategy != "random":
        raise SetlabError("--strategy: the variants take a structure at random")
    if args.store is not None:
        raise SetlabError("--store: a variant's odds are simulated, not counted: leave it out")
    from tqdm import tqdm

    progress = not (args.no_progress or args.json) and sys.stderr.isatty()
    with tqdm(total=args.games, unit="game", disable=not progress, unit_scale=True) as bar:
        stats = simulate_variant(args.variant, args.games, args.seed, progress=bar.update)
    if args.json:
        print_json({"command": "simulate", "variant": args.variant, **stats.as_dict()})
    else:
        print(_variant_report(stats))
    return 0
