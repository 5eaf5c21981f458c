"""Geometry checks of an arena whose keys are already valid (formats.md, Arena).

Shapes must be valid polygons on the table, feature ids unique, features that
cannot share a spot must not overlap, and stairs, ramps and escalators must
join the floors they claim. The floor is computed here from the features
themselves, so the checks do not depend on the compiled geometry index.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from itertools import combinations

import numpy as np
import shapely
from shapely.geometry import Point, box
from shapely.validation import explain_validity

from bottisota.core.arena import FLOOR_TYPES, SLOPED_TYPES, Arena, Feature
from bottisota.core.compass import vector
from bottisota.core.errors import Problem
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.formats.yaml_source import Marks, Raw

AREA_EPSILON = 1e-6      # cm²: overlaps smaller than this are touching, not overlapping
BEYOND = 0.1             # cm: how far past a slope's end its neighbouring floor is sampled

_SPOT_TYPES = ("wall", "door", "pit", "teleporter", "service", "goal", "lift")
_SHARED_OK = {frozenset({"wall"}), frozenset({"pit"})}
MUST_NOT_OVERLAP: frozenset[frozenset[str]] = frozenset(
    {frozenset(p) for p in combinations(_SPOT_TYPES, 2)}
    | {frozenset({t}) for t in _SPOT_TYPES if frozenset({t}) not in _SHARED_OK}
    | {frozenset({"conveyor", t}) for t in ("wall", "door", "lift")}
    | {frozenset({s, t}) for s in SLOPED_TYPES for t in ("wall", "door", "pit", "lift")}
) - {frozenset({"wall", "door"})}   # a door drawn over a wall cuts it (cut_doors)
"""Pairs of feature types that must not overlap (a wall in a pit, two teleporters on one spot)."""


def cut_doors(features: Sequence[Feature]) -> tuple[Feature, ...]:
    """The features with every wall cut where a door is drawn over it (the habit of
    map editors: one long wall, a door on top). A wall wholly under a door is kept
    as drawn (the check warns about it)."""
    doors = [f.shape for f in features if f.type == "door"]
    if not doors:
        return tuple(features)
    union = shapely.union_all(doors)
    out = []
    for f in features:
        if f.type == "wall" and f.shape.intersects(union):
            cut = f.shape.difference(union)
            if not cut.is_empty and cut.area > AREA_EPSILON:
                f = replace(f, shape=cut, drawn=f.shape)
        out.append(f)
    return tuple(out)


METRES_BELOW = 10.0            # cm: a table smaller than this both ways was written in metres


def arena_problems(arena: Arena, raw: Sequence[Raw], marks: Marks,
                   rules: HouseRules, joins: bool = True) -> list[Problem]:
    """Every geometry problem of the arena, in feature order. `joins=False` leaves out
    whether slopes and lifts meet their floors: with a feature of the file left out (its
    keys are wrong) a stair to a platform missing its height would only be a follow-on."""
    if max(arena.size) < METRES_BELOW:
        # a table given in metres: every feature would be off it; one error says why
        return [marks.problem("size", N_(
            "a table of {w:g} x {h:g} cm is too small to play on: sizes are in "
            "centimetres (did you mean {w100:g} x {h100:g}?)").format(
                w=arena.size[0], h=arena.size[1], w100=round(arena.size[0] * 100, 4),
                h100=round(arena.size[1] * 100, 4)))]
    problems: list[Problem] = []
    good: list[Feature] = []
    table = box(0.0, 0.0, *arena.size)
    seen_ids: dict[str, int] = {}
    for feature, data in zip(arena.features, raw, strict=True):
        where = f"features[{feature.index}]"
        shape_key = next(k for k in ("rect", "polygon", "circle", "path") if k in data)
        if feature.id is not None:
            if feature.id in seen_ids:
                problems.append(marks.problem(f"{where}.id",
                        N_("the id '{id}' is already used by features[{v}]").format(
                            id=feature.id, v=seen_ids[feature.id])))
            else:
                seen_ids[feature.id] = feature.index
        message = _shape_problem(feature, data, shape_key)
        if message:
            problems.append(marks.problem(f"{where}.{shape_key}", message))
            continue
        if not table.buffer(AREA_EPSILON).covers(feature.shape):
            minx, miny, maxx, maxy = feature.shape.bounds
            problems.append(marks.problem(
                f"{where}.{shape_key}",
                N_("{label} reaches off the table: it spans x {minx:.2f}..{maxx:.2f}, y "
                   "{miny:.2f}..{maxy:.2f}; the table is {v:g} x {v2:g}").format(
                    label=feature.label, minx=minx, maxx=maxx, miny=miny, maxy=maxy,
                    v=arena.size[0], v2=arena.size[1])))
            continue
        for i, (x, y) in enumerate(feature.respawn):
            if not (0 <= x <= arena.size[0] and 0 <= y <= arena.size[1]):
                problems.append(marks.problem(f"{where}.respawn[{i}]",
                                              N_("respawn spot ({x:g}, {y:g}) is off the "
                                                 "table").format(x=x, y=y)))
        good.append(feature)
    problems.extend(_overlaps(good, marks))
    if joins:
        problems.extend(_slope_joins(arena, good, marks, rules.step_height))
        problems.extend(_lift_landings(good, marks, rules))
    return problems


def _lift_landings(features: list[Feature], marks: Marks, rules: HouseRules) -> list[Problem]:
    """A lift must have floor of height `top` within one base diameter of its car (R48)."""
    problems = []
    reach = rules.base_diameter
    step = rules.step_height
    tree = shapely.STRtree([f.shape for f in features])
    for lift in (f for f in features if f.type == "lift"):
        top = lift.top or 0.0
        if abs(top) <= step:
            continue
        near = sorted(int(k) for k in tree.query(lift.shape, predicate="dwithin",
                                                 distance=reach + 1e-9))
        for f in (features[k] for k in near):
            if f.type == "platform" and abs((f.height or 0.0) - top) <= step:
                pass
            elif f.type in SLOPED_TYPES and (
                    min(f.from_z or 0.0, f.to_z or 0.0) - step <= top
                    <= max(f.from_z or 0.0, f.to_z or 0.0) + step):
                pass
            else:
                continue
            if f.shape.distance(lift.shape) <= reach + 1e-9:
                break
        else:
            problems.append(marks.problem(
                f"features[{lift.index}].top",
                N_("{label} serves a landing at height {top:g}, but no floor of that height "
                   "lies within {reach:g} cm (one base diameter) of its car").format(
                    label=lift.label, top=top, reach=reach)))
    return problems


def _shape_problem(feature: Feature, data: Raw, key: str) -> str | None:
    """Why the feature's shape is unusable, or None."""
    if key == "rect" and (data["rect"][2] <= 0 or data["rect"][3] <= 0):
        return N_("a rect needs a width and a height above 0: [x, y, w, h]")
    if key == "circle" and data["circle"][2] <= 0:
        return N_("a circle needs a radius above 0: [x, y, r]")
    if key == "path":
        line = shapely.LineString(data["path"])
        if line.length <= 0:
            return N_("a path needs at least two different points")
    if key == "polygon":
        points = {tuple(p) for p in data["polygon"]}
        if len(points) < 3:
            return N_("a polygon needs at least 3 different points")
        if shapely.MultiPoint(list(points)).convex_hull.area <= AREA_EPSILON:
            return N_("the polygon has no area: its points lie on one line")
        if not feature.shape.is_valid:
            why = explain_validity(feature.shape)
            at = why[why.find("["):] if "[" in why else ""
            if why.startswith("Self-intersection") or why.startswith("Ring Self-intersection"):
                return N_("the polygon crosses itself at {at}; corners must go round once").format(
                           at=_point_text(at))
            return N_("not a simple polygon ({why})").format(why=why)
    if feature.shape.is_empty or feature.shape.area <= AREA_EPSILON:
        return N_("the shape has no area")
    return None


