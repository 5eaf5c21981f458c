"""Text from files made safe to print or draw: control and format characters (a NUL,
a terminal escape, a bidirectional override) are shown as escapes, never passed on.

The file formats refuse such characters in ids and names (`formats.spec_types.Text`);
this is what every place that prints or draws text from outside applies to what
remains (a player's name given on the command line, an old journal, a message that
quotes a refused value).
"""
from __future__ import annotations

import re
import unicodedata

_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f"
                     r"\ufeff\ufff9-\ufffb\ud800-\udfff]")


def unsafe_character(text: str, lines_ok: bool = False) -> int | None:
    """The index of the first character that is not printable text (a control, format,
    private-use or unassigned character; with `lines_ok`, line breaks and tabs pass),
    or None."""
    for k, char in enumerate(text):
        if lines_ok and char in "\n\t":
            continue
        if char < " " or unicodedata.category(char)[0] == "C":
            return k
    return None


def _escaped(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(text: str, lines_ok: bool = False) -> str:
    """The text with every control and format character written as an escape (\\x1b,
    \\u202e); with `lines_ok`, line breaks and tabs are kept."""
    if lines_ok:
        return _UNSAFE.sub(lambda m: m.group() if m.group() in "\n\t" else _escaped(m), text)
    return _UNSAFE.sub(_escaped, text)
