"""Every command and option of ``setlab``, fuzzed in-process with good, bad and hostile values.

Whatever argv hypothesis builds from the parser itself (every command, every option; values
negative, huge, NaN, infinite, empty, Unicode, undecodable, a NUL byte, missing or unwritable
paths, files that are binary or Latin-1), ``setlab.cli.main`` never raises, exits 0, 1 or 2,
and exit 2 is exactly one line ``error: ...`` on stderr. Budgets stay small: values that would
start long work (P >= 4 searches, many games, long time limits) are not in the pools, each
command gets small safe defaults that a drawn option overrides, and ``serve`` and
``reproduce`` run with no server loop and no sections. ``SETLAB_FUZZ_EXAMPLES`` raises the
number of examples per command for a deeper local run.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from setlab.cli import build_parser, main

EXAMPLES = int(os.environ.get("SETLAB_FUZZ_EXAMPLES", "25"))

HUGE = "1" + "0" * 30
WEIRD = ["", " ", "-1", "0", HUGE, "-" + HUGE, "nan", "inf", "-inf", "1e30", "1.5", "0x10",
         "é☃", "\udcff\udcfe", "\x00", "--", "-", "a" * 300, "٣"]  # fmt: skip
"""Values any option may receive: empty, negative, huge, not numbers, Unicode, undecodable
bytes (as Python decodes argv), a NUL byte, an Arabic-Indic digit (int() reads it)."""


def _commands() -> list[tuple[str, ...]]:
    """Every leaf command of the parser: ("find",), ("caps", "count"), ..."""
    found: list[tuple[str, ...]] = []

    def walk(parser: argparse.ArgumentParser, prefix: tuple[str, ...]) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if prefix:
            found.append(prefix)  # a group is a command too (``caps`` finds the largest cap)
        for action in subs:
            for name, sub in action.choices.items():
                walk(sub, (*prefix, name))

    walk(build_parser(), ())
    return found


def _parser_of(command: tuple[str, ...]) -> argparse.ArgumentParser:
    parser = build_parser()
    for word in command:
        action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        parser = action.choices[word]
    return parser


COMMANDS = _commands()

SAFE = {
    ("simulate",): ["--games", "5", "-p", "3", "--no-progress"],
    ("heuristic", "search"): ["-p", "2", "-n", "4", "--seconds", "0.02"],
    ("heuristic", "cmm"): ["-p", "2"],
    ("maxsets",): ["-p", "2"],
    ("minsets",): ["-p", "2"],
    ("verify",): ["-p", "2"],
    ("serve",): ["--port", "0"],
    ("caps", "probability"): ["--cards", "4"],
}
"""Small defaults put before the drawn options (a drawn option given again wins)."""

SMALL_P = {("maxsets",), ("minsets",), ("verify",), ("heuristic", "search"), ("heuristic", "cmm")}
"""Commands whose work grows fast with P: only P <= 2 is drawn valid (P = 3 is an exhaustive
walk of 2^27 subsets for maxsets)."""


def _values(option: str, command: tuple[str, ...], files: dict[str, str]) -> st.SearchStrategy:
    """What an option may receive: the values that matter to it, and every weird one."""
    name = option.lstrip("-")
    good: list[str]
    if name in ("p", "properties"):
        good = ["1", "2"] if command in SMALL_P else ["1", "2", "3"]
        good += ["11", "99", "4 "] if command in SMALL_P else ["7", "11"]
    elif name in ("n", "cards"):
        good = ["0", "1", "2", "3", "5", "9", "10", "82"]
    elif name in ("games",):
        good = ["1", "7", "0", "10000000001"]
    elif name in ("seed",):
        good = ["0", "5", "-5", str(2**64 - 1), str(2**64)]
    elif name in ("seconds",):
        good = ["0.01", "0.05", "0"]
    elif name in ("time-limit",):
        good = ["0.2", "1", "0", "1e9", "1e10"]
    elif name in ("values",):
        good = ["2", "3", "4", "1", "99"]
    elif name in ("search-up-to", "min-search-up-to"):
        good = ["0", "3", "5"]
    elif name in ("columns",):
        good = ["1", "3", "0", "100000"]
    elif name in ("scale",):
        good = ["0.5", "2", "0", "1e30"]
    elif name in ("port",):
        good = ["0", "65536", "-1"]
    elif name in ("host",):
        good = ["127.0.0.1", "::1", "\x00"]
    elif name in ("store",):
        good = [files["store"], files["missing_store"], files["dir"], files["latin1"],
                "/dev/null/s.sqlite", "\x00"]  # fmt: skip
    elif name in ("o", "output", "plot", "picture", "graph"):
        good = [files["out_svg"], files["out_png"], files["out_pdf"], files["out_txt"],
                files["missing_out"], files["dir"], "/dev/null/x.svg", "x\x00.svg", "é.svg",
                "a" * 300 + ".svg", "\udcff.png"]  # fmt: skip
    elif name in ("f", "file", "config"):
        good = [files["cards"], files["latin1"], files["binary"], files["missing"],
                files["dir"], "/dev/null", "a" * 300 + ".txt"]  # fmt: skip
    elif name in ("out",):
        good = [files["report"], "/dev/null/report", files["cards"], "\x00", "a" * 300]
    elif name in ("strategy",):
        good = ["random", "first", "best", "RANDOM"]
    else:  # an option this test does not know (a new one): only what everyone may be given
        good = []
    weird = [w for w in WEIRD if not (name in ("p", "properties") and w == "٣" and
                                      command in SMALL_P)]  # fmt: skip
    return st.sampled_from(good + weird) if good else st.sampled_from(weird)


def _argv(data: st.DataObject, command: tuple[str, ...], files: dict[str, str]) -> list[str]:
    """One argv for ``command``: safe defaults, then drawn options and positionals."""
    argv: list[str] = []
    for depth in range(1, len(command) + 1):
        words = list(command[:depth])
        parser = _parser_of(tuple(words))
        argv.append(command[depth - 1])
        if depth == 1 and len(command) > 1 and command[0] == "caps":
            argv += ["-p", "2"]
        argv += SAFE.get(tuple(words), []) if depth == len(command) else []
        actions = [
            a
            for a in parser._actions
            if not isinstance(a, argparse._HelpAction | argparse._SubParsersAction)
            and not isinstance(a, argparse._VersionAction)
        ]
        chosen = (
            data.draw(st.lists(st.sampled_from(actions), max_size=4), label="options")
            if actions
            else []
        )
        for action in chosen:
            if action.option_strings:
                option = data.draw(st.sampled_from(action.option_strings))
                argv.append(option)
                if action.nargs != 0:
                    argv.append(data.draw(_values(option, command, files)))
            else:  # a positional: cards, a file
                cards = ["1RSD", "2RSD", "3RSD", "1GSD", "0000", "xxxx", "1,2", "12", "é"]
                pool = [files["cards"], files["latin1"], files["missing"], *cards, *WEIRD]
                argv += data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3))
    if data.draw(st.booleans(), label="junk at the end"):
        argv.append(data.draw(st.sampled_from(["--bogus", "extra", "-x", "--json=1", "--"])))
    return argv


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, str]:
    """Files and paths the values point at (one set for every example of the module)."""
    tmp = tmp_path_factory.mktemp("fuzz")
    (tmp / "cards.txt").write_text("1RSD\n2RSD\n3RSD # a set\n1GSD\n")
    (tmp / "latin1.txt").write_bytes("1012\n0 caf\xe9 12\n".encode("latin-1"))
    (tmp / "binary.bin").write_bytes(bytes(range(256)))
    (tmp / "dir").mkdir()
    paths = {
        "store": tmp / "store.sqlite", "missing_store": tmp / "new" / "store.sqlite",
        "dir": tmp / "dir", "cards": tmp / "cards.txt", "latin1": tmp / "latin1.txt",
        "binary": tmp / "binary.bin", "missing": tmp / "missing.txt",
        "out_svg": tmp / "o.svg", "out_png": tmp / "o.png", "out_pdf": tmp / "o.pdf",
        "out_txt": tmp / "o.txt", "missing_out": tmp / "no" / "such" / "o.svg",
        "report": tmp / "report", "cwd": tmp,
    }  # fmt: skip
    return {k: str(v) for k, v in paths.items()}


@pytest.fixture(scope="module")
def quiet_heavy_parts():
    """``serve`` binds its socket and returns instead of serving; ``reproduce`` builds no
    sections (its own checks and the writing of the empty report stay)."""
    import uvicorn

    import setlab.report.sections as sections

    patch = pytest.MonkeyPatch()
    patch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    patch.setattr(sections, "SECTIONS", ())
    yield
    patch.undo()


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    # the same examples in CI every run; with SETLAB_FUZZ_EXAMPLES new ones each run
    derandomize="SETLAB_FUZZ_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_any_argv_is_answered_without_a_traceback(
    command, data, files, quiet_heavy_parts, capsys, monkeypatch
):
    monkeypatch.chdir(files["cwd"])
    monkeypatch.setenv("SETLAB_STORE", files["store"])
    monkeypatch.setattr(sys, "stdin", io.StringIO("1RSD\n2RSD\n3RSD\n"))
    argv = _argv(data, command, files)
    capsys.readouterr()
    try:
        code = main(argv)
    except SystemExit as exit_:  # main must turn every exit into a code itself
        pytest.fail(f"SystemExit({exit_.code}) escaped main for {argv!r}")
    _, err = capsys.readouterr()
    assert "Traceback" not in err, (argv, err)
    assert code in (0, 1, 2), (argv, code, err)
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (argv, err)
    for leftover in Path(files["cwd"]).glob("*.tmp"):
        pytest.fail(f"half-written file {leftover} after {argv!r}")
