"""Compiled arena geometry and the queries the rules need.

CONTRACT (fixed; implementation owned by the geometry work). Coordinates are
cm with y up (D1); facings are degrees, 0 = +y, clockwise (D2).

Every feature's shape is prepared once and held in one STRtree. Helpers:
`surfaces` (heights of floors and obstacles), `sweep` (exact swept-disc
contact), `sightline` (one sight line with heights and its fire track),
`sight_levels` and `shadows` (many sight lines at once).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from typing import TYPE_CHECKING, Any, TypeVar, cast

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from bottisota.core.arena import FLOOR_TYPES, SLOPED_TYPES
from bottisota.geometry.box_grid import BoxGrid
from bottisota.geometry.build_cache import GEOMETRY_CODE, cached_build
from bottisota.geometry.shadows import Shadows
from bottisota.geometry.sight_edges import SightEdges
from bottisota.geometry.sight_levels import LineBatch, SightLevels, SlopedSight
from bottisota.geometry.sightline import (
    Crossing,
    Line,
    disc_crossing,
    discs_block,
    discs_block_one,
    first_block,
    skips_disc,
    surface_crossings,
)
from bottisota.geometry.surfaces import Surface, feature_surface, floor_surfaces
from bottisota.geometry.sweep import EPS, first_touch, polygon_edges, polyline, segment

if TYPE_CHECKING:
    from bottisota.core.arena import Arena, Feature
    from bottisota.core.house_rules import HouseRules

T = TypeVar("T")
Key = tuple[Hashable, ...]

# Obstacles are inflated by buffering with this many segments per quarter circle;
# the radius is enlarged so that every chord lies outside the true offset curve,
# which makes the inflated shape a safe (never missing) first test.
INFLATE_QUAD_SEGS = 8
INFLATE_FACTOR = 1.0 / math.cos(math.pi / (4 * INFLATE_QUAD_SEGS))
INFLATE_MARGIN = 1e-6      # cm
BOX_SLACK = 1e-6          # cm: box tests before the tree err on the side of asking it
# Sight lines look for a quick proof of being blocked among the convex obstacles this
# close to either end (a speed setting, not a rule: the answer does not depend on it).
SHADOW_RADIUS = 30.0       # cm
# Up to this many lines left for the closed doors, each goes through the one-line
# test in plain floats: the same arithmetic without numpy's per-call cost.
FEW_LINES = 8
MEMO_SIZE = 20000          # answers kept per kind of question before they are forgotten
GRID_FEATURES_PER_CELL = 1.0   # the point grid's cells: about this many features each


def _remember(memo: dict[Key, T], key: Key, value: T) -> T:
    """Keep an answer (the memo is emptied when it holds MEMO_SIZE of them; nothing
    is kept while the fast paths are off, so nothing is found either)."""
    if not FAST_PATHS.on:
        return value
    if len(memo) >= MEMO_SIZE:
        memo.clear()
    memo[key] = value
    return value


@lru_cache(maxsize=16)
def _all_pairs(m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Every ordered pair of m things (row, column; the diagonal left out), the
    index of each pair's reverse, and each pair's place in a flat m x m array."""
    rows, cols = np.nonzero(~np.eye(m, dtype=bool))
    slot = np.full((m, m), -1)
    slot[rows, cols] = np.arange(len(rows))
    out = (rows, cols, slot[cols, rows], rows * m + cols)
    for a in out:
        a.flags.writeable = False
    return out


@dataclass(frozen=True, slots=True)
class Contact:
    """First contact of a disc swept along a segment."""

    t: float                      # 0..1 along the segment where the disc first touches
    distance: float               # cm from the segment start to the disc centre at contact
    point: tuple[float, float]    # the disc centre at contact
    feature: Feature            # what it touched (wall or door)


@dataclass(frozen=True, slots=True)
class EdgeCrossing:
    """The centre of a moving bot crossing a change of floor height."""

    t: float
    distance: float
    point: tuple[float, float]
    z_before: float
    z_after: float
    # True when a stair, ramp or escalator floor lies on either side of the crossing, or
    # a lift car serving the higher floor touches it. It does NOT mean a bot may pass:
    # where a slope joins two floors along its run the floor is continuous and no
    # crossing is reported at all, so a reported crossing with `joined` True is a
    # slope's side edge (a real cliff, R37 R39) or a lift's edge (usable only by
    # riding the lift, R48). Movement treats every reported crossing as an edge.
    joined: bool
    feature: Feature | None     # the platform (or sloped feature) whose edge it is

    @property
    def drop(self) -> float:
        return self.z_before - self.z_after


@dataclass(frozen=True, slots=True)
class Disc:
    """A bot (or marker) as the geometry sees it: an obstacle for sight and movement."""

    id: str
    x: float
    y: float
    r: float
    z: float = 0.0                # floor height under it
    height: float = 2.0           # figure height


@dataclass(frozen=True, slots=True)
class TrackPoint:
    """One crossing on a fire track (CTF 2187's projected fire track)."""

    distance: float               # cm from the shooter along the line
    line_z: float                 # height of the sight line there
    obstacle_z: float             # top of the obstacle (or floor) crossed there
    what: str                     # label of the feature or bot id


class Sight:
    """Answer of a sight-line check (R22, R38, D15). `clear` is known at once; the
    first blocker, where the line meets it and the fire track (every crossing) are
    worked out when first read, since most questions only ask whether the line is
    clear. Treat it as a value: compare, print, never change it."""

    __slots__ = ("clear", "_blocker", "_point", "_track", "_detail")

    def __init__(self, clear: bool, blocker: str | None = None,
                 point: tuple[float, float] | None = None,
                 track: tuple[TrackPoint, ...] = (),
                 detail: Callable[[], Sight] | None = None) -> None:
        self.clear = bool(clear)
        self._blocker, self._point, self._track = blocker, point, tuple(track)
        self._detail = detail

    def _worked_out(self) -> None:
        if self._detail is not None:
            full, self._detail = self._detail(), None
            self._blocker, self._point, self._track = full.blocker, full.point, full.track

    @property
    def blocker(self) -> str | None:
        """Label of the first blocking feature or bot id (None when clear)."""
        self._worked_out()
        return self._blocker

    @property
    def point(self) -> tuple[float, float] | None:
        """Where the line first meets the blocker."""
        self._worked_out()
        return self._point

    @property
    def track(self) -> tuple[TrackPoint, ...]:
        """Every crossing along the line, nearest first (CTF 2187's fire track)."""
        self._worked_out()
        return self._track

    def _key(self) -> Key:
        return (self.clear, self.blocker, self.point, self.track)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sight) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (f"Sight(clear={self.clear}, blocker={self.blocker!r}, point={self.point!r}, "
                f"track={self.track!r})")


