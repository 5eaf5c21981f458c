"""Events in plain words, for the log and the banners on the table (one line each).

Every event kind the core emits has its sentence here (`EVENT_WORDS`); a test
enumerates the kinds the core can emit and fails on any without one. The
sentences read only keys the event really carries (optional keys are asked
with `.get` and left out when absent), so no line ever shows "?" or a raw dict.

Grammar by construction: a text whose words depend on a number is one whole
`ngettext` sentence per form ("red saa 1 pisteen" / "2 pistettä"); a text with an
optional part has one whole sentence with it and one without; the core's English
(causes, reasons, feature labels, a flight's end) is translated by its catalogued
template; names (bots, players, cards, weapons, features' ids) stay as written.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any  # Any: an event from memory or from a journal file

from bottisota.core.actions import Back, DropMine, Forward, Lift, Loop, Strafe, Turn
from bottisota.core.i18n import N_, _, core_word, ngettext, number, signed, translated
from bottisota.engine.self_destruct import exploding_bot
from bottisota.viewmodel.robot_words import decision_words

# An event as this module reads it: the engine's (`bottisota.engine.events.Event`) or one
# read back from a journal file (outside data), described key by key.
Event = Mapping[str, Any]


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


def cause_words(cause: object) -> str:
    """Why something happened, in the current language: the core's word or template
    translated, a weapon's own name as it is."""
    text = str(cause)
    word = core_word(text)
    if word is not None:
        return word
    bot = exploding_bot(text)
    if bot is not None:
        return _("{bot}'s self-destruct").format(bot=bot)
    bot = exploding_bot(text.removesuffix(" blast")) if text.endswith(" blast") else None
    if bot is not None:
        return _("{bot}'s self-destruct blast").format(bot=bot)
    return translated(text)


def weapon_words(name: object) -> str:
    """A weapon as the log names it: the card's name as written; the self-destruct's
    blast (a pseudo-weapon) in words."""
    bot = exploding_bot(str(name))
    return _("{bot}'s self-destruct").format(bot=bot) if bot is not None else str(name)


def count(n: float) -> tuple[int, str]:
    """A count for `ngettext` (a fraction takes the plural, as 1.5 points and
    1,5 pistettä do) and the number written out."""
    whole = int(n) if float(n).is_integer() else 2
    return whole, number(n)


def _to_hit(e: Event) -> str:
    verdict = _("HIT") if e["hit"] else _("miss")
    if e.get("bot"):
        return _(
            "{bot}'s {weapon} at {target}: rolled {roll}{mod}, needs {need}+ - {verdict}"
        ).format(
            bot=e["bot"],
            weapon=weapon_words(e["weapon"]),
            target=e["target"],
            roll=e["roll"],
            mod=_mod(e),
            need=e["need"],
            verdict=verdict,
        )
    bot = exploding_bot(str(e["weapon"]))
    if bot is not None:
        text = _("{bot}'s self-destruct blast at {target}: rolled {roll}{mod}, needs {need}+"
                 " - {verdict}")
    else:
        text = _("the {weapon} at {target}: rolled {roll}{mod}, needs {need}+ - {verdict}")
    return text.format(bot=bot, weapon=e["weapon"], target=e["target"], roll=e["roll"],
                       mod=_mod(e), need=e["need"], verdict=verdict)


def _armour(e: Event) -> str:
    verdict = _("saved") if e["passed"] else _("FAILED")
    if e.get("reroll"):
        text = _("{bot} armour test (re-roll): rolled {roll}{mod}, needs {need}+ - {verdict}")
    else:
        text = _("{bot} armour test: rolled {roll}{mod}, needs {need}+ - {verdict}")
    return text.format(bot=e["bot"], roll=e["roll"], mod=_mod(e), need=e["need"], verdict=verdict)


def _damaged(e: Event) -> str:
    amount = int(e["amount"])
    cause = cause_words(e["cause"]) if e.get("cause") else None
    if amount < 0:
        n, text = count(-amount)
        line = (ngettext("{bot} is repaired: {n} damage point off ({cause})",
                         "{bot} is repaired: {n} damage points off ({cause})", n) if cause
                else ngettext("{bot} is repaired: {n} damage point off",
                              "{bot} is repaired: {n} damage points off", n))
    else:
        n, text = count(amount)
        line = (ngettext("{bot} takes {n} damage point ({cause})",
                         "{bot} takes {n} damage points ({cause})", n) if cause
                else ngettext("{bot} takes {n} damage point", "{bot} takes {n} damage points",
                              n))
    return line.format(bot=e["bot"], n=text, cause=cause)


