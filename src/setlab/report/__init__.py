"""``setlab reproduce``: every table and figure of the seed documents, recomputed in one run.

A report is a list of sections, each one small module of :mod:`setlab.report.sections` whose
``build(context)`` returns a :class:`Section` of text, claims (a seed's value beside setlab's),
tables and figures; every number says whether it was computed in this run or read from the
results store and re-verified.
"""

from setlab.report.document import Report, build_report
from setlab.report.model import (
    Claim,
    Claims,
    Context,
    Figure,
    Number,
    Section,
    Table,
    Text,
)

__all__ = [
    "Claim",
    "Claims",
    "Context",
    "Figure",
    "Number",
    "Report",
    "Section",
    "Table",
    "Text",
    "build_report",
]
