"""Helpers shared by the command modules: number options, output paths, reading cards, JSON.

Every check of user input that argparse can make lives here, so each command refuses bad input
in one line (``error: ...``, exit code 2) before any work starts.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from tqdm import tqdm

from setlab.cards import Card, parse_board
from setlab.errors import SetlabError
from setlab.store import default_store_path

if TYPE_CHECKING:
    from setlab.variants import Variant


def counted(count: int, noun: str) -> str:
    """``count`` and its noun, plural unless the count is one (``noun`` + "s"; a consonant and
    "y" give "ies").

    Examples
    --------
    >>> counted(1, "set"), counted(14, "set"), counted(1, "property"), counted(5, "property")
    ('1 set', '14 sets', '1 property', '5 properties')
    >>> counted(2, "key")
    '2 keys'
    """
    if count == 1:
        return f"{count} {noun}"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u"):
        return f"{count} {noun[:-1]}ies"
    return f"{count} {noun}s"


def float_in(low: float, high: float, *, open_low: bool = False) -> Callable[[str], float]:
    """An argparse ``type=``: a finite float in [low, high] (or (low, high] with ``open_low``).

    Examples
    --------
    >>> positive = float_in(0, 100, open_low=True)
    >>> positive("2.5")
    2.5
    >>> positive("nan")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a finite number in (0, 100], got 'nan'
    """
    bounds = f"{'(' if open_low else '['}{low:g}, {high:g}]"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value > high or value < low or (open_low and value == low):
            raise argparse.ArgumentTypeError(f"expected a finite number in {bounds}, got '{text}'")
        return value

    return parse


def int_in(low: int, high: int | None = None) -> Callable[[str], int]:
    """An argparse ``type=``: an integer ``low <= value`` (``<= high`` when given).

    Examples
    --------
    >>> int_in(0)("7")
    7
    >>> int_in(0, 5)("-5")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected an integer from 0 to 5, got '-5'
    """
    bounds = f">= {low:,}" if high is None else f"from {low:,} to {high:,}"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            value = None
        if value is None or value < low or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"expected an integer {bounds}, got '{text}'")
        return value

    return parse


def output_path(path: str | Path, suffixes: Sequence[str], option: str) -> Path:
    """``path`` as a Path if a file with one of ``suffixes`` can be written there, else refuse.

    Commands call this for every file they will write before they compute anything, so a bad
    name or a missing or read-only directory costs nothing and leaves nothing half-written.

    Examples
    --------
    >>> output_path("board.SVG", (".svg", ".png"), "-o").name
    'board.SVG'
    >>> output_path("no/such/dir/board.svg", (".svg",), "-o")
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: -o: no such directory: no/such/dir
    """
    path = Path(path)
    if path.suffix.lower() not in suffixes:
        *rest, last = suffixes
        names = f"{', '.join(rest)} or {last}" if rest else last
        raise SetlabError(f"{option}: '{path}' must end in {names}")
    directory = path.parent
    try:
        if not directory.is_dir():
            raise SetlabError(f"{option}: no such directory: {directory}")
        if path.is_dir():
            raise SetlabError(f"{option}: '{path}' is a directory")
        if not os.access(directory, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
            raise SetlabError(f"{option}: cannot write to '{path}': permission denied")
    except OSError as error:  # a name too long for the file system, a loop of links
        raise SetlabError(f"{option}: cannot write to '{path}': {error.strerror}") from None
    writable_directory(directory, option)
    return path


def one_file_each(outputs: Sequence[tuple[str, Path]]) -> None:
    """Refuse two outputs (option, path) naming the same file: the second would replace the first.

    Examples
    --------
    >>> one_file_each([("--picture", Path("a.svg")), ("--graph", Path("b.svg"))])
    >>> one_file_each([("--picture", Path("a.svg")), ("--graph", Path("./a.svg"))])
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: --picture and --graph name the same file: a.svg
    """
    seen: dict[Path, str] = {}
    for option, path in outputs:
        first = seen.get(path.resolve())
        if first == option:
            raise SetlabError(f"{option}: the same file is named twice")
        if first is not None:
            raise SetlabError(f"{first} and {option} name the same file: {path}")
        seen[path.resolve()] = option


def writable_directory(directory: str | Path, option: str) -> None:
    """Refuse (a SetlabError) an existing ``directory`` in which no file can be created.

    The permission bits do not tell (a superuser passes them; /proc, a read-only mount or a full
    quota do not), so a nameless temporary file is made there and dropped at once.

    Examples
    --------
    >>> import tempfile
    >>> writable_directory(tempfile.gettempdir(), "--out")
    >>> writable_directory("/proc", "--out")
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: --out: cannot write to '/proc': No such file or directory
    """
    import tempfile

    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as error:
        raise SetlabError(f"{option}: cannot write to '{directory}': {error.strerror}") from None


def add_properties(
    parser: argparse.ArgumentParser, default: int | None = 4, absent: bool = False
) -> None:
    """The ``--properties P`` option (number of properties, the dimension of AG(P,3)).

    With ``absent`` the option is left out of the parsed arguments unless given (the command
    fills in ``default`` itself), as a command group with subcommands needs.
    """
    parser.add_argument(
        "-p",
        "--properties",
        type=int,
        default=argparse.SUPPRESS if absent else default,
        metavar="P",
        help="number of properties "
        + (f"(default {default})" if default is not None else "(default: every P in the store)"),
    )


def scheduler_address(text: str) -> str:
    """An argparse ``type=``: a Dask scheduler address, ``tcp://HOST:PORT`` (syntax only), or
    ``local``, which gives ``""``: this machine, whatever ``$SETLAB_SCHEDULER`` says (as
    ``scheduler=""`` does in the API).

    Examples
    --------
    >>> scheduler_address("tcp://127.0.0.1:8786"), scheduler_address("local")
    ('tcp://127.0.0.1:8786', '')
    >>> scheduler_address("8786")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: not a Dask scheduler address: '8786' (expected tcp://HOST:PORT)
    """
    from setlab.executor import check_scheduler  # the executor: for the commands that run tasks

    if text.strip() == "local":
        return ""
    try:
        return check_scheduler(text)
    except SetlabError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def value_bar(
    description: str, quiet: bool = False
) -> tuple[tqdm, Callable[[int, int], None]]:
    """A progress bar over values on stderr (silent off a terminal, or when ``quiet``) and the
    ``progress(done, total)`` callback that moves it, as the long store commands take it."""
    bar = tqdm(desc=description, unit="value", disable=quiet or not sys.stderr.isatty())

    def progress(done: int, total: int) -> None:
        bar.total = total
        bar.update(done - bar.n)

    return bar, progress


def store_path(text: str) -> str:
    """An argparse ``type=``: a results store's path, in a directory that exists (a mistyped
    directory is refused rather than made; only the default store's directory is created).

    Examples
    --------
    >>> store_path("results.sqlite")
    'results.sqlite'
    >>> store_path("no/such/dir/results.sqlite")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: no such directory: no/such/dir
    """
    directory = Path(text).parent
    try:
        if not directory.is_dir():
            what = "not a directory" if directory.exists() else "no such directory"
            raise argparse.ArgumentTypeError(f"{what}: {directory}")
    except (OSError, ValueError):  # a name too long, a NUL byte: opening the store says why
        pass
    return text


KEPT = "error: interrupted (finished work is kept in the store)"
"""What Ctrl-C prints for a command that writes the results store: its searches checkpoint each
finished task there, so the same command resumes where it stopped."""


def add_store(parser: argparse.ArgumentParser, *, writes: bool = True, **options: Any) -> None:
    """The ``--store PATH`` option: the results store the command reads (and, with ``writes``,
    writes: then Ctrl-C says that finished work is kept, :data:`KEPT`)."""
    parser.add_argument(
        "--store",
        type=store_path,
        metavar="PATH",
        help=f"results store (default {default_store_path()})",
        **options,
    )
    if writes:
        parser.set_defaults(interrupted=KEPT)


def add_scheduler(
    parser: argparse.ArgumentParser, tasks: str = "the search's tasks", **options: Any
) -> None:
    """The ``--scheduler ADDRESS`` option: run the command's ``tasks`` on a Dask cluster."""
    parser.add_argument(
        "--scheduler",
        type=scheduler_address,
        metavar="ADDRESS",
        help=f"run {tasks} on the Dask cluster of this scheduler, tcp://HOST:PORT, or "
        "on this machine with 'local' (default $SETLAB_SCHEDULER; unset: this machine)",
        **options,
    )


def reach_scheduler(args: argparse.Namespace) -> str | None:
    """The scheduler of ``--scheduler`` (else ``$SETLAB_SCHEDULER``), connected before any work.

    An unreachable one is a one-line error within a few seconds. None means run locally (no
    address anywhere), and so does ``""`` (``--scheduler local``), which the API's ``scheduler=``
    also takes as "not ``$SETLAB_SCHEDULER``".
    """
    from setlab.executor import connect, default_scheduler

    given = getattr(args, "scheduler", None)
    address = default_scheduler() if given is None else given
    if address:
        connect(address)
    return address


def read_cards(args: argparse.Namespace) -> list[Card]:
    """Cards from ``args.cards``, else ``--file``, else standard input, one card per line."""
    return parse_board(read_card_texts(args), args.properties)


def read_card_texts(args: argparse.Namespace) -> list[str]:
    """The cards as written: ``args.cards``, else ``--file``, else standard input, one a line."""
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
    return texts


def read_variant_board(args: argparse.Namespace) -> tuple[Variant, int, list[int]]:
    """The board of ``--variant`` (default set) and ``--values``: (variant, V, card indices).

    Cards are read as :func:`read_card_texts` does and parsed in the variant's deck; a card of
    the wrong deck, a duplicate, or too few cards for one structure is a SetlabError.
    """
    from setlab.cards import parse_valued_card
    from setlab.variants import variant

    kind = variant(args.variant or "set")
    if args.values is not None and kind.values is not None and args.values != kind.values:
        raise SetlabError(f"--values: {kind.title} is played with {kind.values} values")
    values = args.values or kind.values or 3
    kind.check(args.properties, values)
    board: list[int] = []
    for text in read_card_texts(args):
        card = parse_valued_card(text, args.properties, values)
        if card in board:
            raise SetlabError(f"duplicate card '{text.strip()}'")
        board.append(card)
    size = kind.size(values)
    if len(board) < size:
        article = "an" if kind.title[0] in "AEIOU" else "a"
        cards = counted(len(board), "card")
        raise SetlabError(f"{cards}: {article} {kind.title} board needs at least {size}")
    return kind, values, board


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


# -- the shapes every --json shares (docs/json.md, src/setlab/data/schema.json) ----------------


def card_lists(cards: Sequence[int], properties: int) -> tuple[list[list[int]], list[str]]:
    """Cards (indices or :class:`Card`) as the JSON shows them: digit lists, and their codes.

    Examples
    --------
    >>> card_lists([32, 0], 4)
    ([[1, 0, 1, 2], [0, 0, 0, 0]], ['2RTO', '1RSD'])
    """
    shown = [Card(int(c), properties) for c in cards]
    return [list(c.vector) for c in shown], [c.code for c in shown]


def provenance(
    read: bool, computed_at: float | None = None, seconds: float | None = None
) -> dict[str, Any]:
    """Where a value came from: ``source`` "store" (read, computed at ``computed_at``) or
    "computed" (in this run, in ``seconds``).

    Examples
    --------
    >>> provenance(True, 0.0)
    {'source': 'store', 'computed_at': '1970-01-01T00:00:00Z', 'seconds': None}
    >>> provenance(False, seconds=1.23456)
    {'source': 'computed', 'computed_at': None, 'seconds': 1.235}
    """
    from datetime import UTC, datetime

    stamp = (
        None
        if computed_at is None
        else datetime.fromtimestamp(computed_at, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    )
    return {
        "source": "store" if read else "computed",
        "computed_at": stamp,
        "seconds": None if seconds is None else round(seconds, 3),
    }


def provenance_text(origin: dict[str, Any]) -> str:
    """The words for :func:`provenance`, the same in every command.

    Examples
    --------
    >>> provenance_text(provenance(True, 0.0))
    'read from the store (computed 1970-01-01 00:00 UTC)'
    >>> provenance_text(provenance(False, seconds=2))
    'computed in 2.00 s'
    """
    if origin["source"] == "store":
        when = origin["computed_at"]
        return "read from the store" + (
            f" (computed {when[:10]} {when[11:16]} UTC)" if when else ""
        )
    seconds = origin["seconds"]
    return "computed" + (f" in {seconds:.2f} s" if seconds is not None else "")


def extremal_json(
    *,
    problem: str,
    properties: int,
    cards: int | None,
    sense: str,
    lower: int | None,
    upper: int | None,
    value: int | None,
    method: str | None,
    witness: Sequence[int] | None,
    witness_method: str | None,
    origin: dict[str, Any],
) -> dict[str, Any]:
    """One extremal result as every ``--json`` prints it: the proven interval
    ``lower <= optimum <= upper`` (None: no bound), ``proven`` when they meet, ``value`` of the
    best witness, the witness as digit lists with its codes, and where it came from."""
    digits, codes = card_lists(witness, properties) if witness is not None else (None, None)
    return {
        "problem": problem,
        "properties": properties,
        "cards": cards,
        "sense": sense,
        "lower": lower,
        "upper": upper,
        "proven": lower is not None and lower == upper,
        "value": value,
        "method": method,
        "witness": digits,
        "witness_codes": codes,
        "witness_method": witness_method,
        "provenance": origin,
    }
