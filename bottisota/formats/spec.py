"""The file formats of formats.md, described once: keys, types, required or not,
word lists and defaults. The validator (loading.py, scenario_spec.py) and the
JSON Schema writer (schema.py) both read these descriptions.
"""
from __future__ import annotations

from dataclasses import fields as dataclass_fields

from bottisota.core.shapes import ROTATABLE, SHAPE_KEYS
from bottisota.core.arena import FEATURE_TYPES
from bottisota.core.cards import EFFECTS, LOCOMOTIONS, MOUNTS, WEAPON_KINDS
from bottisota.core.house_rules import HouseRules
from bottisota.formats.spec_types import (
    AnyValue, Bool, Choice, Context, Enum, F, Int, MapOf, Null, Num, Record, Seq, SpecType,
    Tagged, Text, Word,
)

WALL_DEFAULT_HEIGHT = 10.0      # formats.md: a wall's top (and a door's) unless it says otherwise
MAX_FEATURES = 20_000           # arenas with more features are refused
SERVICE_CHOICES: tuple[str, ...] = ("reload", "repair", "rust", "leaflet", "part")
MOD_DECKS: tuple[str, ...] = ("parts", "research")
MOD_MODIFIES: tuple[str, ...] = ("move", "turn", "structure", "min_move", "armour_mod", "hit_mod")
CARRIES: tuple[str, ...] = ("up", "down")

# --- shapes ----------------------------------------------------------------------------

NUMBER = Num()
POINT = Seq(NUMBER, length=2, what="a point [x, y]")
POINTS = Seq(POINT, min_items=1, what="a list of points [[x, y], ...]")
RECT = Seq(NUMBER, length=4, what="[x, y, w, h] (lower-left corner, width, height)")
POLYGON = Seq(POINT, min_items=3, what="at least 3 points [[x, y], [x, y], [x, y], ...]")
CIRCLE = Seq(NUMBER, length=3, what="[x, y, r] (centre and radius)")
PATH = Seq(POINT, min_items=2, what="at least 2 points [[x, y], [x, y], ...]")
FACING = Num(doc="a facing in degrees: 0 = up the map (+y), 90 = right, clockwise")

SHAPE_FIELDS: dict[str, F] = {
    "rect": F(RECT, doc="rectangle [x, y, w, h]"),
    "polygon": F(POLYGON, doc="corner points, simple (not self-crossing)"),
    "circle": F(CIRCLE, doc="circle [x, y, r]"),
    "path": F(PATH, doc="a strip of `width` along this polyline"),
    "width": F(Num(positive=True), doc="width of a `path` strip, cm"),
    "rotate": F(NUMBER, doc="clockwise degrees about the centroid (rect and polygon)"),
}


def _one_shape(data: dict, path: str, ctx: Context) -> None:
    """A feature has exactly one shape; width goes with path; rotate with rect/polygon."""
    kinds = [k for k in SHAPE_KEYS if k in data]
    if not kinds:
        ctx.error(path, "missing its shape: give one of rect, polygon, circle or path")
        return
    if len(kinds) > 1:
        ctx.error(f"{path}.{kinds[1]}" if path else kinds[1],
                  f"a feature has one shape; it gives both '{kinds[0]}' and '{kinds[1]}'",
                  key=True)
    kind = kinds[0]
    if kind == "path" and "width" not in data:
        ctx.error(path, "missing key 'width' (a path strip needs its width, cm)")
    if kind != "path" and "width" in data:
        ctx.error(f"{path}.width", "'width' goes only with a 'path' shape", key=True)
    if "rotate" in data and kind not in ROTATABLE:
        ctx.error(f"{path}.rotate", f"'rotate' applies to rect and polygon, not to {kind}",
                  key=True)
    if data.get("type") == "conveyor" and kind != "path":
        ctx.error(path, "a conveyor needs a 'path' (its travel runs along the points) "
                        "and a 'width'")
    lo, hi = data.get("from"), data.get("to")
    if lo is not None and hi is not None and lo > hi:
        ctx.error(f"{path}.from", f"'from' ({lo:g}) is the low end and must not be above "
                                  f"'to' ({hi:g}); turn 'up' around instead")


SLOPE_FIELDS: dict[str, F] = {
    "from": F(Num(minimum=0), required=True, doc="floor height at the low end, cm"),
    "to": F(Num(minimum=0), required=True, doc="floor height at the high end, cm"),
    "up": F(FACING, required=True, doc="facing (degrees, 0 = +y, clockwise) in which it rises"),
}

