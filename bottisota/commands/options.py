"""Options several commands share: content folders and house-rule overrides."""
from __future__ import annotations

import argparse
from pathlib import Path

from bottisota.core.errors import InputError, Problem
from bottisota.core.house_rules import HouseRules
from bottisota.core.i18n import _
from bottisota.formats import spec
from bottisota.formats.loading import bundled_rules, rules_from_dict, rules_with_overrides
from bottisota.formats.spec_types import did_you_mean
from bottisota.formats.yaml_source import Marks, load_yaml, parse_text


def add_content(p: argparse.ArgumentParser) -> None:
    p.add_argument("--content", action="append", metavar="DIR", default=None,
                   help=_("a folder of your own arenas/, cards/, mods/, robots/ (repeatable; "
                          "also the BOTTISOTA_PATH variable)"))


def add_rules(p: argparse.ArgumentParser) -> None:
    p.add_argument("--rules", metavar="FILE", default=None,
                   help=_("house rules file: every key, or only the keys you change"))
    p.add_argument("--set", action="append", metavar="KEY=VALUE", default=None,
                   help=_("change one house rule, e.g. --set belt_speed=3 (repeatable)"))


def rules_file_values(path: str | Path) -> HouseRules:
    """A house rules file: complete (every key) or partial (over the bundled rules)."""
    data, marks = load_yaml(path)
    if isinstance(data, dict) and set(data) >= set(spec.RULE_FIELDS):
        return rules_from_dict(data, str(path), marks)
    if data is None:
        return bundled_rules()
    return rules_with_overrides(bundled_rules(), data, str(path), marks)


def parse_sets(sets: list[str] | None) -> dict:
    """`--set key=value` pairs (values read as YAML: 3, 2.5, true, null, d6)."""
    out: dict = {}
    problems = []
    for item in sets or []:
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key:
            problems.append(Problem("--set", 0, 0, "", _("'{item}': expected KEY=VALUE, e.g. "
                                                         "belt_speed=3").format(
                                                           item=item)))
            continue
        if key not in spec.RULE_FIELDS:
            problems.append(Problem("--set", 0, 0, key, _("no such house rule")
                                    + did_you_mean(key, list(spec.RULE_FIELDS))))
            continue
        try:
            out[key] = parse_text(value, "--set")[0]     # the files' reader and its limits
        except InputError:
            out[key] = value            # as text: the house rule's own check says what it wants
    if problems:
        raise InputError(problems)
    return out


def house_rules(args: argparse.Namespace) -> HouseRules:
    """The house rules a command plays by: bundled, or `--rules FILE`, then `--set`."""
    rules_path = getattr(args, "rules", None)
    rules = rules_file_values(rules_path) if rules_path else bundled_rules()
    sets = parse_sets(getattr(args, "set", None))
    if sets:
        rules = rules_with_overrides(rules, sets, "--set", Marks("--set"))
    return rules
