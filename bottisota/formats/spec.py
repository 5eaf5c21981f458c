"""The file formats of formats.md, declared once: keys, types, ranges, required or
not, word lists and defaults. The validator (loading.py, scenario_spec.py,
codec.py, robot_tables.py) and the JSON Schema writer (schema.py) both read
these declarations; defaults come from the value classes in `core` (one place).

Every number declares its range: tables at most MAX_TABLE cm a side, hits at
most MAX_HITS, costs and steps that something divides by above 0.
"""
from __future__ import annotations

from dataclasses import MISSING
from dataclasses import fields as dataclass_fields
from typing import Any  # Any: a declared default, of whatever type its key declares

from bottisota.core.actions import LIFT_DIRECTIONS, SERVICE_CHOICES
from bottisota.core.arena import FEATURE_TYPES
from bottisota.core.cards import EFFECTS, LOCOMOTIONS, MOUNTS, WEAPON_KINDS, BotCard, Mod, Weapon
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.core.shapes import ROTATABLE, SHAPE_KEYS
from bottisota.formats.robot_tables import ROBOT_TABLE
from bottisota.formats.spec_types import (
    AnyValue,
    Bool,
    Choice,
    Const,
    Context,
    Enum,
    F,
    Int,
    Keyed,
    MapOf,
    Null,
    Num,
    Record,
    Seq,
    SpecType,
    Tagged,
    Text,
    Word,
    did_you_mean,
)
from bottisota.formats.yaml_source import Raw

WALL_DEFAULT_HEIGHT = 10.0      # formats.md: a wall's top (and a door's) unless it says otherwise
MAX_FEATURES = 20_000           # arenas with more features are refused
MAX_TABLE = 1000.0              # cm: the longest side of a table (10 m)
MAX_HEIGHT = 1000.0             # cm: the highest floor or wall top
MAX_MOVE = 200.0                # cm: the longest move a card may give
MAX_HITS = 20                   # hits of one shot, collision or blast
MAX_STRUCTURE = 100             # damage points of a bot
MAX_COPIES = 20                 # copies of one card in the deck
MAX_MOD = 6                     # d6 modifiers (armour_mod, hit_mod, ...) are within ±6
MAX_ANGLE = 720.0               # degrees: facings, turns and bearings within ±720
MAX_POINTS = 1000               # points of a goal or a kill
MOD_DECKS: tuple[str, ...] = ("parts", "research")
CARRIES: tuple[str, ...] = ("up", "down")


def default_of(cls: type, name: str) -> Any:
    """The default of a value class's field: the one place a default is written."""
    for f in dataclass_fields(cls):
        if f.name == name:
            if f.default is not MISSING:
                return f.default
            if f.default_factory is not MISSING:
                return f.default_factory()
            raise KeyError(f"{cls.__name__}.{name} has no default")
    raise KeyError(f"{cls.__name__} has no field {name}")


# --- numbers and shapes ---------------------------------------------------------------------

COORD = Num(minimum=-MAX_TABLE, maximum=2 * MAX_TABLE,
            doc="a coordinate, cm (0 at the table's lower-left corner)")
POINT = Seq(COORD, length=2, what="a point [x, y]")
POINTS = Seq(POINT, min_items=1, max_items=10_000, what="a list of points [[x, y], ...]")
RECT = Seq(COORD, length=4, what="[x, y, w, h] (lower-left corner, width, height)")
POLYGON = Seq(POINT, min_items=3, max_items=10_000,
              what="at least 3 points [[x, y], [x, y], [x, y], ...]")
CIRCLE = Seq(COORD, length=3, what="[x, y, r] (centre and radius)")
PATH = Seq(POINT, min_items=2, max_items=10_000, what="at least 2 points [[x, y], [x, y], ...]")
ANGLE = Num(minimum=-MAX_ANGLE, maximum=MAX_ANGLE, doc="degrees, + is clockwise")
FACING = Num(minimum=-MAX_ANGLE, maximum=MAX_ANGLE,
             doc="a facing in degrees: 0 = up the map (+y), 90 = right, clockwise")
LENGTH = Num(positive=True, maximum=MAX_TABLE)
HEIGHT = Num(minimum=0, maximum=MAX_HEIGHT)
MODIFIER = Int(minimum=-MAX_MOD, maximum=MAX_MOD)
D6_TARGET = Int(minimum=1, maximum=7)

