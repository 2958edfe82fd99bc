"""Check a split certificate: no n cards of AG(P,3) hold more than v sets, case by case.

Standalone: the standard library and numpy, and farkas_check.py beside this file; nothing from
setlab. Written from the mathematics below.

The mathematics. S is a set of n points of AG(P,3) with L lines inside it; a hyperplane is *big*
when it holds more than theta points of S. Either (1) at most one parallel class of hyperplanes
has a big hyperplane, or (2) two classes f, g have one each, H_f and H_g, not parallel.

(1) is the counting program of farkas_check.py with one more row, "big": the classes whose
sizes (a >= b >= c) have a > theta number at most one. The certificate's "program" must refute
it for L >= v + 1.

(2) Take H_f, H_g the largest hyperplanes of their classes. Their intersection is a flat of
dimension P - 2; its direction W splits AG(P,3) into nine parallel flats, the *cells*, which are
the points of the affine plane AG(P,3)/W. Write cell (i, j) for f = i, g = j (up to relabelling
the values of f and g, H_f is row 0 and H_g column 0). The twelve lines of that plane are the
hyperplanes through a cell, in four classes: the rows (f), the columns (g) and the two diagonal
directions. A line of AG(P,3) maps to a point or to a line of the plane, so it lies inside one
cell or meets the three cells of one plane line. Hence, with s the nine cell sizes:

  L = sum_cells I(c) + sum_lines X(l),   I(c) <= M_{P-2}(s_c),   X(l) <= A(s_l; 3^(P-2)),

where A(a, b, c; F) is the most lines across three parallel flats of F points holding a, b, c
points (each pair of the first two completes to one point of the third: A <= c min(a, b) and
A <= ab - (F - c) max(0, a + b - F), in each of the three roles). And for each class k of the
plane: the lines of S inside its hyperplane l are sum_{c in l} I(c) + X(l) <= M_{P-1}(h_l), the
others cross k, at most A(h_k; 3^(P-1)) of them and at most sum_{l not in k} X(l). So

  L <= min( sum M_{P-2}(s_c) + sum A_l,
            min over k of [ sum_{l in k} min(M_{P-1}(h_l), sum_{c in l} M_{P-2}(s_c) + A_l)
                            + min(A(h_k; 3^(P-1)), sum_{l not in k} A_l) ] ),

and every pattern (cells in [0, 3^(P-2)], total n, row 0 > theta the largest row, column 0 >
theta the largest column) must give at most v. The row class alone gives L <= sum_{rows}
M_{P-1}(h) + A(h_rows; 3^(P-1)) (its cap), so margins whose cap is at most v need no cells.
M_{P-1}, M_{P-2}: the cited proven maxima, else the degree bound (a point of k lies on at most
floor((k-1)/2) lines; and the complement identity with an empty complement).
"""

from __future__ import annotations

import importlib.util
import itertools
from pathlib import Path

import numpy as np

__all__ = ["check_split", "largest_pencil_bound"]


def _plane_lines() -> np.ndarray:
    """(12, 3): the lines of AG(2,3), class k in rows 3k..3k+2 (rows, columns, diagonals)."""
    out = []
    for u, w in ((0, 1), (1, 0), (1, 1), (1, 2)):  # direction (di, dj)
        seen: list[tuple[int, ...]] = []
        for i, j in itertools.product(range(3), repeat=2):
            line = tuple(sorted(3 * ((i + t * u) % 3) + (j + t * w) % 3 for t in range(3)))
            if line not in seen:
                seen.append(line)
        out += seen
    return np.array(out)


def _across(a: np.ndarray, b: np.ndarray, c: np.ndarray, flat: int) -> np.ndarray:
    """The most lines across parallel flats of ``flat`` points holding a, b, c points."""
    best = a * b * c
    for x, y, z in ((a, b, c), (b, c, a), (c, a, b)):
        best = np.minimum(best, z * np.minimum(x, y))
        best = np.minimum(best, x * y - (flat - z) * np.maximum(0, x + y - flat))
    return best


