"""The one JSON reader: every JSON the program reads (journal lines, the display and
camera calibration files, the seat tokens' file, phone messages) goes through
`loads_limited`, `loads_json` or `read_json_file` (a file's refusal as an InputError
naming file, line and column). Size, nesting depth and number length are checked on the text before
`json.loads` recurses (a `[[[[...` 100,000 deep is refused at its column, never a
RecursionError), and only finite numbers are accepted (NaN, Infinity and `1e400`
refused). A key given twice keeps its last value, as `json` and orjson both do.

The journal reads and writes each line through here. A line with few brackets and
no long run of digits (most action lines) passes without the token scan; a line
with no number in exponent form (`1e400`) cannot hold one that overflows, so its
numbers are read by `json` itself, without a check for each. A line with no whole
number of 18 digits or more is read by orjson when it is installed (three times
quicker, the very same values: tests/test_journal_replay_speed.py; orjson refuses
a number out of range, where `json` reads infinity); what orjson refuses is read
by `json`, which reads it or refuses it in its own words.
"""
from __future__ import annotations

import json
import math
import re
from array import array
from itertools import accumulate
from typing import Any  # Any: JSON values as parsed from outside text

try:        # a quicker decoder of the same JSON (see loads_limited); optional
    import orjson
except ImportError:  # pragma: no cover - the standard decoder alone
    orjson = None  # type: ignore[assignment]

from pathlib import Path

from bottisota.core.errors import InputError, Problem
from bottisota.core.i18n import N_
from bottisota.formats.limits import (
    MAX_DEPTH,
    MAX_FILE_BYTES,
    MAX_NUMBER_CHARS,
    LimitError,
    decode_text,
    read_limited,
)
from bottisota.formats.limits import check_json_text as _check_tokens

MAX_TEXT_BYTES = 16 * 1024 * 1024     # one journal line (the caller caps it first)
_LONG_RUN = re.compile(r"[-+0-9.eE]{" + str(MAX_NUMBER_CHARS + 1) + ",}")
# the same question of the text as bytes, by translation (one C pass): number
# characters -> "1", others -> " "; a long run is "1" * 41
_RUN_TABLE = bytes(0x31 if chr(b) in "-+0123456789.eE" else 0x20 for b in range(256))
_LONG_RUN_BYTES = b"1" * (MAX_NUMBER_CHARS + 1)
# A number of at most 40 characters overflows only with an exponent of 3 digits or
# more, not negative: digits -> "0", e/E -> "e", "+" -> "s", others -> " ", and
# such a number holds "0e000" or "0es000" (the check for each number is made then)
_EXP_TABLE = bytes(0x30 if 48 <= b <= 57 else 0x65 if b in (69, 101) else 0x73 if b == 43
                   else 0x20 for b in range(256))
# brackets as steps of depth (opening 1, closing -1 as a signed byte); what is not a
# bracket or a quote is deleted first
# digits as "0" in that shape: a whole number of 18 digits or more may be past the
# 64-bit range that orjson reads as a whole number (beyond it, it reads a float)
_MANY_DIGITS = b"0" * 18
_DEPTH_TABLE = bytes(1 if b in b"[{" else 0xFF if b in b"]}" else 0 for b in range(256))
_NOT_MARKS = bytes(b for b in range(256) if b not in b'[]{}"')


# the token scan's refusals (formats.limits) less their ": refused", as a JSON
# reader says them before where they are: catalogued in these words
_SAID_WITH_WHERE = (N_("nested more than {max_depth} levels deep"),
                    N_("a number of {group} characters"), N_("over {max_bytes}"))


class JsonLimitError(ValueError):
    """JSON over a limit or not JSON: one sentence; `line` and `column` are 1-based
    (0: unknown; the line is named only past the first)."""

    def __init__(self, message: str, column: int = 0, line: int = 0) -> None:
        if line > 1 and column:
            said = N_("{message} at line {line}, column {column}").format(
                    message=message, line=line, column=column)
        elif column:
            said = N_("{message} at column {column}").format(message=message, column=column)
        else:
            said = message
        super().__init__(said)
        self.message, self.column, self.line = message, column, line


