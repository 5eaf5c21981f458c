"""Where a base moving along a straight line lies under a higher floor, solved in closed
form from the arena's cliff edges (R37, R39, D4, D16; docs/decisions.md D29).

`physics.under_higher_floor` asks, for one spot, whether any of UNDER_RAYS rays from the
centre (as long as the base's reach) crosses a cliff edge upward. Along a line
a + s d each ray sweeps a parallelogram against each straight cliff piece, so the spots
where that ray crosses that piece form one interval of s, found by clipping the line
against the parallelogram. `LineUnder` works those intervals out once per line and then
answers, for each s the callers sample or bisect, True or False where the intervals
decide it beyond float noise (clean pieces, the same floors all along each side, rays
well across them, crossings away from their ends, height jumps clear of the step), and
None where only the full search can
tell (the callers then ask it): the answers are the full search's, only faster.
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from bottisota.geometry.arena_index import ArenaIndex
from bottisota.geometry.cliffs import MARGIN, CliffLines
from bottisota.geometry.surfaces import Surface

EPS = 1e-9                  # float noise of the move walk (geometry.EPS)
SURE = 2e-12                # a ray or piece parameter this far inside (0, 1) is surely there,
                            # this far outside surely not (float noise; the full search's own
                            # guards are wider, and it answers alike on both sides of them)
BESIDE = 1e-5               # cm: a centre this near a cliff edge is on it (physics._maybe_beside)
CROSS_GUARD = 1e-6          # cm: physics.CROSS_GUARD (a centre on a piece's line)
WELL_CROSSED = 1e-2         # physics.WELL_CROSSED
PARALLEL = 1e-6             # sine under which a ray runs along a piece (cliffs.PARALLEL)
ALONG_SLACK = 1e-4          # cm: a parallel ray this near a piece's line may meet it
NOISE = 1e-9                # slack on every sure comparison (heights, sides, distances)
OVERRUN = 0.5 * MARGIN      # cm past the line's end still answered (the pieces found reach it)
BESIDE_RAY = 1e-6           # cm: how far beside the centre physics._beside_higher looks
BESIDE_REACH = 0.99 * BESIDE_RAY   # cm: from this near a piece's line the ray nearest its
                                   # normal (at most 180/UNDER_RAYS degrees off) reaches across
END_CLEAR = 1e-5            # cm: a centre projecting this near a piece's end is not sure
SLOPE_SLACK = 1e-4          # cm of height: a slope's rise between the centre and beside it

Interval = tuple[float, float]


def _clip(lo: float, hi: float, c0: float, c1: float, low: float, high: float) -> Interval:
    """[lo, hi] cut to where low <= c0 + c1 s <= high."""
    if c1 == 0.0:
        return (lo, hi) if low <= c0 <= high else (1.0, 0.0)
    a, b = (low - c0) / c1, (high - c0) / c1
    if a > b:
        a, b = b, a
    return max(lo, a), min(hi, b)


def _clip_many(lo: float | np.ndarray, hi: float | np.ndarray, c0: np.ndarray,
               c1: np.ndarray, low: float, high: float) -> tuple[np.ndarray, np.ndarray]:
    """`_clip` for many linear functions at once (lo, hi scalars or arrays)."""
    flat = c1 == 0.0
    safe = np.where(flat, 1.0, c1)
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        a, b = (low - c0) / safe, (high - c0) / safe     # +-inf for a nearly flat one
    inside = (low <= c0) & (c0 <= high)
    first = np.where(flat, np.where(inside, -np.inf, np.inf), np.minimum(a, b))
    last = np.where(flat, np.where(inside, np.inf, -np.inf), np.maximum(a, b))
    return np.maximum(lo, first), np.minimum(hi, last)


def _capsule(a: Sequence[float], d: Sequence[float], p0: np.ndarray, p1: np.ndarray,
             width: float, s_max: float) -> Interval:
    """The s in [0, s_max] where a + s d (d a unit vector) comes within `width` of the
    segment p0-p1 (one interval: the distance is convex along a line), widened by NOISE."""
    ex, ey = float(p1[0] - p0[0]), float(p1[1] - p0[1])
    length = math.hypot(ex, ey)
    lo, hi = math.inf, -math.inf
    for cx, cy in ((float(p0[0]), float(p0[1])), (float(p1[0]), float(p1[1]))):
        fx, fy = a[0] - cx, a[1] - cy
        b = fx * d[0] + fy * d[1]
        disc = b * b - (fx * fx + fy * fy - width * width)
        if disc >= 0.0:
            root = math.sqrt(disc)
            lo, hi = min(lo, -b - root), max(hi, -b + root)
    if length > 0.0:
        ux, uy = ex / length, ey / length
        nx, ny = uy, -ux
        wx, wy = a[0] - float(p0[0]), a[1] - float(p0[1])
        band = _clip(-math.inf, math.inf, wx * nx + wy * ny, d[0] * nx + d[1] * ny,
                     -width, width)
        band = _clip(band[0], band[1], wx * ux + wy * uy, d[0] * ux + d[1] * uy, 0.0, length)
        if band[0] <= band[1]:
            lo, hi = min(lo, band[0]), max(hi, band[1])
    return max(0.0, lo - NOISE), min(s_max, hi + NOISE)


class LineUnder:
    """The closed-form `under_higher_floor` along the line a + s d, 0 <= s <= s_max, for
    a base of this reach (radius less the tolerance) whose floor is `z` (fixed) or the
    floor under its centre (`z` None).

    `decide(s)` answers True, False or None (ask the full search). `higher_ok` (a
    surface -> bool) further limits which higher floors may count as surely reached
    (`physics._first_under` counts only the floors near its path)."""

    def __init__(self, index: ArenaIndex, lines: CliffLines, rays: Sequence[tuple[float, float]],
                 a: Sequence[float], d: Sequence[float], s_max: float, reach: float,
                 step: float, z: float | None,
                 higher_ok: Callable[[Surface], bool] | None = None) -> None:
        self.index = index
        self._rays = np.asarray(rays, dtype=float).reshape(-1, 2)
        self.a = (float(a[0]), float(a[1]))
        self.d = (float(d[0]), float(d[1]))
        self.step = step
        self.z = z
        self.sure: list[_Crossing] = []                      # rays surely across a piece
        self.beside: list[_Beside] = []                      # centres on a piece's edge
        self.unsure: list[Interval] = []                     # where the answer may be True
        b = (self.a[0] + self.d[0] * s_max, self.a[1] + self.d[1] * s_max)
        pieces = lines.near_segment(self.a, b, reach)     # within reach + MARGIN of a-b
        s_max += OVERRUN                                   # s_max * k / k may round above it
        self.s_max = s_max
        for j in pieces.tolist():
            self._piece(lines, j, rays, s_max, reach, higher_ok)
        self.unsure.sort()

    def _piece(self, lines: CliffLines, j: int, rays: Sequence[tuple[float, float]],
               s_max: float, reach: float,
               higher_ok: Callable[[Surface], bool] | None) -> None:
        p0, p1 = lines.p0[j], lines.p1[j]
        ax, ay = self.a
        dx, dy = self.d
        px, py = float(p0[0]), float(p0[1])
        ex, ey = float(p1[0]) - px, float(p1[1]) - py
        length = math.hypot(ex, ey)
        nx, ny = (float(v) for v in lines.normal[j])
        wx, wy = ax - px, ay - py
        side0, side1 = wx * nx + wy * ny, dx * nx + dy * ny      # side(s) = side0 + side1 s
        up_plus, up_minus = bool(lines.up_plus[j]), bool(lines.up_minus[j])
        # on a piece's edge the centre's own side decides (physics._maybe_beside)
        capsule = _capsule(self.a, self.d, p0, p1, BESIDE + NOISE, s_max)
        self.unsure.append(capsule)
        if length == 0.0:
            return
        sides = lines.sides[j]
        counts = (True, True) if sides is None or higher_ok is None else \
            tuple(f is not None and higher_ok(f) for f in sides)
        if sides is not None and capsule[0] <= capsule[1]:
            self.beside.append(_Beside(capsule[0], capsule[1], px, py, ex, ey, length,
                                       wx, wy, dx, dy, side0, side1, up_plus, up_minus,
                                       sides, counts))
        # where the centre is on a side from which the piece can be crossed upward
        lower: list[Interval] = []
        if up_plus:
            lower.append(_clip(0.0, s_max, side0, side1, -math.inf, MARGIN + NOISE))
        if up_minus:
            lower.append(_clip(0.0, s_max, side0, side1, -MARGIN - NOISE, math.inf))
        lower = [iv for iv in lower if iv[0] <= iv[1]]
        if not lower:
            return
        rx, ry = self._rays[:, 0] * reach, self._rays[:, 1] * reach
        cross = ex * ry - ey * rx
        along = np.abs(cross) <= PARALLEL * length * reach * 10.0
        if along.any():
            # along the piece: it may meet the ray only on (or next to) its line
            near = _clip(0.0, s_max, side0, side1, -ALONG_SLACK, ALONG_SLACK)
            for iv in lower:
                self._add_unsure(max(iv[0], near[0]), min(iv[1], near[1]))
        # a + s d + tau r = p0 + mu e  ->  mu, tau linear in s
        safe = np.where(along, 1.0, cross)
        mu0, mu1 = (wx * ry - wy * rx) / safe, (dx * ry - dy * rx) / safe
        tau0, tau1 = (wx * ey - wy * ex) / safe, (dx * ey - dy * ex) / safe
        lo, hi = _clip_many(0.0, s_max, mu0, mu1, -SURE, 1.0 + SURE)
        lo, hi = _clip_many(lo, hi, tau0, tau1, -SURE, 1.0 + SURE)
        well = np.abs(cross) / (length * reach) >= WELL_CROSSED + NOISE
        for k in np.flatnonzero(~along & (lo <= hi)).tolist():
            loose = (float(lo[k]) - SURE, float(hi[k]) + SURE)
            tight = (1.0, 0.0)
            if sides is not None and well[k]:
                m0, m1 = float(mu0[k]), float(mu1[k])
                tight = _clip(0.0, s_max, m0, m1, SURE, 1.0 - SURE)
                tight = _clip(tight[0], tight[1], float(tau0[k]), float(tau1[k]), SURE,
                              1.0 - SURE)
            if tight[0] >= tight[1] or sides is None:
                for iv in lower:
                    self._add_unsure(max(iv[0], loose[0]), min(iv[1], loose[1]))
                continue
            self.sure.append(_Crossing(tight[0], tight[1], loose[0], loose[1], m0, m1, px, py,
                                       ex, ey, side0, side1, up_plus, up_minus, sides, counts))

    def _add_unsure(self, lo: float, hi: float) -> None:
        if lo <= hi:
            self.unsure.append((lo, hi))

    def decide(self, s: float) -> bool | None:
        """Whether the base at a + s d lies under a higher floor, where sure; else None."""
        if not 0.0 <= s <= self.s_max:
            return None
        x, y = self.a[0] + self.d[0] * s, self.a[1] + self.d[1] * s
        # the floor under the centre is looked up only where an answer needs it (with z
        # None it is z itself, and a centre is never higher than its own floor)
        floor = self.index.floor_z(x, y) if self.z is not None else None
        z = self.z
        unsure = False
        for c in self.sure:
            if c.loose_lo <= s <= c.loose_hi:
                if c.lo < s < c.hi:
                    if z is None:
                        floor = z = self.index.floor_z(x, y)
                    verdict = c.up(s, z, self.step)
                else:
                    verdict = c.idle(s)
                if verdict:
                    return True
                unsure = unsure or verdict is None
        for b in self.beside:
            if b.lo <= s <= b.hi:
                if z is None:
                    floor = z = self.index.floor_z(x, y)
                if b.up(s, x, y, z, self.step):
                    return True
        if unsure:
            return None
        margin = self.step + EPS - 1e-6 - NOISE
        if z is None and margin < 0.0:         # (else floor > floor + margin cannot hold)
            floor = z = self.index.floor_z(x, y)
        if floor is not None and z is not None and floor > z + margin:
            return None                        # its centre stands higher: the full search
        for lo, hi in self.unsure:
            if lo > s:
                break
            if s <= hi:
                return None
        return False


@dataclass(frozen=True)
class _Crossing:
    """One ray well across one clean cliff piece for lo < s < hi (and perhaps for
    loose_lo <= s <= loose_hi), its crossing at p + mu e (mu = mu0 + mu1 s); the floors
    on the piece's two sides (plus, minus)."""

    lo: float
    hi: float
    loose_lo: float
    loose_hi: float
    mu0: float
    mu1: float
    px: float
    py: float
    ex: float
    ey: float
    side0: float
    side1: float
    up_plus: bool
    up_minus: bool
    sides: tuple[Surface | None, Surface | None]
    counts: tuple[bool, ...]              # each side may count as the higher floor reached

    def _facing(self, side: float) -> bool | None:
        """The piece may be among those the centre faces from their lower side
        (`CliffLines.facing_point`): True surely, False surely not, None near the margin."""
        plus = self.up_plus and side <= MARGIN
        minus = self.up_minus and side >= -MARGIN
        if not (plus or minus):
            near = (self.up_plus and side <= MARGIN + NOISE) or \
                (self.up_minus and side >= -MARGIN - NOISE)
            return None if near else False
        return True

    def idle(self, s: float) -> bool | None:
        """Near an end of the ray or the piece: False when the piece is surely not faced
        (the pair cannot matter), else None."""
        return None if self._facing(self.side0 + self.side1 * s) is not False else False

    def up(self, s: float, z: float, step: float) -> bool | None:
        """What this ray's crossing of the piece makes of the answer (as
        `physics._crossing_up` and `under_higher_floor` take it): True when it surely
        goes up by more than a step from the centre's side onto a floor more than a step
        above z, False when it surely does not go up so (or is not faced), None when
        only the full search can tell."""
        side = self.side0 + self.side1 * s
        facing = self._facing(side)
        if facing is not True:
            return facing
        if abs(side) <= CROSS_GUARD + NOISE:
            return None
        plus, minus = self.sides
        after, before = (plus, minus) if side < 0.0 else (minus, plus)
        mu = self.mu0 + self.mu1 * s
        x, y = self.px + self.ex * mu, self.py + self.ey * mu
        z_after = 0.0 if after is None else after.z_at(x, y)
        z_before = 0.0 if before is None else before.z_at(x, y)
        jump = z_after - z_before
        if abs(abs(jump) - (step + EPS)) <= CROSS_GUARD + NOISE:
            return None                        # at the step itself: the full search
        if jump <= step + EPS:
            return False                       # not up by more than a step here
        if after is not None and self.counts[0 if side < 0.0 else 1] and \
                z_after > z + step + EPS + NOISE:
            return True
        return None


