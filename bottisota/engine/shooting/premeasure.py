"""The pre-measure: what a weapon could do, for the view (anyone, any time, no dice).

For one shooter and weapon, against every other bot on the table: sight (the
blocking point and the fire track, D15), arc (the angle off the nose, R19),
range (D14; capped on overwatch, R23), the to-hit number with all modifiers
and its chance (D5, D26, R5), and whether the shot is legal with the first
reason it is not. Given a target (a bot id or a point) it adds what that
weapon would reach there: a spray's corridor and members (R28), a blast
marker with its centre bot and off-centre members (R34, R35), a missile's
possible turn after a miss (R27, D31), a rocket's onward path (R26), a
beam's landing spot (R29, when movement offers `preview_fling`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, TypedDict, TypeVar, cast

import numpy as np
from shapely.geometry import LineString, Point
from shapely.geometry.base import BaseGeometry

from bottisota.core.actions import Refusal
from bottisota.core.cards import Weapon
from bottisota.core.compass import bearing, headings
from bottisota.core.limits import within
from bottisota.engine import damage
from bottisota.engine.movement.moves import preview_fling
from bottisota.engine.movement.result import FlingResult
from bottisota.engine.shooting.beams import fling_plan
from bottisota.engine.shooting.blast import BlastMember, SafeBot, blast_area, recentred
from bottisota.engine.shooting.flight import MissileTurn, missile_turn_options
from bottisota.engine.shooting.geometry import (
    ahead,
    at_flight_height,
    disc_of,
    door_keys,
    flight_barrier,
    flight_height,
    open_doors,
    segment_distances,
    standing_bots,
)
from bottisota.engine.shooting.spray import spray_members
from bottisota.engine.shooting.targeting import (
    BEAM_KINDS,
    Pose,
    arc_refusal,
    find_weapon,
    melee_refusal,
    pose_of,
    range_refusal,
    reach,
    sight_blocked,
)
from bottisota.engine.state import Bot, GameState
from bottisota.geometry.arena_index import FAST_PATHS, ArenaIndex, Disc, Sight, TrackPoint

T = TypeVar("T")

MEMO_SIZE = 4096   # sight answers kept per compiled arena before they are forgotten


SightMemo = dict[tuple[object, ...], object]
"""Kept sight answers by key: a ("track", ...) key holds a Sight, a ("lines", ...) key
the clear flags through and past the bots."""


def sight_memo(index: ArenaIndex) -> SightMemo:
    """Sight answers of the pre-measure kept on the compiled arena, by every input
    they depend on (line ends and heights, the bots as discs, the open doors): the
    view asks the same lines frame after frame while nothing moves, and a cursor
    resting on a bot asks the same fire track. Emptied by `forget_sight`."""
    memo: SightMemo = index.cached(("shooting", "premeasure-sight"), dict)
    return memo


def forget_sight(index: ArenaIndex) -> None:
    """Drop the kept answers (benches time a question as asked the first time)."""
    sight_memo(index).clear()


def _disc_key(discs: tuple[Disc, ...]) -> tuple[tuple[str, float, float, float, float, float], ...]:
    """The bots as sight sees them, in plain values (hashed without Python calls)."""
    return tuple((d.id, d.x, d.y, d.r, d.z, d.height) for d in discs)


def _keep(memo: SightMemo, key: tuple[object, ...], value: T) -> T:
    """Keep an answer (nothing while the fast paths are off, so nothing is found)."""
    if FAST_PATHS.on:
        if len(memo) >= MEMO_SIZE:
            memo.clear()
        memo[key] = value
    return value


class LazySight:
    """One sight line, worked out in full (blocker, point, fire track) only when
    asked for, then kept: the overlay needs the track of the bot under the
    cursor, not of every bot every frame. Whether the line is clear comes from
    the batch that measured every line; the full answer is `sight_plain`'s,
    kept on the arena by the line and everything on it (`sight_memo`)."""

    __slots__ = ("_index", "_bot_ids", "_args", "_clear", "_value")

    def __init__(self, index: ArenaIndex, bot_ids: frozenset[str], clear: bool,
                 *args: Any) -> None:   # Any: `sight_plain`'s seven arguments, kept as given
        self._index, self._bot_ids, self._clear, self._args = index, bot_ids, clear, args
        self._value: Sight | None = None

    def get(self) -> Sight:
        if self._value is None:
            a, az, b, bz, discs, doors, ignore = self._args
            if not FAST_PATHS.on:
                self._value = self._index.sight_plain(a, az, b, bz, discs, doors, ignore)
                return self._value
            key = ("track", a, az, b, bz, _disc_key(discs), ignore, doors)
            memo = sight_memo(self._index)
            found = cast(Sight | None, memo.get(key))       # a "track" key: a Sight
            if found is None:
                index = self._index
                kept = tuple(d for d in discs if d.id not in ignore)
                found = _keep(memo, key, Sight(self._clear, detail=lambda: index.sight_plain(
                    a, az, b, bz, kept, doors)))
            self._value = found
        return self._value

    def refusal(self, shooter_z: float, target_z: float) -> Refusal | None:
        """R22 / R38 with the blocker and point, as `targeting.can_fire` says it."""
        return sight_blocked(self.get(), self._bot_ids, shooter_z, target_z)


@dataclass(frozen=True, slots=True)
class _Context:
    """What every target's reasons are worked out from (shared by one pre-measure)."""

    state: GameState
    weapon: Weapon
    spose: Pose
    overwatch: bool


