"""The results store: proven values, witnesses, proof records and search checkpoints in SQLite.

A *result* is one extremal quantity, keyed by (problem, properties, cards, params): e.g. the
maximum number of sets among n cards of AG(4,3). It holds the best *witness* found so far (a
configuration attaining ``value``), the best proven *bound* on the other side, and the proof
record of that bound; it is proven when value == bound. A *checkpoint* is the JSON output of one
finished task of a long search, so an interrupted search resumes where it stopped. A *level* is
the list of representatives a search kept at one level, stored compactly under its name, so a
search's proof can be replayed by a checker from the stored levels.

Every write is one SQLite transaction: a crash or Ctrl-C leaves the file as it was before the
write or after it, never in between. The layout of the max/min problems is fixed here
(:data:`PROBLEMS`, :data:`Sense`), so every module that reads or writes them imports it from here.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import platform
import re
import sqlite3
import time
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
import platformdirs

from setlab.errors import SetlabError

__all__ = [
    "PROBLEMS",
    "PlayedGame",
    "Result",
    "Sense",
    "Store",
    "default_store_path",
    "interval",
    "interval_text",
    "job_digest",
    "software_versions",
]

Sense = Literal["max", "min"]
"""Which extreme a result is: the most (``"max"``) or the fewest (``"min"``) sets."""

PROBLEMS: dict[Sense, str] = {"max": "maxsets", "min": "minsets"}
"""Store problem name of the most and the fewest sets among n cards: M(n) and m(n). ``params``
is empty, ``cards`` = n, the witness a list of card indices; proof records carry ``method``."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS results (
    id          INTEGER PRIMARY KEY,
    problem     TEXT    NOT NULL,
    properties  INTEGER NOT NULL,
    cards       INTEGER NOT NULL,
    params      TEXT    NOT NULL,
    sense       TEXT    NOT NULL CHECK (sense IN ('max', 'min')),
    value       INTEGER,
    witness     TEXT,
    witness_method TEXT,
    bound       INTEGER,
    proof       TEXT,
    bound_method TEXT,
    updated     REAL    NOT NULL,
    UNIQUE (problem, properties, cards, params)
);
CREATE TABLE IF NOT EXISTS levels (
    name        TEXT    PRIMARY KEY,
    properties  INTEGER NOT NULL,
    cards       INTEGER NOT NULL,
    count       INTEGER NOT NULL,
    data        BLOB    NOT NULL
);
CREATE TABLE IF NOT EXISTS checkpoints (
    job     TEXT NOT NULL,
    task    TEXT NOT NULL,
    payload TEXT NOT NULL,
    PRIMARY KEY (job, task)
);
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY,
    kind        TEXT    NOT NULL,
    properties  INTEGER NOT NULL,
    seconds     REAL    NOT NULL,
    sets        INTEGER NOT NULL,
    hints       INTEGER NOT NULL,
    mistakes    INTEGER NOT NULL,
    finished    REAL    NOT NULL,
    mode        TEXT    NOT NULL DEFAULT 'set',
    player      TEXT    NOT NULL DEFAULT ''
);
"""


def default_store_path() -> Path:
    """``$SETLAB_STORE`` if set, else ``results.sqlite`` in the user's data directory.

    Examples
    --------
    >>> saved = os.environ.pop("SETLAB_STORE", None)
    >>> default_store_path().name
    'results.sqlite'
    >>> os.environ["SETLAB_STORE"] = "/tmp/mine.sqlite"
    >>> default_store_path()
    PosixPath('/tmp/mine.sqlite')
    >>> del os.environ["SETLAB_STORE"]
    >>> if saved is not None:  # leave the environment as it was
    ...     os.environ["SETLAB_STORE"] = saved
    """
    if os.environ.get("SETLAB_STORE"):
        return Path(os.environ["SETLAB_STORE"])
    return Path(platformdirs.user_data_dir("setlab")) / "results.sqlite"


def software_versions() -> dict[str, str]:
    """Versions of Python, setlab and the numeric libraries, for proof records.

    Examples
    --------
    >>> sorted(software_versions())
    ['numba', 'numpy', 'python', 'setlab']
    """
    import numba
    import numpy

    from setlab import __version__

    return {
        "python": platform.python_version(),
        "setlab": __version__,
        "numpy": numpy.__version__,
        "numba": numba.__version__,
    }


@dataclass(frozen=True)
class Result:
    """One stored extremal value with its witness and proof record.

    For ``sense == "max"`` the witness gives ``value <= optimum`` and the proof ``optimum <=
    bound``; for ``"min"`` the other way round.
    """

    id: int
    problem: str
    properties: int
    cards: int
    params: dict[str, Any]
    sense: Sense
    value: int | None
    witness: list[int] | None
    witness_method: str | None
    bound: int | None
    proof: dict[str, Any] | None = field(repr=False)
    bound_method: str | None
    updated: float | None = None
    """When the row last changed (seconds since the epoch): when its value was computed."""

    @property
    def proven(self) -> bool:
        """True when the witness attains the proven bound."""
        return self.value is not None and self.value == self.bound

    @property
    def lower(self) -> int | None:
        """The best proven lower bound on the optimum (see :func:`interval`)."""
        return interval(self.sense, self.value, self.bound)[0]

    @property
    def upper(self) -> int | None:
        """The best proven upper bound on the optimum (see :func:`interval`)."""
        return interval(self.sense, self.value, self.bound)[1]


def interval(sense: Sense, value: int | None, bound: int | None) -> tuple[int | None, int | None]:
    """(lower, upper) bounds of an optimum from its best witness ``value`` and proven ``bound``.

    A witness attains its value, so it bounds a maximum from below and a minimum from above;
    the proven bound closes the other side.

    Examples
    --------
    >>> interval("max", 2536, 2558), interval("min", 12, 9)
    ((2536, 2558), (9, 12))
    """
    return (value, bound) if sense == "max" else (bound, value)


def interval_text(name: str, lower: int | None, upper: int | None, proven: bool = True) -> str:
    """What is known of the quantity ``name``, never an equality unless it is proven.

    Bounds that meet are an equality, unless ``proven`` is False: a value that only setlab's own
    search closes, with no certificate a separate checker re-checks, keeps both bounds.

    Examples
    --------
    >>> interval_text("M(150)", 2536, 2558), interval_text("M(12)", 14, 14)
    ('2536 <= M(150) <= 2558', 'M(12) = 14')
    >>> interval_text("m(40)", None, 12), interval_text("r(5)", 45, None)
    ('m(40) <= 12', '45 <= r(5)')
    >>> interval_text("M(3)", None, None), interval_text("f(4)", 12, 12, proven=False)
    ('M(3) unknown', '12 <= f(4) <= 12')
    """
    if lower is not None and lower == upper and proven:
        return f"{name} = {lower}"
    if lower is None and upper is None:
        return f"{name} unknown"
    left = "" if lower is None else f"{lower} <= "
    right = "" if upper is None else f" <= {upper}"
    return f"{left}{name}{right}"


@dataclass(frozen=True)
class PlayedGame:
    """One game a person played (``kind`` "solo" or "room"): time, sets taken, hints, mistakes.

    ``mode`` is the game's mode ("set", or a mode of :mod:`setlab.game.variants`); ``player``
    the name a room player chose (empty for a solo game).
    """

    id: int
    kind: str
    properties: int
    seconds: float
    sets: int
    hints: int
    mistakes: int
    finished: float
    mode: str = "set"
    player: str = ""


class Store:
    """An SQLite results store.

    An existing file is opened at once (a damaged one is refused there); a new one is created by
    the first write, after checking that it can be, so a command refused before its work, or
    one that only reads, leaves no empty store behind.

    Examples
    --------
    >>> store = Store(":memory:")
    >>> _ = store.record_witness("maxsets", 2, 3, "max", 1, [0, 1, 2], method="example")
    >>> _ = store.record_bound("maxsets", 2, 3, "max", 1, {"argument": "C(3,3) = 1"}, "count")
    >>> store.get("maxsets", 2, 3).proven
    True
    """

    def __init__(self, path: str | os.PathLike[str] | None = None) -> None:
        self.path = str(default_store_path() if path is None else path)
        self._connection: sqlite3.Connection | None = None
        self._empty: sqlite3.Connection | None = None
        try:
            exists = self.path == ":memory:" or Path(self.path).exists()
        except (OSError, ValueError) as error:  # a name too long, a NUL byte
            reason = getattr(error, "strerror", None) or error
            raise SetlabError(f"cannot open results store {self.path}: {reason}") from None
        if exists:
            _ = self._db  # open now: a damaged or unreadable store is refused here
        else:  # created by the first write, so a refused command leaves no empty file behind
            _check_creatable(Path(self.path))

    @property
    def _db(self) -> sqlite3.Connection:
        """The connection to the store's file, which is created (with its directory) if needed."""
        if self._connection is None:
            try:
                if self.path != ":memory:":
                    Path(self.path).parent.mkdir(parents=True, exist_ok=True)
                self._connection = _open(self.path)
            except (OSError, sqlite3.Error) as error:
                raise SetlabError(f"cannot open results store {self.path}: {error}") from None
        return self._connection

    @property
    def _reader(self) -> sqlite3.Connection:
        """A connection to read from: the file's, or an empty store while there is no file."""
        if self._connection is not None or Path(self.path).exists():
            return self._db
        if self._empty is None:
            self._empty = sqlite3.connect(":memory:", isolation_level=None)
            self._empty.executescript(_SCHEMA)
        return self._empty

    @property
    def exists(self) -> bool:
        """Whether the store's file exists (a store is created by its first write).

        Examples
        --------
        >>> import tempfile
        >>> tmp = tempfile.TemporaryDirectory()
        >>> store = Store(Path(tmp.name) / "new.sqlite")
        >>> store.get("maxsets", 2, 3), store.exists
        (None, False)
        >>> store.finish_task("job", "task", 1)
        >>> store.exists
        True
        >>> store.close(); tmp.cleanup()
        """
        return self._connection is not None or Path(self.path).exists()

    def check_writable(self) -> None:
        """Refuse (a SetlabError) a store whose file exists but cannot take a new record.

        Commands that record what they compute call this before they start, so a read-only
        store costs no work; reading one needs no call.

        Examples
        --------
        >>> import tempfile
        >>> tmp = tempfile.TemporaryDirectory()
        >>> store = Store(Path(tmp.name) / "s.sqlite")
        >>> store.check_writable()  # a new store: its place was checked when it was opened
        >>> store.finish_task("job", "task", 1)
        >>> store.check_writable()
        >>> store.close(); tmp.cleanup()
        """
        if self.path == ":memory:" or not Path(self.path).exists():
            return
        path = Path(self.path)
        try:
            mounted_read_only = bool(os.statvfs(path).f_flag & os.ST_RDONLY)
        except OSError:
            mounted_read_only = False
        companions = [path.with_name(path.name + end) for end in ("-wal", "-shm")]
        if (
            mounted_read_only
            or not os.access(path, os.W_OK)
            or not (os.access(path.parent, os.W_OK) or all(p.exists() for p in companions))
            or any(p.exists() and not os.access(p, os.W_OK) for p in companions)
        ):
            raise SetlabError(
                f"results store {path} is read-only, and this command records its results "
                "there: point SETLAB_STORE (or --store) at a writable one"
            )

    def close(self) -> None:
        for db in (self._connection, self._empty):
            if db is not None:
                db.close()
        self._connection = self._empty = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- results -------------------------------------------------------------------------------

    def _row(self, problem: str, properties: int, cards: int, params: str) -> sqlite3.Row | None:
        cursor = self._reader.execute(
            "SELECT * FROM results WHERE problem=? AND properties=? AND cards=? AND params=?",
            (problem, properties, cards, params),
        )
        cursor.row_factory = sqlite3.Row
        return cursor.fetchone()

    def _ensure(self, problem: str, properties: int, cards: int, sense: Sense, params: str) -> None:
        self._db.execute(
            "INSERT OR IGNORE INTO results (problem, properties, cards, params, sense, updated)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (problem, properties, cards, params, sense, time.time()),
        )
        row = self._row(problem, properties, cards, params)
        if row is not None and row["sense"] != sense:
            raise SetlabError(f"{problem} is stored as a {row['sense']} problem, not {sense}")

    def record_witness(
        self,
        problem: str,
        properties: int,
        cards: int,
        sense: Sense,
        value: int,
        witness: Sequence[int],
        method: str,
        params: dict[str, Any] | None = None,
    ) -> bool:
        """Store ``witness`` (card indices) attaining ``value`` if it beats the stored one.

        Returns True when the store changed.
        """
        key = _params(params)
        better = "value IS NULL OR " + ("? > value" if sense == "max" else "? < value")
        with self._transaction():
            self._ensure(problem, properties, cards, sense, key)
            cursor = self._db.execute(
                f"UPDATE results SET value=?, witness=?, witness_method=?, updated=?"
                f" WHERE problem=? AND properties=? AND cards=? AND params=? AND ({better})",
                (value, json.dumps([int(c) for c in witness]), method, time.time(),
                 problem, properties, cards, key, value),
            )  # fmt: skip
            return cursor.rowcount > 0

    def record_bound(
        self,
        problem: str,
        properties: int,
        cards: int,
        sense: Sense,
        bound: int,
        proof: dict[str, Any],
        method: str,
        params: dict[str, Any] | None = None,
    ) -> bool:
        """Store a proven bound (upper for max, lower for min) if it improves the stored one."""
        key = _params(params)
        better = "bound IS NULL OR " + ("? < bound" if sense == "max" else "? > bound")
        record = dict(proof, software=software_versions(), recorded=time.time())
        with self._transaction():
            self._ensure(problem, properties, cards, sense, key)
            cursor = self._db.execute(
                f"UPDATE results SET bound=?, proof=?, bound_method=?, updated=?"
                f" WHERE problem=? AND properties=? AND cards=? AND params=? AND ({better})",
                (bound, json.dumps(record), method, time.time(),
                 problem, properties, cards, key, bound),
            )  # fmt: skip
            return cursor.rowcount > 0

    def get(
        self, problem: str, properties: int, cards: int, params: dict[str, Any] | None = None
    ) -> Result | None:
        """The stored result, or None."""
        row = self._row(problem, properties, cards, _params(params))
        return None if row is None else _result(row)

    def results(self, problem: str | None = None, properties: int | None = None) -> list[Result]:
        """All stored results, optionally of one problem and one P, in key order."""
        cursor = self._reader.execute(
            "SELECT * FROM results WHERE (? IS NULL OR problem=?) AND (? IS NULL OR properties=?)"
            " ORDER BY problem, properties, params, cards",
            (problem, problem, properties, properties),
        )
        cursor.row_factory = sqlite3.Row
        return [_result(row) for row in cursor]

    def merge(self, other: Store, problem: str, properties: int) -> int:
        """Copy the witnesses and bounds of ``other`` (one problem and P) that beat this store's.

        Returns how many results changed. Proof records are copied (stamped, like every
        recorded bound, with this copy's software versions and time), with the search levels they
        name; a deletion, complement or slice-program proof cites other stored bounds (the
        previous n, the other problem, the dimension below), so merge those as well for
        ``setlab verify`` to re-check it.

        Examples
        --------
        >>> a, b = Store(":memory:"), Store(":memory:")
        >>> _ = a.record_witness("maxsets", 2, 3, "max", 1, [0, 1, 2], method="example")
        >>> b.merge(a, "maxsets", 2), b.get("maxsets", 2, 3).witness
        (1, [0, 1, 2])
        """
        changed = 0
        for r in other.results(problem, properties):
            updated = False
            if r.witness is not None and r.value is not None:
                updated |= self.record_witness(
                    problem, properties, r.cards, r.sense, r.value, r.witness,
                    r.witness_method or "copied", r.params,
                )  # fmt: skip
            if r.bound is not None:
                bound_updated = self.record_bound(
                    problem, properties, r.cards, r.sense, r.bound, r.proof or {},
                    r.bound_method or "copied", r.params,
                )  # fmt: skip
                names = (r.proof or {}).get("levels") or [] if bound_updated else []
                for name in names:  # a search record's levels come with it
                    level = other.level(name)
                    if level is not None and self.level(name) is None:
                        cards = len(level[0]) if level else 0
                        self.record_level(name, properties, cards, level)
                updated |= bound_updated
            changed += updated
        return changed

    # -- search levels -------------------------------------------------------------------------

    def record_level(
        self, name: str, properties: int, cards: int, configurations: Sequence[Sequence[int]]
    ) -> None:
        """Store the representatives of one search level (``cards`` cards each) under ``name``.

        They are kept as one zlib-compressed array of 16-bit card indices (a few bytes a card).

        Examples
        --------
        >>> store = Store(":memory:")
        >>> store.record_level("example", 2, 3, [[0, 1, 2], [0, 1, 3]])
        >>> store.level("example")
        [[0, 1, 2], [0, 1, 3]]
        """
        array = np.asarray(configurations, dtype=np.uint16).reshape(len(configurations), cards)
        data = zlib.compress(array.tobytes(), 6)
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO levels (name, properties, cards, count, data)"
                " VALUES (?, ?, ?, ?, ?)",
                (name, properties, cards, len(configurations), data),
            )

    def level(self, name: str) -> list[list[int]] | None:
        """The representatives stored under ``name`` (each a sorted list of cards), or None."""
        row = self._db.execute(
            "SELECT cards, count, data FROM levels WHERE name=?", (name,)
        ).fetchone()
        if row is None:
            return None
        cards, count, data = row
        array = np.frombuffer(zlib.decompress(data), dtype=np.uint16).reshape(count, cards)
        return array.astype(int).tolist()

    # -- checkpoints ---------------------------------------------------------------------------

    def finished_tasks(self, job: str) -> dict[str, Any]:
        """Payloads of the finished tasks of ``job``, by task key."""
        rows = self._reader.execute("SELECT task, payload FROM checkpoints WHERE job=?", (job,))
        return {task: json.loads(payload) for task, payload in rows}

    def finish_task(self, job: str, task: str, payload: Any) -> None:
        """Checkpoint one finished task (idempotent)."""
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO checkpoints (job, task, payload) VALUES (?, ?, ?)",
                (job, task, json.dumps(payload)),
            )

    def remembered(self, job: str, task: str, compute: Callable[[], Any]) -> Any:
        """The payload of ``task`` of ``job`` if some run finished it, else ``compute()``,
        checkpointed and returned: for work a later run would repeat word for word, so the
        job's name must hold the code version and every input (:func:`job_digest`). Such jobs
        are kept, not forgotten when a table ends: a second table reads them.

        Examples
        --------
        >>> store = Store(":memory:")
        >>> store.remembered("squares", "3", lambda: 9), store.remembered("squares", "3", int)
        (9, 9)
        """
        row = self._reader.execute(
            "SELECT payload FROM checkpoints WHERE job=? AND task=?", (job, task)
        ).fetchone()
        if row is not None:
            return json.loads(row[0])
        payload = compute()
        self.finish_task(job, task, payload)
        return payload

    def forget_superseded(self, job: str) -> int:
        """Drop the kept jobs ``job`` replaces, returning how many tasks went: those named like
        it, ``family-vN/part`` or ``family-vN/part/digest``, with the same family and part and
        another version or digest (older code, or tables proven since). So a store keeps one
        generation of each kept job (:meth:`remembered`), not every one it ever ran.

        Examples
        --------
        >>> store = Store(":memory:")
        >>> for job in ("split-v5/P5/a1", "split-v6/P4/b2", "split-maxima-v2/AG(4,3)/c3"):
        ...     store.finish_task(job, "1", None)
        >>> store.forget_superseded("split-v6/P5/d4"), store.finished_tasks("split-v6/P4/b2")
        (1, {'1': None})
        """
        mine = _KEPT_JOB.fullmatch(job)
        if mine is None or not self.exists:
            return 0
        names = [row[0] for row in self._db.execute("SELECT DISTINCT job FROM checkpoints")]
        gone = [
            name
            for name in names
            if name != job
            and (other := _KEPT_JOB.fullmatch(name)) is not None
            and other.group("family", "part") == mine.group("family", "part")
        ]
        dropped = 0
        with self._transaction():
            for name in gone:
                dropped += self._db.execute("DELETE FROM checkpoints WHERE job=?", (name,)).rowcount
        return dropped

    def forget_job(self, job: str) -> None:
        """Drop the checkpoints of ``job`` (after its result is recorded)."""
        if not self.exists:
            return
        with self._transaction():
            self._db.execute("DELETE FROM checkpoints WHERE job=?", (job,))

    # -- games played --------------------------------------------------------------------------

    def record_game(
        self,
        kind: str,
        properties: int,
        seconds: float,
        sets: int,
        hints: int,
        mistakes: int,
        mode: str = "set",
        player: str = "",
    ) -> int:
        """Keep one finished game a person played; returns its id.

        Examples
        --------
        >>> store = Store(":memory:")
        >>> store.record_game("solo", 4, 312.5, 25, 1, 2)
        1
        >>> store.games()[0].seconds
        312.5
        """
        with self._transaction():
            cursor = self._db.execute(
                "INSERT INTO games (kind, properties, seconds, sets, hints, mistakes, finished,"
                " mode, player) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    kind,
                    properties,
                    float(seconds),
                    sets,
                    hints,
                    mistakes,
                    time.time(),
                    mode,
                    player,
                ),
            )
            return int(cursor.lastrowid or 0)

    def games(
        self, kind: str | None = None, limit: int = 1000, mode: str | None = None
    ) -> list[PlayedGame]:
        """The games played, most recent first (at most ``limit``), optionally of one kind
        and one mode."""
        rows = self._reader.execute(
            "SELECT id, kind, properties, seconds, sets, hints, mistakes, finished, mode, player"
            " FROM games WHERE (? IS NULL OR kind=?) AND (? IS NULL OR mode=?)"
            " ORDER BY finished DESC, id DESC LIMIT ?",
            (kind, kind, mode, mode, limit),
        )
        return [PlayedGame(*row) for row in rows]

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class _Transaction:
    """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK on any exception (Ctrl-C included)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, exc_type: object, *rest: object) -> None:
        self._db.execute("ROLLBACK" if exc_type else "COMMIT")


_OPEN_SECONDS = 60.0
"""How long opening a store waits for other processes' locks (SQLite's busy timeout too)."""


def _open(path: str) -> sqlite3.Connection:
    """A connection to the store at ``path`` in WAL mode with its tables, tried again while
    another process holds the lock it needs.

    Several processes may open a new store at once (a job's workers and its parent), each
    creating the file, switching it to WAL and creating the tables. SQLite waits out a busy lock
    (the timeout), but a lock two connections would wait for in turn (both upgrading) is refused
    at once, "database is locked"; that is a race, not a fault, so the opening is tried again
    until ``_OPEN_SECONDS`` have passed.
    """
    deadline = time.monotonic() + _OPEN_SECONDS
    while True:
        db = sqlite3.connect(path, timeout=_OPEN_SECONDS, isolation_level=None)
        try:
            if path != ":memory:":
                db.execute("PRAGMA journal_mode=WAL")
            db.executescript(_SCHEMA)
            _add_game_columns(db)
            return db
        except sqlite3.OperationalError as error:
            db.close()
            text = str(error)
            if ("locked" not in text and "busy" not in text) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)
        except BaseException:
            db.close()
            raise


def _add_game_columns(db: sqlite3.Connection) -> None:
    """Give a store made before games had a mode and a player name those columns."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    for name, default in (("mode", "'set'"), ("player", "''")):
        if name not in columns:
            with contextlib.suppress(sqlite3.OperationalError):  # a read-only store stays as is
                db.execute(f"ALTER TABLE games ADD COLUMN {name} TEXT NOT NULL DEFAULT {default}")


_KEPT_JOB = re.compile(r"(?P<family>.+?)-v\d+/(?P<part>[^/]+)(/[0-9a-f]+)?")
"""The name of a kept job (:meth:`Store.forget_superseded`): ``family-vN/part[/digest]``."""


def job_digest(inputs: Any) -> str:
    """16 hex digits of the sha256 of ``inputs`` as canonical JSON: the part of a checkpoint
    job's name that stands for its inputs (e.g. the proven tables a split reads).

    Examples
    --------
    >>> job_digest({"b": 2, "a": 1}) == job_digest({"a": 1, "b": 2}), len(job_digest([1, 2]))
    (True, 16)
    """
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()[:16]


def _check_creatable(path: Path) -> None:
    """Refuse (a SetlabError) a store path whose file could not be created, creating nothing."""
    if path.is_dir():
        raise SetlabError(f"cannot open results store {path}: it is a directory")
    parent = path.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
        raise SetlabError(f"cannot open results store {path}: cannot create it in {parent}")


def _params(params: dict[str, Any] | None) -> str:
    return json.dumps(params or {}, sort_keys=True)


def _result(row: sqlite3.Row) -> Result:
    return Result(
        id=row["id"],
        problem=row["problem"],
        properties=row["properties"],
        cards=row["cards"],
        params=json.loads(row["params"]),
        sense=row["sense"],
        value=row["value"],
        witness=None if row["witness"] is None else json.loads(row["witness"]),
        witness_method=row["witness_method"],
        bound=row["bound"],
        proof=None if row["proof"] is None else json.loads(row["proof"]),
        bound_method=row["bound_method"],
        updated=row["updated"],
    )
