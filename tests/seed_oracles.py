"""The tests' own copy of the seed documents' data, typed in from /work/shared/seeds.

Kept apart from :mod:`setlab.seeds` on purpose: a test compares the package with this copy,
never the package with itself.
"""

PAPER_BOARD = ["0000", "0001", "0002", "0010", "0011", "0012",
               "0020", "0021", "0022", "0100", "0220", "0120"]  # fmt: skip
"""Stevens and Wilson, section 2.1: the 12 cards with 14 sets."""

PAPER_TABLE_1 = [1, 1, 2, 3, 5, 8, 12, 12, 13, 14]
"""Table 1, n = 3..12 (4 properties)."""

PAPER_TABLE_3 = [1, 1, 2, 3, 5, 8, 12, 12, 13, 14, 16, 19, 23, 26, 30, 36, 41, 47, 54, 62, 71,
                 81, 92, 104, 117]  # fmt: skip
"""Table 3, n = 3..27 (3 properties)."""

PAPER_CONFIGURATIONS = {
    2: ["0000", "0001", "0002", "0010", "0020"],
    3: ["0000", "0001", "0002", "0010", "0011", "0020"],
    5: ["0000", "0001", "0002", "0010", "0011", "0020", "0021"],
    13: ["0000", "0100", "0200", "1000", "2000", "1100", "2200", "1200", "2100", "0001", "0002"],
}
"""Sets stated -> the cards printed with them (Theorems 1.2, 1.3, 1.5 and Corollary 2.4)."""

PAPER_TABLE_2_TIMES = ["< 1 second", "6 seconds", "4 minutes", "1 hour, 33 minutes",
                       "29 hours, 12 minutes"]  # fmt: skip
"""Table 2, n = 3..7: the computational time of the complete search, as the paper writes it."""

PAPER_TABLE_3_SECONDS = [0.00, 0.06, 0.64, 4.64, 23.76, 94.78, 301.44, 761.40, 1610.53, 2872.26,
                         4413.72, 5322.08, 5805.79, 5243.79, 4158.71, 2850.46, 1558.12, 733.16,
                         284.40, 90.17, 22.38, 4.26, 0.58, 0.05, 0.00]  # fmt: skip
"""Table 3, n = 3..27: its last column, Compute Time (s)."""

README_TABLE = {(2, 3): 4, (4, 3): 20, (3, 3): 9}
"""The cap-set README: (M^P, M^V) -> largest number of cards without a set."""