SHAPE_FIELDS: dict[str, F] = {
    "rect": F(RECT, doc="rectangle [x, y, w, h]"),
    "polygon": F(POLYGON, doc="corner points, simple (not self-crossing)"),
    "circle": F(CIRCLE, doc="circle [x, y, r]"),
    "path": F(PATH, doc="a strip of `width` along this polyline"),
    "width": F(LENGTH, doc="width of a `path` strip, cm"),
    "rotate": F(ANGLE, doc="clockwise degrees about the centroid (rect and polygon)"),
}


def _one_shape(data: Raw, path: str, ctx: Context) -> None:
    """A feature has exactly one shape; width goes with path; rotate with rect/polygon."""
    kinds = [k for k in SHAPE_KEYS if k in data]
    if not kinds:
        ctx.error(path, N_("missing its shape: give one of rect, polygon, circle or path"))
        return
    if len(kinds) > 1:
        ctx.error(f"{path}.{kinds[1]}" if path else kinds[1],
                  N_("a feature has one shape; it gives both '{v}' and '{v2}'").format(
                      v=kinds[0], v2=kinds[1]),
                  key=True)
    kind = kinds[0]
    if kind == "path" and "width" not in data:
        ctx.error(path, N_("missing key 'width' (a path strip needs its width, cm)"))
    if kind != "path" and "width" in data:
        ctx.error(f"{path}.width", N_("'width' goes only with a 'path' shape"), key=True)
    if "rotate" in data and kind not in ROTATABLE:
        ctx.error(f"{path}.rotate",
                N_("'rotate' applies to rect and polygon, not to {kind}").format(kind=kind),
                  key=True)
    if data.get("type") == "conveyor" and kind != "path":
        ctx.error(path,
                N_("a conveyor needs a 'path' (its travel runs along the points) and a 'width'"))
    lo, hi = data.get("from"), data.get("to")
    if lo is not None and hi is not None and lo > hi:
        ctx.error(f"{path}.from",
                N_("'from' ({lo:g}) is the low end and must not be above 'to' ({hi:g}); turn "
                   "'up' around instead").format(
                    lo=lo, hi=hi))


SLOPE_FIELDS: dict[str, F] = {
    "from": F(HEIGHT, required=True, doc="floor height at the low end, cm"),
    "to": F(HEIGHT, required=True, doc="floor height at the high end, cm"),
    "up": F(FACING, required=True, doc="facing (degrees, 0 = +y, clockwise) in which it rises"),
}
SPEED = Num(positive=True, maximum=MAX_TABLE)

FEATURE = Tagged(
    name="feature",
    tag="type",
    tag_doc="what the feature is: " + ", ".join(FEATURE_TYPES),
    common={"id": F(Text(numbers_ok=True), doc="unique in the arena"), **SHAPE_FIELDS},
    variants={
        "wall": {"height": F(HEIGHT, default=WALL_DEFAULT_HEIGHT,
                             doc="z of its top, cm (default 10)")},
        "door": {"height": F(HEIGHT, default=WALL_DEFAULT_HEIGHT,
                             doc="z of its top, cm (default 10)")},
        "platform": {"height": F(HEIGHT, required=True, doc="its floor height, cm")},
        "stairs": dict(SLOPE_FIELDS),
        "ramp": dict(SLOPE_FIELDS),
        "escalator": {**SLOPE_FIELDS,
                      "speed": F(SPEED, required=True, doc="carry, cm"),
                      "carries": F(Enum(CARRIES), default="up", doc="up (toward `up`) or down")},
        "lift": {"top": F(HEIGHT, required=True, doc="height of the landing it serves, cm")},
        "pit": {},
        "conveyor": {"speed": F(SPEED, doc="carry, cm (default: the house rules' belt_speed)")},
        "service": {},
        "teleporter": {},
        "goal": {"points": F(Int(minimum=0, maximum=MAX_POINTS),
                             doc="points (default: house rules goal_points)"),
                 "respawn": F(Seq(POINT, max_items=1000, what="a list of points [[x, y], ...]"),
                              doc="spots the marker moves to, in turn (D23)")},
    },
    rules=(_one_shape,),
    doc="one arena feature: a type, a shape and the type's keys",
)
assert tuple(FEATURE.variants) == FEATURE_TYPES

