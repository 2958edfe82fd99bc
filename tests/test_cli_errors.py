"""Bad input to `setlab`: one line ``error: ...`` on stderr, exit code 2, before any work."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from setlab.cli import main
from setlab.errors import SetlabError
from setlab.store import Store

SETLAB = [sys.executable, "-m", "setlab"]


def refused(capsys, *argv: str) -> str:
    """Run ``setlab argv`` in-process; assert the one-line refusal and return that line."""
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert code == 2, (code, out, err)
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.fixture
def latin1(tmp_path):
    path = tmp_path / "cards.txt"
    path.write_bytes("1012\n0 caf\xe9 12\n".encode("latin-1") + b"\xff\xfe\x00")
    return path


def test_a_file_that_is_not_utf8_is_refused(capsys, latin1, tmp_path):
    assert "not a UTF-8 text file" in refused(capsys, "find", "--file", str(latin1))
    picture = tmp_path / "out.svg"
    assert "not a UTF-8" in refused(capsys, "draw", "--config", str(latin1), "-o", str(picture))
    assert not picture.exists()


def test_binary_file_and_binary_stdin_in_a_real_process(latin1):
    for argv, stdin in ((["find", "--file", str(latin1)], None), (["find"], latin1.read_bytes())):
        done = subprocess.run([*SETLAB, *argv], input=stdin, capture_output=True)
        err = done.stderr.decode()
        assert done.returncode == 2 and "Traceback" not in err
        assert len(err.splitlines()) == 1 and err.startswith("error: ")


@pytest.mark.parametrize(
    "argv",
    [
        ["draw", "1012", "--scale", "nan", "-o", "{out}.png"],
        ["draw", "1012", "--scale", "inf", "-o", "{out}.png"],
        ["draw", "1012", "--scale", "1e30", "-o", "{out}.png"],
        ["draw", "1012", "--scale", "0", "-o", "{out}.png"],
        ["draw", "1012", "--columns", "0", "-o", "{out}.svg"],
        ["heuristic", "search", "-n", "5", "--seed", "-5"],
        ["heuristic", "search", "-n", "5", "--seconds", "nan"],
        ["caps", "--time-limit", "nan"],
        ["caps", "--time-limit", "inf"],
        ["caps", "--time-limit", "-1"],
        ["caps", "probability", "--cards", "-3"],
        ["maxsets", "-n", "-1"],
        ["simulate", "--seed", "-1", "--games", "1"],
    ],
)
def test_nonsense_numbers_are_refused_by_the_parser(capsys, monkeypatch, tmp_path, argv):
    import setlab.cli.caps
    import setlab.cli.heuristic

    def forbidden(*args, **kwargs):
        raise AssertionError("the work started")

    monkeypatch.setattr(setlab.cli.caps, "largest_cap", forbidden)
    monkeypatch.setattr(setlab.cli.heuristic, "local_search", forbidden)
    out = str(tmp_path / "picture")
    line = refused(capsys, *(a.format(out=out) for a in argv))
    assert line.startswith("error: argument ")
    assert list(tmp_path.iterdir()) == []


def test_the_api_refuses_what_the_parser_refuses():
    from setlab.errors import SetlabError
    from setlab.extremal.heuristics import local_search
    from setlab.render.drawing import Drawing

    with pytest.raises(SetlabError, match="seed"):
        local_search(2, 4, seconds=None, restarts=1, seed=-5)
    for scale in (float("nan"), float("inf"), 0.0, 1e30):
        with pytest.raises(SetlabError, match="scale"):
            Drawing("", 10, 5).png(scale)


@pytest.mark.parametrize("games", ["0", "10000000001", "1" + "0" * 30, "-3", "many"])
def test_simulate_games_are_bounded_before_playing(capsys, monkeypatch, games):
    import setlab.cli.game

    def forbidden(*args, **kwargs):
        raise AssertionError("the games started")

    monkeypatch.setattr(setlab.cli.game, "simulate", forbidden)
    assert "10,000,000,000" in refused(capsys, "simulate", "--games", games)


def test_the_simulator_refuses_more_than_max_games():
    from setlab.errors import SetlabError
    from setlab.game import MAX_GAMES, simulate

    with pytest.raises(SetlabError, match="at most"):
        simulate(MAX_GAMES + 1)


@pytest.mark.parametrize("properties", ["1", "2"])
def test_simulate_refuses_a_deck_smaller_than_the_deal(capsys, monkeypatch, properties):
    # 12 cards dealt from 3 or 9: no game of SET, so one line and exit 2 before any play
    import setlab.cli.game

    forbid(monkeypatch, setlab.cli.game, "simulate")
    message = refused(capsys, "simulate", "--games", "10", "-p", properties)
    assert f"deals 12 cards, more than the {3 ** int(properties)} cards" in message


@pytest.mark.parametrize("properties", ["0", "7", "11", "-1"])
def test_simulate_refuses_decks_it_does_not_play(capsys, properties):
    refused(capsys, "simulate", "--games", "10", "-p", properties)


def test_simulate_p5_skips_the_exact_odds_and_says_why(capsys):
    # counting the 12-caps of AG(5,3) would take far too long: the exact value is skipped at once
    from setlab.extremal.caps import no_set_probability

    with pytest.raises(SetlabError, match="P <= 4"):
        no_set_probability(12, 5)
    # small k: the closed form, any deck. Five cards hold at most two sets, and two share a card:
    # C(N, 5) - L C(N - 3, 2) + N C((N - 1)/2, 2) five-card caps (inclusion and exclusion)
    n, lines = 243, 243 * 242 // 6
    caps = math.comb(n, 5) - lines * math.comb(n - 3, 2) + n * math.comb((n - 1) // 2, 2)
    assert no_set_probability(5, 5) == Fraction(caps, math.comb(n, 5))
    assert main(["simulate", "--games", "20", "-p", "5", "--no-progress"]) == 0
    out, err = capsys.readouterr()
    assert "(exact: not computed: cap counts cover P <= 4)" in out and err == ""
    assert main(["simulate", "--games", "20", "-p", "5", "--json"]) == 0
    exact = json.loads(capsys.readouterr()[0])["exact"]
    assert exact["first_round_no_set_probability"] is None
    assert exact["first_round_note"] == "not computed: cap counts cover P <= 4"


def forbid(monkeypatch, module, name):
    """Make ``module.name`` fail the test if the command reaches its computation."""

    def forbidden(*args, **kwargs):
        raise AssertionError(f"{name} ran although the input was bad")

    monkeypatch.setattr(module, name, forbidden)


@pytest.mark.parametrize(
    "argv",
    [
        ["caps", "--picture", "{missing}/x.svg"],
        ["caps", "--graph", "{missing}/x.png"],
        ["caps", "--picture", "{tmp}/x.svg", "--graph", "{missing}/y.svg"],
        ["caps", "--picture", "{tmp}/x.gif"],
        ["caps", "--picture", "{tmp}"],
        ["simulate", "--plot", "{missing}/x.svg"],
        ["simulate", "--plot", "{tmp}/x.svg", "--plot", "{missing}/y.svg"],
        ["simulate", "--plot", "{tmp}/x.svg", "--plot", "{tmp}/x.svg"],
        ["draw", "1012", "-o", "{missing}/x.svg"],
        ["draw", "1012", "-o", "{tmp}/x.gif"],
    ],
)
def test_output_paths_are_checked_before_any_work(capsys, monkeypatch, tmp_path, argv):
    import setlab.cli.caps
    import setlab.cli.draw
    import setlab.cli.game

    forbid(monkeypatch, setlab.cli.caps, "largest_cap")
    forbid(monkeypatch, setlab.cli.game, "simulate")
    forbid(monkeypatch, setlab.cli.draw, "read_cards")
    missing = tmp_path / "missing" / "dir"
    refused(capsys, *(a.format(missing=missing, tmp=tmp_path) for a in argv))
    assert list(tmp_path.iterdir()) == []


def test_a_read_only_directory_is_refused(capsys, monkeypatch, tmp_path):
    import setlab.cli.common
    import setlab.cli.game

    forbid(monkeypatch, setlab.cli.game, "simulate")
    monkeypatch.setattr(setlab.cli.common.os, "access", lambda path, mode: False)
    assert "permission" in refused(capsys, "simulate", "--plot", str(tmp_path / "x.svg"))


def test_simulate_writes_all_plots_or_none(capsys, monkeypatch, tmp_path):
    import setlab.cli.game
    from setlab.errors import SetlabError

    real = setlab.cli.game.write_plot

    def second_fails(stats, path):
        if path.name == "second.svg":
            raise SetlabError(f"cannot write {path}: disk full")
        return real(stats, path)

    monkeypatch.setattr(setlab.cli.game, "write_plot", second_fails)
    plots = tmp_path / "plots"  # beside the test's results store, which keeps the cap counts
    plots.mkdir()
    first, second = plots / "first.svg", plots / "second.svg"
    argv = [
        "simulate",
        "--games",
        "20",
        "--no-progress",
        "--plot",
        str(first),
        "--plot",
        str(second),
    ]
    assert "disk full" in refused(capsys, *argv)
    assert list(plots.iterdir()) == []


@pytest.mark.parametrize("p", ["0", "11", "-1"])
def test_verify_refuses_an_impossible_p(capsys, p):
    assert "properties" in refused(capsys, "verify", "-p", p)


def test_caps_group_options_reach_the_subcommand(capsys):
    assert main(["caps", "-p", "2", "--json", "count"]) == 0
    rows = __import__("json").loads(capsys.readouterr().out)["rows"]
    assert [row["caps"] for row in rows] == [1, 9, 36, 72, 54]  # caps of AG(2,3), by hand


def test_caps_reads_and_writes_the_store_of_store(capsys, tmp_path, monkeypatch):
    # --store, as maxsets, minsets, verify and certify take it; $SETLAB_STORE is another file
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "elsewhere.sqlite"))
    store = tmp_path / "s.sqlite"
    assert main(["caps", "-p", "3", "--store", str(store)]) == 0
    assert "size = 9, proven maximal" in capsys.readouterr().out
    assert Store(store).get("maxcap", 3, 0, {"values": 3}).proven
    assert main(["caps", "-p", "2", "count", "--store", str(store)]) == 0
    assert main(["caps", "probability", "-p", "2", "--cards", "5", "--store", str(store)]) == 0
    assert "odds" in capsys.readouterr().out
    assert main(["caps", "-p", "3", "--store", str(store), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["provenance"]["source"] == "store"
    assert not (tmp_path / "elsewhere.sqlite").exists()
    assert "--store" in refused(capsys, "caps", "--store", str(store), "construct")


@pytest.mark.parametrize("before", [True, False])
def test_heuristic_options_stand_before_or_after_the_verb(capsys, tmp_path, before):
    store = ["--store", str(tmp_path / "s.sqlite")]
    argv = ["heuristic", "-p", "2", "--json", "cmm", *store] if before else [
        "heuristic", "cmm", "-p", "2", "--json", *store]  # fmt: skip
    assert main(argv) == 0
    rows = __import__("json").loads(capsys.readouterr().out)["rows"]
    # the nested CMM sequence of AG(2,3): the plane's most sets among its first n cards
    assert [row["value"] for row in rows] == [0, 0, 1, 1, 2, 3, 5, 8, 12]


@pytest.mark.parametrize(
    "argv",
    [
        ["caps", "--picture", "x.svg", "count"],
        ["caps", "--time-limit", "5", "probability", "--cards", "3"],
        ["caps", "--values", "4", "construct"],
        ["caps", "-p", "3", "verify", "cap.txt"],
    ],
)
def test_caps_group_options_a_subcommand_does_not_take_are_refused(capsys, argv):
    assert "does not apply to 'setlab caps" in refused(capsys, *argv)


def test_a_store_that_cannot_be_written_is_one_line(capsys, monkeypatch, tmp_path):
    import sqlite3

    from setlab.store import Store

    def read_only(*args, **kwargs):
        raise sqlite3.OperationalError("attempt to write a readonly database")

    monkeypatch.setattr(Store, "record_witness", read_only)
    line = refused(capsys, "maxsets", "-p", "2", "-n", "4", "--store", str(tmp_path / "s.db"))
    assert line == "error: results store: attempt to write a readonly database"


@pytest.mark.parametrize(
    "argv",
    [
        ["maxsets", "-n", "99999"],
        ["maxsets", "-p", "0", "-n", "5"],
        ["maxsets", "--table", "-p", "99"],
        ["minsets", "-n", "-3"],
        ["verify", "-p", "0"],
        ["caps", "count", "-p", "9"],
        ["caps", "probability", "--cards", "999"],
        ["heuristic", "search", "-n", "5", "--seed", "-5"],
        ["heuristic", "cmm", "-p", "0"],
        ["simulate", "-p", "1"],
        ["maxsets", "-n", "5", "--store", "{store}"],  # --store naming the same new file
    ],
)
def test_a_refused_command_creates_no_store(capsys, monkeypatch, tmp_path, argv):
    store = tmp_path / "new" / "results.sqlite"
    monkeypatch.setenv("SETLAB_STORE", str(store))
    if argv[-1] == "{store}":
        argv = [*argv[:-1], str(store)]
        argv[2] = "-99"
    refused(capsys, *argv)
    assert not store.exists() and not store.parent.exists()


def test_a_store_is_created_by_its_first_write_and_refused_where_it_cannot_be(tmp_path):
    from setlab.store import Store

    path = tmp_path / "a" / "b.sqlite"
    store = Store(path)
    assert store.get("maxsets", 4, 3) is None and store.finished_tasks("job") == {}
    store.forget_job("job")
    assert not path.exists()
    store.finish_task("job", "t", [1])
    assert path.exists() and Store(path).finished_tasks("job") == {"t": [1]}
    store.close()
    with pytest.raises(SetlabError, match="cannot open results store"):
        Store(tmp_path)  # a directory
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(SetlabError, match="cannot create"):
        Store(blocker / "s.sqlite")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc for the threads")
def test_ctrl_c_inside_a_long_simulation_is_one_line_and_130_at_once(tmp_path):
    """The compiled kernel does not return to Python until its batch is done, so batches are
    sized to end every quarter second: a SIGINT while the threads play is answered at once
    (with one fixed batch of 50,000 games of P = 6 it waited most of a minute)."""
    import os
    import signal
    import time
    from pathlib import Path

    env = {**os.environ, "SETLAB_STORE": str(tmp_path / "s.sqlite"), "NUMBA_NUM_THREADS": "2",
           "OPENBLAS_NUM_THREADS": "1"}  # fmt: skip  (so the only extra threads are the kernel's)
    # A first short run compiles the kernel into numba's cache: a SIGINT during compilation is
    # answered only when it ends, which is not what this test measures.
    warm = [*SETLAB, "simulate", "--games", "20", "-p", "6", "--no-progress"]
    subprocess.run(warm, env=env, capture_output=True, timeout=600, check=True)
    argv = [*SETLAB, "simulate", "--games", "10000000", "-p", "6", "--no-progress"]
    process = subprocess.Popen(argv, stderr=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    tasks = Path(f"/proc/{process.pid}/task")
    try:
        deadline = time.monotonic() + 240  # start-up and a first compilation on a busy machine
        while len(list(tasks.iterdir())) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)  # until the kernel's worker threads run
        assert process.poll() is None and len(list(tasks.iterdir())) >= 3
        time.sleep(1.5)  # well inside the games
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=5)  # one batch, not a minute
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130
    assert err.decode().splitlines() == ["error: interrupted"]  # simulate keeps nothing


@pytest.mark.parametrize(
    "argv, module, run, kept",
    [
        (["maxsets", "-p", "3", "-n", "5"], "maxsets", "run_extremes", True),
        (["caps", "-p", "3"], "caps", "run_largest", True),
        (["caps", "count", "-p", "3"], "caps", "run_count", True),
        (["heuristic", "search", "-n", "5"], "heuristic", "run_search", True),
        (["verify", "-p", "3"], "maxsets", "run_verify", False),
        (["certify", "-p", "3", "--out", "bundle"], "certify", "run_certify", False),
        (["caps", "verify", "cap.txt"], "caps", "run_verify", False),
        (["find", "1RSD", "2RSD"], "cards", "run_find", False),
        (["simulate", "--games", "5"], "game", "run_simulate", False),
    ],
)
def test_ctrl_c_says_finished_work_is_kept_only_where_a_command_keeps_it(
    capsys, monkeypatch, tmp_path, argv, module, run, kept
):
    """A command that writes the results store checkpoints its finished tasks there; one that
    only reads it (verify, certify) or never opens it says no more than that it was interrupted."""
    import importlib

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "s.sqlite"))
    monkeypatch.setattr(importlib.import_module(f"setlab.cli.{module}"), run, interrupted)
    assert main(argv) == 130
    out, err = capsys.readouterr()
    expected = "error: interrupted" + (" (finished work is kept in the store)" if kept else "")
    assert (out, err.splitlines()) == ("", [expected])


def test_scheduler_local_overrides_the_environment(capsys, monkeypatch, tmp_path):
    """``$SETLAB_SCHEDULER`` naming a cluster that is down stops a command in one line;
    ``--scheduler local`` runs it on this machine instead, whatever the variable says."""
    monkeypatch.setenv("SETLAB_SCHEDULER", "tcp://127.0.0.1:1")  # nothing listens on port 1
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "s.sqlite"))
    argv = ["maxsets", "-p", "2", "-n", "4"]
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:1" in refused(capsys, *argv)
    assert main([*argv, "--scheduler", "local"]) == 0
    assert capsys.readouterr().out.startswith("M(4) = 1 ")
    assert main(["caps", "-p", "2", "--scheduler", "local", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == 4
    out = str(tmp_path / "bundle")  # certify builds its slow certificates there too
    assert "cannot reach the Dask scheduler" in refused(capsys, "certify", "-p", "2", "--out", out)
    assert not (tmp_path / "bundle").exists()
    assert main(["certify", "-p", "2", "--out", out, "--scheduler", "local"]) == 0
    assert (tmp_path / "bundle" / "manifest.json").exists()


def test_verify_and_certify_refuse_a_store_that_is_not_there_or_holds_nothing(
    capsys, monkeypatch, tmp_path
):
    """A mistyped store path, or a P the store holds nothing of, is an error, never "0 of 0
    checks passed"; the default store is held to it too, and no store file is left behind."""
    missing = tmp_path / "typo.sqlite"
    expected = f"error: no results store at {missing}"
    assert refused(capsys, "verify", "--store", str(missing)) == expected
    monkeypatch.setenv("SETLAB_STORE", str(missing))
    assert refused(capsys, "verify") == f"error: no results store at {missing}"
    out = str(tmp_path / "bundle")
    assert refused(capsys, "certify", "-p", "2", "--out", out).startswith("error: no results store")
    assert not missing.exists()
    assert main(["maxsets", "-p", "2", "-n", "4"]) == 0
    capsys.readouterr()
    assert main(["verify", "-p", "2"]) == 0
    assert capsys.readouterr().out.splitlines()[0].endswith("checks passed")
    assert refused(capsys, "verify", "-p", "3") == (
        f"error: nothing to check: the store at {missing} holds no results of P = 3"
    )


