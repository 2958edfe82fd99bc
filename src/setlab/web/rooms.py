"""Rooms where several people play one game of SET (:class:`setlab.game.play.Table`), or of a
mode of :mod:`setlab.game.variants` (:class:`~setlab.game.variants.VariantTable`), together.

A room has an unguessable code (``secrets.token_urlsafe``); a player who joins gets a secret
token that names them in the room, so a dropped connection rejoins with its score. Claims are
decided under one asyncio lock per room: the first valid claim of a set takes it, and every
later claim of any of its cards is answered "no longer on the table". Changes reach every
connection through a bounded queue of its own, so one slow reader never holds up a claim. A
finished game is handed once, per player (score, mistakes, duration), to the results store.
"""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from setlab.errors import SetlabError
from setlab.game.play import Table
from setlab.game.variants import VariantTable
from setlab.web.solo import mode_state

__all__ = [
    "MAX_PLAYERS",
    "MAX_ROOMS",
    "Lobby",
    "Player",
    "Room",
    "check_name",
]

MAX_ROOMS = 1000
"""Rooms kept at once; the longest idle room is closed to make space for a new one."""
MAX_PLAYERS = 16
"""Players who may join one room."""
QUEUE_SIZE = 256
"""Messages waiting for one connection before it is dropped as too slow."""

_NAME = re.compile(r"^[\w][\w .'-]{0,23}$")


def check_name(name: object) -> str:
    """A player's name, stripped: 1-24 letters, digits, spaces and ``.'-_``; else SetlabError.

    Examples
    --------
    >>> check_name("  Ada L. ")
    'Ada L.'
    >>> check_name("<script>")
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: a name is 1 to 24 letters, digits, spaces or . ' - _
    """
    text = name.strip() if isinstance(name, str) else ""
    if not _NAME.match(text):
        raise SetlabError("a name is 1 to 24 letters, digits, spaces or . ' - _")
    return text


@dataclass
class Player:
    """One player of a room: a public number, a name, a score, and live connections."""

    number: int
    name: str
    score: int = 0
    mistakes: int = 0
    connections: set[asyncio.Queue[dict[str, Any]]] = field(default_factory=set)

    def public(self) -> dict[str, Any]:
        """What every player of the room may see."""
        return {
            "number": self.number,
            "name": self.name,
            "score": self.score,
            "mistakes": self.mistakes,
            "online": bool(self.connections),
        }


