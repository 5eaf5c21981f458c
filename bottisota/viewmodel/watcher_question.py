"""The watcher's question (R23: a watcher *may* fire): a committed move waits while
each watcher it would meet is asked, in order, to fire or hold; the answers become
the move's `hold_fire`. A question unanswered for the house rule's
`overwatch_answer_seconds` is taken as hold."""
from __future__ import annotations

from dataclasses import dataclass, field

from bottisota.core.actions import Move
from bottisota.engine.overwatch import Offer


@dataclass
class WatcherQuestion:
    """The move, the offers still to answer, the watchers that hold, and when the
    current offer was put (for its time limit)."""

    move: Move
    offers: list[Offer]
    seconds: float = 30.0
    asked_at: float = 0.0
    serial: int = 0              # tells one question's asks from another's
    typed: tuple[int, ...] | None = None   # dice rolled by hand for the move, if any
    held: list[str] = field(default_factory=list)
    index: int = 0

    @property
    def current(self) -> Offer | None:
        return self.offers[self.index] if self.index < len(self.offers) else None

    @property
    def finished(self) -> bool:
        return self.index >= len(self.offers)

    @property
    def ask_id(self) -> str:
        """The id of the ask now put (an answer to an older one is too late)."""
        return f"{self.serial}-{self.index}"

    def answer(self, fire: bool, now: float | None = None) -> None:
        offer = self.current
        if offer is None:
            return
        if not fire:
            self.held.append(offer.watcher)
        self.index += 1
        if now is not None:
            self.asked_at = now

    def left(self, now: float) -> float:
        """Seconds left to answer the current offer."""
        return max(0.0, self.asked_at + self.seconds - now)

    def final_move(self) -> Move:
        return Move(self.move.bot, self.move.steps,
                    tuple(self.move.hold_fire) + tuple(self.held))
