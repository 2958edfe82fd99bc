"""The ASGI application of ``setlab serve``: a JSON API over setlab and the static page.

Every endpoint calls the API a notebook user would (cards, find, render, game.play, the results
store) and answers JSON; bad input is a 4xx JSON ``{"error": ...}``, never a traceback. Cards are
the SVG of ``setlab draw``; grids are :func:`setlab.render.configuration_svg` on the one layout.
Rooms for playing together speak JSON over a WebSocket (:mod:`setlab.web.rooms`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import math
import statistics
from collections.abc import AsyncIterator, Awaitable, Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from setlab.cards import Card, check_properties, deck_size, parse_board
from setlab.errors import SetlabError
from setlab.extremal.bigcaps import best_construction
from setlab.extremal.caps.counting import (
    COUNT_TABLE_JOB,
    MAX_COUNTED_PROPERTIES,
    no_set_probability,
    odds_against,
)
from setlab.find import find_sets
from setlab.game.statistics import exact_no_set_probability, expected_sets
from setlab.game.variants import (
    MODES,
    RULES,
    TITLES,
    card_code,
    card_name,
    display_card,
    mode_properties,
)
from setlab.geometry import indices_of
from setlab.render import board_svg, card_svg, configuration_svg, set_colours, valued_card_svg
from setlab.store import PROBLEMS, Store
from setlab.web.rooms import Lobby, Room, check_name
from setlab.web.solo import PLAY_MODES, SoloGame, SoloGames, check_mode

__all__ = ["MAX_BODY", "STATIC", "create_app"]

STATIC = Path(__file__).resolve().parent / "static"
"""The page: index.html, the stylesheet and the JavaScript modules (no build step)."""
MAX_BODY = 64 * 1024
"""Largest request body or WebSocket message accepted, in bytes."""
GRID_PROPERTIES = (2, 3, 4)
"""The spaces AG(P,3) the Explore page draws."""

_SECURITY_HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; img-src 'self' data: blob:; style-src 'self' 'unsafe-inline'; "
     b"connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]  # fmt: skip


class _SecurityHeaders:
    """Adds a strict content security policy and friends to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + _SECURITY_HEADERS
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def _properties(value: Any, allowed: tuple[int, ...] | None = None) -> int:
    """The number of properties P from a query or body value (default 4)."""
    if value is None:
        return 4
    try:
        properties = int(value)
    except (TypeError, ValueError):
        raise SetlabError(f"properties must be an integer, got {value!r}") from None
    check_properties(properties)
    if allowed is not None and properties not in allowed:
        raise SetlabError(f"properties must be one of {', '.join(map(str, allowed))}")
    return properties


def _cards(value: Any, properties: int) -> list[Card]:
    """Cards from a JSON list of names, codes, digit strings or indices (distinct)."""
    if not isinstance(value, list) or len(value) > deck_size(properties):
        raise SetlabError(f"cards must be a list of at most {deck_size(properties)} cards")
    if all(isinstance(card, str) for card in value):
        return parse_board(value, properties) if value else []
    if not all(isinstance(card, int) and not isinstance(card, bool) for card in value):
        raise SetlabError("cards are all names (strings) or all card numbers (integers)")
    if len(set(value)) != len(value):
        raise SetlabError("a card appears twice")
    return [Card(card, properties) for card in value]


def _card_json(card: Card) -> dict[str, Any]:
    return {"index": card.index, "code": card.code, "name": card.name}


def _times(times: list[float]) -> dict[str, Any]:
    """How many games, the best and the median time."""
    return {
        "games": len(times),
        "best": min(times) if times else None,
        "median": statistics.median(times) if times else None,
    }


def _picture_url(mode: str, card: int) -> str:
    """The URL of a card's picture in ``mode``.

    The Junior decks are drawn as solid cards of the full deck (:func:`display_card`); the
    4-valued cards of 4Set with their fourth values (:func:`setlab.render.valued_card_svg`).
    """
    index, properties, values = display_card(mode, card)
    if values == 3:
        query = "" if properties == 4 else f"?properties={properties}"
    else:
        query = f"?properties={properties}&values={values}"
    return f"/api/cards/{index}.svg{query}"


def _valued_card_picture(text: str, properties: int, values: str) -> Response:
    """Card number ``text`` of the ``values``-valued deck (4Set: 4) as an SVG response."""
    if values != "4":
        raise SetlabError(f"values must be 3 or 4, got {values!r}")
    if not (text.isdecimal() and int(text) < 4**properties):
        raise SetlabError(f"a 4-valued card is a number 0..{4**properties - 1}, got {text!r}")
    return Response(
        valued_card_svg(int(text), properties, 4).svg,
        media_type="image/svg+xml",
        headers={"cache-control": "public, max-age=86400"},
    )


