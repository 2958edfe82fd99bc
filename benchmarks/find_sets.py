"""Finding sets: the seed blog's fastest method against setlab's batch finder, same boards.

(a) the blog's method 4 (cards packed 8 bits, third card by bitwise logic, a 256-entry position
list, one board at a time in Python; cards kept packed as the blog's Card objects keep them) and
(b) setlab.find_sets_batch (numba, all cores) on the same random 12-card boards. Prints per-board
microseconds, the single-board API latency, peak memory, and last `speedup: X` = (a) / (b).
"""

from __future__ import annotations

from _common import Parser, run_script  # first: see _common.py

# isort: split
import resource
import timeit

import numpy as np

from setlab.blog import encode_bits, find_sets_packed
from setlab.find import count_sets, find_sets, find_sets_batch
from setlab.geometry import digits

BOARDS = 200_000
BASELINE_BOARDS = 5_000


def best_seconds(function, number: int, repeat: int = 5) -> float:
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def main() -> None:
    Parser(description=__doc__).parse_args()  # no options: --help, and nothing else
    rng = np.random.default_rng(2013)
    boards = rng.random((BOARDS, 81)).argsort(axis=1)[:, :12].astype(np.int64)
    vectors = digits(4).tolist()
    packed = [[encode_bits(vectors[c]) for c in board] for board in boards[:BASELINE_BOARDS]]

    def blog() -> list:
        return [find_sets_packed(board) for board in packed]

    offsets, sets = find_sets_batch(boards)  # compile / load the kernels before timing
    expected = blog()
    for b, found in enumerate(expected):
        assert [tuple(t) for t in sets[offsets[b] : offsets[b + 1]].tolist()] == found

    blog_us = best_seconds(blog, 1, 3) / BASELINE_BOARDS * 1e6
    batch_us = best_seconds(lambda: find_sets_batch(boards), 1, 5) / BOARDS * 1e6
    one = boards[0].tolist()
    find_us = best_seconds(lambda: find_sets(one), 2000) * 1e6
    count_us = best_seconds(lambda: count_sets(one), 2000) * 1e6
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(
        f"boards: {BOARDS:,} random 12-card boards (blog method on the first {BASELINE_BOARDS:,})"
    )
    print(f"(a) blog method 4, 8-bit cards + 256-list:  {blog_us:9.3f} us/board")
    print(f"(b) setlab find_sets_batch (all cores):     {batch_us:9.3f} us/board")
    print(f"single-board API, 12 cards: find_sets {find_us:.1f} us, count_sets {count_us:.1f} us")
    print(f"peak memory: {peak_mib:.0f} MiB")
    print(f"speedup: {blog_us / batch_us:.0f}")


if __name__ == "__main__":
    run_script(main)
