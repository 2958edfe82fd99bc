"""Split maxima: the exhaustive bound against a search over every configuration of each split."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import standalone
from setlab.errors import SetlabError
from setlab.extremal.heuristics import local_search
from setlab.extremal.splitmax import part_orbits, split_maximum_bound

LINE, PLANE = [0, 0, 0, 1], [0, 0, 0, 1, 1, 2, 3, 5, 8, 12]  # M_1(k), M_2(k)
TABLE_3 = [0, 0, 0, 1, 1, 2, 3, 5, 8, 12, 12, 13, 14, 16, 19, 23, 26, 30, 36, 41, 47, 54, 62, 71,
           81, 92, 104, 117]  # fmt: skip

# loaded from its file, as the proof bundle runs it
split_check = standalone.load(standalone.ROOT / "src" / "setlab" / "proofcheck" / "split_check.py")


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
def test_the_bound_is_the_split_maximum_for_every_split(dimension, known):
    exact = exact_split_maxima(dimension)
    size = 3**dimension
    for split in itertools.combinations_with_replacement(range(size + 1), 3):
        assert split_maximum_bound(dimension, split, known) == exact[split]
    # 4 + 4 + 2 points of AG(3,3) in parallel planes: 9 sets, below M_3(10) = 12 and below the
    # planes' own bound 10, and the bound finds it
    if dimension == 2:
        assert split_maximum_bound(2, (4, 4, 2), PLANE) == exact[4, 4, 2] == 9 < 10 < TABLE_3[10]


def cells_and_sets_by_hand(cards: list[int]) -> tuple[tuple[int, int, int], int]:
    """How many cards of AG(4,3) lie in each of the search's three cells (the hyperplanes of
    the first digit: index // 27 = 0, 1, 2), and the triples whose every digit sums to 0 mod 3:
    plain loops."""
    digits = [[card // 3**i % 3 for i in range(4)] for card in cards]
    cells = tuple(sum(card // 27 == part for card in cards) for part in range(3))
    sets = sum(all((x + y + z) % 3 == 0 for x, y, z in zip(p, q, r, strict=True))
               for p, q, r in itertools.combinations(digits, 3))  # fmt: skip
    return cells, sets


def test_a_hyperplane_of_51_points_split_21_21_9_holds_287_sets():
    # the hyperplanes that stopped the big-slice split at n = 147 of AG(5,3): the exhaustive
    # bound and a configuration kept in those cells (recounted by hand) agree, below
    # M_4(51) = 289
    bound = split_maximum_bound(3, (21, 21, 9), TABLE_3)
    found = local_search(4, 51, seconds=None, restarts=20, seed=0, cells=(21, 21, 9))
    assert len(set(found.witness)) == 51
    assert cells_and_sets_by_hand(found.witness) == ((21, 21, 9), bound)
    assert bound < 289


def test_18_18_5_holds_146_sets_where_the_third_part_bounded_alone_allows_147():
    # C's part bounded by M_3(5) = 2 and the five largest pair counts allows 147 (the first
    # version's bound); searching C where that bound passes gives 146, which a configuration in
    # those cells reaches
    bound = split_maximum_bound(3, (18, 5, 18), TABLE_3)
    found = local_search(4, 41, seconds=None, restarts=3, iterations=30_000, seed=0,
                         cells=(18, 18, 5))  # fmt: skip
    assert len(set(found.witness)) == 41
    assert cells_and_sets_by_hand(found.witness) == ((18, 18, 5), bound)
    assert bound < 147


@pytest.mark.parametrize(
    ("dimension", "split", "known"),
    [(4, (1, 1, 1), PLANE), (2, (10, 1, 1), PLANE), (2, (1, 1, -1), PLANE), (2, (1, 1, 1), LINE)],
)
def test_bad_splits_are_refused(dimension, split, known):
    with pytest.raises(SetlabError):
        split_maximum_bound(dimension, split, known)


@pytest.mark.slow
def test_split_maxima_prove_m147_and_the_standalone_checker_agrees(tmp_path):
    # M(147) = 2425 in AG(5,3): the split, guided to the hyperplanes worth an exhaustive split
    # maximum, proves the witness's count; each split maximum it used is below M_4 of its size;
    # the bundle's certificate passes the standalone checker, and one set fewer does not
    # (about 15 minutes in all: the P = 4 table, the split with its exhaustive split maxima, the
    # certificates of 467 programs, and the checker's own split maxima). The split maxima are
    # kept in the store as they are bounded.
    from setlab.bundle import split_certificate
    from setlab.extremal.maxsets import GUIDE_CARDS, Solver
    from setlab.extremal.split import split_maxima_job, split_upper_bound, two_big_hyperplanes
    from setlab.extremal.splitmax import split_maxima_found
    from setlab.store import Store

    store = Store(tmp_path / "p4.sqlite")
    Solver(4, store).table()
    most4, most3 = Solver(4, store).known_max(4), Solver(3, store).known_max(3)
    guide = split_maxima_found(3, GUIDE_CARDS)
    bound, record = split_upper_bound(5, 147, most4, most3, 2425, 2429, guide, store)
    assert bound == 2425 and record["split_maxima"]
    kept = store.finished_tasks(split_maxima_job(3, [most3[k] for k in range(28)]))
    assert all(kept[f"{a},{b},{c}"] == v for a, b, c, v in record["split_maxima"])
    assert all(v < most4[a + b + c] for a, b, c, v in record["split_maxima"])
    most, below = [most4[h] for h in range(82)], [most3[h] for h in range(28)]
    top = record["pencil"]["theta"]
    plain = two_big_hyperplanes(5, 147, top, most, below, floor=2425, cutoff=2425)
    assert plain[0] > 2425  # without the split maxima the pencils above top pass 2425
    store.record_bound("maxsets", 5, 147, "max", 2425, {"method": "split", "record": record},
                       "split")  # fmt: skip
    certificate = split_certificate(store.get("maxsets", 5, 147))
    cited = {(4, k, "max"): v for k, v in most4.items()}
    cited.update({(3, k, "max"): v for k, v in most3.items()})
    assert split_check.check_split(5, 147, 2425, certificate, cited) == []
    assert split_check.check_split(5, 147, 2424, certificate, cited)


def test_the_affine_groups_of_the_standalone_checker_have_their_orders():
    # |AGL(d,3)| = 3^d (3^d - 1)(3^d - 3)...(3^d - 3^(d-1))
    assert len(split_check.affine_group(2)) == 9 * 8 * 6
    group = split_check.affine_group(3)
    assert len(group) == 27 * 26 * 24 * 18
    assert (np.sort(group[::997], axis=1) == np.arange(27)).all()  # each a permutation


def test_part_orbits_hit_every_orbit_of_ag23_once():
    # orbits counted independently: the least image of every subset of AG(2,3) under the group
    group = split_check.affine_group(2)
    least: dict[int, set[int]] = {}
    for mask in range(512):
        points = [p for p in range(9) if mask >> p & 1]
        images = (1 << group[:, points]).sum(axis=1) if points else np.zeros(1, dtype=int)
        least.setdefault(len(points), set()).add(int(images.min()))
    for size in range(10):
        assert len(part_orbits(2, size)) == len(least[size])
        assert (
            split_check.check_split_maximum(
                2,
                {"split": [size, 0, 0], "bound": 10**6, "orbits": part_orbits(2, size)},
                PLANE,
            )
            == []
        )


def test_the_standalone_checker_finds_every_split_maximum_of_ag33():
    # asked to check a bound below every split maximum, the checker computes each one exactly,
    # with either of the two largest parts run over its orbits
    exact = exact_split_maxima(2)
    for split in itertools.combinations_with_replacement(range(9, -1, -1), 3):
        for side in {split[0], split[1]}:
            theirs = split_check.split_maximum(2, split, part_orbits(2, side), PLANE[split[2]], -1)
            assert theirs == exact[split]


def _by_pieces(d: int, entry: dict, below) -> list[str]:
    """The verdict on ``entry`` from its pieces, each reached on its own, as the pool does."""
    pieces = split_check.split_maximum_pieces(d, entry)
    results = [split_check.piece_result(d, entry, below, piece) for piece in pieces]
    return split_check._check_split_maximum(d, entry, below, results or None)


def test_the_pieces_of_a_split_maximum_make_up_its_search():
    # the searches over the Y of each least point, orbit by orbit, find the exact split maximum
    # of AG(3,3) between them (claim -1), and with a claim they give the verdict of the whole
    exact = exact_split_maxima(2)
    for split in itertools.combinations_with_replacement(range(9, -1, -1), 3):
        for side in {split[0], split[1]}:
            entry = {"split": list(split), "bound": -1, "orbits": part_orbits(2, side)}
            pieces = split_check.split_maximum_pieces(2, entry)
            assert pieces[0] == ("cover",) and len(pieces) > 1
            found = [split_check.piece_result(2, entry, PLANE, piece) for piece in pieces]
            assert found[0] is None and max(found[1:]) == exact[split]
            for bound in (exact[split] - 1, exact[split]):
                claim = {**entry, "bound": int(bound)}
                whole = split_check._check_split_maximum(2, claim, PLANE)
                assert _by_pieces(2, claim, PLANE) == whole
                assert bool(whole) == (bound < exact[split])


def test_the_standalone_checker_refuses_a_wrong_split_maximum():
    orbits = part_orbits(3, 21)
    entry = {"split": [21, 21, 9], "bound": 287, "orbits": orbits}
    assert split_check.check_split_maximum(3, entry, TABLE_3) == []
    assert split_check.check_split_maximum(3, {**entry, "bound": 286}, TABLE_3)
    assert split_check.check_split_maximum(3, {**entry, "orbits": orbits[1:]}, TABLE_3)
    twice = [*orbits[:-1], orbits[0]]  # one orbit twice, one missing
    assert split_check.check_split_maximum(3, {**entry, "orbits": twice}, TABLE_3)
    smallest = part_orbits(3, 9)  # orbits of the third part, not of one of the two largest
    assert split_check.check_split_maximum(3, {**entry, "orbits": smallest}, TABLE_3)
    short = [*orbits[:-1], orbits[-1][:-1]]
    assert split_check.check_split_maximum(3, {**entry, "orbits": short}, TABLE_3)
    # in pieces, as the checker's pool takes it: the same verdicts
    low = {**entry, "bound": 286}
    assert _by_pieces(3, low, TABLE_3) == ["S(21, 21, 9) is bounded by 287 here, not 286"]
    assert split_check.split_maximum_pieces(3, {**entry, "orbits": smallest}) == []
    for wrong in (orbits[1:], twice, short):
        assert split_check.piece_result(3, {**entry, "orbits": wrong}, TABLE_3, ("cover",))


def test_the_standalone_checker_checks_each_split_maximum_once(monkeypatch):
    # the certificates of neighbouring n list the same split maxima: the second asks are answered
    # from what the first found, for the same entry only
    calls = []
    inner = split_check._check_split_maximum
    monkeypatch.setattr(split_check, "_CHECKED", {})
    monkeypatch.setattr(split_check, "_check_split_maximum",
                        lambda *args: calls.append(args) or inner(*args))  # fmt: skip
    entry = {"split": [4, 4, 2], "bound": 9, "orbits": part_orbits(2, 4)}
    assert split_check.check_split_maximum(2, entry, PLANE) == []
    assert split_check.check_split_maximum(2, dict(entry), PLANE) == []
    assert len(calls) == 1
    assert split_check.check_split_maximum(2, {**entry, "bound": 8}, PLANE)
    assert len(calls) == 2


@pytest.mark.parametrize("d, c", [(2, 0), (2, 3), (2, 5), (2, 9), (3, 4)])
def test_the_checkers_subsets_by_lines_hold_every_subset_once_with_its_lines(d, c):
    # counted here by brute force over the lines of AG(d,3) as triples summing to zero
    points = list(itertools.product(range(3), repeat=d))
    triples = [t for t in itertools.combinations(range(3**d), 3)
               if all(sum(points[i][k] for i in t) % 3 == 0 for k in range(d))]  # fmt: skip
    levels = split_check._by_lines(3**d, c, split_check._lines(d))
    counts = [count for count, _ in levels]
    assert counts == sorted(set(counts), reverse=True)  # the most lines first, each level once
    seen = [(tuple(x for x in range(3**d) if mask >> x & 1), count)
            for count, masks in levels for mask in masks.tolist()]  # fmt: skip
    assert sorted(subset for subset, _ in seen) == list(itertools.combinations(range(3**d), c))
    for subset, count in seen:
        assert count == sum(set(t) <= set(subset) for t in triples)


def test_the_checkers_sums_by_mask_add_the_values_at_each_masks_bits():
    values = np.array([3, 0, 5, 1, 7])
    sums = split_check._sums_by_mask(values)
    assert len(sums) == 2 ** len(values)
    for mask in range(len(sums)):
        assert sums[mask] == sum(v for j, v in enumerate(values) if mask >> j & 1)
