"""One attack on one bot, in the dice order of formats.md.

To-hit (D5), then the hit count when `hits: d6` (D6), then special damage
(D25-D27: one rust or leaflet step per hit delivered, before armour), then
the armour tests (D6, R5); destruction and kill credit go through
`rules.damage` (D7, D22). Every weapon kind that rolls against a bot (guns,
melee, rockets, missiles, sprays, blasts, mines) ends up here.
"""
from __future__ import annotations

from bottisota.core.cards import Weapon
from bottisota.core.i18n import N_
from bottisota.engine import damage
from bottisota.engine.event_types import StatusEvent, ToHitEvent
from bottisota.engine.events import Event, apply_event
from bottisota.engine.state import Bot, GameState


def attack(state: GameState, shooter: Bot | None, weapon: Weapon, target: Bot,
           hit_mod: int = 0, armour_mod: int = 0, cause: str | None = None,
           to_hit: int | None = None, by: str | None = None,
           hits: int | str | None = None) -> tuple[bool, list[Event]]:
    """Roll one attack of `weapon` on `target`; apply and return its events.

    `hit_mod` and `armour_mod` are the situation's modifiers (a blast's -1/+1,
    R34); the shooter's own (parts, leaflets, D26) and the weapon's
    `armour_mod` are added here. `to_hit` and `hits` override the weapon's
    numbers (self-destruct, D21). Kill credit goes to `by`, by default the
    shooter (D22); `shooter=None` (a mine whose owner is gone) rolls with no
    shooter modifiers. Returns whether the attack hit.
    """
    if target.destroyed:
        return False, []
    cause = cause or _cause(shooter, weapon)
    credit = by if by is not None else (shooter.id if shooter is not None else None)
    events: list[Event] = []
    if shooter is not None:
        hit, event = damage.roll_to_hit(state, shooter, weapon, target, hit_mod, to_hit)
    else:
        hit, event = _roll_to_hit_without_shooter(state, weapon, target, hit_mod, to_hit)
    events.append(event)
    if not hit:
        return False, events
    amount = hits if hits is not None else weapon.hits
    count = damage.roll_hits(state, amount,
            N_("{cause} on {id}").format(cause=cause, id=target.id))
    events.append(apply_event(state, {"type": "hits", "bot": target.id, "amount": count,
                                      "cause": cause}))
    events += special_damage(state, target, weapon, count)
    events += damage.take_hits(state, target, count, weapon.armour_mod + armour_mod,
                               cause, by=credit)
    return True, events


def special_damage(state: GameState, target: Bot, weapon: Weapon, count: int) -> list[Event]:
    """Rust (D25) or leaflet (D26) steps for `count` delivered hits, capped; not
    stopped by armour (D27). A `status` event with the new values, or nothing."""
    if weapon.effect not in ("rust", "leaflet") or count <= 0 or target.destroyed:
        return []
    if weapon.effect == "rust":
        value = min(state.rules.rust_max, target.rust + count)
    else:
        value = min(state.rules.leaflet_max, target.leaflet + count)
    event: StatusEvent = ({"type": "status", "bot": target.id, "rust": value, "cause": weapon.name}
                          if weapon.effect == "rust" else
                          {"type": "status", "bot": target.id, "leaflet": value,
                           "cause": weapon.name})
    return [apply_event(state, event)]


def _cause(shooter: Bot | None, weapon: Weapon) -> str:
    if shooter is None:
        return weapon.name
    return N_("{id}'s {name}").format(id=shooter.id, name=weapon.name)


def _roll_to_hit_without_shooter(state: GameState, weapon: Weapon, target: Bot,
                                 modifier: int, to_hit: int | None) -> tuple[bool, Event]:
    """A to-hit roll (D5, R5) with no shooter: only the situation's modifier."""
    need = weapon.to_hit if to_hit is None else to_hit
    roll = state.dice.d6(
            N_("to-hit: {name} vs {id}, needs {need}+").format(
                name=weapon.name, id=target.id, need=need)
                         + (f" ({modifier:+d})" if modifier else ""))
    hit = damage.passes(state, roll, roll + modifier, need)
    event: ToHitEvent = {"type": "to_hit", "bot": None, "weapon": weapon.name, "target": target.id,
             "roll": roll, "mod": modifier, "need": need, "hit": hit}
    return hit, apply_event(state, event)
