"""Real games of the variants, by the fork's dealing rule, in plain Python and in numba.

Deal the mode's board size; while the table holds none of the mode's structures, add cards up
to the next multiple of 3 (10 -> 12 -> 15); take a structure chosen at random, refill its places
from the deck only up to the board size; the game ends when the deck is empty and no structure
is left. Set-Chain: after the first set, a set is two table cards completed by a card of the
previous set (exactly one card of it), and the new set becomes the previous one. UltraSet-Chain:
after the first UltraSet, an UltraSet is two table cards and two cards of the previous one.
"""

from __future__ import annotations

import functools
import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache

import numba as nb
import numpy as np

from setlab.cards import (
    FOURTH_VALUES,
    PROPERTY_NAMES,
    VALUE_NAMES,
    valued_code,
    valued_name,
    vector_of,
)
from setlab.errors import SetlabError
from setlab.game.play import Claim, why_not_a_set
from setlab.game.rng import WORD_MASK, GameRandom, draw_below, start_state
from setlab.game.statistics import Estimate, clustered_ratio, mean_estimate, wilson
from setlab.kernels import close_gaps
from setlab.variants import count_structures, find_structures, is_ultra, tables, variant
from setlab.variants.kernels import ULTRA, structures_of_board
from setlab.variants.structures import vectors

__all__ = [
    "MODES",
    "RULES",
    "TITLES",
    "Mode",
    "VariantGame",
    "VariantSummary",
    "VariantTable",
    "card_code",
    "card_name",
    "display_card",
    "engine_tables",
    "exact_mean_structures",
    "game_figures",
    "mode",
    "mode_properties",
    "play_variant",
    "simulate_variant",
    "ultra_chain_moves",
    "variant_game_figures",
    "why_not",
]


@dataclass(frozen=True)
class Mode:
    """A mode of play: its structure (a variant of :mod:`setlab.variants`), deck and deal."""

    name: str
    structure: str
    properties: int
    deal: int
    chain: bool = False

    @property
    def values(self) -> int:
        """Values per property of the deck."""
        return variant(self.structure).values or 3

    @property
    def cards(self) -> int:
        """Cards in the deck, V^P."""
        return self.values**self.properties

    @property
    def size(self) -> int:
        """Cards in one structure."""
        return variant(self.structure).size(self.values)

    @property
    def carried(self) -> int:
        """Cards of the previous structure in a chain move (Set-Chain 1, UltraSet-Chain 2; 0
        when the mode does not chain): a chain move always takes two cards of the table."""
        return self.size - 2 if self.chain else 0


MODES = {
    "chain": Mode("chain", "set", 4, 12, chain=True),
    "junior": Mode("junior", "set", 3, 9),
    "megaset": Mode("megaset", "set", 5, 16),
    "ultra": Mode("ultra", "ultra", 4, 12),
    "ultra-chain": Mode("ultra-chain", "ultra", 4, 12, chain=True),
    "ultra9": Mode("ultra9", "ultra", 4, 9),
    "ghost": Mode("ghost", "ghost", 4, 10),
    "4set": Mode("4set", "4set", 4, 12),
    "4set-junior": Mode("4set-junior", "4set", 3, 9),
}
"""The modes ``setlab simulate --variant`` plays, with their decks and board sizes."""


def mode(name: str) -> Mode:
    """The mode called ``name`` (a SetlabError for an unknown one).

    Examples
    --------
    >>> mode("ghost").deal, mode("4set-junior").cards
    (10, 64)
    """
    if name not in MODES:
        raise SetlabError(f"unknown mode {name!r}: choose from {', '.join(MODES)}")
    return MODES[name]


def _next_size(size: int) -> int:
    """The table size after adding cards: the next multiple of 3 above ``size``."""
    return size + 3 - size % 3


@dataclass
class VariantGame:
    """A finished game: every inspection as (round, table size, structures), the taken cards."""

    inspections: list[tuple[int, int, int]] = field(default_factory=list)
    taken: list[tuple[int, ...]] = field(default_factory=list)
    cards_left: int = 0


