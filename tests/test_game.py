"""Games: the rules on crafted decks, the numba simulator against the Python engine, seeds,
and statistics against exact values and the Wikipedia seed's figures."""

from __future__ import annotations

import itertools
import json
import math
import sys
import types
import xml.etree.ElementTree as ET
from fractions import Fraction

import numba
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import binomtest

from setlab.cards import Card, index_of
from setlab.cli import main
from setlab.errors import SetlabError
from setlab.find import count_sets, is_set
from setlab.game import (
    TALLY_ARRAYS,
    ByGame,
    Estimate,
    GameRandom,
    by_round,
    clustered_ratio,
    exact_no_set_probability,
    expected_sets,
    play_game,
    plot_games,
    simulate,
    summary,
    tally_games,
    wilson,
)

SVG = "http://www.w3.org/2000/svg"

# {0,1}^4 is a cap: on a line each coordinate is constant or takes all three values, and 2 never
# occurs, so three distinct cards of it never form a set.
BINARY_CAP = [index_of(v) for v in itertools.product((0, 1), repeat=4)]


def crafted(first: list[int]) -> list[int]:
    """A full deck of 81 dealing ``first`` first, then the rest in index order."""
    return first + [c for c in range(81) if c not in first]


def same_tally(a, b) -> bool:
    return a.games == b.games and all(
        np.array_equal(getattr(a, name), getattr(b, name)) for name in TALLY_ARRAYS
    )


@pytest.fixture(scope="module")
def big():
    """100,000 games of the real deck, shared by the statistical tests (about 2 s)."""
    return summary(simulate(100_000, seed=2026))


# -- the rules on crafted decks ---------------------------------------------------------------


def test_no_set_among_12_deals_15_in_the_same_round():
    game = play_game(order=crafted(BINARY_CAP[:12]), strategy="first")
    first, second = game.inspections[:2]
    assert (len(first.table), first.sets, first.round) == (12, 0, 0)
    assert len(second.table) == 15 and second.round == 0
    assert second.table[:12] == first.table and second.deck_left == first.deck_left - 3


def test_sixteen_cap_cards_need_18_on_the_table():
    game = play_game(order=crafted(BINARY_CAP), strategy="first")
    sizes = [(len(look.table), look.sets) for look in game.inspections[:3]]
    assert sizes[0] == (12, 0) and sizes[1] == (15, 0) and sizes[2][0] == 18


def test_a_set_taken_from_15_is_not_replaced_but_one_from_12_is():
    game = play_game(order=crafted(BINARY_CAP[:12]), strategy="first")
    looks = game.inspections
    at_15 = next(i for i, look in enumerate(looks) if len(look.table) == 15 and look.sets)
    after = looks[at_15 + 1]
    assert len(after.table) == 12 and after.deck_left == looks[at_15].deck_left
    assert after.round == looks[at_15].round + 1
    at_12 = next(i for i, look in enumerate(looks) if len(look.table) == 12 and look.sets)
    before, after = looks[at_12], looks[at_12 + 1]
    assert len(after.table) == 12 and after.deck_left == before.deck_left - 3
    # the new cards lie in the places of the taken set, the other nine stay where they were
    kept = [p for p in range(12) if before.table[p] == after.table[p]]
    assert len(kept) == 9
    taken = {before.table[p] for p in range(12) if p not in kept}
    assert taken == set(game.taken[before.round])


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("strategy", ["random", "first"])
def test_every_game_ends_by_the_rules(seed, strategy):
    game = play_game(seed=seed, strategy=strategy)
    *play, last = game.inspections
    assert last.sets == 0 and last.deck_left == 0
    assert all(look.sets > 0 or look.deck_left > 0 for look in play)
    assert count_sets(last.table) == 0
    cards = [c for triple in game.taken for c in triple] + list(last.table)
    assert sorted(cards) == list(range(81))
    assert all(is_set(*(Card(c, 4) for c in triple)) for triple in game.taken)
    assert all(look.sets == count_sets(look.table) for look in game.inspections)


