"""Robot personalities: die-roll decision tables read from `cards/robots/*.yaml`.

A personality has three sections, each a list of rules read top to bottom:
the first rule whose `when` conditions all hold is rolled on (d6 or 2d6) and
the row the die picks is the robot's intention. The format is documented in
the comment block at the top of every bundled file and declared once below
(ROBOT_TABLE, with the spec vocabulary: the same checks, messages and JSON
Schema as every other format); files are read by the one limited YAML reader.
`validate_file` checks a file and raises `InputError` naming file, line and key.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any  # Any: a personality table as read from YAML

from bottisota.core.actions import SERVICE_CHOICES
from bottisota.core.cards import LOCOMOTIONS, WEAPON_KINDS
from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import N_
from bottisota.formats.content import cards_dir, user_dirs
from bottisota.formats.parsed_cache import cached
from bottisota.formats.spec_types import (
    INVALID,
    Bool,
    Choice,
    Context,
    Enum,
    F,
    JsonSchema,
    MapOf,
    Null,
    Num,
    Record,
    Seq,
    SpecType,
    Text,
    did_you_mean,
    shown,
)
from bottisota.formats.yaml_source import Marks, Raw, join, load_yaml

# --- the vocabulary -----------------------------------------------------------------

MOVES: tuple[str, ...] = (
    "close_in", "keep_range", "flank", "retreat", "grab_goal", "hold", "ram", "evade",
)
THENS: tuple[str, ...] = ("fire", "overwatch", "service", "self_destruct", "pass")
WEAPON_CHOICES: tuple[str, ...] = ("all", "nose", "turret", "longest", "strongest")
TARGETS: tuple[str, ...] = ("nearest", "weakest", "most_damaged", "leader", "furthest")
SERVICES: tuple[str, ...] = ("best", *SERVICE_CHOICES)
PLACES: tuple[str, ...] = (
    "near_enemy", "far_from_enemies", "near_goal", "near_service", "centre", "cover",
)
WATCH: tuple[str, ...] = ("fire", "hold")
DICE: dict[str, tuple[int, int]] = {"d6": (1, 6), "2d6": (2, 12)}

# condition key -> kind of value: "bool", "span" ([min, max], max may be null), "cm",
# "locomotions", "kinds"
CONDITIONS: dict[str, str] = {
    "first_round": "bool",      # R7 nobody may shoot in the first round
    "new_bot": "bool",          # R56 on its first move
    "range": "span",            # nearest enemy (or the mover, for overwatch), cm
    "in_arc": "bool",           # that enemy is in the front arc (R19)
    "in_sight": "bool",         # some enemy is in sight (R22)
    "in_reach": "bool",         # some weapon can fire at some enemy now
    "damage_left": "span",      # structure minus damage, points
    "damaged": "bool",
    "ammo_out": "bool",         # some weapon with ammo has none left (R49)
    "watched": "bool",          # an enemy on overwatch covers this bot (R23)
    "goal_within": "cm",        # a goal marker within this many cm
    "service_within": "cm",     # a service point within this many cm
    "on_service": "bool",       # the bot stands on a service point (R49)
    "enemies": "span",          # enemy bots on the table
    "locomotion": "locomotions",
    "has": "kinds",             # carries a weapon of one of these kinds
}
TURN_KEYS = ("move", "range", "then", "weapons", "target", "mine", "service", "say")


# --- values --------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Intention:
    """One row of a turn table: how to move, then what to do in the shooting phase."""

    move: str = "hold"
    range: float | None = None          # keep_range: preferred distance, cm
    then: str = "fire"
    weapons: str = "all"
    target: str = "nearest"
    mine: bool = False
    service: str = "best"
    say: str | None = None

    def __str__(self) -> str:
        if self.say:
            return self.say
        words = [self.move.replace("_", " ")]
        if self.move == "keep_range" and self.range is not None:
            words[0] += N_(" {range:g} cm").format(range=self.range)
        if self.mine:
            words.append(N_("drop a mine"))
        if self.then == "fire":
            words.append(
                    N_("fire {weapons}").format(
                        weapons=self.weapons) + ("" if self.target == "nearest"
                                                    else N_(" at {v}").format(
                                                             v=self.target.replace('_', ' '))))
        elif self.then != "pass":
            words.append(self.then.replace("_", " "))
        return ", ".join(words)


@dataclass(frozen=True, slots=True)
class Rule:
    """Conditions, a die and a table from die result to a choice."""

    when: dict[str, Any]
    dice: str
    table: dict[int, Any]               # every result of `dice` -> Intention | str
    label: str
    line: int = 0

    def choice(self, roll: int) -> Any:
        return self.table[roll]


@dataclass(frozen=True, slots=True)
class Personality:
    """A robot personality: placement, turn and overwatch tables."""

    name: str
    about: str
    place: tuple[Rule, ...]
    turn: tuple[Rule, ...]
    overwatch: tuple[Rule, ...]
    source: str = "<inline>"
    extras: Raw = field(default_factory=dict)


# --- parsing with problems -------------------------------------------------------------

_RANGE_KEY = re.compile(r"^\s*(\d+)\s*(?:-|–|\.\.)\s*(\d+)\s*$")


def describe(when: dict[str, Any]) -> str:
    """A rule's conditions in words: "enemy 10-30 cm, in arc"."""
    if not when:
        return "otherwise"
    parts = []
    for key, value in when.items():
        if CONDITIONS[key] == "bool":
            parts.append(key.replace("_", " ") if value else "not " + key.replace("_", " "))
        elif CONDITIONS[key] == "span":
            lo, hi = value
            unit = " cm" if key == "range" else ""
            noun = {"range": "enemy", "damage_left": "structure left",
                    "enemies": "enemies"}[key]
            span = f"{lo:g}+" if hi is None else f"{lo:g}-{hi:g}"
            parts.append(f"{noun} {span}{unit}")
        elif CONDITIONS[key] == "cm":
            parts.append(N_("{v} within {value:g} cm").format(v=key.split('_')[0], value=value))
        else:
            parts.append(f"{key} {'/'.join(value)}")
    return ", ".join(parts)