ARENA = Record("arena", {
    "name": F(Text(), doc="the arena's name"),
    "size": F(Seq(LENGTH, length=2, what="the table size [width, height], cm"),
              required=True, doc=f"the table [width, height], cm (each above 0, at most "
                                 f"{MAX_TABLE:g})"),
    "features": F(Seq(FEATURE, max_items=MAX_FEATURES), default=[],
                  doc="walls, doors, platforms, ... (later floors win where they overlap)"),
}, doc="A Bottisota arena (formats.md)")

# --- cards -------------------------------------------------------------------------------

DICE_AMOUNT = Choice((Int(minimum=0, maximum=MAX_HITS), Word("d6")),
                     what=f"a whole number from 0 to {MAX_HITS} or d6")


def _weapon_default(name: str) -> Any:
    return default_of(Weapon, name)


WEAPON = Record("weapon", {
    "name": F(Text(), required=True, doc="unique on its card"),
    "kind": F(Enum(WEAPON_KINDS), required=True, doc="what it is: " + ", ".join(WEAPON_KINDS)),
    "mount": F(Enum(MOUNTS), default=_weapon_default("mount"), doc="nose (front 90°) or turret"),
    "range": F(Num(minimum=0, maximum=MAX_TABLE), default=_weapon_default("range"),
               doc="cm, centre to centre (D14)"),
    "to_hit": F(D6_TARGET, default=_weapon_default("to_hit"), doc="d6 + mods >= to_hit (D5)"),
    "hits": F(DICE_AMOUNT, default=_weapon_default("hits"), doc="an integer, or d6"),
    "armour_mod": F(MODIFIER, default=_weapon_default("armour_mod"),
                    doc="added to the target's armour tests"),
    "explosive": F(Bool(), default=_weapon_default("explosive"),
                   doc="blast marker at the impact (R34)"),
    "strength": F(Num(minimum=0, maximum=MAX_TABLE), default=_weapon_default("strength"),
                  doc="push / pull distance, cm"),
    "ammo": F(Choice((Int(minimum=1, maximum=1000), Null()),
                     what="a whole number from 1 to 1000, or null"),
              doc="shots before a reload (R49); null = unlimited"),
    "effect": F(Choice((Enum(EFFECTS), Null()), what="rust, leaflet or null"),
                doc="rust | leaflet (D25-D27)"),
}, doc="a weapon system")


def _unique_weapon_names(data: Raw, path: str, ctx: Context) -> None:
    seen: set[str] = set()
    for i, w in enumerate(data.get("weapons") or []):
        if w["name"] in seen:
            ctx.error(f"{path}.weapons[{i}].name" if path else f"weapons[{i}].name",
                      N_("two weapons are named '{name}' on this card").format(name=w['name']))
        seen.add(w["name"])


MOVE_CM = Num(minimum=0, maximum=MAX_MOVE)
WEAPONS = Seq(WEAPON, max_items=20)
_CARD_BODY: dict[str, F] = {
    "locomotion": F(Enum(LOCOMOTIONS), required=True,
                    doc="how it moves: " + ", ".join(LOCOMOTIONS)),
    "move": F(MOVE_CM, required=True, doc="cm per round"),
    "turn": F(MOVE_CM, default=default_of(BotCard, "turn"), doc="cm (R8, R9, R12, R14)"),
    "min_move": F(MOVE_CM, default=default_of(BotCard, "min_move"), doc="fliers (R12), cm"),
    "armour": F(D6_TARGET, required=True, doc="armour test target (D6)"),
    "structure": F(Int(minimum=1, maximum=MAX_STRUCTURE), required=True,
                   doc="damage points (D7)"),
    "base": F(Num(positive=True, maximum=50), doc="base diameter, cm (default: house rules, 2)"),
    "height": F(Num(positive=True, maximum=100),
                doc="figure height, cm (default: house rules, 2)"),
    "copies": F(Int(minimum=0, maximum=MAX_COPIES), default=default_of(BotCard, "copies"),
                doc="copies in the bot deck"),
    "weapons": F(WEAPONS, required=True, doc="its weapon systems (a list, may be empty)"),
}

REPLACES = F(Text(numbers_ok=True), doc="the id of a bundled card or mod this one replaces "
                                         "on purpose (no shadowing warning)")

CARD = Record("bot card", {
    "id": F(Text(numbers_ok=True), required=True, doc="unique among all cards"),
    "name": F(Text(), required=True, doc="the card's name"),
    "replaces": REPLACES,
    **_CARD_BODY,
}, rules=(_unique_weapon_names,), doc="A Bottisota bot card (formats.md)")

