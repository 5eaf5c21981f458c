"""Plane geometry of moving discs that the arena index does not answer:
headings, disc-against-disc sweeps, the table edge, doors touched on the way
and the parts of a segment that lie on stairs. Lengths in cm, facings as D2.
"""
from __future__ import annotations

import dataclasses
import math
import weakref
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from bottisota.core.arena import Feature
from bottisota.core.house_rules import HouseRules
from bottisota.core.limits import LIMIT_TOLERANCE, within
from bottisota.geometry.arena_index import ArenaIndex, Contact
from bottisota.geometry.box_grid import BoxGrid
from bottisota.geometry.sweep import first_touch, polygon_edges

EPS = 1e-9                      # float noise, cm; not a rule number
CONTACT_NOISE = 1e-7            # cm: an overlap of exactly the tolerance is still touching (D4)
DOOR_QUAD_SEGS = 64             # smoothness of a door's reach polygon (informational only)
TOUCHING_KEPT = 4096            # `doors_touching` answers kept per arena
MANY_DOORS = 12                 # from this many doors on, their boxes are tested as one array


def norm_facing(f: float) -> float:
    """A facing normalised to [0, 360), with -0 and 360 mapped to 0."""
    f = f % 360.0
    return 0.0 if abs(f - 360.0) < EPS or abs(f) < EPS else f


def point_at(a: Sequence[float], d: Sequence[float], s: float) -> tuple[float, float]:
    return (a[0] + d[0] * s, a[1] + d[1] * s)


def disc_contact(a: Sequence[float], d: Sequence[float], length: float,
                 c: Sequence[float], reach: float) -> float | None:
    """Distance along the unit direction d from a at which a disc first touches a
    disc at c (sum of radii `reach`); None when it never does within `length`.
    A disc already touching at a only counts when it moves deeper (returns 0)."""
    fx, fy = a[0] - c[0], a[1] - c[1]
    fd = fx * d[0] + fy * d[1]
    ff = fx * fx + fy * fy
    rr = reach * reach
    if ff <= rr + EPS:
        return 0.0 if fd < -EPS else None
    disc = fd * fd - (ff - rr)
    if disc < 0.0 or fd >= 0.0:
        return None
    s = -fd - math.sqrt(disc)
    return s if s <= length + EPS else None


def bot_collision(a: Sequence[float], d: Sequence[float], length: float,
                  c: Sequence[float], reach: float, tolerance: float) -> float | None:
    """Where a disc moving from a along the unit d collides with a disc at c (sum of
    radii `reach`), or None (D4, D9): only a sweep that would overlap it beyond the
    contact tolerance collides, and then it stops where the bases first touch.
    Passing or sliding within the tolerance is free."""
    deep = disc_contact(a, d, length, c, reach - tolerance - CONTACT_NOISE)
    if deep is None:
        return None
    touch = disc_contact(a, d, length, c, reach)
    return deep if touch is None else min(touch, deep)


def wall_collision(index: ArenaIndex, a: Sequence[float], b: Sequence[float], r: float,
                   tolerance: float) -> Contact | None:
    """Where a disc of radius r swept from a to b collides with a wall, or None
    (D4, D9, D29): only a sweep that would overlap a wall beyond the contact
    tolerance collides, and the disc stops where its base first touches that
    wall. Grazing a corner, a seam between two abutting wall pieces or a free
    end within the tolerance is free."""
    deep = index.first_contact(a, b, max(0.0, r - tolerance - CONTACT_NOISE), doors=False)
    if deep is None:
        return None
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length <= EPS or deep.distance <= EPS:
        return deep
    t, _ = first_touch((float(a[0]), float(a[1])), (b[0] - a[0], b[1] - a[1]), r,
                       edges_of(deep.feature.shape))
    if not math.isfinite(t) or t * length >= deep.distance:
        return deep
    point = (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)
    return dataclasses.replace(deep, t=t, distance=t * length, point=point)


def wall_reaches(rules: HouseRules, radii: Iterable[float]) -> list[float]:
    """The swept-disc reaches `wall_collision` asks the arena about for bots of these
    radii (what `ArenaIndex.build_ahead` builds before the first move needs it)."""
    return sorted({max(0.0, r - rules.contact_tolerance - CONTACT_NOISE) for r in radii})


_EDGES: dict[int, tuple[BaseGeometry, np.ndarray]] = {}


def edges_of(shape: BaseGeometry) -> np.ndarray:
    """The polygon edges of a feature's shape, computed once."""
    entry = _EDGES.get(id(shape))
    if entry is None or entry[0] is not shape:
        entry = (shape, polygon_edges(shape))
        _EDGES[id(shape)] = entry
    return entry[1]


