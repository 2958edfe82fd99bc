"""The count of ``benchmarks/large_caps.py`` (research): the minima just past the largest cap
from a classification of the caps near it, checked where the answers are known (AG(3,3): the
paper's Table 3) and against configurations built and counted here by hand."""

from __future__ import annotations

import itertools

import pytest

import standalone
from seed_oracles import PAPER_TABLE_3
from setlab.extremal.bigcaps import best_construction, complete_42_cap
from setlab.geometry import indices_of

large_caps = standalone.load(standalone.ROOT / "benchmarks" / "large_caps.py")


def sets_by_hand(cards: list[tuple[int, ...]]) -> int:
    """Triples of distinct cards whose every property sums to 0 mod 3."""
    return sum(
        all(sum(column) % 3 == 0 for column in zip(*triple, strict=True))
        for triple in itertools.combinations(cards, 3)
    )


def cap_times_line_minus(cap, removed: int) -> list[tuple[int, ...]]:
    """C x AG(1,3) (its sets: the |C| lines {c} x F_3) with one card taken from ``removed`` of
    those lines: |C| - removed sets."""
    cards = [(*c, i) for c in map(tuple, cap.tolist()) for i in range(3)]
    return [x for k, x in enumerate(cards) if k % 3 or k >= 3 * removed]


def test_ag33_bounds_are_the_papers_minima_and_never_above_them() -> None:
    # The 9-cap is unique and two 8-cap classes are complete (t = 0). The paper's Table 3 gives
    # the minima by the complement identity m(n) = 117 - n(27 - n)/2 - M(27 - n).
    assert large_caps.classified_depth(3) == 0
    bounds = large_caps.implied_minima(3, 0, 9)
    minima = {n: 117 - n * (27 - n) // 2 - PAPER_TABLE_3[27 - n - 3] for n in range(10, 19)}
    assert [bound for _, _, bound in bounds[:3]] == [minima[n] for n in (10, 11, 12)] == [2, 3, 4]
    assert all(bound <= minima[n] for n, _, bound in bounds)


@pytest.mark.slow
def test_ag43_every_19_cap_lies_in_the_20_cap() -> None:
    # setlab's classification of every cap of AG(4,3) (about 30 s alone): t = 1
    assert large_caps.classified_depth(4) == 1


def test_ag43_bounds_meet_witnesses_counted_by_hand() -> None:
    # With t = 1 (every 19-cap lies in the unique 20-cap: the slow test above, and the
    # literature), the bound for n = 20 + j must never pass a real configuration, and the 9-cap
    # times a line, minus cards, reaches it: m_4(21..27) = 3..9.
    bounds = large_caps.implied_minima(4, 1, 7)
    nine = best_construction(3)
    for (n, _, bound), j in zip(bounds, range(1, 8), strict=True):
        witness = cap_times_line_minus(nine, 7 - j)
        assert len(witness) == n and sets_by_hand(witness) == bound == j + 2


@pytest.mark.slow
def test_ag53_what_the_literature_would_give_against_witnesses() -> None:
    # Assumed (not checked here): caps of 43 cards or more lie in the 45-cap (t = 2); then also
    # that the 42-caps outside it are copies of setlab's complete 42-cap; or (false, that cap
    # shows it) that caps of 41 or more lie in the 45-cap (t = 4). The bounds never pass the
    # witnesses: the 45-cap plus a card (5 sets) and the 20-cap times a line minus 15 - j cards
    # (j + 5 sets); with the complete 42-cap they meet m(46) = 5, with t = 4 every witness.
    twenty = best_construction(4)
    hill = [tuple(c) for c in best_construction(5).tolist()]
    off = next(c for c in itertools.product(range(3), repeat=5) if c not in set(hill))
    witnesses = {46: sets_by_hand([*hill, off])}
    witnesses |= {45 + j: sets_by_hand(cap_times_line_minus(twenty, 15 - j)) for j in range(2, 16)}
    assert witnesses == {46: 5} | {45 + j: j + 5 for j in range(2, 16)}
    assert [b for _, _, b in large_caps.implied_minima(5, 2, 15)] == [j + 3 for j in range(1, 16)]
    other = indices_of(complete_42_cap()).tolist()
    with_42 = [b for _, _, b in large_caps.implied_minima(5, 2, 15, (other,))]
    assert with_42 == [j + 4 for j in range(1, 16)] and with_42[0] == witnesses[46]
    assert [b for _, _, b in large_caps.implied_minima(5, 4, 15)] == list(witnesses.values())


def test_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert large_caps.main(["--properties", "six"]) == 2
    assert large_caps.main(["--properties", "4", "--assume", "2"]) == 2
    assert large_caps.main(["--assume", "9"]) == 2
    assert large_caps.main(["--properties", "3", "--up-to", "20"]) == 2  # 18 cards off the 9-cap
    assert large_caps.main(["--assume", "3", "--with-complete-42"]) == 2  # t = 2 only
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 5 and all(line.startswith("error: ") for line in err)
