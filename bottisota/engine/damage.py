"""Tests and damage shared by every rule: to-hit (D5), armour (D6), destruction (D7),
kill credit and points (D22). Each function rolls `state.dice`, applies its
events to the state at once and returns them, in dice order (formats.md).
"""
from __future__ import annotations

from bottisota.core.cards import Weapon
from bottisota.core.i18n import N_
from bottisota.engine.event_types import ToHitEvent
from bottisota.engine.events import Event, apply_event
from bottisota.engine.state import Bot, GameState


def passes(state: GameState, natural: int, total: int, need: int) -> bool:
    """A d6 test: natural 1 fails, natural 6 succeeds (R5), else total >= need."""
    if natural <= state.rules.natural_fail:
        return False
    if natural >= state.rules.natural_success:
        return True
    return total >= need


def to_hit_modifier(shooter: Bot) -> int:
    """The shooter's own to-hit modifier: parts (hit_mod) less leaflet hits (D26)."""
    return shooter.stats.hit_mod - shooter.leaflet


def armour_modifier(target: Bot) -> int:
    """The target's own armour modifier: parts (armour_mod) less rust (D25)."""
    return target.stats.armour_mod - target.rust


def hit_chance(state: GameState, need: int, modifier: int) -> float:
    """Chance that d6 + modifier >= need, with R5's natural 1 and 6."""
    good = sum(1 for n in range(1, 7) if passes(state, n, n + modifier, need))
    return good / 6.0


def roll_to_hit(state: GameState, shooter: Bot, weapon: Weapon, target: Bot,
                modifier: int = 0, to_hit: int | None = None) -> tuple[bool, Event]:
    """One to-hit roll (D5) with the shooter's own modifiers added."""
    need = weapon.to_hit if to_hit is None else to_hit
    mod = modifier + to_hit_modifier(shooter)
    roll = state.dice.d6(
            N_("to-hit: {id}'s {name} vs {id2}, needs {need}+").format(
                id=shooter.id, name=weapon.name, id2=target.id, need=need)
                         + (f" ({mod:+d})" if mod else ""))
    hit = passes(state, roll, roll + mod, need)
    event: ToHitEvent = {"type": "to_hit", "bot": shooter.id, "weapon": weapon.name,
                         "target": target.id, "roll": roll, "mod": mod, "need": need,
                         "hit": hit}
    return hit, apply_event(state, event)


def roll_hits(state: GameState, amount: int | str, purpose: str) -> int:
    """The number of hits a successful attack deals (`hits: 2` or `hits: d6`, D6)."""
    return state.dice.roll(amount, N_("hits: {purpose}").format(purpose=purpose))


def take_hits(state: GameState, target: Bot, hits: int, armour_mod: int, cause: str,
              by: str | None = None, reroll_first_failure: bool = False) -> list[Event]:
    """Roll one armour test per hit (D6); each failure is one damage point (stops
    once the bot is destroyed). `by` is the bot credited with a kill (D22).
    With `reroll_first_failure` the first failed test is rolled again (R17)."""
    events: list[Event] = []
    for i in range(hits):
        if target.destroyed:
            break
        mod = armour_mod + armour_modifier(target)
        need = target.stats.armour
        purpose = N_("armour: {id} vs {cause} ({i} of {hits}), needs {need}+").format(
                      id=target.id, cause=cause, i=i + 1, hits=hits, need=need)
        roll = state.dice.d6(purpose + (f" ({mod:+d})" if mod else ""))
        ok = passes(state, roll, roll + mod, need)
        test: Event = {"type": "armour_test", "bot": target.id, "roll": roll, "mod": mod,
                       "need": need, "passed": ok, "cause": cause}
        if not ok and reroll_first_failure:
            reroll_first_failure = False
            events.append(apply_event(state, test))
            roll = state.dice.d6(N_("re-roll (R17) ") + purpose)
            ok = passes(state, roll, roll + mod, need)
            test = {"type": "armour_test", "bot": target.id, "roll": roll, "mod": mod,
                    "need": need, "passed": ok, "cause": cause, "reroll": True}
        events.append(apply_event(state, test))
        if not ok:
            events += deal_damage(state, target, 1, cause, by)
    return events


def deal_damage(state: GameState, target: Bot, amount: int, cause: str,
                by: str | None = None) -> list[Event]:
    """Damage with no armour test (falls, R39); destroys the bot at its structure (D7)."""
    if amount <= 0 or target.destroyed:
        return []
    events = [apply_event(state, {"type": "damaged", "bot": target.id, "amount": int(amount),
                                  "cause": cause})]
    if target.damage >= target.stats.structure:
        events += destroy(state, target, cause, by)
    return events


def destroy(state: GameState, target: Bot, cause: str, by: str | None = None) -> list[Event]:
    """Destroy a bot (D7, R36, R12, D21) and score the kill for `by`'s player (D22):
    no points when `by` is None, the bot itself, or a bot of the same player."""
    if target.destroyed:
        return []
    events = [apply_event(state, {"type": "destroyed", "bot": target.id, "cause": cause,
                                  "by": by})]
    killer = state.bots.get(by) if by else None
    if killer is not None and killer.id != target.id and killer.player != target.player:
        events.append(apply_event(state, {"type": "score", "player": killer.player,
                                          "points": state.rules.kill_points,
                                          "reason":
                                                  N_("kill: {id}").format(
                                                      id=target.id), "kill": True}))
    return events
