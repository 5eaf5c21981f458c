"""Drawing Shapely geometry and simple marks (arrows, dashes, wedges) with a camera."""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pygame
import shapely
from shapely.geometry import LineString, MultiLineString, MultiPolygon, Polygon
from shapely.geometry.base import BaseGeometry

from bottisota.core.compass import vector as facing_vector
from bottisota.view.camera import Camera
from bottisota.view.style import Colour


def polygons_of(geom: BaseGeometry) -> list[Polygon]:
    """The polygons in any geometry (empty list for lines, points, empties)."""
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if isinstance(geom, MultiPolygon) or hasattr(geom, "geoms"):
        out: list[Polygon] = []
        for g in geom.geoms:
            out.extend(polygons_of(g))
        return out
    return []


def lines_of(geom: BaseGeometry) -> list[LineString]:
    """The line strings in any geometry (polygon boundaries excluded)."""
    if geom.is_empty:
        return []
    if isinstance(geom, LineString):
        return [geom]
    if isinstance(geom, MultiLineString) or hasattr(geom, "geoms"):
        out: list[LineString] = []
        for g in geom.geoms:
            out.extend(lines_of(g))
        return out
    return []


def px_points(cam: Camera, coords: Iterable[Sequence[float]]) -> list[tuple[float, float]]:
    return [cam.to_px(c[0], c[1]) for c in coords]


def fill_geom(surface: pygame.Surface, cam: Camera, geom: BaseGeometry, colour: Colour) -> None:
    """Fill every polygon of a geometry; polygons with holes are triangulated."""
    for poly in polygons_of(geom):
        if poly.interiors:
            tris = shapely.constrained_delaunay_triangles(poly)
            for tri in polygons_of(tris):
                pygame.draw.polygon(surface, colour, px_points(cam, tri.exterior.coords[:-1]))
        else:
            pts = px_points(cam, poly.exterior.coords[:-1])
            if len(pts) >= 3:
                pygame.draw.polygon(surface, colour, pts)


def outline_geom(surface: pygame.Surface, cam: Camera, geom: BaseGeometry, colour: Colour,
                 width: int = 1) -> None:
    """Outline every polygon of a geometry (rings) and draw its lines."""
    for poly in polygons_of(geom):
        for ring in (poly.exterior, *poly.interiors):
            pts = px_points(cam, ring.coords)
            if len(pts) >= 2:
                pygame.draw.lines(surface, colour, True, pts, width)
    for line in lines_of(geom):
        pts = px_points(cam, line.coords)
        if len(pts) >= 2:
            pygame.draw.lines(surface, colour, False, pts, width)


def arrow(surface: pygame.Surface, cam: Camera, x: float, y: float, facing: float,
          length_cm: float, colour: Colour, width: int = 2) -> None:
    """An arrow centred on (x, y) cm pointing along `facing`."""
    dx, dy = facing_vector(facing)
    h = length_cm / 2.0
    tail = cam.to_px(x - dx * h, y - dy * h)
    tip = cam.to_px(x + dx * h, y + dy * h)
    pygame.draw.line(surface, colour, tail, tip, width)
    head = max(4.0, cam.length(length_cm) * 0.35)
    ang = math.atan2(tip[1] - tail[1], tip[0] - tail[0])
    for side in (-1, 1):
        a = ang + math.pi + side * math.radians(28)
        pygame.draw.line(surface, colour, tip,
                         (tip[0] + head * math.cos(a), tip[1] + head * math.sin(a)), width)


def chevron(surface: pygame.Surface, cam: Camera, x: float, y: float, facing: float,
            size_cm: float, colour: Colour, width: int = 2) -> None:
    """A '>' mark at (x, y) cm pointing along `facing` (belt travel)."""
    dx, dy = facing_vector(facing)
    px, py = -dy, dx                     # perpendicular
    h = size_cm / 2.0
    tip = cam.to_px(x + dx * h * 0.6, y + dy * h * 0.6)
    a = cam.to_px(x - dx * h * 0.6 + px * h, y - dy * h * 0.6 + py * h)
    b = cam.to_px(x - dx * h * 0.6 - px * h, y - dy * h * 0.6 - py * h)
    pygame.draw.lines(surface, colour, False, [a, tip, b], width)


def dashed_line(surface: pygame.Surface, colour: Colour, a: tuple[float, float],
                b: tuple[float, float], dash: float = 8.0, width: int = 2) -> None:
    """A dashed pixel line from a to b."""
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length < 1e-6:
        return
    ux, uy = (b[0] - a[0]) / length, (b[1] - a[1]) / length
    d = 0.0
    while d < length:
        e = min(d + dash, length)
        pygame.draw.line(surface, colour, (a[0] + ux * d, a[1] + uy * d),
                         (a[0] + ux * e, a[1] + uy * e), width)
        d += 2 * dash


_rings: dict[tuple, pygame.Surface] = {}


def dashed_circle(surface: pygame.Surface, colour: Colour, centre: tuple[float, float],
                  radius: float, width: int = 2, segments: int = 24) -> None:
    """A dashed circle in pixels (drawn once per look, then blitted)."""
    r = max(1, round(radius))
    key = (tuple(colour), r, width, segments)
    ring = _rings.get(key)
    if ring is None:
        ring = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
        rect = pygame.Rect(1, 1, 2 * r, 2 * r)
        for i in range(0, segments, 2):
            a0 = 2 * math.pi * i / segments
            a1 = 2 * math.pi * (i + 1) / segments
            pygame.draw.arc(ring, colour, rect, a0, a1, width)
        if len(_rings) > 256:
            _rings.clear()
        _rings[key] = ring
    surface.blit(ring, (round(centre[0]) - r - 1, round(centre[1]) - r - 1))


def sector_points(cam: Camera, x: float, y: float, facing: float, width_deg: float,
                  radius_cm: float, steps: int = 24) -> list[tuple[float, float]]:
    """Pixel polygon of a circular sector (an arc of fire) centred on `facing`."""
    pts = [cam.to_px(x, y)]
    start = facing - width_deg / 2.0
    for i in range(steps + 1):
        f = start + width_deg * i / steps
        dx, dy = facing_vector(f)
        pts.append(cam.to_px(x + dx * radius_cm, y + dy * radius_cm))
    return pts
