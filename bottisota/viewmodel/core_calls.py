"""The view's only doors into the rules: previews, pre-measures and actions.

Everything the view shows about legality, costs, chances and consequences
comes from these calls into the core (`Game.preview`, `Game.act`,
`rules.shooting.premeasure`, `rules.overwatch.offers`). They only repackage
the answers for drawing.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bottisota.core.actions import Move, Refusal
from bottisota.engine.movement.result import MoveResult
from bottisota.engine.overwatch import offers
from bottisota.engine.shooting import shots as shooting


@dataclass
class MovePreview:
    """What a planned move would do: the result, or the refusal and the legal part
    before the refused step, plus the overwatch shots it would offer."""

    move: Move
    result: MoveResult | None = None
    refusal: Refusal | None = None
    prefix: MoveResult | None = None        # the steps before the refused one
    offers: list[Any] = field(default_factory=list)

    @property
    def shown(self) -> MoveResult | None:
        """The path to draw: the whole move, or its legal part."""
        return self.result or self.prefix


def _split(answer: Any) -> tuple[MoveResult | None, Refusal | None, list[Any]]:
    """Unpack Game.preview's answer: a MoveResult, a Refusal, or an object / pair
    carrying one of them with the overwatch offers."""
    if isinstance(answer, Refusal):
        return None, answer, []
    if isinstance(answer, MoveResult):
        return answer, None, []
    if isinstance(answer, tuple) and len(answer) == 2:
        first, offers = answer
        r, ref, _ = _split(first)
        return r, ref, list(offers or [])
    offers = list(getattr(answer, "offers", None) or getattr(answer, "overwatch", None) or [])
    for name in ("result", "move", "preview"):
        inner = getattr(answer, name, None)
        if isinstance(inner, (MoveResult, Refusal)):
            r, ref, _ = _split(inner)
            return r, ref or getattr(answer, "refusal", None), offers
    return None, getattr(answer, "refusal", None), offers


def preview_move(game: Any, move: Move) -> MovePreview:
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


def _offers(state: Any, move: Move, result: MoveResult) -> list[Any]:
    """Overwatch shots the path would offer (rules.overwatch), if the game did not say."""
    return offers(state, move.bot, result.path, move.hold_fire)


def premeasure(state: Any, bot_id: str, weapon: str, target: Any = None,
               overwatch: bool = False) -> Any:
    """The core's pre-measure for one weapon (rules.shooting.premeasure), or None
    while the core has none."""
    fn = getattr(shooting, "premeasure", None)
    if fn is None:
        return None
    return fn(state, bot_id, weapon, target, overwatch)
