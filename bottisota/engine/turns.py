"""Turn flow (R6, R7, D18-D20): seats, rounds, turns and phases, as events.

A round is every live player taking one turn in seat order from the
starting player (D18); a turn is a movement phase then a shooting phase.
The state keeps `players` in seat order starting with the starting player,
`played` (who has had a turn this round), `active` (the bot whose turn it
is) and `phase`:

- "place": the active bot was just drawn and must be put on the table (R6, R55)
- "move":  its movement phase
- "shoot": its shooting phase (D19: exactly one choice)
- "done":  its shooting phase is used (scenarios keep the turn until the next action)
- "over":  the game has ended (D24)
"""
from __future__ import annotations

from bottisota.core.i18n import N_
from bottisota.core.limits import within
from bottisota.engine.events import Event, apply_event
from bottisota.engine.movement.physics import under_higher_floor
from bottisota.engine.state import Bot, GameState

# --- questions about the flow ------------------------------------------------------

def players_in(state: GameState) -> list[str]:
    """Players still in the game, in seat order (R54)."""
    return [p for p in state.players if p not in state.out]


def next_player(state: GameState) -> str | None:
    """The next player to take a turn this round, or None when the round is done."""
    for p in players_in(state):
        if p not in state.played:
            return p
    return None


def standings(state: GameState) -> list[str]:
    """Players in order of the result: most points, ties broken by kills (D24)."""
    return sorted(state.players, key=lambda p: (-state.scores.get(p, 0), -state.kills.get(p, 0),
                                                 state.players.index(p)))


def winners(state: GameState) -> list[str]:
    """The players who share the best result (D24): the aim is destroyed enemy bots and
    goal points (R1, D22, D23)."""
    ranked = standings(state)
    if not ranked:
        return []
    best = (state.scores.get(ranked[0], 0), state.kills.get(ranked[0], 0))
    return [p for p in ranked if (state.scores.get(p, 0), state.kills.get(p, 0)) == best]


def can_set_overwatch_after(state: GameState, bot: Bot) -> bool:
    """R23: it moved at most `overwatch_move_fraction` of its movement."""
    return within(bot.moved, state.rules.overwatch_move_fraction * bot.stats.move)


def turn_event(state: GameState, bot: Bot, phase: str, moved: float = 0.0) -> Event:
    """Begin `bot`'s turn in `phase` (applied)."""
    return apply_event(state, {"type": "turn", "player": bot.player, "bot": bot.id,
                               "round": state.round, "phase": phase, "moved": moved})


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
