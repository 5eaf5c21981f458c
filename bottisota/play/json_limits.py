"""JSON read behind limits: nesting depth and number length are checked on the text
before `json.loads` recurses, and only finite numbers are accepted.

The journal reads each line through `loads_limited`. The formats layer's JSON
limit check (when it offers one with the same contract: ValueError naming the
column) can stand in for `check_json_text` without other changes.
"""
from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np

MAX_DEPTH = 64               # nesting of objects and lists
MAX_NUMBER_CHARS = 40        # characters of one number (a double needs at most 24)

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_LONG_NUMBER = re.compile(r"[-+0-9.eE]{" + str(MAX_NUMBER_CHARS + 1) + ",}")
_OPEN = np.zeros(256, np.int8)
_OPEN[[ord("["), ord("{")]] = 1
_OPEN[[ord("]"), ord("}")]] = -1


class JsonLimitError(ValueError):
    """JSON over a limit or not JSON; `column` is 1-based (0: unknown)."""

    def __init__(self, message: str, column: int = 0) -> None:
        super().__init__(f"{message} at column {column}" if column else message)
        self.message, self.column = message, column


def _blank_strings(text: str) -> str:
    return _STRING.sub(lambda m: '"' + " " * (len(m.group()) - 2) + '"', text)


def check_json_text(text: str, max_depth: int = MAX_DEPTH) -> None:
    """Refuse nesting deeper than `max_depth` and numbers longer than MAX_NUMBER_CHARS,
    in time linear in the text (strings are blanked first, so brackets and digits
    inside them do not count; a text with few brackets and no long digit run is
    passed at once)."""
    bare = None
    if text.count("[") + text.count("{") > max_depth:
        bare = _blank_strings(text)
        raw = bare.encode("ascii", "replace")      # one byte per character: columns line up
        depth = np.cumsum(_OPEN[np.frombuffer(raw, np.uint8)], dtype=np.int64)
        if int(depth.max()) > max_depth:
            column = int(np.argmax(depth > max_depth)) + 1
            raise JsonLimitError(f"nested more than {max_depth} levels deep", column)
    if _LONG_NUMBER.search(text) is not None:
        bare = bare if bare is not None else _blank_strings(text)
        long = _LONG_NUMBER.search(bare)
        if long is not None:
            raise JsonLimitError(f"a number of {len(long.group())} characters (at most "
                                 f"{MAX_NUMBER_CHARS})", long.start() + 1)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise JsonLimitError(f"the number {text[:MAX_NUMBER_CHARS]} is out of range")
    return value


def _no_constant(name: str) -> Any:
    raise JsonLimitError(f"{name} is not a number this program accepts")


def loads_limited(text: str, max_depth: int = MAX_DEPTH) -> Any:
    """`json.loads` behind the limits: NaN, Infinity and numbers that overflow to
    infinity are refused; any refusal is a JsonLimitError (a ValueError)."""
    check_json_text(text, max_depth)
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except JsonLimitError:
        raise
    except json.JSONDecodeError as err:
        raise JsonLimitError(err.msg, err.colno) from None
    except (ValueError, RecursionError) as err:
        raise JsonLimitError(f"not readable: {err}") from None
