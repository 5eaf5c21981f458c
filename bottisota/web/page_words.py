"""The phone pages' words in each phone's language.

A page speaks the language its phone asks for (`page_language`: the page's own
`?lang=` toggle, else the browser's Accept-Language, else the table's). The static
pages mark their texts `{{_("Fit")}}` (filled here, escaped) and `{{lang}}`; phone.js
writes its texts as `tx("{bot} would move {moved} cm", {...})` and reads their
translations from a JSON block the server puts in the page (`{{words}}`). Babel extracts
both (babel.cfg: the JavaScript extractor with keyword `tx`, and `extract` below for the
HTML markers), so the test that every message id is catalogued covers the phones too.
"""
from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from typing import IO, Any

from bottisota.core.i18n import LANGUAGE_NAMES, LANGUAGES, N_, language, translations
from bottisota.viewmodel.words import CARD_WORDS, phase_names

_MARKER = re.compile(r'\{\{_\("((?:[^"\\]|\\.)*)"\)\}\}')
_JS_CALL = re.compile(r'\btx\("((?:[^"\\]|\\.)*)"')
# the values phone.js translates as they come (service choices, phases, card words)
SERVICE_WORDS = (N_("reload"), N_("repair"), N_("rust"), N_("leaflet"), N_("part"))
# the map's feature labels and a planned move's pieces, as the server names them
FEATURE_WORDS = (N_("door"), N_("stairs"), N_("ramp"), N_("escalator"), N_("lift"),
                 N_("pit"), N_("conveyor"), N_("service"), N_("teleporter"), N_("goal"),
                 N_("platform"))
PIECE_WORDS = (N_("forward"), N_("back"), N_("strafe"), N_("turn"), N_("loop"),
               N_("teleport"), N_("carry"))
DECIMAL_SIGN = {"en": ".", "fi": ","}


def page_language(asked: str | None, accept: str | None) -> str:
    """The language a phone's page speaks: `asked` (the page's toggle, `?lang=`) when
    it is one the referee speaks, else the first of the browser's Accept-Language
    (by its q weights) that is, else the table's."""
    if asked in LANGUAGES:
        return str(asked)
    ranked: list[tuple[float, int, str]] = []
    for i, part in enumerate((accept or "").split(",")[:20]):
        tag, _sep, params = part.strip().partition(";")
        code = tag.strip().split("-")[0].lower()
        q = 1.0
        if params.strip().startswith("q="):
            try:
                q = float(params.strip()[2:])
            except ValueError:
                q = 0.0
        if code in LANGUAGES and q > 0:
            ranked.append((-q, i, code))
    return sorted(ranked)[0][2] if ranked else language()


def _unescape(text: str) -> str:
    return str(json.loads(f'"{text}"'))


def fill(page: str, lang: str | None = None) -> str:
    """A static page with its `{{_("...")}}` markers, `{{lang}}` and the language
    toggle's `{{other_lang}}` / `{{other_lang_name}}` filled in, in `lang` (None: the
    table's language)."""
    lang = lang or language()
    other = LANGUAGES[(LANGUAGES.index(lang) + 1) % len(LANGUAGES)]
    tr = translations(lang)
    page = (page.replace("{{lang}}", lang).replace("{{other_lang}}", other)
            .replace("{{other_lang_name}}", LANGUAGE_NAMES[other]))
    return _MARKER.sub(lambda m: _escape(tr.gettext(_unescape(m.group(1)))), page)


def _escape(text: str) -> str:
    """Safe in text and in double-quoted attributes; apostrophes stay as written."""
    return html.escape(text, quote=False).replace('"', "&quot;")


def words(script: str, lang: str | None = None) -> str:
    """The JSON block of the script's `tx("...")` texts and the values it translates,
    in `lang` (None: the table's language; safe inside a <script> element)."""
    lang = lang or language()
    tr = translations(lang)
    ids = {_unescape(m.group(1)) for m in _JS_CALL.finditer(script)}
    ids.update(CARD_WORDS, SERVICE_WORDS, FEATURE_WORDS, PIECE_WORDS, phase_names())
    table: dict[str, str] = {i: tr.gettext(i) for i in sorted(ids)}
    table["."] = DECIMAL_SIGN.get(lang, ".")    # the decimal sign for fmt()
    return json.dumps(table, ensure_ascii=False).replace("<", "\\u003c")


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,   # Any: as Babel calls it
            options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method for the pages' `{{_("...")}}` markers."""
    for lineno, line in enumerate(fileobj.read().decode("utf-8").splitlines(), start=1):
        for m in _MARKER.finditer(line):
            yield lineno, "_", _unescape(m.group(1)), []
