"""The shape of the house (docs/architecture.md): every import arrow runs down, none is private.

Each module of ``src/setlab`` gets the floor of its package below; a module may import from its
own floor or lower, and from its own floor only within its own package (so the algorithms of
``extremal`` and the game code do not lean on each other sideways, except the one arrow the
docs name: the game's exact odds come from cap counting). The package root ``setlab`` is a
facade that imports its names lazily; it stands on the ground floor.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "src"

FLOORS = {
    "setlab": 0,
    "setlab.errors": 0,
    "setlab.numba_cache": 0,
    "setlab.interrupts": 0,
    "setlab.cards": 1,
    "setlab.seeds": 1,
    "setlab.files": 1,
    "setlab.geometry": 2,
    "setlab.kernels": 2,
    "setlab.find": 3,
    "setlab.symmetry": 3,
    "setlab.blog": 3,
    "setlab.variants": 3,
    "setlab.store": 4,
    "setlab.executor": 5,
    "setlab.render": 6,
    "setlab.extremal": 7,
    "setlab.game": 8,
    "setlab.certificates": 8,
    "setlab.bundle": 9,
    "setlab.proofcheck": 0,  # data: the standalone checker, never imported by setlab
    "setlab.report": 9,
    "setlab.cli": 10,
    "setlab.web": 10,
    "setlab.__main__": 11,
}
"""The floor of each package or top-level module, from the ground up."""


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SOURCE).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _home(module: str) -> str:
    """The entry of FLOORS that ``module`` belongs to (its longest prefix there)."""
    parts = module.split(".")
    if module == "setlab":
        return module
    for end in range(len(parts), 1, -1):
        if ".".join(parts[:end]) in FLOORS:
            return ".".join(parts[:end])
    raise AssertionError(f"{module} has no floor: add its package to FLOORS and the docs")


def _imports() -> list[tuple[str, str, list[str]]]:
    """(importing module, imported module, names) for every setlab import in src/setlab."""
    out = []
    for path in sorted((SOURCE / "setlab").rglob("*.py")):
        module = _module_name(path)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                if node.module.split(".")[0] == "setlab":
                    out.append((module, node.module, [a.name for a in node.names]))
            elif isinstance(node, ast.Import):
                out.extend(
                    (module, a.name, []) for a in node.names if a.name.split(".")[0] == "setlab"
                )
    return out


IMPORTS = _imports()


def test_the_walk_finds_the_house():
    importers = {module for module, _, _ in IMPORTS}
    assert {"setlab.find", "setlab.extremal.search", "setlab.cli"} <= importers
    assert len(IMPORTS) > 100


SIDEWAYS = {
    ("setlab.game", "setlab.extremal"),
    ("setlab.cli", "setlab.web"),
    ("setlab.variants", "setlab.find"),
}
"""Arrows between two packages on neighbouring floors that the docs name (higher -> lower)."""


@pytest.mark.parametrize("importer", sorted({m for m, _, _ in IMPORTS} - {"setlab"}))
def test_every_arrow_runs_down(importer):
    for module, target, _ in IMPORTS:
        if module != importer:
            continue
        home, there = _home(module), _home(target)
        if home == there or (home, there) in SIDEWAYS:
            continue
        assert FLOORS[there] < FLOORS[home], f"{module} imports {target}: that arrow runs up"


def test_no_module_imports_a_private_name_of_another():
    private = [
        (module, target, name)
        for module, target, names in IMPORTS
        for name in names
        if name.startswith("_") and not name.startswith("__")
    ]
    assert private == []


def test_report_and_algorithms_never_import_the_command_line():
    assert [
        m
        for m, target, _ in IMPORTS
        if target.startswith("setlab.cli")
        and not m.startswith("setlab.cli")
        and m != "setlab.__main__"
    ] == []