def _point_text(text: str) -> str:
    try:
        x, y = (float(v) for v in text.strip("[]").split()[:2])
    except ValueError:
        return text or N_("a point")
    return f"({x:.2f}, {y:.2f})"


REPORTED_PER_KIND = 20   # overlaps of one pair of types listed before the rest are summarised
_CHUNK = 512             # features queried against the index at a time (bounds memory)
COUNT_BUDGET = 20_000    # pairs of one pair of types counted for the summary, at most


def _overlaps(features: list[Feature], marks: Marks) -> list[Problem]:
    """Features that must not share a spot and do, found with a spatial index per type:
    pairs that may overlap (wall on wall) are never even looked at, so the check is
    near-linear in the number of features; past REPORTED_PER_KIND overlaps of one pair
    of types the rest are counted and summarised in one line."""
    by_type: dict[str, list[Feature]] = {}
    for f in features:
        by_type.setdefault(f.type, []).append(f)
    trees = {t: shapely.STRtree([f.shape for f in fs]) for t, fs in by_type.items()}
    problems: list[tuple[int, int, Problem]] = []
    for pair in sorted(MUST_NOT_OVERLAP, key=sorted):
        kinds = sorted(pair)
        first, second = kinds[0], kinds[-1]
        if first not in by_type or second not in by_type:
            continue
        problems.extend(_overlaps_between(by_type[first], by_type[second], trees[second],
                                          first == second, marks))
    return [p for _, _, p in sorted(problems, key=lambda t: (t[0], t[1]))]


