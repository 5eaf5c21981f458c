"""What happens to a bot that hits something, drops or is thrown: collision tests
(D9-D11, R13, R16, R17), pits (R36), falls and landing on a bot (R39, R40),
and forced straight motion (beams R29, knock-back R40, belts R44-R46).

Everything runs in a `Ctx`: live (rolls `state.dice` and applies the events)
or preview (no dice, nothing changed; predicted events only).
"""
from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np
from shapely import STRtree
from shapely.geometry import Point
from shapely.geometry.base import BaseGeometry

from bottisota.core.arena import Feature
from bottisota.core.compass import heading as bearing
from bottisota.core.compass import vector
from bottisota.core.i18n import N_
from bottisota.core.limits import LIMIT_TOLERANCE, beyond, within
from bottisota.engine.damage import deal_damage, destroy, take_hits
from bottisota.engine.event_types import FallEvent
from bottisota.engine.events import Event, apply_event, bot_moved_event, r2
from bottisota.engine.mines import mine_strike
from bottisota.engine.movement.cliff_contact import LineUnder
from bottisota.engine.movement.geometry import (
    EPS,
    bot_collision,
    bounds_of,
    disc_contact,
    doors_reached,
    on_table,
    parts_of,
    point_at,
    table_run,
    wall_collision,
)
from bottisota.engine.movement.result import FlingResult, PathPoint
from bottisota.engine.movement.steps import is_sturdy
from bottisota.engine.state import Bot, GameState, Mine
from bottisota.geometry.arena_index import FAST_PATHS, ArenaIndex, EdgeCrossing
from bottisota.geometry.cliffs import CliffLines, cliff_lines
from bottisota.geometry.surfaces import Surface
from bottisota.geometry.sweep import segment

D6_FACES = 6                    # a die's faces, for the range of a fall's damage in a preview
# What stopped a straight piece of a move, as the stop's kind says: a wall's, pit's or
# teleporter's Feature, a Bot, a floor's EdgeCrossing, the label of a cliff whose face the
# base met, or nothing (the piece ran its length or left the table)
Stopper = Feature | Bot | EdgeCrossing | str | None
LANDING_ANGLE = 5.0             # degrees between trial spots of a faller's resting place
LANDING_RING = 0.05             # cm between rings of trial spots around where it fell
LANDING_SEARCH = 8.0            # cm: the farthest trial ring
LANDING_STEP = 0.05             # cm between trial points straight on past the edge
LEVEL_STEP = 0.05               # cm between floor samples where bases overlap on two levels
UNDER_STEP = 0.25               # cm between samples of a base meeting a cliff's face
UNDER_RAYS = 32                 # rays from a base's centre searched for a cliff edge under it
CROSS_GUARD = 1e-6              # cm: a centre this near a cliff edge's line is searched in full
PARAM_GUARD = 1e-11             # a crossing this near an end of a ray or edge (as a fraction of
                                # its length) is searched in full
WELL_CROSSED = 1e-2             # sine under which a ray and a cliff edge cross too flat to solve
LANDING_REACH = 4.0             # radii: how far straight on a faller may come to rest


@dataclass
class Pose:
    """Where a bot (or its ghost) stands: full precision, independent of the state."""

    x: float
    y: float
    z: float
    facing: float

    @classmethod
    def of(cls, bot: Bot) -> Pose:
        return cls(bot.x, bot.y, bot.z, bot.facing)

    @property
    def xy(self) -> tuple[float, float]:
        return (self.x, self.y)


class Interrupt(Protocol):
    """Fire during a move (overwatch, R23); engine/overwatch.py implements it."""

    def earliest(self, state: GameState, mover: Bot, a: PathPoint, b: PathPoint) -> float | None:
        """t in [0, 1] on the straight piece a->b where a watcher may fire, or None."""

    def fire(self, state: GameState, mover: Bot, at: PathPoint) -> list[Event]:
        """Fire at the mover standing at `at`; may destroy it."""