FEATURE = Tagged(
    name="feature",
    tag="type",
    common={"id": F(Text(numbers_ok=True), doc="unique in the arena"), **SHAPE_FIELDS},
    variants={
        "wall": {"height": F(Num(minimum=0), default=WALL_DEFAULT_HEIGHT,
                             doc="z of its top, cm (default 10)")},
        "door": {"height": F(Num(minimum=0), default=WALL_DEFAULT_HEIGHT,
                             doc="z of its top, cm (default 10)")},
        "platform": {"height": F(Num(minimum=0), required=True, doc="its floor height, cm")},
        "stairs": dict(SLOPE_FIELDS),
        "ramp": dict(SLOPE_FIELDS),
        "escalator": {**SLOPE_FIELDS,
                      "speed": F(Num(positive=True), required=True, doc="carry, cm"),
                      "carries": F(Enum(CARRIES), default="up", doc="up (toward `up`) or down")},
        "lift": {"top": F(Num(minimum=0), required=True, doc="height of the landing it serves")},
        "pit": {},
        "conveyor": {"speed": F(Num(positive=True),
                                doc="carry, cm (default: the house rules' belt_speed)")},
        "service": {},
        "teleporter": {},
        "goal": {"points": F(Int(minimum=0), doc="points (default: house rules goal_points)"),
                 "respawn": F(Seq(POINT, what="a list of points [[x, y], ...]"),
                              doc="spots the marker moves to, in turn (D23)")},
    },
    rules=(_one_shape,),
    doc="one arena feature: a type, a shape and the type's keys",
)
assert tuple(FEATURE.variants) == FEATURE_TYPES

ARENA = Record("arena", {
    "name": F(Text(), doc="the arena's name"),
    "size": F(Seq(Num(positive=True), length=2, what="the table size [width, height], cm"),
              required=True, doc="the table [width, height], cm"),
    "features": F(Seq(FEATURE, max_items=MAX_FEATURES), default=[],
                  doc="walls, doors, platforms, ... (later floors win where they overlap)"),
}, doc="A Bottisota arena (formats.md)")

# --- cards -------------------------------------------------------------------------------

DICE_AMOUNT = Choice((Int(minimum=0), Word("d6")), what="a whole number or d6")

WEAPON = Record("weapon", {
    "name": F(Text(), required=True, doc="unique on its card"),
    "kind": F(Enum(WEAPON_KINDS), required=True),
    "mount": F(Enum(MOUNTS), default="nose", doc="nose (front 90°) or turret"),
    "range": F(Num(minimum=0), default=30.0, doc="cm, centre to centre (D14)"),
    "to_hit": F(Int(minimum=1, maximum=7), default=4, doc="d6 + mods >= to_hit (D5)"),
    "hits": F(DICE_AMOUNT, default=1, doc="an integer, or d6"),
    "armour_mod": F(Int(), default=0, doc="added to the target's armour tests"),
    "explosive": F(Bool(), default=False, doc="blast marker at the impact (R34)"),
    "strength": F(Num(minimum=0), default=0.0, doc="push / pull distance, cm"),
    "ammo": F(Choice((Int(minimum=1), Null()), what="a whole number of at least 1, or null"),
              doc="shots before a reload (R49); null = unlimited"),
    "effect": F(Choice((Enum(EFFECTS), Null()), what="rust, leaflet or null"),
                doc="rust | leaflet (D25-D27)"),
}, doc="a weapon system")


def _unique_weapon_names(data: dict, path: str, ctx: Context) -> None:
    seen: set[str] = set()
    for i, w in enumerate(data.get("weapons") or []):
        if w["name"] in seen:
            ctx.error(f"{path}.weapons[{i}].name" if path else f"weapons[{i}].name",
                      f"two weapons are named '{w['name']}' on this card")
        seen.add(w["name"])


_CARD_BODY: dict[str, F] = {
    "locomotion": F(Enum(LOCOMOTIONS), required=True),
    "move": F(Num(minimum=0), required=True, doc="cm per round"),
    "turn": F(Num(minimum=0), default=2.0, doc="cm (R8, R9, R12, R14)"),
    "min_move": F(Num(minimum=0), default=0.0, doc="fliers (R12)"),
    "armour": F(Int(minimum=1, maximum=7), required=True, doc="armour test target (D6)"),
    "structure": F(Int(minimum=1), required=True, doc="damage points (D7)"),
    "base": F(Num(positive=True), doc="base diameter, cm (default: house rules, 2)"),
    "height": F(Num(positive=True), doc="figure height, cm (default: house rules, 2)"),
    "copies": F(Int(minimum=0), default=1, doc="copies in the bot deck"),
    "weapons": F(Seq(WEAPON), required=True),
}

REPLACES = F(Text(numbers_ok=True), doc="the id of a bundled card or mod this one replaces "
                                         "on purpose (no shadowing warning)")

CARD = Record("bot card", {
    "id": F(Text(numbers_ok=True), required=True),
    "name": F(Text(), required=True),
    "replaces": REPLACES,
    **_CARD_BODY,
}, rules=(_unique_weapon_names,), doc="A Bottisota bot card (formats.md)")

INLINE_CARD = Record("inline card", {
    "id": F(Text(numbers_ok=True), doc="defaults to the bot's id"),
    "name": F(Text(), doc="defaults to the id"),
    **_CARD_BODY,
}, rules=(_unique_weapon_names,), doc="a bot card written in place")

CARD_FILE = Choice((CARD, Seq(CARD, min_items=1)), what="a bot card or a list of bot cards")

