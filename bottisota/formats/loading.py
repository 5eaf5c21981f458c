"""YAML files and plain mappings -> validated values (Arena, BotCard, Mod, HouseRules).

Every function checks its input completely against spec.py first and
raises `InputError` with every problem found (file, line, column, key path,
what was expected); nothing half-built escapes.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol, TypeVar  # Any: a file's data as read, before validation

from bottisota.core.arena import Arena, Feature
from bottisota.core.cards import BotCard, Mod, Weapon
from bottisota.core.errors import InputError, Problem
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.core.shapes import shape_from_dict
from bottisota.formats import spec
from bottisota.formats.arena_checks import arena_problems, cut_doors
from bottisota.formats.content import cards_dir, rules_file, user_files
from bottisota.formats.parsed_cache import cached
from bottisota.formats.spec_types import INVALID, Context, SpecType
from bottisota.formats.yaml_source import Marks, Raw, join, load_yaml

WALL_DEFAULT_HEIGHT = spec.WALL_DEFAULT_HEIGHT


def validate(data: Any, kind: SpecType, marks: Marks, path: str = "") -> Any:
    """Check data against a format description; the normalised data, or InputError."""
    ctx = Context(marks)
    out = kind.check(data, path, ctx)
    if ctx.problems or out is INVALID:
        raise InputError(ctx.problems or [marks.problem(path, "invalid")])
    return out


def _marks(marks: Marks | None, source: str) -> Marks:
    return marks if marks is not None else Marks(source)


def file_kind_problem(data: Any, source: str, what: str, keys: tuple[str, ...],
                      lists: bool = False) -> Problem | None:
    """A problem when the data cannot be a file of this kind at all (not a mapping, or
    none of its keys): "not an arena file", quoting nothing of the file."""
    sample = data[0] if lists and isinstance(data, list) and data else data
    article = "an" if what[:1] in "aeiou" else "a"
    if not isinstance(sample, dict):
        shape = N_("a mapping") + (N_(" or a list of them") if lists else "")
        return Problem(source, 1, 1, "",
                N_("not {article} {what} file: expected {shape} with ").format(
                    article=article, what=what, shape=shape)
                       + ", ".join(keys))
    if not any(k in sample for k in keys):
        return Problem(source, 1, 1, "",
                N_("not {article} {what} file: it has none of the keys ").format(
                    article=article, what=what)
                       + ", ".join(keys))
    return None


def _refuse_other_files(data: Any, source: str, what: str, keys: tuple[str, ...],
                        lists: bool = False) -> None:
    problem = file_kind_problem(data, source, what, keys, lists)
    if problem is not None:
        raise InputError([problem])


# --- arenas ------------------------------------------------------------------------------

def arena_from_dict(data: Any, source: str = "<inline>", marks: Marks | None = None,
                    rules: HouseRules | None = None) -> Arena:
    """Validate an arena mapping (formats.md) and build the Arena, geometry checked.

    When some keys are wrong, the geometry of the features that are right is
    still checked, so one run lists every problem of the file. `rules` (step
    height, base diameter) are the bundled house rules when not given."""
    marks = _marks(marks, source)
    rules = rules if rules is not None else bundled_rules()
    _refuse_other_files(data, source, "arena", ("size", "features"))
    ctx = Context(marks)
    clean = spec.ARENA.check(data, "", ctx)
    if clean is INVALID:
        raise InputError(_by_line(ctx.problems + _valid_part_problems(data, marks, rules)))
    features = tuple(_feature(i, f, marks) for i, f in enumerate(clean["features"]))
    name = clean.get("name") or (Path(source).stem if source != "<inline>" else "arena")
    arena = Arena(name=name, size=(clean["size"][0], clean["size"][1]),
                  features=features, source=source)
    problems = arena_problems(arena, clean["features"], marks, rules or bundled_rules())
    if problems:
        raise InputError(problems)
    return replace(arena, features=cut_doors(arena.features))


def _valid_part_problems(data: Any, marks: Marks, rules: HouseRules) -> list[Problem]:
    """Geometry problems among the features whose keys are valid (the file has others)."""
    return valid_part(data, marks, rules)[1]


def valid_part(data: Any, marks: Marks, rules: HouseRules | None = None
               ) -> tuple[Arena | None, list[Problem]]:
    """An arena file with errors, as far as it is right: the arena of the features whose
    keys are valid (None when the size or feature list itself is wrong) and the geometry
    problems among them. `check` shows the warnings of that arena beside the errors; a
    feature left out keeps its place (features[i]) in every message."""
    if not isinstance(data, dict) or not isinstance(data.get("features"), list):
        return None, []
    scratch = Context(marks)
    size = spec.ARENA.fields["size"].type.check(data.get("size"), "size", scratch)
    if size is INVALID or len(data["features"]) > spec.MAX_FEATURES:
        return None, []
    good = []
    for i, raw in enumerate(data["features"]):
        clean = spec.FEATURE.check(raw, join("features", i), scratch)
        if clean is not INVALID:
            good.append((_feature(i, clean, marks), clean))
    arena = Arena(name=str(data.get("name") or ""), size=(size[0], size[1]),
                  features=tuple(f for f, _ in good))
    problems = arena_problems(arena, [c for _, c in good], marks, rules or bundled_rules(),
                              joins=len(good) == len(data["features"]))
    return replace(arena, features=cut_doors(arena.features)), problems


def _by_line(problems: list[Problem]) -> list[Problem]:
    """Problems in file order (stable for problems without a line)."""
    return sorted(problems, key=lambda p: (p.line, p.column)) if all(
        p.line for p in problems) else problems


def _feature(index: int, data: Raw, marks: Marks) -> Feature:
    respawn = tuple((p[0], p[1]) for p in data.get("respawn") or ())
    path = tuple((p[0], p[1]) for p in data.get("path") or ())
    return Feature(
        index=index, type=data["type"], shape=shape_from_dict(data), id=data.get("id"),
        height=data.get("height"), from_z=data.get("from"), to_z=data.get("to"),
        up=(data["up"] % 360.0) if data.get("up") is not None else None,
        speed=data.get("speed"), carries=data.get("carries", "up"), top=data.get("top"),
        points=data.get("points"), respawn=respawn, path=path, width=data.get("width"),
        line=marks.at(join("features", index))[0],
    )


def load_arena(path: str | Path, rules: HouseRules | None = None,
               cache: bool = False) -> Arena:
    """Read and validate an arena file. `cache`: a game's start, which keeps the arena
    read and checked in the user's cache folder for the next (`formats.parsed_cache`)."""
    if cache:
        rules = rules if rules is not None else bundled_rules()
        return cached("arena", [path], repr(rules), lambda: load_arena(path, rules))
    data, marks = load_yaml(path, "arena")
    return arena_from_dict(data, str(path), marks, rules)