@dataclass
class Ctx:
    """A walk in progress: live (dice rolled, events applied) or a preview."""

    state: GameState
    live: bool
    events: list[Event] = field(default_factory=list)
    trail: list[PathPoint] | None = None    # poses of `trail_bot` as it is placed
    trail_bot: str | None = None
    watch: Interrupt | None = None          # D40: watchers of a carried bot's carry

    def emit(self, event: Event) -> Event:
        """Record an event; a live walk applies it to the state too."""
        if self.live:
            apply_event(self.state, event)
        self.events.append(event)
        return event

    def place(self, bot: Bot, pose: Pose, spent: float = 0.0, forced: bool = False,
              teleported: bool = False) -> None:
        """Put the bot at the pose (a `bot_moved` event)."""
        self.emit(bot_moved_event(bot, pose.x, pose.y, pose.z, pose.facing, spent,
                                  forced, teleported))
        if self.trail is not None and bot.id == self.trail_bot:
            self.trail.append(PathPoint(pose.x, pose.y, pose.z, pose.facing))

    def blockers(self, bot: Bot, z: float) -> list[Bot]:
        """Other bots on the table that a base at floor height z bumps into
        (bases on the same level: floors closer than the figure height)."""
        return [o for o in self.state.bots.values()
                if o.on_table and o.id != bot.id and same_level(bot, z, o)]

    def bots_in_way(self, bot: Bot, a: tuple[float, float], d: tuple[float, float],
                    length: float, z0: float) -> list[tuple[float, Bot]]:
        """Where a ground base going `length` cm from a along d (floor z0 at a) first
        collides with each other bot (D4, D9), as (distance, bot). The level is
        taken where the bases meet, not where the move began: a base climbing a
        ramp or escalator meets the bots standing higher up it (and one passing a
        bot on another level collides only where their figures come to share a
        level along the slope, stopping just before; past an edge it falls)."""
        tol = self.state.rules.contact_tolerance
        index = self.state.index
        found: list[tuple[float, Bot]] = []
        for other in self.state.bots.values():
            if not other.on_table or other.id == bot.id:
                continue
            reach = bot.radius + other.radius
            s = bot_collision(a, d, length, other.pos, reach, tol)
            if s is None:
                continue
            z = z0 if s <= EPS else index.floor_z(*point_at(a, d, s))
            if same_level(bot, z, other):
                found.append((s, other))
                continue
            end = min(length, overlap_exit(a, d, other.pos, reach - tol))
            b = point_at(a, d, length)   # beyond an edge it falls (R39, R40): no ramming there
            end = min([end] + [c.distance for c in
                               index.edge_crossings(a, b, self.state.rules.step_height)])
            previous = s
            k = 1
            while previous < end - EPS:
                t = min(end, s + k * LEVEL_STEP)
                if same_level(bot, index.floor_z(*point_at(a, d, t)), other):
                    lo, hi = previous, t
                    for _ in range(30):
                        mid = (lo + hi) / 2.0
                        if same_level(bot, index.floor_z(*point_at(a, d, mid)), other):
                            hi = mid
                        else:
                            lo = mid
                    found.append((lo, other))
                    break
                previous, k = t, k + 1
        return found


def same_level(bot: Bot, z: float, other: Bot) -> bool:
    """A base on floor z and another bot's are on one level: their floors are closer
    than the taller figure (D3), so their bases can collide (D9)."""
    return abs(other.z - z) < max(other.card.height, bot.card.height)


def overlap_exit(a: Sequence[float], d: Sequence[float], c: Sequence[float],
                 reach: float) -> float:
    """Distance along the unit d from a at which a disc stops overlapping a disc at c
    (sum of radii `reach`); 0 when it never overlaps ahead."""
    fx, fy = a[0] - c[0], a[1] - c[1]
    fd = fx * d[0] + fy * d[1]
    disc = fd * fd - (fx * fx + fy * fy - reach * reach)
    return max(0.0, -fd + math.sqrt(disc)) if disc > 0.0 else 0.0


def xy2(x: float, y: float) -> list[float]:
    return [r2(x), r2(y)]


# --- collisions ------------------------------------------------------------------

def collision(ctx: Ctx, mover: Bot, pose: Pose, other: Bot | None, wall: str | None,
              crash: bool = False, mover_by: str | None = None,
              other_by: str | None = None) -> None:
    """A collision (D9, D10): every bot in it takes the collision test, the mover
    first; a flier's crash into a wall (R13) uses the crash numbers. A wheeled or
    tracked party re-rolls its first failed test unless the other party is
    wheeled or tracked too (R17)."""
    rules = ctx.state.rules
    hits = rules.flier_crash_hits if crash else rules.collision_hits
    mod = rules.flier_crash_armour_mod if crash else rules.collision_armour_mod
    what = other.id if other is not None else wall
    if crash:
        ctx.emit({"type": "crash", "bot": mover.id, "with": what,
                  "at": xy2(pose.x, pose.y), "hits": hits, "armour_mod": mod})
    else:
        ctx.emit({"type": "collision", "bot": mover.id, "with": what,
                  "at": xy2(pose.x, pose.y), "hits": hits, "armour_mod": mod})
    if not ctx.live:
        return
    parties: list[tuple[Bot, Bot | None, str | None]] = [(mover, other, mover_by)]
    if other is not None:
        parties.append((other, mover, other_by))
    cause = "crash" if crash else "collision"
    for bot, against, by in parties:
        if bot.destroyed:
            continue
        count = ctx.state.dice.roll(hits,
                N_("{cause}: {id} hits against {v}").format(
                    cause=cause, id=bot.id, v=what if bot is mover else mover.id))
        reroll = bool(rules.sturdy_reroll) and is_sturdy(bot) and not is_sturdy(against)
        ctx.events.extend(take_hits(ctx.state, bot, count, mod, cause, by=by,
                                    reroll_first_failure=reroll))


def pit(ctx: Ctx, bot: Bot, pose: Pose, feature_label: str, by: str | None) -> None:
    """A ground bot whose centre enters a pit is destroyed at once (R36)."""
    ctx.emit({"type": "pit", "bot": bot.id, "at": xy2(pose.x, pose.y), "feature": feature_label})
    if ctx.live:
        ctx.events.extend(destroy(ctx.state, bot, "pit", by))
    else:
        ctx.events.append({"type": "destroyed", "bot": bot.id, "cause": "pit", "by": by})


def fall_damage_range(drop: float) -> list[int]:
    """Least and most damage of a fall (R39): drop - d6, at least 0."""
    return [max(0, math.floor(drop - D6_FACES + EPS)), max(0, math.floor(drop - 1 + EPS))]


