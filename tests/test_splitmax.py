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
