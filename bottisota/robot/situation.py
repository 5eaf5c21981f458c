"""What a robot sees before it rolls: the facts its tables' conditions ask about.

Facts are computed lazily (sight lines cost more than distances), so a rule
whose first condition fails never pays for the others.
"""
from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cached_property
from typing import Any

import numpy as np
from shapely.geometry import Point

from bottisota.core.compass import heading
from bottisota.core.compass import signed_off as angle_off
from bottisota.engine.state import Bot, GameState
from bottisota.geometry.arena_index import Disc
from bottisota.robot.aim import any_weapon_at


def bearing(ax: float, ay: float, bx: float, by: float) -> float:
    """Facing (D2) from a to b, degrees in [0, 360)."""
    return heading(bx - ax, by - ay)


def discs(state: GameState, skip: tuple[str, ...] = ()) -> list[Disc]:
    """The bots on the table as sight obstacles."""
    return [Disc(b.id, b.x, b.y, b.radius, b.z, b.stats.height)
            for b in state.live_bots() if b.id not in skip]


def can_see(state: GameState, a: Bot, b: Bot) -> bool:
    """Sight from a's top to b's middle (R22, R38, D15), other bots blocking."""
    return sees(state, [(a, b)])[0]


class _SightRows:
    """One state's sight between bots as the robots ask it, row by row: the first
    row (a decision's own) is answered line by line in a batch; once the rows asked
    in this state pass one row's worth of lines, every pair is worked out in one
    `sight_all` (a row's lines cost about a tenth of it) and the rest are read from
    it. Keyed by every live bot as a sight obstacle sees it, so a move, a fall or a
    destroyed bot starts a new one."""

    __slots__ = ("key", "discs", "asked", "matrix")

    def __init__(self, key: tuple[tuple[str, float, float, float, float, float], ...]) -> None:
        self.key = key
        self.discs = tuple(Disc(*k) for k in key)
        self.asked = 0
        self.matrix: list[list[bool]] | None = None     # sight_all's rows, as lists


def _no_rows() -> list[_SightRows | None]:
    return [None]


def sees(state: GameState, pairs: list[tuple[Bot, Bot]]) -> list[bool]:
    """`can_see` for many (shooter, target) pairs (the bots holding a line's ends are
    not obstacles to it): the same answers as one batched `sight_many` query, shared
    between the robots asking in the same state (`_SightRows`). A pair whose bots are
    not the state's live bots themselves (a copy moved elsewhere) is asked alone."""
    if not pairs:
        return []
    live = state.live_bots()
    key = tuple([(b.id, b.x, b.y, b.radius, b.z, b.stats.height) for b in live])
    holder = state.index.cached(("robot", "sight-rows"), _no_rows)
    memo = holder[0]
    if memo is None or memo.key != key:
        memo = _SightRows(key)
        holder[0] = memo
    slot = {id(b): k for k, b in enumerate(live)}
    where = [(slot.get(id(a)), slot.get(id(b))) for a, b in pairs]
    if all(i is not None and j is not None and i != j for i, j in where):
        matrix = memo.matrix
        if matrix is None:
            memo.asked += len(pairs)
            if memo.asked > len(key) - 1:
                matrix = memo.matrix = state.index.sight_all(memo.discs).tolist()
        if matrix is not None:
            return [matrix[i][j] for i, j in where]  # type: ignore[index]
    return sees_line_by_line(state, pairs, memo.discs)


def sees_line_by_line(state: GameState, pairs: list[tuple[Bot, Bot]],
                      ds: Sequence[Disc] | None = None) -> list[bool]:
    """`sees` as one batched sight query of these lines alone (nothing shared)."""
    if not pairs:
        return []
    rows = np.array([(a.x, a.y, a.z + a.stats.height, b.x, b.y, b.z + b.stats.height / 2.0)
                     for a, b in pairs], dtype=float)
    return state.index.sight_many(rows, discs=discs(state) if ds is None else ds)


def seen_from(state: GameState, watchers: list[Bot], x: float, y: float,
              z_mid: float) -> list[bool]:
    """For each watcher: does it see a bot's middle at (x, y, z_mid) (R22, D15)?
    The bots standing there are obstacles unless they hold a line's end."""
    if not watchers:
        return []
    rows = np.array([(e.x, e.y, e.z + e.stats.height, x, y, z_mid) for e in watchers],
                    dtype=float)
    return state.index.sight_many(rows, discs=discs(state))


