"""The largest cap of a deck: a witness, an exhaustive proof that none is larger, its storage.

A first witness comes from a construction or a greedy cap; the generation of
:mod:`setlab.extremal.caps.generate` then expands only the caps that may still grow past it (at
most M(P - 1, V) cards in every slice, the proven maximum of the deck with one property fewer),
so an empty level proves the maximum. AG(5,3) is out of the generation's reach: there the
pencil programs of :mod:`setlab.extremal.caps.pencils` prove that no 46-cap exists.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from setlab.cards import check_properties
from setlab.errors import SetlabError
from setlab.extremal.bigcaps import best_construction
from setlab.extremal.caps.deck import Deck, deck, free_cards, is_cap
from setlab.extremal.caps.generate import generate
from setlab.extremal.caps.pencils import largest_cap_certificate
from setlab.geometry import indices_of
from setlab.store import Store

__all__ = [
    "PENCIL_METHOD",
    "LargestCap",
    "largest_cap",
    "largest_cap_size_bound",
    "record_largest_cap",
    "verify_largest_cap_proof",
]


PENCIL_METHOD = "pencil chain"
"""The proof method of AG(5,3)'s largest cap: the steps of
:func:`~setlab.extremal.caps.pencils.largest_cap_certificate`, each with its Farkas multipliers."""


@dataclass(frozen=True)
class LargestCap:
    """The largest cap of a deck: size, a witness (card indices), and whether it is proven."""

    properties: int
    values: int
    size: int
    proven: bool
    witness: list[int]
    proof: dict[str, Any]
    stored_at: float | None = None
    """When the result was computed, if it was read from a store (seconds since the epoch)."""


@cache
def largest_cap_size_bound(properties: int, values: int = 3) -> int:
    """Proven largest cap size of a deck small enough to settle quickly (used for slice bounds).

    Examples
    --------
    >>> largest_cap_size_bound(3), largest_cap_size_bound(2, 4)
    (9, 4)
    """
    result = largest_cap(properties, values, scheduler="")  # seconds: on this machine, always
    if not result.proven:
        raise SetlabError(f"largest cap of the {values}^{properties} deck is not proven")
    return result.size


def largest_cap(
    properties: int,
    values: int = 3,
    *,
    store: Store | None = None,
    workers: int | None = None,
    time_limit: float | None = None,
    start: Sequence[int] | None = None,
    scheduler: str | None = None,
) -> LargestCap:
    """Largest cap of the deck with P properties of V values, proven by exhaustive generation.

    A first witness comes from ``start`` (a known cap), the constructions of
    :func:`setlab.extremal.bigcaps.best_construction` (V = 3) or greedy completion; then the
    pruned generation of :func:`generate` either finds bigger caps or proves that none exists.
    The proof record lists, per level, the classes expanded and pruned. With a ``time_limit``
    that runs out the best witness is returned with ``proven=False``. For AG(5,3), unless a
    ``time_limit`` asks for a search, the 45-cap construction is proven maximal by the pencil
    chain (:func:`~setlab.extremal.caps.pencils.largest_cap_certificate`, about 5 s), its
    steps kept in the proof record; for P >= 6 the construction is returned unproven.
    A proven result already in ``store`` is returned as stored. ``scheduler``: a Dask cluster
    for the generation's tasks (:func:`generate`).

    Examples
    --------
    >>> r = largest_cap(3)
    >>> r.size, r.proven, is_cap(r.witness, 3)
    (9, True, True)
    """
    check_properties(properties)
    if store is not None and start is None:
        stored = store.get("maxcap", properties, 0, {"values": values})
        if stored is not None and stored.proven and stored.witness is not None:
            proof = stored.proof or {}
            witness = sorted(stored.witness)
            return LargestCap(
                properties, values, len(witness), True, witness, proof, stored.updated
            )
    if values == 3 and properties == 5 and time_limit is None:
        # AG(5,3) has far too many classes of caps to exhaust: the pencil programs prove 45
        witness = sorted(indices_of(best_construction(properties)).tolist())
        started = time.perf_counter()
        chain = largest_cap_certificate(properties)
        proven = len(witness) == chain["value"]
        proof = {"method": PENCIL_METHOD, "steps": chain["steps"],
                 "seconds": time.perf_counter() - started, "finished": proven}  # fmt: skip
        if store is not None:
            _record_largest(store, properties, values, witness, "pencil programs", proof)
        return LargestCap(properties, values, len(witness), proven, witness, proof)
    if values == 3 and properties >= 6:
        # AG(6,3) and up: report the construction
        witness = indices_of(best_construction(properties)).tolist()
        proof = {"method": "construction (product of Hill-type caps); no search", "finished": False}
        if store is not None:
            _record_largest(store, properties, values, witness, "construction", proof)
        return LargestCap(properties, values, len(witness), False, sorted(witness), proof)
    d = deck(properties, values)
    if start is not None:
        witness = [int(c) for c in start]
    elif values == 3:
        witness = indices_of(best_construction(properties)).tolist()
    else:
        witness = _greedy_witness(d)
    if not is_cap(witness, properties, values):
        raise SetlabError("the starting witness is not a cap")
    start_size = len(witness)
    run = generate(
        properties,
        values,
        target=len(witness) + 1,
        store=store,
        workers=workers,
        time_limit=time_limit,
        scheduler=scheduler,
        slice_bound=1 if properties == 1 else largest_cap_size_bound(properties - 1, values),
    )
    if len(run.largest) > len(witness):
        witness = run.largest
    proven = run.finished
    size = len(witness)
    proof = {
        "method": "isomorph-free generation (canonical augmentation) with slice bounds",
        "group_order": d.group_order,
        "start_size": start_size,
        "levels": run.levels,
        "seconds": run.seconds,
        "finished": run.finished,
    }
    if store is not None:
        _record_largest(store, properties, values, witness, "canonical augmentation", proof)
        run.forget(store)  # the result is recorded: the level checkpoints have served
    return LargestCap(properties, values, size, proven, sorted(witness), proof)


def verify_largest_cap_proof(properties: int, values: int, proof: dict[str, Any]) -> bool:
    """Re-run the generation a proof record describes and compare every level's counts.

    Examples
    --------
    >>> r = largest_cap(2)
    >>> verify_largest_cap_proof(2, 3, r.proof)
    True
    """
    rerun = largest_cap(properties, values)
    return rerun.proven and rerun.proof["levels"] == proof["levels"]


def record_largest_cap(store: Store, result: LargestCap, method: str | None = None) -> None:
    """Keep a largest-cap result in ``store`` as :func:`largest_cap` does with a ``store``.

    The witness always (problem ``"maxcap"``, ``cards = 0``, ``params = {"values": V}``); the
    proof record as the bound only when the search finished. ``method`` names how it was found
    (by default: canonical augmentation when the proof records a search, else construction).

    Examples
    --------
    >>> store = Store(":memory:")
    >>> record_largest_cap(store, largest_cap(2))
    >>> r = store.get("maxcap", 2, 0, {"values": 3})
    >>> r.value, r.proven
    (4, True)
    """
    if method is None:
        searched = "levels" in result.proof or "counts" in result.proof
        method = "canonical augmentation" if searched else "construction"
        if result.proof.get("method") == PENCIL_METHOD:
            method = "pencil programs"
    _record_largest(store, result.properties, result.values, result.witness, method, result.proof)


def _greedy_witness(d: Deck) -> list[int]:
    """A maximal cap: add cards in index order while they keep it a cap."""
    cap: list[int] = []
    free = np.ones(d.size, dtype=bool)
    while free.any():
        cap.append(int(np.flatnonzero(free)[0]))
        free = free_cards(cap, d.properties, d.values)
    return cap


def _record_largest(
    store: Store,
    properties: int,
    values: int,
    witness: list[int],
    method: str,
    proof: dict[str, Any],
) -> None:
    params = {"values": values}
    witness = sorted(int(c) for c in witness)
    size = len(witness)
    store.record_witness("maxcap", properties, 0, "max", size, witness, method, params)
    if proof.get("finished", True):
        store.record_bound("maxcap", properties, 0, "max", size, proof, method, params)
