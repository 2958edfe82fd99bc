"""Pictures of simulated games: odds against no set on the table by round, and sets on the table.

The left panel shows, per round, the odds X:1 against a table of the deal size holding no set, with
95% intervals; the right panel the distribution of the number of sets on tables of 12 and 15
cards met in play, beside the exact mean C(k,3)/(3^P - 2) for k random cards. Both panels go
into one PNG or SVG file, or each alone into a :class:`setlab.render.Drawing` (for reports).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.axes import Axes

from setlab.errors import SetlabError
from setlab.game import GameTally
from setlab.game_statistics import (
    by_round,
    exact_no_set_probability,
    expected_sets,
    set_distribution,
)
from setlab.render.drawing import Drawing, embedded_svg

FORMATS = (".png", ".svg")


def check_plot_path(path: str | Path) -> Path:
    """``path`` as a Path if a picture can be written there (a .png or .svg file in a directory)."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise SetlabError(f"plot file must end in {' or '.join(FORMATS)}, got '{path.name}'")
    if not path.parent.is_dir():
        raise SetlabError(f"no such directory: {path.parent}")
    return path


def _odds_panel(axis: Axes, tally: GameTally) -> None:
    """Per round, the odds against no set among the deal, with 95% intervals (and exact line)."""
    k, p = tally.deal, tally.properties
    rounds = [(r, e) for r, e in enumerate(by_round(tally)) if e.observations and e.value > 0]
    if rounds:
        xs = [r + 1 for r, _ in rounds]
        odds = [e.odds() for _, e in rounds]
        values = [o.value for o in odds]
        below = [o.value - o.low for o in odds]
        above = [o.high - o.value for o in odds]
        axis.errorbar(xs, values, yerr=[below, above], fmt="o-", ms=3, capsize=2,
                      label="simulated, 95% CI")  # fmt: skip
    exact = exact_no_set_probability(k, p)
    if exact:
        axis.axhline((1 - exact) / exact, color="grey", ls="--", label="random cards, exact")
    axis.set_xlabel("round (1 = first deal; a round ends when a set is taken)")
    axis.set_ylabel(f"odds against no set among {k} cards (X:1)")
    axis.set_title(f"No set on the table, by round ({tally.games:,} games)")
    axis.grid(alpha=0.3)
    axis.legend()


def _sets_panel(axis: Axes, tally: GameTally) -> None:
    """The distribution of sets on tables of the deal and the deal + 3 met in play."""
    k, p = tally.deal, tally.properties
    width = 0.4
    for shift, cards in ((-width / 2, k), (width / 2, k + 3)):
        shares = set_distribution(tally, cards) if cards < tally.set_counts.shape[0] else []
        if len(shares):
            mean = float(expected_sets(cards, p))
            label = f"{cards} cards in play (random {cards}: mean {mean:.3f})"
            axis.bar([s + shift for s in range(len(shares))], shares, width, label=label)
    axis.set_xlabel("sets on the table")
    axis.set_ylabel("fraction of tables")
    axis.set_title("Sets on the table")
    axis.grid(alpha=0.3, axis="y")
    axis.legend()


def _title(tally: GameTally) -> str:
    return f"SET, P = {tally.properties}, strategy '{tally.strategy}', seed {tally.seed}"


def plot_games(tally: GameTally, path: str | Path) -> Path:
    """Draw both panels for a simulation into ``path`` (PNG or SVG, by its suffix).

    Examples
    --------
    >>> import tempfile, os
    >>> from setlab.game import simulate
    >>> with tempfile.TemporaryDirectory() as d:
    ...     out = plot_games(simulate(50, seed=1), os.path.join(d, "games.svg"))
    ...     out.stat().st_size > 1000
    True
    """
    path = check_plot_path(path)
    figure, (odds_axis, sets_axis) = plt.subplots(1, 2, figsize=(11, 4.2))
    _odds_panel(odds_axis, tally)
    _sets_panel(sets_axis, tally)
    figure.suptitle(_title(tally))
    figure.tight_layout()
    partial = path.with_name(f".{path.name}.partial")  # never leave a half-written picture
    try:
        figure.savefig(partial, dpi=120, format=path.suffix.lower()[1:])
        os.replace(partial, path)
    except OSError as error:
        partial.unlink(missing_ok=True)
        raise SetlabError(f"cannot write {path}: {error.strerror}") from None
    finally:
        plt.close(figure)
    return path


def _panel_drawing(tally: GameTally, panel: Callable[[Axes, GameTally], None]) -> Drawing:
    """One panel alone as a :class:`setlab.render.Drawing` (matplotlib's SVG, 1 unit = 1 pt)."""
    figure, axis = plt.subplots(figsize=(6.4, 4.2))
    try:
        panel(axis, tally)
        axis.set_title(f"{axis.get_title()}\n{_title(tally)}", fontsize="medium")
        figure.tight_layout()
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None})
    finally:
        plt.close(figure)
    return embedded_svg(buffer.getvalue())


def odds_by_round_svg(tally: GameTally) -> Drawing:
    """The odds against no set among the deal, by round, with 95% intervals, as a Drawing.

    Examples
    --------
    >>> from setlab.game import simulate
    >>> d = odds_by_round_svg(simulate(50, seed=1))
    >>> d.svg.startswith("<svg") and d.width > 400
    True
    """
    return _panel_drawing(tally, _odds_panel)


def sets_on_table_svg(tally: GameTally) -> Drawing:
    """The distribution of sets on the tables met in play (deal and deal + 3), as a Drawing.

    Examples
    --------
    >>> from setlab.game import simulate
    >>> d = sets_on_table_svg(simulate(50, seed=1))
    >>> d.svg.count("<svg") == 2 and d.height > 200
    True
    """
    return _panel_drawing(tally, _sets_panel)
