"""Writing the report: every section built in turn, rendered to index.html and report.md.

index.html is self-contained (each figure an inline ``data:`` URI); report.md links the same
figures as SVG files under ``images/``. A number's provenance is a footnote of its section.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from tqdm import tqdm

from setlab import __version__
from setlab.errors import SetlabError
from setlab.report.model import (
    Claim,
    Claims,
    Context,
    Figure,
    Number,
    Section,
    Table,
    Text,
    format_value,
)

__all__ = [
    "Report",
    "build_report",
    "inline_html",
]


@dataclass(frozen=True)
class Report:
    """The built sections, and where the report was written."""

    sections: tuple[Section, ...]
    seconds: float
    html_path: Path
    markdown_path: Path

    @property
    def reproduced(self) -> tuple[int, int]:
        """(claims reproduced, claims in all)."""
        claims = [c for s in self.sections for c in s.claims]
        return sum(c.agrees for c in claims), len(claims)


def build_report(
    out: str | Path,
    sections: Sequence[ModuleType] | None = None,
    quick: bool = False,
    progress: bool = True,
) -> Report:
    """Build every section (``build(context) -> Section``) and write ``out``/index.html, .md.

    Parameters
    ----------
    out
        Output directory (created if needed); ``out/images/`` receives the SVG figures.
    sections
        Section modules in order (default :data:`setlab.report.sections.SECTIONS`).
    quick
        Ask sections for their quick variant.
    progress
        Show a progress bar over the sections on stderr.
    """
    if sections is None:
        from setlab.report.sections import SECTIONS

        sections = SECTIONS
    out = Path(out)
    try:
        (out / "images").mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SetlabError(f"cannot create {out}: {error.strerror}") from None
    context = Context(quick=quick)
    built = []
    start = time.perf_counter()
    bar = tqdm(sections, desc="setlab reproduce", unit="section", disable=not progress)
    for module in bar:
        bar.set_postfix_str(module.__name__.rsplit(".", 1)[-1])
        section_start = time.perf_counter()
        built.append(module.build(context))
        context.timings[built[-1].title] = time.perf_counter() - section_start
    seconds = time.perf_counter() - start
    report = Report(tuple(built), seconds, out / "index.html", out / "report.md")
    mode = "quick" if quick else "full"
    header = (
        f"setlab {__version__}, {mode} run of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
        f", {seconds:.1f} s; seed values reproduced: {report.reproduced[0]} of "
        f"{report.reproduced[1]}."
    )
    names: set[str] = set()
    for section in built:
        for block in section.blocks:
            if isinstance(block, Figure):
                if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", block.name) or block.name in names:
                    raise SetlabError(f"figure name '{block.name}' is malformed or used twice")
                names.add(block.name)
                (out / "images" / f"{block.name}.svg").write_text(block.drawing.svg)
    report.html_path.write_text(_html(built, header, context), encoding="utf-8")
    report.markdown_path.write_text(_markdown(built, header, context), encoding="utf-8")
    return report


_INLINE = (
    (re.compile(r"`([^`]+)`"), r"<code>\1</code>"),
    (re.compile(r"\*\*([^*]+)\*\*"), r"<strong>\1</strong>"),
    (re.compile(r"\*([^*]+)\*"), r"<em>\1</em>"),
    (re.compile(r"\[([^\]]+)\]\(([^)]+)\)"), r'<a href="\2">\1</a>'),
)


def inline_html(markdown: str) -> str:
    """HTML of one paragraph of the Markdown subset of :class:`Text`.

    Examples
    --------
    >>> inline_html("**14** sets, see `find_sets` & *more*")
    '<strong>14</strong> sets, see <code>find_sets</code> &amp; <em>more</em>'
    """
    out = html.escape(markdown, quote=False)
    for pattern, replacement in _INLINE:
        out = pattern.sub(replacement, out)
    return out


def _slug(title: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-")


class _Notes:
    """Numbered provenance footnotes of one section; numbers of one provenance share a note."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def mark(self, number: Number) -> int:
        if number.provenance not in self.lines:
            self.lines.append(number.provenance)
        return self.lines.index(number.provenance) + 1


def _cell_html(cell: object, notes: _Notes) -> str:
    if isinstance(cell, Number):
        mark = notes.mark(cell)
        value = html.escape(str(cell.value))
        return (
            f'<span class="number {cell.source}" data-value="{value}" '
            f'title="{html.escape(cell.provenance)}">{html.escape(str(cell))}'
            f"<sup>{mark}</sup></span>"
        )
    return inline_html(str(cell))