def _mode_json(name: str) -> dict[str, Any]:
    """One mode as the page's chooser shows it."""
    if name == "set":
        facts = {"structure": "set", "size": 3, "deal": 12, "cards": 81, "values": 3}
        facts |= {"properties": 4, "chain": False}
    else:
        m = MODES[name]
        facts = {"structure": m.structure, "size": m.size, "deal": m.deal, "cards": m.cards}
        facts |= {"values": m.values, "properties": m.properties, "chain": m.chain}
    return {"name": name, "title": TITLES[name], "rule": RULES[name], **facts}


def _mode_deck(name: str) -> list[dict[str, Any]]:
    """Every card of the mode's deck: index, code, name and picture URL."""
    cards = 81 if name == "set" else MODES[name].cards
    return [
        {
            "index": c,
            "code": card_code(name, c),
            "name": card_name(name, c),
            "picture": _picture_url(name, c),
        }
        for c in range(cards)
    ]


async def _body(request: Request) -> dict[str, Any]:
    """The request's JSON object (at most :data:`MAX_BODY` bytes)."""
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise HTTPException(413, f"request body over {MAX_BODY} bytes")
    if not raw:
        return {}
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise SetlabError("the request body is not JSON") from None
    if not isinstance(body, dict):
        raise SetlabError("the request body must be a JSON object")
    return body


def _extreme(store: Store, sense: str, properties: int, n: int) -> dict[str, Any] | None:
    result = store.get(PROBLEMS[sense], properties, n)  # type: ignore[index]
    if result is None or result.value is None:
        return None
    return {
        "value": result.value,
        "bound": result.bound,
        "proven": result.proven,
        "method": result.bound_method,
        "witness": result.witness,
    }


class _NoSetOdds:
    """Exact chances that k random cards hold no set, for the Analyse page.

    caps(k) / C(3^P, k) from setlab's cap counting: the closed form for k <= 5, the count table
    of the results store when it holds one (``setlab caps count``, ``setlab simulate``), else
    the count run once per process and kept in the store; for AG(4,3) that takes seconds, so it
    runs in the background and the page is told to ask again. AG(5,3) and above are not counted
    beyond 5 cards.
    """

    def __init__(self, store: Callable[[], Store]) -> None:
        self.store = store
        self.counting: dict[int, asyncio.Task[Any]] = {}

    def _count(self, k: int, properties: int) -> Fraction | None:
        """The count, kept in the store for the next start of the server (a thread's own
        connection: SQLite's are not shared between threads)."""
        with self.store() as s:
            return exact_no_set_probability(k, properties, store=s)

    async def get(self, k: int, properties: int) -> dict[str, Any]:
        if k <= 5 or properties < MAX_COUNTED_PROPERTIES:
            return _chance(await asyncio.to_thread(exact_no_set_probability, k, properties))
        if properties > MAX_COUNTED_PROPERTIES:
            return {"value": None, "pending": False,
                    "note": f"not counted for P = {properties} beyond 5 cards"}  # fmt: skip
        with self.store() as s:
            if f"P{properties}" in s.finished_tasks(COUNT_TABLE_JOB):
                return _chance(no_set_probability(k, properties, store=s))
        task = self.counting.get(properties)
        if task is None:
            task = asyncio.create_task(asyncio.to_thread(self._count, k, properties))
            self.counting[properties] = task
        if not task.done():
            return {"value": None, "pending": True, "note": "counting the caps of AG(4,3)..."}
        return _chance(exact_no_set_probability(k, properties))


def _chance(probability: Fraction | None) -> dict[str, Any]:
    """A probability as the page shows it: exact fraction, decimal and odds against."""
    if probability is None:
        return {"value": None, "pending": False, "note": "no exact count"}
    return {
        "value": f"{probability.numerator}/{probability.denominator}",
        "float": float(probability),
        "odds": odds_against(probability),
        "pending": False,
    }


