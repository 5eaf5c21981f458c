"""Geometric warnings about an arena (playable but suspicious) and the placement
errors of a scenario's bots, as `bottisota check` reports them.

Each finding carries its spot on the table (`at`, cm) so the preview can mark it.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
import shapely
from shapely.geometry import Point, box

from bottisota.core.arena import FLOOR_TYPES, Arena, Feature
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.formats.arena_checks import floor_z
from bottisota.formats.lint import Finding, finding
from bottisota.formats.yaml_source import Marks

TOUCH = 0.01        # cm: a door this close to a wall is in it


def _where(f: Feature) -> str:
    return f"features[{f.index}]"


def _spot(f: Feature) -> tuple[float, float]:
    p = f.shape.representative_point()
    return (p.x, p.y)


def arena_findings(arena: Arena, marks: Marks, walls_uncut: Sequence[Feature] | None = None
                   ) -> list[Finding]:
    """Every geometric warning of the arena. `walls_uncut` are the walls as drawn,
    before the doors cut them (the loader's arena has them cut)."""
    out: list[Finding] = []
    walls = list(walls_uncut) if walls_uncut is not None else list(arena.by_type("wall"))
    blockers = [f for f in arena.features if f.type in ("wall", "door", "pit")]
    out += _goal_spots(arena, blockers, marks)
    out += _lone_teleporter(arena, marks)
    out += _doors(arena, walls, marks)
    out += _low_walls(arena, walls, marks)
    return out


def _blocker_at(blockers: Iterable[Feature], x: float, y: float) -> Feature | None:
    p = Point(x, y)
    return next((b for b in blockers if b.shape.covers(p)), None)


def _goal_spots(arena: Arena, blockers: list[Feature], marks: Marks) -> list[Finding]:
    out = []
    for goal in arena.by_type("goal"):       # (a goal on a wall or pit is an overlap error)
        for i, (x, y) in enumerate(goal.respawn):
            hit = _blocker_at(blockers, x, y)
            if hit is None:
                continue
            free = _nearest_free(arena, blockers, x, y)
            out.append(finding(
                "W001", marks, f"{_where(goal)}.respawn[{i}]",
                N_("respawn spot ({x:g}, {y:g}) of {label} is inside {label2} (line {line}): "
                   "the marker would move where no bot can reach it").format(
                    x=x, y=y, label=goal.label, label2=hit.label, line=hit.line),
                help=N_("[{v:g}, {v2:g}]   # the nearest open floor").format(
                         v=free[0], v2=free[1]) if free else None,
                at=(x, y)))
    return out


def _nearest_free(arena: Arena, blockers: list[Feature], x: float, y: float
                  ) -> tuple[float, float] | None:
    """The nearest whole-cm point (spiral search) on the table outside every blocker,
    with 2 cm of room."""
    union = shapely.union_all([b.shape for b in blockers]).buffer(1.0)
    for r in range(1, 60):
        best = None
        for k in range(max(8, 6 * r)):
            a = 2 * math.pi * k / max(8, 6 * r)
            px, py = round(x + r * math.cos(a)), round(y + r * math.sin(a))
            if 1 <= px <= arena.size[0] - 1 and 1 <= py <= arena.size[1] - 1 \
                    and not union.covers(Point(px, py)):
                d = math.hypot(px - x, py - y)
                if best is None or d < best[0]:
                    best = (d, (float(px), float(py)))
        if best is not None:
            return best[1]
    return None


def _lone_teleporter(arena: Arena, marks: Marks) -> list[Finding]:
    tps = arena.by_type("teleporter")
    if len(tps) != 1:
        return []
    tp = tps[0]
    c = tp.shape.centroid
    return [finding("W012", marks, _where(tp),
            N_("{label} is the only teleporter: a bot stepping on it has nowhere to go "
               "(R53)").format(
                label=tp.label),
                    help=N_("add a second teleporter, e.g. {{type: teleporter, circle: "
                            "[{v:g}, {v2:g}, 1.5]}}").format(
                             v=arena.size[0] - c.x, v2=arena.size[1] - c.y), at=(c.x, c.y))]


def _doors(arena: Arena, walls: list[Feature], marks: Marks) -> list[Finding]:
    out = []
    tree = shapely.STRtree([w.shape for w in walls])
    for door in arena.by_type("door"):
        x0, y0, x1, y1 = door.shape.bounds       # the walls whose boxes come this close
        close = np.sort(tree.query(box(x0 - TOUCH, y0 - TOUCH, x1 + TOUCH, y1 + TOUCH)))
        near = [w for w in (walls[int(k)] for k in close)
                if w.shape.distance(door.shape) <= TOUCH]
        c = door.shape.centroid
        if not near:
            out.append(finding("W003", marks, _where(door),
                    N_("{label} touches no wall: it stands alone on the floor").format(
                        label=door.label), at=(c.x, c.y),
                               help=N_("draw it in a wall's gap, or over the wall (it cuts it)")))
            continue
        for w in near:
            if door.shape.covers(w.shape):
                out.append(finding("W005", marks, _where(w),
                        N_("{label} lies wholly under {label2}: nothing of the wall is "
                           "left").format(
                            label=w.label, label2=door.label),
                                   at=_spot(w), help=N_("remove the wall")))
    return out


def _low_walls(arena: Arena, walls: list[Feature], marks: Marks) -> list[Finding]:
    out: list[Finding] = []
    floors = [f for f in arena.features if f.type in FLOOR_TYPES]
    if not floors:
        return out
    tree = shapely.STRtree([f.shape for f in floors])
    for w in walls:
        x, y = _spot(w)
        under = np.sort(tree.query(Point(x, y), predicate="covered_by"))
        ground = floor_z([floors[int(k)] for k in under], x, y)    # in arena order
        top = w.height if w.height is not None else 10.0
        if ground > 0 and top <= ground:
            out.append(finding(
                "W004", marks, f"{_where(w)}.height" if w.height is not None else _where(w),
                N_("{label} has its top at {top:g} cm but stands on floor {ground:g} cm high: "
                   "it does not rise above the floor (height is the absolute top)").format(
                    label=w.label, top=top, ground=ground),
                help=N_("height: {ground:g}   # the top, {top:g} cm above this floor").format(
                         ground=ground + top, top=top),
                at=(x, y)))
    return out


# --- scenario placements -----------------------------------------------------------------

def placement_findings(arena: Arena, rules: HouseRules,
                       bots: Sequence[tuple[str, float, float, float, str]],
                       marks: Marks) -> list[Finding]:
    """Errors for scenario bots (id, x, y, base diameter, key path) off the table, in a
    wall or closed door, over a pit, or overlapping another bot."""
    out: list[Finding] = []
    table = box(0, 0, *arena.size)
    walls = [f for f in arena.features if f.type in ("wall", "door")]
    pits = arena.by_type("pit")
    placed: list[tuple[str, Point, float, str]] = []
    for bot_id, x, y, base, path in bots:
        r = base / 2.0
        disc = Point(x, y).buffer(r, 32)
        at = f"{path}.at"
        if not table.covers(disc):
            out.append(finding("E010", marks, at,
                    N_("bot '{bot_id}' at ({x:g}, {y:g}) reaches off the {v:g} x {v2:g} "
                       "table").format(
                        bot_id=bot_id, x=x, y=y, v=arena.size[0], v2=arena.size[1]),
                               help=N_("at: [{x:g}, {y:g}]").format(
                                        x=min(max(x, r), arena.size[0] - r),
                                        y=min(max(y, r), arena.size[1] - r)), at=(x, y)))
            continue
        hit = next((w for w in walls if w.shape.intersection(disc).area > 1e-6), None)
        if hit is not None:
            out.append(finding("E011", marks, at,
                    N_("bot '{bot_id}' at ({x:g}, {y:g}) stands inside {label} (line "
                       "{line})").format(
                        bot_id=bot_id, x=x, y=y, label=hit.label, line=hit.line), at=(x, y)))
        pit = next((p for p in pits if p.shape.covers(Point(x, y))), None)
        if pit is not None:
            out.append(finding("E012", marks, at,
                    N_("bot '{bot_id}' at ({x:g}, {y:g}) stands over {label} (line {line})").format(
                        bot_id=bot_id, x=x, y=y, label=pit.label, line=pit.line), at=(x, y)))
        for other_id, centre, other_r, _ in placed:
            gap = centre.distance(Point(x, y)) - (r + other_r)
            if gap < -1e-6:
                out.append(finding("E013", marks, at,
                        N_("bot '{bot_id}' overlaps bot '{other_id}' by {v:.2f} cm").format(
                            bot_id=bot_id, other_id=other_id, v=-gap), at=(x, y)))
        placed.append((bot_id, Point(x, y), r, path))
    return out
