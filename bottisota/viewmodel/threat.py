"""Threat view, as data: how many enemy weapons could reach each spot of the table
right now, and which overwatchers cover it.

Each cell asks the core (`weapons_that_bear`) about the viewing bot standing at the
cell's centre; nothing is judged here. It is computed within a time budget per
frame: a coarse grid first (every cell of COARSE_CM), then the fine one (CELL_CM),
and kept until the game state changes (`state_key`). All the per-cell questions go
through `cell_threat`, the one place to switch to a batched sight query.
"""
from __future__ import annotations

import math
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from bottisota.engine.setup import floor_height
from bottisota.engine.shooting.targeting import weapons_that_bear
from bottisota.engine.state import GameState

CELL_CM = 4.0            # the fine grid
COARSE_CM = 12.0         # the first pass
BUDGET_MS = 4.0          # per frame


@dataclass
class ThreatCell:
    x: float
    y: float
    size: float                       # cm, the cell's side
    weapons: int                      # enemy weapons that could fire at the viewer here
    watchers: tuple[str, ...] = ()    # overwatchers that would fire here
    shooters: tuple[str, ...] = ()    # the enemy bots that could fire here


@dataclass
class ThreatMap:
    """Threat cells for one viewing bot in one state (`key` says which)."""

    key: tuple
    viewer: str
    most: int = 1                     # every enemy weapon: the scale of the shading
    cells: list[ThreatCell] = field(default_factory=list)
    done: bool = False
    coarse_done: bool = False
    _work: Iterator[ThreatCell] | None = None
    _cell_s: float = 0.0              # the slowest recent cell, seconds

    def fill(self, budget_ms: float = BUDGET_MS) -> int:
        """Compute cells until the budget is spent; returns how many were added."""
        if self.done or self._work is None:
            return 0
        start = time.process_time()
        end = start + budget_ms / 1000.0
        added = 0
        while True:
            t0 = time.process_time()
            if added and t0 + self._cell_s > end:     # the next cell would overrun the budget
                return added
            try:
                cell = next(self._work)
            except StopIteration:
                self.done = True
                self._work = None
                return added
            took = time.process_time() - t0
            self._cell_s = max(took, 0.8 * self._cell_s + 0.2 * took)
            if cell.size <= CELL_CM and not self.coarse_done:
                self.coarse_done = True
            self.cells.append(cell)
            added += 1
            if time.process_time() >= end:
                return added

    def at(self, x: float, y: float) -> ThreatCell | None:
        """The finest computed cell holding a point."""
        best = None
        for c in self.cells:
            if abs(c.x - x) <= c.size / 2 and abs(c.y - y) <= c.size / 2:
                if best is None or c.size < best.size:
                    best = c
        return best


def state_key(state: GameState) -> tuple:
    """What the threat depends on: every bot's pose and status, the round and phase."""
    return (state.round, state.phase, state.active,
            tuple((b.id, round(b.x, 4), round(b.y, 4), round(b.facing, 2), b.z, b.overwatch,
                   b.on_table, b.leaflet, tuple(sorted(b.ammo.items())))
                  for b in state.bots.values()))


def cell_threat(state: GameState, viewer_id: str, enemies: list, x: float, y: float
                ) -> tuple[int, tuple[str, ...], tuple[str, ...]]:
    """(weapons, watchers, shooters) for the viewer standing at (x, y)."""
    viewer = state.bots[viewer_id]
    pose = (x, y, floor_height(state, x, y), viewer.facing)
    count = 0
    watchers, shooters = [], []
    for e in enemies:
        n = len(weapons_that_bear(state, e.id, viewer.id, target_pose=pose))
        count += n
        if n:
            shooters.append(e.id)
        if e.overwatch and weapons_that_bear(state, e.id, viewer.id, overwatch=True,
                                             target_pose=pose):
            watchers.append(e.id)
    return count, tuple(watchers), tuple(shooters)


def _grid(tw: float, th: float, size: float) -> Iterator[tuple[float, float]]:
    nx, ny = max(1, math.ceil(tw / size)), max(1, math.ceil(th / size))
    for j in range(ny):
        for i in range(nx):
            x, y = (i + 0.5) * size, (j + 0.5) * size
            if x <= tw + size / 2 and y <= th + size / 2:
                yield min(x, tw), min(y, th)


def _cells(state: GameState, viewer_id: str) -> Iterator[ThreatCell]:
    viewer = state.bots[viewer_id]
    enemies = [b for b in state.live_bots() if b.player != viewer.player]
    tw, th = state.arena.size
    for size in (COARSE_CM, CELL_CM):
        for x, y in _grid(tw, th, size):
            count, watchers, shooters = cell_threat(state, viewer_id, enemies, x, y)
            yield ThreatCell(x, y, size, count, watchers, shooters)


def threat_map(state: GameState, viewer_id: str) -> ThreatMap:
    """A new, empty threat map that fills itself with `fill()`."""
    viewer = state.bots[viewer_id]
    most = sum(len(b.stats.weapons) for b in state.live_bots() if b.player != viewer.player)
    tm = ThreatMap(key=(viewer_id, state_key(state)), viewer=viewer_id, most=max(1, most))
    tm._work = _cells(state, viewer_id)
    return tm


def hover_words(tm: ThreatMap, x: float, y: float) -> str | None:
    """"3 bots can hit here: b1, b2, b3" for the cell under the pointer."""
    c = tm.at(x, y)
    if c is None:
        return None
    if not c.shooters:
        text = "no enemy can hit here"
    else:
        n = len(c.shooters)
        text = (
            f"{n} bot{'s' if n != 1 else ''} can hit here "
            f"({c.weapons} weapon{'s' if c.weapons != 1 else ''}): "
            + ", ".join(c.shooters)
        )
    if c.watchers:
        text += "; overwatch: " + ", ".join(c.watchers)
    return text
