"""Benchmark of the compiled arena geometry (issue 2).

Run: python bench/geometry.py [--seed N] [--repeats N]

1. Sight with heights (D15) for all 992 ordered pairs of 32 bots in an arena of
   500 features, with `ArenaIndex.sight_all` (bots in) and `sight_many` (point
   pairs in), beside the same answers found naively (every feature tested, no
   index, no preparation).
2. Swept-disc legality of 5-segment paths (`ArenaIndex.path_clear`) and the
   exact first contact of paths that hit something (`path_contact`), beside a
   naive buffer-and-test-every-feature check.
Prints medians of CPU time over repeated runs (wall time beside). Targets: 992
pairs < 2 ms and >= 50x naive; a 5-segment path's legality < 20 us.
"""
from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import shapely
from shapely.geometry import LineString

from bottisota.core import shapes
from bottisota.geometry.arena_index import ArenaIndex, Disc
from bottisota.geometry.sightline import HEIGHT_EPS
from bottisota.geometry.surfaces import feature_surface
from bottisota.core.arena import Arena, Feature

SIZE = (240.0, 180.0)
BOT_R, BOT_H = 1.0, 2.0
N_BOTS = 32
MIX = (("wall", 250), ("platform", 80), ("stairs", 20), ("ramp", 20), ("door", 20),
       ("pit", 30), ("conveyor", 20), ("service", 15), ("teleporter", 15), ("goal", 15),
       ("lift", 15))
WALL_TOPS = (10.0, 10.0, 10.0, 5.0, 3.0)
PLATFORM_TOPS = (2.0, 4.0, 6.0)


def build_arena(rng: random.Random) -> Arena:
    """500 features of every type scattered over the table, with typical heights."""
    feats: list[Feature] = []
    w, h = SIZE
    for kind, count in MIX:
        for _ in range(count):
            i = len(feats)
            x, y = rng.uniform(5, w - 30), rng.uniform(5, h - 30)
            if kind in ("wall", "door"):
                long, thick = rng.uniform(4, 20), rng.uniform(1, 2)
                sw, sh = (long, thick) if rng.random() < 0.5 else (thick, long)
                shape = shapes.rotated(shapes.rect(x, y, sw, sh), rng.choice((0, 0, 30, 45)))
                top = rng.choice(WALL_TOPS) if kind == "wall" else 10.0
                feats.append(Feature(i, kind, shape, height=top))
            elif kind == "platform":
                shape = shapes.rect(x, y, rng.uniform(8, 25), rng.uniform(8, 25))
                feats.append(Feature(i, kind, shape, height=rng.choice(PLATFORM_TOPS)))
            elif kind in ("stairs", "ramp"):
                shape = shapes.rect(x, y, rng.uniform(4, 10), rng.uniform(4, 10))
                feats.append(Feature(i, kind, shape, from_z=0.0, to_z=rng.choice(PLATFORM_TOPS),
                                     up=rng.choice((0.0, 90.0, 180.0, 270.0))))
            elif kind == "conveyor":
                path = ((x, y), (x + rng.uniform(5, 20), y))
                feats.append(Feature(i, kind, shapes.strip(path, 4.0), path=path, width=4.0))
            elif kind == "lift":
                feats.append(Feature(i, kind, shapes.rect(x, y, 4, 4), top=4.0))
            else:
                feats.append(Feature(i, kind, shapes.circle(x, y, rng.uniform(1.5, 4))))
    return Arena("bench", SIZE, tuple(feats))


def place_bots(index: ArenaIndex, rng: random.Random) -> list[Disc]:
    """32 bots on legal spots (on the table, clear of walls, doors and each other)."""
    bots: list[Disc] = []
    w, h = SIZE
    while len(bots) < N_BOTS:
        x, y = rng.uniform(2, w - 2), rng.uniform(2, h - 2)
        if index.disc_blocked(x, y, BOT_R) or any(
                math.hypot(b.x - x, b.y - y) < 2 * BOT_R for b in bots):
            continue
        bots.append(Disc(f"b{len(bots)}", x, y, BOT_R, index.floor_z(x, y), BOT_H))
    return bots


