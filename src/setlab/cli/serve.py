"""``setlab serve``: the web page (play, play together, analyse, explore, results) on a port."""

from __future__ import annotations

import argparse
import socket
import threading
from typing import TYPE_CHECKING

from setlab.cli.common import add_store, int_in
from setlab.errors import SetlabError
from setlab.interrupts import ctrl_c_held

if TYPE_CHECKING:
    import uvicorn

__all__ = ["listen", "register", "run_serve"]


def register(commands: argparse._SubParsersAction) -> None:
    serve = commands.add_parser(
        "serve",
        help="serve setlab's web page: play SET, play together, analyse boards, explore AG(P,3)",
        description="Start a local web server and print its address. Only this computer can "
        "reach it unless --host names another address (e.g. 0.0.0.0 for the local network).",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    serve.add_argument(
        "--port", type=int_in(0, 65535), default=8765, help="port (default 8765; 0: any free one)"
    )
    add_store(serve)
    # Ctrl-C is how a server stops (its first line says so): no "error", still exit 130
    serve.set_defaults(run=run_serve, interrupted="setlab serve: stopped (games played are kept "
                       "in the store)")  # fmt: skip


def listen(host: str, port: int) -> socket.socket:
    """A listening TCP socket on (host, port), or a SetlabError naming why not.

    Examples
    --------
    >>> with listen("127.0.0.1", 0) as sock:
    ...     sock.getsockname()[1] > 0
    True
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as error:
        raise SetlabError(f"--host: cannot resolve '{host}': {error}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise SetlabError(f"cannot listen on {host}:{port}: {error.strerror}") from None
    sock.set_inheritable(True)
    return sock


def run_serve(args: argparse.Namespace) -> int:
    from setlab.store import Store

    Store(args.store).close()  # refuse an unusable store before serving anything
    sock = listen(args.host, args.port)
    import uvicorn

    from setlab.web import create_app

    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    print(f"setlab serve: open http://{shown}:{port}/ in a browser (Ctrl-C stops)", flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print("note: listening beyond this computer: anyone who can reach it can play", flush=True)
    # asyncio's own event loop, not uvloop: a Ctrl-C some 0.02 s after the address is printed
    # (the app's lifespan starting) crashed uvloop's exit about one stop in twenty (SIGSEGV
    # after the stop line, 6 of 100 stops); with asyncio's loop, 0 of 200.
    config = uvicorn.Config(create_app(args.store), log_level="warning", loop="asyncio")
    try:
        _serve_until_ctrl_c(uvicorn.Server(config), sock)
    finally:
        sock.close()
    return 0


WAKE_SECONDS = 0.2
"""How long the main thread waits on the server's thread before it looks for a Ctrl-C again."""


def _serve_until_ctrl_c(server: uvicorn.Server, sock: socket.socket) -> None:
    """Run uvicorn's ``server`` on ``sock`` in a thread of its own until it ends or Ctrl-C.

    The server's event loop runs off the main thread, so a SIGINT never lands inside it: there
    it would raise KeyboardInterrupt wherever the loop stood (say, while the app's lifespan
    starts) and leave tasks pending, which uvicorn and asyncio then report in thirty lines.
    Here Ctrl-C interrupts only the main thread's wait; whatever ends the wait, the server is
    asked to stop as uvicorn's own signal handler would (``should_exit``; a second Ctrl-C,
    ``force_exit``) and waited for, and the KeyboardInterrupt goes on to :func:`setlab.cli.main`.
    So the server has ended, or never started, when this function ends: only then may the
    caller close ``sock``.

    The waits are timed (:data:`WAKE_SECONDS`): a signal interrupts a lock's wait that it finds
    under way, not one that begins just after it (past Python's last look for signals), so a
    Ctrl-C landing just before an untimed ``join`` went unnoticed until the server ended, that
    is never (one stop in 150 at delays of 0 to 6 ms after the address).
    """
    failures: list[BaseException] = []

    def run() -> None:
        try:
            server.run(sockets=[sock])
        except BaseException as error:  # handed to the main thread below
            failures.append(error)

    thread = threading.Thread(target=run, name="setlab-serve", daemon=True)
    try:
        # Thread.start waits for the new thread to be scheduled (a while, on a busy machine); a
        # KeyboardInterrupt in that wait would leave a thread about to run but not yet alive,
        # which the finally below could not know to wait for: the server then started on a
        # closed socket (a traceback after the stop line, or a hang). So Ctrl-C waits for start.
        with ctrl_c_held():
            thread.start()  # from here on, until run() ends, thread.is_alive()
        while thread.is_alive():
            thread.join(WAKE_SECONDS)
    finally:
        server.should_exit = True
        while thread.is_alive():
            try:
                thread.join(WAKE_SECONDS)
            except KeyboardInterrupt:
                server.force_exit = True
    if failures:
        raise failures[0]