def _overlaps_between(left: list[Feature], right: list[Feature], tree: shapely.STRtree,
                      same: bool, marks: Marks) -> list[tuple[int, int, Problem]]:
    found: list[tuple[Feature, Feature, float]] = []
    more = counted = 0
    cut = False
    shapes = np.array([f.shape for f in left], dtype=object)
    right_shapes = np.array([f.shape for f in right], dtype=object)
    shapely.prepare(shapes)
    for start in range(0, len(left), _CHUNK):
        i, j = tree.query(shapes[start:start + _CHUNK], predicate="intersects")
        i = i + start
        if same:
            keep = i < j
            i, j = i[keep], j[keep]
        if not len(i):
            continue
        k = 0
        while k < len(i) and len(found) < REPORTED_PER_KIND:    # exact areas for those listed
            area = shapes[i[k]].intersection(right_shapes[j[k]]).area
            if area > AREA_EPSILON:
                found.append((left[i[k]], right[j[k]], float(area)))
            k += 1
        if k < len(i):       # the rest only counted: interiors meet (not merely touching)
            rest = slice(k, k + COUNT_BUDGET - counted)
            more += int(np.count_nonzero(~shapely.touches(shapes[i[rest]], right_shapes[j[rest]])))
            counted += len(i[rest])
            if counted >= COUNT_BUDGET:
                cut = True
                break
    out = []
    for a, b, area in found:
        early, late = (a, b) if a.index < b.index else (b, a)
        out.append((late.index, early.index, marks.problem(
            f"features[{late.index}]",
            N_("{label} overlaps {label2} (features[{index}], line {line}) by {area:.2f} cm²: "
               "a {type} and a {type2} cannot share a spot").format(
                label=late.label, label2=early.label, index=early.index, line=early.line,
                area=area, type=late.type, type2=early.type))))
    if more:
        last = max(found, key=lambda t: max(t[0].index, t[1].index))
        where = max(last[0].index, last[1].index)
        kinds = " and ".join(sorted({found[0][0].type, found[0][1].type}))
        out.append((where, 1 << 30, marks.problem(
            f"features[{where}]",
            (N_("... and at least {more} more overlaps like this (between {kinds} features); "
                "counting stopped") if cut
             else N_("... and {more} more overlap like this (between {kinds} features)")
             if more == 1
             else N_("... and {more} more overlaps like this (between {kinds} features)")).format(
                more=more, kinds=kinds))))
    return out


