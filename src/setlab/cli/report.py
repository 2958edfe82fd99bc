"""``setlab reproduce``: regenerate every table and figure of the seeds into one report."""

from __future__ import annotations

import argparse
import sys

from setlab.cli.common import add_scheduler, add_store, print_json, reach_scheduler
from setlab.store import Store


def register(commands: argparse._SubParsersAction) -> None:
    reproduce = commands.add_parser(
        "reproduce",
        help="recompute the seeds' tables and figures into DIR/index.html and DIR/report.md",
        description="Recompute every table and figure of the source documents and write "
        "DIR/index.html and DIR/report.md; each seed value is checked against what setlab "
        "computes now. --quick draws fewer samples and reads the tables of every n from the "
        "store, re-verifying them, instead of computing them.",
    )
    reproduce.add_argument(
        "--out", default="report", metavar="DIR", help="output directory (default: report)"
    )
    reproduce.add_argument(
        "--quick",
        action="store_true",
        help="fewer samples; the tables of every n read from the store and re-verified",
    )
    reproduce.add_argument("--json", action="store_true", help="print one JSON object")
    add_scheduler(reproduce)
    add_store(reproduce)
    reproduce.set_defaults(run=run_reproduce)


def run_reproduce(args: argparse.Namespace) -> int:
    from setlab.report import build_report  # the whole house: only when a report is asked for

    scheduler = reach_scheduler(args)  # before any work: an unreachable one is one line
    Store(args.store).close()  # and an unusable store too
    progress = sys.stderr.isatty() and not args.json  # no bar in a log file or under --json
    report = build_report(
        args.out, quick=args.quick, progress=progress, scheduler=scheduler, store=args.store
    )
    agreed, total = report.reproduced
    further, checks = report.checked  # conjectures, lost formulas, setlab's exact references
    ok = agreed == total and further == checks
    if args.json:
        print_json(
            {
                "command": "reproduce",
                "html": str(report.html_path),
                "markdown": str(report.markdown_path),
                "seconds": report.seconds,
                "reproduced": agreed,
                "count": total,
                "further_agreed": further,
                "further_count": checks,
            }
        )
        return 0 if ok else 1
    print(f"wrote {report.html_path} and {report.markdown_path} in {report.seconds:.1f} s")
    print(f"seed values reproduced: {agreed} of {total}; further checks passed: {further} of "
          f"{checks}")  # fmt: skip
    return 0 if ok else 1