def test_a_hint_is_for_the_game_of_set_only(capsys):
    """``--hint`` shows one card of a set; with a variant it used to print every structure."""
    board = ["0000", "1111", "2222", "3333"]
    for option in (["--variant", "4set"], ["--variant", "ultra"], ["--values", "4"]):
        line = refused(capsys, "find", "--hint", *option, *board)
        assert line == "error: --hint is for the game of SET: not with --variant or --values"
    assert main(["find", "--hint", "--variant", "set", "1RSD", "2RSD", "3RSD"]) == 0
    assert "Hint: look for a set with 1 red solid diamond" in capsys.readouterr().out


def test_two_drawings_of_caps_may_not_share_a_file(capsys, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "s.sqlite"))
    line = refused(capsys, "caps", "-p", "2", "--picture", "same.png", "--graph", "./same.png")
    assert line == "error: --picture and --graph name the same file: same.png"
    assert list(tmp_path.iterdir()) == []  # refused before any work: no store, no drawing


def test_a_setlab_store_in_a_mistyped_directory_is_refused_not_made(capsys, monkeypatch, tmp_path):
    """The same of ``$SETLAB_STORE``, for every command (caps leaves --store out of its args
    when not given); ``--store`` given beside it wins."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SETLAB_STORE", "typo/results.sqlite")
    for argv in (["maxsets", "-p", "2", "-n", "3"], ["caps", "-p", "2"]):
        assert refused(capsys, *argv) == "error: SETLAB_STORE: no such directory: typo"
    assert list(tmp_path.iterdir()) == []
    assert main(["caps", "-p", "2", "--store", "here.sqlite"]) == 0


def test_a_store_in_a_mistyped_directory_is_refused_not_made(capsys, monkeypatch, tmp_path):
    """``--store`` in a directory that does not exist is refused, as ``-o`` and ``--plot`` are:
    making the directory would start an empty store under a typo."""
    monkeypatch.chdir(tmp_path)
    argv = ["heuristic", "search", "-p", "2", "-n", "4", "--seconds", "0.05"]
    line = refused(capsys, *argv, "--store", "typo/results.sqlite")
    assert line.startswith("error: argument --store: no such directory: typo")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("workers", ["0", "-3", "abc", "2.5"])
def test_a_bad_setlab_workers_is_refused_before_any_work(capsys, monkeypatch, tmp_path, workers):
    """``$SETLAB_WORKERS`` below one used to run one worker without a word; now every bad value
    is one line before any work, whether or not the command would have started a pool."""
    monkeypatch.setenv("SETLAB_WORKERS", workers)
    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "s.sqlite"))
    line = refused(capsys, "maxsets", "-p", "2", "-n", "4")
    expected = f"SETLAB_WORKERS must be a whole number of workers, 1 or more, got {workers!r}"
    assert line == f"error: {expected}"
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "argv, command",
    [
        (["third", "0000", "1111", "2222"], "third"),
        (["caps", "count", "--picture", "x.png"], "caps count"),
        (["heuristic", "search", "-n", "4", "--bogus"], "heuristic search"),
    ],
)
def test_unrecognized_words_point_to_the_command_s_own_help(capsys, argv, command):
    line = refused(capsys, *argv)
    assert line.startswith("error: unrecognized arguments: ")
    assert line.endswith(f"(see 'setlab {command} --help')")


@pytest.mark.parametrize(
    "argv, message",
    [
        (["1RSD", "2RSD", "3RSD", "-o", "s.svg", "--scale", "5"],
         "--scale sets a PNG's resolution: it does not apply to an SVG"),
        (["--config", "c.txt", "0000", "-o", "d.svg"],
         "give either cards (a board) or --config (a configuration), not both"),
        (["--config", "c.txt", "--columns", "2", "-o", "d.svg"],
         "--columns lays out a board: it does not apply to --config"),
    ],
)  # fmt: skip
def test_draw_refuses_options_that_would_be_ignored(capsys, monkeypatch, tmp_path, argv, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.txt").write_text("0000\n1111\n")
    assert refused(capsys, "draw", *argv) == f"error: {message}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.txt"]


CP_SAT_THEN_CTRL_C = """
import os, signal, threading, time
from ortools.sat.python import cp_model
from setlab.extremal import bounds

