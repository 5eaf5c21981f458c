"""Phones benchmark (issue 15): round trips over a real localhost websocket.

    python bench/phones.py [--seconds 5] [--phones 8] [--rate 30]

1. a pre-measure round trip (Mortar on a target, blast and fire track
   included), one phone, 300 times: p50 / p95 against the 30 ms target;
2. N phones each dragging a planned move at RATE updates a second (each update
   a new forward length, answered with the core's preview and overwatch
   offers), as the page sends them: never more than one unanswered, a newer
   length waiting for the answer; every reply's latency p50 / p99 against the
   100 ms target, and how many of the RATE updates a second got through;
3. the server's own cost per message (parse + core call + JSON), CPU time
   in-process, median and p99.

The server runs in a child process (its own interpreter, as `serve` does), the
phones in this one. The projector's frame time under the drag needs the table
view and is measured by bench/render.py there. Figures depend on the machine's
load: the CPU times are the steadier ones.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bottisota.core.actions import Forward, Move, Pass, Place  # noqa: E402
from bottisota.engine.game import Game  # noqa: E402
from bottisota.formats.content import arenas_dir  # noqa: E402
from bottisota.formats.loading import bundled_rules, load_arena, load_catalogue  # noqa: E402
from bottisota.web.hub import Hub  # noqa: E402
from bottisota.web.protocol import parse  # noqa: E402

SPOTS = {"red": (20.0, 36.0, 90.0), "blue": (40.0, 36.0, 270.0)}
TOKENS = {"red": "bench-red", "blue": "bench-blue", "table": "bench-table"}
MEASURE = {"type": "premeasure", "bot": "red-1", "weapon": "Mortar", "target": "blue-2"}


def game() -> Game:
    """The duel table in round 2: red's artillery (Mortar) faces blue's tractor."""
    rules = bundled_rules()
    arena = load_arena(arenas_dir() / "duel.yaml", rules)
    cards, mods = load_catalogue()
    g = Game.new(arena, rules, cards, mods, ["red", "blue"], seed=2)
    while g.state.round < 2 or g.expected() != "shoot":
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


async def phone(port: int, seat: str, seconds: float, rate: float, lat: list[float]) -> None:
    """One phone dragging as the page does: an update every 1/rate s while the finger
    moves, never more than one unanswered (a newer length waits for the answer)."""
    from websockets.asyncio.client import connect

    async with connect(f"ws://127.0.0.1:{port}/ws/{TOKENS[seat]}") as ws:
        json.loads(await ws.recv())
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


async def phones(port: int, n: int, seconds: float, rate: float) -> list[float]:
    lat: list[float] = []
    seats = [("red", "blue", "table")[i % 3] for i in range(n)]
    await asyncio.gather(*(phone(port, s, seconds, rate, lat) for s in seats))
    return lat


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
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child_server()
        return 0
    proc = subprocess.Popen([sys.executable, __file__, "--child"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        port = int(proc.stdout.readline())
        trips = asyncio.run(premeasure_trips(port, 300))
        lat = asyncio.run(phones(port, args.phones, args.seconds, args.rate))
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
    measure_cpu, plan_cpu = server_cost()
    p95 = pct(trips, 95)
    p99 = pct(lat, 99)
    expected = int(args.phones * args.seconds * args.rate)
    print("phones benchmark (localhost, the machine shared and loaded: wall times vary)")
    print(f"pre-measure round trip: p50 {statistics.median(trips):.1f} ms, p95 {p95:.1f} ms "
          f"(target <= 30 ms: {p95 / 30:.2f} of it) over {len(trips)} trips")
    print(f"{args.phones} phones dragging at {args.rate:g}/s for {args.seconds:g} s: "
          f"{len(lat)} of {expected} updates sent and answered, "
          f"p50 {statistics.median(lat):.1f} ms, "
          f"p99 {p99:.1f} ms, max {max(lat):.1f} ms (target p99 <= 100 ms: {p99 / 100:.2f} of it)")
    print(f"server CPU per message: pre-measure median {statistics.median(measure_cpu):.2f} ms "
          f"(p99 {pct(measure_cpu, 99):.2f}), drag update median "
          f"{statistics.median(plan_cpu):.2f} ms (p99 {pct(plan_cpu, 99):.2f}); "
          f"{args.phones} x {args.rate:g}/s of updates cost "
          f"{statistics.median(plan_cpu) * args.phones * args.rate / 10:.1f}% of one core")
    print("projector frame under the drag: needs the table view (bench/render.py)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
