"""numba's cache, made safe for setlab: writable, and shared by several processes without harm.

setlab's kernels are compiled by numba with ``cache=True``: compiled once, then loaded from
files beside the source (or in the user's cache directory) by every later process. Three
things can go wrong with that, and :func:`prepare_numba` mends each on ``import setlab``,
before numba is imported and without importing it:

- no writable cache directory (a read-only install and home): numba's decorator raises at
  import. :func:`_writable_cache` points ``NUMBA_CACHE_DIR`` into the temporary directory.
- two bodies under one symbol name: numba numbers compiled functions from 1 in every process,
  and code loaded from the cache keeps the numbers of the process that compiled it (numba
  issue #10486). :func:`_restart_numba_ids` starts the numbering at random in every process.
- two processes saving one function at once: each takes the first free file number.
  :func:`_lock_numba_cache` makes them take turns.

References
----------
.. [1] numba issue #10486, "Compile error when loading code cached by a fork",
   https://github.com/numba/numba/issues/10486
"""

from __future__ import annotations

import importlib.machinery
import itertools
import os
import sys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (see setlab.__init__)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["prepare_numba"]

_prepared = False


def prepare_numba() -> None:
    """Make numba's cache writable and safe for several processes; once per process.

    Examples
    --------
    >>> import numba.core.bytecode
    >>> prepare_numba()  # done on ``import setlab``; again, it does nothing
    >>> next(numba.core.bytecode.FunctionIdentity._unique_ids) > 2**32  # not 1, 2, 3, ...
    True
    """
    global _prepared
    if _prepared:
        return
    _prepared = True
    _writable_cache()
    _safe_for_processes()


def _writable(directory: str) -> bool:
    """Whether files can be created in ``directory`` (made if missing), as numba checks it."""
    probe = os.path.join(directory, f".setlab-probe-{os.getpid()}")
    try:
        os.makedirs(directory, exist_ok=True)
        os.close(os.open(probe, os.O_CREAT | os.O_EXCL | os.O_WRONLY))
        os.unlink(probe)
    except OSError:
        return False
    return True


def _writable_cache() -> None:
    """Give numba a writable cache when it would find none.

    The kernels are compiled with ``cache=True``; numba caches beside the source, else in the
    user's cache directory, and with neither writable (a read-only install and home) the
    decorator raises at import. Then ``NUMBA_CACHE_DIR`` is set to a directory in the temporary
    directory, so setlab still works (compiling once per such directory). Runs on ``import
    setlab``, before any module imports numba; a few file-system calls, nothing when all is well.
    """
    chosen = os.environ.get("NUMBA_CACHE_DIR")
    if chosen and _writable(chosen):
        return
    if _writable(os.path.join(os.path.dirname(__file__), "__pycache__")):  # numba's next choice
        return
    home = os.path.expanduser("~")
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(home, ".cache")
    if home != "~" and _writable(os.path.join(cache, "numba")):  # and then the user's
        return
    import tempfile

    uid = os.getuid() if hasattr(os, "getuid") else 0
    os.environ["NUMBA_CACHE_DIR"] = os.path.join(tempfile.gettempdir(), f"setlab-numba-{uid}")
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba already imported: make it read the variable again
        config.reload_config()


def _restart_numba_ids(bytecode: Any) -> None:
    """Start the numbering of numba's compiled functions at a random 64-bit number."""
    bytecode.FunctionIdentity._unique_ids = itertools.count(int.from_bytes(os.urandom(8), "big"))


def _lock_numba_cache(caching: Any) -> None:
    """Make each save to numba's cache exclusive and each load shared, per cache directory.

    A save reads the function's index, takes the first free file number, writes the index back
    and then the code: two processes saving two signatures of one function at once can both
    take number 1 and leave an index that names the other signature's code, and a process
    loading between the two writes may read the file of an older version. The lock is an
    ``flock`` on one file in the cache directory, held for milliseconds; where it cannot be
    had, numba goes on unlocked.
    """
    try:
        import fcntl
    except ImportError:  # not POSIX
        return
    index_file = caching.IndexDataCacheFile
    save, load = index_file.save, index_file.load

    def locked(method: Any, mode: int) -> Any:
        def run(self: Any, *args: Any) -> Any:
            path = os.path.join(self._cache_path, ".setlab-numba.lock")
            try:
                lock = os.open(path, os.O_WRONLY | os.O_CREAT, 0o666)
            except OSError:
                return method(self, *args)
            try:
                fcntl.flock(lock, mode)
                return method(self, *args)
            finally:
                os.close(lock)  # and with it the lock

        return run

    index_file.save = locked(save, fcntl.LOCK_EX)
    index_file.load = locked(load, fcntl.LOCK_SH)


class _AfterImport:
    """A finder on ``sys.meta_path`` that runs ``then[name](module)`` right after each module
    ``name`` is first executed; it finds no module itself, and leaves when all have run."""

    def __init__(self, then: dict[str, Any]) -> None:
        self.then = then

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname not in self.then:
            return None
        then = self.then.pop(fullname)
        if not self.then and self in sys.meta_path:
            sys.meta_path.remove(self)
        spec = importlib.machinery.PathFinder.find_spec(fullname, path, target)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module: Any) -> None:
            run(module)
            then(module)

        spec.loader.exec_module = exec_module
        return spec


def _safe_for_processes() -> None:
    """Make numba's cache safe for several processes: distinct names, locked files.

    numba names each compiled function by its qualified name, its argument types and a number
    from a counter that starts at 1 in every process, and makes the name a weak symbol. Code
    loaded from the cache keeps the numbers of the process that compiled it. So a process that
    compiles one function afresh and loads another from the cache can hold two bodies under
    one name, and the linker keeps one of them: the cached ``split._middle_types`` then sorted
    with the quicksort of a fresh ``np.argsort`` (its class types came out rotated, not sorted)
    when two pytest workers shared the cache (numba issue #10486). Here the counter starts at
    a random 64-bit number in every process, and again in a forked child, which would
    otherwise go on from its parent's number. Two processes of 100,000 compiled functions each
    then share a number with probability below 10^-13. And the cache's files are read and
    written under a lock (:func:`_lock_numba_cache`). Runs on ``import setlab``, without
    importing numba: when numba comes later, a finder does this as soon as the two modules
    have run.
    """
    then = {"numba.core.bytecode": _restart_numba_ids, "numba.core.caching": _lock_numba_cache}
    for name in [name for name in then if name in sys.modules]:
        then.pop(name)(sys.modules[name])
    if then:
        sys.meta_path.insert(0, _AfterImport(then))

    def in_child() -> None:
        if "numba.core.bytecode" in sys.modules:
            _restart_numba_ids(sys.modules["numba.core.bytecode"])

    if hasattr(os, "register_at_fork"):  # POSIX
        os.register_at_fork(after_in_child=in_child)
