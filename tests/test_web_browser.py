"""``setlab serve`` in a real browser: Playwright drives the system Chromium against a live server.

The server runs under uvicorn in a thread on a free loopback port. The tests click as a person
would: a whole solo game, a wrong triple, a hint, a typed board, points of the grid, two players
in one room and a dropped connection. Screenshots of each page go to a temporary directory
(``SETLAB_SCREENSHOTS`` to choose it). Without a browser the module is skipped in one line.
"""

from __future__ import annotations

import itertools
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("SETLAB_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM}: browser tests skipped", allow_module_level=True)
playwright_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

import uvicorn  # noqa: E402

from setlab.game import play  # noqa: E402
from setlab.web import create_app, rooms  # noqa: E402

ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PROPERTIES = ("number", "colour", "shading", "shape")


def is_set(a: int, b: int, c: int) -> bool:
    return all((a // 3**i + b // 3**i + c // 3**i) % 3 == 0 for i in range(4))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    store = tmp_path_factory.mktemp("web") / "store.sqlite"
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    config = uvicorn.Config(create_app(store), log_level="warning")
    app_server = uvicorn.Server(config)
    thread = threading.Thread(target=app_server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not app_server.started:
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    app_server.should_exit = True
    thread.join(10)
    sock.close()


@pytest.fixture(scope="module")
def browser():
    with playwright_api.sync_playwright() as p:
        try:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except playwright_api.Error as error:
            pytest.skip(f"Chromium at {CHROMIUM} does not start: {str(error).splitlines()[0]}")
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    # pytest's own temporary folders (it keeps the last three runs'), not a new one in /tmp
    folder = Path(os.environ.get("SETLAB_SCREENSHOTS") or tmp_path_factory.mktemp("screenshots"))
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.base = server  # type: ignore[attr-defined]
    yield tab
    context.close()
    assert errors == []


def table_of(page, board: str = "#play-board") -> list[int]:
    return [
        int(x)
        for x in page.eval_on_selector_all(f"{board} .card", "n => n.map(c => c.dataset.card)")
    ]


def start_solo(page) -> str:
    page.goto(page.base + "#play")
    page.wait_for_selector("#play-board[data-game] .card")
    return page.get_attribute("#play-board", "data-game")


def test_a_whole_solo_game_by_clicking(page, shots):
    game = start_solo(page)
    for _ in range(60):
        if page.is_visible("#play-over"):
            break
        version = page.inner_text("#play-taken"), page.inner_text("#play-deck")
        sets = page.request.get(f"{page.base}api/solo/{game}/sets").json()["sets"]
        if sets:
            for card in sets[0]:
                page.click(f'#play-board .card[data-card="{card}"]')
            page.wait_for_function(
                "v => document.getElementById('play-taken').textContent !== v", arg=version[0]
            )
        else:
            page.click("#play-noset")
            page.wait_for_function(
                "([t, d]) => document.getElementById('play-deck').textContent !== d"
                " || !document.getElementById('play-over').hidden",
                arg=version,
            )
    page.wait_for_selector("#play-over:not([hidden])")
    left = table_of(page)
    taken = int(page.inner_text("#play-taken"))
    assert 3 * taken + len(left) == 81
    assert not any(is_set(*t) for t in itertools.combinations(left, 3))
    assert "sets in" in page.inner_text("#play-summary")
    page.wait_for_function("() => document.getElementById('stats-games').textContent === '1'")
    over = page.locator("#play-over").bounding_box()
    board = page.locator("#play-board").bounding_box()
    assert over["y"] + over["height"] <= board["y"]  # the cards left stay in sight, not covered
    page.screenshot(path=shots / "play-over.png")


def test_a_wrong_triple_shows_the_failing_property(page, shots):
    start_solo(page)
    table = table_of(page)
    wrong = next(t for t in itertools.combinations(table, 3) if not is_set(*t))
    failing = [
        PROPERTIES[3 - i] for i in range(4) if len({(card // 3**i) % 3 for card in wrong}) == 2
    ]
    for card in wrong:
        page.click(f'#play-board .card[data-card="{card}"]')
    page.wait_for_function(
        "() => document.getElementById('play-message').textContent.startsWith('Not a set')"
    )
    message = page.inner_text("#play-message")
    assert all(f"{name}:" in message for name in failing)
    page.screenshot(path=shots / "play-wrong.png")
    # a quick player clicks on at once, while the refused three still flash: that click starts
    # a new choice (it was a fourth card of the old three, and "choose three cards")
    other = next(card for card in table if card not in wrong)
    page.click(f'#play-board .card[data-card="{other}"]')
    chosen = page.eval_on_selector_all(
        "#play-board .card[aria-pressed='true']", "n => n.map(c => Number(c.dataset.card))"
    )
    assert chosen == [other] and "choose three" not in page.inner_text("#play-message")
    page.wait_for_timeout(800)  # past the flash: the new choice stays
    assert page.eval_on_selector_all(
        "#play-board .card[aria-pressed='true']", "n => n.map(c => Number(c.dataset.card))"
    ) == [other]


def test_a_hint_highlights_a_card_of_a_real_set(page, shots):
    game = start_solo(page)
    sets = page.request.get(f"{page.base}api/solo/{game}/sets").json()["sets"]
    page.keyboard.press("h")
    if not sets:  # about one deal in thirty: the hint says so and highlights nothing
        page.wait_for_function(
            "() => document.getElementById('play-message').innerText.startsWith('No set here')"
        )
        assert page.locator("#play-board .card.hint").count() == 0
        return
    page.wait_for_selector("#play-board .card.hint")
    hinted = [
        int(x) for x in page.eval_on_selector_all(".card.hint", "n => n.map(c => c.dataset.card)")
    ]
    assert len(hinted) == 1 and any(hinted[0] in s for s in sets)
    page.screenshot(path=shots / "play-hint.png")
    # a keyboard player selects with the keys shown on the cards
    page.keyboard.press("q")
    assert page.get_attribute("#play-board .card >> nth=0", "aria-pressed") == "true"


def test_analyse_a_typed_board(page, shots):
    page.goto(page.base + "#analyse")
    page.wait_for_selector("#analyse-picker .pick")
    page.fill(
        "#analyse-text", "1RSD, 2 red solid diamonds, 3RSD\n1 green solid diamond, 1PSD, 2GTS"
    )
    page.click("#analyse-form .primary")
    page.wait_for_selector("#analyse-result:not([hidden])")
    assert page.inner_text("#analyse-summary") == "6 cards, 2 sets"
    assert page.locator("#analyse-sets li .mini-cards").count() == 2
    page.wait_for_function("() => document.getElementById('analyse-picture').naturalWidth > 0")
    assert page.locator('#analyse-picker .pick[aria-pressed="true"]').count() == 6
    page.fill("#analyse-text", "1RSD, 2 blue ovals")
    page.click("#analyse-form .primary")
    page.wait_for_function(
        "() => document.getElementById('analyse-message').textContent.includes('blue')"
    )
    assert page.is_hidden("#analyse-result")  # the last board's sets are not this input's
    page.screenshot(path=shots / "analyse.png", full_page=True)
    page.fill("#analyse-text", "2 red solid diamonds")  # a name marks its card in the picker
    page.click('#analyse-picker .pick[aria-label="2 red solid diamonds"]')
    page.wait_for_function("() => document.getElementById('analyse-text').value === ''")


def test_the_random_deal_of_analyse_is_uniform(page):
    """Each card is in 12 of 81 places of a uniform deal: 20,000 deals give it 2,963 times
    on average (standard deviation about 50). Sorting by a random comparator, as the page once
    did, put one card in 30 % of deals and another in 10 %."""
    page.goto(page.base + "#analyse")
    page.wait_for_selector("#analyse-picker .pick")
    counts = page.evaluate(
        """async () => {
            const { draw } = await import('/static/js/analyse.js');
            const codes = [...Array(81).keys()].map(String);
            const counts = new Array(81).fill(0);
            for (let i = 0; i < 20000; i++) for (const c of draw(codes, 12)) counts[Number(c)]++;
            return counts;
        }"""
    )
    assert sum(counts) == 12 * 20000
    assert all(abs(count - 20000 * 12 / 81) < 300 for count in counts), (min(counts), max(counts))


def test_an_open_minimum_reads_low_to_high_on_the_results_page(page):
    """A stored minimum's witness is its high end: m(95) of AG(5,3) read 310 ... 304 before."""
    page.goto(page.base + "#results")
    page.wait_for_selector("#results-table thead")
    cells = page.evaluate(
        """async () => {
            const { cell } = await import('/static/js/results.js');
            const open = { value: 310, bound: 304, proven: false, method: "complement" };
            const max = { value: 2461, bound: 2467, proven: false, method: "split" };
            return [cell(open, "min")[0].textContent, cell(max, "max")[0].textContent];
        }"""
    )
    assert cells == ["304 … 310", "2461 … 2467"]


def test_a_card_chosen_from_the_keyboard_keeps_the_focus(page):
    """Enter on a focused card selects it and redraws the board; the focus stays on that card
    (it fell to the page's body, so the next Tab started again at the first card)."""
    start_solo(page)
    second = table_of(page)[1]
    page.focus(f'#play-board .card[data-card="{second}"]')
    page.keyboard.press("Enter")
    page.wait_for_selector(f'#play-board .card[data-card="{second}"][aria-pressed="true"]')
    assert page.evaluate("() => document.activeElement.dataset.card") == str(second)


def test_toggle_points_on_the_grid_and_read_the_count(page, shots):
    page.goto(page.base + "#explore")
    page.wait_for_selector("#explore-grid .site")
    for card in (0, 1, 2, 3):  # 0000, 0001, 0002 is a line; 0010 is not on it
        page.click(f'#explore-grid .site[data-card="{card}"]', force=True)
        page.wait_for_function(
            f"() => document.getElementById('explore-n').textContent === '{card + 1}'"
        )
    assert page.inner_text("#explore-count") == "1"
    page.focus(
        '#explore-grid .site[data-card="6"]'
    )  # 0020 by keyboard: a second line 0000-0010-0020
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('explore-n').textContent === '5'")
    assert page.inner_text("#explore-count") == "2"
    page.click('#explore-grid .site[data-card="1"]', force=True)
    page.wait_for_function("() => document.getElementById('explore-count').textContent === '1'")
    page.click("#explore-cap")
    page.wait_for_function("() => document.getElementById('explore-n').textContent === '20'")
    assert page.inner_text("#explore-count") == "0"
    page.click("#explore-extra")
    page.wait_for_function("() => document.getElementById('explore-n').textContent === '21'")
    assert int(page.inner_text("#explore-count")) >= 1
    assert "completes" in page.inner_text("#explore-message")
    page.screenshot(path=shots / "explore.png", full_page=True)
    page.goto(page.base + "#results")
    page.wait_for_selector("#results-table thead")
    page.screenshot(path=shots / "results.png")


def test_a_form_waits_for_its_page_before_it_can_be_sent(page):
    # hold the list of modes, so the lobby cannot finish wiring its forms: pressed now, the
    # button would send the form natively and reload the page (a room that never opens)
    held = []
    page.route("**/api/modes", lambda route: held.append(route))
    page.goto(page.base + "#together")
    page.wait_for_function("() => document.body.dataset.page === 'together'")
    page.fill("#room-create input[name=name]", "Ada")
    assert page.is_disabled("#room-create button") and page.is_disabled("#room-join button")
    deadline = time.monotonic() + 30
    while not held:  # the route is answered while Playwright waits
        assert time.monotonic() < deadline, "the lobby did not ask for the modes"
        page.wait_for_timeout(50)
    assert page.is_disabled("#room-create button")
    held[0].continue_()
    page.click("#room-create button")
    page.wait_for_selector("#room-board .card")
    assert page.url.endswith("#together/" + page.inner_text("#room-code"))


def test_two_players_in_one_room_and_a_dropped_socket_rejoins(browser, server, shots, monkeypatch):
    # the room deals from the first shuffle whose 12 cards hold no set (about one game in
    # thirty): the players must call "no set" before anyone can take one
    no_set_seed = next(
        seed
        for seed in itertools.count()
        if not any(is_set(*t) for t in itertools.combinations(play.Table(seed=seed).cards, 3))
    )
    monkeypatch.setattr(
        rooms, "Table", lambda seed=None, **options: play.Table(no_set_seed, **options)
    )
    ada_context, bob_context = (
        browser.new_context(),
        browser.new_context(viewport={"width": 390, "height": 844}),
    )
    try:
        ada, bob = ada_context.new_page(), bob_context.new_page()
        ada.goto(server + "#together")
        ada.fill("#room-create input[name=name]", "Ada")
        ada.click("#room-create button")
        ada.wait_for_selector("#room-board .card")
        code = ada.inner_text("#room-code")
        bob.goto(server + f"#together/{code}")
        bob.fill("#room-join input[name=name]", "Bob <b>")
        bob.click("#room-join button")
        bob.wait_for_function(
            "() => document.getElementById('lobby-message').textContent.startsWith('a name is')"
        )
        bob.fill("#room-join input[name=name]", "ada")  # Ada's name, in any case, is hers
        bob.click("#room-join button")
        bob.wait_for_function(
            "() => document.getElementById('lobby-message').textContent.includes('is taken')"
        )
        bob.fill("#room-join input[name=name]", "Bob")
        bob.click("#room-join button")
        bob.wait_for_selector("#room-board .card")
        assert "all the same or all different" in bob.inner_text("#room-rule")  # the rule shown
        ada.wait_for_function(
            "() => document.querySelectorAll('#room-players li.online').length === 2"
        )
        table = table_of(ada, "#room-board")
        assert table == table_of(bob, "#room-board")
        assert not any(is_set(*t) for t in itertools.combinations(table, 3))
        while not any(is_set(*t) for t in itertools.combinations(table, 3)):
            ada.click("#room-noset")
            for page in (ada, bob):
                page.wait_for_function(
                    f"() => document.querySelectorAll('#room-board .card').length > {len(table)}"
                )
            table = table_of(bob, "#room-board")
        triple = next(t for t in itertools.combinations(table, 3) if is_set(*t))
        for card in triple:
            ada.click(f'#room-board .card[data-card="{card}"]')
        bob.wait_for_function(
            "() => document.getElementById('room-message').textContent === 'Ada took a set.'"
        )
        assert not set(triple) & set(table_of(bob, "#room-board"))
        scores = bob.inner_text("#room-players")
        assert "Ada" in scores and "1" in scores
        ada.screenshot(path=shots / "together-desktop.png")
        bob.screenshot(path=shots / "together-phone.png", full_page=True)
        # Ada's connection drops: she comes back by herself with her score
        ada.evaluate("window.setlabSocket.close()")
        ada.wait_for_selector("#room-link[data-state='online']")
        ada.wait_for_function(
            "() => document.querySelector('#room-players li.me .score').textContent === '1'"
        )
        bob.wait_for_function(
            "() => document.querySelectorAll('#room-players li.online').length === 2"
        )
    finally:
        ada_context.close()
        bob_context.close()


def ultra_rule(cards: tuple[int, ...]) -> bool:
    a, b, c, d = ([(x // 3**i) % 3 for i in range(4)] for x in cards)
    return any(
        all((p[i] + q[i] - r[i] - s[i]) % 3 == 0 for i in range(4))
        for p, q, r, s in ((a, b, c, d), (a, c, b, d), (a, d, b, c))
    )


def choose_mode(page, name: str) -> str:
    page.goto(page.base + "#play")
    page.wait_for_selector("#play-board[data-game] .card")
    page.select_option("#play-mode", name)
    page.wait_for_selector(f"#play-board[data-mode='{name}'] .card")
    return page.get_attribute("#play-board", "data-game")


def test_a_whole_ultraset_game_by_clicking(page, shots):
    game = choose_mode(page, "ultra")
    assert "No UltraSet here" in page.inner_text("#play-noset")
    table = table_of(page)
    wrong = next(t for t in itertools.combinations(table, 4) if not ultra_rule(t))
    for card in wrong:
        page.click(f'#play-board .card[data-card="{card}"]')
    page.wait_for_function(
        "() => document.getElementById('play-message').textContent.startsWith('Not an UltraSet')"
    )
    assert "need" in page.inner_text("#play-message")
    page.wait_for_selector("#play-board .card.selected", state="detached")
    for _ in range(40):
        if page.is_visible("#play-over"):
            break
        before = page.inner_text("#play-taken"), page.inner_text("#play-deck")
        found = page.request.get(f"{page.base}api/solo/{game}/sets").json()["sets"]
        if found:
            assert ultra_rule(tuple(found[0]))
            for card in found[0]:
                page.click(f'#play-board .card[data-card="{card}"]')
        else:
            page.click("#play-noset")
        page.wait_for_function(
            "([t, d]) => document.getElementById('play-taken').textContent !== t"
            " || document.getElementById('play-deck').textContent !== d"
            " || !document.getElementById('play-over').hidden",
            arg=before,
        )
    page.wait_for_selector("#play-over:not([hidden])")
    left = table_of(page)
    assert 4 * int(page.inner_text("#play-taken")) + len(left) == 81
    assert not any(ultra_rule(t) for t in itertools.combinations(left, 4))
    page.wait_for_function(
        "() => document.querySelector('#stats-modes tr.current td')?.textContent === 'UltraSet'"
    )
    page.screenshot(path=shots / "play-ultra-over.png")


def test_a_ghostset_selection_and_hint_at_phone_width(browser, server, shots):
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        tab = context.new_page()
        tab.base = server  # type: ignore[attr-defined]
        game = choose_mode(tab, "ghost")
        table = table_of(tab)
        assert len(table) == 10
        six = table[:6]
        is_ghost = all(sum((c // 3**i) % 3 for c in six) % 3 == 0 for i in range(4))
        for card in six:
            tab.click(f'#play-board .card[data-card="{card}"]')
        tab.wait_for_function(
            "() => /^(Not a GhostSet|GhostSet!)/.test(document.getElementById('play-message')"
            ".textContent)"
        )
        message = tab.inner_text("#play-message")
        assert message.startswith("GhostSet!" if is_ghost else "Not a GhostSet")
        tab.screenshot(path=shots / "play-ghost-phone.png", full_page=True)
        tab.keyboard.press("h")
        found = tab.request.get(f"{server}api/solo/{game}/sets").json()["sets"]
        if found:
            tab.wait_for_selector("#play-board .card.hint")
            hinted = int(tab.get_attribute("#play-board .card.hint", "data-card"))
            assert any(hinted in s for s in found)
        # 4Set: the cards of the 4-valued deck are on the table, drawn with their fourth values
        choose_mode(tab, "4set")
        assert len(table_of(tab)) == 12
        tab.wait_for_function(
            "() => [...document.querySelectorAll('#play-board .card img')]"
            ".every(i => i.complete && i.naturalWidth > 0 && i.src.includes('values=4'))"
        )
        tab.screenshot(path=shots / "play-4set-phone.png", full_page=True)
    finally:
        context.close()


def test_set_chain_shows_the_previous_set(page, shots):
    game = choose_mode(page, "chain")
    while not (found := page.request.get(f"{page.base}api/solo/{game}/sets").json()["sets"]):
        page.click("#play-noset")
        page.wait_for_timeout(200)
    for card in found[0]:
        page.click(f'#play-board .card[data-card="{card}"]')
    page.wait_for_selector("#play-previous:not([hidden]) .card")
    shown = [
        int(x)
        for x in page.eval_on_selector_all(
            "#play-previous-cards .card", "n => n.map(c => c.dataset.card)"
        )
    ]
    assert sorted(shown) == sorted(found[0])
    page.screenshot(path=shots / "play-chain.png")


def test_the_arrow_keys_move_a_p_switch(page):
    """The P switches are radio groups: ArrowRight and ArrowLeft move the choice, and wrap."""
    page.goto(page.base + "#results")
    page.wait_for_selector("#results-table thead")
    checked = '#page-results .segmented [aria-checked="true"]'
    page.focus('#page-results .segmented [data-p="4"]')
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'{checked}[data-p="5"]')
    page.keyboard.press("ArrowRight")
    page.wait_for_selector(f'{checked}[data-p="3"]')
    page.keyboard.press("ArrowLeft")
    page.wait_for_selector(f'{checked}[data-p="5"]')
    assert page.evaluate("() => document.activeElement.dataset.p") == "5"
