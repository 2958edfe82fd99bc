"""``setlab simulate``: play many games by the rules and report what players meet."""

from __future__ import annotations

import argparse
import math
import sys
from typing import Any

from setlab.cli.common import add_properties, print_json
from setlab.errors import SetlabError
from setlab.game import STRATEGIES, simulate
from setlab.game_statistics import summary


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "simulate",
        help="play many games of SET and report odds, with 95%% confidence intervals",
        description="Play N games (12 cards dealt, 3 more while no set, a set taken from more "
        "than 12 cards is not replaced, the game ends when the deck is empty and no set is left) "
        "and print the statistics with 95%% confidence intervals beside exact values. "
        "A round ends each time a set is taken; odds X mean X:1 against no set.",
    )
    parser.add_argument("--games", type=int, default=100_000, metavar="N",
                        help="number of games (default 100000)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
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
    parser.set_defaults(run=run_simulate)


def _ci(values: list[float | None], digits: int) -> str:
    low, high = values
    fmt = lambda v: "inf" if v is None else f"{v:.{digits}f}"  # noqa: E731
    return f"[{fmt(low)}, {fmt(high)}]"


def _odds(value: float | None, digits: int = 1) -> str:
    return "none seen" if value is None else f"{value:.{digits}f}:1"


def _in_play(odds: float | None, ci: list[float | None], tables: int) -> str:
    if tables == 0:
        return f"{'-':>10}  (no such table in play)"
    return f"{_odds(odds):>10} {_ci(ci, 1)}  ({tables:,} tables)"


def _report(s: dict[str, Any]) -> str:
    k = s["deal"]
    exact = s["exact"]
    first_exact = exact["first_round_no_set_odds"]
    if first_exact is None:
        first_note = "exact: not known for this deck"
    elif math.isinf(first_exact):
        first_note = f"exact: every {k} cards hold a set"
    else:
        first_note = f"exact {first_exact:.2f}:1"
    lines = [
        f"{s['games']:,} games, P = {s['properties']}, seed {s['seed']}, strategy "
        f"'{s['strategy']}', {k} cards dealt (95% confidence intervals in brackets)",
        "",
        f"No set among {k} cards, first round      {_odds(s['first_round_no_set_odds'], 2):>10} "
        f"{_ci(s['first_round_no_set_odds_ci'], 2)}  ({first_note})",
        f"No set among {k} cards, later rounds     {_odds(s['later_rounds_no_set_odds'], 2):>10} "
        f"{_ci(s['later_rounds_no_set_odds_ci'], 2)}",
        f"No set among {k + 3} cards in play         "
        + _in_play(s["no_set_odds_15"], s["no_set_odds_15_ci"], s["tables_15"]),
        f"No set among {k + 6} cards in play         "
        + _in_play(s["no_set_odds_18"], s["no_set_odds_18_ci"], s["tables_18"]),
        f"Games never needing {k + 3} cards          {100 * s['never_needs_15_fraction']:9.2f}% "
        f"{_ci([100 * v for v in s['never_needs_15_fraction_ci']], 2)}",
        f"Mean sets among {k}, first deal          {s['first_deal_mean_sets_12']:10.4f} "
        f"{_ci(s['first_deal_mean_sets_12_ci'], 4)}  (exact {exact['mean_sets_12_fraction']} "
        f"= {exact['mean_sets_12']:.4f})",
        f"Mean sets among {k}, all of play         {s['mean_sets_12']:10.4f} "
        f"{_ci(s['mean_sets_12_ci'], 4)}",
        f"Cards left at the end (mean)            {s['mean_cards_left']:10.3f} "
        f"{_ci(s['mean_cards_left_ci'], 3)}",
        "Cards left at the end: "
        + ", ".join(f"{c}: {100 * n / s['games']:.2f}%" for c, n in s["cards_left"].items()),
        "",
        f"Odds against no set among {k} cards, by round (round r: r-1 sets taken before):",
    ]
    for r, odds, ci, n in zip(
        s["rounds"], s["round_no_set_odds_12"], s["round_no_set_odds_12_ci"],
        s["round_tables_12"], strict=True,
    ):  # fmt: skip
        lines.append(f"  round {r:3d}  {_odds(odds, 2):>10} {_ci(ci, 2):>18}  ({n:,} tables)")
    lines.append("")
    lines.append("Sets on the table (fraction of tables met in play):")
    for cards, shares in s["sets_on_table"].items():
        shown = ", ".join(f"{i}: {100 * f:.2f}%" for i, f in enumerate(shares) if f >= 5e-5)
        lines.append(f"  {cards} cards  {shown}")
    return "\n".join(lines)


def run_simulate(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise SetlabError("--games must be at least 1")
    from setlab.game_plots import check_plot_path, plot_games

    for path in args.plot:  # refuse a bad file name before playing
        check_plot_path(path)
    progress = not (args.no_progress or args.json) and sys.stderr.isatty()
    tally = simulate(args.games, args.seed, args.properties, args.strategy, progress=progress)
    for path in args.plot:
        written = plot_games(tally, path)
        print(f"wrote {written}", file=sys.stderr if args.json else sys.stdout)
    result = summary(tally)
    if args.json:
        print_json(result)
    else:
        print(_report(result))
    return 0
