"""Benchmark of movement checks (issue 3).

Run: python bench/movement.py [--seed N] [--moves N]

In the warehouse arena (arenas/warehouse.yaml; a generated 120 x 90 arena with
about 60 features when it is missing) with 16 bots, random 5-step moves are
checked three ways:
1. `preview_move`: the full check with all its events (walls, bots, doors,
   pits, cliffs, stairs, belts, teleporters, costs, turns) - the referee's answer;
2. the path's geometry through the arena index alone (swept disc, floor edges,
   feature entries per piece);
3. the same geometry naively: no index, every feature tested for every piece.
Prints medians and checks per second. Target: a full 5-step check in < 1 ms median.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from pathlib import Path

from shapely.geometry import LineString

from bottisota.core import shapes
from bottisota.core.arena import Arena, Feature
from bottisota.formats.loading import bundled_rules
from bottisota.core.actions import Forward, Move, Refusal, Strafe, Turn
from bottisota.engine.movement.moves import preview_move
from bottisota.engine.setup import new_state
from bottisota.geometry.compiled import compile_arena

N_BOTS = 16
LOCOS = ("walker", "wheeled", "tracked", "hover", "flier")
ENTRY_TYPES = ("pit", "teleporter", "conveyor", "escalator", "stairs")


def load_arena(generated: bool = False) -> Arena:
    """The warehouse, or a generated stand-in of the same size."""
    path = Path(__file__).resolve().parent.parent / "arenas" / "warehouse.yaml"
    if path.is_file() and not generated:
        from bottisota.formats.loading import load_arena as load

        return load(path)
    rng = random.Random(3)
    feats = []
    for i in range(60):
        x, y = rng.uniform(5, 105), rng.uniform(5, 75)
        kind = rng.choice(("wall", "wall", "wall", "platform", "pit", "door"))
        if kind == "pit":
            feats.append(Feature(i, kind, shapes.circle(x, y, 2)))
        else:
            feats.append(Feature(i, kind, shapes.rect(x, y, rng.uniform(1, 10), rng.uniform(1, 10)),
                                 height=4.0 if kind == "platform" else 10.0))
    return Arena("generated", (120.0, 90.0), tuple(feats))


def place_bots(arena: Arena, rng: random.Random) -> list[dict]:
    bots: list[dict] = []
    spots: list[tuple[float, float]] = []
    index = compile_arena(arena, bundled_rules())
    while len(bots) < N_BOTS:
        x, y = rng.uniform(2, arena.size[0] - 2), rng.uniform(2, arena.size[1] - 2)
        if index.disc_blocked(x, y, 1.0) is not None or index.features_at(x, y, ["pit", "teleporter"]):
            continue
        if any(math.hypot(x - a, y - b) < 2.5 for a, b in spots):
            continue
        spots.append((x, y))
        loco = LOCOS[len(bots) % len(LOCOS)]
        bots.append({"id": f"b{len(bots)}", "player": f"p{len(bots)}", "at": [x, y],
                     "facing": rng.choice(range(0, 360, 45)),
                     "card": {"locomotion": loco, "move": 30, "turn": 2, "armour": 4,
                              "structure": 6, "weapons": []}})
    return bots


def random_move(rng: random.Random, bot_id: str, loco: str) -> Move:
    steps = []
    for k in range(5):
        if k % 2 == 1:
            steps.append(Turn(rng.choice((-45, 45))))
        elif loco in ("walker", "hover") and rng.random() < 0.3:
            steps.append(Strafe(rng.choice((90, -90)), rng.uniform(1, 4)))
        else:
            steps.append(Forward(rng.uniform(1, 6)))
    return Move(bot_id, tuple(steps))


def indexed_geometry(arena: Arena, points: list[tuple[float, float]], r: float) -> int:
    """The path's geometry through the index: swept disc, floor edges, entries."""
    index = compile_arena(arena, bundled_rules())
    found = 0
    found += index.path_contact(points, r, doors=False) is not None
    for a, b in zip(points, points[1:]):
        found += len(index.edge_crossings(a, b))
        found += index.first_entry(a, b, ENTRY_TYPES) is not None
    return found


def naive_geometry(arena: Arena, points: list[tuple[float, float]], r: float) -> int:
    """The same questions with no index: every feature tested for every piece."""
    found = 0
    for a, b in zip(points, points[1:]):
        if a == b:
            continue
        seg = LineString([a, b])
        swept = seg.buffer(r)
        for f in arena.features:
            if f.type == "wall" and swept.intersects(f.shape):
                found += 1
            elif f.type in ENTRY_TYPES and seg.intersects(f.shape):
                found += 1
            elif f.type == "platform" and seg.intersects(f.shape.boundary):
                found += 1
            elif f.type == "door" and swept.intersects(f.shape):
                found += 1
    return found


def timed(fn, *args) -> float:
    t0 = time.perf_counter()
    fn(*args)
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--generated", action="store_true",
                        help="use the generated 120 x 90 arena with 60 features")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    arena = load_arena(args.generated)
    state = new_state(arena, bundled_rules(), place_bots(arena, rng), dice=args.seed, round=2)
    bots = list(state.bots.values())
    moves = [random_move(rng, b.id, b.stats.locomotion) for b in bots for _ in range(args.moves // len(bots))]
    for move in moves[:20]:                                  # warm caches
        preview_move(state, move)
    full, idx, naive = [], [], []
    refused = events = 0
    for move in moves:
        t0 = time.perf_counter()
        result = preview_move(state, move)
        full.append(time.perf_counter() - t0)
        if isinstance(result, Refusal):
            refused += 1
            continue
        events += len(result.events)
        pts = [(p.x, p.y) for p in result.path]
        r = state.bots[move.bot].radius
        idx.append(timed(indexed_geometry, arena, pts, r))
        naive.append(timed(naive_geometry, arena, pts, r))
    med = {k: statistics.median(v) for k, v in (("full", full), ("index", idx), ("naive", naive))}
    print(f"arena: {arena.name} ({len(arena.features)} features), {len(bots)} bots, "
          f"{len(moves)} random 5-step moves ({refused} refused, {events} events)")
    print(f"full check (preview_move, all events): median {med['full'] * 1e3:.3f} ms "
          f"= {1 / med['full']:,.0f} checks/s   target < 1 ms: {'OK' if med['full'] < 1e-3 else 'MISSED'}")
    print(f"path geometry, indexed:                median {med['index'] * 1e3:.3f} ms "
          f"= {1 / med['index']:,.0f} checks/s")
    print(f"path geometry, naive (every feature):  median {med['naive'] * 1e3:.3f} ms "
          f"= {1 / med['naive']:,.0f} checks/s")
    print(f"ratio naive / indexed geometry: {med['naive'] / med['index']:.1f}x; "
          f"naive / full check: {med['naive'] / med['full']:.2f}x")


if __name__ == "__main__":
    main()
