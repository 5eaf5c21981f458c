"""What the table does with a live camera's readings (`play --camera`), as plain data:
the view gives the camera where the referee has each bot (`Expectation`: a new
version after every change), takes its readings made against the latest version,
and keeps
- the drifts to ring on the table ("put it here"), each new one told in the log and
  kept as a `camera_reading` note (use "check") for the journal's next action;
- the move read from the active bot's miniature moved by hand (move input): its
  steps become the plan (shown as any planned move, Enter commits it), and the move
  is journaled with a `camera_reading` note (use "move") beside its steps;
- the corrections F9 makes: the game takes each drifted bot's place from the camera
  (a `Correct` action with a `camera_reading` note, use "correction").

The camera itself (`bottisota.vision.live.LiveCamera`, OpenCV, a worker thread) is
handed in by the command as a `CameraFeed`; nothing here imports it.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bottisota.core.actions import Action, Correct, Move, Refusal, Step
from bottisota.core.i18n import _, translated
from bottisota.engine.event_types import CameraReadingEvent
from bottisota.engine.game import Game
from bottisota.engine.movement.result import MoveResult
from bottisota.engine.state import GameState
from bottisota.viewmodel.words import step_words


class PoseLike(Protocol):
    """Where a bot stands (vision.watch.Pose)."""

    @property
    def x(self) -> float: ...
    @property
    def y(self) -> float: ...
    @property
    def facing(self) -> float: ...


class DriftLike(Protocol):
    """A miniature seen off its place (vision.watch.Drift)."""

    @property
    def bot(self) -> str: ...
    @property
    def expected(self) -> PoseLike: ...
    @property
    def seen(self) -> PoseLike: ...
    @property
    def distance(self) -> float: ...


class ReadingLike(Protocol):
    """One reading of the table (vision.live.TableReading)."""

    @property
    def version(self) -> int: ...
    @property
    def seen(self) -> Mapping[str, PoseLike]: ...
    @property
    def drifts(self) -> Sequence[DriftLike]: ...
    @property
    def missing(self) -> Sequence[str]: ...
    @property
    def frames(self) -> int: ...


class PlannedLike(Protocol):
    """A move read from the table (vision.move_input.PlannedFromCamera)."""

    @property
    def move(self) -> Move: ...
    @property
    def result(self) -> MoveResult | None: ...
    @property
    def refusal(self) -> Refusal | None: ...


class CameraFeed(Protocol):
    """The live camera (vision.live.LiveCamera): never waits."""

    error: str | None

    def expect_poses(self, version: int, poses: dict[str, tuple[float, float, float]],
                     markers: dict[str, int], heights: dict[str, float]) -> None: ...
    def take(self) -> Sequence[ReadingLike]: ...
    def markers_for(self, bots: list[str]) -> dict[str, int]: ...
    def plan_move(self, game: Game, bot_id: str, end: PoseLike) -> PlannedLike: ...
    @property
    def idle(self) -> bool: ...
    def close(self) -> None: ...


def _pose(p: PoseLike) -> list[float]:
    return [round(p.x, 2), round(p.y, 2), round(p.facing % 360.0, 1)]


@dataclass(frozen=True)
class _Pose:
    x: float
    y: float
    facing: float


SAME_CM = 0.3       # two readings of a miniature this close are the same place (noise)
SAME_DEG = 3.0


def _apart(a: PoseLike, b: PoseLike) -> bool:
    """Two readings far enough apart to be another place of the miniature."""
    return (abs(a.x - b.x) + abs(a.y - b.y) > SAME_CM
            or abs((a.facing - b.facing + 180.0) % 360.0 - 180.0) > SAME_DEG)


@dataclass
class CameraMove:
    """The active bot's miniature moved by hand, and the move read from it."""

    bot: str
    drift: DriftLike
    planned: PlannedLike
    frames: int

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.planned.move.steps


