"""Movement (docs/ARCHITECTURE.md, "Movement"): preview and commit a move, and
throw a bot (beams R29, knock-back R40).

- `preview_move(state, move)`: what the move would do, with no dice rolled and
  nothing changed: the path, costs, turns and every event that needs no die
  (doors, belts, pits, teleporter candidates, collision tests and falls with
  their damage ranges). The view draws the ghost from it.
- `commit_move(state, move, interrupt)`: refuses the whole move when any step is
  refused (D30), else walks it, rolling `state.dice` and applying the events.
- `fling` / `preview_fling`: a bot thrown in a straight line.

The rules themselves live in move_steps (locomotion), move_walk (the walk),
move_physics (collisions, falls, pits, forced motion) and move_terrain (belts,
lifts, teleporters).
"""
from __future__ import annotations

import dataclasses

from bottisota.core.actions import Move, Refusal
from bottisota.core.i18n import N_
from bottisota.engine.events import Event, apply_event, r2
from bottisota.engine.mines import mine_strike, touching_mines
from bottisota.engine.movement.physics import (
    Ctx,
    Interrupt,
    Pose,
    finish_fling_result,
    forced_line,
    new_fling_result,
)
from bottisota.engine.movement.result import FlingResult, MoveResult, PathPoint, Piece
from bottisota.engine.movement.walk import Walk
from bottisota.engine.state import Bot, GameState
from bottisota.geometry.arena_index import FAST_PATHS

__all__ = ["Interrupt", "MoveResult", "FlingResult", "PathPoint", "Piece", "preview_move",
           "commit_move", "fling", "preview_fling"]


def _mover(state: GameState, bot_id: str) -> Bot | Refusal:
    bot = state.bots.get(bot_id)
    if bot is None:
        return Refusal("R6", N_("there is no bot {bot_id!r}").format(bot_id=bot_id))
    if not bot.on_table:
        return Refusal("R55", N_("{bot_id} is not on the table").format(bot_id=bot_id), at=bot.pos)
    return bot


def preview_move(state: GameState, move: Move) -> MoveResult | Refusal:
    """What the move would do; rolls no dice and changes nothing."""
    bot = _mover(state, move.bot)
    if isinstance(bot, Refusal):
        return bot
    return Walk(state, bot, move, live=False).run()


def commit_move(state: GameState, move: Move, interrupt: Interrupt | None = None,
                checked: MoveResult | Refusal | None = None) -> MoveResult | Refusal:
    """Make the move: refused as a whole, changing nothing and rolling nothing, when
    any step is refused (D30); else walked with dice, its events applied. `checked`
    is the move's preview in this very state when the caller already has it
    (`Game` keeps one per state and move), so the move is not walked twice."""
    bot = _mover(state, move.bot)
    if isinstance(bot, Refusal):
        return bot
    if checked is None:
        checked = Walk(state, bot, move, live=False).run()
    if isinstance(checked, Refusal):
        return checked
    if FAST_PATHS.on and _quiet(state, bot, checked, interrupt):
        return _walked_as_previewed(state, checked)
    return Walk(state, bot, move, live=True, interrupt=interrupt).run()


# A move whose preview holds only these events, and only these pieces, rolls no
# die and meets nothing that differs between the preview and the live walk.
QUIET_EVENTS = frozenset({"bot_moved", "door_opened", "path", "docked"})
QUIET_PIECES = frozenset({"forward", "back", "strafe", "turn"})


def _quiet(state: GameState, bot: Bot, checked: MoveResult,
           interrupt: Interrupt | None) -> bool:
    """The live walk would give the preview's events exactly: no event that rolls
    dice or depends on them (collisions, falls, pits, teleports, belts, lifts,
    loops, dropped mines), no active mine touched anywhere on the path (R31: the
    preview reports none on the way, and none is touched where the events put
    the bot, rounded as they are), and no watcher that could fire anywhere on the
    path (R23)."""
    if checked.ended is not None or checked.teleport_candidates:
        return False
    if any(e["type"] not in QUIET_EVENTS for e in checked.events):
        return False
    if any(p.kind not in QUIET_PIECES for p in checked.pieces):
        return False
    if any(m.active for m in state.mines) and any(
            touching_mines(state, dataclasses.replace(bot, x=r2(p.x), y=r2(p.y), z=r2(p.z)))
            for p in checked.path):
        return False      # the live walk stands the bot where its events put it (rounded)
    if interrupt is None:
        return True
    quiet_along = getattr(interrupt, "quiet_along", None)
    return quiet_along is not None and bool(quiet_along(state, bot, checked.path))


def _walked_as_previewed(state: GameState, checked: MoveResult) -> MoveResult:
    """The live walk of a quiet move: its preview's events applied in order (what
    the live walk would emit and apply), the result marked committed."""
    events = [e.copy() for e in checked.events]
    for event in events:
        apply_event(state, event)
    return dataclasses.replace(checked, path=list(checked.path), pieces=list(checked.pieces),
                               events=events, dropped_steps=list(checked.dropped_steps),
                               teleport_candidates=[], committed=True)


def fling(state: GameState, bot_id: str, heading_deg: float, distance: float,
          by: str | None) -> list[Event]:
    """Throw a bot straight along `heading_deg` up to `distance` cm (R29, R16, R40):
    rolls its collision tests, pits and falls (kill credit `by`, D22) and applies
    the events."""
    bot = state.bots[bot_id]
    if not bot.on_table:
        return []
    ctx = Ctx(state, live=True)
    forced_line(ctx, bot, Pose.of(bot), heading_deg, distance, by, None)
    _mine_strikes(state, bot, ctx)
    return ctx.events


def preview_fling(
    state: GameState, bot_id: str, heading_deg: float, distance: float
) -> FlingResult:
    """Where a throw would land and what it would meet; no dice, no change."""
    bot = state.bots[bot_id]
    ctx = Ctx(state, live=False)
    pose = Pose.of(bot)
    result = new_fling_result(bot, pose)
    result.path.clear()
    forced_line(ctx, bot, pose, heading_deg, distance, None, result)
    return finish_fling_result(result, pose, ctx.events)


def _mine_strikes(state: GameState, bot: Bot, ctx: Ctx) -> None:
    """Active mines the thrown bot now touches strike it (R31)."""

    for mine in touching_mines(state, bot):
        if bot.destroyed:
            break
        if mine in state.mines:
            ctx.events.extend(mine_strike(state, mine, bot))
