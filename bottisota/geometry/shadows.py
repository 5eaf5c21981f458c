"""Quick proofs that a sight line is blocked: the shadows of convex obstacles
near its ends.

Seen from a point outside a convex polygon, the polygon covers an angular
span narrower than 180°. A ray leaving the point strictly inside that span
crosses the polygon's interior, and it has left the polygon again by the
distance of the polygon's farthest corner. So a line that starts there,
heads into the span and is longer than that distance crosses the polygon;
if the polygon's top is at least the line's height at both the start and
that distance (the line is straight, so everywhere in between), the line is
blocked (D15). Such a proof needs no polygon intersection. Lines without a
proof go on to the exact tests.

Many lines between few points (every bot against every other): each pair of
a point and an obstacle wholly within the radius of it is tested against
every other point at once (is that point past the obstacle, inside its
span?), keeping the tallest such obstacle for each ordered pair of points;
each line end then needs one look-up. Non-convex regions lend convex pieces.
Few lines per point: no proofs, the exact tests alone cost less.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from bottisota.geometry.surfaces import Surface

MAX_CORNERS = 6          # polygons with more corners (circles) are left to the exact test
MAX_SLABS = 8            # a non-convex part needing more slabs than this is left out
MIN_PIECE = 0.02         # a slab this small a share of its part is left out
ANGLE_EPS = 1e-9         # radians: the ray must be this far inside the span
LENGTH_EPS = 1e-9        # cm
TINY = 1e-300
TURN = 2.0 * math.pi
DENSE_CELLS = 200_000    # (pair, point) cells at most: more points than that, no proofs
MIN_LINES = 128          # fewer lines than this, or fewer per end point than
LINES_PER_POINT = 4      # this on average: no proofs (the exact tests cost less)


def _convex(g: BaseGeometry) -> bool:
    return bool(g.area >= g.convex_hull.area * (1.0 - 1e-9))


def convex_pieces(region: BaseGeometry) -> list[tuple[object, np.ndarray]]:
    """Convex polygons inside the region (with their corners) for shadow proofs: the
    region's convex parts as they are, the others cut into vertical slabs at their
    corners (each slab of a polygon is convex), slivers and many-cornered parts
    left to the exact tests."""
    out = []
    for part in shapely.get_parts(region):
        if part.geom_type != "Polygon" or part.is_empty:
            continue
        pieces = [part]
        if len(part.interiors) or not _convex(part):
            xs = np.unique(shapely.get_coordinates(part)[:, 0])
            if len(xs) - 1 > MAX_SLABS:
                continue
            _, y0, _, y1 = part.bounds
            cut = shapely.intersection(part, shapely.box(xs[:-1], y0, xs[1:], y1))
            pieces = [p for p in shapely.get_parts(cut) if p.geom_type == "Polygon"]
            pieces = [p for p in pieces if p.area >= part.area * MIN_PIECE and _convex(p)
                      and not len(p.interiors)]
        for piece in pieces:
            corners = shapely.get_coordinates(piece.exterior)[:-1]
            if 3 <= len(corners) <= MAX_CORNERS:
                out.append((piece, corners))
    return out


class Shadows:
    """Convex flat obstacles (walls, platforms) ready for shadow proofs. Only
    obstacles wholly within `radius` of a line end are used."""

    def __init__(self, flat: Sequence[Surface], radius: float) -> None:
        keep = [(s.top, piece, corners) for s in flat for piece, corners in convex_pieces(s.region)]
        self.radius = radius
        self.count = len(keep)
        if not keep:
            return
        self.regions = np.array([piece for _, piece, _ in keep], dtype=object)
        shapely.prepare(self.regions)
        self.tree = shapely.STRtree(self.regions)
        self.top = np.array([top for top, _, _ in keep], dtype=float)
        self.lowest = float(self.top.min())
        width = max(len(c) for _, _, c in keep)
        corners = np.zeros((width, self.count, 2))
        for k, (_, _, c) in enumerate(keep):
            corners[:len(c), k] = c
            corners[len(c):, k] = c[0]          # padding repeats a corner: min/max unchanged
        centre = shapely.get_coordinates(shapely.centroid(self.regions))
        self.cx, self.cy = centre[:, 0].copy(), centre[:, 1].copy()
        # corners about the centroid (corner, obstacle), and the farthest of them: a
        # point nearer the centroid than that may lie inside
        self.kx = corners[:, :, 0] - self.cx
        self.ky = corners[:, :, 1] - self.cy
        self.size = np.sqrt(self.kx * self.kx + self.ky * self.ky).max(axis=0)
        reach = radius - self.size                    # centroid this near: wholly within
        self._reach2 = np.where(reach >= 0.0, reach * reach, -1.0)

    def _near(self, px: np.ndarray, py: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(point, obstacle) pairs, sorted by point, whose centroids are close enough
        for the whole obstacle to lie within the radius of the point."""
        r = self.radius
        pi, oi = self.tree.query(shapely.box(px - r, py - r, px + r, py + r))
        dx, dy = self.cx[oi] - px[pi], self.cy[oi] - py[pi]
        near = np.flatnonzero(dx * dx + dy * dy <= self._reach2[oi])
        pi, oi = pi[near], oi[near]
        if len(pi) > 1 and (pi[1:] < pi[:-1]).any():
            order = np.argsort(pi, kind="stable")
            pi, oi = pi[order], oi[order]
        return pi, oi

    def _pairs(self, px: np.ndarray, py: np.ndarray, lowest: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every (point, obstacle) pair with the obstacle wholly within the radius,
        not holding the point and at least as tall as the point's `lowest` line end
        (a lower one proves nothing there), sorted by point: the point, the
        obstacle, its angular span (start in [0, 2π), width; radians) and its
        farthest corner's distance."""
        pi, oi = self._near(px, py)
        tall = np.flatnonzero(self.top[oi] >= lowest[pi])     # else below every line there
        pi, oi = pi[tall], oi[tall]
        # the centroid and the corners seen from the point
        cx, cy = self.cx[oi] - px[pi], self.cy[oi] - py[pi]
        vx = self.kx[:, oi]
        vx += cx
        vy = self.ky[:, oi]
        vy += cy
        far = vx * vx
        far += vy * vy
        far = np.sqrt(far.max(axis=0))
        keep = far <= self.radius
        close = keep & (cx * cx + cy * cy <= self.size[oi] ** 2)     # may hold the point
        if close.any():
            at = np.flatnonzero(close)
            keep[at] = ~shapely.intersects_xy(self.regions[oi[at]], px[pi[at]], py[pi[at]])
        if not keep.all():
            pi, oi, cx, cy, far = pi[keep], oi[keep], cx[keep], cy[keep], far[keep]
            vx, vy = vx[:, keep], vy[:, keep]
        # corners' angles about the direction of the centroid (inside the span, so
        # every corner is within half a turn of it: no wrapping needed)
        rel = np.arctan2(cx * vy - cy * vx, cx * vx + cy * vy)
        low = rel.min(axis=0)
        width = rel.max(axis=0) - low
        low += np.arctan2(cy, cx)                        # > -2π
        low[low < 0.0] += TURN
        return pi, oi, low, width, far

    def worth(self, lines: int) -> bool:
        """Whether proofs may pay for this many lines (else the exact tests alone)."""
        return lines >= MIN_LINES

    def proven_blocked(self, px: np.ndarray, py: np.ndarray, ia: np.ndarray, ib: np.ndarray,
                       az: np.ndarray, bz: np.ndarray) -> np.ndarray:
        """Lines from point ia (height az) to point ib (height bz), over the points
        (px, py): True where a shadow proves the line blocked."""
        n, m = len(ia), len(px)
        proven: np.ndarray = np.zeros(n, dtype=bool)
        if self.count == 0 or n == 0 or n < LINES_PER_POINT * m:
            return proven                                # few lines per end: exact tests cost less
        lowest = np.full(m, np.inf)                      # each point's lowest line end
        np.minimum.at(lowest, ia, az)
        np.minimum.at(lowest, ib, bz)
        pi, oi, low, width, far = self._pairs(px, py, lowest)
        if len(pi) == 0 or len(pi) * m > DENSE_CELLS:
            return proven
        # each line's highest point within the radius of either end
        dx, dy = px[ib] - px[ia], py[ib] - py[ia]
        ll = np.hypot(dx, dy)
        part = np.minimum(ll, self.radius)
        part /= np.maximum(ll, TINY)                     # no line: 0 (and nothing proved)
        rise = bz - az
        rise *= part
        need_a = np.maximum(az, az + rise)
        need_b = np.maximum(bz, bz - rise)
        # tops shifted above every need and 0: 0 then stands for "no obstacle"
        shift = 1.0 - min(0.0, self.lowest, float(az.min()), float(bz.min()))
        # every pair against every other point: is that point past the obstacle, in
        # its shadow? The tallest such obstacle for each (point, other point).
        ddx = np.subtract.outer(px, px)
        ddy = np.subtract.outer(py, py)
        length = np.hypot(ddx, ddy)
        angle = np.arctan2(ddy, ddx)                     # [p, q]: direction from q to p
        angle += math.pi                                 # ... from p to q, in (0, 2π]
        inside = angle[pi]
        inside -= low[:, None]
        inside += (inside < 0.0) * TURN
        ok = inside > ANGLE_EPS
        ok &= inside < (width - ANGLE_EPS)[:, None]
        ok &= length[pi] > (far + LENGTH_EPS)[:, None]
        tall = ok * (self.top[oi] + shift)[:, None]
        first = np.flatnonzero(np.concatenate(([True], pi[1:] != pi[:-1])))
        tallest = np.zeros((m, m))
        tallest[pi[first]] = np.maximum.reduceat(tall, first, axis=0)
        proven = tallest[ia, ib] >= need_a + shift
        proven |= tallest[ib, ia] >= need_b + shift
        return proven
