"""Actions <-> the plain mappings of formats.md (scenario files, journals).

`action_from_dict(action_to_dict(a)) == a` for every action. A mapping that
is not a valid action raises `ActionFormatError` naming the key path inside
the action (`move[2].forward`) and what was expected: actions are checked
against their one declaration, `spec.ACTION` (the scenario files and the JSON
Schema use the same one).
"""
from __future__ import annotations

from typing import Any  # Any: an action's mapping from a scenario, a journal or a phone

from bottisota.core.actions import (
    Action,
    Back,
    Correct,
    DropMine,
    Forward,
    Lift,
    Loop,
    Move,
    Pass,
    Place,
    SelfDestruct,
    Service,
    SetOverwatch,
    Shoot,
    ShotOrder,
    Step,
    Strafe,
    Turn,
)
from bottisota.core.i18n import N_
from bottisota.formats import spec
from bottisota.formats.spec_types import INVALID, Context, SpecType
from bottisota.formats.yaml_source import Marks, Raw

ACTION_KEYS: tuple[str, ...] = spec.ACTION_KEYS
STEP_KEYS: tuple[str, ...] = spec.STEP_KEYS


class ActionFormatError(ValueError):
    """A mapping that is not an action; `path` is the key path inside the action."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}" if path else message)
        self.path, self.message = path, message


def _checked(kind: SpecType, value: Any, path: str = "") -> Any:
    """The value checked against its declaration; ActionFormatError for its first problem."""
    ctx = Context(Marks("<action>"))
    clean = kind.check(value, path, ctx)
    if ctx.problems or clean is INVALID:
        first = ctx.problems[0] if ctx.problems else None
        raise ActionFormatError(first.path if first else path,
                                first.message if first else N_("not valid"))
    return clean


def step_from_clean(d: Raw) -> Step:
    """A checked step mapping (spec.STEP) -> a step value."""
    (key, value), = d.items()
    if key == "forward":
        return Forward(float(value))
    if key == "back":
        return Back(float(value))
    if key == "turn":
        return Turn(float(value))
    if key == "strafe":
        return Strafe(float(value["bearing"]), float(value["distance"]))
    if key == "loop":
        return Loop()
    if key == "lift":
        return Lift(value)
    return DropMine(value)


def action_from_clean(d: Raw) -> Action:
    """A checked action mapping (spec.ACTION) -> an action value."""
    bot = d["bot"]
    kind = next(k for k in spec.ACTION_KEYS if k in d)
    value = d[kind]
    if kind == "move":
        return Move(bot, tuple(step_from_clean(s) for s in value), tuple(d.get("hold_fire") or ()))
    if kind == "shoot":
        shots = value if isinstance(value, list) else [value]
        return Shoot(bot, tuple(ShotOrder(s["weapon"], s.get("target"),
                                          tuple(s["at"]) if s.get("at") is not None else None)
                                for s in shots))
    if kind == "overwatch":
        return SetOverwatch(bot)
    if kind == "self_destruct":
        return SelfDestruct(bot)
    if kind == "pass":
        return Pass(bot)
    if kind == "service":
        return Service(bot, value)
    if kind == "correct":
        return correction_from_clean(bot, value)
    x, y, *rest = value
    return Place(bot, x, y, rest[0] if rest else 0.0)


def correction_from_clean(bot: str, v: Raw) -> Correct:
    """A checked `correct:` mapping -> a Correct action."""
    def whole(key: str) -> int | None:
        return int(v[key]) if v.get(key) is not None else None
    at = v.get("at")
    return Correct(bot, v["reason"], (float(at[0]), float(at[1])) if at is not None else None,
                   float(v["facing"]) if v.get("facing") is not None else None, whole("damage"),
                   tuple(sorted((str(k), int(n)) for k, n in (v.get("ammo") or {}).items())),
                   v.get("overwatch"), whole("rust"), whole("leaflet"), whole("score"),
                   tuple(sorted((str(k), bool(o)) for k, o in (v.get("doors") or {}).items())))


def correction_to_dict(c: Correct) -> dict[str, object]:
    """A Correct action -> its `correct:` mapping (only what it sets)."""
    out: dict[str, object] = {"reason": c.reason}
    if c.at is not None:
        out["at"] = [_num(c.at[0]), _num(c.at[1])]
    if c.facing is not None:
        out["facing"] = _num(c.facing)
    for key in ("damage", "overwatch", "rust", "leaflet", "score"):
        if getattr(c, key) is not None:
            out[key] = getattr(c, key)
    if c.ammo:
        out["ammo"] = dict(c.ammo)
    if c.doors:
        out["doors"] = dict(c.doors)
    return out


def step_from_dict(d: Any, path: str = "") -> Step:
    """One movement step mapping (formats.md) -> a step value."""
    return step_from_clean(_checked(spec.STEP, d, path))


def steps_from_list(items: Any, path: str = "move") -> tuple[Step, ...]:
    """A list of step mappings -> steps."""
    return tuple(step_from_clean(s) for s in _checked(spec.ACTION.variants["move"].type, items,
                                                      path))


def action_from_dict(d: Any) -> Action:
    """A scenario/journal action mapping -> an action value (ActionFormatError if not one)."""
    return action_from_clean(_checked(spec.ACTION, d))


def _num(v: float) -> float | int:
    """Whole numbers are written without '.0' (the value compares equal)."""
    return int(v) if float(v).is_integer() else v


def step_to_dict(step: Step) -> dict[str, object]:
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


def action_to_dict(action: Action) -> dict[str, object]:
    """An action value -> its formats.md mapping (JSON- and YAML-ready)."""
    if isinstance(action, Move):
        out: dict[str, object] = {"bot": action.bot,
                                  "move": [step_to_dict(s) for s in action.steps]}
        if action.hold_fire:
            out["hold_fire"] = list(action.hold_fire)
        return out
    if isinstance(action, Shoot):
        shots = []
        for s in action.shots:
            shot: dict[str, object] = {"weapon": s.weapon}
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
    if isinstance(action, Correct):
        return {"bot": action.bot, "correct": correction_to_dict(action)}
    raise TypeError(f"not an action: {action!r}")
