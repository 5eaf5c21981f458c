"""Overwatch fire (R23, R24, D20) as movement's interrupt.

While a bot moves, every enemy bot on overwatch that could fire at it at some
point of its path (within `overwatch_range`, in arc, in sight: `can_fire`
with the mover standing at that point) fires at the earliest such point, to
within `overwatch_point_tolerance`; several watchers fire earliest point
first, ties in seat order. A watcher named in the move's `hold_fire` holds
for the whole move. Firing uses every weapon that bears and ends the
watcher's overwatch (D20). After the move, watchers that have not fired may
still fire (R24) before the mover's mines and shots.
"""
from __future__ import annotations

import math
import weakref
from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from bottisota.core.actions import Shoot, ShotOrder
from bottisota.core.arena import Arena
from bottisota.core.compass import vector
from bottisota.engine.events import Event, apply_event, r2
from bottisota.engine.movement.result import PathPoint
from bottisota.engine.shooting import shots as shooting
from bottisota.engine.state import Bot, GameState

TIE_CM = 1e-3           # two watchers' points closer than this along the path are a tie
ROUNDING_MARGIN = 5e-4  # cm past the edge of reach, so a position rounded for its event stays in
REFINE_STEPS = 12       # bisections after the scan: tolerance / 4096


@dataclass(frozen=True, slots=True)
class Offer:
    """A shot a watcher would be offered: where the mover is and what bears."""

    watcher: str
    at: PathPoint
    weapons: tuple[str, ...]
    after_move: bool = False        # R24: only after the move has ended


def watchers(state: GameState, mover: Bot, skip: Iterable[str] = ()) -> list[Bot]:
    """Enemy bots on overwatch, on the table, in seat order (ties by id)."""
    skip = set(skip)
    seats = {p: i for i, p in enumerate(state.players)}
    found = [b for b in state.live_bots()
             if b.overwatch and b.player != mover.player and b.id != mover.id and b.id not in skip]
    return sorted(found, key=lambda b: (seats.get(b.player, len(seats)), b.id))


def point_on(a: PathPoint, b: PathPoint, t: float) -> PathPoint:
    """The pose a fraction t of the way from a to b."""
    if t <= 0.0:
        return a
    if t >= 1.0:
        return b
    return PathPoint(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t,
                     b.facing, a.distance + (b.distance - a.distance) * t,
                     a.spent + (b.spent - a.spent) * t)


def bearing_weapons(state: GameState, watcher: Bot, mover: Bot, pose: PathPoint) -> list[str]:
    """Weapons of the watcher that could fire on overwatch at the mover standing at
    `pose` (R23: reach, arc, sight, melee allowed); mines are not fired."""
    names = shooting.weapons_that_bear(state, watcher.id, mover.id, True, None, pose)
    return [n for n in names if not _is_mine(watcher, n)]


def _is_mine(bot: Bot, name: str) -> bool:
    weapon = bot.stats.weapon(name)
    return weapon is not None and weapon.is_mine


def _reach(state: GameState, watcher: Bot) -> float:
    ranges = [w.range for w in watcher.stats.weapons if not w.is_mine]
    return min(state.rules.overwatch_range, max(ranges)) if ranges else -1.0


def _window(w: Bot, reach: float, mover_r: float, a: PathPoint, b: PathPoint
            ) -> tuple[float, float] | None:
    """The t-interval of a..b where the mover's centre is within reach of the
    watcher (plus both radii, so melee contact is never cut off)."""
    reach = reach + w.radius + mover_r
    dx, dy = b.x - a.x, b.y - a.y
    fx, fy = a.x - w.x, a.y - w.y
    qa = dx * dx + dy * dy
    qc = fx * fx + fy * fy - reach * reach
    if qa < 1e-12:
        return (0.0, 1.0) if qc <= 0 else None
    qb = 2 * (fx * dx + fy * dy)
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return None
    root = math.sqrt(disc)
    t0, t1 = (-qb - root) / (2 * qa), (-qb + root) / (2 * qa)
    if t1 < 0 or t0 > 1:
        return None
    return max(0.0, t0), min(1.0, t1)


