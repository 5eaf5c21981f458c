"""Field features that move a bot: conveyor belts and escalators at the end of a
move (R44-R46), lifts (R48) and teleporters (R53, D28)."""
from __future__ import annotations

import math

from shapely.geometry import LineString, Point

from bottisota.core.arena import Feature
from bottisota.core.compass import heading as bearing
from bottisota.core.compass import off_angle as angle_between
from bottisota.core.compass import vector
from bottisota.core.i18n import N_
from bottisota.core.limits import beyond, within
from bottisota.engine.events import r2
from bottisota.engine.movement.geometry import (
    EPS,
    discs_overlap,
    doors_reached,
    norm_facing,
    parts_of,
    point_at,
    table_run,
    touching_door,
    wall_collision,
)
from bottisota.engine.movement.physics import Ctx, Pose, forced_line, xy2
from bottisota.engine.movement.placing import check_place
from bottisota.engine.movement.result import PathPoint
from bottisota.engine.state import Bot, GameState

LIFT_SEARCH_STEP = 0.05         # cm between trial landings when driving off a lift
LIFT_RIM_POINTS = 32            # points of the base's rim checked for the landing floor
LOOP_SAMPLE = 0.25              # cm between floor samples of a loop's free space (R14)


# --- belts ------------------------------------------------------------------------

def belt_under(state: GameState, pose: Pose) -> Feature | None:
    """The conveyor or escalator the centre stands on (D17); the later one wins."""
    found = None
    point = Point(pose.x, pose.y)
    for feature in parts_of(state.index).belts:
        if feature.shape.contains(point):
            found = feature
    return found


Leg = tuple[tuple[float, float], tuple[float, float], float]
"""A straight leg of a conveyor: (start, unit direction, length)."""


def _belt_legs(feature: Feature) -> list[Leg]:
    """The straight legs of a conveyor."""
    legs: list[Leg] = []
    for p, q in zip(feature.path, feature.path[1:], strict=False):
        dx, dy = q[0] - p[0], q[1] - p[1]
        n = math.hypot(dx, dy)
        if n > EPS:
            legs.append(((p[0], p[1]), (dx / n, dy / n), n))
    return legs


def _turn_of(a: float, b: float) -> float:
    """Signed turn from facing a to facing b, in (-180, 180]."""
    d = (b - a) % 360.0
    return d - 360.0 if d > 180.0 else d


def carry(ctx: Ctx, bot: Bot, pose: Pose) -> str | None:
    """A ground bot whose centre ends its movement on a belt is carried (R44):
    a conveyor takes it `speed` cm along its path, turning it with the bends; an
    escalator takes it `speed` cm toward `up` (or away, `carries: down`, R46).
    A bot partly off a conveyor whose carry would hit something first slides onto
    the belt, facing along it or against it, whichever is nearer (R45).
    Collisions on the way are tested (D9). Answers what stopped it, if anything."""
    state = ctx.state
    feature = belt_under(state, pose)
    if feature is None or not bot.stats.is_ground:
        return None
    speed = feature.speed if feature.speed is not None else state.rules.belt_speed
    start = pose.xy
    if feature.type == "escalator":
        up = feature.up or 0.0                  # required for an escalator (formats)
        heading = up if feature.carries != "down" else up + 180.0
        ctx.emit({"type": "belt", "bot": bot.id, "feature": feature.label, "from": xy2(*start),
                  "heading": round(norm_facing(heading), 4), "distance": r2(speed)})
        return carried_line(ctx, bot, pose, heading, speed)
    line = LineString(feature.path)
    s = line.project(Point(pose.x, pose.y))
    legs = _belt_legs(feature)
    if not legs:
        return None
    stopped = _slide_onto_belt(ctx, bot, pose, feature, legs, s, speed)
    if stopped is not None:        # the slide itself met something: the carry ends there
        return stopped
    ctx.emit({"type": "belt", "bot": bot.id, "feature": feature.label, "from": xy2(*start),
              "distance": r2(speed)})
    return _ride(ctx, bot, pose, legs, s, speed)


def _ride(ctx: Ctx, bot: Bot, pose: Pose, legs: list[Leg], s: float, speed: float) -> str | None:
    """Carry the bot `speed` cm along the legs from path position s; past the end of
    the path it goes on straight off the belt's end."""
    left = speed
    at = 0.0
    previous_heading = None
    for k, (_, d, n) in enumerate(legs):
        lo, hi = at, (at + n if k < len(legs) - 1 else math.inf)
        at = hi
        if s >= hi - EPS or left <= EPS:
            continue
        heading = bearing(d[0], d[1])
        if previous_heading is not None:
            pose.facing = norm_facing(pose.facing + _turn_of(previous_heading, heading))
        run = min(left, hi - max(s, lo))
        stopped = carried_line(ctx, bot, pose, heading, run)
        if stopped is not None:
            return stopped
        left -= run
        s = max(s, lo) + run
        previous_heading = heading
    return None


