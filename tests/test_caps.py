"""Caps: seed table, counts against plain enumeration and inclusion-exclusion, 682,344, witnesses
re-checked by brute force, constructions, probabilities, CLI."""

from __future__ import annotations

import itertools
import json
import math
from collections import Counter
from fractions import Fraction
from functools import cache

import numba as nb
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from setlab.cards import parse_valued_card
from setlab.cli import main
from setlab.errors import SetlabError
from setlab.extremal import bigcaps, caps, nearcaps
from setlab.geometry import digits, lines, random_affine_map, rank_mod3
from setlab.render import blocking_graph_svg
from setlab.store import Store
from setlab.symmetry import certificate


def brute_is_cap(vectors, values=3) -> bool:
    """Every triple of distinct cards, every property: all same or all different means a set."""
    vectors = [tuple(v) for v in np.asarray(vectors).tolist()]
    assert len(set(vectors)) == len(vectors)
    for a, b, c in itertools.combinations(vectors, 3):
        if all(len({x, y, z}) in (1, 3) for x, y, z in zip(a, b, c, strict=True)):
            return False
    return True


def pairwise_is_affine_cap(vectors) -> bool:
    """No pair's third card -(x + y) mod 3 is in the collection (a Python set of tuples)."""
    rows = [tuple(v) for v in np.asarray(vectors).tolist()]
    present = set(rows)
    for x, y in itertools.combinations(rows, 2):
        if tuple((-a - b) % 3 for a, b in zip(x, y, strict=True)) in present:
            return False
    return True


@nb.njit(parallel=True, cache=True)
def _subset_histogram(line_masks, n_cards, n_chunks):
    """Caps by size among all 2^N subsets of the cards (bit i = card i), N <= 27."""
    hist = np.zeros((n_chunks, n_cards + 1), dtype=np.int64)
    total = 1 << n_cards
    step = total // n_chunks
    for chunk in nb.prange(n_chunks):
        for mask in range(chunk * step, (chunk + 1) * step):
            cap = True
            for line in line_masks:
                if mask & line == line:
                    cap = False
                    break
            if cap:
                bits = 0
                m = mask
                while m:
                    m &= m - 1
                    bits += 1
                hist[chunk, bits] += 1
    return hist.sum(axis=0)


@cache
def plain_enumeration(properties: int) -> list[int]:
    n = 3**properties
    masks = np.array([sum(1 << int(c) for c in line) for line in lines(properties)], np.int64)
    hist = _subset_histogram(masks, n, 64 if n >= 6 else 1)
    return [int(h) for h in hist if h]


# -- seed table and largest caps ---------------------------------------------------------------


@pytest.mark.parametrize("properties, size", [(1, 2), (2, 4), (3, 9), (4, 20)])
def test_seed_table_largest_caps_proven(properties, size):
    result = caps.largest_cap(properties, workers=2)
    assert (result.size, result.proven) == (size, True)
    assert len(result.witness) == size
    assert brute_is_cap(digits(properties)[result.witness])


def test_largest_cap_beyond_a_weak_start_and_proof_replays():
    start = [0, 1, 3]  # a 3-cap of AG(3,3): the search must climb to 9 on its own
    result = caps.largest_cap(3, start=start)
    assert result.size == 9 and result.proven and result.proof["start_size"] == 3
    assert caps.verify_largest_cap_proof(3, 3, caps.largest_cap(3).proof)
    forged = dict(result.proof, levels=[{"k": 0, "classes": 1, "pruned": 0}])
    assert not caps.verify_largest_cap_proof(3, 3, forged)


@pytest.mark.parametrize("properties, values", [(1, 2), (2, 2), (1, 5), (2, 4), (2, 5)])
def test_generalised_decks_match_subset_brute_force(properties, values):
    result = caps.largest_cap(properties, values)
    words = np.array(caps.card_words(range(values**properties), properties, values))
    assert result.proven and brute_is_cap(words[result.witness], values)
    if len(words) <= 16:  # the largest set-free subset among all 2^N
        triples = [
            (1 << a) | (1 << b) | (1 << c)
            for a, b, c in itertools.combinations(range(len(words)), 3)
            if not brute_is_cap(words[[a, b, c]], values)
        ]
        masks = np.arange(1 << len(words), dtype=np.int64)
        free = np.ones(len(masks), dtype=bool)
        for t in triples:
            free &= (masks & t) != t
        sizes = np.array([bin(m).count("1") for m in masks[free]])
        assert result.size == sizes.max()
    else:  # 5 x 5 grid: at most 2 cards per row and column and no 3 in distinct rows and columns,
        assert result.size == 4  # so by Konig's theorem at most 2 covering lines of 2 cards