# --- the format, declared with the one spec vocabulary --------------------------------

class DiceResults(SpecType):
    """A table key: one die result (`4`) or a span (`1-3`); read as (low, high, text)."""

    doc = "a die result or a span of them, e.g. 4 or 1-3"

    def expected(self) -> str:
        return N_("a die result or a span like 1-3")

    def accepts(self, value: Any) -> bool:
        return isinstance(value, str)

    def check(self, value: Any, path: str, ctx: Context) -> Any:
        span = _results(value)
        if span is None:
            ctx.error(path,
                    N_("expected a die result or span like 1-3, not {value}").format(
                        value=shown(value)),
                      key=True)
            return INVALID
        return (span[0], span[1], str(value))

    def schema(self) -> JsonSchema:
        # a key may be a plain number (`6: near_goal`), which YAML reads as an integer:
        # editors check the key as written, so both forms are accepted
        return {"anyOf": [
            {"type": "string", "pattern": r"^\s*[0-9]+\s*((-|–|\.\.)\s*[0-9]+\s*)?$"},
            {"type": "integer", "minimum": 1, "maximum": 12}], "description": self.doc}


def _span(data: Raw, path: str, ctx: Context) -> None:
    for key, kind in CONDITIONS.items():
        if kind == "span" and key in data:
            lo, hi = data[key]
            if lo is None or hi is not None and hi <= lo:
                ctx.error(join(path, key),
                        N_("expected [min, max] with 0 <= min < max (max may be null)"))


def _names(words: tuple[str, ...], noun: str) -> Choice:
    return Choice((Enum(words, noun=noun), Seq(Enum(words, noun=noun), min_items=1,
                                               max_items=len(words))),
                  what=N_("one or a list of: ") + ", ".join(words))


_SPAN = Seq(Choice((Num(minimum=0, maximum=100_000), Null()), what="a number or null"),
            length=2, what="[min, max] with 0 <= min < max (max may be null)")
_CM = Num(positive=True, maximum=100_000, doc="cm")
_CONDITION_TYPES: dict[str, SpecType] = {
    "bool": Bool(), "span": _SPAN, "cm": _CM,
    "locomotions": _names(LOCOMOTIONS, "locomotion"), "kinds": _names(WEAPON_KINDS, "kind"),
}
_CONDITION_DOCS = {
    "first_round": "R7 nobody may shoot in the first round",
    "new_bot": "R56 on its first move",
    "range": "[min, max] cm to the nearest enemy (or the mover, for overwatch)",
    "in_arc": "that enemy is in the front arc (R19)",
    "in_sight": "some enemy is in sight (R22)",
    "in_reach": "some weapon can fire at some enemy now",
    "damage_left": "[min, max] structure minus damage, points",
    "damaged": "it has taken damage",
    "ammo_out": "some weapon with ammo has none left (R49)",
    "watched": "an enemy on overwatch covers this bot (R23)",
    "goal_within": "a goal marker within this many cm",
    "service_within": "a service point within this many cm",
    "on_service": "the bot stands on a service point (R49)",
    "enemies": "[min, max] enemy bots on the table",
    "locomotion": "its locomotion is one of these",
    "has": "it carries a weapon of one of these kinds",
}
CONDITIONS_SPEC = Record("conditions", {
    key: F(_CONDITION_TYPES[kind], doc=_CONDITION_DOCS[key]) for key, kind in CONDITIONS.items()
}, rules=(_span,), defaults=False, meta=False, doc="all must hold for the rule to be rolled on")

