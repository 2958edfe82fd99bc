"""Run a notebook's code cells in order, as Jupyter would, and store their outputs in it.

    python notebooks/execute.py [NOTEBOOK ...]     (default: every notebook beside this file)

The notebooks ship with their outputs (printed text and pictures as SVG), so they read on GitHub
or in any viewer without running them; no Jupyter is needed to produce them. A cell's printed
text becomes a stream output, and the value of a cell ending in an expression its result: a
picture (anything with ``_repr_svg_``, as setlab's drawings) as ``image/svg+xml``.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def run_cells(notebook: dict[str, Any]) -> tuple[dict[str, Any], list[list[dict[str, Any]]]]:
    """Execute the code cells in one namespace: (namespace, the outputs of each code cell)."""
    namespace: dict[str, Any] = {"__name__": "__main__"}
    outputs = []
    count = 0
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code":
            continue
        count += 1
        tree = ast.parse("".join(cell["source"]))
        last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(tree, "<cell>", "exec"), namespace)
            value = None
            if last is not None:
                value = eval(compile(ast.Expression(last.value), "<cell>", "eval"), namespace)
        cell_outputs: list[dict[str, Any]] = []
        if printed.getvalue():
            text = printed.getvalue().splitlines(keepends=True)
            cell_outputs.append({"output_type": "stream", "name": "stdout", "text": text})
        if value is not None:
            if hasattr(value, "_repr_svg_"):  # a picture: its SVG, and a short text stand-in
                data = {
                    "text/plain": [f"<{type(value).__name__}: a picture>"],
                    "image/svg+xml": value._repr_svg_().splitlines(keepends=True),
                }
            else:
                data = {"text/plain": [repr(value)]}
            cell_outputs.append(
                {"output_type": "execute_result", "execution_count": count, "data": data,
                 "metadata": {}}
            )  # fmt: skip
        outputs.append(cell_outputs)
    return namespace, outputs


def with_outputs(notebook: dict[str, Any]) -> dict[str, Any]:
    """The notebook with every code cell's outputs and execution count as a fresh run gives."""
    _, outputs = run_cells(notebook)
    code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
    for count, (cell, cell_outputs) in enumerate(zip(code, outputs, strict=True), 1):
        cell["outputs"] = cell_outputs
        cell["execution_count"] = count
    return notebook


def main(paths: list[str]) -> int:
    for path in [Path(p) for p in paths] or sorted(HERE.glob("*.ipynb")):
        notebook = with_outputs(json.loads(path.read_text()))
        path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n")
        print(f"wrote {path} with its outputs")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