def _hits(e: Event) -> str:
    n, text = count(int(e["amount"]))
    if e.get("cause"):
        return ngettext("{bot} takes {n} hit ({cause})", "{bot} takes {n} hits ({cause})",
                        n).format(bot=e["bot"], n=text, cause=cause_words(e["cause"]))
    return ngettext("{bot} takes {n} hit", "{bot} takes {n} hits", n).format(bot=e["bot"],
                                                                              n=text)


def _destroyed(e: Event) -> str:
    cause = cause_words(e["cause"]) if e.get("cause") else None
    if e.get("by") and cause:
        text = _("{bot} is DESTROYED by {by} ({cause})")
    elif e.get("by"):
        text = _("{bot} is DESTROYED by {by}")
    elif cause:
        text = _("{bot} is DESTROYED ({cause})")
    else:
        text = _("{bot} is DESTROYED")
    return text.format(bot=e["bot"], by=e.get("by"), cause=cause)


def _status(e: Event) -> str:
    names = {"rust": _("rust"), "leaflet": _("leaflet")}
    parts = [f"{names[k]} {e[k]}" for k in ("rust", "leaflet") if k in e]
    now = ", ".join(parts) if parts else _("its status changed")
    if e.get("cause"):
        return _("{bot} now has {now} (from {cause})").format(bot=e["bot"], now=now,
                                                               cause=cause_words(e["cause"]))
    return _("{bot} now has {now}").format(bot=e["bot"], now=now)


def _overwatch(e: Event) -> str:
    if e["on"]:
        return _("{bot} goes on overwatch").format(bot=e["bot"])
    why = e.get("reason")
    if why:
        return _("{bot} leaves overwatch: {why}").format(bot=e["bot"], why=translated(why))
    return _("{bot} leaves overwatch").format(bot=e["bot"])


def _ammo(e: Event) -> str:
    n, text = count(int(e["left"]))
    if e.get("cause") == "reload":
        line = ngettext("{bot}'s {weapon} is reloaded: {n} shot",
                        "{bot}'s {weapon} is reloaded: {n} shots", n)
    else:
        line = ngettext("{bot}'s {weapon}: {n} shot left", "{bot}'s {weapon}: {n} shots left",
                        n)
    return line.format(bot=e["bot"], weapon=weapon_words(e["weapon"]), n=text)


def _camera_reading(e: Event) -> str:
    """A camera reading the game used (`play --camera`)."""
    seen = [float(v) for v in e["seen"]] + [0.0, 0.0, 0.0]        # x, y, facing
    expected = [float(v) for v in e["expected"]] + [0.0, 0.0, 0.0]
    off = ((seen[0] - expected[0]) ** 2 + (seen[1] - expected[1]) ** 2) ** 0.5
    turn = abs((seen[2] - expected[2] + 180.0) % 360.0 - 180.0)
    if e["use"] == "move":
        return _("camera: {bot} was moved by hand to {at}, facing {facing}°").format(
            bot=e["bot"], at=_xy(seen[:2]), facing=number(seen[2], 0))
    if e["use"] == "correction":
        return _("camera: the game takes {bot}'s place from the camera: {at}, facing "
                 "{facing}°").format(bot=e["bot"], at=_xy(seen[:2]), facing=number(seen[2], 0))
    return _("camera: {bot} stands {cm} cm and {deg}° from where the referee has it: put it "
             "back in its ring (F9: the game takes the camera's place)").format(
                 bot=e["bot"], cm=number(off, 1), deg=number(turn, 0))


def _score(e: Event) -> str:
    why = e.get("reason")
    n, text = count(e["points"])
    if why:
        return ngettext("{player} scores {n} point ({why})", "{player} scores {n} points ({why})",
                        n).format(player=e["player"], n=text, why=translated(why))
    return ngettext("{player} scores {n} point", "{player} scores {n} points", n).format(
        player=e["player"], n=text)