def _chain_moves(table: list[int], previous: list[int], properties: int) -> list[tuple[int, ...]]:
    """Pairs of table positions completed to a set by a card of ``previous``, in order."""
    third = tables("set", properties).third
    return [
        (i, j)
        for i in range(len(table))
        for j in range(i + 1, len(table))
        if int(third[table[i], table[j]]) in previous
    ]


def ultra_chain_moves(
    table: list[int], previous: list[int], properties: int
) -> list[tuple[int, ...]]:
    """The UltraSet-Chain moves: (i, j, p, q) with table positions i < j and places p < q of
    ``previous`` whose four cards form an UltraSet, in lexicographic order (each tested by
    :func:`setlab.variants.is_ultra`).

    Parameters
    ----------
    table, previous : list of int
        The cards on the table, and the four cards of the previous UltraSet (off the table).
    properties : int
        P, the dimension of F_3^P.

    Returns
    -------
    list of tuple
        Every move, in the order both engines draw from.

    Examples
    --------
    >>> ultra_chain_moves([3, 7], [0, 4, 1, 8], 2)
    [(0, 1, 0, 1), (0, 1, 0, 2), (0, 1, 0, 3), (0, 1, 1, 3)]
    """
    return [
        (i, j, p, q)
        for i in range(len(table))
        for j in range(i + 1, len(table))
        for p in range(len(previous))
        for q in range(p + 1, len(previous))
        if is_ultra([previous[p], previous[q], table[i], table[j]], properties)
    ]


TITLES = {
    "set": "SET",
    "chain": "Set-Chain",
    "junior": "SET Junior",
    "megaset": "MegaSet",
    "ultra": "UltraSet",
    "ultra-chain": "UltraSet-Chain",
    "ultra9": "UltraSet, 9 cards",
    "ghost": "GhostSet",
    "4set": "4Set",
    "4set-junior": "4Set Junior",
}
"""The name a player knows each mode by ("set" is the real game of :mod:`setlab.game.play`)."""

RULES = {
    "set": "Three cards that are, in each property, all the same or all different.",
    "chain": "A set; after the first, two table cards and exactly one card of the previous set.",
    "junior": "Three cards, all the same or all different in number, colour and shape.",
    "megaset": "Three cards, all the same or all different in each of five properties.",
    "ultra": "Four cards in two pairs that need the same third card (a + b = c + d).",
    "ultra-chain": "An UltraSet; after the first, two table cards and two of the previous one.",
    "ultra9": "Four cards in two pairs that need the same third card (a + b = c + d).",
    "ghost": "Six cards whose values balance in every property (they sum to 0).",
    "4set": "Four cards: in each property all the same, all different, or two pairs.",
    "4set-junior": "Four cards: in each property all the same, all different, or two pairs.",
}
"""Each mode's structure in one sentence, as the page states it."""

_COUNTS_OF = {6: "ghost", 4: "4set"}


def display_card(name: str, card: int) -> tuple[int, int, int]:
    """The card of mode ``name`` as a card of a 4-property deck: (index, properties, values).

    The Junior decks have no shading: their card (number, colour, shape) is drawn and named as
    the solid card of the full deck with the same values. Other decks are drawn as they are.

    Examples
    --------
    >>> display_card("junior", 26), display_card("4set-junior", 63), display_card("megaset", 5)
    ((74, 4, 3), (243, 4, 4), (5, 5, 3))
    """
    m = mode(name) if name != "set" else Mode("set", "set", 4, 12)
    if m.properties != 3:
        return card, m.properties, m.values
    v = m.values
    number, colour, shape = card // (v * v), card // v % v, card % v
    return ((number * v + colour) * v + 0) * v + shape, 4, v


def card_code(name: str, card: int) -> str:
    """The short code of a card of mode ``name`` (``2RTO``, ``4BDT``; digits for MegaSet).

    A Junior card is coded as the solid card of the full deck it is drawn as
    (:func:`display_card`).

    Examples
    --------
    >>> card_code("set", 32), card_code("4set", 255), card_code("megaset", 5)
    ('2RTO', '4BDT', '00012')
    >>> card_code("junior", 26)  # 3 purple ovals: Junior cards have no shading
    '3PSO'
    """
    index, properties, values = display_card(name, card)
    return valued_code(index, properties, values)


