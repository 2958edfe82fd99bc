"""The sections of ``setlab reproduce``, in report order.

Each section is one module with ``TITLE`` and ``build(context) -> Section``; adding a section is
writing such a module and listing it in :data:`SECTIONS` (see docs/report.md).
"""

from setlab.report.sections import (
    blog_methods,
    cap_sets,
    cmm,
    max_sets,
    paper_configurations,
    real_games,
    variants,
    wikipedia_basics,
)

SECTIONS = (
    paper_configurations,
    max_sets,
    cmm,
    wikipedia_basics,
    cap_sets,
    real_games,
    variants,
    blog_methods,
)
"""Section modules, in the order they appear in the report."""