class _PointGrid:
    """Which features a point query must test: every feature listed under each
    cell of a uniform grid its bounding box touches. A point's candidates are its
    cell's list, tested exactly by `intersects_xy` (no Point is built), which
    gives what the tree's query with a Point gives: the features whose shapes
    the point intersects, in arena order."""

    def __init__(self, shapes: np.ndarray, size: tuple[float, float]) -> None:
        self.shapes = shapes
        n = len(shapes)
        box = shapely.bounds(shapes) if n else np.zeros((0, 4))
        x0 = min(0.0, float(box[:, 0].min())) if n else 0.0
        y0 = min(0.0, float(box[:, 1].min())) if n else 0.0
        x1 = max(size[0], float(box[:, 2].max())) if n else size[0]
        y1 = max(size[1], float(box[:, 3].max())) if n else size[1]
        w, h = max(x1 - x0, 1e-9), max(y1 - y0, 1e-9)
        side = math.sqrt(w * h * GRID_FEATURES_PER_CELL / max(n, 1))
        self.nx = max(1, min(1024, int(w / side) + 1))
        self.ny = max(1, min(1024, int(h / side) + 1))
        self.x0, self.y0 = x0, y0
        self.cw, self.ch = w / self.nx, h / self.ny
        cells: list[list[int]] = [[] for _ in range(self.nx * self.ny)]
        for i, (minx, miny, maxx, maxy) in enumerate(box.tolist()):
            cx0, cy0 = self._cell(minx, miny)
            cx1, cy1 = self._cell(maxx, maxy)
            for cy in range(cy0, cy1 + 1):
                for cx in range(cx0, cx1 + 1):
                    cells[cy * self.nx + cx].append(i)
        self.cells = [np.array(c, dtype=np.intp) for c in cells]

    def cells_of(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """The cell number of each point (as `_cell` finds it, for arrays)."""
        cx = np.where(px > self.x0, np.minimum((px - self.x0) / self.cw, self.nx - 1), 0.0)
        cy = np.where(py > self.y0, np.minimum((py - self.y0) / self.ch, self.ny - 1), 0.0)
        return cy.astype(np.intp) * self.nx + cx.astype(np.intp)

    def _cell(self, x: float, y: float) -> tuple[int, int]:
        cx = int((x - self.x0) / self.cw) if x > self.x0 else 0
        cy = int((y - self.y0) / self.ch) if y > self.y0 else 0
        return min(cx, self.nx - 1), min(cy, self.ny - 1)

    def at(self, x: float, y: float) -> tuple[int, ...] | None:
        """The features at the point, or None for a point the grid cannot place
        (not a finite number)."""
        if not (math.isfinite(x) and math.isfinite(y)):
            return None
        cx, cy = self._cell(x, y)
        cand = self.cells[cy * self.nx + cx]
        if not len(cand):
            return ()
        return tuple(cand[shapely.intersects_xy(self.shapes[cand], x, y)].tolist())


class _Switch:
    """Whether the fast paths are on (the default): sight through the batched path
    and remembered answers to point and segment questions; off, every question is
    worked out the plain way, line by line (tests play the same games both ways
    and compare)."""

    __slots__ = ("on",)

    def __init__(self) -> None:
        self.on = True


FAST_PATHS = _Switch()


class ArenaIndex:
    """Shapely geometry of one arena, prepared once, with one STRtree."""

    def __init__(self, arena: Arena, rules: HouseRules) -> None:
        if rules is None:
            raise TypeError("an arena is compiled under given house rules (none given)")
        self.arena = arena
        self.features: tuple[Feature, ...] = tuple(arena.features)
        self._rules = rules
        self.size: tuple[float, float] = (float(arena.size[0]), float(arena.size[1]))
        self.shapes = np.array([f.shape for f in self.features], dtype=object)
        shapely.prepare(self.shapes)
        self.tree = STRtree(self.shapes)
        self.walls: tuple[int, ...] = tuple(f.index for f in self.features if f.type == "wall")
        self.doors: tuple[int, ...] = tuple(f.index for f in self.features if f.type == "door")
        self._barrier = {i: feature_surface(self.features[i]) for i in self.walls + self.doors}
        self._floor_z_of = {f.index: feature_surface(f) for f in self.features
                            if f.type in FLOOR_TYPES}
        self.floors: list[Surface] = floor_surfaces(self.features)   # later floors cut out
        self._floor_region = {s.feature.index: s for s in self.floors}
        self._edges: dict[int, np.ndarray] = {}
        self._floor_boundary: dict[int, BaseGeometry] = {}
        self._grid_floor_cells: dict[int, np.ndarray] = {}
        self._has_lifts = any(f.type == "lift" for f in self.features)
        # built on demand and kept: obstacles grown per radius, door-state unions, masks
        # (Any: shapely's untyped geometries and numpy masks, each read back by its key)
        self._cache: dict[Hashable, Any] = {}
        self._door_ids = {self.features[i].id: i for i in self.doors if self.features[i].id}
        # answers to questions about points and segments, by their arguments (pure
        # functions of them): a committed move asks what its preview asked, the
        # robot's candidates share their first pieces, bots stand still
        self._memo_at: dict[Key, tuple[int, ...]] = {}
        self._memo_contact: dict[Key, Contact | None] = {}
        self._memo_edges: dict[Key, tuple[EdgeCrossing, ...]] = {}
        self._memo_entry: dict[Key, object] = {}

    # -- per-arena caches ---------------------------------------------------------
    def cached(self, key: Hashable, build: Callable[[], T]) -> T:
        """The value `build()` gives, built on first use for this compiled arena and
        kept exactly as long as it (movement parts, shot barriers, robot maps...).
        `key` names the value; start it with the owner's name, ("movement", ...),
        so that two modules never share an entry by accident."""
        try:
            return cast(T, self._cache[key])
        except KeyError:
            value = self._cache[key] = build()
            return value

    def forget_answers(self) -> None:
        """Drop the remembered answers to point and segment questions (benches time
        a question as asked the first time; the answers never change)."""
        for memo in (self._memo_at, self._memo_contact, self._memo_edges, self._memo_entry):
            memo.clear()

    # -- house rules ---------------------------------------------------------------
    @property
    def rules(self) -> HouseRules:
        """The house rules the arena was compiled under (always given: no fallback)."""
        return self._rules

    def _tolerance(self, tolerance: float | None) -> float:
        return self.rules.contact_tolerance if tolerance is None else tolerance

    # -- points --------------------------------------------------------------------
    def _at(self, x: float, y: float) -> tuple[int, ...]:
        key = (x, y)
        found = self._memo_at.get(key)
        if found is None:
            found = self._grid.at(x, y) if FAST_PATHS.on else None
            if found is None:
                hits = self.tree.query(Point(x, y), predicate="intersects")
                found = tuple(sorted(int(i) for i in hits))
            _remember(self._memo_at, key, found)
        return found

    @cached_property
    def _grid(self) -> _PointGrid:
        return _PointGrid(self.shapes, self.size)

    def floor_z(self, x: float, y: float) -> float:
        """Floor height at a point: 0, a platform's height, or the linear slope of
        stairs/ramps/escalators along `up`; later features win where they overlap."""
        top = self._floor_owner(x, y)
        return 0.0 if top is None else top.z_at(x, y)

    def floor_z_many(self, xs: Sequence[float], ys: Sequence[float]) -> list[float]:
        """`floor_z` of many points: the same answers, the points of one grid cell
        tested against its floors in one array call."""
        grid = self._grid if FAST_PATHS.on else None
        px = np.asarray(xs, dtype=float)
        py = np.asarray(ys, dtype=float)
        if grid is None or not (np.isfinite(px).all() and np.isfinite(py).all()):
            return [self.floor_z(x, y) for x, y in zip(xs, ys, strict=True)]
        cells = grid.cells_of(px, py)
        out = [0.0] * len(px)
        for cell in np.unique(cells).tolist():
            cand = self._grid_floors(cell)
            if not len(cand):
                continue
            ks = np.flatnonzero(cells == cell)
            hit = shapely.intersects_xy(self.shapes[cand][:, None], px[ks][None, :],
                                        py[ks][None, :])
            last = len(cand) - 1 - hit[::-1].argmax(axis=0)      # the last floor listed wins
            owners = cand[last].tolist()
            for col in np.flatnonzero(hit.any(axis=0)).tolist():
                k = int(ks[col])
                out[k] = self._floor_z_of[owners[col]].z_at(xs[k], ys[k])
        return out

    def _grid_floors(self, cell: int) -> np.ndarray:
        """The floors among a grid cell's features, in arena order (kept per cell)."""
        found = self._grid_floor_cells.get(cell)
        if found is None:
            found = np.array([i for i in self._grid.cells[cell].tolist()
                              if i in self._floor_z_of], dtype=np.intp)
            self._grid_floor_cells[cell] = found
        return found

    def _floor_owner(self, x: float, y: float) -> Surface | None:
        for i in reversed(self._at(x, y)):
            surface = self._floor_z_of.get(i)
            if surface is not None:
                return surface
        return None

    def features_at(self, x: float, y: float, types: Iterable[str] | None = None) -> list[Feature]:
        """Features whose shape contains the point (D17), in arena order. A point on
        the boundary counts as inside."""
        wanted = None if types is None else set(types)
        return [self.features[i] for i in self._at(x, y)
                if wanted is None or self.features[i].type in wanted]

    def inside_table(self, x: float, y: float, r: float) -> bool:
        """The whole disc lies on the table."""
        w, h = self.size
        return x - r >= -EPS and y - r >= -EPS and x + r <= w + EPS and y + r <= h + EPS

    # -- discs ---------------------------------------------------------------------
    def _door_index(self, key: str | int) -> int | None:
        if isinstance(key, (int, np.integer)) and not isinstance(key, bool):
            return int(key)
        return self._door_ids.get(key) if isinstance(key, str) else None

    def _closed_doors(self, open_doors: Iterable[str | int] = ()) -> tuple[int, ...]:
        """The doors not named as open, in arena order."""
        opened = {self._door_index(k) for k in open_doors}
        return tuple(i for i in self.doors if i not in opened) if opened else self.doors

    def _obstacles(self, doors: bool, open_doors: Iterable[str | int] = ()) -> tuple[int, ...]:
        """Walls, and the doors that are closed (doors=True) — in arena order."""
        if not doors or not self.doors:
            return self.walls
        return tuple(sorted(self.walls + self._closed_doors(open_doors)))

    def disc_blocked(self, x: float, y: float, r: float, doors: bool = True,
                     open_doors: Iterable[str | int] = (),
                     tolerance: float | None = None) -> Feature | None:
        """The first wall (or, with doors=True, closed door) the disc overlaps beyond the
        contact tolerance (D4; `tolerance` overrides the house rules'), else None."""
        reach = r - self._tolerance(tolerance)
        if reach <= 0.0:
            return None
        allowed = set(self._obstacles(doors, open_doors))
        point = Point(x, y)
        for i in sorted(
            int(i) for i in self.tree.query(point, predicate="dwithin", distance=reach)
        ):
            if i in allowed and shapely.distance(self.shapes[i], point) < reach - EPS:
                return self.features[i]
        return None

    def disc_contacts(self, x: float, y: float, r: float, types: Iterable[str],
                      tolerance: float | None = None) -> list[Feature]:
        """Features of the given types whose shape the disc touches (D4; `tolerance`
        overrides the house rules' contact tolerance), in arena order."""
        wanted = set(types)
        reach = r + self._tolerance(tolerance)
        hits = self.tree.query(Point(x, y), predicate="dwithin", distance=reach)
        return [self.features[i] for i in sorted(int(i) for i in hits)
                if self.features[i].type in wanted]

    def doors_touched(self, discs: Iterable[Disc], tolerance: float | None = None) -> set[int]:
        """Indices of the doors some disc touches (D4): open by R47."""
        if not self.doors:
            return set()
        opened: set[int] = set()
        for d in discs:
            opened.update(f.index for f in self.disc_contacts(d.x, d.y, d.r, ("door",),
                                                              tolerance))
        return opened

    # -- swept discs ---------------------------------------------------------------
    def _inflated_union(self, reach: float, members: tuple[int, ...],
                        name: str) -> BaseGeometry | None:
        """The obstacles grown by `reach` (safely: never smaller than the true offset),
        unioned and prepared; cached per radius and obstacle set (`name` + members)."""
        key = (name, reach, members if name == "doors" else ())
        grown = self._cache.get(key, False)
        if grown is False:
            grown = None
            if members:
                def build() -> BaseGeometry:
                    return shapely.union_all(shapely.buffer(
                        self.shapes[list(members)], reach * INFLATE_FACTOR + INFLATE_MARGIN,
                        quad_segs=INFLATE_QUAD_SEGS))
                # the walls' union (one per radius) is also kept on disk for the next
                # process (geometry.build_cache); a door set's is cheap and varies
                grown = build() if name != "walls" else cached_build(
                    "walls-grown", self.arena, self._rules,
                    (reach, INFLATE_QUAD_SEGS, INFLATE_FACTOR, INFLATE_MARGIN),
                    GEOMETRY_CODE, build, lambda found: isinstance(found, BaseGeometry))
                shapely.prepare(grown)
            self._cache[key] = grown
        return grown

    def _sweep_filters(self, reach: float, doors: bool,
                       open_doors: tuple[str | int, ...]) -> np.ndarray:
        """Walls (cached once per radius) and closed doors (per radius and door state),
        grown by the radius, as one array for a single vectorised test."""
        closed = self._closed_doors(open_doors) if doors else ()
        key = ("filters", reach, closed)
        out = self._cache.get(key)
        if out is None:
            grown = [self._inflated_union(reach, self.walls, "walls")]
            if closed:
                grown.append(self._inflated_union(reach, closed, "doors"))
            out = np.array([g for g in grown if g is not None], dtype=object)
            self._cache[key] = out
        return out

    def build_ahead(self, reaches: Iterable[float] = ()) -> None:
        """Builds now what the first question of each kind would build: the sight levels
        (of the doors too, all shut; their prepared indexes too), shadows and edges, the
        box grids of the features and floors, and the walls grown by each of
        `reaches` (the swept-disc test a move's first wall contact asks for). The answers
        are the same either way; a caller runs this at load or on a thread of its own
        (`play`), so that no frame pays for it. Safe beside the questions: each value is
        built whole, then kept."""
        for part in ("_levels", "_shadows", "_sight_edges", "_slopes", "_feature_grid",
                     "_floor_grid"):
            getattr(self, part)
        self._levels.warm()
        closed = self._closed_doors(())
        if closed:                          # every door shut: the usual table
            self._door_levels(closed).warm()
        for reach in reaches:
            self._sweep_filters(reach, False, ())

    def _sweep_may_touch(self, points: Sequence[Sequence[float]], reach: float, doors: bool,
                         open_doors: tuple[str | int, ...]) -> bool:
        """One prepared test of the whole path against the grown obstacles."""
        filters = self._sweep_filters(reach, doors, open_doors)
        return len(filters) > 0 and bool(shapely.intersects(filters, polyline(points)).any())

    def _edges_of(self, i: int) -> np.ndarray:
        if i not in self._edges:
            self._edges[i] = polygon_edges(self.shapes[i])
        return self._edges[i]

    def first_contact(self, a: Sequence[float], b: Sequence[float], r: float,
                      doors: bool = True, tolerance: float = 0.0,
                      open_doors: Iterable[str | int] = ()) -> Contact | None:
        """First contact of a disc of radius r swept from a to b (see `_first_contact`);
        an answer already found for the same question is given again."""
        open_doors = tuple(open_doors)
        key = (a[0], a[1], b[0], b[1], r, doors, tolerance, open_doors)
        found = self._memo_contact.get(key, False)
        if found is False:
            found = _remember(self._memo_contact, key,
                              self._first_contact(a, b, r, doors, tolerance, open_doors))
        return cast("Contact | None", found)

    def _first_contact(self, a: Sequence[float], b: Sequence[float], r: float,
                       doors: bool = True, tolerance: float = 0.0,
                       open_doors: Iterable[str | int] = ()) -> Contact | None:
        """First contact of a disc of radius r swept from a to b with walls (and closed
        doors), exact to floating point; None when the sweep is clear. A disc already
        touching at a is not a contact unless the sweep moves deeper into the obstacle.
        `tolerance` widens "touching" (D4): the disc stops that far from the obstacle."""
        open_doors = tuple(open_doors)
        reach = r + tolerance
        if FAST_PATHS.on:                 # no wall's (or closed door's) box near: clear
            grow = reach * INFLATE_FACTOR + INFLATE_MARGIN
            mask = self._member_mask(self._obstacles(doors, open_doors))
            near = self._boxes_meeting(min(a[0], b[0]) - grow, min(a[1], b[1]) - grow,
                                       max(a[0], b[0]) + grow, max(a[1], b[1]) + grow,
                                       mask.__getitem__)
            if near is not None and not near:
                return None
        seg = [(a[0], a[1]), (b[0], b[1])]
        if not self._sweep_may_touch(seg, reach, doors, open_doors):
            return None
        return self._exact_contact(a, b, reach, self._obstacles(doors, open_doors),
                                   segment(float(a[0]), float(a[1]), float(b[0]), float(b[1])))

    def _exact_contact(self, a: Sequence[float], b: Sequence[float], reach: float,
                       members: tuple[int, ...], seg: LineString) -> Contact | None:
        """The exact first contact: every edge of every nearby obstacle at once."""
        ax, ay = float(a[0]), float(a[1])
        vx, vy = float(b[0]) - ax, float(b[1]) - ay
        length = math.hypot(vx, vy)
        if length == 0.0:
            return None
        near = self.tree.query(seg, predicate="dwithin",
                               distance=reach * INFLATE_FACTOR + INFLATE_MARGIN)
        allowed = self._member_mask(members)
        near = np.sort(near[allowed[near]])
        if len(near) == 0:
            return None
        inside = near[shapely.intersects_xy(self.shapes[near], ax, ay)]
        if len(inside):                          # centre already in an obstacle: stuck
            t, i = 0.0, int(inside[0])
        else:
            edges = [self._edges_of(int(i)) for i in near]
            owner = np.repeat(near, [len(e) for e in edges])
            t, row = first_touch((ax, ay), (vx, vy), reach, np.vstack(edges))
            if row < 0:
                return None
            i = int(owner[row])                  # ties: the first row, so arena order
        return Contact(t, t * length, (ax + t * vx, ay + t * vy), self.features[i])

    def _member_mask(self, members: tuple[int, ...]) -> np.ndarray:
        key = ("mask", members)
        mask = self._cache.get(key)
        if mask is None:
            mask = np.zeros(len(self.features), dtype=bool)
            mask[list(members)] = True
            self._cache[key] = mask
        return mask

    def path_contact(self, points: Sequence[Sequence[float]], r: float, doors: bool = True,
                     tolerance: float = 0.0, open_doors: Iterable[str | int] = ()
                     ) -> tuple[int, Contact] | None:
        """First contact along a polyline: (index of the segment, its Contact), or None.
        One prepared test for the whole path when it is clear; then one per segment,
        and the exact contact only for the segments that may touch."""
        if len(points) < 2:
            return None
        open_doors = tuple(open_doors)
        reach = r + tolerance
        if not self._sweep_may_touch(points, reach, doors, open_doors):
            return None
        xy = np.asarray([(p[0], p[1]) for p in points], dtype=float)
        segments = shapely.linestrings(np.stack([xy[:-1], xy[1:]], 1))
        filters = self._sweep_filters(reach, doors, open_doors)
        may = shapely.intersects(filters[:, None], segments[None, :]).any(axis=0)
        members = self._obstacles(doors, open_doors)
        for k in np.flatnonzero(may).tolist():
            contact = self._exact_contact(points[k], points[k + 1], reach, members, segments[k])
            if contact is not None:
                return int(k), contact
        return None

    def path_clear(self, points: Sequence[Sequence[float]], r: float, doors: bool = True,
                   tolerance: float = 0.0, open_doors: Iterable[str | int] = ()) -> bool:
        """A disc of radius r can follow the polyline without touching a wall or closed door."""
        return self.path_contact(points, r, doors, tolerance, open_doors) is None

    # -- floors along a segment ----------------------------------------------------
    def edge_crossings(self, a: Sequence[float], b: Sequence[float],
                       step_height: float | None = None) -> list[EdgeCrossing]:
        """Every change of floor height the centre meets from a to b (see
        `_edge_crossings`); an answer already found is given again (a new list)."""
        key = (a[0], a[1], b[0], b[1], step_height)
        found = self._memo_edges.get(key)
        if found is None:
            found = _remember(self._memo_edges, key,
                              tuple(self._edge_crossings(a, b, step_height)))
        return list(found)

    def segments_meeting_floors(self, a: Sequence[float],
                                ends: Sequence[Sequence[float]]) -> list[int]:
        """Which of the segments from a to each of `ends` meet a floor feature (in
        order): only those can have an edge crossing (`edge_crossings` of the
        others is empty). One tree query for them all."""
        if not ends:
            return []
        ax, ay = float(a[0]), float(a[1])
        coords = np.array([[(ax, ay), (float(b[0]), float(b[1]))] for b in ends], dtype=float)
        seg_idx, feat_idx = self.tree.query(shapely.linestrings(coords), predicate="intersects")
        floors = self._floor_region
        return sorted({int(k) for k, i in zip(seg_idx.tolist(), feat_idx.tolist(), strict=True)
                       if i in floors})

    def _edge_crossings(self, a: Sequence[float], b: Sequence[float],
                        step_height: float | None = None) -> list[EdgeCrossing]:
        """Every change of floor height the centre meets from a to b, in order, that is
        more than the step height (D16; `step_height` overrides the house rules').
        Going up or down a slope along its run is continuous and reports nothing;
        `joined` marks a crossing beside a slope or a lift car (see EdgeCrossing), which
        is still an edge. `feature` is the higher side's floor."""
        ax, ay, bx, by = float(a[0]), float(a[1]), float(b[0]), float(b[1])
        length = math.hypot(bx - ax, by - ay)
        if length == 0.0:
            return []
        if FAST_PATHS.on and not self._floor_box_met(ax, ay, bx, by):
            return []
        near, seg = self._on_segment(ax, ay, bx, by, self._floor_region.__contains__)
        if not near:
            return []
        ts = {0.0, 1.0}
        for i in near:
            cut = shapely.intersection(seg, self._floor_edges(i))
            for x, y in shapely.get_coordinates(cut).tolist():
                t = ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / (length * length)
                if 0.0 < t < 1.0:
                    ts.add(t)
        cuts = sorted(ts)
        owners = [self._floor_owner(ax + (bx - ax) * (t0 + t1) / 2, ay + (by - ay) * (t0 + t1) / 2)
                  for t0, t1 in zip(cuts, cuts[1:], strict=False)]
        step = self.rules.step_height if step_height is None else step_height
        out: list[EdgeCrossing] = []
        for k in range(1, len(cuts) - 1):
            t = cuts[k]
            x, y = ax + (bx - ax) * t, ay + (by - ay) * t
            before, after = owners[k - 1], owners[k]
            z0 = 0.0 if before is None else before.z_at(x, y)
            z1 = 0.0 if after is None else after.z_at(x, y)
            if abs(z0 - z1) <= step + EPS:
                continue
            higher = before if z0 > z1 else after
            joined = self._joined(x, y, before, after, max(z0, z1), step)
            out.append(EdgeCrossing(t, t * length, (x, y), z0, z1, joined,
                                    None if higher is None else higher.feature))
        return out

    @cached_property
    def _floor_boxes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The bounding boxes of the floor features' shapes (the ones `_edge_crossings`
        asks the tree about), as columns minx, miny, maxx, maxy."""
        idx = np.array(sorted(self._floor_region), dtype=np.intp)
        boxes = shapely.bounds(self.shapes[idx]).reshape(-1, 4)
        return boxes[:, 0], boxes[:, 1], boxes[:, 2], boxes[:, 3]

    def _on_segment(self, ax: float, ay: float, bx: float, by: float,
                    wanted: Callable[[int], bool]) -> tuple[list[int], BaseGeometry | None]:
        """The features `wanted` keeps whose shapes intersect the segment a-b, in arena
        order (the tree's answer; from the grid's few candidates when the fast paths are
        on), and the segment (None when no feature's box came near it)."""
        near = self._boxes_meeting(min(ax, bx), min(ay, by), max(ax, bx), max(ay, by),
                                   wanted) if FAST_PATHS.on else None
        if near is not None and not near:
            return near, None
        seg = segment(ax, ay, bx, by)
        if near is None:
            return sorted(int(i) for i in self.tree.query(seg, predicate="intersects")
                          if wanted(int(i))), seg
        hit = shapely.intersects(self.shapes[near], seg)
        return [i for i, h in zip(near, hit.tolist(), strict=True) if h], seg

    def _floor_box_met(self, ax: float, ay: float, bx: float, by: float) -> bool:
        """The segment's box meets some floor feature's box: a segment that meets
        none cannot intersect a floor feature, so the tree has nothing to find."""
        lo_x, hi_x = min(ax, bx) - BOX_SLACK, max(ax, bx) + BOX_SLACK
        lo_y, hi_y = min(ay, by) - BOX_SLACK, max(ay, by) + BOX_SLACK
        cand = self._floor_grid.candidates(lo_x, lo_y, hi_x, hi_y)
        if cand is not None:              # the same box test, on the grid's few candidates
            rows = self._floor_grid.rows
            return any(rows[k][0] <= hi_x and rows[k][2] >= lo_x and rows[k][1] <= hi_y
                       and rows[k][3] >= lo_y for k in cand)
        minx, miny, maxx, maxy = self._floor_boxes
        return bool(((minx <= hi_x) & (maxx >= lo_x) & (miny <= hi_y) & (maxy >= lo_y)).any())

    @cached_property
    def _floor_grid(self) -> BoxGrid:
        """`_floor_boxes` on a grid (a short segment looks at the cells it covers)."""
        return BoxGrid(np.column_stack(self._floor_boxes))

    @cached_property
    def _feature_grid(self) -> BoxGrid:
        """Every feature's bounding box on a grid, in arena order."""
        return BoxGrid(shapely.bounds(self.shapes).reshape(-1, 4))

    def _boxes_meeting(self, lo_x: float, lo_y: float, hi_x: float, hi_y: float,
                       wanted: Callable[[int], bool]) -> list[int] | None:
        """The features (arena order) that `wanted` keeps whose bounding boxes meet the
        box [lo_x, hi_x] x [lo_y, hi_y] grown by BOX_SLACK: every feature whose shape
        comes within that box is among them. None when the grid leaves it to the tree."""
        lo_x, lo_y, hi_x, hi_y = lo_x - BOX_SLACK, lo_y - BOX_SLACK, hi_x + BOX_SLACK, \
            hi_y + BOX_SLACK
        meeting = self._feature_grid.meeting(lo_x, lo_y, hi_x, hi_y)
        return None if meeting is None else [k for k in meeting if wanted(k)]

    def _floor_edges(self, i: int) -> BaseGeometry:
        """The boundary of floor i's region (later floors cut out), built once."""
        edges = self._floor_boundary.get(i)
        if edges is None:
            edges = self._floor_boundary[i] = self._floor_region[i].region.boundary
        return edges

    def _joined(self, x: float, y: float, before: Surface | None, after: Surface | None,
                z_high: float, step: float) -> bool:
        """A stair, ramp or escalator floor on either side, or a lift car serving the
        higher floor right at the edge (EdgeCrossing.joined: not a way through)."""
        if any(s is not None and s.feature.type in SLOPED_TYPES for s in (before, after)):
            return True
        if not self._has_lifts:
            return False
        for f in self.disc_contacts(x, y, 0.0, ("lift",)):
            if f.top is not None and abs(f.top - z_high) <= step + EPS:
                return True
        return False

    def first_entry(self, a: Sequence[float], b: Sequence[float],
                    types: Iterable[str]) -> tuple[float, tuple[float, float], Feature] | None:
        """Where the centre first enters a feature of these types (see
        `_first_entry`); an answer already found is given again."""
        types = tuple(types)
        key = (a[0], a[1], b[0], b[1], types)
        found = self._memo_entry.get(key, False)
        if found is False:
            found = _remember(self._memo_entry, key, self._first_entry(a, b, types))
        return cast("tuple[float, tuple[float, float], Feature] | None", found)

    def _first_entry(self, a: Sequence[float], b: Sequence[float],
                     types: Iterable[str]) -> tuple[float, tuple[float, float], Feature] | None:
        """Where the centre moving from a to b first enters a feature of these types
        (pits, teleporters, belts...): (distance, point, feature); None if never. A
        feature the centre is already on at a counts only if it leaves and comes back."""
        wanted = set(types)
        ax, ay, bx, by = float(a[0]), float(a[1]), float(b[0]), float(b[1])
        length = math.hypot(bx - ax, by - ay)
        if length == 0.0:
            return None
        features = self.features
        near, seg = self._on_segment(ax, ay, bx, by, lambda i: features[i].type in wanted)
        best: tuple[float, int] | None = None
        for i in near:
            cut = shapely.intersection(seg, self.shapes[i])
            for part in shapely.get_parts(cut):
                xy = shapely.get_coordinates(part).tolist()
                s = min(((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length for x, y in xy)
                if s > EPS and (best is None or s < best[0]):
                    best = (s, i)
        if best is None:
            return None
        s, i = best
        return s, (ax + (bx - ax) * s / length, ay + (by - ay) * s / length), self.features[i]

    # -- sight ---------------------------------------------------------------------
    @cached_property
    def _sight_surfaces(self) -> tuple[list[Surface], list[Surface]]:
        """Flat (walls, platforms) and sloped sight obstacles; doors come per call."""
        flat = [self._barrier[i] for i in self.walls]
        flat += [s for s in self.floors if not s.sloped and s.top > 0.0]
        sloped = [s for s in self.floors if s.sloped and s.top > 0.0]
        return flat, sloped

    @cached_property
    def _levels(self) -> SightLevels:
        """Walls and raised platforms, level by level (exact)."""
        return SightLevels(self._sight_surfaces[0])

    @cached_property
    def _shadows(self) -> Shadows:
        """Convex walls and platforms for quick proofs that a line is blocked."""
        return Shadows(self._sight_surfaces[0], SHADOW_RADIUS)

    def _door_levels(self, closed: tuple[int, ...]) -> SightLevels:
        """Closed doors, level by level; cached per set of closed doors."""
        return self.cached(("sight-doors", closed),
                           lambda: SightLevels([self._barrier[i] for i in closed]))

    def _sight_surface(self, i: int, closed: set[int]) -> Surface | None:
        kind = self.features[i].type
        if kind == "wall" or (kind == "door" and i in closed):
            return self._barrier[i]
        surface = self._floor_region.get(i)
        if surface is not None and surface.top > 0.0:
            return surface
        return None

    def sight(self, a: Sequence[float], az: float, b: Sequence[float], bz: float,
              discs: Sequence[Disc] = (), open_doors: Iterable[str | int] = (),
              ignore: Iterable[str] = ()) -> Sight:
        """Sight from (a, az) to (b, bz) (D15). az and bz are the heights of the line's
        ends: the shooter's top (z + figure height) and the target's middle (z + half
        its height). Walls, closed doors, raised floors and discs (other bots) must all
        be lower than the line where it passes over them; touching counts. Discs named
        in `ignore` or holding an end of the line (shooter, target) are skipped.

        A batch of one line: whether it is clear comes from the batched path
        (`sight_many`); the first blocker and point, and the fire track (every
        crossing), are worked out by `sight_plain` when first read."""
        if not FAST_PATHS.on:
            return self.sight_plain(a, az, b, bz, discs, open_doors, ignore)
        skip = set(ignore)
        kept = tuple(d for d in discs if d.id not in skip) if skip else tuple(discs)
        doors = tuple(open_doors)
        clear = not self._blocked_one(float(a[0]), float(a[1]), float(az), float(b[0]),
                                      float(b[1]), float(bz), kept, doors)
        return Sight(clear, detail=lambda: self.sight_plain(a, az, b, bz, kept, doors))

    def _blocked_one(self, ax: float, ay: float, az: float, bx: float, by: float, bz: float,
                     discs: Sequence[Disc], open_doors: Iterable[str | int]) -> bool:
        """`_blocked_lines` for a batch of one line, in plain floats: flat obstacles
        level by level, closed doors, bots, then stairs, ramps and escalators."""
        if ax == bx and ay == by:
            return False                # no line: nothing between
        line = segment(ax, ay, bx, by)
        if self._levels.blocked_one(ax, ay, az, bx, by, bz, line):
            return True
        closed = self._closed_doors(open_doors)
        if closed and self._door_levels(closed).blocked_one(ax, ay, az, bx, by, bz, line):
            return True
        if discs and discs_block_one(ax, ay, az, bx, by, bz, discs):
            return True
        if self._sight_surfaces[1]:
            return self._slopes.blocked_one(ax, ay, az, bx, by, bz, line)
        return False

    def sight_plain(self, a: Sequence[float], az: float, b: Sequence[float], bz: float,
                    discs: Sequence[Disc] = (), open_doors: Iterable[str | int] = (),
                    ignore: Iterable[str] = ()) -> Sight:
        """`sight` worked out line by line and in full (every crossing): the
        reference the batched path is tested against."""
        line = Line(float(a[0]), float(a[1]), float(az), float(b[0]), float(b[1]), float(bz))
        closed = self._closed_doors(open_doors)
        crossings: list[Crossing] = []
        if line.length > 0.0:
            geom = line.geometry()
            crossings += self._surface_crossings(line, geom, closed)
            skip = set(ignore)
            for d in discs:
                if d.id in skip or skips_disc(line, d.x, d.y, d.r):
                    continue
                c = disc_crossing(line, d.x, d.y, d.r, d.z + d.height, d.id)
                if c is not None:
                    crossings.append(c)
        first: tuple[float, str] | None = None
        track: list[TrackPoint] = []
        for c in crossings:
            s = first_block(line, c)
            if s is not None and (first is None or s < first[0]):
                first = (s, c.what)
            track.append(TrackPoint(c.s0, line.z_at(c.s0), c.z0, c.what))
            if c.s1 > c.s0:
                track.append(TrackPoint(c.s1, line.z_at(c.s1), c.z1, c.what))
        track.sort(key=lambda p: (p.distance, p.what))
        if first is None:
            return Sight(True, track=tuple(track))
        return Sight(False, first[1], line.point_at(first[0]), tuple(track))

    def _surface_crossings(self, line: Line, geom: LineString, closed: tuple[int, ...]
                           ) -> list[Crossing]:
        """The line's pieces over every sight obstacle it meets (walls, closed doors,
        raised floors), obstacle by obstacle in arena order: by arithmetic on the
        edges of those whose boxes it meets (`SightEdges`), or, when that cannot
        be trusted (the line grazes a corner, runs along an edge, ends on one), by
        Shapely's intersection with those it meets."""
        near = self.tree.query(geom)
        near = np.sort(near[self._sight_mask(closed)[near]])
        found = self._sight_edges.crossings(line, near.tolist())
        if found is not None:
            return found
        shut = set(closed)
        met = [self._sight_surface(int(i), shut) for i in
               np.sort(self.tree.query(geom, predicate="intersects"))]
        return surface_crossings(line, geom, [s for s in met if s is not None])

    @cached_property
    def _sight_edges(self) -> SightEdges:
        """The edges of every sight obstacle's surface (doors open or closed)."""
        every = set(self.doors)
        return SightEdges([self._sight_surface(i, every) for i in range(len(self.features))])

    def _sight_mask(self, closed: tuple[int, ...]) -> np.ndarray:
        """Which features block sight with these doors closed (cached per set)."""
        key = ("sight-mask", closed)
        found = self._cache.get(key)
        if found is None:
            shut = set(closed)
            found = np.array([self._sight_surface(i, shut) is not None
                              for i in range(len(self.features))], dtype=bool)
            self._cache[key] = found
        return cast(np.ndarray, found)

    def sight_many(self, pairs: Sequence[tuple[Sequence[float], float, Sequence[float], float]]
                   | np.ndarray, discs: Sequence[Disc] = (),
                   open_doors: Iterable[str | int] = ()) -> list[bool]:
        """Vectorised clear/blocked for many lines at once, the same answers as
        `sight(...).clear` for each (discs holding a line's end are skipped, as there).
        `pairs` may also be an (n, 6) array of rows ax, ay, az, bx, by, bz."""
        if isinstance(pairs, np.ndarray):
            arr = pairs.astype(float, copy=False).reshape(-1, 6)
        else:
            arr = np.array([(a[0], a[1], az, b[0], b[1], bz) for a, az, b, bz in pairs],
                           dtype=float).reshape(-1, 6)
        if len(arr) == 0:
            return []
        if not FAST_PATHS.on:
            return [self._plain_clear(row, discs, open_doors) for row in arr.tolist()]
        clear: list[bool] = (~self._blocked_lines(LineBatch(*arr.T), discs, open_doors)).tolist()
        return clear

    def _plain_clear(self, row: Sequence[float], discs: Sequence[Disc],
                     open_doors: Iterable[str | int]) -> bool:
        ax, ay, az, bx, by, bz = row
        return self.sight_plain((ax, ay), az, (bx, by), bz, discs, open_doors).clear

    def sight_many_both(self, pairs: np.ndarray, discs: Sequence[Disc] = (),
                        open_doors: Iterable[str | int] = ()) -> tuple[np.ndarray, np.ndarray]:
        """`sight_many` without the discs and with them, in one pass (the terrain is
        tested once): two boolean arrays, clear through the bots (R28 sprays) and
        clear past them. `pairs` is an (n, 6) array of rows ax, ay, az, bx, by, bz."""
        arr = np.asarray(pairs, dtype=float).reshape(-1, 6)
        if len(arr) == 0:
            return np.zeros(0, dtype=bool), np.zeros(0, dtype=bool)
        if not FAST_PATHS.on:
            rows = arr.tolist()
            return (np.array([self._plain_clear(r, (), open_doors) for r in rows], dtype=bool),
                    np.array([self._plain_clear(r, discs, open_doors) for r in rows], dtype=bool))
        batch = LineBatch(*arr.T)
        done = (batch.ax == batch.bx) & (batch.ay == batch.by)
        blocked = self._blocked_by_flat(batch, done, open_doors)
        self._blocked_by_slopes(batch, done, blocked)
        terrain = ~blocked
        idx = np.flatnonzero(terrain & ~done)
        if len(idx) and discs:
            b = batch
            blocked[idx] = discs_block(b.ax[idx], b.ay[idx], b.az[idx], b.bx[idx], b.by[idx],
                                       b.bz[idx], discs)
        return terrain, ~blocked

    def sight_all(self, discs: Sequence[Disc], open_doors: Iterable[str | int] = ()
                  ) -> np.ndarray:
        """Sight between every ordered pair of bots: an (n, n) boolean array, row the
        shooter (its top), column the target (its middle), the other bots blocking
        (D15). The diagonal is False. The bench's 992 pairs of 32 bots in one call."""
        m = len(discs)
        if m < 2:
            return np.zeros((m, m), dtype=bool)
        if not FAST_PATHS.on:
            out = np.zeros((m, m), dtype=bool)
            for i, s in enumerate(discs):
                for j, t in enumerate(discs):
                    if i != j:
                        out[i, j] = self.sight_plain((s.x, s.y), s.z + s.height, (t.x, t.y),
                                                     t.z + t.height / 2.0, discs).clear
            return out
        x = np.array([d.x for d in discs], dtype=float)
        y = np.array([d.y for d in discs], dtype=float)
        z = np.array([d.z for d in discs], dtype=float)
        h = np.array([d.height for d in discs], dtype=float)
        r = np.array([d.r for d in discs], dtype=float)
        rows, cols, twin, flat = _all_pairs(m)
        top = z + h
        batch = LineBatch(x[rows], y[rows], top[rows], x[cols], y[cols], (z + h / 2.0)[cols],
                          twin=twin, ends=(x, y, rows, cols))
        blocked = self._blocked_lines(batch, discs, open_doors, (x, y, r, top))
        pairs = np.zeros(m * m, dtype=bool)
        pairs[flat] = ~blocked
        return pairs.reshape(m, m)

    def _blocked_lines(self, batch: LineBatch, discs: Sequence[Disc],
                       open_doors: Iterable[str | int],
                       disc_arrays: (tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
                                     | None) = None) -> np.ndarray:
        """Which lines something blocks: shadow proofs, flat obstacles level by level,
        closed doors, bots, then the exact check against stairs, ramps and escalators
        for the lines still clear."""
        done = (batch.ax == batch.bx) & (batch.ay == batch.by)    # no line: nothing between
        blocked = self._blocked_by_flat(batch, done, open_doors)
        idx = np.flatnonzero(~done & ~blocked)
        if len(idx) and discs:
            b = batch
            blocked[idx] = discs_block(b.ax[idx], b.ay[idx], b.az[idx], b.bx[idx], b.by[idx],
                                       b.bz[idx], discs, arrays=disc_arrays)
        self._blocked_by_slopes(batch, done, blocked)
        return blocked

    def _blocked_by_flat(self, batch: LineBatch, done: np.ndarray,
                         open_doors: Iterable[str | int]) -> np.ndarray:
        """Lines blocked by walls, raised platforms or closed doors: shadow proofs
        for many lines between few points, then level by level (exact)."""
        blocked = np.zeros(batch.n, dtype=bool)
        if self._shadows.count and self._shadows.worth(batch.n):
            px, py, ia, ib = batch.ends()
            blocked = self._shadows.proven_blocked(px, py, ia, ib, batch.az, batch.bz)
            blocked &= ~done
        blocked |= self._levels.blocked(batch, done | blocked)
        closed = self._closed_doors(open_doors)
        if closed:
            doors = self._door_levels(closed)
            left = np.flatnonzero(~(done | blocked))
            if len(left) <= FEW_LINES:
                for k, row in zip(left.tolist(), batch.rows(left), strict=True):
                    blocked[k] = doors.blocked_one(*row, segment(row[0], row[1], row[3], row[4]))
            else:
                blocked |= doors.blocked(batch, done | blocked)
        return blocked

    def _blocked_by_slopes(self, batch: LineBatch, done: np.ndarray, blocked: np.ndarray) -> None:
        """Marks the lines not yet blocked that stairs, ramps or escalators block."""
        if self._sight_surfaces[1]:
            maybe = np.flatnonzero(~done & ~blocked)
            if len(maybe):
                blocked[maybe] = self._slopes.blocked(batch, maybe)

    @cached_property
    def _slopes(self) -> SlopedSight:
        return SlopedSight(self._sight_surfaces[1])
