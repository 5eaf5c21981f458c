"""Many sight lines at once against the flat obstacles, level by level.

For a flat obstacle with top T, the line is blocked by it exactly when the
part of the line no higher than T (a prefix or suffix of the line, since the
line's height is linear) meets its shape. With the distinct tops
T_0 < ... < T_k and C_k the union of every flat obstacle with top >= T_k,
a line is blocked by some flat obstacle exactly when, for some level k, its
part no higher than T_k meets C_k. Each C_k is one prepared polygon, so each
test is one vectorised `shapely.intersects` that stops at the first hit.
Lines whose ends both lie below T_k test the whole line (the common case:
a wall taller than both bots).
"""
from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from bottisota.geometry.sightline import HEIGHT_EPS
from bottisota.geometry.surfaces import Surface
from bottisota.geometry.sweep import segment

TWIN_MIN_LINES = 64     # fewer lines in a batch: reversed twins are not looked for
TWIN_TABLE = 256        # up to this many distinct ends: twins found in a table of them


class LineBatch:
    """Many sight lines as arrays (ends and end heights), with their Shapely
    geometries built once, on first use, for every stage to share. `twin[k]` may
    name the reverse of line k (same plan ends): the whole-line test is then
    shared by the two when it is the same test."""

    def __init__(self, ax: np.ndarray, ay: np.ndarray, az: np.ndarray, bx: np.ndarray,
                 by: np.ndarray, bz: np.ndarray, twin: np.ndarray | None = None,
                 ends: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
                 ) -> None:
        self.ax, self.ay, self.az, self.bx, self.by, self.bz = ax, ay, az, bx, by, bz
        self.n = len(ax)
        self.lo = np.minimum(az, bz)
        self.hi = np.maximum(az, bz)
        self._twin = twin
        self._ends = ends
        self._lines: np.ndarray | None = None

    @property
    def twin(self) -> np.ndarray:
        """For each line, the index of its reverse (from b to a) in the batch, or -1."""
        if self._twin is None and self.n < TWIN_MIN_LINES:
            self._twin = np.full(self.n, -1)           # few lines: not worth looking for
        if self._twin is None:
            px, _, ia, ib = self.ends()
            if len(px) <= TWIN_TABLE:                   # few points: a table of them
                table = np.full((len(px), len(px)), -1)
                table[ia[::-1], ib[::-1]] = np.arange(self.n - 1, -1, -1)   # first wins
                self._twin = table[ib, ia]
                return self._twin
            size = int(max(ia.max(), ib.max())) + 1 if self.n else 1
            code = ia * size + ib
            order = np.argsort(code, kind="stable")
            at = np.searchsorted(code[order], ib * size + ia)
            at = np.minimum(at, self.n - 1)
            found = code[order][at] == ib * size + ia
            self._twin = np.where(found, order[at], -1)
        return self._twin

    def rows(self, idx: np.ndarray) -> list[tuple[float, float, float, float, float, float]]:
        """The lines of the given indices as plain floats: ax, ay, az, bx, by, bz."""
        return list(zip(self.ax[idx].tolist(), self.ay[idx].tolist(), self.az[idx].tolist(),
                        self.bx[idx].tolist(), self.by[idx].tolist(), self.bz[idx].tolist(),
                        strict=True))

    @property
    def has_twins(self) -> bool:
        """Whether reversed twins may be in the batch (a batch too small to look for
        them has none)."""
        return self._twin is not None or self.n >= TWIN_MIN_LINES

    def ends(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The distinct end points (px, py) and each line's two ends as indices into
        them (ia, ib): many lines share ends (bots seeing each other)."""
        if self._ends is None:
            xy = np.empty(2 * self.n, dtype=complex)        # x + iy: one sort key
            xy.real[:self.n], xy.imag[:self.n] = self.ax, self.ay
            xy.real[self.n:], xy.imag[self.n:] = self.bx, self.by
            points, which = np.unique(xy, return_inverse=True)
            which = which.reshape(-1)
            self._ends = (points.real.copy(), points.imag.copy(), which[:self.n], which[self.n:])
        return self._ends

    def lines(self, idx: np.ndarray) -> np.ndarray:
        """The whole lines of the given indices (each built once, when first asked for)."""
        if self._lines is None:
            self._lines = np.full(self.n, None, dtype=object)
        missing = idx[shapely.is_missing(self._lines[idx])]
        if len(missing) and self._twin is not None:
            # a line's reverse has the same plan: its geometry serves both (every
            # use of these lines, a predicate or a box, is the same either way)
            twin = self._twin[missing]
            has = twin >= 0
            built = np.zeros(len(missing), dtype=bool)
            built[has] = ~shapely.is_missing(self._lines[twin[has]])
            self._lines[missing[built]] = self._lines[twin[built]]
            missing = missing[~built]
        if len(missing):
            coords = np.empty((len(missing), 2, 2))
            coords[:, 0, 0], coords[:, 0, 1] = self.ax[missing], self.ay[missing]
            coords[:, 1, 0], coords[:, 1, 1] = self.bx[missing], self.by[missing]
            self._lines[missing] = shapely.linestrings(coords)
        lines: np.ndarray = self._lines[idx]
        return lines

    def low_parts(self, idx: np.ndarray, top: np.ndarray | float) -> np.ndarray:
        """The part of each line whose height is at most `top` (one per line, or one
        for all; + HEIGHT_EPS): from a when the line rises, to b when it falls."""
        ax, ay, az = self.ax[idx], self.ay[idx], self.az[idx]
        bx, by, bz = self.bx[idx], self.by[idx], self.bz[idx]
        rise = bz - az
        with np.errstate(divide="ignore", invalid="ignore"):
            f = np.clip((top + HEIGHT_EPS - az) / rise, 0.0, 1.0)
        f = np.where(rise == 0.0, 1.0, f)
        rising = rise > 0.0
        start = np.where(rising, 0.0, f)
        end = np.where(rising, f, 1.0)
        dx, dy = bx - ax, by - ay
        coords = np.empty((len(idx), 2, 2))
        coords[:, 0, 0], coords[:, 0, 1] = ax + dx * start, ay + dy * start
        coords[:, 1, 0], coords[:, 1, 1] = ax + dx * end, ay + dy * end
        parts: np.ndarray = shapely.linestrings(coords)         # shapely: untyped
        return parts


def low_part(ax: float, ay: float, az: float, bx: float, by: float, bz: float,
             top: float) -> shapely.LineString:
    """`LineBatch.low_parts` for one line, the same arithmetic in plain floats."""
    rise = bz - az
    f = 1.0 if rise == 0.0 else min(max((top + HEIGHT_EPS - az) / rise, 0.0), 1.0)
    start, end = (0.0, f) if rise > 0.0 else (f, 1.0)
    dx, dy = bx - ax, by - ay
    return segment(ax + dx * start, ay + dy * start, ax + dx * end, ay + dy * end)


class SightLevels:
    """Prepared unions of flat obstacles (walls, platforms, closed doors) at each
    distinct top (those of that top or taller, and those of exactly that top), and
    the exact level-by-level test of many lines against them."""

    def __init__(self, flat: Sequence[Surface]) -> None:
        tops = sorted({s.top for s in flat})
        self.tops = np.array(tops, dtype=float)
        self.levels: list[BaseGeometry] = [None] * len(tops)     # each filled below
        exact: list[BaseGeometry] = [None] * len(tops)
        covered = None
        for k in range(len(tops) - 1, -1, -1):
            group = shapely.union_all([s.region for s in flat if s.top == tops[k]])
            covered = group if covered is None else shapely.union(covered, group)
            shapely.prepare(covered)
            shapely.prepare(group)
            self.levels[k], exact[k] = covered, group
        self.union_at = np.array(self.levels + [None], dtype=object)[:len(tops)]
        self.exactly_at = np.array(exact + [None], dtype=object)[:len(tops)]
        self._tops = [float(t) for t in self.tops]
        self._exact = exact

    def warm(self) -> None:
        """Ask each prepared union one question now: GEOS builds a prepared geometry's
        index on its first question (most of a first weapon key's time on a big arena)."""
        probe = shapely.LineString([(0.0, 0.0), (0.0, 1e-6)])
        for geom in (*self.levels, *self._exact):
            if geom is not None:
                shapely.intersects(geom, probe)

    def blocked_one(self, ax: float, ay: float, az: float, bx: float, by: float, bz: float,
                    line: object) -> bool:
        """`blocked` for one line (given with its geometry), in plain floats: the same
        levels, the same low parts, the same prepared tests, none of numpy's
        per-call cost."""
        tops = self._tops
        if not tops:
            return False
        k_hi = bisect_left(tops, max(az, bz) - HEIGHT_EPS)
        if k_hi < len(tops) and self.levels[k_hi].intersects(line):
            return True
        k_lo = bisect_left(tops, min(az, bz) - HEIGHT_EPS)
        for k in range(k_lo, k_hi):
            if self._exact[k].intersects(low_part(ax, ay, az, bx, by, bz, tops[k])):
                return True
        return False

    def blocked(self, batch: LineBatch, done: np.ndarray) -> np.ndarray:
        """Which lines (not already `done`) some obstacle of these levels blocks: one
        vectorised test of each whole line against the level of its higher end, then
        one of the low parts of the lines that rise or fall past other levels."""
        blocked = np.zeros(batch.n, dtype=bool)
        if len(self.tops) == 0 or done.all():
            return blocked
        k_hi = np.searchsorted(self.tops, batch.hi - HEIGHT_EPS, side="left")   # whole line
        k_lo = np.searchsorted(self.tops, batch.lo - HEIGHT_EPS, side="left")   # part of it
        whole = ~done & (k_hi < len(self.tops))
        if batch.has_twins:
            twin = batch.twin            # a twin with the same test, itself tested: copy it
            shared = whole & (twin >= 0) & (twin < np.arange(batch.n))
            shared &= whole[twin] & (k_hi[twin] == k_hi)
            shared &= ~shared[twin]
            whole &= ~shared
        idx = np.flatnonzero(whole)
        if len(idx):
            blocked[idx] = shapely.intersects(self.union_at[k_hi[idx]], batch.lines(idx))
        if batch.has_twins:
            blocked[shared] = blocked[twin[shared]]
        idx = np.flatnonzero(~done & ~blocked & (k_lo < k_hi))
        if len(idx):
            count = k_hi[idx] - k_lo[idx]
            if (count == 1).all():       # one level between the ends (the usual case)
                line, level = idx, k_lo[idx]
            else:
                line = np.repeat(idx, count)
                level = np.repeat(k_lo[idx], count) + np.arange(len(line)) \
                    - np.repeat(np.cumsum(count) - count, count)
            # the obstacles of exactly that top: the taller ones met the whole line or
            # a longer low part already
            hit = shapely.intersects(self.exactly_at[level],
                                     batch.low_parts(line, self.tops[level]))
            blocked[line[hit]] = True
        return blocked


class SlopedSight:
    """The exact check against stairs, ramps and escalators for many lines at once.
    Over a sloped floor both the floor (a plane over its shape) and the line are
    linear along the line, so the floor reaches the line (D15: at least the line's
    height) on one prefix or suffix of it, found from the line's ends alone; the
    line is blocked exactly when that part meets the floor's region (one prepared
    test per line and nearby floor, no cut geometry)."""

    def __init__(self, sloped: Sequence[Surface]) -> None:
        self.regions = np.array([s.region for s in sloped], dtype=object)
        shapely.prepare(self.regions)
        self.tree = shapely.STRtree(self.regions)
        self.z_low = np.array([s.z_low for s in sloped], dtype=float)
        self.rise = np.array([s.z_high - s.z_low for s in sloped], dtype=float)
        self.ux = np.array([s.ux for s in sloped], dtype=float)
        self.uy = np.array([s.uy for s in sloped], dtype=float)
        self.s0 = np.array([s.s0 for s in sloped], dtype=float)
        self.span = np.array([s.span for s in sloped], dtype=float)
        self._prepared = list(self.regions)
        self._z_low, self._rise = self.z_low.tolist(), self.rise.tolist()
        self._ux, self._uy = self.ux.tolist(), self.uy.tolist()
        self._s0, self._span = self.s0.tolist(), self.span.tolist()

    def blocked_one(self, ax: float, ay: float, az: float, bx: float, by: float, bz: float,
                    line: object) -> bool:
        """`blocked` for one line (given with its geometry): the tree first, the
        arrays only when some sloped floor is near it."""
        near = self.tree.query(line)
        if len(near) == 0:
            return False
        # `blocked`'s arithmetic, in plain floats, floor by floor
        for i in near.tolist():
            ux, uy, s0, span = self._ux[i], self._uy[i], self._s0[i], self._span[i]
            z_low, rise = self._z_low[i], self._rise[i]
            d0 = z_low + rise * ((ax * ux + ay * uy - s0) / span) - az
            d1 = z_low + rise * ((bx * ux + by * uy - s0) / span) - bz
            at_a, at_b = d0 >= -HEIGHT_EPS, d1 >= -HEIGHT_EPS
            if not (at_a or at_b):
                continue
            if at_a and at_b:
                t0, t1 = 0.0, 1.0
            else:                       # one end reached: d0 != d1
                t = (-HEIGHT_EPS - d0) / (d1 - d0)
                t0, t1 = (0.0, t) if at_a else (t, 1.0)
            dx, dy = bx - ax, by - ay
            part = segment(ax + dx * t0, ay + dy * t0, ax + dx * t1, ay + dy * t1)
            if self._prepared[i].intersects(part):
                return True
        return False

    def blocked(self, batch: LineBatch, idx: np.ndarray) -> np.ndarray:
        """For the lines `idx` of the batch: does a sloped floor reach the line?"""
        out = np.zeros(len(idx), dtype=bool)
        li, si = self.tree.query(batch.lines(idx))          # bounding boxes meet
        if len(li) == 0:
            return out
        k = idx[li]
        ax, ay, bx, by = batch.ax[k], batch.ay[k], batch.bx[k], batch.by[k]
        ux, uy, s0, span = self.ux[si], self.uy[si], self.s0[si], self.span[si]
        z_low, rise = self.z_low[si], self.rise[si]
        # the floor's plane less the line's height, at both ends of the line
        d0 = z_low + rise * ((ax * ux + ay * uy - s0) / span) - batch.az[k]
        d1 = z_low + rise * ((bx * ux + by * uy - s0) / span) - batch.bz[k]
        at_a, at_b = d0 >= -HEIGHT_EPS, d1 >= -HEIGHT_EPS
        reach = np.flatnonzero(at_a | at_b)
        if len(reach) == 0:
            return out
        at_a, at_b, d0, d1 = at_a[reach], at_b[reach], d0[reach], d1[reach]
        with np.errstate(divide="ignore", invalid="ignore"):
            t = (-HEIGHT_EPS - d0) / (d1 - d0)          # where the floor meets the line
        t0 = np.where(at_a, 0.0, t)
        t1 = np.where(at_b, 1.0, t)
        ax, ay, dx, dy = ax[reach], ay[reach], bx[reach] - ax[reach], by[reach] - ay[reach]
        coords = np.empty((len(reach), 2, 2))
        coords[:, 0, 0], coords[:, 0, 1] = ax + dx * t0, ay + dy * t0
        coords[:, 1, 0], coords[:, 1, 1] = ax + dx * t1, ay + dy * t1
        hit = shapely.intersects(self.regions[si[reach]], shapely.linestrings(coords))
        out[li[reach[hit]]] = True
        return out
