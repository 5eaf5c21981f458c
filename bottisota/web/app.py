"""The web application (Starlette): the join page, each seat's page and its
websocket.

- `GET /` is the join page: it says to scan a seat's QR code; it holds nothing
  of the game.
- `GET /s/TOKEN` is a seat's page (HTML with its script and style inline, from
  `bottisota/web/static/`, no build step, no CDN); an unknown token gets the
  join page with 404.
- `WS /ws/TOKEN` is the seat's connection: the server says `hello` (the table,
  the state, the seat's desk as it was left and the log so far), then answers
  each message (`protocol`) and pushes `state` to every seat whenever the game
  or what is shown on the table changes, with the log's new lines (`events`)
  and, to the watcher's seat, the question whether to fire (`overwatch_ask`).

Each connection reads its messages into a short queue and answers them in
order on a worker thread (`Hub.handle`), so the server keeps reading and
writing every phone's socket while one answer is computed or a commit waits for
the table's frame. A drag is answered for its newest position only: a `plan`
(or `premeasure`) still waiting behind the one being answered is replaced by a
newer one, and answered `{"type": "superseded", "re": id}`. Whatever takes the
hub's lock for long (an answer, measuring every desk again) runs on a worker
thread, never on the server's event loop.

Every message is size- and rate-limited; a bad one gets an `error` and the
connection stays. No path, journal or traceback is ever sent: errors are plain
sentences, and the server's own log keeps the details.
"""
from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections import deque
from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from bottisota.core.i18n import _, number, speak_in_this_task, speaking
from bottisota.web.hub import Hub, Seat, error
from bottisota.web.page_words import fill, page_language, words
from bottisota.web.protocol import Message, ProtocolError, RateLimit, parse
from bottisota.web.snapshot import Json

T = TypeVar("T")
log = logging.getLogger("bottisota.web")

POLL_SECONDS = 0.2          # how often the game is checked for changes made at the table
SHOWN_SECONDS = 0.1         # what seats show on the table reaches the others at most this often
RATE = 60.0                 # messages per second a connection may send (burst as many)
WS_MAX_BYTES = 65536        # frames larger than this are refused by the server itself
QUEUE_MIN = 64              # messages waiting for their answer, per connection, at least
LATEST_ONLY = ("plan", "premeasure")   # only the newest waiting one of these is answered
# messages that change a seat's desk (kept once per seat): its other screens are sent it
DESK_CHANGES = frozenset({"select", "premeasure", "plan", "clear", "show", "commit"})
SEND_SECONDS = 5.0          # a message the phone has not taken in this long: it is dropped
OUTBOX = 256                # messages waiting to go to one connection, at most
CLOSE_SECONDS = 1.0         # a dropped connection is told why, if it takes it this soon


def _language(request: Request) -> str:
    return page_language(request.query_params.get("lang"),
                         request.headers.get("accept-language"))


def _static(name: str) -> str:
    return resources.files("bottisota.web").joinpath("static", name).read_text(encoding="utf-8")


def _headers(nonce: str | None = None) -> dict[str, str]:
    csp = "default-src 'none'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; " \
          "form-action 'none'; frame-ancestors 'none'"
    if nonce:
        csp += f"; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'"
    return {"Content-Security-Policy": csp, "Referrer-Policy": "no-referrer",
            "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff"}


