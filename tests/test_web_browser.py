"""Seats on phones in a real browser (issues 15, 30): headless Chromium, driven over
the DevTools protocol at phone size (390x844, touch): a turn played by taps only
(place, plan, commit, weapon, target, fire) with the controls checked against the
state after every step; the map drawn again when the panel grows; the shared feed,
scores and winner on the other seat's page; the watcher's fire-or-hold prompt; a
held connection; a second tab on a seat; the page in the phone's language.

Skipped, with the reason shown, when Debian's `chromium` is not installed
(`apt-get install -y chromium`). Only the loopback address is used. Set
BOTTISOTA_SCREENSHOTS=DIR to keep the screenshots (the README's picture).
"""
from __future__ import annotations

import base64
import contextlib
import io
import json
import os
import shutil
import socket
import subprocess
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from bottisota.web.hub import Hub
from bottisota.web.server import start_in_thread
from tests.test_web import TOKENS, advance, new_game

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="headless browser test: Debian's chromium is not installed "
                             "(apt-get install -y chromium)")

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--remote-debugging-address=127.0.0.1",
         "--remote-debugging-port=0"]
WAIT = 20.0


class DevTools:
    """A minimal DevTools-protocol client for one page (websockets' sync client)."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self._connection = connect(url, max_size=None, open_timeout=WAIT)
        self.ws = self._connection.__enter__()
        self.next = 0
        self.chromium: Chromium | None = None
        self.target = ""

    def call(self, method: str, **params) -> dict:
        self.next += 1
        mid = self.next
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            msg = json.loads(self.ws.recv(timeout=WAIT))
            if msg.get("id") == mid:
                if "error" in msg:
                    raise AssertionError(f"{method}: {msg['error']}")
                return msg.get("result", {})
        raise AssertionError(f"{method}: no answer")

    def js(self, expression: str):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    def wait(self, expression: str, what: str):
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            value = self.js(expression)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"the page never showed {what} ({expression})")

    def tap(self, x: float, y: float) -> None:
        point = [{"x": x, "y": y}]
        self.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=point)
        self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def drag(self, a: tuple[float, float], b: tuple[float, float], steps: int = 8) -> None:
        self.call("Input.dispatchTouchEvent", type="touchStart",
                  touchPoints=[{"x": a[0], "y": a[1]}])
        for i in range(1, steps + 1):
            x = a[0] + (b[0] - a[0]) * i / steps
            y = a[1] + (b[1] - a[1]) * i / steps
            self.call("Input.dispatchTouchEvent", type="touchMove", touchPoints=[{"x": x, "y": y}])
            time.sleep(0.03)
        self.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])

    def tap_selector(self, selector: str) -> None:
        box = self.wait(f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
                        f" if (!e || e.offsetParent === null) return null; e.scrollIntoView();"
                        f" const r = e.getBoundingClientRect();"
                        f" return [r.left + r.width / 2, r.top + r.height / 2]; }})()", selector)
        self.tap(*box)

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


@pytest.fixture
def served():
    game = advance(new_game())
    hub = Hub(game, dict(TOKENS))
    running = start_in_thread(hub, "127.0.0.1", 0)
    yield hub, running.port
    running.stop()


class Chromium:
    """The headless browser: its DevTools port, and new tabs on it."""

    def __init__(self, port: int) -> None:
        self.port = port

    def page(self) -> DevTools:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/json/new?about:blank",
                                         method="PUT")
        with urllib.request.urlopen(request, timeout=WAIT) as r:
            target = json.load(r)
        tools = DevTools(target["webSocketDebuggerUrl"])
        tools.target = target["id"]
        return tools

    def device(self) -> DevTools:
        """A page in a browser context of its own: another phone (no storage, no
        BroadcastChannel shared with the other pages)."""
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/version",
                                    timeout=WAIT) as r:
            browser = DevTools(json.load(r)["webSocketDebuggerUrl"])
        try:
            context = browser.call("Target.createBrowserContext")["browserContextId"]
            target = browser.call("Target.createTarget", url="about:blank",
                                  browserContextId=context)["targetId"]
        finally:
            browser.close()
        tools = DevTools(f"ws://127.0.0.1:{self.port}/devtools/page/{target}")
        tools.target = target
        return tools

    def close(self, tools: DevTools) -> None:
        with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/json/close/{tools.target}",
                                    timeout=WAIT):
            pass


@pytest.fixture
def browser(tmp_path):
    profile = tmp_path / "profile"
    profile.mkdir()
    proc = subprocess.Popen([CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        port_file = profile / "DevToolsActivePort"
        deadline = time.monotonic() + WAIT
        while not (port_file.is_file() and port_file.read_text().strip()):
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("chromium did not start its DevTools endpoint")
            time.sleep(0.05)
        port = int(port_file.read_text().split()[0])
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=WAIT) as r:
            pages = [t for t in json.load(r) if t.get("type") == "page"]
        tools = DevTools(pages[0]["webSocketDebuggerUrl"])
        tools.chromium = Chromium(port)
        yield tools
        tools.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def distinct_colours(png: bytes) -> int:
    import numpy as np
    import pygame

    surface = pygame.image.load(io.BytesIO(png), "shot.png")
    pixels = pygame.surfarray.array3d(surface).reshape(-1, 3)
    return len(np.unique(pixels[:: max(1, len(pixels) // 200_000)], axis=0))


def _keep(name: str, png: bytes) -> None:
    folder = os.environ.get("BOTTISOTA_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(png)


def screenshot(tools: DevTools) -> bytes:
    tools.js("document.getElementById('panel').scrollTop = 0; window.scrollTo(0, 0)")
    time.sleep(0.3)
    return base64.b64decode(tools.call("Page.captureScreenshot", format="png")["data"])


def phone(tools: DevTools, url: str, accept_language: str | None = None) -> None:
    """Open `url` as a phone: 390x844 CSS px, touch, and the seat's hello awaited."""
    tools.call("Emulation.setDeviceMetricsOverride", width=390, height=844, deviceScaleFactor=2,
               mobile=True)
    tools.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
    if accept_language:
        tools.call("Network.enable")
        tools.call("Network.setUserAgentOverride", userAgent="Mozilla/5.0 (Linux; Android 14) "
                   "Mobile", acceptLanguage=accept_language)
    tools.call("Page.enable")
    tools.call("Page.navigate", url=url)
    tools.wait("window.bottisota && window.bottisota.ready && !window.bottisota.offline",
               "the seat's hello")
    # every message the page sends, for the checks (the socket's own send, wrapped)
    tools.js("window.sent = []; (() => { const send = WebSocket.prototype.send;"
             " WebSocket.prototype.send = function (d) { window.sent.push(JSON.parse(d));"
             " return send.call(this, d); }; })()")


