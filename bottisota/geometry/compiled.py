"""The compiled arena: one `ArenaIndex` per (arena, house rules), built on first use.

Every per-arena cache (grown obstacles, door unions, move and shot geometry,
navigation fields) hangs off the `ArenaIndex`, so it lives exactly as long as
the arena does and two arenas never share one.
"""
from __future__ import annotations

import weakref

from bottisota.core.arena import Arena
from bottisota.core.house_rules import HouseRules
from bottisota.geometry.arena_index import ArenaIndex

_COMPILED: "weakref.WeakKeyDictionary[Arena, dict[int, tuple[HouseRules, ArenaIndex]]]" = (
    weakref.WeakKeyDictionary())


def compile_arena(arena: Arena, rules: HouseRules) -> ArenaIndex:
    """The compiled geometry of `arena` under `rules` (kept while the arena lives)."""
    per_rules = _COMPILED.setdefault(arena, {})
    held = per_rules.get(id(rules))
    if held is None or held[0] is not rules:
        held = (rules, ArenaIndex(arena, rules))
        per_rules[id(rules)] = held
    return held[1]
