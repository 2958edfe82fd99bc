"""The seed documents' data: boards, tables and published configurations, each with its source.

A card is written as its P digits (a point of F_3^P); a configuration's stated number of sets is
the number of lines of AG(P,3) among its points. Values are copied from the documents in
/work/shared/seeds (named in :data:`DOCUMENTS`) and are checked by the tests against their own
copy; the report and the CLI read them from here and nowhere else.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = [
    "CAPSET_README_TABLE",
    "DOCUMENTS",
    "PAPER",
    "PAPER_BOARD",
    "PAPER_CONFIGURATIONS",
    "README",
    "TABLE_1",
    "TABLE_2",
    "TABLE_3",
    "TABLE_3_SECONDS",
    "Configuration",
    "magic_square",
]

PAPER = "max-sets-paper.txt"
"""Stevens and Wilson, *The Maximum Number of Sets for 12 Cards is 14* (January 2025)."""
README = "capset-ilp-readme.md"
"""The cap-set README: *Finding a maximal number of cards without any valid sets* (CPLEX)."""

DOCUMENTS = {
    PAPER: "Justin Stevens and Duncan Wilson, The Maximum Number of Sets for 12 Cards is 14 (2025)",
    README: "Finding a maximal number of cards without any valid sets in the game Set (README, "
    "integer programming solved by CPLEX)",
    "set-game-wikipedia.txt": "Wikipedia, Set (card game)",
    "finding-sets-blog.md": "the blog post on finding sets on a table",
}
"""The seed documents by file name, with what each one is."""


class Configuration(NamedTuple):
    """A configuration printed in the paper: cards of AG(4,3) with the number of sets it states."""

    where: str
    """Theorem, corollary or figure of the paper that gives it."""
    sets: int
    """The number of sets the paper states for it."""
    cards: tuple[str, ...]
    """The cards as digit strings, in the paper's order."""
    plane: bool
    """True if the paper draws it in F_3^2, its first two (constant) coordinates dropped."""


def magic_square(first: str = "00") -> tuple[str, ...]:
    """The 2-flat of the 9 cards beginning with ``first``, last two digits in reading order.

    The paper's *magic square* (section 2): the first two coordinates held constant.

    Examples
    --------
    >>> magic_square()[:4]
    ('0000', '0001', '0002', '0010')
    """
    return tuple(f"{first}{a}{b}" for a in "012" for b in "012")


PAPER_BOARD = (
    "0000", "0001", "0002", "0010", "0011", "0012",
    "0020", "0021", "0022", "0100", "0220", "0120",
)  # fmt: skip
"""The 12 cards with 14 sets of the paper's section 2.1 (Theorem 2.5), in its order: a magic
square (the first three rows of its table) and three cards off it."""

PAPER_CONFIGURATIONS = (
    Configuration("Theorem 1.2, Figure 1", 2, ("0000", "0001", "0002", "0010", "0020"), True),
    Configuration(
        "Theorem 1.3, Figure 2", 3, ("0000", "0001", "0002", "0010", "0011", "0020"), True
    ),
    Configuration(
        "Theorem 1.5, Figure 3", 5, ("0000", "0001", "0002", "0010", "0011", "0020", "0021"), True
    ),
    Configuration(
        "Corollary 2.2, Figure 4 (magic square minus a point)", 8, magic_square()[:-1], True
    ),
    Configuration("Theorem 2.1 (the magic square)", 12, magic_square(), True),
    Configuration(
        "Corollary 2.4",
        13,
        ("0000", "0100", "0200", "1000", "2000", "1100", "2200", "1200", "2100", "0001", "0002"),
        False,
    ),
    Configuration("Theorem 2.5, section 2.1", 14, PAPER_BOARD, False),
)
"""The paper's configurations of sections 1-2, each attaining its Table 1 value. Figures 1-4
draw their cards in F_3^2 with the first two coordinates dropped (the paper says so in the
captions of Figures 1 and 2); the 11- and 12-card ones are printed as lists, not drawn."""

TABLE_1 = {3: 1, 4: 1, 5: 2, 6: 3, 7: 5, 8: 8, 9: 12, 10: 12, 11: 13, 12: 14}
"""Table 1 of the paper: the maximum number of sets among n cards with 4 properties (proved)."""

TABLE_2 = {
    3: ("< 1 second", None), 4: ("6 seconds", 6), 5: ("4 minutes", 240),
    6: ("1 hour, 33 minutes", 5_580), 7: ("29 hours, 12 minutes", 105_120),
}  # fmt: skip
"""Table 2 of the paper: the time of its complete search over all C(81, n) subsets (as the
paper writes it, and in seconds when it states more than an upper bound)."""

TABLE_3 = {
    3: 1, 4: 1, 5: 2, 6: 3, 7: 5, 8: 8, 9: 12, 10: 12, 11: 13, 12: 14, 13: 16, 14: 19, 15: 23,
    16: 26, 17: 30, 18: 36, 19: 41, 20: 47, 21: 54, 22: 62, 23: 71, 24: 81, 25: 92, 26: 104,
    27: 117,
}  # fmt: skip
"""Table 3 of the paper: the maximum number of sets among n cards with 3 properties."""

TABLE_3_SECONDS = {
    3: 0.00, 4: 0.06, 5: 0.64, 6: 4.64, 7: 23.76, 8: 94.78, 9: 301.44, 10: 761.40, 11: 1610.53,
    12: 2872.26, 13: 4413.72, 14: 5322.08, 15: 5805.79, 16: 5243.79, 17: 4158.71, 18: 2850.46,
    19: 1558.12, 20: 733.16, 21: 284.40, 22: 90.17, 23: 22.38, 24: 4.26, 25: 0.58, 26: 0.05,
    27: 0.00,
}  # fmt: skip
"""Table 3 of the paper, its last column: compute time per n in seconds (about 10 hours)."""

CAPSET_README_TABLE = ((2, 3, 4), (3, 3, 9), (4, 3, 20))
"""The README's table (section *Alternative sets of cards*): (M^P properties, M^V values,
largest number of cards without a set), here ordered by M^P (the README lists 2, 4, 3)."""