INLINE_CARD = Record("inline card", {
    "id": F(Text(numbers_ok=True), doc="defaults to the bot's id"),
    "name": F(Text(), doc="defaults to the id"),
    **_CARD_BODY,
}, rules=(_unique_weapon_names,), doc="a bot card written in place")

CARD_FILE = Choice((CARD, Seq(CARD, min_items=1, max_items=1000)),
                   what="a bot card or a list of bot cards")

MODIFIES = Record("modifies", {
    "move": F(Num(minimum=-MAX_MOVE, maximum=MAX_MOVE), doc="added to move, cm"),
    "turn": F(Num(minimum=-MAX_MOVE, maximum=MAX_MOVE), doc="added to turn, cm"),
    "structure": F(Int(minimum=-MAX_STRUCTURE, maximum=MAX_STRUCTURE),
                   doc="added to structure"),
    "min_move": F(Num(minimum=-MAX_MOVE, maximum=MAX_MOVE), doc="added to min_move, cm"),
    "armour_mod": F(MODIFIER, doc="added to its armour test rolls (+ is tougher)"),
    "hit_mod": F(MODIFIER, doc="added to its to-hit rolls"),
}, defaults=False, meta=False, doc="stats the part changes, each added to the card's")

MOD = Record("mod", {
    "id": F(Text(numbers_ok=True), required=True, doc="unique among all mods"),
    "name": F(Text(), required=True, doc="the mod's name"),
    "replaces": REPLACES,
    "deck": F(Enum(MOD_DECKS), default=default_of(Mod, "deck"), doc="parts or research"),
    "modifies": F(MODIFIES, default={}, doc="added: move, turn, structure, min_move, "
                                            "armour_mod, hit_mod"),
    "weapons": F(WEAPONS, default=[], doc="weapons the part adds"),
}, rules=(_unique_weapon_names,), doc="A Bottisota mod or extra part (formats.md)")

MOD_FILE = Choice((MOD, Seq(MOD, min_items=1, max_items=1000)), what="a mod or a list of mods")

# --- house rules: one key per HouseRules field, with its range ---------------------------------

_FRACTION = Num(minimum=0, maximum=1)
_COST = Num(positive=True, maximum=10)
_TURNS = Num(minimum=0, maximum=20)
_ARC = Num(positive=True, maximum=360)

