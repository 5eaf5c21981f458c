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

from typing import Sequence

import numpy as np
import shapely

from bottisota.geometry.sightline import HEIGHT_EPS
from bottisota.geometry.surfaces import Surface


class SightLevels:
    """Prepared unions of the flat obstacles at each distinct top, and of the sloped
    floors (those are checked exactly, line by line, when a line meets them)."""

    def __init__(self, flat: Sequence[Surface], sloped: Sequence[Surface]) -> None:
        tops = sorted({s.top for s in flat})
        self.tops = np.array(tops, dtype=float)
        self.levels: list = [None] * len(tops)
        covered = None
        for k in range(len(tops) - 1, -1, -1):
            group = shapely.union_all([s.region for s in flat if s.top == tops[k]])
            covered = group if covered is None else shapely.union(covered, group)
            shapely.prepare(covered)
            self.levels[k] = covered
        self.sloped_union = shapely.union_all([s.region for s in sloped]) if sloped else None
        if self.sloped_union is not None:
            shapely.prepare(self.sloped_union)
        self.sloped_top = max((s.top for s in sloped), default=-np.inf)

    def flat_blocked(self, ax: np.ndarray, ay: np.ndarray, az: np.ndarray, bx: np.ndarray,
                     by: np.ndarray, bz: np.ndarray, done: np.ndarray) -> np.ndarray:
        """Which lines (not already `done`) some flat obstacle blocks."""
        blocked = np.zeros(len(ax), dtype=bool)
        if len(self.tops) == 0:
            return blocked
        lo, hi = np.minimum(az, bz), np.maximum(az, bz)
        k_hi = np.searchsorted(self.tops, hi - HEIGHT_EPS, side="left")   # whole line
        k_lo = np.searchsorted(self.tops, lo - HEIGHT_EPS, side="left")   # part of it
        n_levels = len(self.tops)
        open_ = ~done
        for k in np.unique(k_hi[open_ & (k_hi < n_levels)]):
            idx = np.flatnonzero(open_ & (k_hi == k))
            lines = shapely.linestrings(np.stack(
                [np.stack([ax[idx], ay[idx]], 1), np.stack([bx[idx], by[idx]], 1)], 1))
            blocked[idx[shapely.intersects(self.levels[k], lines)]] = True
        partial = open_ & ~blocked & (k_lo < k_hi)
        if not partial.any():
            return blocked
        for k in range(int(k_lo[partial].min()), int(k_hi[partial].max())):
            idx = np.flatnonzero(partial & ~blocked & (k_lo <= k) & (k < k_hi))
            if len(idx) == 0:
                continue
            lines = self._low_parts(float(self.tops[k]), ax[idx], ay[idx], az[idx],
                                    bx[idx], by[idx], bz[idx])
            blocked[idx[shapely.intersects(self.levels[k], lines)]] = True
        return blocked

    @staticmethod
    def _low_parts(top: float, ax, ay, az, bx, by, bz) -> np.ndarray:
        """The part of each line whose height is at most `top` (+ HEIGHT_EPS)."""
        rise = bz - az
        with np.errstate(divide="ignore", invalid="ignore"):
            f = np.clip((top + HEIGHT_EPS - az) / rise, 0.0, 1.0)
        f = np.where(rise == 0.0, 1.0, f)
        rising = rise > 0.0
        start = np.where(rising, 0.0, f)         # rising: the low part starts at a
        end = np.where(rising, f, 1.0)           # falling: it ends at b
        dx, dy = bx - ax, by - ay
        p0 = np.stack([ax + dx * start, ay + dy * start], 1)
        p1 = np.stack([ax + dx * end, ay + dy * end], 1)
        return shapely.linestrings(np.stack([p0, p1], 1))

    def may_meet_sloped(self, ax, ay, az, bx, by, bz, done: np.ndarray) -> np.ndarray:
        """Lines that pass over a sloped floor high enough to matter (checked exactly)."""
        out = np.zeros(len(ax), dtype=bool)
        if self.sloped_union is None:
            return out
        lo = np.minimum(az, bz)
        idx = np.flatnonzero(~done & (lo - HEIGHT_EPS <= self.sloped_top))
        if len(idx):
            lines = shapely.linestrings(np.stack(
                [np.stack([ax[idx], ay[idx]], 1), np.stack([bx[idx], by[idx]], 1)], 1))
            out[idx[shapely.intersects(self.sloped_union, lines)]] = True
        return out
