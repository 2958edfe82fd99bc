"""The affine space AG(P,3): third cards, lines, flats, parallel classes and affine maps.

Three points x, y, z of F_3^P are collinear iff x + y + z = 0, so the third point of the line
through x != y is -(x + y): a set is an affine line. A k-flat is a coset p + W of a k-dimensional
subspace W (1-flats are sets, 2-flats the "magic squares", (P-1)-flats hyperplanes). The affine
group AGL(P,3) of maps x -> Ax + b (A invertible mod 3) maps lines to lines.

All tables are numpy arrays over card indices (see :mod:`setlab.cards`) and are computed once per
P and cached: every algorithm in setlab reads the same third-card table.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache

import numpy as np

from setlab.cards import check_properties, deck_size
from setlab.errors import SetlabError

__all__ = [
    "AffineMap",
    "affine_frame",
    "affine_group_order",
    "digits",
    "flats",
    "indices_of",
    "linear_forms",
    "lines",
    "parallel_classes",
    "random_affine_map",
    "rank_mod3",
    "span",
    "third_card_table",
    "third_cards",
    "weights",
]


def _index_dtype(properties: int) -> type[np.unsignedinteger]:
    return np.uint8 if 3**properties <= 256 else np.uint16


@cache
def digits(properties: int) -> np.ndarray:
    """The (3^P, P) array of card vectors, row i the digits of card i.

    Examples
    --------
    >>> digits(2).tolist()[:4]
    [[0, 0], [0, 1], [0, 2], [1, 0]]
    """
    check_properties(properties)
    grid = np.indices((3,) * properties, dtype=np.uint8).reshape(properties, -1).T
    grid.setflags(write=False)
    return grid


def weights(properties: int) -> np.ndarray:
    """Place values 3^(P-1), ..., 3, 1: ``digits(P) @ weights(P)`` are the card indices.

    Examples
    --------
    >>> weights(4).tolist()
    [27, 9, 3, 1]
    >>> int(np.array([1, 0, 1, 2]) @ weights(4))  # the card 1012
    32
    """
    return 3 ** np.arange(properties - 1, -1, -1, dtype=np.int64)


def indices_of(vectors: np.ndarray) -> np.ndarray:
    """Card indices of the rows of an integer array of digit vectors (any values, taken mod 3).

    Examples
    --------
    >>> indices_of(np.array([[0, 1, 2, 0], [3, 4, 5, 6]])).tolist()
    [15, 15]
    """
    vectors = np.asarray(vectors, dtype=np.int64) % 3
    return vectors @ weights(vectors.shape[-1])


@cache
def third_card_table(properties: int) -> np.ndarray:
    """The (3^P, 3^P) table T with T[x, y] = -(x + y), the card completing x and y to a set.

    T[x, x] = x. Entries are uint8 for P <= 5 and uint16 above.

    Examples
    --------
    >>> T = third_card_table(4)
    >>> int(T[0, 1]), int(T[T[5, 7], 7]) == 5
    (2, True)
    """
    check_properties(properties)
    if properties > 8:
        raise SetlabError(
            f"finding sets uses a 3^P x 3^P third-card table, built for P <= 8, got P = "
            f"{properties} (setlab.geometry.third_cards works for any P)"
        )
    n = deck_size(properties)
    d = digits(properties)
    table = np.zeros((n, n), dtype=np.uint32)
    for axis, w in enumerate(weights(properties)):
        column = d[:, axis].astype(np.uint8)
        table += ((6 - column[:, None] - column[None, :]) % 3).astype(np.uint32) * np.uint32(w)
    table = table.astype(_index_dtype(properties))
    table.setflags(write=False)
    return table


def third_cards(x: np.ndarray, y: np.ndarray, properties: int) -> np.ndarray:
    """Elementwise third cards -(x + y) of index arrays, by digit arithmetic (any P).

    Examples
    --------
    >>> third_cards(np.array([0, 5]), np.array([1, 7]), 4).tolist()
    [2, 0]
    """
    x = np.asarray(x, dtype=np.int64)
    y = np.asarray(y, dtype=np.int64)
    out = np.zeros(np.broadcast(x, y).shape, dtype=np.int64)
    for w in weights(properties):
        out += ((-(x // w % 3) - (y // w % 3)) % 3) * w
    return out


@cache
def lines(properties: int) -> np.ndarray:
    """All lines (sets) of AG(P,3) as an (N(N-1)/6, 3) array of sorted index triples, sorted.

    Examples
    --------
    >>> lines(4).shape, lines(3).shape, lines(2)[:2].tolist()
    ((1080, 3), (117, 3), [[0, 1, 2], [0, 3, 6]])
    """
    n = deck_size(properties)
    table = third_card_table(properties)
    rows = []
    for i in range(n):
        j = np.arange(i + 1, n)
        k = table[i, i + 1 :].astype(np.int64)
        keep = k > j
        rows.append(np.column_stack((np.full(keep.sum(), i), j[keep], k[keep])))
    result = np.concatenate(rows).astype(np.int32)
    result.setflags(write=False)
    return result


def _subspaces(properties: int, dim: int) -> list[np.ndarray]:
    """Bases (reduced row echelon form, dim x P) of every dim-dimensional subspace of F_3^P."""
    bases = []
    for pivots in itertools.combinations(range(properties), dim):
        free = [
            (r, c)
            for r, p in enumerate(pivots)
            for c in range(p + 1, properties)
            if c not in pivots
        ]
        for values in itertools.product(range(3), repeat=len(free)):
            basis = np.zeros((dim, properties), dtype=np.int64)
            for r, p in enumerate(pivots):
                basis[r, p] = 1
            for (r, c), v in zip(free, values, strict=True):
                basis[r, c] = v
            bases.append(basis)
    return bases


def span(basis: np.ndarray) -> np.ndarray:
    """All 3^k vectors of the subspace spanned by the k rows of ``basis`` (coefficients in order).

    Examples
    --------
    >>> span(np.array([[0, 1]])).tolist()
    [[0, 0], [0, 1], [0, 2]]
    """
    basis = np.asarray(basis, dtype=np.int64)
    coefficients = np.indices((3,) * len(basis)).reshape(len(basis), -1).T
    return coefficients @ basis % 3


@cache
def flats(properties: int, dim: int) -> np.ndarray:
    """All dim-flats of AG(P,3) as a (count, 3^dim) array of sorted card indices, rows sorted.

    There are 3^(P-dim) times the Gaussian binomial [P, dim]_3 of them.

    Examples
    --------
    >>> flats(4, 1).shape[0], flats(4, 2).shape, flats(4, 3).shape
    (1080, (1170, 9), (120, 27))
    """
    check_properties(properties)
    if not 0 <= dim <= properties:
        raise SetlabError(f"a flat of AG({properties},3) has dimension 0..{properties}, got {dim}")
    if dim == 0:
        out = np.arange(deck_size(properties), dtype=np.int32)[:, None]
        out.setflags(write=False)
        return out
    d = digits(properties).astype(np.int64)
    result = []
    for basis in _subspaces(properties, dim):
        directions = span(basis)
        covered = np.zeros(len(d), dtype=bool)
        for p in range(len(d)):
            if not covered[p]:  # p starts a new coset p + W
                members = indices_of(d[p] + directions)
                covered[members] = True
                result.append(np.sort(members))
    out = np.array(sorted(map(tuple, result)), dtype=np.int32)
    out.setflags(write=False)
    return out


@cache
def parallel_classes(properties: int) -> np.ndarray:
    """The (3^P - 1)/2 partitions of AG(P,3) into three parallel hyperplanes.

    Returns an array of shape (classes, 3, 3^(P-1)): class c is the linear form f_c (its first
    nonzero coefficient 1, forms in lexicographic order) and slice s holds the cards x with
    f_c(x) = s, sorted.

    Examples
    --------
    >>> parallel_classes(4).shape
    (40, 3, 27)
    """
    forms = linear_forms(properties)
    values = digits(properties).astype(np.int64) @ forms.T % 3  # (N, classes)
    order = np.argsort(values.T, axis=1, kind="stable")
    out = order.reshape(len(forms), 3, -1).astype(np.int32)
    out.setflags(write=False)
    return out


@cache
def linear_forms(properties: int) -> np.ndarray:
    """The nonzero forms f in F_3^P with first nonzero coefficient 1, one per parallel class.

    Examples
    --------
    >>> linear_forms(2).tolist()
    [[0, 1], [1, 0], [1, 1], [1, 2]]
    """
    d = digits(properties).astype(np.int64)
    nonzero = d[d.any(axis=1)]
    first = nonzero[np.arange(len(nonzero)), (nonzero != 0).argmax(axis=1)]
    out = nonzero[first == 1]
    out.setflags(write=False)
    return out


def rank_mod3(matrix: np.ndarray) -> int:
    """Rank of an integer matrix over F_3 (Gaussian elimination).

    Examples
    --------
    >>> rank_mod3(np.array([[1, 2], [2, 1]])), rank_mod3(np.eye(3, dtype=int))
    (1, 3)
    """
    m = np.array(matrix, dtype=np.int64) % 3
    rank = 0
    rows, cols = m.shape
    for c in range(cols):
        pivot = next((r for r in range(rank, rows) if m[r, c]), None)
        if pivot is None:
            continue
        m[[rank, pivot]] = m[[pivot, rank]]
        m[rank] = m[rank] * m[rank, c] % 3  # 1*1 = 2*2 = 1 mod 3: scale pivot to 1
        for r in range(rows):
            if r != rank and m[r, c]:
                m[r] = (m[r] - m[r, c] * m[rank]) % 3
        rank += 1
    return rank


def affine_frame(points: list[int], properties: int) -> list[int]:
    """The points of ``points``, in order, each affinely independent of those kept before it:
    the first affine frame they contain (at most P + 1 points).

    Examples
    --------
    >>> affine_frame([0, 1, 2, 3, 4], 2)  # (0,0), (0,1); (0,2) is on their line; (1,0); full
    [0, 1, 3]
    """
    vectors = digits(properties).astype(np.int64)
    frame: list[int] = []
    for p in points:
        if len(frame) > properties:
            break
        # p is independent of the frame when the differences from its first point keep full rank
        # (the first point is a frame of its own).
        differences = vectors[[*frame[1:], p]] - vectors[frame[0]] if frame else vectors[[]]
        if rank_mod3(differences) == len(differences):
            frame.append(p)
    return frame


def affine_group_order(properties: int) -> int:
    """|AGL(P,3)| = 3^P * prod_{i<P} (3^P - 3^i).

    Examples
    --------
    >>> affine_group_order(4)
    1965150720
    """
    n = 3**properties
    order = n
    for i in range(properties):
        order *= n - 3**i
    return order


@dataclass(frozen=True)
class AffineMap:
    """The map x -> Ax + b of F_3^P, A invertible mod 3.

    Examples
    --------
    >>> f = AffineMap(np.array([[0, 1], [1, 0]]), np.array([1, 0]))
    >>> f.permutation().tolist()[:3]
    [3, 6, 0]
    """

    matrix: np.ndarray
    shift: np.ndarray

    def __post_init__(self) -> None:
        a = np.asarray(self.matrix, dtype=np.int64) % 3
        b = np.asarray(self.shift, dtype=np.int64) % 3
        if a.ndim != 2 or a.shape[0] != a.shape[1] or b.shape != (a.shape[0],):
            raise SetlabError("an affine map needs a square P x P matrix and a length-P shift")
        if rank_mod3(a) != a.shape[0]:
            raise SetlabError("the matrix of an affine map must be invertible mod 3")
        object.__setattr__(self, "matrix", a)
        object.__setattr__(self, "shift", b)

    @property
    def properties(self) -> int:
        return int(self.matrix.shape[0])

    def permutation(self) -> np.ndarray:
        """The image of every card: an index array ``perm`` with ``perm[x] = Ax + b``."""
        d = digits(self.properties).astype(np.int64)
        return indices_of(d @ self.matrix.T + self.shift)

    def __call__(self, cards: np.ndarray) -> np.ndarray:
        """Images of an array of card indices (any shape)."""
        return self.permutation()[np.asarray(cards, dtype=np.int64)]


def random_affine_map(properties: int, rng: np.random.Generator | int | None = None) -> AffineMap:
    """A uniformly random element of AGL(P,3).

    Examples
    --------
    >>> f = random_affine_map(4, 7)
    >>> sorted(f.permutation().tolist()) == list(range(81))
    True
    """
    rng = np.random.default_rng(rng)
    while True:
        a = rng.integers(0, 3, size=(properties, properties))
        if rank_mod3(a) == properties:
            return AffineMap(a, rng.integers(0, 3, size=properties))
