"""Helpers of the report tests: read a report's claims back, run sections on their own store."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import pytest

from setlab.report import Report, build_report


def claim_rows(html: str) -> dict[str, str]:
    """Statement -> data-value of setlab's number, from the claims tables of index.html."""
    rows = re.findall(r"<tr><td>(.*?)</td><td>.*?</td><td><span[^>]*data-value=\"([^\"]*)\"", html)
    return dict(rows)


def quick_run(out: Path, store_path: Path, section: ModuleType) -> Report:
    """``setlab reproduce --quick`` of one section into ``out``, on the results store given."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SETLAB_STORE", str(store_path))
        return build_report(out, sections=[section], quick=True, progress=False)