def card_name(name: str, card: int) -> str:
    """The name of a card of mode ``name`` (``2 red striped ovals``; digits for MegaSet).

    A Junior card is named as the solid card of the full deck it is drawn as
    (:func:`display_card`).

    Examples
    --------
    >>> card_name("set", 32), card_name("4set", 255), card_name("megaset", 5)
    ('2 red striped ovals', '4 blue dotted triangles', '00012')
    >>> card_name("junior", 26)
    '3 purple solid ovals'
    """
    index, properties, values = display_card(name, card)
    return valued_name(index, properties, values)


def _property_words(name: str) -> list[tuple[str, list[str]]]:
    """(property name, value words) per axis of the mode's cards."""
    _, properties, values = display_card(name, 0)
    if properties != 4:
        return [(f"x{axis}", [str(d) for d in range(values)]) for axis in range(properties)]
    axes = range(4) if mode_properties(name) == 4 else (0, 1, 3)
    return [(PROPERTY_NAMES[a], [*VALUE_NAMES[a], FOURTH_VALUES[a]][:values]) for a in axes]


def mode_properties(name: str) -> int:
    """Properties of the cards of mode ``name`` (4 for the real game, "set").

    This is the P of the deck the mode's card indices count in (V^P cards), not of the picture:
    Junior's 27 cards have 3 properties though each is drawn as a 4-property card.

    Examples
    --------
    >>> mode_properties("set"), mode_properties("junior"), mode_properties("megaset")
    (4, 3, 5)
    """
    return 4 if name == "set" else mode(name).properties


def why_not(name: str, cards: Sequence[int]) -> list[str]:
    """Why distinct ``cards`` of mode ``name`` are not its structure (empty when they are).

    A set names the properties where two agree and one differs (:func:`why_not_a_set`); an
    UltraSet the pairing closest to working, with the third card each pair needs; a GhostSet or
    a 4Set the value counts of each property that breaks its rule. The chain rule is checked by
    :meth:`VariantTable.claim`.

    Examples
    --------
    >>> from setlab.cards import parse_card
    >>> why_not("ghost", [parse_card(c) for c in ("1RSD", "2RSD", "3RSD", "1GSD", "2GSD", "3PSD")])
    ['colour: red ×3, green ×2, purple ×1']
    >>> why_not("4set", [0, 1, 4, 6])
    ['shape: diamond ×2, squiggle ×1, oval ×1']
    >>> why_not("ultra", [0, 1, 9, 27])
    ['1RSD + 1RSS need 1RSO, but 1GSD + 2RSD need 3PSD (no pairing shares one)']
    """
    m = None if name == "set" else mode(name)
    properties, values = mode_properties(name), 3 if m is None else m.values
    if m is None or m.structure == "set":
        shown = [display_card(name, c)[0] for c in cards]
        return why_not_a_set(shown, 4 if properties == 3 else properties)
    if m.structure == "ultra":
        if is_ultra(cards, properties):
            return []
        third = tables("set", properties).third
        a, b, c, d = (int(x) for x in cards)

        def need(x: int, y: int) -> int:
            return int(third[x, y])

        def apart(x: int, y: int) -> int:
            return sum(
                p != q
                for p, q in zip(vector_of(x, properties), vector_of(y, properties), strict=True)
            )

        pairings = ((a, b, c, d), (a, c, b, d), (a, d, b, c))
        w, x, y, z = min(pairings, key=lambda t: apart(need(t[0], t[1]), need(t[2], t[3])))
        code = functools.partial(card_code, name)
        return [
            f"{code(w)} + {code(x)} need {code(need(w, x))}, but {code(y)} + {code(z)} need "
            f"{code(need(y, z))} (no pairing shares one)"
        ]
    words = _property_words(name)
    reasons = []
    for axis, column in enumerate(vectors(cards, properties, values).T.tolist()):
        counts = [column.count(v) for v in range(values)]
        if m.structure == "ghost":
            fine = len({n % 3 for n in counts}) == 1
        else:
            fine = sorted(n for n in counts if n) in ([4], [1, 1, 1, 1], [2, 2])
        if not fine:
            prop, value_words = words[axis]
            shown = ", ".join(f"{value_words[v]} ×{n}" for v, n in enumerate(counts) if n)
            reasons.append(f"{prop}: {shown}")
    return reasons


