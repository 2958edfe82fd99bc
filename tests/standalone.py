"""Load a standalone file (a checker of the proof bundle, a research script of ``benchmarks/``,
the notebooks' runner) as a module from its path, the way it runs: not through the package."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load(path: Path, name: str | None = None) -> ModuleType:
    """The module of the file at ``path``, registered as ``name`` (default: the file's stem) so
    that dataclasses and pickling (worker processes) find it."""
    name = name or path.stem
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
