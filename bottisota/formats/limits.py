"""Limits every reader applies before it builds anything: size, encoding,
control characters and nesting depth.

The YAML reader (yaml_source) uses these for every file kind; the one JSON
reader (`json_text`) calls `check_json_text` before `json.loads`, so a deep
`[[[[...` or a 400-digit number is refused with its line and column instead of
recursing or overflowing.
"""
from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from bottisota.core.i18n import N_

MAX_FILE_BYTES = 5 * 1024 * 1024     # files larger than 5 MB are refused unread
MAX_DEPTH = 64                       # nesting of mappings and lists
MAX_NUMBER_CHARS = 40                # characters of one JSON number
_JSON_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]|-?[0-9][0-9.eE+-]*', re.S)


@cache
def _not_printable() -> re.Pattern[str]:
    """Any character but YAML's printable ones (YAML 1.1, 5.1: tab, line breaks and
    everything printable); compiled when first used (6 ms a start from cached content
    saves)."""
    return re.compile("[^\x09\x0A\x0D\x20-\x7E\x85\xA0-\uD7FF\uE000-\uFFFD"
                      "\U00010000-\U0010FFFF]")


class LimitError(ValueError):
    """Input over a limit or unreadable as text; `line` and `column` are 1-based (0: unknown)."""

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(f"{line}:{column}: {message}" if line else message)
        self.message, self.line, self.column = message, line, column


class TooLarge(LimitError):
    """A file over the size limit."""

    def __str__(self) -> str:
        return self.message


def read_limited(path: str | Path, max_bytes: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most `max_bytes` (TooLarge, OSError otherwise).

    Devices and pipes are refused (reading /dev/zero would never end)."""
    path = Path(path)
    if not path.is_file():
        if path.exists():
            raise OSError(0, N_("not a regular file"))
        raise FileNotFoundError(2, N_("no such file"))
    with path.open("rb") as fh:
        data = fh.read(max_bytes + 1)
    if len(data) > max_bytes:
        size = max(path.stat().st_size, len(data))
        raise TooLarge(
                N_("the file is {size:.1f} MB; files over {max_bytes} are refused").format(
                    size=size / 1048576, max_bytes=_megabytes(max_bytes)))
    return data


def _megabytes(n: int) -> str:
    return N_("{n} MB").format(n=n // 1048576) if n >= 1048576 else N_("{n} bytes").format(n=n)


def position(text: str | bytes, offset: int) -> tuple[int, int]:
    """1-based line and column of an offset."""
    if isinstance(text, bytes):
        line = text.count(b"\n", 0, offset) + 1
        start = text.rfind(b"\n", 0, offset) + 1
    else:
        line = text.count("\n", 0, offset) + 1
        start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def decode_text(raw: bytes) -> tuple[str, tuple[int, int, str] | None]:
    """UTF-8 text of a file, or (line, column, why not) for a file that is not text.

    The reason never quotes the file's content."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "", (1, 1, N_("it is UTF-16 text; save it as UTF-8"))
    nul = raw.find(b"\x00")
    if nul >= 0:
        line, column = position(raw, nul)
        return "", (line, column, N_("it holds binary data (a NUL byte), not text"))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as err:
        line, column = position(raw, err.start)
        return "", (line, column,
                N_("byte 0x{v:02X} is not UTF-8; save the file as UTF-8").format(v=raw[err.start]))
    return text.removeprefix("\ufeff"), None


def first_control_character(text: str) -> tuple[int, int, str] | None:
    """(line, column, character) of the first character YAML does not allow, or None."""
    found = _not_printable().search(text)
    if found is None:
        return None
    line, column = position(text, found.start())
    return line, column, found.group()


def line_count(text: str) -> int:
    """How many lines the text has (at least 1)."""
    if not text:
        return 1
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def check_json_text(text: str, max_bytes: int = MAX_FILE_BYTES,
                    max_depth: int = MAX_DEPTH) -> None:
    """Refuse JSON text over the size or depth limit, or with numbers too long to
    be meaningful, before `json.loads` recurses (LimitError with line and column)."""
    if len(text) > max_bytes or len(text.encode("utf-8", "surrogatepass")) > max_bytes:
        raise TooLarge(N_("over {max_bytes}: refused").format(max_bytes=_megabytes(max_bytes)))
    depth = 0
    for token in _JSON_TOKEN.finditer(text):
        first = token.group()[0]
        if first in "[{":
            depth += 1
            if depth > max_depth:
                raise LimitError(
                        N_("nested more than {max_depth} levels deep: refused").format(
                            max_depth=max_depth),
                                 *position(text, token.start()))
        elif first in "]}":
            depth -= 1
        elif first != '"' and len(token.group()) > MAX_NUMBER_CHARS:
            raise LimitError(
                    N_("a number of {group} characters: refused").format(group=len(token.group())),
                             *position(text, token.start()))

