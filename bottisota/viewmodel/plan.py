"""The move being planned: a list of steps the player builds with keys and mouse.

Only the steps are kept here; whether they are legal, what they cost and what
they set off is the core's answer (`Game.preview`), never decided here.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from bottisota.core.actions import Back, DropMine, Forward, Lift, Loop, Move, Step, Strafe, Turn

LENGTH_ROUNDING = 2      # planned lengths are rounded to 0.01 cm
ANGLE_ROUNDING = 1       # planned angles to 0.1°


@dataclass
class MovePlan:
    """Steps planned for one bot; `tail` is a step still being dragged with the mouse."""

    bot: str
    steps: list[Step] = field(default_factory=list)
    tail: Step | None = None

    def all_steps(self) -> tuple[Step, ...]:
        return tuple(self.steps) + ((self.tail,) if self.tail is not None else ())

    def move(self, hold_fire: tuple[str, ...] = ()) -> Move:
        """The planned move as the core's action."""
        return Move(self.bot, self.all_steps(), tuple(hold_fire))

    def is_empty(self) -> bool:
        return not self.steps and self.tail is None

    # --- building -------------------------------------------------------------------
    def forward(self, cm: float) -> None:
        """Go forward (negative: back) by cm; merges with a last step of the same kind."""
        if cm == 0:
            return
        last = self.steps[-1] if self.steps else None
        if cm > 0 and isinstance(last, Forward):
            self._replace_last_length(last.cm + cm, Forward)
        elif cm < 0 and isinstance(last, Back):
            self._replace_last_length(last.cm - cm, Back)
        elif cm > 0 and isinstance(last, Back):
            self._shorten(last.cm - cm, Back, Forward)
        elif cm < 0 and isinstance(last, Forward):
            self._shorten(last.cm + cm, Forward, Back)
        else:
            self.steps.append(Forward(round(cm, LENGTH_ROUNDING)) if cm > 0
                              else Back(round(-cm, LENGTH_ROUNDING)))

    def _replace_last_length(self, cm: float, kind: type) -> None:
        self.steps[-1] = kind(round(cm, LENGTH_ROUNDING))

    def _shorten(self, left: float, same: type, other: type) -> None:
        """Pressing the opposite key first eats into the last straight step."""
        left = round(left, LENGTH_ROUNDING)
        if left > 0:
            self.steps[-1] = same(left)
        elif left < 0:
            self.steps[-1] = other(-left)
        else:
            self.steps.pop()

    def turn(self, degrees: float) -> None:
        """A turn (+ right). Consecutive turns stay separate steps (each is one turn)."""
        if degrees:
            self.steps.append(Turn(round(degrees, ANGLE_ROUNDING)))

    def free_turn(self, degrees: float) -> None:
        """A free turn (walkers, hoverers): merges with a last turn step."""
        last = self.steps[-1] if self.steps else None
        if isinstance(last, Turn):
            total = round(last.degrees + degrees, ANGLE_ROUNDING)
            if total:
                self.steps[-1] = Turn(total)
            else:
                self.steps.pop()
        else:
            self.turn(degrees)

    def strafe(self, bearing: float, cm: float) -> None:
        """A strafe at a bearing relative to the facing; merges with the same bearing."""
        last = self.steps[-1] if self.steps else None
        bearing = round(bearing % 360.0, ANGLE_ROUNDING)
        if isinstance(last, Strafe) and last.bearing == bearing:
            self.steps[-1] = Strafe(bearing, round(last.distance + cm, LENGTH_ROUNDING))
        else:
            self.steps.append(Strafe(bearing, round(cm, LENGTH_ROUNDING)))

    def loop(self) -> None:
        self.steps.append(Loop())

    def lift(self, direction: str) -> None:
        self.steps.append(Lift(direction))

    def drop_mine(self, weapon: str) -> None:
        self.steps.append(DropMine(weapon))

    def undo_step(self) -> None:
        """Remove the last planned step."""
        if self.tail is not None:
            self.tail = None
        elif self.steps:
            self.steps.pop()

    def clear(self) -> None:
        self.steps.clear()
        self.tail = None

    # --- mouse drags ----------------------------------------------------------------
    def drag_straight(self, along: float) -> None:
        """While dragging along the facing: forward (+) or back (-) so far."""
        along = round(along, LENGTH_ROUNDING)
        self.tail = Forward(along) if along > 0 else Back(-along) if along < 0 else None

    def drag_strafe(self, bearing: float, cm: float) -> None:
        self.tail = Strafe(round(bearing % 360.0, ANGLE_ROUNDING), round(cm, LENGTH_ROUNDING)) \
            if cm > 0 else None

    def end_drag(self) -> None:
        """The dragged step becomes a planned step."""
        tail, self.tail = self.tail, None
        if isinstance(tail, Forward):
            self.forward(tail.cm)
        elif isinstance(tail, Back):
            self.forward(-tail.cm)
        elif isinstance(tail, Strafe):
            self.strafe(tail.bearing, tail.distance)
