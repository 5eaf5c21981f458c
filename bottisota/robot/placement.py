"""Where a robot puts a new bot (R6, R55): spots on a grid, ranked by the rolled wish,
the first one the rules accept is taken.

The spots and their costs are worked out as arrays (a large arena has thousands of
spots): each cost is the same float the plain per-spot formula gives (distances by
`math.hypot`, see `_nearest`), so the ranking, ties included, is that formula's.
Numpy's distances rank the spots first; the exact costs are worked out only for
runs of spots whose costs lie within a rounding of each other (`_best_first`).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator
from itertools import islice

import numpy as np

from bottisota.core.actions import Place
from bottisota.engine.state import Bot, GameState
from bottisota.geometry.arena_index import FAST_PATHS
from bottisota.robot.candidates import bearing_to
from bottisota.robot.planner import goal_spots, service_spots
from bottisota.robot.situation import discs

SPACING = 6.0                   # cm between the spots tried
NEAR_ENEMY = 25.0               # cm: "near" an enemy, not on top of it
COVER_SPOTS = 40                # cover: spots furthest from the enemies whose sight is asked
_TIE = 1e-9                     # relative window of squared distances that may hold the nearest


def _grid(state: GameState, bot: Bot) -> tuple[np.ndarray, np.ndarray]:
    """The spots' x and y, row by row (y outer), kept `radius` off the table's edge."""
    w, h = state.arena.size
    r = bot.radius
    nx, ny = max(int(w // SPACING), 1), max(int(h // SPACING), 1)
    xs = np.minimum(np.maximum((np.arange(nx) + 0.5) * w / nx, r), w - r)
    ys = np.minimum(np.maximum((np.arange(ny) + 0.5) * h / ny, r), h - r)
    return np.tile(xs, ny), np.repeat(ys, nx)


def _nearest(points: list[tuple[float, float]], xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """For each spot, `min(math.hypot(px - x, py - y))` over the points (0 with none):
    the points that may be nearest are found by squared distance, and only they are
    measured with `math.hypot`, so the value is the plain formula's to the last bit."""
    if not points:
        return np.zeros(len(xs))
    px = np.array([p[0] for p in points])
    py = np.array([p[1] for p in points])
    d2 = (px[None, :] - xs[:, None]) ** 2 + (py[None, :] - ys[:, None]) ** 2
    first = d2.argmin(axis=1)
    low = d2[np.arange(len(xs)), first]
    ties = np.flatnonzero((d2 <= low[:, None] * (1.0 + _TIE) + 1e-12).sum(axis=1) > 1)
    hypot = math.hypot
    out = [hypot(points[i][0] - x, points[i][1] - y)
           for i, x, y in zip(first.tolist(), xs.tolist(), ys.tolist(), strict=True)]
    for k in ties.tolist():         # two points about as near: measure each of them
        x, y = float(xs[k]), float(ys[k])
        close = np.flatnonzero(d2[k] <= low[k] * (1.0 + _TIE) + 1e-12)
        out[k] = min(hypot(points[i][0] - x, points[i][1] - y) for i in close.tolist())
    return np.array(out)


def placement_costs(state: GameState, bot: Bot, wish: str, xs: np.ndarray,
                    ys: np.ndarray, exact: bool = True) -> np.ndarray:
    """The cost of each spot for the wish (lower is better). For "cover" the enemies'
    sight of every spot is asked in one batched query. Not `exact`: distances by
    numpy, within a rounding of the exact costs (cover is always exact)."""
    enemies = [b for b in state.live_bots() if b.player != bot.player]
    w, h = state.arena.size
    foes = [(e.x, e.y) for e in enemies]
    goals, services = goal_spots(state), service_spots(state)
    nearest = _nearest if exact else _nearest_about
    if wish == "near_enemy" and foes:
        return np.abs(nearest(foes, xs, ys) - NEAR_ENEMY)
    if wish == "far_from_enemies" and foes:
        return -nearest(foes, xs, ys)
    if wish == "near_goal" and goals:
        return nearest(goals, xs, ys)
    if wish == "near_service" and services:
        return nearest(services, xs, ys)
    if wish == "cover" and foes:
        seen = _seen_counts(state, bot, enemies, xs, ys)
        return seen * 100.0 - _nearest(foes, xs, ys) * 0.1
    if not exact:
        return np.hypot(xs - w / 2, ys - h / 2)
    return np.array([math.hypot(x - w / 2, y - h / 2)
                     for x, y in zip(xs.tolist(), ys.tolist(), strict=True)])