class VariantTable:
    """One game of a mode in play, a move at a time, by the rules of the module docstring.

    Parameters
    ----------
    name
        The mode (a key of :data:`MODES`).
    seed
        Shuffle by ``GameRandom(seed, 0)`` (default: a random seed), unless ``order`` is given.
    order
        The deck in the order it is dealt.

    Examples
    --------
    >>> table = VariantTable("ultra", seed=5)
    >>> len(table.cards), table.deck_left, table.size
    (12, 69, 4)
    >>> while not table.over:
    ...     found = table.sets()
    ...     _ = table.claim(found[0]) if found else table.no_set()
    >>> 4 * len(table.taken) + len(table.cards)
    81
    """

    def __init__(self, name: str, seed: int | None = None, order: Sequence[int] | None = None):
        self.mode = mode(name)
        self.name = name
        self.properties = self.mode.properties
        self.size = self.mode.size
        self.seed = secrets.randbits(63) if seed is None else seed
        if order is None:
            order = GameRandom(self.seed, 0).shuffled(self.mode.cards)
        self.order = [int(card) for card in order]
        self.dealt = min(self.mode.deal, len(self.order))
        self.cards: list[int] = self.order[: self.dealt]
        self.previous: list[int] = []
        """Set-Chain, UltraSet-Chain: the structure taken last, of which the next one carries
        :attr:`Mode.carried` cards (one of a set, two of an UltraSet)."""
        self.taken: list[tuple[int, ...]] = []
        self.version = 0
        """Counts every change of the table (a structure taken, cards added)."""

    @property
    def deck_left(self) -> int:
        """Cards not yet dealt."""
        return len(self.order) - self.dealt

    @property
    def chained(self) -> bool:
        """True when a move must chain on the previous structure (a chain mode after its first)."""
        return self.mode.chain and bool(self.previous)

    def places(self) -> list[tuple[int, ...]]:
        """The moves on the table as ascending positions, in lexicographic order.

        A move is a structure, or in a chained game the two table positions of a chain move
        followed, in UltraSet-Chain, by the places of the two carried cards in ``previous``.
        """
        if self.chained:
            moves = _chain_moves if self.mode.structure == "set" else ultra_chain_moves
            return moves(self.cards, self.previous, self.properties)
        m = self.mode
        return find_structures(self.cards, m.structure, m.properties, m.values)

    def sets(self) -> list[tuple[int, ...]]:
        """The structures that can be taken, as cards (a chain move's carried cards last)."""
        if not self.chained:
            return [tuple(self.cards[p] for p in places) for places in self.places()]
        return [
            (self.cards[move[0]], self.cards[move[1]], *self._carried(move))
            for move in self.places()
        ]

    def _carried(self, move: Sequence[int]) -> tuple[int, ...]:
        """The cards of the previous structure that chain move ``move`` carries."""
        if self.mode.structure == "set":  # the third card of the two table cards
            third = tables("set", self.properties).third
            return (int(third[self.cards[move[0]], self.cards[move[1]]]),)
        return tuple(self.previous[p] for p in move[2:])

    @property
    def over(self) -> bool:
        """True when the deck is empty and no move is left."""
        return not self.deck_left and not self.places()

    def take(self, move: Sequence[int]) -> tuple[int, ...]:
        """Take ``move`` (as :meth:`places` gives it); refill up to the board size; the cards
        taken (a chain move's carried cards first)."""
        places = move[:2] if self.chained else move
        cards = tuple(self.cards[p] for p in places)
        if self.mode.chain:
            if self.previous:
                cards = (*self._carried(move), *cards)
            self.previous = list(cards)
        self.taken.append(cards)
        refill = max(0, self.mode.deal - (len(self.cards) - len(places)))
        for p in sorted(places):
            if refill > 0 and self.dealt < len(self.order):
                self.cards[p] = self.order[self.dealt]
                self.dealt += 1
                refill -= 1
            else:
                self.cards[p] = -1
        self.cards = [card for card in self.cards if card >= 0]
        self.version += 1
        return cards

    def add_cards(self) -> None:
        """Deal up to the next multiple of 3 (the deck allowing)."""
        more = self.order[self.dealt : self.dealt + _next_size(len(self.cards)) - len(self.cards)]
        self.cards.extend(more)
        self.dealt += len(more)
        self.version += 1

    def claim(self, cards: Sequence[int]) -> Claim:
        """Take ``cards`` if they are a structure of the table (and chain, in Set-Chain).

        Examples
        --------
        >>> table = VariantTable("ghost", seed=1)
        >>> table.claim(table.cards[:3]).reasons
        ('choose 6 cards',)
        """
        try:
            chosen = [int(card) for card in cards]
        except (TypeError, ValueError):
            return Claim(False, ("cards are given by their numbers",))
        if len(chosen) != self.size or len(set(chosen)) != self.size:
            return Claim(False, (f"choose {self.size} cards",))
        on_table = [card for card in chosen if card in self.cards]
        kept = [card for card in chosen if card in self.previous] if self.chained else []
        if self.chained:
            carried = self.mode.carried
            if len(kept) != carried or len(on_table) != 2:
                if len(on_table) + len(kept) < self.size:
                    return Claim(False, ("those cards are no longer on the table",))
                what = "set" if carried == 1 else variant(self.mode.structure).title
                count = "one card" if carried == 1 else f"{carried} cards"
                return Claim(False, (f"a chain {what} holds exactly {count} of the previous "
                                     f"{what} and two of the table",))  # fmt: skip
        elif len(on_table) != len(chosen):
            return Claim(False, ("those cards are no longer on the table",))
        reasons = why_not(self.name, chosen)
        if reasons:
            return Claim(False, tuple(reasons))
        move = sorted(self.cards.index(card) for card in on_table)
        if self.chained and self.mode.structure != "set":  # the places of the carried cards
            move += sorted(self.previous.index(card) for card in kept)
        self.take(move)
        return Claim(True)

    def no_set(self) -> Claim:
        """A player calls "no structure": if right, deal up to the next multiple of 3."""
        if self.places():
            return Claim(False, (f"there is a {TITLES[self.name]} on the table",))
        if self.deck_left:
            self.add_cards()
        return Claim(True)

    def hint(self, cards: int) -> list[int]:
        """The first ``cards`` (1 or 2) table cards of the first move on the table; [] if none."""
        found = self.places()
        if not found:
            return []
        return [self.cards[p] for p in found[0][: max(1, min(2, cards))]]