# --- house rules -------------------------------------------------------------------------

def rules_from_dict(data: Any, source: str = "<inline>", marks: Marks | None = None) -> HouseRules:
    """A complete house rules mapping (every key) -> HouseRules."""
    _refuse_other_files(data, source, N_("house rules"), tuple(spec.RULE_FIELDS)[:4] + ("...",))
    clean = validate(data, spec.RULES, _marks(marks, source))
    return HouseRules(**clean)


def load_rules(path: str | Path, base: HouseRules | None = None) -> HouseRules:
    """Read a house rules file: complete (every key of cards/rules.yaml), or, with
    `base`, a partial file whose keys override the base's values."""
    data, marks = load_yaml(path, N_("house rules"))
    if base is not None:
        if data is not None and not isinstance(data, dict):
            raise InputError([Problem(str(path), 1, 1, "",
                    N_("not a house rules file: expected a mapping of rule names to values"))])
        return rules_with_overrides(base, data or {}, str(path), marks)
    return rules_from_dict(data, str(path), marks)


def rules_with_overrides(base: HouseRules, overrides: Any, source: str = "<inline>",
                         marks: Marks | None = None, path: str = "") -> HouseRules:
    """The base rules with some values changed; unknown keys and wrong types are errors."""
    if not overrides:
        return base
    clean = validate(overrides, spec.RULE_OVERRIDES, _marks(marks, source), path)
    return base.overridden(clean)


# --- cards and mods ------------------------------------------------------------------------

def _weapon(d: Raw) -> Weapon:
    return Weapon(name=d["name"], kind=d["kind"], mount=d["mount"], range=d["range"],
                  to_hit=d["to_hit"], hits=d["hits"], armour_mod=d["armour_mod"],
                  explosive=d["explosive"], strength=d["strength"], ammo=d.get("ammo"),
                  effect=d.get("effect"))


def _card(d: Raw, rules: HouseRules | None, default_id: str | None = None) -> BotCard:
    rules = rules or _bundled()
    card_id = d.get("id") or default_id or "card"
    return BotCard(
        id=card_id, name=d.get("name") or card_id, locomotion=d["locomotion"], move=d["move"],
        armour=d["armour"], structure=d["structure"], turn=d["turn"], min_move=d["min_move"],
        base=d.get("base") or rules.base_diameter, height=d.get("height") or rules.figure_height,
        copies=d["copies"], weapons=tuple(_weapon(w) for w in d["weapons"]),
    )


def _bundled() -> HouseRules:
    return bundled_rules()


def card_from_dict(data: Any, source: str = "<inline>", inline: bool = False,
                   default_id: str | None = None, rules: HouseRules | None = None,
                   marks: Marks | None = None, path: str = "") -> BotCard:
    """Validate one bot card mapping and build it. Inline cards need only locomotion,
    move, armour, structure and weapons; `id` defaults to `default_id`; base and
    height default to the house rules (D3)."""
    clean = validate(data, spec.INLINE_CARD if inline else spec.CARD, _marks(marks, source), path)
    return _card(clean, rules, default_id)


