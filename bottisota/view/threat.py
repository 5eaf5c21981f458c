"""Threat view: how many enemy weapons could reach each spot of the table right now,
and which overwatchers cover it.

Each cell asks the core (`rules.targeting.weapons_that_bear`) about the viewing
bot standing at the cell's centre; nothing is judged here. The grid is coarse,
filled a few cells per frame, and kept until the game state changes.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator

import pygame

from bottisota.engine.state import GameState
from bottisota.view.camera import Camera
from bottisota.view.style import REFUSAL

CELL_CM = 4.0            # threat grid cell, cm
CELLS_PER_FRAME = 60     # cells computed per frame while filling
MAX_ALPHA = 150


@dataclass
class ThreatCell:
    x: float
    y: float
    weapons: int                      # enemy weapons that could fire at the viewer here
    watchers: tuple[str, ...] = ()    # overwatchers that would fire here


@dataclass
class ThreatMap:
    """Threat cells for one viewing bot in one state (`key` says which)."""

    key: tuple
    viewer: str
    cells: list[ThreatCell] = field(default_factory=list)
    done: bool = False
    _work: Iterator[ThreatCell] | None = None

    def fill(self, budget: int = CELLS_PER_FRAME) -> None:
        """Compute up to `budget` more cells."""
        if self.done or self._work is None:
            return
        for _ in range(budget):
            try:
                self.cells.append(next(self._work))
            except StopIteration:
                self.done = True
                self._work = None
                return

    def at(self, x: float, y: float) -> ThreatCell | None:
        """The cell holding a point, once computed."""
        for c in self.cells:
            if abs(c.x - x) <= CELL_CM / 2 and abs(c.y - y) <= CELL_CM / 2:
                return c
        return None


def state_key(state: GameState) -> tuple:
    """What the threat depends on: every bot's pose and status, the round and phase."""
    return (state.round, state.phase, state.active,
            tuple((b.id, round(b.x, 4), round(b.y, 4), round(b.facing, 2), b.z, b.overwatch,
                   b.on_table, b.leaflet, tuple(sorted(b.ammo.items())))
                  for b in state.bots.values()))


def _cells(state: GameState, viewer_id: str) -> Iterator[ThreatCell]:
    from bottisota.engine.setup import floor_height
    from bottisota.engine.shooting.targeting import weapons_that_bear

    viewer = state.bots[viewer_id]
    enemies = [b for b in state.live_bots() if b.player != viewer.player]
    tw, th = state.arena.size
    nx, ny = max(1, math.ceil(tw / CELL_CM)), max(1, math.ceil(th / CELL_CM))
    for i in range(nx):
        for j in range(ny):
            x, y = (i + 0.5) * CELL_CM, (j + 0.5) * CELL_CM
            if x > tw or y > th:
                continue
            pose = (x, y, floor_height(state, x, y), viewer.facing)
            count = 0
            watchers = []
            for e in enemies:
                count += len(weapons_that_bear(state, e.id, viewer.id, target_pose=pose))
                if e.overwatch and weapons_that_bear(state, e.id, viewer.id, overwatch=True,
                                                     target_pose=pose):
                    watchers.append(e.id)
            yield ThreatCell(x, y, count, tuple(watchers))


def threat_map(state: GameState, viewer_id: str) -> ThreatMap:
    """A new, empty threat map that fills itself with `fill()`."""
    tm = ThreatMap(key=(viewer_id, state_key(state)), viewer=viewer_id)
    tm._work = _cells(state, viewer_id)
    return tm


def draw_threat(surface: pygame.Surface, cam: Camera, tm: ThreatMap) -> None:
    """Shade each cell by its weapon count; ring cells that overwatchers cover."""
    if not tm.cells:
        return
    top = max(1, max(c.weapons for c in tm.cells))
    size = cam.length(CELL_CM)
    shade = pygame.Surface((math.ceil(size), math.ceil(size)), pygame.SRCALPHA)
    for c in tm.cells:
        if c.weapons == 0 and not c.watchers:
            continue
        left, top_px = cam.to_px(c.x - CELL_CM / 2, c.y + CELL_CM / 2)
        if c.weapons:
            shade.fill((*REFUSAL, round(MAX_ALPHA * c.weapons / top)))
            surface.blit(shade, (left, top_px))
        if c.watchers:
            pygame.draw.rect(surface, (255, 255, 255), (left, top_px, size, size), 1)
