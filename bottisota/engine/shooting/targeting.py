"""Can this weapon fire at that bot now? Arcs, range, melee contact, sight.

R18 a weapon fires only into its arc and out to its range; R19 nose weapons
fire into the front rules.nose_arc; R20 turrets any way; D14 range centre to
centre in the plane; R22 R38 D15 sight (walls, closed doors, raised floors
and other bots must be lower than the line from the shooter's top to the
target's middle; only sprays shoot through bots); R23 overwatch fire reaches
rules.overwatch_range; R25 melee needs base contact on one level (or stairs
or a ramp between); R21 mines are dropped, not shot; R49 ammo.

Every check answers with a `Refusal` naming the rule, or None.
"""
from __future__ import annotations

import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Protocol

from bottisota.core.actions import Refusal
from bottisota.core.arena import SLOPED_TYPES, Feature
from bottisota.core.cards import Weapon
from bottisota.core.compass import bearing, off_angle
from bottisota.core.i18n import N_
from bottisota.core.limits import beyond, within
from bottisota.engine.shooting.geometry import (
    disc_of,
    door_keys,
    open_doors,
    standing_bots,
)
from bottisota.engine.state import Bot, GameState
from bottisota.geometry.arena_index import FAST_PATHS, Disc, Sight

FIRST_ROUND = 1                 # R7: the round in which nobody may shoot
BEAM_KINDS = ("push", "pull")   # R29: resolved by rules.beams
MINE_KINDS = ("mine", "magnetic_mine")
ANGLE_EPSILON = 1e-6            # degrees: an arc's boundary is inside it
SIGHT_MEMO_SIZE = 512           # sight lines kept per arena before they are forgotten
STANDING_MEMO_SIZE = 16         # the bots' discs and open doors kept for so many placings
NO_SIGHT = Refusal("R22", "something blocks the line")    # unexplained (explain=False)


@dataclass(frozen=True, slots=True)
class Pose:
    """Where a bot stands for a check: centre, floor height, facing (D2, D3)."""

    x: float
    y: float
    z: float
    facing: float


class Placed(Protocol):
    """Anything that says where a bot would stand: a movement `PathPoint`, a Pose."""

    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def z(self) -> float: ...
    @property
    def facing(self) -> float: ...


PoseTuple = tuple[float, float, float, float]      # (x, y, z, facing)
GivenPose = Placed | PoseTuple | None               # None: where the bot stands


def pose_of(bot: Bot, given: GivenPose = None) -> Pose:
    """The bot's own pose, or `given`: a Pose, a movement `PathPoint` or a tuple
    (x, y, z, facing)."""
    if given is None:
        return Pose(bot.x, bot.y, bot.z, bot.facing)
    if isinstance(given, Pose):
        return given
    if isinstance(given, tuple):
        x, y, z, facing = given
        return Pose(float(x), float(y), float(z), float(facing))
    return Pose(float(given.x), float(given.y), float(given.z), float(given.facing))


def reach(state: GameState, weapon: Weapon, overwatch: bool = False) -> float:
    """How far the weapon fires: its range, capped by overwatch (R18, R23)."""
    return min(weapon.range, state.rules.overwatch_range) if overwatch else weapon.range


def ammo_left(bot: Bot, weapon: Weapon) -> int | None:
    """Shots left before a reload (R49); None for unlimited."""
    if weapon.ammo is None:
        return None
    return bot.ammo.get(weapon.name, weapon.ammo)


def find_weapon(state: GameState, shooter: Bot, name: str) -> tuple[Weapon | None, Refusal | None]:
    """The shooter's weapon by name (parts included), refused if unknown, a mine
    (R21) or out of ammo (R49)."""
    weapon = shooter.stats.weapon(name)
    if weapon is None:
        names = ", ".join(w.name for w in shooter.stats.weapons) or "none"
        return None, Refusal("R18",
                N_("{id} has no weapon {name!r} (it has: {names})").format(
                    id=shooter.id, name=name, names=names))
    if weapon.kind in MINE_KINDS:
        return weapon, Refusal("R21",
                N_("{name} is a mine: mines are dropped during the move, not shot").format(
                    name=name))
    if ammo_left(shooter, weapon) == 0:
        return weapon, Refusal("R49",
                N_("{name} is out of ammo; reload at a service point").format(name=name))
    return weapon, None


