"""numba's cache where setlab cannot write: a read-only install and home still import and run.

Root may write anywhere, so "read-only" is made here the way it fails for anyone: each
``__pycache__`` of a copy of the package is a file, not a directory, and the user's cache
directory lies under /proc, where no one can create one.
"""

from __future__ import annotations

import itertools
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


NUMBERS = """
import itertools
import os
{imports}
from numba.core.bytecode import FunctionIdentity
print(next(FunctionIdentity._unique_ids), flush=True)
child = os.fork()
if child == 0:
    print(next(FunctionIdentity._unique_ids), flush=True)
    os._exit(0)
os.waitpid(child, 0)
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_no_two_processes_number_numbas_functions_alike():
    # numba names a compiled function by its qualified name, argument types and a number; two
    # processes that hand out the same numbers give two bodies one name once cached code meets
    # fresh code (split._middle_types once sorted with np.argsort's quicksort). setlab starts
    # the numbering at random in every process and in every forked child, whether numba is
    # imported before setlab or after it.
    numbers = []
    for imports in ("import setlab, numba", "import numba, setlab", "import setlab, numba"):
        done = subprocess.run(
            [sys.executable, "-c", NUMBERS.format(imports=imports)],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        numbers += [int(line) for line in done.stdout.split()]
    assert len(numbers) == 6
    assert all(abs(a - b) > 10**9 for a, b in itertools.combinations(numbers, 2)), numbers