def discs_overlap(ax: float, ay: float, ar: float, bx: float, by: float, br: float,
                  tolerance: float = 0.0) -> bool:
    """Two bases overlap: closer than touching by more than `tolerance` (D4)."""
    return math.hypot(ax - bx, ay - by) < ar + br - tolerance - 1e-6


def table_run(a: Sequence[float], d: Sequence[float], length: float, r: float,
              size: Sequence[float]) -> float:
    """How far the disc may go from a along d before its base leaves the table."""
    limit = length
    for axis in (0, 1):
        lo, hi = r, size[axis] - r
        if d[axis] > EPS:
            limit = min(limit, (hi - a[axis]) / d[axis])
        elif d[axis] < -EPS:
            limit = min(limit, (lo - a[axis]) / d[axis])
    return max(0.0, limit)


def on_table(x: float, y: float, r: float, size: Sequence[float]) -> bool:
    """The whole base lies on the table."""
    return (r - 1e-6 <= x <= size[0] - r + 1e-6) and (r - 1e-6 <= y <= size[1] - r + 1e-6)


# bounding boxes by shape identity; an entry leaves with its shape (a weak reference
# drops it), so boxes live exactly as long as the arena whose shapes they are
_BOUNDS: dict[int, tuple[weakref.ref[BaseGeometry], tuple[float, float, float, float]]] = {}


def _forget_bounds(key: int) -> Callable[[object], object]:
    return lambda _ref: _BOUNDS.pop(key, None)


def bounds_of(shape: BaseGeometry) -> tuple[float, float, float, float]:
    """The shape's bounding box, computed once per shape."""
    entry = _BOUNDS.get(id(shape))
    if entry is None or entry[0]() is not shape:
        entry = (weakref.ref(shape, _forget_bounds(id(shape))), tuple(shape.bounds))
        _BOUNDS[id(shape)] = entry
    return entry[1]


def may_meet(
    shape: BaseGeometry, a: Sequence[float], b: Sequence[float], margin: float = 0.0
) -> bool:
    """Cheap bounding-box test: the segment a-b may come within `margin` of the shape."""
    minx, miny, maxx, maxy = bounds_of(shape)
    return not (max(a[0], b[0]) < minx - margin or min(a[0], b[0]) > maxx + margin
                or max(a[1], b[1]) < miny - margin or min(a[1], b[1]) > maxy + margin)


def runs_inside(
    a: Sequence[float], b: Sequence[float], shape: BaseGeometry
) -> list[tuple[float, float]]:
    """The parts of segment a-b inside the shape, as (from, to) distances from a."""
    if (a[0] == b[0] and a[1] == b[1]) or not may_meet(shape, a, b):
        return []
    line = LineString([tuple(a), tuple(b)])
    part = line.intersection(shape)
    if part.is_empty:
        return []
    runs = []
    for geom in getattr(part, "geoms", [part]):
        if geom.geom_type != "LineString" or geom.length <= EPS:
            continue
        s0 = line.project(Point(geom.coords[0]))
        s1 = line.project(Point(geom.coords[-1]))
        runs.append((min(s0, s1), max(s0, s1)))
    runs.sort()
    return runs


