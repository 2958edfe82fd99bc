"""``setlab certify``: write the proof bundle of every proven value, with its own checker."""

from __future__ import annotations

import argparse
from pathlib import Path

from setlab.bundle import write_bundle
from setlab.cards import check_properties
from setlab.cli.common import (
    add_properties,
    add_scheduler,
    add_store,
    counted,
    reach_scheduler,
    value_bar,
    writable_directory,
)
from setlab.errors import SetlabError
from setlab.store import Store


def register(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "certify",
        help="write a proof bundle that a standalone checker re-checks",
        description="Write one JSON file per proven M(n) and m(n) of AG(P,3) in the store "
        "(witness and proof certificate), the search levels the proofs use, the variants' "
        "proven claims of P (largest structure-free boards, most UltraSets), the largest caps "
        "(of AG(P,3), and of the decks of --values V != 3), manifest.json and "
        "check.py, a checker sharing no code with setlab: python DIR/check.py DIR.",
    )
    add_properties(parser)
    parser.add_argument("--out", metavar="DIR", required=True, help="the bundle's directory")
    add_store(parser, writes=False)
    add_scheduler(parser, "the tasks that build the program and split certificates")
    parser.set_defaults(run=run_certify)


def run_certify(args: argparse.Namespace) -> int:
    check_properties(args.properties)
    out = Path(args.out)
    try:  # the name itself may be refused by the file system (too long, a NUL...)
        if not out.absolute().parent.is_dir():
            raise SetlabError(f"--out: no such directory: {out.absolute().parent}")
        if out.exists() and not out.is_dir():
            raise SetlabError(f"--out {out} is a file, not a directory")
        if out.is_dir() and any(out.iterdir()) and not (out / "manifest.json").exists():
            raise SetlabError(f"--out {out} is a non-empty directory that holds no proof bundle")
        writable_directory(out if out.is_dir() else out.absolute().parent, "--out")
    except SetlabError:
        raise
    except (OSError, ValueError) as error:
        reason = getattr(error, "strerror", None) or error
        raise SetlabError(f"--out: cannot use '{out}': {reason}") from None
    store = Store(args.store)
    if not store.exists:
        raise SetlabError(f"no results store at {store.path}")
    scheduler = reach_scheduler(args)
    bar, progress = value_bar("setlab certify")

    with store, bar:
        try:
            summary = write_bundle(store, args.properties, out, progress, scheduler=scheduler)
        except OSError as error:
            raise SetlabError(f"cannot write the bundle to {out}: {error.strerror}") from None
    methods = ", ".join(f"{count} {method}" for method, count in summary.methods.items())
    parts = [f"{counted(summary.values, 'value')} ({methods})"] * bool(summary.values)
    parts += [f"{counted(summary.variants, 'claim')} of the variants"] * bool(summary.variants)
    parts += [counted(summary.caps, "largest cap")] * bool(summary.caps)
    parts += [counted(summary.levels, "search level")] * bool(summary.levels)
    print(f"{', '.join(parts)}, {summary.bytes / 1e6:.1f} MB in {summary.directory}, "
          f"{summary.seconds:.1f} s")  # fmt: skip
    if summary.without_certificate:
        print(f"{summary.without_certificate} program-proven values have no certificate yet: "
              "the checker will fail them")  # fmt: skip
    print(f"check with: python {summary.directory / 'check.py'} {summary.directory}")
    return 0
