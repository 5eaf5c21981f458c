"""What a phone may send, checked before anything is done with it.

A message is one JSON object of at most `MAX_BYTES` bytes, nested at most `MAX_DEPTH`
deep (read by the program's one JSON reader, `formats.json_text`), with a `type` and,
optionally, an `id` the answer echoes as `re`. Actions and movement steps are
read by the same format layer as scenario files and journals
(`formats.codec`), so a bad step gets the same words (`steps[2].forward:
expected a number`). Anything wrong raises `ProtocolError` with one plain
sentence; the connection stays open.
"""
from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from bottisota.core.actions import Action, Step
from bottisota.core.i18n import _, translated
from bottisota.formats.codec import ActionFormatError, action_from_dict, steps_from_list
from bottisota.formats.json_text import JsonLimitError, loads_limited

MAX_BYTES = 8192            # one message, as received
MAX_DEPTH = 16              # nesting of a message (a commit's move nests 5 deep)
MAX_STEPS = 64              # steps in a planned move
MAX_DICE = 64               # typed dice sent with one commit
MAX_NAME = 64               # characters in a bot or weapon name
COORD_LIMIT = 10_000.0      # cm: any point further out is not on a table

TYPES = ("ping", "select", "premeasure", "plan", "clear", "show", "commit", "undo", "redo",
         "overwatch_answer")
MAX_ASK = 32                # characters in the id of a watcher's question


class ProtocolError(ValueError):
    """A message that cannot be used; the text is what the phone is told."""


Json = dict[str, Any]     # a phone message as parsed: outside data, checked key by key


@dataclass(frozen=True)
class Message:
    """A checked message: its type, the id to answer to and its fields."""

    type: str
    id: int | None = None
    bot: str | None = None
    weapon: str | None = None
    target: str | None = None
    at: tuple[float, float] | None = None
    overwatch: bool = False
    steps: tuple[Step, ...] = ()
    step_data: list[Any] = field(default_factory=list)   # Any: the phone's steps, as sent
    hold_fire: tuple[str, ...] = ()
    action: Action | None = None
    dice: tuple[int, ...] = ()
    on: bool = True
    ask: str | None = None    # overwatch_answer: the question answered
    fire: bool = False        # overwatch_answer: fire (true) or hold (false)


def _name(d: Json, key: str, required: bool = True) -> str | None:
    value = d.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_NAME:
        raise ProtocolError(
                _("'{key}' must be a name of 1 to {max_name} characters").format(
                    key=key, max_name=MAX_NAME))
    return value


def _point(value: object, key: str) -> tuple[float, float]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
            or not all(math.isfinite(v) and abs(v) <= COORD_LIMIT for v in value)):
        raise ProtocolError(_("'{key}' must be a point [x, y] in cm").format(key=key))
    return (float(value[0]), float(value[1]))


def _only(d: Json, allowed: tuple[str, ...]) -> None:
    extra = [k for k in d if k not in allowed]
    if extra:
        raise ProtocolError(
                _("unknown key '{v}' for a {type} message (keys: {allowed})").format(
                    v=extra[0], type=d['type'], allowed=', '.join(allowed)))