def fall(ctx: Ctx, bot: Bot, pose: Pose, drop: float, by: str | None,
         result: FlingResult | None = None, heading: float | None = None) -> None:
    """A ground bot falls off an edge it has just crossed (R39). It first comes to
    rest clear of the cliff (`landing_spot`, docs/decisions.md R39): no fall ends
    under a higher floor. It takes drop - d6 damage (whole points, rounded down,
    at least 0), no armour test; the drop is measured to where it lands. If its
    base lands on a bot below, that bot is knocked back until clear and takes the
    same damage with an armour test at `fall_armour_mod_below` against each point
    (R40); a faller that still overlaps a bot then (a wall behind the bot below)
    rests at the nearest free spot beside it."""
    rules = ctx.state.rules
    top = pose.z + drop
    spot = landing_spot(ctx, bot, pose, heading)
    if spot is not None and (abs(spot[0] - pose.x) > EPS or abs(spot[1] - pose.y) > EPS):
        pose.x, pose.y = spot
        pose.z = ctx.state.index.floor_z(*spot)
        ctx.place(bot, pose, forced=True)
    drop = max(0.0, top - pose.z)
    tol = rules.contact_tolerance
    below = [o for o in ctx.blockers(bot, pose.z)
             if math.hypot(o.x - pose.x, o.y - pose.y) < o.radius + bot.radius - tol - 1e-9]
    below.sort(key=lambda o: (math.hypot(o.x - pose.x, o.y - pose.y), o.id))
    event: FallEvent = {"type": "fall", "bot": bot.id, "at": xy2(pose.x, pose.y), "drop": r2(drop),
                    "lands_on": [o.id for o in below]}
    damage = 0
    if ctx.live:
        roll = ctx.state.dice.d6(
                N_("fall: {id} drops {drop:g} cm, takes drop - d6 (R39)").format(
                    id=bot.id, drop=drop))
        damage = max(0, math.floor(drop - roll + EPS))
        event["roll"] = roll
        event["damage"] = damage
    else:
        event["damage_range"] = fall_damage_range(drop)
    ctx.emit(event)
    if result is not None:
        result.fall = {"drop": r2(drop), "damage_range": fall_damage_range(drop),
                       "lands_on": [o.id for o in below]}
    if ctx.live:
        ctx.events.extend(deal_damage(ctx.state, bot, damage, "fall", by))
    if ctx.state.index.features_at(pose.x, pose.y, ["pit"]) and not (ctx.live and bot.destroyed):
        feature = ctx.state.index.features_at(pose.x, pose.y, ["pit"])[0]
        pit(ctx, bot, pose, feature.label, by)
    landed: dict[str, Pose] = {}
    for other in below:
        dist = math.hypot(other.x - pose.x, other.y - pose.y)
        away = bearing(other.x - pose.x, other.y - pose.y) if dist > EPS else pose.facing
        clearance = other.radius + bot.radius - dist
        ctx.emit({"type": "knocked_back", "bot": other.id, "by_fall_of": bot.id,
                  "heading": round(away, 4), "distance": r2(clearance)})
        landed[other.id] = Pose.of(other)
        forced_line(ctx, other, landed[other.id], away, clearance, by, None)
        if ctx.live and not other.destroyed:
            ctx.events.extend(take_hits(ctx.state, other, damage, rules.fall_armour_mod_below,
                                        N_("fallen on"), by=by))
    if below and _overlapping(ctx, bot, pose, landed):
        _slide_off(ctx, bot, pose, landed)


def floors_near(index: ArenaIndex, a: Sequence[float], b: Sequence[float],
                reach: float) -> list[Surface]:
    """The floor surfaces whose regions come within `reach` of the segment a-b (or the
    point a when b is a), from a tree over the floors built once per compiled arena."""
    tree, floors = index.cached(("movement", "floor tree"), lambda: (
        STRtree([f.region for f in index.floors]), list(index.floors)))
    shape = Point(a[0], a[1]) if (a[0], a[1]) == (b[0], b[1]) else \
        segment(float(a[0]), float(a[1]), float(b[0]), float(b[1]))
    return [floors[int(i)] for i in sorted(tree.query(shape, predicate="dwithin",
                                                      distance=reach))]


def top_within(surface: Surface, x: float, y: float, reach: float) -> float:
    """The highest a surface stands within `reach` of (x, y) (along a slope's rise)."""
    if not surface.sloped:
        return surface.top
    return max(surface.z_at(x + surface.ux * reach, y + surface.uy * reach),
               surface.z_at(x - surface.ux * reach, y - surface.uy * reach))


def _higher_floor_near(state: GameState, x: float, y: float, reach: float, z: float) -> bool:
    """A floor higher than z by more than a step (D16) comes within `reach` of (x, y)."""
    rules = state.rules
    index = state.index
    tops, boxes = _floor_boxes(index)
    near = np.flatnonzero((tops > z + rules.step_height + EPS)
                          & (x >= boxes[:, 0] - reach) & (x <= boxes[:, 2] + reach)
                          & (y >= boxes[:, 1] - reach) & (y <= boxes[:, 3] + reach))
    if not len(near):
        return False
    point = Point(x, y)
    floors = index.floors
    return any(floors[k].region.distance(point) < reach for k in near.tolist())


