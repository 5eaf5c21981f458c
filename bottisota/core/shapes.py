"""The shapes of formats.md as Shapely polygons: rect, polygon, circle, path strip.

Coordinates are cm with y up (D1). `rotate` is clockwise in degrees (D2)
about the shape's centroid. Circles are buffered points whose vertices lie on
the true circle, with enough segments that every chord stays within
`CIRCLE_TOLERANCE` of it.
"""
from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any  # Any: a shape as read from a file (YAML or a journal line)

from shapely import affinity
from shapely.geometry import LineString, Point, Polygon, box

CIRCLE_TOLERANCE = 0.001        # cm: the polygon lies this close to the true circle
SHAPE_KEYS: tuple[str, ...] = ("rect", "polygon", "circle", "path")
ROTATABLE: frozenset[str] = frozenset({"rect", "polygon"})


def rect(x: float, y: float, w: float, h: float) -> Polygon:
    """Lower-left corner (x, y), width w, height h."""
    return box(x, y, x + w, y + h)


def polygon(points: Sequence[Sequence[float]]) -> Polygon:
    """A polygon from its corner points (closing point optional)."""
    return Polygon([(float(p[0]), float(p[1])) for p in points])


def circle_segments(r: float, tolerance: float = CIRCLE_TOLERANCE) -> int:
    """Segments per quarter circle so that a chord's sagitta stays within tolerance."""
    if r <= tolerance:
        return 1
    half_angle = math.acos(1.0 - tolerance / r)          # half the angle a chord may span
    return max(1, math.ceil((math.pi / 2) / (2 * half_angle)))


def circle(x: float, y: float, r: float, tolerance: float = CIRCLE_TOLERANCE) -> Polygon:
    """Disc of radius r about (x, y), within `tolerance` of the true circle."""
    return Point(x, y).buffer(r, quad_segs=circle_segments(r, tolerance))


def strip(points: Sequence[Sequence[float]], width: float) -> Polygon:
    """A strip of the given width along the polyline: flat ends, mitred corners."""
    line = LineString([(float(p[0]), float(p[1])) for p in points])
    return line.buffer(width / 2.0, cap_style="flat", join_style="mitre")


def rotated(shape: Polygon, degrees: float) -> Polygon:
    """The shape turned clockwise by `degrees` about its centroid."""
    if not degrees:
        return shape
    return affinity.rotate(shape, -float(degrees), origin="centroid")


# Any below: a shape's mapping as read from a file (YAML or a journal line)
def shape_kind(data: Mapping[str, Any]) -> str | None:
    """Which shape key a feature mapping uses (the first found), or None."""
    for key in SHAPE_KEYS:
        if key in data:
            return key
    return None


def shape_from_dict(data: Mapping[str, Any]) -> Polygon:
    """Build the polygon of a (validated) feature mapping: rect | polygon | circle |
    path + width, with optional `rotate` on rect and polygon."""
    kind = shape_kind(data)
    if kind == "rect":
        shape = rect(*(float(v) for v in data["rect"]))
    elif kind == "polygon":
        shape = polygon(data["polygon"])
    elif kind == "circle":
        x, y, r = (float(v) for v in data["circle"])
        shape = circle(x, y, r)
    elif kind == "path":
        shape = strip(data["path"], float(data["width"]))
    else:
        raise ValueError("a shape needs one of rect, polygon, circle or path")
    if kind in ROTATABLE and data.get("rotate"):
        shape = rotated(shape, float(data["rotate"]))
    return shape