@dataclass(slots=True, eq=False)
class TargetMeasure:
    """One other bot as the weapon sees it (read it, do not change it). Reasons,
    the blocking point and the fire track are worked out when first read."""

    bot: str
    distance: float                       # cm, centre to centre in the plane (D14)
    off_nose: float                       # degrees off the shooter's facing (R19)
    in_arc: bool
    in_range: bool                        # melee: in base contact (R25)
    in_sight: bool                        # R22 R38 D15
    need: int                             # the weapon's to-hit number
    modifier: int                         # the shooter's modifiers (parts, leaflets)
    chance: float                         # chance to hit (R5 included)
    reason: Refusal | None                # a refusal known at once (R21, R25, R49)
    fails: str | None                     # "arc" or "range" when that check fails
    sight_decides: bool                   # arc and range pass: sight decides (R22, R38)
    sight: LazySight = field(repr=False)
    target_pose: Pose = field(repr=False)
    context: _Context = field(repr=False)

    @property
    def can_fire(self) -> bool:
        return self.reason is None and self.fails is None and (
            self.in_sight or not self.sight_decides)

    @property
    def blocker(self) -> str | None:
        """The first thing blocking the line (a feature label or a bot id)."""
        return None if self.in_sight else self.sight.get().blocker

    @property
    def block_point(self) -> tuple[float, float] | None:
        """Where the line first meets the blocker."""
        return None if self.in_sight else self.sight.get().point

    @property
    def track(self) -> tuple[TrackPoint, ...]:
        """Heights along the line: the line and each obstacle it passes (D15)."""
        return tuple(self.sight.get().track)

    @property
    def refusal(self) -> str | None:
        """Why it may not be shot (`R19: ...`), else None; the same text as
        `can_fire` in rules.targeting gives."""
        found = self.reason
        ctx = self.context
        if found is None and self.fails == "arc":
            found = arc_refusal(ctx.state, ctx.weapon, ctx.spose, self.target_pose)
        elif found is None and self.fails == "range":
            found = range_refusal(ctx.state, ctx.weapon, ctx.spose, self.target_pose,
                                  ctx.overwatch)
        elif found is None and self.sight_decides and not self.in_sight:
            found = self.sight.refusal(ctx.spose.z, self.target_pose.z)
        return str(found) if found is not None else None


@dataclass(frozen=True, slots=True)
class BlastPreview:
    """Where a blast would fall and whom it would touch (R34, R35)."""

    x: float
    y: float
    z: float
    r: float
    centre: str | None
    members: tuple[BlastMember, ...]
    chances: tuple[float, ...]            # each member's chance to be hit
    safe: tuple[SafeBot, ...]

    @property
    def marker(self) -> BaseGeometry:
        """The blast marker as a polygon (drawn when asked for)."""
        return Point(self.x, self.y).buffer(self.r)


@dataclass(frozen=True, slots=True)
class FlightPreview:
    """A rocket's onward line after a miss (R26): bots in the order it would roll
    against them, and where it ends (a wall or the end of its range)."""

    end: tuple[float, float]
    bots: tuple[str, ...]
    stopped_by: str | None