@dataclass
class ArenaParts:
    """Features of an arena grouped for movement, and shapes derived from them once."""

    doors: tuple[Feature, ...]
    stairs: tuple[Feature, ...]          # stairs and escalators (R42, R46)
    teleporters: tuple[Feature, ...]
    belts: tuple[Feature, ...]           # conveyors and escalators (R44, R46)
    lifts: tuple[Feature, ...]
    services: tuple[Feature, ...]
    door_reach: dict[tuple[int, float], BaseGeometry] = field(default_factory=dict)
    # the doors' bounding boxes as columns minx, miny, maxx, maxy: many doors are
    # filtered by one array test instead of one box test each
    door_boxes: np.ndarray = field(default_factory=lambda: np.zeros((0, 4)))
    # `doors_touching` answers by (x, y, r, tolerance): every preview of one decision
    # starts from the same spot (the doors never move, so an answer never goes stale)
    touching: dict[tuple[float, float, float, float], frozenset[int]] = field(
        default_factory=dict)

    def doors_near(
        self, a: Sequence[float], b: Sequence[float], margin: float
    ) -> Sequence[Feature]:
        """The doors whose boxes the segment a-b may come within `margin` of (the
        `may_meet` test of each door, in door order)."""
        if len(self.doors) < MANY_DOORS:
            return [d for d in self.doors if may_meet(d.shape, a, b, margin)]
        lo_x, hi_x = min(a[0], b[0]), max(a[0], b[0])
        lo_y, hi_y = min(a[1], b[1]), max(a[1], b[1])
        cand = self.door_grid.candidates(lo_x - margin, lo_y - margin, hi_x + margin,
                                         hi_y + margin)
        if cand is not None:              # the same box test, on the grid's few candidates
            rows = self.door_grid.rows
            return [self.doors[k] for k in cand
                    if not (hi_x < rows[k][0] - margin or lo_x > rows[k][2] + margin
                            or hi_y < rows[k][1] - margin or lo_y > rows[k][3] + margin)]
        box = self.door_boxes
        near = ~((max(a[0], b[0]) < box[:, 0] - margin) | (min(a[0], b[0]) > box[:, 2] + margin)
                 | (max(a[1], b[1]) < box[:, 1] - margin) | (min(a[1], b[1]) > box[:, 3] + margin))
        return [self.doors[k] for k in np.flatnonzero(near).tolist()]

    @cached_property
    def door_grid(self) -> BoxGrid:
        """The doors' boxes on a grid (`doors_near` with many doors)."""
        return BoxGrid(self.door_boxes)

    def reach_of(self, door: Feature, r: float) -> BaseGeometry:
        """The area where a centre puts a base of radius r touching the door."""
        key = (door.index, round(r, 6))
        shape = self.door_reach.get(key)
        if shape is None:
            shape = door.shape.buffer(r, quad_segs=DOOR_QUAD_SEGS)
            self.door_reach[key] = shape
        return shape


def parts_of(index: ArenaIndex) -> ArenaParts:
    """The arena's features grouped for movement (built once per compiled arena,
    `state.index`, and kept with it)."""
    def build() -> ArenaParts:
        def kind(*types: str) -> tuple[Feature, ...]:
            return tuple(f for f in index.features if f.type in types)

        doors = kind("door")
        boxes = np.array([bounds_of(d.shape) for d in doors], dtype=float).reshape(-1, 4)
        return ArenaParts(doors=doors, stairs=kind("stairs", "escalator"),
                          teleporters=kind("teleporter"), belts=kind("conveyor", "escalator"),
                          lifts=kind("lift"), services=kind("service"), door_boxes=boxes)

    return index.cached(("movement", "parts"), build)


def doors_reached(parts: ArenaParts, a: Sequence[float], b: Sequence[float], r: float,
                  skip: Iterable[int] = ()) -> list[tuple[float, Feature]]:
    """Doors a base of radius r first touches going from a to b (distance from a),
    nearest first; doors in `skip` (by index) are left out."""
    skipped = set(skip)
    found = []
    for door in parts.doors_near(a, b, r):
        if door.index in skipped:
            continue
        reach = parts.reach_of(door, r)
        if reach.contains(Point(a[0], a[1])):
            found.append((0.0, door))
            continue
        runs = runs_inside(a, b, reach)
        if runs:
            found.append((runs[0][0], door))
    found.sort(key=lambda item: item[0])
    return found


def doors_touching(parts: ArenaParts, x: float, y: float, r: float,
                   tolerance: float) -> set[int]:
    """Indices of the doors a base at (x, y) touches (D4): `touching_door` for every
    door, the boxes tested all at once; an answer already found is given again (a
    new set)."""
    key = (x, y, r, tolerance)
    found = parts.touching.get(key)
    if found is None:
        if len(parts.touching) >= TOUCHING_KEPT:
            parts.touching.clear()
        found = parts.touching[key] = frozenset(doors_touching_plain(parts, x, y, r, tolerance))
    return set(found)


def doors_touching_plain(parts: ArenaParts, x: float, y: float, r: float,
                         tolerance: float) -> set[int]:
    """`doors_touching` worked out afresh (the reference its remembered answers are
    tested against)."""
    point = Point(x, y)
    return {d.index for d in parts.doors_near((x, y), (x, y), r + tolerance)
            if d.shape.distance(point) <= r + tolerance}


def touching_door(door: Feature, x: float, y: float, r: float, tolerance: float) -> bool:
    """A base touches the door (D4)."""
    if not may_meet(door.shape, (x, y), (x, y), r + tolerance + LIMIT_TOLERANCE):
        return False
    return within(float(door.shape.distance(Point(x, y))), r + tolerance)


def contains_point(shape: BaseGeometry, x: float, y: float) -> bool:
    """The point lies inside the shape (bounding box first)."""
    minx, miny, maxx, maxy = bounds_of(shape)
    if x < minx or x > maxx or y < miny or y > maxy:
        return False
    return bool(shape.contains(Point(x, y)))
