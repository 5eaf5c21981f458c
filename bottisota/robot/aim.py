"""A robot's shooting phase: which weapons, at whom, as its intention says (R18-R28).

Legality is the shooting rules' (`targeting.can_fire`, `Game.legal`); this only
chooses among what they allow.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bottisota.core.actions import Shoot, ShotOrder
from bottisota.core.cards import Weapon
from bottisota.engine.state import Bot, GameState


def _can_fire():
    from bottisota.engine.shooting.targeting import can_fire

    return can_fire


def weapons_at(state: GameState, bot: Bot, target: Bot) -> list[str]:
    """Names of the bot's guns (not mines) that could fire at the target now."""
    can_fire = _can_fire()
    return [w.name for w in bot.stats.weapons
            if not w.is_mine and can_fire(state, bot.id, w.name, target.id) is None]


def can_fire_from(state: GameState, bot: Bot, target: Bot, pose: object) -> bool:
    """Some gun of the bot could fire at the target with the bot standing at `pose`."""
    can_fire = _can_fire()
    return any(not w.is_mine and can_fire(state, bot.id, w.name, target.id,
                                          shooter_pose=pose) is None
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

    key: Callable[[Bot], tuple[Any, ...]]
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
    can_fire = _can_fire()
    targets = ordered_targets(state, bot, target)
    orders = []
    for w in chosen_weapons(bot, weapons):
        for t in targets:
            if can_fire(state, bot.id, w.name, t.id) is None:
                orders.append(ShotOrder(w.name, t.id))
                break
    return Shoot(bot.id, tuple(orders)) if orders else None