def in_nose_arc(state: GameState, a: Bot, x: float, y: float) -> bool:
    """The point lies in a's front arc (R19)."""
    return abs(angle_off(a.facing, bearing(a.x, a.y, x, y))) <= state.rules.nose_arc / 2.0


class Situation:
    """The facts about one bot's position, as its table conditions name them.

    `focus` is the enemy the facts `range` and `in_arc` are about: the nearest
    enemy for a turn, the mover for an overwatch answer.
    """

    def __init__(self, state: GameState, bot: Bot, focus: Bot | None = None) -> None:
        self.state = state
        self.bot = bot
        self._focus = focus

    @cached_property
    def enemies(self) -> list[Bot]:
        return [b for b in self.state.live_bots() if b.player != self.bot.player]

    @cached_property
    def focus(self) -> Bot | None:
        if self._focus is not None:
            return self._focus
        if not self.enemies:
            return None
        return min(self.enemies, key=lambda e: (self.bot.distance_to(e), e.id))

    @cached_property
    def range(self) -> float | None:
        return None if self.focus is None else self.bot.distance_to(self.focus)

    @cached_property
    def in_arc(self) -> bool:
        f = self.focus
        return f is not None and in_nose_arc(self.state, self.bot, f.x, f.y)

    @cached_property
    def visible(self) -> list[Bot]:
        seen = sees(self.state, [(self.bot, e) for e in self.enemies])
        return [e for e, yes in zip(self.enemies, seen, strict=True) if yes]

    @cached_property
    def in_sight(self) -> bool:
        return bool(self.visible)

    @cached_property
    def in_reach(self) -> bool:
        return any_weapon_at(self.state, self.bot, self.enemies)

    @property
    def damage_left(self) -> float:
        return self.bot.stats.structure - self.bot.damage

    @property
    def ammo_out(self) -> bool:
        return any(w.ammo is not None and self.bot.ammo.get(w.name, w.ammo) <= 0
                   for w in self.bot.stats.weapons)

    @cached_property
    def watched(self) -> bool:
        reach = self.state.rules.overwatch_range
        near = [e for e in self.enemies if e.overwatch and self.bot.distance_to(e) <= reach]
        return any(sees(self.state, [(e, self.bot) for e in near]))

    @cached_property
    def goal_distance(self) -> float | None:
        live = [g for g in self.state.goals if not g.taken]
        if not live:
            return None
        return min(math.hypot(g.x - self.bot.x, g.y - self.bot.y) for g in live)

    @cached_property
    def service_distance(self) -> float | None:
        points = self.state.arena.by_type("service")
        if not points:
            return None
        return min(float(f.shape.centroid.distance(_point(self.bot.x, self.bot.y)))
                   for f in points)

    @cached_property
    def on_service(self) -> bool:
        return bool(self.state.index.features_at(self.bot.x, self.bot.y, ("service",)))

    def fact(self, key: str) -> Any:
        """The value a condition key asks about (Any: each is compared with a value
        read from the personality's YAML file, whose type its key decides)."""
        b = self.bot
        if key == "first_round":
            return self.state.round <= 1
        if key == "new_bot":
            return b.new
        if key == "range":
            return self.range
        if key == "damage_left":
            return self.damage_left
        if key == "damaged":
            return b.damage > 0
        if key == "enemies":
            return len(self.enemies)
        if key == "locomotion":
            return b.stats.locomotion
        if key == "has":
            return {w.kind for w in b.stats.weapons}
        if key == "goal_within":
            return self.goal_distance
        if key == "service_within":
            return self.service_distance
        return getattr(self, key)

    def holds(self, key: str, wanted: Any) -> bool:
        """Whether one condition holds (`wanted`: Any, the table's YAML value)."""
        value = self.fact(key)
        if key in ("range", "damage_left", "enemies"):
            if value is None:
                return False
            lo, hi = wanted
            return value >= lo and (hi is None or value < hi)
        if key in ("goal_within", "service_within"):
            return value is not None and value <= wanted
        if key == "locomotion":
            return value in wanted
        if key == "has":
            return any(k in value for k in wanted)
        return bool(value) == bool(wanted)

    def matches(self, when: dict[str, Any]) -> bool:
        """All the rule's conditions hold (`when`: Any, read from the YAML file)."""
        return all(self.holds(k, v) for k, v in when.items())


def _point(x: float, y: float) -> Point:
    return Point(x, y)
