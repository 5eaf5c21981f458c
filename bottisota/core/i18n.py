"""The referee's words in the players' language (Finnish or English).

One gettext catalogue per language (`bottisota/locale/<lang>/LC_MESSAGES/bottisota.po`),
compiled by Babel when first used and kept compiled in the user's cache folder (keyed
by the catalogue's content, so an edited .po is compiled afresh: Babel's .po reader
(about 0.05 s) runs once, not at every start). Message ids are the English
texts, so the code stays readable; placeholders are named
(`_("{bot} passes").format(bot=...)`), never fragments glued together. Numbers
follow the language: "12,5 cm" in Finnish (written here; Babel's formatting for
the rare number beyond plain ones).

The language follows the system locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG),
`--lang fi|en` on every command, and a key in the table view (`set_language`).
A phone speaks its own language inside `speaking(lang)`: that thread or task only,
while the table keeps the table's. Texts held in module-level tables are marked
with `N_` (extracted, not translated) and translated with `_` where they are shown.
"""
from __future__ import annotations

import base64
import gettext
import io
import json
import math
import os
import re
import struct
import tempfile
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache, lru_cache
from pathlib import Path

DOMAIN = "bottisota"
LANGUAGES = ("en", "fi")
DEFAULT_LANGUAGE = "en"
LANGUAGE_NAMES = {"en": "English", "fi": "suomi"}

_state: dict[str, object] = {}
# a language spoken in one thread or task only (a phone's), over the table's
_speaking: ContextVar[str | None] = ContextVar("bottisota_speaking", default=None)
# the catalogues' folder inside the package (as importlib.resources finds it in an
# unzipped package, without loading its zip readers at start-up)
LOCALE_DIR = Path(__file__).parent.parent / "locale"


def catalogue_text(lang: str) -> str:
    """The .po source of one language's catalogue (shipped inside the package)."""
    ref = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    return ref.read_text(encoding="utf-8")


Pairs = tuple[tuple[str, str], ...]
CACHE_FORMAT = 1                 # bump when the cached form changes


@cache
def _compiled(lang: str) -> tuple[gettext.GNUTranslations, Pairs]:
    """The compiled catalogue of `lang` and its (id, translation) pairs of single texts:
    from the cache when it holds this very .po's compiled form, else compiled now."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalogue for language {lang!r}; known: {', '.join(LANGUAGES)}")
    text = catalogue_text(lang)
    key = content_key(text)
    try:
        path: Path | None = cache_folder() / f"{DOMAIN}-{lang}-{key}.json"
    except RuntimeError:             # no home folder to keep a cache in: compile each time
        path = None
    found = _read_cached(path, key) if path is not None else None
    if found is not None:
        return found
    mo, pairs = compile_catalogue(text, lang)
    if path is not None:
        _write_cached(path, key, mo, pairs)
    return gettext.GNUTranslations(io.BytesIO(mo)), pairs


def content_key(text: str) -> str:
    """A key that changes whenever the text does (CRC-32 and length: an edit is told from
    the catalogue before it; hashlib's OpenSSL is not loaded at start-up for this)."""
    data = text.encode("utf-8")
    return f"{zlib.crc32(data):08x}{len(data):08x}"


def compile_catalogue(text: str, lang: str) -> tuple[bytes, Pairs]:
    """Babel reads the .po source and writes the .mo (in memory); the (id, translation)
    pairs of its single texts."""
    from babel.messages.mofile import write_mo  # Babel's .po reader: only on a cache miss
    from babel.messages.pofile import read_po

    catalog = read_po(io.StringIO(text), locale=lang, domain=DOMAIN)
    buf = io.BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    pairs = tuple((m.id, m.string) for m in catalog
                  if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string)
    return buf.getvalue(), pairs


def cache_folder() -> Path:
    """Where compiled catalogues are kept: $XDG_CACHE_HOME/bottisota (default
    ~/.cache/bottisota)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "bottisota"


def _read_cached(path: Path, key: str) -> tuple[gettext.GNUTranslations, Pairs] | None:
    """The cached compiled catalogue, or None when it is missing, unreadable, of another
    format or of another .po (then it is compiled again)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data["format"] != CACHE_FORMAT or data["source"] != key:
            return None
        mo = base64.b64decode(data["mo"], validate=True)
        pairs = tuple((str(i), str(s)) for i, s in data["pairs"])
        return gettext.GNUTranslations(io.BytesIO(mo)), pairs
    except (OSError, ValueError, LookupError, TypeError, struct.error, RecursionError):
        return None


def _write_cached(path: Path, key: str, mo: bytes, pairs: Pairs) -> None:
    """Keep the compiled catalogue (written whole, then renamed into place) in place of
    the language's earlier ones; a folder that cannot be written only means compiling
    again next time."""
    data = {"format": CACHE_FORMAT, "source": key, "mo": base64.b64encode(mo).decode("ascii"),
            "pairs": [list(p) for p in pairs]}
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh, ensure_ascii=False)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        stem = path.name.rsplit("-", 1)[0] + "-"
        for old in path.parent.glob(stem + "*.json"):
            if old != path:
                old.unlink(missing_ok=True)
    except OSError:
        pass


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


