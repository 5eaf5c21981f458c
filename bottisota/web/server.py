"""Running the phone server with uvicorn: in the foreground (`bottisota serve`) or
on a background thread beside the pygame table (`play --phones`, the browser
tests)."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import uvicorn

from bottisota.core.i18n import _
from bottisota.viewmodel.game_session import Session
from bottisota.web.app import WS_MAX_BYTES, make_app
from bottisota.web.hub import Hub
from bottisota.web.table_link import public_host, seat_links
from bottisota.web.tokens import seat_tokens

STARTUP_SECONDS = 10.0


def config(hub: Hub, host: str, port: int, rate: float | None = None) -> uvicorn.Config:
    app = make_app(hub) if rate is None else make_app(hub, rate)
    return uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False,
                          ws="websockets-sansio", ws_max_size=WS_MAX_BYTES, lifespan="off",
                          server_header=False)


def serve_forever(hub: Hub, host: str, port: int) -> None:
    """Serve until interrupted (Ctrl+C)."""
    uvicorn.Server(config(hub, host, port)).run()


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
                    rate: float | None = None) -> Running:
    """Start serving on a daemon thread and wait until it listens (port 0: any free port)."""
    server = uvicorn.Server(config(hub, host, port, rate))
    thread = threading.Thread(target=server.run, name="bottisota-phones", daemon=True)
    thread.start()
    deadline = time.monotonic() + STARTUP_SECONDS
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise OSError(
                    _("the phone server could not listen on {host}:{port}").format(
                        host=host, port=port))
        time.sleep(0.02)
    sockets: list[Any] = [s for srv in server.servers for s in srv.sockets]
    return Running(server, thread, sockets[0].getsockname()[1] if sockets else port)


@dataclass
class Phones:
    """The phone server beside the table (`play --phones`): the hub (its `lock` is held
    by the table while it changes the game; `shown()` is what seats pushed to the
    table), the running server and each seat's link with its QR code."""

    hub: Hub
    running: Running
    links: list[Any]

    def stop(self) -> None:
        self.running.stop()


def start_phones(game: Any, journal: str | None, host: str = "0.0.0.0", port: int = 8765,
                 commit: bool = False, physical: bool = False,
                 robots: dict[str, Any] | None = None, session: Session | None = None
                 ) -> Phones:
    """Serve a running game to the phones on a background thread: the seats' tokens
    are those beside the journal (a resumed game keeps its links), else new ones.
    Robot seats (`robots`) are played by the table view, not by the server; they get
    no link, and their watchers answer a phone's move by their overwatch table.
    `session`: the table view's own (the table and the phones act through one)."""
    tokens = seat_tokens(journal, list(game.state.players))
    hub = Hub(game, tokens, commit=commit, physical=physical, robots=robots, session=session)
    running = start_in_thread(hub, host, port)
    humans = {name: tok for name, tok in tokens.items() if name not in (robots or {})}
    return Phones(hub, running, seat_links(humans, public_host(host), running.port))
