#!/usr/bin/env python3
"""Standalone checker of a setlab proof bundle: ``python check.py DIR``.

A card of the P-property game is a point of F_3^P, written as P digits; a set is a line
{x, y, z} (x + y + z = 0 in every digit); M(n) and m(n) are the most and fewest sets among n
cards. Each value file of the bundle claims M(n) = v or m(n) = v with a witness (n cards with
exactly v sets) and a proof that no n cards do better. This file re-checks every claim from
the mathematics alone: it imports only the standard library, numpy and python-igraph (whose
canonical labelling is bliss), and shares no code with setlab. See docs/certificates.md.
"""

from __future__ import annotations

import importlib.util
import itertools
import json
import math
import sys
from array import array
from collections.abc import Callable
from pathlib import Path
from typing import Any

import igraph
import numpy as np

FORMAT = "setlab-proof-bundle/1"

# -- the affine space AG(P,3) ---------------------------------------------------------------------


class Space:
    """AG(P,3): its N = 3^P points (card index = the digits read as a base-3 number, first digit
    most significant), the third point of every pair, and the incidence graph of points and
    hyperplanes, whose automorphisms fixing the two sides are the affine maps x -> Ax + b."""

    def __init__(self, properties: int) -> None:
        p = self.properties = properties
        n = self.size = 3**p
        self.weights = 3 ** np.arange(p - 1, -1, -1)
        self.digits = (np.arange(n)[:, None] // self.weights[None, :]) % 3
        # x + y + z = 0 digit by digit: z = -(x + y)
        self.third = (-(self.digits[:, None, :] + self.digits[None, :, :]) % 3) @ self.weights
        # vector sums and differences as Python lists (form reads them one entry at a time)
        self.add = ((self.digits[:, None, :] + self.digits[None, :, :]) % 3 @ self.weights).tolist()
        self.sub = ((self.digits[:, None, :] - self.digits[None, :, :]) % 3 @ self.weights).tolist()
        # hyperplanes {x : u.x = c}: one u per pair {u, 2u} of nonzero vectors (first nonzero 1)
        edges = []
        vertex = n
        for u in itertools.product(range(3), repeat=p):
            if next((d for d in u if d), 0) != 1:
                continue
            dots = self.digits @ np.asarray(u) % 3
            for c in range(3):
                edges.extend((int(x), vertex) for x in np.flatnonzero(dots == c))
                vertex += 1
        self.vertices = vertex
        self.graph = igraph.Graph(n=vertex, edges=edges)
        self.uncoloured = [1] * n + [2] * (vertex - n)
        # |AGL(P,3)| = 3^P |GL(P,3)|
        self.group_order = n * math.prod(n - 3**i for i in range(p))

    def colours(self, cards: list[int]) -> list[int]:
        colour = self.uncoloured[:]
        for c in cards:
            colour[c] = 0
        return colour

    def form(self, cards: list[int]) -> bytes:
        """A complete invariant of the orbit of ``cards`` under AGL(P,3).

        bliss labels the coloured graph canonically; scanning the points in canonical order
        gives an affine frame (the first point, then each point outside the span so far). Two
        canonical labellings of equivalent configurations differ by an affine map (times an
        automorphism of the configuration), which carries frame to frame, so the coordinates of
        the cards in their frame do not depend on the representative; and equal coordinates
        give the affine map frame -> frame that carries one configuration onto the other.

        The coordinates are kept as one number per point, y_1 + 3 y_2 + 9 y_3 + ... in the
        frame (o; v_1, v_2, ...), filled in over the vectors (points read as vectors): each new
        basis vector v with weight s adds w + v and w + 2v with the weight of w plus s and 2s
        for every w of the span so far. The form is the sorted coordinates of the cards, one
        byte each while 3^P <= 256 (P <= 5), two bytes beyond.
        """
        colour = self.uncoloured.copy()
        for c in cards:
            colour[c] = 0
        # igraph returns the vertices in canonical order (entry i: the vertex labelled i)
        order = self.graph.canonical_permutation(sh="fl", color=colour)
        size, add, sub = self.size, self.add, self.sub
        coordinate = [-1] * size
        coordinate[0] = 0  # the zero vector
        span = [0]
        step, origin = 1, -1
        for q in order:
            if q >= size:
                continue  # a hyperplane
            if origin < 0:
                origin = q
                continue
            v = sub[q][origin]
            if coordinate[v] >= 0:
                continue  # q lies in the span so far
            grown = []
            for w in span:
                w1 = add[w][v]
                w2 = add[w1][v]
                coordinate[w1] = coordinate[w] + step
                coordinate[w2] = coordinate[w] + 2 * step
                grown += (w1, w2)
            span += grown
            step *= 3
            if len(span) == size:
                break
        coordinates = sorted(coordinate[sub[c][origin]] for c in cards)
        return bytes(coordinates) if size <= 256 else array("H", coordinates).tobytes()

    def stabiliser_orbits(self, cards: list[int]) -> np.ndarray:
        """Each point's orbit label (its least point) under the affine maps fixing ``cards``:
        labels lowered along every generator until no generator lowers one."""
        generators = self.graph.automorphism_group(sh="fl", color=self.colours(cards))
        maps = [np.asarray(g[: self.size]) for g in generators]
        label = np.arange(self.size)
        changed = True
        while changed:
            changed = False
            for image in maps:
                lower = np.minimum(label, label[image])
                lower = np.minimum(lower, lower[lower])
                if (lower != label).any():
                    label, changed = lower, True
        return label

    def stabiliser_order(self, cards: list[int]) -> int:
        return int(self.graph.count_automorphisms(sh="fl", color=self.colours(cards)))

    def completions(self, cards: list[int]) -> np.ndarray:
        """For each point z, the pairs of ``cards`` whose third point is z."""
        s = np.asarray(cards, dtype=np.int64)
        i, j = np.triu_indices(len(s), 1)
        return np.bincount(self.third[s[i], s[j]], minlength=self.size)

    def sets(self, cards: list[int]) -> int:
        """Sets among ``cards`` from the third points of the pairs (each set has three pairs)."""
        if len(cards) < 3:
            return 0
        return int(self.completions(cards)[np.asarray(cards)].sum()) // 3


def plain_count(digits: list[list[int]]) -> int:
    """Sets among cards given by digits: every triple x, y, z tested digit by digit (the
    loop over x in Python, over the pairs y, z after x in numpy)."""
    if len(digits) < 3:
        return 0
    v = np.asarray(digits, dtype=np.int64)
    count = 0
    for i in range(len(v) - 2):
        rest = v[i + 1 :]
        j, k = np.triu_indices(len(rest), 1)
        total = (v[i][None, :] + rest[j] + rest[k]) % 3
        count += int(np.count_nonzero(~total.any(axis=1)))
    return count


_SPACES: dict[int, Space] = {}


def space(properties: int) -> Space:
    if properties not in _SPACES:
        _SPACES[properties] = Space(properties)
    return _SPACES[properties]


# -- the identities the proofs use ----------------------------------------------------------------


def total_lines(properties: int) -> int:
    n = 3**properties
    return n * (n - 1) // 6


def complement_sum(properties: int, cards: int) -> int:
    """sets(S) + sets(S^c) = N(N-1)/6 - n(N-n)/2: a line meets S in l0..l3 of its points."""
    n = 3**properties
    return total_lines(properties) - cards * (n - cards) // 2


def least_degree(cards: int, sets: int) -> int:
    """Some card lies on at most min(floor(3L/n), floor((n-1)/2)) of the L sets."""
    if cards <= 0 or sets <= 0:
        return 0
    return min(3 * sets // cards, (cards - 1) // 2)


def greatest_degree(cards: int, sets: int) -> int:
    """Some card lies on at least ceil(3L/n) of the L sets."""
    if cards <= 0 or sets <= 0:
        return 0
    return -(-3 * sets // cards)


def thresholds(sense: str, cards: int, threshold: int) -> list[int]:
    """T_0..T_n: a configuration passing T_k has a card whose deletion leaves one passing
    T_{k-1} (delete a card of least degree for max, of greatest degree for min)."""
    out = [0] * (cards + 1)
    out[cards] = threshold
    for k in range(cards, 0, -1):
        t = out[k]
        if sense == "max":
            out[k - 1] = max(0, t - least_degree(k, t))
        elif t < 0:
            out[k - 1] = -1
        else:
            out[k - 1] = t - (greatest_degree(k, t) if k >= 3 else 0)
    return out


def passes(sense: str, count: int, threshold: int) -> bool:
    return count >= threshold if sense == "max" else count <= threshold


# -- the exhaustive walk --------------------------------------------------------------------------


def walk(properties: int) -> list[tuple[int, int]]:
    """(fewest, most) sets over all subsets of each size n = 0..N, for P <= 3.

    P <= 2: every subset as a bit mask, its sets counted line by line. P = 3: a subset is
    (A, B, C), its parts in the three planes x_0 = 0, 1, 2; sets(S) = sets(A) + sets(B) +
    sets(C) + #{a in A, b in B : the third point of a, b lies in C} (a line off the planes meets
    each once), computed for all B and C at once for each A.
    """
    if properties <= 2:
        n = 3**properties
        g = space(properties)
        lines = {tuple(sorted((a, b, int(g.third[a, b])))) for a in range(n) for b in range(a)}
        masks = np.arange(2**n)
        counts = np.zeros(2**n, dtype=np.int64)
        for line in lines:
            bits = sum(1 << x for x in line)
            counts += (masks & bits) == bits
        sizes = np.array([bin(m).count("1") for m in masks.tolist()])
        return [
            (int(counts[sizes == k].min()), int(counts[sizes == k].max())) for k in range(n + 1)
        ]
    if properties != 3:
        raise ValueError("the exhaustive walk is checked for P <= 3 only")
    g = space(3)
    subsets = np.arange(512)
    bits = ((subsets[:, None] >> np.arange(9)[None, :]) & 1).astype(np.float64)  # 512 x 9
    sizes = bits.sum(axis=1).astype(np.int64)
    plane = space(2)
    inner = np.array([plane.sets([x for x in range(9) if m >> x & 1]) for m in range(512)])
    # third point of a in plane 0 and b in plane 1 is 18 + c(a, b); a = the point with c(a,b) = c
    partner = np.zeros((9, 9), dtype=np.int64)  # partner[b, c] = a
    for a in range(9):
        for b in range(9):
            c = int(g.third[a, 9 + b]) - 18
            partner[b, c] = a
    by_size = [np.flatnonzero(sizes == k) for k in range(10)]
    best = [(10**9, -1)] * 28
    for a_mask in range(512):
        in_a = bits[a_mask]
        kernel = in_a[partner]  # kernel[b, c] = 1 when the a completing (b, c) lies in A
        pairs = bits @ kernel  # pairs[B, c]: pairs (a, b) of A x B with third 18 + c
        cross = pairs @ bits.T  # cross[B, C]
        total = cross + (inner[a_mask] + inner[:, None] + inner[None, :])
        for j, columns in enumerate(by_size):
            block = total[:, columns]
            high, low = block.max(axis=1), block.min(axis=1)
            for i, rows in enumerate(by_size):
                k = int(sizes[a_mask]) + i + j
                lo, hi = best[k]
                best[k] = (min(lo, int(low[rows].min())), max(hi, int(high[rows].max())))
    return best


# -- the checks -----------------------------------------------------------------------------------


class Bundle:
    """The bundle's value files, and what has been checked so far."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.manifest = json.loads((root / "manifest.json").read_text())
        if self.manifest.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} bundle")
        self.values: dict[tuple[int, int, str], dict[str, Any]] = {}
        self.files: dict[tuple[int, int, str], str] = {}
        for entry in self.manifest["values"]:
            data = json.loads((root / entry["file"]).read_text())
            key = (int(data["properties"]), int(data["cards"]), str(data["sense"]))
            if key in self.values:
                raise ValueError(f"{entry['file']}: a second file for {name(key)}")
            self.values[key] = data
            self.files[key] = entry["file"]
        self.results: dict[tuple[int, int, str], list[str]] = {}
        self.closures: dict[tuple[str, str, str, int], list[str]] = {}
        self.walks: dict[int, list[tuple[int, int]]] = {}
        self.levels: dict[str, list[list[int]]] = {}

    def level(self, path: str) -> list[list[int]]:
        if path not in self.levels:
            data = json.loads((self.root / path).read_text())
            self.levels[path] = [list(map(int, r)) for r in data["representatives"]]
        return self.levels[path]


def name(key: tuple[int, int, str]) -> str:
    p, n, sense = key
    return f"{'M' if sense == 'max' else 'm'}_{p}({n})"


def check_witness(value: dict[str, Any]) -> list[str]:
    p, n, v = int(value["properties"]), int(value["cards"]), int(value["value"])
    witness = value.get("witness")
    if not isinstance(witness, list) or len(witness) != n:
        return [f"the witness is not {n} cards"]
    if any(len(c) != p or any(d not in (0, 1, 2) for d in c) for c in witness):
        return ["a witness card is not P digits 0, 1, 2"]
    if len({tuple(c) for c in witness}) != n:
        return ["the witness repeats a card"]
    count = plain_count([list(c) for c in witness])
    return [] if count == v else [f"the witness has {count} sets, not {v}"]


def check_trivial(value: dict[str, Any], certificate: dict[str, Any]) -> list[str]:
    p, n, v, sense = value["properties"], value["cards"], value["value"], value["sense"]
    if n <= 2 and v == 0:
        return []  # no three cards, no set
    if n == 3**p and v == total_lines(p):
        return []  # the whole deck holds every line
    if sense == "min" and v == 0:
        return []  # no count is below 0
    return [f"no trivial argument gives {v}"]


def check_exhaustive(bundle: Bundle, value: dict[str, Any]) -> list[str]:
    p, n, v, sense = value["properties"], value["cards"], value["value"], value["sense"]
    if p > 3:
        return ["the exhaustive walk is checked for P <= 3 only"]
    if p not in bundle.walks:
        bundle.walks[p] = walk(p)
    low, high = bundle.walks[p][n]
    found = high if sense == "max" else low
    return [] if found == v else [f"the walk over all subsets gives {found}, not {v}"]


def _closure(p: int, sense: str, threshold: int, parents: list[list[int]], forms: set[bytes]
             ) -> list[str]:  # fmt: skip
    """Every child of every parent passing ``threshold`` lies in a class of ``forms``."""
    g = space(p)
    errors = []
    for parent in parents:
        count = g.sets(parent)
        extra = g.completions(parent)
        orbits = g.stabiliser_orbits(parent)
        taken = np.zeros(g.size, dtype=bool)
        taken[parent] = True
        for x in np.flatnonzero((orbits == np.arange(g.size)) & ~taken).tolist():
            if not passes(sense, count + int(extra[x]), threshold):
                continue
            child = sorted([*parent, x])
            if g.form(child) not in forms:
                errors.append(
                    f"the child {child} of a level-{len(parent)} representative passes "
                    f"T = {threshold} and is equivalent to no representative"
                )
                if len(errors) >= 3:
                    return errors
    return errors


def check_search(bundle: Bundle, value: dict[str, Any], certificate: dict[str, Any],
                 run: Runner) -> list[str]:  # fmt: skip
    """Replay closure level by level; then the level-n classes bound the value."""
    p, n, v, sense = value["properties"], value["cards"], value["value"], value["sense"]
    g = space(p)
    threshold = int(certificate["threshold"])
    t = thresholds(sense, n, threshold)
    paths = certificate["levels"]
    if len(paths) > n:
        return [f"{len(paths)} levels for {n} cards"]
    levels = [[[]] if passes(sense, 0, t[0]) else []]
    for path in paths:
        levels.append(bundle.level(path))
    last = len(levels) - 1
    if last < n and levels[last]:
        return [f"the levels stop at {last} < {n} with classes left"]
    errors = []
    for k in range(1, last + 1):
        for rep in levels[k]:
            if len(set(rep)) != k or not all(0 <= c < g.size for c in rep):
                return [f"level {k} holds a representative that is not {k} cards"]
            if not passes(sense, g.sets(rep), t[k]):
                return [f"a level-{k} representative fails T_{k} = {t[k]}"]
    for k in range(last):
        key = (paths[k - 1] if k else str(len(levels[0])), paths[k], sense, t[k + 1])
        if key not in bundle.closures:
            forms = set(run.forms(p, levels[k + 1]))
            if len(forms) != len(levels[k + 1]):
                bundle.closures[key] = [f"level {k + 1} holds two equivalent representatives"]
            else:
                bundle.closures[key] = run.closure(p, sense, t[k + 1], levels[k], forms)
        errors += [f"level {k} -> {k + 1}: {e}" for e in bundle.closures[key]]
    for k in range(1, last + 1):  # orbit-stabiliser on the levels that keep everything
        unpruned = t[k] <= 0 if sense == "max" else t[k] >= k * (k - 1) // 6
        if unpruned:
            total = sum(g.group_order // g.stabiliser_order(rep) for rep in levels[k])
            if total != math.comb(g.size, k):
                errors.append(f"level {k}: orbit sizes sum to {total}, not C({g.size},{k})")
    if errors:
        return errors
    # Every n-card configuration passing T_n is equivalent to a level-n representative.
    counts = [g.sets(rep) for rep in levels[n]] if last == n else []
    if sense == "max":
        optimum = max([threshold - 1, *counts])
        return [] if optimum <= v else [f"the search bounds M by {optimum}, not {v}"]
    optimum = min([threshold + 1, *counts])
    return [] if optimum >= v else [f"the search bounds m by {optimum}, not {v}"]


def deletion_rule(cards: int, previous: int, v: int) -> bool:
    """M(n-1) <= previous forces M(n) <= v: T - least_degree(n, T) does not decrease with T, so
    it suffices that T = v + 1 leaves more than ``previous`` sets after a deletion."""
    if cards < 3:
        return v >= 0
    return (v + 1) - least_degree(cards, v + 1) > previous


def load_farkas() -> Callable[..., list[str]] | None:
    path = Path(__file__).with_name("farkas_check.py")
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location("farkas_check", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.check_farkas


def check_value(bundle: Bundle, key: tuple[int, int, str], run: Runner,
                trail: tuple[tuple[int, int, str], ...] = ()) -> list[str]:  # fmt: skip
    """Errors of one value: its witness, its proof, and every value its proof cites."""
    if key in bundle.results:
        return bundle.results[key]
    if key in trail:
        cycle = " -> ".join(name(k) for k in (*trail[trail.index(key) :], key))
        return [f"citation cycle {cycle}"]
    if key not in bundle.values:
        return [f"cites {name(key)}, which the bundle does not hold"]
    value = bundle.values[key]
    p, n, v, sense = key[0], key[1], int(value["value"]), key[2]
    errors = check_witness(value)
    proof = value.get("proof") or {}
    method = proof.get("method")
    certificate = proof.get("certificate")
    cited: dict[tuple[int, int, str], int] = {}
    for c in proof.get("cites", []):
        other = (int(c["properties"]), int(c["cards"]), str(c["sense"]))
        failed = check_value(bundle, other, run, (*trail, key))
        if failed:
            errors.append(f"cites {name(other)}: " + failed[0])
        elif other in bundle.values:
            cited[other] = int(bundle.values[other]["value"])
    if errors:
        bundle.results[key] = errors
        return errors
    size = 3**p
    if method == "trivial":
        errors += check_trivial(value, certificate or {})
    elif method == "exhaustive":
        errors += check_exhaustive(bundle, value)
    elif method == "search":
        errors += check_search(bundle, value, certificate or {}, run)
    elif method == "deletion":
        previous = cited.get((p, n - 1, "max"))
        if sense != "max" or previous is None:
            errors.append("a deletion bound cites M(n - 1)")
        elif not deletion_rule(n, previous, v):
            errors.append(f"deleting a card from {n} does not bound M by {v} given {previous}")
    elif method == "complement":
        identity = complement_sum(p, n)
        other_sense = "min" if sense == "max" else "max"
        other = cited.get((p, size - n, other_sense))
        if other is None and sense == "max":
            other = 0  # m(N - n) >= 0 needs no citation
        if other is None:
            errors.append("a complement bound cites the other problem at N - n")
        elif sense == "max" and identity - other > v:
            errors.append(f"M <= {identity} - m({size - n}) = {identity - other}, not {v}")
        elif sense == "min" and identity - other < v:
            errors.append(f"m >= {identity} - M({size - n}) = {identity - other}, not {v}")
    elif method == "farkas":
        check_farkas = load_farkas()
        if certificate is None:
            errors.append("no certificate")
        elif check_farkas is None:
            errors.append("farkas_check.py is missing next to check.py")
        else:
            errors += check_farkas(p, n, sense, v, certificate, cited)
    else:
        errors.append(f"unknown method {method!r}")
    # A result met inside another's citations is final too: if its own citations led back into
    # the trail, it lies on that cycle and fails from wherever it is reached.
    bundle.results[key] = errors
    return errors


# -- parallel work --------------------------------------------------------------------------------


def _forms(p: int, reps: list[list[int]]) -> list[bytes]:
    g = space(p)
    return [g.form(rep) for rep in reps]


def _closure_chunk(args: tuple[int, str, int, list[list[int]], set[bytes]]) -> list[str]:
    return _closure(*args)


def _forms_chunk(args: tuple[int, list[list[int]]]) -> list[bytes]:
    return _forms(*args)


class Runner:
    """Closure checks and canonical forms, over a pool of processes for big levels."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool = None
        if workers > 1:
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(workers)

    def _split(self, items: list[Any]) -> list[list[Any]]:
        size = max(1, math.ceil(len(items) / (4 * self.workers)))
        return [items[i : i + size] for i in range(0, len(items), size)]

    def forms(self, p: int, reps: list[list[int]]) -> list[bytes]:
        if self.pool is None or len(reps) < 64:
            return _forms(p, reps)
        chunks = [(p, part) for part in self._split(reps)]
        return [f for out in self.pool.map(_forms_chunk, chunks) for f in out]

    def closure(self, p: int, sense: str, threshold: int, parents: list[list[int]],
                forms: set[bytes]) -> list[str]:  # fmt: skip
        if self.pool is None or len(parents) < 8:
            return _closure(p, sense, threshold, parents, forms)
        chunks = [(p, sense, threshold, part, forms) for part in self._split(parents)]
        return [e for out in self.pool.map(_closure_chunk, chunks) for e in out]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown()


def main(argv: list[str]) -> int:
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: python check.py DIR [--workers K]")
        return 0 if argv else 2
    root = Path(argv[0])
    workers = int(argv[argv.index("--workers") + 1]) if "--workers" in argv else 2
    try:
        bundle = Bundle(root)
    except (OSError, ValueError, KeyError) as error:
        print(f"error: {error}")
        return 2
    run = Runner(workers)
    passed = failed = 0
    try:
        for key in sorted(bundle.values, key=lambda k: (k[0], k[2], k[1])):
            try:
                errors = check_value(bundle, key, run)
            except (KeyError, TypeError, ValueError, IndexError, OSError) as error:
                errors = [f"malformed bundle: {type(error).__name__}: {error}"]
            value = bundle.values[key]
            method = (value.get("proof") or {}).get("method")
            if errors:
                failed += 1
                more = f"; and {len(errors) - 3} more" if len(errors) > 3 else ""
                print(f"FAIL {name(key)} = {value.get('value')} ({bundle.files[key]}): "
                      + "; ".join(errors[:3]) + more)  # fmt: skip
            else:
                passed += 1
                print(f"ok   {name(key)} = {value['value']} ({method})")
    finally:
        run.close()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
