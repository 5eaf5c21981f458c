"""What an arena's maps cost to build, kept on disk for the next process (issue 32).

A robot's navigation grid on an arena of 2,000 features takes seconds to build, the
same in every process that plays on that arena: a second `play`, every `simulate`
run. `cached_build` keeps such a value in the user's cache folder through
`formats.parsed_cache.cached_data` (the same entries, habits and limits as the checked
content files), keyed by everything the value was built from:

- the arena, by `arena_digest`: every feature's every field (shapes as their exact
  WKB bytes) and the table's size, worked out once per arena object;
- the house rules, all of them (a value that reads one rule is keyed by them all);
- what the caller names (the mover's kind and radius...);
- the program (version, Python, core and formats by `program_stamp`), the modules
  that build the value (by name, size and modification time) and the versions of
  Shapely, GEOS and numpy (whose answers the value holds).

An entry that cannot be read, or whose value `check` refuses, is built again and
rewritten; a cache folder that cannot be written only costs the time to build.
"""
from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from bottisota.core.arena import Arena
from bottisota.core.house_rules import HouseRules
from bottisota.formats.parsed_cache import cached_data

T = TypeVar("T")
_DIGEST = "_build_cache_digest"        # the arena's attribute holding its digest
_SKIPPED = frozenset({"line"})          # feature fields no build reads (the source line)
GEOMETRY_CODE = tuple(sorted(str(p) for p in Path(__file__).resolve().parent.glob("*.py")))


def arena_digest(arena: Arena) -> str:
    """A digest of the arena as the rules see it: its size, and each feature's fields in
    order, shapes as their exact WKB bytes (kept on the arena object: an arena is not
    changed once loaded)."""
    found = arena.__dict__.get(_DIGEST)
    if isinstance(found, str):
        return found
    h = hashlib.sha256()
    h.update(repr(tuple(float(v) for v in arena.size)).encode())
    for feature in arena.features:
        h.update(b"\x00feature")
        for f in dataclasses.fields(feature):
            if f.name in _SKIPPED:
                continue
            value = getattr(feature, f.name)
            h.update(b"\x00" + f.name.encode() + b"=")
            if isinstance(value, BaseGeometry):
                wkb = shapely.to_wkb(value, hex=False, byte_order=1, output_dimension=3)
                h.update(b"wkb%d:" % len(wkb) + wkb)
            else:
                h.update(repr(value).encode("utf-8", "surrogatepass"))
    digest = h.hexdigest()
    arena.__dict__[_DIGEST] = digest
    return digest


def _libraries() -> str:
    """The versions of the libraries whose answers a value holds (Shapely, GEOS, numpy)."""
    return repr((shapely.__version__, shapely.geos_version_string, np.__version__))


def build_key(arena: Arena, rules: HouseRules, params: tuple[object, ...]) -> bytes:
    """The bytes naming a value built from this arena, these rules and `params`."""
    rule_values = tuple((f.name, getattr(rules, f.name)) for f in dataclasses.fields(rules))
    return repr((arena_digest(arena), rule_values, params, _libraries())).encode(
        "utf-8", "surrogatepass")


def cached_build(kind: str, arena: Arena, rules: HouseRules, params: tuple[object, ...],
                 code: Sequence[str | Path], build: Callable[[], T],
                 check: Callable[[object], bool]) -> T:
    """`build()`, or the value it made before for this arena, rules and `params` under
    the same program and `code` (see the module's text), when `check` accepts it."""
    return cached_data(kind, build_key(arena, rules, params), code, build, check)