def unprepared(geom):
    return shapely.from_wkb(shapely.to_wkb(geom))


def naive_sight(arena: Arena, pairs, bots: list[Disc]) -> list[bool]:
    """Every feature and bot tested for every line: no index, no preparation."""
    surfaces = []
    for f in arena.features:
        if f.type in ("wall", "door", "platform", "stairs", "ramp", "escalator"):
            later = [g.shape for g in arena.features[f.index + 1:]
                     if g.type in ("platform", "stairs", "ramp", "escalator")]
            region = f.shape
            if f.type not in ("wall", "door") and later:
                region = f.shape.difference(shapely.union_all(later))
            surfaces.append((feature_surface(f, unprepared(region))))
    out = []
    for (ax, ay), az, (bx, by), bz in pairs:
        line = LineString([(ax, ay), (bx, by)])
        length = line.length
        clear = True
        for s in surfaces:
            if s.top <= 0.0 or not line.intersects(s.region):
                continue
            for x, y in shapely.get_coordinates(line.intersection(s.region)):
                f = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / (length * length)
                if s.z_at(x, y) >= az + (bz - az) * f - HEIGHT_EPS:
                    clear = False
                    break
            if not clear:
                break
        if clear:
            for d in bots:
                if math.hypot(d.x - ax, d.y - ay) < d.r or math.hypot(d.x - bx, d.y - by) < d.r:
                    continue
                chord = line.intersection(shapely.Point(d.x, d.y).buffer(d.r, quad_segs=64))
                for x, y in shapely.get_coordinates(chord):
                    f = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / (length * length)
                    if d.z + d.height >= az + (bz - az) * f - HEIGHT_EPS:
                        clear = False
                if not clear:
                    break
        out.append(clear)
    return out


def prepared_union_reference(arena: Arena, pairs) -> float:
    """design.md's yardstick: one prepared union, every line tested once."""
    union = shapely.union_all([f.shape for f in arena.features
                               if f.type in ("wall", "door", "platform")])
    shapely.prepare(union)
    lines = shapely.linestrings([[a, b] for a, _, b, _ in pairs])
    return median_time(lambda: shapely.intersects(union, lines), 30, "ref")


def random_paths(index: ArenaIndex, bots: list[Disc], rng: random.Random, n: int):
    paths = []
    for k in range(n):
        b = bots[k % len(bots)]
        pts = [(b.x, b.y)]
        heading = rng.uniform(0, 360)
        for _ in range(5):
            heading += rng.choice((-45, 0, 45))
            step = rng.uniform(1, 4)
            x, y = pts[-1]
            pts.append((x + step * math.sin(math.radians(heading)),
                        y + step * math.cos(math.radians(heading))))
        paths.append(pts)
    return paths


def naive_path_clear(obstacles, path, r: float) -> bool:
    swept = LineString(path).buffer(r)
    return not any(swept.intersects(o) for o in obstacles)


WALL: dict[str, float] = {}


