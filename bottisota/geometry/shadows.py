"""Quick proofs that a sight line is blocked: the shadows of convex obstacles
near its ends.

Seen from a point outside a convex polygon, the polygon covers an angular
span narrower than 180°. A ray leaving the point strictly inside that span
crosses the polygon's interior, and it has left the polygon again by the
distance of the polygon's farthest corner. So a line that starts there,
heads into the span and is longer than that distance crosses the polygon;
if the polygon's top is at least the line's height at both the start and
that distance (the line is straight, so everywhere in between), the line is
blocked (D15). Such a proof needs no polygon intersection: it is a few
numpy comparisons per line and nearby obstacle. Lines without a proof go on
to the exact tests.
"""
from __future__ import annotations

from typing import Sequence

import numpy as np
import shapely

from bottisota.geometry.surfaces import Surface

MAX_CORNERS = 16         # polygons with more corners (fine circles) are left to the exact test
ANGLE_EPS = 1e-9         # radians: the ray must be this far inside the span
NEAREST = 6              # obstacles per line end tried for a proof
LENGTH_EPS = 1e-9        # cm


class Shadows:
    """Convex flat obstacles (walls, platforms) ready for shadow proofs."""

    def __init__(self, flat: Sequence[Surface], radius: float) -> None:
        keep = []
        for s in flat:
            g = s.region
            if g.geom_type != "Polygon" or len(g.interiors) or g.is_empty:
                continue
            corners = shapely.get_coordinates(g.exterior)[:-1]
            if len(corners) > MAX_CORNERS or g.area < g.convex_hull.area * (1.0 - 1e-9):
                continue
            keep.append((s, corners))
        self.radius = radius
        self.count = len(keep)
        if not keep:
            return
        self.regions = np.array([s.region for s, _ in keep], dtype=object)
        shapely.prepare(self.regions)
        self.tree = shapely.STRtree(self.regions)
        self.top = np.array([s.top for s, _ in keep], dtype=float)
        width = max(len(c) for _, c in keep)
        corners = np.zeros((self.count, width, 2))
        for k, (_, c) in enumerate(keep):
            corners[k, :len(c)] = c
            corners[k, len(c):] = c[0]          # padding repeats a corner: min/max unchanged
        self.corners = corners
        self.centre = np.array([shapely.get_coordinates(s.region.centroid)[0] for s, _ in keep])

    def _nearest(self, px: np.ndarray, py: np.ndarray) -> np.ndarray:
        """For each point, its NEAREST convex obstacles (by centroid) within the radius
        that do not hold it, as a dense (points, 6, NEAREST) array: the unit vectors of
        the span's two edges (counter-clockwise from the first to the second), the
        farthest corner's distance and the top. Padding proves nothing."""
        m = len(px)
        out = np.zeros((m, 6, NEAREST))
        out[:, 4] = np.inf                                # reach: never shorter than a line
        out[:, 5] = -np.inf                               # top: never tall enough
        r = self.radius
        pi, oi = self.tree.query(shapely.box(px - r, py - r, px + r, py + r))
        if len(pi) == 0:
            return out
        x, y = px[pi], py[pi]
        cx, cy = self.centre[oi, 0] - x, self.centre[oi, 1] - y
        order = np.lexsort((cx * cx + cy * cy, pi))
        pi, oi, cx, cy = pi[order], oi[order], cx[order], cy[order]
        counts = np.bincount(pi, minlength=m)
        rank = np.arange(len(pi)) - (np.cumsum(counts) - counts)[pi]
        keep = (rank < NEAREST) & ~shapely.intersects_xy(self.regions[oi], px[pi], py[pi])
        pi, oi, cx, cy, rank = pi[keep], oi[keep], cx[keep], cy[keep], rank[keep]
        vx = self.corners[oi, :, 0] - px[pi, None]
        vy = self.corners[oi, :, 1] - py[pi, None]
        # corners' angles about the direction of the centroid (inside the span, so
        # every corner is within half a turn of it: no wrapping needed)
        rel = np.arctan2(cx[:, None] * vy - cy[:, None] * vx, cx[:, None] * vx + cy[:, None] * vy)
        mid = np.arctan2(cy, cx)
        low, high = mid + rel.min(axis=1), mid + rel.max(axis=1)
        out[pi, 0, rank], out[pi, 1, rank] = np.cos(low), np.sin(low)
        out[pi, 2, rank], out[pi, 3, rank] = np.cos(high), np.sin(high)
        out[pi, 4, rank] = np.hypot(vx, vy).max(axis=1)
        out[pi, 5, rank] = self.top[oi]
        return out

    def proven_blocked(self, px: np.ndarray, py: np.ndarray, ia: np.ndarray, ib: np.ndarray,
                       az: np.ndarray, bz: np.ndarray) -> np.ndarray:
        """Lines from point ia (height az) to point ib (height bz), over the points
        (px, py): True where a shadow proves the line blocked."""
        n = len(ia)
        proven = np.zeros(n, dtype=bool)
        if self.count == 0 or n == 0:
            return proven
        near = self._nearest(px, py)
        dx, dy = px[ib] - px[ia], py[ib] - py[ia]
        length = np.hypot(dx, dy)
        todo = np.flatnonzero(length > 0.0)
        for end, z0, z1, sign in ((ia, az, bz, 1.0), (ib, bz, az, -1.0)):
            lo_x, lo_y, hi_x, hi_y, far, top = np.moveaxis(near[end[todo]], 1, 0)
            d = length[todo, None]
            rx, ry = sign * dx[todo, None] / d, sign * dy[todo, None] / d
            start_z = z0[todo, None]
            with np.errstate(invalid="ignore"):
                z_far = start_z + (z1[todo, None] - start_z) * (far / d)
            ok = d > far + LENGTH_EPS
            ok &= lo_x * ry - lo_y * rx > ANGLE_EPS         # left of the span's first edge
            ok &= rx * hi_y - ry * hi_x > ANGLE_EPS         # right of its second edge
            ok &= top >= np.maximum(start_z, z_far)
            hit = ok.any(axis=1)
            proven[todo[hit]] = True
            todo = todo[~hit]
        return proven
