"""Bench: a move checked the way the game checks it.

Run: python bench/movement.py [--quick] [--json]

In the warehouse, the factory and synthetic arenas of 50, 500 and 2000
features (read and checked like `bottisota check`) with 16 bots of every
locomotion, random 5-step moves are judged by `preview_move` (the referee's full answer: walls,
bots, doors, pits, cliffs, stairs, belts, teleporters, costs, turns, events),
and by `Game.preview_move`, which the robots, `Game.legal` and the commit's
check share (the second question about the same move in the same state is a
look-up). Each move is timed as asked the first time: the compiled arena's
remembered answers to segment questions are dropped before it. Beside them:
(a) the naive shapely version of the path's geometry (the path buffered by
the radius and every wall, door, pit and floor edge tested, no index; setup
excluded) and (b) the machine limit, one prepared
predicate per path (the path against one prepared union of the obstacles).
CPU time per move; medians with p95 and p99.
"""
from __future__ import annotations

import random

import shapely
from common import (
    FEATURES,
    bench_main,
    bundled,
    compiled,
    cpu_times,
    fmt,
    machine,
    place_discs,
    stats,
    synthetic,
    unprepared,
)
from shapely.geometry import LineString

from bottisota.core.actions import Forward, Move, Refusal, Strafe, Turn
from bottisota.engine.game import Game
from bottisota.engine.movement.moves import preview_move
from bottisota.engine.setup import new_state
from bottisota.formats.loading import bundled_rules

N_BOTS = 16
LOCOS = ("walker", "wheeled", "tracked", "hover", "flier")


def state_with_bots(arena, seed: int):
    rng = random.Random(seed)
    discs = place_discs(compiled(arena), N_BOTS, rng)
    bots = [{"id": d.id, "player": f"p{k}", "at": [d.x, d.y],
             "facing": rng.choice(range(0, 360, 45)),
             "card": {"locomotion": LOCOS[k % len(LOCOS)], "move": 30, "turn": 2, "armour": 4,
                      "structure": 6, "weapons": []}} for k, d in enumerate(discs)]
    return new_state(arena, bundled_rules(), bots, dice=seed, round=2), rng


def random_move(rng: random.Random, bot_id: str, loco: str) -> Move:
    steps = []
    for k in range(5):
        if k % 2 == 1:
            steps.append(Turn(rng.choice((-45, 45))))
        elif loco in ("walker", "hover") and rng.random() < 0.3:
            steps.append(Strafe(rng.choice((90, -90)), round(rng.uniform(1, 4), 2)))
        else:
            steps.append(Forward(round(rng.uniform(1, 6), 2)))
    return Move(bot_id, tuple(steps))


class Naive:
    """The path's geometry with no index: every obstacle tested (setup outside)."""

    def __init__(self, arena) -> None:
        self.block = [unprepared(f.shape) for f in arena.features if f.type in ("wall", "door")]
        self.enter = [unprepared(f.shape) for f in arena.features
                      if f.type in ("pit", "teleporter", "conveyor", "escalator", "stairs")]
        self.edges = [unprepared(f.shape.boundary) for f in arena.features
                      if f.type in ("platform", "stairs", "ramp", "escalator")]

    def check(self, points, r: float) -> int:
        path = LineString(points)
        swept = path.buffer(r)
        return (sum(swept.intersects(o) for o in self.block)
                + sum(path.intersects(o) for o in self.enter)
                + sum(path.intersects(e) for e in self.edges))


def one(name: str, arena, moves_wanted: int, seed: int = 7) -> dict:
    state, rng = state_with_bots(arena, seed)
    bots = list(state.bots.values())
    moves = [random_move(rng, b.id, b.stats.locomotion) for b in bots
             for _ in range(max(1, moves_wanted // len(bots)))]
    for move in moves[:20]:
        preview_move(state, move)                            # warm the arena's caches
    results = [preview_move(state, m) for m in moves]
    refused = sum(isinstance(r, Refusal) for r in results)
    full = []
    for m in moves:
        state.index.forget_answers()          # each move timed as asked the first time
        full += cpu_times(lambda m=m: preview_move(state, m), 1)
    game = Game(state)
    cached = []
    for m in moves:
        game.preview_move(state, m)
        cached += cpu_times(lambda m=m: game.preview_move(state, m), 1)
    naive = Naive(arena)
    grown = shapely.union_all([f.shape for f in arena.features if f.type in ("wall", "door")])
    grown = shapely.buffer(grown, 1.0)
    shapely.prepare(grown)
    paths = [([(p.x, p.y) for p in r.path], state.bots[m.bot].radius)
             for m, r in zip(moves, results, strict=True)
             if not isinstance(r, Refusal) and len(r.path) > 1]
    naive_t, limit_t = [], []
    for pts, r in paths:
        naive_t += cpu_times(lambda pts=pts, r=r: naive.check(pts, r), 1)
        line = LineString(pts)
        limit_t += cpu_times(lambda line=line: grown.intersects(line), 1)
    f, n, lim = stats(full), stats(naive_t), stats(limit_t)
    return {"arena": name, "features": len(arena.features), "bots": N_BOTS, "moves": len(moves),
            "refused": refused, "preview_move": f, "game_preview_again": stats(cached),
            "naive_geometry": n, "machine_limit": lim,
            "naive_over_preview": n["median"] / f["median"],
            "preview_over_limit": f["median"] / lim["median"]}


def collect(quick: bool = False) -> dict:
    moves = 120 if quick else 400
    rows = [one(name, bundled(name), moves) for name in ("warehouse", "factory")]
    rows += [one(f"synthetic-{n}", synthetic(n), moves) for n in FEATURES]
    return {"bench": "movement", "machine": machine(), "moves": rows}


def report(data: dict) -> str:
    out = [f"a 5-step move judged in full (CPU time per move; machine {data['machine']})"]
    for r in data["moves"]:
        out.append(f"{r['arena']:>15} {r['features']:5d} features, {r['bots']} bots, "
                   f"{r['moves']} moves ({r['refused']} refused)")
        out.append(f"    preview_move          {fmt(r['preview_move'])}   "
                   f"{r['preview_over_limit']:.0f}x the machine limit")
        out.append(f"    Game.preview_move, same move again {fmt(r['game_preview_again'])}")
        out.append(f"    naive path geometry   {fmt(r['naive_geometry'])}   "
                   f"({r['naive_over_preview']:.2f}x preview_move)")
        out.append(f"    machine limit         {fmt(r['machine_limit'])}")
    return "\n".join(out)


def main() -> None:
    bench_main(__doc__, "fewer moves", collect, report)


if __name__ == "__main__":
    main()
