"""The variants' finders against a plain itertools search over every subset, on the same boards.

For UltraSet (12-card boards), GhostSet (10), 4Set (15) and the 4-valued set of 4 cards (12):
(a) itertools.combinations over the board, each subset tested property by property on digit
tuples, one board at a time in Python; (b) setlab.variants.find_structures_batch (numba, all
cores); (c) the single-board API. Both answers are compared board by board. Prints
microseconds per board, peak memory, and `speedup: X` = (a) / (b) per variant.
"""

from __future__ import annotations

from _common import Parser, run_script  # first: see _common.py

# isort: split
import itertools
import resource
import timeit

import numpy as np

from setlab.variants import find_structures, find_structures_batch

BOARDS = 50_000
BASELINE_BOARDS = 500


def ultra(w):
    a, b, c, d = w
    return any(
        all((x + y - z - t) % 3 == 0 for x, y, z, t in zip(p, q, r, s, strict=True))
        for p, q, r, s in ((a, b, c, d), (a, c, b, d), (a, d, b, c))
    )


def ghost(w):
    return all(sum(column) % 3 == 0 for column in zip(*w, strict=True))


def four(w):
    return all(
        sorted(column.count(v) for v in set(column)) in ([4], [1, 1, 1, 1], [2, 2])
        for column in zip(*w, strict=True)
    )


def valued4(w):
    return all(len(set(column)) in (1, 4) for column in zip(*w, strict=True))


CASES = [  # name, values, board size, structure size, rule, V passed to the finder
    ("ultra", 3, 12, 4, ultra, None),
    ("ghost", 3, 10, 6, ghost, None),
    ("4set", 4, 15, 4, four, None),
    ("set", 4, 12, 4, valued4, 4),
]


def plain_search(board_words, size, rule):
    return [
        combo
        for combo in itertools.combinations(range(len(board_words)), size)
        if rule([board_words[i] for i in combo])
    ]


def best_seconds(function, number: int, repeat: int = 3) -> float:
    return min(timeit.repeat(function, number=number, repeat=repeat)) / number


def main() -> None:
    Parser(description=__doc__).parse_args()  # no options: --help, and nothing else
    rng = np.random.default_rng(14)
    properties = 4
    print(f"{BOARDS:,} random boards per variant (itertools on the first {BASELINE_BOARDS:,})")
    for name, values, k, size, rule, v in CASES:
        n = values**properties
        boards = rng.random((BOARDS, n)).argsort(axis=1)[:, :k].astype(np.int64)
        place = values ** np.arange(properties - 1, -1, -1)
        words = [
            [tuple(((c // place) % values).tolist()) for c in b] for b in boards[:BASELINE_BOARDS]
        ]

        def plain(words=words, size=size, rule=rule) -> list:
            return [plain_search(w, size, rule) for w in words]

        offsets, rows = find_structures_batch(boards, name, properties, v)  # compile first
        for b, found in enumerate(plain()):
            assert [tuple(r) for r in rows[offsets[b] : offsets[b + 1]].tolist()] == found
        plain_us = best_seconds(plain, 1) / BASELINE_BOARDS * 1e6
        args = (name, properties, v)
        batch_us = best_seconds(lambda b=boards, a=args: find_structures_batch(b, *a), 1)
        batch_us *= 1e6 / BOARDS
        one = boards[0].tolist()
        single_us = best_seconds(lambda b=one, a=args: find_structures(b, *a), 500) * 1e6
        mean = len(rows) / BOARDS
        label = f"{name}{'' if v is None else f' V={v}'}, {k} cards"
        print(f"{label:18s} plain itertools {plain_us:9.1f} us/board | batch {batch_us:7.3f} "
              f"us/board | one board {single_us:6.1f} us | {mean:.3f} per board | "
              f"speedup: {plain_us / batch_us:.0f}")  # fmt: skip
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory: {peak_mib:.0f} MiB")


if __name__ == "__main__":
    run_script(main)
