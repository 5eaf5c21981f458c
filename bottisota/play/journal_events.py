"""Recorded events checked against their declarations, fast enough for every line of a
journal replayed from its events.

`well_formed(event)` is True exactly when `event_problems(event)` (the declarations
in `bottisota.engine.event_types`) finds nothing, for the JSON values a journal
holds; the type hints are turned into plain predicates once, instead of being
looked up for every event.
"""
from __future__ import annotations

import types
from collections.abc import Callable
from typing import (  # Any: recorded events as read from a journal file, and typing's hints
    Any,
    Literal,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

from bottisota.engine.event_types import EVENT_TYPES

Check = Callable[[Any], bool]


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_none(value: Any) -> bool:
    return value is None


def _anything(value: Any) -> bool:
    return True


def predicate(hint: Any) -> Check:
    """A predicate equal to `event_types._matches(value, hint)` for every value."""
    origin = get_origin(hint)
    if hint is Any:
        return _anything
    if origin is Literal:
        allowed = get_args(hint)
        return lambda value: value in allowed
    if origin in (Union, types.UnionType):
        options = tuple(predicate(h) for h in get_args(hint))
        return lambda value: any(check(value) for check in options)
    if hint is type(None):
        return _is_none
    if hint is float:
        return _is_number
    if hint is int:
        return _is_int
    kind = origin if origin is not None else hint
    return lambda value: isinstance(value, kind)


# how one key is checked: (types, bools_ok, None) for `isinstance(value, types)`, a
# bool only when bools_ok; ((), False, predicate) for the rest (literals)
Compiled = tuple[tuple[type, ...], bool, Check | None]


def _simple(hint: Any) -> tuple[tuple[type, ...], bool] | None:
    """The hint as isinstance types and whether a bool passes, when it is that simple."""
    origin = get_origin(hint)
    if hint is Any:
        return (object,), True
    if origin in (Union, types.UnionType):
        parts = [_simple(h) for h in get_args(hint)]
        if any(part is None for part in parts):
            return None
        kinds = tuple(t for part in parts if part is not None for t in part[0])
        return kinds, any(part[1] for part in parts if part is not None)
    if origin is Literal:
        return None
    if hint is type(None):
        return (type(None),), False
    if hint in (float, int):
        return ((int, float) if hint is float else (int,)), False
    kind = origin if origin is not None else hint
    return (kind,), isinstance(True, kind)


def compiled(hint: Any) -> Compiled:
    """One key's check, equal to `predicate(hint)`."""
    simple = _simple(hint)
    if simple is None:
        return (), False, predicate(hint)
    return simple[0], simple[1], None


def _declared() -> dict[str, tuple[frozenset[str], dict[str, Compiled], bool]]:
    out = {}
    for kind, declared in EVENT_TYPES.items():
        hints = get_type_hints(declared)
        checks = {key: compiled(hint) for key, hint in hints.items()}
        checks["type"] = (str,), False, None      # found by its type already
        by_type = all(other is None for _, _, other in checks.values())
        out[kind] = (frozenset(declared.__required_keys__), checks, by_type)
    return out


_DECLARED = _declared()
# Verdicts by the event's shape: its type, its keys in order and the type of each
# value. Where every check of a declaration is by the value's type alone (all of
# them but literal values), the shape decides, so one check per shape does.
_SHAPES: dict[tuple[object, ...], bool] = {}
_SHAPES_KEPT = 4096


def well_formed(event: Any) -> bool:
    """The event is a mapping of a declared type, with every required key, no other
    keys than declared and every value of its declared type."""
    if not isinstance(event, dict):
        return False
    kind = event.get("type")
    if not isinstance(kind, str):
        return False
    declared = _DECLARED.get(kind)
    if declared is None:
        return False
    if not declared[2]:
        return _checked(declared[0], declared[1], event)
    # its type, then its keys, then the types of their values, in one flat tuple (as
    # many keys as types: two equal tuples have the same keys and the same types)
    shape = (kind, *event, *map(type, event.values()))
    verdict = _SHAPES.get(shape)
    if verdict is None:
        verdict = _checked(declared[0], declared[1], event)
        if len(_SHAPES) < _SHAPES_KEPT:
            _SHAPES[shape] = verdict
    return verdict


def _checked(required: frozenset[str], checks: dict[str, Compiled], event: dict[str, Any]) -> bool:
    if not required <= event.keys():
        return False
    for key, value in event.items():
        check = checks.get(key)
        if check is None:
            return False
        kinds, bools, other = check
        if other is not None:
            if not other(value):
                return False
        elif not isinstance(value, kinds) or (value.__class__ is bool and not bools):
            return False
    return True
