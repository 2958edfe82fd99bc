"""Bad input to `setlab`: one line ``error: ...`` on stderr, exit code 2, before any work."""

from __future__ import annotations

import subprocess
import sys

import pytest

from setlab.cli import main

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
