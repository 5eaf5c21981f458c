"""The real cliff edges of a compiled arena: where the floor on one side is higher than a
step (D16) above the other (R37, docs/decisions.md D29).

Every floor region's boundary is noded into straight pieces; each piece keeps the side(s)
on which the floor can stand more than a step above the other. A piece where two floors
join along a stair, ramp or escalator run (no jump) is left out. The pieces are a
superset of every place an upward edge crossing can be found (with a small margin), so a
base that comes near none of them on its lower side cannot come under a higher floor:
the movement code asks its exact (slow) question only near them. Built once per compiled
arena (`cliff_lines`).
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely
from shapely import STRtree

from bottisota.geometry.arena_index import FAST_PATHS, ArenaIndex
from bottisota.geometry.box_grid import BoxGrid
from bottisota.geometry.surfaces import Surface
from bottisota.geometry.sweep import segment

MARGIN = 1e-6            # cm: a centre this close to a piece's line counts on both sides
JUMP_MARGIN = 1e-3       # cm: pieces whose jump comes this close to a step are kept
SIDE_OFFSET = 1e-6       # cm: how far off a piece its two sides' floors are looked up
SIDE_SAMPLES = (0.25, 0.5, 0.75)
PARALLEL = 1e-6          # sine of the angle under which a ray and a piece count as parallel
PARAM_SLACK = 1e-9       # slack on a crossing's place along the ray and along the piece
BOX_SLACK = 1e-6         # cm: the box test before the tree errs on the side of asking it


@dataclass(frozen=True)
class CliffLines:
    """Straight pieces of floor boundary with a jump of more than a step.

    `p0`, `p1`: (n, 2) ends; `normal`: (n, 2) unit normals; `up_plus`: the floor on the
    normal's side can be the higher one; `up_minus`: the other side can; `sides`: the
    floors on the normal's side and the other (None: the table), or None where the
    samples along the piece did not agree (then only the exact search answers)."""

    p0: np.ndarray
    p1: np.ndarray
    normal: np.ndarray
    up_plus: np.ndarray
    up_minus: np.ndarray
    tree: STRtree
    sides: tuple[tuple[Surface | None, Surface | None] | None, ...]

    def __len__(self) -> int:
        return int(len(self.p0))

    def near_segment(self, a: Sequence[float], b: Sequence[float], reach: float) -> np.ndarray:
        """Indices of the pieces within `reach` (+ margin) of the segment a-b (or point a)."""
        if not len(self):
            return np.zeros(0, dtype=np.intp)
        if FAST_PATHS.on:
            near = self._grid_near(a, b, reach + MARGIN)
            if near is not None:
                if not near:
                    return np.zeros(0, dtype=np.intp)
                shape = shapely.points(a[0], a[1]) if (a[0], a[1]) == (b[0], b[1]) else \
                    segment(float(a[0]), float(a[1]), float(b[0]), float(b[1]))
                hit = shapely.dwithin(self._lines[near], shape, reach + MARGIN)
                found: np.ndarray = np.asarray(near, dtype=np.intp)[hit]
                return found
        if FAST_PATHS.on and not self._boxes_near(a, b, reach + MARGIN):
            return np.zeros(0, dtype=np.intp)
        if (a[0], a[1]) == (b[0], b[1]):
            shape = shapely.points(a[0], a[1])
        else:
            shape = shapely.linestrings([(a[0], a[1]), (b[0], b[1])])
        found = self.tree.query(shape, predicate="dwithin", distance=reach + MARGIN)
        return np.sort(np.asarray(found, dtype=np.intp))

    @cached_property
    def _boxes(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every piece's bounding box as columns minx, miny, maxx, maxy."""
        return (np.minimum(self.p0[:, 0], self.p1[:, 0]), np.minimum(self.p0[:, 1], self.p1[:, 1]),
                np.maximum(self.p0[:, 0], self.p1[:, 0]), np.maximum(self.p0[:, 1], self.p1[:, 1]))

    @cached_property
    def plain(self) -> list[tuple[float, float, float, float, float, float]]:
        """Every piece as plain floats (x0, y0, x1, y1, nx, ny): the arithmetic on one
        piece at a time is the arrays' own, without their per-element cost."""
        return [(a, b, c, d, e, f) for (a, b), (c, d), (e, f) in
                zip(self.p0.tolist(), self.p1.tolist(), self.normal.tolist(), strict=True)]

    def boxes_clear(self, x: float, y: float, pieces: Sequence[int], gap: float) -> bool:
        """Every one of `pieces` has its bounding box more than `gap` from (x, y) along
        x or y (so the piece itself is farther than `gap`)."""
        plain = self.plain
        for j in pieces:
            x0, y0, x1, y1, _, _ = plain[j]
            if min(x0, x1) - gap <= x <= max(x0, x1) + gap and \
                    min(y0, y1) - gap <= y <= max(y0, y1) + gap:
                return False
        return True

    @cached_property
    def _grid(self) -> BoxGrid:
        return BoxGrid(np.column_stack(self._boxes))

    @cached_property
    def _lines(self) -> np.ndarray:
        """The pieces as the tree holds them (one geometry each, in piece order)."""
        return np.asarray(self.tree.geometries)

    def _grid_near(self, a: Sequence[float], b: Sequence[float],
                   distance: float) -> list[int] | None:
        """The pieces (ascending) whose boxes `_boxes_near` finds near the segment a-b,
        from the grid's few candidates; None when the grid leaves it to the arrays."""
        grow = distance + BOX_SLACK
        lo_x, hi_x = min(a[0], b[0]) - grow, max(a[0], b[0]) + grow
        lo_y, hi_y = min(a[1], b[1]) - grow, max(a[1], b[1]) + grow
        return self._grid.meeting(lo_x, lo_y, hi_x, hi_y)

    def _boxes_near(self, a: Sequence[float], b: Sequence[float], distance: float) -> bool:
        """Some piece's bounding box comes within `distance` (+ slack) of the segment
        a-b's box: a piece within `distance` of the segment always does (each of its
        points near one of the segment's lies in the segment's box grown by
        `distance`), so when none does the tree has nothing to find."""
        grow = distance + BOX_SLACK
        lo_x, hi_x = min(a[0], b[0]) - grow, max(a[0], b[0]) + grow
        lo_y, hi_y = min(a[1], b[1]) - grow, max(a[1], b[1]) + grow
        minx, miny, maxx, maxy = self._boxes
        return bool(((minx <= hi_x) & (maxx >= lo_x) & (miny <= hi_y) & (maxy >= lo_y)).any())

    def facing(self, xs: np.ndarray, ys: np.ndarray, reach: float,
               pieces: np.ndarray) -> np.ndarray:
        """(points x pieces) mask: the piece lies within `reach` (+ margin) of the point
        and the point is on its lower side (or on its line), so a ray from the point
        could cross it upward."""
        xs = np.atleast_1d(np.asarray(xs, dtype=float))[:, None]
        ys = np.atleast_1d(np.asarray(ys, dtype=float))[:, None]
        p0, p1, n = self.p0[pieces], self.p1[pieces], self.normal[pieces]
        side = (xs - p0[:, 0]) * n[:, 0] + (ys - p0[:, 1]) * n[:, 1]
        lower = ((self.up_plus[pieces] & (side <= MARGIN))
                 | (self.up_minus[pieces] & (side >= -MARGIN)))
        below: np.ndarray = lower & (distance_to_pieces(xs, ys, p0, p1) < reach + MARGIN)
        return below

    def facing_point(self, x: float, y: float, reach: float,
                     pieces: np.ndarray) -> tuple[np.ndarray, float]:
        """`facing` for one point (plain arithmetic: a point meets few pieces), with the
        distance to the nearest of the pieces it faces (inf when none)."""
        kept: list[int] = []
        nearest = math.inf
        for j in pieces.tolist():
            (x0, y0), (x1, y1) = self.p0[j].tolist(), self.p1[j].tolist()
            nx, ny = self.normal[j].tolist()
            side = (x - x0) * nx + (y - y0) * ny
            if not ((self.up_plus[j] and side <= MARGIN)
                    or (self.up_minus[j] and side >= -MARGIN)):
                continue
            ex, ey = x1 - x0, y1 - y0
            ll = ex * ex + ey * ey
            f = 0.0 if ll == 0.0 else min(1.0, max(0.0, ((x - x0) * ex + (y - y0) * ey) / ll))
            dist = math.hypot(x - (x0 + f * ex), y - (y0 + f * ey))
            if dist < reach + MARGIN:
                kept.append(j)
                nearest = min(nearest, dist)
        return np.array(kept, dtype=np.intp), nearest

    def nearest(self, x: float, y: float, pieces: np.ndarray) -> float:
        """The distance from (x, y) to the nearest of `pieces`."""
        d = distance_to_pieces(np.array([[x]]), np.array([[y]]), self.p0[pieces], self.p1[pieces])
        return float(d.min())

    def rays_meeting(self, x: float, y: float, rims: np.ndarray,
                     pieces: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rays x pieces): which of the segments from (x, y) to each rim may meet one
        of `pieces` (they cross, with a little slack, or are nearly parallel; only
        those can cross a cliff edge), and where the lines cross (t along the ray, u
        along the piece; nan when nearly parallel)."""
        p0, p1 = self.p0[pieces], self.p1[pieces]
        rx = (rims[:, 0] - x)[:, None]
        ry = (rims[:, 1] - y)[:, None]
        ex = (p1[:, 0] - p0[:, 0])[None, :]
        ey = (p1[:, 1] - p0[:, 1])[None, :]
        wx = (p0[:, 0] - x)[None, :]
        wy = (p0[:, 1] - y)[None, :]
        det = ex * ry - ey * rx
        ray_len = np.hypot(rx, ry)
        seg_len = np.hypot(ex, ey)
        ok = np.abs(det) > PARALLEL * ray_len * seg_len
        safe = np.where(ok, det, 1.0)
        t = (ex * wy - ey * wx) / safe            # along the ray
        u = (rx * wy - ry * wx) / safe            # along the piece
        loose = PARAM_SLACK
        meet = ok & (t >= -loose) & (t <= 1.0 + loose) & (u >= -loose) & (u <= 1.0 + loose)
        along = np.abs(rx * wy - ry * wx) / np.where(ray_len > 0.0, ray_len, 1.0)
        meet |= ~ok & (along <= MARGIN + PARALLEL * seg_len)    # parallel: on the ray's line
        return meet, np.where(ok, t, np.nan), np.where(ok, u, np.nan)


def distance_to_pieces(xs: np.ndarray, ys: np.ndarray, p0: np.ndarray,
                       p1: np.ndarray) -> np.ndarray:
    """(points x pieces) distances from points (column arrays) to segments p0-p1."""
    ex = p1[:, 0] - p0[:, 0]
    ey = p1[:, 1] - p0[:, 1]
    ll = ex * ex + ey * ey
    safe = np.where(ll > 0.0, ll, 1.0)
    f = np.clip(((xs - p0[:, 0]) * ex + (ys - p0[:, 1]) * ey) / safe, 0.0, 1.0)
    f = np.where(ll > 0.0, f, 0.0)
    far: np.ndarray = np.hypot(xs - (p0[:, 0] + f * ex), ys - (p0[:, 1] + f * ey))
    return far


def cliff_lines(index: ArenaIndex, step: float) -> CliffLines:
    """The cliff pieces of a compiled arena for this step height, built once per arena."""
    return index.cached(("cliffs", "lines", float(step)), lambda: _build(index, step))


Segment = tuple[tuple[float, float], tuple[float, float]]


def cliff_runs(index: ArenaIndex, step: float) -> list[Segment]:
    """The parts of the cliff pieces where the floors on the two sides stand more than
    `step` apart (what the table draws as cliffs). A piece with one floor on each side
    has a jump linear along it (both floors are linear there), so the part is exact: a
    stair's side is a cliff only where the stair stands more than a step above its
    neighbour. A piece whose sides change along it is kept whole."""
    lines = cliff_lines(index, step)
    out: list[Segment] = []
    for (x0, y0), (x1, y1), sides in zip(lines.p0.tolist(), lines.p1.tolist(), lines.sides,
                                         strict=True):
        if sides is None:
            out.append(((x0, y0), (x1, y1)))
            continue
        plus, minus = sides
        j0 = _z(plus, x0, y0) - _z(minus, x0, y0)
        j1 = _z(plus, x1, y1) - _z(minus, x1, y1)
        for sign in (1.0, -1.0):
            part = _over(sign * j0, sign * j1, step)
            if part is not None:
                t0, t1 = part
                out.append(((x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0),
                            (x0 + (x1 - x0) * t1, y0 + (y1 - y0) * t1)))
    return out


def _over(j0: float, j1: float, step: float) -> tuple[float, float] | None:
    """The part [t0, t1] of [0, 1] where the linear jump j0 -> j1 is more than `step`
    (None: nowhere, or only at a point)."""
    if j0 > step and j1 > step:
        return 0.0, 1.0
    if j0 <= step and j1 <= step:
        return None
    t = (step - j0) / (j1 - j0)
    part = (t, 1.0) if j1 > step else (0.0, t)
    return part if part[1] - part[0] > 1e-9 else None


_Sides = tuple[Surface | None, Surface | None]
_Piece = tuple[tuple[float, float], tuple[float, float], tuple[float, float], bool, bool,
               _Sides | None]


def _z(surface: Surface | None, x: float, y: float) -> float:
    return 0.0 if surface is None else surface.z_at(x, y)


def _build(index: ArenaIndex, step: float) -> CliffLines:
    floors = list(index.floors)
    keep: list[_Piece] = []
    if floors:
        # the floor features' own outlines, noded where they cross: every region's edge
        # lies on them, and a crossing is found once (a region's outline, cut out by a
        # difference, may miss the node on the outline it follows, and a piece spanning
        # a cliff and a joint would then be judged by its middle alone)
        noded = shapely.union_all([f.feature.shape.boundary for f in floors])
        for part in shapely.get_parts(noded):
            xy = shapely.get_coordinates(part)
            for (x0, y0), (x1, y1) in zip(xy[:-1].tolist(), xy[1:].tolist(), strict=True):
                piece = _classify(index, x0, y0, x1, y1, step)
                if piece is not None:
                    keep.append(piece)
    if keep:
        p0 = np.array([k[0] for k in keep], dtype=float)
        p1 = np.array([k[1] for k in keep], dtype=float)
        normal = np.array([k[2] for k in keep], dtype=float)
        up_plus = np.array([k[3] for k in keep], dtype=bool)
        up_minus = np.array([k[4] for k in keep], dtype=bool)
    else:
        p0 = p1 = normal = np.zeros((0, 2), dtype=float)
        up_plus = up_minus = np.zeros(0, dtype=bool)
    tree = STRtree(shapely.linestrings(np.stack([p0, p1], 1)) if len(p0) else [])
    return CliffLines(p0, p1, normal, up_plus, up_minus, tree, tuple(k[5] for k in keep))


def _classify(index: ArenaIndex, x0: float, y0: float, x1: float, y1: float,
              step: float) -> _Piece | None:
    """One straight piece of floor boundary, kept if the floor on one side can stand
    more than a step (less a margin) above the other anywhere along it."""
    ex, ey = x1 - x0, y1 - y0
    length = float(np.hypot(ex, ey))
    if length == 0.0:
        return None
    nx, ny = ey / length, -ex / length
    plus: list[Surface | None] = []
    minus: list[Surface | None] = []
    for f in SIDE_SAMPLES:
        mx, my = x0 + ex * f, y0 + ey * f
        plus.append(index._floor_owner(mx + nx * SIDE_OFFSET, my + ny * SIDE_OFFSET))
        minus.append(index._floor_owner(mx - nx * SIDE_OFFSET, my - ny * SIDE_OFFSET))
    up_plus = up_minus = False
    limit = step - JUMP_MARGIN
    for sp in plus:
        for sm in minus:
            for px, py in ((x0, y0), (x1, y1)):
                jump = _z(sp, px, py) - _z(sm, px, py)
                up_plus |= jump > limit
                up_minus |= -jump > limit
    if not (up_plus or up_minus):
        return None
    clean = all(sp is plus[0] for sp in plus) and all(sm is minus[0] for sm in minus)
    sides = (plus[0], minus[0]) if clean else None
    return (x0, y0), (x1, y1), (nx, ny), up_plus, up_minus, sides
