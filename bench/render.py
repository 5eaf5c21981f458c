"""Frame times of the table view at 1920x1080: the warehouse arena, 32 bots, the
pre-measure overlay on (one bot's weapon aimed, a target hovered).

    python bench/render.py [--frames 200]

Prints the median and 95th percentile frame time with the static arena layer
cached (as the view runs) and with it redrawn every frame (no caching), and
the time of one pre-measure (computed once per state change, not per frame).
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from bottisota.formats.content import arenas_dir  # noqa: E402
from bottisota.formats.loading import bundled_rules  # noqa: E402
from bottisota.formats.loading import bundled_rules
from bottisota.formats.loading import load_arena  # noqa: E402
from bottisota.engine.game import Game  # noqa: E402
from bottisota.engine.setup import new_state  # noqa: E402
from bottisota.engine.turns import turn_event  # noqa: E402
from bottisota.view.app import TableApp  # noqa: E402
from bottisota.viewmodel.core_calls import premeasure  # noqa: E402
from bottisota.geometry.compiled import compile_arena  # noqa: E402

SIZE = (1920, 1080)
BOTS = 32
PLAYERS = ("red", "blue", "orange", "sky")
CARDS = ("rammer", "artillery", "hunter", "scout", "brawler", "sniper", "hoverdrone", "juggernaut")


def free_spots(arena, count: int, r: float = 1.5) -> list[tuple[float, float]]:
    """Spots on the floor where a bot fits (the core's geometry answers), spread out."""
    index = compile_arena(arena, bundled_rules())
    spots = []
    w, h = arena.size
    step = 9.0
    y = 6.0
    while y < h - 4 and len(spots) < count:
        x = 6.0
        while x < w - 4 and len(spots) < count:
            if (index.inside_table(x, y, r) and index.disc_blocked(x, y, r) is None
                    and not index.features_at(x, y, ["pit"]) and index.floor_z(x, y) == 0):
                spots.append((x, y))
            x += step
        y += step
    if len(spots) < count:
        raise SystemExit(f"only {len(spots)} free spots for {count} bots")
    return spots


def build_app() -> TableApp:
    rules = bundled_rules()
    arena = load_arena(arenas_dir() / "warehouse.yaml", rules)
    spots = free_spots(arena, BOTS)
    bots = [{"id": f"bot{i}", "player": PLAYERS[i % len(PLAYERS)], "card": CARDS[i % len(CARDS)],
             "at": list(spots[i]), "facing": (i * 45) % 360} for i in range(BOTS)]
    state = new_state(arena, rules, bots, dice=1, round=2)
    shooter = next(b for b in state.bots.values() if b.card.id == "artillery")
    turn_event(state, shooter, "shoot")
    app = TableApp(Game(state), SIZE)
    app.selected = shooter.id
    app.choose_weapon(1)
    target = min((b for b in state.bots.values() if b.id != shooter.id),
                 key=lambda b: shooter.distance_to(b))
    app.aim = target.id
    far = max((b for b in state.bots.values()), key=lambda b: shooter.distance_to(b))
    app.mouse = tuple(round(v) for v in app.camera.to_px(far.x, far.y))
    return app


def frame_times(app: TableApp, frames: int, cached: bool) -> list[float]:
    out = []
    for _ in range(frames):
        if not cached:
            app.arena_layer.invalidate()
        t = time.perf_counter()
        app.update(1.0 / 60.0)
        app.draw()
        out.append((time.perf_counter() - t) * 1000.0)
    return out


def report(name: str, times: list[float]) -> None:
    times = sorted(times)
    p95 = times[int(len(times) * 0.95) - 1]
    print(f"{name:<32} median {statistics.median(times):6.2f} ms   p95 {p95:6.2f} ms")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--frames", type=int, default=200)
    args = p.parse_args()
    pygame.font.init()
    app = build_app()
    t = time.perf_counter()
    pm = premeasure(app.state, app.selected, app.weapon, app.aim)
    once = (time.perf_counter() - t) * 1000.0
    assert pm is not None
    frame_times(app, 10, True)          # warm the caches (layer, labels, pre-measure)
    print(f"warehouse, {BOTS} bots, {SIZE[0]}x{SIZE[1]}, pre-measure of {app.selected}'s "
          f"{app.weapon} aimed at {app.aim}")
    report("frame, static layer cached", frame_times(app, args.frames, True))
    report("frame, no caching", frame_times(app, max(20, args.frames // 5), False))
    print(f"{'one pre-measure (per change)':<32} {once:6.2f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