assert bounds.solve_cpsat(bounds.slice_program(4, 10, 13, 15, {9: 12}))[0] == "infeasible"
assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
try:  # CP-SAT's own handler, left installed, used to end the process here without a word
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(2)
except KeyboardInterrupt:
    print("after a solve: KeyboardInterrupt")

model = cp_model.CpModel()  # a Golomb ruler of 12 marks: CP-SAT works on it for minutes
marks = [model.new_int_var(0, 144, "") for _ in range(12)]
model.add(marks[0] == 0)
for a, b in zip(marks, marks[1:]):
    model.add(a < b)
model.add_all_different([b - a for i, a in enumerate(marks) for b in marks[i + 1:]])
model.minimize(marks[-1])
solver = cp_model.CpSolver()
solver.parameters.max_time_in_seconds = 60
solver.parameters.num_workers = 1
threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGINT)).start()
try:
    bounds.solve_interruptibly(solver, model)
except KeyboardInterrupt:
    print("during a solve: KeyboardInterrupt")
"""


def test_cp_sat_leaves_ctrl_c_to_python():
    done = subprocess.run(
        [sys.executable, "-c", CP_SAT_THEN_CTRL_C], capture_output=True, text=True, timeout=50
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "after a solve: KeyboardInterrupt",
        "during a solve: KeyboardInterrupt",
    ]


def test_ctrl_c_during_the_exhaustive_walk_waits_for_the_slice_then_stops(monkeypatch):
    """A SIGINT inside the parallel walk used to surface in numba's calls back into Python and
    crash the process (exit 139) when the walk ended; now it is held until the running slice
    returns, then raised, and no further slice starts."""
    import os
    import signal

    from setlab.extremal import bruteforce

    real, started, finished = bruteforce._gray_code_walk, [], []

    def walk(*args):
        started.append(len(started))
        if len(started) == 1:
            os.kill(os.getpid(), signal.SIGINT)
        finished.append(len(finished))  # Python running inside the call, as numba's callbacks do
        return real(*args)

    monkeypatch.setattr(bruteforce, "_gray_code_walk", walk)
    with pytest.raises(KeyboardInterrupt):
        bruteforce.exhaustive_table(2)
    assert started == finished == [0]  # the slice ran to its end, and it was the last one


def test_ctrl_c_ends_the_pool_workers_with_their_running_tasks():
    """Pool workers ignore SIGINT: an interrupted job used to wait, at exit, for every running
    task to finish (minutes for a long search). Now its workers end with the interrupt."""
    import multiprocessing
    import time

    from setlab.executor import run_tasks

    def interrupt(done):
        raise KeyboardInterrupt

    before = set(multiprocessing.active_children())  # another test's pool may still be ending
    tasks = {"quick": (0,), "slow": (600,)}
    started = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        run_tasks("sleep", tasks, time.sleep, workers=2, summary=interrupt)
    deadline = time.monotonic() + 30  # a loaded machine may take a moment to reap them
    while not set(multiprocessing.active_children()) <= before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert set(multiprocessing.active_children()) <= before  # this job's workers are gone
    assert time.monotonic() - started < 60  # and nobody waited for the 600 s task


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc takes no new files")
@pytest.mark.parametrize(
    "argv",
    [
        ["simulate", "--games", "5", "--plot", "/proc/odds.svg"],
        ["draw", "1012", "-o", "/proc/board.svg"],
        ["caps", "-p", "2", "--picture", "/proc/cap.svg"],
        ["certify", "-p", "2", "--out", "/proc/bundle"],
    ],
)
def test_a_directory_that_takes_no_file_is_refused_even_for_the_superuser(
    capsys, monkeypatch, argv
):
    """The permission bits let a superuser (or a read-only mount) through: the simulation ran
    and only then failed to write its plot. A file is now tried in the directory first."""
    import setlab.cli.caps
    import setlab.cli.common
    import setlab.cli.game

    forbid(monkeypatch, setlab.cli.game, "simulate")
    forbid(monkeypatch, setlab.cli.caps, "largest_cap")
    monkeypatch.setattr(setlab.cli.common.os, "access", lambda path, mode: True)  # as root
    assert "cannot write to '/proc'" in refused(capsys, *argv)


def test_reproduce_draws_no_progress_bar_into_a_log(capsys, monkeypatch, tmp_path):
    """stderr that is not a terminal (a log, a pipe, CI) gets no carriage-return bars."""
    from types import SimpleNamespace

    import setlab.report

    asked = {}

    def build_report(out, quick=False, progress=True, scheduler=None, store=None):
        asked["progress"] = progress
        return SimpleNamespace(html_path=tmp_path / "index.html", markdown_path=tmp_path / "r.md",
                               seconds=0.0, reproduced=(1, 1), checked=(0, 0))  # fmt: skip

    monkeypatch.setattr(setlab.report, "build_report", build_report)
    assert main(["reproduce", "--out", str(tmp_path)]) == 0
    assert asked == {"progress": False} and capsys.readouterr().err == ""


def test_reproduce_hands_its_store_to_the_sections(capsys, monkeypatch, tmp_path):
    """--store reaches every section's context; a store that cannot be opened is refused first."""
    from types import SimpleNamespace

    import setlab.report.sections as sections
    from setlab.report.model import Section, Text

    seen = []

    def build(context):
        seen.append(context.store.path)
        return Section("Probe", "a test", (Text("nothing"),))

    monkeypatch.setenv("SETLAB_STORE", str(tmp_path / "elsewhere.sqlite"))
    monkeypatch.setattr(sections, "SECTIONS", (SimpleNamespace(__name__="probe", build=build),))
    store = tmp_path / "mine.sqlite"
    assert main(["reproduce", "--out", str(tmp_path / "r"), "--store", str(store)]) == 0
    assert seen == [str(store)] and "reproduced" in capsys.readouterr().out
    (tmp_path / "damaged.sqlite").write_text("not a database")
    argv = ["reproduce", "--out", str(tmp_path / "r2"), "--store", str(tmp_path / "damaged.sqlite")]
    assert "results store" in refused(capsys, *argv)
    assert seen == [str(store)] and not (tmp_path / "r2").exists()


