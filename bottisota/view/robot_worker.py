"""Robot decisions off the frame loop (issue 32): a robot seat's `decide` runs on a
thread of its own while the table keeps drawing and shows "blue is thinking".

The decision is the very call the frame used to make (`robot.decide(game)` on the
game itself: the robot rolls its tables' dice from the game's seeded dice, so the
same seed and actions still give the same game). While it runs, the worker's
`lock` is held, and every change to the game (`Acting.apply`: an action, undo,
redo, a reload) waits for it, so the game the robot reads stands still. A decision
whose game changed before it was collected (an undo just after it was ready) is
dropped and asked again.
"""
from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pygame

from bottisota.core.i18n import _
from bottisota.view import style


@dataclass
class _Job:
    key: tuple[object, ...]
    player: str
    done: threading.Event = field(default_factory=threading.Event)
    action: Any = None
    error: BaseException | None = None


def _position(game: Any) -> tuple[object, ...]:
    """What names the decision asked for: the game, its actions, whose turn and phase."""
    state = game.state
    return (id(game), id(state), len(game.history), state.round, state.phase, state.active)


class RobotWorker:
    """One robot decision at a time, on a daemon thread."""

    def __init__(self, overlays: list[Any] | None = None,
                 prepare: Callable[[], object] | None = None) -> None:
        self.lock = threading.Lock()   # held while a robot decides: the game stands still
        self._job: _Job | None = None
        self._overlays = overlays      # the table's overlays: `draw` is one while it thinks
        self._prepare = prepare        # what acting on a decision will need, made first

    @property
    def thinking(self) -> str | None:
        """The seat whose robot is deciding now, or None."""
        job = self._job
        return job.player if job is not None and not job.done.is_set() else None

    @property
    def pending(self) -> bool:
        """A decision was begun and not yet collected (made or still being made)."""
        return self._job is not None

    def decision(self, robot: Any, game: Any, player: str) -> tuple[bool, Any]:
        """(True, action) once the robot's decision for the game as it stands is made;
        (False, None) while it is being made (begun by the first call)."""
        key = _position(game)
        job = self._job
        if job is not None and job.key != key:
            if not job.done.is_set():
                return False, None
            job = self._job = None             # made for a game since changed: asked again
        if job is None:
            job = self._job = _Job(key, player)
            if self._overlays is not None and self.draw not in self._overlays:
                self._overlays.append(self.draw)
            self.lock.acquire()                # released by the thread when it has decided
            threading.Thread(target=self._think, args=(job, robot, game), daemon=True,
                             name=f"robot-{player}").start()
            return False, None
        if not job.done.is_set():
            return False, None
        self._job = None
        if self._overlays is not None and self.draw in self._overlays:
            self._overlays.remove(self.draw)
        if job.error is not None:
            raise job.error
        return True, job.action

    def _think(self, job: _Job, robot: Any, game: Any) -> None:
        try:
            if self._prepare is not None:      # on this thread, not in the frame acting
                self._prepare()
            job.action = robot.decide(game)
        except BaseException as err:           # raised again on the frame's thread
            job.error = err
        finally:
            self.lock.release()
            job.done.set()

    def wait(self, seconds: float) -> None:
        """Waits up to `seconds` for the decision under way (a headless frame's pace)."""
        job = self._job
        if job is not None:
            job.done.wait(seconds)

    def draw(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The overlay while a robot thinks: "blue is thinking" at the table's top."""
        player = self.thinking
        if player is None:
            return
        text = style.label(_("{player} is thinking").format(player=player), 22)
        spot = text.get_rect(midtop=(area.centerx, area.top + 8))
        pygame.draw.rect(surface, style.BACKGROUND, spot.inflate(16, 8))
        surface.blit(text, spot)
