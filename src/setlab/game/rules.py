"""The rules of SET and the reference engine: one game, every inspection recorded.

Deal ``deal`` (12) cards and inspect the table. No set: deal 3 more (15, 18, ...) in the same
round, or end the game if the deck is empty. A set: take it (a *round* ends); refill its places
from the deck only if the table held at most ``deal`` cards, so a set taken from 15 leaves 12.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from setlab.cards import check_properties, deck_size
from setlab.errors import SetlabError
from setlab.find import find_sets
from setlab.game.rng import GameRandom

__all__ = [
    "STRATEGIES",
    "Game",
    "Inspection",
    "Strategy",
    "check_deal",
    "play_game",
    "resolve_strategy",
    "take_first",
    "take_random",
]

Strategy = Callable[[tuple[int, ...], list[tuple[int, int, int]], GameRandom], int]
"""Which set a player takes: ``strategy(table, sets, rng)`` returns an index into ``sets``.

``table`` holds card indices in table order, ``sets`` the sets on it as position triples in the
order of :func:`setlab.find.find_sets`, and ``rng`` is the game's random source.
"""


def take_random(table: tuple[int, ...], sets: list[tuple[int, int, int]], rng: GameRandom) -> int:
    """Strategy: a set chosen uniformly at random among those on the table.

    The index is drawn by ``rng.below(len(sets))``, so a game's choices follow from its seed;
    this is the built-in strategy ``"random"``.

    Examples
    --------
    >>> table = tuple(range(9))  # the whole deck of P = 2: its 12 lines are its sets
    >>> sets = find_sets(table, 2)
    >>> rng = GameRandom(seed=1, game=0)
    >>> [sets[take_random(table, sets, rng)] for _ in range(3)]
    [(0, 5, 7), (0, 3, 6), (0, 5, 7)]
    >>> play_game(seed=7, strategy=take_random).taken == play_game(seed=7, strategy="random").taken
    True
    """
    return rng.below(len(sets))


def take_first(table: tuple[int, ...], sets: list[tuple[int, int, int]], rng: GameRandom) -> int:
    """Strategy: the first set in table order (smallest first two positions).

    That is ``sets[0]`` in the order of :func:`setlab.find.find_sets`; nothing is drawn from
    ``rng``. This is the built-in strategy ``"first"``.

    Examples
    --------
    >>> table = tuple(range(9))  # the whole deck of P = 2: its 12 lines are its sets
    >>> sets = find_sets(table, 2)
    >>> sets[take_first(table, sets, GameRandom(seed=1, game=0))]
    (0, 1, 2)
    """
    return 0


STRATEGIES: dict[str, Strategy] = {"random": take_random, "first": take_first}
"""The built-in strategies by name (the batch simulator plays these in numba)."""


@dataclass(frozen=True)
class Inspection:
    """One look at the table: its round, its cards in order, its number of sets, the deck left."""

    round: int
    table: tuple[int, ...]
    sets: int
    deck_left: int


@dataclass
class Game:
    """A finished game: the deck order, every inspection, and the sets taken (as card triples)."""

    order: tuple[int, ...]
    inspections: list[Inspection] = field(default_factory=list)
    taken: list[tuple[int, int, int]] = field(default_factory=list)

    @property
    def cards_left(self) -> int:
        """Cards on the table when the game ended."""
        return len(self.inspections[-1].table)

    @property
    def largest_table(self) -> int:
        """The most cards that lay on the table at once."""
        return max(len(look.table) for look in self.inspections)


def resolve_strategy(strategy: str | Strategy) -> Strategy:
    """The strategy function for a built-in name, or ``strategy`` itself if it is a function.

    Examples
    --------
    >>> resolve_strategy("first") is take_first
    True
    """
    if callable(strategy):
        return strategy
    if strategy not in STRATEGIES:
        raise SetlabError(f"unknown strategy {strategy!r}: choose from {', '.join(STRATEGIES)}")
    return STRATEGIES[strategy]


def check_deal(deal: int) -> None:
    """Check a deal (cards dealt at the start): return None, or raise SetlabError below one card.

    Examples
    --------
    >>> check_deal(12)  # the real game's deal passes silently
    >>> check_deal(0)
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: deal at least one card
    """
    if deal < 1:
        raise SetlabError("deal at least one card")


def play_game(
    seed: int = 0,
    game: int = 0,
    properties: int = 4,
    strategy: str | Strategy = "random",
    deal: int = 12,
    order: Sequence[int] | None = None,
) -> Game:
    """Play one game by the rules (see the module docstring) and record every inspection.

    The deck is shuffled by ``GameRandom(seed, game)`` unless ``order`` gives the cards to deal, in
    order (any distinct cards: a crafted deck). This is the reference engine, in plain Python with
    :func:`setlab.find.find_sets` per inspection; :func:`setlab.game.simulate` plays the
    same games in numba.

    Examples
    --------
    >>> g = play_game(seed=7)
    >>> len(g.inspections[0].table), 3 * len(g.taken) + g.cards_left
    (12, 81)
    >>> play_game(seed=7).taken == g.taken
    True
    """
    check_properties(properties)
    choose = resolve_strategy(strategy)
    check_deal(deal)
    rng = GameRandom(seed, game)
    if order is None:
        deck = rng.shuffled(deck_size(properties))
    else:
        deck = [int(card) for card in order]
        if len(set(deck)) != len(deck) or any(not 0 <= c < deck_size(properties) for c in deck):
            raise SetlabError("a crafted deck holds distinct cards of the P-property deck")
    record = Game(order=tuple(deck))
    table, dealt = deck[:deal], min(deal, len(deck))
    while True:
        sets = find_sets(table, properties)
        look = Inspection(len(record.taken), tuple(table), len(sets), len(deck) - dealt)
        record.inspections.append(look)
        if not sets:
            if dealt == len(deck):
                return record
            table += deck[dealt : dealt + 3]
            dealt = min(dealt + 3, len(deck))
            continue
        choice = choose(tuple(table), sets, rng)
        if not 0 <= choice < len(sets):
            raise SetlabError(f"strategy chose set {choice!r} of {len(sets)}")
        places = sets[choice]
        record.taken.append(tuple(table[p] for p in places))  # type: ignore[arg-type]
        refill = len(table) <= deal
        for p in places:
            if refill and dealt < len(deck):
                table[p] = deck[dealt]
                dealt += 1
            else:
                table[p] = -1
        table = [card for card in table if card >= 0]