MOD = Record("mod", {
    "id": F(Text(numbers_ok=True), required=True),
    "name": F(Text(), required=True),
    "replaces": REPLACES,
    "deck": F(Enum(MOD_DECKS), default="parts"),
    "modifies": F(MapOf(Num(), keys=Enum(MOD_MODIFIES)), default={},
                  doc="added: move, turn, structure, min_move, armour_mod, hit_mod"),
    "weapons": F(Seq(WEAPON), default=[]),
}, rules=(_unique_weapon_names,), doc="A Bottisota mod or extra part (formats.md)")

MOD_FILE = Choice((MOD, Seq(MOD, min_items=1)), what="a mod or a list of mods")

# --- house rules: one key per HouseRules field, typed from the dataclass ------------------

_RULE_TYPES: dict[str, SpecType] = {
    "float": Num(),
    "int": Int(),
    "bool": Bool(),
    "str | int": DICE_AMOUNT,
    "int | None": Choice((Int(minimum=1), Null()), what="a whole number or null"),
}


def _rule_fields() -> dict[str, F]:
    out = {}
    for f in dataclass_fields(HouseRules):
        out[f.name] = F(_RULE_TYPES[str(f.type)], required=True)
    return out


RULE_FIELDS: dict[str, F] = _rule_fields()
RULES = Record("house rules", RULE_FIELDS, doc="Bottisota house rules: every number (formats.md)")
RULE_OVERRIDES = Record("house rule overrides",
                        {k: F(v.type) for k, v in RULE_FIELDS.items()},
                        doc="house rules to change; the others keep their values")

# --- scenarios ---------------------------------------------------------------------------

BOT = Record("bot", {
    "id": F(Text(numbers_ok=True), required=True),
    "player": F(Text(numbers_ok=True), required=True),
    "card": F(Choice((Text(), INLINE_CARD), what="a card id or an inline card"), required=True),
    "at": F(POINT, required=True, doc="centre [x, y], cm"),
    "facing": F(FACING, default=0.0),
    "damage": F(Int(minimum=0), default=0),
    "status": F(Record("status", {"rust": F(Int(minimum=0), default=0),
                                  "leaflet": F(Int(minimum=0), default=0)}), default={}),
    "overwatch": F(Bool(), default=False),
    "moved": F(Num(minimum=0), default=0.0, doc="cm already moved this turn"),
    "parts": F(Seq(Text(numbers_ok=True)), default=[], doc="ids of extra parts"),
    "ammo": F(MapOf(Int(minimum=0)), default={}, doc="weapon name: shots left"),
    "new": F(Bool(), default=False, doc="a new bot on its first move (R56)"),
}, doc="a bot on the table")

EXPECT = Record("expect", {
    "bots": F(MapOf(MapOf(AnyValue())), doc="bot id: {key: expected value}"),
    "scores": F(MapOf(Int()), doc="player: points"),
    "rejected": F(Seq(Int(minimum=0)), doc="indices of actions that must be refused"),
    "kills": F(MapOf(Int()), doc="player: kills"),
    "round": F(Int(minimum=1)),
    "dice_used": F(Int(minimum=0)),
    "mines": F(AnyValue()),
    "goals": F(AnyValue()),
    "events": F(AnyValue()),
    "over": F(Bool()),
}, defaults=False, doc="expectations; every key optional")


def _dice_or_seed(data: dict, path: str, ctx: Context) -> None:
    if "dice" in data and "seed" in data:
        ctx.error("seed", "give either 'dice' (forced rolls) or 'seed', not both", key=True)
    ids = [b["id"] for b in data.get("bots") or []]
    for i, bot_id in enumerate(ids):
        if bot_id in ids[:i]:
            ctx.error(f"bots[{i}].id", f"two bots have the id '{bot_id}'")


SCENARIO = Record("scenario", {
    "name": F(Text(), doc="what the scenario shows"),
    "arena": F(Choice((Text(), ARENA), what="an inline arena or a path to an arena file"),
               required=True),
    "rules": F(RULE_OVERRIDES, default={}, doc="house-rule overrides"),
    "dice": F(Seq(Int(minimum=1, maximum=6)), doc="forced d6 results, used in order"),
    "seed": F(Int(), doc="a seeded dice stream instead of forced dice"),
    "round": F(Int(minimum=1), default=2),
    "bots": F(Seq(BOT), default=[]),
    "actions": F(Seq(AnyValue(doc="an action: {bot: id, move | shoot | overwatch | "
                                  "self_destruct | service | place | pass: ...}")), default=[]),
    "expect": F(EXPECT, default={}),
}, rules=(_dice_or_seed,), doc="A Bottisota scenario: a position, actions, expectations")

FORMATS: dict[str, SpecType] = {
    "arena": ARENA,
    "card": CARD_FILE,
    "mod": MOD_FILE,
    "rules": RULES,
    "scenario": SCENARIO,
}
"""Every file format by name (the JSON Schemas are written from these)."""
