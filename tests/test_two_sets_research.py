"""The two-set fibre split of ``benchmarks/two_sets_p5.py`` (research, verdicts only), checked
where the answers are known: the minima of AG(3,3) and AG(4,3) (the paper's Table 3 and setlab's
proven P = 4 table), and its boards recounted by a plain loop over triples."""

from __future__ import annotations

import itertools
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

import standalone
from setlab.store import Store

pytest.importorskip("pysat")
pytest.importorskip("pynauty")

two_sets = standalone.load(standalone.ROOT / "benchmarks" / "two_sets_p5.py")


def sets_by_hand(board: list[int], properties: int) -> int:
    """Triples of cards whose every property sums to 0 mod 3 (card c's digits in base 3)."""
    def digits(card: int) -> list[int]:
        return [card // 3**i % 3 for i in range(properties)]

    return sum(
        all(sum(column) % 3 == 0 for column in zip(*map(digits, triple), strict=True))
        for triple in itertools.combinations(board, 3)
    )


def verdicts(properties: int, cards: int, split: bool) -> list[tuple]:
    space = two_sets.Space(properties)
    return [
        two_sets.decide((properties, cards, shape, cap, full, True,
                         split and shape == "crossing", 1))
        for shape, cap, full in two_sets.cases(space, cards, {"crossing", "parallel"})
    ]


def test_no_21_cards_of_ag43_hold_two_sets_in_any_case() -> None:
    # m_4(21) >= 3, by hand: take a card of each set away and a cap of 19 cards or more is left,
    # which lies in a 20-cap K (the classification of the caps of AG(4,3), tests/test_caps.py);
    # each card off K lies on 3 or 10 of its secants (counted by plain loops there), at most one
    # of them through a card of K that is missing, so the cards put back make 3 sets or more.
    # So every case is refuted, split or whole.
    for split in (False, True):
        results = verdicts(4, 21, split)
        assert results and {r[4] for r in results} == {"UNSAT"}


def test_20_cards_of_ag43_and_10_of_ag33_with_two_sets_are_found_and_recounted() -> None:
    # m_4(20) = 0 and m_3(10) = 2 (the paper's Table 3): boards of two sets exist. The split
    # (one conflict a node, so it splits everywhere) must agree with the whole CNF case by case.
    # The whole CNF allows one set or two, but one is impossible here: m_3(10) = 2, and 20 cards
    # of AG(4,3) with one set would be a 19-cap, so K minus a card (as above), and a card on 3 or
    # 10 secants of K, at most one of them lost: 2 sets or more.
    for properties, cards in ((4, 20), (3, 10)):
        whole, split = verdicts(properties, cards, False), verdicts(properties, cards, True)
        assert [r[4] for r in whole] == [r[4] for r in split]
        boards = [r[8] for r in whole + split if r[8] is not None]
        assert boards
        for board in boards:
            assert len(set(board)) == cards
            assert sets_by_hand(board, properties) == 2


def test_no_case_of_11_cards_of_ag33() -> None:
    # m_3(11) = 3: no room for the singles in any case.
    assert two_sets.cases(two_sets.Space(3), 11, {"crossing", "parallel"}) == []


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert two_sets.main(["--properties", "6"]) == 2
    assert two_sets.main(["--k", "six"]) == 2
    assert two_sets.main(["--scheduler", "http://node7"]) == 2
    assert two_sets.main(["--store", str(tmp_path)]) == 2  # a directory, not a store

    def readonly(*args: object) -> int:  # the store refuses a checkpoint mid-run
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(two_sets, "run", readonly)
    assert two_sets.main(["--properties", "3", "--cards", "10"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 5 and all(line.startswith("error: ") for line in err)


def test_a_stored_run_resumes_without_redoing_a_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Every verdict goes to the store as it comes in; a rerun decides nothing again and prints
    # the same table (the cases' verdicts, conflicts and splits come back from the file).
    store = str(tmp_path / "verdicts.sqlite")
    argv = ["--properties", "4", "--cards", "21", "--workers", "1", "--store", store]
    assert two_sets.main(argv) == 0
    first = capsys.readouterr().out
    job = two_sets.job_name(SimpleNamespace(properties=4, cards=21, no_rows=False,
                                            split_below=6, budget=5000))
    stored = Store(store).finished_tasks(job)  # setlab.executor.run_tasks's checkpoints
    assert stored and {payload[4] for payload in stored.values()} == {"UNSAT"}
    assert two_sets.main(argv) == 0
    second = capsys.readouterr().out
    assert f"{len(stored)} cases decided in an earlier run" in second
    assert "0 to go" in second

    def table(out: str) -> list[str]:
        return [line for line in out.splitlines() if line.startswith((" crossing", " parallel"))]

    assert table(first) == table(second) and len(table(first)) >= 2
