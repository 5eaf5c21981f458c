"""Scenario files (formats.md, "Scenario") -> a validated ScenarioSpec.

Everything is checked before anything runs: the keys, the arena (inline or a
file relative to the scenario), the house-rule overrides, the bots (cards
exist, parts exist) and every action (via the codec). An invalid file raises
InputError listing every problem with its line.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any  # Any: a scenario file's data as read

from bottisota.core.actions import Place
from bottisota.core.arena import Arena
from bottisota.core.errors import InputError, Problem
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_
from bottisota.formats import spec
from bottisota.formats.codec import action_from_clean
from bottisota.formats.loading import (
    arena_from_dict,
    bundled_rules,
    load_arena,
    rules_with_overrides,
    validate,
)
from bottisota.formats.spec_types import did_you_mean
from bottisota.formats.yaml_source import Marks, Raw, join, load_yaml, parse_text


@dataclass
class ScenarioSpec:
    """A scenario ready to run: the position, the actions and the expectations."""

    name: str
    arena: Arena
    rules: HouseRules
    dice: list[int] | None = None       # forced d6 results, or None for a seeded stream
    seed: int | None = None
    round: int = 2
    bots: list[Raw] = field(default_factory=list)     # formats.md bot mappings, checked
    actions: list[Any] = field(default_factory=list)   # action values (core.actions)
    action_lines: list[int] = field(default_factory=list)  # each action's line in the file
    expect: Raw = field(default_factory=dict)
    source: str = "<inline>"


# Checks a scenario's position (its bots on its arena) and raises InputError with every
# problem; the engine's state builder, handed in by the play layer that runs scenarios.
PositionCheck = Callable[[Arena, HouseRules, list[Raw], int, Marks], None]


def scenario_from_dict(data: Any, source: str = "<inline>", marks: Marks | None = None,
                       base_dir: Path | None = None,
                       check_position: PositionCheck | None = None) -> ScenarioSpec:
    """Validate a scenario mapping; InputError with every problem when it is wrong.
    `check_position` (when given) also checks where its bots stand."""
    marks = marks or Marks(source)
    clean = validate(data, spec.SCENARIO, marks)
    problems: list[Problem] = []
    rules = rules_with_overrides(bundled_rules(), clean["rules"], source, marks, "rules")

    arena: Arena | None = None
    try:
        if isinstance(clean["arena"], str):
            folder = base_dir if base_dir is not None else Path(source).parent
            path = folder / clean["arena"]
            if not _is_file(path):
                problems.append(marks.problem("arena",
                        N_("no arena file '{arena}' (paths are relative to the scenario's "
                           "folder)").format(
                            arena=_clip(clean['arena']))))
            else:
                arena = load_arena(path, rules)
        else:
            arena = arena_from_dict(data["arena"], source, marks.child("arena"), rules)
            arena = _prefixed_source(arena, source)
    except InputError as err:
        problems.extend(_under("arena", err.problems) if not isinstance(clean["arena"], str)
                        else err.problems)

    bot_ids = [b["id"] for b in clean["bots"]]
    actions, lines = [], []
    for i, raw in enumerate(clean["actions"]):
        where = join("actions", i)
        action = action_from_clean(raw)
        if action.bot not in bot_ids and not isinstance(action, Place):
            problems.append(marks.problem(join(where, "bot"),
                    N_("no bot has the id '{bot}'").format(bot=action.bot)
                                          + did_you_mean(action.bot, bot_ids)))
        for j, held in enumerate(getattr(action, "hold_fire", ())):
            if held not in bot_ids:
                problems.append(marks.problem(f"{where}.hold_fire[{j}]",
                        N_("no bot has the id '{held}'").format(
                            held=held) + did_you_mean(held, bot_ids)))
        actions.append(action)
        lines.append(marks.at(where)[0])

    if arena is not None and check_position is not None:
        try:
            check_position(arena, rules, clean["bots"], clean["round"], marks)
        except InputError as err:
            problems.extend(err.problems)
    if problems:
        raise InputError(problems)
    assert arena is not None                    # a missing or bad arena is a problem above
    name = clean.get("name") or (Path(source).stem if source != "<inline>" else "scenario")
    return ScenarioSpec(name=name, arena=arena, rules=rules, dice=clean.get("dice"),
                        seed=clean.get("seed"), round=clean["round"], bots=clean["bots"],
                        actions=actions, action_lines=lines, expect=clean["expect"],
                        source=source)


def _is_file(path: Path) -> bool:
    try:
        return path.is_file()
    except (OSError, ValueError):     # a name too long, a NUL in it
        return False


def _clip(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _prefixed_source(arena: Arena, source: str) -> Arena:
    arena.source = source
    return arena


def _under(prefix: str, problems: list[Problem]) -> list[Problem]:
    """Problems of an inline part, their key paths put back under the scenario's key."""
    return [Problem(p.file, p.line, p.column, join(prefix, p.path) if p.path else prefix,
                    p.message) if not p.path.startswith(prefix) else p for p in problems]


def load_scenario(path: str | Path, check_position: PositionCheck | None = None
                  ) -> ScenarioSpec:
    """Read and validate a scenario file."""
    data, marks = load_yaml(path)
    return scenario_from_dict(data, str(path), marks, Path(path).parent, check_position)


def parse_scenario(text: str, source: str = "<inline>",
                   check_position: PositionCheck | None = None) -> ScenarioSpec:
    """Validate scenario YAML text (arena paths relative to the current folder)."""
    data, marks = parse_text(text, source)
    return scenario_from_dict(data, source, marks, Path("."), check_position)
