"""Events: every state change is one, and the journal stores them.

An event is a JSON-ready dict with a `type`, declared in
`bottisota.engine.event_types`. `apply_event(state, event)` performs the change
through its type's reducer (`bottisota.engine.reducers.REDUCERS`, one explicit
table); event types without a reducer (a die roll, a door opening, a refusal)
are informational and change nothing.
"""
from __future__ import annotations

from bottisota.engine.event_types import BotMovedEvent
from bottisota.engine.event_types import Event as Event  # re-exported: every event's type
from bottisota.engine.reducers import REDUCERS
from bottisota.engine.state import Bot, GameState


def has_reducer(kind: str) -> bool:
    """Whether events of this type change the state (False: informational)."""
    return kind in REDUCERS


def apply_event(state: GameState, event: Event) -> Event:
    """Apply one event to the state (if it changes anything) and return it."""
    fn = REDUCERS.get(event["type"])
    if fn is not None:
        fn(state, event)
    return event


def apply_events(state: GameState, events: list[Event]) -> list[Event]:
    for e in events:
        apply_event(state, e)
    return events


def r2(v: float) -> float:
    """Round a length for an event (0.0001 cm keeps replays exact and logs short)."""
    return round(float(v), 4)


def bot_moved_event(bot: Bot, x: float, y: float, z: float, facing: float,
                    spent: float = 0.0, forced: bool = False,
                    teleported: bool = False) -> BotMovedEvent:
    """A `bot_moved` event with lengths rounded for the journal (`forced` and
    `teleported` written only when true)."""
    e: BotMovedEvent = {"type": "bot_moved", "bot": bot.id, "x": r2(x), "y": r2(y),
                        "z": r2(z), "facing": round(facing % 360.0, 4), "spent": r2(spent)}
    if forced:
        e["forced"] = True
    if teleported:
        e["teleported"] = True
    return e
