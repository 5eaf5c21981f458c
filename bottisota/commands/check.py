"""`bottisota check PATH...`: validate arena, card, mod, rule, scenario and robot files,
and warn about what is playable but suspicious.

Folders are walked for *.yaml; a name that is not a path is looked up among the
designer's content folders and the bundled content (`check warehouse`). A file's
kind comes from its folder (arenas/, bots/, cards/, mods/, robots/, scenarios/), its
name (rules.yaml) or else its keys. Each finding is an error (unplayable) or a
warning, with its place, a source excerpt with a caret, a `help:` line where a
corrected text exists and a code that `bottisota explain CODE` expands.
Exit code 0 when there are no errors (and, with --strict, no warnings), else 2.
"""
from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bottisota.commands.options import add_content, add_rules, house_rules
from bottisota.core.actions import Shoot
from bottisota.core.errors import InputError, Problem
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import N_, _, ngettext
from bottisota.formats import content, scenario_spec, spec
from bottisota.formats.lint import (
    ERROR,
    WARNING,
    Finding,
    card_findings,
    from_problem,
    id_findings,
    mod_findings,
    show,
)
from bottisota.formats.loading import (
    arena_from_dict,
    bundled_rules,
    cards_from_data,
    mods_from_data,
    rules_from_dict,
    rules_with_overrides,
    valid_part,
)
from bottisota.formats.robot_tables import validate_file
from bottisota.formats.spec_types import did_you_mean
from bottisota.formats.yaml_source import Marks, load_yaml
from bottisota.geometry.lint import arena_findings, placement_findings
from bottisota.play.reach import reach_findings
from bottisota.play.scenario import check_setup, start_state
from bottisota.play.scenario import run as run_scenario

KINDS: tuple[str, ...] = ("arena", "card", "mod", "rules", "scenario", "robot")
_FOLDER_KINDS = {"arenas": "arena", "bots": "card", "cards": "card", "mods": "mod",
                 "robots": "robot", "scenarios": "scenario"}


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="+", metavar="PATH",
                   help=_("files, folders (searched for *.yaml) or names of arenas"))
    p.add_argument("--kind", choices=KINDS, help=_("treat every file as this kind"))
    p.add_argument("-q", "--quiet", action="store_true", help=_("print only problems and the "
                                                                "summary"))
    p.add_argument("--strict", action="store_true", help=_("treat warnings as errors (exit 2)"))
    p.add_argument("--brief", action="store_true",
                   help=_("one line per finding (no source excerpt, no help line)"))
    p.add_argument("--colour", "--color", choices=("auto", "always", "never"), default="auto",
                   help=_("colour the findings (default: when writing to a terminal)"))
    add_content(p)
    add_rules(p)


def yaml_files(paths: list[str]) -> tuple[list[Path], list[Problem]]:
    """The files to check (folders walked, names looked up), and problems for the rest."""
    files: list[Path] = []
    missing = []
    for name in paths:
        path = Path(name)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*.yaml") if p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            found = _named(name)
            if found is not None:
                files.append(found)
            else:
                missing.append(_missing(name))
    return files, missing


def _named(name: str) -> Path | None:
    """A bundled or designer's file by name, any kind (arenas first)."""
    for kind in ("arena", "scenario", "card", "mod", "robot"):
        if name in content.available(kind) or name.removesuffix(".yaml") in content.available(kind):
            return content.find(kind, name)
    return None


def _missing(name: str) -> Problem:
    names = sorted(content.available("arena"))
    close = difflib.get_close_matches(Path(name).stem, names, n=1, cutoff=0.6)
    hint = _(" — did you mean '{v}'?").format(v=close[0]) if close else ""
    return Problem(name, 0, 0, "", _("no such file or folder, nor an arena of that "
                                     "name{hint} (arenas: {names})").format(
                                       hint=hint, names=', '.join(names)))


# the words for a file that is not the kind its place says ("not an arena file: ...")
_WHAT = {"arena": N_("arena"), "card": N_("bot card"), "mod": N_("mod"), "rules": N_("house rules"),
         "scenario": N_("scenario"), "robot": N_("robot personality")}