def play_variant(name: str, seed: int = 0, game: int = 0) -> VariantGame:
    """Play one game of mode ``name`` by the rules (module docstring); the reference engine.

    The deck is shuffled by ``GameRandom(seed, game)`` and the structure taken is drawn by the
    same source among those on the table in lexicographic order of positions, as the batch
    kernel of :func:`simulate_variant` does. The moves are those of :class:`VariantTable`.

    Examples
    --------
    >>> g = play_variant("ultra", seed=3)
    >>> g.inspections[0][1], 4 * len(g.taken) + g.cards_left
    (12, 81)
    """
    rng = GameRandom(seed, game)
    table = VariantTable(name, order=rng.shuffled(mode(name).cards))
    record = VariantGame()
    while True:
        found = table.places()
        record.inspections.append((len(record.taken), len(table.cards), len(found)))
        if not found:
            if not table.deck_left:
                record.cards_left = len(table.cards)
                return record
            table.add_cards()
            continue
        record.taken.append(table.take(found[rng.below(len(found))]))


FIGURES = ("taken", "cards_left", "first_count", "deal_tables", "deal_none", "deal_count",
           "signature")  # fmt: skip
"""Per-game figures: structures taken, cards left, structures on the first deal, tables at the
board size seen in play, how many held none, structures on them, and a signature of the cards
taken (sum over takes t of (t + 1) times the sum of the cards) that ties the two engines."""


