"""Pictures of simulated games, as :class:`setlab.render.drawing.Drawing` objects.

The odds panel shows, per round, the odds X:1 = (1 - p)/p against a table of the deal size
holding no set, with 95% intervals, beside the exact odds for random cards (cap counting); the
sets panel the distribution of sets on the tables of k and k + 3 cards met in play, beside the
exact mean C(k,3)/(3^P - 2) for k random cards. Matplotlib draws; the Drawing is its SVG.
"""

from __future__ import annotations

import io
from collections.abc import Callable

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from setlab.game.statistics import GameSummary
from setlab.render.drawing import Drawing, embedded_svg

__all__ = ["plot_games", "plot_odds_by_round", "plot_sets_on_table"]

Panel = Callable[[Axes, GameSummary], None]


def _odds_panel(axis: Axes, summary: GameSummary) -> None:
    """Per round, the odds against no set among the deal, with 95% intervals (and exact line)."""
    k = summary.deal
    rounds = [(r, e) for r, e in enumerate(summary.rounds) if e.observations and e.value > 0]
    if rounds:
        xs = [r + 1 for r, _ in rounds]
        odds = [e.odds() for _, e in rounds]
        values = [o.value for o in odds]
        below = [o.value - o.low for o in odds]
        above = [o.high - o.value for o in odds]
        axis.errorbar(xs, values, yerr=[below, above], fmt="o-", ms=3, capsize=2,
                      label="simulated, 95% CI")  # fmt: skip
    exact = summary.exact_first_round
    if exact:
        axis.axhline((1 - exact) / exact, color="grey", ls="--", label="random cards, exact")
    axis.set_xlabel("round (1 = first deal; a round ends when a set is taken)")
    axis.set_ylabel(f"odds against no set among {k} cards (X:1)")
    axis.set_title(f"No set on the table, by round ({summary.games:,} games)")
    axis.grid(alpha=0.3)
    if axis.get_legend_handles_labels()[0]:  # none when no round had a table of k cards
        axis.legend()


def _sets_panel(axis: Axes, summary: GameSummary) -> None:
    """The distribution of sets on tables of the deal and the deal + 3 met in play."""
    width = 0.4
    for shift, board in ((-width / 2, summary.boards[0]), (width / 2, summary.boards[1])):
        shares = board.set_distribution
        if shares:
            cards, mean = board.cards, float(board.exact_mean_sets)
            label = f"{cards} cards in play (random {cards}: mean {mean:.3f})"
            axis.bar([s + shift for s in range(len(shares))], shares, width, label=label)
    axis.set_xlabel("sets on the table")
    axis.set_ylabel("fraction of tables")
    axis.set_title("Sets on the table")
    axis.grid(alpha=0.3, axis="y")
    if axis.get_legend_handles_labels()[0]:  # none when no table was met
        axis.legend()


def _title(summary: GameSummary) -> str:
    return f"SET, P = {summary.properties}, strategy '{summary.strategy}', seed {summary.seed}"


def _drawing(figure: Figure, draw: Callable[[], object]) -> Drawing:
    """``draw()`` on a matplotlib figure, then the figure as a Drawing (its SVG, 1 unit = 1 pt).

    The figure is closed whatever happens, so a failed plot leaves no figure open. The SVG is
    the same from run to run (no date; clip-path ids from a fixed salt).
    """
    try:
        draw()
        figure.tight_layout()
        buffer = io.StringIO()
        with plt.rc_context({"svg.hashsalt": "setlab"}):
            figure.savefig(buffer, format="svg", metadata={"Date": None})
    finally:
        plt.close(figure)
    return embedded_svg(buffer.getvalue())


def _panel_drawing(summary: GameSummary, panel: Panel) -> Drawing:
    """One panel alone, with the simulation's settings under its title."""
    figure, axis = plt.subplots(figsize=(6.4, 4.2))

    def draw() -> None:
        panel(axis, summary)
        axis.set_title(f"{axis.get_title()}\n{_title(summary)}", fontsize="medium")

    return _drawing(figure, draw)


def plot_games(summary: GameSummary) -> Drawing:
    """Both panels side by side: odds against no set by round, and sets on the table.

    Parameters
    ----------
    summary
        The statistics of a simulation (:func:`setlab.game.summary`).

    Returns
    -------
    Drawing
        11 x 4.2 inches (792 x 302.4 units); ``.save(path)`` writes SVG or PNG.

    Examples
    --------
    >>> from setlab.game import simulate, summary
    >>> d = plot_games(summary(simulate(50, seed=1)))
    >>> d.svg.startswith("<svg"), d.width, d.height
    (True, 792.0, 302.4)
    """
    figure, (odds_axis, sets_axis) = plt.subplots(1, 2, figsize=(11, 4.2))

    def draw() -> None:
        _odds_panel(odds_axis, summary)
        _sets_panel(sets_axis, summary)
        figure.suptitle(_title(summary))

    return _drawing(figure, draw)


def plot_odds_by_round(summary: GameSummary) -> Drawing:
    """The odds against no set among the deal, by round, with 95% intervals, alone.

    Examples
    --------
    >>> from setlab.game import simulate, summary
    >>> d = plot_odds_by_round(summary(simulate(50, seed=1)))
    >>> d.svg.startswith("<svg") and d.width > 400
    True
    """
    return _panel_drawing(summary, _odds_panel)


def plot_sets_on_table(summary: GameSummary) -> Drawing:
    """The distribution of sets on the tables met in play (deal and deal + 3), alone.

    Examples
    --------
    >>> from setlab.game import simulate, summary
    >>> d = plot_sets_on_table(summary(simulate(50, seed=1)))
    >>> d.svg.count("<svg") == 2 and d.height > 200
    True
    """
    return _panel_drawing(summary, _sets_panel)
