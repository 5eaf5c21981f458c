"""A robot's shooting phase: which weapons, at whom, as its intention says (R18-R28).

Legality is the shooting rules' (`targeting.can_fire`, `Game.legal`); this only
chooses among what they allow.
"""
from __future__ import annotations

import math
from collections.abc import Callable

from bottisota.core.actions import Shoot, ShotOrder
from bottisota.core.cards import Weapon
from bottisota.engine.shooting.targeting import (
    Placed,
    Pose,
    PoseTuple,
    arc_refusal,
    find_weapon,
    line_of_sight,
    melee_refusal,
    pose_of,
    range_refusal,
    target_refusal,
)
from bottisota.engine.state import Bot, GameState
from bottisota.geometry.arena_index import FAST_PATHS, Sight


def fires(state: GameState, shooter: Bot, name: str, target: Bot, spose: Pose, tpose: Pose,
          sights: dict[bool, Sight]) -> bool:
    """`can_fire(...) is None` for the shooter at `spose` and the target at `tpose`
    (R18-R25, R49), the same checks in the same order, but a yes or no only: a blocked
    line's blocker is never looked up to word a refusal. `sights` keeps the target's
    sight lines (through bots or not) for the next weapon."""
    weapon, refusal = find_weapon(state, shooter, name)
    if refusal is not None or weapon is None:
        return False
    if target_refusal(state, shooter, target.id)[1] is not None:
        return False
    if arc_refusal(state, weapon, spose, tpose) is not None:
        return False
    if weapon.kind == "melee":
        return melee_refusal(state, shooter, target, spose, tpose) is None
    if range_refusal(state, weapon, spose, tpose, False) is not None:
        return False
    through = weapon.kind == "spray"
    if through not in sights:
        sights[through] = line_of_sight(state, shooter, target, spose, tpose,
                                        through_bots=through)
    return sights[through].clear


def too_far(state: GameState, shooter: Bot, name: str, target: Bot, distance: float) -> bool:
    """`fires` would surely say no for this weapon at a target `distance` cm away
    (centre to centre, as the rules measure it): beyond the gun's range (R18) or, for
    melee, beyond base contact (R25), with a margin for rounding. A shortcut past its
    checks for far targets, never a different answer (never taken with the fast
    paths off)."""
    weapon = shooter.stats.weapon(name)
    if weapon is None or not FAST_PATHS.on:
        return False
    if weapon.kind == "melee":
        limit = shooter.radius + target.radius + state.rules.contact_tolerance
    else:
        limit = weapon.range
    return distance > limit + 1e-6


def any_weapon_at(state: GameState, bot: Bot, targets: list[Bot]) -> bool:
    """Some gun of the bot could fire at one of the targets now (`weapons_at` of each,
    the far ones skipped)."""
    guns = [w.name for w in bot.stats.weapons if not w.is_mine]
    for t in targets:
        d = math.hypot(t.x - bot.x, t.y - bot.y)
        if all(too_far(state, bot, name, t, d) for name in guns):
            continue
        if weapons_at(state, bot, t):
            return True
    return False


def weapons_at(state: GameState, bot: Bot, target: Bot) -> list[str]:
    """Names of the bot's guns (not mines) that could fire at the target now."""
    spose, tpose = pose_of(bot), pose_of(target)
    sights: dict[bool, Sight] = {}
    return [w.name for w in bot.stats.weapons
            if not w.is_mine and fires(state, bot, w.name, target, spose, tpose, sights)]


def can_fire_from(state: GameState, bot: Bot, target: Bot, pose: Placed | PoseTuple) -> bool:
    """Some gun of the bot could fire at the target with the bot standing at `pose`."""
    spose, tpose = pose_of(bot, pose), pose_of(target)
    sights: dict[bool, Sight] = {}
    return any(not w.is_mine and fires(state, bot, w.name, target, spose, tpose, sights)
               for w in bot.stats.weapons)


def expected_hits(w: Weapon) -> float:
    hits = 3.5 if isinstance(w.hits, str) else float(w.hits)
    return hits * max(0, 7 - w.to_hit) / 6.0 * (1 + 0.2 * max(0, -w.armour_mod))


def chosen_weapons(bot: Bot, choice: str) -> list[Weapon]:
    """The weapons an intention names: all, nose, turret, longest, strongest."""
    guns = [w for w in bot.stats.weapons if not w.is_mine
            and (w.ammo is None or bot.ammo.get(w.name, w.ammo) > 0)]
    if choice == "nose":
        return [w for w in guns if w.mount == "nose"] or guns
    if choice == "turret":
        return [w for w in guns if w.mount == "turret"] or guns
    if choice == "longest" and guns:
        return [max(guns, key=lambda w: (w.range, expected_hits(w)))]
    if choice == "strongest" and guns:
        return [max(guns, key=lambda w: (expected_hits(w), w.range))]
    return guns


def ordered_targets(state: GameState, bot: Bot, policy: str) -> list[Bot]:
    """Enemies in the order the intention prefers them (ties by distance, then id)."""
    enemies = [b for b in state.live_bots() if b.player != bot.player]

    def dist(e: Bot) -> float:
        return bot.distance_to(e)

    key: Callable[[Bot], tuple[float | str, ...]]
    if policy == "weakest":
        key = lambda e: (e.stats.structure - e.damage, dist(e), e.id)  # noqa: E731
    elif policy == "most_damaged":
        key = lambda e: (-e.damage, dist(e), e.id)  # noqa: E731
    elif policy == "leader":
        key = lambda e: (-state.scores.get(e.player, 0), dist(e), e.id)  # noqa: E731
    elif policy == "furthest":
        key = lambda e: (-dist(e), e.id)  # noqa: E731
    else:
        key = lambda e: (dist(e), e.id)  # noqa: E731
    return sorted(enemies, key=key)


def shots(state: GameState, bot: Bot, weapons: str, target: str) -> Shoot | None:
    """Each chosen weapon at the first preferred enemy it can legally hit; None if none."""
    targets = ordered_targets(state, bot, target)
    spose = pose_of(bot)
    poses: dict[str, Pose] = {}             # made for the targets in reach only
    sights: dict[str, dict[bool, Sight]] = {}
    away = {t.id: math.hypot(t.x - bot.x, t.y - bot.y) for t in targets}
    orders = []
    for w in chosen_weapons(bot, weapons):
        for t in targets:
            if too_far(state, bot, w.name, t, away[t.id]):
                continue
            if t.id not in poses:
                poses[t.id], sights[t.id] = pose_of(t), {}
            if fires(state, bot, w.name, t, spose, poses[t.id], sights[t.id]):
                orders.append(ShotOrder(w.name, t.id))
                break
    return Shoot(bot.id, tuple(orders)) if orders else None
