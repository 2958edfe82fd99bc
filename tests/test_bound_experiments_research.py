"""``benchmarks/p5_bound_experiments.py`` (research, not in the solver) reads its tables through
the results store and refuses what it cannot use with one line and exit 2, before any program."""

from __future__ import annotations

from pathlib import Path

import pytest

import standalone
from setlab.store import Store

experiments = standalone.load(standalone.ROOT / "benchmarks" / "p5_bound_experiments.py")


def test_proven_table_keeps_the_proven_values_of_one_problem_and_p(tmp_path: Path) -> None:
    with Store(tmp_path / "s.sqlite") as store:
        store.record_witness("maxsets", 3, 4, "max", 1, [0, 1, 2, 3], "test")
        store.record_bound("maxsets", 3, 4, "max", 1, {"method": "test"}, "test")
        store.record_witness("maxsets", 3, 5, "max", 1, [0, 1, 2, 3, 4], "test")  # not proven
        store.record_witness("minsets", 3, 4, "min", 0, [0, 1, 3, 4], "test")
        store.record_bound("minsets", 3, 4, "min", 0, {"method": "test"}, "test")
        assert experiments.proven_table(store, "maxsets", 3) == {4: 1}
        assert experiments.proven_table(store, "minsets", 3) == {4: 0}
        assert experiments.proven_table(store, "maxsets", 4) == {}


def test_bad_input_is_one_line_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    partial = tmp_path / "partial.sqlite"
    with Store(partial) as store:  # no P = 3 table in it, nor a whole P = 4 table
        store.record_witness("maxsets", 4, 3, "max", 1, [0, 1, 2], "test")
    assert experiments.main([]) == 2
    assert experiments.main([str(tmp_path / "missing.sqlite")]) == 2
    assert experiments.main([str(partial), "n140"]) == 2
    assert experiments.main([str(partial), "140"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 4 and all(line.startswith("error: ") for line in err)