RULE_FIELDS: dict[str, F] = {
    "base_diameter": F(Num(positive=True, maximum=50), doc="D3 default base of a bot, cm"),
    "figure_height": F(Num(positive=True, maximum=100), doc="D3 default figure height, cm"),
    "contact_tolerance": F(Num(minimum=0, maximum=1), doc="D4 discs touch within this gap, cm"),
    "natural_fail": F(Int(minimum=1, maximum=6), doc="R5 this natural roll always fails"),
    "natural_success": F(Int(minimum=1, maximum=6), doc="R5 this natural roll always succeeds"),
    "turn_step": F(Num(positive=True, maximum=360),
                   doc="R8 R9 R12 one turn of a wheeled, tracked or flying bot, degrees"),
    "free_turns_at_start": F(Int(minimum=0, maximum=8), doc="R8 R9 free turns at a move's start"),
    "backward_cost": F(_COST, doc="R8 R9 each cm backward costs this many cm"),
    "walker_side_cost": F(_COST, doc="R10 a walker's non-forward cm costs this many cm"),
    "walker_stairs_cost": F(_COST, doc="R42 a walker's cm on stairs costs this many cm"),
    "loop_cost_turns": F(_TURNS, doc="R14 a loop costs this many times Turn"),
    "loop_space_turns": F(_TURNS, doc="R14 a loop needs this many times Turn of free space"),
    "flier_crash_hits": F(DICE_AMOUNT, doc="R13 hits a flier takes crashing into a wall"),
    "flier_crash_armour_mod": F(MODIFIER, doc="R13 armour test modifier in a crash"),
    "flier_crash_turn_away": F(Num(minimum=0, maximum=360),
                               doc="R13 turn allowed after a crash, degrees"),
    "collision_hits": F(DICE_AMOUNT, doc="D10 hits each bot in a collision takes"),
    "collision_armour_mod": F(MODIFIER, doc="D10 armour modifier in a collision"),
    "sturdy_reroll": F(Bool(), doc="R17 wheeled/tracked may demand one armour re-roll"),
    "step_height": F(Num(minimum=0, maximum=100), doc="D16 drops up to this are steps, cm"),
    "fall_armour_mod_below": F(MODIFIER, doc="R40 armour modifier per damage point for the bot "
                                             "landed on"),
    "lift_cost_fraction": F(_FRACTION, doc="R48 a lift ride costs this share of the move"),
    "belt_speed": F(Num(minimum=0, maximum=MAX_TABLE), doc="R44 D12 belt carry, cm"),
    "nose_arc": F(_ARC, doc="R19 full width of a nose arc, degrees"),
    "overwatch_range": F(Num(minimum=0, maximum=MAX_TABLE), doc="R23 D12 overwatch reach, cm"),
    "overwatch_move_fraction": F(_FRACTION, doc="R23 overwatch only after moving at most this "
                                                "share of the move"),
    "overwatch_point_tolerance": F(Num(positive=True, maximum=10),
                                   doc="watchers fire at the first point, to this many cm"),
    "overwatch_answer_seconds": F(Num(positive=True, maximum=3600),
                                  doc="R23 a watcher asked to fire or hold holds after this "
                                      "many seconds without an answer"),
    "blast_diameter": F(Num(minimum=0, maximum=MAX_TABLE), doc="R34 D12 blast marker, cm"),
    "blast_hit_mod": F(MODIFIER, doc="R34 to-hit modifier off the blast centre"),
    "blast_armour_mod": F(MODIFIER, doc="R34 armour modifier off the blast centre"),
    "level_difference": F(Num(minimum=0, maximum=MAX_HEIGHT),
                          doc="D13 floors differing by more are different levels, cm"),
    "missile_turn": F(Num(minimum=0, maximum=360), doc="R27 a missile turns at most this, deg"),
    "missile_front_arc": F(_ARC, doc="R27 full width of a missile's front arc, degrees"),
    "pull_push_hits": F(DICE_AMOUNT, doc="R30 extra hits when pull and push both hit"),
    "pull_push_armour_mod": F(MODIFIER, doc="R30 armour modifier for them"),
    "self_destruct_hits": F(DICE_AMOUNT, doc="D21 hits of a self-destruct blast"),
    "self_destruct_to_hit": F(D6_TARGET, doc="D21 its to-hit target"),
    "rust_max": F(Int(minimum=0, maximum=MAX_MOD), doc="D25 at most this many rust steps"),
    "leaflet_max": F(Int(minimum=0, maximum=MAX_MOD), doc="D26 at most this many leaflet steps"),
    "repair_damage": F(Int(minimum=0, maximum=MAX_STRUCTURE),
                       doc="R50 damage points a service repairs"),
    "kill_points": F(Int(minimum=0, maximum=MAX_POINTS), doc="D22 points for a kill"),
    "goal_points": F(Int(minimum=0, maximum=MAX_POINTS), doc="D23 default points of a goal"),
    "round_limit": F(Choice((Int(minimum=1, maximum=1000), Null()),
                            what="a whole number from 1 to 1000, or null"),
                     doc="D24 the last round; null: play until one player is left"),
    "robot_round_limit": F(Choice((Int(minimum=1, maximum=1000), Null()),
                                  what="a whole number from 1 to 1000, or null"),
                           doc="D48 the last round of a game of robots only when round_limit "
                               "is null; null: none"),
    "stalemate_rounds": F(Choice((Int(minimum=1, maximum=1000), Null()),
                                 what="a whole number from 1 to 1000, or null"),
                          doc="D49 this many whole rounds with no damage, score, placing or "
                              "move end the game as a draw; null: never"),
}
assert list(RULE_FIELDS) == HouseRules.names(), "RULE_FIELDS must follow HouseRules"

RULES = Record("house rules", {k: F(v.type, required=True, doc=v.doc)
                               for k, v in RULE_FIELDS.items()},
               doc="Bottisota house rules: every number (formats.md)")
RULE_OVERRIDES = Record("house rules", dict(RULE_FIELDS),
                        doc="Bottisota house rules: cards/rules.yaml gives every key; a partial "
                            "rules file (or a scenario's `rules:`) changes some, the others "
                            "keep their values")

# --- actions and steps ---------------------------------------------------------------------

