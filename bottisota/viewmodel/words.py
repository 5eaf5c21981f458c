"""Events in plain words, for the log and the banners on the table (one line each).

Every event kind the core emits has its sentence here (`EVENT_WORDS`); a test
enumerates the kinds the core can emit and fails on any without one. The
sentences read only keys the event really carries (optional keys are asked
with `.get` and left out when absent), so no line ever shows "?" or a raw dict.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bottisota.core.i18n import N_, _, ngettext, number, signed, translated

Event = Mapping[str, Any]
"""An event as this module reads it: the engine's (`bottisota.engine.events.Event`) or one
read back from a journal file (outside data), described key by key."""


def _n(v: object) -> str:
    """A number as people write it: 12.5, not 12.500000001."""
    if isinstance(v, float):
        return number(v)
    return str(v)


def _xy(v: Any) -> str:
    """A point as (x, y) in cm."""
    if isinstance(v, (list, tuple)) and len(v) == 2:
        return _("({x}, {y})").format(x=_n(float(v[0])), y=_n(float(v[1])))
    return str(v)


def _mod(e: Event) -> str:
    m = e.get("mod", 0) or 0
    return f" {signed(m)}" if m else ""


def _names(items: Any) -> str:
    items = list(items or [])
    if not items:
        return _("nobody")
    if len(items) == 1:
        return str(items[0])
    return _("{names} and {last}").format(names=", ".join(str(i) for i in items[:-1]),
                                          last=items[-1])


def _cause(e: Event) -> str:
    cause = e.get("cause")
    return f" ({_(str(cause).replace('_', ' '))})" if cause else ""


def _plural(n: int, word: str) -> str:
    return _PLURALS[word](n).format(n=n)


_PLURALS: dict[str, Callable[[int], str]] = {
    "damage_point": lambda n: ngettext("{n} damage point", "{n} damage points", n),
    "shot": lambda n: ngettext("{n} shot", "{n} shots", n),
    "point": lambda n: ngettext("{n} point", "{n} points", n),
    "hit": lambda n: ngettext("{n} hit", "{n} hits", n),
}


def _to_hit(e: Event) -> str:
    verdict = _("HIT") if e["hit"] else _("miss")
    if e.get("bot"):
        return _(
            "{bot}'s {weapon} at {target}: rolled {roll}{mod}, needs {need}+ - {verdict}"
        ).format(
            bot=e["bot"],
            weapon=e["weapon"],
            target=e["target"],
            roll=e["roll"],
            mod=_mod(e),
            need=e["need"],
            verdict=verdict,
        )
    return _("the {weapon} at {target}: rolled {roll}{mod}, needs {need}+ - {verdict}").format(
        weapon=e["weapon"], target=e["target"], roll=e["roll"], mod=_mod(e), need=e["need"],
        verdict=verdict)


def _armour(e: Event) -> str:
    verdict = _("saved") if e["passed"] else _("FAILED")
    if e.get("reroll"):
        text = _("{bot} armour test (re-roll): rolled {roll}{mod}, needs {need}+ - {verdict}")
    else:
        text = _("{bot} armour test: rolled {roll}{mod}, needs {need}+ - {verdict}")
    return text.format(bot=e["bot"], roll=e["roll"], mod=_mod(e), need=e["need"], verdict=verdict)


def _damaged(e: Event) -> str:
    amount = int(e["amount"])
    if amount < 0:
        return _("{bot} is repaired: {points} off{cause}").format(
            bot=e["bot"], points=_plural(-amount, "damage_point"), cause=_cause(e))
    return _("{bot} takes {points}{cause}").format(
        bot=e["bot"], points=_plural(amount, "damage_point"), cause=_cause(e))


def _destroyed(e: Event) -> str:
    if e.get("by"):
        return _("{bot} is DESTROYED{cause} by {by}").format(bot=e["bot"], cause=_cause(e),
                                                            by=e["by"])
    return _("{bot} is DESTROYED{cause}").format(bot=e["bot"], cause=_cause(e))


def _status(e: Event) -> str:
    names = {"rust": _("rust"), "leaflet": _("leaflet")}
    parts = [f"{names[k]} {e[k]}" for k in ("rust", "leaflet") if k in e]
    now = ", ".join(parts) if parts else _("its status changed")
    if e.get("cause"):
        return _("{bot} now has {now} (from {cause})").format(bot=e["bot"], now=now,
                                                               cause=e["cause"])
    return _("{bot} now has {now}").format(bot=e["bot"], now=now)


def _overwatch(e: Event) -> str:
    if e["on"]:
        return _("{bot} goes on overwatch").format(bot=e["bot"])
    why = e.get("reason")
    if why:
        return _("{bot} leaves overwatch: {why}").format(bot=e["bot"], why=translated(why))
    return _("{bot} leaves overwatch").format(bot=e["bot"])


def _ammo(e: Event) -> str:
    left = int(e["left"])
    if e.get("cause") == "reload":
        return _("{bot}'s {weapon} is reloaded: {shots}").format(
            bot=e["bot"], weapon=e["weapon"], shots=_plural(left, "shot"))
    return _("{bot}'s {weapon}: {shots} left").format(bot=e["bot"], weapon=e["weapon"],
                                                     shots=_plural(left, "shot"))


def _score(e: Event) -> str:
    why = e.get("reason")
    points = _plural(int(e["points"]), "point")
    if why:
        return _("{player} scores {points} ({why})").format(player=e["player"], points=points,
                                                            why=translated(why))
    return _("{player} scores {points}").format(player=e["player"], points=points)


def _collision(e: Event) -> str:
    hits = e.get("hits") or 0
    if e["type"] == "crash":
        text = _("{bot} crashes into {other}{tail}")
    else:
        text = _("{bot} collides with {other}{tail}")
    if isinstance(hits, (int, float)):
        tail = f": {_plural(int(hits), 'hit')}" if hits else ""
    else:
        tail = ": " + _("{dice} hits").format(dice=hits)       # rolled later ("d6")
    mod = int(e.get("armour_mod", 0) or 0)
    armour = ", " + _("armour {mod}").format(mod=signed(mod)) if mod else ""
    return text.format(bot=e["bot"], other=e["with"], tail=tail) + armour


def _fall(e: Event) -> str:
    if e.get("cause") == "min_move":
        return _("{bot} moved only {moved} of its {min_move} cm minimum"
                 " and falls out of the air (R21)").format(
            bot=e["bot"], moved=_n(e["moved"]), min_move=_n(e["min_move"]))
    on = e.get("lands_on") or []
    if on:
        return _("{bot} falls {drop} cm onto {names}").format(bot=e["bot"], drop=_n(e["drop"]),
                                                             names=_names(on))
    return _("{bot} falls {drop} cm").format(bot=e["bot"], drop=_n(e["drop"]))


def _teleport(e: Event) -> str:
    if e.get("to") is None:
        return _("{bot} stands on teleporter {start}, but every exit is blocked").format(
            bot=e["bot"], start=e["from"])
    return _("{bot} teleports from {start} to {end}").format(bot=e["bot"], start=e["from"],
                                                           end=e["to"])


def _belt(e: Event) -> str:
    if e.get("slide"):
        return _("{bot} slides off belt {belt} to {at}").format(bot=e["bot"], belt=e["feature"],
                                                               at=_xy(e["to"]))
    return _("belt {belt} carries {bot} {distance} cm").format(
        belt=e["feature"], bot=e["bot"], distance=_n(e["distance"]))


def _beam(e: Event) -> str:
    kind = e["kind"]
    if kind == "held":
        return _("{bot}'s beams cancel out: {target} stays put").format(bot=e["bot"],
                                                                        target=e["target"])
    if kind == "push":
        text = _("{bot}'s beam pushes {target} {distance} cm")
    elif kind == "pull":
        text = _("{bot}'s beam pulls {target} {distance} cm")
    else:
        text = _("{bot}'s beam moves {target} {distance} cm ({kind})")
    return text.format(bot=e["bot"], target=e["target"], distance=_n(e["distance"]), kind=kind)


def _game_over(e: Event) -> str:
    winners = list(e.get("winners") or [])
    scores = e.get("scores") or {}
    table = ", ".join(f"{p} {s}" for p, s in scores.items())
    if not winners:
        head = _("GAME OVER: nobody wins")
    elif len(winners) > 1:
        head = _("GAME OVER: {names} win").format(names=_names(winners))
    else:
        head = _("GAME OVER: {name} wins").format(name=winners[0])
    reason = f" ({translated(e['reason'])})" if e.get("reason") else ""
    return head + reason + ("; " + _("scores: {table}").format(table=table) if table else "")


def _flight_end(e: Event) -> str:
    how = _(str(e.get("how") or "lands").replace("_", " "))
    return _("{bot}'s {weapon} ends its flight at {at}: {how}").format(
        bot=e["bot"], weapon=e["weapon"], at=_xy((e["x"], e["y"])), how=how)


def _service(e: Event) -> str:
    if e.get("at"):
        return _("{bot} uses the service point at {at}: {choice}").format(
            bot=e["bot"], at=e["at"], choice=e["choice"])
    return _("{bot} uses the service point: {choice}").format(bot=e["bot"], choice=e["choice"])


def _goal(e: Event) -> str:
    points = _plural(int(e["points"]), "point")
    if e.get("to"):
        return _("{bot} takes a goal worth {points}; the marker moves to {at}").format(
            bot=e["bot"], points=points, at=_xy(e["to"]))
    return _("{bot} takes a goal worth {points}").format(bot=e["bot"], points=points)


def _turn(e: Event) -> str:
    return _("round {round}: {player}'s turn with {bot} ({phase})").format(
        round=e["round"], player=e["player"], bot=e["bot"], phase=_phase_name(e["phase"]))


def _turn_ended(e: Event) -> str:
    if e.get("bot"):
        return _("{player}'s turn ends ({bot})").format(player=e["player"], bot=e["bot"])
    return _("{player}'s turn ends").format(player=e["player"])


def _placed(e: Event) -> str:
    if e.get("new"):
        text = _("{bot} is placed at {at} facing {facing}° (a new bot)")
    else:
        text = _("{bot} is placed at {at} facing {facing}°")
    return text.format(bot=e["bot"], at=_xy((e["x"], e["y"])), facing=_n(e["facing"]))


def _moved(e: Event) -> str:
    spent = ", " + _("{spent} cm spent").format(spent=_n(e["spent"])) if e.get("spent") else ""
    return _("{bot} moves to {at} facing {facing}°").format(
        bot=e["bot"], at=_xy((e["x"], e["y"])), facing=_n(e["facing"])) + spent


def _path(e: Event) -> str:
    pts = e.get("points") or []
    if len(pts) < 2:
        return _("{bot} stays where it is").format(bot=e["bot"])
    return _("{bot} goes from {start} to {end}").format(bot=e["bot"], start=_xy(pts[0]),
                                                       end=_xy(pts[-1]))


_PHASE_WORDS = {"place": N_("placing"), "move": N_("moving"), "shoot": N_("shooting"),
                "done": N_("turn done"), "over": N_("game over")}


# the card words the panel shows (YAML values stay English; their display is translated)
CARD_WORDS = (N_("wheeled"), N_("tracked"), N_("walker"), N_("flier"), N_("hover"),
              N_("gun"), N_("melee"), N_("rocket"), N_("missile"), N_("spray"), N_("push"),
              N_("pull"), N_("mine"), N_("magnetic mine"), N_("nose"), N_("turret"))

_PHASE_NAMES = {"place": N_("place"), "move": N_("move"), "shoot": N_("shoot"),
                "done": N_("done"), "over": N_("over")}


def _phase(phase: str) -> str:
    return _(_PHASE_WORDS[phase]) if phase in _PHASE_WORDS else phase


def phase_names() -> tuple[str, ...]:
    """The phase names the log and the phones show (their catalogue ids)."""
    return tuple(_PHASE_NAMES.values())


def _phase_name(phase: str) -> str:
    return _(_PHASE_NAMES[phase]) if phase in _PHASE_NAMES else phase

EVENT_WORDS: dict[str, Callable[[Event], str]] = {
    "seats": lambda e: _("seat order: {names}").format(names=_names(e["players"])),
    "round": lambda e: _("ROUND {round} begins").format(round=e["round"]),
    "turn": _turn,
    "turn_ended": _turn_ended,
    "phase": lambda e: _("now {phase}").format(phase=_phase(e["phase"])),
    "drawn": lambda e: _("{player} draws a {card} card: bot {bot}").format(
        player=e["player"], card=e["card"], bot=e["bot"]),
    "placed": _placed,
    "bot_moved": _moved,
    "path": _path,
    "pass": lambda e: _("{bot} passes").format(bot=e["bot"]),
    "to_hit": _to_hit,
    "hits": lambda e: _("{bot} takes {hits}{cause}").format(
        bot=e["bot"], hits=_plural(int(e["amount"]), "hit"), cause=_cause(e)),
    "armour_test": _armour,
    "damaged": _damaged,
    "destroyed": _destroyed,
    "removed": lambda e: _("{bot} is taken off the table").format(bot=e["bot"]),
    "parts_returned": lambda e: _("{bot}'s parts go back to the deck: {parts}").format(
        bot=e["bot"], parts=_names(e["parts"])),
    "player_out": lambda e: (_("{player} is out of the game ({reason})").format(
        player=e["player"], reason=translated(e["reason"])) if e.get("reason")
        else _("{player} is out of the game").format(player=e["player"])),
    "game_over": _game_over,
    "status": _status,
    "overwatch": _overwatch,
    "overwatch_fire": lambda e: ((_("OVERWATCH: {bot} fires at {target} after its move")
                                  if e.get("after_move") else
                                  _("OVERWATCH: {bot} fires at {target} during its move")).format(
                                     bot=e["bot"], target=e["target"])
                                 + (f" ({_names(e['weapons'])})" if e.get("weapons") else "")),
    "overwatch_refused": lambda e: _("{bot} cannot fire on overwatch: {reason}").format(
        bot=e["bot"], reason=translated(e["reason"])),
    "ammo": _ammo,
    "shot": lambda e: _("{bot} fires its {weapon} at {target}").format(
        bot=e["bot"], weapon=e["weapon"], target=e["target"]),
    "shot_skipped": lambda e: _("{bot}'s {weapon} holds fire: {reason}").format(
        bot=e["bot"], weapon=e["weapon"], reason=translated(e["reason"])),
    "blast": lambda e: (_("the {weapon} blast at {at} catches {names}").format(
                            weapon=e["weapon"], at=_xy((e["x"], e["y"])),
                            names=_names(e.get("members")))
                        + ("; " + _("safe: {names}").format(names=_names(e["safe"]))
                           if e.get("safe") else "")),
    "beam": _beam,
    "knocked_back": lambda e: _("{bot} is knocked {distance} cm aside by {other}'s fall").format(
        bot=e["bot"], distance=_n(e["distance"]), other=e["by_fall_of"]),
    "landed_beside": lambda e: _("{bot} lands beside at {at}").format(bot=e["bot"],
                                                                      at=_xy(e["at"])),
    "missile_turn": lambda e: _("{bot}'s {weapon} turns {turn}° toward {toward}").format(
        bot=e["bot"], weapon=e["weapon"], turn=signed(float(e["turn"]), 1), toward=e["toward"]),
    "flight": lambda e: _("{bot}'s {weapon} flies from {start} to {end}").format(
        bot=e["bot"], weapon=e["weapon"], start=_xy(e["from"]), end=_xy(e["to"])),
    "flight_end": _flight_end,
    "score": _score,
    "goal_taken": _goal,
    "door_opened": lambda e: _("{bot} opens door {door}").format(bot=e["bot"], door=e["door"]),
    "collision": _collision,
    "crash": _collision,
    "crash_turn": lambda e: _("{bot} turns {degrees}° away from the wall (R13)").format(
        bot=e["bot"], degrees=signed(float(e["degrees"]))),
    "fall": _fall,
    "pit": lambda e: (_("{bot} falls into pit {pit}").format(bot=e["bot"], pit=e["feature"])
                      if e.get("feature") else _("{bot} falls into a pit").format(bot=e["bot"])),
    "teleport": _teleport,
    "belt": _belt,
    "lift": lambda e: (_("{bot} rides lift {lift} up to {z} cm") if e["direction"] == "up"
                       else _("{bot} rides lift {lift} down to {z} cm")
                       if e["direction"] == "down"
                       else _("{bot} rides lift {lift} {direction} to {z} cm")).format(
        bot=e["bot"], lift=e["feature"], direction=e["direction"], z=_n(e["z"])),
    "loop": lambda e: _("{bot} loops at {at}").format(bot=e["bot"], at=_xy(e["at"])),
    "loop_cut": lambda e: _("{bot}'s loop is cut short: {note}").format(bot=e["bot"],
                                                                        note=translated(e["note"])),
    "docked": lambda e: _("{bot} docks at the service point at {at}").format(bot=e["bot"],
                                                                             at=_xy(e["at"])),
    "move_cut": lambda e: _("{bot}'s move stops at step {step}: {reason}").format(
        bot=e["bot"], step=int(e["step"]) + 1, reason=translated(e["reason"])),
    "self_destruct": lambda e: _("{bot} SELF-DESTRUCTS").format(bot=e["bot"]),
    "service": _service,
    "part_installed": lambda e: _("{bot} installs the part {part} (service {service})").format(
        bot=e["bot"], part=e["part"], service=e["service"]),
    "drop_mine": lambda e: _("{bot} drops a {weapon} mine at {at}").format(
        bot=e["bot"], weapon=e["weapon"], at=_xy(e["at"])),
    "mine_dropped": lambda e: _("{bot} drops mine {mine} at {at}").format(
        bot=e["bot"], mine=e["mine"], at=_xy((e["x"], e["y"]))),
    "mine_active": lambda e: _("mine {mine} is now armed").format(mine=e["mine"]),
    "mine_touch": lambda e: _("{bot} touches mine {mine}").format(bot=e["bot"], mine=e["mine"]),
    "mine_strike": lambda e: _("MINE: {mine} strikes {bot}").format(mine=e["mine"], bot=e["bot"]),
    "mine_moved": lambda e: _("magnetic mine {mine} follows to {at}").format(
        mine=e["mine"], at=_xy((e["x"], e["y"]))),
    "mine_removed": lambda e: _("mine {mine} is gone ({reason})").format(
        mine=e["mine"], reason=translated(e["reason"])),
    "robot_decision": lambda e: translated(e["text"]),
    "robot_search_cut": lambda e: translated(e["text"]),
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
    return f"{str(event.get('type', 'event')).replace('_', ' ')}: {rest}"  # i18n: raw names


def _plain(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        if len(v) == 2 and all(isinstance(x, (int, float)) for x in v):
            return _xy(v)
        return _names(v)
    if isinstance(v, dict):
        return ", ".join(f"{k} {_plain(x)}" for k, x in v.items())
    return _n(v)