@pytest.mark.parametrize(
    "argv, work",
    [
        (["heuristic", "cmm", "-p", "2"], ("setlab.cli.heuristic", "cmm")),
        (["heuristic", "search", "-p", "2", "-n", "5"], ("setlab.cli.heuristic", "local_search")),
        (["caps", "-p", "2"], ("setlab.cli.caps", "largest_cap")),
        (["caps", "count", "-p", "2"], ("setlab.cli.caps", "count_caps")),
        (["caps", "--variant", "ultra", "-p", "2"], ("setlab.cli.caps", "largest_structure_free")),
        (["maxsets", "-p", "2", "-n", "6"], ("setlab.extremal.maxsets", "exhaustive_table")),
        (["maxsets", "--variant", "ultra", "-p", "2", "-n", "6"],
         ("setlab.extremal.ultrasets", "most_ultrasets")),
    ],
)
def test_a_read_only_store_is_refused_before_the_work_it_would_record(
    capsys, monkeypatch, tmp_path, argv, work
):
    """A chmod 444 store used to be found out only when the finished work was written."""
    import importlib
    import os

    from setlab.store import Store

    path = tmp_path / "s.sqlite"
    Store(path).finish_task("job", "task", 1)  # an existing store...
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: real(p, mode) and Path(p) != path)
    monkeypatch.setenv("SETLAB_STORE", str(path))  # ...that cannot be written
    forbid(monkeypatch, importlib.import_module(work[0]), work[1])
    assert "is read-only" in refused(capsys, *argv)


def test_a_read_only_store_still_answers_from_what_it_holds(capsys, monkeypatch, tmp_path):
    import os

    path = tmp_path / "s.sqlite"
    monkeypatch.setenv("SETLAB_STORE", str(path))
    assert main(["maxsets", "-p", "2", "-n", "6"]) == 0
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: real(p, mode) and Path(p) != path)
    capsys.readouterr()
    assert main(["maxsets", "-p", "2", "-n", "6"]) == 0
    assert "M(6) = 3" in capsys.readouterr().out


def test_drop_constant_without_a_configuration_is_refused_not_ignored(capsys, tmp_path):
    out = tmp_path / "board.svg"
    message = refused(capsys, "draw", "--drop-constant", "1RSD", "1RSS", "1RSO", "-o", str(out))
    assert "--drop-constant goes with --config" in message and not out.exists()


def test_verify_help_says_what_its_default_p_means():
    done = subprocess.run([*SETLAB, "verify", "--help"], capture_output=True, text=True,
                          timeout=120)  # fmt: skip
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    assert "(default: every P in the store)" in text and "default None" not in text
