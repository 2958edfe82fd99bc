"""Cards of the P-property game as points of F_3^P.

A card is a vector ``x = (x_0, ..., x_{P-1})`` with digits in {0, 1, 2}, and equally its index
``sum x_i * 3^(P-1-i)`` in ``0 .. 3^P - 1`` (the digit string read as a base-3 number, so card
``"0120"`` has index 15). For the real deck (P = 4) the coordinates are, in this order,

====  ========  =====================  ==========================
axis  property  values 0, 1, 2         code letters
====  ========  =====================  ==========================
0     number    one, two, three        ``1 2 3``
1     colour    red, green, purple     ``R G P``
2     shading   solid, striped, open   ``S T O`` (T for sTriped)
3     shape     diamond, squiggle, oval ``D S O``
====  ========  =====================  ==========================

so "2 red striped ovals" is the vector ``(1, 0, 1, 2)``, the digit string ``"1012"``, index 32 and
the code ``"2RTO"``. Names, codes and digit strings all parse back to the same card.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from setlab.errors import SetlabError

__all__ = [
    "CODE_LETTERS",
    "FOURTH_VALUES",
    "MAX_PROPERTIES",
    "MAX_VALUED_CARDS",
    "MAX_VALUES",
    "PROPERTY_NAMES",
    "VALUE_NAMES",
    "Card",
    "accepted_words",
    "check_properties",
    "check_values",
    "deck",
    "deck_size",
    "index_of",
    "index_of4",
    "parse_board",
    "parse_card",
    "parse_valued_card",
    "split_board",
    "valued_code",
    "valued_digits",
    "valued_name",
    "vector_of",
]

MAX_PROPERTIES = 10
"""Largest P that card parsing accepts (3^10 = 59049 cards)."""

PROPERTY_NAMES = ("number", "colour", "shading", "shape")
VALUE_NAMES = (
    ("1", "2", "3"),
    ("red", "green", "purple"),
    ("solid", "striped", "open"),
    ("diamond", "squiggle", "oval"),
)
CODE_LETTERS = ("123", "RGP", "STO", "DSO")

# Every word a player might use, mapped to (axis, value). Plurals are handled by `_normalise`.
_SYNONYMS: dict[str, tuple[int, int]] = {}
for _axis, _words in enumerate(
    (
        (("1", "one", "single"), ("2", "two", "double"), ("3", "three", "triple")),
        (("red",), ("green",), ("purple", "violet", "lilac")),
        (
            ("solid", "filled", "full"),
            ("striped", "stripe", "stripey", "shaded", "lined", "hatched"),
            ("open", "empty", "outlined", "outline", "hollow", "blank", "unfilled"),
        ),
        (
            ("diamond", "rhombus"),
            ("squiggle", "squiggly", "wave", "tilde"),
            ("oval", "ellipse", "pill", "capsule"),
        ),
    )
):
    for _value, _group in enumerate(_words):
        for _word in _group:
            _SYNONYMS[_word] = (_axis, _value)
_PLURALS = {"rhombi": "rhombus", "ellipses": "ellipse", "capsules": "capsule"}
_CODE_RE = re.compile(r"^[123][RGP][STO][DSO]$", re.IGNORECASE)


def deck_size(properties: int) -> int:
    """Number of cards 3^P of the P-property game.

    Examples
    --------
    >>> deck_size(4)
    81
    """
    check_properties(properties)
    return 3**properties


def check_properties(properties: int) -> None:
    """Raise :class:`SetlabError` unless ``1 <= properties <= MAX_PROPERTIES``.

    Examples
    --------
    >>> check_properties(4)  # the real deck: nothing to say
    >>> check_properties(0)
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: properties must be an integer from 1 to 10, got 0
    """
    if not isinstance(properties, int) or not 1 <= properties <= MAX_PROPERTIES:
        raise SetlabError(
            f"properties must be an integer from 1 to {MAX_PROPERTIES}, got {properties!r}"
        )


def index_of(vector: Iterable[int]) -> int:
    """Index of the card with the given digit vector (big-endian base 3).

    Examples
    --------
    >>> index_of((0, 1, 2, 0))
    15
    """
    index = 0
    for digit in vector:
        index = 3 * index + int(digit)
    return index


def vector_of(index: int, properties: int = 4) -> tuple[int, ...]:
    """Digit vector of card ``index`` in the ``properties``-property game.

    Examples
    --------
    >>> vector_of(15)
    (0, 1, 2, 0)
    """
    digits = []
    for _ in range(properties):
        index, digit = divmod(index, 3)
        digits.append(digit)
    return tuple(reversed(digits))


@dataclass(frozen=True, order=True)
class Card:
    """One card: a point of F_3^P, stored as its index.

    Examples
    --------
    >>> card = Card.parse("2 red striped ovals")
    >>> card.vector, card.code, card.digits, int(card)
    ((1, 0, 1, 2), '2RTO', '1012', 32)
    >>> Card.parse("2RTO") == Card.parse("1012") == card
    True
    >>> print(card.third(Card.parse("two red striped squiggles")))
    2 red striped diamonds
    """

    index: int
    properties: int = 4

    def __post_init__(self) -> None:
        check_properties(self.properties)
        if not 0 <= self.index < 3**self.properties:
            raise SetlabError(
                f"card index {self.index} out of range for {self.properties} properties"
            )

    @classmethod
    def from_vector(cls, vector: Iterable[int]) -> Card:
        """The card with digit vector ``vector`` (its length is P)."""
        vector = tuple(int(d) for d in vector)
        if any(d not in (0, 1, 2) for d in vector):
            raise SetlabError(f"card digits must be 0, 1 or 2, got {vector}")
        return cls(index_of(vector), len(vector))

    @classmethod
    def parse(cls, text: str, properties: int = 4) -> Card:
        """Read a card from a name, a code or a digit string; see :func:`parse_card`."""
        return cls(parse_card(text, properties), properties)

    @property
    def vector(self) -> tuple[int, ...]:
        """Digits ``(x_0, ..., x_{P-1})``."""
        return vector_of(self.index, self.properties)

    @property
    def digits(self) -> str:
        """The digit string, e.g. ``"0120"``."""
        return "".join(map(str, self.vector))

    @property
    def code(self) -> str:
        """Short code: ``"2RTO"`` style for P = 4, the digit string otherwise."""
        if self.properties != 4:
            return self.digits
        return "".join(letters[d] for letters, d in zip(CODE_LETTERS, self.vector, strict=True))

    @property
    def name(self) -> str:
        """Human name for P = 4 ("1 green open diamond"), the digit string otherwise."""
        if self.properties != 4:
            return self.digits
        number, colour, shading, shape = self.vector
        noun = VALUE_NAMES[3][shape] + ("s" if number else "")
        return f"{number + 1} {VALUE_NAMES[1][colour]} {VALUE_NAMES[2][shading]} {noun}"

    def third(self, other: Card) -> Card:
        """The unique card completing a set with ``self`` and ``other``: ``-(x + y)`` mod 3."""
        if other.properties != self.properties:
            raise SetlabError("cards of different games")
        vector = ((-a - b) % 3 for a, b in zip(self.vector, other.vector, strict=True))
        return Card.from_vector(vector)

    def __index__(self) -> int:
        return self.index

    def __str__(self) -> str:
        return self.name


def _normalise(word: str) -> str:
    word = word.lower()
    if word in _SYNONYMS:
        return word
    if word in _PLURALS:
        return _PLURALS[word]
    for suffix in ("es", "s"):
        if word.endswith(suffix) and word[: -len(suffix)] in _SYNONYMS:
            return word[: -len(suffix)]
    return word


@cache
def parse_card(text: str, properties: int = 4) -> int:
    """Index of the card written as ``text``.

    Parameters
    ----------
    text : str
        The digit string (``"0120"``, any P), and for P = 4 the code (``"2RTO"``) or a name
        whose words come in any order, singular or plural, with common synonyms (``"two lined
        red pills"``).
    properties : int, default 4
        P, the number of properties.

    Returns
    -------
    int
        The card's index in 0 .. 3^P - 1 (its digits read in base 3).

    Raises
    ------
    SetlabError
        When ``text`` names no card; the message names the offending word.

    Examples
    --------
    >>> parse_card("three purple empty diamonds"), parse_card("3POD"), parse_card("2220")
    (78, 78, 78)
    """
    check_properties(properties)
    stripped = text.strip()
    if not stripped:
        raise SetlabError("empty card")
    if stripped.isdigit():
        if len(stripped) != properties or set(stripped) - set("012"):
            raise SetlabError(f"card '{stripped}' is not {properties} digits from 0, 1, 2")
        return index_of(int(d) for d in stripped)
    if properties != 4:
        raise SetlabError(
            f"card '{stripped}': with {properties} properties write cards as {properties} digits"
        )
    if _CODE_RE.match(stripped):
        return index_of(
            letters.index(ch) for letters, ch in zip(CODE_LETTERS, stripped.upper(), strict=True)
        )
    vector: list[int | None] = [None] * 4
    for word in re.split(r"[\s,;/]+", stripped):
        if not word:
            continue
        key = _normalise(word)
        if key not in _SYNONYMS:
            raise SetlabError(_unknown_word(word, stripped))
        axis, value = _SYNONYMS[key]
        if vector[axis] is not None and vector[axis] != value:
            raise SetlabError(
                f"card '{stripped}' names its {PROPERTY_NAMES[axis]} twice ('{word}')"
            )
        vector[axis] = value
    missing = [PROPERTY_NAMES[a] for a, v in enumerate(vector) if v is None]
    if missing:
        raise SetlabError(f"card '{stripped}' has no {' or '.join(missing)}")
    return index_of(v for v in vector if v is not None)


def _unknown_word(word: str, card: str) -> str:
    """The error for a word no card name uses: the number's range, or the closest words.

    Examples
    --------
    >>> _unknown_word("4", "4 green open ovals")
    "card '4 green open ovals': the number must be 1, 2 or 3, got '4'"
    >>> _unknown_word("gren", "1 gren open oval")
    "unknown word 'gren' in card '1 gren open oval' (did you mean 'green'?)"
    """
    if word.isdigit() and len(word) == 1:
        return f"card '{card}': the number must be 1, 2 or 3, got '{word}'"
    known = sorted(set(_SYNONYMS) | {w + "s" for w in _SYNONYMS} | set(_PLURALS))
    close = difflib.get_close_matches(word.lower(), known, n=4, cutoff=0.7)
    singular = list(dict.fromkeys(_normalise(w) for w in close))[:3]  # greens -> green
    if not singular:
        return f"unknown word '{word}' in card '{card}' (see 'setlab words')"
    return (
        f"unknown word '{word}' in card '{card}' (did you mean "
        + " or ".join(f"'{w}'" for w in singular)
        + "?)"
    )


def accepted_words() -> dict[str, dict[str, list[str]]]:
    """Every word a card name may use, by property and value (plurals are accepted too).

    Examples
    --------
    >>> accepted_words()["shading"]["striped"][:3]
    ['striped', 'stripe', 'stripey']
    """
    words: dict[str, dict[str, list[str]]] = {
        name: {value: [] for value in VALUE_NAMES[axis]} for axis, name in enumerate(PROPERTY_NAMES)
    }
    for word, (axis, value) in _SYNONYMS.items():
        words[PROPERTY_NAMES[axis]][VALUE_NAMES[axis][value]].append(word)
    return words


def _parses(text: str, properties: int) -> bool:
    try:
        parse_card(text, properties)
    except SetlabError:
        return False
    return True


def split_board(texts: Iterable[str], properties: int = 4) -> list[str]:
    """The cards of a board typed loosely: one card per text, else split at commas, else (P = 4)
    words grouped into names of four properties, as long as that is unambiguous.

    A name is complete when its four properties are named; a word naming a property the card
    being read already has is ambiguous (quote the cards or separate them with commas) and
    raises :class:`SetlabError`, as does an unknown word. A single text that cannot be read
    comes back unchanged, so :func:`parse_board` names the bad card.

    Examples
    --------
    >>> split_board(["2", "red", "striped", "ovals", "1GOS", "three", "green", "open", "pills"])
    ['2 red striped ovals', '1GOS', 'three green open pills']
    >>> split_board(["2RTO, 1 green open squiggle,3POD"])
    ['2RTO', '1 green open squiggle', '3POD']
    """
    texts = list(texts)
    if all(_parses(t, properties) for t in texts):
        return texts
    pieces = [p.strip() for t in texts for p in re.split(r"[,;]", t) if p.strip()]
    if pieces and all(_parses(p, properties) for p in pieces):
        return pieces
    if properties != 4 or len(texts) == 1:
        return texts  # parse_board names the bad card
    cards: list[str] = []
    words: list[str] = []
    named: set[int] = set()
    for text, word in ((t, w) for t in texts for w in re.split(r"[\s,;/]+", t) if w):
        if not words and _parses(word, properties):  # a code or digit string
            cards.append(word)
            continue
        key = _normalise(word)
        if key not in _SYNONYMS and word.isdigit() and len(word) > 1:
            return texts  # a digit string of the wrong length: parse_board says so
        if key not in _SYNONYMS:
            typed = text.strip() if len(text.split()) > 1 else " ".join([*words, word])
            raise SetlabError(_unknown_word(word, typed))
        if _SYNONYMS[key][0] in named:
            raise SetlabError(
                f"cannot tell where the card '{' '.join(words)}' ends ('{word}' names its "
                f"{PROPERTY_NAMES[_SYNONYMS[key][0]]} again): quote each card or separate "
                "them with commas"
            )
        words.append(word)
        named.add(_SYNONYMS[key][0])
        if len(named) == 4:
            cards.append(" ".join(words))
            words, named = [], set()
    if words:
        raise SetlabError(
            f"card '{' '.join(words)}' has no "
            + " or ".join(PROPERTY_NAMES[a] for a in range(4) if a not in named)
        )
    return cards


def parse_board(texts: Iterable[str], properties: int = 4) -> list[Card]:
    """Parse several cards; a board must be non-empty and hold no card twice.

    Parameters
    ----------
    texts : iterable of str
        The cards as :func:`parse_card` reads them; they may be typed loosely (unquoted names,
        commas): see :func:`split_board`.
    properties : int, default 4
        P, the number of properties.

    Returns
    -------
    list of Card
        In the order given.

    Examples
    --------
    >>> [c.code for c in parse_board(["1RSD", "two red solid diamonds"])]
    ['1RSD', '2RSD']
    >>> [c.code for c in parse_board(["1", "red", "solid", "diamond,", "2RSD"])]
    ['1RSD', '2RSD']
    """
    board: list[Card] = []
    seen: dict[int, str] = {}
    for text in split_board(texts, properties):
        card = Card.parse(text, properties)
        if card.index in seen:
            first = seen[card.index]
            again = "" if first == text.strip() else f" (same as '{first}')"
            raise SetlabError(f"duplicate card '{text.strip()}'{again}")
        seen[card.index] = text.strip()
        board.append(card)
    if not board:
        raise SetlabError("empty board: give at least one card")
    return board


def deck(properties: int = 4) -> list[Card]:
    """All 3^P cards in index order.

    Parameters
    ----------
    properties : int, default 4
        P, the number of properties.

    Returns
    -------
    list of Card

    Examples
    --------
    >>> len(deck(4)), deck(4)[0].name, deck(4)[-1].code
    (81, '1 red solid diamond', '3POO')
    """
    return [Card(i, properties) for i in range(deck_size(properties))]


# Decks with V values per property (the general game; V = 4 is 4Set). A card is an index
# 0 .. V^P - 1 whose base-V digits, big-endian, are its values; for V = 4 the digit string of a
# card is its vector over (F_2^2)^P, each digit two bits of the index.

MAX_VALUES = 10
"""Most values per property a card can be written with (one decimal digit per property)."""

MAX_VALUED_CARDS = 4**8
"""Largest deck V^P of the V-valued game that card parsing accepts."""

FOURTH_VALUES = ("4", "blue", "dotted", "triangle")
"""The fourth value of each property in the 4-valued deck (4Set), axis by axis."""

_FOURTH_WORDS = (
    ("4", "four", "quadruple"),
    ("blue",),
    ("dotted", "dot", "spotted"),
    ("triangle",),
)
_FOURTH_CODE_LETTERS = ("1234", "RGPB", "STOD", "DSOT")
_FOURTH_CODE_RE = re.compile(r"^[1234][RGPB][STOD][DSOT]$", re.IGNORECASE)


def check_values(properties: int, values: int) -> None:
    """Raise :class:`SetlabError` unless V^P cards of ``values`` values can be written.

    Examples
    --------
    >>> check_values(4, 4)
    >>> check_values(4, 11)
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: values per property must be an integer from 2 to 10, got 11
    """
    check_properties(properties)
    if not isinstance(values, int) or not 2 <= values <= MAX_VALUES:
        raise SetlabError(f"values per property must be an integer from 2 to {MAX_VALUES}, "
                          f"got {values!r}")  # fmt: skip
    if values**properties > MAX_VALUED_CARDS:
        raise SetlabError(f"{values}^{properties} cards: decks of at most {MAX_VALUED_CARDS} "
                          "cards are supported")  # fmt: skip


def valued_digits(index: int, properties: int, values: int) -> str:
    """The digit string of card ``index`` of the V-valued deck (base V, big-endian).

    Examples
    --------
    >>> valued_digits(27, 4, 4)  # 27 = 0*64 + 1*16 + 2*4 + 3
    '0123'
    """
    out = []
    for _ in range(properties):
        index, digit = divmod(index, values)
        out.append(str(digit))
    return "".join(reversed(out))


def valued_code(index: int, properties: int, values: int) -> str:
    """Short code of a card of the V-valued deck: ``"4BDT"`` style for P = 4 and V <= 4.

    Examples
    --------
    >>> valued_code(255, 4, 4), valued_code(0, 4, 4), valued_code(5, 2, 4)
    ('4BDT', '1RSD', '11')
    """
    word = valued_digits(index, properties, values)
    if properties != 4 or values > 4:
        return word
    return "".join(letters[int(d)] for letters, d in zip(_FOURTH_CODE_LETTERS, word, strict=True))


def valued_name(index: int, properties: int, values: int) -> str:
    """Human name of a card of the V-valued deck for P = 4 and V <= 4, else its digit string.

    Examples
    --------
    >>> valued_name(255, 4, 4), valued_name(1, 4, 4)
    ('4 blue dotted triangles', '1 red solid squiggle')
    """
    word = [int(d) for d in valued_digits(index, properties, values)]
    if properties != 4 or values > 4:
        return "".join(map(str, word))
    names = [(*VALUE_NAMES[axis], FOURTH_VALUES[axis]) for axis in range(4)]
    number, colour, shading, shape = word
    noun = names[3][shape] + ("s" if number else "")
    return f"{number + 1} {names[1][colour]} {names[2][shading]} {noun}"


def _parse_four_valued(text: str) -> int | None:
    """Index of a 4-property card written with the 4Set words or code, or None if it is not one."""
    if _FOURTH_CODE_RE.match(text):
        return index_of4(
            letters.index(ch)
            for letters, ch in zip(_FOURTH_CODE_LETTERS, text.upper(), strict=True)
        )
    vector: list[int | None] = [None] * 4
    for word in re.split(r"[\s,;/]+", text):
        if not word:
            continue
        low = word.lower()
        found = None
        for axis, group in enumerate(_FOURTH_WORDS):
            if low in group or any(low == w + "s" or low == w + "es" for w in group):
                found = (axis, 3)
        if found is None:
            key = _normalise(word)
            if key not in _SYNONYMS:
                return None
            found = _SYNONYMS[key]
        axis, value = found
        if vector[axis] is not None and vector[axis] != value:
            return None
        vector[axis] = value
    if any(v is None for v in vector):
        return None
    return index_of4(v for v in vector if v is not None)


def index_of4(vector: Iterable[int]) -> int:
    """Index of the card of the 4-valued deck with the given values (big-endian base 4).

    Examples
    --------
    >>> index_of4((0, 1, 2, 3))
    27
    """
    index = 0
    for digit in vector:
        index = 4 * index + int(digit)
    return index


def parse_valued_card(text: str, properties: int, values: int) -> int:
    """Index of a card of the deck with ``values`` values per property, written as ``text``.

    A card is its digit string (P digits below V); for P = 4 and V = 4 also a code (``"4BDT"``)
    or a name with the fourth values four, blue, dotted and triangle (``"4 blue dotted
    triangles"``); for V = 3 anything :func:`parse_card` reads. A card with a fourth value in a
    3-valued deck is refused by name.

    Examples
    --------
    >>> parse_valued_card("0123", 4, 4), parse_valued_card("4 blue dotted triangles", 4, 4)
    (27, 255)
    >>> parse_valued_card("4BDT", 4, 3)
    Traceback (most recent call last):
    ...
    setlab.errors.SetlabError: card '4BDT' has a fourth value: it is a 4Set card, not a SET card
    """
    check_values(properties, values)
    stripped = text.strip()
    if not stripped:
        raise SetlabError("empty card")
    if values == 3:
        try:
            return parse_card(stripped, properties)
        except SetlabError:
            four = (
                stripped.isdigit() and len(stripped) == properties and set(stripped) <= set("0123")
            ) or (properties == 4 and _parse_four_valued(stripped) is not None)
            if four:
                raise SetlabError(f"card '{stripped}' has a fourth value: it is a 4Set card, "
                                  "not a SET card") from None  # fmt: skip
            raise
    if stripped.isdigit():
        allowed = {str(d) for d in range(values)}
        if len(stripped) != properties or set(stripped) - allowed:
            raise SetlabError(
                f"card '{stripped}' is not {properties} digits from 0 to {values - 1}"
            )
        index = 0
        for d in stripped:
            index = values * index + int(d)
        return index
    if properties == 4 and values == 4:
        index = _parse_four_valued(stripped)
        if index is None:
            raise SetlabError(f"card '{stripped}' is not a 4Set card: write 4 digits from 0 to 3,"
                              " a code such as 4BDT or a name")  # fmt: skip
        return index
    raise SetlabError(f"card '{stripped}': with {values} values write cards as {properties} "
                      f"digits from 0 to {values - 1}")  # fmt: skip
