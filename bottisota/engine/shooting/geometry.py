"""Plane geometry the shooting rules share: open doors (R47), walls and closed
doors crossed by a segment (blasts D13, rocket and missile flights D31), the
other bots as discs for sight (D15), and distances from segments (sprays R28).

Walls and doors of an arena are gathered once per arena into Shapely arrays
(prepared), so each query is one vectorised call.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import shapely
from shapely.geometry import LineString, Point

from bottisota.core.arena import Feature
from bottisota.core.compass import vector
from bottisota.core.limits import LIMIT_TOLERANCE
from bottisota.engine.state import Bot, GameState
from bottisota.geometry.arena_index import ArenaIndex, Disc


@dataclass(frozen=True, slots=True)
class Barriers:
    """An arena's walls and doors as prepared Shapely arrays."""

    walls: tuple[Feature, ...]
    wall_shapes: np.ndarray
    doors: tuple[Feature, ...]
    door_shapes: np.ndarray
    door_boxes: tuple[tuple[float, float, float, float], ...]   # each door's bounds


def barriers(index: ArenaIndex) -> Barriers:
    """The arena's walls and doors, built once per compiled arena (`state.index`)
    and kept with it."""
    def build() -> Barriers:
        walls = index.arena.by_type("wall")
        doors = index.arena.by_type("door")
        wall_shapes = np.array([f.shape for f in walls], dtype=object)
        door_shapes = np.array([f.shape for f in doors], dtype=object)
        shapely.prepare(wall_shapes)
        shapely.prepare(door_shapes)
        boxes = tuple(tuple(row) for row in shapely.bounds(door_shapes).reshape(-1, 4).tolist())
        return Barriers(walls, wall_shapes, doors, door_shapes, boxes)

    return index.cached(("shooting", "barriers"), build)


def standing_bots(state: GameState) -> list[Bot]:
    """Bots whose figures stand on the table: live ones and wrecks not yet
    removed (R55 removes them only when the shooter has finished)."""
    return [b for b in state.bots.values() if not b.removed]


def open_doors(state: GameState,
               poses: Mapping[str, tuple[float, float]] | None = None) -> set[Feature]:
    """Doors that some standing bot's base touches (R47, D4), and the doors the referee
    holds open (a correction): open. `poses` puts some bots elsewhere (x, y), such as a
    mover at a point of its path."""
    bar = barriers(state.index)
    if not bar.doors:
        return set()
    if state.held_open:
        held = set(state.held_open)
        return {d for d in bar.doors if door_key(d) in held} | _touched_doors(state, poses)
    return _touched_doors(state, poses)


def door_key(door: Feature) -> str:
    """How a correction and its event name a door: its id, or "#" and its index."""
    return door.id or f"#{door.index}"


def _touched_doors(state: GameState,
                   poses: Mapping[str, tuple[float, float]] | None) -> set[Feature]:
    """Doors that some standing bot's base touches (R47, D4)."""
    bar = barriers(state.index)
    tol = state.rules.contact_tolerance
    poses = poses or {}
    # only a door whose box (grown by the reach, and a hair) holds a centre can touch it:
    # those pairs are found by plain comparisons (a few bots and doors), then tested
    di: list[int] = []
    xy: list[tuple[float, float]] = []
    reach: list[float] = []
    for b in state.bots.values():
        if b.removed:
            continue
        x, y = poses.get(b.id, (b.x, b.y))
        r = b.radius + tol + LIMIT_TOLERANCE       # touching within D35
        grow = r + 1e-9
        for i, (x0, y0, x1, y1) in enumerate(bar.door_boxes):
            if x0 - grow <= x <= x1 + grow and y0 - grow <= y <= y1 + grow:
                di.append(i)
                xy.append((x, y))
                reach.append(r)
    if not di:
        return set()
    touched = shapely.dwithin(bar.door_shapes[di], shapely.points(xy), reach)
    return {bar.doors[i] for i, hit in zip(di, touched.tolist(), strict=True) if hit}


def door_keys(doors: Iterable[Feature]) -> list[str | int]:
    """How `ArenaIndex.sight` names open doors: each door's index, and its id if any."""
    keys: list[str | int] = []
    for door in doors:
        keys.append(door.index)
        if door.id:
            keys.append(door.id)
    return keys