def test_first_strategy_takes_the_first_set_in_table_order():
    game = play_game(seed=4, strategy="first")
    look = game.inspections[0]
    first = next(
        (look.table[i], look.table[j], look.table[k])
        for i, j, k in itertools.combinations(range(12), 3)
        if is_set(*(Card(look.table[p], 4) for p in (i, j, k)))
    )
    assert game.taken[0] == first


def test_small_decks_deal_everything():
    game = play_game(seed=1, properties=2, strategy="first")
    assert len(game.inspections[0].table) == 9 and game.inspections[0].sets == 12
    assert 3 * len(game.taken) + game.cards_left == 9


def test_a_python_hook_chooses_the_set():
    def take_last(table, sets, rng):
        return len(sets) - 1

    game = play_game(seed=3, strategy=take_last)
    look = game.inspections[0]
    from setlab.find import find_sets

    i, j, k = find_sets(look.table)[-1]
    assert game.taken[0] == (look.table[i], look.table[j], look.table[k])
    tally = simulate(20, seed=3, strategy=take_last)
    assert tally.strategy == "take_last" and tally.cards_left.sum() == 20
    with pytest.raises(SetlabError, match="strategy chose"):
        play_game(strategy=lambda table, sets, rng: len(sets))
    with pytest.raises(SetlabError, match="unknown strategy"):
        play_game(strategy="fastest")


def test_crafted_decks_are_checked():
    with pytest.raises(SetlabError):
        play_game(order=[0, 0, 1])
    with pytest.raises(SetlabError):
        play_game(order=[81])


# -- the simulator: same games as the engine, seeded, thread-count independent -----------------


@pytest.mark.parametrize(
    ("properties", "strategy"), [(4, "random"), (4, "first"), (3, "random"), (2, "first")]
)
def test_simulator_plays_the_engines_games(properties, strategy):
    games = [play_game(11, g, properties, strategy) for g in range(60)]
    expected = tally_games(games, 11, properties, strategy)
    assert same_tally(simulate(60, 11, properties, strategy), expected)


def test_same_seed_same_results_any_threads_any_batch():
    reference = simulate(3000, seed=42)
    assert same_tally(simulate(3000, seed=42, batch=7), reference)
    threads = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        assert same_tally(simulate(3000, seed=42), reference)
    finally:
        numba.set_num_threads(threads)
    assert not same_tally(simulate(3000, seed=43), reference)


def test_random_source_matches_its_definition():
    # SplitMix64 reference output for state 0 after one step (Steele, Lea & Flood's generator)
    rng = GameRandom(0, 0)
    rng.state = 0
    assert rng.next() == 0xE220A8397B1DCDAF
    assert sorted(GameRandom(5, 9).shuffled(81)) == list(range(81))


def test_bad_settings_are_refused():
    for kwargs in ({"games": -1}, {"games": 1, "properties": 7}, {"games": 1, "deal": 0}):
        with pytest.raises(SetlabError):
            simulate(**kwargs)


# -- statistics ----------------------------------------------------------------------------------


@given(st.integers(0, 500), st.integers(1, 500))
@settings(max_examples=40, deadline=None)
def test_wilson_interval_agrees_with_scipy(k, n):
    k = min(k, n)
    ours = wilson(k, n)
    theirs = binomtest(k, n).proportion_ci(0.95, method="wilson")
    assert ours.low == pytest.approx(theirs.low, abs=1e-9)
    assert ours.high == pytest.approx(theirs.high, abs=1e-9)


@given(st.lists(st.tuples(st.integers(1, 6), st.integers(0, 6)), min_size=3, max_size=40))
@settings(max_examples=40, deadline=None)
def test_clustered_ratio_from_sums_equals_per_game_formula(pairs):
    n = np.array([a for a, _ in pairs])
    y = np.minimum(np.array([b for _, b in pairs]), n)
    sums = np.array([n.sum(), y.sum(), (n * n).sum(), (y * y).sum(), (n * y).sum()])
    estimate = clustered_ratio(sums, len(n))
    p = y.sum() / n.sum()
    assert estimate.value == pytest.approx(p)
    if 0 < y.sum() < n.sum():
        g = len(n)
        half = 1.959963984540054 * math.sqrt(g / (g - 1) * ((y - p * n) ** 2).sum()) / n.sum()
        # the sums formula cancels large terms: absolute slack for a zero residual
        assert estimate.high - estimate.value == pytest.approx(half, abs=1e-7)


