"""Phones benchmark (issue 15): round trips over a real localhost websocket, and the
projector's frames while eight phones drag plans.

    python bench/phones.py [--seconds 5] [--phones 8] [--rate 30] [--shown 8]

1. a pre-measure round trip (Mortar on a target, blast and fire track
   included), one phone, 300 times: p50 / p95 against the 30 ms target (the
   server alone in a child process, as `serve` runs it);
2. `play --phones` as it runs: the table view (the real `TableApp` frame code,
   SDL's dummy driver, 1920x1080, the table alone as on the projector) and the
   phone server on its thread in this process, each frame run as
   `PhoneTable.frame` runs it (under the hub's `table_lock`, which only a
   phone's commit also takes) at 60 frames a second; N phones in a child
   process each dragging a planned move at RATE updates a second (each update
   a new forward length, answered with the core's preview and overwatch
   offers), as the page sends them: never more than one unanswered. SHOWN of
   them have pressed "Show on table", so the table draws their plans too.
   Frame time p50 / p95 / p99 / max (wall time of the whole frame, the wait for
   the lock included; and the frame thread's own CPU time) against 16 ms, and
   every reply's latency against the 100 ms target. The same frames with no
   phone connected are taken first, for 2 s: the machine's own noise;
3. the server's own cost per message (parse + core call + JSON), CPU time
   in-process, median and p99;
4. tap -> painted update on a real page (issue 30): red's seat opened in
   headless Chromium (Debian's `chromium`, driven over the DevTools protocol
   as tests/test_web_browser.py does) at 390x844 with touch, in its move
   phase; a plan step button (+1 / -1 cm in turn) tapped TAPS times, each
   timed in the page from the touch's own event to the animation frame after
   the server's answer was drawn, while N phones (a child process) drag plans
   as in 2. p50 / p95 / max against the 100 ms target. Skipped, with the
   reason printed, when chromium is not installed.

Figures depend on the machine's load: the CPU times are the steadier ones.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from bottisota.core.actions import Forward, Move, Pass, Place  # noqa: E402
from bottisota.engine.game import Game  # noqa: E402
from bottisota.formats.content import arenas_dir  # noqa: E402
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue  # noqa: E402
from bottisota.web.hub import Hub  # noqa: E402
from bottisota.web.protocol import parse  # noqa: E402

SPOTS = {"red": (20.0, 36.0, 90.0), "blue": (40.0, 36.0, 270.0)}
TOKENS = {"red": "bench-red", "blue": "bench-blue", "table": "bench-table"}
MEASURE = {"type": "premeasure", "bot": "red-1", "weapon": "Mortar", "target": "blue-2"}


def game(phase: str = "shoot") -> Game:
    """The duel table in round 2 (its shooting phase, or red's move): red's artillery
    (Mortar) faces blue's tractor."""
    rules = bundled_rules()
    arena = load_arena(arenas_dir() / "duel.yaml", rules)
    cards, mods = load_catalogue()
    g = Game.new(arena, rules, cards, mods, ["red", "blue"], seed=2)
    while g.state.round < 2 or g.expected() != phase:
        bot, due = g.active_bot(), g.expected()
        if due == "place":
            action = Place(bot.id, *SPOTS[bot.player])
        elif due == "move":
            action = Move(bot.id, (Forward(bot.stats.min_move),) if bot.stats.min_move else ())
        else:
            action = Pass(bot.id)
        assert g.act(action).ok
    return g


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def child_server() -> None:
    from bottisota.web.server import start_in_thread

    running = start_in_thread(Hub(game(), dict(TOKENS)), "127.0.0.1", 0, rate=1000.0)
    print(running.port, flush=True)
    sys.stdin.read()            # until the parent closes our stdin
    running.stop()


def drag(i: int) -> dict:
    """The i-th update of a drag: the planned forward length grows 0.1 cm a frame."""
    return {"type": "plan", "bot": "red-1" if i % 2 else "blue-2",
            "steps": [{"forward": round(0.5 + (i % 60) * 0.1, 2)}]}


async def premeasure_trips(port: int, count: int) -> list[float]:
    from websockets.asyncio.client import connect

    out = []
    async with connect(f"ws://127.0.0.1:{port}/ws/{TOKENS['red']}") as ws:
        json.loads(await ws.recv())
        for i in range(count):
            t = time.perf_counter()
            await ws.send(json.dumps({**MEASURE, "id": i}))
            while json.loads(await ws.recv()).get("re") != i:
                pass
            out.append((time.perf_counter() - t) * 1000)
    return out


async def phone(port: int, seat: str, seconds: float, rate: float, lat: list[float],
                show: bool = False) -> None:
    """One phone dragging as the page does: an update every 1/rate s while the finger
    moves, never more than one unanswered (a newer length waits for the answer)."""
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws/{TOKENS[seat]}") as ws:
        json.loads(await ws.recv())
        if show:
            await ws.send(json.dumps({"type": "show", "on": True, "id": 10 ** 9}))
            while json.loads(await ws.recv()).get("re") != 10 ** 9:
                pass
        start = time.perf_counter()
        i = 0
        while time.perf_counter() - start < seconds:
            msg = drag(i)
            msg["bot"] = "red-1" if seat in ("red", "table") else "blue-2"
            msg["id"] = i
            t = time.perf_counter()
            await ws.send(json.dumps(msg))
            while json.loads(await ws.recv()).get("re") != i:
                pass
            lat.append((time.perf_counter() - t) * 1000)
            i += 1
            await asyncio.sleep(max(0.0, start + i / rate - time.perf_counter()))


async def phones(port: int, n: int, seconds: float, rate: float, shown: int = 0) -> list[float]:
    lat: list[float] = []
    seats = [("red", "blue", "table")[i % 3] for i in range(n)]
    await asyncio.gather(*(phone(port, s, seconds, rate, lat, i < shown)
                           for i, s in enumerate(seats)))
    return lat


def child_phones(port: int, n: int, seconds: float, rate: float, shown: int) -> None:
    """The phones in their own process (their CPU is not the table's): latencies out."""
    print(json.dumps(asyncio.run(phones(port, n, seconds, rate, shown))), flush=True)


def projector_under_drag(n: int, seconds: float, rate: float, shown: int
                         ) -> tuple[dict[str, list[float]], dict[str, list[float]], list[float],
                                    float]:
    """`play --phones` in this process: the table view's frames at 60 a second as
    `PhoneTable.frame` runs them, first for 2 s with no phone connected, then while
    the phones (a child process) drag. Returns the frames' figures with no phone
    and under the drag ({"wall", "cpu" (the frame thread's own), "process" (the
    server thread's CPU in the same time included), "wait" (for the lock)}: ms a
    frame), the phones' reply ms and the share of one core the process (table and
    server) used under the drag."""
    import pygame

    from bottisota.view.app import TableApp
    from bottisota.view.phone_links import PhoneTable
    from bottisota.web.server import Phones, start_in_thread

    pygame.display.init()
    pygame.font.init()
    g = game()
    hub = Hub(g, dict(TOKENS))
    running = start_in_thread(hub, "127.0.0.1", 0, rate=1000.0)
    app = TableApp(g, (1920, 1080), robot_pace=0.0)
    app.vm.panel = "hidden"                 # the table alone, as the projector shows it
    app.windows.camera = app.windows.fit_camera()
    table = PhoneTable(Phones(hub, running, []), show_links=False)
    for _ in range(30):                     # warm: the arena layer drawn, caches filled
        table.frame(app, 1 / 60)

    def frames(until: Any) -> dict[str, list[float]]:
        got: dict[str, list[float]] = {"wall": [], "cpu": [], "process": [], "wait": []}
        next_at = time.perf_counter()
        while not until():
            t, c, p = time.perf_counter(), time.thread_time(), time.process_time()
            table.frame(app, 1 / 60)
            got["wall"].append((time.perf_counter() - t) * 1000)
            got["cpu"].append((time.thread_time() - c) * 1000)
            got["process"].append((time.process_time() - p) * 1000)
            got["wait"].append(table.wait_ms)
            next_at += 1 / 60
            time.sleep(max(0.0, next_at - time.perf_counter()))
        return got

    try:
        quiet_until = time.perf_counter() + 2.0
        alone = frames(lambda: time.perf_counter() > quiet_until)
        child = subprocess.Popen([sys.executable, __file__, "--phones-child",
                                  str(running.port), str(n), str(seconds), str(rate),
                                  str(shown)], stdout=subprocess.PIPE, text=True)
        time.sleep(0.5)                     # the phones connect and start dragging
        started, cpu_started = time.perf_counter(), time.process_time()
        dragged = frames(lambda: child.poll() is not None)
        out = child.stdout.read() if child.stdout else "[]"
        share = (time.process_time() - cpu_started) / (time.perf_counter() - started)
    finally:
        running.stop()
    lat = json.loads(out.strip().splitlines()[-1])
    return alone, dragged, lat, share


def taps_painted(n: int, seconds: float, rate: float, taps: int) -> list[float] | str:
    """Item 4 of the module doc: the page's tap -> painted ms, or why not measured."""
    import shutil
    import tempfile
    import urllib.request

    from bottisota.web.server import start_in_thread

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        return "not measured: Debian's chromium is not installed"
    from tests.test_web_browser import FLAGS, DevTools

    running = start_in_thread(Hub(game("move"), dict(TOKENS)), "127.0.0.1", 0, rate=1000.0)
    with tempfile.TemporaryDirectory() as profile:
        browser = subprocess.Popen([chromium, *FLAGS, f"--user-data-dir={profile}",
                                    "about:blank"], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL)
        child = None
        try:
            port_file = Path(profile) / "DevToolsActivePort"
            deadline = time.monotonic() + 20
            while not (port_file.is_file() and port_file.read_text().strip()):
                if time.monotonic() > deadline:
                    return "not measured: chromium did not start"
                time.sleep(0.05)
            devtools = int(port_file.read_text().split()[0])
            with urllib.request.urlopen(f"http://127.0.0.1:{devtools}/json/list") as r:
                page = next(t for t in json.load(r) if t.get("type") == "page")
            tools = DevTools(page["webSocketDebuggerUrl"])
            tools.call("Emulation.setDeviceMetricsOverride", width=390, height=844,
                       deviceScaleFactor=2, mobile=True)
            tools.call("Emulation.setTouchEmulationEnabled", enabled=True, maxTouchPoints=5)
            tools.call("Page.navigate",
                       url=f"http://127.0.0.1:{running.port}/s/{TOKENS['red']}")
            tools.wait("window.bottisota && window.bottisota.ready && !window.bottisota.offline"
                       " && !document.getElementById('planbox').hidden", "red's move")
            child = subprocess.Popen([sys.executable, __file__, "--phones-child",
                                      str(running.port), str(n), str(seconds), str(rate),
                                      "0"], stdout=subprocess.PIPE, text=True)
            time.sleep(0.5)                 # the phones connect and start dragging
            for i in range(taps):
                step = "fwd1" if i % 2 == 0 else "back1"
                x, y = tools.js(f"(() => {{ const e = document.querySelector(\"[data-plan="
                                f"'{step}']\"); e.scrollIntoView(); const r = "
                                f"e.getBoundingClientRect(); return [r.left + r.width / 2, "
                                f"r.top + r.height / 2]; }})()")
                tools.tap(x, y)
                tools.wait(f"window.bottisota.latencies.length > {i}", "the painted answer")
                time.sleep(max(0.0, seconds / taps - 0.02))
            out = list(tools.js("window.bottisota.latencies"))
            tools.close()
            return out
        finally:
            if child is not None:
                child.wait(timeout=seconds + 30)
            browser.terminate()
            browser.wait(timeout=10)
            running.stop()


def spread(values: list[float], digits: int = 1) -> str:
    """p50 / p95 / p99 / max of a list of ms."""
    return " / ".join(f"{v:.{digits}f}" for v in (statistics.median(values), pct(values, 95),
                                                   pct(values, 99), max(values)))


def server_cost(count: int = 300) -> tuple[list[float], list[float]]:
    """CPU ms per pre-measure and per drag update, in-process (parse + core + JSON)."""
    hub = Hub(game(), dict(TOKENS))
    seat = hub.seats["red"]
    costs: dict[str, list[float]] = {"measure": [], "plan": []}
    for i in range(count):
        for kind, msg in (("measure", MEASURE), ("plan", {**drag(2 * i + 1), "bot": "red-1"})):
            t = time.process_time()
            answer = hub.handle(seat, parse(json.dumps(msg)))
            json.dumps(answer.replies)
            costs[kind].append((time.process_time() - t) * 1000)
    return costs["measure"], costs["plan"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=5.0)
    ap.add_argument("--phones", type=int, default=8)
    ap.add_argument("--rate", type=float, default=30.0)
    ap.add_argument("--shown", type=int, default=8,
                    help="how many of the phones show their plan on the table (default 8)")
    ap.add_argument("--taps", type=int, default=60,
                    help="taps timed on the real page in Chromium (default 60; 0: none)")
    ap.add_argument("--only-taps", action="store_true",
                    help="measure only the taps on the real page (item 4)")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--phones-child", nargs=5, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child_server()
        return 0
    if args.phones_child:
        port, n, seconds, rate, shown = args.phones_child
        child_phones(int(port), int(n), float(seconds), float(rate), int(shown))
        return 0
    if args.only_taps:
        return report_taps(args)
    proc = subprocess.Popen([sys.executable, __file__, "--child"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline())
        trips = asyncio.run(premeasure_trips(port, 300))
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
    alone, dragged, lat, share = projector_under_drag(args.phones, args.seconds, args.rate,
                                                      min(args.shown, args.phones))
    measure_cpu, plan_cpu = server_cost()
    p95 = pct(trips, 95)
    p99 = pct(lat, 99)
    expected = int(args.phones * args.seconds * args.rate)
    print("phones benchmark (localhost, the machine shared and loaded: wall times vary)")
    print(f"pre-measure round trip: p50 {statistics.median(trips):.1f} ms, p95 {p95:.1f} ms "
          f"(target <= 30 ms: {p95 / 30:.2f} of it) over {len(trips)} trips")
    print(f"{args.phones} phones dragging at {args.rate:g}/s for {args.seconds:g} s "
          f"({min(args.shown, args.phones)} shown on the table): {len(lat)} of {expected} "
          f"updates sent and answered; reply p50 / p95 / p99 / max {spread(lat)} ms "
          f"(target p99 <= 100 ms: {p99 / 100:.2f} of it)")
    f99 = pct(dragged["wall"], 99)
    print(f"projector frame (1920x1080, the table alone), p50 / p95 / p99 / max, "
          f"os.getloadavg {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:")
    for name, got in (("no phone", alone), (f"{args.phones} phones dragging", dragged)):
        print(f"  {name} ({len(got['wall'])} frames): wall {spread(got['wall'])} ms; "
              f"frame thread CPU {spread(got['cpu'])} ms; process CPU (the server's "
              f"included) {spread(got['process'])} ms; wait for the lock "
              f"{spread(got['wait'], 2)} ms")
    print(f"  under the drag: wall p99 {f99:.1f} ms (target p99 <= 16 ms: {f99 / 16:.2f} of "
          f"it); the table and the server used {share:.0%} of one core")
    print(f"server CPU per message: pre-measure median {statistics.median(measure_cpu):.2f} ms "
          f"(p99 {pct(measure_cpu, 99):.2f}), drag update median "
          f"{statistics.median(plan_cpu):.2f} ms (p99 {pct(plan_cpu, 99):.2f}); "
          f"{args.phones} x {args.rate:g}/s of updates cost "
          f"{statistics.median(plan_cpu) * args.phones * args.rate / 10:.1f}% of one core")
    return report_taps(args) if args.taps else 0


def report_taps(args: argparse.Namespace) -> int:
    got = taps_painted(args.phones, args.seconds, args.rate, args.taps)
    if isinstance(got, str):
        print(f"tap -> painted update on the page: {got}")
        return 0
    print(f"tap -> painted update on red's page (headless Chromium, 390x844, touch) while "
          f"{args.phones} phones drag at {args.rate:g}/s: {len(got)} taps, p50 / p95 / p99 / "
          f"max {spread(got)} ms (target p95 <= 100 ms: {pct(got, 95) / 100:.2f} of it)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
