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

from bottisota.core.limits import within
from bottisota.engine.events import Event, apply_event
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