def test_expected_sets_by_brute_force_in_the_plane():
    # every k-subset of AG(2,3): the mean number of lines is C(k,3)/7
    for k in range(3, 10):
        subsets = list(itertools.combinations(range(9), k))
        mean = sum(count_sets(s, 2) for s in subsets) / len(subsets)
        assert mean == pytest.approx(float(expected_sets(k, 2)))


def test_exact_probability_hook(monkeypatch):
    assert exact_no_set_probability(2) == 1
    fake = types.ModuleType("setlab.extremal.caps")
    fake.no_set_probability = lambda k, p, store=None: Fraction(1, 31)
    package = types.ModuleType("setlab.extremal")
    package.caps = fake
    monkeypatch.setitem(sys.modules, "setlab.extremal", package)
    monkeypatch.setitem(sys.modules, "setlab.extremal.caps", fake)
    s = summary(simulate(10, seed=0))
    assert s.exact_first_round == Fraction(1, 31)
    assert s.as_dict()["exact"]["first_round_no_set_odds"] == pytest.approx(30.0)


def within(estimate: Estimate, target: float, sigmas: float = 4.0) -> bool:
    """True if ``target`` is within ``sigmas`` standard errors (95% half-width / 1.96)."""
    standard_error = (estimate.high - estimate.low) / (2 * 1.959963984540054)
    return abs(estimate.value - target) <= sigmas * standard_error


def test_first_deal_mean_sets_is_220_over_79(big):
    # 100,000 independent random deals: the exact mean lies within 4 standard errors
    # (a false alarm has probability 6e-5)
    assert within(big.first_deal_mean_sets, 220 / 79)
    assert big.board(12).exact_mean_sets == Fraction(220, 79)
    # in play fewer sets lie on 12 cards than among 12 random cards, as the seed says
    assert big.board(12).mean_sets.high < 220 / 79


def test_first_round_odds_match_the_seed(big):
    # The seed quotes 30:1, i.e. a probability p in [1/31.5, 1/30.5] after rounding. The exact
    # value (0.0323, from cap counting) sits in that band. 100,000 deals give a standard error
    # of 0.00056 on p; allow 4 of them beyond the rounding band.
    p = big.first_round.value
    se = (big.first_round.high - p) / 1.96
    assert 1 / 31.5 - 4 * se <= p <= 1 / 30.5 + 4 * se
    exact = exact_no_set_probability(12)
    assert exact is not None and within(big.first_round, float(exact))


def test_in_game_figures_match_the_seed(big):
    # "odds against no set in 15 cards during play are 88:1": a rounded figure, so the band
    # [87.5, 88.5], widened by 4 standard errors of our estimate (about 2.3 on the odds)
    odds = big.board(15).no_set.odds()
    se = (odds.high - odds.low) / (2 * 1.96)
    assert 87.5 - 4 * se <= odds.value <= 88.5 + 4 * se
    # "around 30% of games never need 15 cards": read as 27.5% .. 32.5%; our interval is +-0.3%
    assert 0.275 <= big.never_beyond_deal.value <= 0.325
    # "after about the 4th round they are 14:1 and for the next 20 rounds they slowly fall
    # towards 13:1": rounds 5..24 between 12.5:1 and 14.5:1 give or take 4 standard errors
    for r in range(5, 25):
        odds = big.rounds[r - 1].odds()
        se = (odds.high - odds.low) / (2 * 1.96)
        assert 12.5 - 4 * se <= odds.value <= 14.5 + 4 * se
    assert big.later_rounds.odds().value < big.first_round.odds().value


def test_junior_deck_always_has_a_set_among_12():
    # the largest cap of AG(3,3) has 9 cards, so 12 of the 27 always hold a set
    tally = simulate(2000, seed=5, properties=3)
    assert tally.no_set[:, 12].sum() == 0
    s = summary(tally)
    assert s.never_beyond_deal.value == 1.0
    assert within(s.first_deal_mean_sets, 220 / 25)


