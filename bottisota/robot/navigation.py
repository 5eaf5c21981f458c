"""A coarse navigation grid per arena and kind of mover: where a robot can go and
how far it is, walking around walls, pits and cliffs.

This is only the robot's map for ranking candidate moves; the movement rules
(`rules.movement.preview_move`) remain the judge of every move it makes. The
grid is built once per (arena, mobility, radius) and per process; distance
fields to a target are cached.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry import LineString
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from bottisota.core.arena import SLOPED_TYPES, Arena
from bottisota.core.house_rules import HouseRules
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
    the sloped feature under each point (-1 where none)."""
    z = np.zeros(len(xs))
    slope = np.full(len(xs), -1)
    for f in arena.features:
        if f.type == "platform":
            inside = shapely.contains_xy(f.shape, xs, ys)
            z[inside] = f.height or 0.0
            slope[inside] = -1
        elif f.type in SLOPED_TYPES:
            inside = shapely.contains_xy(f.shape, xs, ys)
            if not inside.any():
                continue
            ux, uy = math.sin(math.radians(f.up or 0.0)), math.cos(math.radians(f.up or 0.0))
            coords = np.asarray(f.shape.exterior.coords)
            proj = coords[:, 0] * ux + coords[:, 1] * uy
            lo, hi = proj.min(), proj.max()
            t = ((xs[inside] * ux + ys[inside] * uy) - lo) / max(hi - lo, 1e-9)
            z[inside] = (f.from_z or 0.0) + np.clip(t, 0, 1) * ((f.to_z or 0.0) - (f.from_z or 0.0))
            slope[inside] = f.index
    return z, slope


