"""Robot personalities: die-roll decision tables read from `cards/robots/*.yaml`.

A personality has three sections, each a list of rules read top to bottom:
the first rule whose `when` conditions all hold is rolled on (d6 or 2d6) and
the row the die picks is the robot's intention. The format is documented in
the comment block at the top of every bundled file; `validate_file` checks a
file against it and raises `InputError` naming file, line and key.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bottisota.core.errors import InputError, Problem
from bottisota.core.cards import LOCOMOTIONS, WEAPON_KINDS
from bottisota.formats.content import user_dirs
from bottisota.formats.marked_yaml import Marked, read_marked
from bottisota.formats.spec_types import did_you_mean

# --- the vocabulary -----------------------------------------------------------------

MOVES: tuple[str, ...] = (
    "close_in", "keep_range", "flank", "retreat", "grab_goal", "hold", "ram", "evade",
)
THENS: tuple[str, ...] = ("fire", "overwatch", "service", "self_destruct", "pass")
WEAPON_CHOICES: tuple[str, ...] = ("all", "nose", "turret", "longest", "strongest")
TARGETS: tuple[str, ...] = ("nearest", "weakest", "most_damaged", "leader", "furthest")
SERVICES: tuple[str, ...] = ("best", "reload", "repair", "rust", "leaflet", "part")
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
            words[0] += f" {self.range:g} cm"
        if self.mine:
            words.append("drop a mine")
        if self.then == "fire":
            words.append(f"fire {self.weapons}" + ("" if self.target == "nearest"
                                                    else f" at {self.target.replace('_', ' ')}"))
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
    extras: dict = field(default_factory=dict)


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
            parts.append(f"{key.split('_')[0]} within {value:g} cm")
        else:
            parts.append(f"{key} {'/'.join(value)}")
    return ", ".join(parts)


class _Reader:
    def __init__(self, marked: Marked) -> None:
        self.m = marked
        self.problems: list[Problem] = []

    def bad(self, path: str, message: str) -> None:
        self.problems.append(self.m.problem(path, message))

    # conditions
    def when(self, value: Any, path: str) -> dict[str, Any]:
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.bad(path, "expected a mapping of conditions, e.g. {range: [0, 10], in_arc: true}")
            return {}
        out: dict[str, Any] = {}
        for key, v in value.items():
            p = f"{path}.{key}"
            kind = CONDITIONS.get(key)
            if kind is None:
                self.bad(p, f"unknown condition {key!r}; known: {', '.join(CONDITIONS)}")
            elif kind == "bool":
                if isinstance(v, bool):
                    out[key] = v
                else:
                    self.bad(p, "expected true or false")
            elif kind == "span":
                if (isinstance(v, list) and len(v) == 2 and _is_num(v[0])
                        and (v[1] is None or _is_num(v[1])) and (v[1] is None or v[1] > v[0])
                        and v[0] >= 0):
                    out[key] = (float(v[0]), None if v[1] is None else float(v[1]))
                else:
                    self.bad(p, "expected [min, max] with 0 <= min < max (max may be null)")
            elif kind == "cm":
                if _is_num(v) and v > 0:
                    out[key] = float(v)
                else:
                    self.bad(p, "expected a distance in cm, more than 0")
            else:
                names = LOCOMOTIONS if kind == "locomotions" else WEAPON_KINDS
                items = [v] if isinstance(v, str) else v
                if isinstance(items, list) and items and all(i in names for i in items):
                    out[key] = tuple(items)
                else:
                    self.bad(p, f"expected one or a list of: {', '.join(names)}")
        return out

    # tables
    def table(self, value: Any, path: str, dice: str, row) -> dict[int, Any]:
        lo, hi = DICE[dice]
        if not isinstance(value, dict) or not value:
            self.bad(path, f"expected a table from {dice} results to choices, "
                           "e.g. {1-3: ..., 4-6: ...}")
            return {}
        out: dict[int, Any] = {}
        for key, v in value.items():
            p = f"{path}.{key}"
            span = _results(key)
            if span is None:
                self.bad(p, f"expected a {dice} result or span like 1-3, not {key!r}")
                continue
            a, b = span
            if a < lo or b > hi or a > b:
                self.bad(p, f"{key} is outside the {dice} results {lo}-{hi}")
                continue
            choice = row(v, p)
            for n in range(a, b + 1):
                if n in out:
                    self.bad(p, f"result {n} is given twice")
                out[n] = choice
        missing = [n for n in range(lo, hi + 1) if n not in out]
        if missing and not any(pr.path.startswith(path) for pr in self.problems):
            self.bad(path, f"results {', '.join(map(str, missing))} have no row; every {dice} "
                           "result needs one")
        return out

    def word(self, words: tuple[str, ...], what: str):
        def row(value: Any, path: str) -> str:
            if value not in words:
                self.bad(path, f"unknown {what} {value!r}; known: {', '.join(words)}")
            return value
        return row

    def intention(self, value: Any, path: str) -> Intention:
        if isinstance(value, str):
            value = {"move": value}
        if not isinstance(value, dict):
            self.bad(path, "expected an intention, e.g. {move: close_in, then: fire}")
            return Intention()
        for key in value:
            if key not in TURN_KEYS:
                self.bad(f"{path}.{key}", f"unknown key {key!r}; known: {', '.join(TURN_KEYS)}")
        kw: dict[str, Any] = {}
        for key, words in (("move", MOVES), ("then", THENS), ("weapons", WEAPON_CHOICES),
                           ("target", TARGETS), ("service", SERVICES)):
            if key in value:
                if value[key] in words:
                    kw[key] = value[key]
                else:
                    self.bad(f"{path}.{key}",
                             f"unknown {key} {value[key]!r}; known: {', '.join(words)}")
        if "range" in value:
            if _is_num(value["range"]) and value["range"] > 0:
                kw["range"] = float(value["range"])
            else:
                self.bad(f"{path}.range", "expected a distance in cm, more than 0")
        if "mine" in value:
            if isinstance(value["mine"], bool):
                kw["mine"] = value["mine"]
            else:
                self.bad(f"{path}.mine", "expected true or false")
        if "say" in value:
            kw["say"] = str(value["say"])
        return Intention(**kw)

    def rules(self, value: Any, path: str, row, need_fallback: bool = True) -> tuple[Rule, ...]:
        if isinstance(value, dict):
            value = [value]
        if not isinstance(value, list) or not value:
            self.bad(path, "expected a list of rules, each {when: ..., dice: d6, table: {...}}")
            return ()
        out = []
        for i, item in enumerate(value):
            p = f"{path}[{i}]"
            if not isinstance(item, dict):
                self.bad(p, "expected a rule {when: ..., dice: d6, table: {...}}")
                continue
            for key in item:
                if key not in ("when", "dice", "table", "label"):
                    self.bad(f"{p}.{key}", f"unknown key {key!r}; known: when, dice, table, label")
            dice = item.get("dice", "d6")
            if dice not in DICE:
                self.bad(f"{p}.dice", f"expected one of {', '.join(DICE)}, not {dice!r}")
                dice = "d6"
            when = self.when(item.get("when"), f"{p}.when")
            table = self.table(item.get("table"), f"{p}.table", dice, row)
            label = str(item.get("label") or describe(when))
            out.append(Rule(when, dice, table, label, self.m.where(p).line))
        if need_fallback and out and out[-1].when:
            self.bad(f"{path}[{len(value) - 1}]",
                     "the last rule needs no `when`: it is the fallback for every other situation")
        return tuple(out)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _results(key: Any) -> tuple[int, int] | None:
    if isinstance(key, int) and not isinstance(key, bool):
        return key, key
    if isinstance(key, str):
        if key.strip().isdigit():
            return int(key), int(key)
        m = _RANGE_KEY.match(key)
        if m:
            return int(m.group(1)), int(m.group(2))
    return None


def parse(marked: Marked) -> Personality:
    """A Personality from a read file; raises InputError listing every problem."""
    r = _Reader(marked)
    data = marked.value
    if not isinstance(data, dict):
        raise InputError([marked.problem("", "expected a robot personality: a mapping with "
                                             "name, place, turn and overwatch")])
    for key in data:
        if key not in ("name", "about", "place", "turn", "overwatch"):
            r.bad(str(key), f"unknown key {key!r}; known: name, about, place, turn, overwatch")
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        r.bad("name", "expected the personality's name (text)")
        name = Path(marked.file).stem
    for key in ("place", "turn", "overwatch"):
        if key not in data:
            r.bad("", f"missing key {key!r}")
    place = r.rules(data.get("place", []), "place", r.word(PLACES, "placement")) \
        if "place" in data else ()
    turn = r.rules(data.get("turn", []), "turn", r.intention) if "turn" in data else ()
    watch = r.rules(data.get("overwatch", []), "overwatch", r.word(WATCH, "answer")) \
        if "overwatch" in data else ()
    if r.problems:
        raise InputError(r.problems)
    return Personality(name=name, about=str(data.get("about") or ""), place=place, turn=turn,
                       overwatch=watch, source=marked.file)


def load_personality(path: str | Path) -> Personality:
    """Read and check one personality file (raises InputError)."""
    return parse(read_marked(path))


def validate_file(path: str | Path) -> None:
    """Check a robot personality file; raises InputError with file/line/key problems."""
    load_personality(path)


def robots_dir() -> Path:
    from bottisota.formats.content import cards_dir

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
        raise InputError([Problem(name_or_path, 0, 0, "", "no such robot personality"
                                  + did_you_mean(name_or_path, known) + "; bundled: "
                                  + ", ".join(sorted(bundled))
                                  + (f"; yours: {', '.join(mine)}" if mine else ""))])
    return bundled[name_or_path]
