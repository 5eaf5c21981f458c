"""The referee's words in the players' language (Finnish or English).

One gettext catalogue per language (`bottisota/locale/<lang>/LC_MESSAGES/bottisota.po`),
compiled by Babel when first used. Message ids are the English texts, so the code
stays readable; placeholders are named (`_("{bot} passes").format(bot=...)`), never
fragments glued together. Numbers follow the language: "12,5 cm" in Finnish.

The language follows the system locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG),
`--lang fi|en` on every command, and a key in the table view (`set_language`).
Texts held in module-level tables are marked with `N_` (extracted, not
translated) and translated with `_` where they are shown.
"""
from __future__ import annotations

import gettext
import io
import os
import re
from collections.abc import Mapping
from functools import cache, lru_cache
from importlib import resources

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

DOMAIN = "bottisota"
LANGUAGES = ("en", "fi")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "fi": "suomi"}

_state: dict[str, object] = {}


def catalogue_text(lang: str) -> str:
    """The .po source of one language's catalogue (shipped inside the package)."""
    ref = resources.files("bottisota").joinpath("locale", lang, "LC_MESSAGES", f"{DOMAIN}.po")
    return ref.read_text(encoding="utf-8")


@cache
def _compiled(lang: str) -> tuple[gettext.GNUTranslations, tuple[tuple[str, str], ...]]:
    """The compiled catalogue of `lang` (Babel reads the .po and writes the .mo in
    memory) and its (id, translation) pairs of single texts."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalogue for language {lang!r}; known: {', '.join(LANGUAGES)}")
    catalog = read_po(io.StringIO(catalogue_text(lang)), locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    buf.seek(0)
    pairs = tuple((m.id, m.string) for m in catalog
                  if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string)
    return gettext.GNUTranslations(buf), pairs


def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of `lang`."""
    return _compiled(lang)[0]


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the system locale asks for, as gettext reads it: the first set
    of LANGUAGE, LC_ALL, LC_MESSAGES, LANG; Finnish if it names Finnish, else English."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if value:
            for part in value.split(":"):
                code = part.split(".")[0].split("@")[0].split("_")[0].lower()
                if code in LANGUAGES:
                    return code
                if code in ("c", "posix"):
                    return DEFAULT_LANGUAGE
            return DEFAULT_LANGUAGE
    return DEFAULT_LANGUAGE


def set_language(lang: str | None = None) -> str:
    """Speak `lang` from now on (None: the system locale's language); answers it."""
    chosen = system_language() if lang is None else lang
    if chosen not in LANGUAGES:
        raise ValueError(f"no catalogue for language {chosen!r}; known: {', '.join(LANGUAGES)}")
    _state["lang"] = chosen
    _state["tr"] = translations(chosen)
    return chosen


def language() -> str:
    """The language spoken now ("en" or "fi")."""
    if "lang" not in _state:
        set_language()
    return str(_state["lang"])


def other_language() -> str:
    """The next language in turn (the table view's key switches to it)."""
    i = LANGUAGES.index(language())
    return LANGUAGES[(i + 1) % len(LANGUAGES)]


def _tr() -> gettext.NullTranslations:
    if "tr" not in _state:
        set_language()
    tr = _state["tr"]
    assert isinstance(tr, gettext.NullTranslations)
    return tr


def _(message: str) -> str:
    """`message` (an English text, the id) in the current language."""
    return _tr().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted text that fits `n`, in the current language."""
    return _tr().ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Marks a text for the catalogue without translating it (for tables built at
    import time; translate with `_` where it is shown)."""
    return message


def number(value: object, digits: int = 2, fixed: bool = False) -> str:
    """A number as people of the current language write it, rounded to `digits`
    places with no trailing zeros (`fixed`: always `digits` places): 12.5 (en),
    12,5 (fi)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    rounded = round(float(value), digits)
    if rounded == 0:
        rounded = 0.0                         # no "-0"
    return _formatted(rounded, digits, fixed, language())


@lru_cache(maxsize=4096)              # bounded: a long drag formats many distances
def _formatted(rounded: float, digits: int, fixed: bool, lang: str) -> str:
    """Babel's formatting, remembered: the view formats the same few numbers every frame."""
    fmt = "0." + ("0" if fixed else "#") * digits if digits > 0 else "0"
    text = format_decimal(rounded, format=fmt, locale=lang)
    return text.replace("\u2212", "-")       # a plain hyphen-minus reads on every font


