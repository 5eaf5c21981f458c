"""Threat view, as data: how many enemy weapons could reach each spot of the table
right now, and which overwatchers cover it.

Each cell is the viewing bot standing at the cell's centre. The rulings are the
core's (arc, range, base contact, ammo: `engine.shooting.targeting`); the sight
lines of a batch of cells, from every enemy, go to the compiled arena in one
`sight_many` call per set of open doors (`cells_threat`), with exactly the answers
`weapons_that_bear` gets line by line (`cell_threat`, kept as the reference the
tests compare with). It is computed within a time budget per frame: a coarse
grid first (every cell of COARSE_CM), then the fine one (CELL_CM), and kept until
the game state changes (`state_key`).
"""
from __future__ import annotations

import math
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
import shapely

from bottisota.core.cards import Weapon
from bottisota.core.i18n import _, ngettext
from bottisota.engine.setup import floor_height
from bottisota.engine.shooting.geometry import (
    barriers,
    disc_of,
    door_keys,
    open_doors,
    standing_bots,
)
from bottisota.engine.shooting.targeting import (
    Pose,
    arc_refusal,
    find_weapon,
    melee_refusal,
    range_refusal,
    reach,
    target_refusal,
    weapons_that_bear,
)
from bottisota.engine.state import Bot, GameState

CELL_CM = 4.0            # the fine grid
COARSE_CM = 12.0         # the first pass
BUDGET_MS = 4.0          # per frame
AWAY = (-1e9, -1e9)      # a spot far off the table (the viewer standing nowhere near a door)
FIRST_BATCH = 4          # cells in the first batch of a map (then sized by the budget)


@dataclass
class ThreatCell:
    x: float
    y: float
    size: float                       # cm, the cell's side
    weapons: int                      # enemy weapons that could fire at the viewer here
    watchers: tuple[str, ...] = ()    # overwatchers that would fire here
    shooters: tuple[str, ...] = ()    # the enemy bots that could fire here


_SightKey = tuple[bool, frozenset[str | int], int, int]   # (through, doors, enemy, cell)


@dataclass
class ThreatMap:
    """Threat cells for one viewing bot in one state (`key` says which)."""

    key: tuple[object, ...]
    viewer: str
    most: int = 1                     # every enemy weapon: the scale of the shading
    cells: list[ThreatCell] = field(default_factory=list)
    done: bool = False
    coarse_done: bool = False
    _work: _Work | None = None
    _cell_s: float = 0.0              # CPU seconds the last batch took
    _batch: int = 0                   # cells in the last batch
    _index: dict[tuple[float, int, int], ThreatCell] = field(default_factory=dict)

    def fill(self, budget_ms: float = BUDGET_MS) -> int:
        """Compute cells in batches until the budget is spent (each batch sized from
        the last one's cost, so that it fits what is left); returns how many were
        added."""
        if self.done or self._work is None:
            return 0
        end = time.process_time() + budget_ms / 1000.0
        added = 0
        while True:
            t0 = time.process_time()
            left = end - t0
            if added and left <= 0.25 * budget_ms / 1000.0:
                return added
            n = FIRST_BATCH if self._batch <= 0 else max(
                1, min(4 * self._batch, int(0.8 * self._batch * left / max(self._cell_s, 1e-6))))
            cells = self._work.take(n)
            if cells:
                self._cell_s = max(time.process_time() - t0, 1e-6)
                self._batch = len(cells)
            for cell in cells:
                if cell.size <= CELL_CM:
                    self.coarse_done = True
                self.cells.append(cell)
                self._index[_cell_key(cell.size, cell.x, cell.y)] = cell
            added += len(cells)
            if self._work.finished:
                self.done = True
                self._work = None
                return added
            if time.process_time() >= end:
                return added

    def at(self, x: float, y: float) -> ThreatCell | None:
        """The finest computed cell holding a point."""
        for size in (CELL_CM, COARSE_CM):
            for key in _keys_near(size, x, y):
                c = self._index.get(key)
                if c is not None and abs(c.x - x) <= c.size / 2 and abs(c.y - y) <= c.size / 2:
                    return c
        return None


def _cell_key(size: float, x: float, y: float) -> tuple[float, int, int]:
    return (size, math.floor(x / size), math.floor(y / size))


def _keys_near(size: float, x: float, y: float) -> Iterator[tuple[float, int, int]]:
    i, j = math.floor(x / size), math.floor(y / size)
    yield (size, i, j)
    for di in (-1, 0, 1):          # clamped cells at the table's far edges
        for dj in (-1, 0, 1):
            if di or dj:
                yield (size, i + di, j + dj)