@dataclass(frozen=True)
class _Beside:
    """A centre within BESIDE of one clean cliff piece for lo <= s <= hi (the piece
    from p along e, `length` long; w + s d the centre relative to p)."""

    lo: float
    hi: float
    px: float
    py: float
    ex: float
    ey: float
    length: float
    wx: float
    wy: float
    dx: float
    dy: float
    side0: float
    side1: float
    up_plus: bool
    up_minus: bool
    sides: tuple[Surface | None, Surface | None]
    counts: tuple[bool, ...]

    def up(self, s: float, x: float, y: float, z: float, step: float) -> bool:
        """The centre is on the piece's lower side, so near its line that one of the
        UNDER_RAYS rays reaches across it within BESIDE_RAY (`physics._beside_higher`),
        onto a floor more than a step above z."""
        side = self.side0 + self.side1 * s
        if abs(side) > BESIDE_REACH - NOISE:
            return False
        if side < 0.0 and not self.up_plus or side > 0.0 and not self.up_minus or side == 0.0:
            return False
        along = ((self.wx + self.dx * s) * self.ex + (self.wy + self.dy * s) * self.ey) \
            / self.length
        if not END_CLEAR < along < self.length - END_CLEAR:
            return False                       # near an end of the piece: the full search
        k = 0 if side < 0.0 else 1
        higher = self.sides[k]
        if higher is None or not self.counts[k]:
            return False
        return higher.z_at(x, y) > z + step + EPS + SLOPE_SLACK
