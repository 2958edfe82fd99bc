"""Proven maxima checked from both sides by code that shares nothing with setlab.

A recounted witness checks a maximum only from below: a claimed maximum that is too small would
pass. Here each value M is checked both ways:

* below: setlab's witness of M cards, recounted with plain loops over every three, four or six
  of its cards, digit by digit (no structure; or the claimed number of UltraSets);
* above: an exhaustive search written here shows that no M + 1 cards are free of the structure,
  and an enumeration of every class of n cards shows that no n cards hold more UltraSets.

The values under test are the largest cap of the 4^3 deck (12), the largest UltraSet-free board
of AG(4,3) (9), the largest 4Set-free board of the 4^3 deck (9), the largest GhostSet-free board
of AG(3,3) (9), and the most UltraSets among n of the 27 cards of AG(3,3), for every n.

Why this is independent: setlab is called only for the value under test and its witness. Card
numbering (base V, first property the most significant digit, as setlab's ``card_words``
documents), the rules, the counters and the searches are written out below and call nothing of
setlab nor the other test oracles. Each search is fast only because of symmetry breaking; every
reduction is argued in a comment, and where an argument rests on a small fact (that some card
cannot join the cards fixed so far), the test asserts that fact. Each searcher is first run on
small decks against plain enumeration of all subsets; the value-free identities the searches
rely on (4Set = XOR zero; UltraSet-free = distinct pair sums) are checked by brute force and
hypothesis.
"""

from __future__ import annotations

import functools
import itertools
import math
import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seed_oracles import README_TABLE
from setlab.extremal.caps import largest_cap
from setlab.extremal.sidon import largest_structure_free
from setlab.extremal.ultrasets import most_ultrasets_table

# -- cards: numbers <-> digit tuples ---------------------------------------------------------------


def word(card: int, properties: int, values: int) -> tuple[int, ...]:
    """The digits of a card number, base V, most significant first."""
    out = []
    for _ in range(properties):
        card, digit = divmod(card, values)
        out.append(digit)
    return tuple(reversed(out))


def number(digits, values: int) -> int:
    card = 0
    for digit in digits:
        card = card * values + digit
    return card


def words_of(cards, properties, values):
    cards = [int(c) for c in cards]
    assert len(set(cards)) == len(cards) and all(0 <= c < values**properties for c in cards)
    return [word(c, properties, values) for c in cards]


# -- the rules, digit by digit ---------------------------------------------------------------------


def is_set(a, b, c) -> bool:
    """Three cards: every property all same or all different."""
    return all(x == y == z or len({x, y, z}) == 3 for x, y, z in zip(a, b, c, strict=True))


def is_ultraset(a, b, c, d) -> bool:
    """Four cards that pair up with equal sums mod 3 (one of the three pairings)."""
    return any(
        all((p + q - r - s) % 3 == 0 for p, q, r, s in zip(w, x, y, z, strict=True))
        for w, x, y, z in ((a, b, c, d), (a, c, b, d), (a, d, b, c))
    )


def is_fourset(a, b, c, d) -> bool:
    """Four cards of the 4-valued deck: every property all same, all different or two pairs."""
    return all(
        sorted(column.count(v) for v in set(column)) in ([4], [1, 1, 1, 1], [2, 2])
        for column in map(list, zip(a, b, c, d, strict=True))
    )


def is_ghostset(*six) -> bool:
    """Six cards of F_3^P whose digits sum to 0 mod 3 in every property."""
    return all(sum(column) % 3 == 0 for column in zip(*six, strict=True))


def count_plain(words, size, rule) -> int:
    """The structures among the cards: every ``size`` of them tested by the rule."""
    return sum(1 for group in itertools.combinations(words, size) if rule(*group))


def largest_free_plain(properties, values, size, rule) -> int:
    """The most cards with no structure, by testing every subset (tiny decks only): a subset
    of a structure-free board is structure-free, so the first size with none free ends it."""
    deck = [word(c, properties, values) for c in range(values**properties)]
    for n in range(1, len(deck) + 1):
        if not any(
            count_plain(board, size, rule) == 0 for board in itertools.combinations(deck, n)
        ):
            return n - 1
    return len(deck)