def median_time(fn, repeats: int, name: str = "") -> float:
    """Median CPU time of one call (this process's own time: other processes on a
    shared machine do not inflate it); the median wall time is kept in WALL[name]."""
    cpu, wall = [], []
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        fn()
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    WALL[name] = statistics.median(wall)
    return statistics.median(cpu)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=50)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    arena = build_arena(rng)
    t0 = time.perf_counter()
    index = ArenaIndex(arena)
    compile_ms = (time.perf_counter() - t0) * 1e3
    bots = place_bots(index, rng)
    pairs = [((a.x, a.y), a.z + a.height, (b.x, b.y), b.z + b.height / 2)
             for a in bots for b in bots if a is not b]
    t0 = time.perf_counter()
    fast = index.sight_many(pairs, discs=bots)          # first call builds the level unions
    first_ms = (time.perf_counter() - t0) * 1e3
    naive = naive_sight(arena, pairs, bots)
    assert fast == naive, "sight_many disagrees with the naive check"
    on_floors = sum(1 for b in bots if b.z > 0)
    print(f"arena: {len(arena.features)} features, {len(bots)} bots ({on_floors} above the "
          f"table), compile {compile_ms:.1f} ms, first sight_many {first_ms:.1f} ms")
    reference = prepared_union_reference(arena, pairs)
    print(f"machine check: one prepared union of the walls and platforms against all "
          f"{len(pairs)} lines takes {reference * 1e3:.3f} ms CPU [{WALL['ref'] * 1e3:.3f} wall] "
          "(design.md measured 1.3-1.9 ms on a quiet machine)")
    matrix = index.sight_all(bots)
    assert [bool(matrix[i, j]) for i in range(N_BOTS) for j in range(N_BOTS) if i != j] == fast
    t_all = median_time(lambda: index.sight_all(bots), args.repeats, "all")
    t_fast = median_time(lambda: index.sight_many(pairs, discs=bots), args.repeats, "many")
    t_naive = median_time(lambda: naive_sight(arena, pairs, bots), 3, "naive")
    n = len(pairs)
    print(f"sight, {n} ordered pairs with heights (D15), {sum(fast)} clear "
          "(median CPU time per run; wall time in brackets):")
    for label, t, key, note in (("sight_all", t_all, "all", "bots in, matrix out"),
                                ("sight_many", t_fast, "many", "a list of point pairs in"),
                                ("naive", t_naive, "naive", "every feature, unprepared")):
        print(f"  {label:<11} {t * 1e3:8.3f} ms  [{WALL[key] * 1e3:8.3f}]  "
              f"({n / t:,.0f} checks/s)  {note}")
    print(f"  ratio       {t_naive / t_all:8.1f} x sight_all, {t_naive / t_fast:.1f} x sight_many"
          "   (target: < 2 ms and >= 50x)")
    print(f"  against the machine check: sight_all {t_all / reference:.2f} x, "
          f"sight_many {t_fast / reference:.2f} x")

    paths = random_paths(index, bots, rng, 400)
    obstacles = [unprepared(f.shape) for f in arena.features if f.type in ("wall", "door")]
    legal = [index.path_clear(p, BOT_R) for p in paths]
    differ = sum(ok != naive_path_clear(obstacles, p, BOT_R) for p, ok in zip(paths, legal))
    clear_paths = [p for p, ok in zip(paths, legal) if ok]
    hit_paths = [p for p, ok in zip(paths, legal) if not ok]

    def per_path(fn, group, repeats, name):
        return median_time(lambda: [fn(p) for p in group], repeats, name) / max(1, len(group))

    t_clear = per_path(lambda p: index.path_clear(p, BOT_R), clear_paths, args.repeats, "clear")
    t_hit = per_path(lambda p: index.path_contact(p, BOT_R), hit_paths,
                     max(3, args.repeats // 5), "hit")
    t_naive_path = per_path(lambda p: naive_path_clear(obstacles, p, BOT_R), clear_paths, 3,
                            "naive_path")
    print(f"swept disc r={BOT_R}, 5-segment paths: {len(clear_paths)} legal, {len(hit_paths)} "
          f"touching something ({differ} near-miss judged otherwise by the buffered naive test):")
    for label, t, key, group, note in (
            ("path_clear, legal path", t_clear, "clear", clear_paths, "(target < 20 us)"),
            ("path_contact, exact contact", t_hit, "hit", hit_paths, ""),
            ("naive legality, legal path", t_naive_path, "naive_path", clear_paths, "")):
        wall = WALL[key] / max(1, len(group))
        print(f"  {label:<29} {t * 1e6:8.1f} us  [{wall * 1e6:8.1f}]  ({1 / t:,.0f} paths/s)  {note}")
    print(f"  ratio                         {t_naive_path / t_clear:8.1f} x")


if __name__ == "__main__":
    main()