def variant_game_figures(game: VariantGame, deal: int) -> tuple[int, ...]:
    """The :data:`FIGURES` of one reference game.

    Examples
    --------
    >>> variant_game_figures(play_variant("ultra9", seed=1), 9)[0] > 0
    True
    """
    at_deal = [count for _, size, count in game.inspections if size == deal]
    signature = sum((t + 1) * sum(cards) for t, cards in enumerate(game.taken))
    return (
        len(game.taken),
        game.cards_left,
        game.inspections[0][2],
        len(at_deal),
        sum(1 for c in at_deal if c == 0),
        sum(at_deal),
        signature,
    )


@nb.njit(cache=True)
def _find(
    kind, chain, previous, table, size, third, plus, negative, words, values, position, out
):  # fmt: skip  # pragma: no cover - compiled
    """Structures on ``table[:size]`` into ``out`` (grown when needed); (count, out).

    A chain move (``chain`` and a previous structure) is a row (i, j) for Set-Chain and
    (i, j, p, q) for UltraSet-Chain (``kind`` ULTRA: places p < q of ``previous``).
    """
    if chain and previous[0] >= 0 and kind == ULTRA:
        found = 0
        for i in range(size):
            for j in range(i + 1, size):
                c, d = table[i], table[j]
                for p in range(4):
                    for q in range(p + 1, 4):
                        a, b = previous[p], previous[q]
                        if (third[a, b] == third[c, d] or third[a, c] == third[b, d]
                                or third[a, d] == third[b, c]):  # fmt: skip
                            if found >= out.shape[0]:
                                grown = np.zeros((2 * out.shape[0] + 8, 4), dtype=np.int64)
                                grown[: out.shape[0]] = out
                                out = grown
                            out[found, 0] = i
                            out[found, 1] = j
                            out[found, 2] = p
                            out[found, 3] = q
                            found += 1
        return found, out
    if chain and previous[0] >= 0:
        found = 0
        for i in range(size):
            for j in range(i + 1, size):
                z = third[table[i], table[j]]
                if z == previous[0] or z == previous[1] or z == previous[2]:
                    if found >= out.shape[0]:
                        grown = np.zeros((2 * out.shape[0] + 8, out.shape[1]), dtype=np.int64)
                        grown[: out.shape[0]] = out
                        out = grown
                    out[found, 0] = i
                    out[found, 1] = j
                    found += 1
        return found, out
    empty = out[:0]
    found = structures_of_board(kind, table[:size], third, plus, negative, words, values,
                                position, empty)  # fmt: skip
    if found > out.shape[0]:
        out = np.zeros((2 * found, out.shape[1]), dtype=np.int64)
    structures_of_board(kind, table[:size], third, plus, negative, words, values, position,
                        out[:found])  # fmt: skip
    return found, out