@dataclass(frozen=True)
class Premeasure:
    """The whole pre-measure of one weapon of one bot."""

    bot: str
    weapon: str
    kind: str
    mount: str
    reach: float                          # cm (capped on overwatch, R23)
    arc_half: float | None                # degrees either side of the facing; None: any way
    overwatch: bool
    refusal: str | None                   # a reason that holds for every target (R21, R49)
    targets: tuple[TargetMeasure, ...]    # every other bot on the table, nearest first
    aim: tuple[float, float] | None = None
    corridor_line: tuple[tuple[float, float], tuple[float, float]] | None = None  # spray
    corridor_width: float = 0.0           # spray: half width (standard base radius + D4)
    corridor_members: tuple[str, ...] = ()
    blast: BlastPreview | None = None
    missile: MissileTurn | None = None
    flight: FlightPreview | None = None
    fling: FlingResult | None = None      # push / pull (R29)

    @property
    def corridor(self) -> BaseGeometry | None:
        """A spray's area (R28): where a standard base's centre is in it."""
        if self.corridor_line is None:
            return None
        a, b = self.corridor_line
        line = LineString([a, b]) if a != b else Point(a)
        return line.buffer(self.corridor_width)

    def target(self, bot_id: str) -> TargetMeasure | None:
        for t in self.targets:
            if t.bot == bot_id:
                return t
        return None

    def can_hit(self) -> list[str]:
        """Ids of the bots this weapon could legally be fired at now."""
        return [t.bot for t in self.targets if t.can_fire]



class _Aimed(TypedDict, total=False):
    """What `Premeasure` adds for an aimed target (its fields of the same names)."""

    aim: tuple[float, float]
    corridor_line: tuple[tuple[float, float], tuple[float, float]]
    corridor_width: float
    corridor_members: tuple[str, ...]
    blast: BlastPreview
    missile: MissileTurn
    flight: FlightPreview
    fling: FlingResult


def premeasure_weapons(state: GameState, bot_id: str, weapon_names: list[str] | None = None,
                       target: str | tuple[float, float] | None = None,
                       overwatch: bool = False) -> dict[str, Premeasure]:
    """`premeasure` for several weapons of one bot (all of them by default),
    the sight lines computed once for all (with and without other bots)."""
    shooter = state.bots[bot_id]
    names = weapon_names if weapon_names is not None else [
        w.name for w in shooter.stats.weapons if w.kind not in ("mine", "magnetic_mine")]
    cache: dict[str, _Shared] = {}
    return {name: premeasure(state, bot_id, name, target, overwatch, _cache=cache)
            for name in names}


def premeasure(state: GameState, bot_id: str, weapon_name: str,
               target: str | tuple[float, float] | None = None,
               overwatch: bool = False, _cache: dict[str, _Shared] | None = None) -> Premeasure:
    """Measure `weapon_name` of `bot_id` against every other bot, and, given a
    target bot or point, what the weapon would reach there. No dice, no change."""
    shooter = state.bots[bot_id]
    weapon, whole = find_weapon(state, shooter, weapon_name)
    if weapon is None:
        raise KeyError(str(whole))
    cache = {} if _cache is None else _cache
    shared = cache.get("shared")
    if shared is None:
        shared = cache["shared"] = _Shared(state, shooter)
    targets = _measure_targets(state, shooter, weapon, shared, overwatch, whole)
    limit = reach(state, weapon, overwatch)
    aimed = _aimed(state, shooter, weapon, target, limit) if target is not None else _Aimed()
    return Premeasure(
        bot=shooter.id, weapon=weapon.name, kind=weapon.kind, mount=weapon.mount,
        reach=limit, arc_half=state.rules.nose_arc / 2.0 if weapon.mount == "nose" else None,
        overwatch=overwatch, refusal=str(whole) if whole else None, targets=targets, **aimed)