class Room:
    """One shared game: its players by secret token, the table, the lock that orders claims."""

    def __init__(
        self, code: str, properties: int = 4, seed: int | None = None, mode: str = "set"
    ) -> None:
        self.code = code
        self.mode = mode
        self.table = self._deal(properties, seed)
        self.properties = self.table.properties
        self.players: dict[str, Player] = {}
        self.lock = asyncio.Lock()
        self.last: dict[str, Any] | None = None
        self.touched = time.monotonic()
        self.started = time.monotonic()
        self.recorded = False
        """True once the finished game is handed to the results store (:meth:`finished`)."""

    def _deal(self, properties: int, seed: int | None = None) -> Table | VariantTable:
        if self.mode == "set":
            return Table(seed=seed, properties=properties)
        return VariantTable(self.mode, seed=seed)

    def finished(self) -> list[dict[str, Any]]:
        """Once per game, when it is over: each player's name, score, mistakes and duration."""
        if self.recorded or not self.table.over:
            return []
        self.recorded = True
        seconds = time.monotonic() - self.started
        return [
            {"player": p.name, "score": p.score, "mistakes": p.mistakes, "seconds": seconds}
            for p in self.players.values()
        ]

    def join(self, name: str) -> tuple[str, Player]:
        """Add a player; returns their secret token and the player.

        Names are unique in a room, whatever their case: the scores and "Ada took a set" must
        say who. A dropped player comes back with the token, not by joining again.

        Examples
        --------
        >>> room = Room("ABCD", seed=1)
        >>> token, ada = room.join("Ada")
        >>> ada.number, ada.name
        (1, 'Ada')
        >>> room.join(" ada ")
        Traceback (most recent call last):
        ...
        setlab.errors.SetlabError: the name 'ada' is taken in this room: choose another
        """
        if len(self.players) >= MAX_PLAYERS:
            raise SetlabError(f"room is full ({MAX_PLAYERS} players)")
        name = check_name(name)
        if any(p.name.casefold() == name.casefold() for p in self.players.values()):
            raise SetlabError(f"the name '{name}' is taken in this room: choose another")
        token = secrets.token_urlsafe(24)
        player = Player(len(self.players) + 1, name)
        self.players[token] = player
        self.touched = time.monotonic()
        return token, player

    def state(self) -> dict[str, Any]:
        """The room as every player sees it."""
        return {
            "type": "state",
            "room": self.code,
            "properties": self.properties,
            **mode_state(self.table),
            "table": list(self.table.cards),
            "deck_left": self.table.deck_left,
            "taken": len(self.table.taken),
            "over": self.table.over,
            "version": self.table.version,
            "players": [p.public() for p in self.players.values()],
            "last": self.last,
        }

    # -- connections -------------------------------------------------------------------------

    def connect(self, token: str) -> asyncio.Queue[dict[str, Any]]:
        """A queue of the messages for one new connection of the player ``token``."""
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(QUEUE_SIZE)
        self.players[token].connections.add(queue)
        self.touched = time.monotonic()
        self.broadcast(self.state())
        return queue

    def disconnect(self, token: str, queue: asyncio.Queue[dict[str, Any]]) -> None:
        """Forget one connection; the player and their score stay."""
        player = self.players.get(token)
        if player is not None:
            player.connections.discard(queue)
            self.broadcast(self.state())

    def broadcast(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for every connection; a connection too far behind is cut off."""
        for player in self.players.values():
            for queue in list(player.connections):
                try:
                    queue.put_nowait(message)
                except asyncio.QueueFull:
                    player.connections.discard(queue)

    # -- moves -------------------------------------------------------------------------------

    async def claim(self, token: str, cards: Sequence[int]) -> dict[str, Any]:
        """Player ``token`` claims ``cards``: the first valid claim of a set takes it."""
        async with self.lock:
            player = self._player(token)
            claim = self.table.claim(cards)
            if claim.ok:
                player.score += 1
                self.last = {"player": player.number, "name": player.name, "cards": list(cards)}
                self.broadcast(self.state())
            elif (
                claim.reasons != ("those cards are no longer on the table",)
                and len(set(cards)) == mode_state(self.table)["size"]
            ):
                player.mistakes += 1
            return {"type": "claim", "ok": claim.ok, "reasons": list(claim.reasons)}

    async def no_set(self, token: str) -> dict[str, Any]:
        """Player ``token`` calls "no set": right, and 3 more cards are dealt."""
        async with self.lock:
            player = self._player(token)
            claim = self.table.no_set()
            if claim.ok:
                self.last = {"player": player.number, "name": player.name, "cards": []}
                self.broadcast(self.state())
            else:
                player.mistakes += 1
            return {"type": "noset", "ok": claim.ok, "reasons": list(claim.reasons)}

    async def new_game(self, token: str) -> dict[str, Any]:
        """Deal a new game once the current one is over; scores start again from 0."""
        async with self.lock:
            self._player(token)
            if not self.table.over:
                return {"type": "new", "ok": False, "reasons": ["the game is not over yet"]}
            self.table = self._deal(self.properties)
            self.started, self.recorded = time.monotonic(), False
            self.last = None
            for player in self.players.values():
                player.score = player.mistakes = 0
            self.broadcast(self.state())
            return {"type": "new", "ok": True, "reasons": []}

    def _player(self, token: str) -> Player:
        player = self.players.get(token)
        if player is None:
            raise SetlabError("you have not joined this room")
        self.touched = time.monotonic()
        return player


class Lobby:
    """Every open room by its code.

    Examples
    --------
    >>> lobby = Lobby()
    >>> room = lobby.open()
    >>> lobby.get(room.code) is room, lobby.get("guess") is None, len(room.code) >= 16
    (True, True, True)
    """

    def __init__(self, max_rooms: int = MAX_ROOMS) -> None:
        self.rooms: dict[str, Room] = {}
        self.max_rooms = max_rooms

    def open(self, properties: int = 4, seed: int | None = None, mode: str = "set") -> Room:
        """A new room with a fresh unguessable code."""
        if len(self.rooms) >= self.max_rooms:
            idle = min(self.rooms.values(), key=lambda room: room.touched)
            if any(p.connections for p in idle.players.values()):
                raise SetlabError("too many rooms are open: try again later")
            del self.rooms[idle.code]
        code = secrets.token_urlsafe(12)
        room = Room(code, properties, seed, mode)
        self.rooms[code] = room
        return room

    def get(self, code: str) -> Room | None:
        """The room with this code, or None."""
        return self.rooms.get(code) if isinstance(code, str) else None