def _collision(e: Event) -> str:
    hits = e.get("hits") or 0
    crash = e["type"] == "crash"
    other = translated(e["with"])                 # a bot, or a wall's label
    if isinstance(hits, (int, float)) and hits:
        n, dice = count(int(hits))
        text = (ngettext("{bot} crashes into {other}: {dice} hit",
                         "{bot} crashes into {other}: {dice} hits", n) if crash
                else ngettext("{bot} collides with {other}: {dice} hit",
                              "{bot} collides with {other}: {dice} hits", n))
    elif hits:                                    # rolled later ("d6")
        dice = str(hits)
        text = (_("{bot} crashes into {other}: {dice} hits") if crash
                else _("{bot} collides with {other}: {dice} hits"))
    else:
        dice = ""
        text = (_("{bot} crashes into {other}") if crash
                else _("{bot} collides with {other}"))
    mod = int(e.get("armour_mod", 0) or 0)
    armour = ", " + _("armour {mod}").format(mod=signed(mod)) if mod else ""
    return text.format(bot=e["bot"], other=other, dice=dice) + armour


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
            bot=e["bot"], start=translated(e["from"]))
    return _("{bot} teleports from {start} to {end}").format(
        bot=e["bot"], start=translated(e["from"]), end=translated(e["to"]))


def _belt(e: Event) -> str:
    belt = translated(e["feature"])               # "conveyor 'x'": the kind in words
    if e.get("slide"):
        return _("{bot} slides off {belt} to {at}").format(bot=e["bot"], belt=belt,
                                                          at=_xy(e["to"]))
    return _("{belt} carries {bot} {distance} cm").format(
        belt=belt, bot=e["bot"], distance=_n(e["distance"]))


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
    table = ", ".join(f"{p} {number(s)}" for p, s in scores.items())
    if not winners:
        head = _("GAME OVER: nobody wins")
    elif len(winners) > 1:      # level on points and on destroyed bots (D24): a draw
        n, points = count(scores.get(winners[0], 0))
        head = ngettext("GAME OVER: a draw between {names}, level on {n} point and on "
                        "destroyed bots", "GAME OVER: a draw between {names}, level on {n} "
                        "points and on destroyed bots", n).format(names=_names(winners),
                                                                  n=points)
    elif sum(1 for s in scores.values() if s == scores.get(winners[0])) > 1:
        head = _("GAME OVER: {name} wins on destroyed bots (level on points)").format(
            name=winners[0])
    else:
        head = _("GAME OVER: {name} wins").format(name=winners[0])
    reason = f" ({translated(e['reason'])})" if e.get("reason") else ""
    return head + reason + ("; " + _("scores: {table}").format(table=table) if table else "")


def _flight_end(e: Event) -> str:
    how = translated(e["how"])             # the core's catalogued words (R26, R27)
    return _("{bot}'s {weapon} ends its flight at {at}: {how}").format(
        bot=e["bot"], weapon=weapon_words(e["weapon"]), at=_xy((e["x"], e["y"])), how=how)


# what a service point does (R49, R50), as the `service` event names it
SERVICE_WORDS = {"reload": N_("reload"), "repair": N_("repair"), "rust": N_("rust"),
                 "leaflet": N_("leaflet"), "part": N_("an extra part")}


def _service(e: Event) -> str:
    choice = str(e["choice"])
    choice = _(SERVICE_WORDS[choice]) if choice in SERVICE_WORDS else translated(choice)
    if e.get("at"):
        return _("{bot} uses the service point at {at}: {choice}").format(
            bot=e["bot"], at=translated(e["at"]), choice=choice)
    return _("{bot} uses the service point: {choice}").format(bot=e["bot"], choice=choice)


