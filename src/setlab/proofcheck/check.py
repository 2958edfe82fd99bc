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

import sys
import types

DRAWING = ("matplotlib", "cairo", "cairocffi")
"""What python-igraph imports for its drawing when installed (about a second of start-up);
the checker draws nothing, so these are hidden while igraph loads (:func:`_import_igraph`)."""


def _import_igraph() -> types.ModuleType:
    """python-igraph, loaded without its drawing backends; their entries of ``sys.modules`` are
    put back as they were (a None entry makes an import fail, and igraph draws only if found)."""
    if "igraph" in sys.modules:
        return sys.modules["igraph"]
    saved = {name: sys.modules[name] for name in DRAWING if name in sys.modules}
    sys.modules.update(dict.fromkeys(DRAWING))
    try:
        import igraph
    finally:
        for name in DRAWING:
            if name in saved:
                sys.modules[name] = saved[name]
            else:
                del sys.modules[name]
    return igraph


try:
    import functools
    import importlib.util
    import itertools
    import json
    import math
    from array import array
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

    import numpy as np

    igraph = _import_igraph()
except ImportError as missing:  # one line, not a traceback: the reader may lack a package
    print(f"error: the checker needs numpy and python-igraph; {missing.name} is missing "
          "(pip install numpy python-igraph)", file=sys.stderr)  # fmt: skip
    sys.exit(2)
