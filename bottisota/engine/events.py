"""Events: every state change is one, and the journal stores them.

An event is a JSON-ready dict with a `type`. `apply_event(state, event)`
performs the change through the reducer registered for its type; event types
without a reducer (a die roll, a door opening, a refusal) are informational
and change nothing. Rule modules register their reducers with `@reducer`.
"""
from __future__ import annotations

from typing import Callable

from bottisota.engine.state import Bot, GameState

Event = dict
_REDUCERS: dict[str, Callable[[GameState, Event], None]] = {}


def reducer(kind: str) -> Callable:
    """Register the state change for events of this type."""

    def register(fn: Callable[[GameState, Event], None]) -> Callable[[GameState, Event], None]:
        if kind in _REDUCERS:
            raise ValueError(f"two reducers for event {kind!r}")
        _REDUCERS[kind] = fn
        return fn

    return register


def has_reducer(kind: str) -> bool:
    """Whether events of this type change the state (False: informational)."""
    return kind in _REDUCERS


def apply_event(state: GameState, event: Event) -> Event:
    """Apply one event to the state (if it changes anything) and return it."""
    fn = _REDUCERS.get(event["type"])
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


# --- core reducers shared by every rule module --------------------------------------

@reducer("bot_moved")
def _bot_moved(state: GameState, e: Event) -> None:
    """{bot, x, y, z, facing, spent?}: the bot now stands here; `spent` is added to moved."""
    b = state.bots[e["bot"]]
    b.x, b.y, b.z, b.facing = e["x"], e["y"], e.get("z", b.z), e["facing"] % 360.0
    b.moved += e.get("spent", 0.0)


@reducer("damaged")
def _damaged(state: GameState, e: Event) -> None:
    """{bot, amount, cause}: damage points added (D6), at least 0 total."""
    b = state.bots[e["bot"]]
    b.damage = max(0, b.damage + int(e["amount"]))


@reducer("destroyed")
def _destroyed(state: GameState, e: Event) -> None:
    """{bot, cause, by?}: the bot is destroyed (D7, R36, R12...)."""
    state.bots[e["bot"]].destroyed = True
    state.bots[e["bot"]].overwatch = False


@reducer("removed")
def _removed(state: GameState, e: Event) -> None:
    """{bot}: a destroyed bot is taken off the table (R55)."""
    state.bots[e["bot"]].removed = True


@reducer("status")
def _status(state: GameState, e: Event) -> None:
    """{bot, rust?, leaflet?}: special damage now stands at these values (D25, D26)."""
    b = state.bots[e["bot"]]
    b.rust = e.get("rust", b.rust)
    b.leaflet = e.get("leaflet", b.leaflet)


@reducer("overwatch")
def _overwatch(state: GameState, e: Event) -> None:
    """{bot, on}: overwatch set or ended (R23, D20)."""
    state.bots[e["bot"]].overwatch = bool(e["on"])


@reducer("ammo")
def _ammo(state: GameState, e: Event) -> None:
    """{bot, weapon, left}: shots left for a weapon with ammo."""
    state.bots[e["bot"]].ammo[e["weapon"]] = int(e["left"])


@reducer("score")
def _score(state: GameState, e: Event) -> None:
    """{player, points, reason, kill?}: points scored (D22, D23)."""
    p = e["player"]
    state.scores[p] = state.scores.get(p, 0) + int(e["points"])
    if e.get("kill"):
        state.kills[p] = state.kills.get(p, 0) + 1


def bot_moved_event(bot: Bot, x: float, y: float, z: float, facing: float,
                    spent: float = 0.0, **extra: object) -> Event:
    """A `bot_moved` event with lengths rounded for the journal."""
    e: Event = {"type": "bot_moved", "bot": bot.id, "x": r2(x), "y": r2(y), "z": r2(z),
                "facing": round(facing % 360.0, 4), "spent": r2(spent)}
    e.update(extra)
    return e
