"""Files written whole or not at all.

Every file a command writes for its user (a drawing, the report, its pictures) is first written
beside its target under a hidden temporary name and then moved over the target by
:func:`os.replace`, which is atomic: a reader, a full disk or a Ctrl-C leaves the old file or
the new one, never half of one. The temporary file lives in the target's own directory (the
linked file's, for a symbolic link, which stays a link), so the move never crosses a file
system; it takes the old file's mode; it is removed if anything fails before the move. Ctrl-C is
held back while the files are written and moved (a moment: their contents are in memory) and
answered just after (:func:`setlab.interrupts.ctrl_c_held`).
"""

from __future__ import annotations

import os
import secrets
import stat
from collections.abc import Mapping
from pathlib import Path

from setlab.errors import SetlabError
from setlab.interrupts import ctrl_c_held

__all__ = ["write_all_atomically", "write_atomically"]


def _temporary_copy(path: Path, data: bytes | str) -> Path:
    """Write ``data`` to a new hidden file beside ``path`` and return its name.

    The file gets the mode of ``path`` if it exists, else 0o666 less the umask, as a plain
    ``open`` would make it (``tempfile.mkstemp`` would make it 0o600, and the move keeps that).
    """
    name = path.parent / f".{path.name[:100]}.{secrets.token_hex(6)}.part"  # within NAME_MAX
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
    handle = os.open(name, flags, 0o666)  # O_EXCL: the name is new, so it is ours to remove
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data.encode("utf-8") if isinstance(data, str) else data)
        if path.is_file():
            os.chmod(name, stat.S_IMODE(path.stat().st_mode))
    except BaseException:
        name.unlink(missing_ok=True)
        raise
    return name


def write_all_atomically(files: Mapping[str | Path, bytes | str]) -> None:
    """Write every file of ``files`` (path -> contents; text is UTF-8), each whole or not at all.

    All the contents are written to temporary files first and only then moved over their
    targets, one after the other, with Ctrl-C held back: an interrupt leaves every target as it
    was or all of them new, and so does an error while writing. (An error while moving, which
    on one directory only a failing disk gives, leaves the files moved before it new.)

    Raises
    ------
    SetlabError
        If a file cannot be written (``cannot write PATH: reason``).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     folder = Path(tmp)
    ...     write_all_atomically({folder / "a.txt": "one", folder / "b.txt": b"two"})
    ...     sorted(p.name for p in folder.iterdir()), (folder / "a.txt").read_text()
    (['a.txt', 'b.txt'], 'one')
    """
    with ctrl_c_held():
        _write_all(files)


def _write_all(files: Mapping[str | Path, bytes | str]) -> None:
    written: list[tuple[Path, Path]] = []
    try:
        for target, data in files.items():
            target = Path(target)
            if target.is_symlink():  # write the linked file: the link stays a link
                target = target.resolve()
            try:
                written.append((_temporary_copy(target, data), target))
            except OSError as error:
                raise SetlabError(f"cannot write {target}: {error.strerror}") from None
        while written:
            part, target = written[0]
            try:
                os.replace(part, target)
            except OSError as error:
                raise SetlabError(f"cannot write {target}: {error.strerror}") from None
            written.pop(0)
    finally:
        for part, _ in written:
            part.unlink(missing_ok=True)


def write_atomically(path: str | Path, data: bytes | str) -> Path:
    """Write ``data`` (text is UTF-8) to ``path`` whole or not at all; return the path.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     write_atomically(Path(tmp) / "cards.txt", "0000\\n1111\\n").read_text()
    '0000\\n1111\\n'
    """
    write_all_atomically({path: data})
    return Path(path)