DISTANCE = Num(minimum=-MAX_TABLE, maximum=MAX_TABLE, doc="cm")
TURN = Num(minimum=-5 * MAX_ANGLE, maximum=5 * MAX_ANGLE, doc="degrees, + is right (D2)")
BOT_ID = Text(numbers_ok=True, doc="a bot's id")

STEP = Keyed("step", {
    "forward": F(DISTANCE, doc="cm along the facing"),
    "back": F(DISTANCE, doc="cm backward"),
    "turn": F(TURN, doc="degrees, + is right (D2)"),
    "strafe": F(Record("strafe", {
        "bearing": F(TURN, required=True, doc="relative to the facing: 0 ahead, 90 right"),
        "distance": F(DISTANCE, required=True, doc="cm"),
    }, meta=False), doc="walkers and hoverers: move without turning"),
    "loop": F(Const(True), doc="true: a flier's loop (R14)"),
    "lift": F(Enum(LIFT_DIRECTIONS), doc="ride a lift up or down (R48)"),
    "drop_mine": F(Text(), doc="the mine weapon's name (R31)"),
}, meta=False, doc="one movement step")

SHOT = Record("shot", {
    "weapon": F(Text(), required=True, doc="the weapon's name on the card"),
    "target": F(Choice((BOT_ID, Null()), what="a bot id or null"), doc="the target bot's id"),
    "at": F(Choice((POINT, Null()), what="a point [x, y] or null"),
            doc="a point to aim at, for weapons that may aim at one"),
}, meta=False, doc="one weapon fired")

ACTION = Keyed("action", {
    "move": F(Seq(STEP, max_items=1000), doc="the movement phase: steps in order"),
    "shoot": F(Choice((Seq(SHOT, max_items=100), SHOT), what="a shot or a list of shots"),
               doc="weapons fired: [{weapon: NAME, target: BOT}] or {weapon, at: [x, y]}"),
    "overwatch": F(Const(True), doc="true: go on overwatch (R23)"),
    "self_destruct": F(Const(True), doc="true: self-destruct (D21)"),
    "service": F(Enum(SERVICE_CHOICES), doc="what a service point gives (R49, R50)"),
    "place": F(Seq(COORD, min_items=2, max_items=3, what="[x, y] or [x, y, facing]"),
               doc="put a drawn bot on the table: [x, y, facing]"),
    "pass": F(Const(True), doc="true: do nothing in the shooting phase (D19)"),
    "correct": F(Record("correction", {
        "reason": F(Text(), required=True, doc="why the table is corrected"),
        "at": F(POINT, doc="the bot's centre [x, y], cm"),
        "facing": F(Num(minimum=0, maximum=MAX_ANGLE, doc="degrees (D2)"), doc="its facing"),
        "damage": F(Num(minimum=0, maximum=MAX_STRUCTURE, integer=True), doc="damage points"),
        "ammo": F(MapOf(Num(minimum=0, maximum=MAX_HITS * 50, integer=True), max_items=100),
                  doc="shots left, by weapon name"),
        "overwatch": F(Bool(), doc="on overwatch or not"),
        "rust": F(Num(minimum=0, maximum=MAX_STRUCTURE, integer=True), doc="rust (D25)"),
        "leaflet": F(Num(minimum=0, maximum=MAX_STRUCTURE, integer=True), doc="leaflets (D26)"),
        "score": F(Num(minimum=-MAX_POINTS * 100, maximum=MAX_POINTS * 100, integer=True),
                   doc="the score of the bot's player"),
        "doors": F(MapOf(Bool(), max_items=100),
                   doc="doors held open (true) or left to R47 again (false), by id or #index"),
    }, meta=False), doc="the referee's hand: set what the physical table shows, with a reason"),
}, common={"bot": F(BOT_ID, required=True, doc="the acting bot's id")},
    extras={"move": {"hold_fire": F(Seq(BOT_ID, max_items=100),
                                    doc="watchers that hold their fire during this move")}},
    doc="an action: {bot: id, move | shoot | overwatch | self_destruct | service | place | "
        "pass | correct: ...}")
ACTION_KEYS: tuple[str, ...] = tuple(ACTION.variants)
STEP_KEYS: tuple[str, ...] = tuple(STEP.variants)

# --- scenarios ---------------------------------------------------------------------------

STATUS_FIELDS = {"rust": F(Int(minimum=0, maximum=MAX_MOD), default=0, doc="rust steps (D25)"),
                 "leaflet": F(Int(minimum=0, maximum=MAX_MOD), default=0,
                              doc="leaflet steps (D26)")}

