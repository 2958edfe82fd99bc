"""Files are written whole or not at all (setlab.files): a failure or a Ctrl-C part way leaves
every target as it was and no temporary file behind."""

from __future__ import annotations

import os
import signal
import stat

import pytest

from setlab import files
from setlab.errors import SetlabError
from setlab.render.drawing import Drawing


def test_written_whole_with_the_usual_mode(tmp_path):
    target = files.write_atomically(tmp_path / "a.svg", "<svg/>")
    assert target.read_text() == "<svg/>" and os.listdir(tmp_path) == ["a.svg"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask  # as open(path, "w") makes it


@pytest.mark.parametrize("error", [KeyboardInterrupt, OSError(28, "No space left on device")])
def test_an_interrupt_or_a_full_disk_changes_nothing(tmp_path, monkeypatch, error):
    old = {tmp_path / "index.html": "old page", tmp_path / "report.md": "old text"}
    for path, text in old.items():
        path.write_text(text)
    real_fdopen = os.fdopen
    calls = []

    def fdopen(handle, mode):  # the second file's write fails, after the first is written
        calls.append(handle)
        if len(calls) == 2:
            os.close(handle)
            raise error
        return real_fdopen(handle, mode)

    monkeypatch.setattr(files.os, "fdopen", fdopen)
    expected = SetlabError if isinstance(error, OSError) else KeyboardInterrupt
    with pytest.raises(expected):
        files.write_all_atomically({path: "new" for path in old})
    assert {path: path.read_text() for path in old} == old
    assert sorted(os.listdir(tmp_path)) == ["index.html", "report.md"]  # no .part left


def test_a_drawing_in_a_missing_directory_is_one_error(tmp_path):
    with pytest.raises(SetlabError, match=r"cannot write .*nowhere/x\.svg: No such file"):
        Drawing("", 1, 1).save(tmp_path / "nowhere" / "x.svg")


def test_the_old_mode_and_a_link_are_kept(tmp_path):
    private = tmp_path / "report.md"
    private.write_text("old")
    private.chmod(0o600)
    files.write_atomically(private, "new")
    assert private.read_text() == "new" and stat.S_IMODE(private.stat().st_mode) == 0o600
    real = tmp_path / "real.svg"
    real.write_text("old")
    link = tmp_path / "link.svg"
    link.symlink_to(real)
    files.write_atomically(link, "new")
    assert link.is_symlink() and real.read_text() == "new"
    assert sorted(os.listdir(tmp_path)) == ["link.svg", "real.svg", "report.md"]


def test_a_real_ctrl_c_while_writing_arrives_after_every_file_is_moved(tmp_path, monkeypatch):
    targets = [tmp_path / "index.html", tmp_path / "report.md"]
    for path in targets:
        path.write_text("old")
    real_fdopen = os.fdopen

    def fdopen(handle, mode):  # Ctrl-C while each file is written
        os.kill(os.getpid(), signal.SIGINT)
        return real_fdopen(handle, mode)

    monkeypatch.setattr(files.os, "fdopen", fdopen)
    with pytest.raises(KeyboardInterrupt):
        files.write_all_atomically({path: "new" for path in targets})
    assert [path.read_text() for path in targets] == ["new", "new"]  # all moved, then the Ctrl-C
    assert sorted(os.listdir(tmp_path)) == ["index.html", "report.md"]
