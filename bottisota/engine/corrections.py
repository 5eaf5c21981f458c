"""The referee's hand: a `Correct` action's check and events. A correction sets what
it names (a bot's place and facing, damage, ammo, overwatch, rust and leaflet, its
player's score, a door held open or left to R47 again) through the same
state-changing events the rules use, after one `correction` event carrying the
reason: a journaled action like any other, undone and replayed the same way.
It needs nobody's turn and ends none."""
from __future__ import annotations

from bottisota.core.actions import Correct, Refusal
from bottisota.core.arena import Feature
from bottisota.core.i18n import N_
from bottisota.engine.event_types import StatusEvent
from bottisota.engine.events import Event, apply_event, bot_moved_event
from bottisota.engine.shooting.geometry import barriers, door_key, open_doors
from bottisota.engine.state import GameState

CORRECTION = "correction"      # the `cause` of the events a correction makes


def check_correct(state: GameState, c: Correct) -> Refusal | None:
    """Why the correction cannot be made (no such bot, a place off the table, a weapon
    the bot does not carry, a negative count, no reason), or None."""
    bot = state.bots.get(c.bot)
    if bot is None:
        return Refusal("D18", N_("there is no bot {action!r}").format(action=c.bot))
    if not c.reason.strip():
        return Refusal("D18", N_("a correction needs a reason"))
    if c.at is not None:
        w, h = state.arena.size
        if not (0 <= c.at[0] <= w and 0 <= c.at[1] <= h):
            return Refusal("D1", N_("({x}, {y}) is off the table").format(x=c.at[0], y=c.at[1]))
    for name, left in c.ammo:
        weapon = bot.stats.weapon(name)
        if weapon is None or weapon.ammo is None:
            return Refusal("R49", N_("{id} has no weapon {name!r} with ammo").format(
                id=bot.id, name=name))
        if left < 0:
            return Refusal("R49", N_("shots left cannot be below 0"))
    doors = {door_key(d): d for d in barriers(state.index).doors}
    for name, held in c.doors:
        door = doors.get(name)
        if door is None:
            return Refusal("R47", N_("there is no door {name!r}").format(name=name))
        if not held and door in _touched(state):
            return Refusal("R47", N_("a bot touches {label}: it stays open (R47) until the "
                                     "bot is moved off it").format(label=door.label))
    for value in (c.damage, c.rust, c.leaflet):
        if value is not None and value < 0:
            return Refusal("D6", N_("a count cannot be below 0"))
    return None


def correct(state: GameState, c: Correct) -> list[Event]:
    """Carry out a checked correction: its `correction` event, then the events that set
    each thing it names (nothing else changes: no turn ends, nobody is removed)."""
    bot = state.bots[c.bot]
    events: list[Event] = [{"type": "correction", "bot": bot.id, "reason": c.reason}]
    if c.at is not None or c.facing is not None:
        x, y = c.at if c.at is not None else (bot.x, bot.y)
        z = state.index.floor_z(x, y) if c.at is not None else bot.z
        facing = c.facing if c.facing is not None else bot.facing
        events.append(bot_moved_event(bot, x, y, z, facing, forced=True))
    if c.damage is not None and c.damage != bot.damage:
        events.append({"type": "damaged", "bot": bot.id, "amount": c.damage - bot.damage,
                       "cause": CORRECTION})
    for name, left in c.ammo:
        events.append({"type": "ammo", "bot": bot.id, "weapon": name, "left": left,
                       "cause": CORRECTION})
    if c.overwatch is not None and c.overwatch != bot.overwatch:
        events.append({"type": "overwatch", "bot": bot.id, "on": c.overwatch,
                       "reason": CORRECTION})
    if c.rust is not None or c.leaflet is not None:
        status: StatusEvent = {"type": "status", "bot": bot.id, "cause": CORRECTION}
        if c.rust is not None:
            status["rust"] = c.rust
        if c.leaflet is not None:
            status["leaflet"] = c.leaflet
        events.append(status)
    if c.score is not None:
        now = state.scores.get(bot.player, 0)
        if c.score != now:
            events.append({"type": "score", "player": bot.player, "points": c.score - now,
                           "reason": CORRECTION})
    doors = {door_key(d): d for d in barriers(state.index).doors}
    for name, held in c.doors:
        if held != (name in state.held_open):
            events.append({"type": "door_held", "door": doors[name].label, "key": name,
                           "open": held, "cause": CORRECTION})
    return [apply_event(state, e) for e in events]


def _touched(state: GameState) -> set[Feature]:
    """The doors a base touches (R47), the referee's holds left out."""
    if not state.held_open:
        return open_doors(state)
    free = state.copy()
    free.held_open = []
    return open_doors(free)