# the controls a player can see now: [id or step, text, disabled]
CONTROLS = ("Array.from(document.querySelectorAll('#actions button, #planbox button'))"
            ".filter((b) => b.offsetParent !== null)"
            ".map((b) => [b.id || b.dataset.plan || '', b.textContent, b.disabled])")


def controls(tools: DevTools) -> dict[str, tuple[str, bool]]:
    return {key or text: (text, disabled) for key, text, disabled in tools.js(CONTROLS)}


def tap_world(tools: DevTools, x: float, y: float) -> None:
    tools.tap(*tools.js(f"window.bottisota.screenOfPoint({x}, {y})"))


def tap_bot(tools: DevTools, bot: str) -> None:
    tools.tap(*tools.wait(f"window.bottisota.screenOf({json.dumps(bot)})", bot))


class SeatClient:
    """Another seat played over its own websocket (as a second phone would)."""

    def __init__(self, port: int, token: str) -> None:
        from websockets.sync.client import connect

        self._connection = connect(f"ws://127.0.0.1:{port}/ws/{token}", open_timeout=WAIT)
        self.ws = self._connection.__enter__()
        self.next = 100
        assert json.loads(self.ws.recv(timeout=WAIT))["type"] == "hello"

    def send(self, message: dict) -> dict:
        self.next += 1
        self.ws.send(json.dumps({**message, "id": self.next}))
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            got = json.loads(self.ws.recv(timeout=WAIT))
            if got.get("re") == self.next and got["type"] not in ("superseded",):
                return got
        raise AssertionError(f"no answer to {message}")

    def close(self) -> None:
        self._connection.__exit__(None, None, None)


def blue_plays(blue: SeatClient, game) -> None:
    """Blue's turn, the plain way: place facing red, move its minimum, pass."""
    bot, due = game.active_bot(), game.expected()
    if due == "place":
        action = {"bot": bot.id, "place": [40, 36, 270]}
    elif due == "move":
        action = {"bot": bot.id,
                  "move": [{"forward": bot.stats.min_move}] if bot.stats.min_move else []}
    else:
        action = {"bot": bot.id, "pass": True}
    got = blue.send({"type": "commit", "action": action})
    assert got["type"] == "done", got


@pytest.fixture
def fresh():
    """Round 1 of the duel, nobody placed; phones may commit."""
    game = new_game()
    hub = Hub(game, dict(TOKENS), commit=True)
    running = start_in_thread(hub, "127.0.0.1", 0)
    yield hub, running.port
    running.stop()


