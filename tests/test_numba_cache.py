"""numba's cache as setlab prepares it (``setlab.numba_cache``): a read-only install and home
still import and run, and processes that share a cache neither give two bodies one name nor
overwrite each other's entries.

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


RACY = """
import numba


@numba.njit(cache=True)
def twice(x):
    return x + x
"""

SAVE_SLOWLY = """
import sys, time
import setlab
import numba.core.caching as caching

pause_index, pause_data, value = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
index_file = caching.IndexDataCacheFile
save_index, save_data = index_file._save_index, index_file._save_data
index_file._save_index = lambda self, *a: (time.sleep(pause_index), save_index(self, *a))
index_file._save_data = lambda self, *a: (time.sleep(pause_data), save_data(self, *a))
import racy
print(racy.twice(int(value) if value.isdigit() else float(value)))
"""


def test_two_processes_saving_one_function_at_once_leave_the_cache_right(tmp_path):
    # Two processes compile twice() for an int and for a float and save them at the same time,
    # slowed down so that, unlocked, the int's index entry would name the file that the float's
    # code lands in last. Under setlab's lock the saves take turns, and a third process loads
    # the int's code for the int.
    (tmp_path / "racy.py").write_text(RACY)
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "NUMBA_CACHE_DIR": str(tmp_path / "c")}
    run = [sys.executable, "-c", SAVE_SLOWLY]
    first = subprocess.Popen([*run, "1.0", "0", "21"], env=env, stdout=subprocess.PIPE)
    second = subprocess.Popen([*run, "0.3", "1.2", "2.5"], env=env, stdout=subprocess.PIPE)
    assert [p.communicate()[0].split() for p in (first, second)] == [[b"42"], [b"5.0"]]
    third = subprocess.run([*run, "0", "0", "21"], env=env, capture_output=True, text=True)
    assert third.stdout.split() == ["42"], third.stderr
