"""A coarse navigation grid per arena and kind of mover: where a robot can go and
how far it is, walking around walls, pits and cliffs.

This is only the robot's map for ranking candidate moves; the movement rules
(`rules.movement.preview_move`) remain the judge of every move it makes. The
grid is built once per (arena, mobility, radius) and per process; distance
fields to a target are cached.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from bottisota.core.arena import SLOPED_TYPES, Arena, Feature
from bottisota.core.cards import BotCard
from bottisota.core.compass import vector
from bottisota.core.house_rules import HouseRules
from bottisota.engine.movement.geometry import parts_of, wall_collision
from bottisota.engine.movement.physics import floors_near
from bottisota.engine.overwatch import prepare_corners
from bottisota.engine.shooting.geometry import barriers
from bottisota.geometry.arena_index import FAST_PATHS
from bottisota.geometry.build_cache import GEOMETRY_CODE, cached_build
from bottisota.geometry.cliffs import cliff_lines
from bottisota.geometry.compiled import compile_arena

CELL = 4.0                      # grid spacing, cm (the robot's map, not a rule)
SAMPLE = 1.0                    # spacing of floor samples along an edge, cm
INF = math.inf
Point2 = tuple[float, float]
FIELDS_KEPT = 512               # distance fields kept per grid (targets recently asked)
MOBILITIES = ("wheels", "walker", "flying")   # tracked bots move like wheeled ones here


def mobility(locomotion: str) -> str:
    """Which grid a locomotion uses: stairs are climbed only by walkers and fliers (R42)."""
    if locomotion in ("flier", "hover"):
        return "flying"
    return "walker" if locomotion == "walker" else "wheels"


def floor_heights(arena: Arena, xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Floor z at many points (platforms, slopes; later features win) and the index of
    the sloped feature under each point (-1 where none). Each floor is tested only
    against the points inside its bounding box (points sorted by x once)."""
    z = np.zeros(len(xs))
    slope = np.full(len(xs), -1)
    floors = [f for f in arena.features if f.type == "platform" or f.type in SLOPED_TYPES]
    if not floors or not len(xs):
        return z, slope
    order = np.argsort(xs, kind="stable")
    sorted_x = xs[order]
    for f in floors:
        minx, miny, maxx, maxy = f.shape.bounds
        near = order[np.searchsorted(sorted_x, minx, "left"):np.searchsorted(sorted_x, maxx,
                                                                              "right")]
        near = near[(ys[near] >= miny) & (ys[near] <= maxy)]
        if not len(near):
            continue
        inside = near[shapely.contains_xy(f.shape, xs[near], ys[near])]
        if not len(inside):
            continue
        if f.type == "platform":
            z[inside] = f.height or 0.0
            slope[inside] = -1
            continue
        ux, uy = vector(f.up or 0.0)
        coords = np.asarray(f.shape.exterior.coords)
        proj = coords[:, 0] * ux + coords[:, 1] * uy
        lo, hi = proj.min(), proj.max()
        t = ((xs[inside] * ux + ys[inside] * uy) - lo) / max(hi - lo, 1e-9)
        z[inside] = (f.from_z or 0.0) + np.clip(t, 0, 1) * ((f.to_z or 0.0) - (f.from_z or 0.0))
        slope[inside] = f.index
    return z, slope


