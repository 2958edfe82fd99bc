"""Helpers shared by the command modules: reading cards, printing JSON."""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from setlab.cards import Card, parse_board
from setlab.errors import SetlabError


def add_properties(parser: argparse.ArgumentParser, default: int | None = 4) -> None:
    """The ``--properties P`` option (number of properties, the dimension of AG(P,3))."""
    parser.add_argument(
        "-p",
        "--properties",
        type=int,
        default=default,
        metavar="P",
        help=f"number of properties (default {default})",
    )


def read_cards(args: argparse.Namespace) -> list[Card]:
    """Cards from ``args.cards``, else ``--file``, else standard input, one card per line."""
    texts: list[str] = list(args.cards)
    if not texts:
        if args.file:
            try:
                with open(args.file, encoding="utf-8") as handle:
                    lines = handle.read().splitlines()
            except OSError as error:
                raise SetlabError(f"cannot read {args.file}: {error.strerror}") from None
            except UnicodeDecodeError:
                raise SetlabError(f"{args.file} is not a UTF-8 text file") from None
        elif not sys.stdin.isatty():
            try:
                lines = sys.stdin.read().splitlines()
            except UnicodeDecodeError:
                raise SetlabError("standard input is not UTF-8 text") from None
        else:
            raise SetlabError("no cards given: name them, or use --file F, or pipe them in")
        texts = [line.split("#")[0] for line in lines]
        texts = [line for line in texts if line.strip()]
    elif args.file:
        raise SetlabError("give cards either as arguments or with --file, not both")
    return parse_board(texts, args.properties)


def _finite(value: Any) -> Any:
    """``value`` with every infinite or NaN float replaced by None (JSON has no such numbers).

    Examples
    --------
    >>> _finite({"odds": float("inf"), "ci": [1.5, float("inf")]})
    {'odds': None, 'ci': [1.5, None]}
    """
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_finite(v) for v in value]
    return value


def print_json(value: Any) -> None:
    """Print exactly one strict JSON document (infinite odds and bounds become null)."""
    json.dump(_finite(value), sys.stdout, allow_nan=False)
    sys.stdout.write("\n")