@dataclass
class CameraCheck:
    """The table's side of the camera (see the module doc)."""

    feed: CameraFeed
    version: int = 0
    key: tuple[tuple[str, float, float, float, float], ...] | None = None
    markers: dict[str, int] = field(default_factory=dict)
    reading: ReadingLike | None = None
    drifts: list[DriftLike] = field(default_factory=list)      # ringed on the table
    move: CameraMove | None = None
    noted: dict[str, list[float]] = field(default_factory=dict)  # drifts told, by bot
    error_told: bool = False

    def sync(self, state: GameState) -> bool:
        """Give the camera where the referee has each bot on the table (a new version
        when anything changed); True when it changed (the last reading is stale)."""
        bots = [b for b in state.bots.values() if b.on_table]
        key = tuple((b.id, round(b.x, 2), round(b.y, 2), round(b.facing % 360.0, 1),
                     round(b.z + b.stats.height, 2)) for b in bots)
        if key == self.key:
            return False
        self.key = key
        self.version += 1
        self.markers = self.feed.markers_for(list(state.bots))   # ids in placing order
        self.feed.expect_poses(self.version, {b.id: (b.x, b.y, b.facing) for b in bots},
                               {b.id: self.markers[b.id] for b in bots},
                               {b.id: b.z + b.stats.height for b in bots})
        self.reading = None
        self.drifts = []
        return True

    def take(self, game: Game, mover: str | None) -> list[CameraReadingEvent]:
        """The readings made against the current version: the drifts to ring, the move
        read for `mover` (the human's bot whose move is due, or None), and the new
        drifts' notes (to be logged now and journaled with the next action)."""
        readings = [r for r in self.feed.take() if r.version == self.version]
        if not readings:
            return []
        reading = self.reading = readings[-1]
        notes: list[CameraReadingEvent] = []
        moved = next((d for d in reading.drifts if d.bot == mover), None)
        if moved is None:
            self.move = None
        elif self.move is None or _apart(self.move.drift.seen, moved.seen):
            self.move = CameraMove(moved.bot, moved,
                                   self.feed.plan_move(game, moved.bot, moved.seen),
                                   reading.frames)
        self.drifts = [d for d in reading.drifts if d.bot != mover]
        for d in self.drifts:
            told = self.noted.get(d.bot)
            seen = _pose(d.seen)
            if told is None or _apart(d.seen, _Pose(*told)):
                self.noted[d.bot] = seen
                notes.append(self.note(d, "check", reading.frames))
        for bot in list(self.noted):
            if bot not in {d.bot for d in self.drifts}:
                del self.noted[bot]
        return notes

    def note(self, drift: DriftLike, use: str, frames: int) -> CameraReadingEvent:
        return {"type": "camera_reading", "bot": drift.bot,
                "marker": self.markers.get(drift.bot, -1), "use": use,
                "expected": _pose(drift.expected), "seen": _pose(drift.seen), "frames": frames}

    def note_for(self, action: Action) -> CameraReadingEvent | None:
        """The note journaled beside a move the camera read (its steps unchanged)."""
        m = self.move
        if m is not None and isinstance(action, Move) and action.bot == m.bot \
                and tuple(action.steps) == tuple(m.steps):
            return self.note(m.drift, "move", m.frames)
        return None

    def corrections(self) -> list[tuple[Correct, CameraReadingEvent]]:
        """F9: each ringed bot put where the camera sees it (the referee's hand)."""
        out = []
        frames = self.reading.frames if self.reading is not None else 0
        for d in self.drifts:
            x, y, facing = _pose(d.seen)
            out.append((Correct(d.bot, _("the camera saw it here"), at=(x, y), facing=facing),
                        self.note(d, "correction", frames)))
        return out

    def move_words(self) -> str:
        """The log's line for the move read from the table."""
        m = self.move
        if m is None:
            return ""
        steps = ", ".join(step_words(s) for s in m.steps) or _("no steps")
        if m.planned.refusal is None and m.planned.result is not None:
            return _("camera: {bot} moved by hand: {steps}; Enter commits it").format(
                bot=m.bot, steps=steps)
        return _("camera: {bot} moved by hand: {steps}, refused: {why}").format(
            bot=m.bot, steps=steps, why=translated(m.planned.refusal))