def _goal(e: Event) -> str:
    n, points = count(e["points"])
    if e.get("to"):
        return ngettext("{bot} takes a goal worth {n} point; the marker moves to {at}",
                        "{bot} takes a goal worth {n} points; the marker moves to {at}",
                        n).format(bot=e["bot"], n=points, at=_xy(e["to"]))
    return ngettext("{bot} takes a goal worth {n} point", "{bot} takes a goal worth {n} points",
                    n).format(bot=e["bot"], n=points)


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
    "correction": lambda e: _("the referee corrects {bot}: {reason}").format(
        bot=e["bot"], reason=e["reason"]),
    "to_hit": _to_hit,
    "hits": _hits,
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
        bot=e["bot"], weapon=weapon_words(e["weapon"]), target=e["target"]),
    "shot_skipped": lambda e: _("{bot}'s {weapon} holds fire: {reason}").format(
        bot=e["bot"], weapon=weapon_words(e["weapon"]), reason=translated(e["reason"])),
    "blast": lambda e: (((_("{bot}'s self-destruct blast at {at} catches {names}")
                          if exploding_bot(str(e["weapon"])) is not None else
                          _("the {weapon} blast at {at} catches {names}")).format(
                            bot=exploding_bot(str(e["weapon"])),
                            weapon=e["weapon"], at=_xy((e["x"], e["y"])),
                            names=_names(e.get("members"))))
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
    "door_held": lambda e: (_("the referee holds {door} open") if e["open"]
                            else _("{door} is left to R47 again: open while a bot "
                                   "touches it")).format(door=translated(e["door"])),
    "door_opened": lambda e: _("{bot} opens {door}").format(bot=e["bot"],
                                                            door=translated(e["door"])),
    "collision": _collision,
    "crash": _collision,
    "crash_turn": lambda e: _("{bot} turns {degrees}° away from the wall (R13)").format(
        bot=e["bot"], degrees=signed(float(e["degrees"]))),
    "fall": _fall,
    "pit": lambda e: (_("{bot} falls into {pit}").format(bot=e["bot"],
                                                         pit=translated(e["feature"]))
                      if e.get("feature") else _("{bot} falls into a pit").format(bot=e["bot"])),
    "teleport": _teleport,
    "belt": _belt,
    "lift": lambda e: (_("{bot} rides {lift} up to {z} cm") if e["direction"] == "up"
                       else _("{bot} rides {lift} down to {z} cm")).format(
        bot=e["bot"], lift=translated(e["feature"]), z=_n(e["z"])),
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
    "robot_decision": decision_words,
    "camera_reading": _camera_reading,
    "robot_search_cut": lambda e: translated(e["text"]),
}


def step_words(step: object) -> str:
    """A movement step as a player says it ("eteen 5 cm", "käänny +45°"); the YAML's own
    notation (forward 5, turn +45) stays in the files."""
    if isinstance(step, Forward):
        return _("forward {cm} cm").format(cm=_n(step.cm))
    if isinstance(step, Back):
        return _("back {cm} cm").format(cm=_n(step.cm))
    if isinstance(step, Turn):
        return _("turn {degrees}°").format(degrees=signed(step.degrees))
    if isinstance(step, Strafe):
        return _("sideways {cm} cm at {bearing}°").format(cm=_n(step.distance),
                                                         bearing=_n(step.bearing))
    if isinstance(step, Loop):
        return _("a loop")
    if isinstance(step, Lift):
        return _("lift up") if step.direction == "up" else _("lift down")
    if isinstance(step, DropMine):
        return _("drop a mine ({weapon})").format(weapon=step.weapon)
    return str(step)


# a move's pieces (engine.movement.result.Piece.kind) and how a move ended (its `ended`)
PIECE_WORDS = {"forward": N_("forward"), "back": N_("back"), "strafe": N_("sideways"),
               "turn": N_("turn"), "loop": N_("a loop"), "lift": N_("lift"),
               "teleport": N_("teleport"), "carry": N_("carried")}
ENDED_WORDS = {"cut": N_("cut short"), "destroyed": N_("destroyed"),
               "thrown": N_("thrown back"), "teleport": N_("teleported")}


def piece_words(kind: str, note: str) -> tuple[str, str]:
    """A move piece's kind and note in words (the note's parts are the core's texts:
    "3.5 cm on stairs, climbs 2 cm", "teleporter 'a' -> teleporter 'b'", "lift 'l' up")."""
    said = _(PIECE_WORDS[kind]) if kind in PIECE_WORDS else kind
    if kind == "teleport" and " -> " in note:
        start, _arrow, end = note.partition(" -> ")
        return said, _("{start} to {end}").format(start=translated(start), end=translated(end))
    if kind == "lift" and note.endswith((" up", " down")):
        label, _space, direction = note.rpartition(" ")
        return said, (_("{lift} up") if direction == "up" else _("{lift} down")).format(
            lift=translated(label))
    return said, ", ".join(translated(part) for part in note.split(", ")) if note else ""


def ended_words(ended: str) -> str:
    """Why a move ended early, in words."""
    return _(ENDED_WORDS[ended]) if ended in ENDED_WORDS else cause_words(ended)


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
