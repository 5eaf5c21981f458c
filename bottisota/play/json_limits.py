"""JSON read behind the formats' limits (`bottisota.formats.limits`): nesting depth and
number length are checked on the text before `json.loads` recurses, and only finite
numbers are accepted.

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
from typing import Any

try:        # a quicker decoder of the same JSON (see loads_limited); optional
    import orjson
except ImportError:  # pragma: no cover - the standard decoder alone
    orjson = None  # type: ignore[assignment]

from bottisota.core.i18n import N_
from bottisota.formats.limits import MAX_DEPTH, MAX_NUMBER_CHARS, LimitError
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


class JsonLimitError(ValueError):
    """JSON over a limit or not JSON; `column` is 1-based (0: unknown)."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(
                N_("{message} at column {column}").format(
                    message=message, column=column) if column else message)
        self.message, self.column = message, column


def check_json_text(text: str, max_depth: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than `max_depth` and numbers longer than the formats'
    limit (JsonLimitError with the column)."""
    if text.count("[") + text.count("{") <= max_depth and _LONG_RUN.search(text) is None:
        return                      # cannot be too deep, holds no long number
    try:
        _check_tokens(text, max_bytes=MAX_TEXT_BYTES, max_depth=max_depth)
    except LimitError as err:
        raise JsonLimitError(err.message.removesuffix(N_(": refused")), err.column) from None


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


def loads_limited(text: str, max_depth: int = MAX_DEPTH, raw: bytes | None = None) -> Any:
    """`json.loads` behind the limits: NaN, Infinity and numbers that overflow to
    infinity are refused; any refusal is a JsonLimitError (a ValueError). `raw`:
    the same text as UTF-8 bytes, when the caller has them (quicker checks)."""
    if raw is None:
        check_json_text(text, max_depth)
        decoder = _CHECKED
    else:
        if text.count("[") + text.count("{") > max_depth and _may_be_deeper(raw, max_depth) \
                or _LONG_RUN_BYTES in raw.translate(_RUN_TABLE):
            check_json_text(text, max_depth)
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
        raise JsonLimitError(err.msg, err.colno) from None
    except (ValueError, RecursionError) as err:
        raise JsonLimitError(N_("not readable: {err}").format(err=err)) from None
    return value