def kind_by_place(path: Path) -> str | None:
    """The format a file's name or folder says it follows, if any."""
    if path.name == "rules.yaml":
        return "rules"
    # the nearest folder only: a checkout under a folder named "robots" or "cards" says
    # nothing about the files in it
    return _FOLDER_KINDS.get(path.parent.name)


def kind_of(path: Path, data: Any) -> str | None:
    """Which format a file follows: its folder, its name, else its keys."""
    by_place = kind_by_place(path)
    if by_place is not None:
        return by_place
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
    rule_like = [k for k in keys if isinstance(k, str) and difflib.get_close_matches(
        k, list(spec.RULE_FIELDS), n=1, cutoff=0.75)]
    if rule_like and len(rule_like) == len(keys):
        return "rules"          # a partial rules file whose keys are all misspelt
    return None


def _check_rules(data: Any, file: str, marks: Marks) -> None:
    """A complete rules file (every key), or a partial one over the bundled rules."""
    if isinstance(data, dict) and set(data) >= set(spec.RULE_FIELDS):
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
    # where the bots stand is reported by scenario_findings, with its own codes
    "scenario": lambda d, f, m: scenario_spec.scenario_from_dict(d, f, m, Path(f).parent,
                                                                 check_setup),
}


def check_file(path: Path, kind: str | None = None) -> tuple[str, str | None]:
    """Validate one file as `check` does: (kind, note). Raises InputError with every
    error (warnings are not errors)."""
    found_kind, found, _data, _marks = file_findings(path, kind)
    errors = [f for f in found if f.level == ERROR]
    if errors:
        raise InputError([Problem(f.file, f.line, f.column, f.path, f.message) for f in errors])
    return found_kind or "", None


def _load(path: Path, kind: str | None) -> tuple[str, Any, Any, Marks | None]:
    """(kind, loaded value, raw data, marks); InputError with every problem."""
    kind = kind or kind_by_place(path)
    if kind == "robot":
        return "robot", _check_robot(path), None, None
    data, marks = load_yaml(path, _(_WHAT.get(kind or "", "YAML")))
    kind = kind or kind_of(path, data)
    if kind is None:
        raise InputError([Problem(str(path), 1 if data is not None else 0, 1, "",
                                  _("cannot tell what this file is: expected an arena (size, "
                                    "features), a bot card (locomotion), a mod (modifies), "
                                    "house rules or a scenario (arena, bots, actions)"))])
    if kind == "robot":
        return kind, _check_robot(path), data, marks
    if data is None:
        raise InputError([Problem(str(path), 0, 0, "", _("the file is empty; expected a "
                                                         "{kind}").format(
                                                           kind=kind))])
    return kind, _CHECKERS[kind](data, str(path), marks), data, marks


def lint_value(kind: str, value: Any, data: Any, marks: Marks, rules: HouseRules) -> list[Finding]:
    """The warnings (and placement errors) of one valid file."""
    if kind == "arena":
        return arena_findings(value, marks) + reach_findings(value, rules, marks)
    if kind == "card":
        return card_findings(data, marks)
    if kind == "mod":
        return mod_findings(data, marks)
    if kind == "scenario":
        return scenario_findings(value, marks)
    return []


def scenario_findings(scenario: Any, marks: Marks) -> list[Finding]:
    """Bots placed off the table, in walls or pits, or on each other; shots at weapons or
    bots the scenario does not have; and too few dice for its actions (it is run, as
    `scenario run` runs it)."""
    state = start_state(scenario, placement=False)
    bots = [(b["id"], float(b["at"][0]), float(b["at"][1]), state.bots[b["id"]].card.base,
             f"bots[{i}]") for i, b in enumerate(scenario.bots) if b["id"] in state.bots]
    found = placement_findings(scenario.arena, scenario.rules, bots, marks)
    found += shot_name_findings(scenario, state, marks)
    if not any(f.level == ERROR for f in found):
        found += dice_findings(scenario, marks)
    return found