def signed(value: float | int, digits: int = 2) -> str:
    """A number with its sign always shown: +2, -1,5."""
    text = number(value, digits)
    return text if text.startswith("-") or text == "0" else "+" + text


def cm(value: float | int, digits: int = 2) -> str:
    """A length in cm: "12.5 cm" / "12,5 cm"."""
    return _("{n} cm").format(n=number(value, digits))


def degrees(value: float | int, digits: int = 1) -> str:
    """An angle in degrees: "37.5°" / "37,5°"."""
    return _("{n}°").format(n=number(value, digits))


# --- texts made in English by the rules core -------------------------------------------
# The rules core writes its refusals, reasons and dice purposes in English (they are
# journaled, and a game replays the same in every language); their templates are marked
# with `N_` so they are in the catalogue. `translated` finds the template a finished
# English text was made from and fills the translation with the same values.

_FIELD = re.compile(r"\{(\w+)(![rsa])?(:[^{}]*)?\}")
_RULE = re.compile(r"([RD]\d+): (.*)", re.S)
_NUMBER = re.compile(r"[+-]?\d+\.\d+")


@cache
def _patterns(lang: str) -> tuple[tuple[re.Pattern[str], str], ...]:
    """A full-match pattern for every catalogued template with fields, most specific first."""
    out = []
    for msgid, msgstr in _compiled(lang)[1]:
        if not _FIELD.search(msgid) or "{{" in msgid:
            continue
        regex, seen, pos = "", set(), 0
        for m in _FIELD.finditer(msgid):
            regex += re.escape(msgid[pos:m.start()])
            name = m.group(1)
            regex += f"(?P={name})" if name in seen else f"(?P<{name}>.+?)"
            seen.add(name)
            pos = m.end()
        regex += re.escape(msgid[pos:])
        fixed = len(_FIELD.sub("", msgid))
        if fixed < 3:                 # "{a} {b}": matches anything, tells nothing
            continue
        plain = _FIELD.sub(lambda m: "{" + m.group(1) + "}", msgstr)
        out.append((fixed, re.compile(regex, re.S), plain))
    out.sort(key=lambda t: -t[0])
    return tuple((rx, plain) for _n, rx, plain in out)


def _value(text: str, depth: int) -> str:
    if _NUMBER.fullmatch(text):
        return number(float(text), 3)
    if " " not in text:                 # a name (a bot, a key, a YAML value) stays as it is
        return text
    return _translated(language(), text, depth + 1)


@cache
def _translated(lang: str, text: str, depth: int = 0) -> str:
    if lang == DEFAULT_LANGUAGE or depth > 3 or not text:
        return text
    direct = translations(lang).gettext(text)
    if direct != text:
        return direct
    rule = _RULE.fullmatch(text)
    if rule:
        return f"{rule.group(1)}: {_translated(lang, rule.group(2), depth)}"
    for rx, plain in _patterns(lang):
        m = rx.fullmatch(text)
        if m:
            try:
                return plain.format(**{k: _value(v, depth) for k, v in m.groupdict().items()})
            except (KeyError, IndexError, ValueError):
                continue
    for sep in _SEPARATORS:             # "<text> — did you mean 'x'?": each part alone
        head, found, tail = text.partition(sep)
        if found and head:
            return _translated(lang, head, depth + 1) + _translated(lang, sep + tail, depth + 1)
    for msgid, msgstr in _prefixes(lang):  # "one of " + a list of names
        if text.startswith(msgid):
            return msgstr + text[len(msgid):]
    return text


_SEPARATORS = (" \u2014 ",)


@cache
def _prefixes(lang: str) -> tuple[tuple[str, str], ...]:
    """Catalogued lead-ins ("one of ") that a list of names follows, longest first."""
    pairs = [(i, s) for i, s in _compiled(lang)[1]
             if i.endswith(" ") and len(i) >= 4 and not _FIELD.search(i)]
    return tuple(sorted(pairs, key=lambda p: -len(p[0])))


def translated(text: object) -> str:
    """An English text the rules core made (a refusal, a reason, a dice purpose) in
    the current language: its catalogued template's translation with the same values;
    the text itself when no template made it."""
    return _translated(language(), str(text))