def test_a_turn_played_by_taps_only(fresh, browser):
    """Red's phone places, plans, commits, picks a weapon and a target and fires, by
    taps only; after every step the controls shown are those the state allows."""
    hub, port = fresh
    red = browser
    phone(red, f"http://127.0.0.1:{port}/s/{TOKENS['red']}")
    # placing: the card's stats, the facing in degrees; no "Place here" before a spot
    red.wait("window.bottisota.state.placing && window.bottisota.state.placing.id === 'red-1'",
             "red-1 to place")
    info = red.js("document.getElementById('botinfo').textContent")
    assert "Mortar" in info and "armour" in info
    shown = controls(red)
    assert shown["commit"] == ("Place here", True) and "facing 0°" in red.js(
        "document.getElementById('actions').textContent")
    tap_world(red, 20, 36)
    red.wait("window.bottisota.placeAt", "the spot tapped")
    assert controls(red)["commit"] == ("Place here", False)
    red.tap_selector("#face-right")
    red.tap_selector("#face-right")
    assert "facing 90°" in red.js("document.getElementById('actions').textContent")
    red.tap_selector("#commit")
    red.wait("window.bottisota.state.phase === 'move'", "red-1 placed, its move due")
    bot = hub.game.state.bots["red-1"]
    assert (bot.x, bot.y, bot.facing) == (20, 36, 90)
    # the move: the bot is selected for the player; no plan yet: "Stay"
    red.wait("window.bottisota.selected === 'red-1'", "red-1 selected by the turn")
    shown = controls(red)
    assert shown["commit"] == ("Stay (commit no move)", False)
    assert "fwd5" in shown and "loop" not in shown            # a tracked bot has no loop
    red.tap_selector("[data-plan='fwd5']")
    red.wait("window.bottisota.planned && window.bottisota.planned.legal", "the legal plan")
    assert controls(red)["commit"] == ("Commit move", False)
    # drag the ghost on by about 2 cm along the facing (east): one longer forward step
    x, y = red.js("window.bottisota.screenOfPoint(25, 36)")
    scale = red.js("window.bottisota.view.scale")
    red.drag((x, y), (x + 2 * scale, y))
    steps = red.wait("(() => { const p = window.bottisota.planned; return p && p.steps.length"
                     " && p.steps[0].forward > 6 && JSON.stringify(p.steps); })()",
                     "the dragged plan")
    (step,) = json.loads(steps)
    assert 6.5 <= step["forward"] <= 7.5
    red.wait("document.getElementById('commit').textContent === 'Commit move'"
             " && !document.getElementById('commit').disabled", "Commit move, not Stay")
    red.tap_selector("#commit")
    red.wait("window.bottisota.state.phase === 'shoot'", "the move made")
    assert red.js("window.sent.filter((m) => m.type === 'commit').pop().action.move") == [step]
    assert hub.game.state.bots["red-1"].x == pytest.approx(20 + step["forward"], abs=0.01)
    # round 1's shooting phase: no moving, no overwatch (R7), no service off a station
    shown = controls(red)
    assert "fwd5" not in shown and "overwatch" not in shown and "fire" not in shown
    assert not [k for k in shown if k.startswith("Service")]
    red.tap_selector("#pass")
    red.wait("window.bottisota.state.turn === 'blue'", "blue's turn")
    assert controls(red) == {}                              # not red's turn: nothing to do
    assert not red.js("document.title").startswith("●")
    blue = SeatClient(port, TOKENS["blue"])
    try:
        while hub.game.whose_turn() == "blue":
            blue_plays(blue, hub.game)
        # round 2: "Stay" sends no move
        red.wait("window.bottisota.state.round === 2 && window.bottisota.state.turn === 'red'"
                 " && !!document.getElementById('commit')", "red's round 2")
        assert controls(red)["commit"] == ("Stay (commit no move)", False)
        assert red.js("document.title").startswith("● your turn")   # the turn alert
        red.tap_selector("#commit")
        red.wait("window.bottisota.state.phase === 'shoot'", "red stayed")
        # weapon, target, fire: the Fire button comes with the target, no re-tap
        shown = controls(red)
        assert "overwatch" in shown and "fire" not in shown
        red.tap_selector("[data-weapon='Mortar']")
        red.wait("window.bottisota.premeasure && window.bottisota.premeasure.weapon === 'Mortar'",
                 "the Mortar's pre-measure")
        assert "fire" not in controls(red)
        tap_bot(red, "blue-1")
        red.wait("window.bottisota.premeasure.focus === 'blue-1'", "blue-1 aimed at")
        assert controls(red)["fire"] == ("Fire Mortar at blue-1", False)
        text = red.js("document.getElementById('measure').textContent")
        assert "blue-1" in text and "%" in text and "blast" in text
        png = screenshot(red)
        assert len(png) > 20_000 and distinct_colours(png) > 40
        _keep("phone.png", png)
        shots = len(hub.game.history)
        red.tap_selector("#fire")
        red.wait("window.bottisota.state.turn === 'blue'", "the shot made")
        assert len(hub.game.history) == shots + 1
        assert red.js("window.sent.filter((m) => m.type === 'commit').pop().action") == {
            "bot": "red-1", "shoot": [{"weapon": "Mortar", "target": "blue-1"}]}
        assert "fire" not in controls(red)
    finally:
        blue.close()


