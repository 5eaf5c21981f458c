"""The view's only doors into the rules: previews, pre-measures and actions.

Everything the view shows about legality, costs, chances and consequences
comes from these calls into the core (`Game.preview`, `Game.act`,
`rules.shooting.premeasure`, `rules.overwatch.offers`). They only repackage
the answers for drawing.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from bottisota.core.actions import Move, Refusal
from bottisota.engine.game import Game, Preview
from bottisota.engine.movement.result import MoveResult
from bottisota.engine.overwatch import Offer, offers
from bottisota.engine.shooting import shots as shooting
from bottisota.engine.shooting.premeasure import Premeasure
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


def _split(answer: Preview) -> tuple[MoveResult | None, Refusal | None, list[Offer]]:
    """Game.preview's answer for a move: its result, its refusal and the overwatch offers."""
    return answer.move, answer.refusal, list(answer.overwatch)


def preview_move(game: Game, move: Move) -> MovePreview:
    """Ask the game what the move would do (no dice, no change)."""
    result, refusal, offers = _split(game.preview(move))
    out = MovePreview(move=move, result=result, refusal=refusal, offers=offers)
    if refusal is not None and refusal.step is not None and refusal.step > 0:
        prefix = Move(move.bot, move.steps[:refusal.step], move.hold_fire)
        r, _ref, _ = _split(game.preview(prefix))
        out.prefix = r
    if result is not None and not offers:
        out.offers = _offers(game.state, move, result)
    return out


def _offers(state: GameState, move: Move, result: MoveResult) -> list[Offer]:
    """Overwatch shots the path would offer (rules.overwatch), if the game did not say."""
    return offers(state, move.bot, result.path, move.hold_fire)


def premeasure(state: GameState, bot_id: str, weapon: str,
               target: str | tuple[float, float] | None = None,
               overwatch: bool = False) -> Premeasure:
    """The core's pre-measure for one weapon (engine.shooting.premeasure)."""
    return shooting.premeasure(state, bot_id, weapon, target, overwatch)
