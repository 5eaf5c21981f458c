"""A journal's static data (arena, cards, mods, house rules) as formats.md mappings,
and back through the same validation as files (`bottisota.formats.loading`).

The arena is written in the file format, every shape exactly as it was
compiled: a circle or a rectangle as `circle`/`rect` when that rebuilds the
very same polygon, any other shape as its `polygon` corners, a conveyor as its
`path` and `width`. Reading goes through `arena_from_dict`, `card_from_dict`,
`mods_from_data` and `rules_from_dict`, so a journal holds nothing a file
could not (a size NaN, a negative structure, a wall outside the table).
Version 1 journals (compiled shapes as GeoJSON) are converted to this form first.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import asdict, replace
from typing import Any  # Any: a journal's recorded arena, cards, mods and rules as read (JSON)

from shapely import get_coordinates
from shapely.geometry import Polygon

from bottisota.core.arena import Arena, Feature
from bottisota.core.cards import BotCard, Mod
from bottisota.core.errors import InputError
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.core.shapes import circle, circle_segments
from bottisota.formats import spec
from bottisota.formats.loading import (
    arena_from_dict,
    card_from_dict,
    mods_from_data,
    rules_from_dict,
)
from bottisota.formats.yaml_source import Raw


class DataError(ValueError):
    """Recorded static data that is not valid; `what` names the part (arena, cards, ...)."""

    def __init__(self, what: str, message: str) -> None:
        super().__init__(
                N_("the {what} recorded in the journal is not valid: {message}").format(
                    what=what, message=message))


def plain(value: Any) -> Any:
    """Tuples to lists, recursively (the JSON form), for comparisons."""
    return json.loads(json.dumps(value, default=default))


def default(value: Any) -> Any:
    if hasattr(value, "item"):          # numpy scalars
        return value.item()
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    raise TypeError(f"cannot journal {type(value).__name__}")


def _problems(err: InputError) -> str:
    return "; ".join(f"{p.path}: {p.message}" if p.path else p.message
                     for p in err.problems[:3]) + (
        N_(" (and {problems} more)").format(
            problems=len(err.problems) - 3) if len(err.problems) > 3 else "")


# --- the arena -----------------------------------------------------------------------

_FEATURE_KEYS = (("height", "height"), ("from", "from_z"), ("to", "to_z"), ("up", "up"),
                 ("speed", "speed"), ("carries", "carries"), ("top", "top"),
                 ("points", "points"))


def _coords(shape: Polygon) -> list[list[float]]:
    ring: list[list[float]] = get_coordinates(shape.exterior).tolist()
    return ring


def _exact(shape: Polygon, built: Polygon) -> bool:
    return _coords(built) == _coords(shape) and not built.interiors


def rect_ring(x: float, y: float, w: float, h: float) -> list[list[float]]:
    """The exterior ring `core.shapes.rect(x, y, w, h)` builds, worked out without
    building it (Shapely's box: from the lower right, counter-clockwise)."""
    x1, y1 = x + w, y + h
    return [[x1, y], [x1, y1], [x, y1], [x, y], [x1, y]]


def _candidates(values: tuple[float, ...]) -> Iterator[tuple[float, ...]]:
    """The values, and the same rounded (the file most likely held short decimals)."""
    yield values
    for digits in (3, 6, 9, 12):
        yield tuple(round(v, digits) for v in values)


def shape_data(feature: Feature) -> Raw:
    """The feature's shape as formats.md keys that rebuild exactly the compiled polygon
    (a wall cut by doors as drawn: loading cuts it again)."""
    shape = feature.drawn if feature.drawn is not None else feature.shape
    if feature.path and feature.width:
        return {"path": [list(p) for p in feature.path], "width": feature.width}
    if not isinstance(shape, Polygon) or shape.interiors:
        raise ValueError(f"{feature.label}: only simple polygons can be journaled")
    x0, y0, x1, y1 = shape.bounds
    ring = _coords(shape)
    if len(ring) == 5:
        for x, y, w, h in _candidates((x0, y0, x1 - x0, y1 - y0)):
            if rect_ring(x, y, w, h) == ring:
                return {"rect": [x, y, w, h]}
    elif len(ring) > 8 and abs((x1 - x0) - (y1 - y0)) <= 1e-9 * max(1.0, x1 - x0):
        for x, y, r in _candidates(((x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2)):
            # a circle's polygon has 4 x its segments a quarter, and the ring's end
            if r > 0 and len(ring) == 4 * circle_segments(r) + 1 and _exact(
                    shape, circle(x, y, r)):
                return {"circle": [x, y, r]}
    return {"polygon": ring}


_last_arena: tuple[Arena, Raw] | None = None     # the last arena put into data, and its data


def arena_to_data(arena: Arena) -> Raw:
    """The arena as a formats.md mapping (shapes exact, see shape_data). The last
    arena's data is kept (a journal's header and a reload write it; `play` works it out
    ahead on a thread of its own): the answer is shared, never to be changed."""
    global _last_arena
    last = _last_arena
    if last is not None and last[0] is arena:
        return last[1]
    features = []
    for f in arena.features:
        allowed = spec.FEATURE.variants.get(f.type, {})
        d: dict[str, Any] = {"type": f.type}
        if f.id is not None:
            d["id"] = f.id
        d.update(shape_data(f))
        for key, attr in _FEATURE_KEYS:
            value = getattr(f, attr)
            if key in allowed and value is not None:
                d[key] = value
        if "respawn" in allowed and f.respawn:
            d["respawn"] = [list(p) for p in f.respawn]
        features.append(d)
    data: Raw = plain({"name": arena.name, "size": list(arena.size), "features": features})
    _last_arena = (arena, data)
    return data


def arena_from_data(data: Any, source: str, rules: HouseRules) -> Arena:
    """Validate a recorded arena exactly as a file is validated (DataError if not)."""
    try:
        return arena_from_dict(data, source, rules=rules)
    except InputError as err:
        raise DataError("arena", _problems(err)) from None


# --- cards, mods, rules ----------------------------------------------------------------

_PART_BONUS = ("armour_mod", "hit_mod")      # BotCard fields a card file does not have


def card_to_data(card: BotCard) -> Raw:
    d: Raw = plain(asdict(card))
    for key in _PART_BONUS:
        if not d.get(key):
            d.pop(key, None)
    return d


def card_from_data(data: Any, rules: HouseRules) -> BotCard:
    if not isinstance(data, dict):
        raise DataError("cards", N_("a card is a mapping"))
    data = dict(data)
    bonus = {k: data.pop(k) for k in _PART_BONUS if k in data}
    if any(not isinstance(v, int) or isinstance(v, bool) or abs(v) > 100
           for v in bonus.values()):
        raise DataError("cards", N_("armour_mod and hit_mod are small whole numbers"))
    try:
        card = card_from_dict(data, "<journal>", rules=rules)
    except InputError as err:
        raise DataError("cards", _problems(err)) from None
    return replace(card, **bonus) if bonus else card


def mod_to_data(mod: Mod) -> Raw:
    data: Raw = plain(asdict(mod))
    return data


def mods_from(data: Any) -> list[Mod]:
    if not isinstance(data, list):
        raise DataError("mods", N_("the mods are a list"))
    if not data:
        return []
    try:
        return mods_from_data(data, "<journal>")
    except InputError as err:
        raise DataError("mods", _problems(err)) from None


def cards_from(data: Any, rules: HouseRules) -> list[BotCard]:
    if not isinstance(data, list):
        raise DataError("cards", N_("the cards are a list"))
    return [card_from_data(c, rules) for c in data]


def rules_to_data(rules: HouseRules) -> Raw:
    data: Raw = plain(asdict(rules))
    return data


# house rules added since journals were first written, with the value that plays an
# older journal's game as it was played (D48, D49: no robots' limit, no stalemate; R23:
# a watcher's time to answer, the bundled 30 s, changes no recorded event)
_RULES_SINCE: dict[str, object] = {"robot_round_limit": None, "stalemate_rounds": None,
                                   "overwatch_answer_seconds": 30}


def rules_from(data: Any) -> HouseRules:
    if isinstance(data, dict):
        data = {**_RULES_SINCE, **data}
    try:
        return rules_from_dict(data, "<journal>")
    except InputError as err:
        raise DataError(N_("house rules"), _problems(err)) from None


# --- version 1 (compiled shapes as GeoJSON) ------------------------------------------

def arena_from_v1(data: Any) -> Raw:
    """A version 1 arena (features with a GeoJSON `shape` and the Feature's own field
    names) -> the formats.md mapping, for the same validation."""
    if not isinstance(data, dict) or not isinstance(data.get("features"), list):
        raise DataError("arena", N_("expected a mapping with a list of features"))
    names = {attr: key for key, attr in _FEATURE_KEYS}
    features = []
    for raw in data["features"]:
        if not isinstance(raw, dict):
            raise DataError("arena", N_("a feature is a mapping"))
        kind = raw.get("type")
        allowed = spec.FEATURE.variants.get(kind, {}) if isinstance(kind, str) else {}
        d: dict[str, Any] = {"type": kind}
        if raw.get("id") is not None:
            d["id"] = raw["id"]
        if raw.get("path") and raw.get("width"):
            d["path"], d["width"] = raw["path"], raw["width"]
        else:
            geo: Any = raw.get("shape")
            rings = geo.get("coordinates") if isinstance(geo, dict) else None
            if geo is None or geo.get("type") != "Polygon" or not isinstance(rings, list) \
                    or len(rings) != 1:
                raise DataError("arena", N_("a version 1 feature's shape is one simple polygon"))
            ring = rings[0]
            d["polygon"] = ring
        for attr, key in names.items():
            if key in allowed and raw.get(attr) is not None:
                d[key] = raw[attr]
        if "respawn" in allowed and raw.get("respawn"):
            d["respawn"] = raw["respawn"]
        features.append(d)
    return {"name": data.get("name"), "size": data.get("size"), "features": features}