class _Shared:
    """What every weapon of one shooter shares: the other bots nearest first, their
    poses, distances and angles off the nose, and sight to each (R22, R38, D15),
    through the bots (R28 sprays) and past them, all lines tested in one pass."""

    def __init__(self, state: GameState, shooter: Bot) -> None:
        self.spose = spose = pose_of(shooter)
        others = [b for b in state.live_bots() if b.id != shooter.id]
        xs = np.array([b.x for b in others], dtype=float)
        ys = np.array([b.y for b in others], dtype=float)
        dist = np.hypot(xs - spose.x, ys - spose.y)
        bearings = headings(xs - spose.x, ys - spose.y)
        off = np.abs((bearings - spose.facing + 180.0) % 360.0 - 180.0)
        dists = dist.tolist()
        order = sorted(range(len(others)), key=lambda i: (round(dists[i], 6), others[i].id))
        self.others = [others[i] for i in order]
        self.dist = dist[order]
        self.off = off[order]
        self.poses = [Pose(b.x, b.y, b.z, b.facing) for b in self.others]
        self.radii = np.array([b.radius for b in self.others], dtype=float)
        self._state, self._shooter = state, shooter
        self._clear: tuple[list[bool], list[bool]] | None = None
        self._lazy: dict[bool, list[LazySight]] = {}
        self._disc_list: tuple[Disc, ...] | None = None

    def _ends(self) -> tuple[tuple[float, float], float, list[tuple[tuple[float, float], float]]]:
        spose, shooter = self.spose, self._shooter
        a, top = (spose.x, spose.y), spose.z + shooter.card.height
        return a, top, [((o.x, o.y), o.z + o.card.height / 2.0) for o in self.others]

    def _discs(self) -> tuple[Disc, ...]:
        """The other standing bots as sight obstacles (built once, for both kinds of line)."""
        if self._disc_list is None:
            self._disc_list = tuple(disc_of(b) for b in standing_bots(self._state)
                                    if b.id != self._shooter.id)
        return self._disc_list

    def clear(self, through_bots: bool) -> list[bool]:
        """Sight to each other bot: clear or not, every line in one vectorised pass."""
        if self._clear is None:
            state = self._state
            doors = door_keys(open_doors(state))
            self._doors = doors
            a, top, ends = self._ends()
            rows = np.array([(a[0], a[1], top, b[0], b[1], bz) for b, bz in ends],
                            dtype=float).reshape(-1, 6)
            key = ("lines", a, top, tuple(ends), _disc_key(self._discs()), tuple(doors))
            memo = sight_memo(state.index)
            found = cast(tuple[list[bool], list[bool]] | None,   # a "lines" key: the flags
                         memo.get(key) if FAST_PATHS.on else None)
            if found is None:
                through, past = state.index.sight_many_both(rows, discs=self._discs(),
                                                            open_doors=doors)
                found = _keep(memo, key, (through.tolist(), past.tolist()))
            self._clear = found
        return self._clear[0 if through_bots else 1]

    def lazy(self, through_bots: bool) -> list[LazySight]:
        """The full answer per line (blocker, point, fire track), worked out on demand."""
        found = self._lazy.get(through_bots)
        if found is None:
            index = self._state.index
            ids = frozenset(self._state.bots)
            a, top, ends = self._ends()
            discs = () if through_bots else self._discs()
            sid = self._shooter.id
            clear = self.clear(through_bots)
            doors = tuple(self._doors)
            found = self._lazy[through_bots] = [
                LazySight(index, ids, seen, a, top, b, bz, discs, doors, (sid, o.id))
                for (b, bz), o, seen in zip(ends, self.others, clear, strict=True)]
        return found


def _measure_targets(state: GameState, shooter: Bot, weapon: Weapon, shared: _Shared,
                     overwatch: bool, whole: Refusal | None) -> tuple[TargetMeasure, ...]:
    """Arc, range and chance for all targets at once (nearest first); sight shared
    by every weapon of the shooter."""
    others = shared.others
    if not others:
        return ()
    spose, dist, off = shared.spose, shared.dist, shared.off
    if weapon.mount == "nose":
        in_arc = within(off, state.rules.nose_arc / 2.0).tolist()
    else:
        in_arc = [True] * len(others)
    if weapon.kind == "melee":
        in_range = within(dist, shared.radii + shooter.radius
                          + state.rules.contact_tolerance).tolist()
    else:
        in_range = within(dist, reach(state, weapon, overwatch)).tolist()
    modifier = damage.to_hit_modifier(shooter)
    chance = damage.hit_chance(state, weapon.to_hit, modifier)
    through = weapon.kind == "spray"
    clear = shared.clear(through)
    lazy = shared.lazy(through)
    context = _Context(state, weapon, spose, overwatch)
    melee = weapon.kind == "melee"
    need = weapon.to_hit
    measures = []
    for _i, (other, tpose, near, arc, seen, sight, d, o) in enumerate(zip(
            others, shared.poses, in_range, in_arc, clear, lazy, dist.tolist(), off.tolist(),
            strict=True)):
        reason, fails, decides = whole, None, False
        if reason is None and not arc:
            fails = "arc"
        elif reason is None and melee:
            reason = melee_refusal(state, shooter, other, spose, tpose)
        elif reason is None and not near:
            fails = "range"
        else:
            decides = reason is None
        measures.append(TargetMeasure(
            other.id, d, o, arc, near, seen, need, modifier, chance, reason, fails, decides,
            sight, tpose, context))
    return tuple(measures)


