"""Spray weapons (R28): which bases the spray's line touches, nearest first."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bottisota.core.limits import within
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
                  xy: tuple[float, float] | None = None,
                  heights: tuple[float, float] | None = None) -> list[SprayMember]:
    """Every live bot but the shooter whose base the segment shooter -> end
    touches (within its radius + the contact tolerance, D4), nearest first to
    the shooter, ties by id (R28, formats.md dice order). Vectorised.

    `heights` (the sight line's height at the shooter and at the end, D15) keeps
    the area in height too: a bot is in it only where the line passes through
    its figure (between its floor and its top), so a spray between two levels
    does not touch bots standing clear above or below the line (R28, R35 by
    analogy; docs/decisions.md)."""
    start = xy or shooter.pos
    bots = [b for b in state.live_bots() if b.id != shooter.id]
    if not bots:
        return []
    xs = np.array([b.x for b in bots])
    ys = np.array([b.y for b in bots])
    reach = np.array([b.radius for b in bots]) + state.rules.contact_tolerance
    gap, along = segment_distances(start, end, xs, ys)
    dist = np.hypot(xs - start[0], ys - start[1])
    inside = within(gap, reach)
    if heights is not None:
        length = float(np.hypot(end[0] - start[0], end[1] - start[1]))
        t = along / length if length > 0 else np.zeros_like(along)
        z = heights[0] + (heights[1] - heights[0]) * np.clip(t, 0.0, 1.0)
        floors = np.array([b.z for b in bots])
        tops = floors + np.array([b.card.height for b in bots])
        inside &= within(floors, z) & within(z, tops)
    found = [SprayMember(bots[i].id, float(dist[i]), float(gap[i]))
             for i in np.nonzero(inside)[0]]
    return sorted(found, key=lambda m: (round(m.distance, 6), m.bot))


def spray_heights(shooter: Bot, target: Bot) -> tuple[float, float]:
    """The sight line's height at the shooter (its top) and at the target (its
    middle) (D15): the spray's area in height (R28)."""
    return (shooter.z + shooter.card.height, target.z + target.card.height / 2.0)
