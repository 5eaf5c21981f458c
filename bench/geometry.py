"""Bench: sight with heights (D15) the way the game asks it.

Run: python bench/geometry.py [--quick] [--json]

For bundled arenas (warehouse, factory) and synthetic ones of 50, 500 and 2000
features (read and checked like `bottisota check`), with 4, 8, 16, 32 and 64
bots on legal spots, every ordered pair of bots (shooter's top to target's
middle, the other bots blocking) is asked three ways the game asks it:

- `sight()` line by line, as the shooting rules ask one shot's line;
- `sight_all(bots)`, the batch the robots and the threat view use;
- `sight_many(rows)`, the batch of arbitrary lines (pre-measure, cover);
- and, for comparison, `sight_plain()` line by line: the per-line check as it
  was before every question went through the batch path (now the reference
  the tests compare the fast answers with);

beside (a) a naive shapely version (every feature and bot tested for every
line, no index, no preparation; its setup is built once, outside the timing;
timed on a sample of lines and given per pair set) and (b) the machine limit:
one prepared-union predicate per line (every sight obstacle in one prepared
polygon, the lines built beforehand). Every answer is checked against the
naive one on the sample. CPU time; medians with p95 and p99.
"""
from __future__ import annotations

import random
from types import SimpleNamespace

import numpy as np
from common import (
    BOTS,
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

from bottisota.robot.situation import sees, sees_line_by_line

NAIVE_SAMPLE = 300             # lines timed naively per configuration


def arenas(quick: bool) -> list[tuple[str, object]]:
    out = [("warehouse", bundled("warehouse")), ("factory", bundled("factory"))]
    out += [(f"synthetic-{n}", synthetic(n)) for n in (FEATURES[:2] if quick else FEATURES)]
    return out


def one(name: str, arena, n_bots: int, repeats: int, seed: int = 1) -> dict:
    index = compiled(arena)
    rng = random.Random(seed)
    bots = place_discs(index, n_bots, rng)
    pairs = [(a, b) for a in bots for b in bots if a is not b]
    rows = np.array([(a.x, a.y, a.z + a.height, b.x, b.y, b.z + b.height / 2) for a, b in pairs])
    index.sight_all(bots)                     # builds the level unions once (not timed)

    def per_line():
        return [index.sight((a.x, a.y), a.z + a.height, (b.x, b.y), b.z + b.height / 2,
                            discs=bots).clear for a, b in pairs]

    matrix = index.sight_all(bots)
    lines = per_line()
    many = index.sight_many(rows, discs=bots)
    flat = [bool(matrix[i, j]) for i in range(n_bots) for j in range(n_bots) if i != j]
    assert flat == lines == many, f"{name}, {n_bots} bots: the batched and per-line answers differ"
    naive = NaiveSight(arena)
    sample = rng.sample(range(len(pairs)), min(NAIVE_SAMPLE, len(pairs)))
    for k in sample:
        assert naive.clear(*rows[k], bots) == lines[k], f"{name}: naive disagrees on line {k}"
    union = machine_limit_union(arena)
    ends = [((a.x, a.y), (b.x, b.y)) for a, b in pairs]
    t_line = stats(cpu_times(per_line, max(3, repeats // 4)))
    t_plain = stats(cpu_times(lambda: [index.sight_plain(
        (a.x, a.y), a.z + a.height, (b.x, b.y), b.z + b.height / 2, discs=bots).clear
        for a, b in pairs], 3))
    t_all = stats(cpu_times(lambda: index.sight_all(bots), repeats))
    t_many = stats(cpu_times(lambda: index.sight_many(rows, discs=bots), repeats))
    t_limit = stats(machine_limit(union, ends, repeats))
    t_rows, t_rows_alone = robots_rows(index, bots, matrix, repeats)
    per = cpu_times(lambda: [naive.clear(*rows[k], bots) for k in sample], 1, len(sample))[0]
    naive_ms = per * len(pairs) * 1e3
    return {"arena": name, "features": len(arena.features), "bots": n_bots,
            "pairs": len(pairs), "clear": int(sum(lines)),
            "sight_per_line": t_line, "sight_plain_per_line": t_plain, "sight_all": t_all,
            "sight_many": t_many, "sees_rows": t_rows, "sees_rows_alone": t_rows_alone,
            "sees_rows_over_limit": t_rows["median"] / t_limit["median"],
            "machine_limit": t_limit, "naive_ms": naive_ms,
            "naive_over_sight_all": naive_ms / t_all["median"],
            "naive_over_per_line": naive_ms / t_line["median"],
            "sight_all_over_limit": t_all["median"] / t_limit["median"],
            "per_line_over_limit": t_line["median"] / t_limit["median"]}


def robots_rows(index, bots, matrix, repeats: int) -> tuple[dict, dict]:
    """Sight as the robots ask it: every bot's `Situation.visible` in one state, one
    row each through `situation.sees` (the state's shared answers dropped before each
    repeat, as a new state starts with none), and the same rows asked each alone
    (`sees_line_by_line`, what every row cost before they were shared)."""
    robots = [SimpleNamespace(id=d.id, x=d.x, y=d.y, z=d.z, radius=d.r,
                              stats=SimpleNamespace(height=d.height)) for d in bots]
    state = SimpleNamespace(index=index, live_bots=lambda: robots)
    rows = [[(a, b) for b in robots if b is not a] for a in robots]
    holder = index.cached(("robot", "sight-rows"), lambda: [None])

    def shared():
        holder[0] = None
        return [sees(state, row) for row in rows]

    def alone():
        return [sees_line_by_line(state, row) for row in rows]

    want = [[bool(matrix[i, j]) for j in range(len(bots)) if j != i] for i in range(len(bots))]
    assert shared() == want == alone(), "the robots' rows differ from sight_all"
    return stats(cpu_times(shared, repeats)), stats(cpu_times(alone, max(3, repeats // 2)))


def collect(quick: bool = False) -> dict:
    repeats = 7 if quick else 21
    rows = []
    for name, arena in arenas(quick):
        for n in BOTS:
            rows.append(one(name, arena, n, repeats))
    return {"bench": "geometry", "machine": machine(), "sight": rows}


def report(data: dict) -> str:
    out = [f"sight, every ordered pair of bots (CPU time; machine {data['machine']})"]
    for r in data["sight"]:
        out.append(f"{r['arena']:>15} {r['features']:5d} features {r['bots']:3d} bots "
                   f"{r['pairs']:5d} pairs ({r['clear']} clear)")
        out.append(f"    sight() per line  {fmt(r['sight_per_line'])}  "
                   f"{r['per_line_over_limit']:6.1f}x limit, "
                   f"naive {r['naive_over_per_line']:.0f}x slower")
        out.append(f"    sight_plain/line  {fmt(r['sight_plain_per_line'])}  (the per-line "
                   "check before the batch path: the reference)")
        out.append(f"    sight_all         {fmt(r['sight_all'])}  "
                   f"{r['sight_all_over_limit']:6.1f}x limit, "
                   f"naive {r['naive_over_sight_all']:.0f}x slower")
        out.append(f"    sight_many        {fmt(r['sight_many'])}")
        out.append(f"    sees, every row   {fmt(r['sees_rows'])}  "
                   f"{r['sees_rows_over_limit']:6.1f}x limit (the robots' rows, shared; "
                   f"each alone {r['sees_rows_alone']['median']:.3f} ms)")
        out.append(f"    machine limit     {fmt(r['machine_limit'])}   "
                   f"naive {r['naive_ms']:.1f} ms")
    return "\n".join(out)


def main() -> None:
    bench_main(__doc__, "fewer repeats, no 2000-feature arena", collect, report)


if __name__ == "__main__":
    main()