def test_generalised_deck_three_properties_four_values_not_beaten_by_cp_sat():
    """CP-SAT does not prove this optimum in a minute (setlab: about a second); within a few
    seconds it must find no cap larger than setlab's proven 12."""
    from ortools.sat.python import cp_model

    result = caps.largest_cap(3, 4)
    d = caps.deck(3, 4)
    model = cp_model.CpModel()
    x = [model.NewBoolVar(f"x{i}") for i in range(d.size)]
    for a, b in itertools.combinations(range(d.size), 2):
        for c in d.completions[d.offsets[a * d.size + b] : d.offsets[a * d.size + b + 1]]:
            if c > b:
                model.Add(x[a] + x[b] + x[int(c)] <= 2)
    model.Maximize(sum(x))
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = 3
    solver.parameters.num_workers = 2
    assert solver.Solve(model) in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    assert result.proven and result.size == 12 == len(set(result.witness))
    assert result.size >= round(solver.ObjectiveValue())
    words = np.array(caps.card_words(result.witness, 3, 4))
    assert brute_is_cap(words, 4)


def test_search_with_time_limit_reports_unproven():
    result = caps.largest_cap(4, 4, time_limit=0.5)
    assert not result.proven and result.size >= 16
    assert brute_is_cap(np.array(caps.card_words(result.witness, 4, 4)), 4)


# -- counts ------------------------------------------------------------------------------------


def test_ag33_counts_equal_plain_enumeration_of_all_subsets():
    table = caps.count_caps(3, workers=1)
    assert [row.caps for row in table] == plain_enumeration(3)
    assert [row.caps for row in caps.count_caps(2)] == plain_enumeration(2)


@pytest.mark.parametrize("properties", [2, 3])
def test_inclusion_exclusion_matches_enumeration(properties):
    enumerated = [*plain_enumeration(properties), 0, 0][:6]  # AG(2,3) has no 5-cap
    assert [caps.inclusion_exclusion_caps(k, properties) for k in range(6)] == enumerated


def naive_class_counts(properties: int) -> list[int]:
    """Every class extended by every free card, deduplicated by the AGL certificate."""
    counts = []
    level = {certificate([], properties): []}
    while level:
        counts.append(len(level))
        nxt = {}
        for cap in level.values():
            for x in np.flatnonzero(caps.free_cards(cap, properties)):
                child = sorted([*cap, int(x)])
                nxt.setdefault(certificate(child, properties), child)
        level = nxt
    return counts


def test_class_counts_match_certificate_deduplication():
    assert [row.classes for row in caps.count_caps(3)] == naive_class_counts(3)


@pytest.mark.slow
def test_ag43_class_counts_match_certificate_deduplication():
    assert [row.classes for row in caps.count_caps(4)] == naive_class_counts(4)


def test_ag43_counts_682344_and_identities():
    table = caps.count_caps(4)
    by_k = {row.k: row for row in table}
    assert max(by_k) == 20
    assert (by_k[20].caps, by_k[20].classes, by_k[20].complete) == (682344, 1, 682344)
    for k in range(6):
        assert by_k[k].caps == caps.inclusion_exclusion_caps(k, 4)
    assert all(row.complete <= row.caps for row in table)
    assert by_k[14].complete == 0 and by_k[15].complete_classes == 1
    # every 19-cap lies in exactly one 20-cap: none is complete, and the 20 points of each
    # 20-cap taken away one at a time give each 19-cap once (a card p' joining K - p as well
    # would lie on no secant of K but the one through p, against the 3 or 10 of every card off
    # K, tests of the largest caps below)
    assert by_k[19].complete == 0 and by_k[19].caps == 20 * by_k[20].caps