def state_key(state: GameState) -> tuple[object, ...]:
    """What the threat depends on: every bot's pose and status, the round and phase."""
    return (state.round, state.phase, state.active,
            tuple((b.id, round(b.x, 4), round(b.y, 4), round(b.facing, 2), b.z, b.overwatch,
                   b.on_table, b.leaflet, tuple(sorted(b.ammo.items())))
                  for b in state.bots.values()))


def cell_threat(state: GameState, viewer_id: str, enemies: list[Bot], x: float, y: float
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


class _Work:
    """The cells still to compute, coarse grid first, handed out in batches."""

    def __init__(self, state: GameState, viewer_id: str) -> None:
        enemies = [b for b in state.live_bots() if b.player != state.bots[viewer_id].player]
        self.asker = ThreatAsker(state, viewer_id, enemies)
        tw, th = state.arena.size
        self.todo = [(size, x, y) for size in (COARSE_CM, CELL_CM) for x, y in _grid(tw, th, size)]
        self.next = 0

    @property
    def finished(self) -> bool:
        return self.next >= len(self.todo)

    def take(self, n: int) -> list[ThreatCell]:
        part = self.todo[self.next:self.next + n]
        self.next += len(part)
        answers = self.asker.ask([(x, y) for _s, x, y in part])
        return [ThreatCell(x, y, size, *a) for (size, x, y), a in zip(part, answers, strict=True)]


def cells_threat(state: GameState, viewer_id: str, enemies: Sequence[Bot],
                 points: Sequence[tuple[float, float]]
                 ) -> list[tuple[int, tuple[str, ...], tuple[str, ...]]]:
    """`cell_threat` for many cells at once, with the same rulings (`ThreatAsker`)."""
    return ThreatAsker(state, viewer_id, enemies).ask(points)


@dataclass
class _Enemy:
    index: int
    bot: Bot
    weapons: list[Weapon]
    far: float                    # cm: no weapon of it reaches past this
    pose: Pose


class ThreatAsker:
    """The threat questions of one viewer in one state, asked for batches of cells.

    The arc, range, contact and ammo checks are the core's own functions; every
    sight line of a batch (each enemy to each cell it could fire at) goes to the
    compiled arena in one `sight_many` call per set of open doors and per kind
    (through bots for sprays, R28). What does not depend on the cell is worked out
    once, here."""

    def __init__(self, state: GameState, viewer_id: str, enemies: Sequence[Bot]) -> None:
        self.state = state
        self.viewer = viewer = state.bots[viewer_id]
        self.enemies = list(enemies)
        self.armed: list[_Enemy] = []
        for ei, e in enumerate(self.enemies):
            if not e.on_table or target_refusal(state, e, viewer.id)[1] is not None:
                continue
            weapons = [w for w in e.stats.weapons if find_weapon(state, e, w.name)[1] is None]
            if weapons:
                far = max(max(w.range for w in weapons), e.radius + viewer.radius
                          + state.rules.contact_tolerance) + 1.0
                self.armed.append(_Enemy(ei, e, weapons, far, Pose(e.x, e.y, e.z, e.facing)))
        # the other bots as sight obstacles: the shooter's own disc holds the line's
        # start, so the geometry skips it, as the per-line check does by leaving it out
        self.others = tuple(disc_of(b) for b in standing_bots(state) if b.id != viewer.id)
        self.barriers = barriers(state.index)
        self.base_doors = (frozenset(door_keys(open_doors(state, {viewer.id: AWAY})))
                           if self.barriers.doors else frozenset())

    def ask(self, points: Sequence[tuple[float, float]]
            ) -> list[tuple[int, tuple[str, ...], tuple[str, ...]]]:
        """(weapons, watchers, shooters) for the viewer standing at each point."""
        state, viewer = self.state, self.viewer
        n = len(points)
        if n == 0:
            return []
        zs = [floor_height(state, x, y) for x, y in points]
        poses = [Pose(float(x), float(y), float(z), viewer.facing)
                 for (x, y), z in zip(points, zs, strict=True)]
        doors = self._door_sets(points)
        bz = [z + viewer.card.height / 2.0 for z in zs]
        xs = np.array([p[0] for p in points], dtype=float)
        ys = np.array([p[1] for p in points], dtype=float)
        lines: dict[frozenset[str | int], set[tuple[int, int]]] = {}   # per door set: (enemy, cell)
        checks: list[tuple[Bot, list[tuple[int, bool, bool, bool, bool]]]] = []
        for en in self.armed:
            e = en.bot
            dist = np.hypot(xs - e.x, ys - e.y)
            found: list[tuple[int, bool, bool, bool, bool]] = []   # cell, through, normal, ...
            for ci in np.flatnonzero(dist <= en.far).tolist():
                tpose, d = poses[ci], float(dist[ci])
                for w in en.weapons:
                    normal = _geometry_ok(state, e, w, viewer, en.pose, tpose, d, False)
                    watch = e.overwatch and _geometry_ok(state, e, w, viewer, en.pose, tpose, d,
                                                         True)
                    if not normal and not watch:
                        continue
                    through = w.kind == "spray"
                    if w.kind != "melee":
                        lines.setdefault(doors[ci], set()).add((en.index, ci))
                    found.append((ci, through, normal, watch, w.kind == "melee"))
            checks.append((e, found))
        clear = self._sights(lines, points, bz)
        count = [0] * n
        shooters: list[list[str]] = [[] for _i in range(n)]
        watchers: list[list[str]] = [[] for _i in range(n)]
        for (e, found), en in zip(checks, self.armed, strict=True):
            fired: set[int] = set()
            watched: set[int] = set()
            for ci, through, normal, watch, melee in found:
                if not melee and not clear[(through, doors[ci], en.index, ci)]:
                    continue
                if normal:
                    count[ci] += 1
                    fired.add(ci)
                if watch:
                    watched.add(ci)
            for ci in sorted(fired):
                shooters[ci].append(e.id)
            for ci in sorted(watched):
                watchers[ci].append(e.id)
        return [(count[i], tuple(watchers[i]), tuple(shooters[i])) for i in range(n)]

    def _door_sets(self, points: Sequence[tuple[float, float]]) -> list[frozenset[str | int]]:
        """Per cell, the doors open with the viewer standing there (R47): those another
        standing bot touches and those the viewer's base would touch."""
        bar = self.barriers
        if not bar.doors:
            return [self.base_doors] * len(points)
        reach_cm = self.viewer.radius + self.state.rules.contact_tolerance + 1e-9
        near = shapely.dwithin(bar.door_shapes[:, None], shapely.points(list(points))[None, :],
                               reach_cm)
        out = []
        for ci in range(len(points)):
            touched = [bar.doors[k] for k in np.flatnonzero(near[:, ci]).tolist()]
            out.append(self.base_doors | frozenset(door_keys(touched)) if touched
                       else self.base_doors)
        return out

    def _sights(self, lines: dict[frozenset[str | int], set[tuple[int, int]]],
                points: Sequence[tuple[float, float]], bz: list[float]) -> dict[_SightKey, bool]:
        """Every sight line asked, batched: {(through, doors, enemy, cell): clear}, one
        `sight_many_both` call per set of open doors (the terrain tested once, then the
        bots: through them for sprays, past them for the rest)."""
        out: dict[_SightKey, bool] = {}
        enemies = self.enemies
        for doors, wanted in lines.items():
            pairs = sorted(wanted)
            arr = np.array([(enemies[ei].x, enemies[ei].y,
                             enemies[ei].z + enemies[ei].card.height,
                             points[ci][0], points[ci][1], bz[ci]) for ei, ci in pairs],
                           dtype=float)
            through, past = self.state.index.sight_many_both(arr, self.others, tuple(doors))
            for (ei, ci), t, p in zip(pairs, through.tolist(), past.tolist(), strict=True):
                out[(True, doors, ei, ci)] = bool(t)
                out[(False, doors, ei, ci)] = bool(p)
        return out


def _geometry_ok(state: GameState, e: Bot, w: Weapon, viewer: Bot, spose: Pose, tpose: Pose,
                 distance: float, overwatch: bool) -> bool:
    """Whether `fire_refusal` passes but for its sight check (arc, then range or base
    contact); a target far out of range is passed over before any refusal is built."""
    if w.kind != "melee" and distance > reach(state, w, overwatch) + 2e-9:
        return False
    if arc_refusal(state, w, spose, tpose) is not None:
        return False
    if w.kind == "melee":
        return melee_refusal(state, e, viewer, spose, tpose) is None
    return range_refusal(state, w, spose, tpose, overwatch) is None


def threat_map(state: GameState, viewer_id: str) -> ThreatMap:
    """A new, empty threat map that fills itself with `fill()`."""
    viewer = state.bots[viewer_id]
    most = sum(len(b.stats.weapons) for b in state.live_bots() if b.player != viewer.player)
    tm = ThreatMap(key=(viewer_id, state_key(state)), viewer=viewer_id, most=max(1, most))
    tm._work = _Work(state, viewer_id)
    return tm


def hover_words(tm: ThreatMap, x: float, y: float) -> str | None:
    """"3 bots can hit here: b1, b2, b3" for the cell under the pointer."""
    c = tm.at(x, y)
    if c is None:
        return None
    if not c.shooters:
        text = _("no enemy can hit here")
    else:
        n = len(c.shooters)
        text = (ngettext("{n} bot can hit here", "{n} bots can hit here", n).format(n=n) + " ("
                + ngettext("{n} weapon", "{n} weapons", c.weapons).format(n=c.weapons) + "): "
                + ", ".join(c.shooters))
    if c.watchers:
        text += "; " + _("overwatch: {names}").format(names=", ".join(c.watchers))
    return text
