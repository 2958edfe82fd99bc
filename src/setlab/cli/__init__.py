"""The ``setlab`` command: parses arguments, calls the API, formats the answer.

Each command group lives in its own module with a ``register(commands)`` function; the CLI never
computes anything the importable API does not. Bad input ends with one line ``error: ...`` on
stderr and exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from setlab import __version__
from setlab.cli import caps, cards, demo, draw, game, heuristic, maxsets, report
from setlab.errors import SetlabError

COMMAND_GROUPS = (cards, demo, game, draw, report, heuristic, maxsets, caps)


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors: ``error: ...`` and exit code 2, no usage dump."""

    def error(self, message: str) -> NoReturn:
        print(f"error: {message} (see '{self.prog} --help')", file=sys.stderr)
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    """The full ``setlab`` argument parser."""
    parser = _Parser(
        prog="setlab",
        description="The card game SET and its mathematics.",
    )
    parser.add_argument("--version", action="version", version=f"setlab {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    commands.required = True
    for group in COMMAND_GROUPS:
        group.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``setlab`` with ``argv``; return the exit code."""
    args = build_parser().parse_args(argv)
    try:
        return args.run(args) or 0
    except SetlabError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted (finished work is kept in the store)", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