@dataclass(eq=False)
class NavGrid:
    """Cells of CELL cm; `ok[i]` where a bot's centre may rest; `edges[i]` the cells
    reachable from i in one straight hop, with their cost in cm."""

    arena: Arena
    kind: str
    radius: float
    nx: int
    ny: int
    xs: np.ndarray
    ys: np.ndarray
    z: np.ndarray
    ok: np.ndarray
    edges: list[list[tuple[int, float]]]
    walls: object                  # prepared union of walls inflated by the radius
    bad: BaseGeometry              # prepared union of what a centre must not cross
    back: list[list[tuple[int, float]]]
    _fields: dict[int, np.ndarray] = field(default_factory=dict, repr=False)

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

    @cached_property
    def _reversed(self):
        """The edges as a sparse matrix, reversed (row: the cell an edge enters), the
        cheapest of parallel edges kept."""
        csr_matrix = load_solver()[0]
        n = len(self.edges)
        src = [a for a, out in enumerate(self.edges) for _ in out]
        dst = [b for out in self.edges for b, _ in out]
        cost = [w for out in self.edges for _, w in out]
        if not src:
            return csr_matrix((n, n))
        rows, cols, w = np.array(dst), np.array(src), np.array(cost, dtype=float)
        order = np.lexsort((w, cols, rows))
        rows, cols, w = rows[order], cols[order], w[order]
        first = np.ones(len(rows), dtype=bool)
        first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
        return csr_matrix((w[first], (rows[first], cols[first])), shape=(n, n))

    def distance(self, a: tuple[float, float], b: tuple[float, float]) -> float:
        """Travel distance from a to b: straight when the way is clear, else by the grid."""
        if self.clear(a, b):
            return math.hypot(b[0] - a[0], b[1] - a[1])
        f = self.field(self.cell(*b))
        c = self.cell(*a)
        cx, cy = self.centre(c)
        return f[c] + math.hypot(cx - a[0], cy - a[1])

    def distances_to(self, b: tuple[float, float]):
        """A function giving the travel distance from any point to b (field cached)."""
        f = self.field(self.cell(*b))

        def to_b(a: tuple[float, float]) -> float:
            if self.clear(a, b):
                return math.hypot(b[0] - a[0], b[1] - a[1])
            c = self.cell(*a)
            cx, cy = self.centre(c)
            return f[c] + math.hypot(cx - a[0], cy - a[1])
        return to_b

    def distances_many(self, points: list[Point2], b: Point2) -> list[float]:
        """Travel distances from many points to b at once (one vectorised wall test)."""
        if not points:
            return []
        xy = np.asarray(points, dtype=float)
        ends = np.broadcast_to(np.asarray(b, dtype=float), xy.shape)
        lines = shapely.linestrings(np.stack([xy, ends], axis=1))
        blocked = shapely.intersects(self.bad, lines)
        straight = np.hypot(xy[:, 0] - b[0], xy[:, 1] - b[1])
        if not blocked.any():
            return straight.tolist()
        f = self.field(self.cell(*b))
        out = straight.tolist()
        for k in np.nonzero(blocked)[0]:
            x, y = points[k]
            c = self.cell(x, y)
            cx, cy = self.centre(c)
            out[k] = f[c] + math.hypot(cx - x, cy - y)
        return out

    def crosses(self, paths: list[tuple[Point2, ...]]) -> list[bool]:
        """For many polylines of the centre: does one meet a wall, pit or cliff?"""
        lines = [p for p in paths if len(p) >= 2 and any(q != p[0] for q in p)]
        if not lines:
            return [False] * len(paths)
        coords = np.asarray([q for p in lines for q in p], dtype=float)
        index = np.repeat(np.arange(len(lines)), [len(p) for p in lines])
        hits = iter(shapely.intersects(self.bad, shapely.linestrings(coords, indices=index))
                    .tolist())
        return [next(hits) if len(p) >= 2 and any(q != p[0] for q in p) else False
                for p in paths]

    def walls_between(self, points: list[Point2], b: Point2) -> list[bool]:
        """For many points: does a wall (inflated by the radius) stand between it and b?"""
        xy = np.asarray(points, dtype=float)
        ends = np.broadcast_to(np.asarray(b, dtype=float), xy.shape)
        lines = shapely.linestrings(np.stack([xy, ends], axis=1))
        return shapely.intersects(self.walls, lines).tolist()

    def waypoint(self, a: Point2, b: Point2, reach: float) -> Point2:
        """The furthest point along the grid path from a toward b, within `reach` cm,
        that a straight run from a can get to: where to steer this turn."""
        if self.clear(a, b):
            return b
        f = self.field(self.cell(*b))
        c = self.cell(*a)
        best = b
        travelled = 0.0
        seen = {c}
        while True:
            nxt = min(self.edges[c], key=lambda e: f[e[0]] + e[1], default=None)
            if nxt is None or f[nxt[0]] >= f[c] or nxt[0] in seen:
                break
            travelled += nxt[1]
            c = nxt[0]
            seen.add(c)
            p = self.centre(c)
            if travelled > reach * 1.5 or not self.clear(a, p):
                break
            best = p
            if f[c] == 0.0:
                best = b if self.clear(a, b) else p
                break
        return best


def load_solver() -> tuple:
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
    key = ("robot", "nav-grid", kind, round(radius, 3), round(lift_cost, 3))
    return compile_arena(arena, rules).cached(
        key, lambda: _build(arena, rules, kind, radius, lift_cost))


def grid_for(arena: Arena, rules: HouseRules, card) -> NavGrid:
    """The grid a bot of this card uses (lifts cost it half its move, R48)."""
    return nav_grid(arena, rules, card.locomotion, card.base / 2.0,
                    card.move * rules.lift_cost_fraction)


def prepare(arena: Arena, rules: HouseRules, cards) -> None:
    """Build every grid these cards will need now, so no decision pays for it later."""
    for card in cards:
        grid_for(arena, rules, card)


