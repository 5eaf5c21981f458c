"""The rules' own words, quoted where a refusal or event names a rule ("R19: ...").

One file per language in `bottisota/locale/rules/`: English as written in
docs/rules.md, Finnish quoted from the original (docs/original-fi.txt), keyed by the
same R-numbers. A text is shown in the current language (`i18n.language()`).
"""
from __future__ import annotations

import re
from functools import cache
from importlib import resources

from bottisota.core.i18n import language

RULE_NUMBERS = tuple(f"R{n}" for n in range(1, 57))
_NAMED = re.compile(r"\bR([1-9][0-9]?)\b")


@cache
def _texts(lang: str) -> dict[str, str]:
    """R-number -> its text (with its note, where the file gives one) in `lang`."""
    import yaml  # start-up: PyYAML only when a rule's text is first shown

    ref = resources.files("bottisota").joinpath("locale", "rules", f"{lang}.yaml")
    data = yaml.safe_load(ref.read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for rule, entry in data["rules"].items():
        text = " ".join(str(entry["text"]).split())
        note = entry.get("note")
        out[str(rule)] = f"{text} ({note})" if note else text
    return out


def rule_text(rule: str, lang: str | None = None) -> str:
    """The text of rule `rule` ("R18") in `lang` (default: the current language);
    KeyError when there is no such rule."""
    return _texts(lang or language())[rule.upper()]


def rules_named(text: str) -> list[str]:
    """The R-numbers a text names ("R19: out of arc; see R18"), in order, each once,
    only rules that exist."""
    found: list[str] = []
    for m in _NAMED.finditer(text):
        rule = f"R{m.group(1)}"
        if rule in RULE_NUMBERS and rule not in found:
            found.append(rule)
    return found


def quoted(text: str, lang: str | None = None) -> list[str]:
    """"R19 — <its text>" for every rule `text` names, in `lang` (default: current)."""
    return [f"{rule} — {rule_text(rule, lang)}" for rule in rules_named(text)]
