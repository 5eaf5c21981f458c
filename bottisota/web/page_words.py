"""The phone pages' words in the table's language.

The static pages mark their texts `{{_("Fit")}}` (filled here, escaped) and `{{lang}}`;
phone.js writes its texts as `tx("{bot} would move {moved} cm", {...})` and reads their
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

from bottisota.core.i18n import N_, _, language, number
from bottisota.viewmodel.words import CARD_WORDS, phase_names

_MARKER = re.compile(r'\{\{_\("((?:[^"\\]|\\.)*)"\)\}\}')
_JS_CALL = re.compile(r'\btx\("((?:[^"\\]|\\.)*)"')
# the values phone.js translates as they come (service choices, phases, card words)
SERVICE_WORDS = (N_("reload"), N_("repair"), N_("rust"), N_("leaflet"), N_("part"))


def _unescape(text: str) -> str:
    return str(json.loads(f'"{text}"'))


def fill(page: str) -> str:
    """A static page with its `{{_("...")}}` markers and `{{lang}}` filled in."""
    page = page.replace("{{lang}}", language())
    return _MARKER.sub(lambda m: _escape(_(_unescape(m.group(1)))), page)


def _escape(text: str) -> str:
    """Safe in text and in double-quoted attributes; apostrophes stay as written."""
    return html.escape(text, quote=False).replace('"', "&quot;")


def words(script: str) -> str:
    """The JSON block of the script's `tx("...")` texts and the values it translates,
    in the current language (safe inside a <script> element)."""
    ids = {_unescape(m.group(1)) for m in _JS_CALL.finditer(script)}
    ids.update(CARD_WORDS, SERVICE_WORDS, phase_names())
    table: dict[str, str] = {i: _(i) for i in sorted(ids)}
    table["."] = number(1.5)[1]                 # the decimal sign for fmt()
    return json.dumps(table, ensure_ascii=False).replace("<", "\\u003c")


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: Any) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extraction method for the pages' `{{_("...")}}` markers."""
    for lineno, line in enumerate(fileobj.read().decode("utf-8").splitlines(), start=1):
        for m in _MARKER.finditer(line):
            yield lineno, "_", _unescape(m.group(1)), []
