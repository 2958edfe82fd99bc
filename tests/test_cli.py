"""The `setlab` command: same answers as the API, one JSON object with --json, one-line errors."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time

import pytest

import setlab
from seed_oracles import PAPER_BOARD
from setlab.cli import main

SETLAB = [sys.executable, "-m", "setlab"]


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_find_json_on_the_paper_board(capsys):
    code, out, err = run(capsys, "find", *PAPER_BOARD, "--json")
    assert code == 0 and err == ""
    answer = json.loads(out)
    assert answer["properties"] == 4
    assert len(answer["cards"]) == 12 and answer["cards"][0] == [0, 0, 0, 0]
    assert answer["codes"][0] == "1RSD"
    assert len(answer["sets"]) == answer["count"] == 14
    assert all(s == sorted(s) and len(set(s)) == 3 for s in answer["sets"])


def test_find_human_output_names_cards(capsys):
    code, out, _ = run(capsys, "find", "1 red solid diamond", "2RSD", "2000")
    assert code == 0
    assert out.splitlines() == [
        "3 cards, 1 set",
        "  1. 1 red solid diamond  +  2 red solid diamonds  +  3 red solid diamonds",
    ]


def test_find_reads_a_file_with_comments(capsys, tmp_path):
    path = tmp_path / "board.txt"
    path.write_text("# my board\n1RSD\n\n2 red solid diamonds  # second\n3RSD\n")
    code, out, _ = run(capsys, "find", "--file", str(path), "--json")
    assert code == 0 and json.loads(out)["sets"] == [[0, 1, 2]]


def test_third_and_deck(capsys):
    code, out, _ = run(capsys, "third", "1RSD", "2GTS", "--json")
    assert code == 0 and json.loads(out) == {
        "command": "third", "properties": 4, "card": [2, 2, 2, 2], "code": "3POO"
    }  # fmt: skip
    code, out, _ = run(capsys, "deck", "--properties", "3")
    assert code == 0 and len(out.splitlines()) == 27


@pytest.mark.parametrize(
    ("argv", "token"),
    [
        (["find", "1RSD", "2 blue solid diamonds"], "blue"),
        (["find", "1RSD", "2 red solid"], "shape"),
        (["find", "1RSD", "1RSD"], "duplicate"),
        (["find", "012", "120"], "4 digits"),
        (["find", "0120", "--properties", "3"], "3 digits"),
        (["third", "1RSD", "1RSD"], "duplicate"),
        (["find", "--file", "/no/such/file"], "cannot read"),
        (["find", "1RSD", "--properties", "0"], "properties"),
        (["find", "000000000", "000000001", "--properties", "9"], "P <= 8, got P = 9"),
    ],
)
def test_bad_input_gives_one_line_and_exit_2(capsys, argv, token):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("error: ") and token in err


def test_real_process_exit_codes_and_stdin():
    bad = subprocess.run([*SETLAB, "find", "1RSD", "bogus"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.strip().startswith("error: unknown word 'bogus' in card 'bogus'")
    empty = subprocess.run([*SETLAB, "find"], input="\n", capture_output=True, text=True)
    assert empty.returncode == 2 and "empty board" in empty.stderr
    piped = subprocess.run(
        [*SETLAB, "find", "--json"], input="1RSD\n2RSD\n3RSD\n", capture_output=True, text=True
    )
    assert piped.returncode == 0 and json.loads(piped.stdout)["sets"] == [[0, 1, 2]]
    usage = subprocess.run([*SETLAB, "nonsense"], capture_output=True, text=True)
    assert usage.returncode == 2 and len(usage.stderr.strip().splitlines()) == 1


def test_demo_solves_the_paper_board(capsys):
    code, out, _ = run(capsys, "demo")
    assert code == 0 and "14 sets found" in out


@pytest.mark.parametrize("delay", [0.1, 0.15, 0.2, 0.4, 0.7, 1.0])
def test_ctrl_c_at_any_moment_of_start_up_gives_no_traceback(delay):
    """SIGINT while the command imports and starts: one line and exit 130, never a traceback.
    Inside numpy's compiled modules it used to add "ImportError: _multiarray_umath failed to
    import" (about one run in ten at 0.15 s); numpy is now imported with Ctrl-C held back."""
    process = subprocess.Popen(
        [*SETLAB, "find", "1RSD", "2RSD", "3RSD"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(delay)
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    # A machine fast enough to finish first exits 0. A SIGINT that lands before __main__ installs
    # its handler ends the process by Python's own default: killed by SIGINT, or exit 1 with
    # "Fatal Python error" while the interpreter itself starts (its site module, runpy). Setlab
    # cannot catch it there; its part is to make that window short (the package's first import,
    # about 10 ms: no typing, no numpy), and no frame of the command may be in such a traceback.
    # On a loaded machine the interpreter's start takes longer than the shortest delays here.
    assert process.returncode in (0, 130, 1, -signal.SIGINT), (process.returncode, err)
    if process.returncode == 130:
        assert err.strip().splitlines() == ["error: interrupted"], err  # find keeps nothing
    if process.returncode == 1:
        assert "Fatal Python error: init" in err or "Could not import runpy module" in err, err
    if process.returncode in (1, -signal.SIGINT):
        frames = re.findall(r"src/setlab/([\w/]+\.py)", err)
        assert set(frames) <= {"__init__.py", "numba_cache.py", "errors.py", "__main__.py"}, err


@pytest.mark.parametrize("argv", [["find", "1RSD", "2RSD", "3RSD"], ["--version"]])
def test_find_and_version_load_no_compiler_and_no_solver(argv):
    """`setlab find` imports only its own command group, `setlab --version` none: no numba,
    OR-Tools, SciPy or pandas."""
    code = (
        f"import sys; from setlab.cli import main; print(main({argv!r})); "
        "print(sorted(m for m in ('numba', 'ortools', 'scipy', 'pandas', 'matplotlib') "
        "if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.splitlines()[-2:] == ["0", "[]"], done
    if argv == ["--version"]:
        assert done.stdout.startswith(f"setlab {setlab.__version__}\n"), done


def test_every_help_text_reads_as_written():
    """Every command's and subcommand's --help, formatted: no doubled percent sign (argparse
    formats a ``help=`` with %, but prints a ``description=`` as it is) and no empty usage."""
    import argparse

    from setlab.cli import build_parser

    def parsers(parser):
        yield parser
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub in action.choices.values():
                    yield from parsers(sub)

    seen = 0
    for parser in parsers(build_parser()):
        text = parser.format_help()
        assert "%%" not in text, parser.prog
        assert text.startswith("usage: setlab"), parser.prog
        seen += 1
    assert seen >= 20  # every command of setlab --help and the subcommands of caps, heuristic


def test_one_set_and_one_property_are_singular(capsys, monkeypatch, tmp_path):
    """M(4) of AG(2,3) is 1 (a line and a card): '1 set', not '1 sets'; P = 1: '1 property'."""
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "s.sqlite"))
    assert main(["maxsets", "-p", "2", "-n", "4"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("M(4) = 1 set among 4 cards of AG(2,3): proven")
    assert lines[1].startswith("witness with 1 set (")
    assert main(["maxsets", "-p", "2", "-n", "6"]) == 0
    assert capsys.readouterr().out.startswith("M(6) = 3 sets among 6 cards")
    assert main(["caps", "-p", "1"]) == 0
    assert capsys.readouterr().out.startswith("Largest cap with 1 property of 3 values: size = 2")


def test_a_ctrl_c_inside_sqlite3s_import_is_the_interrupt_line(monkeypatch, capsys):
    """SIGINT inside a compiled module's initialisation comes out as its ImportError (here
    sqlite3's, the first import of main): answered as an interrupt, not as a traceback of an
    unbound name in an except clause."""
    import setlab.cli as cli

    monkeypatch.setitem(sys.modules, "sqlite3", None)  # import sqlite3 raises ImportError
    monkeypatch.setattr(cli._Interrupts, "seen", True)  # as the handler records a SIGINT
    assert main(["third", "1RSD", "2RSD"]) == 130
    assert capsys.readouterr().err == "error: interrupted\n"
    monkeypatch.setattr(cli._Interrupts, "seen", False)  # no SIGINT: the real error, unhidden
    with pytest.raises(ImportError):
        main(["third", "1RSD", "2RSD"])
