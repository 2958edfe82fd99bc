"""Solo games in the browser: one table per game, timed, with hints.

The real game is a :class:`setlab.game.play.Table`; every other mode (UltraSet, GhostSet, 4Set,
Set-Chain, ...) a :class:`setlab.game.variants.VariantTable`, which holds that mode's rules. A
hint shows the first card of a structure on the table, a second hint the second card of the same
one; the hints start again when the table changes. A finished game is kept in the results store
(mode, time, structures taken, hints, mistakes) by the caller.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from setlab.errors import SetlabError
from setlab.game.play import Claim, Table
from setlab.game.variants import MODES, TITLES, VariantTable

__all__ = ["MAX_GAMES", "PLAY_MODES", "SoloGame", "SoloGames", "check_mode", "mode_state"]

MAX_GAMES = 2000
"""Solo games kept at once; the oldest is forgotten first."""
PLAY_MODES = ("set", *MODES)
"""The modes the page plays: the real game, then the variants of :mod:`setlab.game.variants`."""


def check_mode(mode: object) -> str:
    """A mode of :data:`PLAY_MODES` (default "set"); else a SetlabError.

    Examples
    --------
    >>> check_mode(None), check_mode("ghost")
    ('set', 'ghost')
    """
    if mode is None:
        return "set"
    if not isinstance(mode, str) or mode not in PLAY_MODES:
        raise SetlabError(f"mode must be one of {', '.join(PLAY_MODES)}")
    return mode


def mode_state(table: Table | VariantTable) -> dict[str, Any]:
    """What the page needs of a table's mode: name, title, cards per structure, previous move.

    ``previous`` holds, in a chain mode, the cards of the structure taken last, on which the
    next move must chain; it is empty before the first move and in every other mode.

    Examples
    --------
    >>> mode_state(Table(seed=1))
    {'mode': 'set', 'title': 'SET', 'size': 3, 'previous': []}
    >>> table = VariantTable("chain", seed=0)
    >>> table.claim(table.sets()[0]).ok
    True
    >>> mode_state(table)
    {'mode': 'chain', 'title': 'Set-Chain', 'size': 3, 'previous': [46, 72, 20]}
    """
    if isinstance(table, VariantTable):
        return {
            "mode": table.name,
            "title": TITLES[table.name],
            "size": table.size,
            "previous": list(table.previous),
        }
    return {"mode": "set", "title": TITLES["set"], "size": 3, "previous": []}


@dataclass
class SoloGame:
    """One person's game: the table, the clock, hints and mistakes."""

    table: Table | VariantTable
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
            **mode_state(self.table),
        }

    @property
    def mode(self) -> str:
        """The game's mode ("set" for the real game)."""
        return mode_state(self.table)["mode"]

    def claim(self, cards: list[int]) -> Claim:
        """Claim a structure; wrong cards of the right number count as a mistake."""
        claim = self.table.claim(cards)
        size = mode_state(self.table)["size"]
        gone = claim.reasons == ("those cards are no longer on the table",)
        if not claim.ok and len(set(cards)) == size and not gone:
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

    def new(
        self, properties: int = 4, seed: int | None = None, mode: str = "set"
    ) -> tuple[str, SoloGame]:
        """Deal a new game of ``mode`` (``properties`` only for the real game); its id and it."""
        while len(self.games) >= self.limit:
            self.games.popitem(last=False)
        gid = secrets.token_urlsafe(16)
        if mode == "set":
            game = SoloGame(Table(seed=seed, properties=properties))
        else:
            game = SoloGame(VariantTable(check_mode(mode), seed=seed))
        self.games[gid] = game
        return gid, game

    def get(self, gid: str) -> SoloGame | None:
        """The game with this id, or None."""
        return self.games.get(gid)
