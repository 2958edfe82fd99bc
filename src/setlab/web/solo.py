"""Solo games in the browser: one :class:`setlab.game.play.Table` per game, timed, with hints.

A hint shows the first card of a set on the table, a second hint the second card of the same set;
the hints start again when the table changes. A finished game is kept in the results store
(time, sets taken, hints, mistakes) by the caller.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from setlab.game.play import Claim, Table

__all__ = ["MAX_GAMES", "SoloGame", "SoloGames"]

MAX_GAMES = 2000
"""Solo games kept at once; the oldest is forgotten first."""


@dataclass
class SoloGame:
    """One person's game: the table, the clock, hints and mistakes."""

    table: Table
    started: float = field(default_factory=time.monotonic)
    hints: int = 0
    mistakes: int = 0
    hint_cards: list[int] = field(default_factory=list)
    hint_version: int = -1
    seconds: float | None = None
    """Set when the game ends: the time it took."""
    recorded: bool = False
    """True once the finished game is in the results store."""

    def state(self) -> dict[str, Any]:
        """The game as the page shows it."""
        seconds = self.seconds if self.seconds is not None else time.monotonic() - self.started
        return {
            "table": list(self.table.cards),
            "deck_left": self.table.deck_left,
            "taken": len(self.table.taken),
            "over": self.table.over,
            "hints": self.hints,
            "mistakes": self.mistakes,
            "seconds": round(seconds, 2),
            "properties": self.table.properties,
        }

    def claim(self, cards: list[int]) -> Claim:
        """Claim three cards; a wrong triple counts as a mistake."""
        claim = self.table.claim(cards)
        if not claim.ok and claim.reasons != ("choose three cards",):
            self.mistakes += 1
        self._finish()
        return claim

    def no_set(self) -> Claim:
        """Call "no set"; a wrong call counts as a mistake."""
        claim = self.table.no_set()
        if not claim.ok:
            self.mistakes += 1
        self._finish()
        return claim

    def hint(self) -> list[int]:
        """One more card of the first set on the table (at most two)."""
        if self.hint_version != self.table.version:
            self.hint_version, self.hint_cards = self.table.version, []
        if len(self.hint_cards) < 2:
            self.hint_cards = self.table.hint(len(self.hint_cards) + 1)
            if self.hint_cards:
                self.hints += 1
        return list(self.hint_cards)

    def _finish(self) -> None:
        if self.seconds is None and self.table.over:
            self.seconds = time.monotonic() - self.started


class SoloGames:
    """The open solo games by their secret ids.

    Examples
    --------
    >>> games = SoloGames()
    >>> gid, game = games.new()
    >>> games.get(gid) is game, games.get("nope")
    (True, None)
    """

    def __init__(self, limit: int = MAX_GAMES) -> None:
        self.games: OrderedDict[str, SoloGame] = OrderedDict()
        self.limit = limit

    def new(self, properties: int = 4, seed: int | None = None) -> tuple[str, SoloGame]:
        """Deal a new game; returns its id and the game."""
        while len(self.games) >= self.limit:
            self.games.popitem(last=False)
        gid = secrets.token_urlsafe(16)
        game = SoloGame(Table(seed=seed, properties=properties))
        self.games[gid] = game
        return gid, game

    def get(self, gid: str) -> SoloGame | None:
        """The game with this id, or None."""
        return self.games.get(gid)
