"""The shooting phase: checking and resolving a `Shoot` (R7, R18-R30, R34,
R49, R56, D19, D32), plus the pre-measure for the view.

`check_shoot` refuses a whole Shoot with the first reason found (no dice);
`resolve_shoot` rolls `state.dice` in the order of formats.md and applies the
events. Push and pull weapons are handed to `rules.beams.resolve_beams`
together (R29, R30), at the place of the first of them in the order.
"""
from __future__ import annotations

from bottisota.core.actions import Refusal, Shoot, ShotOrder
from bottisota.core.cards import Weapon
from bottisota.core.i18n import N_
from bottisota.engine.events import Event, apply_event
from bottisota.engine.shooting.attack import attack
from bottisota.engine.shooting.beams import resolve_beams
from bottisota.engine.shooting.flight import FLYING_KINDS, explode_at, fly_on
from bottisota.engine.shooting.premeasure import Premeasure, premeasure, premeasure_weapons
from bottisota.engine.shooting.spray import SprayMember, spray_heights, spray_members
from bottisota.engine.shooting.targeting import (
    BEAM_KINDS,
    FIRST_ROUND,
    ammo_left,
    can_fire,
    find_weapon,
    fire_refusal,
    target_refusal,
    weapons_that_bear,
)
from bottisota.engine.state import Bot, GameState

__all__ = ["check_shoot", "resolve_shoot", "premeasure", "premeasure_weapons", "Premeasure",
           "can_fire",
           "weapons_that_bear", "spray_members", "SprayMember"]


def check_shoot(state: GameState, shoot: Shoot, overwatch: bool = False) -> Refusal | None:
    """Why this Shoot is illegal, or None: R7 first round, R56 new bot, D19 each
    weapon once at a legal target, R21 mines, R49 ammo, and the arc, range,
    contact and sight checks of each shot (R18-R25, R38). Rolls nothing."""
    shooter = state.bots.get(shoot.bot)
    if shooter is None or not shooter.on_table:
        return Refusal("D19", N_("{bot} is not on the table").format(bot=shoot.bot))
    if state.round <= FIRST_ROUND:
        return Refusal("R7", N_("nobody may shoot in the first round"))
    if shooter.new:
        return Refusal("R56",
                N_("{id} is new: it may not shoot on its first move").format(id=shooter.id))
    if not shoot.shots:
        return Refusal("D19", N_("a Shoot needs at least one shot"))
    seen: set[str] = set()
    for order in shoot.shots:
        if order.weapon in seen:
            return Refusal("D19",
                    N_("{weapon} may fire only once in a shooting phase").format(
                        weapon=order.weapon))
        seen.add(order.weapon)
        weapon, refusal = find_weapon(state, shooter, order.weapon)
        if refusal is not None:
            return refusal
        target, refusal = target_refusal(state, shooter, order.target)
        if refusal is not None:
            return refusal
        assert weapon is not None and target is not None      # no refusal: both found
        refusal = fire_refusal(state, shooter, weapon, target, overwatch)
        if refusal is not None and len(shoot.shots) > 1:
            return Refusal(refusal.rule,
                    N_("{weapon} at {id}: {message}").format(
                        weapon=order.weapon, id=target.id, message=refusal.message),
                           at=refusal.at)
        if refusal is not None:
            return refusal
    return None


def resolve_shoot(state: GameState, shoot: Shoot, overwatch: bool = False,
                  checked: bool = False) -> list[Event] | Refusal:
    """Check, then fire every shot in order: roll `state.dice`, apply and return
    the events. A refused Shoot rolls nothing and changes nothing. `checked`:
    the caller has just found `check_shoot` None in this very state (`Game`
    checks an action before making it), so it is not asked twice."""
    refusal = None if checked else check_shoot(state, shoot, overwatch)
    if refusal is not None:
        return refusal
    shooter = state.bots[shoot.bot]
    events: list[Event] = []
    beams = [o for o in shoot.shots if _weapon(shooter, o.weapon).kind in BEAM_KINDS]
    for order in shoot.shots:
        weapon = _weapon(shooter, order.weapon)
        if weapon.kind in BEAM_KINDS:
            if order is beams[0]:
                events += _fire_beams(state, shooter, beams)
            continue
        if shooter.destroyed:
            break
        assert order.target is not None         # check_shoot refuses a shot without one (D19)
        events += fire_one(state, shooter, weapon, state.bots[order.target])
    return events


def _weapon(shooter: Bot, name: str) -> Weapon:
    """A weapon of a checked Shoot (check_shoot has found it)."""
    weapon = shooter.stats.weapon(name)
    assert weapon is not None, name
    return weapon


def fire_one(state: GameState, shooter: Bot, weapon: Weapon, target: Bot) -> list[Event]:
    """One legal shot of one weapon (ammo, then the dice): guns and melee one
    attack; rockets and missiles fly on after a miss (R26, R27); sprays roll
    for every bot on the line (R28). An explosive weapon explodes only at the bot
    it hits (R34, D32): the target's roll is the attack itself, a miss has no
    blast (D43); a rocket or missile that misses flies on and may explode at a
    bot on its flight (D32)."""
    events: list[Event] = [apply_event(state, {
        "type": "shot", "bot": shooter.id, "weapon": weapon.name, "target": target.id,
        "kind": weapon.kind})]
    if target.destroyed:
        events.append(apply_event(state, {"type": "shot_skipped", "bot": shooter.id,
                                          "weapon": weapon.name, "target": target.id,
                                          "reason":
                                                  N_("{id} is already destroyed").format(
                                                      id=target.id)}))
        return events
    events += _use_ammo(state, shooter, weapon)
    if weapon.kind == "spray":
        for member in spray_members(
            state, shooter, target.pos, heights=spray_heights(shooter, target)
        ):
            events += attack(state, shooter, weapon, state.bots[member.bot])[1]
    else:
        hit, more = attack(state, shooter, weapon, target)
        events += more
        if hit and weapon.explosive:
            events += explode_at(state, shooter, weapon, target)
        elif not hit and weapon.kind in FLYING_KINDS:
            events += fly_on(state, shooter, weapon, target)
    return events


def _use_ammo(state: GameState, shooter: Bot, weapon: Weapon) -> list[Event]:
    """R49: one shot of ammo used (weapons with limited ammo only)."""
    left = ammo_left(shooter, weapon)
    if left is None:
        return []
    return [apply_event(state, {"type": "ammo", "bot": shooter.id, "weapon": weapon.name,
                                "left": left - 1})]


def _fire_beams(state: GameState, shooter: Bot, orders: list[ShotOrder]) -> list[Event]:
    """Push and pull (R29, R30) belong to rules.beams; ammo is used here."""

    events: list[Event] = []
    pairs = []
    for order in orders:
        assert order.target is not None         # check_shoot refuses a shot without one (D19)
        weapon, target = _weapon(shooter, order.weapon), state.bots[order.target]
        events.append(apply_event(state, {"type": "shot", "bot": shooter.id,
                                          "weapon": weapon.name, "target": target.id,
                                          "kind": weapon.kind}))
        events += _use_ammo(state, shooter, weapon)
        pairs.append((weapon, target))
    return events + resolve_beams(state, shooter, pairs)
