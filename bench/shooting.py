"""Benchmark: the full pre-measure of one shooter with 4 weapons against 31
other bots in a 500-feature arena (target: under 3 ms median), beside a naive
version (every wall and bot tested one by one, no index, no vectorisation).

    python bench/shooting.py [--repeat N]
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from shapely.geometry import LineString, Point  # noqa: E402

from bottisota.formats.loading import bundled_rules  # noqa: E402

from bottisota.formats.loading import bundled_rules
from bottisota.formats.loading import arena_from_dict  # noqa: E402
from bottisota.engine.setup import new_state  # noqa: E402
from bottisota.engine.shooting.shots import premeasure_weapons  # noqa: E402
from bottisota.geometry.compiled import compile_arena  # noqa: E402

SIZE = (240.0, 180.0)
FEATURES = 500
BOTS = 32
WEAPONS = [
    {"name": "Nose gun", "kind": "gun", "mount": "nose", "range": 40, "to_hit": 4, "hits": 1},
    {"name": "Spray", "kind": "spray", "mount": "turret", "range": 30, "to_hit": 4, "hits": 1},
    {"name": "Shell", "kind": "gun", "mount": "turret", "range": 50, "to_hit": 4, "hits": 1,
     "explosive": True},
    {"name": "Missile", "kind": "missile", "mount": "nose", "range": 60, "to_hit": 4, "hits": 1},
]


def build(seed: int = 7):
    """A 500-wall arena and 32 bots on free floor, the first with the 4 weapons."""
    rng = random.Random(seed)
    features = []
    for i in range(FEATURES):
        w, h = rng.uniform(0.5, 3.0), rng.uniform(0.5, 3.0)
        x, y = rng.uniform(0, SIZE[0] - w), rng.uniform(0, SIZE[1] - h)
        features.append({"type": "wall", "id": f"w{i}", "rect": [round(x, 2), round(y, 2),
                                                                  round(w, 2), round(h, 2)]})
    arena = arena_from_dict({"name": "bench", "size": list(SIZE), "features": features})
    spots: list[tuple[float, float]] = []
    while len(spots) < BOTS:
        x, y = rng.uniform(80, 160), rng.uniform(50, 130)
        if compile_arena(arena, bundled_rules()).disc_blocked(x, y, 1.0) is not None:
            continue
        if any(math.hypot(x - u, y - v) < 2.2 for u, v in spots):
            continue
        spots.append((round(x, 2), round(y, 2)))
    bots = []
    for i, (x, y) in enumerate(spots):
        weapons = WEAPONS if i == 0 else []
        bots.append({"id": f"b{i}", "player": f"p{i}", "at": [x, y], "facing": 90,
                     "card": {"locomotion": "walker", "move": 8, "armour": 4, "structure": 6,
                              "weapons": weapons}})
    return new_state(arena, bundled_rules(), bots, dice=1)


def fast(state, nearest: str):
    """The project's pre-measure for all 4 weapons, aimed at the nearest bot."""
    return premeasure_weapons(state, "b0", [w["name"] for w in WEAPONS], target=nearest)


def naive(state, nearest: str):
    """The same answers (sight, arc, range per weapon and target; corridor and blast
    members at the aimed bot) with plain loops over every wall and bot."""
    shooter = state.bots["b0"]
    walls = [f.shape for f in state.arena.features if f.type == "wall"]
    others = [b for b in state.bots.values() if b.id != "b0"]
    tol = state.rules.contact_tolerance
    out = {}
    for w in WEAPONS:
        answers = {}
        for t in others:
            line = LineString([shooter.pos, t.pos])
            blocked = any(line.intersects(shape) for shape in walls)
            if w["kind"] != "spray" and not blocked:
                blocked = any(line.distance(Point(o.x, o.y)) <= o.radius
                              for o in others if o.id != t.id)
            d = math.hypot(t.x - shooter.x, t.y - shooter.y)
            ang = math.degrees(math.atan2(t.x - shooter.x, t.y - shooter.y)) % 360
            off = min((ang - shooter.facing) % 360, (shooter.facing - ang) % 360)
            in_arc = w["mount"] != "nose" or off <= state.rules.nose_arc / 2
            answers[t.id] = (not blocked, in_arc, d <= w["range"])
        target = state.bots[nearest]
        if w["kind"] == "spray":
            line = LineString([shooter.pos, target.pos])
            answers["members"] = [o.id for o in others
                                  if line.distance(Point(o.x, o.y)) <= o.radius + tol]
        if w.get("explosive"):
            centre = Point(target.x, target.y)
            answers["members"] = [
                o.id for o in others
                if centre.distance(Point(o.x, o.y)) <= o.radius + state.rules.blast_diameter / 2 + tol
                and not any(LineString([target.pos, o.pos]).intersects(s) for s in walls)]
        out[w["name"]] = answers
    return out


def timed(fn, repeat: int) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds of each call (CPU time shows the work
    when other processes share the cores)."""
    wall, cpu = [], []
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        fn()
        cpu.append((time.process_time() - c0) * 1000.0)
        wall.append((time.perf_counter() - w0) * 1000.0)
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    state = build()
    shooter = state.bots["b0"]
    nearest = min((b for b in state.bots.values() if b.id != "b0"),
                  key=lambda b: shooter.distance_to(b)).id
    result, check = fast(state, nearest), naive(state, nearest)
    for name, pm in result.items():       # the two versions must agree
        for t in pm.targets:
            assert (t.in_sight, t.in_arc, t.in_range) == check[name][t.bot], (name, t)
    fast(state, nearest)
    fast_wall, fast_cpu = timed(lambda: fast(state, nearest), args.repeat)
    naive_wall, naive_cpu = timed(lambda: naive(state, nearest), max(5, args.repeat // 20))
    f, n = statistics.median(fast_wall), statistics.median(naive_wall)
    sees = sum(t.in_sight for t in result["Nose gun"].targets)
    print(f"pre-measure: 1 shooter x {len(WEAPONS)} weapons vs {BOTS - 1} bots, "
          f"{FEATURES} walls ({sees} in sight)")
    print(f"  indexed + vectorised: median {f:.3f} ms, min {min(fast_wall):.3f} ms, "
          f"CPU median {statistics.median(fast_cpu):.3f} ms   "
          f"target < 3 ms median: {'ok' if f < 3.0 else 'MISSED'}")
    print(f"  naive loops:          median {n:.3f} ms, min {min(naive_wall):.3f} ms, "
          f"CPU median {statistics.median(naive_cpu):.3f} ms")
    print(f"  ratio naive / fast:   {n / f:.1f}x (medians), "
          f"{min(naive_wall) / min(fast_wall):.1f}x (minima)")
    forced = timed(lambda: [t.track for pm in fast(state, nearest).values() for t in pm.targets],
                   max(5, args.repeat // 10))[0]
    print(f"  with every fire track and blocking point worked out too: median "
          f"{statistics.median(forced):.3f} ms")


if __name__ == "__main__":
    main()
