"""`bottisota check PATH...`: validate arena, card, mod, rule, scenario and robot files.

Folders are walked for *.yaml. A file's kind comes from its folder (arenas/,
bots/, mods/, robots/, scenarios/), its name (rules.yaml) or else its keys.
Prints `ok` per file or every problem found; exit code 0 when all files are
valid, 2 otherwise.
"""
from __future__ import annotations

import argparse
import difflib
import sys
from pathlib import Path
from typing import Any, Callable

from bottisota.core.errors import InputError, Problem
from bottisota.formats import spec
from bottisota.formats.loading import (
    arena_from_dict, cards_from_data, mods_from_data, rules_from_dict, rules_with_overrides,
)
from bottisota.formats.loading import bundled_rules
from bottisota.formats.robot_tables import personality_from_data
from bottisota.play.scenario import scenario_from_dict
from bottisota.formats.yaml_source import Marks, load_yaml

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
    if keys & {"place", "overwatch"}:
        return "robot"
    if keys & {"modifies", "deck"}:
        return "mod"
    if keys & set(spec.RULE_FIELDS):
        return "rules"
    if any(isinstance(k, str) and difflib.get_close_matches(k, list(spec.RULE_FIELDS), n=1,
                                                            cutoff=0.8) for k in keys):
        return "rules"          # a partial rules file whose keys are misspelt
    return None


def _check_rules(data: Any, file: str, marks: Marks) -> None:
    if Path(file).name == "rules.yaml":
        rules_from_dict(data, file, marks)
    else:
        rules_with_overrides(bundled_rules(), data if data else {}, file, marks)


_CHECKERS: dict[str, Callable[[Any, str, Marks], Any]] = {
    "arena": lambda d, f, m: arena_from_dict(d, f, m),
    "robot": lambda d, f, m: personality_from_data(d, f, m),
    "card": lambda d, f, m: cards_from_data(d, f, m),
    "mod": lambda d, f, m: mods_from_data(d, f, m),
    "rules": _check_rules,
    "scenario": lambda d, f, m: scenario_from_dict(d, f, m, Path(f).parent),
}


_WHAT = {"arena": "arena", "card": "bot card", "mod": "mod", "rules": "house rules",
         "scenario": "scenario", "robot": "robot personality"}


def check_file(path: Path, kind: str | None = None) -> tuple[str, str | None]:
    """Validate one file: (kind, note). Raises InputError with every problem."""
    kind, _values = check_file_values(path, kind)
    return kind, None


def check_file_values(path: Path, kind: str | None = None) -> tuple[str, Any]:
    """Validate one file: its kind and what it holds (cards, mods, ...); InputError
    with every problem."""
    kind = kind or _kind_by_place(path)
    data, marks = load_yaml(path, _WHAT.get(kind or "", "YAML"))
    kind = kind or kind_of(path, data)
    if kind is None:
        raise InputError([Problem(str(path), 1 if data is not None else 0, 1, "",
                                  "cannot tell what this file is: expected an arena (size, "
                                  "features), a bot card (locomotion), a mod (modifies), "
                                  "house rules or a scenario (arena, bots, actions)")])
    if data is None:
        raise InputError([Problem(str(path), 0, 0, "", f"the file is empty; expected a {kind}")])
    return kind, _CHECKERS[kind](data, str(path), marks)


def _kind_by_place(path: Path) -> str | None:
    for part in reversed(path.parent.parts):
        if part in _FOLDER_KINDS:
            return _FOLDER_KINDS[part]
    return "rules" if path.name == "rules.yaml" else None


class _Ids:
    """Card and mod ids across every file checked: a second use is an error (the loader
    would refuse the folder)."""

    def __init__(self) -> None:
        self.first: dict[tuple[str, str], str] = {}

    def problems(self, path: Path, kind: str, items: Any) -> list[Problem]:
        if kind not in ("card", "mod") or not items:
            return []
        out = []
        for i, item in enumerate(items):
            key = (kind, item.id)
            if key in self.first:
                data, marks = load_yaml(path)
                where = f"[{i}].id" if isinstance(data, list) else "id"
                line, column = marks.at(where)
                out.append(Problem(str(path), line, column, where,
                                   f"the {_WHAT[kind]} id '{item.id}' is used again (first in "
                                   f"{self.first[key]})"))
            else:
                self.first[key] = str(path)
        return out


def main(args: argparse.Namespace) -> int:
    """Check every file named; print ok or the problems; 0 when all are valid, else 2."""
    files, missing = yaml_files(args.paths)
    quiet = getattr(args, "quiet", False)
    bad = len(missing)
    for problem in missing:
        print(problem, file=sys.stderr)
    ids = _Ids()
    for path in files:
        try:
            kind, values = check_file_values(path, getattr(args, "kind", None))
            problems = ids.problems(path, kind, values)
            if problems:
                raise InputError(problems)
        except InputError as err:
            bad += 1
            print(err, file=sys.stderr)
            continue
        if not quiet:
            print(f"ok  {path} ({kind})")
    total = len(files) + len(missing)
    if total == 0:
        print("no YAML files found", file=sys.stderr)
        return 2
    if bad:
        print(f"{bad} of {total} file{'s' * (total != 1)} with problems", file=sys.stderr)
        return 2
    print(f"ok: {total} file{'s' * (total != 1)} checked")
    return 0
