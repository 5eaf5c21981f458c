"""What every bench shares: the arenas (bundled, and synthetic ones that pass the
same validation as `bottisota check`), bots on legal spots, CPU timing with
percentiles, and the two yardsticks every figure is compared with.

Times are CPU time of this process (`time.process_time`): on a machine shared
with other work the wall time mostly measures the others.
"""
from __future__ import annotations

import gc
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
# the process as the `bottisota` command sets it up before numpy is imported (cli.py)
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import shapely  # noqa: E402
from shapely.geometry import LineString  # noqa: E402

from bottisota.core.arena import Arena  # noqa: E402
from bottisota.engine.movement.physics import under_higher_floor  # noqa: E402
from bottisota.formats.loading import arena_from_dict, bundled_rules, load_arena  # noqa: E402
from bottisota.geometry.arena_index import ArenaIndex, Disc  # noqa: E402
from bottisota.geometry.compiled import compile_arena  # noqa: E402
from bottisota.geometry.sightline import HEIGHT_EPS  # noqa: E402
from bottisota.geometry.surfaces import feature_surface  # noqa: E402

BOTS = (4, 8, 16, 32, 64)
FEATURES = (50, 500, 2000)
CELL = 14.0                    # cm: one synthetic feature (or a free spot) per cell
BOT_R, BOT_H = 1.0, 2.0
WALL_TOPS = (10.0, 10.0, 5.0, 3.0, 1.5)
PLATFORM_TOPS = (2.0, 4.0, 6.0)


# --- arenas ------------------------------------------------------------------------------

def bundled(name: str) -> Arena:
    """A bundled arena (arenas/NAME.yaml), read and checked like `bottisota check`."""
    return load_arena(ROOT / "arenas" / f"{name}.yaml", bundled_rules())