def arc_refusal(state: GameState, weapon: Weapon, spose: Pose, tpose: Pose) -> Refusal | None:
    """R19 R20: nose weapons fire into the front arc (boundary included)."""
    if weapon.mount != "nose":
        return None
    half = state.rules.nose_arc / 2.0
    off = off_angle(spose.facing, bearing((spose.x, spose.y), (tpose.x, tpose.y)))
    if beyond(off, half):
        return Refusal("R19",
                N_("target is {off:.0f}° off the nose; nose weapons reach {half:g}°").format(
                    off=off, half=half),
                       at=(tpose.x, tpose.y))
    return None


def range_refusal(state: GameState, weapon: Weapon, spose: Pose, tpose: Pose,
                  overwatch: bool) -> Refusal | None:
    """R18 D14 (R23 when on overwatch): centre to centre in the plane."""
    distance = math.hypot(tpose.x - spose.x, tpose.y - spose.y)
    limit = reach(state, weapon, overwatch)
    if within(distance, limit):
        return None
    if overwatch and state.rules.overwatch_range < weapon.range:
        return Refusal("R23",
                N_("target is {distance:.1f} cm away; overwatch fire reaches {limit:g} cm").format(
                    distance=distance, limit=limit), at=(tpose.x, tpose.y))
    return Refusal("R18",
            N_("target is {distance:.1f} cm away; {name} reaches {limit:g} cm").format(
                distance=distance, name=weapon.name, limit=limit),
                   at=(tpose.x, tpose.y))


def in_contact(state: GameState, a: Pose, ra: float, b: Pose, rb: float) -> bool:
    """D4: the bases touch (within the contact tolerance)."""
    return within(math.hypot(b.x - a.x, b.y - a.y), ra + rb + state.rules.contact_tolerance)


def melee_refusal(state: GameState, shooter: Bot, target: Bot, spose: Pose,
                  tpose: Pose) -> Refusal | None:
    """R25: base touching base, on one level or with stairs or a ramp between."""
    if not in_contact(state, spose, shooter.radius, tpose, target.radius):
        gap = math.hypot(tpose.x - spose.x, tpose.y - spose.y) - shooter.radius - target.radius
        return Refusal("R25",
                N_("{id} is {gap:.1f} cm from base contact; melee needs bases touching").format(
                    id=target.id, gap=gap), at=(tpose.x, tpose.y))
    if within(abs(spose.z - tpose.z), state.rules.level_difference):
        return None
    index = state.index
    middle = ((spose.x + tpose.x) / 2.0, (spose.y + tpose.y) / 2.0)
    for x, y in ((spose.x, spose.y), (tpose.x, tpose.y), middle):
        if index.features_at(x, y, SLOPED_TYPES):
            return None
    return Refusal("R25",
            N_("{id} is on another level ({z:+.1f} cm) with no stairs or ramp between").format(
                id=target.id, z=tpose.z - spose.z), at=(tpose.x, tpose.y))


def line_of_sight(state: GameState, shooter: Bot, target: Bot, spose: Pose | None = None,
                  tpose: Pose | None = None, through_bots: bool = False,
                  poses: dict[str, Pose] | None = None) -> Sight:
    """Sight from the shooter's top to the target's middle (R22, R38, D15), with
    the other standing bots as obstacles unless `through_bots` (R28 sprays).

    The same line asked again in the same position (a robot choosing its shots,
    then `Game.legal` checking them) is answered from a memo kept with the
    compiled arena: its key holds everything the line reads (every other bot's id,
    place, base, height and whether it stands; the shooter's and the target's
    base, height and whether they stand, their places being the poses; the line's
    own inputs), so a changed position never meets an old answer, and a robot's
    line from where it plans to stand serves again once it stands there."""
    spose = spose or pose_of(shooter)
    tpose = tpose or pose_of(target)
    if not FAST_PATHS.on:
        return plain_line_of_sight(state, shooter, target, spose, tpose, through_bots, poses)
    ends = (shooter.id, target.id)          # (their stored places are not read: the poses are)
    key = (tuple((b.id, b.card.base, b.card.height, b.removed) if b.id in ends
                 else (b.id, b.x, b.y, b.z, b.card.base, b.card.height, b.removed)
                 for b in state.bots.values()),
           shooter.id, target.id, spose, tpose, through_bots,
           tuple(sorted(poses.items())) if poses else ())
    memo: dict[tuple[object, ...], Sight] = state.index.cached(("shooting", "sight_lines"), dict)
    sight = memo.get(key)
    if sight is None:
        sight = _shared_line_of_sight(state, shooter, target, spose, tpose, through_bots,
                                      poses)
        if len(memo) >= SIGHT_MEMO_SIZE:
            memo.clear()
        memo[key] = sight
    return sight