def test_counts_are_stored_and_resume_from_checkpoints(tmp_path):
    store = Store(tmp_path / "s.sqlite")
    table = caps.count_caps(3, store=store, workers=2)
    stored = store.get("maxcap", 3, 0, {"values": 3})
    assert stored.proven and stored.value == 9 and stored.proof["counts"][9]["caps"] == 2106
    # the table is kept; the level checkpoints, having served, are gone
    assert not any(store.finished_tasks(f"caps-generate-P3-V3-targetNone/level{k}")
                   for k in range(12))  # fmt: skip
    assert store.finished_tasks(caps.COUNT_TABLE_JOB)["P3"][9]["caps"] == 2106
    assert caps.count_caps(3, store=store, workers=2) == table


def test_a_finished_largest_cap_search_leaves_no_checkpoints_an_interrupted_one_keeps_them(
    tmp_path, monkeypatch
):
    import sqlite3
    import sys

    search_module = sys.modules["setlab.extremal.search"]  # grow_levels runs each level here

    def rows(store):
        with sqlite3.connect(store.path) as db:
            return db.execute("SELECT job FROM checkpoints").fetchall()

    store = Store(tmp_path / "s.sqlite")
    real = search_module.run_level

    def interrupted(job, *args, **kwargs):
        if job.startswith("caps-generate-P3") and job.endswith("level3"):
            raise KeyboardInterrupt  # Ctrl-C in the fourth level of AG(3,3)
        return real(job, *args, **kwargs)

    monkeypatch.setattr(search_module, "run_level", interrupted)
    with pytest.raises(KeyboardInterrupt):
        caps.largest_cap(3, store=store, start=[0])
    assert len(rows(store)) == 3  # three finished levels kept: a rerun resumes from them
    monkeypatch.setattr(search_module, "run_level", real)
    result = caps.largest_cap(3, store=store, start=[0])
    assert result.size == 9 and result.proven
    assert rows(store) == []


def test_interrupted_count_resumes_from_the_levels_it_finished(tmp_path):
    def job(k):
        return f"caps-generate-P4-V3-targetNone/level{k}"

    full = Store(tmp_path / "full.sqlite")
    caps.generate(4, store=full, workers=1, max_classes=100)  # stops before level 10 (267)
    done = {k: full.finished_tasks(job(k)) for k in range(12)}
    assert all(done[k] for k in range(10)) and not done[10] and not done[11]
    partial = Store(tmp_path / "partial.sqlite")
    for k in range(7):  # as if killed after level 6
        for key, payload in done[k].items():
            partial.finish_task(job(k), key, payload)
    resumed = caps.generate(4, store=partial, workers=1, max_classes=100)
    assert not resumed.finished
    assert all(partial.finished_tasks(job(k)) == done[k] for k in range(12))


def test_a_generation_resumed_with_another_pool_finds_its_tasks_under_the_same_names(tmp_path):
    """Checkpoints name the caps a task extends, not the pool: a run on two workers stopped
    after level 10 (267 classes, five tasks), resumed on one worker, finds every finished task
    of the two-worker run under the same name and ends as one uninterrupted run does."""

    def job(k):
        return f"caps-generate-P4-V3-targetNone/level{k}"

    alone = caps.generate(4, workers=1, max_classes=700)
    store = Store(tmp_path / "s.sqlite")
    caps.generate(4, store=store, workers=2, max_classes=300)  # stops before level 11 (670)
    before = {k: store.finished_tasks(job(k)) for k in range(12)}
    assert len(before[10]) == 5 and not before[11]
    resumed = caps.generate(4, store=store, workers=1, max_classes=700)
    assert resumed.levels == alone.levels
    for k in range(11):
        assert store.finished_tasks(job(k)) == before[k]


def test_no_set_probabilities_and_odds():
    p12 = caps.no_set_probability(12)
    p15 = caps.no_set_probability(15)
    assert p12 == Fraction(caps.count_caps(4)[12].caps, math.comb(81, 12))
    assert caps.odds_against(p12) == "30:1" and caps.odds_against(p15) == "2700:1"
    assert caps.no_set_probability(21) == 0 and caps.no_set_probability(2) == 1
    assert caps.no_set_probability(3, 3) == 1 - Fraction(117, math.comb(27, 3))