class Connection:
    """One open websocket of a seat. What it is sent waits in its own bounded outbox
    and goes out on its own writer task, each message within SEND_SECONDS: a phone
    that stops reading never holds up another seat; it is dropped, with the reason
    in the server's log (and in the close frame, when it still takes one)."""

    def __init__(self, ws: WebSocket, seat: Seat, lang: str | None = None) -> None:
        self.ws, self.seat = ws, seat
        self.lang = lang                  # the phone's language: its answers are in it
        self.told = 0                     # the feed's lines told up to (Hub.pushes)
        self.asked: str | None = None     # the watcher's question last put to it
        self.others = 0                   # the seat's other screens it was told of
        self.outbox: asyncio.Queue[str] = asyncio.Queue(OUTBOX)
        self.dropped: str | None = None        # why the server dropped it
        self.reader: asyncio.Task[None] | None = None    # the task reading it, ended on a drop
        self.writer = asyncio.get_running_loop().create_task(self._write())

    async def send(self, data: dict[str, Any]) -> bool:
        """Queue a message (never waits); False when the connection is gone or dropped."""
        if self.dropped is not None or self.ws.application_state != WebSocketState.CONNECTED:
            return False
        try:
            self.outbox.put_nowait(json.dumps(data, separators=(",", ":")))
        except asyncio.QueueFull:
            self.drop(_("the phone has not taken its last {count} messages").format(
                    count=OUTBOX))
            return False
        return True

    async def _write(self) -> None:
        while True:
            text = await self.outbox.get()
            try:
                await asyncio.wait_for(self.ws.send_text(text), SEND_SECONDS)
            except TimeoutError:
                self.drop(_("the phone took no message for {seconds} s").format(
                        seconds=number(SEND_SECONDS)))
                return
            except (WebSocketDisconnect, RuntimeError, OSError):
                return

    def drop(self, reason: str) -> None:
        """Stop serving this connection (a slow or stuck phone): its reading ends."""
        if self.dropped is not None:
            return
        self.dropped = reason
        log.warning("seat %s's connection dropped: %s", self.seat.name, reason)
        if self.reader is not None:
            self.reader.cancel()

    async def close(self) -> None:
        """The writer stopped; a dropped connection is told why if it still listens."""
        self.writer.cancel()
        if self.dropped is None or self.ws.application_state != WebSocketState.CONNECTED:
            return
        try:
            await asyncio.wait_for(self.ws.close(code=1008, reason=self.dropped[:120]),
                                   CLOSE_SECONDS)
        except (TimeoutError, WebSocketDisconnect, RuntimeError, OSError):
            pass