def test_the_map_is_drawn_again_on_every_size_change(served, browser):
    """The panel keeps its height whatever it holds (the map never moves under a
    finger); when the page's size changes (the phone turns, the browser's bars come
    and go) the map is drawn for its new size and a tap lands on what is drawn;
    labels are 14 px or more and never on top of each other."""
    hub, port = served
    phone(browser, f"http://127.0.0.1:{port}/s/{TOKENS['red']}")
    before = browser.js("document.getElementById('table').getBoundingClientRect().height")
    tap_bot(browser, "red-1")
    browser.tap_selector("[data-weapon='Mortar']")
    browser.wait("window.bottisota.premeasure", "the pre-measure")
    time.sleep(0.2)
    assert browser.js("document.getElementById('table').getBoundingClientRect().height") == before
    state = browser.js("JSON.stringify(window.bottisota.state)")
    for width, height in ((390, 600), (844, 390), (390, 844), ("a longer turn line", 0)):
        if width == "a longer turn line":             # the header grows: the map shrinks
            browser.js(f"window.bottisota.receive({{type: 'state', state: {{...{state}, turn:"
                       f" 'red '.repeat(20)}}}})")
            assert browser.js("document.getElementById('table').getBoundingClientRect()"
                              ".height") < before - 20
        else:
            browser.call("Emulation.setDeviceMetricsOverride", width=width, height=height,
                         deviceScaleFactor=2, mobile=True)
        time.sleep(0.3)
        size = browser.js("(() => { const c = document.getElementById('table'),"
                          " r = c.getBoundingClientRect(); return [c.width, c.height, r.width,"
                          " r.height, window.bottisota.size]; })()")
        assert size[0] == round(size[2] * 2) and size[1] == round(size[3] * 2), size
        assert size[4] == [size[2], size[3]]
        box = browser.js("(() => { const r = document.getElementById('table')"
                         ".getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];"
                         " })()")
        # the map at Fit is never under the zoom buttons (a bot there could not be read)
        w, h = browser.js("window.bottisota.table.size")
        corners = [browser.js(f"window.bottisota.screenOfPoint({x}, {y})")
                   for x, y in ((0, 0), (w, h))]
        zoom = browser.js("(() => { const r = document.getElementById('zoom')"
                          ".getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom];"
                          " })()")
        right, bottom = corners[1][0], corners[0][1]
        assert right <= zoom[0] or bottom <= zoom[1], (corners, zoom, width)
        for bot in ("red-1", "blue-1"):                      # a tap where it is drawn hits it
            x, y = browser.js(f"window.bottisota.screenOf('{bot}')")
            assert box[0] < x < box[2] and box[1] < y < box[3]   # drawn inside the map
            assert browser.js(f"window.bottisota.botAt({x}, {y})") == bot
    labels = browser.js("window.bottisota.labels")
    assert labels and all(b["px"] >= 14 and b["h"] >= 14 for b in labels)
    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not (a["x"] < b["x"] + b["w"] and b["x"] < a["x"] + a["w"]
                        and a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"]), (a, b)
    texts = {b["text"] for b in labels}
    assert any("red-1" in t for t in texts)
    assert {"pit", "service"} <= texts                       # the features' own labels
    # "My bot" zooms to it, "Fit" shows the table again
    scale = browser.js("window.bottisota.view.scale")
    browser.tap_selector("#me")
    assert browser.js("window.bottisota.view.scale") > scale * 1.5
    browser.tap_selector("#fit")
    assert browser.js("window.bottisota.view.scale") == pytest.approx(scale)


def test_the_other_seat_reads_the_feed_scores_and_winner(served, browser):
    """Blue's page shows what happened in words (the shared feed, kept over a reload by
    the hello's log), the scores and the winner; lines taken back are struck through.
    The messages are those of the session's protocol, fed to the page."""
    hub, port = served
    phone(browser, f"http://127.0.0.1:{port}/s/{TOKENS['blue']}")
    lines = [{"seq": 1, "text": "red-1 fires the Mortar at blue-1: rolls 5, needs 4: HIT",
              "undone": False},
             {"seq": 2, "text": "blue-1 takes 1 damage point (red-1's Mortar)", "undone": False}]
    browser.js(f"window.bottisota.receive({json.dumps({'type': 'events', 'lines': lines})})")
    log = browser.js("document.getElementById('log').textContent")
    assert "HIT" in log and "takes 1 damage point" in log
    browser.js("window.bottisota.receive({type: 'events', lines: [{seq: 2, text: "
               "'blue-1 takes 1 damage point', undone: true}]})")
    assert browser.js("document.querySelector('#log li.undone').textContent").startswith("blue-1")
    # a reload: the hello's log is the feed again
    hello = browser.js("JSON.stringify(window.bottisota.hello)")
    browser.js(f"window.bottisota.receive({{...{hello}, log: {json.dumps(lines)}}})")
    assert browser.js("document.querySelectorAll('#log li').length") == 2
    # scores, the table waiting for a watcher, then the winner
    state = browser.js("JSON.stringify(window.bottisota.state)")
    waiting = {"kind": "overwatch", "seat": "blue",
               "text": "waiting for blue: blue-1 may fire at red-1 (overwatch)"}
    browser.js(f"window.bottisota.receive({{type: 'state', state: {{...{state}, scores: "
               f"{{red: 3, blue: 1}}, waiting: {json.dumps(waiting)}, winner: null}}}})")
    assert browser.js("document.getElementById('scores').textContent") == "red 3blue 1"
    assert browser.js("document.getElementById('waiting').textContent") == waiting["text"]
    assert not browser.js("document.getElementById('waiting').hidden")
    winner = {"text": "red wins with 5 points", "players": ["red"]}
    browser.js(f"window.bottisota.receive({{type: 'state', state: {{...{state}, over: true, "
               f"scores: {{red: 5, blue: 1}}, waiting: null, winner: {json.dumps(winner)}}}}})")
    browser.wait("!document.getElementById('winner').hidden", "the winner")
    assert "red wins with 5 points" in browser.js("document.getElementById('winner').textContent")
    assert browser.js("document.getElementById('waiting').hidden")
    png = screenshot(browser)
    _keep("phone-feed.png", png)


def test_the_watcher_answers_on_its_phone(served, browser):
    """The watcher's phone asks fire or hold with a countdown; the answer is sent as
    `overwatch_answer`; unanswered, the prompt goes when the time is out (hold)."""
    hub, port = served
    phone(browser, f"http://127.0.0.1:{port}/s/{TOKENS['blue']}")
    ask = {"type": "overwatch_ask", "ask": 7, "watcher": "blue-1", "mover": "red-1",
           "weapons": ["Tractor beam"], "seconds": 30,
           "text": "red-1 moves through blue-1's overwatch: fire or hold?"}
    browser.js(f"window.bottisota.receive({json.dumps(ask)})")
    browser.wait("!document.getElementById('prompt').hidden", "the watcher's prompt")
    text = browser.js("document.getElementById('prompt').textContent")
    assert "red-1 moves within blue-1's overwatch: fire or hold?" in text
    assert "Tractor beam" in text and "30 s left" in text
    time.sleep(1.3)
    assert "29 s left" in browser.js("document.getElementById('prompt').textContent") or \
        "28 s left" in browser.js("document.getElementById('prompt').textContent")
    png = screenshot(browser)
    _keep("phone-watcher.png", png)
    browser.tap_selector("#ow-fire")
    browser.wait("document.getElementById('prompt').hidden", "the prompt answered")
    sent = browser.js("window.sent.filter((m) => m.type === 'overwatch_answer')")
    assert [(m["ask"], m["fire"]) for m in sent] == [(7, True)]
    # a second question, left to time out: the prompt goes, nothing is sent (hold)
    browser.js(f"window.bottisota.receive({json.dumps({**ask, 'ask': 8, 'seconds': 1})})")
    browser.wait("!document.getElementById('prompt').hidden", "the second prompt")
    browser.wait("document.getElementById('prompt').hidden", "the prompt timed out")
    assert len(browser.js("window.sent.filter((m) => m.type === 'overwatch_answer')")) == 1


class Relay:
    """A TCP relay between the browser and the server whose traffic can be held (the
    connection stays open, nothing passes), as a network that stalls."""

    def __init__(self, port: int) -> None:
        self.upstream = port
        self.held = threading.Event()
        self.server = socket.create_server(("127.0.0.1", 0))
        self.port = self.server.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _addr = self.server.accept()
            except OSError:
                return
            upstream = socket.create_connection(("127.0.0.1", self.upstream))
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                while self.held.is_set():
                    time.sleep(0.02)
                b.sendall(data)
        except OSError:
            pass
        finally:
            for s in (a, b):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.server.close()


def test_a_held_connection_says_so_and_disables_the_controls(served, browser):
    """The socket is held for 10 s: within 5 s the page says so and every control is
    off (a tap does nothing); when traffic flows again, the page is back by itself."""
    hub, port = served
    relay = Relay(port)
    try:
        phone(browser, f"http://127.0.0.1:{relay.port}/s/{TOKENS['red']}")
        tap_bot(browser, "red-1")
        browser.wait("window.bottisota.selected === 'red-1' && !!document.querySelector"
                     "(\"[data-weapon='Mortar']\")", "red-1's card")
        assert not browser.js("document.querySelector(\"[data-weapon='Mortar']\").disabled")
        relay.held.set()
        held = time.monotonic()
        browser.wait("!document.getElementById('banner').hidden", "the stale banner")
        assert time.monotonic() - held <= 5.0
        assert "no answer from the referee" in browser.js(
            "document.getElementById('banner').textContent")
        assert browser.js("Array.from(document.querySelectorAll('#panel button'))"
                          ".every((b) => b.disabled)")
        tap_bot(browser, "blue-1")                            # ignored while offline
        assert browser.js("window.bottisota.selected") == "red-1"
        time.sleep(max(0.0, 10.0 - (time.monotonic() - held)))
        assert not browser.js("document.getElementById('banner').hidden")
        relay.held.clear()
        browser.wait("document.getElementById('banner').hidden && !document.querySelector"
                     "(\"[data-weapon='Mortar']\").disabled", "the page back")
        tap_bot(browser, "blue-1")
        browser.wait("window.bottisota.selected === 'blue-1'", "taps work again")
    finally:
        relay.close()


@pytest.mark.parametrize("opened", ["tab", "phone"])
def test_a_second_screen_on_a_seat_is_told_and_kept_in_step(served, browser, opened):
    """A second tab of one browser, or a second phone (a browser context that shares
    nothing, so only the server ties them): each screen says the other is there, a
    pre-measure made on one shows on the other, and when one goes the notice goes."""
    hub, port = served
    url = f"http://127.0.0.1:{port}/s/{TOKENS['red']}"
    phone(browser, url)
    other = browser.chromium.page() if opened == "tab" else browser.chromium.device()
    try:
        phone(other, url)
        for screen in (browser, other):
            screen.wait("!document.getElementById('tabs').hidden", "the other screen's notice")
            assert "1 other screen" in screen.js("document.getElementById('tabs').textContent")
        browser.call("Page.bringToFront")
        tap_bot(browser, "red-1")
        browser.tap_selector("[data-weapon='Mortar']")
        other.wait("window.bottisota.premeasure && window.bottisota.premeasure.weapon === "
                   "'Mortar' && window.bottisota.selected === 'red-1'", "the same pre-measure")
        assert "Mortar" in other.js("document.getElementById('measure').textContent")
    finally:
        other.close()
        browser.chromium.close(other)
    browser.wait("document.getElementById('tabs').hidden", "the notice gone with the screen")


def test_the_page_speaks_the_phones_language(served, browser):
    """A Finnish browser on an English table gets the page in Finnish, plan steps and
    map words too; the toggle switches it to English."""
    hub, port = served
    from bottisota.core.i18n import language

    assert language() == "en"
    phone(browser, f"http://127.0.0.1:{port}/s/{TOKENS['blue']}",
          accept_language="fi-FI,fi;q=0.9")
    assert browser.js("document.documentElement.lang") == "fi"
    assert browser.js("document.getElementById('hint').textContent") == \
        "Valitse botti napauttamalla."
    assert browser.js("document.getElementById('lang').textContent") == "English"
    assert browser.js("document.getElementById('turn').textContent") == \
        "Kierros 2 – red: ampuminen (red-1)"
    tap_bot(browser, "red-1")
    browser.tap_selector("[data-weapon='Mortar']")
    browser.wait("window.bottisota.premeasure", "the pre-measure")
    tap_bot(browser, "blue-1")
    browser.wait("window.bottisota.premeasure.focus === 'blue-1'", "blue-1 aimed at")
    time.sleep(0.2)
    assert "räjähdys" in {b["text"] for b in browser.js("window.bottisota.labels")}
    # the page's own numbers as the server's: "50 %" in Finnish (a no-break space)
    measure = browser.js("document.getElementById('measure').textContent")
    assert "50\u00a0%" in measure and "50%" not in measure, measure
    _keep("phone-fi.png", screenshot(browser))
    browser.tap_selector("#lang")
    browser.wait("window.bottisota && window.bottisota.ready && document.documentElement.lang"
                 " === 'en'", "the page in English")
    assert "lang=en" in browser.js("location.search")
    assert browser.js("document.getElementById('lang').textContent") == "suomi"


def play_a_seat(tools: DevTools, port: int, size: tuple[int, int], mobile: bool,
                out: Path) -> bytes:
    """Open red's seat, tap red-1, pre-measure the Mortar on blue-1."""
    w, h = size
    tools.call("Emulation.setDeviceMetricsOverride", width=w, height=h, deviceScaleFactor=2,
               mobile=mobile)
    tools.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
    tools.call("Page.enable")
    tools.call("Page.navigate", url=f"http://127.0.0.1:{port}/s/{TOKENS['red']}")
    tools.wait("window.bottisota && window.bottisota.ready", "the seat's hello")
    # tap the own bot on the table
    x, y = tools.wait("window.bottisota.screenOf('red-1')", "red-1 on the table")
    tools.tap(x, y)
    tools.wait("window.bottisota.selected === 'red-1'", "red-1 selected")
    # pre-measure the Mortar, then tap blue-1 as its target
    tools.tap_selector("[data-weapon='Mortar']")
    tools.wait("window.bottisota.premeasure && window.bottisota.premeasure.weapon === 'Mortar'",
               "the Mortar's pre-measure")
    x, y = tools.wait("window.bottisota.screenOf('blue-1')", "blue-1 on the table")
    tools.tap(x, y)
    tools.wait("window.bottisota.premeasure.focus === 'blue-1'", "blue-1 aimed at")
    text = tools.js("document.getElementById('measure').textContent")
    assert "blue-1" in text and "%" in text and "blast" in text
    tools.js("document.getElementById('panel').scrollTop = 0; window.scrollTo(0, 0)")
    time.sleep(0.2)
    png = base64.b64decode(tools.call("Page.captureScreenshot", format="png")["data"])
    out.write_bytes(png)
    return png


def test_phone_size_390x844(served, browser, tmp_path):
    hub, port = served
    png = play_a_seat(browser, port, (390, 844), True, tmp_path / "phone.png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    assert distinct_colours(png) > 40            # a drawn table, not an empty page
    assert hub.desks["red"].measure["target"] == "blue-1"


def test_tablet_size(served, browser, tmp_path):
    hub, port = served
    png = play_a_seat(browser, port, (1180, 820), True, tmp_path / "tablet.png")
    assert len(png) > 20_000 and distinct_colours(png) > 40
    _keep("tablet.png", png)


def test_the_table_seat_shows_what_a_phone_pushed(served, browser, tmp_path):
    """A browser as the table (`serve`): red's pre-measure, pushed with "Show on table",
    is drawn there for everyone."""
    from bottisota.web.protocol import parse

    hub, port = served
    red = hub.seats["red"]
    hub.handle(red, parse(json.dumps({"type": "premeasure", "bot": "red-1", "weapon": "Mortar",
                                      "target": "blue-1"})))
    hub.handle(red, parse(json.dumps({"type": "show", "on": True})))
    browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=800,
                 deviceScaleFactor=1, mobile=False)
    browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/s/{TOKENS['table']}")
    browser.wait("window.bottisota && window.bottisota.ready", "the table's hello")
    assert browser.js("window.bottisota.hello.table_seat") is True
    assert browser.js("window.bottisota.shown[0].premeasure.focus") == "blue-1"
    time.sleep(0.2)
    png = base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"])
    assert len(png) > 20_000 and distinct_colours(png) > 40
    _keep("phone-table.png", png)


def test_the_page_rejoins_by_itself_when_the_server_comes_back(browser, tmp_path):
    """The server stops (a crash, a restart with --resume): the page says so, and
    reconnects to the new server on the same link, its pre-measure back."""
    from bottisota.play.journal import resume
    from bottisota.web.tokens import seat_tokens

    journal = tmp_path / "game.jsonl"
    game = advance(new_game(str(journal)))
    tokens = seat_tokens(journal, ["red", "blue"])
    first = start_in_thread(Hub(game, tokens), "127.0.0.1", 0)
    port = first.port
    browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/s/{tokens['red']}")
    browser.wait("window.bottisota && window.bottisota.ready", "the seat's hello")
    x, y = browser.wait("window.bottisota.screenOf('red-1')", "red-1")
    browser.tap(x, y)
    browser.tap_selector("[data-weapon='Mortar']")
    browser.wait("window.bottisota.premeasure", "the pre-measure")
    first.stop()
    game.journal.close()          # the old server's process is gone: its journal lock with it
    browser.wait("!document.getElementById('banner').hidden", "the reconnecting banner")
    assert "reconnecting" in browser.js("document.getElementById('banner').textContent")
    # a new server resumes the journal with the same tokens, on the same port
    hub = Hub(resume(journal), seat_tokens(journal, ["red", "blue"]))
    browser.js("window.bottisota.ready = false")
    second = start_in_thread(hub, "127.0.0.1", port)
    try:
        browser.wait("window.bottisota.ready && document.getElementById('banner').hidden",
                     "the page back on the new server")
        browser.wait("window.bottisota.premeasure", "the pre-measure asked again")
        assert browser.js("window.bottisota.premeasure.weapon") == "Mortar"
        assert hub.desks["red"].measure["weapon"] == "Mortar"     # the new server has it
    finally:
        second.stop()


def test_pinch_zooms_and_a_drag_pans_the_table(served, browser):
    hub, port = served
    browser.call("Emulation.setDeviceMetricsOverride", width=390, height=844,
                 deviceScaleFactor=2, mobile=True)
    browser.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
    browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/s/{TOKENS['blue']}")
    browser.wait("window.bottisota && window.bottisota.ready", "the seat's hello")
    before = browser.js("window.bottisota.view.scale")
    cx, cy = browser.js("window.bottisota.screenOfPoint(30, 30)")
    points = lambda d: [{"x": cx - d, "y": cy, "id": 1}, {"x": cx + d, "y": cy, "id": 2}]  # noqa: E731
    browser.call("Input.dispatchTouchEvent", type="touchStart", touchPoints=points(20))
    for d in range(30, 90, 10):
        browser.call("Input.dispatchTouchEvent", type="touchMove", touchPoints=points(d))
        time.sleep(0.02)
    browser.call("Input.dispatchTouchEvent", type="touchEnd", touchPoints=[])
    after = browser.js("window.bottisota.view.scale")
    assert after > before * 2.5                      # spread 40 px -> 160 px: about 4x
    # the table's centre stays under the fingers
    x, y = browser.js("window.bottisota.screenOfPoint(30, 30)")
    assert abs(x - cx) < 3 and abs(y - cy) < 3
    # one finger drags the table (on empty floor, away from every bot)
    browser.drag((cx, cy + 150), (cx - 60, cy + 150))
    x2, _y2 = browser.js("window.bottisota.screenOfPoint(30, 30)")
    assert abs((x2 - x) + 60) < 3


def test_play_with_phones_a_phone_beside_the_table_view(browser, tmp_path, video):
    """`play --phones`: red's phone (390x844) pre-measures and plans and shows it on the
    table; the table view (pygame, under the server's lock) draws it with the seats'
    links. One picture of both, the README's."""
    import pygame

    from bottisota.view.app import TableApp
    from bottisota.view.phone_links import PhoneTable
    from bottisota.web.server import Phones
    from bottisota.web.table_link import seat_links

    game = advance(new_game())
    hub = Hub(game, dict(TOKENS))
    running = start_in_thread(hub, "127.0.0.1", 0)
    try:
        links = seat_links({"red": TOKENS["red"], "blue": TOKENS["blue"]}, "192.168.1.20",
                           running.port)
        app = TableApp(game, (1600, 900), robot_pace=0.0)
        app.phones = PhoneTable(Phones(hub, running, links))
        phone = play_a_seat(browser, running.port, (390, 844), True, tmp_path / "phone.png")
        browser.tap_selector("#show")
        browser.wait("document.getElementById('show').getAttribute('aria-pressed') === 'true'",
                     "shown on the table")
        time.sleep(0.2)
        phone = base64.b64decode(browser.call("Page.captureScreenshot", format="png")["data"])
        assert hub.shown_work() and hub.shown_work()[0][0] == "red"
        table = app.phones.frame(app, 1 / 60).copy()
    finally:
        running.stop()
    shot = pygame.image.load(io.BytesIO(phone), "phone.png")
    h = table.get_height()
    small = pygame.transform.smoothscale(shot, (round(shot.get_width() * h / shot.get_height()), h))
    both = pygame.Surface((table.get_width() + 24 + small.get_width(), h))
    both.fill((24, 26, 30))
    both.blit(small, (0, 0))
    both.blit(table, (small.get_width() + 24, 0))
    out = tmp_path / "phones-and-table.png"
    pygame.image.save(both, str(out))
    assert distinct_colours(out.read_bytes()) > 40
    _keep("phones-and-table.png", out.read_bytes())



def test_two_phones_play_to_the_end_with_the_feed_and_the_watchers_answer(browser):
    """Red plays by taps on its phone, blue on another phone of the table's network:
    blue's page reads red's shot in words and the scores; when red moves within
    blue-1's overwatch (R23) blue's phone asks, and holds; after round 3 (the house's
    round limit) both pages show the winner."""
    from bottisota.engine.game import Game
    from bottisota.formats.content import arenas_dir
    from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue

    rules = bundled_rules()
    cards, mods = load_catalogue()
    game = Game.new(load_arena(arenas_dir() / "duel.yaml", rules), rules, cards, mods,
                    ["red", "blue"], seed=2, round_limit=3)
    hub = Hub(game, dict(TOKENS), commit=True)
    running = start_in_thread(hub, "127.0.0.1", 0)
    port = running.port
    red = browser
    blue_page = browser.chromium.page()
    blue = None
    try:
        phone(blue_page, f"http://127.0.0.1:{port}/s/{TOKENS['blue']}")
        red.call("Page.bringToFront")
        phone(red, f"http://127.0.0.1:{port}/s/{TOKENS['red']}")
        tap_world(red, 20, 36)
        red.tap_selector("#face-right")
        red.tap_selector("#face-right")
        red.tap_selector("#commit")                                   # placed
        red.wait("window.bottisota.state.phase === 'move' && !!document.getElementById"
                 "('commit')", "red's move")
        red.tap_selector("#commit")                                   # stays
        red.wait("window.bottisota.state.phase === 'shoot' && !!document.getElementById"
                 "('pass')", "red's shooting phase")
        red.tap_selector("#pass")
        blue = SeatClient(port, TOKENS["blue"])
        while hub.game.whose_turn() == "blue":
            blue_plays(blue, hub.game)
        # round 2: red stays and fires its Mortar at blue-1
        red.wait("window.bottisota.state.round === 2 && !!document.getElementById('commit')",
                 "red's round 2")
        red.tap_selector("#commit")
        red.wait("!!document.querySelector(\"[data-weapon='Mortar']\")", "the weapons")
        red.tap_selector("[data-weapon='Mortar']")
        red.wait("window.bottisota.premeasure && window.bottisota.premeasure.weapon === 'Mortar'",
                 "the Mortar's pre-measure")
        tap_bot(red, "blue-1")
        red.wait("!!document.getElementById('fire')", "the Fire button")
        red.tap_selector("#fire")
        red.wait("window.bottisota.state.turn === 'blue'", "the shot made")
        # blue's page reads it in words, with the scores
        blue_page.wait("document.getElementById('log').textContent.includes('Mortar')",
                       "red's shot in blue's feed")
        scores = hub.game.state.scores
        assert blue_page.js("document.getElementById('scores').textContent") == \
            f"red {scores.get('red', 0)}blue {scores.get('blue', 0)}"
        blue_page.call("Page.bringToFront")
        blue_page.js("document.getElementById('log').scrollIntoView()")
        time.sleep(0.3)
        _keep("phone-feed.png", base64.b64decode(
            blue_page.call("Page.captureScreenshot", format="png")["data"]))
        red.call("Page.bringToFront")
        assert blue.send({"type": "commit", "action": {"bot": "blue-1", "move": []}})[
            "type"] == "done"
        assert blue.send({"type": "commit", "action": {"bot": "blue-1", "overwatch": True}})[
            "type"] == "done"
        # round 3: red moves 2 cm within blue-1's overwatch: blue's phone asks
        red.wait("window.bottisota.state.round === 3 && !!document.getElementById('commit')",
                 "red's round 3")
        red.tap_selector("[data-plan='fwd1']")
        red.tap_selector("[data-plan='fwd1']")
        red.wait("window.bottisota.planned && window.bottisota.planned.legal && "
                 "window.bottisota.planned.offers.length", "the plan with its overwatch offer")
        red.tap_selector("#commit")
        red.wait("!document.getElementById('waiting').hidden", "the table waiting for blue")
        blue_page.call("Page.bringToFront")
        blue_page.wait("!document.getElementById('prompt').hidden", "blue's question")
        assert "blue-1" in blue_page.js("document.getElementById('prompt').textContent")
        png = screenshot(blue_page)
        _keep("phone-watcher.png", png)
        blue_page.tap_selector("#ow-hold")
        blue_page.wait("document.getElementById('prompt').hidden", "the answer taken")
        red.wait("window.bottisota.state.phase === 'shoot'", "red's move made")
        assert hub.game.state.bots["red-1"].x == pytest.approx(22, abs=0.01)
        red.call("Page.bringToFront")
        red.tap_selector("#pass")
        while not hub.game.state.over and hub.game.whose_turn() == "blue":
            blue_plays(blue, hub.game)
        for page in (red, blue_page):
            page.wait("!document.getElementById('winner').hidden", "the winner")
            assert page.js("document.getElementById('winner').textContent").startswith(
                "Game over")
        blue_page.call("Page.bringToFront")
        _keep("phone-winner.png", screenshot(blue_page))
    finally:
        if blue is not None:
            blue.close()
        blue_page.close()
        running.stop()
