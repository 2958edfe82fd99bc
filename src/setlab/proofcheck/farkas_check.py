"""Check an exact Farkas (or branching) certificate refuting a range of set counts in AG(P,3).

Standalone: the standard library only (numpy is allowed but not needed), nothing from setlab.
It rebuilds the counting-identity program below from the mathematics and checks the
certificate's rational multipliers with fractions.Fraction.

The mathematics. S is a set of n cards (points) of AG(P,3), with L sets (lines inside S).
N = 3^P, F = 3^(P-1), T(P) = N(N-1)/6 lines in all. The C = (N-1)/2 parallel classes of
hyperplanes each cut AG(P,3) into three hyperplanes (copies of AG(P-1,3)); a linear direction
space of dimension d lies in the hyperplanes of (3^(P-d)-1)/2 classes: K1 for d = 1, K2 for d = 2.
Class type t = (a >= b >= c): the sizes of S in its three hyperplanes; x_t classes have type t.

  (count)  sum_t x_t = C.
  (square) sum_t x_t (a^2+b^2+c^2) = C n + K1 n(n-1)
           (ordered pairs (u, v) of S in one hyperplane: u = v in all C classes, else K1).
  (cube)   sum_t x_t (a^3+b^3+c^3) = C n + 3 K1 n(n-1) + K2 (n(n-1)(n-2) - 6L) + 6 K1 L
           (ordered triples: 3n(n-1) with two distinct cards, 6L collinear, the rest spanning a
           plane).
  (inside) a line of S lies inside a hyperplane of exactly K1 classes, so summed over classes the
           lines inside a hyperplane number K1 L; in a class of type t they number between
           m'(a)+m'(b)+m'(c) and M'(a)+M'(b)+M'(c), with M'(k), m'(k) bounds on the most and
           fewest lines among k points of AG(P-1,3).
  (across) the other lines of a class meet all three hyperplanes: (C - K1) L in all. In a class
           with parts A, B, D of sizes a, b, d: the pairs of A x B number ab and each completes
           to one point z of D's hyperplane; at most min(a, b) and at least max(0, a + b - F)
           complete to any one z. So across <= d min(a,b), <= ab - (F-d) max(0, a+b-F),
           across >= d max(0, a+b-F), >= ab - (F-d) min(a,b), for each choice of D's part.
  (degree) L <= floor(n floor((n-1)/2) / 3) (a point's partners pair up), and by the complement
           identity L + L(S^c) = T(P) - n(N-n)/2, L <= T(P) - n(N-n)/2.
  (slices) M'(k) = min(degree bound in AG(P-1,3), cited M_{P-1}(k)); m'(k) = max(0, cited
           m_{P-1}(k), T(P-1) - k(F-k)/2 - M'(F-k)) by the complement identity in AG(P-1,3).
  (types)  a class of type t forces lo_t <= L <= hi_t (inside plus across, least and most).
           For a refuted range low <= L <= high, types with [lo_t, hi_t] disjoint from it are left
           out; the others get x_t in [0, C]; where [lo_t, hi_t] does not cover [low, high] a
           0/1 switch y_t with (occurs) x_t <= C y_t, (cap) L + (high - hi_t) y_t <= high,
           (floor) L + (low - lo_t) y_t >= low.

  (forced) for the split's middle case (split_check.py), the configurations with classes of
           given types: x_t >= the number of classes of type t required; a required type left
           out above has the row 0 >= k, which no point satisfies. With a "ceiling" no class
           has a hyperplane above it: the types with a > ceiling are left out.
  (big classes) for the split's count of big classes, with "count" [h, k]: the configurations in
           which at most k classes have a part of h or more (the row "big_classes": the sum of
           x_t over the types with a >= h is at most k).
  (cells)  for the split's middle case, with "cells" I: the four forced types are those of the
           four classes of hyperplanes through one flat W of dimension P - 2, and the lines of S
           inside the nine translates of W (the cells) number at most I. A line inside a cell
           lies inside a hyperplane of each of the four classes, a line meeting three cells inside
           a hyperplane of one of them and across the other three, so the four classes hold
           4 I(cells) + X = 3 I(cells) + L lines inside their hyperplanes (L = I(cells) + X).
           The row inside_high takes that instead of the four types' M' bounds:
           sum_t x_t M'(t) - (K1 - 1) L >= (the four forced types' M'(t) summed) - 3 I.

All variables are integers. A max value V is proven by refuting low = V+1, high = the degree
bound; a min value v by refuting low = 0, high = v-1.

The certificate. ``{"kind": "empty"}``: low > high, nothing to refute. ``{"kind": "farkas",
"multipliers": {row: "p/q"}}``: y >= 0 on >= rows, y <= 0 on <= rows, free on = rows; then every
feasible point satisfies (sum_r y_r a_r) . x >= sum_r y_r b_r, and the certificate holds when the
left side's largest value over the variables' bounds is below the right side. ``{"kind":
"branch", "variable": v, "at": k, "low": cert, "high": cert}``: v <= k in one child, v >= k+1
in the other (integrality). ``"cites"``: [[P-1, k, "max"|"min", value], ...], each must equal
the value given as proven.
"""