@contextmanager
def speaking(lang: str | None) -> Iterator[None]:
    """Speak `lang` in this thread or task only, for the block (None: as before): a
    phone's answers in its own language while the table speaks the table's."""
    if lang is None:
        yield
        return
    if lang not in LANGUAGES:
        raise ValueError(f"no catalogue for language {lang!r}; known: {', '.join(LANGUAGES)}")
    token = _speaking.set(lang)
    try:
        yield
    finally:
        _speaking.reset(token)


def speak_in_this_task(lang: str | None) -> None:
    """Speak `lang` from now on in this asyncio task (a phone's connection: its
    messages, and the tasks and threads it starts, are in its language)."""
    if lang is not None and lang not in LANGUAGES:
        raise ValueError(f"no catalogue for language {lang!r}; known: {', '.join(LANGUAGES)}")
    _speaking.set(lang)


def language() -> str:
    """The language spoken now ("en" or "fi")."""
    spoken = _speaking.get()
    if spoken is not None:
        return spoken
    if "lang" not in _state:
        set_language()
    return str(_state["lang"])


def other_language() -> str:
    """The next language in turn (the table view's key switches to it)."""
    i = LANGUAGES.index(language())
    return LANGUAGES[(i + 1) % len(LANGUAGES)]


def _tr() -> gettext.NullTranslations:
    spoken = _speaking.get()
    if spoken is not None:
        return translations(spoken)
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


# The decimal mark of each language, as Babel's locale data (CLDR) has it; numbers are
# written without grouping and with a plain hyphen-minus, so this is all a plain number
# needs (tests hold `_formatted` to Babel's `format_decimal`, value by value).
DECIMAL_MARK = {"en": ".", "fi": ","}
_PLAIN_LIMIT = 1e9        # below it a float rounded to <= 6 places prints exactly as Babel


@lru_cache(maxsize=4096)              # bounded: a long drag formats many distances
def _formatted(rounded: float, digits: int, fixed: bool, lang: str) -> str:
    """`rounded` (already rounded to `digits` places) written out, remembered: the view
    formats the same few numbers every frame. Plain numbers are written here, exactly
    as Babel writes them; the rest (infinite, huge) by Babel itself."""
    if (0 <= digits <= 6 and lang in DECIMAL_MARK and math.isfinite(rounded)
            and abs(rounded) < _PLAIN_LIMIT):
        text = f"{rounded:.{digits}f}"
        if not fixed and "." in text:
            text = text.rstrip("0").rstrip(".")
        return text.replace(".", DECIMAL_MARK[lang])
    return babel_formatted(rounded, digits, fixed, lang)


def babel_formatted(rounded: float, digits: int, fixed: bool, lang: str) -> str:
    """Babel's formatting of a number (its locale data is read at the first call)."""
    from babel.numbers import format_decimal

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
            regex += f"(?P={name})" if name in seen else f"(?P<{name}>.*?)"  # may be empty
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


# the bare words the rules core writes into causes and purposes, and how they are said
CORE_WORDS = {"crash": N_("crash into a wall"), "collision": N_("collision"),
              "fall": N_("fall"), "pit": N_("pit"), "min_move": N_("short of its minimum move"),
              "self-destruct": N_("self-destruct"), "repair": N_("repair"),
              "reload": N_("reload")}


def core_word(text: str) -> str | None:
    """One of the core's bare words (`CORE_WORDS`) in the current language, else None."""
    word = CORE_WORDS.get(text)
    return _(word) if word is not None else None


# template fields that hold one of the format's words (a bot card's locomotion)
FIELD_WORDS = {"loco": {"wheeled": N_("wheeled"), "tracked": N_("tracked"),
                        "walker": N_("walker"), "flier": N_("flier"), "hover": N_("hover")}}


def _value(text: str, depth: int, field: str = "") -> str:
    if _NUMBER.fullmatch(text):
        return number(float(text), 3)
    if text in FIELD_WORDS.get(field, {}):
        return _(FIELD_WORDS[field][text])
    if " " not in text:                 # a name (a bot, a key, a YAML value) stays as it is
        return core_word(text) or text
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
    modifier = _MODIFIER.search(text)    # "<purpose> (+1)": a die's modifier after it
    if modifier and modifier.start() > 0:
        head = _translated(lang, text[:modifier.start()], depth + 1)
        if head != text[:modifier.start()]:
            return head + modifier.group()
    # a die's purpose wraps the text it is rolled for ("<purpose> (1 of 16)"): those
    # templates first, or "...the deck of {deck}" would take "16 (1 of 16)" as the deck
    for wrappers in (True, False):
        for rx, plain in _patterns(lang):
            if ("purpose" in rx.groupindex) != wrappers:
                continue
            m = rx.fullmatch(text)
            if m:
                try:
                    return plain.format(**{k: _value(v, depth, k)
                                           for k, v in m.groupdict().items()})
                except (KeyError, IndexError, ValueError):
                    continue
    for sep in _SEPARATORS:             # "<text> — did you mean 'x'?": each part alone
        head, found, tail = text.partition(sep)
        if found and head:
            return _translated(lang, head, depth + 1) + _translated(lang, sep + tail, depth + 1)
    for msgid, msgstr in _prefixes(lang):  # "one of " + names, "re-roll (R17) " + a purpose
        if text.startswith(msgid):
            return msgstr + _translated(lang, text[len(msgid):], depth + 1)
    return text


_SEPARATORS = (" \u2014 ",)
_MODIFIER = re.compile(r" \([+-]\d+\)$")


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