def synthetic_data(features: int, seed: int = 1) -> dict:
    """An arena mapping (formats.md) with about `features` features: walls of several
    heights, doors, platforms with a ramp up to each, pits and service points, one
    per cell of a grid, a third of the cells left free for bots."""
    rng = random.Random(seed)
    cells = int(math.ceil(features * 1.5))
    side = int(math.ceil(math.sqrt(cells)))
    size = side * CELL
    out: list[dict] = []
    order = list(range(side * side))
    rng.shuffle(order)
    for c in order:
        if len(out) >= features:
            break
        if rng.random() < 1 / 3:
            continue
        x0, y0 = (c % side) * CELL + 1.0, (c // side) * CELL + 1.0
        kind = rng.choices(("wall", "door", "platform", "pit", "service"),
                           (60, 6, 22, 6, 6))[0]
        n = len(out)
        if kind == "wall":
            long, thick = round(rng.uniform(4, 11), 2), round(rng.uniform(1, 2), 2)
            w, h = (long, thick) if rng.random() < 0.5 else (thick, long)
            cx, cy = x0 + 6.0, y0 + 6.0         # centred in the cell: it fits turned too
            out.append({"type": "wall", "id": f"w{n}", "rect": [round(cx - w / 2, 2),
                        round(cy - h / 2, 2), w, h], "height": rng.choice(WALL_TOPS),
                        "rotate": rng.choice((0, 0, 30, 45))})
        elif kind == "door":
            out.append({"type": "door", "id": f"d{n}", "rect": [x0 + 4, y0, 1.5, 8]})
        elif kind == "platform" and len(out) + 1 < features:
            top = rng.choice(PLATFORM_TOPS)
            out.append({"type": "platform", "id": f"p{n}", "rect": [x0, y0, 7, 8],
                        "height": top})
            out.append({"type": "ramp", "id": f"r{n}", "rect": [x0 + 7, y0, 5, 8],
                        "from": 0, "to": top, "up": 270})
        elif kind == "pit":
            out.append({"type": "pit", "id": f"pit{n}", "circle": [x0 + 6, y0 + 6, 2.5]})
        else:
            out.append({"type": "service", "id": f"s{n}", "circle": [x0 + 6, y0 + 6, 2.5]})
    return {"name": f"synthetic-{features}", "size": [size, size], "features": out}


def synthetic(features: int, seed: int = 1) -> Arena:
    """`synthetic_data` read and validated like any arena file (the loader runs the
    same checks as `bottisota check` and refuses an arena that fails them)."""
    return arena_from_dict(synthetic_data(features, seed), f"synthetic-{features}",
                           rules=bundled_rules())


def place_discs(index: ArenaIndex, n: int, rng: random.Random, r: float = BOT_R,
                h: float = BOT_H) -> list[Disc]:
    """n bots on legal spots: on the table, clear of walls, doors, pits, each other and
    higher floors (no base reaches under one, docs/decisions.md D29)."""
    bots: list[Disc] = []
    level = SimpleNamespace(index=index, rules=index.rules)    # what under_higher_floor reads
    w, hgt = index.size
    tries = 0
    while len(bots) < n:
        tries += 1
        if tries > 200000:
            raise RuntimeError(f"no room for {n} bots")
        x, y = rng.uniform(r + 0.5, w - r - 0.5), rng.uniform(r + 0.5, hgt - r - 0.5)
        if index.disc_blocked(x, y, r) is not None or index.features_at(x, y, ("pit",)):
            continue
        if under_higher_floor(level, round(x, 2), round(y, 2), r,  # type: ignore[arg-type]
                              index.floor_z(round(x, 2), round(y, 2))):
            continue
        if any(math.hypot(b.x - x, b.y - y) < 2 * r + 0.2 for b in bots):
            continue
        bots.append(Disc(f"b{len(bots)}", round(x, 2), round(y, 2), r,
                         index.floor_z(round(x, 2), round(y, 2)), h))
    return bots


# --- timing ------------------------------------------------------------------------------

def cpu_times(fn: Callable[[], Any], repeats: int, per: int = 1) -> list[float]:
    """CPU seconds of each of `repeats` calls, divided by `per` (items per call)."""
    out = []
    for _ in range(repeats):
        c0 = time.process_time()
        fn()
        out.append((time.process_time() - c0) / per)
    return out


def stats(times: list[float], scale: float = 1e3) -> dict:
    """Median, p95, p99 and count (milliseconds by default)."""
    s = sorted(times)

    def pct(p: float) -> float:
        return s[min(len(s) - 1, int(math.ceil(p * len(s))) - 1)] * scale

    return {"median": statistics.median(s) * scale, "p95": pct(0.95), "p99": pct(0.99),
            "n": len(s)}


def fmt(d: dict, unit: str = "ms") -> str:
    return f"{d['median']:8.3f} {unit} (p95 {d['p95']:.3f}, p99 {d['p99']:.3f})"


def machine() -> dict:
    """What the figures were taken on: cores and the load average at the time."""
    load = os.getloadavg() if hasattr(os, "getloadavg") else (0.0, 0.0, 0.0)
    return {"cores": os.cpu_count(), "load_1min": round(load[0], 2),
            "timing": "CPU time of this process"}


# --- yardsticks --------------------------------------------------------------------------

def sight_obstacles(arena: Arena) -> list:
    """Every feature that can block a sight line (walls, doors, raised floors)."""
    return [f for f in arena.features
            if f.type in ("wall", "door", "platform", "stairs", "ramp", "escalator")]


def machine_limit_union(arena: Arena):
    """The machine limit's prepared union: every sight obstacle in one polygon."""
    union = shapely.union_all([f.shape for f in sight_obstacles(arena)])
    shapely.prepare(union)
    return union


def machine_limit(union, lines: list[tuple[tuple[float, float], tuple[float, float]]],
                  repeats: int) -> list[float]:
    """One prepared-union predicate per query (the lines built beforehand): the
    least any sight check can cost on this machine, in CPU seconds per call."""
    geoms = shapely.linestrings([[a, b] for a, b in lines])
    return cpu_times(lambda: shapely.intersects(union, geoms), repeats)


def machine_limit_ms(repeats: int = 21) -> float:
    """The yardstick every bench of whole paths prints beside its figures: the machine
    limit of `sight_all` with 32 bots on synthetic-500 (geometry.py's), CPU ms, median."""
    arena = synthetic(500)
    bots = place_discs(compiled(arena), 32, random.Random(1))
    ends = [((a.x, a.y), (b.x, b.y)) for a in bots for b in bots if a is not b]
    return statistics.median(machine_limit(machine_limit_union(arena), ends, repeats)) * 1e3


def unprepared(geom):
    return shapely.from_wkb(shapely.to_wkb(geom))


class NaiveSight:
    """Sight with heights the plain way: every feature and bot tested for every
    line, no index, no preparation. Setup (the surfaces) is built once, outside
    the timing."""

    def __init__(self, arena: Arena) -> None:
        floors = ("platform", "stairs", "ramp", "escalator")
        self.surfaces = []
        for f in sight_obstacles(arena):
            later = [g.shape for g in arena.features[f.index + 1:] if g.type in floors]
            region = f.shape
            if f.type in floors and later:
                region = f.shape.difference(shapely.union_all(later))
            self.surfaces.append(feature_surface(f, unprepared(region)))

    def clear(self, ax: float, ay: float, az: float, bx: float, by: float, bz: float,
              bots: list[Disc], open_doors: set[str] = frozenset()) -> bool:
        line = LineString([(ax, ay), (bx, by)])
        length = line.length
        for s in self.surfaces:
            if s.top <= 0.0 or s.feature.id in open_doors or not line.intersects(s.region):
                continue
            for x, y in shapely.get_coordinates(line.intersection(s.region)):
                f = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / (length * length)
                if s.z_at(x, y) >= az + (bz - az) * f - HEIGHT_EPS:
                    return False
        for d in bots:
            if math.hypot(d.x - ax, d.y - ay) < d.r or math.hypot(d.x - bx, d.y - by) < d.r:
                continue
            chord = line.intersection(shapely.Point(d.x, d.y).buffer(d.r, quad_segs=64))
            for x, y in shapely.get_coordinates(chord):
                f = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / (length * length)
                if d.z + d.height >= az + (bz - az) * f - HEIGHT_EPS:
                    return False
        return True


def compiled(arena: Arena) -> ArenaIndex:
    return compile_arena(arena, bundled_rules())


def with_bytecode(env: dict[str, str], folder: str | Path) -> dict[str, str]:
    """`env` for a child process that keeps and reads every module's bytecode in `folder`
    (PYTHONPYCACHEPREFIX), whatever PYTHONDONTWRITEBYTECODE says in the bench's own
    environment: after one run has filled it, the child reads its modules compiled, as an
    installed copy (and a checkout after its first run) does."""
    out = dict(env, PYTHONPYCACHEPREFIX=str(folder))
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    return out


def collector_as_the_command() -> None:
    """Python's garbage collector as `bottisota` sets it once a command's modules are in
    (`cli._run`): the objects made so far frozen, left out of its rounds. Call it with
    the bench's modules imported, before timing."""
    gc.freeze()


def bench_main(doc: str, quick_help: str, collect: Callable[[bool], dict],
               report: Callable[[dict], str]) -> None:
    """The command line every bench shares: `--quick` (`quick_help`) and `--json`."""
    import argparse
    import json

    p = argparse.ArgumentParser(description=doc.splitlines()[0])
    p.add_argument("--quick", action="store_true", help=quick_help)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args()
    collector_as_the_command()
    data = collect(args.quick)
    print(json.dumps(data, indent=1) if args.json else report(data))


# a robot seat's `play --headless` with each frame's CPU on its own thread: argv is the
# arena file and the number of frames (bench/view_paths.py and tests/test_robot_frames.py)
ROBOT_FRAMES = r"""
import sys, time
from bottisota.view.app import TableApp
step = TableApp.step
times = []
seen = {}

def timed_step(self, *args, **kwargs):
    started = time.thread_time()
    out = step(self, *args, **kwargs)
    times.append((time.thread_time() - started) * 1000.0)
    seen["app"] = self
    return out

TableApp.step = timed_step
from bottisota.cli import main
main(["play", "--robot", "red", "--seed", "2", "--headless", "--frames", sys.argv[2],
      sys.argv[1]])
app = seen["app"]
print("frames", *(f"{t:.2f}" for t in times))
print("actions", len(app.game.history), "worker", app.actions.robot_worker is not None)
"""
