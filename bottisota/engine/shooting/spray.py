"""Spray weapons (R28): which bases the spray's line touches, nearest first."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bottisota.engine.shooting.geometry import segment_distances
from bottisota.engine.state import Bot, GameState


@dataclass(frozen=True, slots=True)
class SprayMember:
    """A bot whose base the spray's line touches (R28): its distance from the
    shooter (centre to centre) and from the line."""

    bot: str
    distance: float
    gap: float


def spray_members(state: GameState, shooter: Bot, end: tuple[float, float],
                  xy: tuple[float, float] | None = None) -> list[SprayMember]:
    """Every live bot but the shooter whose base the segment shooter -> end
    touches (within its radius + the contact tolerance, D4), nearest first to
    the shooter, ties by id (R28, formats.md dice order). Vectorised."""
    start = xy or shooter.pos
    bots = [b for b in state.live_bots() if b.id != shooter.id]
    if not bots:
        return []
    xs = np.array([b.x for b in bots])
    ys = np.array([b.y for b in bots])
    reach = np.array([b.radius for b in bots]) + state.rules.contact_tolerance
    gap, _ = segment_distances(start, end, xs, ys)
    dist = np.hypot(xs - start[0], ys - start[1])
    found = [SprayMember(bots[i].id, float(dist[i]), float(gap[i]))
             for i in np.nonzero(gap <= reach + 1e-9)[0]]
    return sorted(found, key=lambda m: (round(m.distance, 6), m.bot))