def cards_from_data(data: Any, source: str, marks: Marks | None = None,
                    rules: HouseRules | None = None) -> list[BotCard]:
    """A card file's content (one card or a list) -> cards."""
    _refuse_other_files(data, source,
            N_("bot card"), ("id", "locomotion", "move", "weapons"), True)
    clean = validate(data, spec.CARD_FILE, _marks(marks, source))
    return [_card(c, rules) for c in (clean if isinstance(clean, list) else [clean])]


def mods_from_data(data: Any, source: str, marks: Marks | None = None) -> list[Mod]:
    """A mod file's content (one mod or a list) -> mods."""
    _refuse_other_files(data, source, "mod", ("id", "modifies", "deck", "weapons"), True)
    clean = validate(data, spec.MOD_FILE, _marks(marks, source))
    return [Mod(id=m["id"], name=m["name"], deck=m["deck"], modifies=dict(m["modifies"]),
                weapons=tuple(_weapon(w) for w in m["weapons"]))
            for m in (clean if isinstance(clean, list) else [clean])]


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


Id = TypeVar("Id", bound=_Identified)


def _yaml_files(path: Path | list[Path]) -> list[Path]:
    if isinstance(path, list):
        return path
    if path.is_dir():
        return sorted(p for p in path.rglob("*.yaml") if p.is_file())
    return [path]


def _collect(path: str | Path | list[Path], build: Callable[[Any, str, Marks], Sequence[Id]],
             what: str = "YAML") -> dict[str, Id]:
    """Load every file of a folder (or one file, or a list); all files' problems together."""
    out: dict[str, Id] = {}
    where: dict[str, str] = {}
    problems: list[Problem] = []
    for file in _yaml_files(path if isinstance(path, list) else Path(path)):
        try:
            data, marks = load_yaml(file, what)
            items = build(data, str(file), marks)
        except InputError as err:
            problems.extend(err.problems)
            continue
        for i, item in enumerate(items):
            if item.id in out:
                key = f"[{i}].id" if isinstance(data, list) else "id"
                line, column = marks.at(key)
                problems.append(Problem(str(file), line, column, key,
                                        N_("the id '{id}' is used again (first in {v})").format(
                                            id=item.id, v=where[item.id])))
                continue
            out[item.id] = item
            where[item.id] = str(file)
    if problems:
        raise InputError(problems)
    return out


def load_cards(path: str | Path, rules: HouseRules | None = None) -> dict[str, BotCard]:
    """Bot cards by id from a file (one card or a list) or a folder of them."""
    return _collect(path, lambda d, f, m: cards_from_data(d, f, m, rules), N_("bot card"))


def load_mods(path: str | Path) -> dict[str, Mod]:
    """Mods by id from a file (one or a list) or a folder of them."""
    return _collect(path, mods_from_data, "mod")


_catalogue: dict[tuple[object, ...], tuple[dict[str, BotCard], dict[str, Mod]]] = {}


def load_catalogue() -> tuple[dict[str, BotCard], dict[str, Mod]]:
    """The bundled bot cards and mods (cards/bots, cards/mods), then the designer's own
    (content folders: `--content`, BOTTISOTA_PATH); a designer's card or mod of a
    bundled id takes its place (`bottisota check` warns unless it says `replaces:`).
    Loaded once per set of files, and kept read and checked in the user's cache folder
    for the next start (`formats.parsed_cache`)."""
    key = (tuple(user_files("card")), tuple(user_files("mod")))
    if key not in _catalogue:
        root = cards_dir()
        bots = _yaml_files(root / "bots") if (root / "bots").is_dir() else []
        parts = _yaml_files(root / "mods") if (root / "mods").is_dir() else []
        files = [*bots, *parts, *key[0], *key[1]]
        _catalogue[key] = cached("catalogue", files, repr(bundled_rules()),
                                 lambda: _read_catalogue(bots, parts, key[0], key[1]))
    return _catalogue[key]


def _read_catalogue(bots: list[Path], parts: list[Path], my_cards: tuple[Path, ...],
                    my_mods: tuple[Path, ...]) -> tuple[dict[str, BotCard], dict[str, Mod]]:
    cards = _collect(bots, lambda d, f, m: cards_from_data(d, f, m, None), N_("bot card"))
    mods = _collect(parts, mods_from_data, "mod")
    if my_cards:
        cards = {**cards, **_collect(list(my_cards),
                                     lambda d, f, m: cards_from_data(d, f, m, None), "card")}
    if my_mods:
        mods = {**mods, **_collect(list(my_mods), mods_from_data, "mod")}
    return cards, mods


_bundled_rules: HouseRules | None = None


def bundled_rules() -> HouseRules:
    """The project's `cards/rules.yaml`, loaded once (and kept read and checked in the
    user's cache folder for the next start: `formats.parsed_cache`)."""
    global _bundled_rules
    if _bundled_rules is None:
        path = rules_file()
        _bundled_rules = cached("rules", [path], "", lambda: load_rules(path))
    return _bundled_rules
