"""Goal markers (D23): collected by ending a movement on them, then moved on or removed."""
from __future__ import annotations

import math

from bottisota.core.i18n import N_
from bottisota.core.limits import beyond, within
from bottisota.engine.event_types import GoalTakenEvent
from bottisota.engine.events import Event, apply_event
from bottisota.engine.state import Bot, GameState, Goal


def on_goal(goal: Goal, bot: Bot) -> bool:
    """D17: the bot's centre is inside the marker."""
    return not goal.taken and within(math.hypot(bot.x - goal.x, bot.y - goal.y), goal.r)


def _spot_free(state: GameState, goal: Goal, spot: tuple[float, float]) -> bool:
    """No bot's base touches the marker at this spot (D4)."""
    tol = state.rules.contact_tolerance
    return all(beyond(math.hypot(b.x - spot[0], b.y - spot[1]), b.radius + goal.r + tol)
               for b in state.live_bots())


def collect_goals(state: GameState, bot: Bot) -> list[Event]:
    """The bot ends its movement: it collects every marker its centre is on (D23),
    scoring the marker's points; each marker moves to the next free spot of its
    list, or leaves the table when none is left."""
    events: list[Event] = []
    if not bot.on_table:
        return events
    for i, goal in enumerate(state.goals):
        if not on_goal(goal, bot):
            continue
        events.append(apply_event(state, {"type": "score", "player": bot.player,
                                          "points": goal.points, "reason":
                                                  N_("goal by {id}").format(id=bot.id)}))
        to = next((s for s in goal.spots_left if _spot_free(state, goal, s)), None)
        taken: GoalTakenEvent = {"type": "goal_taken", "goal": i, "bot": bot.id,
                                 "points": goal.points}
        if to is not None:
            taken["to"] = [float(to[0]), float(to[1])]
        events.append(apply_event(state, taken))
    return events
