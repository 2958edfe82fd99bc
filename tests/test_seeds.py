"""The seed data of setlab.seeds agree with the tests' own copy; report/ never imports cli/."""

from __future__ import annotations

import ast
import itertools
from pathlib import Path

import seed_oracles as oracle
import setlab
from setlab import seeds


def test_paper_board_and_tables_match_the_tests_copy():
    assert list(seeds.PAPER_BOARD) == oracle.PAPER_BOARD
    assert dict(zip(range(3, 13), oracle.PAPER_TABLE_1, strict=True)) == seeds.TABLE_1
    assert dict(zip(range(3, 28), oracle.PAPER_TABLE_3, strict=True)) == seeds.TABLE_3
    times = dict(zip(range(3, 8), oracle.PAPER_TABLE_2_TIMES, strict=True))
    assert {n: text for n, (text, _) in seeds.TABLE_2.items()} == times
    # the seconds setlab reads off each time: exact where the paper gives more than a bound
    assert {n: s for n, (_, s) in seeds.TABLE_2.items()} == {
        3: None, 4: 6, 5: 4 * 60, 6: 60 * 60 + 33 * 60, 7: 29 * 3600 + 12 * 60,
    }  # fmt: skip
    seconds = dict(zip(range(3, 28), oracle.PAPER_TABLE_3_SECONDS, strict=True))
    assert seconds == seeds.TABLE_3_SECONDS
    readme = {(p, v): answer for p, v, answer in seeds.CAPSET_README_TABLE}
    assert readme == oracle.README_TABLE


def test_paper_configurations_match_and_hold_the_sets_they_state():
    by_sets = {c.sets: list(c.cards) for c in seeds.PAPER_CONFIGURATIONS}
    for stated, cards in oracle.PAPER_CONFIGURATIONS.items():
        assert by_sets[stated] == cards
    assert by_sets[14] == oracle.PAPER_BOARD
    for configuration in seeds.PAPER_CONFIGURATIONS:
        vectors = [tuple(int(d) for d in card) for card in configuration.cards]
        # independent count: three distinct points are a line iff they sum to 0 mod 3
        lines = sum(
            all(sum(column) % 3 == 0 for column in zip(*triple, strict=True))
            for triple in itertools.combinations(vectors, 3)
        )
        assert lines == configuration.sets, configuration.where
        assert configuration.sets == seeds.TABLE_1[len(vectors)]


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_report_imports_nothing_from_the_cli():
    report = Path(setlab.__file__).parent / "report"
    files = sorted(report.rglob("*.py"))
    assert len(files) > 5
    for path in files:
        bad = [name for name in _imports(path) if name.split(".")[:2] == ["setlab", "cli"]]
        assert bad == [], f"{path.name} imports {bad}"