from __future__ import annotations

from fractions import Fraction
from numbers import Integral

__all__ = ["check_farkas", "degree_bound", "forced_types", "program"]


def _classes(p: int, d: int) -> int:
    return (3 ** (p - d) - 1) // 2 if p >= d else 0


def _lines(p: int) -> int:
    n = 3**p
    return n * (n - 1) // 6


def degree_bound(p: int, n: int) -> int:
    pairs = n * ((n - 1) // 2) // 3 if n >= 3 else 0
    return min(pairs, _lines(p) - n * (3**p - n) // 2)


def _across(a: int, b: int, d: int, f: int) -> tuple[int, int]:
    low, high = 0, a * b * d
    for u, v, w in ((a, b, d), (b, d, a), (d, a, b)):
        high = min(high, w * min(u, v), u * v - (f - w) * max(0, u + v - f))
        low = max(low, w * max(0, u + v - f), u * v - (f - w) * min(u, v))
    return low, high


def program(p: int, n: int, low: int, high: int, most: dict, least: dict,
            big: int | None = None, forced: list | None = None,
            ceiling: int | None = None,
            count: list | None = None, cells: int | None = None) -> tuple[dict, dict]:  # fmt: skip
    """The program: (bounds {variable: [lo, hi]}, rows {name: (coefficients, sense, rhs)}).

    ``most[k]``/``least[k]`` are cited M_{P-1}(k)/m_{P-1}(k) (absent: nothing cited). With
    ``big`` = theta, the row "big": at most one class has a hyperplane holding more than theta
    points (sum of x_t over the types t = (a, b, c) with a > theta is at most 1). With
    ``forced`` (types, one per class), the rows "forced_a_b_c": x_t >= how often t is forced.
    With ``ceiling``, no type with a > ceiling. With ``count`` = [h, k], the row "big_classes":
    at most k classes have a part of h or more. With ``cells`` = I (four ``forced`` types, one
    pencil's), the row "inside_high" as (cells) above.
    """
    f, c, k1, k2 = 3 ** (p - 1), _classes(p, 0), _classes(p, 1), _classes(p, 2)
    top = [min(degree_bound(p - 1, k), most.get(k, 10**18)) for k in range(f + 1)]
    bottom = [
        max(0, least.get(k, 0), _lines(p - 1) - k * (f - k) // 2 - top[f - k]) for k in range(f + 1)
    ]
    bounds = {"L": (low, high)}
    classes, square = {}, {}
    cube = {"L": -6 * (k1 - k2)}
    in_hi, in_lo, out_hi, out_lo = {"L": -k1}, {"L": -k1}, {"L": -(c - k1)}, {"L": -(c - k1)}
    rows = {}
    for a in range(min(f, n) + 1):
        for b in range(a + 1):
            d = n - a - b
            if not 0 <= d <= b or (ceiling is not None and a > ceiling):
                continue
            t = (a, b, d)
            across_lo, across_hi = _across(a, b, d, f)
            inside_lo, inside_hi = sum(bottom[s] for s in t), sum(top[s] for s in t)
            lo_t, hi_t = inside_lo + across_lo, inside_hi + across_hi
            if hi_t < low or lo_t > high:
                continue
            tag = f"{a}_{b}_{d}"
            x = "x_" + tag
            bounds[x] = (0, c)
            classes[x], square[x], cube[x] = 1, a * a + b * b + d * d, a**3 + b**3 + d**3
            in_hi[x], in_lo[x], out_hi[x], out_lo[x] = inside_hi, inside_lo, across_hi, across_lo
            if hi_t < high or lo_t > low:
                y = "y_" + tag
                bounds[y] = (0, 1)
                rows["occurs_" + tag] = ({x: 1, y: -c}, "<=", 0)
                if hi_t < high:
                    rows["cap_" + tag] = ({"L": 1, y: high - hi_t}, "<=", high)
                if lo_t > low:
                    rows["floor_" + tag] = ({"L": 1, y: low - lo_t}, ">=", low)
    rows["count"] = (classes, "=", c)
    rows["square"] = (square, "=", c * n + k1 * n * (n - 1))
    rows["cube"] = (cube, "=", c * n + 3 * k1 * n * (n - 1) + k2 * n * (n - 1) * (n - 2))
    rows["inside_high"] = (in_hi, ">=", 0)
    rows["inside_low"] = (in_lo, "<=", 0)
    rows["across_high"] = (out_hi, ">=", 0)
    rows["across_low"] = (out_lo, "<=", 0)
    if big is not None:
        over = {x: 1 for x in classes if int(x.split("_")[1]) > big}
        if over:
            rows["big"] = (over, "<=", 1)
    for t in forced or []:
        tag = "_".join(str(v) for v in sorted(t, reverse=True))
        x = "x_" + tag
        coefficients, _, times = rows.get("forced_" + tag, ({x: 1} if x in bounds else {}, 0, 0))
        rows["forced_" + tag] = (coefficients, ">=", times + 1)
    if count is not None:
        part, most = int(count[0]), int(count[1])
        heavy = {x: 1 for x in bounds if x.startswith("x_") and int(x.split("_")[1]) >= part}
        rows["big_classes"] = (heavy, "<=", most)
    if cells is not None:
        if len(forced or []) != 4:
            raise ValueError("a bound on the cells needs one pencil's four forced types")
        held = sum(top[int(s)] for t in forced for s in t)
        inside = {**in_hi, "L": -(k1 - 1)}
        rows["inside_high"] = (inside, ">=", held - 3 * int(cells))
    return bounds, rows


def forced_types(forced) -> list:
    """Forced class types as certificates state them: each sorted down, the list sorted down."""
    return sorted((sorted((int(v) for v in t), reverse=True) for t in forced), reverse=True)


def _leaf(bounds: dict, rows: dict, multipliers: dict) -> list[str]:
    """Errors of one Farkas certificate for the rows over the box ``bounds``."""
    if any(lo > hi for lo, hi in bounds.values()):
        return []  # an empty box: this branch is infeasible already
    errors, total, rhs = [], {}, Fraction(0)
    for name, text in multipliers.items():
        if name not in rows:
            errors.append(f"multiplier for unknown row {name}")
            continue
        y = Fraction(text)
        coefficients, sense, b = rows[name]
        if (sense == ">=" and y < 0) or (sense == "<=" and y > 0):
            errors.append(f"multiplier of row {name} ({sense}) has the wrong sign: {y}")
        for v, a in coefficients.items():
            total[v] = total.get(v, 0) + y * a
        rhs += y * b
    most = sum(a * (bounds[v][1] if a > 0 else bounds[v][0]) for v, a in total.items())
    if not most < rhs:
        errors.append(f"no contradiction: the combination reaches {most} >= {rhs}")
    return errors


def _tree(bounds: dict, rows: dict, root: dict) -> list[str]:
    """Check every leaf of a branching certificate under the bounds its branches impose.

    A branch on x at k splits the box into x <= k and x >= k + 1 (x is an integer), so if
    every leaf's box is refuted, so is the root's. The walk keeps its own stack: a tree may be
    deeper than Python's recursion allows.
    """
    errors: list[str] = []
    stack = [(bounds, root)]
    while stack:
        box, node = stack.pop()
        kind = node.get("kind")
        if kind == "farkas":
            errors += _leaf(box, rows, node.get("multipliers", {}))
        elif kind == "branch":
            v, k = node["variable"], int(node["at"])
            if v not in box:
                errors.append(f"branch on unknown variable {v}")
                continue
            lo, hi = box[v]
            stack.append(({**box, v: (max(lo, k + 1), hi)}, node["high"]))
            stack.append(({**box, v: (lo, min(hi, k))}, node["low"]))
        else:
            errors.append(f"unknown certificate node {kind!r}")
    return errors


def check_farkas(
    properties: int, cards: int, sense: str, bound: int, certificate: dict, cited: dict,
    big: int | None = None, forced: list | None = None, ceiling: int | None = None,
    count: list | None = None, cells: int | None = None,
) -> list[str]:  # fmt: skip
    """Errors found checking that ``certificate`` proves M(n) <= bound (sense "max") or
    m(n) >= bound ("min") in AG(P,3); an empty list means accepted.

    ``cited`` maps (P-1, k, "max"|"min") to the values held as proven. With ``big`` = theta the
    certificate must refute the program with the row "big" (and say so): it then proves the
    bound only for the configurations in which at most one class has a hyperplane of more than
    theta points, the first case of a split. A certificate saying "big" is refused otherwise.
    Likewise with ``forced`` (class types, one per class; the split's middle case) it must
    refute the program with those classes present, with ``ceiling`` the program without
    hyperplanes above it, and with ``count`` = [h, k] the program with at most k classes
    having a part of h or more, with ``cells`` = I the program whose four forced types are one
    pencil's with at most I lines inside its cells, and say so.

    >>> certificate = {"kind": "farkas", "multipliers": {"square": "1", "cube": "-1/10"}}
    >>> check_farkas(4, 10, "max", 12, certificate, {})  # 10 cards hold at most 12 sets
    []
    >>> check_farkas(4, 10, "max", 11, certificate, {})[0][:35]
    'max(4,10) = 11: no contradiction: t'
    """
    name = f"{sense}({properties},{cards}) = {bound}"
    if not all(isinstance(v, Integral) for v in (properties, cards, bound)):
        return [f"{name}: P, n and the value must be integers"]
    properties, cards, bound = int(properties), int(cards), int(bound)
    if not (properties >= 1 and 0 <= cards <= 3**properties and sense in ("max", "min")):
        return [f"{name}: no such value"]
    if not isinstance(certificate, dict):
        return [f"{name}: a certificate is a JSON object"]
    if certificate.get("big") != big:
        return [f"{name}: the certificate's theta {certificate.get('big')} is not {big}"]
    try:
        if forced_types(certificate.get("forced") or []) != forced_types(forced or []):
            return [f"{name}: the certificate forces {certificate.get('forced')}, not {forced}"]
        if certificate.get("ceiling") != ceiling:
            return [f"{name}: the ceiling {certificate.get('ceiling')} is not {ceiling}"]
        if certificate.get("count") != (None if count is None else [int(v) for v in count]):
            return [f"{name}: the count {certificate.get('count')} is not {count}"]
        if certificate.get("cells") != cells:
            return [f"{name}: the cells' bound {certificate.get('cells')} is not {cells}"]
        return _check(properties, cards, sense, bound, certificate, cited, name)
    except (AttributeError, KeyError, TypeError, ValueError, ZeroDivisionError) as error:
        return [f"{name}: malformed certificate ({type(error).__name__}: {error})"]


def _check(p: int, n: int, sense: str, bound: int, certificate: dict, cited: dict, name: str):
    if sense == "max":
        low, high = bound + 1, degree_bound(p, n)
    else:
        low, high = 0, bound - 1
    most, least, errors = {}, {}, []
    for q, k, kind, value in certificate.get("cites", []):
        if (q, kind) != (p - 1, "max") and (q, kind) != (p - 1, "min"):
            errors.append(f"{name}: cites {kind}({q},{k}), not a value of AG({p - 1},3)")
        elif cited.get((q, k, kind)) != value:
            proven = cited.get((q, k, kind))
            errors.append(f"{name}: cites {kind}({q},{k}) = {value}, proven {proven}")
        else:
            (most if kind == "max" else least)[k] = value
    if certificate.get("kind") == "empty":
        return errors + ([] if low > high else [f"{name}: the range {low}..{high} is not empty"])
    if low > high:
        return errors
    bounds, rows = program(
        p, n, low, high, most, least, certificate.get("big"), certificate.get("forced"),
        certificate.get("ceiling"), certificate.get("count"), certificate.get("cells"),
    )  # fmt: skip
    return errors + [f"{name}: {e}" for e in _tree(bounds, rows, certificate)]
