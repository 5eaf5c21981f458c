"""What a move (or a fling) would do or did: the path, the costs and the events.

`MoveResult` is what `preview_move` and `commit_move` answer; the view draws
the ghost from it while the player is still planning, so it explains every
piece: its cost multiplier, the turns used, the doors, belts, falls, pits and
teleporters met on the way. `FlingResult` is the same for a bot thrown by a
beam or a knock-back (R29, R40).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from bottisota.engine.events import Event


class FallPreview(TypedDict):
    """A previewed fall (R39): the drop, the least and most damage, the bots below."""

    drop: float
    damage_range: list[int]
    lands_on: list[str]


@dataclass(frozen=True, slots=True)
class PathPoint:
    """One corner of the path: where the centre is, its floor height and facing,
    the distance travelled so far and the movement spent so far (cm)."""

    x: float
    y: float
    z: float
    facing: float
    distance: float = 0.0
    spent: float = 0.0


@dataclass(frozen=True, slots=True)
class Piece:
    """One piece of a move: a straight run, a turn, a climb, a ride or a loop.

    `multiplier` is what each cm of `length` costs (R8-R10, R42); `cost` is the
    movement it spends in all (turn and climb costs included).
    """

    kind: str                   # forward | back | strafe | turn | loop | lift | teleport | carry
    step: int                   # index of the step it belongs to (-1: after the move)
    length: float
    multiplier: float
    cost: float
    note: str = ""


@dataclass
class MoveResult:
    """The outcome of a move, previewed or committed."""

    bot: str
    path: list[PathPoint]
    spent: float
    left: float
    allowed: float
    turns_used: int
    free_turns_left: int
    turn_credit: float          # cm of movement spent moving since the last turn (R8, R12)
    pieces: list[Piece]
    events: list[Event]
    x: float
    y: float
    z: float
    facing: float
    destroyed: bool = False
    ended: str | None = None    # why the move stopped early: collision, crash, pit, fall, ...
    dropped_steps: list[int] = field(default_factory=list)   # steps not made after it ended
    teleport_candidates: list[str] = field(default_factory=list)  # preview stopped here
    committed: bool = False

    @property
    def final(self) -> PathPoint:
        return self.path[-1]


@dataclass
class FlingResult:
    """Where a thrown bot would land (R29, R16, R36, R39, R40) and what it meets."""

    bot: str
    path: list[PathPoint]
    x: float
    y: float
    z: float
    facing: float
    moved: float                        # cm actually travelled
    stopped_by: str | None = None       # wall | bot | cliff | edge | pit | fall | None
    collisions: list[str] = field(default_factory=list)   # labels of walls and bot ids hit
    pit: str | None = None
    fall: FallPreview | None = None
    doors: list[str] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