def _beside_higher(state: GameState, x: float, y: float, z: float) -> bool:
    """The floor just beside the centre (1e-6 cm away along a ray) is higher than a step:
    the centre is on a cliff's edge."""
    rays = _rays()
    beside = state.index.floor_z_many([x + dx * 1e-6 for dx, _ in rays],
                                      [y + dy * 1e-6 for _, dy in rays])
    return any(zb > z + state.rules.step_height + EPS for zb in beside)


def _rims(x: float, y: float, reach: float) -> list[tuple[float, float]]:
    return [(x + dx * reach, y + dy * reach) for dx, dy in _rays()]


def _up_crossing(state: GameState, x: float, y: float, rim: tuple[float, float]) -> bool:
    """The centre's ray to `rim` crosses an edge up by more than a step (D16)."""
    return any(c.z_after > c.z_before
               for c in state.index.edge_crossings((x, y), rim, state.rules.step_height))


def under_higher_floor_reference(state: GameState, x: float, y: float, r: float, z: float,
                                 strict: bool = False) -> bool:
    """`under_higher_floor` the slow way (every ray that meets a floor is followed): the
    reference the fast answer is tested against."""
    rules = state.rules
    reach = r - (0.0 if strict else rules.contact_tolerance) - 1e-9
    if reach <= 0.0:
        return False
    if not _higher_floor_near(state, x, y, reach, z):
        return False
    if _beside_higher(state, x, y, z):
        return True                       # the centre is on the edge, the higher floor that way
    rims = _rims(x, y, reach)
    return any(_up_crossing(state, x, y, rims[k])
               for k in state.index.segments_meeting_floors((x, y), rims))


def under_higher_floor(state: GameState, x: float, y: float, r: float, z: float,
                       strict: bool = False) -> bool:
    """Part of a base at (x, y) on floor z lies under a floor higher by more than a
    step (D16) beyond the contact tolerance (D4; at all when `strict`): across a
    real edge (a cliff's foot) it may not rest in. A floor reached without an edge
    (along stairs, a ramp or an escalator) does not count. Searched along UNDER_RAYS
    rays from the centre; only the rays that meet one of the arena's cliff edges on
    its lower side (`cliff_lines`) are followed (the answer is the reference's)."""
    rules = state.rules
    reach = r - (0.0 if strict else rules.contact_tolerance) - 1e-9
    if reach <= 0.0:
        return False
    lines = cliff_lines(state.index, rules.step_height)
    pieces = lines.near_segment((x, y), (x, y), reach)
    if _maybe_beside(state, lines, pieces, x, y, z):
        if not _higher_floor_near(state, x, y, reach, z):
            return False
        if _beside_higher(state, x, y, z):
            return True
    if not len(pieces):
        return False
    pieces, _ = lines.facing_point(x, y, reach, pieces)
    if not len(pieces):
        return False
    return (_under_facing(state, lines, pieces, x, y, reach)
            and _higher_floor_near(state, x, y, reach, z))


def _maybe_beside(state: GameState, lines: CliffLines, pieces: np.ndarray, x: float, y: float,
                  z: float) -> bool:
    """The floor just beside the centre may be higher than z by more than a step: the
    centre's own floor nearly is (z is not always the floor under the centre), or a
    cliff edge passes within 1e-5 cm of it."""
    if state.index.floor_z(x, y) > z + state.rules.step_height + EPS - 1e-6:
        return True
    if not len(pieces) or lines.boxes_clear(x, y, pieces.tolist(), 2e-5):
        return False                        # (every piece surely farther than 1e-5 cm)
    return lines.nearest(x, y, pieces) < 1e-5


def _under_facing(state: GameState, lines: CliffLines, pieces: np.ndarray,
                  x: float, y: float, reach: float) -> bool:
    """The ray search of `under_higher_floor` limited to the cliff pieces the centre
    faces from their lower side."""
    rims = _rims(x, y, reach)
    meet, ts, us = lines.rays_meeting(x, y, np.array(rims, dtype=float), pieces)
    step = state.rules.step_height
    exact: dict[int, float] = {}            # rays only the full edge search can answer
    for k, j in zip(*np.nonzero(meet), strict=True):
        k, j = int(k), int(j)
        if k in exact:
            continue
        t = float(ts[k, j])
        up = _crossing_up(lines, int(pieces[j]), x, y, rims[k], t, float(us[k, j]), reach, step)
        if up is None:
            exact[k] = _rise_at(lines, int(pieces[j]), x, y, rims[k], t)
        elif up:
            return True
    # each ray's answer is its own: the likeliest to go up are asked first
    return any(_up_crossing(state, x, y, rims[k])
               for k in sorted(exact, key=lambda k: (-exact[k], k)))


