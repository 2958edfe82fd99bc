"""Claims per second in ``setlab serve`` rooms over WebSocket, against the same claims in-process.

Starts ``setlab serve`` as a subprocess on a free loopback port (a temporary results store), opens
10 rooms of 5 players (50 WebSocket connections) and lets every player claim, as fast as the
server answers, a set it sees on its table (a random one, so players of a room collide), call
"no set" when there is none and deal a new game when one ends. Bounded and self-stopping after
``--seconds``. Prints claims per second, p50/p99 claim latency, errors (must be 0), the server's
peak memory, and the baseline: the same players calling ``Room.claim`` in one process without
sockets, with the ratio of the two rates last.

Usage: python benchmarks/serve.py [--seconds 20] [--rooms 10] [--players 5]
"""

from __future__ import annotations

from _common import Parser, run_script  # first: see _common.py

# isort: split
import asyncio
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import websockets

from setlab.find import find_sets
from setlab.web.rooms import Lobby

REPLY_TIMEOUT = 10.0
"""A claim unanswered this long counts as an error."""


class Tally:
    """Claims answered, their latencies, and everything that went wrong."""

    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.taken = 0
        self.errors: list[str] = []


def choose(table: list[int], rng: random.Random) -> list[int] | None:
    sets = find_sets(table)
    if not sets:
        return None
    return [table[i] for i in rng.choice(sets)]


async def player(url: str, code: str, token: str, deadline: float, tally: Tally, seed: int) -> None:
    """One simulated player: claim what it sees until the deadline."""
    rng = random.Random(seed)
    state: dict = {}
    changed = asyncio.Event()
    waiting: dict[int, asyncio.Future] = {}
    ws_url = url.replace("http", "ws", 1) + f"ws/rooms/{code}?player={token}"
    async with websockets.connect(ws_url, max_size=2**20) as socket:

        async def read() -> None:
            async for text in socket:
                message = json.loads(text)
                if message["type"] == "state":
                    state.update(message)
                    changed.set()
                elif message["type"] == "error":
                    tally.errors.append(message["error"])
                if "id" in message and message["id"] in waiting:
                    waiting.pop(message["id"]).set_result(message)

        reader = asyncio.create_task(read())
        try:
            await asyncio.wait_for(changed.wait(), REPLY_TIMEOUT)
            number = 0
            while time.monotonic() < deadline:
                number += 1
                cards = choose(state["table"], rng)
                if state["over"]:
                    message = {"type": "new", "id": number}
                elif cards is None:
                    message = {"type": "noset", "id": number}
                else:
                    message = {"type": "claim", "cards": cards, "id": number}
                future = asyncio.get_running_loop().create_future()
                waiting[number] = future
                sent = time.perf_counter()
                await socket.send(json.dumps(message))
                try:
                    reply = await asyncio.wait_for(future, REPLY_TIMEOUT)
                except TimeoutError:
                    tally.errors.append(f"no answer in {REPLY_TIMEOUT:.0f} s")
                    return
                if message["type"] == "claim":
                    tally.latencies.append(time.perf_counter() - sent)
                    tally.taken += reply["ok"]
                    if not reply["ok"] and "no longer" not in reply["reasons"][0]:
                        tally.errors.append(f"a set was refused: {reply['reasons']}")
                if not reply.get("ok", True) and message["type"] != "claim":
                    changed.clear()  # our view was stale: wait for the next state
                    await asyncio.wait_for(changed.wait(), REPLY_TIMEOUT)
        except (OSError, websockets.ConnectionClosed, TimeoutError) as error:
            tally.errors.append(f"connection: {error!r}")
        finally:
            reader.cancel()


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


async def over_websockets(
    url: str, rooms: int, players: int, seconds: float
) -> tuple[Tally, float]:
    tally = Tally()
    seats = []
    for _ in range(rooms):
        first = post(url + "api/rooms", {"name": "P1"})
        seats.append((first["room"], first["player"]))
        for k in range(2, players + 1):
            joined = post(url + f"api/rooms/{first['room']}/join", {"name": f"P{k}"})
            seats.append((first["room"], joined["player"]))
    start = time.monotonic()
    deadline = start + seconds
    await asyncio.gather(
        *(player(url, code, token, deadline, tally, k) for k, (code, token) in enumerate(seats))
    )
    return tally, time.monotonic() - start


