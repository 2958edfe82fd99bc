"""numba's cache where setlab cannot write: a read-only install and home still import and run.

Root may write anywhere, so "read-only" is made here the way it fails for anyone: each
``__pycache__`` of a copy of the package is a file, not a directory, and the user's cache
directory lies under /proc, where no one can create one.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import setlab

SCRIPT = """
import numba, setlab
import setlab.kernels, setlab.find, setlab.game.simulator, setlab.extremal.caps
print(numba.config.CACHE_DIR)
print(setlab.count_sets_batch([[0, 1, 2], [0, 1, 3]], 2).tolist())
"""


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="needs /proc")
def test_a_read_only_install_and_home_fall_back_to_a_temporary_cache(tmp_path):
    copy = tmp_path / "site" / "setlab"
    shutil.copytree(
        Path(setlab.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    for package in [copy, *(p for p in copy.rglob("*") if p.is_dir())]:
        (package / "__pycache__").write_text("")  # no cache can be made beside the source
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("NUMBA_CACHE")},
        "PYTHONPATH": str(copy.parent),
        "HOME": "/proc/no-home",
        "XDG_CACHE_HOME": "/proc/no-cache",
        "TMPDIR": str(tmp_path / "tmp"),
    }
    (tmp_path / "tmp").mkdir()
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, env=env, cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    cache, counts = done.stdout.splitlines()
    assert Path(cache).parent == tmp_path / "tmp" and cache.startswith(str(tmp_path))
    assert counts == "[1, 0]"  # and the kernels compiled and ran
    assert any(Path(cache).rglob("*.nbi"))  # their cache is in the temporary directory