def parse(text: str | bytes) -> Message:
    """One received message -> a checked `Message` (ProtocolError if it is not one)."""
    if isinstance(text, bytes):
        if len(text) > MAX_BYTES:
            raise ProtocolError(
                    _("message too long: at most {max_bytes} bytes").format(max_bytes=MAX_BYTES))
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError(_("a message is UTF-8 JSON text")) from None
    if len(text.encode("utf-8")) > MAX_BYTES:
        raise ProtocolError(
                _("message too long: at most {max_bytes} bytes").format(max_bytes=MAX_BYTES))
    try:        # the one JSON reader: too deep, NaN, a huge number refused in words
        d = loads_limited(text, MAX_DEPTH, max_bytes=MAX_BYTES)
    except JsonLimitError as err:
        raise ProtocolError(_("not JSON: {err}").format(err=translated(str(err)))) from None
    if not isinstance(d, dict):
        raise ProtocolError(_("a message is a JSON object with a 'type'"))
    kind = d.get("type")
    if kind not in TYPES:
        raise ProtocolError(
                _("unknown message type {kind!r} (types: {types})").format(
                    kind=kind, types=', '.join(TYPES)))
    mid = d.get("id")
    if mid is not None and (not isinstance(mid, int) or isinstance(mid, bool)
                            or not 0 <= mid < 2 ** 53):
        raise ProtocolError(_("'id' must be a whole number"))
    if kind in ("ping", "clear", "undo", "redo"):
        _only(d, ("type", "id"))
        return Message(kind, mid)
    if kind == "select":
        _only(d, ("type", "id", "bot"))
        return Message(kind, mid, bot=_name(d, "bot"))
    if kind == "show":
        _only(d, ("type", "id", "on"))
        on = d.get("on", True)
        if not isinstance(on, bool):
            raise ProtocolError(_("'on' must be true or false"))
        return Message(kind, mid, on=on)
    if kind == "overwatch_answer":
        _only(d, ("type", "id", "ask", "fire"))
        ask, fire = d.get("ask"), d.get("fire")
        if not isinstance(ask, str) or not 0 < len(ask) <= MAX_ASK:
            raise ProtocolError(_("'ask' must be the id of the question answered"))
        if not isinstance(fire, bool):
            raise ProtocolError(_("'fire' must be true or false"))
        return Message(kind, mid, ask=ask, fire=fire)
    if kind == "premeasure":
        _only(d, ("type", "id", "bot", "weapon", "target", "at", "overwatch"))
        ow = d.get("overwatch", False)
        if not isinstance(ow, bool):
            raise ProtocolError(_("'overwatch' must be true or false"))
        at = _point(d["at"], "at") if d.get("at") is not None else None
        target = _name(d, "target", required=False)
        if at is not None and target is not None:
            raise ProtocolError(_("aim at a bot ('target') or at a point ('at'), not both"))
        return Message(kind, mid, bot=_name(d, "bot"), weapon=_name(d, "weapon"),
                       target=target, at=at, overwatch=ow)
    if kind == "plan":
        _only(d, ("type", "id", "bot", "steps", "hold_fire"))
        raw = d.get("steps", [])
        if not isinstance(raw, list) or len(raw) > MAX_STEPS:
            raise ProtocolError(
                    _("'steps' must be a list of at most {max_steps} steps").format(
                        max_steps=MAX_STEPS))
        try:
            steps = steps_from_list(raw, "steps")
        except ActionFormatError as err:
            raise ProtocolError(str(err)) from None
        for s in steps:
            for v in (getattr(s, a) for a in ("cm", "degrees", "bearing", "distance")
                      if hasattr(s, a)):
                if not math.isfinite(v) or abs(v) > COORD_LIMIT:
                    raise ProtocolError(_("a step's number must be finite and within the table"))
        hold = d.get("hold_fire", [])
        if (not isinstance(hold, list) or len(hold) > MAX_STEPS
                or not all(isinstance(h, str) and 0 < len(h) <= MAX_NAME for h in hold)):
            raise ProtocolError(_("'hold_fire' must be a list of bot ids"))
        return Message(kind, mid, bot=_name(d, "bot"), steps=steps, step_data=raw,
                       hold_fire=tuple(hold))
    # commit
    _only(d, ("type", "id", "action", "dice"))
    try:
        action = action_from_dict(d.get("action"))
    except ActionFormatError as err:
        raise ProtocolError(_("action: {err}").format(err=err)) from None
    steps = getattr(action, "steps", ())
    if len(steps) > MAX_STEPS:
        raise ProtocolError(_("a move has at most {max_steps} steps").format(max_steps=MAX_STEPS))
    dice = d.get("dice", [])
    if (not isinstance(dice, list) or len(dice) > MAX_DICE
            or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6
                       for v in dice)):
        raise ProtocolError(_("'dice' must be a list of d6 results, each 1 to 6"))
    return Message(kind, mid, bot=action.bot, action=action, dice=tuple(dice))


class RateLimit:
    """A token bucket: `burst` messages at once, refilled at `rate` per second.
    Messages over the limit are dropped unread (counted in `dropped`)."""

    def __init__(self, rate: float = 60.0, burst: float = 60.0,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens = burst
        self.stamp = clock()
        self.dropped = 0

    def allow(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        self.dropped += 1
        return False