def _nearest_about(points: list[tuple[float, float]], xs: np.ndarray,
                   ys: np.ndarray) -> np.ndarray:
    """`_nearest` within a rounding: the square root of the least squared distance.
    One point at a time over every spot (the spots' arrays stay contiguous: a
    spots-by-points table and its row minimum cost 7x more at 60 points)."""
    if not points:
        return np.zeros(len(xs))
    (x0, y0), rest = points[0], points[1:]
    least = (xs - x0) ** 2 + (ys - y0) ** 2
    dx, dy = np.empty_like(xs), np.empty_like(ys)
    for px, py in rest:
        np.subtract(xs, px, out=dx)
        np.subtract(ys, py, out=dy)
        dx *= dx
        dy *= dy
        dx += dy
        np.minimum(least, dx, out=least)
    return np.sqrt(least)


def _best_first(state: GameState, bot: Bot, wish: str, xs: np.ndarray, ys: np.ndarray,
                by_index: bool = False) -> Iterator[int]:
    """Spot indices in the order of the exact costs (ties by x, y; or by index, as a
    stable sort), the exact costs worked out only where they could change it: the
    spots ranked by the numpy costs, and each run of spots whose costs lie within
    a rounding of each other put in order by their exact costs."""
    about = placement_costs(state, bot, wish, xs, ys, exact=False)
    order = np.argsort(about, kind="stable") if by_index else np.lexsort((ys, xs, about))
    ranked = about[order]
    slack = 1e-9 * (1.0 + np.abs(ranked))   # far wider than any rounding of a distance
    cuts = np.flatnonzero(np.diff(ranked) > slack[:-1] + slack[1:]) + 1
    start = 0
    for end in cuts.tolist() + [len(order)]:
        run = order[start:end]
        if len(run) > 1:
            cost = placement_costs(state, bot, wish, xs[run], ys[run])
            run = run[np.lexsort((run, cost)) if by_index
                      else np.lexsort((ys[run], xs[run], cost))]
        yield from run.tolist()
        start = end


def _seen_counts(state: GameState, bot: Bot, enemies: list[Bot], xs: np.ndarray,
                 ys: np.ndarray) -> np.ndarray:
    """How many enemies see a bot's middle at each spot (R22, D15): one batched
    sight query for every spot and enemy."""
    if not len(xs):
        return np.zeros(0)
    mid = bot.stats.height / 2.0
    rows = np.array([(e.x, e.y, e.z + e.stats.height, x, y, mid)
                     for x, y in zip(xs.tolist(), ys.tolist(), strict=True) for e in enemies],
                    dtype=float)
    clear = np.array(state.index.sight_many(rows, discs=discs(state)), dtype=bool)
    seen: np.ndarray = clear.reshape(len(xs), len(enemies)).sum(axis=1).astype(float)
    return seen


def _ranked(costs: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Spot indices by (cost, x, y), as sorting the (cost, (x, y)) tuples would."""
    return np.lexsort((ys, xs, costs))


def place(state: GameState, bot: Bot, wish: str, legal: Callable[[Place], object]) -> Place:
    """The best spot for the wish that `legal` accepts (returns None for legal),
    facing the nearest enemy or the table's centre."""
    xs, ys = _grid(state, bot)
    fast = FAST_PATHS.on
    if wish == "cover":             # sight lines cost: rank by distance first, test a few
        if fast:
            keep = np.array(list(islice(_best_first(state, bot, "far_from_enemies", xs, ys,
                                                    by_index=True), COVER_SPOTS)), dtype=int)
        else:
            far = placement_costs(state, bot, "far_from_enemies", xs, ys)
            keep = np.argsort(far, kind="stable")[:COVER_SPOTS]
        xs, ys = xs[keep], ys[keep]
    order: Iterable[int]
    if fast and wish != "cover":
        order = _best_first(state, bot, wish, xs, ys)
    else:
        order = _ranked(placement_costs(state, bot, wish, xs, ys), xs, ys).tolist()
    enemies = [b for b in state.live_bots() if b.player != bot.player]
    w, h = state.arena.size
    fallback = None
    for k in order:
        x, y = float(xs[k]), float(ys[k])
        look = min(enemies, key=lambda e: math.hypot(e.x - x, e.y - y)).pos if enemies \
            else (w / 2, h / 2)
        facing = round(bearing_to(x, y, *look) / 45.0) * 45.0 % 360.0 \
            if (x, y) != look else 0.0
        action = Place(bot.id, round(x, 2), round(y, 2), facing)
        if legal(action) is None:
            return action
        fallback = fallback or action
    return fallback or Place(bot.id, w / 2, h / 2, 0.0)