def carried_line(ctx: Ctx, bot: Bot, pose: Pose, heading: float, run: float) -> str | None:
    """A straight leg of a belt's or an escalator's carry (D40: movement of the
    carried bot, so watchers may fire at it on the way, R23): carried up to the
    first point where one may fire, fired at there, then carried on."""
    watch = ctx.watch
    if watch is None or not ctx.live or run <= EPS:
        return forced_line(ctx, bot, pose, heading, run, None, None)
    end = point_at(pose.xy, vector(heading), run)
    a = PathPoint(pose.x, pose.y, pose.z, pose.facing)
    b = PathPoint(end[0], end[1], ctx.state.index.floor_z(*end), pose.facing, run)
    t = watch.earliest(ctx.state, bot, a, b)
    if t is None:
        return forced_line(ctx, bot, pose, heading, run, None, None)
    first = run * t
    if first > EPS:
        stopped = forced_line(ctx, bot, pose, heading, first, None, None)
        if stopped is not None:
            return stopped
    placed = (bot.x, bot.y)
    ctx.events.extend(watch.fire(ctx.state, bot, PathPoint(pose.x, pose.y, pose.z,
                                                            pose.facing)))
    if bot.destroyed:
        return "destroyed"
    if (bot.x, bot.y) != placed:                # flung by the fire: the carry is over
        return "flung"
    return carried_line(ctx, bot, pose, heading, run - first)


def _leg_at(legs: list[Leg], s: float) -> tuple[Leg, float]:
    at = 0.0
    for leg in legs:
        if s <= at + leg[2] + EPS:
            return leg, s - at
        at += leg[2]
    return legs[-1], legs[-1][2]


def _slide_onto_belt(ctx: Ctx, bot: Bot, pose: Pose, feature: Feature, legs: list[Leg], s: float,
                     speed: float) -> str | None:
    """R45: a bot partly off the belt whose carry would hit an obstacle slides
    sideways onto the belt and faces along (or against) the travel. The slide is
    a forced move like any other (D9): what stops it is answered, and the carry
    then ends there."""
    r = bot.radius
    if feature.shape.contains(Point(pose.x, pose.y).buffer(r)):
        return None
    trial = Ctx(ctx.state, live=False)
    probe = Pose(pose.x, pose.y, pose.z, pose.facing)
    if _ride(trial, bot, probe, legs, s, speed) not in ("wall", "bot", "cliff"):
        return None
    (p, d, _), along = _leg_at(legs, s)
    centre = point_at(p, d, along)
    off = (pose.x - centre[0], pose.y - centre[1])
    side = off[0] * -d[1] + off[1] * d[0]          # signed offset to the left of travel
    room = max(0.0, (feature.width or 0.0) / 2.0 - r)
    side = max(-room, min(room, side))
    to = (centre[0] - d[1] * side, centre[1] + d[0] * side)
    travel = bearing(d[0], d[1])
    along_facing = travel if angle_between(pose.facing, travel) <= 90.0 else travel + 180.0
    ctx.emit({"type": "belt", "bot": bot.id, "feature": feature.label, "slide": True,
              "to": xy2(*to), "facing": round(norm_facing(along_facing), 4)})
    gap = math.hypot(to[0] - pose.x, to[1] - pose.y)
    stopped = None
    if gap > EPS:           # the slide is a move too: it meets bots and walls on the way (D9)
        stopped = forced_line(ctx, bot, pose, bearing(to[0] - pose.x, to[1] - pose.y), gap,
                              None, None)
    if ctx.live and bot.destroyed:
        return stopped or "destroyed"
    pose.facing = norm_facing(along_facing)
    ctx.place(bot, pose, forced=True)
    return stopped


# --- lifts ------------------------------------------------------------------------

def lift_car_under(state: GameState, pose: Pose) -> Feature | None:
    """The lift car the centre stands in."""
    point = Point(pose.x, pose.y)
    for feature in parts_of(state.index).lifts:
        if feature.shape.contains(point):
            return feature
    return None


def _whole_base_at(state: GameState, x: float, y: float, r: float, z: float) -> bool:
    index = state.index
    if abs(index.floor_z(x, y) - z) > EPS:
        return False
    for k in range(LIFT_RIM_POINTS):
        ang = 2.0 * math.pi * k / LIFT_RIM_POINTS
        if abs(index.floor_z(x + r * math.cos(ang), y + r * math.sin(ang)) - z) > 1e-6:
            return False
    return index.disc_blocked(x, y, r, doors=False,
                               tolerance=state.rules.contact_tolerance) is None


