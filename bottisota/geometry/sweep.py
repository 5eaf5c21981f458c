"""A disc swept along a straight segment: exact first contact with polygon edges.

The disc's centre moves p(t) = a + t v, t in [0, 1]. It touches an edge when
the centre comes within R of it, that is when it enters the edge's capsule
(two end discs and a band). Solved in closed form for all edges at once, so
the answer is exact to floating point, not to a buffered circle's chords.
"""
from __future__ import annotations

import math
import struct
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

EPS = 1e-9          # cm: gaps this small count as touching
SLOPE_EPS = 1e-9    # cosine: moving along a wall within this is not "deeper"
SMALL = 48          # up to this many edges, plain Python beats numpy's per-call cost


_SEGMENT = struct.Struct("<BIIdddd")


def segment(ax: float, ay: float, bx: float, by: float) -> BaseGeometry:
    """The LineString from (ax, ay) to (bx, by), built from its binary (WKB) form
    (the same geometry as the constructor gives, in less time)."""
    return shapely.from_wkb(_SEGMENT.pack(1, 2, 2, ax, ay, bx, by))


def polyline(points: Sequence[Sequence[float]]) -> BaseGeometry:
    """A LineString through the points, built from its binary (WKB) form: about twice
    as fast as from a list of tuples, which matters on the path-legality fast path."""
    flat = [float(c) for p in points for c in (p[0], p[1])]
    return shapely.from_wkb(struct.pack(f"<BII{len(flat)}d", 1, 2, len(points), *flat))


def polygon_edges(shape: BaseGeometry) -> np.ndarray:
    """Every ring edge of a polygon (or multi-polygon) as rows (px, py, qx, qy)."""
    rows = []
    for ring in shapely.get_rings(shapely.get_parts(shape)):
        xy = shapely.get_coordinates(ring)
        if len(xy) >= 2:
            rows.append(np.hstack([xy[:-1], xy[1:]]))
    return np.vstack(rows) if rows else np.zeros((0, 4))


def first_touch_times(a: tuple[float, float], v: tuple[float, float], radius: float,
                      edges: np.ndarray) -> np.ndarray:
    """For each edge, the first t in [0, 1] at which the centre comes within
    `radius` of it; inf if never. A centre already within radius at t = 0 gives
    0 only when it moves closer (deeper), else inf (distance to a segment is
    convex along a line, so it never gets closer later)."""
    ax, ay = a
    vx, vy = v
    px, py, qx, qy = edges[:, 0], edges[:, 1], edges[:, 2], edges[:, 3]
    dx, dy = qx - px, qy - py
    length = np.hypot(dx, dy)
    safe = np.where(length > 0.0, length, 1.0)
    ex, ey = dx / safe, dy / safe
    speed = np.hypot(vx, vy)

    # where the centre starts, relative to each edge
    wx, wy = ax - px, ay - py
    along = np.clip(wx * ex + wy * ey, 0.0, length)
    rx, ry = wx - along * ex, wy - along * ey
    d0 = np.hypot(rx, ry)
    touching = d0 <= radius + EPS
    closing = (rx * vx + ry * vy) < -SLOPE_EPS * np.maximum(d0, EPS) * max(speed, EPS)
    deeper = touching & ((d0 <= EPS) | closing) & (speed > 0.0)

    times = np.full(len(edges), np.inf)
    if speed > 0.0:
        aa = vx * vx + vy * vy
        for cx, cy in ((px, py), (qx, qy)):            # the two end discs
            ox, oy = ax - cx, ay - cy
            b = ox * vx + oy * vy
            c = ox * ox + oy * oy - radius * radius
            disc = b * b - aa * c
            with np.errstate(invalid="ignore", divide="ignore"):
                t = (-b - np.sqrt(disc)) / aa
            ok = (disc >= 0.0) & (t >= 0.0) & (t <= 1.0)
            times = np.where(ok & (t < times), t, times)
        nx, ny = -ey, ex                                 # the band along the edge
        h0 = wx * nx + wy * ny
        hv = vx * nx + vy * ny
        with np.errstate(divide="ignore", invalid="ignore"):
            t_pos = np.where((h0 > radius) & (hv < 0.0), (radius - h0) / hv, np.inf)
            t_neg = np.where((h0 < -radius) & (hv > 0.0), (-radius - h0) / hv, np.inf)
        for t in (t_pos, t_neg):
            with np.errstate(invalid="ignore"):
                s = (wx + t * vx) * ex + (wy + t * vy) * ey
            ok = np.isfinite(t) & (t >= 0.0) & (t <= 1.0) & (s >= 0.0) & (s <= length) \
                & (length > 0.0)
            times = np.where(ok & (t < times), t, times)
    times = np.where(touching, np.inf, times)
    return np.where(deeper, 0.0, times)


def first_touch(a: tuple[float, float], v: tuple[float, float], radius: float,
                edges: np.ndarray) -> tuple[float, int]:
    """The earliest of `first_touch_times` and the row of its edge (the first such
    row on ties); (inf, -1) when the sweep touches none."""
    if len(edges) > SMALL:
        times = first_touch_times(a, v, radius, edges)
        k = int(np.argmin(times))
        return (float(times[k]), k) if np.isfinite(times[k]) else (math.inf, -1)
    best, row = math.inf, -1
    for k, (px, py, qx, qy) in enumerate(edges.tolist()):
        t = _edge_time(a[0], a[1], v[0], v[1], radius, px, py, qx, qy)
        if t < best:
            best, row = t, k
    return best, row


def _edge_time(ax: float, ay: float, vx: float, vy: float, radius: float,
               px: float, py: float, qx: float, qy: float) -> float:
    """`first_touch_times` for one edge, in plain floats (the same steps)."""
    dx, dy = qx - px, qy - py
    length = math.hypot(dx, dy)
    safe = length if length > 0.0 else 1.0
    ex, ey = dx / safe, dy / safe
    speed = math.hypot(vx, vy)
    wx, wy = ax - px, ay - py
    along = min(max(wx * ex + wy * ey, 0.0), length)
    rx, ry = wx - along * ex, wy - along * ey
    d0 = math.hypot(rx, ry)
    if d0 <= radius + EPS:
        closing = (rx * vx + ry * vy) < -SLOPE_EPS * max(d0, EPS) * max(speed, EPS)
        return 0.0 if speed > 0.0 and (d0 <= EPS or closing) else math.inf
    if speed == 0.0:
        return math.inf
    best = math.inf
    aa = vx * vx + vy * vy
    for cx, cy in ((px, py), (qx, qy)) if aa > 0.0 else ():
        ox, oy = ax - cx, ay - cy
        b = ox * vx + oy * vy
        disc = b * b - aa * (ox * ox + oy * oy - radius * radius)
        if disc >= 0.0:
            t = (-b - math.sqrt(disc)) / aa
            if 0.0 <= t <= 1.0 and t < best:
                best = t
    if length > 0.0:
        nx, ny = -ey, ex
        h0 = wx * nx + wy * ny
        hv = vx * nx + vy * ny
        if h0 > radius and hv < 0.0:
            t = (radius - h0) / hv
        elif h0 < -radius and hv > 0.0:
            t = (-radius - h0) / hv
        else:
            t = math.inf
        if 0.0 <= t <= 1.0 and t < best:
            s = (wx + t * vx) * ex + (wy + t * vy) * ey
            if 0.0 <= s <= length:
                best = t
    return best