# -- (a) caps of the V^P deck: a bitmask branch and bound ----------------------------------------


def completion_masks(properties, values):
    """``masks[a][b]``: the cards c (as bits) making {a, b, c} a set: c agrees where a and b
    agree and takes any third value where they differ."""
    n = values**properties
    words = [word(c, properties, values) for c in range(n)]
    masks = [[0] * n for _ in range(n)]
    for a, b in itertools.permutations(range(n), 2):
        options = [
            [x] if x == y else [z for z in range(values) if z not in (x, y)]
            for x, y in zip(words[a], words[b], strict=True)
        ]
        for third in itertools.product(*options):
            masks[a][b] |= 1 << number(third, values)
    return masks


def find_cap(properties, values, target, plane_cap):
    """A set-free board of ``target`` cards of the V^P deck, or None if there is none.

    Symmetry: permuting the values of one property maps sets to sets, and these permutations
    move any card to card 0, so a set-free board of ``target`` cards exists iff one containing
    card 0 does; card 0 is then its smallest card, and the other cards are added in increasing
    order (each board is met once). Bound: the cards with one first digit (a "plane") are a copy
    of the V^(P-1) deck, so a plane holds at most ``plane_cap`` cards of a cap; a branch dies
    when the cards chosen plus, per plane, min(room left, candidates left) fall short.
    """
    n, block = values**properties, values ** (properties - 1)
    masks = completion_masks(properties, values)
    planes = [((1 << block) - 1) << (p * block) for p in range(values)]

    def reachable(in_plane, candidates):
        return sum(
            min(plane_cap - in_plane[p], (candidates & planes[p]).bit_count())
            for p in range(values)
        )

    def grow(board, in_plane, candidates):
        if len(board) == target:
            return board
        while candidates and len(board) + reachable(in_plane, candidates) >= target:
            low = candidates & -candidates
            card = low.bit_length() - 1
            candidates ^= low  # later branches go without this card
            blocked = 0
            for other in board:
                blocked |= masks[card][other]
            in_plane[card // block] += 1
            found = grow([*board, card], in_plane, candidates & ~blocked)
            in_plane[card // block] -= 1
            if found is not None:
                return found
        return None

    in_plane = [0] * values
    in_plane[0] = 1
    return grow([0], in_plane, ((1 << n) - 1) ^ 1)


def is_cap_plain(cards, properties, values) -> bool:
    return count_plain(words_of(cards, properties, values), 3, is_set) == 0


@pytest.mark.parametrize(("properties", "values"), [(1, 4), (2, 3), (2, 4), (2, 5)])
def test_the_cap_search_agrees_with_every_subset_on_small_decks(properties, values):
    best = largest_free_plain(properties, values, 3, is_set)
    plane = largest_free_plain(properties - 1, values, 3, is_set) if properties > 1 else 1
    found = find_cap(properties, values, best, plane)
    assert found is not None and len(found) == best
    assert is_cap_plain(found, properties, values)
    assert find_cap(properties, values, best + 1, plane) is None


def test_the_cap_search_finds_the_seed_value_of_ag33():
    """The seed README: 9 cards of AG(3,3) without a set, and no 10 (also used below)."""
    plane = largest_free_plain(2, 3, 3, is_set)
    assert plane == 4
    best = README_TABLE[(3, 3)]
    found = find_cap(3, 3, best, plane)
    assert found is not None and is_cap_plain(found, 3, 3)
    assert find_cap(3, 3, best + 1, plane) is None


def test_the_largest_cap_of_the_4_by_4_by_4_deck():
    """setlab's 12: its witness recounted; no 13 cards set-free by our own search (~1 s)."""
    result = largest_cap(3, 4)
    assert result.proven and result.size == len(result.witness) == 12
    assert is_cap_plain(result.witness, 3, 4)
    plane = largest_free_plain(2, 4, 3, is_set)  # the 4 x 4 deck: 4, by every subset
    assert plane == 4
    ours = find_cap(3, 4, result.size, plane)
    assert ours is not None and is_cap_plain(ours, 3, 4)
    assert find_cap(3, 4, result.size + 1, plane) is None


# -- (b) boards with no UltraSet / 4Set / GhostSet ------------------------------------------------
#
# UltraSet-free = Sidon: two distinct pairs with one sum cannot share a card (a + b = a + d gives
# b = d), so they are four distinct cards with a + b = c + d, an UltraSet; conversely an UltraSet
# gives two such pairs. Likewise a 4Set (each property all same, all different or two pairs)
# is four distinct cards whose values, read as elements of F_2^2, XOR to 0 (checked below), so
# 4Set-free = distinct pairwise XORs. The affine maps x -> Ax + t (A invertible) of F_3^P, resp.
# F_2^(2P), keep both relations (the t's cancel: two on each side, or four in characteristic
# 2) and keep sums of six cards (six t's sum to 0 mod 3), so they map structure-free boards to
# structure-free boards; they act transitively on ordered pairs of distinct points, and in F_2^n
# on ordered triples (three distinct points of F_2^n are affinely independent).


@functools.cache
def sum_table(properties):
    """``plus[a][b]``: the card a + b of F_3^P (digitwise mod 3)."""
    n = 3**properties
    words = [word(c, properties, 3) for c in range(n)]
    return [
        [
            number([(x + y) % 3 for x, y in zip(words[a], words[b], strict=True)], 3)
            for b in range(n)
        ]
        for a in range(n)
    ]


def xor_table(properties):
    """``plus[a][b]`` = a XOR b: digitwise XOR of the values 0..3, two bits per digit."""
    n = 4**properties
    return [[a ^ b for b in range(n)] for a in range(n)]


def sidon_extension(plus, fixed, target, allowed):
    """A board of ``target`` cards: ``fixed`` and cards of ``allowed`` (an increasing list),
    all pair sums ``plus[a][b]`` distinct; None if there is none.

    Depth first, cards in increasing order; ``used`` holds the sums of chosen pairs (as bits),
    each candidate carries the bits of its sums with the chosen cards and is dropped as soon
    as one of them is used: then at most len(board) + len(candidates) cards are reachable.
    """
    used = 0
    for i, a in enumerate(fixed):
        for b in fixed[:i]:
            bit = 1 << plus[a][b]
            if used & bit:
                return None
            used |= bit
    candidates = []
    for card in allowed:
        bits = 0
        for other in fixed:
            bits |= 1 << plus[card][other]
        if not bits & used and card not in fixed:
            candidates.append((card, bits))

    def grow(board, used, candidates):
        if len(board) >= target:
            return board
        for i, (card, bits) in enumerate(candidates):
            if len(board) + len(candidates) - i < target:
                return None
            now_used = used | bits
            row = plus[card]
            rest = []
            for other, other_bits in candidates[i + 1 :]:
                bit = 1 << row[other]
                if not (bit | other_bits) & now_used:
                    rest.append((other, other_bits | bit))
            found = grow([*board, card], now_used, rest)
            if found is not None:
                return found
        return None

    return grow(list(fixed), used, candidates)


def ghost_free_extension(plus, fixed, target, allowed):
    """A board of ``target`` cards of F_3^P: ``fixed`` and cards of ``allowed`` (increasing),
    no six of them summing to 0; None if there is none.

    ``sums[k]``: the sums of the k-subsets of the chosen cards (k <= 5); a card y may join iff
    no five chosen cards sum to -y, i.e. iff plus[y][s] != 0 for every s in sums[5].
    """

    def add(sums, card):
        return [sums[0]] + [sums[k] | {plus[s][card] for s in sums[k - 1]} for k in range(1, 6)]

    def fits(sums, card):
        return all(plus[card][s] != 0 for s in sums[5])

    sums = [{0}, set(), set(), set(), set(), set()]
    for card in fixed:
        if not fits(sums, card):
            return None
        sums = add(sums, card)

    def grow(board, sums, candidates):
        if len(board) >= target:
            return board
        for i, card in enumerate(candidates):
            if len(board) + len(candidates) - i < target:
                return None
            now = add(sums, card)
            rest = [other for other in candidates[i + 1 :] if fits(now, other)]
            found = grow([*board, card], now, rest)
            if found is not None:
                return found
        return None

    return grow(list(fixed), sums, [c for c in allowed if c not in fixed and fits(sums, c)])


def fits_sidon(plus, board, card) -> bool:
    sums = [plus[a][b] for a, b in itertools.combinations(board, 2)]
    return not {plus[card][c] for c in board} & set(sums)


def on_a_line(plus, board, card) -> bool:
    """card = -(a + b) = 2(a + b) for two cards a, b of the board: {a, b, card} is a set."""
    return any(plus[plus[a][b]][plus[a][b]] == card for a, b in itertools.combinations(board, 2))


def ultra_free_plain(cards, properties):
    return count_plain(words_of(cards, properties, 3), 4, is_ultraset) == 0


def fourset_free_plain(cards, properties):
    return count_plain(words_of(cards, properties, 4), 4, is_fourset) == 0


def ghost_free_plain(cards, properties):
    return count_plain(words_of(cards, properties, 3), 6, is_ghostset) == 0


def test_a_fourset_is_four_cards_xoring_to_zero():
    """On every four cards of the 4 x 4 deck and of random four of the 4^3 deck."""
    for quad in itertools.combinations(range(16), 4):
        a, b, c, d = quad
        assert is_fourset(*words_of(quad, 2, 4)) == (a ^ b ^ c ^ d == 0)
    rng = random.Random(4)
    for _ in range(2000):
        quad = rng.sample(range(64), 4)
        a, b, c, d = quad
        assert is_fourset(*words_of(quad, 3, 4)) == (a ^ b ^ c ^ d == 0)


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(0, 80), min_size=4, max_size=11))
def test_ultraset_free_means_distinct_pair_sums(cards):
    plus = sum_table(4)
    cards = sorted(cards)
    sums = [plus[a][b] for a, b in itertools.combinations(cards, 2)]
    assert ultra_free_plain(cards, 4) == (len(set(sums)) == len(sums))


