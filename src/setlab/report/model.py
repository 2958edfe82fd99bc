"""What a report section is made of: numbers with their provenance, claims, text, tables, figures.

Every number carries where it comes from: computed in this run (the function and its time) or
read from the results store (the result's id as certificate, plus a re-verification of its
witness done in this run, with that time). A claim sets a seed's statement beside setlab's number
so the report can say whether the seed is reproduced.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from setlab.errors import SetlabError
from setlab.render.drawing import Drawing
from setlab.store import Result, Store

__all__ = [
    "STATED",
    "Block",
    "Claim",
    "Claims",
    "Context",
    "Figure",
    "Number",
    "Section",
    "Table",
    "Text",
    "format_seconds",
    "format_value",
]


def format_value(value: object) -> str:
    """Integers with thousands separators, floats to 4 significant digits, the rest as str.

    Examples
    --------
    >>> format_value(70724320184700), format_value(0.123456), format_value("1/79")
    ('70,724,320,184,700', '0.1235', '1/79')
    """
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def format_seconds(seconds: float) -> str:
    """A duration in the most readable unit.

    Examples
    --------
    >>> format_seconds(0.0000123), format_seconds(0.25), format_seconds(75)
    ('12 us', '250 ms', '75.0 s')
    >>> format_seconds(2e-7)  # not "0 us"
    'under 1 us'
    """
    if seconds < 0.5e-6:
        return "under 1 us"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.0f} us"
    if seconds < 1:
        return f"{seconds * 1e3:.0f} ms"
    return f"{seconds:.1f} s"


@dataclass(frozen=True)
class Number:
    """A value in the report and its provenance.

    ``source`` is ``"computed"`` (``how`` names the computation, ``seconds`` its time) or
    ``"store"`` (``certificate`` is the results-store id, ``how`` the re-verification done in
    this run and ``seconds`` its time).
    """

    value: Any
    how: str
    seconds: float
    source: Literal["computed", "store"] = "computed"
    certificate: int | None = None

    def __str__(self) -> str:
        return format_value(self.value)

    @property
    def provenance(self) -> str:
        """One line saying where the value comes from."""
        if self.source == "store":
            return (
                f"read from the results store, certificate #{self.certificate}; "
                f"re-verified in this run ({self.how}, {format_seconds(self.seconds)})"
            )
        return f"computed in this run: {self.how} ({format_seconds(self.seconds)})"


STATED = {
    "seed": "",
    "formula": "by a formula the seed's text lost",
    "conjecture": "conjectured",
    "exact": "setlab's exact value",
    "count": "setlab's count of the seed's words",
}
"""Where a claim's expected value comes from. Only ``"seed"`` is a value the seed's text states:
the report counts those as "seed values reproduced" and the others as further checks. The
Wikipedia text lost its formulas ("There are unique sets."), so 1080 and C(81, 12) are the
formulas' values; a conjecture is the paper's, not a stated value; an exact value is setlab's
own reference for a simulated figure; a count is setlab's number for a statement in words
("exactly one card completes any two": 3240 pairs)."""


@dataclass(frozen=True)
class Claim:
    """A seed's statement, the value it states, and setlab's number for it.

    With a ``tolerance`` (for values the seed rounds, or setlab estimates), the claim agrees
    when the two differ by at most the tolerance; without one they must be equal. ``stated``
    says where the expected value comes from (:data:`STATED`): the seed's text by default.

    Examples
    --------
    >>> Claim("odds", 30, Number(29.84, "a simulation", 1.0), tolerance=0.83).agrees
    True
    >>> deck = Number(1080, "count_sets", 0.01)
    >>> Claim("sets in the deck", 1080, deck, stated="formula").from_seed  # the text lost "1080"
    False
    """

    statement: str
    seed: Any
    value: Number
    tolerance: float | None = None
    stated: str = "seed"

    def __post_init__(self) -> None:
        if self.stated not in STATED:
            raise ValueError(f"stated must be one of {', '.join(STATED)}, got {self.stated!r}")

    @property
    def from_seed(self) -> bool:
        """True iff the seed's text states the expected value."""
        return self.stated == "seed"

    @property
    def agrees(self) -> bool:
        """True iff setlab's number equals the seed's value (within the tolerance, if any)."""
        if self.tolerance is not None:
            return bool(abs(self.value.value - self.seed) <= self.tolerance)
        return bool(self.value.value == self.seed)


@dataclass(frozen=True)
class Text:
    """A paragraph of Markdown (inline `code`, **bold**, *italic* and [links](url) only)."""

    markdown: str


@dataclass(frozen=True)
class Table:
    """A table; a cell is text or a :class:`Number` (rendered with its provenance)."""

    headers: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    caption: str = ""


@dataclass(frozen=True)
class Claims:
    """The table "statement | seed says | setlab | reproduced" of a list of claims."""

    claims: tuple[Claim, ...]
    caption: str = ""


@dataclass(frozen=True)
class Figure:
    """A drawing with a caption; ``name`` (letters, digits, dashes) names its image file."""

    name: str
    drawing: Drawing
    caption: str


Block = Text | Table | Claims | Figure


@dataclass(frozen=True)
class Section:
    """One section of the report: a title, the seed it reproduces, and its blocks in order.

    ``findings`` are the section's key results in a sentence each (Markdown), built from its
    numbers; the report's summary opens with them.
    """

    title: str
    source: str
    blocks: tuple[Block, ...]
    findings: tuple[str, ...] = ()

    @property
    def claims(self) -> list[Claim]:
        """Every claim of the section."""
        return [c for block in self.blocks if isinstance(block, Claims) for c in block.claims]


@dataclass
class Context:
    """What a section may use: the run mode, a timer and the results store.

    ``quick`` asks sections to keep to about a few seconds each (fewer samples, stored results
    re-verified instead of recomputed). ``scheduler``: the address of a Dask cluster that runs
    the tasks of the sections' searches and walks (None: ``$SETLAB_SCHEDULER``, else here).
    """

    quick: bool = False
    store_path: Path | None = None
    scheduler: str | None = None
    timings: dict[str, float] = field(default_factory=dict)
    progress: Callable[[str], None] = field(default=lambda text: None, repr=False)
    """Where a long section says how far it is (e.g. "P = 5: 120 of 488 values verified"):
    the report's progress bar shows it beside the section's name."""

    @cached_property
    def store(self) -> Store:
        """The results store (``$SETLAB_STORE`` or the user's default), opened on first use."""
        return Store(self.store_path)

    def compute(self, how: str, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Number:
        """Call ``function(*args, **kwargs)`` timed; its result becomes a computed Number.

        Examples
        --------
        >>> n = Context().compute("len of a range", len, range(1080))
        >>> n.value, n.source
        (1080, 'computed')
        """
        start = time.perf_counter()
        value = function(*args, **kwargs)
        return Number(value, how, time.perf_counter() - start)

    def stored(self, result: Result, verify: Callable[[Result], Any], how: str) -> Number:
        """The value of a stored result, after ``verify(result)`` re-derives it in this run.

        ``verify`` must recompute the value from the stored witness (e.g. count the sets of the
        witness configuration); a disagreement raises :class:`SetlabError`.
        """
        start = time.perf_counter()
        value = verify(result)
        seconds = time.perf_counter() - start
        if value != result.value:
            raise SetlabError(
                f"stored result #{result.id} ({result.problem}, n={result.cards}) claims "
                f"{result.value} but its witness gives {value}"
            )
        return Number(result.value, how, seconds, source="store", certificate=result.id)