@dataclass(eq=False)
class NavGrid:
    """Cells of CELL cm; `ok[i]` where a bot's centre may rest; the hops (straight runs
    from a cell to a neighbour or across a lift, with their cost in cm) as arrays,
    grouped by the cell they leave: cell c's hops are `hop_to[hop_start[c]:hop_start[c + 1]]`
    (costs in `hop_cost`), in the order they were found."""

    arena: Arena
    kind: str
    radius: float
    nx: int
    ny: int
    xs: np.ndarray
    ys: np.ndarray
    z: np.ndarray
    ok: np.ndarray
    hop_start: np.ndarray
    hop_to: np.ndarray
    hop_cost: np.ndarray
    walls: BaseGeometry            # prepared union of walls inflated by the radius
    bad: BaseGeometry              # prepared union of what a centre must not cross
    lifts: bool = False            # some hops ride a lift (they may beat the straight line)
    _fields: dict[int, np.ndarray] = field(default_factory=dict, repr=False)
    _field_lists: dict[int, list[float]] = field(default_factory=dict, repr=False)

    def hops(self, c: int) -> list[tuple[int, float]]:
        """The hops leaving cell c: (cell reached, cost in cm)."""
        a, b = int(self.hop_start[c]), int(self.hop_start[c + 1])
        return list(zip(self.hop_to[a:b].tolist(), self.hop_cost[a:b].tolist(), strict=True))

    def cell(self, x: float, y: float) -> int:
        i = min(max(int(x / CELL), 0), self.nx - 1)
        j = min(max(int(y / CELL), 0), self.ny - 1)
        return j * self.nx + i

    def centre(self, c: int) -> tuple[float, float]:
        return float(self.xs[c]), float(self.ys[c])

    def clear(self, a: tuple[float, float], b: tuple[float, float]) -> bool:
        """A straight run of the centre from a to b meets no wall (radius included),
        and for ground bots no pit."""
        if a == b:
            return not shapely.contains_xy(self.bad, a[0], a[1])
        return not self.bad.intersects(LineString([a, b]))

    def field(self, target: int) -> np.ndarray:
        """Distance in cm from every cell to the target cell (Dijkstra in C, scipy,
        on the grid's edges reversed); the last FIELDS_KEPT fields are kept."""
        found = self._fields.get(target)
        if found is None:
            if len(self._fields) >= FIELDS_KEPT:
                del self._fields[next(iter(self._fields))]
            found = load_solver()[1](self._reversed, directed=True, indices=target)
            found.flags.writeable = False
            self._fields[target] = found
        return found

    def field_list(self, target: int) -> list[float]:
        """`field(target)` as a Python list (read cell by cell, as `waypoint` does, a
        list is several times faster than the array); the last FIELDS_KEPT kept."""
        found = self._field_lists.get(target)
        if found is None:
            if len(self._field_lists) >= FIELDS_KEPT:
                del self._field_lists[next(iter(self._field_lists))]
            found = self._field_lists[target] = self.field(target).tolist()
        return found

    @cached_property
    def hop_lists(self) -> tuple[list[int], list[int], list[float]]:
        """`hop_start`, `hop_to` and `hop_cost` as Python lists (read hop by hop)."""
        return self.hop_start.tolist(), self.hop_to.tolist(), self.hop_cost.tolist()

    @cached_property
    def _reversed(self) -> Any:   # Any: scipy's sparse matrix (scipy ships no types)
        """The hops as a sparse matrix, reversed (`reversed_hops`)."""
        csr_matrix = load_solver()[0]
        data, indices, indptr = self.reversed_hops
        n = len(self.xs)
        return csr_matrix((data, indices, indptr), shape=(n, n))

    @cached_property
    def reversed_hops(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The hops reversed (row: the cell a hop enters, column: the cell it leaves),
        the cheapest of parallel hops kept, as compressed sparse rows (data, indices,
        indptr; columns sorted in each row). Plain numpy: built with the map, before
        scipy is imported."""
        n = len(self.xs)
        src = np.repeat(np.arange(n), np.diff(self.hop_start))
        rows, cols, w = self.hop_to, src, self.hop_cost
        order = np.lexsort((w, cols, rows))
        rows, cols, w = rows[order], cols[order], w[order]
        first = np.ones(len(rows), dtype=bool)
        first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
        rows, cols, w = rows[first], cols[first], w[first]
        indptr = np.zeros(n + 1, dtype=np.int32)
        np.cumsum(np.bincount(rows, minlength=n), out=indptr[1:])
        return w.astype(float), cols.astype(np.int32), indptr

    def at_least(self, a: Point2, b: Point2) -> float:
        """A travel distance from a to b is never shorter than this: every hop but a
        lift's costs its straight length, and b lies within 2 cells of its cell's
        centre (0 on a map with lifts)."""
        if self.lifts:
            return 0.0
        return math.hypot(b[0] - a[0], b[1] - a[1]) - 2.0 * CELL

    def distance(self, a: tuple[float, float], b: tuple[float, float]) -> float:
        """Travel distance from a to b: straight when the way is clear, else by the grid."""
        if self.clear(a, b):
            return math.hypot(b[0] - a[0], b[1] - a[1])
        f = self.field(self.cell(*b))
        c = self.cell(*a)
        cx, cy = self.centre(c)
        return float(f[c]) + math.hypot(cx - a[0], cy - a[1])

    def distances_to(self, b: tuple[float, float]) -> Callable[[Point2], float]:
        """A function giving the travel distance from any point to b (field cached)."""
        f = self.field(self.cell(*b))

        def to_b(a: tuple[float, float]) -> float:
            if self.clear(a, b):
                return math.hypot(b[0] - a[0], b[1] - a[1])
            c = self.cell(*a)
            cx, cy = self.centre(c)
            return float(f[c]) + math.hypot(cx - a[0], cy - a[1])
        return to_b

    @staticmethod
    def spot_lines(points: list[Point2], b: Point2) -> np.ndarray:
        """The straight lines from many points to b (Shapely, one per point)."""
        xy = np.asarray(points, dtype=float)
        ends = np.broadcast_to(np.asarray(b, dtype=float), xy.shape)
        lines: np.ndarray = shapely.linestrings(np.stack([xy, ends], axis=1))
        return lines

    def distances_many(self, points: list[Point2], b: Point2,
                       lines: np.ndarray | None = None,
                       blocked: np.ndarray | None = None) -> list[float]:
        """Travel distances from many points to b at once (one vectorised wall test);
        `lines` are their `spot_lines` to b when already built, `blocked` whether each
        meets the map when already tested (`crosses_and_lines`)."""
        if not points:
            return []
        xy = np.asarray(points, dtype=float)
        if blocked is None:
            if lines is None:
                lines = self.spot_lines(points, b)
            blocked = shapely.intersects(self.bad, lines)
        straight = np.hypot(xy[:, 0] - b[0], xy[:, 1] - b[1])
        out: list[float] = straight.tolist()
        if not blocked.any():
            return out
        f = self.field(self.cell(*b))
        for k in np.nonzero(blocked)[0]:
            x, y = points[k]
            c = self.cell(x, y)
            cx, cy = self.centre(c)
            out[k] = float(f[c]) + math.hypot(cx - x, cy - y)
        return out

    def crosses(self, paths: list[tuple[Point2, ...]]) -> list[bool]:
        """For many polylines of the centre: does one meet a wall, pit or cliff? (A path
        of one point, or whose corners are all one point, meets nothing.)"""
        return self.crosses_and_lines(paths, [], (0.0, 0.0))[0]

    def crosses_and_lines(self, paths: list[tuple[Point2, ...]], points: list[Point2],
                          b: Point2) -> tuple[list[bool], np.ndarray, np.ndarray]:
        """`crosses(paths)`, and the straight lines from each point to b (`spot_lines`)
        with whether each meets a wall, pit or cliff (as `distances_many` tests them),
        all built and tested in one vectorised call: (crossing, lines, blocked)."""
        keep = [k for k, p in enumerate(paths) if len(p) >= 2 and p.count(p[0]) != len(p)]
        out = [False] * len(paths)
        chosen = [paths[k] for k in keep]
        lengths = [len(p) for p in chosen] + [2] * len(points)
        if not lengths:
            return out, np.empty(0, dtype=object), np.zeros(0, dtype=bool)
        bx, by = b
        flat = chain(chain.from_iterable(chain.from_iterable(chosen)),
                     chain.from_iterable((x, y, bx, by) for x, y in points))
        coords = np.fromiter(flat, float, 2 * sum(lengths)).reshape(-1, 2)
        lines = shapely.linestrings(coords, indices=np.repeat(np.arange(len(lengths)), lengths))
        hits = shapely.intersects(self.bad, lines)
        for k, hit in zip(keep, hits[:len(keep)].tolist(), strict=True):
            out[k] = hit
        return out, lines[len(keep):], hits[len(keep):]

    def walls_between(self, points: list[Point2], b: Point2,
                      lines: np.ndarray | None = None) -> list[bool]:
        """For many points: does a wall (inflated by the radius) stand between it and b?
        `lines` are their `spot_lines` to b when already built."""
        if lines is None:
            lines = self.spot_lines(points, b)
        walled: list[bool] = shapely.intersects(self.walls, lines).tolist()
        return walled

    def waypoint(self, a: Point2, b: Point2, reach: float) -> Point2:
        """The furthest point along the grid path from a toward b, within `reach` cm,
        that a straight run from a can get to: where to steer this turn."""
        if self.clear(a, b):
            return b
        f = self.field_list(self.cell(*b))
        c = self.cell(*a)
        best = b
        travelled = 0.0
        seen = {c}
        path: list[tuple[int, Point2]] = []     # the grid path within reach, in order
        hop_start, hop_to, hop_cost = self.hop_lists
        while True:
            # the hop of least f[to] + cost, the first of equals (`min` over `hops(c)`)
            lo, hi = hop_start[c], hop_start[c + 1]
            if lo == hi:
                break
            k, least = lo, f[hop_to[lo]] + hop_cost[lo]
            for h in range(lo + 1, hi):
                through = f[hop_to[h]] + hop_cost[h]
                if through < least:
                    k, least = h, through
            to = hop_to[k]
            if f[to] >= f[c] or to in seen:
                break
            travelled += hop_cost[k]
            c = to
            seen.add(c)
            if travelled > reach * 1.5:
                break
            path.append((c, self.centre(c)))
            if f[c] == 0.0:
                break
        # the furthest point of it reached by a clear straight run, all asked at once
        for (c, p), ok in zip(path, self.clear_from(a, [p for _, p in path]), strict=True):
            if not ok:
                break
            best = p
            if f[c] == 0.0:
                best = b if self.clear(a, b) else p
                break
        return best

    def clear_from(self, a: Point2, points: list[Point2]) -> list[bool]:
        """`clear(a, p)` for many points p, one vectorised test (line by line with the
        fast paths off)."""
        if not points:
            return []
        if not FAST_PATHS.on:
            return [self.clear(a, p) for p in points]
        xy = np.asarray(points, dtype=float)
        starts = np.broadcast_to(np.asarray(a, dtype=float), xy.shape)
        out: list[bool] = (~shapely.intersects(self.bad, shapely.linestrings(
            np.stack([starts, xy], axis=1)))).tolist()
        for k, p in enumerate(points):
            if p == a:                  # no line: is the point itself free?
                out[k] = self.clear(a, p)
        return out


def load_solver() -> tuple[Any, Any]:     # Any: scipy ships no types
    """scipy's sparse matrix and Dijkstra, imported on the first distance field a
    robot asks for, not when this module loads (the import costs more than the
    rest of the view's start-up). A process that forks workers calls this first,
    so that no worker imports it after the fork."""
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    return csr_matrix, dijkstra


def nav_grid(arena: Arena, rules: HouseRules, locomotion: str, radius: float,
             lift_cost: float = 0.0) -> NavGrid:
    """The grid for this arena and mover (built on first use, then kept with the
    compiled arena, so it lives and dies with it)."""
    kind = mobility(locomotion)
    if kind == "flying":
        lift_cost = 0.0                 # fliers take no lifts: one grid for them all
    key = ("robot", "nav-grid", kind, round(radius, 3), round(lift_cost, 3))
    return compile_arena(arena, rules).cached(
        key, lambda: _build(arena, rules, kind, radius, lift_cost))


def grid_for(arena: Arena, rules: HouseRules, card: BotCard) -> NavGrid:
    """The grid a bot of this card uses (lifts cost it half its move, R48)."""
    return nav_grid(arena, rules, card.locomotion, card.base / 2.0,
                    card.move * rules.lift_cost_fraction)


def prepare(arena: Arena, rules: HouseRules, cards: Iterable[BotCard]) -> None:
    """Build every grid these cards will need now, and the compiled arena's sight
    structures that the robots' batched sight questions use, so that no decision pays
    for them later."""
    index = compile_arena(arena, rules)
    w, h = arena.size
    # what the rules build on first use, once per compiled arena: the cliff lines every
    # move and placement is tested against, the floor tree, the doors and lifts, the
    # shot barriers, the corners overwatch checks aim past (else the first decision to
    # need one pays for it, up to 0.4 s)
    cliff_lines(index, rules.step_height)
    prepare_corners(arena)
    floors_near(index, (0.0, 0.0), (0.0, 0.0), 0.0)
    parts_of(index)
    barriers(index)
    for card in cards:
        grid_for(arena, rules, card)
        # the walls grown by this base's radius, which every move's sweep is tested against
        wall_collision(index, (0.0, 0.0), (w, h), card.base / 2.0, rules.contact_tolerance)
    index.sight_many(np.array([[0.0, 0.0, 1.0, w, h, 1.0]]))


@dataclass(eq=False)
class _Base:
    """What every grid of one kind of mover and radius shares: the cells, where a
    centre may rest, the floor and the hops between neighbours (lifts are added per
    lift cost)."""

    nx: int
    ny: int
    xs: np.ndarray
    ys: np.ndarray
    z: np.ndarray
    ok: np.ndarray
    walls: BaseGeometry
    bad: BaseGeometry
    src: np.ndarray                # hop i goes from cell src[i] to dst[i] at cost[i],
    dst: np.ndarray                # in the order they were found
    cost: np.ndarray


@dataclass(eq=False)
class _Worked:
    """What a base costs to work out (kept on disk, `_stored`): where a centre may rest,
    the floor, which of the candidate hops (`_neighbour_pairs`, each pair a->b then
    b->a) are kept, and the walls and what a centre must not cross."""

    ok: np.ndarray
    z: np.ndarray
    keep: np.ndarray
    walls: BaseGeometry
    bad: BaseGeometry


def _cells(arena: Arena, radius: float) -> tuple[int, int, np.ndarray, np.ndarray]:
    """The grid's size in cells and the cells' centres (kept off the walls of the table)."""
    w, h = arena.size
    nx, ny = max(int(math.ceil(w / CELL)), 1), max(int(math.ceil(h / CELL)), 1)
    ii, jj = np.meshgrid(np.arange(nx), np.arange(ny))
    xs = np.clip((ii.ravel() + 0.5) * CELL, radius, w - radius)
    ys = np.clip((jj.ravel() + 0.5) * CELL, radius, h - radius)
    return nx, ny, xs, ys


def _base(arena: Arena, rules: HouseRules, kind: str, radius: float) -> _Base:
    return _assemble(arena, radius, _work(arena, rules, kind, radius))


def _work(arena: Arena, rules: HouseRules, kind: str, radius: float) -> _Worked:
    nx, ny, xs, ys = _cells(arena, radius)
    index = compile_arena(arena, rules)
    margin = radius + rules.contact_tolerance
    wall_zone = index.cached(("robot", "wall-zone", round(margin, 6)),
                             lambda: _wall_zone(arena, rules, margin))
    pits = [f.shape for f in arena.features if f.type == "pit"] if kind != "flying" else []
    cliffs = index.cached(("robot", "cliffs", kind), lambda: _cliffs(arena, kind))
    bad = unary_union([wall_zone] + [p.buffer(radius * 0.5) for p in pits] + cliffs)
    shapely.prepare(bad)
    ok = ~shapely.contains_xy(bad, xs, ys)
    z, _ = floor_heights(arena, xs, ys)
    pa, pb = _neighbour_pairs(ok, nx, ny)
    keep = np.zeros(0, dtype=bool)
    if len(pa):
        lines = shapely.linestrings(np.stack([np.stack([xs[pa], ys[pa]], 1),
                                              np.stack([xs[pb], ys[pb]], 1)], 1))
        free = ~_meets(bad, lines)
        lengths = np.hypot(xs[pb] - xs[pa], ys[pb] - ys[pa])
        fwd, bwd = _passable(arena, rules, kind, xs, ys, pa, pb, lengths)
        fwd, bwd = fwd & free, bwd & free
        keep = np.stack([fwd, bwd], 1).ravel()
    return _Worked(ok, z, keep, wall_zone, bad)


def _assemble(arena: Arena, radius: float, worked: _Worked) -> _Base:
    """The base from what was worked out: the hops kept, with their lengths."""
    nx, ny, xs, ys = _cells(arena, radius)
    pa, pb = _neighbour_pairs(worked.ok, nx, ny)
    src = dst = np.zeros(0, dtype=np.int64)
    cost = np.zeros(0)
    if len(pa):
        lengths = np.hypot(xs[pb] - xs[pa], ys[pb] - ys[pa])
        # pair k gives the hop a->b (when passable forward) then b->a: keep that order
        src = np.stack([pa, pb], 1).ravel()
        dst = np.stack([pb, pa], 1).ravel()
        cost = np.repeat(lengths, 2)
        src, dst, cost = src[worked.keep], dst[worked.keep], cost[worked.keep]
    return _Base(nx, ny, xs, ys, worked.z, worked.ok, worked.walls, worked.bad, src, dst, cost)


def _wall_zone(arena: Arena, rules: HouseRules, margin: float) -> BaseGeometry:
    """The walls grown by `margin` (prepared), shared by every kind of mover of one size;
    their union is worked out once per arena."""
    union = compile_arena(arena, rules).cached(("robot", "wall-union"), lambda: unary_union(
        [f.shape for f in arena.features if f.type == "wall"]))
    zone = union.buffer(margin) if not union.is_empty else shapely.Polygon()
    shapely.prepare(zone)
    return zone


NAV_CODE = (__file__, *GEOMETRY_CODE)    # the modules that build a grid's base


def _stored_base(arena: Arena, rules: HouseRules, kind: str, radius: float) -> _Base:
    """`_base`, its costly part (`_Worked`) taken from what was worked out before from
    this arena, rules, kind and radius by this program (the user's disk cache,
    `geometry.build_cache`): a second process, and every `simulate` worker not forked
    from one that has it, reads it instead of working it out."""
    worked = cached_build("nav-base", arena, rules, (kind, radius), NAV_CODE,
                          lambda: _work(arena, rules, kind, radius),
                          lambda found: _fits(found, arena))
    shapely.prepare(worked.walls)          # the prepared state is not kept on disk
    shapely.prepare(worked.bad)
    return _assemble(arena, radius, worked)


def _fits(found: object, arena: Arena) -> bool:
    """What was read from the disk has the form `_work` gives for this arena (else it is
    worked out again: a value read must never be wrong, nor fail later)."""
    if not isinstance(found, _Worked):
        return False
    nx, ny, _, _ = _cells(arena, 0.0)
    arrays = ((found.ok, "b"), (found.z, "f"), (found.keep, "b"))
    if not (all(isinstance(a, np.ndarray) and a.dtype.kind == k and a.ndim == 1
                for a, k in arrays)
            and isinstance(found.walls, BaseGeometry) and isinstance(found.bad, BaseGeometry)
            and found.ok.shape == found.z.shape == (nx * ny,)):
        return False
    pa, _ = _neighbour_pairs(found.ok, nx, ny)
    return found.keep.shape == ((2 * len(pa),) if len(pa) else (0,))


def _build(arena: Arena, rules: HouseRules, kind: str, radius: float, lift_cost: float) -> NavGrid:
    base = compile_arena(arena, rules).cached(
        ("robot", "nav-base", kind, round(radius, 3)),
        lambda: _stored_base(arena, rules, kind, radius))
    src, dst, cost = base.src, base.dst, base.cost
    ls = ld = np.zeros(0, dtype=np.int64)
    if kind != "flying" and lift_cost > 0:
        ls, ld = _lift_hops(arena, base.xs, base.ys, base.z, base.ok, radius)
        if len(ls):
            src, dst = np.concatenate([src, ls]), np.concatenate([dst, ld])
            cost = np.concatenate([cost, np.full(len(ls), float(lift_cost))])
    n = len(base.xs)
    order = np.argsort(src, kind="stable")          # by the cell left, found order kept
    start = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=n), out=start[1:])
    grid = NavGrid(arena, kind, radius, base.nx, base.ny, base.xs, base.ys, base.z, base.ok,
                   start, dst[order], cost[order], base.walls, base.bad, bool(len(ls)))
    _ = grid.reversed_hops                          # with the map, not in a decision
    return grid


def _meets(shape: BaseGeometry, lines: np.ndarray) -> np.ndarray:
    """For many short lines: does each meet `shape`? Asked of the shape's parts through a
    spatial index (the same answers as `shapely.intersects(shape, lines)`, without
    testing every line against every part)."""
    hit = np.zeros(len(lines), dtype=bool)
    parts = shapely.get_parts(shape)
    parts = parts[~shapely.is_empty(parts)]
    if len(parts) and len(lines):
        found, _ = shapely.STRtree(parts).query(lines, predicate="intersects")
        hit[found] = True
    return hit


def _neighbour_pairs(ok: np.ndarray, nx: int, ny: int) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of free cells one hop apart (east, north, north-east, south-east),
    in the order of the first cell, then of those four directions."""
    c = np.arange(nx * ny)
    i, j = c % nx, c // nx
    firsts, seconds, orders = [], [], []
    for k, (di, dj) in enumerate(((1, 0), (0, 1), (1, 1), (1, -1))):
        a, b = i + di, j + dj
        keep = ok & (a >= 0) & (a < nx) & (b >= 0) & (b < ny)
        other = np.where(keep, b * nx + a, 0)
        keep &= ok[other]
        firsts.append(c[keep])
        seconds.append(other[keep])
        orders.append(c[keep] * 4 + k)
    order = np.argsort(np.concatenate(orders), kind="stable")
    return np.concatenate(firsts)[order], np.concatenate(seconds)[order]


def _cliffs(arena: Arena, kind: str) -> list[BaseGeometry]:
    """For ground bots: platform edges not joined by a slope (R37, R39), and for
    wheeled and tracked bots the stairs themselves (R42)."""
    if kind == "flying":
        return []
    joins = [f.shape.buffer(0.5) for f in arena.features
             if f.type in SLOPED_TYPES and not (kind == "wheels" and f.type == "stairs")]
    joins += [f.shape.buffer(0.5) for f in arena.features if f.type == "lift"]
    joined = unary_union(joins) if joins else None
    out = []
    for f in arena.features:
        if f.type in SLOPED_TYPES:
            out += _slope_sides(f)
        if f.type == "platform":
            edge = f.shape.boundary
            out.append(edge.difference(joined) if joined is not None else edge)
        elif f.type == "stairs" and kind == "wheels":
            out.append(f.shape)
    return out


def _slope_sides(feature: Feature) -> list[LineString]:
    """The sides of stairs, a ramp or an escalator: the edges that run along its `up`,
    where its raised floor ends in a drop (only its low and high ends join floors)."""
    ux, uy = vector(feature.up or 0.0)
    coords = list(feature.shape.exterior.coords)
    sides = []
    for (ax, ay), (bx, by) in zip(coords, coords[1:], strict=False):
        length = math.hypot(bx - ax, by - ay)
        if length > 1e-9 and abs(((bx - ax) * ux + (by - ay) * uy) / length) > 0.5:
            sides.append(LineString([(ax, ay), (bx, by)]))
    return sides


def _passable(arena: Arena, rules: HouseRules, kind: str, xs: np.ndarray, ys: np.ndarray,
              pa: np.ndarray, pb: np.ndarray, lengths: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """Per edge: may a ground bot go a->b, and b->a? Cliffs up are refused (R37, D29),
    cliffs down are falls (R39) the map avoids; slopes join floors (R42, R43, R46)."""
    m = len(pa)
    if kind == "flying":
        return np.ones(m, bool), np.ones(m, bool)
    steps = max(int(math.ceil(lengths.max() / SAMPLE)), 1)
    t = np.linspace(0.0, 1.0, steps + 1)
    sx = xs[pa][:, None] + (xs[pb] - xs[pa])[:, None] * t[None, :]
    sy = ys[pa][:, None] + (ys[pb] - ys[pa])[:, None] * t[None, :]
    z, slope = floor_heights(arena, sx.ravel(), sy.ravel())
    z = z.reshape(m, steps + 1)
    slope = slope.reshape(m, steps + 1)
    dz = np.diff(z, axis=1)
    joined = (slope[:, 1:] >= 0) | (slope[:, :-1] >= 0)
    step = rules.step_height
    cliff = (np.abs(dz) > step) & ~joined
    fwd = np.asarray(~cliff.any(axis=1))
    bwd = fwd.copy()
    if kind == "wheels":
        stairs = {f.index for f in arena.features if f.type == "stairs"}
        if stairs:
            on_stairs = np.isin(np.maximum(slope[:, 1:], slope[:, :-1]), list(stairs))
            up = (dz > 1e-9) & on_stairs
            down = (dz < -1e-9) & on_stairs
            fwd &= ~up.any(axis=1)
            bwd &= ~down.any(axis=1)
    return fwd, bwd


def _lift_hops(arena: Arena, xs: np.ndarray, ys: np.ndarray, z: np.ndarray, ok: np.ndarray,
               radius: float) -> tuple[np.ndarray, np.ndarray]:
    """R48: the car and each landing beside it are joined both ways, for ground bots
    (the hops' sources and destinations; each car's hops to its landings, each followed
    by the hop back)."""
    srcs, dsts = [], []
    for f in arena.features:
        if f.type != "lift" or f.top is None:
            continue
        cars = np.flatnonzero(ok & shapely.contains_xy(f.shape, xs, ys))
        reach = f.shape.buffer(2 * radius * 2 + CELL)
        landings = np.flatnonzero(ok & (np.abs(z - f.top) < 1e-6)
                                  & shapely.contains_xy(reach, xs, ys))
        if not len(cars) or not len(landings):
            continue
        a = np.repeat(cars, len(landings))
        b = np.tile(landings, len(cars))
        srcs.append(np.stack([a, b], 1).ravel())
        dsts.append(np.stack([b, a], 1).ravel())
    if not srcs:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    return np.concatenate(srcs), np.concatenate(dsts)