@dataclass(frozen=True)
class _Standing:
    """Every standing bot where it stands: its obstacle disc, and the doors open
    (R47) with every bot where it stands."""

    discs: tuple[Disc, ...]
    doors: frozenset[Feature]


def _standing(state: GameState) -> _Standing:
    """The standing bots' discs and the open doors, worked out once for the bots'
    places (kept with the compiled arena, keyed by every bot's id, place, base,
    height and whether it stands: all that either reads)."""
    key = (*((b.id, b.x, b.y, b.z, b.card.base, b.card.height, b.removed)
             for b in state.bots.values()), tuple(state.held_open))
    memo: dict[tuple[object, ...], _Standing] = state.index.cached(("shooting", "standing"), dict)
    found = memo.get(key)
    if found is None:
        if len(memo) >= STANDING_MEMO_SIZE:
            memo.clear()
        found = memo[key] = _Standing(tuple(disc_of(b) for b in standing_bots(state)),
                                      frozenset(open_doors(state)))
    return found


def _shared_line_of_sight(state: GameState, shooter: Bot, target: Bot, spose: Pose,
                          tpose: Pose, through_bots: bool,
                          poses: dict[str, Pose] | None) -> Sight:
    """`plain_line_of_sight`, the other bots' discs and the open doors taken from
    `_standing` (the same discs in the same order; the doors worked out afresh only
    when a bot is put somewhere else than where it stands)."""
    moved = dict(poses or {})
    moved[shooter.id], moved[target.id] = spose, tpose
    standing = _standing(state)
    ends = (shooter.id, target.id)
    discs = () if through_bots else tuple(
        d if d.id not in moved else disc_of(state.bots[d.id], *_xyz(moved[d.id]))
        for d in standing.discs if d.id not in ends)
    bots = state.bots
    at_rest = all(k in bots and (p.x, p.y) == (bots[k].x, bots[k].y) for k, p in moved.items())
    doors = standing.doors if at_rest else open_doors(
        state, {k: (p.x, p.y) for k, p in moved.items()})
    return _top_to_middle(state, shooter, target, spose, tpose, discs, doors)


def plain_line_of_sight(state: GameState, shooter: Bot, target: Bot, spose: Pose,
                        tpose: Pose, through_bots: bool = False,
                        poses: dict[str, Pose] | None = None) -> Sight:
    """`line_of_sight` worked out afresh, without its memo."""
    moved = dict(poses or {})
    moved[shooter.id], moved[target.id] = spose, tpose
    discs = () if through_bots else tuple(
        disc_of(b, *_xyz(moved.get(b.id))) for b in standing_bots(state)
        if b.id not in (shooter.id, target.id))
    doors = open_doors(state, {k: (p.x, p.y) for k, p in moved.items()})
    return _top_to_middle(state, shooter, target, spose, tpose, discs, doors)


def _top_to_middle(state: GameState, shooter: Bot, target: Bot, spose: Pose, tpose: Pose,
                   discs: tuple[Disc, ...], doors: Iterable[Feature]) -> Sight:
    """The sight line from the shooter's top to the target's middle (D15), past the
    other bots' discs, with these doors open."""
    return state.index.sight(
        (spose.x, spose.y), spose.z + shooter.card.height,
        (tpose.x, tpose.y), tpose.z + target.card.height / 2.0,
        discs=discs, open_doors=door_keys(doors), ignore=(shooter.id, target.id))


def _xyz(pose: Pose | None) -> tuple[float | None, float | None, float | None]:
    return (None, None, None) if pose is None else (pose.x, pose.y, pose.z)


def sight_refusal(state: GameState, sight: Sight, spose: Pose, tpose: Pose) -> Refusal | None:
    """R22 (one level) or R38 (up or down, D15) when something blocks the line."""
    return sight_blocked(sight, state.bots.keys(), spose.z, tpose.z)


def sight_blocked(sight: Sight, bot_ids: Collection[str], shooter_z: float,
                  target_z: float) -> Refusal | None:
    """The refusal for a blocked sight line: `R22: wall 'crate-3' blocks the line
    at (19.0, 20.0)`; bots are named `bot 'c'`. None when the line is clear."""
    if sight.clear:
        return None
    rule = "R22" if abs(shooter_z - target_z) < 1e-9 else "R38"
    what = sight.blocker or "something"
    if what in bot_ids:
        what = N_("bot '{what}'").format(what=what)
    where = N_(" at ({v:.1f}, {v2:.1f})").format(
                v=sight.point[0], v2=sight.point[1]) if sight.point else ""
    return Refusal(rule,
            N_("{what} blocks the line{where}").format(what=what, where=where), at=sight.point)