def check_json_text(text: str, max_depth: int = MAX_DEPTH,
                    max_bytes: int = MAX_TEXT_BYTES) -> None:
    """Refuse text over `max_bytes`, nesting deeper than `max_depth` and numbers longer
    than the formats' limit (JsonLimitError with the line and column)."""
    if len(text) <= max_bytes // 4 and _LONG_RUN.search(text) is None and (
            text.count("[") + text.count("{") <= max_depth
            or not _may_be_deeper(text.encode("utf-8", "surrogatepass"), max_depth)):
        return                      # not too large, not too deep, no long number
    try:
        _check_tokens(text, max_bytes=max_bytes, max_depth=max_depth)
    except LimitError as err:
        raise JsonLimitError(err.message.removesuffix(N_(": refused")), err.column,
                             err.line) from None


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonLimitError(
                N_("the number {v} is out of range").format(v=text[:MAX_NUMBER_CHARS]))
    return value


def _no_constant(name: str) -> Any:
    raise JsonLimitError(N_("{name} is not a number this program accepts").format(name=name))


_CHECKED = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)
_PLAIN = json.JSONDecoder(parse_constant=_no_constant)


def _may_be_deeper(raw: bytes, max_depth: int) -> bool:
    """Whether the text may nest deeper than `max_depth` (False: it does not), as the
    token scan counts it: brackets outside strings. In a text with no backslash and an
    even number of quotes, the strings lie between quote pairs; any other text (and
    one over the size limit) is left to the token scan."""
    if b"\\" in raw or raw.count(b'"') % 2 or len(raw) > MAX_TEXT_BYTES:
        return True
    # the brackets and quotes; two quotes side by side go together (an empty string,
    # or nothing between two strings): every other mark stays inside or outside
    marks = raw.translate(None, _NOT_MARKS).replace(b'""', b"")
    if b'"' in marks:
        marks = b"".join(marks.split(b'"')[::2])
    return max(accumulate(array("b", marks.translate(_DEPTH_TABLE))), default=0) > max_depth


def loads_limited(text: str, max_depth: int = MAX_DEPTH, raw: bytes | None = None,
                  max_bytes: int = MAX_TEXT_BYTES) -> Any:
    """`json.loads` behind the limits: text over `max_bytes` or nested deeper than
    `max_depth`, NaN, Infinity and numbers that overflow to infinity are refused; any
    refusal is a JsonLimitError (a ValueError). `raw`: the same text as UTF-8 bytes,
    when the caller has them (quicker checks)."""
    if raw is None:
        check_json_text(text, max_depth, max_bytes)
        decoder = _CHECKED
    else:
        if len(raw) > max_bytes or text.count("[") + text.count("{") > max_depth \
                and _may_be_deeper(raw, max_depth) \
                or _LONG_RUN_BYTES in raw.translate(_RUN_TABLE):
            check_json_text(text, max_depth, max_bytes)
        shape = raw.translate(_EXP_TABLE)
        decoder = _CHECKED if b"0e000" in shape or b"0es000" in shape else _PLAIN
        if orjson is not None and _MANY_DIGITS not in shape and not text.startswith("\ufeff"):
            # orjson gives what `json` gives for such a text (no whole number past 64
            # bits); it refuses a number out of range (`json` reads infinity): what it
            # refuses, `json` reads or refuses in its own words
            try:
                return orjson.loads(raw)
            except ValueError:
                pass
    try:
        if text.startswith("\ufeff"):       # refused by json.loads in its own words
            value = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
        else:
            value = decoder.decode(text)
    except JsonLimitError:
        raise
    except json.JSONDecodeError as err:
        raise JsonLimitError(err.msg, err.colno, err.lineno) from None
    except (ValueError, RecursionError) as err:
        raise JsonLimitError(N_("not readable: {err}").format(err=err)) from None
    return value


def loads_json(text: str, max_bytes: int = MAX_FILE_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """A JSON text of at most `max_bytes` (a file's limit) behind the limits."""
    return loads_limited(text, max_depth, max_bytes=max_bytes)


def read_json_file(path: str | Path, max_bytes: int = MAX_FILE_BYTES,
                   max_depth: int = MAX_DEPTH) -> Any:
    """A JSON file's value behind the limits; a file that cannot be read or is not such
    JSON is an InputError with one problem (file, line, column when known, why)."""
    name = str(path)
    try:
        data = read_limited(path, max_bytes)
    except LimitError as err:
        raise InputError([Problem(name, 0, 0, "", err.message)]) from None
    except OSError as err:
        raise InputError([Problem(name, 0, 0, "", err.strerror or type(err).__name__)]) \
            from None
    text, bad = decode_text(data)
    if bad is not None:
        raise InputError([Problem(name, *bad[:2], "", bad[2])])
    try:
        return loads_limited(text, max_depth, max_bytes=max_bytes)
    except JsonLimitError as err:
        raise InputError([Problem(name, max(err.line, 1 if err.column else 0), err.column,
                                  "", N_("not JSON this program reads: {why}").format(
                                      why=err.message))]) from None
