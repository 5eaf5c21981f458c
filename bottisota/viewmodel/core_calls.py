"""The faces' doors into the rules: a planned move's preview and a weapon's pre-measure.

Everything a face shows about legality, costs, chances and consequences comes
from these calls into the core (`Game.preview`, `shooting.premeasure`). They
only repackage the answers for drawing; the session (`game_session.Session`)
asks them once per state and plan.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from bottisota.core.actions import Move, Refusal
from bottisota.engine.game import Game
from bottisota.engine.movement.result import MoveResult
from bottisota.engine.overwatch import Offer
from bottisota.engine.shooting.premeasure import Premeasure
from bottisota.engine.shooting.premeasure import premeasure as core_premeasure
from bottisota.engine.state import GameState


@dataclass
class MovePreview:
    """What a planned move would do: the result, or the refusal and the legal part
    before the refused step, plus the overwatch shots it would offer."""

    move: Move
    result: MoveResult | None = None
    refusal: Refusal | None = None
    prefix: MoveResult | None = None        # the steps before the refused one
    offers: list[Offer] = field(default_factory=list)

    @property
    def shown(self) -> MoveResult | None:
        """The path to draw: the whole move, or its legal part."""
        return self.result or self.prefix


def preview_move(game: Game, move: Move) -> MovePreview:
    """Ask the game what the move would do (no dice, no change): one `Game.preview`,
    and one more for the legal steps before a refused step (drawn as the ghost of
    the refused plan, with the overwatch shots that part would meet). Off its turn,
    a path the rules refuse says why (not merely "not your turn")."""
    pv = game.preview(move)
    refusal = pv.refusal
    if pv.move is None and refusal is not None and refusal.rule == "D18":
        found = game.preview_move(game.state, move)
        if isinstance(found, Refusal):
            refusal = found
    out = MovePreview(move=move, result=pv.move, refusal=refusal, offers=list(pv.overwatch))
    if pv.move is None and refusal is not None and refusal.step is not None \
            and refusal.step > 0:
        before = game.preview(Move(move.bot, move.steps[:refusal.step], move.hold_fire))
        out.prefix = before.move
        out.offers = list(before.overwatch) if before.move is not None else []
    return out


def premeasure(state: GameState, bot_id: str, weapon: str,
               target: str | tuple[float, float] | None = None,
               overwatch: bool = False) -> Premeasure:
    """The core's pre-measure for one weapon (engine.shooting.premeasure)."""
    return core_premeasure(state, bot_id, weapon, target, overwatch)