def _rise_at(lines: CliffLines, piece: int, x: float, y: float, rim: tuple[float, float],
             t: float) -> float:
    """How much higher the far side of a clean cliff piece stands where the ray from
    (x, y) to `rim` meets its line (t along the ray), to order the rays searched in
    full (0 where the piece's sides are not known)."""
    sides = lines.sides[piece]
    if sides is None or not math.isfinite(t):
        return 0.0
    x0, y0, _, _, nx, ny = lines.plain[piece]
    side = (x - x0) * nx + (y - y0) * ny
    px, py = x + (rim[0] - x) * t, y + (rim[1] - y) * t
    plus, minus = sides
    z_plus = 0.0 if plus is None else plus.z_at(px, py)
    z_minus = 0.0 if minus is None else minus.z_at(px, py)
    return float(z_plus - z_minus if side < 0.0 else z_minus - z_plus)


def _crossing_up(lines: CliffLines, piece: int, x: float, y: float, rim: tuple[float, float],
                 t: float, u: float, reach: float, step: float) -> bool | None:
    """The ray from (x, y) to `rim` crosses cliff piece `piece` going up by more than a
    step (what `edge_crossings` reports there), or None where only the full search can
    tell: near an end of the piece or of the ray, nearly along it, with the centre on
    its line, or where its sides vary."""
    sides = lines.sides[piece]
    x0, y0, x1, y1, nx, ny = lines.plain[piece]     # the arrays' values, as plain floats
    length = math.hypot(x1 - x0, y1 - y0)
    if sides is None or not (math.isfinite(t) and math.isfinite(u)):
        return None
    ex, ey = x1 - x0, y1 - y0
    sine = abs(ex * (rim[1] - y) - ey * (rim[0] - x)) / (length * reach)
    if sine < WELL_CROSSED:
        return None                         # nearly along the piece: its ends decide
    if not (PARAM_GUARD < u < 1.0 - PARAM_GUARD and PARAM_GUARD < t < 1.0 - PARAM_GUARD):
        return None                         # at an end of the piece or of the ray
    side = (x - x0) * nx + (y - y0) * ny
    if abs(side) <= CROSS_GUARD:
        return None
    px, py = x + (rim[0] - x) * t, y + (rim[1] - y) * t
    plus, minus = sides
    z_plus = 0.0 if plus is None else plus.z_at(px, py)
    z_minus = 0.0 if minus is None else minus.z_at(px, py)
    before, after = (z_minus, z_plus) if side < 0.0 else (z_plus, z_minus)
    if abs(abs(before - after) - (step + EPS)) <= CROSS_GUARD:
        return None                         # too near the step itself to answer here
    return abs(before - after) > step + EPS and after > before


def higher_floor_reached_reference(state: GameState, bot: Bot, a: tuple[float, float],
                                   d: tuple[float, float], length: float, z0: float,
                                   also: tuple[float, ...] = ()) -> tuple[float, str] | None:
    """`higher_floor_reached` the slow way (every sample searched in full): the
    reference the fast answer is tested against."""
    return _first_under(state, bot, a, d, length, z0, also, fast=False)


def higher_floor_reached(state: GameState, bot: Bot, a: tuple[float, float],
                         d: tuple[float, float], length: float, z0: float,
                         also: tuple[float, ...] = (),
                         matters: Callable[[float], bool] | None = None
                         ) -> tuple[float, str] | None:
    """Where a ground base going `length` cm from a along d (floor z0 at a) first
    comes under a floor higher by more than a step across a real edge, beyond the
    contact tolerance (D4, D16; docs/decisions.md D29): (distance, that floor's
    label), or None. A cliff's face stops a base as a wall does; a base that
    already stands so (set up before this rule) may move on. Sampled every
    UNDER_STEP cm and at the distances in `also`, then bisected; only the samples
    where the base comes within reach of a cliff edge (`cliff_lines`, tested once
    against the whole swept path) on its lower side are searched.

    `matters` (True up to some distance, then False) says which answers the caller
    can use: the search stops, answering None, once the face surely lies where it
    is False (the walk refuses a step only for a face before where the piece stops)."""
    return _first_under(state, bot, a, d, length, z0, also, fast=True, matters=matters)