def _expected_refusals(scenario: Any) -> set[int]:
    """The actions the scenario expects to be refused (`expect.rejected`)."""
    listed = (scenario.expect or {}).get("rejected") or []
    out: set[int] = set()
    for item in listed:
        index = item.get("action") if isinstance(item, dict) else item
        if isinstance(index, int):
            out.add(index)
    return out


def shot_name_findings(scenario: Any, state: Any, marks: Marks) -> list[Finding]:
    """A shot naming a weapon its bot does not carry, or a target that is not one of the
    scenario's bots (with did-you-mean): the action would only be refused (R18), and a
    scenario that expects nothing of it would pass for the wrong reason. An action the
    scenario expects to be refused is left alone."""
    out: list[Finding] = []
    refused = _expected_refusals(scenario)
    for i, action in enumerate(scenario.actions):
        if not isinstance(action, Shoot) or i in refused or action.bot not in state.bots:
            continue
        card = state.bots[action.bot].card
        names = [w.name for w in card.weapons]
        for j, shot in enumerate(action.shots):
            where = f"actions[{i}].shoot[{j}]"
            if card.weapon(shot.weapon) is None:
                out.append(from_problem(marks.problem(f"{where}.weapon", _(
                    "{bot} has no weapon '{weapon}' (it has: {names}); the action would be "
                    "refused (R18)").format(bot=action.bot, weapon=shot.weapon,
                                            names=", ".join(names) or _("none"))
                    + did_you_mean(shot.weapon, names))))
            if shot.target is not None and shot.target not in state.bots:
                ids = sorted(state.bots)
                out.append(from_problem(marks.problem(f"{where}.target", _(
                    "no bot has the id '{target}' (bots: {ids})").format(
                        target=shot.target, ids=", ".join(ids))
                    + did_you_mean(shot.target, ids))))
    return out


def dice_findings(scenario: Any, marks: Marks) -> list[Finding]:
    """Forced dice that run out before the actions are done (the scenario is run)."""
    if scenario.dice is None:
        return []
    outcome = run_scenario(scenario)
    if not outcome.ran_out:
        return []
    return [from_problem(marks.problem("dice", _(
        "{n} forced dice are too few for the actions: {why}").format(
            n=len(scenario.dice), why=outcome.ran_out)))]


def file_findings(path: Path, kind: str | None = None, rules: HouseRules | None = None
                  ) -> tuple[str | None, list[Finding], Any, Marks | None]:
    """Every finding of one file: (kind, findings, raw data, marks)."""
    try:
        kind, value, data, marks = _load(path, kind)
    except InputError as err:
        found = [from_problem(p) for p in err.problems]
        return kind, found + _warnings_beside_errors(path, kind, rules), None, None
    if marks is None or value is None and kind != "rules":
        return kind, [], data, marks
    try:
        found = lint_value(kind, value, data, marks, rules or bundled_rules())
    except InputError as err:
        found = [from_problem(p) for p in err.problems]
    return kind, found, data, marks


def _warnings_beside_errors(path: Path, kind: str | None, rules: HouseRules | None
                            ) -> list[Finding]:
    """For an arena with errors: the warnings of the features that are right, so a
    designer sees every finding at once. Only warnings: an error there may follow from
    a feature left out (a stair that leads to a platform with a broken key)."""
    if (kind or kind_by_place(path)) not in ("arena", None):
        return []
    try:
        data, marks = load_yaml(path)
        if kind_of(path, data) != "arena":
            return []
        arena, problems = valid_part(data, marks, rules)
        if arena is None or problems or not arena.features:
            return []
        found = arena_findings(arena, marks) + reach_findings(arena, rules or bundled_rules(),
                                                              marks)
    except (InputError, ValueError):
        return []
    return [f for f in found if f.level == WARNING]