def per_game_counts(games, sizes):
    """For each game and table size k, counted straight from the engine's inspections: tables of
    k cards (n), those without a set (y), sets on them (m)."""
    counts = np.zeros((len(games), sizes, 3), np.int64)
    for g, game in enumerate(games):
        for look in game.inspections:
            counts[g, len(look.table)] += (1, look.sets == 0, look.sets)
    return counts


@pytest.mark.parametrize(("properties", "deal"), [(4, 12), (3, 9), (4, 15)])
def test_tally_columns_are_the_sums_their_names_say(properties, deal):
    # Not through tally_games: the per-game counts are taken from the reference engine's
    # records here and every named column of the simulator's tally is checked against them.
    games = [play_game(17, g, properties, "random", deal) for g in range(300)]
    tally = simulate(300, 17, properties, "random", deal)
    counts = per_game_counts(games, tally.by_game.shape[0])
    n, y, m = counts[..., 0], counts[..., 1], counts[..., 2]
    expected = {
        ByGame.TABLES: n, ByGame.NO_SET: y, ByGame.TABLES_SQUARED: n * n,
        ByGame.NO_SET_SQUARED: y * y, ByGame.TABLES_NO_SET: n * y, ByGame.SETS: m,
        ByGame.SETS_SQUARED: m * m, ByGame.TABLES_SETS: n * m,
    }  # fmt: skip
    assert set(expected) == set(ByGame)
    for column, values in expected.items():
        assert np.array_equal(tally.by_game[:, column], values.sum(axis=0)), column.name
    later = [
        [look for look in g.inspections if look.round > 0 and len(look.table) == deal]
        for g in games
    ]
    later_n = np.array([len(looks) for looks in later])
    later_y = np.array([sum(look.sets == 0 for look in looks) for looks in later])
    for column, values in {
        ByGame.TABLES: later_n, ByGame.NO_SET: later_y, ByGame.TABLES_SQUARED: later_n**2,
        ByGame.NO_SET_SQUARED: later_y**2, ByGame.TABLES_NO_SET: later_n * later_y,
    }.items():  # fmt: skip
        assert tally.later_by_game[column] == values.sum(), column.name
    # and the summary reads the columns it names: rates over every table of k cards
    s = summary(tally)
    for board in s.boards:
        k = board.cards
        if k < n.shape[1] and n[:, k].sum():
            assert board.tables == n[:, k].sum()
            assert board.no_set.value == y[:, k].sum() / n[:, k].sum()
            assert board.mean_sets.value == m[:, k].sum() / n[:, k].sum()


@pytest.mark.parametrize(
    ("properties", "deal", "sizes"), [(4, 12, (12, 15, 18)), (3, 9, (9, 12, 15))]
)
def test_the_typed_summary_follows_the_deal(properties, deal, sizes):
    games = [play_game(8, g, properties, "random", deal) for g in range(200)]
    s = summary(simulate(200, 8, properties, "random", deal))
    assert (s.deal, tuple(b.cards for b in s.boards)) == (deal, sizes)
    counts = per_game_counts(games, 3**properties + 1)
    for board in s.boards:
        assert board.cards == sizes[s.boards.index(board)]
        assert s.board(board.cards) is board
        assert board.tables == counts[:, board.cards, 0].sum()
        assert board.exact_mean_sets == Fraction(math.comb(board.cards, 3), 3**properties - 2)
        assert len(board.set_distribution) == (
            1 + max((look.sets for g in games for look in g.inspections
                     if len(look.table) == board.cards), default=-1)
        )  # fmt: skip
    # first deals: the deal-size table of round 1 of every game
    first_sets = [g.inspections[0].sets for g in games]
    assert s.first_round.observations == 200
    assert s.first_round.value == sum(x == 0 for x in first_sets) / 200
    assert s.first_deal_mean_sets.value == pytest.approx(sum(first_sets) / 200, rel=1e-15)
    never = sum(g.largest_table <= deal for g in games)
    assert s.never_beyond_deal.value == never / 200
    with pytest.raises(SetlabError):
        s.board(deal + 9)
    # the JSON object names the sizes after the deal
    keys = s.as_dict()
    a, b = sizes[1], sizes[2]
    for key in (f"mean_sets_{deal}", f"first_deal_mean_sets_{deal}", f"never_needs_{a}_fraction",
                f"no_set_odds_{a}", f"tables_{b}", f"round_tables_{deal}"):  # fmt: skip
        assert key in keys
    assert keys["exact"][f"mean_sets_{a}_fraction"] == str(
        Fraction(math.comb(a, 3), 3**properties - 2)
    )


