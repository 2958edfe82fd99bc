"""A game of SET played one move at a time, by the rules of :mod:`setlab.game.rules`.

Three cards are a set iff in every property they are all the same or all different (x + y + z = 0
in each coordinate of F_3^P); :func:`why_not_a_set` names the properties where two agree and one
differs. A :class:`Table` deals ``deal`` cards, takes claimed sets (refilling their places only
from a table of at most ``deal`` cards), deals 3 more when a player rightly calls "no set", and
ends when the deck is empty and the table holds no set.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from setlab.cards import VALUE_NAMES, Card, check_properties, deck_size
from setlab.errors import SetlabError
from setlab.find import find_sets, mismatches
from setlab.game.rng import GameRandom
from setlab.game.rules import check_deal

__all__ = ["Claim", "Table", "why_not_a_set"]


def _value_name(axis: int, digit: int, properties: int) -> str:
    if properties != 4:
        return str(digit)
    if axis == 0:
        return f"{digit + 1} symbol" + ("s" if digit else "")
    if axis == 3:  # "two have diamonds": a card has its shapes
        return VALUE_NAMES[axis][digit] + "s"
    return VALUE_NAMES[axis][digit]


def why_not_a_set(cards: Sequence[int], properties: int = 4) -> list[str]:
    """Why three distinct cards are not a set: one phrase per failing property (empty if a set).

    A property fails when two cards share a value and the third has another
    (:func:`setlab.find.mismatches` finds them); for P other than 4 the properties are the
    digits, counted from 1.

    Examples
    --------
    >>> from setlab.cards import parse_card
    >>> why_not_a_set([parse_card(c) for c in ("1RSD", "2RSD", "3GSD")])
    ['colour: two are red, one is green']
    >>> why_not_a_set([parse_card(c) for c in ("1GSD", "2RSD", "3PSO")])
    ['shape: two have diamonds, one has ovals']
    >>> why_not_a_set([parse_card(c) for c in ("1RSD", "1GTS", "3POO")])
    ['number: two have 1 symbol, one has 3 symbols']
    >>> why_not_a_set([parse_card(c) for c in ("1RSD", "2GTS", "3POO")])
    []
    >>> why_not_a_set([0, 1, 5], 2)  # 00 01 12: the second digit is 0, 1, 2; the first is not
    ['digit 1: two are 0, one is 1']
    """
    if len(cards) != 3 or len(set(cards)) != 3:
        raise SetlabError("a set is three different cards")
    reasons = []
    for m in mismatches(*(Card(int(card), properties) for card in cards)):
        pair = max(set(m.values), key=m.values.count)
        odd = next(v for v in m.values if v != pair)
        have, has = ("have", "has") if properties == 4 and m.axis in (0, 3) else ("are", "is")
        reasons.append(
            f"{m.property}: two {have} {_value_name(m.axis, pair, properties)}, "
            f"one {has} {_value_name(m.axis, odd, properties)}"
        )
    return reasons


@dataclass(frozen=True)
class Claim:
    """The answer to a claimed set: taken or not, and why not (failing properties or a reason)."""

    ok: bool
    reasons: tuple[str, ...] = ()


class Table:
    """One game in play: the deck in order, the table, the sets taken.

    Parameters
    ----------
    seed
        Shuffle by ``GameRandom(seed, 0)`` (default: a random seed).
    properties
        Number of properties P (3^P cards).
    deal
        Cards dealt at the start and kept on the table while the deck lasts.

    Examples
    --------
    >>> table = Table(seed=7)
    >>> len(table.cards), table.deck_left
    (12, 69)
    >>> while not table.over:
    ...     sets = table.sets()
    ...     _ = table.claim(sets[0]) if sets else table.no_set()
    >>> 3 * len(table.taken) + len(table.cards)
    81
    """

    def __init__(self, seed: int | None = None, properties: int = 4, deal: int = 12) -> None:
        check_properties(properties)
        check_deal(deal)
        self.properties = properties
        self.deal = deal
        self.seed = secrets.randbits(63) if seed is None else seed
        self.order = GameRandom(self.seed, 0).shuffled(deck_size(properties))
        self.dealt = min(deal, len(self.order))
        self.cards: list[int] = self.order[: self.dealt]
        self.taken: list[tuple[int, int, int]] = []
        self.version = 0
        """Counts every change of the table (a claim taken, cards added)."""

    @property
    def deck_left(self) -> int:
        """Cards not yet dealt."""
        return len(self.order) - self.dealt

    def sets(self) -> list[tuple[int, int, int]]:
        """The sets on the table as card triples, in the order of :func:`setlab.find.find_sets`."""
        found = find_sets(self.cards, self.properties)
        return [(self.cards[i], self.cards[j], self.cards[k]) for i, j, k in found]

    @property
    def over(self) -> bool:
        """True when the deck is empty and the table holds no set."""
        return self.deck_left == 0 and not self.sets()

    def claim(self, cards: Sequence[int]) -> Claim:
        """Take ``cards`` if they are three cards of the table forming a set.

        Examples
        --------
        >>> table = Table(seed=1)
        >>> table.claim(table.cards[:2]).reasons
        ('choose three cards',)
        """
        try:
            chosen = [int(card) for card in cards]
        except (TypeError, ValueError):
            return Claim(False, ("cards are given by their numbers",))
        if len(chosen) != 3 or len(set(chosen)) != 3:
            return Claim(False, ("choose three cards",))
        if any(card not in self.cards for card in chosen):
            return Claim(False, ("those cards are no longer on the table",))
        reasons = why_not_a_set(chosen, self.properties)
        if reasons:
            return Claim(False, tuple(reasons))
        places = sorted(self.cards.index(card) for card in chosen)
        refill = len(self.cards) <= self.deal
        for place in places:
            if refill and self.dealt < len(self.order):
                self.cards[place] = self.order[self.dealt]
                self.dealt += 1
            else:
                self.cards[place] = -1
        self.cards = [card for card in self.cards if card >= 0]
        self.taken.append((chosen[0], chosen[1], chosen[2]))
        self.version += 1
        return Claim(True)

    def no_set(self) -> Claim:
        """A player calls "no set": if right, deal 3 more cards (the game ends on an empty deck).

        Examples
        --------
        >>> Table(seed=7).no_set().ok  # this deal holds a set
        False
        """
        if self.sets():
            return Claim(False, ("there is a set on the table",))
        if self.deck_left:
            more = self.order[self.dealt : self.dealt + 3]
            self.cards.extend(more)
            self.dealt += len(more)
            self.version += 1
        return Claim(True)

    def hint(self, cards: int) -> list[int]:
        """The first ``cards`` (1 or 2) cards of the first set on the table; [] if none."""
        sets = self.sets()
        return list(sets[0][: max(1, min(2, cards))]) if sets else []
