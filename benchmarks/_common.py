"""What every benchmark script shares: one-line errors, Ctrl-C, and checks of its input.

Not a benchmark: it measures nothing (``make bench`` runs every ``benchmarks/*.py`` but this
one; run, it says so and exits 0). A script imports it first (then ``# isort: split``), so that
a Ctrl-C from then on, even during the heavy imports after it, is one line ``error:
interrupted`` and exit 130; it ends with ``run_script(main)``, which does the same for ``main``
and turns bad input into one line ``error: ...`` and exit 2. A script that a test loads by its
path (benchmarks/ is not on the tests' sys.path) imports this module only under ``if __name__ ==
"__main__"``.
"""

from __future__ import annotations

import argparse
import os
import signal
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn

from setlab.errors import SetlabError

INTERRUPTED = "error: interrupted"


def _stop_at_once(signum: int, frame: object) -> None:
    """Ctrl-C before ``run_script``: only imports have run, so nothing is left to clean up."""
    sys.stderr.write(INTERRUPTED + "\n")
    sys.stderr.flush()
    os._exit(130)


def _interrupted(error: BaseException | None) -> bool:
    """Whether ``error`` comes of a Ctrl-C: numba turns a KeyboardInterrupt raised in its calls
    back into Python into an error of its own, caused by it."""
    while error is not None:
        if isinstance(error, KeyboardInterrupt):
            return True
        error = error.__cause__ or error.__context__
    return False


def _catch(handler: Callable[[int, Any], Any]) -> None:
    """SIGINT to ``handler``, unless it is ignored (a background job's: it stays ignored)."""
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        signal.signal(signal.SIGINT, handler)


_main = sys.modules.get("__main__")
if Path(getattr(_main, "__file__", None) or "").resolve().parent == Path(__file__).resolve().parent:
    _catch(_stop_at_once)  # only when a benchmark script is the program (not in a test)


class Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``error: ...`` on stderr and exit code 2, no usage dump
    (as ``setlab``'s own parser); the description (the module docstring) shown as written."""

    def __init__(self, **options: Any) -> None:
        options.setdefault("formatter_class", argparse.RawDescriptionHelpFormatter)
        super().__init__(**options)

    def error(self, message: str) -> NoReturn:
        print(f"error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)


def in_range(kind: Callable[[str], Any], low: float, high: float) -> Callable[[str], Any]:
    """An argparse ``type=``: a number of ``kind`` with ``low <= value <= high``."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise argparse.ArgumentTypeError(f"expected a number from {low} to {high}: {text!r}")
        return value

    return parse


def existing_store(text: str) -> str:
    """An argparse ``type=``: a results store that exists (opening a mistyped path would start
    an empty store, and the benchmark would measure nothing)."""
    if not Path(text).is_file():
        raise argparse.ArgumentTypeError(f"no results store at {text}")
    return text


def require_results(parser: argparse.ArgumentParser, path: str, properties: int) -> None:
    """Refuse (one line, exit 2) a store holding no maximum or minimum for P = ``properties``."""
    from setlab.store import PROBLEMS, Store  # numpy: not before the interrupt handler is set

    with Store(path) as store:
        if not any(store.results(problem, properties) for problem in PROBLEMS.values()):
            parser.error(f"{path} holds no results for P = {properties}")


def run_script(main: Callable[[], int | None], *, needs: str | None = None) -> NoReturn:
    """Run a benchmark's ``main`` as the program and exit with its code (None: 0).

    Ctrl-C: one line ``error: interrupted``, exit 130 (``finally`` blocks have stopped any
    child processes on the way out); a SetlabError or a bad results store: one line, exit 2.
    ``needs``: what the script cannot run without; called with no arguments at all (as ``make
    bench`` calls every script), it prints one line saying so and exits 0.
    """
    if needs and len(sys.argv) == 1:
        print(f"skipped: needs {needs} (see --help)")
        raise SystemExit(0)
    _catch(signal.default_int_handler)  # KeyboardInterrupt from now on: ``finally`` blocks run
    try:
        code = main()
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        code = 130
    except SetlabError as error:
        print(f"error: {error}", file=sys.stderr)
        code = 2
    except sqlite3.Error as error:
        print(f"error: results store: {error}", file=sys.stderr)
        code = 2
    except Exception as error:
        if not _interrupted(error):
            raise
        print(INTERRUPTED, file=sys.stderr)  # a KeyboardInterrupt that numba wrapped
        code = 130
    raise SystemExit(code or 0)


if __name__ == "__main__":
    print("skipped: benchmarks/_common.py is a helper of the benchmarks, not one")