@pytest.mark.parametrize("name", ["ultra", "4set", "ghost"])
def test_the_free_board_searches_agree_with_every_subset_on_small_decks(name):
    """Only card 0 fixed here (the group is transitive), every other card allowed."""
    if name == "ultra":
        best = largest_free_plain(2, 3, 4, is_ultraset)
        search, plus, n = sidon_extension, sum_table(2), 9
    elif name == "4set":
        best = largest_free_plain(2, 4, 4, is_fourset)
        search, plus, n = sidon_extension, xor_table(2), 16
    else:
        best = largest_free_plain(2, 3, 6, is_ghostset)
        search, plus, n = ghost_free_extension, sum_table(2), 9
    free = {"ultra": ultra_free_plain, "4set": fourset_free_plain, "ghost": ghost_free_plain}
    found = search(plus, [0], best, range(1, n))
    assert found is not None and free[name](found, 2)
    assert search(plus, [0], best + 1, range(1, n)) is None


def test_any_ten_cards_of_ag43_hold_an_ultraset():
    result = largest_structure_free("ultra", 4)
    assert result.proven and result.lower == len(result.witness) == 9
    assert ultra_free_plain(result.witness, 4)
    plus, ten = sum_table(4), result.lower + 1
    # Cards: 1 = e1, 3 = e2, 9 = e3 (unit vectors); the plane through 0, e1, e2 is {0, ..., 8}.
    # Case A, the board has a set (a line): map it to {0, 1, 2} (2-transitivity; 2 = 2 e1 is
    # the third point of the line through 0 and e1), then a card off that line to 3 = e2 (the
    # maps x -> Ax fixing e1 move any vector outside <e1> to e2). No card of 4..8 fits with
    # {0, 1, 2, 3} (asserted), and the ten cards do not all lie in that plane, so a card off it
    # maps to 9 = e3 by a map fixing e1 and e2. So the board holds 0, 1, 2, 3, 9, and its other
    # cards are above 9.
    assert not any(fits_sidon(plus, [0, 1, 2, 3], c) for c in range(4, 9))
    assert sidon_extension(plus, [0, 1, 2, 3, 9], ten, range(10, 81)) is None
    # Case B, no set: map two cards to 0, 1 and a third, off their line, to 3 (as above); then
    # 2 is out (0, 1, 2 is a set) and every card of 4..8 either breaks the distinct sums or
    # makes a set with two of 0, 1, 3 (asserted); a fourth card off the plane maps to 9. So the
    # board holds 0, 1, 3, 9, misses 2 and 4..8, and its other cards are above 9.
    assert all(
        not fits_sidon(plus, [0, 1, 3], c) or on_a_line(plus, [0, 1, 3], c) for c in range(4, 9)
    )
    assert sidon_extension(plus, [0, 1, 3, 9], ten, range(10, 81)) is None
    # the search can reach the value itself
    nine = sidon_extension(plus, [0, 1, 3, 9], ten - 1, range(10, 81))
    assert nine is not None and ultra_free_plain(nine, 4)