def _first_under(state: GameState, bot: Bot, a: tuple[float, float],
                 d: tuple[float, float], length: float, z0: float,
                 also: tuple[float, ...], fast: bool,
                 matters: Callable[[float], bool] | None = None) -> tuple[float, str] | None:
    """The search of `higher_floor_reached`, fast (cliff edges first) or as the reference.
    The face found is never nearer than the last sample or bisection bound known to be
    clear, so once `matters` is False there the answer could not be used."""
    rules = state.rules
    index = state.index
    r = bot.radius
    reach = r - rules.contact_tolerance - 1e-9
    if reach <= 0.0 or length <= EPS or (matters is not None and not matters(0.0)):
        return None
    b = point_at(a, d, length)
    lines = cliff_lines(index, rules.step_height)
    pieces = lines.near_segment(a, b, reach) if fast else np.zeros(0, dtype=np.intp)
    if fast and not len(pieces):
        return None
    lowest = min(z0, index.floor_z(*b))
    near = [f for f in floors_near(index, a, b, reach)
            if f.top > lowest + rules.step_height + EPS]
    test = under_higher_floor if fast else under_higher_floor_reference
    if not near or test(state, a[0], a[1], r, z0):
        return None

    def near_higher(x: float, y: float, z: float) -> bool:
        point = Point(x, y)
        return any(top_within(f, x, y, reach) > z + rules.step_height + EPS
                   and f.region.distance(point) < reach for f in near)

    closed_form: list[LineUnder] = []      # built when first asked (cliff_contact)
    near_ids = {f.feature.index for f in near}

    def sure_under(s: float) -> bool | None:
        if not FAST_PATHS.on:
            return None
        if not closed_form:
            closed_form.append(LineUnder(index, lines, _rays(), a, d, length, reach,
                                         rules.step_height, None,
                                         lambda f: f.feature.index in near_ids))
        return closed_form[0].decide(s)

    def under(s: float) -> bool:
        x, y = point_at(a, d, s)
        if not fast:
            z = index.floor_z(x, y)
            return near_higher(x, y, z) and under_higher_floor_reference(state, x, y, r, z)
        sure = sure_under(s)
        if sure is not None:
            return sure
        z = index.floor_z(x, y)
        if _maybe_beside(state, lines, pieces, x, y, z):
            if not (near_higher(x, y, z) and _higher_floor_near(state, x, y, reach, z)):
                return False
            if _beside_higher(state, x, y, z):
                return True
        facing, _ = lines.facing_point(x, y, reach, pieces)
        if not len(facing):
            return False
        return (_under_facing(state, lines, facing, x, y, reach)     # the cheap search first
                and near_higher(x, y, z) and _higher_floor_near(state, x, y, reach, z))

    n = max(1, math.ceil(length / UNDER_STEP))
    marks = sorted({length * k / n for k in range(1, n + 1)}
                   | {t for t in also if EPS < t <= length})
    may: list[bool]
    if fast:                                # only samples near a cliff edge's lower side
        pts = [point_at(a, d, s) for s in marks]
        near_cliff = lines.facing(np.array([p[0] for p in pts]),
                                  np.array([p[1] for p in pts]), reach, pieces)
        may = [bool(v) for v in np.asarray(near_cliff.any(axis=1)).tolist()]
    else:
        may = [True] * len(marks)
    previous = 0.0
    for s, maybe in zip(marks, may, strict=True):
        if matters is not None and not matters(previous):
            return None                     # any face lies at or beyond `previous`
        if maybe and under(s):
            lo, hi = previous, s
            for _ in range(40):
                mid = (lo + hi) / 2.0
                if under(mid):
                    hi = mid
                else:
                    lo = mid
                    if matters is not None and not matters(lo):
                        return None         # the face lies beyond lo
            point = Point(*point_at(a, d, lo))
            face = min(near, key=lambda f: f.region.distance(point))
            return lo, face.label
        previous = s
    return None


def _rays() -> list[tuple[float, float]]:
    """The UNDER_RAYS directions searched from a base's centre for a cliff edge."""
    if not _RAYS:
        _RAYS.extend(vector(k * 360.0 / UNDER_RAYS) for k in range(UNDER_RAYS))
    return _RAYS


_RAYS: list[tuple[float, float]] = []


def _floor_boxes(index: ArenaIndex) -> tuple[np.ndarray, np.ndarray]:
    """Every floor's top and the bounding box of its region (later floors cut out),
    as arrays in floor order: the floors that may lie under a base are found by one
    array test (the `may_meet` test of each)."""
    def build() -> tuple[np.ndarray, np.ndarray]:
        tops = np.array([s.top for s in index.floors], dtype=float)
        boxes = np.array([bounds_of(s.region) for s in index.floors],
                         dtype=float).reshape(-1, 4)
        return tops, boxes
    return index.cached(("movement", "floor-boxes"), build)


def _rest_ok(ctx: Ctx, bot: Bot, x: float, y: float, z: float) -> bool:
    """A base may come to rest at (x, y) on floor z: on the table, no wall and no
    higher floor under any of it (bots are not looked at)."""
    state = ctx.state
    r = bot.radius
    if not on_table(x, y, r, state.arena.size):
        return False
    if abs(state.index.floor_z(x, y) - z) > state.rules.step_height + EPS:
        return False
    if state.index.disc_blocked(x, y, r, doors=False, tolerance=1e-9):
        return False
    return not under_higher_floor(state, x, y, r, z, strict=True)


def landing_spot(ctx: Ctx, bot: Bot, pose: Pose,
                 heading: float | None) -> tuple[float, float] | None:
    """Where a faller whose centre has just crossed an edge comes to rest
    (docs/decisions.md R39): straight on along its line of travel to the first
    point where its whole base is off the higher floor, when the way there is
    free of walls and the table; else the nearest spot at the cliff's foot where
    its base rests clear. None when it already rests clear (or nothing is found)."""
    z = pose.z
    if not under_higher_floor(ctx.state, pose.x, pose.y, bot.radius, z):
        return None
    if heading is not None:
        d = vector(heading)
        limit = LANDING_REACH * bot.radius
        under = _under_along(ctx.state, bot.radius, z, pose.xy, d, limit + LANDING_STEP)
        k = 1
        while k * LANDING_STEP <= limit + EPS:
            s = k * LANDING_STEP
            if not under(s):
                lo, hi = s - LANDING_STEP, s
                for _ in range(30):
                    mid = (lo + hi) / 2.0
                    if under(mid):
                        lo = mid
                    else:
                        hi = mid
                x, y = point_at(pose.xy, d, hi)
                tol = ctx.state.rules.contact_tolerance
                clear = wall_collision(ctx.state.index, pose.xy, (x, y), bot.radius, tol) is None
                if clear and _rest_ok(ctx, bot, x, y, z):
                    return (x, y)
                break
            k += 1
    return nearest_rest(ctx, bot, pose.x, pose.y, z, {})