def fire_refusal(state: GameState, shooter: Bot, weapon: Weapon, target: Bot,
                 overwatch: bool = False, spose: Pose | None = None,
                 tpose: Pose | None = None,
                 sights: dict[bool, Sight] | None = None,
                 explain: bool = True) -> Refusal | None:
    """The geometric checks for one weapon at one target: arc (R19), then range
    (R18, R23) or base contact (R25), then sight (R22, R38; none for melee).
    `sights` keeps the sight lines (through bots or not) for the next weapon.
    Without `explain` a blocked line answers a bare R22 refusal: the blocker and
    where it blocks (worked out line by line) are not looked for."""
    spose = spose or pose_of(shooter)
    tpose = tpose or pose_of(target)
    refusal = arc_refusal(state, weapon, spose, tpose)
    if refusal is None and weapon.kind == "melee":
        return melee_refusal(state, shooter, target, spose, tpose)
    refusal = refusal or range_refusal(state, weapon, spose, tpose, overwatch)
    if refusal is not None:
        return refusal
    through = weapon.kind == "spray"
    sights = {} if sights is None else sights
    if through not in sights:
        sights[through] = line_of_sight(state, shooter, target, spose, tpose,
                                        through_bots=through)
    if not explain:
        return None if sights[through].clear else NO_SIGHT
    return sight_refusal(state, sights[through], spose, tpose)


def target_refusal(
    state: GameState, shooter: Bot, target_id: str | None
) -> tuple[Bot | None, Refusal | None]:
    """The target bot, refused when missing, gone or the shooter itself (D19)."""
    if target_id is None:
        return None, Refusal("D19", N_("a shot needs a target bot"))
    target = state.bots.get(target_id)
    if target is None:
        return None, Refusal("D19",
                N_("there is no bot {target_id!r}").format(target_id=target_id))
    if not target.on_table:
        return None, Refusal("D19", N_("{target_id} is destroyed").format(target_id=target_id))
    if target.id == shooter.id:
        return None, Refusal("D19", N_("{id} cannot shoot itself").format(id=shooter.id))
    return target, None


def can_fire(state: GameState, shooter_id: str, weapon_name: str, target_id: str,
             overwatch: bool = False, shooter_pose: GivenPose = None,
             target_pose: GivenPose = None) -> Refusal | None:
    """Whether the weapon could legally fire at the target now (None), or why not.
    Poses (x, y, z, facing objects or tuples) put either bot elsewhere, such as
    a mover at a point of its path (R23)."""
    shooter = state.bots.get(shooter_id)
    if shooter is None or not shooter.on_table:
        return Refusal("D19", N_("{shooter_id} is not on the table").format(shooter_id=shooter_id))
    weapon, refusal = find_weapon(state, shooter, weapon_name)
    if refusal is not None:
        return refusal
    target, refusal = target_refusal(state, shooter, target_id)
    if refusal is not None:
        return refusal
    assert weapon is not None and target is not None      # no refusal: both found
    return fire_refusal(state, shooter, weapon, target, overwatch,
                        pose_of(shooter, shooter_pose), pose_of(target, target_pose))


def weapons_that_bear(state: GameState, shooter_id: str, target_id: str,
                      overwatch: bool = False, shooter_pose: GivenPose = None,
                      target_pose: GivenPose = None) -> list[str]:
    """Names of the shooter's weapons that could legally fire at the target now
    (on overwatch: reach capped at rules.overwatch_range, melee allowed, R23)."""
    shooter = state.bots.get(shooter_id)
    if shooter is None or not shooter.on_table:
        return []
    target, refusal = target_refusal(state, shooter, target_id)
    if refusal is not None:
        return []
    assert target is not None                   # no refusal: found
    spose, tpose = pose_of(shooter, shooter_pose), pose_of(target, target_pose)
    sights: dict[bool, Sight] = {}
    names = []
    for weapon in shooter.stats.weapons:
        _, refusal = find_weapon(state, shooter, weapon.name)
        if refusal is None and fire_refusal(state, shooter, weapon, target, overwatch,
                                            spose, tpose, sights, explain=False) is None:
            names.append(weapon.name)
    return names