async def in_process(rooms: int, players: int, seconds: float) -> tuple[Tally, float]:
    """The baseline: the same players and moves, calling the rooms directly."""
    tally = Tally()
    lobby = Lobby()
    seats = []
    for _ in range(rooms):
        room = lobby.open()
        seats += [(room, room.join(f"P{k}")[0]) for k in range(1, players + 1)]
    start = time.monotonic()
    deadline = start + seconds

    async def one(room, token: str, seed: int) -> None:
        rng = random.Random(seed)
        while time.monotonic() < deadline:
            if room.table.over:
                await room.new_game(token)
                continue
            cards = choose(room.table.cards, rng)
            if cards is None:
                await room.no_set(token)
                continue
            sent = time.perf_counter()
            reply = await room.claim(token, cards)
            tally.latencies.append(time.perf_counter() - sent)
            tally.taken += reply["ok"]
            await asyncio.sleep(0)  # let the other players of the loop move

    await asyncio.gather(*(one(room, token, k) for k, (room, token) in enumerate(seats)))
    return tally, time.monotonic() - start


def start_server(store: Path) -> tuple[subprocess.Popen, str]:
    """``setlab serve`` on a free port, its stderr (and its own line on Ctrl-C) in a log beside
    the store; the caller stops it (:func:`stop_server`)."""
    command = [sys.executable, "-m", "setlab", "serve", "--port", "0", "--store", str(store)]
    with open(store.parent / "serve.log", "wb") as log:
        server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        line = server.stdout.readline() if server.stdout else ""
        found = re.search(r"http://[\d.]+:\d+/", line)
        if not found:
            told = (store.parent / "serve.log").read_text(errors="replace").strip().splitlines()
            raise SystemExit(f"error: setlab serve did not start: {(told or [line])[-1]!r}")
        url = found.group(0)
        for _ in range(200):
            try:
                urllib.request.urlopen(url + "api/deck", timeout=2).close()
                return server, url
            except OSError:
                time.sleep(0.05)
        raise SystemExit("error: setlab serve does not answer")
    except BaseException:  # the messages above, or Ctrl-C while it starts: no orphan server
        stop_server(server)
        raise


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def peak_memory_mib(pid: int) -> float:
    """The process's peak resident memory (VmHWM), in MiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024  # type: ignore[union-attr]


def report(name: str, tally: Tally, elapsed: float) -> float:
    rate = len(tally.latencies) / elapsed
    p50, p99 = (statistics.quantiles(tally.latencies, n=100)[k] * 1e3 for k in (49, 98))
    print(
        f"{name}: {rate:,.0f} claims/s ({len(tally.latencies):,} claims, {tally.taken:,} sets"
        f" taken, {elapsed:.1f} s); latency p50 {p50:.2f} ms, p99 {p99:.2f} ms"
    )
    return rate


def main() -> None:
    parser = Parser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--baseline-seconds", type=float, default=3.0)
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--players", type=int, default=5, help="players per room")
    args = parser.parse_args()
    if not (0 < args.seconds <= 600 and 0 < args.baseline_seconds <= 600
            and 0 < args.rooms <= 100 and 0 < args.players <= 16):  # fmt: skip
        parser.error("bounds: --seconds and --baseline-seconds in (0, 600], --rooms 1..100, "
                     "--players 1..16")  # fmt: skip

    find_sets([0, 1, 2])  # load the compiled finder before timing
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder) / "store.sqlite")
        try:
            tally, elapsed = asyncio.run(
                over_websockets(url, args.rooms, args.players, args.seconds)
            )
            memory = peak_memory_mib(server.pid)
        finally:
            stop_server(server)
    base, base_elapsed = asyncio.run(in_process(args.rooms, args.players, args.baseline_seconds))
    cores = os.cpu_count()
    print(f"{args.rooms} rooms x {args.players} players over WebSocket on {url} (cores: {cores})")
    sockets = report("WebSocket", tally, elapsed)
    print(f"errors: {len(tally.errors)}" + (f" (first: {tally.errors[0]})" if tally.errors else ""))
    print(f"server peak memory (VmHWM): {memory:.0f} MiB")
    baseline = report("in-process Room.claim (baseline)", base, base_elapsed)
    print(f"ratio in-process / WebSocket claims per second: {baseline / sockets:.1f}x")
    if tally.errors:
        raise SystemExit(1)


if __name__ == "__main__":
    run_script(main)
