"""The compiled arena: one `ArenaIndex` per (arena, house rules), built on first use.

Every per-arena cache (grown obstacles, door unions, move and shot geometry,
navigation fields: `ArenaIndex.cached`) hangs off the `ArenaIndex`, so it lives
exactly as long as the arena does and two arenas never share one.

The compiled arenas are held by the arena itself (a private attribute, a cache:
the arena's value is unchanged), so they are freed with it: a table held in a
module would keep every arena alive, because a compiled arena refers to its
arena. House rules are matched by value: every game of a simulation makes its
own rules object (its round limit) and still shares one compiled arena.
"""
from __future__ import annotations

from bottisota.core.arena import Arena
from bottisota.core.house_rules import HouseRules
from bottisota.geometry.arena_index import ArenaIndex

_HELD = "_compiled_arenas"       # the arena's attribute holding its compiled forms
_RECENT = 64                     # rules objects remembered by identity (a fast path)


class _Compiled:
    """An arena's compiled forms: by rules value, and the last few rules objects
    by identity (each held, so its id cannot be reused while it is here)."""

    __slots__ = ("by_value", "by_id")

    def __init__(self) -> None:
        self.by_value: dict[HouseRules, ArenaIndex] = {}
        self.by_id: dict[int, tuple[HouseRules, ArenaIndex]] = {}


def compile_arena(arena: Arena, rules: HouseRules) -> ArenaIndex:
    """The compiled geometry of `arena` under `rules` (kept while the arena lives)."""
    held = arena.__dict__.get(_HELD)
    if held is None:
        held = arena.__dict__[_HELD] = _Compiled()
    fast = held.by_id.get(id(rules))
    if fast is not None and fast[0] is rules:
        return fast[1]
    index = held.by_value.get(rules)
    if index is None:
        index = held.by_value[rules] = ArenaIndex(arena, rules)
    if len(held.by_id) >= _RECENT:
        held.by_id.clear()
    held.by_id[id(rules)] = (rules, index)
    return index
