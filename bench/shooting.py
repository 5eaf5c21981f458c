"""Bench: the pre-measure of one shooter the way the game asks it.

Run: python bench/shooting.py [--quick] [--json]

A shooter with 4 weapons (a nose gun, a turret spray, an explosive shell, a
missile) against every other bot, in the warehouse, the factory and synthetic
arenas of 50, 500 and 2000 features (walls of several heights, doors, platforms with
ramps; read and checked like `bottisota check`), with 8, 32 and 64 bots on
legal spots. Timed: `premeasure_weapons` as the shooting phase and the view
ask it the first time (sight shared by the weapons; no answer kept from an
earlier frame); the same with the fire track, blocker and blocking point of the
bot under the cursor (the overlay with fire tracks on, each bot in turn under
the cursor); both again for a frame repeated while nothing moves (the answers
kept on the arena by every input they depend on); and the same with every target's track
worked out at once (the worst case: the overlay never asks for them all).
Beside them: (a) a naive shapely version (sight with heights per target, every
feature and bot tested, no index, shared by the weapons as fairly as the fast
one; arc and range per weapon; setup excluded) and (b) the machine limit: one
prepared-union predicate per target line. CPU time; medians with p95 and p99.
"""
from __future__ import annotations

import math
import random

from common import (
    FEATURES,
    NaiveSight,
    bench_main,
    bundled,
    compiled,
    cpu_times,
    fmt,
    machine,
    machine_limit,
    machine_limit_union,
    place_discs,
    stats,
    synthetic,
)

from bottisota.engine.setup import new_state
from bottisota.engine.shooting.geometry import disc_of, standing_bots
from bottisota.engine.shooting.premeasure import forget_sight, premeasure_weapons
from bottisota.formats.loading import bundled_rules

WEAPONS = [
    {"name": "Nose gun", "kind": "gun", "mount": "nose", "range": 40, "to_hit": 4, "hits": 1},
    {"name": "Spray", "kind": "spray", "mount": "turret", "range": 30, "to_hit": 4, "hits": 1},
    {"name": "Shell", "kind": "gun", "mount": "turret", "range": 50, "to_hit": 4, "hits": 1,
     "explosive": True},
    {"name": "Missile", "kind": "missile", "mount": "nose", "range": 60, "to_hit": 4, "hits": 1},
]
NAMES = [w["name"] for w in WEAPONS]
BOT_COUNTS = (8, 32, 64)


def build(arena, n_bots: int, seed: int = 7):
    discs = place_discs(compiled(arena), n_bots, random.Random(seed))
    bots = [{"id": d.id, "player": f"p{k}", "at": [d.x, d.y], "facing": 90,
             "card": {"locomotion": "walker", "move": 8, "armour": 4, "structure": 6,
                      "weapons": WEAPONS if k == 0 else []}} for k, d in enumerate(discs)]
    return new_state(arena, bundled_rules(), bots, dice=1)


def naive(state, sight: NaiveSight) -> dict:
    """Sight per target once (with and without the bots), then arc and range per weapon."""
    shooter = state.bots["b0"]
    others = [b for b in state.bots.values() if b.id != "b0"]
    discs = [d for d in _discs(state)]
    top = shooter.z + shooter.card.height
    out = {}
    seen = {}
    for t in others:
        args = (shooter.x, shooter.y, top, t.x, t.y, t.z + t.card.height / 2.0)
        past = [d for d in discs if d.id not in ("b0", t.id)]
        seen[t.id] = (sight.clear(*args, []), sight.clear(*args, past))
    for w in WEAPONS:
        answers = {}
        for t in others:
            d = math.hypot(t.x - shooter.x, t.y - shooter.y)
            ang = math.degrees(math.atan2(t.x - shooter.x, t.y - shooter.y)) % 360
            off = min((ang - shooter.facing) % 360, (shooter.facing - ang) % 360)
            in_arc = w["mount"] != "nose" or off <= state.rules.nose_arc / 2
            answers[t.id] = (seen[t.id][0 if w["kind"] == "spray" else 1], in_arc,
                             d <= w["range"])
        out[w["name"]] = answers
    return out


def _discs(state):
    return [disc_of(b) for b in standing_bots(state)]