INTENTION = Record("intention", {
    "move": F(Enum(MOVES, noun="move"), doc="how to move: " + ", ".join(MOVES)),
    "range": F(Num(positive=True, maximum=100_000), doc="keep_range: preferred distance, cm"),
    "then": F(Enum(THENS, noun="then"), doc="the shooting phase: " + ", ".join(THENS)),
    "weapons": F(Enum(WEAPON_CHOICES, noun="weapons"), doc="which weapons fire"),
    "target": F(Enum(TARGETS, noun="target"), doc="whom to fire at"),
    "mine": F(Bool(), doc="drop a mine on the way"),
    "service": F(Enum(SERVICES, noun="service"), doc="what to take at a service point"),
    "say": F(Text(max_length=500), doc="what the robot says instead of its intention"),
}, defaults=False, meta=False, doc="how to move, then what to do in the shooting phase")


def _rule(row: SpecType, what: str) -> Record:
    return Record("rule", {
        "when": F(Choice((CONDITIONS_SPEC, Null()), what=N_("a mapping of conditions or null")),
                  doc=N_("conditions, all must hold; none: the fallback")),
        "dice": F(Enum(tuple(DICE), noun="dice"), default="d6", doc=N_("d6 or 2d6")),
        "table": F(MapOf(row, keys=DiceResults(), max_items=11), required=True,
                   doc=N_("die results to {what}, e.g. {{1-3: ..., 4-6: ...}}").format(what=what)),
        "label": F(Text(max_length=500), doc=N_("how the rule is named in messages")),
    }, rules=(_table_covers,), meta=False, doc=
            N_("a rule: when, dice and a table of {what}").format(what=what))


def _table_covers(data: Raw, path: str, ctx: Context) -> None:
    """Every result of the die has one row, and no row is outside the die."""
    lo, hi = DICE[data["dice"]]
    table = join(path, "table")
    seen: set[int] = set()
    bad = False
    for a, b, text in data["table"]:
        if a < lo or b > hi or a > b:
            ctx.error(join(table, text),
                    N_("{text} is outside the {dice} results {lo}-{hi}").format(
                        text=text, dice=data['dice'], lo=lo, hi=hi))
            bad = True
            continue
        for n in range(a, b + 1):
            if n in seen:
                ctx.error(join(table, text), N_("result {n} is given twice").format(n=n))
                bad = True
            seen.add(n)
    missing = [n for n in range(lo, hi + 1) if n not in seen]
    if missing and not bad:
        ctx.error(table,
                N_("results {str} have no row; every {dice} result needs one").format(
                    str=', '.join(map(str, missing)), dice=data['dice']))


def _rules(row: SpecType, what: str) -> Choice:
    rule = _rule(row, what)
    return Choice((Seq(rule, min_items=1, max_items=100), rule),
                  what=N_("a list of rules, each {when: ..., dice: d6, table: {...}}"))


SECTIONS: dict[str, Choice] = {
    "place": _rules(Enum(PLACES, noun="placement"), "placements"),
    "turn": _rules(Choice((Enum(MOVES, noun="move"), INTENTION),
                          what="a move or an intention {move: ..., then: ...}"), "intentions"),
    "overwatch": _rules(Enum(WATCH, noun="answer"), "answers (fire or hold)"),
}


def _fallbacks(data: Raw, path: str, ctx: Context) -> None:
    for key in SECTIONS:
        rules = data[key] if isinstance(data[key], list) else [data[key]]
        if rules and rules[-1].get("when"):
            where = f"{key}[{len(rules) - 1}]" if isinstance(data[key], list) else key
            ctx.error(where,
                    N_("the last rule needs no `when`: it is the fallback for every other "
                       "situation"))


ROBOT_TABLE = Record("robot personality", {
    "name": F(Text(), required=True, doc="the personality's name"),
    "about": F(Text(max_length=10_000, lines_ok=True), doc="what it does, in a sentence or two"),
    "place": F(SECTIONS["place"], required=True, doc="where to place a drawn bot"),
    "turn": F(SECTIONS["turn"], required=True, doc="what to do on its turn"),
    "overwatch": F(SECTIONS["overwatch"], required=True,
                   doc="whether a watcher fires at a mover"),
}, rules=(_fallbacks,), doc="A robot personality: placement, turn and overwatch tables")


