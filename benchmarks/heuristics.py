"""CMM with incremental pair counts vs the paper's pseudocode recounting every candidate; and the
local search's best number of sets per n for P = 4 against CMM, in a fixed budget per n.

The baseline follows Algorithms 1-2 of Stevens & Wilson literally: at every greedy turn it
recounts the sets of selected + {c} for every unselected card c (CountNewSets), each recount by
setlab's own numba set counter over the whole board (all boards of one turn in one batch call),
with the same tie-break rules as setlab.extremal.heuristics.cmm; both must select the same cards.
Both run on one thread (setlab's CMM is sequential; the batch counter is pinned to one thread so
the ratio does not depend on how busy the other cores are).

Usage: python benchmarks/heuristics.py [--seconds S]   (S: local-search budget per n, default 0.2)
"""

from __future__ import annotations

from _common import Parser, in_range, run_script  # first: see _common.py

# isort: split
import resource
import time

import numba
import numpy as np

from setlab.extremal.heuristics import CUBE_SIZE, cmm, local_search
from setlab.find import count_sets_batch
from setlab.geometry import third_card_table


def cmm_by_recounting(properties: int) -> np.ndarray:
    """Algorithm 1 as written: CountNewSets(selected + {c}) recounted for every candidate c."""
    n = 3**properties
    cubes = n // CUBE_SIZE
    third = third_card_table(properties)
    order: list[int] = []
    selected = np.zeros(n, dtype=bool)

    def first_available(cube: int) -> int:
        return next(c for c in range(cube * CUBE_SIZE, (cube + 1) * CUBE_SIZE) if not selected[c])

    for turn in range(1, n + 1):
        if turn == 1:
            card = first_available(0)
        elif turn == 2:
            card = first_available(1 if cubes > 1 else 0)
        elif turn == 3:
            card = int(third[order[0], order[1]])
        else:
            card = -1
            if (turn - 1) % 3 == 0 and (turn - 1) // 3 <= properties - 1:
                unused = [k for k in range(cubes) if not selected[k * 9 : k * 9 + 9].any()]
                card = unused[0] * CUBE_SIZE if unused else -1
            if card < 0:
                candidates = np.flatnonzero(~selected)
                boards = np.empty((len(candidates), turn), dtype=np.int64)
                boards[:, :-1] = order
                boards[:, -1] = candidates
                counts = count_sets_batch(boards, properties)
                best = 0
                for i in range(1, len(candidates)):
                    if counts[i] > counts[best] or (
                        counts[i] == counts[best]
                        and candidates[i] // CUBE_SIZE != order[-1] // CUBE_SIZE
                    ):
                        best = i
                card = int(candidates[best])
        order.append(card)
        selected[card] = True
    return np.array(order)


def best_time(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--seconds", type=in_range(float, 0.01, 60), default=0.2,
                        help="local-search budget per n (default 0.2)")
    args = parser.parse_args()

    numba.set_num_threads(1)
    cmm(2), cmm(4), cmm_by_recounting(2)  # compile / load the numba kernels
    ratios = {}
    print("CMM, whole nested sequence n = 1..3^P (best of repeated runs)")
    print(f"{'P':>2} {'setlab cmm':>12} {'recount baseline':>17} {'ratio':>9}")
    for properties in (4, 5):
        assert (cmm(properties).order == cmm_by_recounting(properties)).all()
        fast = best_time(lambda p=properties: cmm(p), 20)
        slow = best_time(lambda p=properties: cmm_by_recounting(p), 3 if properties == 4 else 2)
        ratios[properties] = slow / fast
        print(f"{properties:>2} {fast * 1e3:10.3f}ms {slow * 1e3:15.1f}ms {slow / fast:8.0f}x")

    sequence = cmm(4).sets
    print(f"\nLocal search (max) for P = 4, {args.seconds:g} s per n, seed 0, vs CMM")
    print(f"{'n':>3} {'CMM':>5} {'search':>7} {'gain':>5} {'restarts':>9}")
    better = []
    for n in range(3, 79):
        result = local_search(4, n, seconds=args.seconds, seed=0)
        gain = result.sets - int(sequence[n])
        if gain:
            better.append(n)
        print(f"{n:>3} {sequence[n]:>5} {result.sets:>7} {gain:>+5} {result.restarts:>9}")
    print(f"local search beats CMM at n = {better}, never falls below it")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")
    print(f"CMM for P = 5: incremental counts {ratios[5]:.0f}x faster than recounting candidates")


if __name__ == "__main__":
    run_script(main)