def one(name: str, arena, n_bots: int, repeats: int) -> dict:
    state = build(arena, n_bots)
    shooter = state.bots["b0"]
    fast = premeasure_weapons(state, "b0", NAMES)
    sight = NaiveSight(arena)
    check = naive(state, sight)
    for w, pm in fast.items():
        for t in pm.targets:
            if t.sight_decides:
                assert t.in_sight == check[w][t.bot][0], (name, w, t.bot)
    index = state.index

    def cold():
        # as first asked: nothing kept from an earlier frame
        forget_sight(index)
        return premeasure_weapons(state, "b0", NAMES)

    t_fast = stats(cpu_times(cold, repeats))
    t_warm = stats(cpu_times(lambda: premeasure_weapons(state, "b0", NAMES), repeats))

    def with_tracks():
        forget_sight(index)
        for pm in premeasure_weapons(state, "b0", NAMES).values():
            for t in pm.targets:
                _ = t.track, t.blocker, t.block_point

    t_tracks = stats(cpu_times(with_tracks, max(3, repeats // 3)))
    cursor = iter(range(10 ** 9))

    def cursor_track(forget: bool):
        # the overlay with fire tracks on: every weapon measured, and the fire track,
        # blocker and blocking point of the bot under the cursor (each bot in turn)
        if forget:
            forget_sight(index)
        pms = premeasure_weapons(state, "b0", NAMES)
        targets = pms["Missile"].targets
        t = targets[next(cursor) % len(targets)]
        _ = t.track, t.blocker, t.block_point

    t_cursor = stats(cpu_times(lambda: cursor_track(True), repeats))
    # the same frames again (nothing moved, the cursor back on bots it has rested on):
    # the answers kept from the first visit of each bot
    for _ in range(n_bots):
        cursor_track(False)
    t_resting = stats(cpu_times(lambda: cursor_track(False), repeats))
    t_naive = stats(cpu_times(lambda: naive(state, sight), max(3, repeats // 10)))
    union = machine_limit_union(arena)
    lines = [((shooter.x, shooter.y), (b.x, b.y)) for b in state.bots.values() if b.id != "b0"]
    t_limit = stats(machine_limit(union, lines, repeats))
    return {"arena": name, "features": len(arena.features), "bots": n_bots,
            "in_sight": sum(t.in_sight for t in fast["Nose gun"].targets),
            "premeasure": t_fast, "premeasure_with_cursor_track": t_cursor,
            "premeasure_again": t_warm, "cursor_track_again": t_resting,
            "premeasure_with_tracks": t_tracks, "naive": t_naive,
            "machine_limit": t_limit,
            "naive_over_premeasure": t_naive["median"] / t_fast["median"],
            "premeasure_over_limit": t_fast["median"] / t_limit["median"],
            "cursor_track_over_limit": t_cursor["median"] / t_limit["median"]}


def collect(quick: bool = False) -> dict:
    repeats = 15 if quick else 45
    rows = []
    for name, arena in [(n, bundled(n)) for n in ("warehouse", "factory")] + [
            (f"synthetic-{n}", synthetic(n)) for n in FEATURES]:
        for n in BOT_COUNTS:
            rows.append(one(name, arena, n, repeats))
    return {"bench": "shooting", "machine": machine(), "premeasure": rows}


def report(data: dict) -> str:
    out = [f"pre-measure, 4 weapons against every other bot (CPU time; machine {data['machine']})"]
    for r in data["premeasure"]:
        out.append(f"{r['arena']:>15} {r['features']:5d} features {r['bots']:3d} bots "
                   f"({r['in_sight']} in sight of the nose gun)")
        out.append(f"    premeasure_weapons      {fmt(r['premeasure'])}  "
                   f"{r['premeasure_over_limit']:.1f}x limit, "
                   f"naive {r['naive_over_premeasure']:.1f}x slower")
        out.append(f"    + the cursor's track    {fmt(r['premeasure_with_cursor_track'])}  "
                   "(fire tracks on: the track, blocker and point of the bot under the cursor)")
        out.append(f"    the same frame again    {fmt(r['premeasure_again'])}  "
                   f"(nothing moved: kept answers); with the cursor's track "
                   f"{fmt(r['cursor_track_again'])}")
        out.append(f"    with every fire track   {fmt(r['premeasure_with_tracks'])}")
        out.append(f"    naive                   {fmt(r['naive'])}")
        out.append(f"    machine limit           {fmt(r['machine_limit'])}")
    return "\n".join(out)


def main() -> None:
    bench_main(__doc__, "fewer repeats", collect, report)


if __name__ == "__main__":
    main()
