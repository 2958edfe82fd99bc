"""``setlab reproduce``: regenerate every table and figure of the seeds into one report."""

from __future__ import annotations

import argparse

from setlab.report import build_report


def register(commands: argparse._SubParsersAction) -> None:
    reproduce = commands.add_parser(
        "reproduce",
        help="recompute the seeds' tables and figures into DIR/index.html and DIR/report.md",
    )
    reproduce.add_argument(
        "--out", default="report", metavar="DIR", help="output directory (default: report)"
    )
    reproduce.add_argument(
        "--quick", action="store_true", help="the one-minute variant: fewer samples"
    )
    reproduce.set_defaults(run=run_reproduce)


def run_reproduce(args: argparse.Namespace) -> int:
    report = build_report(args.out, quick=args.quick)
    agreed, total = report.reproduced
    print(f"wrote {report.html_path} and {report.markdown_path} in {report.seconds:.1f} s")
    print(f"seed values reproduced: {agreed} of {total}")
    return 0 if agreed == total else 1