def first_barrier(state: GameState, a: Sequence[float], b: Sequence[float],
                  opened: set[Feature] | None = None
                  ) -> tuple[Feature, tuple[float, float], float] | None:
    """The first wall or closed door the segment a->b meets: (feature, point,
    distance from a); None when the segment is clear (D13, D31)."""
    bar = barriers(state.index)
    if not bar.walls and not bar.doors:
        return None
    opened = open_doors(state) if opened is None else opened
    if a[0] == b[0] and a[1] == b[1]:
        return None
    line = LineString([tuple(a[:2]), tuple(b[:2])])
    start = Point(a[0], a[1])
    best: tuple[Feature, tuple[float, float], float] | None = None
    for features, shapes in ((bar.walls, bar.wall_shapes), (bar.doors, bar.door_shapes)):
        if not features:
            continue
        hit = np.nonzero(shapely.intersects(shapes, line))[0]
        for i in hit:
            feature = features[i]
            if feature in opened:
                continue
            crossing = shapely.intersection(shapes[i], line)
            d = shapely.distance(start, crossing)
            if best is None or d < best[2] - 1e-9:
                point = _point_along(a, b, d)
                best = (feature, point, float(d))
    return best


def flight_height(target: Bot) -> float:
    """How high a rocket or missile flies on after passing its target (D15, D31):
    level, at the height where the sight line ends, the target's middle."""
    return target.z + target.card.height / 2.0


def flight_barrier(state: GameState, a: Sequence[float], b: Sequence[float], z: float,
                   opened: set[Feature] | None = None
                   ) -> tuple[str, tuple[float, float], float] | None:
    """The first wall, closed door or raised floor (stairs, ramps too) that a
    flight level at height z from a to b meets, by the sight rule (D15: an
    obstacle stops it where its top reaches the flight's height): (label,
    point, distance from a); None when the way is clear (R26, R27, D31)."""
    if a[0] == b[0] and a[1] == b[1]:
        return None
    opened = open_doors(state) if opened is None else opened
    sight = state.index.sight((a[0], a[1]), z, (b[0], b[1]), z,
                                    open_doors=door_keys(opened))
    if sight.clear or sight.point is None:
        return None
    point = (float(sight.point[0]), float(sight.point[1]))
    return (sight.blocker or "something", point,
            math.hypot(point[0] - a[0], point[1] - a[1]))


def at_flight_height(bots: Sequence[Bot], z: float) -> list[Bot]:
    """The bots whose figures a flight level at height z can meet: standing no
    higher than it, and reaching up to it (D15, touching counts)."""
    eps = 1e-9
    return [b for b in bots if b.z <= z + eps and b.z + b.card.height >= z - eps]


def _point_along(a: Sequence[float], b: Sequence[float], d: float) -> tuple[float, float]:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    t = 0.0 if length == 0 else d / length
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


def disc_of(bot: Bot, x: float | None = None, y: float | None = None,
            z: float | None = None) -> Disc:
    """A bot as the geometry's obstacle disc (D3), optionally at another pose."""
    return Disc(bot.id, bot.x if x is None else x, bot.y if y is None else y, bot.radius,
                bot.z if z is None else z, bot.card.height)


def segment_distances(a: Sequence[float], b: Sequence[float],
                      xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For points (xs, ys): their distance from segment a->b, and how far along
    the segment (from a) their nearest point lies. Vectorised, exact."""
    ax, ay = float(a[0]), float(a[1])
    dx, dy = float(b[0]) - ax, float(b[1]) - ay
    length2 = dx * dx + dy * dy
    if length2 == 0.0:
        return np.hypot(xs - ax, ys - ay), np.zeros_like(xs)
    t = np.clip(((xs - ax) * dx + (ys - ay) * dy) / length2, 0.0, 1.0)
    px, py = ax + t * dx, ay + t * dy
    return np.hypot(xs - px, ys - py), t * math.sqrt(length2)




def signed_turn(facing: float, direction: float) -> float:
    """The turn from a facing to a direction, degrees in (-180, 180], + is right."""
    d = (direction - facing) % 360.0
    return d - 360.0 if d > 180.0 else d


def ahead(x: float, y: float, facing: float, distance: float) -> tuple[float, float]:
    """The point `distance` cm ahead of (x, y) along a facing (D2)."""
    dx, dy = vector(facing)
    return (x + dx * distance, y + dy * distance)