@nb.njit(parallel=True, cache=True)
def _play_variant_games(
    first_game, n_games, seed_word, n_cards, deal, width, kind, chain, third, plus, negative,
    words, values, n_chunks, figures,
):  # fmt: skip  # pragma: no cover - compiled
    """Play games first_game .. first_game + n_games - 1; write their FIGURES into ``figures``."""
    for chunk in nb.prange(n_chunks):
        position = np.full(n_cards, -1, dtype=np.int64)
        out = np.zeros((64, width), dtype=np.int64)
        order = np.zeros(n_cards, dtype=np.int64)
        table = np.zeros(n_cards, dtype=np.int64)
        previous = np.full(4, -1, dtype=np.int64)
        state = np.zeros(1, dtype=np.uint64)
        for g in range(chunk, n_games, n_chunks):
            state[0] = start_state(seed_word, first_game + g)
            for i in range(n_cards):
                order[i] = i
            for i in range(n_cards - 1, 0, -1):
                j = draw_below(state, i + 1)
                order[i], order[j] = order[j], order[i]
            size = min(deal, n_cards)
            for i in range(size):
                table[i] = order[i]
            dealt = size
            previous[:] = -1
            taken = 0
            deal_tables = 0
            deal_none = 0
            deal_count = 0
            first_count = -1
            signature = 0
            while True:
                found, out = _find(kind, chain, previous, table, size, third, plus, negative,
                                   words, values, position, out)  # fmt: skip
                if first_count < 0:
                    first_count = found
                if size == deal:
                    deal_tables += 1
                    deal_count += found
                    if found == 0:
                        deal_none += 1
                if found == 0:
                    if dealt == n_cards:
                        break
                    more = 3 - size % 3
                    while more > 0 and dealt < n_cards:
                        table[size] = order[dealt]
                        size += 1
                        dealt += 1
                        more -= 1
                    continue
                choice = draw_below(state, found)
                pair_only = chain and previous[0] >= 0
                n_places = 2 if pair_only else width
                card_sum = 0
                for t in range(n_places):
                    card_sum += table[out[choice, t]]
                if chain:
                    if pair_only and kind == ULTRA:  # two carried cards, then the two taken
                        a = previous[out[choice, 2]]
                        b = previous[out[choice, 3]]
                        card_sum += a + b
                        previous[0] = a
                        previous[1] = b
                        previous[2] = table[out[choice, 0]]
                        previous[3] = table[out[choice, 1]]
                    elif pair_only:
                        z = third[table[out[choice, 0]], table[out[choice, 1]]]
                        card_sum += z
                        previous[0] = z
                        previous[1] = table[out[choice, 0]]
                        previous[2] = table[out[choice, 1]]
                    else:
                        for t in range(width):
                            previous[t] = table[out[choice, t]]
                signature += (taken + 1) * card_sum
                taken += 1
                refill = deal - (size - n_places)
                for t in range(n_places):
                    p = out[choice, t]
                    if refill > 0 and dealt < n_cards:
                        table[p] = order[dealt]
                        dealt += 1
                        refill -= 1
                    else:
                        table[p] = -1
                size = close_gaps(table, size)
            figures[g, 0] = taken
            figures[g, 1] = size
            figures[g, 2] = first_count
            figures[g, 3] = deal_tables
            figures[g, 4] = deal_none
            figures[g, 5] = deal_count
            figures[g, 6] = signature


def game_figures(name: str, games: int, seed: int = 0, first_game: int = 0) -> np.ndarray:
    """The (games, 7) :data:`FIGURES` of games ``first_game ..`` of mode ``name``, in numba.

    Examples
    --------
    >>> f = game_figures("junior", 3, seed=2)
    >>> f[0].tolist() == list(variant_game_figures(play_variant("junior", 2, 0), 9))
    True
    """
    m = mode(name)
    t = tables(m.structure, m.properties, m.values)
    figures = np.zeros((games, len(FIGURES)), dtype=np.int64)
    if games:
        chunks = max(1, min(games, 8 * nb.get_num_threads()))
        _play_variant_games(first_game, games, np.uint64(seed & WORD_MASK), m.cards, m.deal,
                            m.size, t.kind, m.chain, *engine_tables(m), m.values, chunks,
                            figures)  # fmt: skip
    return figures


def engine_tables(m: Mode) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The lookup tables the numba engine reads for mode ``m``: third, plus, negative, words.

    A chain mode reads the third cards of plain sets (a chain move completes a set with a card
    of the previous structure); every other mode its own structure's tables.

    Examples
    --------
    >>> [table.shape for table in engine_tables(mode("chain"))]
    [(81, 81), (0, 0), (0,), (0, 0)]
    """
    t = tables(m.structure, m.properties, m.values)
    third = tables("set", m.properties).third if m.chain else t.third
    return third, t.plus, t.negative, t.words


@cache
def _structures_in_deck(name: str) -> int:
    """Structures of the mode's kind among all cards of its deck (the kernel over the deck)."""
    m = mode(name)
    return count_structures(range(m.cards), m.structure, m.properties, m.values)