def _floor_index(features: Sequence[Feature]) -> tuple[list[Feature], shapely.STRtree]:
    floors = [f for f in features if f.type in FLOOR_TYPES]
    return floors, shapely.STRtree([f.shape for f in floors])


def _floor_z_indexed(floors: list[Feature], tree: shapely.STRtree, x: float, y: float,
                     skip: Feature | None = None) -> float:
    """floor_z with the floors' spatial index: the last listed floor covering the point."""
    p = Point(x, y)
    best: Feature | None = None
    for k in tree.query(p, predicate="intersects"):
        f = floors[int(k)]
        if f is skip or not f.shape.covers(p):
            continue
        if best is None or f.index > best.index:
            best = f
    if best is None:
        return 0.0
    return (best.height or 0.0) if best.type == "platform" else _slope_z(best, x, y)


def floor_z(features: Sequence[Feature], x: float, y: float) -> float:
    """Floor height at a point from the features alone (later floors win)."""
    z = 0.0
    p = Point(x, y)
    for f in features:
        if f.type in FLOOR_TYPES and f.shape.covers(p):
            z = (f.height or 0.0) if f.type == "platform" else _slope_z(f, x, y)
    return z


def _extent(f: Feature) -> tuple[float, float]:
    ux, uy = vector(f.up or 0.0)
    proj = [x * ux + y * uy for x, y in f.shape.exterior.coords]
    return min(proj), max(proj)


def _slope_z(f: Feature, x: float, y: float) -> float:
    ux, uy = vector(f.up or 0.0)
    lo, hi = _extent(f)
    t = 0.0 if hi <= lo else min(1.0, max(0.0, (x * ux + y * uy - lo) / (hi - lo)))
    return (f.from_z or 0.0) + t * ((f.to_z or 0.0) - (f.from_z or 0.0))


def slope_ends(f: Feature) -> tuple[tuple[float, float], tuple[float, float]]:
    """The points just beyond a slope's low end and its high end, along `up`."""
    ux, uy = vector(f.up or 0.0)
    coords = list(f.shape.exterior.coords)[:-1]
    proj = [x * ux + y * uy for x, y in coords]
    lo, hi = min(proj), max(proj)
    ends = []
    for target, sign in ((lo, -1.0), (hi, 1.0)):
        pts = [c for c, p in zip(coords, proj, strict=True) if abs(p - target) < 1e-6]
        mx = sum(p[0] for p in pts) / len(pts)
        my = sum(p[1] for p in pts) / len(pts)
        ends.append((mx + sign * BEYOND * ux, my + sign * BEYOND * uy))
    return ends[0], ends[1]


def _slope_joins(arena: Arena, features: list[Feature], marks: Marks,
                 step: float) -> list[Problem]:
    problems = []
    floors, tree = _floor_index(features)
    for f in features:
        if f.type not in SLOPED_TYPES:
            continue
        low, high = slope_ends(f)
        for end, point, claimed, key in (("low", low, f.from_z, "from"),
                                         ("high", high, f.to_z, "to")):
            x, y = point
            if not (0 <= x <= arena.size[0] and 0 <= y <= arena.size[1]):
                continue
            z = _floor_z_indexed(floors, tree, x, y, skip=f)
            if f.type == "ramp" and end == "high" and z < (claimed or 0.0) - step:
                continue        # a jump ramp: its high end may end in a drop
            if abs(z - (claimed or 0.0)) > step + 1e-9:
                problems.append(marks.problem(
                    f"features[{f.index}].{key}",
                    N_("{label} does not join: it claims {key} {claimed:g} but the floor just "
                       "beyond its {end} end, at ({x:.2f}, {y:.2f}), is at {z:g} (more than "
                       "the step height {step:g} apart)").format(
                        label=f.label, key=key, claimed=claimed, end=end, x=x, y=y, z=z,
                        step=step)))
    return problems