def test_any_ten_cards_of_the_4_by_4_by_4_deck_hold_a_fourset():
    result = largest_structure_free("4set", 3)
    assert result.proven and result.lower == len(result.witness) == 9
    assert fourset_free_plain(result.witness, 3)
    plus, ten = xor_table(3), result.lower + 1
    # Cards as vectors of F_2^6: 1, 2, 4, 8 are unit vectors. Any three cards are affinely
    # independent, so they map to 0, 1, 2. A fourth card is not 0^1^2 = 3 (that is a 4Set), so
    # it lies off the affine span {0, 1, 2, 3} and maps to 4 by a map fixing 0, 1, 2. The cards
    # 5, 6, 7 of the span {0..7} each XOR to 0 with three of 0, 1, 2, 4 (asserted), and a fifth
    # card off that span maps to 8. So the board holds 0, 1, 2, 4, 8, and its others exceed 8.
    assert all(
        any(c ^ a ^ b ^ d == 0 for a, b, d in itertools.combinations([0, 1, 2, 4], 3))
        for c in (3, 5, 6, 7)
    )
    assert sidon_extension(plus, [0, 1, 2, 4, 8], ten, range(9, 64)) is None
    nine = sidon_extension(plus, [0, 1, 2, 4, 8], ten - 1, range(9, 64))
    assert nine is not None and fourset_free_plain(nine, 3)


