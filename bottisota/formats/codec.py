"""Actions <-> the plain mappings of formats.md (scenario files, journals).

`action_from_dict(action_to_dict(a)) == a` for every action. A mapping that
is not a valid action raises `ActionFormatError` naming the key path inside
the action (`move[2].forward`) and what was expected.
"""
from __future__ import annotations

import difflib
from typing import Any, Sequence

from bottisota.core.actions import (
    Back, DropMine, Forward, Lift, Loop, Move, Pass, Place, SelfDestruct, Service, SetOverwatch,
    Shoot, ShotOrder, Step, Strafe, Turn,
)

ACTION_KEYS: tuple[str, ...] = ("move", "shoot", "overwatch", "self_destruct", "service",
                                "place", "pass")
STEP_KEYS: tuple[str, ...] = ("forward", "back", "turn", "strafe", "loop", "lift", "drop_mine")
SERVICE_CHOICES: tuple[str, ...] = ("reload", "repair", "rust", "leaflet", "part")
LIFT_DIRECTIONS: tuple[str, ...] = ("up", "down")

Action = Place | Move | Shoot | SetOverwatch | SelfDestruct | Service | Pass


class ActionFormatError(ValueError):
    """A mapping that is not an action; `path` is the key path inside the action."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path, self.message = path, message


def _hint(word: object, choices: Sequence[str]) -> str:
    if not isinstance(word, str):
        return ""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" — did you mean '{close[0]}'?" if close else ""


def _number(value: Any, path: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        raise ActionFormatError(path, f"expected a number, got {value!r}")
    return float(value)


def _text(value: Any, path: str) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return f"{value:g}" if isinstance(value, float) else str(value)
    if not isinstance(value, str) or not value.strip():
        raise ActionFormatError(path, f"expected a name, got {value!r}")
    return value


def _true(value: Any, path: str) -> None:
    if value is not True:
        raise ActionFormatError(path, f"expected true, got {value!r}")


def _point(value: Any, path: str, sizes: tuple[int, ...] = (2,)) -> list[float]:
    if not isinstance(value, list) or len(value) not in sizes:
        want = " or ".join(str(n) for n in sizes)
        raise ActionFormatError(path, f"expected a list of {want} numbers, got {value!r}")
    return [_number(v, f"{path}[{i}]") for i, v in enumerate(value)]


def _only(d: dict, allowed: Sequence[str], path: str) -> None:
    for key in d:
        if key not in allowed:
            sub = f"{path}.{key}" if path else str(key)
            raise ActionFormatError(sub, f"unknown key '{key}'" + _hint(key, allowed))


def step_from_dict(d: Any, path: str = "") -> Step:
    """One movement step mapping (formats.md) -> a step value."""
    if not isinstance(d, dict) or len(d) != 1:
        raise ActionFormatError(path, "a step is a mapping with one key: "
                                      + ", ".join(STEP_KEYS))
    (key, value), = d.items()
    sub = f"{path}.{key}"
    if key == "forward":
        return Forward(_number(value, sub))
    if key == "back":
        return Back(_number(value, sub))
    if key == "turn":
        return Turn(_number(value, sub))
    if key == "strafe":
        if not isinstance(value, dict):
            raise ActionFormatError(sub, "expected {bearing: deg, distance: cm}")
        _only(value, ("bearing", "distance"), sub)
        for need in ("bearing", "distance"):
            if need not in value:
                raise ActionFormatError(sub, f"missing key '{need}'")
        return Strafe(_number(value["bearing"], f"{sub}.bearing"),
                      _number(value["distance"], f"{sub}.distance"))
    if key == "loop":
        _true(value, sub)
        return Loop()
    if key == "lift":
        if value not in LIFT_DIRECTIONS:
            raise ActionFormatError(sub, f"expected up or down, got {value!r}")
        return Lift(value)
    if key == "drop_mine":
        return DropMine(_text(value, sub))
    raise ActionFormatError(sub, f"unknown step '{key}'" + _hint(key, STEP_KEYS)
                            + " (steps: " + ", ".join(STEP_KEYS) + ")")


def steps_from_list(items: Any, path: str = "move") -> tuple[Step, ...]:
    """A list of step mappings -> steps."""
    if not isinstance(items, list):
        raise ActionFormatError(path, "expected a list of steps")
    return tuple(step_from_dict(s, f"{path}[{i}]") for i, s in enumerate(items))


def _shot(d: Any, path: str) -> ShotOrder:
    if not isinstance(d, dict):
        raise ActionFormatError(path, "expected {weapon: NAME, target: BOT} or {weapon, at: [x, y]}")
    _only(d, ("weapon", "target", "at"), path)
    if "weapon" not in d:
        raise ActionFormatError(path, "missing key 'weapon'")
    target = _text(d["target"], f"{path}.target") if d.get("target") is not None else None
    at = tuple(_point(d["at"], f"{path}.at")) if d.get("at") is not None else None
    return ShotOrder(_text(d["weapon"], f"{path}.weapon"), target, at)  # type: ignore[arg-type]


def action_from_dict(d: Any) -> Action:
    """A scenario/journal action mapping -> an action value (ActionFormatError if not one)."""
    if not isinstance(d, dict):
        raise ActionFormatError("", "an action is a mapping: {bot: id, move: [...]} and so on")
    if "bot" not in d:
        raise ActionFormatError("", "missing key 'bot'")
    bot = _text(d["bot"], "bot")
    kinds = [k for k in ACTION_KEYS if k in d]
    if not kinds:
        extra = [k for k in d if k not in ("bot", "hold_fire")]
        hint = _hint(extra[0], ACTION_KEYS) if extra else ""
        raise ActionFormatError(str(extra[0]) if extra else "",
                                "an action needs one of " + ", ".join(ACTION_KEYS) + hint)
    if len(kinds) > 1:
        raise ActionFormatError(kinds[1], f"one action per entry: both '{kinds[0]}' and "
                                          f"'{kinds[1]}' are given")
    kind = kinds[0]
    _only(d, ("bot", kind, "hold_fire") if kind == "move" else ("bot", kind), "")
    value = d[kind]
    if kind == "move":
        hold = d.get("hold_fire") or []
        if not isinstance(hold, list):
            raise ActionFormatError("hold_fire", "expected a list of bot ids")
        return Move(bot, steps_from_list(value, "move"),
                    tuple(_text(h, f"hold_fire[{i}]") for i, h in enumerate(hold)))
    if kind == "shoot":
        items = value if isinstance(value, list) else [value]
        return Shoot(bot, tuple(_shot(s, f"shoot[{i}]") for i, s in enumerate(items)))
    if kind == "overwatch":
        _true(value, kind)
        return SetOverwatch(bot)
    if kind == "self_destruct":
        _true(value, kind)
        return SelfDestruct(bot)
    if kind == "pass":
        _true(value, kind)
        return Pass(bot)
    if kind == "service":
        if value not in SERVICE_CHOICES:
            raise ActionFormatError(kind, "expected one of " + ", ".join(SERVICE_CHOICES)
                                    + f", got {value!r}" + _hint(value, SERVICE_CHOICES))
        return Service(bot, value)
    x, y, *rest = _point(value, "place", (2, 3))
    return Place(bot, x, y, rest[0] if rest else 0.0)


def _num(v: float) -> float | int:
    """Whole numbers are written without '.0' (the value compares equal)."""
    return int(v) if float(v).is_integer() else v


def step_to_dict(step: Step) -> dict:
    """A step value -> its formats.md mapping."""
    if isinstance(step, Forward):
        return {"forward": _num(step.cm)}
    if isinstance(step, Back):
        return {"back": _num(step.cm)}
    if isinstance(step, Turn):
        return {"turn": _num(step.degrees)}
    if isinstance(step, Strafe):
        return {"strafe": {"bearing": _num(step.bearing), "distance": _num(step.distance)}}
    if isinstance(step, Loop):
        return {"loop": True}
    if isinstance(step, Lift):
        return {"lift": step.direction}
    if isinstance(step, DropMine):
        return {"drop_mine": step.weapon}
    raise TypeError(f"not a step: {step!r}")


def action_to_dict(action: Action) -> dict:
    """An action value -> its formats.md mapping (JSON- and YAML-ready)."""
    if isinstance(action, Move):
        out: dict = {"bot": action.bot, "move": [step_to_dict(s) for s in action.steps]}
        if action.hold_fire:
            out["hold_fire"] = list(action.hold_fire)
        return out
    if isinstance(action, Shoot):
        shots = []
        for s in action.shots:
            shot: dict = {"weapon": s.weapon}
            if s.target is not None:
                shot["target"] = s.target
            if s.at is not None:
                shot["at"] = [_num(s.at[0]), _num(s.at[1])]
            shots.append(shot)
        return {"bot": action.bot, "shoot": shots}
    if isinstance(action, SetOverwatch):
        return {"bot": action.bot, "overwatch": True}
    if isinstance(action, SelfDestruct):
        return {"bot": action.bot, "self_destruct": True}
    if isinstance(action, Pass):
        return {"bot": action.bot, "pass": True}
    if isinstance(action, Service):
        return {"bot": action.bot, "service": action.choice}
    if isinstance(action, Place):
        return {"bot": action.bot, "place": [_num(action.x), _num(action.y), _num(action.facing)]}
    raise TypeError(f"not an action: {action!r}")