BOT = Record("bot", {
    "id": F(BOT_ID, required=True, doc="unique in the scenario"),
    "player": F(Text(numbers_ok=True), required=True, doc="the player it belongs to"),
    "card": F(Choice((Text(), INLINE_CARD), what="a card id or an inline card"), required=True,
              doc="a card id or an inline card"),
    "at": F(POINT, required=True, doc="centre [x, y], cm"),
    "facing": F(FACING, default=0.0),
    "damage": F(Int(minimum=0, maximum=MAX_STRUCTURE), default=0, doc="damage points taken"),
    "status": F(Record("status", STATUS_FIELDS, meta=False), default={},
                doc="rust and leaflet steps"),
    "overwatch": F(Bool(), default=False, doc="on overwatch"),
    "moved": F(Num(minimum=0, maximum=MAX_TABLE), default=0.0,
               doc="cm already moved this turn"),
    "parts": F(Seq(Text(numbers_ok=True), max_items=100), default=[], doc="ids of extra parts"),
    "ammo": F(MapOf(Int(minimum=0, maximum=1000)), default={}, doc="weapon name: shots left"),
    "new": F(Bool(), default=False, doc="a new bot on its first move (R56)"),
}, doc="a bot on the table")

_EXPECT_NUMBER = Num(minimum=-10 * MAX_TABLE, maximum=10 * MAX_TABLE)
EXPECTED_BOT = Record("expected bot", {
    "player": F(Text(numbers_ok=True), doc="its player"),
    "card": F(Text(numbers_ok=True), doc="its card's id"),
    "x": F(_EXPECT_NUMBER, doc="centre x, cm (to 0.01)"),
    "y": F(_EXPECT_NUMBER, doc="centre y, cm (to 0.01)"),
    "z": F(_EXPECT_NUMBER, doc="floor height, cm (to 0.01)"),
    "facing": F(FACING, doc="degrees (to 0.01)"),
    "damage": F(Int(minimum=0, maximum=1000), doc="damage points"),
    "destroyed": F(Bool(), doc="true when destroyed"),
    "removed": F(Bool(), doc="true when taken off the table"),
    "overwatch": F(Bool(), doc="true when on overwatch"),
    "status": F(Record("expected status", {k: F(v.type, doc=v.doc)
                                           for k, v in STATUS_FIELDS.items()},
                       defaults=False, meta=False), doc="rust and leaflet steps"),
    "moved": F(Num(minimum=0, maximum=10 * MAX_TABLE), doc="cm moved this turn"),
    "parts": F(Seq(Text(numbers_ok=True), max_items=100), doc="ids of its parts"),
    "ammo": F(MapOf(Int(minimum=0, maximum=1000)), doc="weapon name: shots left"),
}, defaults=False, meta=False, doc="what a bot must be after the actions; every key optional")

EXPECTED_MINE = Record("expected mine", {
    "id": F(Text(numbers_ok=True), doc="the mine's id"),
    "owner": F(Text(numbers_ok=True), doc="the bot that dropped it"),
    "weapon": F(Text(), doc="the weapon that dropped it"),
    "x": F(_EXPECT_NUMBER, doc="x, cm"),
    "y": F(_EXPECT_NUMBER, doc="y, cm"),
    "r": F(_EXPECT_NUMBER, doc="radius, cm"),
    "active": F(Bool(), doc="true once armed"),
    "magnetic": F(Bool(), doc="a magnetic mine"),
}, defaults=False, meta=False, doc="some keys of a mine on the table")

EXPECTED_GOAL = Record("expected goal", {
    "x": F(_EXPECT_NUMBER, doc="x, cm"),
    "y": F(_EXPECT_NUMBER, doc="y, cm"),
    "points": F(Int(minimum=0, maximum=MAX_POINTS), doc="its points"),
}, defaults=False, meta=False, doc="some keys of a goal marker on the table")