def first_point(state: GameState, watcher: Bot, mover: Bot, a: PathPoint, b: PathPoint
                ) -> float | None:
    """The smallest t in [0, 1] where the watcher could fire at the mover on a..b,
    found to within the rules' overwatch point tolerance; None if nowhere."""
    reach = _reach(state, watcher)
    if reach < 0:
        return None
    window = _window(watcher, reach, mover.radius, a, b)
    if window is None:
        return None
    t0, t1 = window
    length = math.hypot(b.x - a.x, b.y - a.y)

    def can(t: float) -> bool:
        # judged where the mover will stand: its position rounded as its event rounds it
        # (a path grazing the reach's edge moves across it by the rounding, not along it)
        p = point_on(a, b, t)
        placed = PathPoint(r2(p.x), r2(p.y), p.z, p.facing, p.distance, p.spent)
        return bool(bearing_weapons(state, watcher, mover, placed))

    if can(t0):
        return t0
    if length < 1e-9:
        return None
    step = max(state.rules.overwatch_point_tolerance, 1e-3) / length
    ticks = [t0 + k * step for k in range(1, int((t1 - t0) / step) + 1)] + [t1]
    ticks = sorted(set(ticks) | set(_critical(state, watcher, mover, a, b, t0, t1))
                   | {_closest(watcher, a, b, t0, t1)})
    prev = t0
    for t in ticks:
        if can(t):
            lo, hi = prev, t
            for _ in range(REFINE_STEPS):
                mid = (lo + hi) / 2
                if can(mid):
                    hi = mid
                else:
                    lo = mid
            inside = min(t1, hi + ROUNDING_MARGIN / length)
            return inside if can(inside) else hi
        prev = t
    return None


def _closest(watcher: Bot, a: PathPoint, b: PathPoint, t0: float, t1: float) -> float:
    """Where on a..b (within t0..t1) the mover's centre comes closest to the watcher: a
    mover only grazing the watcher's base is in melee contact (D4) around that point
    alone, over a stretch that can be much shorter than the scan's step (R23 R25)."""
    dx, dy = b.x - a.x, b.y - a.y
    along = ((watcher.x - a.x) * dx + (watcher.y - a.y) * dy) / max(dx * dx + dy * dy, 1e-18)
    return min(t1, max(t0, along))


_CORNERS: weakref.WeakKeyDictionary[object, np.ndarray] = weakref.WeakKeyDictionary()


def _corners(arena: Arena) -> np.ndarray:
    """Every corner of every feature shape of the arena, as rows (x, y); once per arena."""
    found = _CORNERS.get(arena)
    if found is None:
        rows = []
        for feature in arena.features:
            for part in getattr(feature.shape, "geoms", [feature.shape]):
                ring = getattr(part, "exterior", part)
                rows += list(ring.coords)
        found = np.array(rows, dtype=float).reshape(-1, 2)
        _CORNERS[arena] = found
    return found


def prepare_corners(arena: Arena) -> None:
    """Build the arena's corner rows now (else the first overwatch check does)."""
    _corners(arena)


def _critical(state: GameState, watcher: Bot, mover: Bot, a: PathPoint, b: PathPoint,
              t0: float, t1: float) -> list[float]:
    """The middles of the narrow stretches of a..b between points where what the
    watcher can see or reach may change: where the rays from the watcher through
    the corners of features, past the sides of other bots and along its nose
    arc's edges cross the path. Checked besides the regular scan, so that a legal
    window narrower than the overwatch point tolerance is not stepped over (R23,
    docs/decisions.md)."""
    wx, wy = watcher.x, watcher.y
    dx, dy = b.x - a.x, b.y - a.y
    reach = _reach(state, watcher) + watcher.radius + mover.radius
    corners = _corners(state.arena) - (wx, wy)
    near = corners[(np.abs(corners[:, 0]) <= reach) & (np.abs(corners[:, 1]) <= reach)]
    extra = []
    for other in state.live_bots():
        if other.id in (watcher.id, mover.id):
            continue
        ox, oy = other.x - wx, other.y - wy
        n = math.hypot(ox, oy)
        if 1e-9 < n <= reach + other.radius:
            px, py = -oy / n * other.radius, ox / n * other.radius
            extra += [(ox + px, oy + py), (ox - px, oy - py)]
    half = state.rules.nose_arc / 2.0
    for edge in (watcher.facing - half, watcher.facing + half):
        extra.append(vector(edge))
    rays = np.vstack([near, np.array(extra, dtype=float).reshape(-1, 2)])
    rx, ry = rays[:, 0], rays[:, 1]
    den = dx * ry - dy * rx
    ok = np.abs(den) > 1e-12
    t = ((wx - a.x) * ry[ok] - (wy - a.y) * rx[ok]) / den[ok]
    found = np.sort(t[(t > t0) & (t < t1)])
    step = max(state.rules.overwatch_point_tolerance, 1e-3) / max(math.hypot(dx, dy), 1e-9)
    edges = np.concatenate([[t0], found, [t1]])
    gaps = np.diff(edges)
    narrow = (gaps < step) & (gaps > 0.0)
    middles: list[float] = ((edges[:-1] + edges[1:]) / 2.0)[narrow].tolist()
    return middles                                              # narrow gaps only


