"""What the table view's controller holds (`AppState`: the game, the view model, the
windows' layers and cameras, what is being dragged) and its plain questions about
it: whose turn, what the game expects, the view model's short names. The
behaviour lives in the mixins `TableApp` is made of: `view.windows` (window
geometry, full screen, the projector, calibration), `view.acting` (every call that
changes the game, through `apply`), `view.frame` (update and draw a frame, the
panel) and `view.controls` (keys and mouse)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from bottisota.view.arena_layer import ArenaLayer
from bottisota.view.calibration import CalibrationScreen
from bottisota.view.camera import Camera
from bottisota.view.correcting import CorrectionMode
from bottisota.view.prompts import (
    OverwatchPrompt,
)
from bottisota.view.table_painter import (
    TableInput,
    WindowLayers,
)
from bottisota.view.widgets import Button
from bottisota.viewmodel.calibration_store import Calibration
from bottisota.viewmodel.core_calls import MovePreview
from bottisota.viewmodel.model import ViewModel
from bottisota.viewmodel.plan import MovePlan

PANEL_SHARE = 0.27       # the side panel's share of the window's width
STEP_CM = 1.0            # one key press of forward/back/strafe
FINE_STEP_CM = 0.1       # with Shift
COARSE_STEP_CM = 5.0     # with Ctrl
FREE_TURN_DEG = 15.0     # walkers and hoverers: one key press of turning
FINE_TURN_DEG = 1.0      # with Shift
FPS = 60
FREE_TURNERS = ("walker", "hover")
DRAG_GRAB_SLACK_CM = 1.0
ZOOM_SETTLE_S = 0.25     # the arena is re-drawn this long after the last zoom step
THREAT_BUDGET_MS = 3.0     # the threat view computes this long per frame (issue: at most 4)


class AppState:
    """The controller's state and its plain questions (see the module doc)."""

    game: Any
    screen: pygame.Surface | None
    surface: pygame.Surface
    robots: dict[str, Any]
    notes: list[dict]                  # robot decisions not yet journaled with an action
    journal_name: str | None
    physical_dice: bool
    calibration_value: Calibration | None
    reloader: Any
    vm: ViewModel
    layers: WindowLayers
    projector: Any                     # a ProjectorWindow showing the table alone
    camera: Camera
    running: bool
    _preview: MovePreview | None
    _preview_key: tuple | None
    _pm_cache: tuple[tuple, Any, dict] | None
    _options_cache: tuple[tuple, list] | None
    _panel: tuple[tuple, pygame.Surface, pygame.Rect] | None
    _panel_shown: tuple | None         # (surface, key) whose pixels show the panel
    _panel_saved: bool                 # the kept surface holds the panel shown
    _panel_waited: bool                # the panel shown was left as it was last frame
    _ruler_drag: bool
    _pan_drag: tuple[int, int] | None
    _plan_drag: bool
    _drag_plan: tuple | None           # the plan as the panel shows it
    _strafe_drag: bool
    threat: Any
    calibration: CalibrationScreen | None
    prompt: OverwatchPrompt | None
    dice_question: str | None
    mouse: tuple[int, int]
    buttons: list[Button]
    frame_ms: float
    frames_drawn: int              # frames drawn so far (robot seats act from the second)
    _belt_phase: float
    _last_zoom: float
    _clock: float
    _frame_input: TableInput | None    # this frame's table input (both windows)
    sprite_budget_ms: float | None     # None: stills, every bot exact
    _labels_placed: bool               # the laptop placed its labels this frame
    overlays: list[Callable[[pygame.Surface, pygame.Rect], Any]]   # drawn last, each frame
    phones: Any                        # play --phones: a view.phone_links.PhoneTable, or None
    keep_frames: bool                  # the projector keeps pixels that would not change
    spare_budget_ms: float             # spare surfaces are made only after lighter frames
    _turn: tuple                       # (round, active bot, what is expected) last synced
    correcting: CorrectionMode         # the referee's hand (F7)
    _windowed: tuple[int, int] | None  # the window's place before full screen

    @property
    def arena_layer(self) -> ArenaLayer:
        return self.layers.arena

    @arena_layer.setter
    def arena_layer(self, layer: ArenaLayer) -> None:
        self.layers = WindowLayers(layer)
        if self.projector is not None:
            self.projector.layers = WindowLayers(ArenaLayer(layer.arena, grid=layer.grid,
                                                            rules=layer.rules))

    def new_layers(self) -> WindowLayers:
        return WindowLayers(ArenaLayer(self.game.state.arena, grid=self.vm.show_grid,
                                       rules=self.game.state.rules))

    # --- the view model's short names (tests and painters read these) -----------------
    selected = property(lambda self: self.vm.selected,
                        lambda self, v: setattr(self.vm, "selected", v))

    plan = property(lambda self: self.vm.plan, lambda self, v: setattr(self.vm, "plan", v))

    weapon = property(lambda self: self.vm.weapon, lambda self, v: setattr(self.vm, "weapon", v))

    aim = property(lambda self: self.vm.aim, lambda self, v: setattr(self.vm, "aim", v))

    orders = property(lambda self: self.vm.orders, lambda self, v: setattr(self.vm, "orders", v))

    # --- what the game expects ---------------------------------------------------------
    @property
    def state(self) -> Any:
        return self.game.state

    def expected(self) -> str:
        return self.game.expected()

    def active_bot(self) -> Any:
        return self.state.bots.get(self.state.active or "")

    def human_to_act(self) -> bool:
        bot = self.active_bot()
        return bot is not None and bot.player not in self.robots and self.expected() != "over"

    def _sync_selection(self) -> None:
        """After a change: plan for the active bot if it is a human's move; a new turn
        (another bot, phase or round) starts with no weapon chosen, nothing aimed at
        and no shot queued (the last turn's pre-measure leaves the table)."""
        vm = self.vm
        bot = self.active_bot()
        turn = (self.state.round, self.state.active, self.game.expected())
        if turn != self._turn:
            vm.weapon, vm.aim, vm.measure_overwatch = None, None, False
            vm.orders.clear()
        self._turn = turn
        if bot is not None and self.expected() == "move" and self.human_to_act():
            if vm.plan is None or vm.plan.bot != bot.id:
                vm.plan = MovePlan(bot.id)
            vm.selected = bot.id
        else:
            vm.plan = None
        if bot is not None and self.expected() == "shoot" and self.human_to_act():
            vm.selected = bot.id
        if vm.selected is not None and vm.selected not in self.state.bots:
            vm.selected = None
        self._preview = None
        self._preview_key = None

    # --- messages ----------------------------------------------------------------------
    def say(self, text: str, tone: str = "plain") -> None:
        self.vm.say(text, tone)
