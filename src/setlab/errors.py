"""The one exception setlab raises for bad input.

Every user-facing failure (an unknown word in a card name, a duplicate card on a board, a malformed
result file) is a :class:`SetlabError` whose message is one line naming the offending token. The
CLI turns it into ``error: <message>`` on stderr and exit code 2.
"""

from __future__ import annotations

__all__ = [
    "SetlabError",
]


class SetlabError(ValueError):
    """Bad input, described in one line.

    Examples
    --------
    >>> str(SetlabError("unknown word 'blue'"))
    "unknown word 'blue'"
    """
