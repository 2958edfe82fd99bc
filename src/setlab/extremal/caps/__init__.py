"""Caps: collections of cards holding no set, generated one per symmetry class, counted exactly.

A card x extends a cap S iff x is not in S and completes no pair of S to a set. Caps are generated
level by level, one per class under the deck's group G (AGL(P,3) for three values per property),
by canonical augmentation; counts follow by orbit-stabiliser, caps(k) = sum |G| / |Aut(S)|, and
k random cards hold no set with probability caps(k) / C(N, k).

Modules: :mod:`~setlab.extremal.caps.deck` (decks with V values, their sets and free cards),
:mod:`~setlab.extremal.caps.generate` (the generator), :mod:`~setlab.extremal.caps.counting`
(counts and probabilities), :mod:`~setlab.extremal.caps.largest` (largest caps and their proofs).
"""

from setlab.extremal.caps.counting import (
    CAP_COUNTS_COVER,
    COUNT_TABLE_JOB,
    MAX_COUNTED_PROPERTIES,
    CapCount,
    count_caps,
    inclusion_exclusion_caps,
    no_set_probability,
    odds_against,
)
from setlab.extremal.caps.deck import (
    MAX_SEARCH_CARDS,
    Deck,
    card_words,
    deck,
    deck_pair_completions,
    free_cards,
    is_cap,
)
from setlab.extremal.caps.generate import CHUNK, Generation, generate
from setlab.extremal.caps.largest import (
    LargestCap,
    largest_cap,
    largest_cap_size_bound,
    record_largest_cap,
    verify_largest_cap_proof,
)

__all__ = [
    "CAP_COUNTS_COVER",
    "CHUNK",
    "COUNT_TABLE_JOB",
    "MAX_COUNTED_PROPERTIES",
    "MAX_SEARCH_CARDS",
    "CapCount",
    "Deck",
    "Generation",
    "LargestCap",
    "card_words",
    "count_caps",
    "deck",
    "deck_pair_completions",
    "free_cards",
    "generate",
    "inclusion_exclusion_caps",
    "is_cap",
    "largest_cap",
    "largest_cap_size_bound",
    "no_set_probability",
    "odds_against",
    "record_largest_cap",
    "verify_largest_cap_proof",
]