COUNT = Int(minimum=0, maximum=100_000)
ACTION_INDEX = Int(minimum=0, maximum=100_000)
EXPECTED_REFUSAL = Record("expected refusal", {
    "action": F(ACTION_INDEX, required=True, doc="the index of an action that must be refused"),
    "rule": F(Text(max_length=20, numbers_ok=True), required=True,
              doc="the rule its refusal must cite (R7, D19, ...)"),
}, defaults=False, meta=False, doc="an action that must be refused, and the rule it breaks")
EXPECT = Record("expect", {
    "bots": F(MapOf(EXPECTED_BOT), doc="bot id: {key: expected value}"),
    "scores": F(MapOf(Int(minimum=0, maximum=1_000_000)), doc="player: points"),
    "rejected": F(Seq(Choice((ACTION_INDEX, EXPECTED_REFUSAL),
                             what="an action index or {action, rule}"), max_items=10_000),
                  doc="actions that must be refused: an index, or {action: index, rule: R7} "
                      "to name the rule the refusal cites"),
    "kills": F(MapOf(Int(minimum=0, maximum=10_000)), doc="player: kills"),
    "round": F(Int(minimum=1, maximum=100_000), doc="the round after the actions"),
    "dice_used": F(COUNT, doc="d6 results used"),
    "mines": F(Choice((COUNT, Seq(EXPECTED_MINE, max_items=10_000)),
                      what="a count or a list of mines"),
               doc="how many mines are on the table, or some keys of each"),
    "goals": F(Choice((COUNT, Seq(EXPECTED_GOAL, max_items=10_000)),
                      what="a count or a list of goals"),
               doc="how many goal markers are on the table, or some keys of each"),
    "events": F(Seq(Choice((Text(), MapOf(AnyValue(doc="an event's value"))),
                           what="an event type or a mapping of some of an event's keys"),
                    max_items=10_000),
                doc="events that must happen, in order (a type, or some keys of an event)"),
    "over": F(Bool(), doc="true when the game is over"),
}, defaults=False, doc="expectations; every key optional")


def _dice_or_seed(data: Raw, path: str, ctx: Context) -> None:
    if "dice" in data and "seed" in data:
        ctx.error("seed", N_("give either 'dice' (forced rolls) or 'seed', not both"), key=True)
    ids = [b["id"] for b in data.get("bots") or []]
    for i, bot_id in enumerate(ids):
        if bot_id in ids[:i]:
            ctx.error(f"bots[{i}].id", N_("two bots have the id '{bot_id}'").format(bot_id=bot_id))
    players = {b["player"] for b in data.get("bots") or []}
    expect = data.get("expect") or {}
    for bot_id in expect.get("bots") or {}:
        if bot_id not in ids:
            ctx.error(f"expect.bots.{bot_id}",
                    N_("no bot has the id '{bot_id}'").format(bot_id=bot_id)
                      + _hint(bot_id, ids), key=True)
    for key in ("scores", "kills"):
        for player in expect.get(key) or {}:
            if player not in players:
                ctx.error(f"expect.{key}.{player}",
                        N_("no bot belongs to a player '{player}'").format(player=player)
                          + _hint(player, sorted(players)), key=True)


def _hint(word: str, choices: list[str]) -> str:
    return did_you_mean(word, choices)


SCENARIO = Record("scenario", {
    "name": F(Text(), doc="what the scenario shows"),
    "arena": F(Choice((Text(max_length=1000), ARENA),
                      what="an inline arena or a path to an arena file"),
               required=True, doc="an inline arena, or a path to an arena file (relative to "
                                  "this file)"),
    "rules": F(RULE_OVERRIDES, default={}, doc="house-rule overrides"),
    "dice": F(Seq(Int(minimum=1, maximum=6), max_items=100_000),
              doc="forced d6 results, used in order"),
    "seed": F(Int(minimum=0, maximum=10**15 - 1),
              doc="a seeded dice stream instead of forced dice"),
    "round": F(Int(minimum=1, maximum=1000), default=2, doc="the round it starts in"),
    "bots": F(Seq(BOT, max_items=1000), default=[], doc="the bots on the table"),
    "actions": F(Seq(ACTION, max_items=100_000), default=[], doc="the actions, in order"),
    "expect": F(EXPECT, default={}, doc="what must hold after the actions"),
}, rules=(_dice_or_seed,), doc="A Bottisota scenario: a position, actions, expectations")

FORMATS: dict[str, SpecType] = {
    "arena": ARENA,
    "card": CARD_FILE,
    "mod": MOD_FILE,
    "rules": RULE_OVERRIDES,
    "scenario": SCENARIO,
    "robot": ROBOT_TABLE,
}
"""Every file format by name (the JSON Schemas are written from these). The rules
schema is that of a partial file; `check` also demands every key of a file
named rules.yaml (RULES)."""
