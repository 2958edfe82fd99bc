"""SVG documents: a drawing is an SVG string of known pixel size, shown inline by Jupyter.

SVG user units are pixels at scale 1; :meth:`Drawing.png` rasterises with cairosvg at any scale,
so a drawing of width w saved at scale s is a PNG exactly ``round(w * s)`` pixels wide.
"""

from __future__ import annotations

import base64
import math
import re
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from setlab.errors import SetlabError
from setlab.files import write_atomically

__all__ = ["MAX_PNG_SIDE", "Drawing", "attributes", "element", "embedded_svg", "text"]

MAX_PNG_SIDE = 32767
"""Largest width or height of a PNG, in pixels (cairo's limit)."""


def attributes(**attrs: object) -> str:
    """SVG attributes from keywords (``stroke_width`` -> ``stroke-width``), values quoted.

    Examples
    --------
    >>> attributes(fill="none", stroke_width=2)
    'fill="none" stroke-width="2"'
    """
    return " ".join(
        f"{key.rstrip('_').replace('_', '-')}={quoteattr(_number(value))}"
        for key, value in attrs.items()
        if value is not None
    )


def _number(value: object) -> str:
    if isinstance(value, float):
        return f"{value:.2f}".rstrip("0").rstrip(".")
    return str(value)


def element(tag: str, content: str = "", **attrs: object) -> str:
    """One SVG element; ``content`` is inner markup (already escaped).

    Examples
    --------
    >>> element("circle", cx=1, cy=2.5, r=3)
    '<circle cx="1" cy="2.5" r="3"/>'
    """
    head = f"<{tag} {attributes(**attrs)}".rstrip()
    return f"{head}>{content}</{tag}>" if content else f"{head}/>"


def text(value: str, **attrs: object) -> str:
    """A ``<text>`` element whose string is escaped for XML (``&``, ``<``, ``>``).

    Examples
    --------
    >>> text("A & B < C", x=50, y=30, text_anchor="middle")
    '<text x="50" y="30" text-anchor="middle">A &amp; B &lt; C</text>'
    """
    return element("text", escape(value), **attrs)


@dataclass(frozen=True)
class Drawing:
    """An SVG picture of ``width`` x ``height`` pixels; displays itself in Jupyter.

    Examples
    --------
    >>> d = Drawing(element("rect", width=10, height=5), 10, 5)
    >>> d.svg.startswith("<svg") and 'width="10"' in d.svg
    True
    """

    body: str
    width: float
    height: float
    title: str = ""

    @property
    def svg(self) -> str:
        """The complete standalone SVG document."""
        head = attributes(
            xmlns="http://www.w3.org/2000/svg",
            width=self.width,
            height=self.height,
            viewBox=f"0 0 {_number(self.width)} {_number(self.height)}",
            font_family="DejaVu Sans, Helvetica, Arial, sans-serif",
        )
        title = f"<title>{escape(self.title)}</title>" if self.title else ""
        return f"<svg {head}>{title}{self.body}</svg>"

    def _repr_svg_(self) -> str:
        return self.svg

    def png(self, scale: float = 1.0) -> bytes:
        """The drawing rasterised by cairosvg, ``scale`` pixels per SVG unit, white background.

        Examples
        --------
        >>> Drawing("", 10, 5).png(float("nan"))
        Traceback (most recent call last):
        ...
        setlab.errors.SetlabError: PNG scale must be positive and finite, got nan
        """
        if not 0 < scale < math.inf:
            raise SetlabError(f"PNG scale must be positive and finite, got {scale}")
        if max(self.width, self.height) * scale > MAX_PNG_SIDE:
            raise SetlabError(
                f"a PNG at scale {scale:g} would be more than {MAX_PNG_SIDE} pixels a side"
            )
        import cairosvg

        return cairosvg.svg2png(bytestring=self.svg.encode(), scale=scale, background_color="white")

    def data_uri(self) -> str:
        """``data:image/svg+xml;base64,...``: the drawing as a self-contained image link."""
        return "data:image/svg+xml;base64," + base64.b64encode(self.svg.encode()).decode()

    def pdf(self) -> bytes:
        """The drawing as a one-page PDF (vector), by cairosvg."""
        import cairosvg

        return cairosvg.svg2pdf(bytestring=self.svg.encode())

    def save(self, path: str | Path, scale: float = 2.0) -> Path:
        """Write ``path`` as SVG, PNG (at ``scale``) or PDF according to its suffix, whole or not
        at all (:func:`setlab.files.write_atomically`)."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".svg":
            data = self.svg.encode()
        elif suffix == ".png":
            data = self.png(scale)
        elif suffix == ".pdf":
            data = self.pdf()
        else:
            raise SetlabError(
                f"cannot write '{path}': the file name must end in .svg, .png or .pdf"
            )
        return write_atomically(path, data)


def embedded_svg(svg: str) -> Drawing:
    """A standalone SVG document (e.g. matplotlib's) as a Drawing of its viewBox size.

    The document's preamble is dropped and its root element kept without width and height, so
    that, nested in the Drawing's own ``<svg>``, it fills its viewBox.

    Examples
    --------
    >>> d = embedded_svg('<?xml version="1.0"?><svg width="4pt" viewBox="0 0 4 3"><g/></svg>')
    >>> d.width, d.height, d.body
    (4.0, 3.0, '<svg viewBox="0 0 4 3"><g/></svg>')
    """
    root = re.search(r"<svg\b[^>]*>", svg)
    view = re.search(r'viewBox="0 0 ([\d.]+) ([\d.]+)"', root.group(0)) if root else None
    if root is None or view is None:
        raise SetlabError("an embedded SVG needs a root element with a viewBox")
    head = re.sub(r'\s(width|height)="[^"]*"', "", root.group(0))
    return Drawing(head + svg[root.end() :], float(view.group(1)), float(view.group(2)))