def test_the_json_keys_for_the_classic_deal_are_those_documented():
    # docs/game.md lists these keys; scripts read them
    keys = list(summary(simulate(50, seed=1)).as_dict())
    assert keys == [
        "games", "seed", "properties", "strategy", "deal",
        "first_round_no_set_probability", "first_round_no_set_probability_ci",
        "first_round_no_set_odds", "first_round_no_set_odds_ci",
        "later_rounds_no_set_probability", "later_rounds_no_set_odds",
        "later_rounds_no_set_odds_ci", "never_needs_15_fraction", "never_needs_15_fraction_ci",
        "no_set_probability_15", "no_set_odds_15", "no_set_odds_15_ci", "tables_15",
        "no_set_probability_18", "no_set_odds_18", "no_set_odds_18_ci", "tables_18",
        "mean_sets_12", "mean_sets_12_ci", "first_deal_mean_sets_12",
        "first_deal_mean_sets_12_ci", "mean_cards_left", "mean_cards_left_ci", "cards_left",
        "sets_on_table", "rounds", "round_tables_12", "round_no_set_probability_12",
        "round_no_set_odds_12", "round_no_set_odds_12_ci", "exact",
    ]  # fmt: skip


def test_a_deal_larger_than_the_deck_has_no_such_tables():
    # the plane's 9 cards are all dealt: no table of 12, 15 or 18 cards is ever met
    s = summary(simulate(50, seed=1, properties=2))
    assert [b.tables for b in s.boards] == [0, 0, 0]
    assert s.first_round.observations == 0 and s.never_beyond_deal.value == 1.0
    assert sum(s.cards_left) == 50


def test_by_round_counts_each_game_once_per_round():
    tally = simulate(500, seed=9)
    assert all(e.observations <= 500 for e in by_round(tally))
    assert by_round(tally)[0].observations == 500


def test_the_plot_is_a_drawing_the_command_writes_as_png_and_svg(tmp_path, capsys):
    drawing = plot_games(summary(simulate(300, seed=1)))
    ET.fromstring(drawing.svg)  # well-formed standalone SVG
    assert drawing.width == 11 * 72 and drawing.height == pytest.approx(4.2 * 72)  # in points
    plots = tmp_path / "plots"  # beside the test's results store, which keeps the cap counts
    plots.mkdir()
    png, svg = plots / "odds.png", plots / "odds.svg"
    argv = ["simulate", "--games", "300", "--seed", "1", "--plot", str(png), "--plot", str(svg)]
    assert main(argv) == 0
    assert f"wrote {png}" in capsys.readouterr()[0]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(data[16:20], "big") == 11 * 120  # 11 inches at 120 dpi, as before
    written = ET.fromstring(svg.read_text())  # the Drawing: matplotlib's SVG nested in its own
    assert written.get("width") == "792" and written.find(f"{{{SVG}}}svg") is not None
    assert main(["simulate", "--games", "10", "--plot", str(plots / "odds.txt")]) == 2
    assert sorted(p.name for p in plots.iterdir()) == ["odds.png", "odds.svg"]


# -- the command -------------------------------------------------------------------------------


