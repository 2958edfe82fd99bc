"""The notebooks run: every code cell in order, each picture a cell shows is valid SVG."""

from __future__ import annotations

import ast
import json
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def run_notebook(path: Path) -> tuple[dict, list[object]]:
    """Execute the code cells of ``path`` in one namespace, as Jupyter would: (namespace, the
    value of each cell ending in an expression)."""
    namespace: dict = {"__name__": "__main__"}
    shown = []
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        if last is not None:
            tree.body.pop()
        exec(compile(tree, str(path), "exec"), namespace)
        if last is not None:
            shown.append(eval(compile(ast.Expression(last.value), str(path), "eval"), namespace))
    return namespace, shown


def test_there_is_a_notebook():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_and_its_pictures_are_svg(path, capsys):
    namespace, shown = run_notebook(path)
    pictures = [value for value in shown if hasattr(value, "_repr_svg_")]
    assert pictures
    for picture in pictures:
        assert ET.fromstring(picture._repr_svg_()).tag.endswith("svg")
    if path.name == "tour.ipynb":
        assert len(namespace["sets"]) == 5 and namespace["c"].name == "3 purple solid diamonds"
        assert namespace["best"].value == 16 and namespace["best"].proven
        assert namespace["p"] == Fraction(325432404, 10074689485)
        assert "first round odds against no set" in capsys.readouterr().out