def create_app(store_path: str | Path | None = None) -> Starlette:
    """The web application; games and the proven tables live in the results store at
    ``store_path`` (default: :func:`setlab.store.default_store_path`).

    Examples
    --------
    >>> app = create_app(":memory:")
    >>> sorted(r.path for r in app.routes if r.path.startswith("/api/solo"))[:2]
    ['/api/solo', '/api/solo/{game}']
    """
    solo = SoloGames()
    lobby = Lobby()

    def store() -> Store:
        return Store(store_path)

    no_set_odds = _NoSetOdds(store)

    # -- cards and boards --------------------------------------------------------------------

    async def deck_json(request: Request) -> Response:
        if "mode" in request.query_params:
            name = check_mode(request.query_params["mode"])
            return JSONResponse(
                {"mode": name, "properties": mode_properties(name), "cards": _mode_deck(name)}
            )
        properties = _properties(request.query_params.get("properties"))
        if properties > 6:
            raise SetlabError("the deck is listed for P <= 6")
        cards = [Card(i, properties) for i in range(deck_size(properties))]
        return JSONResponse({"properties": properties, "cards": [_card_json(c) for c in cards]})

    async def card_picture(request: Request) -> Response:
        properties = _properties(request.query_params.get("properties"))
        text = request.path_params["card"]
        if request.query_params.get("values", "3") != "3":
            return _valued_card_picture(text, properties, request.query_params["values"])
        digits = len(text) == properties and set(text) <= set("012")
        if text.isdecimal() and len(text) < 6 and not digits:
            card = Card(int(text), properties)  # a card number
        else:
            card = Card.parse(text, properties)  # a code, a name or a digit string
        return Response(
            card_svg(card).svg,
            media_type="image/svg+xml",
            headers={"cache-control": "public, max-age=86400"},
        )

    async def analyse(request: Request) -> Response:
        body = await _body(request)
        properties = _properties(body.get("properties"))
        cards = _cards(body.get("cards"), properties)
        if not cards:
            raise SetlabError("empty board: give at least one card")
        sets = find_sets(cards, properties)
        expected = expected_sets(len(cards), properties)
        return JSONResponse(
            {
                "properties": properties,
                "cards": [_card_json(c) for c in cards],
                "sets": [list(s) for s in sets],
                "colours": set_colours(len(sets)),
                "expected": float(expected),
                "expected_exact": f"{expected.numerator}/{expected.denominator}",
                "no_set": await no_set_odds.get(len(cards), properties),
            }
        )

    async def board_download(request: Request) -> Response:
        properties = _properties(request.query_params.get("properties"))
        names = [t for t in request.query_params.get("cards", "").split(",") if t.strip()]
        cards = _cards(names, properties)
        if not cards:
            raise SetlabError("empty board: give at least one card")
        drawing = board_svg(cards, sets=True)
        kind = request.path_params["kind"]
        if kind not in ("svg", "png"):
            raise HTTPException(404, "a board is board.svg or board.png")
        if kind == "png":
            data, media = drawing.png(2.0), "image/png"
        else:
            data, media = drawing.svg.encode(), "image/svg+xml"
        how = "attachment" if request.query_params.get("download") else "inline"
        return Response(
            data,
            media_type=media,
            headers={"content-disposition": f'{how}; filename="board.{kind}"'},
        )

    # -- solo games --------------------------------------------------------------------------

    def game_of(request: Request) -> SoloGame:
        game = solo.get(request.path_params["game"])
        if game is None:
            raise HTTPException(404, "no such game (it may have ended long ago)")
        return game

    def keep(game: SoloGame) -> None:
        if game.seconds is not None and not game.recorded:
            game.recorded = True
            with store() as s:
                s.record_game(
                    "solo",
                    game.table.properties,
                    game.seconds,
                    len(game.table.taken),
                    game.hints,
                    game.mistakes,
                    mode=game.mode,
                )

    def keep_room(room: Room) -> None:
        results = room.finished()
        if results:
            with store() as s:
                for r in results:
                    s.record_game("room", room.properties, r["seconds"], r["score"], 0,
                                  r["mistakes"], mode=room.mode, player=r["player"])  # fmt: skip

    async def modes(request: Request) -> Response:
        return JSONResponse({"modes": [_mode_json(name) for name in PLAY_MODES]})

    async def solo_new(request: Request) -> Response:
        body = await _body(request)
        properties = _properties(body.get("properties"), (3, 4))
        gid, game = solo.new(properties, mode=check_mode(body.get("mode")))
        return JSONResponse({"game": gid, **game.state()})

    async def solo_state(request: Request) -> Response:
        return JSONResponse(game_of(request).state())

    async def solo_claim(request: Request) -> Response:
        game = game_of(request)
        body = await _body(request)
        cards = body.get("cards")
        if not isinstance(cards, list) or not all(type(c) is int for c in cards):
            raise SetlabError("cards must be a list of card numbers")
        claim = game.claim(cards)
        keep(game)
        return JSONResponse({"ok": claim.ok, "reasons": list(claim.reasons), **game.state()})

    async def solo_no_set(request: Request) -> Response:
        game = game_of(request)
        claim = game.no_set()
        keep(game)
        return JSONResponse({"ok": claim.ok, "reasons": list(claim.reasons), **game.state()})

    async def solo_hint(request: Request) -> Response:
        game = game_of(request)
        return JSONResponse({"cards": game.hint(), **game.state()})

    async def solo_sets(request: Request) -> Response:
        """The sets on the table (for teaching, and for tests that play a whole game)."""
        return JSONResponse({"sets": [list(s) for s in game_of(request).table.sets()]})

    async def stats(request: Request) -> Response:
        """Solo games (of one mode with ``?mode=``), a summary per mode, and room results."""
        chosen = request.query_params.get("mode")
        chosen = None if chosen is None else check_mode(chosen)
        with store() as s:
            solo_games = s.games("solo", limit=5000)
            room_games = s.games("room", limit=20)
        games = [g for g in solo_games if chosen is None or g.mode == chosen]
        per_mode = []
        for name in PLAY_MODES:
            times = [g.seconds for g in solo_games if g.mode == name]
            if times:
                per_mode.append({"mode": name, "title": TITLES[name], **_times(times)})
        return JSONResponse(
            {
                "mode": chosen,
                **_times([g.seconds for g in games]),
                "sets": sum(g.sets for g in games),
                "recent": [
                    {
                        key: getattr(g, key)
                        for key in ("mode", "seconds", "sets", "hints", "mistakes", "finished")
                    }
                    for g in games[:10]
                ],
                "modes": per_mode,
                "rooms": [
                    {
                        key: getattr(g, key)
                        for key in ("mode", "player", "seconds", "sets", "mistakes", "finished")
                    }
                    for g in room_games
                ],
            }
        )

    # -- the geometry ------------------------------------------------------------------------

    async def explore(request: Request) -> Response:
        body = await _body(request)
        properties = _properties(body.get("properties"), GRID_PROPERTIES)
        cards = _cards(body.get("cards", []), properties)
        sets = find_sets(cards, properties) if cards else []
        drawing = configuration_svg(cards, sets=sets, properties=properties)
        n = len(cards)
        with store() as s:
            most, fewest = _extreme(s, "max", properties, n), _extreme(s, "min", properties, n)
        return JSONResponse(
            {
                "properties": properties,
                "n": n,
                "svg": drawing.svg,
                "sets": [[cards[i].index for i in triple] for triple in sets],
                "count": len(sets),
                "max": most,
                "min": fewest,
            }
        )

    async def largest_cap(request: Request) -> Response:
        properties = _properties(request.query_params.get("properties"), GRID_PROPERTIES)
        with store() as s:
            stored = s.get("maxcap", properties, 0, {"values": 3})
        if stored is not None and stored.proven and stored.witness:
            cards, source = sorted(stored.witness), "the results store (proven largest)"
        else:
            cards = sorted(indices_of(best_construction(properties)).tolist())
            source = f"setlab's construction (prove it largest with 'setlab caps -p {properties}')"
        return JSONResponse({"properties": properties, "cards": cards, "source": source})

    async def results(request: Request) -> Response:
        properties = _properties(request.query_params.get("properties"), (2, 3, 4, 5))
        with store() as s:
            rows = {
                sense: {r.cards: r for r in s.results(PROBLEMS[sense], properties)}  # type: ignore[index]
                for sense in ("max", "min")
            }
        table = []
        for n in range(deck_size(properties) + 1):
            row: dict[str, Any] = {"n": n}
            for sense, by_n in rows.items():
                r = by_n.get(n)
                row[sense] = (
                    None
                    if r is None
                    else {
                        "value": r.value,
                        "bound": r.bound,
                        "proven": r.proven,
                        "method": r.bound_method,
                        "witness": r.witness_method,
                    }
                )
            table.append(row)
        known = sum(1 for row in table for sense in ("max", "min") if row[sense])
        return JSONResponse({"properties": properties, "rows": table, "known": known})

    # -- rooms -------------------------------------------------------------------------------

    async def room_open(request: Request) -> Response:
        body = await _body(request)
        name = check_name(body.get("name"))
        room = lobby.open(
            _properties(body.get("properties"), (3, 4)), mode=check_mode(body.get("mode"))
        )
        token, player = room.join(name)
        return JSONResponse({"room": room.code, "player": token, "number": player.number})

    async def room_join(request: Request) -> Response:
        body = await _body(request)
        name = check_name(body.get("name"))
        room = lobby.get(request.path_params["code"])
        if room is None:
            raise HTTPException(404, "no room with that code")
        token, player = room.join(name)
        return JSONResponse({"room": room.code, "player": token, "number": player.number})

    async def room_socket(socket: WebSocket) -> None:
        room = lobby.get(socket.path_params["code"])
        token = socket.query_params.get("player", "")
        if room is None or token not in room.players:
            await socket.close(code=4403, reason="join the room first")
            return
        await socket.accept()
        queue = room.connect(token)
        writer = asyncio.create_task(_pump(queue, socket))
        try:
            while True:
                text = await socket.receive_text()
                reply = await _room_move(room, token, text)
                await queue.put(reply)
                keep_room(room)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.disconnect(token, queue)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer

    # -- the page and the errors -------------------------------------------------------------

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"cache-control": "no-cache"})

    async def unknown(request: Request) -> Response:
        return _error(404, "no such endpoint")

    async def setlab_error(request: Request, error: Exception) -> Response:
        return _error(400, str(error))

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, HTTPException)
        return _error(error.status_code, str(error.detail))

    def guarded(
        endpoint: Callable[[Request], Awaitable[Response]],
    ) -> Callable[[Request], Awaitable[Response]]:
        """``endpoint`` with malformed input (a bad number, text) answered 400, not 500."""

        async def run(request: Request) -> Response:
            try:
                return await endpoint(request)
            except SetlabError:
                raise
            except (ValueError, TypeError, KeyError, OverflowError) as error:
                return _error(400, f"bad request: {error}")

        return run

    api = [
        ("/api/deck", deck_json, "GET"),
        ("/api/modes", modes, "GET"),
        ("/api/cards/{card}.svg", card_picture, "GET"),
        ("/api/analyse", analyse, "POST"),
        ("/api/board.{kind:str}", board_download, "GET"),
        ("/api/solo", solo_new, "POST"),
        ("/api/solo/{game}", solo_state, "GET"),
        ("/api/solo/{game}/claim", solo_claim, "POST"),
        ("/api/solo/{game}/noset", solo_no_set, "POST"),
        ("/api/solo/{game}/hint", solo_hint, "POST"),
        ("/api/solo/{game}/sets", solo_sets, "GET"),
        ("/api/stats", stats, "GET"),
        ("/api/explore", explore, "POST"),
        ("/api/cap", largest_cap, "GET"),
        ("/api/results", results, "GET"),
        ("/api/rooms", room_open, "POST"),
        ("/api/rooms/{code}/join", room_join, "POST"),
    ]
    routes: list[Any] = [Route("/", index)]
    routes += [Route(path, guarded(fn), methods=[method]) for path, fn, method in api]
    routes += [
        Route("/api/{rest:path}", unknown, methods=["GET", "POST", "PUT", "DELETE", "PATCH"]),
        WebSocketRoute("/ws/rooms/{code}", room_socket),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        # load the compiled set finder before the first request needs it
        await asyncio.to_thread(find_sets, [0, 1, 2], 4)
        yield

    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        middleware=[Middleware(_SecurityHeaders)],
        exception_handlers={SetlabError: setlab_error, HTTPException: http_error},
    )

    app.state.lobby = lobby
    app.state.solo = solo
    return app


