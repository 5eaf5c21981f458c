"""Where ground bots can get to: a flood fill over a grid of bot-centre spots.

A spot is open when a bot's base (house rules' base diameter) fits there clear of
walls (doors open when touched, R47), its centre is not over a pit and the base is
on the table. A ground bot steps between neighbouring spots when the floor rises by
at most the step height (stairs, ramps and escalators rise gently), and may always
drive off a ledge (a fall, R39). Lifts (R48) join their car to the floor of height
`top` within one base diameter; teleporters (R53) join one another. The fill starts
on the ground floor. Fliers and hovers reach every open spot.
"""
from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from bottisota.core.arena import SLOPED_TYPES, Arena
from bottisota.core.compass import vector
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.formats.lint import Finding, finding
from bottisota.formats.yaml_source import Marks

MAX_CELLS = 120_000       # the grid is coarsened past this many spots


class Points:
    """Many points, sorted once by x, so that the points in one shape are found among
    those in its bounding box alone (a strip found by bisection, then its y range),
    not by testing every point against every feature."""

    def __init__(self, xs: np.ndarray, ys: np.ndarray) -> None:
        self.xs, self.ys = xs, ys
        self.order = np.argsort(xs, kind="stable")
        self.sorted_x = xs[self.order]

    def inside(self, shape: BaseGeometry) -> np.ndarray:
        """The indices (ascending) of the points inside the shape (`contains_xy`: a
        point on its boundary is not inside)."""
        x0, y0, x1, y1 = shape.bounds
        lo = int(np.searchsorted(self.sorted_x, x0, side="left"))
        hi = int(np.searchsorted(self.sorted_x, x1, side="right"))
        near = np.sort(self.order[lo:hi])
        near = near[(self.ys[near] >= y0) & (self.ys[near] <= y1)]
        inside: np.ndarray = near[shapely.contains_xy(shape, self.xs[near], self.ys[near])]
        return inside


def floor_heights(arena: Arena, xs: np.ndarray, ys: np.ndarray,
                  points: Points | None = None) -> np.ndarray:
    """Floor z at many points (platforms and slopes; later features win)."""
    z = np.zeros(len(xs))
    where = points or Points(xs, ys)
    for f in arena.features:
        if f.type == "platform":
            z[where.inside(f.shape)] = f.height or 0.0
        elif f.type in SLOPED_TYPES:
            inside = where.inside(f.shape)
            if not len(inside):
                continue
            ux, uy = vector(f.up or 0.0)
            proj = shapely.get_coordinates(f.shape) @ np.array([ux, uy])
            lo, hi = proj.min(), proj.max()
            t = ((xs[inside] * ux + ys[inside] * uy) - lo) / max(hi - lo, 1e-9)
            z[inside] = (f.from_z or 0.0) + np.clip(t, 0, 1) * ((f.to_z or 0.0) - (f.from_z or 0.0))
    return z


@dataclass
class Reach:
    """The grid and which spots ground bots reach."""

    cell: float
    nx: int
    ny: int
    z: np.ndarray          # floor height per spot
    open: np.ndarray       # a base fits there
    ground: np.ndarray     # reached by ground bots
    links: dict[int, list[int]] = field(default_factory=dict)   # lifts and teleporters
    step: float = 1.0      # cm a ground bot climbs (the house rules' step height)

    def from_spot(self, x: float, y: float) -> np.ndarray | None:
        """The spots a ground bot starting at (x, y) can get to: up no more than a step,
        down any drop, through lifts and teleporters (None: no base fits there)."""
        k = self.index(x, y)
        if k is None or not self.open[k]:
            return None
        seen = np.zeros_like(self.open)
        seen[k] = True
        _fill(seen, deque([k]), self.nx, self.ny, self.open, self.z, self.links, self.step)
        return seen

    def index(self, x: float, y: float) -> int | None:
        i, j = int(x / self.cell), int(y / self.cell)
        if 0 <= i < self.nx and 0 <= j < self.ny:
            return j * self.nx + i
        return None

    def who_reaches(self, x: float, y: float) -> str:
        """`ground and air`, `only fliers and hovers` or `no bot` (its base does not fit)."""
        k = self.index(x, y)
        if k is None or not self.open[k]:
            return N_("no bot (a base does not fit here)")
        return N_("every bot") if self.ground[k] else N_("only fliers and hovers")

    def any_ground_in(self, shape: BaseGeometry) -> bool | None:
        """Whether ground bots reach some open spot in the shape (None: no open spot in it)."""
        inside = self._points.inside(shape)
        inside = inside[self.open[inside]]
        if not len(inside):
            c = shape.representative_point()
            k = self.index(c.x, c.y)
            if k is None or not self.open[k]:
                return None
            return bool(self.ground[k])
        return bool(self.ground[inside].any())

    @cached_property
    def _points(self) -> Points:
        ii, jj = np.meshgrid(np.arange(self.nx), np.arange(self.ny))
        return Points((ii.ravel() + 0.5) * self.cell, (jj.ravel() + 0.5) * self.cell)


