"""`bottisota explain CODE`: what a finding of `bottisota check` means and how to fix it;
`bottisota explain R18`: a rule's text in the chosen language."""
from __future__ import annotations

import argparse
import re
import textwrap

from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import _
from bottisota.core.rule_texts import RULE_NUMBERS, rule_text
from bottisota.formats.docs import defaults
from bottisota.formats.lint import CODES, lookup
from bottisota.formats.spec_types import did_you_mean


def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("code", nargs="?", metavar="CODE",
                   help=_("a code (W012), its name (lone-teleporter), a rule (R18) or a "
                          "default (D23); none lists every code"))


def rule_explanation(rule: str) -> str:
    """A rule's number and text, wrapped (InputError when there is no such rule)."""
    rule = rule.upper()
    if rule not in RULE_NUMBERS:
        raise InputError([Problem(rule, 0, 0, "", _(
            "no such rule; the rules are R1 to R{last}").format(last=len(RULE_NUMBERS)))])
    return textwrap.fill(f"{rule} — {rule_text(rule)}", 78)


def default_explanation(number: str) -> str:
    """A default's number and text from docs/defaults.md, wrapped (InputError when there
    is no such default). The defaults are written in English only."""
    number = number.upper()
    texts = defaults()
    if number not in texts:
        last = max(int(n[1:]) for n in texts)
        raise InputError([Problem(number, 0, 0, "", _(
            "no such default; the defaults are D1 to D{last}").format(last=last))])
    return textwrap.fill(f"{number} — {texts[number]}", 78)


def explanation(word: str) -> str:
    """The text `explain` prints for one code, rule or default (InputError when there is
    none)."""
    if re.fullmatch(r"[Rr][0-9]+", word):
        return rule_explanation(word)
    if re.fullmatch(r"[Dd][0-9]+", word):
        return default_explanation(word)
    code = lookup(word)
    if code is None:
        names = [c.code for c in CODES.values()] + [c.name for c in CODES.values()]
        raise InputError([Problem(word, 0, 0, "", _("no such check code")
                                  + did_you_mean(word, names)
                                  + _("; `bottisota explain` lists them"))])
    body = textwrap.fill(_(code.explanation), 78)
    return f"{code.title} ({code.severity}): {_(code.summary)}\n\n{body}"


def listing() -> str:
    return "\n".join(f"{c.code} {c.name:<24} {c.severity:<8} {_(c.summary)}"
                     for c in CODES.values())


def main(args: argparse.Namespace) -> int:
    print(explanation(args.code) if args.code else listing())
    return 0
