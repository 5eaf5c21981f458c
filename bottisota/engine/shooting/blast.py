"""Explosions: who is in a blast and rolling against each of them.

R34: the blast marker (rules.blast_diameter across) is centred on a point;
the centre bot is the one whose base touches the centre point; other bots
whose bases touch the marker are in the area at rules.blast_hit_mod to hit
and rules.blast_armour_mod on armour. R35, D13: bots behind a wall or closed
door (the segment from the blast centre to the bot's centre crosses one) or
whose floor differs by more than rules.level_difference are safe. D32: every
member rolls its own to-hit, nearest first to the centre, ties by id.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from bottisota.core.arena import Feature
from bottisota.core.cards import Weapon
from bottisota.core.i18n import N_
from bottisota.core.limits import beyond, within
from bottisota.engine.events import Event, apply_event, r2
from bottisota.engine.shooting.attack import attack
from bottisota.engine.shooting.geometry import first_barrier, open_doors
from bottisota.engine.state import Bot, GameState


@dataclass(frozen=True, slots=True)
class BlastMember:
    """A bot in a blast's area: how far its centre is from the blast centre,
    whether it is the centre bot, and its modifiers (R34)."""

    bot: str
    distance: float
    centre: bool
    hit_mod: int
    armour_mod: int


@dataclass(frozen=True, slots=True)
class SafeBot:
    """A bot the marker touches but the blast spares (R35, D13), and why."""

    bot: str
    reason: str


def blast_members(state: GameState, centre_xy: Sequence[float], centre_z: float,
                  exclude: Iterable[str] = ()) -> list[BlastMember]:
    """The bots a blast centred at (centre_xy, centre_z) affects (R34, R35, D12,
    D13, D32), nearest first to the centre, ties by id."""
    return blast_area(state, centre_xy, centre_z, exclude)[0]


def blast_area(state: GameState, centre_xy: Sequence[float], centre_z: float,
               exclude: Iterable[str] = ()) -> tuple[list[BlastMember], list[SafeBot]]:
    """`blast_members` plus the bots the marker touches that are safe (for the
    pre-measure's overlay)."""
    rules = state.rules
    skip = set(exclude)
    bots = [b for b in state.live_bots() if b.id not in skip]
    if not bots:
        return [], []
    cx, cy = float(centre_xy[0]), float(centre_xy[1])
    xs = np.array([b.x for b in bots])
    ys = np.array([b.y for b in bots])
    radii = np.array([b.radius for b in bots])
    dist = np.hypot(xs - cx, ys - cy)
    tol = rules.contact_tolerance
    touching = within(dist, radii + rules.blast_diameter / 2.0 + tol)
    on_centre = within(dist, radii + tol)
    centre_id = _centre_bot(bots, dist, on_centre)
    opened = open_doors(state) if touching.any() else set()
    members: list[BlastMember] = []
    safe: list[SafeBot] = []
    for i in np.nonzero(touching)[0]:
        bot = bots[i]
        reason = _why_safe(state, bot, (cx, cy), centre_z, opened)
        if reason is not None:
            safe.append(SafeBot(bot.id, reason))
            continue
        is_centre = bot.id == centre_id
        members.append(BlastMember(
            bot.id, float(dist[i]), is_centre,
            0 if is_centre else rules.blast_hit_mod,
            0 if is_centre else rules.blast_armour_mod))
    members.sort(key=lambda m: (not m.centre, round(m.distance, 6), m.bot))
    return members, safe


def _centre_bot(bots: list[Bot], dist: np.ndarray, on_centre: np.ndarray) -> str | None:
    """The bot whose base touches the centre point (R34); the nearest if several."""
    candidates = [(round(float(dist[i]), 6), bots[i].id) for i in np.nonzero(on_centre)[0]]
    return min(candidates)[1] if candidates else None


def _why_safe(state: GameState, bot: Bot, centre: tuple[float, float], centre_z: float,
              opened: set[Feature]) -> str | None:
    """R35, D13: a different level, or a wall or closed door between."""
    rules = state.rules
    if beyond(abs(bot.z - centre_z), rules.level_difference):
        return (N_("R35: {id}'s floor is {z:.1f} cm from the blast's; levels differ by more "
                   "than {level_difference:g} cm").format(
                    id=bot.id, z=abs(bot.z - centre_z), level_difference=rules.level_difference))
    crossing = first_barrier(state, centre, bot.pos, opened)
    if crossing is not None:
        feature, point, _ = crossing
        return N_("R35: {label} shields {id} at ({v:.1f}, {v2:.1f})").format(
                   label=feature.label, id=bot.id, v=point[0], v2=point[1])
    return None


def resolve_blast(state: GameState, source: Bot | None, weapon: Weapon,
                  centre_xy: Sequence[float], centre_z: float, centre_bot_id: str | None = None,
                  to_hit: int | None = None, hits: int | str | None = None,
                  by: str | None = None, exclude: Iterable[str] = (),
                  rolled: Iterable[str] = ()) -> list[Event]:
    """Explode `weapon` at a point (R34, R35, D32): every member rolls its own
    attack (to-hit, hits, special damage, armour), nearest first. A
    `centre_bot_id` that is in the area is the centre bot (no -1/+1) whatever
    the geometry says. `to_hit`/`hits` override the weapon's (D21); kill
    credit goes to `by`, by default the source (D22). A member in `rolled` is
    listed but does not roll again (the bot a shot hit: its attack was its roll,
    D32). Applies and returns the events, starting with a `blast` event that
    lists the members."""
    members, safe = blast_area(state, centre_xy, centre_z, exclude)
    if centre_bot_id is not None:
        members = recentred(state, members, centre_bot_id)
    events: list[Event] = [apply_event(state, {
        "type": "blast", "weapon": weapon.name, "source": source.id if source else None,
        "x": r2(centre_xy[0]), "y": r2(centre_xy[1]), "z": r2(centre_z),
        "r": r2(state.rules.blast_diameter / 2.0),
        "members": [m.bot for m in members], "safe": [s.bot for s in safe]})]
    credit = by if by is not None else (source.id if source is not None else None)
    cause = N_("{id}'s {name} blast").format(
                id=source.id, name=weapon.name) if source else N_("{name} blast").format(
                                                                    name=weapon.name)
    done = set(rolled)
    for member in members:
        if member.bot in done:
            continue
        target = state.bots[member.bot]
        _, more = attack(state, source, weapon, target, hit_mod=member.hit_mod,
                         armour_mod=member.armour_mod, cause=cause, to_hit=to_hit,
                         by=credit, hits=hits)
        events += more
    return events


def recentred(state: GameState, members: list[BlastMember], centre_id: str) -> list[BlastMember]:
    """Make `centre_id` the centre bot (when it is a member), the rest off-centre."""
    if not any(m.bot == centre_id for m in members):
        return members
    rules = state.rules
    out = []
    for m in members:
        is_centre = m.bot == centre_id
        out.append(BlastMember(m.bot, m.distance, is_centre,
                               0 if is_centre else rules.blast_hit_mod,
                               0 if is_centre else rules.blast_armour_mod))
    out.sort(key=lambda m: (not m.centre, round(m.distance, 6), m.bot))
    return out