# --- reading -----------------------------------------------------------------------------

def _results(key: Any) -> tuple[int, int] | None:
    """`4` -> (4, 4); `1-3` -> (1, 3); anything else None."""
    if not isinstance(key, str) or len(key) > 20:
        return None
    if key.strip().isdigit():
        return int(key), int(key)
    m = _RANGE_KEY.match(key)
    return (int(m.group(1)), int(m.group(2))) if m else None

def _rows(clean: Any, path: str, marks: Marks,
          row: Callable[[Any], Any]) -> tuple[Rule, ...]:
    rules = clean if isinstance(clean, list) else [clean]
    out = []
    for i, rule in enumerate(rules):
        where = join(path, i) if isinstance(clean, list) else path
        when = dict(rule.get("when") or {})
        for key, kind in CONDITIONS.items():
            if key in when and kind == "span":
                lo, hi = when[key]
                when[key] = (float(lo), None if hi is None else float(hi))
            elif key in when and kind in ("locomotions", "kinds"):
                v = when[key]
                when[key] = (v,) if isinstance(v, str) else tuple(v)
        table: dict[int, Any] = {}
        for (a, b, _text), value in rule["table"].items():
            choice = row(value)
            for n in range(a, b + 1):
                table[n] = choice
        label = rule.get("label") or describe(when)
        out.append(Rule(when, rule["dice"], table, label, marks.at(where)[0]))
    return tuple(out)


def _intention(value: Any) -> Intention:
    if isinstance(value, str):
        return Intention(move=value)
    return Intention(**value)


def personality_from_data(data: Any, source: str, marks: Marks) -> Personality:
    """A Personality from a read file's data; raises InputError listing every problem."""
    if not isinstance(data, dict):
        raise InputError([Problem(source, 1, 1, "",
                N_("not a robot personality file: expected a mapping with name, place, turn "
                   "and overwatch"))])
    ctx = Context(marks)
    clean = ROBOT_TABLE.check(data, "", ctx)
    if ctx.problems or clean is INVALID:
        raise InputError(ctx.problems or [marks.problem("", "invalid")])
    return Personality(
        name=clean["name"], about=clean.get("about") or "",
        place=_rows(clean["place"], "place", marks, str),
        turn=_rows(clean["turn"], "turn", marks, _intention),
        overwatch=_rows(clean["overwatch"], "overwatch", marks, str),
        source=source)


def load_personality(path: str | Path) -> Personality:
    """Read and check one personality file (raises InputError); kept read and checked in
    the user's cache folder for the next start (`formats.parsed_cache`)."""
    return cached("robot", [path], "", lambda: _read_personality(path))


def _read_personality(path: str | Path) -> Personality:
    data, marks = load_yaml(path, N_("robot personality"))
    return personality_from_data(data, str(path), marks)


def validate_file(path: str | Path) -> None:
    """Check a robot personality file; raises InputError with file/line/key problems."""
    load_personality(path)


def robots_dir() -> Path:
    return cards_dir() / "robots"


def bundled_personalities() -> dict[str, Personality]:
    """Every personality in the project's `cards/robots/`, by name."""
    out: dict[str, Personality] = {}
    for path in sorted(robots_dir().glob("*.yaml")):
        p = load_personality(path)
        out[p.name] = p
    return out


def find_personality(name_or_path: str) -> Personality:
    """A bundled personality by name, or a file by path (raises InputError)."""
    path = Path(name_or_path)
    if path.suffix in (".yaml", ".yml") or path.is_file():
        return load_personality(path)
    for folder in user_dirs("robot"):            # the designer's own robots come first
        if (folder / f"{name_or_path}.yaml").is_file():
            return load_personality(folder / f"{name_or_path}.yaml")
    bundled = bundled_personalities()
    if name_or_path not in bundled:
        mine = sorted(p.stem for d in user_dirs("robot") for p in d.glob("*.yaml"))
        known = sorted(bundled) + mine
        raise InputError([Problem(name_or_path, 0, 0, "", N_("no such robot personality")
                                  + did_you_mean(name_or_path, known) + N_("; bundled: ")
                                  + ", ".join(sorted(bundled))
                                  + (N_("; yours: {mine}").format(
                                         mine=', '.join(mine)) if mine else ""))])
    return bundled[name_or_path]
