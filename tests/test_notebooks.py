"""The notebooks run: every code cell in order, each picture a cell shows is valid SVG, and the
outputs they ship with (written by notebooks/execute.py) are those of a fresh run."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest

import standalone

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
execute = standalone.load(standalone.ROOT / "notebooks" / "execute.py")


def test_there_is_a_notebook():
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_and_ships_the_outputs_of_a_fresh_run(path):
    notebook = json.loads(path.read_text())
    namespace, fresh = execute.run_cells(notebook)
    shipped = [cell.get("outputs", []) for cell in notebook["cells"] if cell["cell_type"] == "code"]
    pictures = 0
    for mine, theirs in zip(shipped, fresh, strict=True):
        # the same outputs, kind by kind; printed text exactly as a fresh run prints it
        assert [o["output_type"] for o in mine] == [o["output_type"] for o in theirs]
        for old, new in zip(mine, theirs, strict=True):
            if old["output_type"] == "stream":
                assert old["text"] == new["text"]
            elif "image/svg+xml" in new["data"]:
                pictures += 1
                for svg in (old["data"]["image/svg+xml"], new["data"]["image/svg+xml"]):
                    assert ET.fromstring("".join(svg)).tag.endswith("svg")
    assert pictures
    if path.name == "tour.ipynb":
        assert len(namespace["sets"]) == 5 and namespace["c"].name == "3 purple solid diamonds"
        assert namespace["best"].value == 16 and namespace["best"].proven
        assert namespace["p"] == Fraction(325432404, 10074689485)
        printed = "".join(t for cell in fresh for o in cell if o["output_type"] == "stream"
                          for t in o["text"])  # fmt: skip
        assert "first round odds against no set" in printed