def fire_overwatch(state: GameState, watcher_id: str, mover_id: str, after_move: bool = False
                   ) -> list[Event]:
    """The watcher fires every weapon that bears at the mover (R23, R24); its
    overwatch ends (D20). Nothing happens when no weapon bears."""
    watcher, mover = state.bots[watcher_id], state.bots[mover_id]
    weapons = shooting.weapons_that_bear(state, watcher_id, mover_id, overwatch=True)
    weapons = [w for w in weapons if not _is_mine(watcher, w)]
    if not weapons:
        return []
    events: list[Event] = [
        apply_event(state, {"type": "overwatch_fire", "bot": watcher_id, "target": mover_id,
                            "weapons": list(weapons), "at": [r2(mover.x), r2(mover.y)],
                            "after_move": after_move}),
        apply_event(state, {"type": "overwatch", "bot": watcher_id, "on": False,
                            "reason": "fired"}),
    ]
    result = shooting.resolve_shoot(state, Shoot(watcher_id, tuple(ShotOrder(w, mover_id)
                                                                   for w in weapons)),
                                    overwatch=True)
    if isinstance(result, list):
        events += result
    else:
        events.append({"type": "overwatch_refused", "bot": watcher_id, "reason": str(result)})
    return events


@dataclass
class OverwatchInterrupt:
    """Movement's `Interrupt` for overwatch (R23): answers the earliest point of a
    path piece where a watcher fires, and fires it there."""

    hold: frozenset[str] = frozenset()
    fired: list[str] = field(default_factory=list)
    offered: list[str] = field(default_factory=list)
    _due: list[str] = field(default_factory=list)

    def _skip(self) -> set[str]:
        return set(self.hold) | set(self.fired) | set(self.offered)

    def earliest(self, state: GameState, mover: Bot, a: PathPoint, b: PathPoint) -> float | None:
        """The earliest t on a..b where an unheld watcher could fire at the mover."""
        best: float | None = None
        due: list[str] = []
        length = math.hypot(b.x - a.x, b.y - a.y)
        tie = TIE_CM / length if length > 1e-9 else 0.0
        for w in watchers(state, mover, self._skip()):
            t = first_point(state, w, mover, a, b)
            if t is None:
                continue
            if best is None or t < best - tie:
                best, due = t, [w.id]
            elif t <= best + tie:
                due.append(w.id)
        self._due = due
        return best

    def fire(self, state: GameState, mover: Bot, at: PathPoint) -> list[Event]:
        """Every watcher due at this point fires, in seat order, while the mover lives."""
        events: list[Event] = []
        due, self._due = self._due, []
        for wid in due:
            if mover.destroyed or not state.bots[wid].on_table:
                break
            self.offered.append(wid)
            shots = fire_overwatch(state, wid, mover.id)
            if shots:
                self.fired.append(wid)
            events += shots
        return events

    def quiet_along(self, state: GameState, mover: Bot, path: list[PathPoint]) -> bool:
        """No unheld watcher has the mover within reach anywhere on the path (each
        piece between two of its points out of every watcher's reach window), so
        `earliest` answers None for every piece of a walk along it."""
        pieces = list(zip(path, path[1:], strict=False)) or [(path[0], path[0])]
        for w in watchers(state, mover, self._skip()):
            reach = _reach(state, w)
            if reach >= 0 and any(_window(w, reach, mover.radius, a, b) is not None
                                  for a, b in pieces):
                return False
        return True

    def after_move(self, state: GameState, mover: Bot) -> list[Event]:
        """R24: watchers that have not fired (nor hold) may fire now the move has
        ended, in seat order, while the mover lives."""
        events: list[Event] = []
        for w in watchers(state, mover, set(self.hold) | set(self.fired)):
            if not mover.on_table:
                break
            shots = fire_overwatch(state, w.id, mover.id, after_move=True)
            if shots:
                self.fired.append(w.id)
            events += shots
        return events


def offers(state: GameState, mover_id: str, path: list[PathPoint], hold: Iterable[str] = ()
           ) -> list[Offer]:
    """What a move along `path` would offer each watcher if nobody fired (for the
    preview): its earliest point on the path, else the end of the move (R24)."""
    mover = state.bots[mover_id]
    found: list[Offer] = []
    for w in watchers(state, mover, hold):
        offer = None
        for a, b in zip(path, path[1:], strict=False) if len(path) > 1 else [(path[0], path[0])]:
            t = first_point(state, w, mover, a, b)
            if t is not None:
                at = point_on(a, b, t)
                offer = Offer(w.id, at, tuple(bearing_weapons(state, w, mover, at)))
                break
        if offer is None and path:
            end = path[-1]
            weapons = bearing_weapons(state, w, mover, end)
            if weapons:
                offer = Offer(w.id, end, tuple(weapons), after_move=True)
        if offer is not None:
            found.append(offer)
    return sorted(found, key=lambda o: (o.at.distance, [w.id for w in watchers(state, mover)]
                                        .index(o.watcher)))
