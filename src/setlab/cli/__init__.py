"""The ``setlab`` command: parses arguments, calls the API, formats the answer.

Each command group lives in its own module with a ``register(commands)`` function; the CLI never
computes anything the importable API does not. Bad input ends with one line ``error: ...`` on
stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import io
import os
import signal
import sys
import threading
from collections.abc import Sequence

from setlab import __version__
from setlab.errors import SetlabError
from setlab.interrupts import ctrl_c_held

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing before main's handler
if TYPE_CHECKING:
    from typing import NoReturn

COMMAND_GROUPS = (
    "cards", "demo", "game", "draw", "report", "heuristic", "maxsets", "caps", "serve",
    "certify",
)  # fmt: skip
"""The command modules of :mod:`setlab.cli`, in the order ``setlab --help`` lists them. They are
imported when the parser is built, inside :func:`main`, so that a Ctrl-C during start-up is
caught too."""


GROUP_OF = {"find": "cards", "third": "cards", "check": "cards", "words": "cards", "deck": "cards",
            "demo": "demo", "simulate": "game", "draw": "draw", "reproduce": "report",
            "heuristic": "heuristic", "maxsets": "maxsets", "minsets": "maxsets",
            "verify": "maxsets", "caps": "caps", "serve": "serve"}  # fmt: skip
"""The command group of each command: ``setlab find ...`` imports only :mod:`setlab.cli.cards`
(and what it needs), so a quick command starts quickly. A command not listed here, ``--help``
or a typo builds the whole parser; ``--version`` builds none of the commands."""


def _groups(argv: Sequence[str] | None) -> tuple[str, ...]:
    """The command groups the parser for ``argv`` needs (all of them unless one is named; none
    for ``setlab --version``, which answers before any command is read)."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words[:1] == ["--version"]:
        return ()
    command = next((w for w in words if not w.startswith("-")), None)
    if command in GROUP_OF and words.index(command) == 0:
        return (GROUP_OF[command],)
    return COMMAND_GROUPS


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``error: ...`` and exit code 2, no usage dump.

    Words no parser takes are reported by the command's own parser, the last one to start
    parsing (``setlab third A B C``: see 'setlab third --help', not 'setlab --help').
    """

    last: _Parser | None = None

    def parse_known_args(
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        _Parser.last = self
        return super().parse_known_args(args, namespace)

    def parse_args(
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            (_Parser.last or self).error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed

    def error(self, message: str) -> NoReturn:
        print(f"error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)


def build_parser(groups: Sequence[str] = COMMAND_GROUPS) -> argparse.ArgumentParser:
    """The ``setlab`` argument parser (with the commands of ``groups``: by default all)."""
    parser = _Parser(
        prog="setlab",
        description="The card game SET and its mathematics.",
    )
    parser.add_argument("--version", action="version", version=f"setlab {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for name in groups:
        importlib.import_module(f"setlab.cli.{name}").register(commands)
    return parser


class _Interrupts:
    """Ctrl-C as the CLI sees it: Python's own behaviour (KeyboardInterrupt), remembered.

    A SIGINT that lands inside a compiled extension's initialisation (OR-Tools, numba) comes out
    as that extension's ImportError rather than as KeyboardInterrupt; remembering that a SIGINT
    came lets :func:`main` still answer it with the interrupt line and exit 130.
    """

    seen = False

    @classmethod
    def handle(cls, signum: int, frame: object) -> None:
        cls.seen = True
        raise KeyboardInterrupt


INTERRUPTED = "error: interrupted"
"""What Ctrl-C prints; a command that writes the results store says more (``args.interrupted``,
:data:`setlab.cli.common.KEPT`)."""


def _escape_undecodable() -> None:
    """Print what cannot be encoded (bytes of a file name that were not UTF-8, which Python
    carries as surrogates) as escapes, instead of failing in the middle of an answer."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper) and stream.errors == "strict":
            stream.reconfigure(errors="backslashreplace")


def _check_store_variable(args: argparse.Namespace) -> None:
    """Refuse ``$SETLAB_STORE`` in a directory that does not exist, as ``--store`` is refused:
    making the directory would start an empty store under a typo. Only the default store's
    directory is made."""
    variable = os.environ.get("SETLAB_STORE")
    if variable and getattr(args, "store", None) is None:  # --store, when given, wins
        from setlab.cli.common import store_path

        try:
            store_path(variable)
        except argparse.ArgumentTypeError as error:
            raise SetlabError(f"SETLAB_STORE: {error}") from None


def _import_numpy_whole() -> None:
    """Import numpy with Ctrl-C held back until it is done.

    A SIGINT that lands inside numpy's compiled modules while they initialise is caught there and
    printed ("ImportError: _multiarray_umath failed to import") before it reaches
    :func:`main`, a second line beside the interrupt line. Held back for the tenth of a second
    numpy takes (:func:`setlab.interrupts.ctrl_c_held`), it arrives as a plain
    KeyboardInterrupt just after.
    """
    with ctrl_c_held():
        import numpy  # noqa: F401


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``setlab`` with ``argv``; return the exit code."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _Interrupts.handle)
    interrupted = INTERRUPTED  # until the command is known, no work has started
    store_errors: tuple[type[Exception], ...] = ()  # sqlite3.Error, once sqlite3 is imported
    try:
        # After the handler and inside the try, every import of a command can be interrupted
        # (a Ctrl-C inside _sqlite3's initialisation comes out as an ImportError: see below).
        import sqlite3

        store_errors = (sqlite3.Error,)
        _escape_undecodable()
        _import_numpy_whole()  # a Ctrl-C held back there arrives here, inside the try
        if any("\0" in word for word in (sys.argv[1:] if argv is None else argv)):
            raise SetlabError("an argument holds a NUL byte")  # only a caller in Python can
        try:
            args = build_parser(_groups(argv)).parse_args(argv)
        except SystemExit as exit_:  # a refused argument (2), or --help / --version (0)
            return exit_.code if isinstance(exit_.code, int) else 2
        interrupted = getattr(args, "interrupted", None) or INTERRUPTED
        if os.environ.get("SETLAB_WORKERS", "").strip():  # refused before any work, not in a pool
            from setlab.executor import default_workers

            default_workers()
        _check_store_variable(args)
        return args.run(args) or 0
    except KeyboardInterrupt:
        print(interrupted, file=sys.stderr)
        return 130
    except SetlabError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except store_errors as error:  # a read-only, locked or damaged results store
        print(f"error: results store: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except Exception:
        if _Interrupts.seen:
            print(interrupted, file=sys.stderr)
            return 130
        raise