def _aimed(state: GameState, shooter: Bot, weapon: Weapon,
           target: str | tuple[float, float], limit: float) -> _Aimed:
    """What the weapon reaches at the aimed target (a bot id or a point)."""
    if isinstance(target, str):
        aimed = state.bots[target]
        aim, aim_z, centre_id = aimed.pos, aimed.z, aimed.id
    else:
        aim = (float(target[0]), float(target[1]))
        aim_z, centre_id, aimed = state.index.floor_z(*aim), None, None
    out: _Aimed = {"aim": aim}
    if weapon.kind == "spray":
        end = _clipped(shooter.pos, aim, limit)
        top = aimed.z + aimed.card.height / 2.0 if aimed is not None \
            else aim_z + shooter.card.height / 2.0
        out.update(_corridor(state, shooter, end, (shooter.z + shooter.card.height, top)))
    elif weapon.explosive:
        out["blast"] = _blast(state, shooter, weapon, aim, aim_z, centre_id)
    elif weapon.kind == "missile" and aimed is not None:
        out["missile"] = missile_turn_options(state, aimed.x, aimed.y,
                                              bearing(shooter.pos, aimed.pos),
                                              {shooter.id, aimed.id})
    elif weapon.kind == "rocket" and aimed is not None:
        out["flight"] = _rocket_line(state, shooter, weapon, aimed)
    elif weapon.kind in BEAM_KINDS and aimed is not None:
        out["fling"] = _fling(state, shooter, weapon, aimed)
    return out


def _clipped(a: tuple[float, float], b: tuple[float, float], limit: float) -> tuple[float, float]:
    length = math.hypot(b[0] - a[0], b[1] - a[1])
    if length <= limit or length == 0:
        return b
    return ahead(a[0], a[1], bearing(a, b), limit)


def _corridor(state: GameState, shooter: Bot, end: tuple[float, float],
              heights: tuple[float, float] | None = None) -> _Aimed:
    """R28: the spray's line, its half width for a standard base (+ D4), and the
    exact members (each bot by its own radius, the line's height, D15)."""

    width = state.rules.base_diameter / 2.0 + state.rules.contact_tolerance
    members = spray_members(state, shooter, end, heights=heights)
    return {"corridor_line": (shooter.pos, end), "corridor_width": width,
            "corridor_members": tuple(m.bot for m in members)}


def _blast(state: GameState, shooter: Bot, weapon: Weapon, aim: tuple[float, float],
           aim_z: float, centre_id: str | None) -> BlastPreview:
    """R34 R35 D32: the marker on the aimed point, with each member's chance."""
    members, safe = blast_area(state, aim, aim_z)
    if centre_id is not None and any(m.bot == centre_id for m in members):
        members = recentred(state, members, centre_id)
    modifier = damage.to_hit_modifier(shooter)
    chances = tuple(damage.hit_chance(state, weapon.to_hit, modifier + m.hit_mod)
                    for m in members)
    r = state.rules.blast_diameter / 2.0
    centre = next((m.bot for m in members if m.centre), None)
    return BlastPreview(aim[0], aim[1], aim_z, r, centre,
                        tuple(members), chances, tuple(safe))


def _rocket_line(state: GameState, shooter: Bot, weapon: Weapon, target: Bot) -> FlightPreview:
    """R26 D31: the line on from the target's centre to the end of the range."""
    heading = bearing(shooter.pos, target.pos)
    left = max(0.0, weapon.range - shooter.distance_to(target))
    end = ahead(target.x, target.y, heading, left)
    z = flight_height(target)
    barrier = flight_barrier(state, target.pos, end, z)
    if barrier is not None:
        end = barrier[1]
    others = at_flight_height([b for b in state.live_bots()
                               if b.id not in (shooter.id, target.id)], z)
    if not others or left == 0:
        return FlightPreview(end, (), barrier[0] if barrier else None)
    xs = np.array([b.x for b in others])
    ys = np.array([b.y for b in others])
    gap, along = segment_distances(target.pos, end, xs, ys)
    reach_ = np.array([b.radius for b in others]) + state.rules.contact_tolerance
    order = sorted((float(along[i]), others[i].id) for i in np.nonzero(within(gap, reach_))[0])
    return FlightPreview(end, tuple(bid for _, bid in order),
                         barrier[0] if barrier else None)


def _fling(state: GameState, shooter: Bot, weapon: Weapon, target: Bot) -> FlingResult:
    """R29: the landing spot of a push or pull (movement's preview, no dice)."""

    heading, distance = fling_plan(shooter, target, weapon.kind, weapon.strength)
    return preview_fling(state, target.id, heading, distance)
