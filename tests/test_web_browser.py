"""Seats on phones in a real browser (issue 15): headless Chromium, driven over the
DevTools protocol, opens a seat's page at phone and at tablet size, taps a bot,
pre-measures a weapon against a target, plans a move and saves a screenshot.

Skipped, with the reason shown, when Debian's `chromium` is not installed
(`apt-get install -y chromium`). Only the loopback address is used. Set
BOTTISOTA_SCREENSHOTS=DIR to keep the screenshots (the README's picture).
"""
from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
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


def play_a_seat(tools: DevTools, port: int, size: tuple[int, int], mobile: bool,
                out: Path) -> bytes:
    """Open red's seat, tap red-1, plan 5 cm, pre-measure the Mortar on blue-2."""
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
    # plan: +5 cm, the ghost path comes back from the server
    tools.tap_selector("[data-plan='fwd5']")
    steps = tools.wait("window.bottisota.planned && window.bottisota.planned.steps.length"
                       " && JSON.stringify(window.bottisota.planned.steps)", "a planned move")
    assert json.loads(steps) == [{"forward": 5}]
    assert tools.js("window.bottisota.planned.refusal.rule") == "D18"   # shoot phase: no move
    assert "5" in tools.js("document.getElementById('planinfo').textContent")
    # drag the ghost on by about 2 cm along the facing (east): one longer forward step
    x, y = tools.wait("window.bottisota.screenOfPoint(25, 36)", "the ghost's end")
    scale = tools.js("window.bottisota.view.scale")
    tools.drag((x, y), (x + 2 * scale, y))
    steps = tools.wait("(() => { const p = window.bottisota.planned; return p && p.steps.length"
                       " && p.steps[0].forward > 6 && JSON.stringify(p.steps); })()",
                       "the dragged plan")
    (step,) = json.loads(steps)
    assert 6.5 <= step["forward"] <= 7.5
    # pre-measure the Mortar, then tap blue-2 as its target
    tools.tap_selector("[data-weapon='Mortar']")
    tools.wait("window.bottisota.premeasure && window.bottisota.premeasure.weapon === 'Mortar'",
               "the Mortar's pre-measure")
    x, y = tools.wait("window.bottisota.screenOf('blue-2')", "blue-2 on the table")
    tools.tap(x, y)
    tools.wait("window.bottisota.premeasure.focus === 'blue-2'", "blue-2 aimed at")
    text = tools.js("document.getElementById('measure').textContent")
    assert "blue-2" in text and "%" in text and "blast" in text
    tools.js("document.getElementById('panel').scrollTop = 0; window.scrollTo(0, 0)")
    time.sleep(0.2)
    png = base64.b64decode(tools.call("Page.captureScreenshot", format="png")["data"])
    out.write_bytes(png)
    return png


def _keep(name: str, png: bytes) -> None:
    folder = os.environ.get("BOTTISOTA_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(png)


def test_phone_size_390x844(served, browser, tmp_path):
    hub, port = served
    png = play_a_seat(browser, port, (390, 844), True, tmp_path / "phone.png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 20_000
    assert distinct_colours(png) > 40            # a drawn table, not an empty page
    assert hub.desks["red"].measure["target"] == "blue-2"
    _keep("phone.png", png)


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
                                      "target": "blue-2"})))
    hub.handle(red, parse(json.dumps({"type": "show", "on": True})))
    browser.call("Emulation.setDeviceMetricsOverride", width=1280, height=800,
                 deviceScaleFactor=1, mobile=False)
    browser.call("Page.navigate", url=f"http://127.0.0.1:{port}/s/{TOKENS['table']}")
    browser.wait("window.bottisota && window.bottisota.ready", "the table's hello")
    assert browser.js("window.bottisota.hello.table_seat") is True
    assert browser.js("window.bottisota.shown[0].premeasure.focus") == "blue-2"
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