def _under_along(state: GameState, r: float, z: float, a: tuple[float, float],
                 d: tuple[float, float], s_max: float) -> Callable[[float], bool]:
    """`under_higher_floor(..., strict=True)` of a base on floor z at a + s d, for
    0 <= s <= s_max: the closed form along the line where it is sure (`LineUnder`), the
    full search where it is not (the same answers)."""
    reach = r - 1e-9
    if reach <= 0.0 or not FAST_PATHS.on:
        return lambda s: under_higher_floor(state, *point_at(a, d, s), r, z, strict=True)
    lines = cliff_lines(state.index, state.rules.step_height)
    line = LineUnder(state.index, lines, _rays(), a, d, s_max, reach,
                     state.rules.step_height, z)

    def under(s: float) -> bool:
        sure = line.decide(s)
        if sure is None:
            return under_higher_floor(state, *point_at(a, d, s), r, z, strict=True)
        return sure
    return under


def nearest_rest(ctx: Ctx, bot: Bot, x0: float, y0: float, z: float,
                 moved: dict[str, Pose]) -> tuple[float, float] | None:
    """The nearest spot to (x0, y0) on floor z where the base rests clear of walls,
    the table's end, higher floors and other bots (at their `moved` poses when
    given), touching at most: rings every LANDING_RING cm, every LANDING_ANGLE degrees."""
    rings = int(LANDING_SEARCH / LANDING_RING) + 1
    for k in range(rings + 1):
        rad = k * LANDING_RING
        count = 1 if k == 0 else max(8, int(360.0 / LANDING_ANGLE))
        for j in range(count):
            dx, dy = vector(j * 360.0 / count)
            x, y = x0 + dx * rad, y0 + dy * rad
            if _rest_ok(ctx, bot, x, y, z) and \
                    not _overlapping(ctx, bot, Pose(x, y, z, 0.0), moved, strict=True):
                return (x, y)
    return None


def _overlapping(ctx: Ctx, bot: Bot, pose: Pose, moved: dict[str, Pose],
                 strict: bool = False) -> bool:
    """The base at `pose` overlaps another bot's (at its `moved` pose when given)
    beyond the contact tolerance (D4; at all when `strict`)."""
    tol = 0.0 if strict else ctx.state.rules.contact_tolerance
    for other in ctx.blockers(bot, pose.z):
        at = moved.get(other.id) or Pose.of(other)
        if (not ctx.live or not other.destroyed) and \
                math.hypot(at.x - pose.x, at.y - pose.y) < other.radius + bot.radius - tol - 1e-9:
            return True
    return False


def _slide_off(ctx: Ctx, bot: Bot, pose: Pose, moved: dict[str, Pose]) -> None:
    """A faller whose landing bot could not be knocked clear (a wall behind it) comes
    to rest at the nearest free spot at the foot of the cliff (D4: bases never rest
    overlapping)."""
    spot = nearest_rest(ctx, bot, pose.x, pose.y, pose.z, moved)
    if spot is None:
        return
    x, y = spot
    ctx.emit({"type": "landed_beside", "bot": bot.id, "at": xy2(x, y)})
    pose.x, pose.y = x, y
    ctx.place(bot, pose, forced=True)


# --- mines on the way ---------------------------------------------------------------

def mine_touches(state: GameState, bot: Bot, a: tuple[float, float], d: tuple[float, float],
                 run: float, z: float) -> list[tuple[float, Mine]]:
    """Active mines a base first touches going `run` cm from a along d (R31, D33),
    as (distance, mine), nearest first; mines it touches already at a are left
    out (they struck already)."""
    if run <= EPS or not state.mines:
        return []
    rules = state.rules
    found = []
    for mine in state.mines:
        if not mine.active or beyond(abs(mine.z - z), rules.level_difference):
            continue
        reach = bot.radius + mine.r + rules.contact_tolerance
        if within(math.hypot(a[0] - mine.x, a[1] - mine.y), reach):
            continue
        s = disc_contact(a, d, run, (mine.x, mine.y), reach + LIMIT_TOLERANCE)
        if s is not None:
            found.append((s, mine))
    found.sort(key=lambda item: (item[0], item[1].id))
    return found


def strike_on_the_way(ctx: Ctx, bot: Bot, pose: Pose, a: tuple[float, float],
                      d: tuple[float, float], run: float) -> bool:
    """Mines touched along a forced run strike the bot where it touches them (R31);
    a preview reports them. True when the bot was destroyed (pose left there)."""
    touches = mine_touches(ctx.state, bot, a, d, run, pose.z)
    if not ctx.live:
        for _, mine in touches:
            ctx.emit({"type": "mine_touch", "bot": bot.id, "mine": mine.id})
        return False

    for s, mine in touches:
        if mine not in ctx.state.mines:
            continue
        pose.x, pose.y = point_at(a, d, s)
        ctx.place(bot, pose, forced=True)
        ctx.events.extend(mine_strike(ctx.state, mine, bot))
        if bot.destroyed:
            return True
    return False


