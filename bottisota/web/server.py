"""Running the phone server with uvicorn: in the foreground (`bottisota serve`) or
on a background thread beside the pygame table (`play --phones`, the browser
tests).

The port is bound first (`bind`), before any journal, seats file or link exists:
a taken port is one message (`BindError`) and nothing is left behind; the links
are printed only once the server can accept their connections. The server
answers only under the names it gives out (`own_names`: its links' host, the
address it is bound to, this machine's loopback names): a page elsewhere that
renames itself (DNS rebinding) or opens a websocket from its own origin is refused.
"""
from __future__ import annotations

import socket
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import uvicorn

from bottisota.core.i18n import _
from bottisota.engine.game import Game
from bottisota.viewmodel.game_session import RobotPlayer, Session
from bottisota.web.app import WS_MAX_BYTES, make_app
from bottisota.web.hub import Hub
from bottisota.web.table_link import SeatLink, public_host, seat_links
from bottisota.web.tokens import seat_tokens

STARTUP_SECONDS = 10.0
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")


class BindError(OSError):
    """The server's address cannot be had (a port in use, an address not of this
    machine); the message says which and what to do."""


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on host:port (port 0: any free one), or BindError."""
    try:
        infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
        family, kind, proto, _name, address = infos[0]
        sock = socket.socket(family, kind, proto)
    except OSError as err:
        raise BindError(_("cannot listen on {host}:{port}: {why}").format(
                host=host, port=port, why=err.strerror or err)) from None
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
        sock.setblocking(False)
    except OSError as err:
        sock.close()
        raise BindError(_("cannot listen on {host}:{port}: {why} (is another referee or "
                          "program using the port? choose another with --port)").format(
                host=host, port=port, why=err.strerror or err)) from None
    return sock


def own_names(host: str) -> set[str]:
    """The host names this server answers to: the address it is bound to, the one its
    links carry, this machine's name and loopback names."""
    names = {host, public_host(host), *LOOPBACK_NAMES}
    try:
        names.add(socket.gethostname())
    except OSError:
        pass
    if host in ("0.0.0.0", "::", ""):         # every interface: each of its addresses
        try:
            names.update(str(info[4][0]) for info in socket.getaddrinfo(socket.gethostname(), None))
        except OSError:
            pass
    return {n.lower() for n in names if n}


def listening_on(host: str) -> str:
    """Which interfaces a server bound to `host` listens on, in words."""
    if host in ("0.0.0.0", "::", ""):
        return _("listening on every network interface of this machine ({host}): phones on "
                 "the local network can join").format(host=host or "0.0.0.0")
    if host in LOOPBACK_NAMES:
        return _("listening on this machine only ({host}); --host 0.0.0.0 lets phones on "
                 "the network join").format(host=host)
    return _("listening on {host} only").format(host=host)


def config(hub: Hub, host: str, port: int, rate: float | None = None,
           hosts: set[str] | None = None) -> uvicorn.Config:
    app = make_app(hub, hosts=hosts) if rate is None else make_app(hub, rate, hosts=hosts)
    return uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                          ws="websockets-sansio", ws_max_size=WS_MAX_BYTES, lifespan="off",
                          server_header=False)


def serve_forever(hub: Hub, host: str, port: int, sock: socket.socket | None = None) -> None:
    """Serve until interrupted (Ctrl+C), on `sock` when it is bound already."""
    server = uvicorn.Server(config(hub, host, port, hosts=own_names(host)))
    server.run(sockets=[sock] if sock is not None else None)


@dataclass
class Running:
    """A server on a background thread; `port` is the one it really listens on."""

    server: uvicorn.Server
    thread: threading.Thread
    port: int

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=5)


def start_in_thread(hub: Hub, host: str = "127.0.0.1", port: int = 0,
                    rate: float | None = None, sock: socket.socket | None = None) -> Running:
    """Start serving on a daemon thread and wait until it listens (port 0: any free port;
    `sock`: bound already). BindError when the port cannot be had."""
    sock = sock if sock is not None else bind(host, port)
    port = sock.getsockname()[1]
    server = uvicorn.Server(config(hub, host, port, rate, hosts=own_names(host)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]},
                              name="bottisota-phones", daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise OSError(
                    _("the phone server could not listen on {host}:{port}").format(
                        host=host, port=port))
        time.sleep(0.02)
    sockets: list[Any] = [s for srv in server.servers for s in srv.sockets]  # Any: uvicorn's
    return Running(server, thread, sockets[0].getsockname()[1] if sockets else port)


@dataclass
class Phones:
    """The phone server beside the table (`play --phones`): the hub (its `lock` is held
    by the table while it changes the game; `shown()` is what seats pushed to the
    table), the running server and each seat's link with its QR code."""

    hub: Hub
    running: Running
    links: list[SeatLink]

    def stop(self) -> None:
        self.running.stop()


def start_phones(game: Game, journal: str | None, host: str = "0.0.0.0", port: int = 8765,
                 commit: bool = False, physical: bool = False,
                 robots: Mapping[str, RobotPlayer] | None = None, session: Session | None = None
                 ) -> Phones:
    """Serve a running game to the phones on a background thread: the seats' tokens
    are those beside the journal (a resumed game keeps its links), else new ones.
    Robot seats (`robots`) are played by the table view, not by the server; they get
    no link, and their watchers answer a phone's move by their overwatch table.
    `session`: the table view's own (the table and the phones act through one)."""
    sock = bind(host, port)         # first: a taken port leaves no seats file
    tokens = seat_tokens(journal, list(game.state.players), robots=list(robots or {}))
    hub = Hub(game, tokens, commit=commit, physical=physical, robots=robots, session=session)
    running = start_in_thread(hub, host, port, sock=sock)
    humans = {name: tok for name, tok in tokens.items() if name not in (robots or {})}
    return Phones(hub, running, seat_links(humans, public_host(host), running.port))