def _bounds(cells: np.ndarray, most: np.ndarray, below: np.ndarray, p: int) -> np.ndarray:
    """The bound above for each row of ``cells`` (K, 9)."""
    lines = PLANE
    sizes = cells[:, lines].sum(axis=2)  # (K, 12)
    parts = cells[:, lines]  # (K, 12, 3)
    across = _across(parts[..., 0], parts[..., 1], parts[..., 2], 3 ** (p - 2))
    inside = below[parts].sum(axis=2)
    best = below[cells].sum(axis=1) + across.sum(axis=1)
    for k in range(4):
        mine = slice(3 * k, 3 * k + 3)
        within = np.minimum(most[sizes[:, mine]], inside[:, mine] + across[:, mine]).sum(axis=1)
        rest = across.sum(axis=1) - across[:, mine].sum(axis=1)
        h = sizes[:, mine]
        crossing = _across(h[:, 0], h[:, 1], h[:, 2], 3 ** (p - 1))
        best = np.minimum(best, within + np.minimum(crossing, rest))
    return best


PLANE = _plane_lines()


def largest_pencil_bound(
    p: int, n: int, theta: int, most: list[int], below: list[int], value: int
) -> tuple[int, list[int] | None]:
    """The largest bound of case (2) over the patterns whose bound exceeds ``value``, or
    (value, None) when none does: margins by their caps, then every pattern of a margin pair
    at once (the transpose of a pattern has the same bound, so row margins >= column margins)."""
    top, flat = 3 ** (p - 2), 3 ** (p - 1)
    most_a, below_a = np.array(most, dtype=np.int64), np.array(below, dtype=np.int64)
    margins = []
    for a in range(theta + 1, min(flat, n) + 1):
        for b in range(0, a + 1):
            c = n - a - b
            if not 0 <= c <= a:
                continue
            cap = int(most_a[a] + most_a[b] + most_a[c])
            cap += int(_across(np.array(a), np.array(b), np.array(c), flat))
            if cap > value:
                margins.append((a, b, c))
    span = np.arange(top + 1)
    s0, s1, s3, s4 = np.meshgrid(span, span, span, span, indexing="ij", sparse=True)
    worst, where = value, None
    for x, rows in enumerate(margins):
        for cols in margins[: x + 1]:
            a, b, c = rows
            d, e, f = cols
            s2, s6 = a - s0 - s1, d - s0 - s3
            s5, s7 = b - s3 - s4, e - s1 - s4
            s8 = c - s6 - s7
            shape = (top + 1,) * 4
            full = [np.broadcast_to(v, shape) for v in (s0, s1, s2, s3, s4, s5, s6, s7, s8)]
            cells = np.stack(full, axis=-1).reshape(-1, 9)
            ok = ((cells >= 0) & (cells <= top)).all(axis=1)
            ok &= cells[:, 2] + cells[:, 5] + cells[:, 8] == f
            cells = cells[ok]
            if not len(cells):
                continue
            simple = below_a[cells].sum(axis=1)
            parts = cells[:, PLANE]
            simple += _across(parts[..., 0], parts[..., 1], parts[..., 2], top).sum(axis=1)
            cells = cells[simple > worst]
            if not len(cells):
                continue
            bound = _bounds(cells, most_a, below_a, p)
            i = int(np.argmax(bound))
            if bound[i] > worst:
                worst, where = int(bound[i]), cells[i].tolist()
    return worst, where


def _load_farkas():
    """farkas_check.py beside this file (its program checker and degree bound), or None."""
    path = Path(__file__).with_name("farkas_check.py")
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("farkas_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check_split(p: int, n: int, value: int, certificate: dict, cited: dict) -> list[str]:
    """Errors checking that ``certificate`` proves M_P(n) <= value by the split (empty: ok).

    ``certificate`` = {"theta": theta, "program": a certificate for farkas_check with "big"
    theta}; ``cited`` maps (P', k, "max") to proven values (P' = P - 1, P - 2 are used).
    """
    name = f"max({p},{n}) = {value}"
    theta = certificate.get("theta") if isinstance(certificate, dict) else None
    if not isinstance(theta, int) or not isinstance(p, int) or p < 3:
        return [f"{name}: a split needs P >= 3 and an integer theta"]
    farkas = _load_farkas()
    if farkas is None:
        return [f"{name}: farkas_check.py is missing next to split_check.py"]
    errors = farkas.check_farkas(p, n, "max", value, certificate.get("program"), cited, big=theta)
    degree = farkas.degree_bound
    most = [min(degree(p - 1, h), cited.get((p - 1, h, "max"), h**3))
            for h in range(3 ** (p - 1) + 1)]  # fmt: skip
    below = [min(degree(p - 2, s), cited.get((p - 2, s, "max"), s**3))
             for s in range(3 ** (p - 2) + 1)]  # fmt: skip
    worst, where = largest_pencil_bound(p, n, theta, most, below, value)
    if where is not None:
        errors.append(f"{name}: two hyperplanes above {theta} allow {worst} sets (cells {where})")
    return errors
