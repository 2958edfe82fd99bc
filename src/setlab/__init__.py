"""setlab: the card game SET and its mathematics.

A card of the P-property game is a point of F_3^P; a set is an affine line of AG(P,3).

Examples
--------
>>> import setlab
>>> board = [setlab.Card.parse(c) for c in ("1RSD", "2RSD", "3RSD")]
>>> setlab.find_sets(board)
[(0, 1, 2)]
"""

from setlab.cards import Card, deck, parse_board, parse_card
from setlab.errors import SetlabError
from setlab.find import (
    count_sets,
    count_sets_batch,
    find_sets,
    find_sets_batch,
    is_set,
    third_card,
)

__version__ = "0.1.0"

__all__ = [
    "Card",
    "SetlabError",
    "__version__",
    "count_sets",
    "count_sets_batch",
    "deck",
    "find_sets",
    "find_sets_batch",
    "is_set",
    "parse_board",
    "parse_card",
    "third_card",
]