except KeyboardInterrupt:  # Ctrl-C while the modules load (main's handler is not there yet)
    print("error: interrupted", file=sys.stderr)
    sys.exit(130)

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
        # incidence[x, h]: point x lies on hyperplane h (three parallel ones after another)
        self.incidence = np.zeros((n, vertex - n), dtype=bool)
        self.incidence[tuple(np.asarray(edges).T - [[0], [n]])] = True
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

    def profile(self, reps: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """For configurations of k cards (the rows of ``reps``): their sets, and for each row the
        sets each card lies on (``degree``, k columns) and the sets each card outside would
        complete (``extra``, N columns, 0 on the row's own cards and not used there).

        A set through card y is one pair of the other cards whose third point is y, so the
        degrees are the completion counts read on the cards, and sets = sum of degrees / 3.
        """
        m, k = reps.shape
        i, j = np.triu_indices(k, 1)
        sets = np.zeros(m, dtype=np.int64)
        degree = np.zeros((m, k), dtype=np.int64)
        extra = np.zeros((m, self.size), dtype=np.int64)
        for start in range(0, m, 2048):
            block = reps[start : start + 2048]
            rows = np.arange(len(block))[:, None]
            thirds = self.third[block[:, i], block[:, j]] + rows * self.size
            counts = np.bincount(thirds.ravel(), minlength=len(block) * self.size)
            counts = counts.reshape(len(block), self.size)
            degree[start : start + len(block)] = counts[rows, block]
            extra[start : start + len(block)] = counts
        sets[:] = degree.sum(axis=1) // 3
        return sets, degree, extra


_MIX = (np.uint64(0x7FB5D329728EA185), np.uint64(0x81DADEF4BC2DD44D))
ZERO = np.uint64(0)


def _mix(x: np.ndarray) -> np.ndarray:
    """A fixed scrambling of 64-bit words (xor-shift-multiply), so that sums of mixed words
    rarely coincide by accident; any fixed function would keep the invariants below sound."""
    x = x ^ (x >> np.uint64(31))
    x = x * _MIX[0]
    x = x ^ (x >> np.uint64(27))
    x = x * _MIX[1]
    return x ^ (x >> np.uint64(33))


def invariants(g: Space, reps: np.ndarray, degree: np.ndarray) -> tuple[list[bytes], np.ndarray]:
    """Cheap AGL(P,3)-invariants of configurations (the rows of ``reps``; ``degree``: the sets
    through each card): a key per row, and whether the row is seen to be rigid.

    Colours are computed from the incidences of the cards with the hyperplanes and refined once
    (as colour refinement does): a hyperplane's colour is its count of cards and the counts of
    its parallel class; a card's, its degree and the sum of the (mixed) colours of the
    hyperplanes through it; then a hyperplane's again from the cards on it, and a card's from
    the hyperplanes through it. An affine map carries hyperplanes, parallel classes, sets and
    these sums along, so an affine map taking one configuration to another takes each card to a
    card of the same colour; the key (the set count and the sorted card colours) is therefore
    equal on equivalent configurations: **different keys prove two configurations
    inequivalent** (equal keys prove nothing; bliss decides those).

    **A rigid row has only the identity for stabiliser**: an affine map fixing the row keeps
    every colour, so it fixes each card whose colour no other card of the row has; where those
    cards affinely span AG(P,3) (no hyperplane holds them all: a proper affine subspace lies in
    a hyperplane), they contain an affine frame, and an affine map fixing a frame is the
    identity. Sums wrap modulo 2^64; that can merge colours (weakening the test), never split
    equal ones.
    """
    m, k = reps.shape
    keys: list[bytes] = []
    rigid = np.zeros(m, dtype=bool)
    if k == 0:
        return [b"" for _ in range(m)], rigid
    classes = g.incidence.shape[1] // 3
    for start in range(0, m, 1024):
        block = reps[start : start + 1024]
        b = len(block)
        on = g.incidence[block]  # b x k x H: card i of the row lies on hyperplane h
        size = on.sum(axis=1)  # b x H
        kind = np.sort(size.reshape(b, classes, 3), axis=2) @ (k + 1) ** np.arange(3)
        plane = _mix(size.astype(np.uint64) + _mix(np.repeat(kind, 3, axis=1).astype(np.uint64)))
        card = _mix(np.where(on, plane[:, None, :], ZERO).sum(axis=2, dtype=np.uint64)
                    + degree[start : start + b].astype(np.uint64))  # fmt: skip
        plane = _mix(np.where(on, card[:, :, None], ZERO).sum(axis=1, dtype=np.uint64) + plane)
        card = _mix(np.where(on, plane[:, None, :], ZERO).sum(axis=2, dtype=np.uint64) + card)
        ordered = np.sort(card, axis=1)
        sets = degree[start : start + b].sum(axis=1) // 3
        keys += [
            int(c).to_bytes(4, "little") + row.tobytes()
            for c, row in zip(sets, ordered, strict=True)
        ]
        alone = (card[:, :, None] == card[:, None, :]).sum(axis=2) == 1  # b x k
        held = (on & alone[:, :, None]).sum(axis=1).max(axis=1)  # most lone cards on one plane
        rigid[start : start + b] = held < alone.sum(axis=1)
    return keys, rigid


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
    each once), computed for all B and C at once for each A. A runs over one subset per orbit of
    AGL(2,3) only: the map (x_0, y) -> (x_0, My + b) is affine, keeps each plane and the count of
    sets, and acts on the plane x_0 = 0 as y -> My + b, so it carries any (A, B, C) to one whose
    A is its orbit's representative, with the same size and count.
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
    # the pairs (B, C) sorted by |B| + |C|, so that each size is one run of the flat order
    size_bc = (sizes[:, None] + sizes[None, :]).ravel()
    order = np.argsort(size_bc, kind="stable")
    starts = np.searchsorted(size_bc[order], np.arange(19))
    inner_bc = (inner[:, None] + inner[None, :]).ravel()[order]
    low = np.full(28, 10**9)
    high = np.full(28, -1)
    # the 432 maps y -> My + b of AG(2,3) as permutations of its points; a subset's
    # representative is its least image (as a bit mask)
    maps = [
        [int(((np.asarray(m).reshape(2, 2) @ plane.digits[y] + shift) % 3) @ plane.weights)
         for y in range(9)]
        for m in itertools.product(range(3), repeat=4)
        if round(np.linalg.det(np.asarray(m).reshape(2, 2))) % 3
        for shift in plane.digits
    ]  # fmt: skip
    least = np.full(512, 511)
    for image in maps:
        least = np.minimum(least, (bits[:, np.argsort(image)] @ (1 << np.arange(9))).astype(int))
    for a_mask in np.unique(least).tolist():
        kernel = bits[a_mask][partner]  # kernel[b, c] = 1 when the a completing (b, c) lies in A
        pairs = bits @ kernel  # pairs[B, c]: pairs (a, b) of A x B with third 18 + c
        cross = (pairs @ bits.T).ravel()[order]  # cross[B, C], in the sorted order
        total = cross.astype(np.int64) + inner_bc + inner[a_mask]
        a = int(sizes[a_mask])
        low[a : a + 19] = np.minimum(low[a : a + 19], np.minimum.reduceat(total, starts))
        high[a : a + 19] = np.maximum(high[a : a + 19], np.maximum.reduceat(total, starts))
    return [(int(lo), int(hi)) for lo, hi in zip(low, high, strict=True)]


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
        self.censuses: dict[tuple[int, str], list[tuple[bytes, int]]] = {}
        self.walks: dict[int, list[tuple[int, int]]] = {}
        self.levels: dict[str, list[list[int]]] = {}

    def level(self, path: str) -> list[list[int]]:
        if path not in self.levels:
            data = json.loads((self.root / path).read_text())
            self.levels[path] = [list(map(int, r)) for r in data["representatives"]]
        return self.levels[path]

    def census(self, p: int, path: str, reps: np.ndarray, degree: np.ndarray, run: Runner
               ) -> list[tuple[bytes, int]]:  # fmt: skip
        """The canonical form and stabiliser order of each representative of a level file (once
        per file: searches of several values may share a level)."""
        if (p, path) not in self.censuses:
            self.censuses[p, path] = run.census(p, reps, degree)
        return self.censuses[p, path]


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
    """Every n-card configuration passing T_n is equivalent to a level-n representative (or, for
    a refutation, none passes); then the level-n classes bound the value.

    Write P_k for the k-card configurations passing T_k and O_k for the union of the orbits of
    the level-k representatives L_k (L_0: the empty configuration, if it passes T_0). The
    checker sees that each representative has k cards and passes T_k, and that no two are
    equivalent (their canonical forms differ), so O_k lies in P_k and is |L_k| disjoint orbits.
    Then O_k = P_k by induction on k, counting the pairs (S, C) of S in P_k, C in P_(k+1),
    S inside C, two ways (with O_k = P_k):

      by S:  sum over S in L_k of |orbit(S)| e(S),  e(S) = #{x : S + x passes T_(k+1)};
      by C:  sum over C in P_(k+1) of d(C),         d(C) = #{y in C : C - y passes T_k}.

    The second total over O_(k+1) is the sum over R in L_(k+1) of |orbit(R)| d(R); what is left,
    over P_(k+1) outside O_(k+1), has every term >= 1, because the thresholds are derived so that
    every C passing T_(k+1) has a card whose deletion passes T_k (a card of least degree for
    max, of greatest degree for min: ``thresholds``). So the two totals agree exactly when
    O_(k+1) = P_(k+1), i.e. when every child of every level-k representative that passes
    T_(k+1) is equivalent to a level-(k+1) representative (closure), and the children are
    never labelled canonically: one form and one stabiliser per representative. |orbit(S)| =
    |AGL(P,3)| / |Aut(S)| (bliss on the incidence graph). On a level that prunes nothing this
    is the orbit-stabiliser total, sum |orbit| = C(N, k). With ``run.replay`` the checker
    also replays closure child by child (one canonical form per child and stabiliser orbit).
    """
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
    t.append(t[-1])  # T_(n+1): not used (no level n + 1), keeps the indices below in range
    sets, by_parent, by_child = [], [], []
    for k in range(last + 1):
        if any(len(rep) != k or len(set(rep)) != k for rep in levels[k]):
            return [f"level {k} holds a representative that is not {k} cards"]
        reps = np.asarray(levels[k], dtype=np.int64).reshape(len(levels[k]), k)
        if reps.size and not (reps.min() >= 0 and reps.max() < g.size):
            return [f"level {k} holds a card outside the deck"]
        count, degree, extra = g.profile(reps)
        if not all(passes(sense, int(c), t[k]) for c in count):
            return [f"a level-{k} representative fails T_{k} = {t[k]}"]
        census = (bundle.census(p, paths[k - 1], reps, degree, run) if k
                  else [(b"", g.group_order)] * len(reps))  # fmt: skip
        if len({key for key, _ in census}) != len(census):
            return [f"level {k} holds two equivalent representatives"]
        orbit = [g.group_order // order for _, order in census]
        outside = np.ones(extra.shape, dtype=bool)
        outside[np.arange(len(reps))[:, None], reps] = False
        if sense == "max":
            children = ((count[:, None] + extra >= t[k + 1]) & outside).sum(axis=1)
            parents = (count[:, None] - degree >= t[k - 1]).sum(axis=1) if k else count
        else:
            children = ((count[:, None] + extra <= t[k + 1]) & outside).sum(axis=1)
            parents = (count[:, None] - degree <= t[k - 1]).sum(axis=1) if k else count
        by_parent.append(sum(o * int(e) for o, e in zip(orbit, children.tolist(), strict=True)))
        by_child.append(sum(o * int(d) for o, d in zip(orbit, parents.tolist(), strict=True)))
        sets.append(count)
    errors = []
    for k in range(last):
        if by_parent[k] != by_child[k + 1]:
            missing = "a class is missing" if by_parent[k] > by_child[k + 1] else "too many"
            errors.append(
                f"level {k} -> {k + 1}: the level-{k} classes have {by_parent[k]} children "
                f"passing T_{k + 1} = {t[k + 1]} (counted over their orbits), the level-{k + 1} "
                f"classes account for {by_child[k + 1]}: {missing}"
            )
        if run.replay:
            forms = set(run.forms(p, levels[k + 1]))
            errors += [f"level {k} -> {k + 1} (replay): {e}"
                       for e in run.closure(p, sense, t[k + 1], levels[k], forms)]  # fmt: skip
    if errors:
        return errors
    # Every n-card configuration passing T_n is equivalent to a level-n representative.
    counts = sets[n].tolist() if last == n else []
    if sense == "max":
        optimum = max([threshold - 1, *counts])
        return [] if optimum <= v else [f"the search bounds M by {optimum}, not {v}"]
    optimum = min([threshold + 1, *counts])
    return [] if optimum >= v else [f"the search bounds m by {optimum}, not {v}"]


def deletion_rule(cards: int, previous: int, v: int, sense: str = "max") -> bool:
    """M(n-1) <= previous forces M(n) <= v: T - least_degree(n, T) does not decrease with T, so
    it suffices that T = v + 1 leaves more than ``previous`` sets after a deletion. For a
    minimum, m(n-1) >= previous forces m(n) >= v: a card of a configuration with T sets lies on
    at least ceil(3T/n) of them, and T - ceil(3T/n) does not decrease with T, so it suffices that
    T = v - 1 leaves fewer than ``previous`` after deleting such a card."""
    if sense == "min":  # and m(n) >= m(n-1) always: deleting a card never adds a set
        t = v - 1
        return v <= previous or (cards > 3 and t - (-(-3 * t // cards)) < previous)
    if cards < 3:
        return v >= 0
    return (v + 1) - least_degree(cards, v + 1) > previous


@functools.cache
def sibling(module: str) -> Any:
    """The checker file ``module``.py next to this one, or None if it is missing (loaded once a
    process: split_check.py remembers the split maxima it has checked)."""
    path = Path(__file__).with_name(f"{module}.py")
    if not path.exists():
        return None
    spec = importlib.util.spec_from_file_location(module, path)
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


def load_sibling(module: str, function: str) -> Callable[..., list[str]] | None:
    """``function`` of :func:`sibling` ``module``, or None if the file is missing."""
    loaded = sibling(module)
    return None if loaded is None else getattr(loaded, function)


def load_farkas() -> Callable[..., list[str]] | None:
    return load_sibling("farkas_check", "check_farkas")


VARIANT_TITLES = {"ultra": "UltraSet", "4set": "4Set", "ghost": "GhostSet"}


def check_variants(bundle: Bundle) -> tuple[int, int]:
    """Check each variant claim of the manifest (a largest structure-free board, or the most
    UltraSets among n cards); print a line each; return (passed, failed)."""
    entries = bundle.manifest.get("variants", [])
    check_free = load_sibling("variants_check", "check_free") if entries else None
    check_most = load_sibling("variants_check", "check_most") if entries else None
    cited: dict[tuple[int, int], int] = {}  # (P, n) -> checked most UltraSets among n cards
    passed = failed = 0
    for entry in sorted(entries, key=lambda e: (e.get("kind", "free"), e.get("cards", 0))):
        kind = entry.get("kind", "free")
        title = VARIANT_TITLES.get(entry.get("variant"), entry.get("variant"))
        if kind == "most":
            label = f"U_{entry.get('properties')}({entry.get('cards')})"
        else:
            label = f"{title}-free_{entry.get('properties')}"
        try:
            claim = json.loads((bundle.root / entry["file"]).read_text())
            fields = ("kind", "variant", "properties", "cards", "value")
            if check_free is None or check_most is None:
                errors = ["variants_check.py is missing next to check.py"]
            elif any(claim.get(f) != entry.get(f) for f in fields):
                errors = ["the file and the manifest claim different values"]
            elif kind == "free":
                errors = check_free(claim)
            elif kind == "most" and claim["variant"] == "ultra":
                p = int(claim["properties"])
                path = (claim.get("proof") or {}).get("classes")
                classes = bundle.level(path) if path else None
                mine = {n: v for (q, n), v in cited.items() if q == p}
                errors = check_most(claim, space(p), classes, mine)
                if not errors:
                    cited[p, int(claim["cards"])] = int(claim["value"])
            else:
                errors = [f"unknown claim {kind!r}"]
        except (KeyError, TypeError, ValueError, IndexError, OSError) as error:
            errors = [f"malformed bundle: {type(error).__name__}: {error}"]
        if errors:
            failed += 1
            where = f"{entry.get('value')} ({entry.get('file')})"
            print(f"FAIL {label} = {where}: " + "; ".join(errors))
        else:
            passed += 1
            how = "search" if kind == "free" else claim["proof"]["method"]
            print(f"ok   {label} = {entry['value']} ({how})")
    return passed, failed


def check_cap_by_minimum(bundle: Bundle, claim: dict[str, Any]) -> list[str]:
    """The largest cap of AG(P,3) is s: a witness of s cards holding no set, and the bundle's
    own m(s + 1) >= 1, checked with the values (any s + 1 cards hold a set)."""
    p, s = int(claim["properties"]), int(claim["value"])
    if claim.get("kind") != "largest cap":
        return [f"a largest-cap file holds a claim of kind {claim.get('kind')!r}"]
    if int(claim["proof"].get("cards", -1)) != s + 1:
        return [f"the proof must cite m({s + 1})"]
    errors = check_witness({"properties": p, "cards": s, "value": 0,
                            "witness": claim["witness"]})  # fmt: skip
    key = (p, s + 1, "min")
    if key not in bundle.values:
        errors.append(f"cites {name(key)}, which the bundle does not hold")
    elif bundle.results.get(key) != []:
        errors.append(f"cites {name(key)}, which did not pass")
    elif int(bundle.values[key]["value"]) < 1:
        errors.append(f"{name(key)} = {bundle.values[key]['value']}: some {s + 1} cards are a cap")
    return errors


def check_caps(bundle: Bundle) -> tuple[int, int]:
    """Check each largest-cap claim of the manifest: of AG(P,3) by its pencil chain
    (caps_check.py) or by the bundle's own minimum m(s + 1) >= 1 (P <= 4), of a deck of V != 3
    values by a search of its own (valued_caps_check.py); a line each; (passed, failed)."""
    entries = bundle.manifest.get("caps", [])
    passed = failed = 0
    for entry in entries:
        values = entry.get("values", 3)
        p = entry.get("properties")
        deck = f"AG({p},3)" if values == 3 else f"the {values}^{p} deck"
        label = f"largest cap of {deck}"
        module, function = (("caps_check", "check_largest_cap") if values == 3
                            else ("valued_caps_check", "check_valued_cap"))  # fmt: skip
        check_one = load_sibling(module, function)
        try:
            claim = json.loads((bundle.root / entry["file"]).read_text())
            if check_one is None:
                errors = [f"{module}.py is missing next to check.py"]
            elif any(claim.get(f, 3) != entry.get(f, 3) for f in ("properties", "values", "value")):
                errors = ["the file and the manifest claim different values"]
            elif values == 3 and (claim.get("proof") or {}).get("method") == "minimum":
                errors = check_cap_by_minimum(bundle, claim)
            else:
                errors = check_one(claim)
        except (KeyError, TypeError, ValueError, IndexError, OSError, AttributeError) as error:
            errors = [f"malformed bundle: {type(error).__name__}: {error}"]
        if errors:
            failed += 1
            print(f"FAIL {label} = {entry.get('value')} ({entry.get('file')}): "
                  + "; ".join(errors[:3]))  # fmt: skip
        else:
            passed += 1
            how = claim.get("proof", {}).get("method", "search")
            print(f"ok   {label} = {entry['value']} ({how})")
    return passed, failed


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
        previous = cited.get((p, n - 1, sense))
        if previous is None:
            errors.append("a deletion bound cites the same problem at n - 1")
        elif not deletion_rule(n, previous, v, sense):
            letter = "M" if sense == "max" else "m"
            errors.append(f"deleting a card from {n} does not bound {letter} by {v} "
                          f"given {previous}")  # fmt: skip
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
    elif method == "split":
        check_split = load_sibling("split_check", "check_split")
        if certificate is None:
            errors.append("no certificate")
        elif sense != "max":
            errors.append("a split bounds a maximum")
        elif check_split is None:
            errors.append("split_check.py is missing next to check.py")
        else:
            errors += run.split(key, v, certificate, cited)
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


def _invariants_chunk(args: tuple[int, np.ndarray, np.ndarray]) -> tuple[list[bytes], np.ndarray]:
    p, reps, degree = args
    return invariants(space(p), reps, degree)


def _bliss_chunk(args: tuple[int, list[tuple[list[int], bool, bool]]]) -> list[tuple[bytes, int]]:
    """Canonical forms (or b"") and stabiliser orders (or 1) where asked for."""
    g = space(args[0])
    return [(g.form(rep) if form else b"", g.stabiliser_order(rep) if order else 1)
            for rep, form, order in args[1]]  # fmt: skip


def _forms_chunk(args: tuple[int, list[list[int]]]) -> list[bytes]:
    g = space(args[0])
    return [g.form(rep) for rep in args[1]]


def _closure_chunk(args: tuple[int, str, int, list[list[int]], set[bytes]]) -> list[str]:
    return _closure(*args)


MALFORMED = (KeyError, TypeError, ValueError, IndexError, OSError)  # a bundle's own faults


def _piece_chunk(args: tuple[int, dict, list[int], tuple]) -> tuple[bool, Any]:
    """split_check.py's result of one piece of a split maximum's check, and True; False where
    the entry is malformed (the check of its value meets it again and says so)."""
    try:
        return True, sibling("split_check").piece_result(*args)
    except MALFORMED:
        return False, None


def _programs(certificate: dict) -> int:
    """How many middle programs a split certificate lists: the measure of its check's length."""
    middle = certificate.get("middle")
    return len(middle) if isinstance(middle, list) else 0


def _split_chunk(args: tuple[int, int, int, dict, dict, dict[str, list[str]]]
                 ) -> list[str] | None:  # fmt: skip
    """split_check.py's errors of one split value, given the split maxima checked so far; None
    where it is malformed (the walk meets it again and says so)."""
    p, n, value, certificate, cited, checked = args
    split_check = sibling("split_check")
    split_check.remember_split_maxima(checked)
    try:
        return split_check.check_split(p, n, value, certificate, cited)
    except MALFORMED:
        return None


def _leave_interrupts() -> None:
    """A worker ignores Ctrl-C: the main process hears it and ends the workers (Runner.close)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Runner:
    """Canonical forms and stabilisers of representatives (and, with ``replay``, the closure
    replay child by child), over a pool of processes for big levels."""

    def __init__(self, workers: int, replay: bool = False) -> None:
        self.workers = workers
        self.replay = replay
        self.pool = None
        self.splits: dict[tuple[Any, ...], list[str]] = {}  # split_ahead's verdicts
        if workers > 1:
            from concurrent.futures import ProcessPoolExecutor

            self.pool = ProcessPoolExecutor(workers, initializer=_leave_interrupts)

    def _split(self, items: list[Any]) -> list[list[Any]]:
        size = max(1, math.ceil(len(items) / (4 * self.workers)))
        return [items[i : i + size] for i in range(0, len(items), size)]

    def _map(self, function: Callable[[Any], list[Any]], chunks: list[Any]) -> list[Any]:
        if self.pool is None or len(chunks) < 2:
            return [function(chunk) for chunk in chunks]
        return list(self.pool.map(function, chunks))

    def census(self, p: int, reps: np.ndarray, degree: np.ndarray) -> list[tuple[bytes, int]]:
        """A key and the stabiliser order of each representative: two keys are equal exactly
        when the representatives are equivalent.

        The key is the cheap invariant of :func:`invariants`, followed by bliss's canonical
        form only where another representative of the level has the same invariant (different
        invariants already prove inequivalence, equal forms decide the rest); the stabiliser
        order is 1 for a row :func:`invariants` sees to be rigid, bliss's count otherwise.
        """
        size = max(256, math.ceil(len(reps) / (4 * self.workers)))
        parts = [(p, reps[i : i + size], degree[i : i + size]) for i in range(0, len(reps), size)]
        keys: list[bytes] = []
        rigid: list[bool] = []
        for part_keys, part_rigid in self._map(_invariants_chunk, parts):
            keys += part_keys
            rigid += part_rigid.tolist()
        seen: dict[bytes, int] = {}
        for key in keys:
            seen[key] = seen.get(key, 0) + 1
        asks = [(i, seen[key] > 1, not rigid[i]) for i, key in enumerate(keys)]
        asks = [a for a in asks if a[1] or a[2]]
        jobs = [(p, [(reps[i].tolist(), form, order) for i, form, order in asks[j : j + 64]])
                for j in range(0, len(asks), 64)]  # fmt: skip
        orders = [1] * len(keys)
        for (i, _, _), (form, order) in zip(asks, (r for out in self._map(_bliss_chunk, jobs)
                                                 for r in out), strict=True):  # fmt: skip
            keys[i] += form
            orders[i] = order
        return list(zip(keys, orders, strict=True))

    def forms(self, p: int, reps: list[list[int]]) -> list[bytes]:
        return [f for out in self._map(_forms_chunk, [(p, reps[i : i + 64])
                                                       for i in range(0, len(reps), 64)])
                for f in out]  # fmt: skip

    def closure(self, p: int, sense: str, threshold: int, parents: list[list[int]],
                forms: set[bytes]) -> list[str]:  # fmt: skip
        if self.pool is None or len(parents) < 8:
            return _closure(p, sense, threshold, parents, forms)
        chunks = [(p, sense, threshold, part, forms) for part in self._split(parents)]
        return [e for out in self.pool.map(_closure_chunk, chunks) for e in out]

    def split_ahead(self, bundle: Bundle) -> int:
        """Check the bundle's split values side by side before the walk reaches them; returns
        how many. They are its slowest checks (a split maximum's search, hundreds of programs
        a value), each needs only the values it cites, and many share split maxima.

        First every split maximum the certificates list (each once: its key is its whole
        input), in its pieces (split_check.py's: the orbits' check, and the search of each
        orbit's A over the Y of each least point), then each value with all of them known,
        over the pool, longest first. Each value is checked against the values its certificate
        cites as the bundle claims them; the walk takes that verdict only where the citations it
        has checked are those (a check is a function of its inputs alone), and checks any other
        value itself.
        """
        split_check = sibling("split_check") if self.pool is not None else None
        if split_check is None:
            return 0
        jobs = []
        for key, value in bundle.values.items():
            proof = value.get("proof") if isinstance(value.get("proof"), dict) else {}
            certificate = proof.get("certificate")
            if proof.get("method") != "split" or key[2] != "max":
                continue
            if not isinstance(certificate, dict):
                continue
            try:
                cited = {other: int(bundle.values[other]["value"])
                         for c in proof.get("cites", [])
                         if (other := (int(c["properties"]), int(c["cards"]), str(c["sense"])))
                         in bundle.values}  # fmt: skip
                jobs.append((key, int(value["value"]), certificate, cited))
            except MALFORMED:
                continue  # the walk says what is wrong
        inputs: dict[str, tuple[int, dict, list[int]]] = {}
        for key, _, certificate, cited in jobs:
            for one in split_check.split_maxima_inputs(key[0], certificate, cited):
                inputs.setdefault(split_check.split_maximum_key(*one), one)
        if jobs:
            print(f"checking the {len(jobs)} split values and their {len(inputs)} split maxima "
                  f"side by side on {self.workers} workers", flush=True)
        pieces = [(key, piece) for key, (d, entry, _) in inputs.items()
                  for piece in split_check.split_maximum_pieces(d, entry)]  # fmt: skip
        done: dict[str, list[Any] | None] = {key: [] for key in inputs}
        tasks = [(*inputs[key], piece) for key, piece in pieces]
        for (key, _), (ok, result) in zip(pieces, self.pool.map(_piece_chunk, tasks),
                                          strict=True):  # fmt: skip
            if ok and done[key] is not None:
                done[key].append(result)
            else:
                done[key] = None  # a malformed entry: its value's check says why
        for key, (d, entry, below) in inputs.items():
            if done[key]:
                split_check.check_split_maximum(d, entry, below, done[key])
        checked = split_check.checked_split_maxima()  # for the walk's own checks too
        jobs.sort(key=lambda job: -_programs(job[2]))  # the most programs first
        tasks = [(key[0], key[1], v, certificate, cited, checked)
                 for key, v, certificate, cited in jobs]  # fmt: skip
        for (key, v, _, cited), errors in zip(jobs, self.pool.map(_split_chunk, tasks),
                                              strict=True):  # fmt: skip
            if errors is not None:
                self.splits[key, v, tuple(sorted(cited.items()))] = errors
        return len(jobs)

    def split(self, key: tuple[int, int, str], value: int, certificate: dict,
              cited: dict[tuple[int, int, str], int]) -> list[str]:  # fmt: skip
        """split_check.py's errors of the split value ``key``: checked ahead where it was
        checked on these citations, else here."""
        ahead = self.splits.get((key, value, tuple(sorted(cited.items()))))
        if ahead is not None:
            return ahead
        return sibling("split_check").check_split(key[0], key[1], value, certificate, cited)

    def close(self, interrupted: bool = False) -> None:
        """Stop the pool: after its work, or (``interrupted``) at once, its queued work dropped
        and its processes ended."""
        if self.pool is None:
            return
        if interrupted:
            import multiprocessing

            self.pool.shutdown(wait=False, cancel_futures=True)
            for process in multiprocessing.active_children():
                process.terminate()
                process.join()
        else:
            self.pool.shutdown()


USAGE = "usage: python check.py DIR [--workers K] [--replay]"


def arguments(argv: list[str]) -> tuple[Path, int, bool]:
    """The bundle's directory, the number of worker processes (2 unless ``--workers K``) and
    whether to replay the closures child by child; ValueError with a one-line reason for
    anything else."""
    root, workers, replay = None, 2, False
    words = iter(argv)
    for word in words:
        if word == "--replay":
            replay = True
        elif word == "--workers":
            count = next(words, "")
            if not count.isdigit() or int(count) < 1:
                raise ValueError(f"--workers needs a whole number of processes >= 1, not {count!r}")
            workers = int(count)
        elif word.startswith("-") or root is not None:
            raise ValueError(f"unexpected argument {word!r}")
        else:
            root = Path(word)
    if root is None:
        raise ValueError(f"which bundle? give its directory ({USAGE})")
    return root, workers, replay


def main(argv: list[str]) -> int:
    if argv[:1] in (["-h"], ["--help"]):
        print(USAGE)
        return 0
    try:
        root, workers, replay = arguments(argv)
        bundle = Bundle(root)
    except (OSError, ValueError, KeyError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    run = Runner(workers, replay=replay)
    passed = failed = 0
    interrupted = False
    try:
        run.split_ahead(bundle)
        for key in sorted(bundle.values, key=lambda k: (k[0], k[2], k[1])):
            try:
                errors = check_value(bundle, key, run)
            except MALFORMED as error:
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
        more_passed, more_failed = check_variants(bundle)
        passed, failed = passed + more_passed, failed + more_failed
        more_passed, more_failed = check_caps(bundle)
        passed, failed = passed + more_passed, failed + more_failed
    except (KeyboardInterrupt, SystemError) as error:  # the workers ended at once
        # a Ctrl-C inside bliss (igraph's C code) comes out as a SystemError caused by it
        if not isinstance(error, KeyboardInterrupt) and not isinstance(
                error.__cause__ or error.__context__, KeyboardInterrupt):  # fmt: skip
            raise
        interrupted = True
        raise KeyboardInterrupt from None  # __main__ says the one line
    finally:
        run.close(interrupted)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:  # at any point of main (its pool already ended): one line, 130
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)
