"""argparse's own words ("usage:", "options", its error messages) through the project's
catalogue, so `bottisota --help` and a mistyped option read in the chosen language.

argparse looks its words up through the module-level `_` and `ngettext` it imported from
`gettext`; `use_catalogue` points those at the project's catalogue. The ids below are
argparse's own texts (Python 3.11+), listed so Babel extracts them with the rest."""
from __future__ import annotations

import argparse

from bottisota.core.i18n import N_, _, ngettext

ARGPARSE_WORDS = (
    N_("usage: "),
    N_("options"),
    N_("positional arguments"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"),
    N_("expected at least one argument"),
    N_("expected at most one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
)


def _counted_words() -> tuple[str, ...]:
    """argparse's one counted text, for extraction (never called)."""
    return (ngettext("expected %s argument", "expected %s arguments", 2),)


def use_catalogue() -> None:
    """argparse's words from now on come from the project's catalogue (current language)."""
    argparse._ = _                   # type: ignore[attr-defined]  # argparse's own lookup
    argparse.ngettext = ngettext     # type: ignore[attr-defined]
