"""The table view's controller and frame: input -> view-model changes and core actions;
each frame the painters turn the view model and the game state into pixels.

`TableApp(game, size)` is the whole view around one `Game`: a test builds it with
a game and a window size, posts pygame events, calls `step()` for one frame and
reads `app.vm` (the pygame-free view model) or `app.surface`. Every legality,
cost, chance and consequence shown comes from the core (`Game.preview`,
`Game.act`, the pre-measure). A second window (`projector`) can show the table
alone at true scale, drawn by the same painters from the same model.
"""
from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

import pygame

from bottisota.core.i18n import _
from bottisota.view.app_state import FPS
from bottisota.view.arena_layer import ArenaLayer
from bottisota.view.calibration import CalibrationScreen
from bottisota.view.camera_check import CameraHooks
from bottisota.view.correcting import CorrectionMode
from bottisota.view.prompts import (
    OverwatchPrompt,
    pending_events,
)
from bottisota.view.table_painter import (
    SPRITE_BUDGET_MS,
    TableInput,
    WindowLayers,
)
from bottisota.view.widgets import Button
from bottisota.viewmodel.calibration_store import Calibration
from bottisota.viewmodel.core_calls import MovePreview
from bottisota.viewmodel.log import GameLog
from bottisota.viewmodel.model import ViewModel

SPARE_AFTER_LIGHT_FRAME_MS = 6.0   # a spare surface is made after a frame lighter than this


class TableApp(CameraHooks):
    """The table view of one game (see the module doc): its state (`view.app_state`),
    windows (`view.windows`), calls into the game (`view.acting`, all game-changing
    ones through `apply`), frame (`view.frame`, extra overlays last through
    `draw_overlays`) and input (`view.controls`)."""

    def __init__(self, game: Any, size: tuple[int, int] = (1280, 800), *,
                 screen: pygame.Surface | None = None, robots: dict[str, Any] | None = None,
                 journal_name: str | None = None, physical_dice: bool = False,
                 calibration: Calibration | None = None, reloader: Any = None,
                 ui_scale: float = 1.0, robot_pace: float | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.game = game
        self.screen = screen
        self.surface = screen if screen is not None else pygame.Surface(size)
        self.robots = robots or {}
        self.notes: list[dict] = []    # robot decisions not yet journaled with an action
        self.journal_name = journal_name
        self.physical_dice = physical_dice
        self.calibration_value = calibration
        self.reloader = reloader
        self.vm = ViewModel(ui_scale=ui_scale, log=GameLog.of_game(game))
        if robot_pace is not None:
            self.vm.robot_pace = robot_pace
        self.layers = WindowLayers(ArenaLayer(game.state.arena, rules=game.state.rules))
        self.projector: Any = None     # a ProjectorWindow showing the table alone
        self.camera = self._fit_camera()
        self.running = True
        self._preview: MovePreview | None = None
        self._preview_key: tuple | None = None
        self._pm_cache: tuple[tuple, Any, dict] | None = None
        self._options_cache: tuple[tuple, list] | None = None
        self._panel: tuple[tuple, pygame.Surface, pygame.Rect] | None = None
        self._panel_shown: tuple | None = None   # (surface, key) whose pixels show the panel
        self._panel_saved = False     # the kept surface holds the panel shown
        self._panel_waited = False    # the panel shown was left as it was last frame
        self._ruler_drag = False
        self._pan_drag: tuple[int, int] | None = None
        self._plan_drag = False
        self._drag_plan: tuple | None = None   # the plan as the panel shows it
        self._strafe_drag = False
        self.threat: Any = None
        self.calibration: CalibrationScreen | None = None
        self.prompt: OverwatchPrompt | None = None
        self.dice_question: str | None = None
        self.mouse: tuple[int, int] = (0, 0)
        self.buttons: list[Button] = []
        self.frame_ms: float = 0.0
        self.frames_drawn = 0          # robot seats act from the frame after the first
        self._settled = False          # `settle` has frozen what the first frame made
        self._belt_phase = 0.0
        self._last_zoom = -1.0
        self._clock = 0.0
        self._frame_input: TableInput | None = None   # this frame's table input (both windows)
        self.sprite_budget_ms: float | None = SPRITE_BUDGET_MS   # None: stills, all exact
        self._labels_placed = False    # the laptop placed its labels this frame
        self.overlays: list[Callable[[pygame.Surface, pygame.Rect], Any]] = []
        self.phones: Any = None      # play --phones: a view.phone_links.PhoneTable
        self.keep_frames = True      # the projector keeps pixels that would not change
        # a spare surface (milliseconds each) is made only after a frame this light: never
        # on top of a frame that already drew much (an action's, a zoom's)
        self.spare_budget_ms = SPARE_AFTER_LIGHT_FRAME_MS
        self._turn: tuple = ()
        self.correcting = CorrectionMode()   # the referee's hand (F7)
        self._windowed: tuple[int, int] | None = None
        if journal_name:
            self.vm.log.say(_("journal: {journal_name} (written from the first action)").format(
                                journal_name=journal_name), "dim")
        self._sync_selection()

    def step(self, dt: float = 1.0 / FPS) -> pygame.Surface:
        """One frame: handle queued events, let a robot act (from the second frame on:
        the table is shown before a robot seat's first action), update, draw."""
        for event in pending_events():
            self.handle(event)
        self.update(dt)
        self._frame_input = None
        started = time.perf_counter()
        out = self.draw(panel_may_wait=True)
        if self.projector is not None and self.calibration is None:
            self.projector.draw(self)
        self._frame_input = None
        light = (time.perf_counter() - started) * 1000.0 < self.spare_budget_ms
        if self.frames_drawn and light and not self.layers.make_spares():   # one a frame, none in
            other = getattr(self.projector, "layers", None)          # the first frame
            if other is not None:
                other.make_spares()
        self.frames_drawn += 1
        return out

    def run(self, clock: pygame.time.Clock | None = None) -> None:
        """The window's loop until it is closed."""
        clock = clock or pygame.time.Clock()
        while self.running:
            dt = clock.tick(FPS) / 1000.0
            self.step(dt)
            pygame.display.flip()
            self.settle()

    def settle(self) -> None:
        """Once, after the first frame (the window's loops call it after every frame):
        what is made by then (the arena and its compiled index, the cards, the fonts,
        the first frame's layers and caches) lasts as long as the window, so Python's
        cyclic garbage collector is told to leave it out of its rounds (`gc.freeze`, as
        the command did for its modules: `cli._run`, which also unfreezes at its end).
        A full round walking it all took 13-30 ms, one frame over budget after an
        action; without it, a few."""
        if not self._settled and self.frames_drawn:
            self._settled = True
            gc.freeze()

