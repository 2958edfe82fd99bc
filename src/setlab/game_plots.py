"""Pictures of simulated games: odds against no set on the table by round, and sets on the table.

The left panel shows, per round, the odds X:1 against a table of the deal size holding no set, with
95% intervals; the right panel the distribution of the number of sets on tables of 12 and 15
cards met in play, beside the exact mean C(k,3)/(3^P - 2) for k random cards.
"""

from __future__ import annotations

import os
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt

from setlab.errors import SetlabError
from setlab.game import GameTally
from setlab.game_statistics import (
    by_round,
    exact_no_set_probability,
    expected_sets,
    set_distribution,
)

FORMATS = (".png", ".svg")


def check_plot_path(path: str | Path) -> Path:
    """``path`` as a Path if a picture can be written there (a .png or .svg file in a directory)."""
    path = Path(path)
    if path.suffix.lower() not in FORMATS:
        raise SetlabError(f"plot file must end in {' or '.join(FORMATS)}, got '{path.name}'")
    if not path.parent.is_dir():
        raise SetlabError(f"no such directory: {path.parent}")
    return path


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
    k, p = tally.deal, tally.properties
    figure, (odds_axis, sets_axis) = plt.subplots(1, 2, figsize=(11, 4.2))

    rounds = [(r, e) for r, e in enumerate(by_round(tally)) if e.observations and e.value > 0]
    if rounds:
        xs = [r + 1 for r, _ in rounds]
        odds = [e.odds() for _, e in rounds]
        values = [o.value for o in odds]
        below = [o.value - o.low for o in odds]
        above = [o.high - o.value for o in odds]
        odds_axis.errorbar(xs, values, yerr=[below, above], fmt="o-", ms=3, capsize=2,
                           label="simulated, 95% CI")  # fmt: skip
    exact = exact_no_set_probability(k, p)
    if exact:
        odds_axis.axhline((1 - exact) / exact, color="grey", ls="--", label="random cards, exact")
    odds_axis.set_xlabel("round (1 = first deal; a round ends when a set is taken)")
    odds_axis.set_ylabel(f"odds against no set among {k} cards (X:1)")
    odds_axis.set_title(f"No set on the table, by round ({tally.games:,} games)")
    odds_axis.grid(alpha=0.3)
    odds_axis.legend()

    width = 0.4
    for shift, cards in ((-width / 2, k), (width / 2, k + 3)):
        shares = set_distribution(tally, cards) if cards < tally.set_counts.shape[0] else []
        if len(shares):
            mean = float(expected_sets(cards, p))
            label = f"{cards} cards in play (random {cards}: mean {mean:.3f})"
            sets_axis.bar([s + shift for s in range(len(shares))], shares, width, label=label)
    sets_axis.set_xlabel("sets on the table")
    sets_axis.set_ylabel("fraction of tables")
    sets_axis.set_title("Sets on the table")
    sets_axis.grid(alpha=0.3, axis="y")
    sets_axis.legend()

    figure.suptitle(f"SET, P = {p}, strategy '{tally.strategy}', seed {tally.seed}")
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