def test_the_two_generators_agree_on_the_cap_classes_of_ag33():
    """Canonical augmentation (caps.generate) and certificate deduplication in the search
    generator (nearcaps.cap_classes, min with threshold 0) find the same classes per size."""
    search_classes = [len(level) for level in nearcaps.cap_classes(3, 10)]
    assert search_classes == [row.classes for row in caps.count_caps(3)] + [0]


@pytest.mark.parametrize(("properties", "values"), [(2, 3), (2, 4), (3, 3), (2, 5)])
def test_deck_pair_completions_count_the_sets_a_card_would_make(properties, values):
    """completes[z] = pairs of the cap making a set with z, against brute force over words."""
    rng = np.random.default_rng(properties * 10 + values)
    d = caps.deck(properties, values)
    words = caps.card_words(range(d.size), properties, values)
    for size in (0, 2, 4, 6):
        cap = np.sort(rng.choice(d.size, size=size, replace=False))
        completes = caps.deck_pair_completions(cap, d.offsets, d.completions, d.size)
        for z in range(d.size):
            expected = sum(
                z not in (a, b) and brute_set(words[a], words[b], words[z])
                for a, b in itertools.combinations(cap.tolist(), 2)
            )
            assert completes[z] == expected


def brute_set(x, y, z) -> bool:
    return all(len({a, b, c}) in (1, 3) for a, b, c in zip(x, y, z, strict=True))


# -- invariance --------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 80), min_size=0, max_size=8, unique=True))
def test_free_cards_commute_with_affine_maps(seed, cards):
    f = random_affine_map(4, seed)
    image = f(np.array(cards, dtype=np.int64)) if cards else np.array([], dtype=np.int64)
    free = caps.free_cards(cards, 4)
    assert np.array_equal(caps.free_cards(image, 4)[f.permutation()], free)


def test_witness_images_are_caps_of_the_same_class():
    witness = caps.largest_cap(3).witness
    for seed in range(5):
        image = random_affine_map(3, seed)(np.array(witness))
        assert caps.is_cap(image.tolist(), 3)
        assert certificate(image, 3) == certificate(witness, 3)


# -- big caps ----------------------------------------------------------------------------------


def test_constructions_are_caps_by_brute_force():
    assert len(bigcaps.elliptic_quadric_cap()) == 20
    assert brute_is_cap(bigcaps.elliptic_quadric_cap())
    hill45 = bigcaps.hill_affine_cap()
    assert hill45.shape == (45, 5) and brute_is_cap(hill45)
    big = bigcaps.lift(bigcaps.hill_cap())
    assert big.shape == (112, 6) and brute_is_cap(big)
    for properties, size in [(7, 224), (8, 448)]:
        cap = bigcaps.best_construction(properties)
        assert cap.shape == (size, properties) and pairwise_is_affine_cap(cap)


def secants_through_each_card_off(vectors) -> Counter:
    """How many cards off the cap lie on s of its secants, for each s: every pair's third card
    -(x + y) mod 3 tallied as a tuple of digits (plain loops, no table of the package)."""
    rows = [tuple(v) for v in np.asarray(vectors).tolist()]
    on = Counter(
        tuple((-a - b) % 3 for a, b in zip(x, y, strict=True))
        for x, y in itertools.combinations(rows, 2)
    )
    present = set(rows)
    off = [c for c in itertools.product(range(3), repeat=len(rows[0])) if c not in present]
    return Counter(on[c] for c in off)


def largest_section(vectors) -> int:
    """The most cards of ``vectors`` on one hyperplane f(x) = c (plain loops over the nonzero
    forms f and their levels c)."""
    rows = np.asarray(vectors).tolist()
    best = 0
    for form in itertools.product(range(3), repeat=len(rows[0])):
        if any(form):
            levels = Counter(sum(f * x for f, x in zip(form, row, strict=True)) % 3 for row in rows)
            best = max(best, *levels.values())
    return best


