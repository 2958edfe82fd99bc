"""Files written whole or not at all.

Every file a command writes for its user (a drawing, the report, its pictures) is first written
beside its target under a hidden temporary name and then moved over the target by
:func:`os.replace`, which is atomic: a reader, a full disk or a Ctrl-C leaves the old file or
the new one, never half of one. The temporary file lives in the target's own directory, so the
move never crosses a file system, and it is removed if anything fails before the move.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Mapping
from pathlib import Path

from setlab.errors import SetlabError

__all__ = ["write_all_atomically", "write_atomically"]


def _temporary_copy(path: Path, data: bytes | str) -> Path:
    """Write ``data`` to a new hidden file beside ``path`` and return its name.

    The file is made with mode 0o666 less the umask, as a plain ``open`` would make ``path``
    (``tempfile.mkstemp`` would make it 0o600, and the move would keep that).
    """
    name = path.parent / f".{path.name}.{os.getpid()}-{secrets.token_hex(4)}.part"
    handle = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data.encode("utf-8") if isinstance(data, str) else data)
    except BaseException:
        name.unlink(missing_ok=True)
        raise
    return name


def write_all_atomically(files: Mapping[str | Path, bytes | str]) -> None:
    """Write every file of ``files`` (path -> contents; text is UTF-8), each whole or not at all.

    All the contents are written to temporary files first and only then moved over their
    targets, one after the other: an error or an interrupt while writing leaves every target
    as it was.

    Raises
    ------
    SetlabError
        If a file cannot be written (``cannot write PATH: reason``).

    Examples
    --------
    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> write_all_atomically({folder / "a.txt": "one", folder / "b.txt": b"two"})
    >>> sorted(p.name for p in folder.iterdir()), (folder / "a.txt").read_text()
    (['a.txt', 'b.txt'], 'one')
    """
    written: list[tuple[Path, Path]] = []
    try:
        for target, data in files.items():
            target = Path(target)
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
    >>> target = Path(tempfile.mkdtemp()) / "cards.txt"
    >>> write_atomically(target, "0000\\n1111\\n").read_text()
    '0000\\n1111\\n'
    """
    write_all_atomically({path: data})
    return Path(path)