def lift_landing(
    state: GameState, bot: Bot, pose: Pose, car: Feature
) -> tuple[float, float] | None:
    """Where a bot riding the car up drives off (R48): straight ahead along its
    facing to the first spot where its whole base is on floor of height `top`,
    no further than one base diameter from the car; None when there is none."""
    r = bot.radius
    d = vector(pose.facing)
    top = car.top if car.top is not None else 0.0
    reach = bot.card.base
    s = 0.0
    previous = 0.0
    while True:
        x, y = point_at(pose.xy, d, s)
        if car.shape.distance(Point(x, y)) > reach + EPS:
            return None
        if _whole_base_at(state, x, y, r, top):
            lo, hi = previous, s
            for _ in range(40):
                mid = (lo + hi) / 2.0
                mx, my = point_at(pose.xy, d, mid)
                if _whole_base_at(state, mx, my, r, top):
                    hi = mid
                else:
                    lo = mid
            return point_at(pose.xy, d, hi)
        previous = s
        s += LIFT_SEARCH_STEP


def lift_car_touched(state: GameState, bot: Bot, pose: Pose) -> Feature | None:
    """The lift car whose landing the bot is on and whose car its base touches (R48)."""
    for feature in parts_of(state.index).lifts:
        top = feature.top if feature.top is not None else 0.0
        if beyond(abs(pose.z - top), state.rules.step_height):
            continue
        if within(feature.shape.distance(Point(pose.x, pose.y)),
                  bot.radius + state.rules.contact_tolerance):
            return feature
    return None


# --- loops -----------------------------------------------------------------------

def loop_blocker(state: GameState, bot: Bot, pose: Pose, space: float) -> str | None:
    """What takes away the free space a loop needs ahead (R14): the table's end, a
    wall, a closed door or a floor higher than the bot's own (more than a step)
    within the strip of its base width; None when the space is free."""
    index = state.index
    a = pose.xy
    d = vector(pose.facing)
    r = bot.radius
    ahead = point_at(a, d, space)
    if table_run(a, d, space, r, state.arena.size) < space - 1e-6:
        return N_("the table ends")
    contact = wall_collision(index, a, ahead, r, state.rules.contact_tolerance)
    if contact is not None:
        return N_("{label} is in the way at {v:.1f}, {v2:.1f}").format(
                   label=contact.feature.label, v=contact.point[0], v2=contact.point[1])
    tol = state.rules.contact_tolerance
    for _, door in doors_reached(parts_of(state.index), a, ahead, r):
        if (door.id or f"#{door.index}") in state.held_open:      # the referee holds it open
            continue
        if not any(o.on_table and touching_door(door, o.x, o.y, o.radius, tol)
                   for o in state.bots.values()):
            return N_("the closed {label} is in the way").format(label=door.label)
    side = (d[1], -d[0])
    n = max(1, int(math.ceil((space + r) / LOOP_SAMPLE)))
    for k in range(n + 1):
        for off in (-r, 0.0, r):
            reach = space + (r if off == 0.0 else 0.0)
            x, y = point_at(point_at(a, side, off), d, reach * k / n)
            if index.floor_z(x, y) > pose.z + state.rules.step_height + EPS:
                return N_("higher floor at {x:.1f}, {y:.1f}").format(x=x, y=y)
    return None


# --- teleporters ------------------------------------------------------------------

def free_teleporters(state: GameState, mover: Bot, source: Feature) -> list[Feature]:
    """Teleporters other than the source that no other base overlaps, and where the
    arriving base may stand as if set up there (R53 "free", docs/decisions.md R53):
    wholly on the table, in no wall, overlapping no base on its level (D4), a
    ground bot in no pit (R36) and with no part under a higher floor (D29); in
    arena order."""
    free = []
    for feature in parts_of(state.index).teleporters:
        if feature.index == source.index:
            continue
        taken = False
        for other in state.bots.values():
            if not other.on_table or other.id == mover.id:
                continue
            if feature.shape.distance(Point(other.x, other.y)) < other.radius - 1e-6:
                taken = True
                break
        x, y = teleporter_centre(feature)
        if not taken and check_place(state, mover, x, y, doors=False) is None:
            free.append(feature)
    return free


def teleporter_centre(feature: Feature) -> tuple[float, float]:
    c = feature.shape.centroid
    return (c.x, c.y)


def overlaps_bot(state: GameState, bot: Bot, x: float, y: float) -> Bot | None:
    """Another bot on the table whose base the bot's base would overlap there beyond
    the contact tolerance (D4: touching is no overlap)."""
    for other in state.bots.values():
        if other.on_table and other.id != bot.id and \
                discs_overlap(x, y, bot.radius, other.x, other.y, other.radius,
                              state.rules.contact_tolerance) and \
                abs(other.z - state.index.floor_z(x, y)) < max(other.card.height, bot.card.height):
            return other
    return None