def test_the_largest_caps_seen_from_outside():
    # The docs' argument for the minima past the largest cap (docs/maxsets.md, "What the
    # classification of large caps would give") rests on these counts. The 9-cap of AG(3,3):
    # its 36 secants spread evenly, 2 on each of the 18 cards off it. The 20-cap of AG(4,3) is
    # symmetric about a card c off it (x -> 2c - x), which lies on 10 secants; the other 180
    # secants fall 3 on each of the other 60 cards. Hill's 45-cap: 990 secants, 5 on each of
    # the 198 cards off it.
    assert secants_through_each_card_off(bigcaps.best_construction(3)) == Counter({2: 18})
    assert secants_through_each_card_off(bigcaps.elliptic_quadric_cap()) == Counter({3: 60, 10: 1})
    assert secants_through_each_card_off(bigcaps.hill_affine_cap()) == Counter({5: 198})


def test_a_complete_42_cap_outside_every_45_cap():
    # No card off it lies on 0 secants, so no card can join it: it is complete, in no 43-cap and
    # so in no 45-cap. Each card off it lies on 3 secants or more: four cards added to it make
    # at least 12 sets (the docs' count for m(46) under Thackeray's classification).
    cap = bigcaps.complete_42_cap()
    assert cap.shape == (42, 5) and brute_is_cap(cap)
    secants = secants_through_each_card_off(cap)
    assert min(secants) >= 3 and secants.total() == 243 - 42
    # each secant, a pair of the cap, has one third card, off the cap
    assert sum(s * cards for s, cards in secants.items()) == math.comb(42, 2)
    # Its largest hyperplane sections hold 20 cards; Hill's 45-cap's hold 18 at most.
    assert largest_section(cap) == 20 and largest_section(bigcaps.hill_affine_cap()) == 18

    # It lies on the quadric q = 0 (81 cards), which at x5 = 0 is the 20-cap and its vertex.
    def q(x1, x2, x3, x4, x5):
        return (x1 * x2 + x3 * x3 + x4 * x4 + x5 * (x1 + x2 + x3 + x4 + 1)) % 3

    quadric = [x for x in itertools.product(range(3), repeat=5) if q(*x) == 0]
    assert len(quadric) == 81 and all(q(*x) == 0 for x in cap.tolist())
    at_zero = {tuple(x) for x in cap.tolist() if x[4] == 0} | {(0, 0, 0, 0, 0)}
    assert {x for x in quadric if x[4] == 0} == at_zero
    # And on no other: its 42 rows of the 21 monomials of degree <= 2 have rank 20.
    monomials = [(i, j) for i in range(6) for j in range(i, 6)]  # x0 = 1
    rows = [[(1, *x)[i] * (1, *x)[j] % 3 for i, j in monomials] for x in cap.tolist()]
    assert rank_mod3(np.array(rows)) == 20


def test_find_set_in_locates_a_set_in_ten_dimensions():
    cap = bigcaps.best_construction(10)
    assert len(cap) == 2240 and bigcaps.find_set_in(cap) is None
    spoiled = np.vstack([cap, (-(cap[0] + cap[1])) % 3])
    i, j, k = bigcaps.find_set_in(spoiled)
    assert not ((spoiled[i] + spoiled[j] + spoiled[k]) % 3).any()


def test_greedy_harness_builds_complete_caps():
    def prefer_zeros(cards):
        return (cards == 0).sum(axis=1)

    cap = bigcaps.greedy_cap(4, prefer_zeros)
    assert brute_is_cap(cap)
    index = [int("".join(map(str, c)), 3) for c in cap]
    assert not caps.free_cards(index, 4).any()  # complete: nothing can be added
    start = bigcaps.elliptic_quadric_cap()
    assert len(bigcaps.greedy_cap(4, prefer_zeros, start=start)) == 20
    with pytest.raises(SetlabError):
        bigcaps.greedy_cap(2, lambda cards: np.zeros(3))