# --- forced motion ---------------------------------------------------------------

def forced_line(ctx: Ctx, bot: Bot, pose: Pose, heading: float, distance: float,
                by: str | None, result: FlingResult | None) -> str | None:
    """Move a bot that does not steer (thrown, knocked back, carried) straight along
    `heading` up to `distance`: the table edge stops it; a wall stops it with a
    collision test (D10); another bot stops it with a test for both, it first
    (R16); a pit destroys a ground bot (R36); a drop makes it fall (R39) and a
    rise higher than a step stops it like a wall; doors open as it touches them
    (R47). Updates `pose`, places the bot and answers what stopped it (or None)."""
    state = ctx.state
    index = state.index
    r = bot.radius
    a = pose.xy
    d = vector(heading)
    length = max(0.0, distance)
    b = point_at(a, d, length)
    stops: list[tuple[float, int, str | None, Stopper]] = []
    kind: str | None
    what: Stopper
    edge = table_run(a, d, length, r, state.arena.size)
    if edge < length - EPS:
        stops.append((edge, 2, "edge", None))
    if length > EPS:
        tol = state.rules.contact_tolerance
        contact = wall_collision(index, a, b, r, tol)
        if contact is not None:
            stops.append((contact.distance, 0, "wall", contact.feature))
        for s, other in ctx.bots_in_way(bot, a, d, length, pose.z):
            stops.append((s, 1, "bot", other))
        if bot.stats.is_ground:
            entry = index.first_entry(a, b, ["pit"])
            if entry is not None:
                stops.append((entry[0], 3, "pit", entry[2]))
            for crossing in index.edge_crossings(a, b, step_height=ctx.state.rules.step_height):
                kind = "fall" if crossing.drop > 0 else "cliff"
                stops.append((crossing.distance, 4, kind, crossing))
                break
            face = higher_floor_reached(state, bot, a, d, length, pose.z,
                                        tuple(stop[0] for stop in stops))
            if face is not None:            # the base meets a cliff's face before its centre
                stops.append((face[0], 4, "cliff", face[1]))
    stops.sort(key=lambda item: (item[0], item[1]))
    run, _, kind, what = stops[0] if stops else (length, 9, None, None)
    run = max(0.0, min(run, length))
    start = PathPoint(pose.x, pose.y, pose.z, pose.facing)
    if strike_on_the_way(ctx, bot, pose, a, d, run):
        if result is not None:
            result.path.append(PathPoint(pose.x, pose.y, pose.z, pose.facing))
            result.stopped_by = "mine"
        return "mine"
    pose.x, pose.y = point_at(a, d, run)
    pose.z = index.floor_z(pose.x, pose.y)
    if isinstance(what, EdgeCrossing):
        pose.z = what.z_after if kind == "fall" else what.z_before
    parts = parts_of(state.index)
    doors = [door.label for s, door in doors_reached(parts, a, pose.xy, r) if s > EPS or run > EPS]
    for label in doors:
        ctx.emit({"type": "door_opened", "bot": bot.id, "door": label})
    ctx.place(bot, pose, forced=True)
    if result is not None:
        if not result.path:
            result.path.append(start)
        prev = result.path[-1]
        result.path.append(PathPoint(pose.x, pose.y, pose.z, pose.facing, prev.distance + run, 0.0))
        result.moved += run
        result.doors.extend(doors)
        result.stopped_by = kind
    if isinstance(what, Feature) and kind == "wall":
        if result is not None:
            result.collisions.append(what.label)
        collision(ctx, bot, pose, None, what.label, mover_by=by)
    elif kind == "cliff":             # its centre at the edge, or its base at the face
        label = stop_label(what)
        if result is not None:
            result.collisions.append(label)
        collision(ctx, bot, pose, None, label, mover_by=by)
    elif isinstance(what, Bot):
        if result is not None:
            result.collisions.append(what.id)
        collision(ctx, bot, pose, what, None, mover_by=by, other_by=by)
    elif isinstance(what, Feature) and kind == "pit":
        if result is not None:
            result.pit = what.label
        pit(ctx, bot, pose, what.label, by)
    elif isinstance(what, EdgeCrossing) and kind == "fall":
        fall(ctx, bot, pose, what.drop, by, result, heading)
    return kind


def stop_label(what: Stopper) -> str:
    """How a stop is named in an event: a wall's or cliff's label, a bot's id."""
    if isinstance(what, str):
        return what
    if isinstance(what, Bot):
        return what.id
    if isinstance(what, EdgeCrossing):
        return what.feature.label if what.feature else "cliff"
    return what.label if what is not None else ""


def new_fling_result(bot: Bot, pose: Pose) -> FlingResult:
    return FlingResult(bot=bot.id, path=[PathPoint(pose.x, pose.y, pose.z, pose.facing)],
                       x=pose.x, y=pose.y, z=pose.z, facing=pose.facing, moved=0.0)


def finish_fling_result(result: FlingResult, pose: Pose, events: list[Event]) -> FlingResult:
    result.x, result.y, result.z, result.facing = pose.x, pose.y, pose.z, pose.facing
    result.events = events
    return result


def point_in(shape: BaseGeometry, x: float, y: float) -> bool:
    return bool(shape.contains(Point(x, y)))