def ground_reach(arena: Arena, rules: HouseRules) -> Reach:
    """Flood-fill the spots ground bots reach from the ground floor."""
    w, h = arena.size
    cell = max(0.5, math.sqrt(w * h / MAX_CELLS))
    nx, ny = max(1, int(w / cell)), max(1, int(h / cell))
    ii, jj = np.meshgrid(np.arange(nx), np.arange(ny))
    xs, ys = (ii.ravel() + 0.5) * cell, (jj.ravel() + 0.5) * cell
    r = rules.base_diameter / 2.0
    ok = (xs >= r) & (xs <= w - r) & (ys >= r) & (ys <= h - r)
    walls = [f.shape for f in arena.features if f.type == "wall"]
    if walls:
        ok &= ~shapely.contains_xy(shapely.union_all(walls).buffer(r * 0.999), xs, ys)
    pits = [f.shape for f in arena.features if f.type == "pit"]
    if pits:
        ok &= ~shapely.contains_xy(shapely.union_all(pits), xs, ys)
    z = floor_heights(arena, xs, ys)
    links = _links(arena, rules, xs, ys, z, ok)
    seen = ok & (z <= rules.step_height + 1e-9)
    _fill(seen, deque(np.flatnonzero(seen).tolist()), nx, ny, ok, z, links, rules.step_height)
    return Reach(cell, nx, ny, z, ok, seen, links, rules.step_height)


def _fill(seen: np.ndarray, queue: deque[int], nx: int, ny: int, ok: np.ndarray, z: np.ndarray,
          links: dict[int, list[int]], step_height: float) -> None:
    """Flood `seen` from the spots in `queue`: to open neighbours at most a step higher
    (any drop down), and along the links."""
    step = step_height + 1e-6
    while queue:
        k = queue.popleft()
        i, j = k % nx, k // nx
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)):
            a, b = i + di, j + dj
            if 0 <= a < nx and 0 <= b < ny:
                n = b * nx + a
                if ok[n] and not seen[n] and z[n] - z[k] <= step:
                    seen[n] = True
                    queue.append(n)
        for n in links.get(k, ()):
            if not seen[n]:
                seen[n] = True
                queue.append(n)


def _links(arena: Arena, rules: HouseRules, xs: np.ndarray, ys: np.ndarray, z: np.ndarray,
           ok: np.ndarray) -> dict[int, list[int]]:
    """Lift cars to their landings (both ways) and teleporters to each other."""
    links: dict[int, list[int]] = {}

    def join(a: np.ndarray, b: np.ndarray) -> None:
        for k in a.tolist():
            links.setdefault(k, []).extend(b.tolist())

    for lift in arena.by_type("lift"):
        car = np.flatnonzero(shapely.contains_xy(lift.shape, xs, ys) & ok)
        near = shapely.contains_xy(lift.shape.buffer(rules.base_diameter), xs, ys)
        landing = np.flatnonzero(near & ok & (np.abs(z - (lift.top or 0.0))
                                              <= rules.step_height))
        join(car, landing)
        join(landing, car)
    pads = [np.flatnonzero(shapely.contains_xy(t.shape.buffer(0.5), xs, ys) & ok)
            for t in arena.by_type("teleporter")]
    if len(pads) > 1:
        every = np.concatenate(pads)
        for pad in pads:
            join(pad, every)
    return links


def reach_findings(arena: Arena, rules: HouseRules, marks: Marks,
                   reach: Reach | None = None) -> list[Finding]:
    """W030 for every platform and goal no ground bot reaches."""
    reach = reach or ground_reach(arena, rules)
    out = []
    for f in arena.features:
        if f.type not in ("platform", "goal"):
            continue
        got = reach.any_ground_in(f.shape)
        if got is False:
            c = f.shape.representative_point()
            what = N_("a ground bot can reach no spot of") if f.type == "platform" else \
                N_("no ground bot can reach")
            out.append(finding("W030", marks, f"features[{f.index}]",
                               N_("{what} {label}: only fliers and hovers get there").format(
                                   what=what, label=f.label),
                               help=N_("add stairs, a ramp, an escalator or a lift up to it"),
                               at=(c.x, c.y)))
    return out


