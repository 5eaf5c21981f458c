"""Compass angles (D2): facings in degrees, 0 = +y (up the table), clockwise.

Every rule that turns, aims or measures an arc uses these, and only these: `vector`
(facing -> unit vector), `heading` and `bearing` (vector or two points -> facing),
`off_angle` and `signed_off` (between two facings). The table, the phones' snapshot,
the robots and the file checks use them too.
"""
from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def vector(facing: float) -> tuple[float, float]:
    """The unit vector (dx, dy) of a facing: (sin, cos) of its radians (0 = +y, 90 = +x).
    Every facing-to-vector conversion of the program is this one (its arithmetic is
    part of what a seeded game's journal records)."""
    rad = math.radians(facing)
    return (math.sin(rad), math.cos(rad))


def heading(dx: float, dy: float) -> float:
    """The facing of a vector (dx, dy), in [0, 360)."""
    return math.degrees(math.atan2(dx, dy)) % 360.0


def headings(dx: np.ndarray, dy: np.ndarray) -> np.ndarray:
    """`heading` over arrays of vectors (numpy's arithmetic, element by element)."""
    out: np.ndarray = np.degrees(np.arctan2(dx, dy)) % 360.0
    return out


def bearing(a: Sequence[float], b: Sequence[float]) -> float:
    """The facing from point a toward point b, in [0, 360)."""
    return heading(b[0] - a[0], b[1] - a[1])


def off_angle(facing: float, direction: float) -> float:
    """How far a direction lies off a facing, unsigned, in [0, 180]."""
    d = (direction - facing) % 360.0
    return min(d, 360.0 - d)


def signed_off(facing: float, direction: float) -> float:
    """The turn from a facing to a direction, in (-180, 180] (positive: clockwise)."""
    d = (direction - facing) % 360.0
    return d - 360.0 if d > 180.0 else d