def _id_findings(checked: list[tuple[str | None, Path, Any, Marks]]) -> list[Finding]:
    """Card and mod ids given twice among the files checked and the designer's folders,
    and ids that shadow bundled ones."""
    out: list[Finding] = []
    for kind, what in (("card", _("bot card")), ("mod", "mod")):
        bundled_dir = content.bundled_dir(kind)
        bundled_files = (
            {p.resolve() for p in content.yaml_in(bundled_dir)} if bundled_dir else set()
        )
        bundled: dict[str, str] = {}
        for p in sorted(bundled_files):
            try:
                data, _m = load_yaml(p)
            except InputError:
                continue
            for item in data if isinstance(data, list) else [data]:
                if isinstance(item, dict) and "id" in item:
                    bundled.setdefault(str(item["id"]), p.name)
        files = []
        seen = set()
        for k, path, data, marks in checked:
            if k == kind and data is not None and path.resolve() not in seen:
                seen.add(path.resolve())
                files.append(("bundled" if path.resolve() in bundled_files else "user",
                              data, marks))
        for p in content.user_files(kind):
            if p.resolve() not in seen and p.resolve() not in bundled_files:
                try:
                    data, marks = load_yaml(p)
                except InputError:
                    continue
                seen.add(p.resolve())
                files.append(("user", data, marks))
        out += [f for f in id_findings(files, bundled, what)
                if any(f.file == str(path) for _k, path, _d, _m in checked)]
    return out


def _use_colour(choice: str) -> bool:
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return sys.stderr.isatty()


def main(args: argparse.Namespace) -> int:
    """Check every file named; print ok or the findings; 0 when no errors, else 2."""
    files, missing = yaml_files(args.paths)
    quiet = getattr(args, "quiet", False)
    strict = getattr(args, "strict", False)
    brief = getattr(args, "brief", False)
    colour = _use_colour(getattr(args, "colour", "auto"))
    rules = house_rules(args) if getattr(args, "rules", None) or getattr(args, "set", None) \
        else None
    for problem in missing:
        print(problem, file=sys.stderr)
    results: list[tuple[Path, str | None, list[Finding]]] = []
    checked = []
    for path in files:
        kind, found, data, marks = file_findings(path, getattr(args, "kind", None), rules)
        results.append((path, kind, found))
        if marks is not None:
            checked.append((kind, path, data, marks))
    extra = _id_findings(checked)
    errors = warnings = 0
    bad_files = len(missing)
    for path, kind, found in results:
        found = found + [f for f in extra if f.file == str(path)]
        if strict:
            found = [f.strict() for f in found]
        found.sort(key=lambda f: (f.line, f.column))
        n_err = sum(f.level == ERROR for f in found)
        n_warn = sum(f.level == WARNING for f in found)
        errors += n_err
        warnings += n_warn
        bad_files += bool(n_err)
        text = None if brief else _text(path)
        for f in found:
            print(f.headline() if brief else show(f, text, colour), file=sys.stderr)
        if not n_err and not quiet:
            note = ", " + ngettext("{n} warning", "{n} warnings", n_warn).format(
                       n=n_warn) if n_warn else ""
            print(_("ok  {path} ({kind}{note})").format(path=path, kind=kind, note=note))
    total = len(files) + len(missing)
    if total == 0:
        print(_("no YAML files found"), file=sys.stderr)
        return 2
    tally = _tally(errors, warnings)
    if bad_files:
        print(ngettext("{bad_files} of {total} file with problems{tally}",
                       "{bad_files} of {total} files with problems{tally}", total).format(
                  bad_files=bad_files, total=total, tally=tally),
              file=sys.stderr)
        return 2
    print(ngettext("ok: {total} file checked{tally}", "ok: {total} files checked{tally}",
                   total).format(total=total, tally=tally))
    return 0


def _tally(errors: int, warnings: int) -> str:
    parts = []
    if errors:
        parts.append(ngettext("{n} error", "{n} errors", errors).format(n=errors))
    if warnings:
        parts.append(ngettext("{n} warning", "{n} warnings", warnings).format(n=warnings))
    return f" ({', '.join(parts)})" if parts else ""


def _text(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
