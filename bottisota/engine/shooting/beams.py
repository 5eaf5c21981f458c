"""Push and pull beams (R29, R30, R16, D22).

A beam that hits flings its target straight away from the shooter (push) or
toward it (pull) by the weapon's `strength`, whatever its armour tests, which
are rolled only after the movement and its collisions (R29). A pull stronger
than the gap drags the target into the shooter: a collision like any other. If the
same shooter both pulls and pushes the
same target and both hit, the target takes rules.pull_push_hits extra hits at
rules.pull_push_armour_mod and moves only by the difference of the strengths
(R30). Kills by pits, falls and collisions on the way are the shooter's (D22):
`movement.fling` is called with `by=shooter.id`.

Dice order: each beam's to-hit (and hit count), then the movement's collision
dice, then the armour tests.
"""
from __future__ import annotations

from dataclasses import dataclass

from bottisota.core.cards import Weapon
from bottisota.core.compass import bearing
from bottisota.core.i18n import N_
from bottisota.engine import damage
from bottisota.engine.events import Event, apply_event, r2
from bottisota.engine.movement.moves import fling
from bottisota.engine.shooting.attack import special_damage
from bottisota.engine.state import Bot, GameState

PUSH, PULL = "push", "pull"


@dataclass(frozen=True, slots=True)
class BeamHit:
    """A beam that hit, and how many hits it delivers once the target has moved."""

    weapon: Weapon
    hits: int


def fling_plan(shooter: Bot, target: Bot, kind: str, strength: float) -> tuple[float, float]:
    """(heading, distance) the target is thrown: away from the shooter's centre
    (push) or toward it (pull), the full strength either way (R29). A pull
    stronger than the gap drags the target into the shooter: the fling stops at
    base contact and that is a collision like any other (R29 exempts no bot,
    D9, D10); a pull that only reaches contact (D4) is none."""
    if kind == PUSH:
        return bearing(shooter.pos, target.pos), max(0.0, strength)
    return bearing(target.pos, shooter.pos), max(0.0, strength)


def resolve_beams(state: GameState, shooter: Bot,
                  orders: list[tuple[Weapon, Bot]]) -> list[Event]:
    """Resolve the shooter's push and pull beams (R29, R30), already checked for
    arc, range, sight and ammo by the caller. Targets are taken in the order they
    are first named; a target both pushed and pulled rolls all its beams' to-hits
    first and moves once (R30); any other beam is rolled, moves and tests armour
    on its own. Applies and returns the events in dice order."""
    events: list[Event] = []
    for target, weapons in _by_target(orders):
        kinds = {w.kind for w in weapons}
        if PUSH in kinds and PULL in kinds:
            events += _push_and_pull(state, shooter, target, weapons)
        else:
            for weapon in weapons:
                events += _one_beam(state, shooter, weapon, target)
    return events


def _by_target(orders: list[tuple[Weapon, Bot]]) -> list[tuple[Bot, list[Weapon]]]:
    groups: dict[str, tuple[Bot, list[Weapon]]] = {}
    for weapon, target in orders:
        groups.setdefault(target.id, (target, []))[1].append(weapon)
    return list(groups.values())


def _cause(shooter: Bot, weapon: Weapon) -> str:
    return N_("{id}'s {name}").format(id=shooter.id, name=weapon.name)


def _roll_beam(state: GameState, shooter: Bot, weapon: Weapon, target: Bot,
               events: list[Event]) -> BeamHit | None:
    """To-hit (D5) and the hit count (D6) of one beam; None on a miss."""
    hit, event = damage.roll_to_hit(state, shooter, weapon, target)
    events.append(event)
    if not hit:
        return None
    cause = _cause(shooter, weapon)
    count = damage.roll_hits(state, weapon.hits,
            N_("{cause} on {id}").format(cause=cause, id=target.id))
    events.append(apply_event(state, {"type": "hits", "bot": target.id, "amount": count,
                                      "cause": cause}))
    return BeamHit(weapon, count)


def _throw(state: GameState, shooter: Bot, target: Bot, kind: str, strength: float,
           cause: str) -> list[Event]:
    """Fling the target (R29) through movement, the shooter credited (D22)."""
    if target.destroyed or strength <= 0:
        return []
    heading, distance = fling_plan(shooter, target, kind, strength)
    events: list[Event] = [apply_event(state, {
        "type": "beam", "bot": shooter.id, "target": target.id, "kind": kind,
        "heading": round(heading, 4), "distance": r2(distance), "cause": cause})]
    if distance > 0:
        events += fling(state, target.id, heading, distance, by=shooter.id)
    return events


def _armour(state: GameState, shooter: Bot, target: Bot, beam: BeamHit) -> list[Event]:
    """Special damage (D27) and armour tests (D6) of one beam, after the fling."""
    events = special_damage(state, target, beam.weapon, beam.hits)
    events += damage.take_hits(state, target, beam.hits, beam.weapon.armour_mod,
                               _cause(shooter, beam.weapon), by=shooter.id)
    return events


def _one_beam(state: GameState, shooter: Bot, weapon: Weapon, target: Bot) -> list[Event]:
    """One beam on its own: to-hit, hits, the fling, then armour (R29)."""
    if target.destroyed:
        return []
    events: list[Event] = []
    beam = _roll_beam(state, shooter, weapon, target, events)
    if beam is None:
        return events
    events += _throw(state, shooter, target, weapon.kind, weapon.strength,
                     _cause(shooter, weapon))
    events += _armour(state, shooter, target, beam)
    return events


def _push_and_pull(state: GameState, shooter: Bot, target: Bot,
                   weapons: list[Weapon]) -> list[Event]:
    """R30: every beam's to-hit first; if a push and a pull both hit, extra hits
    and a move by the difference of strengths only; then all armour tests."""
    events: list[Event] = []
    hits: list[BeamHit] = []
    for weapon in weapons:
        beam = _roll_beam(state, shooter, weapon, target, events)
        if beam is not None:
            hits.append(beam)
    if not hits:
        return events
    pushed = sum(b.weapon.strength for b in hits if b.weapon.kind == PUSH)
    pulled = sum(b.weapon.strength for b in hits if b.weapon.kind == PULL)
    both = any(b.weapon.kind == PUSH for b in hits) and any(b.weapon.kind == PULL for b in hits)
    extra = 0
    cause = N_("{id}'s pull and push (R30)").format(id=shooter.id)
    if both:
        extra = damage.roll_hits(state, state.rules.pull_push_hits,
                N_("{cause} on {id}").format(cause=cause, id=target.id))
        events.append(apply_event(state, {"type": "hits", "bot": target.id, "amount": extra,
                                          "cause": cause}))
    net = pushed - pulled
    if both and net == 0:
        events.append(apply_event(state, {
            "type": "beam", "bot": shooter.id, "target": target.id, "kind": "held",
            "heading": None, "distance": 0.0, "cause": cause}))
    if net > 0:
        events += _throw(state, shooter, target, PUSH, net, cause if both else
                         _cause(shooter, hits[0].weapon))
    elif net < 0:
        events += _throw(state, shooter, target, PULL, -net, cause if both else
                         _cause(shooter, hits[0].weapon))
    for beam in hits:
        events += _armour(state, shooter, target, beam)
    if extra:
        events += damage.take_hits(state, target, extra, state.rules.pull_push_armour_mod,
                                   cause, by=shooter.id)
    return events