def exact_mean_structures(name: str, cards: int) -> Fraction:
    """Exact mean number of structures among ``cards`` random cards: C(k,s) T / C(N,s).

    T is the number of structures in the whole deck, counted by the kernel. In the chain modes
    this is the mean of the first deal, the only one dealt before a structure is taken (later
    moves depend on the previous structure).

    Examples
    --------
    >>> exact_mean_structures("junior", 9)  # C(9,3)/(27 - 2)
    Fraction(84, 25)
    """
    m = mode(name)
    in_deck = _structures_in_deck(name)
    return Fraction(math.comb(cards, m.size) * in_deck, math.comb(m.cards, m.size))


@dataclass(frozen=True)
class VariantSummary:
    """What players of a mode meet, with 95% confidence intervals."""

    mode: str
    games: int
    seed: int
    first_deal_none: Estimate
    deal_none: Estimate
    first_deal_structures: Estimate
    structures_per_board: Estimate
    exact_mean: Fraction
    game_length: Estimate
    cards_left: Estimate
    cards_left_counts: dict[int, int]

    def as_dict(self) -> dict:
        """The summary as JSON-ready values."""
        m = mode(self.mode)
        out: dict = {"mode": self.mode, "structure": m.structure, "properties": m.properties,
                     "values": m.values, "deal": m.deal, "games": self.games,
                     "seed": self.seed}  # fmt: skip
        for key in ("first_deal_none", "deal_none", "first_deal_structures",
                    "structures_per_board", "game_length", "cards_left"):  # fmt: skip
            e = getattr(self, key)
            out[key] = {"value": e.value, "ci": e.as_list(), "observations": e.observations}
        out["exact_mean_structures"] = float(self.exact_mean)
        out["cards_left_counts"] = {str(k): v for k, v in sorted(self.cards_left_counts.items())}
        return out


def simulate_variant(
    name: str,
    games: int,
    seed: int = 0,
    batch: int = 20_000,
    progress: Callable[[int], None] | None = None,
) -> VariantSummary:
    """Play ``games`` games of mode ``name`` in numba and summarise them.

    Game g is ``play_variant(name, seed, g)``; ``progress(n)`` is called after each batch.

    Examples
    --------
    >>> s = simulate_variant("4set-junior", 200, seed=1)
    >>> s.games, 0 <= s.first_deal_none.value <= 1
    (200, True)
    """
    m = mode(name)
    if games < 1:
        raise SetlabError("play at least one game")
    sums = np.zeros(len(FIGURES), dtype=np.int64)
    squares = np.zeros(len(FIGURES), dtype=np.float64)
    pair = np.zeros(3, dtype=np.float64)  # sum n*y (none), sum y^2 (none), sum n*y (count)
    count_sq = 0.0
    first_none = 0
    left: dict[int, int] = {}
    for start in range(0, games, batch):
        f = game_figures(name, min(batch, games - start), seed, start)
        sums += f.sum(axis=0)
        squares += (f.astype(np.float64) ** 2).sum(axis=0)
        n, none, count = (f[:, i].astype(np.float64) for i in (3, 4, 5))
        pair += [(n * none).sum(), (none * none).sum(), (n * count).sum()]
        count_sq += (count * count).sum()
        first_none += int(np.count_nonzero(f[:, 2] == 0))
        for value, times in zip(*np.unique(f[:, 1], return_counts=True), strict=True):
            left[int(value)] = left.get(int(value), 0) + int(times)
        if progress is not None:
            progress(len(f))
    n_sum, nn = sums[3], squares[3]
    none = clustered_ratio(np.array([n_sum, sums[4], nn, pair[1], pair[0]]), games)
    per_board = clustered_ratio(np.array([n_sum, sums[5], nn, count_sq, pair[2]]), games)
    return VariantSummary(
        mode=name,
        games=games,
        seed=seed,
        first_deal_none=wilson(first_none, games),
        deal_none=none,
        first_deal_structures=mean_estimate(sums[2], squares[2], games),
        structures_per_board=per_board,
        exact_mean=exact_mean_structures(name, m.deal),
        game_length=mean_estimate(sums[0], squares[0], games),
        cards_left=mean_estimate(sums[1], squares[1], games),
        cards_left_counts=left,
    )
