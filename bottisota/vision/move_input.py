"""A miniature moved by hand, turned into the move a player would have planned: the
camera gives where the bot stood and where it stands now, this finds the steps
(facing snapped to what its locomotion allows) and the rules judge them as any
planned move (`Game.preview`), costs and refusals included.

Candidates, simplest first: straight forward or back; a turn, a run, a turn; a
sidestep (walkers and hovers) and a turn. The legal candidate that ends nearest the
miniature wins; where it ends touching another bot within the contact tolerance (D4)
the run is closed to that contact. None legal: the nearest, with its refusal, so the
table shows why.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from bottisota.core.actions import Back, Forward, Move, Refusal, Step, Strafe, Turn
from bottisota.core.compass import heading
from bottisota.engine.game import Game
from bottisota.engine.movement.result import MoveResult
from bottisota.vision.watch import DRIFT_CM, DRIFT_DEG, Pose, angle_between

FREE_TURNERS = ("walker", "hover")
SIDESTEPPERS = ("walker", "hover")


@dataclass(frozen=True)
class PlannedFromCamera:
    """The move read from the table: its steps, what the rules say of it, and how far
    its end lies from the miniature (cm, degrees)."""

    move: Move
    result: MoveResult | None
    refusal: Refusal | None
    miss: float
    turn_miss: float


def _snap(turn: float, step: float, free: bool) -> float:
    """A turn as a player plans it: in the locomotion's steps, or (free turners) whole
    degrees; a turn smaller than the camera's tolerance is no turn."""
    turn = (turn + 180.0) % 360.0 - 180.0
    if abs(turn) <= DRIFT_DEG:
        return 0.0
    return float(round(turn)) if free else round(turn / step) * step


def bearing(a: Pose, x: float, y: float) -> float:
    return heading(x - a.x, y - a.y)


def candidates(start: Pose, end: Pose, locomotion: str, turn_step: float) -> list[tuple[Step, ...]]:
    """Step lists that could take a bot from `start` to `end`."""
    free = locomotion in FREE_TURNERS
    dist = math.hypot(end.x - start.x, end.y - start.y)
    out: list[tuple[Step, ...]] = []
    final_turn = _snap(end.facing - start.facing, turn_step, free)
    if dist < 0.05:
        return [(Turn(final_turn),)] if final_turn else [()]
    way = bearing(start, end.x, end.y)
    ahead = (way - start.facing + 180.0) % 360.0 - 180.0
    if abs(ahead) <= DRIFT_DEG:
        out.append((Forward(round(dist, 2)),) + ((Turn(final_turn),) if final_turn else ()))
    if abs(abs(ahead) - 180.0) <= DRIFT_DEG:
        out.append((Back(round(dist, 2)),) + ((Turn(final_turn),) if final_turn else ()))
    first = _snap(ahead, turn_step, free)
    heading = start.facing + first
    second = _snap(end.facing - heading, turn_step, free)
    out.append(tuple(s for s in (Turn(first) if first else None, Forward(round(dist, 2)),
                                 Turn(second) if second else None) if s is not None))
    if locomotion in SIDESTEPPERS:
        out.append((Strafe(round(ahead % 360.0, 1), round(dist, 2)),)
                   + ((Turn(final_turn),) if final_turn else ()))
    return out


def _ends(result: MoveResult) -> Pose:
    return Pose(result.x, result.y, result.facing)


def plan(game: Game, bot_id: str, end: Pose) -> PlannedFromCamera:
    """The move that takes `bot_id` from where the game has it to `end` (as seen)."""
    bot = game.state.bots[bot_id]
    start = Pose(bot.x, bot.y, bot.facing)
    best: PlannedFromCamera | None = None
    for steps in candidates(start, end, bot.stats.locomotion, game.state.rules.turn_step):
        move = Move(bot_id, steps)
        answer = game.preview_move(game.state, move)
        if isinstance(answer, Refusal):
            found = PlannedFromCamera(move, None, answer, math.inf, math.inf)
        else:
            got = _ends(answer)
            miss = math.hypot(got.x - end.x, got.y - end.y)
            found = PlannedFromCamera(move, answer, None, miss, angle_between(got.facing,
                                                                              end.facing))
        if best is None or _better(found, best):
            best = found
    assert best is not None                      # there is always one candidate
    return best


def _close(p: PlannedFromCamera) -> bool:
    return p.miss <= DRIFT_CM and p.turn_miss <= DRIFT_DEG


def _better(a: PlannedFromCamera, b: PlannedFromCamera) -> bool:
    """Legal first; then ending where the miniature stands (within the camera's
    tolerance); then the fewest steps; then the nearest."""
    def key(p: PlannedFromCamera) -> tuple:
        return (p.refusal is not None, not _close(p), len(p.move.steps),
                p.miss + p.turn_miss / 45.0)
    return key(a) < key(b)
