"""Heights over the table: floors (platforms, sloped features) and sight obstacles.

A `Surface` is one feature's region with the z of its top at every point:
flat (walls, doors, platforms) or sloped linearly along `up` (stairs, ramps,
escalators), from `from` to `to` across the shape's extent in that direction
(formats.md). Facings follow D2: 0 = +y, clockwise.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from bottisota.core.arena import FLOOR_TYPES, SLOPED_TYPES
from bottisota.core.compass import vector
from bottisota.formats.spec import WALL_DEFAULT_HEIGHT

if TYPE_CHECKING:
    from bottisota.core.arena import Feature

BARRIER_TYPES: frozenset[str] = frozenset({"wall", "door"})


@dataclass(frozen=True, slots=True, eq=False)
class Surface:
    """A region and the z of its top: z = z_low + rise * clamp((p.u - s0) / span)."""

    feature: Feature
    region: BaseGeometry          # where this surface is the one that counts
    z_low: float                  # z at the low end (the whole top when flat)
    z_high: float                 # z at the high end
    ux: float = 0.0
    uy: float = 1.0
    s0: float = 0.0               # extent of the shape along (ux, uy)
    span: float = 0.0

    @property
    def sloped(self) -> bool:
        return self.span > 0.0 and self.z_high != self.z_low

    @property
    def top(self) -> float:
        """Highest z anywhere on it."""
        return max(self.z_low, self.z_high)

    @property
    def label(self) -> str:
        return self.feature.label

    def z_at(self, x: float, y: float) -> float:
        """The surface's z over the point (clamped to the shape's extent)."""
        if not self.sloped:
            return self.z_low
        f = (x * self.ux + y * self.uy - self.s0) / self.span
        f = 0.0 if f < 0.0 else 1.0 if f > 1.0 else f
        return self.z_low + (self.z_high - self.z_low) * f

    def z_many(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """`z_at` over arrays of points."""
        if not self.sloped:
            return np.full(np.shape(xs), self.z_low, dtype=float)
        f = np.clip((xs * self.ux + ys * self.uy - self.s0) / self.span, 0.0, 1.0)
        return self.z_low + (self.z_high - self.z_low) * f

    def on_end_edge(self, x: float, y: float, tolerance: float) -> bool:
        """The point lies on the low or high end of a sloped feature (where it joins
        the floors it leads between), within tolerance."""
        if not self.sloped:
            return False
        s = x * self.ux + y * self.uy
        return abs(s - self.s0) <= tolerance or abs(s - self.s0 - self.span) <= tolerance


def feature_surface(feature: Feature, region: BaseGeometry | None = None) -> Surface:
    """The surface of a wall, door or floor feature (walls and doors: flat at their
    `height`, default per formats.md; platforms at `height`; sloped ones along `up`)."""
    region = feature.shape if region is None else region
    if feature.type in SLOPED_TYPES:
        ux, uy = vector(feature.up or 0.0)
        proj = shapely.get_coordinates(feature.shape) @ np.array([ux, uy])
        s0, s1 = float(proj.min()), float(proj.max())
        return Surface(feature, region, float(feature.from_z or 0.0),
                       float(feature.to_z or 0.0), ux, uy, s0, s1 - s0)
    if feature.type in BARRIER_TYPES:
        z = WALL_DEFAULT_HEIGHT if feature.height is None else float(feature.height)
    else:
        z = float(feature.height or 0.0)
    return Surface(feature, region, z, z)


def floor_surfaces(features: Sequence[Feature]) -> list[Surface]:
    """Every floor feature with the part of it no later floor covers (later wins)."""
    floors = [f for f in features if f.type in FLOOR_TYPES]
    out: list[Surface] = []
    for i, f in enumerate(floors):
        later = [g.shape for g in floors[i + 1:] if g.shape.intersects(f.shape)]
        region = f.shape
        if later:
            region = shapely.difference(f.shape, shapely.union_all(later))
        if not region.is_empty:
            out.append(feature_surface(f, region))
    return out