class PhoneServer:
    """The hub served over HTTP and websockets (`app` is the ASGI application)."""

    def __init__(self, hub: Hub, rate: float = RATE, hosts: set[str] | None = None) -> None:
        self.hub = hub
        self.rate = rate
        self.hosts = hosts          # the names the server answers to (None: any)
        self.connections: set[Connection] = set()
        self._watcher: asyncio.Task[None] | None = None
        self._shown_task: asyncio.Task[None] | None = None
        self._shown_at = 0.0                # when what is shown was last pushed
        self._workers: set[asyncio.Task[None]] = set()    # each connection's answers (kept alive)
        self.joined: set[str] = set()       # seats that have opened their page (the QR codes)
        self.app = Starlette(routes=[
            Route("/", self.join),
            Route("/s/{token}", self.seat_page),
            WebSocketRoute("/ws/{token}", self.socket),
        ])
        self.app.state.joined = self.joined

    # --- pages ----------------------------------------------------------------------

    def _join(self, lang: str, status: int = 200) -> Response:
        nonce = secrets.token_urlsafe(12)
        html = fill(_static("join.html"), lang).replace("{{nonce}}", nonce)
        return HTMLResponse(html, status_code=status, headers=_headers(nonce))

    async def join(self, request: Request) -> Response:
        return self._join(_language(request))

    async def seat_page(self, request: Request) -> Response:
        """A seat's page in its phone's language (the page's toggle, `?lang=`, else the
        browser's Accept-Language, else the table's)."""
        lang = _language(request)
        if self.hub.seat_for(request.path_params["token"]) is None:
            return self._join(lang, 404)
        nonce = secrets.token_urlsafe(12)
        script = _static("phone.js")
        html = (fill(_static("phone.html"), lang).replace("{{style}}", _static("phone.css"))
                .replace("{{words}}", words(script, lang)).replace("{{script}}", script)
                .replace("{{nonce}}", nonce))
        headers = _headers(nonce)
        headers["Content-Language"] = lang
        headers["Vary"] = "Accept-Language"
        return HTMLResponse(html, headers=headers)

    # --- the seat's connection ------------------------------------------------------------

    def _foreign(self, ws: WebSocket) -> tuple[str, str] | None:
        """Why an upgrade does not come from this server's own pages, or None: its Host
        must be a name the server gave out, and a browser's Origin that same host."""
        if self.hosts is None:
            return None
        host = ws.headers.get("host", "")
        name = host.rpartition("]")[0][1:] if host.startswith("[") else host.partition(":")[0]
        if name.lower() not in self.hosts:
            return "Host", host[:80]
        origin = ws.headers.get("origin")
        if origin is not None:
            parts = urlsplit(origin)
            if parts.scheme not in ("http", "https") or parts.netloc.lower() != host.lower():
                return "Origin", origin[:80]
        return None

    async def socket(self, ws: WebSocket) -> None:
        foreign = self._foreign(ws)
        if foreign is not None:
            log.warning("websocket refused: %s %r is not this server's", *foreign)
            await ws.close(code=4403)       # refused before the handshake completes
            return
        seat = self.hub.seat_for(ws.path_params["token"])
        if seat is None:
            await ws.close(code=4403)       # refused before the handshake completes
            return
        await ws.accept()
        # the page says its language (`?lang=`), else the phone's Accept-Language
        lang = page_language(ws.query_params.get("lang"), ws.headers.get("accept-language"))
        speak_in_this_task(lang)      # this task's words, and its answers', in that language
        conn = Connection(ws, seat, lang)
        conn.reader = asyncio.current_task()
        self.connections.add(conn)
        self.joined.add(seat.name)
        self._start_watcher()
        limit = RateLimit(self.rate, self.rate)
        told = -1
        waiting: deque[Message | None] = deque()      # None: the connection closed
        wake = asyncio.Event()
        worker = asyncio.get_running_loop().create_task(self._answer(conn, waiting, wake))
        self._workers.add(worker)
        worker.add_done_callback(self._workers.discard)
        self.hub.join(seat)
        try:
            hello = await self._in(conn, self.hub.hello, seat)
            conn.told = hello["log_rev"]
            await conn.send(hello)
            await self._push(conn)
            await self._tell_screens(seat.name)
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes") or b""
                if not limit.allow():
                    if told < 0 or limit.dropped - told >= 100:
                        told = limit.dropped
                        await conn.send(error(
                                _("too many messages: at most {rate} a second; {dropped} "
                                  "dropped unread").format(
                                    rate=number(self.rate), dropped=limit.dropped)))
                    continue
                try:
                    msg = parse(raw)
                except ProtocolError as err:
                    await conn.send(error(str(err)))
                    continue
                last = waiting[-1] if waiting else None
                if last is not None and msg.type in LATEST_ONLY and last.type == msg.type:
                    stale = waiting.pop()           # a newer drag position: answer it only
                    if stale is not None and stale.id is not None:
                        await conn.send({"type": "superseded", "re": stale.id})
                if len(waiting) >= max(QUEUE_MIN, int(self.rate)):
                    await conn.send(error(_("the referee is busy: message dropped, send it "
                                            "again")))
                    continue
                waiting.append(msg)
                wake.set()
        except WebSocketDisconnect:
            pass
        except asyncio.CancelledError:
            if conn.dropped is None:        # the server stops: not a drop
                raise
            task = asyncio.current_task()
            if task is not None:
                task.uncancel()
        finally:
            conn.reader = None              # a drop from now on has no reading to end
            # the answer under way ends (with what it tells the other seats); the
            # messages still waiting are dropped, as if never read
            waiting.clear()
            waiting.append(None)
            wake.set()
            self.connections.discard(conn)
            self.hub.leave(seat)
            await worker
            await conn.close()
            await self._tell_screens(seat.name)

    async def _answer(self, conn: Connection, waiting: deque[Message | None],
                      wake: asyncio.Event) -> None:
        """A connection's answers, in order, each computed on a worker thread, until
        the connection closed."""
        while True:
            while not waiting:
                wake.clear()
                await wake.wait()
            msg = waiting.popleft()
            if msg is None:
                return
            try:
                answer = await self._in(conn, self.hub.handle, conn.seat, msg)
                for reply in answer.replies:
                    await conn.send(reply)
                if msg.type in DESK_CHANGES:
                    await self._share_desk(conn)
                if answer.moved:
                    await self.broadcast(refreshed=True)
                elif answer.changed:            # only what is shown on the table changed
                    await self._shown_soon()
            except asyncio.CancelledError:
                raise
            except Exception:      # one failed answer must not silence the connection
                log.exception("answering seat %s failed", conn.seat.name)

    async def broadcast(self, refreshed: bool = False) -> None:
        """The state (and what is shown on the table) to every connection; after the
        game changed (`refreshed`), each seat's pre-measure and plan measured again."""
        if not self.connections:
            return
        states: dict[str | None, Json] = {}     # one per language spoken

        async def tell(conn: Connection) -> None:
            with speaking(conn.lang):
                if conn.lang not in states:  # brief: no answer is computed under the lock
                    states[conn.lang] = self.hub.state()
                await conn.send(states[conn.lang])
                await self._push(conn)
                if refreshed:
                    for answer in self.hub.desk_answers(conn.seat):
                        await conn.send(answer)

        await asyncio.gather(*(tell(c) for c in list(self.connections)))

    def _screens(self, seat: str) -> list[Connection]:
        """The open connections of one seat (its phones and tabs)."""
        return [c for c in list(self.connections) if c.seat.name == seat]

    async def _tell_screens(self, seat: str) -> None:
        """Each screen of the seat is told how many others hold the seat too (a second
        phone, not only a second tab of one browser)."""
        screens = self._screens(seat)
        for conn in screens:
            if conn.others != len(screens) - 1:     # told only a change (alone: nothing)
                conn.others = len(screens) - 1
                await conn.send({"type": "screens", "others": conn.others})

    async def _share_desk(self, conn: Connection) -> None:
        """One screen of a seat changed the seat's desk (the server keeps one per
        seat): its other screens are sent the desk, so they show the same."""
        for other in self._screens(conn.seat.name):
            if other is not conn:
                await other.send(await self._in(other, self.hub.desk, conn.seat))

    async def _push(self, conn: Connection) -> None:
        """The feed's lines the connection was not told, and the watcher's question
        when it is put to this seat (once per question)."""
        pushes, conn.told, conn.asked = await self._in(
                conn, self.hub.pushes, conn.seat, conn.told, conn.asked)
        for message in pushes:
            await conn.send(message)

    @staticmethod
    async def _in(conn: Connection, call: Callable[..., T], *args: Any) -> T:
        """The hub's answer for this connection, on a worker thread, in its phone's
        language (the texts, refusals and feed lines; the table keeps its own)."""
        with speaking(conn.lang):
            return await asyncio.to_thread(call, *args)

    async def _shown_soon(self) -> None:
        """A seat's shown work changed (a drag that is shown on the table): the others
        are told at once, then at most once per SHOWN_SECONDS (the last change always
        arrives), not once per update of every seat."""
        if self._shown_task is not None and not self._shown_task.done():
            return                              # a later push is due: it will carry this
        wait = self._shown_at + SHOWN_SECONDS - time.monotonic()
        if wait <= 0:
            self._shown_at = time.monotonic()
            await self.broadcast()
        else:
            self._shown_task = asyncio.get_running_loop().create_task(self._shown_later(wait))

    async def _shown_later(self, wait: float) -> None:
        await asyncio.sleep(wait)
        self._shown_at = time.monotonic()
        try:
            await self.broadcast()
        except Exception:
            log.exception("telling the seats what is shown failed")

    def _start_watcher(self) -> None:
        if self._watcher is None or self._watcher.done():
            self._watcher = asyncio.get_running_loop().create_task(self._watch())

    async def _watch(self) -> None:
        """Tell every seat when the game changed at the table (the view acts too) or a
        robot seat played (while anyone is connected to watch it)."""
        while self.connections:
            await asyncio.sleep(POLL_SECONDS)
            try:
                if self.hub.drive_robots:      # `serve --robot`: robot seats play here
                    await asyncio.to_thread(self.hub.robot_turn)
                if await asyncio.to_thread(self.hub.poll):
                    await self.broadcast(refreshed=True)
            except Exception:      # the watcher must outlive any one bad moment
                log.exception("watching the game failed")


def joined_seats(app: Any) -> frozenset[str]:
    """The seats whose page has connected to this application (`make_app`'s); none for
    any other ASGI application."""
    return frozenset(getattr(getattr(app, "state", None), "joined", ()))


def make_app(hub: Hub, rate: float = RATE, hosts: set[str] | None = None) -> Any:
    """The ASGI application for a hub (tests use it with Starlette's TestClient);
    `hosts`: the names its websockets answer to (None: any)."""
    return PhoneServer(hub, rate, hosts).app