def test_any_ten_cards_of_ag33_hold_a_ghostset():
    """setlab's GhostSet-free 9 of AG(3,3) (its own exhaustive check is a slow test)."""
    result = largest_structure_free("ghost", 3)
    assert result.proven and result.lower == len(result.witness) == 9
    assert ghost_free_plain(result.witness, 3)
    plus, ten = sum_table(3), result.lower + 1
    # Case A, the board has a set: it maps to {0, 1, 2} and a card off it to 3 (as for AG(4,3)
    # above), so the board holds 0, 1, 2, 3 and its other cards are above 3.
    assert ghost_free_extension(plus, [0, 1, 2, 3], ten, range(4, 27)) is None
    # Case B, no set: two cards map to 0, 1 and a third to 3; 2 is out (a set with 0, 1), so the
    # board holds 0, 1, 3 and its other cards are above 3.
    assert ghost_free_extension(plus, [0, 1, 3], ten, range(4, 27)) is None
    nine = ghost_free_extension(plus, [0, 1, 3], ten - 1, range(4, 27))
    assert nine is not None and ghost_free_plain(nine, 3)


# -- the most UltraSets among n cards of AG(3,3) --------------------------------------------------


def ultrasets_by_pair_sums(boards, plus):
    """UltraSets of each board (a row of card numbers): with r_s its pairs summing to s, two
    pairs with one sum are an UltraSet, and four cards pair up with equal sums in at most one
    way (a + b = c + d and a + c = b + d give b = c), so the count is sum_s C(r_s, 2)."""
    boards = np.asarray(boards, dtype=np.int64)
    rows, size = boards.shape
    first, second = np.triu_indices(size, 1)
    sums = plus[boards[:, first], boards[:, second]]
    keys = (np.arange(rows, dtype=np.int64)[:, None] * 27 + sums).ravel()
    r = np.bincount(keys, minlength=rows * 27).reshape(rows, 27)
    return (r * (r - 1) // 2).sum(axis=1)


def test_the_pair_sum_count_equals_plain_counting():
    plus = np.array(sum_table(3), dtype=np.int64)
    rng = random.Random(3)
    boards = [sorted(rng.sample(range(27), rng.randrange(4, 12))) for _ in range(40)]
    for board in [*boards, list(range(27))]:
        plain = count_plain(words_of(board, 3, 3), 4, is_ultraset)
        assert ultrasets_by_pair_sums([board], plus)[0] == plain


def most_ultrasets_ag33():
    """For n = 0..27 the most UltraSets among n cards of AG(3,3), by enumerating, for each
    k <= 13, a family of k-card boards T meeting every affine class; T gives the value for
    n = k and its complement for n = 27 - k (an affine map carries the complement of T to the
    complement of its image, and keeps the count).

    Families (cards 1 = e1, 3 = e2, 9 = e3; the plane {0..8} is the span of e1, e2):
    * every subset of the plane {0..8}: any T of at most 9 cards lying in a plane maps there
      (the affine group is transitive on planes);
    * 4 <= k <= 9, T not in a plane: it holds four affinely independent cards, which map to
      the independent 0, e1, e2, e3 = 0, 1, 3, 9; the other k - 4 cards are any of the rest;
    * k >= 10: T is not a cap (no 10 cards of AG(3,3) are set-free: asserted in the test by
      our own search), so a set of T maps to {0, 1, 2} and a card of T off it to 3 (maps fixing e1
      move any vector outside <e1> to e2); T does not fit in the plane {0..8}, so a card off
      it maps to 9 (fixing e1, e2). The other k - 5 cards are any of the rest.
    """
    plus = np.array(sum_table(3), dtype=np.int64)
    best = [0] * 28

    def scan(k, boards):
        while block := list(itertools.islice(boards, 50_000)):
            boards_now = np.array(block, dtype=np.int64).reshape(len(block), k)
            outside = np.ones((len(block), 27), dtype=bool)
            outside[np.arange(len(block))[:, None], boards_now] = False
            others = np.nonzero(outside)[1].reshape(len(block), 27 - k)
            best[k] = max(best[k], int(ultrasets_by_pair_sums(boards_now, plus).max()))
            best[27 - k] = max(best[27 - k], int(ultrasets_by_pair_sums(others, plus).max()))

    def around(fixed, k):
        rest = [c for c in range(27) if c not in fixed]
        return ([*fixed, *more] for more in itertools.combinations(rest, k - len(fixed)))

    for k in range(10):
        scan(k, itertools.combinations(range(9), k))
        if k >= 4:
            scan(k, around([0, 1, 3, 9], k))
    for k in range(10, 14):
        scan(k, around([0, 1, 2, 3, 9], k))
    return best


def test_the_most_ultrasets_of_ag33_for_every_n():
    """setlab's table against our enumeration, and each witness recounted (~3 s)."""
    assert find_cap(3, 3, 10, largest_free_plain(2, 3, 3, is_set)) is None  # used by the families
    table = most_ultrasets_table(3)
    ours = most_ultrasets_ag33()
    assert [v.cards for v in table] == list(range(28))
    assert all(v.proven for v in table)
    assert [v.lower for v in table] == ours
    plus = np.array(sum_table(3), dtype=np.int64)
    for v in table:
        assert len(set(v.witness)) == v.cards
        if v.cards >= 4:
            assert ultrasets_by_pair_sums([sorted(v.witness)], plus)[0] == v.lower
        if v.cards <= 12:  # the slower plain loops too
            assert count_plain(words_of(v.witness, 3, 3), 4, is_ultraset) == v.lower
    assert ours[27] == 27 * math.comb(13, 2)  # the whole deck: 13 pairs share each sum
