"""`bottisota check PATH...`: validate arena, card, mod, rule, scenario and robot files.

Folders are walked for *.yaml. A file's kind comes from its folder (arenas/,
bots/, mods/, robots/, scenarios/), its name (rules.yaml) or else its keys.
Prints `ok` per file or every problem found; exit code 0 when all files are
valid, 2 otherwise.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Callable

from bottisota.core.errors import InputError, Problem
from bottisota.formats import spec
from bottisota.formats.loading import (
    arena_from_dict, cards_from_data, mods_from_data, rules_from_dict, rules_with_overrides,
)
from bottisota.formats.loading import bundled_rules
from bottisota.play.scenario import scenario_from_dict
from bottisota.formats.yaml_source import Marks, load_yaml
from bottisota.formats.robot_tables import validate_file

KINDS: tuple[str, ...] = ("arena", "card", "mod", "rules", "scenario", "robot")
_FOLDER_KINDS = {"arenas": "arena", "bots": "card", "mods": "mod", "robots": "robot",
                 "scenarios": "scenario"}


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help="files or folders (folders are searched for *.yaml)")
    p.add_argument("--kind", choices=KINDS, help="treat every file as this kind")
    p.add_argument("-q", "--quiet", action="store_true", help="print only problems and the summary")


def yaml_files(paths: list[str]) -> tuple[list[Path], list[Problem]]:
    """The files to check (folders walked), and problems for paths that do not exist."""
    files: list[Path] = []
    missing = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            missing.append(Problem(name, 0, 0, "", "no such file or folder"))
    return files, missing


def kind_of(path: Path, data: Any) -> str | None:
    """Which format a file follows: its folder, its name, else its keys."""
    for part in reversed(path.parent.parts):
        if part in _FOLDER_KINDS:
            return _FOLDER_KINDS[part]
    if path.name == "rules.yaml":
        return "rules"
    sample = data[0] if isinstance(data, list) and data else data
    if not isinstance(sample, dict):
        return None
    keys = set(sample)
    if keys & {"actions", "bots", "expect"} or "arena" in keys:
        return "scenario"
    if keys & {"size", "features"}:
        return "arena"
    if "locomotion" in keys:
        return "card"
    if keys & {"modifies", "deck"}:
        return "mod"
    if keys & set(spec.RULE_FIELDS):
        return "rules"
    return None


def _check_rules(data: Any, file: str, marks: Marks) -> None:
    if Path(file).name == "rules.yaml":
        rules_from_dict(data, file, marks)
    else:
        rules_with_overrides(bundled_rules(), data if data else {}, file, marks)


def _check_robot(path: Path) -> str | None:
    """Validate a robot personality file (the robot package reads its own format)."""

    validate_file(path)
    return None


_CHECKERS: dict[str, Callable[[Any, str, Marks], Any]] = {
    "arena": lambda d, f, m: arena_from_dict(d, f, m),
    "card": lambda d, f, m: cards_from_data(d, f, m),
    "mod": lambda d, f, m: mods_from_data(d, f, m),
    "rules": _check_rules,
    "scenario": lambda d, f, m: scenario_from_dict(d, f, m, Path(f).parent),
}


def check_file(path: Path, kind: str | None = None) -> tuple[str, str | None]:
    """Validate one file: (kind, note). Raises InputError with every problem."""
    if kind == "robot" or kind is None and "robots" in path.parent.parts:
        return "robot", _check_robot(path)
    data, marks = load_yaml(path)
    kind = kind or kind_of(path, data)
    if kind is None:
        raise InputError([Problem(str(path), 1 if data is not None else 0, 1, "",
                                  "cannot tell what this file is: expected an arena (size, "
                                  "features), a bot card (locomotion), a mod (modifies), "
                                  "house rules or a scenario (arena, bots, actions)")])
    if kind == "robot":
        return kind, _check_robot(path)
    if data is None:
        raise InputError([Problem(str(path), 0, 0, "", f"the file is empty; expected a {kind}")])
    _CHECKERS[kind](data, str(path), marks)
    return kind, None


def main(args: argparse.Namespace) -> int:
    """Check every file named; print ok or the problems; 0 when all are valid, else 2."""
    files, missing = yaml_files(args.paths)
    quiet = getattr(args, "quiet", False)
    bad = len(missing)
    for problem in missing:
        print(problem, file=sys.stderr)
    for path in files:
        try:
            kind, note = check_file(path, getattr(args, "kind", None))
        except InputError as err:
            bad += 1
            print(err, file=sys.stderr)
            continue
        if not quiet:
            print(f"ok  {path} ({kind}{', ' + note if note else ''})")
    total = len(files) + len(missing)
    if total == 0:
        print("no YAML files found", file=sys.stderr)
        return 2
    if bad:
        print(f"{bad} of {total} file{'s' * (total != 1)} with problems", file=sys.stderr)
        return 2
    print(f"ok: {total} file{'s' * (total != 1)} checked")
    return 0
