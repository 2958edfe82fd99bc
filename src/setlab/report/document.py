"""Writing the report: every section built in turn, rendered to index.html and report.md.

The report reads like a paper: a summary of the key findings first (what the seeds claimed, what
setlab reproduced, what it settled), then the sections with numbered tables and figures and their
captions. index.html is self-contained (each figure an inline ``data:`` URI), fits a phone, and
folds long tables; report.md links the same figures as SVG files under ``images/``. A number's
provenance is a footnote of its section, one note per kind of computation.
"""

from __future__ import annotations

import html
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from tqdm import tqdm

from setlab import __version__
from setlab.errors import SetlabError
from setlab.files import write_all_atomically
from setlab.report.model import (
    STATED,
    Claim,
    Claims,
    Context,
    Figure,
    Number,
    Section,
    Table,
    Text,
    format_seconds,
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
        """(seed values reproduced, values the seeds' text states): the claims ``from_seed``."""
        return _tally(self.sections, from_seed=True)

    @property
    def checked(self) -> tuple[int, int]:
        """(agreeing, in all) of the other claims: conjectures, formulas the seeds' text lost,
        setlab's exact references (:data:`setlab.report.model.STATED`)."""
        return _tally(self.sections, from_seed=False)


def _tally(sections: Sequence[Section], from_seed: bool) -> tuple[int, int]:
    """(agreeing, in all) of the claims whose value the seeds' text states, or of the others."""
    claims = [c for s in sections for c in s.claims if c.from_seed == from_seed]
    return sum(c.agrees for c in claims), len(claims)


def build_report(
    out: str | Path,
    sections: Sequence[ModuleType] | None = None,
    quick: bool = False,
    progress: bool = True,
    scheduler: str | None = None,
    store: str | Path | None = None,
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
    scheduler
        Address of a Dask scheduler whose cluster runs the tasks of the searches and walks
        (default ``$SETLAB_SCHEDULER``; see :func:`setlab.executor.run_tasks`).
    store
        The results store the sections read and write (default ``$SETLAB_STORE``, else the
        user's store).
    """
    if sections is None:
        from setlab.report.sections import SECTIONS

        sections = SECTIONS
    out = Path(out)
    try:
        (out / "images").mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise SetlabError(f"cannot create {out}: {error.strerror}") from None
    path = None if store is None else Path(store)
    context = Context(quick=quick, store_path=path, scheduler=scheduler)
    built = []
    start = time.perf_counter()
    bar = tqdm(sections, desc="setlab reproduce", unit="section", disable=not progress)
    for module in bar:
        name = module.__name__.rsplit(".", 1)[-1]
        bar.set_postfix_str(name)
        context.progress = lambda text, name=name: bar.set_postfix_str(f"{name}: {text}")
        section_start = time.perf_counter()
        built.append(module.build(context))
        context.timings[built[-1].title] = time.perf_counter() - section_start
    seconds = time.perf_counter() - start
    report = Report(tuple(built), seconds, out / "index.html", out / "report.md")
    mode = "quick" if quick else "full"
    header = (
        f"setlab {__version__}, {mode} run of {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}"
        f", {seconds:.1f} s; seed values reproduced: {report.reproduced[0]} of "
        f"{report.reproduced[1]}; further checks passed: {report.checked[0]} of "
        f"{report.checked[1]}."
    )
    files: dict[Path, str] = {}
    for section in built:
        for block in section.blocks:
            if isinstance(block, Figure):
                image = out / "images" / f"{block.name}.svg"
                if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", block.name) or image in files:
                    raise SetlabError(f"figure name '{block.name}' is malformed or used twice")
                files[image] = block.drawing.svg
    files[report.html_path] = _html(built, header, context)
    files[report.markdown_path] = _markdown(built, header, context)
    write_all_atomically(files)  # all or nothing: no page beside the pictures of another run
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
    """Provenance footnotes of one section, one per kind of computation.

    Numbers computed the same way (``how``) share a note, which gives their time once per
    distinct run; numbers read from the store and re-verified the same way share one that lists
    their certificates.
    """

    def __init__(self) -> None:
        self.kinds: dict[tuple[str, str], tuple[set[float], list[int]]] = {}

    def mark(self, number: Number) -> int:
        runs, certificates = self.kinds.setdefault((number.source, number.how), (set(), []))
        runs.add(number.seconds)
        if number.certificate is not None and number.certificate not in certificates:
            certificates.append(number.certificate)
        return list(self.kinds).index((number.source, number.how)) + 1

    @property
    def lines(self) -> list[str]:
        out = []
        for (source, how), (runs, certificates) in self.kinds.items():
            time = format_seconds(sum(runs))
            if len(runs) > 1:
                time = f"{len(runs)} runs, {time} in all"
            if source == "store":
                ids = ", ".join(f"#{c}" for c in certificates)
                word = "certificate" if len(certificates) == 1 else "certificates"
                out.append(
                    f"read from the results store ({word} {ids}); re-verified in this run "
                    f"({how}, {time})"
                )
            else:
                out.append(f"computed in this run: {how} ({time})")
        return out


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
    """The seed's value, with the tolerance the claim allows when it has one, and where the
    value comes from when the seed's text does not state it."""
    text = format_value(claim.seed)
    if claim.tolerance is not None:
        tolerance = claim.tolerance
        text += " ± " + (f"{tolerance:,.0f}" if tolerance >= 100 else f"{tolerance:.2g}")
    return text if claim.from_seed else f"{text} ({STATED[claim.stated]})"


_FOLD_ROWS = 16
"""An HTML table longer than this is folded under its caption (open with a click)."""

_WIDE_FIGURE = 520
"""A figure wider than this (in px) takes a whole row of the figure grid."""


def _labels(sections: Sequence[Section]) -> dict[tuple[int, int], str]:
    """"Table k" and "Figure k" for every table, claim table and figure, numbered through the
    report in reading order; keyed by (section index, block index)."""
    labels: dict[tuple[int, int], str] = {}
    tables = figures = 0
    for i, section in enumerate(sections):
        for j, block in enumerate(section.blocks):
            if isinstance(block, Figure):
                figures += 1
                labels[i, j] = f"Figure {figures}"
            elif isinstance(block, (Table, Claims)):
                tables += 1
                labels[i, j] = f"Table {tables}"
    return labels


_CLAIMS_CAPTION = "The seed's values beside setlab's, computed now."


def _caption(label: str, caption: str) -> str:
    """A numbered caption in Markdown; a claim table without one says what it holds."""
    return f"**{label}.** {caption or _CLAIMS_CAPTION}"


def _rows(block: Table | Claims) -> tuple[tuple[str, ...], list[tuple[object, ...]]]:
    if isinstance(block, Table):
        return block.headers, list(block.rows)
    rows: list[tuple[object, ...]] = [
        (c.statement, _seed_text(c), c.value, "yes" if c.agrees else "**NO**") for c in block.claims
    ]
    return ("Statement", "Seed says", "setlab", "Reproduced"), rows


def _summary(sections: Sequence[Section]) -> list[tuple[str, str, int, int]]:
    """Per section: title, anchor, seed values reproduced, seed values (stated by the text)."""
    return [
        (s.title, _slug(s.title), sum(c.agrees for c in s.claims if c.from_seed),
         sum(c.from_seed for c in s.claims))
        for s in sections
    ]  # fmt: skip


def _opening(sections: Sequence[Section], strong: Callable[[str], str]) -> str:
    """The summary's first sentence: the seed values reproduced, then the further checks."""
    (agreed, total), (further, others) = _tally(sections, True), _tally(sections, False)
    text = (
        f"The seed documents state {total} values that a computer can check; setlab checked "
        "each of them in this run (computed now, or read from the results store and "
        f"re-verified, as each value's note says) and reproduces {strong(f'{agreed} of {total}')}."
    )
    if others:
        text += (
            f" {further} of {others} further claims agree: the paper's "
            "conjecture, values the seeds give by formulas their text lost, and setlab's exact "
            "values beside its simulations (each marked in its table)."
        )
    return text


def _failures(sections: Sequence[Section]) -> list[str]:
    return [f"{c.statement} (seed {_seed_text(c)}, setlab {c.value})"
            for s in sections for c in s.claims if not c.agrees]  # fmt: skip


_STYLE = """
body { font-family: Georgia, 'DejaVu Serif', serif; max-width: 60rem; margin: 2em auto;
       padding: 0 1em; color: #222; line-height: 1.5; }
h1, h2, h3, nav, table, figcaption, caption, summary, .meta { font-family: system-ui, sans-serif; }
h1 { font-size: 1.9em; margin-bottom: 0.2em; }
h2 { border-top: 1px solid #ddd; padding-top: 1em; margin-top: 2em; }
.meta { color: #555; font-size: 0.95em; }
.abstract { background: #f7f7f4; border-left: 4px solid #1a5e9a; padding: 0.6em 1.2em; }
.abstract li { margin: 0.3em 0; }
.scroll { overflow-x: auto; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.3em 0.5em; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
caption { caption-side: top; text-align: left; color: #444; font-size: 0.92em;
          padding-bottom: 0.4em; }
.number.store { color: #1a5e9a; }
sup { color: #888; font-size: 0.7em; }
.figures { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(22rem, 100%), 1fr));
           gap: 1.2em; margin: 1em 0; align-items: start; }
figure { margin: 0; }
figure.wide { grid-column: 1 / -1; }
figure img { max-width: 100%; height: auto; }
figcaption { color: #444; font-size: 0.88em; }
details { margin: 1em 0; }
summary { cursor: pointer; color: #1a5e9a; }
ol.notes { color: #666; font-size: 0.82em; font-family: system-ui, sans-serif; }
nav li { margin: 0.1em 0; }
@media (max-width: 40rem) { body { margin: 1em auto; } h1 { font-size: 1.5em; } }
"""


def _html_table(block: Table | Claims, label: str, notes: _Notes) -> str:
    headers, rows = _rows(block)
    caption = inline_html(_caption(label, block.caption))
    head = "<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in headers) + "</tr>"
    body = "".join(  # a row per line
        "\n<tr>" + "".join(f"<td>{_cell_html(cell, notes)}</td>" for cell in row) + "</tr>"
        for row in rows
    )
    table = f'<div class="scroll"><table><caption>{caption}</caption>{head}{body}\n</table></div>'
    if len(rows) <= _FOLD_ROWS:
        return table
    return (
        f"<details><summary>{html.escape(label)}: {len(rows)} rows (open)</summary>"
        f"{table}</details>"
    )


def _html_figure(block: Figure, label: str) -> str:
    wide = ' class="wide"' if block.drawing.width > _WIDE_FIGURE else ""
    return (
        f'<figure{wide}><img src="{block.drawing.data_uri()}" '
        f'width="{block.drawing.width:.0f}" alt="{html.escape(block.caption)}">'
        f"<figcaption>{inline_html(_caption(label, block.caption))}</figcaption></figure>"
    )


def _html(sections: Sequence[Section], header: str, context: Context) -> str:
    labels = _labels(sections)
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        "<title>setlab reproduce: the seeds, recomputed</title>",
        f"<style>{_STYLE}</style></head><body>",
        "<h1>setlab reproduce: the seeds, recomputed</h1>",
        f'<p class="meta">{html.escape(header)}</p>',
        '<section id="summary" class="abstract"><h3>Summary</h3>',
    ]
    rows = _summary(sections)
    failures = _failures(sections)
    parts.append(
        f"<p>{_opening(sections, lambda t: f'<strong>{t}</strong>')}"
        + ("</p>" if not failures else " Not reproduced:</p>")
    )
    if failures:
        items = "".join(f"<li>{inline_html(f)}</li>" for f in _failures(sections))
        parts.append(f"<ul>{items}</ul>")
    findings = [(s, f) for s in sections for f in s.findings]
    if findings:
        parts.append("<p>Key findings:</p><ul>")
        parts += [
            f'<li>{inline_html(f)} (<a href="#{_slug(s.title)}">more</a>)</li>'
            for s, f in findings
        ]
        parts.append("</ul>")
    parts.append("</section>")
    parts.append("<nav><h3>Contents</h3><ol>")
    for (title, slug, agreed, total), section in zip(rows, sections, strict=True):
        seconds = context.timings.get(section.title, 0.0)
        checked = f"; {agreed} of {total} seed values" if total else ""
        parts.append(
            f'<li><a href="#{slug}">{html.escape(title)}</a> '
            f"({format_seconds(seconds)}{checked})</li>"
        )
    parts.append("</ol></nav>")
    for i, section in enumerate(sections):
        notes = _Notes()
        parts.append(f'<section id="{_slug(section.title)}">')
        parts.append(f"<h2>{i + 1}. {html.escape(section.title)}</h2>")
        parts.append(f'<p class="meta"><em>Source: {inline_html(section.source)}</em></p>')
        gallery: list[str] = []
        for j, block in enumerate(section.blocks):
            if isinstance(block, Figure):
                gallery.append(_html_figure(block, labels[i, j]))
                continue
            if gallery:  # consecutive figures share one grid
                parts.append('<div class="figures">' + "".join(gallery) + "</div>")
                gallery = []
            if isinstance(block, Text):
                parts.append(f"<p>{inline_html(block.markdown)}</p>")
            else:
                parts.append(_html_table(block, labels[i, j], notes))
        if gallery:
            parts.append('<div class="figures">' + "".join(gallery) + "</div>")
        if notes.lines:
            items = "".join(f"<li>{html.escape(line)}</li>" for line in notes.lines)
            parts.append(f'<ol class="notes">{items}</ol>')
        parts.append("</section>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"


def _markdown(sections: Sequence[Section], header: str, context: Context) -> str:
    labels = _labels(sections)
    _summary(sections)
    failures = _failures(sections)
    parts = ["# setlab reproduce: the seeds, recomputed", "", header, "", "## Summary", ""]
    parts += [
        _opening(sections, lambda t: f"**{t}**") + ("" if not failures else " Not reproduced:"),
        "",
    ]
    if failures:
        parts += [f"- {f}" for f in _failures(sections)] + [""]
    findings = [f for s in sections for f in s.findings]
    if findings:
        parts += ["Key findings:", ""] + [f"- {f}" for f in findings] + [""]
    for i, section in enumerate(sections):
        notes = _Notes()
        parts += [f"## {i + 1}. {section.title}", "", f"Source: {section.source}", ""]
        for j, block in enumerate(section.blocks):
            if isinstance(block, Text):
                parts += [block.markdown, ""]
            elif isinstance(block, Figure):
                caption = _caption(labels[i, j], block.caption)
                parts += [f"![{block.caption}](images/{block.name}.svg)", "", caption, ""]
            else:
                headers, table_rows = _rows(block)
                parts += [_caption(labels[i, j], block.caption), ""]
                parts.append("| " + " | ".join(headers) + " |")
                parts.append("|" + "---|" * len(headers))
                for row in table_rows:
                    parts.append("| " + " | ".join(_cell_markdown(c, notes) for c in row) + " |")
                parts.append("")
        if notes.lines:
            parts += [f"{k}. {line}" for k, line in enumerate(notes.lines, 1)]
            parts.append("")
    return "\n".join(parts)