async def _pump(queue: asyncio.Queue[dict[str, Any]], socket: WebSocket) -> None:
    """Send the queued messages of one connection, in order, until it closes."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        while True:
            await socket.send_text(json.dumps(await queue.get()))


async def _room_move(room: Room, token: str, text: str) -> dict[str, Any]:
    """Apply one JSON message of a player to the room; the reply for that player.

    A message is ``{"type": "claim", "cards": [a, b, c]}``, ``{"type": "noset"}``, ``{"type":
    "new"}`` or ``{"type": "state"}``, with an optional ``"id"`` echoed in the reply.
    """
    message: Any = None
    try:
        if len(text) > MAX_BODY:
            raise SetlabError("message too long")
        message = json.loads(text)
        if not isinstance(message, dict):
            raise SetlabError("a message is a JSON object")
        kind = message.get("type")
        if kind == "claim":
            cards = message.get("cards")
            if not isinstance(cards, list) or not all(type(c) is int for c in cards):
                raise SetlabError("cards must be a list of card numbers")
            reply = await room.claim(token, cards)
        elif kind == "noset":
            reply = await room.no_set(token)
        elif kind == "new":
            reply = await room.new_game(token)
        elif kind == "state":
            reply = room.state()
        else:
            raise SetlabError("unknown message type")
    except (SetlabError, ValueError) as error:
        reply = {"type": "error", "error": str(error)}
    if isinstance(message, dict) and _plain(message.get("id")):
        reply = dict(reply, id=message["id"])
    return reply


def _plain(value: Any) -> bool:
    """True for a JSON value safe to echo back: a short string or a finite number."""
    if isinstance(value, str):
        return len(value) <= 64
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
