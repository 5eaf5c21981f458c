"""Sight lines with heights (R22, R38, D15).

The line runs from (a, az) to (b, bz); its height is linear in the distance
s from a. An obstacle blocks where its top is at least the line's height
(D15: everything it passes over must be lower than the line). Over one
straight piece of the line both heights are linear, so the first blocking
point of a piece is found from its two ends alone.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np
import shapely
from shapely.geometry import LineString

from bottisota.geometry.surfaces import Surface

HEIGHT_EPS = 1e-9   # cm: an obstacle this close below the line still blocks it
FEW_SURFACES = 4    # up to this many surfaces on a line, plain floats beat numpy's overhead


@dataclass(frozen=True, slots=True)
class Line:
    """A sight line: plan ends, end heights, length and unit direction."""

    ax: float
    ay: float
    az: float
    bx: float
    by: float
    bz: float

    @property
    def length(self) -> float:
        return math.hypot(self.bx - self.ax, self.by - self.ay)

    def z_at(self, s: float) -> float:
        """Line height at distance s from a."""
        length = self.length
        return self.az if length == 0.0 else self.az + (self.bz - self.az) * s / length

    def point_at(self, s: float) -> tuple[float, float]:
        length = self.length
        if length == 0.0:
            return (self.ax, self.ay)
        f = s / length
        return (self.ax + (self.bx - self.ax) * f, self.ay + (self.by - self.ay) * f)

    def distance_of(self, x: float, y: float) -> float:
        """Distance from a of the projection of a point on the line."""
        length = self.length
        if length == 0.0:
            return 0.0
        return ((x - self.ax) * (self.bx - self.ax) + (y - self.ay) * (self.by - self.ay)) / length

    def geometry(self) -> LineString:
        return LineString([(self.ax, self.ay), (self.bx, self.by)])


@dataclass(frozen=True, slots=True)
class Crossing:
    """Where the line passes over one obstacle: from s0 to s1 (cm from a)."""

    s0: float
    s1: float
    z0: float           # obstacle top at s0
    z1: float           # obstacle top at s1
    what: str


def first_block(line: Line, c: Crossing) -> float | None:
    """Distance of the first point of the crossing where the obstacle reaches the
    line, or None when the line stays above it."""
    d0 = c.z0 - line.z_at(c.s0)
    if d0 >= -HEIGHT_EPS:
        return c.s0
    d1 = c.z1 - line.z_at(c.s1)
    if d1 >= -HEIGHT_EPS:
        return c.s0 + (c.s1 - c.s0) * (-d0) / (d1 - d0)
    return None


def surface_crossings(line: Line, geom_line: LineString, surfaces: Sequence[Surface],
                      vectorised: bool | None = None) -> list[Crossing]:
    """The pieces of the line over each surface, with the surface's top at both ends
    of each piece. A few surfaces one by one; more in one vectorised cut (or as
    `vectorised` says)."""
    if not surfaces or line.length == 0.0:
        return []
    if not (len(surfaces) > FEW_SURFACES if vectorised is None else vectorised):
        return [c for sf in surfaces for c in _one_surface_crossings(line, geom_line, sf)]
    regions = np.array([s.region for s in surfaces], dtype=object)
    parts, owner = shapely.get_parts(shapely.intersection(geom_line, regions),
                                     return_index=True)
    xy, part = shapely.get_coordinates(parts, return_index=True)
    if len(xy) == 0:
        return []
    length = line.length
    x, y = xy[:, 0], xy[:, 1]
    s = ((x - line.ax) * (line.bx - line.ax) + (y - line.ay) * (line.by - line.ay)) / length
    order = np.lexsort((s, part))                  # each part's points, nearest first
    grouped = part[order]
    new_part = np.ones(len(order), dtype=bool)
    new_part[1:] = grouped[1:] != grouped[:-1]
    starts = np.flatnonzero(new_part)
    ends = np.append(starts[1:], len(order)) - 1
    near, far = order[starts], order[ends]
    which = owner[part[near]]
    params = np.array([(sf.z_low, sf.z_high, sf.ux, sf.uy, sf.s0, sf.span, sf.sloped)
                       for sf in surfaces], dtype=float)[which]
    z_low, z_high, ux, uy, s0, span, sloped = params.T
    safe = np.where(sloped > 0.0, span, 1.0)

    def top_at(k: np.ndarray) -> np.ndarray:
        f = np.clip((x[k] * ux + y[k] * uy - s0) / safe, 0.0, 1.0)
        top: np.ndarray = np.where(sloped > 0.0, z_low + (z_high - z_low) * f, z_low)
        return top

    z0, z1 = top_at(near), top_at(far)
    s_near = np.maximum(0.0, s[near])
    s_far = np.minimum(length, s[far])
    return [Crossing(a, b, c, d, surfaces[w].label) for a, b, c, d, w in
            zip(s_near.tolist(), s_far.tolist(), z0.tolist(), z1.tolist(), which.tolist(),
                strict=True)]


def _one_surface_crossings(line: Line, geom_line: LineString,
                           surface: Surface) -> list[Crossing]:
    """`surface_crossings` for one surface, in plain floats."""
    cut = shapely.intersection(geom_line, surface.region)
    out: list[Crossing] = []
    for part in shapely.get_parts(cut):
        xy = shapely.get_coordinates(part).tolist()
        if not xy:
            continue
        s = [line.distance_of(x, y) for x, y in xy]
        i0 = min(range(len(s)), key=s.__getitem__)
        i1 = max(range(len(s)), key=s.__getitem__)
        out.append(Crossing(max(0.0, s[i0]), min(line.length, s[i1]), surface.z_at(*xy[i0]),
                            surface.z_at(*xy[i1]), surface.label))
    return out


def disc_crossing(line: Line, x: float, y: float, r: float, top: float,
                  what: str) -> Crossing | None:
    """The chord of the line over a disc (a bot), if the line meets its base."""
    length = line.length
    if length == 0.0:
        return None
    ux, uy = (line.bx - line.ax) / length, (line.by - line.ay) / length
    wx, wy = x - line.ax, y - line.ay
    tc = wx * ux + wy * uy
    perp = abs(wx * uy - wy * ux)
    if perp > r:
        return None
    half = math.sqrt(max(0.0, r * r - perp * perp))
    s0, s1 = max(0.0, tc - half), min(length, tc + half)
    if s0 > s1:
        return None
    return Crossing(s0, s1, top, top, what)



class Round(Protocol):
    """A disc that can block a line (geometry's `Disc`): id, centre, radius, floor, height."""

    @property
    def id(self) -> str: ...
    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def r(self) -> float: ...
    @property
    def z(self) -> float: ...
    @property
    def height(self) -> float: ...


def skips_disc(line: Line, x: float, y: float, r: float) -> bool:
    """A disc holding either end of the line is the shooter or the target."""
    return math.hypot(line.ax - x, line.ay - y) < r or math.hypot(line.bx - x, line.by - y) < r


def discs_block_one(ax: float, ay: float, az: float, bx: float, by: float, bz: float,
                    discs: Sequence[Round]) -> bool:
    """`discs_block` for one line, the same arithmetic in plain floats (no numpy
    per-call cost): does some disc (bot) block it?"""
    dx, dy = bx - ax, by - ay
    length = float(np.hypot(dx, dy))
    if length <= 0.0:
        return False
    ux, uy = dx / length, dy / length
    rise = (bz - az) / length
    for d in discs:
        r = d.r
        wx, wy = d.x - ax, d.y - ay
        tc = wx * ux + wy * uy
        perp = abs(wx * uy - wy * ux)
        if not (perp <= r and tc >= -r and tc <= length + r):
            continue
        ex, ey = d.x - bx, d.y - by
        if wx * wx + wy * wy < r * r or ex * ex + ey * ey < r * r:
            continue
        half = math.sqrt(max(0.0, r * r - perp * perp))
        s0 = max(0.0, tc - half)
        s1 = min(length, tc + half)
        if s0 <= s1 and (d.z + d.height) - (az + min(rise * s0, rise * s1)) >= -HEIGHT_EPS:
            return True
    return False


def discs_block(ax: np.ndarray, ay: np.ndarray, az: np.ndarray, bx: np.ndarray,
                by: np.ndarray, bz: np.ndarray, discs: Sequence[Round], ignore: Iterable[str] = (),
                arrays: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
                ) -> np.ndarray:
    """Vectorised: which lines some disc (bot) blocks, the same test as
    `skips_disc` + `disc_crossing` + `first_block` for every line and disc at once.
    A cheap plan test over all pairs first; the chord heights only where they meet.
    `arrays` may give the discs (not ignored) as arrays x, y, r, top instead."""
    n = len(ax)
    out = np.zeros(n, dtype=bool)
    if arrays is None:
        skip = set(ignore)
        kept = [d for d in discs if d.id not in skip]
        if not kept or n == 0:
            return out
        cx = np.array([d.x for d in kept])
        cy = np.array([d.y for d in kept])
        r = np.array([d.r for d in kept])
        top = np.array([d.z + d.height for d in kept])
    else:
        cx, cy, r, top = arrays
        if len(cx) == 0 or n == 0:
            return out
    dx, dy = bx - ax, by - ay
    length = np.hypot(dx, dy)
    safe = np.where(length > 0.0, length, 1.0)
    ux, uy = dx / safe, dy / safe
    wx = np.subtract.outer(-ax, -cx)              # cx - ax, lines x discs
    wy = np.subtract.outer(-ay, -cy)
    tc = wx * ux[:, None]
    tc += wy * uy[:, None]
    perp = wx * uy[:, None]
    perp -= wy * ux[:, None]
    np.abs(perp, out=perp)
    near = perp <= r
    near &= tc >= -r
    near &= tc <= (length[:, None] + r)
    flat = np.flatnonzero(near)
    if len(flat) == 0:
        return out
    i = flat // len(cx)
    j = flat - i * len(cx)
    wx, wy = wx.ravel()[flat], wy.ravel()[flat]
    tc, perp, rj = tc.ravel()[flat], perp.ravel()[flat], r[j]
    holds = (wx * wx + wy * wy < rj * rj) | \
        ((cx[j] - bx[i]) ** 2 + (cy[j] - by[i]) ** 2 < rj * rj)
    half = np.sqrt(np.maximum(0.0, rj * rj - perp * perp))
    s0 = np.maximum(0.0, tc - half)
    s1 = np.minimum(length[i], tc + half)
    rise = (bz[i] - az[i]) / safe[i]
    low = az[i] + np.minimum(rise * s0, rise * s1)
    blocks = (s0 <= s1) & (length[i] > 0.0) & ~holds & (top[j] - low >= -HEIGHT_EPS)
    out[i[blocks]] = True
    return out
