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

from setlab.variants.find import (
    count_structures,
    count_structures_batch,
    find_structures,
    find_structures_batch,
    tables,
)
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
