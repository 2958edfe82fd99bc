"""Games per second: the numba batch simulator against the plain-Python engine, same run.

The baseline is :func:`setlab.game.play_game`, the reference engine (a Python loop calling
:func:`setlab.find.find_sets` per inspection), timed on a few hundred games; the simulator plays
1,000,000 games of the real deck (same rules, same random numbers). Last line: the speed ratio.

Usage: python benchmarks/simulate.py [--games N] [--baseline-games M]
"""

from __future__ import annotations

from _common import Parser, in_range, run_script  # first: see _common.py

# isort: split
import resource
import time

import numba

from setlab.game import play_game, simulate


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--games", type=in_range(int, 1, 10**8), default=1_000_000)
    parser.add_argument("--baseline-games", type=in_range(int, 1, 10**6), default=300)
    args = parser.parse_args()

    simulate(100, seed=1)  # compile (or load the cached kernel) before timing
    play_game(seed=1)

    start = time.perf_counter()
    for game in range(args.baseline_games):
        play_game(seed=1, game=game)
    baseline = args.baseline_games / (time.perf_counter() - start)

    start = time.perf_counter()
    tally = simulate(args.games, seed=1)
    elapsed = time.perf_counter() - start
    fast = args.games / elapsed
    assert int(tally.cards_left.sum()) == args.games

    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"threads: {numba.get_num_threads()}")
    print(f"plain-Python engine: {baseline:,.0f} games/s ({args.baseline_games} games)")
    print(f"numba simulator:     {fast:,.0f} games/s ({args.games:,} games in {elapsed:.2f} s)")
    print(f"time for 1,000,000 games: {1_000_000 / fast:.2f} s (goal: under 60 s)")
    print(f"peak memory (max RSS): {peak_mib:.0f} MiB")
    print(f"speed-up simulator / plain-Python engine: {fast / baseline:,.0f}x")


if __name__ == "__main__":
    run_script(main)