def _build(arena: Arena, rules: HouseRules, kind: str, radius: float, lift_cost: float) -> NavGrid:
    w, h = arena.size
    nx, ny = max(int(math.ceil(w / CELL)), 1), max(int(math.ceil(h / CELL)), 1)
    ii, jj = np.meshgrid(np.arange(nx), np.arange(ny))
    xs = np.clip((ii.ravel() + 0.5) * CELL, radius, w - radius)
    ys = np.clip((jj.ravel() + 0.5) * CELL, radius, h - radius)
    margin = radius + rules.contact_tolerance
    walls = [f.shape for f in arena.features if f.type == "wall"]
    wall_zone = unary_union(walls).buffer(margin) if walls else shapely.Polygon()
    pits = [f.shape for f in arena.features if f.type == "pit"] if kind != "flying" else []
    bad = unary_union([wall_zone] + [p.buffer(radius * 0.5) for p in pits]
                      + _cliffs(arena, kind))
    shapely.prepare(bad)
    shapely.prepare(wall_zone)
    ok = ~shapely.contains_xy(bad, xs, ys)
    z, _ = floor_heights(arena, xs, ys)
    n = nx * ny
    edges: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    pa, pb = _neighbour_pairs(ok, nx, ny)
    if len(pa):
        lines = shapely.linestrings(np.stack([np.stack([xs[pa], ys[pa]], 1),
                                              np.stack([xs[pb], ys[pb]], 1)], 1))
        free = ~shapely.intersects(bad, lines)
        lengths = np.hypot(xs[pb] - xs[pa], ys[pb] - ys[pa])
        fwd, bwd = _passable(arena, rules, kind, xs, ys, pa, pb, lengths)
        ks = np.flatnonzero(free)
        for a, b, length, forward, backward in zip(pa[ks].tolist(), pb[ks].tolist(),
                                                   lengths[ks].tolist(), fwd[ks].tolist(),
                                                   bwd[ks].tolist(), strict=True):
            if forward:
                edges[a].append((b, length))
            if backward:
                edges[b].append((a, length))
    if kind != "flying" and lift_cost > 0:
        _add_lifts(arena, rules, xs, ys, z, ok, edges, nx, radius, lift_cost)
    back: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    for a, out in enumerate(edges):
        for b, length in out:
            back[b].append((a, length))
    return NavGrid(arena, kind, radius, nx, ny, xs, ys, z, ok, edges, wall_zone, bad, back)


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


def _cliffs(arena: Arena, kind: str) -> list:
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


def _slope_sides(feature) -> list:
    """The sides of stairs, a ramp or an escalator: the edges that run along its `up`,
    where its raised floor ends in a drop (only its low and high ends join floors)."""
    ux, uy = math.sin(math.radians(feature.up or 0.0)), math.cos(math.radians(feature.up or 0.0))
    coords = list(feature.shape.exterior.coords)
    sides = []
    for (ax, ay), (bx, by) in zip(coords, coords[1:], strict=False):
        length = math.hypot(bx - ax, by - ay)
        if length > 1e-9 and abs(((bx - ax) * ux + (by - ay) * uy) / length) > 0.5:
            sides.append(LineString([(ax, ay), (bx, by)]))
    return sides


def _passable(arena: Arena, rules: HouseRules, kind: str, xs, ys, pa, pb, lengths):
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
    fwd = ~cliff.any(axis=1)
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


def _add_lifts(arena, rules, xs, ys, z, ok, edges, nx, radius, cost) -> None:
    """R48: the car and the landing beside it are joined, for ground bots, at a cost."""
    for f in arena.features:
        if f.type != "lift" or f.top is None:
            continue
        cars = [c for c in range(len(xs)) if ok[c] and shapely.contains_xy(f.shape, xs[c], ys[c])]
        reach = f.shape.buffer(2 * radius * 2 + CELL)
        landings = [c for c in range(len(xs)) if ok[c] and abs(z[c] - f.top) < 1e-6
                    and shapely.contains_xy(reach, xs[c], ys[c])]
        for a in cars:
            for b in landings:
                edges[a].append((b, cost))
                edges[b].append((a, cost))
