"""Events in plain words, for the log and the banners on the table (one line each).

Every event kind the core emits has its sentence here (`EVENT_WORDS`); a test
enumerates the kinds the core can emit and fails on any without one. The
sentences read only keys the event really carries (optional keys are asked
with `.get` and left out when absent), so no line ever shows "?" or a raw dict.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

Event = dict


def _n(v: object) -> str:
    """A number as people write it: 12.5, not 12.500000001."""
    if isinstance(v, float):
        return f"{round(v, 2):g}"
    return str(v)


def _xy(v: Any) -> str:
    """A point as (x, y) in cm."""
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return f"({_n(float(v[0]))}, {_n(float(v[1]))})"
    return str(v)


def _mod(e: Event) -> str:
    m = e.get("mod", 0) or 0
    return f" {m:+d}" if m else ""


def _names(items: Any) -> str:
    items = list(items or [])
    if not items:
        return "nobody"
    if len(items) == 1:
        return str(items[0])
    return ", ".join(str(i) for i in items[:-1]) + " and " + str(items[-1])


def _cause(e: Event) -> str:
    cause = e.get("cause")
    return f" ({str(cause).replace('_', ' ')})" if cause else ""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _to_hit(e: Event) -> str:
    who = f"{e['bot']}'s {e['weapon']}" if e.get("bot") else f"the {e['weapon']}"
    verdict = "HIT" if e["hit"] else "miss"
    return f"{who} at {e['target']}: rolled {e['roll']}{_mod(e)}, needs {e['need']}+ - {verdict}"


def _armour(e: Event) -> str:
    verdict = "saved" if e["passed"] else "FAILED"
    again = " (re-roll)" if e.get("reroll") else ""
    return (f"{e['bot']} armour test{again}: rolled {e['roll']}{_mod(e)}, needs {e['need']}+"
            f" - {verdict}")


def _damaged(e: Event) -> str:
    amount = int(e["amount"])
    if amount < 0:
        return f"{e['bot']} is repaired: {_plural(-amount, 'damage point')} off{_cause(e)}"
    return f"{e['bot']} takes {_plural(amount, 'damage point')}{_cause(e)}"


def _destroyed(e: Event) -> str:
    by = f" by {e['by']}" if e.get("by") else ""
    return f"{e['bot']} is DESTROYED{_cause(e)}{by}"


def _status(e: Event) -> str:
    parts = [f"{k} {e[k]}" for k in ("rust", "leaflet") if k in e]
    now = ", ".join(parts) if parts else "its status changed"
    return f"{e['bot']} now has {now}" + (f" (from {e['cause']})" if e.get("cause") else "")


def _overwatch(e: Event) -> str:
    if e["on"]:
        return f"{e['bot']} goes on overwatch"
    why = e.get("reason")
    return f"{e['bot']} leaves overwatch" + (f": {why}" if why else "")


def _ammo(e: Event) -> str:
    left = int(e["left"])
    if e.get("cause") == "reload":
        return f"{e['bot']}'s {e['weapon']} is reloaded: {_plural(left, 'shot')}"
    return f"{e['bot']}'s {e['weapon']}: {_plural(left, 'shot')} left"


def _score(e: Event) -> str:
    why = e.get("reason")
    return f"{e['player']} scores {_plural(int(e['points']), 'point')}" + (
        f" ({why})" if why else ""
    )


def _collision(e: Event) -> str:
    hits = e.get("hits") or 0
    what = "crashes into" if e["type"] == "crash" else "collides with"
    if isinstance(hits, (int, float)):
        tail = f": {_plural(int(hits), 'hit')}" if hits else ""
    else:
        tail = f": {hits} hits"             # rolled later ("d6")
    mod = int(e.get("armour_mod", 0) or 0)
    return f"{e['bot']} {what} {e['with']}{tail}" + (f", armour {mod:+d}" if mod else "")


def _fall(e: Event) -> str:
    if e.get("cause") == "min_move":
        return (f"{e['bot']} moved only {_n(e['moved'])} of its {_n(e['min_move'])} cm minimum"
                f" and falls out of the air (R21)")
    on = e.get("lands_on") or []
    return f"{e['bot']} falls {_n(e['drop'])} cm" + (f" onto {_names(on)}" if on else "")


def _teleport(e: Event) -> str:
    if e.get("to") is None:
        return f"{e['bot']} stands on teleporter {e['from']}, but every exit is blocked"
    return f"{e['bot']} teleports from {e['from']} to {e['to']}"


def _belt(e: Event) -> str:
    if e.get("slide"):
        return f"{e['bot']} slides off belt {e['feature']} to {_xy(e['to'])}"
    return f"belt {e['feature']} carries {e['bot']} {_n(e['distance'])} cm"


def _beam(e: Event) -> str:
    kind = e["kind"]
    if kind == "held":
        return f"{e['bot']}'s beams cancel out: {e['target']} stays put"
    verb = {"push": "pushes", "pull": "pulls"}.get(kind, f"{kind}s")
    return f"{e['bot']}'s beam {verb} {e['target']} {_n(e['distance'])} cm"


def _game_over(e: Event) -> str:
    winners = list(e.get("winners") or [])
    scores = e.get("scores") or {}
    table = ", ".join(f"{p} {s}" for p, s in scores.items())
    head = ("GAME OVER: " + (f"{_names(winners)} win" + ("" if len(winners) > 1 else "s")
                             if winners else "nobody wins"))
    return (
        head
        + (f" ({e['reason']})" if e.get("reason") else "")
        + (f"; scores: {table}" if table else "")
    )


def _flight_end(e: Event) -> str:
    how = str(e.get("how") or "lands").replace("_", " ")
    return f"{e['bot']}'s {e['weapon']} ends its flight at {_xy((e['x'], e['y']))}: {how}"


def _service(e: Event) -> str:
    at = f" at {e['at']}" if e.get("at") else ""
    return f"{e['bot']} uses the service point{at}: {e['choice']}"


def _goal(e: Event) -> str:
    tail = f"; the marker moves to {_xy(e['to'])}" if e.get("to") else ""
    return f"{e['bot']} takes a goal worth {_plural(int(e['points']), 'point')}{tail}"


def _turn(e: Event) -> str:
    return f"round {e['round']}: {e['player']}'s turn with {e['bot']} ({e['phase']})"


def _turn_ended(e: Event) -> str:
    return f"{e['player']}'s turn ends" + (f" ({e['bot']})" if e.get("bot") else "")


def _placed(e: Event) -> str:
    new = " (a new bot)" if e.get("new") else ""
    return f"{e['bot']} is placed at {_xy((e['x'], e['y']))} facing {_n(e['facing'])}°{new}"


def _moved(e: Event) -> str:
    spent = f", {_n(e['spent'])} cm spent" if e.get("spent") else ""
    return f"{e['bot']} moves to {_xy((e['x'], e['y']))} facing {_n(e['facing'])}°{spent}"


def _path(e: Event) -> str:
    pts = e.get("points") or []
    if len(pts) < 2:
        return f"{e['bot']} stays where it is"
    return f"{e['bot']} goes from {_xy(pts[0])} to {_xy(pts[-1])}"


_PHASE_WORDS = {"place": "placing", "move": "moving", "shoot": "shooting", "done": "turn done",
                "over": "game over"}

EVENT_WORDS: dict[str, Callable[[Event], str]] = {
    "seats": lambda e: f"seat order: {_names(e['players'])}",
    "round": lambda e: f"ROUND {e['round']} begins",
    "turn": _turn,
    "turn_ended": _turn_ended,
    "phase": lambda e: f"now {_PHASE_WORDS.get(e['phase'], e['phase'])}",
    "drawn": lambda e: f"{e['player']} draws a {e['card']} card: bot {e['bot']}",
    "placed": _placed,
    "bot_moved": _moved,
    "path": _path,
    "pass": lambda e: f"{e['bot']} passes",
    "to_hit": _to_hit,
    "hits": lambda e: f"{e['bot']} takes {_plural(int(e['amount']), 'hit')}{_cause(e)}",
    "armour_test": _armour,
    "damaged": _damaged,
    "destroyed": _destroyed,
    "removed": lambda e: f"{e['bot']} is taken off the table",
    "parts_returned": lambda e: f"{e['bot']}'s parts go back to the deck: {_names(e['parts'])}",
    "player_out": lambda e: (f"{e['player']} is out of the game"
                             + (f" ({e['reason']})" if e.get("reason") else "")),
    "game_over": _game_over,
    "status": _status,
    "overwatch": _overwatch,
    "overwatch_fire": lambda e: (f"OVERWATCH: {e['bot']} fires at {e['target']} "
                                 f"{'after' if e.get('after_move') else 'during'} its move"
                                 + (f" ({_names(e['weapons'])})" if e.get("weapons") else "")),
    "overwatch_refused": lambda e: f"{e['bot']} cannot fire on overwatch: {e['reason']}",
    "ammo": _ammo,
    "shot": lambda e: f"{e['bot']} fires its {e['weapon']} at {e['target']}",
    "shot_skipped": lambda e: f"{e['bot']}'s {e['weapon']} holds fire: {e['reason']}",
    "blast": lambda e: (f"the {e['weapon']} blast at {_xy((e['x'], e['y']))} catches "
                        f"{_names(e.get('members'))}"
                        + (f"; safe: {_names(e['safe'])}" if e.get("safe") else "")),
    "beam": _beam,
    "knocked_back": lambda e: (f"{e['bot']} is knocked {_n(e['distance'])} cm aside "
                               f"by {e['by_fall_of']}'s fall"),
    "landed_beside": lambda e: f"{e['bot']} lands beside at {_xy(e['at'])}",
    "missile_turn": lambda e: (f"{e['bot']}'s {e['weapon']} turns {float(e['turn']):+.1f}° "
                               f"toward {e['toward']}"),
    "flight": lambda e: f"{e['bot']}'s {e['weapon']} flies from {_xy(e['from'])} to {_xy(e['to'])}",
    "flight_end": _flight_end,
    "score": _score,
    "goal_taken": _goal,
    "door_opened": lambda e: f"{e['bot']} opens door {e['door']}",
    "collision": _collision,
    "crash": _collision,
    "crash_turn": lambda e: f"{e['bot']} turns {float(e['degrees']):+g}° away from the wall (R13)",
    "fall": _fall,
    "pit": lambda e: (f"{e['bot']} falls into pit {e['feature']}" if e.get("feature")
                      else f"{e['bot']} falls into a pit"),
    "teleport": _teleport,
    "belt": _belt,
    "lift": lambda e: f"{e['bot']} rides lift {e['feature']} {e['direction']} to {_n(e['z'])} cm",
    "loop": lambda e: f"{e['bot']} loops at {_xy(e['at'])}",
    "loop_cut": lambda e: f"{e['bot']}'s loop is cut short: {e['note']}",
    "docked": lambda e: f"{e['bot']} docks at the service point at {_xy(e['at'])}",
    "move_cut": lambda e: f"{e['bot']}'s move stops at step {int(e['step']) + 1}: {e['reason']}",
    "self_destruct": lambda e: f"{e['bot']} SELF-DESTRUCTS",
    "service": _service,
    "part_installed": lambda e: (f"{e['bot']} installs the part {e['part']} "
                                 f"(service {e['service']})"),
    "drop_mine": lambda e: f"{e['bot']} drops a {e['weapon']} mine at {_xy(e['at'])}",
    "mine_dropped": lambda e: f"{e['bot']} drops mine {e['mine']} at {_xy((e['x'], e['y']))}",
    "mine_active": lambda e: f"mine {e['mine']} is now armed",
    "mine_touch": lambda e: f"{e['bot']} touches mine {e['mine']}",
    "mine_strike": lambda e: f"MINE: {e['mine']} strikes {e['bot']}",
    "mine_moved": lambda e: f"magnetic mine {e['mine']} follows to {_xy((e['x'], e['y']))}",
    "mine_removed": lambda e: f"mine {e['mine']} is gone ({e['reason']})",
    "robot_decision": lambda e: str(e["text"]),
    "robot_search_cut": lambda e: str(e["text"]),
}


def describe(event: Event) -> str:
    """One line of plain words for an event. A kind without words (a new kind the
    core learns later) reads as its name and its fields in words, never as a dict."""
    fn = EVENT_WORDS.get(event.get("type", ""))
    if fn is not None:
        try:
            return fn(event)
        except (KeyError, TypeError, ValueError):
            pass
    rest = "; ".join(f"{str(k).replace('_', ' ')} {_plain(v)}" for k, v in event.items()
                     if k != "type")
    return f"{str(event.get('type', 'event')).replace('_', ' ')}: {rest}"


def _plain(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        if len(v) == 2 and all(isinstance(x, (int, float)) for x in v):
            return _xy(v)
        return _names(v)
    if isinstance(v, dict):
        return ", ".join(f"{k} {_plain(x)}" for k, x in v.items())
    return _n(v)
