"""Where a bot may be put down (R6, R55, R36, R37): placing, a bot set up in a
doorway, and a fling's landing all ask `check_place`. It lives with movement (it asks
the physics whether a base reaches under a higher floor) so the turn flow (`turns`)
stays below movement."""
from __future__ import annotations

from bottisota.core.i18n import N_
from bottisota.engine.movement.physics import under_higher_floor
from bottisota.engine.state import Bot, GameState


def check_place(state: GameState, bot: Bot, x: float, y: float, doors: bool = True) -> str | None:
    """Why the bot may not be placed with its centre at (x, y) (R6, R55), or None:
    it must lie on the table, overlap no wall (no closed door unless `doors` is
    False: a bot set up in a doorway holds it open, R47) and no other base on its
    level (D4), and a ground bot may not stand in a pit (R36) nor with its base under
    a higher floor (R37, docs/decisions.md D29)."""
    index = state.index
    r = bot.radius
    tol = state.rules.contact_tolerance
    if not index.inside_table(x, y, r):
        return N_("({x:.2f}, {y:.2f}) is not wholly on the table").format(x=x, y=y)
    wall = index.disc_blocked(x, y, r, doors=doors, tolerance=tol)
    if wall is not None:
        return N_("the base would overlap {label}").format(label=wall.label)
    z = index.floor_z(x, y)
    for other in state.others(bot.id):
        if not other.on_table or abs(other.z - z) >= max(other.card.height, bot.card.height):
            continue
        gap = ((other.x - x) ** 2 + (other.y - y) ** 2) ** 0.5 - (r + other.radius)
        if gap < -tol - 1e-9:
            return N_("the base would overlap {id}'s").format(id=other.id)
    if bot.card.is_ground and index.features_at(x, y, ["pit"]):
        return N_("a ground bot may not stand in a pit at ({x:.2f}, {y:.2f})").format(x=x, y=y)
    if bot.card.is_ground and under_higher_floor(state, x, y, r, z):
        return N_("a ground bot's base may not reach under a higher floor at ({x:.2f}, "
                  "{y:.2f}) (R37 D29)").format(x=x, y=y)
    return None
