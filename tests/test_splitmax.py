"""Split maxima: the exhaustive bound against a search over every configuration of each split."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from setlab.errors import SetlabError
from setlab.extremal.heuristics import local_search
from setlab.extremal.splitmax import split_maximum_bound

LINE, PLANE = [0, 0, 0, 1], [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]  # M_1(k), M_2(k)
TABLE_3 = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12, 12, 13, 14, 16, 19, 23, 26, 30, 36, 41, 47, 54, 62, 71,
           81, 92, 104, 117]  # fmt: skip


def exact_split_maxima(dimension: int) -> np.ndarray:
    """S[a, b, c] over every configuration of AG(d+1,3): the parts A, B, C of the hyperplanes
    x_0 = 0, 1, 2 run over all subsets of AG(d,3); the sets inside a part are its triples summing
    to 0 digit by digit, those across the triples p + q + z = 0 (one point from each part)."""
    size = 3**dimension
    vectors = np.array(list(itertools.product(range(3), repeat=dimension)), dtype=int)
    lines = [t for t in itertools.combinations(range(size), 3)
             if not (vectors[list(t)].sum(0) % 3).any()]  # fmt: skip
    masks = np.array(list(itertools.product((0, 1), repeat=size)), dtype=np.int64)  # all subsets
    masks = masks[np.argsort(masks.sum(axis=1), kind="stable")]  # by size: blocks of one size
    inside = masks[:, np.array(lines)].all(axis=2).sum(axis=1) if lines else np.zeros(len(masks))
    sizes = masks.sum(axis=1)
    # completes[p, q] = the z with p + q + z = 0
    completes = np.array([[int(np.ravel_multi_index(tuple(-(vectors[p] + vectors[q]) % 3),
                                                    (3,) * dimension))
                           for q in range(size)] for p in range(size)])  # fmt: skip
    starts = np.searchsorted(sizes, np.arange(size + 1))
    best = np.full((size + 1,) * 3, -1, dtype=np.int64)
    for a_mask, a_inside, a in zip(masks, inside, sizes, strict=True):
        # weight[b, z]: pairs (p in A, q in subset b) completing to z
        weight = np.zeros((size, len(masks)), dtype=np.int64)
        for p in np.flatnonzero(a_mask):
            np.add.at(weight, completes[p], masks.T)
        total = weight.T @ masks.T + inside[:, None] + inside[None, :] + a_inside  # [b, c]
        blocks = np.maximum.reduceat(np.maximum.reduceat(total, starts, axis=0), starts, axis=1)
        best[a] = np.maximum(best[a], blocks)
    return best


@pytest.mark.parametrize(("dimension", "known"), [(1, LINE), (2, PLANE)])
def test_the_bound_holds_for_every_split_and_is_exact_where_the_split_needs_it(dimension, known):
    exact = exact_split_maxima(dimension)
    size = 3**dimension
    for split in itertools.combinations_with_replacement(range(size + 1), 3):
        assert split_maximum_bound(dimension, split, known) >= exact[split]
    # 4 + 4 + 2 points of AG(3,3) in parallel planes: 9 sets, below M_3(10) = 12 and below the
    # planes' own bound 10, and the bound finds it
    if dimension == 2:
        assert split_maximum_bound(2, (4, 4, 2), PLANE) == exact[4, 4, 2] == 9 < 10 < TABLE_3[10]


def test_a_hyperplane_of_51_points_split_21_21_9_holds_287_sets():
    # the hyperplanes that stop the big-slice split at n = 147 of AG(5,3): the exhaustive bound
    # and a configuration kept in those cells agree, below M_4(51) = 289
    bound = split_maximum_bound(3, (21, 21, 9), TABLE_3)
    found = local_search(4, 51, seconds=None, restarts=20, seed=0, cells=(21, 21, 9))
    assert bound == found.sets == 287


@pytest.mark.parametrize(
    ("dimension", "split", "known"),
    [(4, (1, 1, 1), PLANE), (2, (10, 1, 1), PLANE), (2, (1, 1, -1), PLANE), (2, (1, 1, 1), LINE)],
)
def test_bad_splits_are_refused(dimension, split, known):
    with pytest.raises(SetlabError):
        split_maximum_bound(dimension, split, known)


@pytest.mark.slow
def test_twelve_split_maxima_close_m147(tmp_path):
    # With the exhaustive bounds of twelve splits of AG(4,3) (the rest as today), the big-slice
    # split proves M(147) <= 2425, the witness: the program with at most one class above 66
    # refutes 2426, the pencils above 68 allow 2425 at most, and the middle case covers t = 67,
    # 68. (Not yet a certificate: the solver and the bundle's checker do not use split maxima.)
    from setlab.extremal.bounds import slice_program, solve_highs
    from setlab.extremal.identities import degree_bound
    from setlab.extremal.maxsets import Solver
    from setlab.extremal.split import cover_middle_case, middle_types, two_big_hyperplanes
    from setlab.store import Store

    store = Store(tmp_path / "p4.sqlite")
    Solver(4, store).table()
    most4, most3 = Solver(4, store).known_max(4), Solver(3, store).known_max(3)
    most, below = [most4[h] for h in range(82)], [most3[h] for h in range(28)]
    splits = [
        *((19, 10, 9), (20, 10, 9), (20, 19, 8), (20, 20, 8), (21, 20, 9), (21, 21, 9)),
        *((22, 19, 9), (22, 20, 9), (22, 21, 9), (22, 22, 10), (23, 20, 9), (23, 22, 10)),
    ]
    table = np.full((28, 28, 28), 10**6, dtype=np.int64)
    for split in splits:
        bound = split_maximum_bound(3, split, below)
        assert bound < most4[sum(split)]  # each is below M_4 of its size
        for order in itertools.permutations(split):
            table[order] = bound
    program = slice_program(5, 147, 2426, degree_bound(5, 147), most4, big=66)
    assert solve_highs(program)[0] == "infeasible"
    pencils = two_big_hyperplanes(5, 147, 68, most, below, floor=2425, cutoff=2425,
                                  split_most=table)  # fmt: skip
    assert pencils[0] <= 2425
    for t in (67, 68):
        quads = middle_types(5, 147, t, most, below, 2425, split_most=table)
        assert cover_middle_case(5, 147, 2426, most4, t, quads) is not None
    plain = two_big_hyperplanes(5, 147, 68, most, below, floor=2425, cutoff=2425)
    assert plain[0] > 2425  # without the split maxima the pencils above 68 pass 2425