# -- CLI ---------------------------------------------------------------------------------------


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_largest_json_and_store(capsys):
    code, out, _ = run(capsys, "caps", "--properties", "3", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["value"] == answer["lower"] == answer["upper"] == 9
    assert answer["proven"] is True
    assert brute_is_cap(answer["witness"])
    with Store() as store:
        assert store.get("maxcap", 3, 0, {"values": 3}).proven


def test_cli_count_probability_and_generalised(capsys):
    code, out, _ = run(capsys, "caps", "count", "--properties", "3", "--json")
    rows = json.loads(out)["rows"]
    assert code == 0 and rows[-1] == {
        "k": 9, "caps": 2106, "classes": 1, "complete": 2106, "complete_classes": 1
    }  # fmt: skip
    code, out, _ = run(capsys, "caps", "probability", "--cards", "4", "-p", "2", "--json")
    answer = json.loads(out)
    assert Fraction(answer["numerator"], answer["denominator"]) == Fraction(54, 126)
    code, out, _ = run(capsys, "caps", "-p", "2", "--values", "4", "--json")
    answer = json.loads(out)
    assert answer["value"] == 4
    # each code names its card: read back, it is the card of the witness's digits (base 4)
    cards = [parse_valued_card(code, 2, 4) for code in answer["witness_codes"]]
    assert cards == [4 * a + b for a, b in answer["witness"]]


def test_cli_verify(capsys, tmp_path):
    good = tmp_path / "cap.txt"
    good.write_text("\n".join("".join(map(str, c)) for c in bigcaps.lift(bigcaps.hill_cap())))
    code, out, _ = run(capsys, "caps", "verify", str(good))
    assert code == 0 and "112 cards of AG(6,3)" in out
    bad = tmp_path / "bad.txt"
    bad.write_text("0000\n1111\n2222\n")
    code, out, _ = run(capsys, "caps", "verify", str(bad), "--json")
    assert code == 1 and json.loads(out) == {
        "command": "caps verify",
        "properties": 4,
        "size": 3,
        "cap": False,
        "sets": [[0, 1, 2]],
    }
    junk = tmp_path / "junk.txt"
    junk.write_text("0000\n013\n")
    code, out, err = run(capsys, "caps", "verify", str(junk))
    assert code == 2 and out == "" and err.count("\n") == 1 and err.startswith("error:")


def test_cli_pictures(capsys, tmp_path):
    deck_png, graph_svg = tmp_path / "deck.png", tmp_path / "graph.svg"
    code, _, _ = run(
        capsys, "caps", "-p", "4", "--picture", str(deck_png), "--graph", str(graph_svg)
    )
    assert code == 0
    assert deck_png.read_bytes()[:4] == b"\x89PNG" and b"<svg" in graph_svg.read_bytes()
    code, out, err = run(capsys, "caps", "-p", "3", "--picture", str(tmp_path / "x.gif"))
    assert code == 2 and out == "" and err.startswith("error:")
    with pytest.raises(SetlabError):
        blocking_graph_svg([0, 1, 2], 2)


def test_cli_rejects_bad_input(capsys):
    for argv in (["caps", "-p", "6", "--values", "4"], ["caps", "probability", "--cards", "82"]):
        code, out, err = run(capsys, *argv)
        assert code == 2 and out == "" and err.startswith("error:") and err.count("\n") == 1


def test_a_generation_out_of_time_keeps_whole_levels_and_no_checkpoints(tmp_path):
    """A deadline ends the generation unfinished, before a level or inside one of its tasks; the
    levels it reports are whole (a prefix of an unhurried run's) and, not being resumable, it
    checkpoints nothing."""
    store = Store(tmp_path / "s.sqlite")
    at_once = caps.generate(3, store=store, workers=1, time_limit=0.0)
    assert not at_once.finished and at_once.levels == [] and at_once.largest == []
    hurried = caps.generate(4, store=store, workers=1, time_limit=0.3)
    assert not hurried.finished and hurried.jobs == ()
    # An unhurried run that stops only at a level wider than any the hurried one reached gets
    # through all of those, however far a fast machine takes the 0.3 s.
    widest = max((level["classes"] for level in hurried.levels), default=1)
    unhurried = caps.generate(4, workers=1, max_classes=widest)
    assert len(unhurried.levels) >= len(hurried.levels)
    assert hurried.levels == unhurried.levels[: len(hurried.levels)]
    assert len(hurried.largest) == len(hurried.levels)  # a cap of the first level not extended
    for k in range(12):
        assert store.finished_tasks(f"caps-generate-P4-V3-targetNone/level{k}") == {}
