"""setlab: the card game SET and its mathematics.

A card of the P-property game is a point of F_3^P; a set is an affine line of AG(P,3).

Examples
--------
>>> import setlab
>>> board = [setlab.Card.parse(c) for c in ("1RSD", "2RSD", "3RSD")]
>>> setlab.find_sets(board)
[(0, 1, 2)]
"""

from __future__ import annotations

import importlib

from setlab.errors import SetlabError
from setlab.numba_cache import prepare_numba

prepare_numba()  # before any module of setlab imports numba

# typing.TYPE_CHECKING without importing typing (a tenth of a second, most of this module's
# start-up, during which the setlab command cannot yet catch a Ctrl-C); type checkers read
# this name the same way
TYPE_CHECKING = False
if TYPE_CHECKING:  # the names below are imported on first use (see __getattr__)
    from typing import Any

    from setlab.cards import Card, deck, parse_board, parse_card
    from setlab.find import (
        count_sets,
        count_sets_batch,
        find_sets,
        find_sets_batch,
        is_set,
        third_card,
    )

_HOMES = {
    **dict.fromkeys(("Card", "deck", "parse_board", "parse_card"), "setlab.cards"),
    **dict.fromkeys(
        ("count_sets", "count_sets_batch", "find_sets", "find_sets_batch", "is_set", "third_card"),
        "setlab.find",
    ),
}
"""Public name -> its module. ``import setlab`` stays light (no numba) until a name is used, so
the ``setlab`` command starts fast and catches a Ctrl-C during its imports."""


def __getattr__(name: str) -> Any:
    if name in _HOMES:
        return getattr(importlib.import_module(_HOMES[name]), name)
    raise AttributeError(f"module 'setlab' has no attribute {name!r}")


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
