"""The table view's controller and frame: input -> view-model changes and core actions;
each frame the painters turn the view model and the game state into pixels.

`TableApp(game, size)` is the whole view around one `Game`: a test builds it with
a game and a window size, posts pygame events, calls `step()` for one frame and
reads `app.vm` (the pygame-free view model) or `app.windows.surface`. Every legality,
cost, chance and consequence shown comes from the core (`Game.preview`,
`Game.act`, the pre-measure). A second window (`projector`) can show the table
alone at true scale, drawn by the same painters from the same model.

The controller is composed, not inherited: it owns the game, the view model and the
robot seats, and four collaborators, each reading a narrow host interface:
`windows` (`view.windows.WindowControl`: surface, camera, layers, projector,
calibration), `actions` (`view.acting.GameActions`: the session and every call that
changes the game), `frame` (`view.frame.FrameDrawing`: update and draw a frame, the
panel) and `controls` (`view.controls.Controls`: keys and mouse, looked up in
`view.keys`).
"""
from __future__ import annotations

import gc
import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING

import pygame

from bottisota.core.actions import Action
from bottisota.core.i18n import _
from bottisota.engine.game import Game
from bottisota.engine.state import Bot, GameState
from bottisota.view.acting import GameActions
from bottisota.view.app_state import FPS
from bottisota.view.calibration import CalibrationScreen
from bottisota.view.camera_check import CameraHooks
from bottisota.view.controls import Controls
from bottisota.view.correcting import CorrectionMode
from bottisota.view.frame import FrameDrawing
from bottisota.view.prompts import pending_events
from bottisota.view.windows import WindowControl
from bottisota.viewmodel.calibration_store import Calibration
from bottisota.viewmodel.game_session import Session
from bottisota.viewmodel.log import GameLog
from bottisota.viewmodel.model import ViewModel

if TYPE_CHECKING:
    from bottisota.view.edit_reload import EditReloader
    from bottisota.view.phone_links import PhoneTable
    from bottisota.viewmodel.game_session import RobotPlayer

SPARE_AFTER_LIGHT_FRAME_MS = 6.0   # a spare surface is made after a frame lighter than this


class TableApp:
    """The table view of one game (see the module doc): it owns the game, the view
    model, the robot seats and its collaborators `windows`, `actions`, `frame` and
    `controls`; every game-changing call goes through `actions.apply`, extra overlays
    are drawn last through `frame.overlays`."""

    def __init__(self, game: Game, size: tuple[int, int] = (1280, 800), *,
                 screen: pygame.Surface | None = None,
                 robots: Mapping[str, RobotPlayer] | None = None,
                 journal_name: str | None = None, physical_dice: bool = False,
                 calibration: Calibration | None = None, reloader: EditReloader | None = None,
                 ui_scale: float = 1.0, robot_pace: float | None = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.game = game
        self.robots: Mapping[str, RobotPlayer] = robots or {}
        self.journal_name = journal_name
        self.physical_dice = physical_dice
        self.reloader = reloader
        self.vm = ViewModel(ui_scale=ui_scale, log=GameLog.of_game(game))
        if robot_pace is not None:
            self.vm.robot_pace = robot_pace
        self.running = True
        self.calibration: CalibrationScreen | None = None   # the F2 ruler screen, while shown
        self.phones: PhoneTable | None = None   # play --phones: the seats' links and lock
        self.correcting = CorrectionMode()   # the referee's hand (F7)
        self.frames_drawn = 0          # robot seats act from the frame after the first
        self._settled = False          # `settle` has frozen what the first frame made
        self.after_first_frame: list[Callable[[], None]] = []
        # a spare surface (milliseconds each) is made only after a frame this light: never
        # on top of a frame that already drew much (an action's, a zoom's)
        self.spare_budget_ms = SPARE_AFTER_LIGHT_FRAME_MS
        self.windows = WindowControl(self, size, screen, calibration, self._layout_changed)
        self.actions = GameActions(self)
        self.frame = FrameDrawing(self)
        self.controls = Controls(self)
        self.camera_hooks = CameraHooks(self)   # play --camera: its readings on the table
        self.frame.table_overlays.append(self.camera_hooks.draw)
        if journal_name:
            self.vm.log.say(_("journal: {journal_name} (written from the first action)").format(
                                journal_name=journal_name), "dim")
        self.actions.sync_selection()

    def _layout_changed(self) -> None:
        self.frame.forget_panel()

    # --- what the game is, and the public doors the commands and tests use -------------
    @property
    def state(self) -> GameState:
        return self.game.state

    def active_bot(self) -> Bot | None:
        return self.actions.active_bot()

    @property
    def session(self) -> Session:
        return self.actions.session

    def act(self, action: Action) -> bool:
        """An action from the table (a key press, a click) through the session."""
        return self.actions.act(action)

    def handle(self, event: pygame.event.Event) -> None:
        self.controls.handle(event)

    def click_table(self, x: float, y: float) -> None:
        self.controls.click_table(x, y)

    def draw(self, panel_may_wait: bool = False) -> pygame.Surface:
        return self.frame.draw(panel_may_wait)

    def update(self, dt: float) -> None:
        """The designer's files reloaded if they changed (`play --edit`), then the
        frame's clock, effects, threat view and robot seats (`FrameDrawing.update`)."""
        if self.reloader is not None:
            self.reloader.poll(self)
        self.frame.update(dt)
        self.camera_hooks.step()

    def ask_die(self, purpose: str) -> int:
        return self.frame.ask_die(purpose)

    def say(self, text: str, tone: str = "plain") -> None:
        self.vm.say(text, tone)

    # --- the view model's short names (tests read these) -------------------------------
    selected = property(lambda self: self.vm.selected,
                        lambda self, v: setattr(self.vm, "selected", v))

    plan = property(lambda self: self.vm.plan, lambda self, v: setattr(self.vm, "plan", v))

    weapon = property(lambda self: self.vm.weapon, lambda self, v: setattr(self.vm, "weapon", v))

    aim = property(lambda self: self.vm.aim, lambda self, v: setattr(self.vm, "aim", v))

    orders = property(lambda self: self.vm.orders, lambda self, v: setattr(self.vm, "orders", v))

    def step(self, dt: float = 1.0 / FPS) -> pygame.Surface:
        """One frame: handle queued events, let a robot act (from the second frame on:
        the table is shown before a robot seat's first action), update, draw."""
        for event in pending_events():
            self.handle(event)
        self.update(dt)
        self.frame.new_frame()
        started = time.perf_counter()
        out = self.frame.draw(panel_may_wait=True)
        projector = self.windows.projector
        if projector is not None and self.calibration is None:
            projector.draw(self)
        self.frame.new_frame()
        light = (time.perf_counter() - started) * 1000.0 < self.spare_budget_ms
        if self.frames_drawn and light and not self.windows.layers.make_spares():   # one a
            other = projector.layers if projector is not None else None   # frame, none in
            if other is not None:                                          # the first frame
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
        action; without it, a few. Then what waits for the first frame is started
        (`after_first_frame`: work for threads of their own that the first frame
        should not share the interpreter with)."""
        if not self._settled and self.frames_drawn:
            self._settled = True
            gc.freeze()
            for start in self.after_first_frame:
                start()

