"""Events in plain words, for the log panel (one line each)."""
from __future__ import annotations

from typing import Callable

Event = dict


def _n(v: object) -> str:
    return f"{v:g}" if isinstance(v, float) else str(v)


def _mod(e: Event) -> str:
    m = e.get("mod", 0) or 0
    return f" {m:+d}" if m else ""


_TEXT: dict[str, Callable[[Event], str]] = {
    "bot_moved": lambda e: (f"{e['bot']} moves to ({_n(e['x'])}, {_n(e['y'])}) facing {_n(e['facing'])}"
                            + (f", {_n(e['spent'])} cm spent" if e.get("spent") else "")),
    "to_hit": lambda e: (f"{e['bot']}'s {e.get('weapon', 'shot')} at {e.get('target')}: rolled "
                         f"{e['roll']}{_mod(e)}, needs {e['need']}+ -> {'HIT' if e['hit'] else 'miss'}"),
    "hits": lambda e: f"{e.get('target', e.get('bot', ''))} takes {e.get('count', e.get('hits', '?'))} hits",
    "armour_test": lambda e: (f"{e['bot']} armour test: rolled {e['roll']}{_mod(e)}, needs "
                              f"{e['need']}+ -> {'saved' if e['passed'] else 'FAILED'}"
                              + (" (re-roll)" if e.get("reroll") else "")),
    "damaged": lambda e: f"{e['bot']} takes {e['amount']} damage ({e.get('cause', '')})",
    "destroyed": lambda e: (f"{e['bot']} is DESTROYED ({e.get('cause', '')})"
                            + (f" by {e['by']}" if e.get("by") else "")),
    "removed": lambda e: f"{e['bot']} is taken off the table",
    "status": lambda e: f"{e['bot']} now has rust {e.get('rust', '-')}, leaflets {e.get('leaflet', '-')}",
    "overwatch": lambda e: f"{e['bot']} {'goes on' if e['on'] else 'leaves'} overwatch",
    "ammo": lambda e: f"{e['bot']}'s {e['weapon']}: {e['left']} shots left",
    "score": lambda e: f"{e['player']} scores {e['points']} ({e.get('reason', '')})",
    "door_opened": lambda e: f"{e.get('door', 'a door')} opens",
    "collision": lambda e: f"collision: {e.get('bot', '')} hits {e.get('other', e.get('with', ''))}",
    "fall": lambda e: f"{e.get('bot', '')} falls {_n(e.get('drop', '?'))} cm",
    "pit": lambda e: f"{e.get('bot', '')} falls into a pit",
    "crash": lambda e: f"{e.get('bot', '')} crashes into {e.get('wall', e.get('into', 'a wall'))}",
    "overwatch_fire": lambda e: f"{e.get('bot', e.get('watcher', ''))} fires on overwatch at {e.get('target', '')}",
    "goal_taken": lambda e: f"{e.get('bot', '')} takes a goal worth {e.get('points', '?')}",
    "mine_dropped": lambda e: f"{e.get('bot', '')} drops a mine",
    "mine_strike": lambda e: f"a mine strikes {e.get('bot', e.get('target', ''))}",
    "placed": lambda e: f"{e.get('bot', '')} is placed at ({_n(e.get('x', '?'))}, {_n(e.get('y', '?'))})",
    "turn": lambda e: f"turn: {e.get('bot', e.get('player', ''))}",
    "robot_decision": lambda e: str(e["text"]),
}


def describe(event: Event) -> str:
    """One line of plain words for an event; unknown kinds list their fields."""
    fn = _TEXT.get(event.get("type", ""))
    if fn is not None:
        try:
            return fn(event)
        except (KeyError, TypeError, ValueError):
            pass
    rest = ", ".join(f"{k} {_n(v)}" for k, v in event.items() if k != "type")
    return f"{event.get('type', 'event').replace('_', ' ')}: {rest}"