def _cell_markdown(cell: object, notes: _Notes) -> str:
    if isinstance(cell, Number):
        return f"{cell} [{notes.mark(cell)}]"
    return str(cell).replace("|", "\\|")


def _seed_text(claim: Claim) -> str:
    """The seed's value, with the tolerance the claim allows when it has one."""
    if claim.tolerance is None:
        return format_value(claim.seed)
    tolerance = claim.tolerance
    width = f"{tolerance:,.0f}" if tolerance >= 100 else f"{tolerance:.2g}"
    return f"{format_value(claim.seed)} ± {width}"


def _rows(block: Table | Claims) -> tuple[tuple[str, ...], list[tuple[object, ...]], str]:
    if isinstance(block, Table):
        return block.headers, list(block.rows), block.caption
    rows: list[tuple[object, ...]] = [
        (c.statement, _seed_text(c), c.value, "yes" if c.agrees else "**NO**") for c in block.claims
    ]
    return ("Statement", "Seed says", "setlab", "Reproduced"), rows, block.caption


_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.45; }
table { border-collapse: collapse; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.7em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
caption { caption-side: bottom; color: #555; font-size: 0.9em; padding-top: 0.3em; }
.number.store { color: #1a5e9a; }
sup { color: #888; font-size: 0.7em; }
figure { display: inline-block; margin: 0.5em 1em 1em 0; vertical-align: top; }
figure img { max-width: 100%; }
figcaption { color: #555; font-size: 0.9em; max-width: 640px; }
ol.notes { color: #666; font-size: 0.85em; }
nav li { margin: 0.1em 0; }
"""


def _html(sections: Sequence[Section], header: str, context: Context) -> str:
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>setlab reproduce: the seeds, recomputed</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>setlab reproduce: the seeds, recomputed</h1>",
        f"<p>{html.escape(header)}</p>",
        "<nav><ol>",
    ]
    for section in sections:
        seconds = context.timings.get(section.title, 0.0)
        parts.append(
            f'<li><a href="#{_slug(section.title)}">{html.escape(section.title)}</a> '
            f"({inline_html(section.source)}; {seconds:.1f} s)</li>"
        )
    parts.append("</ol></nav>")
    for section in sections:
        notes = _Notes()
        parts.append(f'<section id="{_slug(section.title)}">')
        parts.append(f"<h2>{html.escape(section.title)}</h2>")
        parts.append(f"<p><em>Source: {inline_html(section.source)}</em></p>")
        for block in section.blocks:
            if isinstance(block, Text):
                parts.append(f"<p>{inline_html(block.markdown)}</p>")
            elif isinstance(block, Figure):
                parts.append(
                    f'<figure><img src="{block.drawing.data_uri()}" '
                    f'width="{block.drawing.width:.0f}" alt="{html.escape(block.caption)}">'
                    f"<figcaption>{inline_html(block.caption)}</figcaption></figure>"
                )
            else:
                headers, rows, caption = _rows(block)
                parts.append("<table>")
                if caption:
                    parts.append(f"<caption>{inline_html(caption)}</caption>")
                parts.append(
                    "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in headers) + "</tr>"
                )
                for row in rows:
                    cells = "".join(f"<td>{_cell_html(cell, notes)}</td>" for cell in row)
                    parts.append(f"<tr>{cells}</tr>")
                parts.append("</table>")
        if notes.lines:
            items = "".join(f"<li>{html.escape(line)}</li>" for line in notes.lines)
            parts.append(f'<ol class="notes">{items}</ol>')
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _markdown(sections: Sequence[Section], header: str, context: Context) -> str:
    parts = ["# setlab reproduce: the seeds, recomputed", "", header, ""]
    for section in sections:
        notes = _Notes()
        parts += [f"## {section.title}", "", f"Source: {section.source}", ""]
        for block in section.blocks:
            if isinstance(block, Text):
                parts += [block.markdown, ""]
            elif isinstance(block, Figure):
                parts += [f"![{block.caption}](images/{block.name}.svg)", "", block.caption, ""]
            else:
                headers, rows, caption = _rows(block)
                parts.append("| " + " | ".join(headers) + " |")
                parts.append("|" + "---|" * len(headers))
                for row in rows:
                    parts.append("| " + " | ".join(_cell_markdown(c, notes) for c in row) + " |")
                parts.append("")
                if caption:
                    parts += [caption, ""]
        if notes.lines:
            parts += [f"{k}. {line}" for k, line in enumerate(notes.lines, 1)]
            parts.append("")
    return "\n".join(parts)