def test_simulate_counts_the_caps_into_its_store_once_and_reads_them_back(
    capsys, tmp_path, monkeypatch
):
    """The exact first-round odds come from the cap count table, kept in ``--store`` after the
    first run; a later process finds it there and generates nothing."""
    from setlab.extremal.caps import COUNT_TABLE_JOB, counting
    from setlab.store import Store

    store = tmp_path / "counts.sqlite"
    argv = ["simulate", "--games", "50", "--no-progress", "--store", str(store)]
    assert main(argv) == 0
    first = capsys.readouterr().out
    with Store(store) as kept:
        rows = kept.finished_tasks(COUNT_TABLE_JOB)["P4"]
    assert rows[20]["caps"] == 682344  # Knuth's count of the 20-caps
    exact = Fraction(rows[12]["caps"], math.comb(81, 12))
    assert f"(exact {float((1 - exact) / exact):.2f}:1)" in first

    def no_generation(*args, **kwargs):
        raise AssertionError("the caps were counted again")

    monkeypatch.setattr(counting, "_TABLES", {})  # a fresh process: nothing counted yet
    monkeypatch.setattr(counting, "generate", no_generation)
    assert main(argv) == 0
    assert capsys.readouterr().out == first  # same seed, same games, the same exact odds


def test_simulate_json_has_the_promised_keys(capsys):
    assert main(["simulate", "--games", "2000", "--seed", "3", "--json"]) == 0
    out, _ = capsys.readouterr()
    answer = json.loads(out)
    for key in (
        "games", "seed", "first_round_no_set_odds", "later_rounds_no_set_odds",
        "never_needs_15_fraction", "no_set_odds_15", "mean_sets_12",
        "round_no_set_odds_12", "round_tables_12",
    ):  # fmt: skip
        assert key in answer
    assert answer["games"] == 2000 and answer["seed"] == 3
    assert main(["simulate", "--games", "2000", "--seed", "3", "--json"]) == 0
    again, _ = capsys.readouterr()
    assert again == out


def test_simulate_text_and_plot(capsys, tmp_path):
    plot = tmp_path / "games.png"
    code = main(["simulate", "--games", "500", "--strategy", "first", "--plot", str(plot)])
    out, _ = capsys.readouterr()
    assert code == 0 and plot.exists()
    assert "No set among 12 cards, first round" in out and "exact 220/79" in out


def test_junior_deck_output_is_strict_json_and_says_a_set_is_certain(capsys):
    """12 of the 27 Junior cards always hold a set: infinite odds, which JSON cannot hold."""
    assert main(["simulate", "--games", "300", "--seed", "1", "--properties", "3", "--json"]) == 0
    out, _ = capsys.readouterr()
    answer = json.loads(out, parse_constant=lambda name: pytest.fail(f"{name} in JSON"))
    assert answer["exact"]["first_round_no_set_probability"] == 0
    assert answer["exact"]["first_round_no_set_odds"] is None
    assert main(["simulate", "--games", "300", "--seed", "1", "--properties", "3"]) == 0
    out, _ = capsys.readouterr()
    assert "(exact: every 12 cards hold a set)" in out
    assert main(["simulate", "--games", "300", "--seed", "1"]) == 0
    assert "(exact 29.96:1)" in capsys.readouterr()[0]


@pytest.mark.parametrize(
    "argv",
    [
        ["--games", "0"],
        ["--games", "10", "--properties", "9"],
        ["--games", "10", "--seed", "-1"],
        ["--games", "10", "--plot", "x.pdf"],
    ],
)
def test_simulate_bad_input_is_one_line(capsys, argv):
    assert main(["simulate", *argv]) == 2
    _, err = capsys.readouterr()
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1


def test_exact_no_set_probability_refuses_a_draw_the_deck_cannot_give():
    """It returned None for 100 cards of AG(2,3) and 1 for -1 cards; both are errors now."""
    from setlab.errors import SetlabError
    from setlab.game import exact_no_set_probability

    for cards, properties in ((10, 2), (100, 2), (-1, 4), (82, 4)):
        with pytest.raises(SetlabError, match="cannot draw"):
            exact_no_set_probability(cards, properties)
    assert exact_no_set_probability(9, 2) == 0  # the whole plane of 9 cards holds 12 sets
    # 4 of the 9 cards hold a set iff they hold one of the 12 lines (plus any of 6 cards; no 4
    # cards hold two lines): 126 - 72 = 54 draws without one
    assert exact_no_set_probability(4, 2) == Fraction(54, 126)
