"""The variants people play: the general V-valued set, UltraSet, GhostSet and 4Set.

Each variant asks for one kind of structure among distinct cards (see
:mod:`setlab.variants.structures`); :mod:`setlab.variants.find` finds them all on one board or
a batch with the compiled loops of :mod:`setlab.variants.kernels`.

Examples
--------
>>> from setlab.variants import find_structures
>>> find_structures([0, 1, 2, 3, 4, 5], "ghost", 2)
[(0, 1, 2, 3, 4, 5)]
"""

from typing import Any

from setlab.variants.structures import (
    VARIANTS,
    Variant,
    is_four_set,
    is_ghost,
    is_ghost_by_pairs,
    is_ultra,
    is_valued_set,
    variant,
)

_COMPILED = frozenset(
    {"count_structures", "count_structures_batch", "find_structures", "find_structures_batch",
     "tables"}
)  # fmt: skip
"""Names from :mod:`setlab.variants.find`, imported on first use: it loads numba, which a
command that only names the variants (``setlab find --help``) should not pay for."""


def __getattr__(name: str) -> Any:
    if name in _COMPILED:
        from setlab.variants import find

        return getattr(find, name)
    raise AttributeError(f"module 'setlab.variants' has no attribute '{name}'")


__all__ = [
    "VARIANTS",
    "Variant",
    "count_structures",
    "count_structures_batch",
    "find_structures",
    "find_structures_batch",
    "is_four_set",
    "is_ghost",
    "is_ghost_by_pairs",
    "is_ultra",
    "is_valued_set",
    "tables",
    "variant",
]
