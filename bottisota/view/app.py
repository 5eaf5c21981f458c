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

import math
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pygame

from bottisota.core.actions import (
    Pass,
    Place,
    SelfDestruct,
    Service,
    SetOverwatch,
    Shoot,
    ShotOrder,
)
from bottisota.core.errors import JournalWriteError
from bottisota.engine.shooting.geometry import door_keys, open_doors
from bottisota.view import style
from bottisota.view.arena_layer import ArenaLayer
from bottisota.view.bots_layer import bot_at, player_colours
from bottisota.view.calibration import CalibrationScreen
from bottisota.view.camera import Camera
from bottisota.view.help import draw_help
from bottisota.view.move_overlay import plan_summary
from bottisota.view.overlays import text_box
from bottisota.view.panel import PanelInput, draw_panel
from bottisota.view.premeasure_overlay import nearest_target
from bottisota.view.prompts import (
    OverwatchPrompt,
    draw_overwatch_prompt,
    pending_events,
    read_typed_die,
)
from bottisota.view.table_painter import PlaceGhost, TableInput, WindowLayers, paint_table
from bottisota.view.widgets import Button
from bottisota.viewmodel.calibration_store import Calibration
from bottisota.viewmodel.core_calls import MovePreview, premeasure, preview_move
from bottisota.viewmodel.guidance import SERVICE_CHOICES, danger, headline, shooting_options
from bottisota.viewmodel.log import GameLog
from bottisota.viewmodel.model import PANEL_BOTTOM, PANEL_HIDDEN, PANEL_MODES, ViewModel
from bottisota.viewmodel.plan import MovePlan
from bottisota.viewmodel.results import effects_of
from bottisota.viewmodel.sizes import TextSizes, next_ui_scale, text_sizes
from bottisota.viewmodel.threat import hover_words, state_key, threat_map

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
THREAT_BUDGET_MS = 4.0


def _window() -> pygame.Surface:
    """The window's surface (there is a window when this is asked)."""
    surface = pygame.display.get_surface()
    if surface is None:
        raise pygame.error("no window")
    return surface


def _nothing() -> None:
    """A panel command that has nothing to act on."""


class TableApp:
    """The table view of one game (see the module doc)."""

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
        self.layers = WindowLayers(ArenaLayer(game.state.arena))
        self.projector: Any = None     # a ProjectorWindow showing the table alone
        self.camera = self._fit_camera()
        self.running = True
        self._preview: MovePreview | None = None
        self._preview_key: tuple | None = None
        self._pm_cache: tuple[tuple, Any] | None = None
        self._options_cache: tuple[tuple, list] | None = None
        self._panel: tuple[tuple, pygame.Surface, pygame.Rect] | None = None
        self._panel_shown: tuple | None = None   # (surface, key) whose pixels show the panel
        self._ruler_drag = False
        self._pan_drag: tuple[int, int] | None = None
        self._plan_drag = False
        self._strafe_drag = False
        self.threat: Any = None
        self.calibration: CalibrationScreen | None = None
        self.prompt: OverwatchPrompt | None = None
        self.dice_question: str | None = None
        self.mouse: tuple[int, int] = (0, 0)
        self.buttons: list[Button] = []
        self.frame_ms: float = 0.0
        self._belt_phase = 0.0
        self._last_zoom = -1.0
        self._clock = 0.0
        if journal_name:
            self.vm.log.say(f"journal: {journal_name} (written from the first action)", "dim")
        self._sync_selection()

    @property
    def arena_layer(self) -> ArenaLayer:
        return self.layers.arena

    @arena_layer.setter
    def arena_layer(self, layer: ArenaLayer) -> None:
        self.layers = WindowLayers(layer)
        if self.projector is not None:
            self.projector.layers = WindowLayers(ArenaLayer(layer.arena, grid=layer.grid))

    def new_layers(self) -> WindowLayers:
        return WindowLayers(ArenaLayer(self.game.state.arena, grid=self.vm.show_grid))

    # --- the view model's short names (tests and painters read these) -----------------
    selected = property(lambda self: self.vm.selected,
                        lambda self, v: setattr(self.vm, "selected", v))
    plan = property(lambda self: self.vm.plan, lambda self, v: setattr(self.vm, "plan", v))
    weapon = property(lambda self: self.vm.weapon, lambda self, v: setattr(self.vm, "weapon", v))
    aim = property(lambda self: self.vm.aim, lambda self, v: setattr(self.vm, "aim", v))
    orders = property(lambda self: self.vm.orders, lambda self, v: setattr(self.vm, "orders", v))

    # --- geometry of the window --------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    @property
    def panel_rect(self) -> pygame.Rect | None:
        w, h = self.size
        if self.vm.panel == PANEL_HIDDEN and self.projector is None:
            return None                 # one screen, the table alone (two: the laptop keeps it)
        if self.vm.panel == PANEL_BOTTOM:
            ph = min(h - 100, max(200, round(h * 0.32)))
            return pygame.Rect(0, h - ph, w, ph)
        pw = min(w - 100, max(300, round(w * PANEL_SHARE * self.vm.ui_scale)))
        return pygame.Rect(w - pw, 0, pw, h)

    @property
    def table_area(self) -> pygame.Rect:
        w, h = self.size
        p = self.panel_rect
        if p is None:
            return pygame.Rect(0, 0, w, h)
        if self.vm.panel == PANEL_BOTTOM:
            return pygame.Rect(0, 0, w, p.y)
        return pygame.Rect(0, 0, max(100, p.x), h)

    def sizes(self, cam: Camera | None = None) -> TextSizes:
        return text_sizes((cam or self.camera).scale, self.size, self.vm.ui_scale)

    def _fit_camera(self) -> Camera:
        area = self.table_area
        cal = self.calibration_value
        if self.vm.true_scale and cal is not None and self.projector is None:
            cam = Camera.centred(self.game.state.arena.size, area.size, cal.x, cal.y / cal.x)
            tw, th = self.game.state.arena.size
            if tw * cal.x > area.w + 1 or th * cal.y > area.h + 1:
                self.vm.say("the table at true scale is bigger than this window: F3 fits it "
                            "(or hide the panel with Tab)", "alarm")
            return cam
        return Camera.fit(self.game.state.arena.size, area.size)

    def resized(self, size: tuple[int, int]) -> None:
        """The window changed size: a new surface (headless) and a fitted camera."""
        if self.screen is None:
            self.surface = pygame.Surface(size)
        else:
            self.surface = self.screen = _window()
        self._panel = None
        self.camera = self._fit_camera()

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
        """After a change: plan for the active bot if it is a human's move."""
        vm = self.vm
        bot = self.active_bot()
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

    # --- acting through the game -------------------------------------------------------
    def take_robot_notes(self) -> None:
        """Collect the robots' `robot_decision` events (logged now, journaled with the
        next action the game accepts, as its notes)."""
        seen: set[int] = set()
        for robot in self.robots.values():
            if id(robot) in seen:
                continue
            seen.add(id(robot))
            for e in robot.take_events():
                self.vm.log.events([e], None)
                self.notes.append(e)

    def act(self, action: Any) -> bool:
        """Send an action to the game, with the robot decisions made since the last
        one as its notes; log its events and show its results, or its refusal."""
        self.take_robot_notes()
        notes = list(self.notes)
        try:
            result = self.game.act(action, notes)
        except JournalWriteError as err:   # disk full: the game took the action back
            self.say(str(err), "alarm")
            return False
        except Exception as err:   # physical dice abandoned, a rule error: never crash the table
            self.say(f"could not act: {type(err).__name__}: {err}", "alarm")
            return False
        if result.refusal is not None:
            self.say(f"refused: {result.refusal}", "alarm")
            return False
        self.notes = []
        self.vm.message = None
        self.vm.log.forget_undone()
        events = result.events[len(notes):]         # the notes were logged when made
        self.vm.log.events(events, len(self.game.history))
        self.vm.effects.add(effects_of(events, self.state))
        self.vm.robot_wait = self.vm.robot_pace
        self._changed()
        return True

    def _changed(self) -> None:
        vm = self.vm
        vm.version += 1
        vm.orders = []
        vm.confirm = None
        vm.aim = None
        self._pm_cache = None
        self._options_cache = None
        self._sync_selection()

    def undo(self) -> None:
        n = len(self.game.history)
        try:
            done = self.game.undo()
        except JournalWriteError as err:   # not journaled: nothing was undone
            self.say(str(err), "alarm")
            return
        if done:
            self.take_robot_notes()
            self.notes = []        # undo drops the dice rolled since the last action too
            self.vm.log.undone(n)
            self.vm.effects.clear()
            self.say(f"undone: action {n}", "dim")
            self.vm.plan = None
            self._changed()
        else:
            self.say("nothing to undo", "dim")

    def redo(self) -> None:
        try:
            done = self.game.redo()
        except JournalWriteError as err:   # not journaled: nothing was redone
            self.say(str(err), "alarm")
            return
        if done:
            self.take_robot_notes()
            self.notes = []        # redo drops the dice rolled since the last action
            self.vm.log.redone(len(self.game.history))
            self.say(f"redone: action {len(self.game.history)}", "dim")
            self.vm.plan = None
            self._changed()
        else:
            self.say("nothing to redo", "dim")

    # --- the move preview ----------------------------------------------------------------
    def move_preview(self) -> MovePreview | None:
        """The core's preview of the planned move (cached until the plan changes)."""
        plan = self.vm.plan
        if plan is None or plan.is_empty():
            return None
        key = (self.vm.version, plan.all_steps())
        if key != self._preview_key:
            self._preview = preview_move(self.game, plan.move())
            self._preview_key = key
        return self._preview

    def commit_move(self) -> None:
        """Enter: a move that destroys the mover asks for Enter again; then the watchers
        the move would meet are asked, then the game acts."""
        plan = self.vm.plan
        if plan is None:
            return
        pv = self.move_preview() if not plan.is_empty() else preview_move(self.game, plan.move())
        if pv is None:
            pv = preview_move(self.game, plan.move())
        if pv.refusal is not None:
            self.say(f"refused: {pv.refusal}", "alarm")
            return
        bot = self.state.bots[plan.bot]
        why = danger(pv, bot)
        if why is not None and self.vm.confirm != f"move:{plan.all_steps()}":
            self.vm.confirm = f"move:{plan.all_steps()}"
            self.say(f"{why}: press Enter again to commit, Esc to think again", "alarm")
            return
        self.vm.confirm = None
        self._start_move(plan.move(), pv.offers)

    def _start_move(self, move: Any, offers: list[Any]) -> None:
        self.prompt = OverwatchPrompt(move, list(offers))
        self._answer_robot_watchers()

    def _answer_robot_watchers(self) -> None:
        """Robot-played watchers answer at once; a human's watcher waits for F or H."""
        prompt = self.prompt
        while prompt is not None and not prompt.finished:
            offer = prompt.current
            assert offer is not None                # the prompt is not finished
            watcher = self.state.bots.get(offer.watcher)
            robot = self.robots.get(watcher.player) if watcher is not None else None
            if robot is None:
                return
            prompt.answer(bool(robot.answer_overwatch(self.game, watcher, prompt.move.bot)))
            self.take_robot_notes()
        if prompt is not None and prompt.finished:
            self.prompt = None
            if self.act(prompt.final_move()) and self.vm.plan is not None:
                self.vm.plan = None
                self._sync_selection()

    def answer_overwatch(self, fire: bool) -> None:
        if self.prompt is None:
            return
        self.prompt.answer(fire)
        self._answer_robot_watchers()

    # --- pre-measure ---------------------------------------------------------------------
    def premeasure(self) -> Any:
        """The core's pre-measure for the selected bot's chosen weapon (cached)."""
        vm = self.vm
        if vm.selected is None or vm.weapon is None:
            return None
        bot = self.state.bots.get(vm.selected)
        if bot is None or not bot.on_table or bot.stats.weapon(vm.weapon) is None:
            return None
        key = (vm.version, vm.selected, vm.weapon, vm.aim, vm.measure_overwatch)
        if self._pm_cache is None or self._pm_cache[0] != key:
            try:
                pm = premeasure(self.state, vm.selected, vm.weapon, vm.aim, vm.measure_overwatch)
            except (KeyError, ValueError) as err:
                self.say(f"cannot pre-measure: {err}", "alarm")
                pm = None
            self._pm_cache = (key, pm)
        return self._pm_cache[1]

    def choose_weapon(self, n: int) -> None:
        bot = self.state.bots.get(self.vm.selected or "")
        if bot is None:
            return
        weapons = list(bot.stats.weapons)
        if 1 <= n <= len(weapons):
            name = weapons[n - 1].name
            self.vm.weapon = None if self.vm.weapon == name else name
            self.vm.aim = None

    # --- shooting phase ------------------------------------------------------------------
    def shooting_bot(self) -> Any:
        bot = self.active_bot()
        if bot is not None and self.expected() == "shoot" and self.human_to_act():
            return bot
        return None

    def options(self) -> list:
        """The shooting phase's choices with the core's verdicts (cached per state)."""
        bot = self.shooting_bot()
        if bot is None:
            return []
        key = (self.vm.version, bot.id, self.vm.service)
        if self._options_cache is None or self._options_cache[0] != key:
            self._options_cache = (key, shooting_options(self.game, bot.id, self.vm.service))
        return self._options_cache[1]

    def toggle_order(self, target: str) -> None:
        """Add (or take back) a shot of the chosen weapon at a target."""
        vm = self.vm
        if vm.weapon is None:
            return
        for o in vm.orders:
            if o.weapon == vm.weapon:
                vm.orders.remove(o)
                if o.target == target:
                    self.say(f"{vm.weapon}: shot taken back", "dim")
                    return
        vm.orders.append(ShotOrder(vm.weapon, target))
        self.say(f"{vm.weapon} -> {target}")

    def fire(self) -> None:
        bot = self.shooting_bot()
        if bot is None:
            return
        why = self.options()[0].why_not if self.options() else None
        if why is not None:
            self.say(f"no shooting now: {why} - P passes", "alarm")
            return
        if not self.vm.orders:
            self.say("choose a weapon (1-9) and click a target first", "dim")
            return
        self.act(Shoot(bot.id, tuple(self.vm.orders)))

    def set_overwatch(self) -> None:
        bot = self.shooting_bot()
        if bot is not None:
            self.act(SetOverwatch(bot.id))

    def pass_turn(self) -> None:
        bot = self.shooting_bot()
        if bot is not None:
            self.act(Pass(bot.id))

    def self_destruct(self) -> None:
        bot = self.shooting_bot()
        if bot is None:
            return
        if self.vm.confirm != "self_destruct":
            refusal = self.game.legal(SelfDestruct(bot.id))
            if refusal is not None:
                self.say(f"no self-destruct: {refusal}", "alarm")
                return
            self.vm.confirm = "self_destruct"
            self.say(f"press X again to self-destruct {bot.id} (Esc: no)", "alarm")
            return
        self.act(SelfDestruct(bot.id))

    def use_service(self) -> None:
        bot = self.shooting_bot()
        if bot is not None:
            self.act(Service(bot.id, self.vm.service))

    # --- robots --------------------------------------------------------------------------
    def run_robot(self, force: bool = False) -> bool:
        """If a robot's seat is due (nobody being asked, the pace waited out), it acts once."""
        if self.prompt is not None or self.expected() == "over":
            return False
        bot = self.active_bot()
        if bot is None or bot.player not in self.robots:
            return False
        if not force and self.vm.robot_wait > 0:
            return False
        robot = self.robots[bot.player]
        action = robot.decide(self.game)
        self.take_robot_notes()
        if self.expected() == "move" and hasattr(action, "steps"):
            pv = preview_move(self.game, action)
            human_offers = [o for o in pv.offers
                            if self.state.bots[o.watcher].player not in self.robots]
            if human_offers:
                self._start_move(action, pv.offers)
                return True
        self.act(action)
        return True

    # --- input ---------------------------------------------------------------------------
    def on_table(self, pos: tuple[int, int]) -> bool:
        return self.table_area.collidepoint(pos)

    def table_point(self, pos: tuple[int, int]) -> tuple[float, float]:
        return self.camera.to_cm(*pos)

    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event."""
        if self.projector is not None and self.projector.owns(event):
            if self.projector.handle(event, self):
                return
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED) and self.screen is not None:
            self.resized(_window().get_size())
            return
        if self.calibration is not None:
            self.calibration.handle(event, self.projector.surface.get_size()
                                    if self.projector is not None else self.size)
            if self.calibration.done:
                self._calibrated(self.calibration.result)
                self.calibration = None
            return
        if self.dice_question is not None:
            return
        if event.type == pygame.KEYDOWN:
            self._key(event)
        elif event.type == pygame.MOUSEBUTTONDOWN:
            self._mouse_down(event)
        elif event.type == pygame.MOUSEBUTTONUP:
            self._mouse_up(event)
        elif event.type == pygame.MOUSEMOTION:
            self._mouse_move(event)
        elif event.type == pygame.MOUSEWHEEL:
            if self.on_table(self.mouse):
                self.camera = self.camera.zoomed(1.15 ** event.y, self.mouse)
                self._last_zoom = self._clock
            else:                                   # over the panel: scroll the log
                self.vm.log.scroll_by(event.y * 3)

    def _calibrated(self, result: Calibration | None) -> None:
        if result is None:
            return
        from_display = self.calibration_key()
        try:
            path = self.calibration_saver(from_display, result)
        except (OSError, ValueError) as err:
            self.say(f"the calibration could not be saved: {err}", "alarm")
            path = None
        if self.projector is not None:          # the ruler was on the projector's display
            self.projector.calibration = result
            self.projector.fit = False
            self.projector.camera = None
        else:
            self.calibration_value = result
            self.vm.true_scale = True
            self.camera = self._fit_camera()
        where = f" in {path}" if path else ""
        self.say(f"true scale {result.x:.2f} x {result.y:.2f} px/cm saved{where}")

    # set by the session (bottisota.commands.play): where calibrations go, and how
    # the projector window opens (None: no second window, e.g. without a real display)
    calibration_key: Callable[[], str] = staticmethod(lambda: "display0")
    calibration_saver: Callable[[str, Calibration], Path | None] = staticmethod(
        lambda key, cal: None)
    open_projector: Callable[[TableApp], Any] | None = None

    def _key(self, event: pygame.event.Event) -> None:
        k, mod = event.key, event.mod
        ctrl, shift = bool(mod & pygame.KMOD_CTRL), bool(mod & pygame.KMOD_SHIFT)
        vm = self.vm
        if vm.help_on:
            if k in (pygame.K_ESCAPE, pygame.K_F1) or event.unicode == "?":
                vm.help_on = False
            return
        if self.prompt is not None:
            if k == pygame.K_f:
                self.answer_overwatch(True)
            elif k == pygame.K_h:
                self.answer_overwatch(False)
            return
        if vm.confirm and k not in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_x):
            vm.confirm = None
            self.say("not done", "dim")
            if k == pygame.K_ESCAPE:
                return
        if k == pygame.K_F1 or event.unicode == "?":
            vm.help_on = True
        elif k == pygame.K_F11:
            self.toggle_fullscreen()
        elif k == pygame.K_F2:
            cal = self.calibration_value
            self.calibration = CalibrationScreen(cal.mean if cal else self.camera.scale)
        elif k == pygame.K_F3:
            vm.true_scale = not vm.true_scale and self.calibration_value is not None
            if self.calibration_value is None:
                self.say("no true scale yet: calibrate with F2", "dim")
            self.camera = self._fit_camera()
        elif k == pygame.K_F4:
            vm.ui_scale = next_ui_scale(vm.ui_scale)
            self._panel = None
            self.camera = self._fit_camera()
            self.say(f"UI scale {vm.ui_scale:g}", "dim")
        elif k == pygame.K_F5:
            self.toggle_projector()
        elif k == pygame.K_TAB:
            vm.panel = PANEL_MODES[(PANEL_MODES.index(vm.panel) + 1) % len(PANEL_MODES)]
            self._panel = None
            self.camera = self._fit_camera()
        elif k == pygame.K_HOME:
            self.camera = self._fit_camera()
        elif ctrl and k == pygame.K_z:
            self.undo()
        elif ctrl and k == pygame.K_y:
            self.redo()
        elif k == pygame.K_ESCAPE:
            self._escape()
        elif k == pygame.K_t:
            vm.threat_on = not vm.threat_on
        elif k == pygame.K_n:
            vm.effects.skip()
            vm.robot_wait = 0.0
        elif k == pygame.K_g:
            vm.show_grid = not vm.show_grid
            self.layers.arena.grid = vm.show_grid
            self.layers.arena.invalidate()
            if self.projector is not None:
                self.projector.layers = None
        elif k == pygame.K_l:
            vm.show_legend = not vm.show_legend
        elif k == pygame.K_o:
            vm.measure_overwatch = not vm.measure_overwatch
        elif pygame.K_1 <= k <= pygame.K_9 and not ctrl:
            self.choose_weapon(k - pygame.K_0)
        elif self.expected() == "place" and self.human_to_act():
            self._place_key(k, shift)
        elif vm.plan is not None:
            self._plan_key(k, shift, ctrl)
        elif self.shooting_bot() is not None:
            self._shoot_key(k, shift)

    def command(self, name: str) -> None:
        """A panel button's command."""
        plan = self.vm.plan
        {"commit": self.commit_move, "clear_plan": plan.clear if plan else _nothing,
         "step_back": plan.undo_step if plan else _nothing, "fire": self.fire,
         "overwatch": self.set_overwatch, "service": self.use_service,
         "self_destruct": self.self_destruct, "pass": self.pass_turn, "undo": self.undo,
         "redo": self.redo, "threat": lambda: setattr(self.vm, "threat_on", not self.vm.threat_on),
         "help": lambda: setattr(self.vm, "help_on", True)}.get(name, lambda: None)()

    def _escape(self) -> None:
        vm = self.vm
        if vm.plan is not None and not vm.plan.is_empty():
            vm.plan.clear()
        elif vm.ruler is not None:
            vm.ruler = None
        elif vm.weapon is not None:
            vm.weapon, vm.aim = None, None
        elif vm.orders:
            vm.orders = []
        vm.message = None

    def _place_key(self, k: int, shift: bool) -> None:
        step = FINE_TURN_DEG if shift else self.state.rules.turn_step
        if k in (pygame.K_LEFT, pygame.K_q):
            self.vm.place_facing = (self.vm.place_facing - step) % 360.0
        elif k in (pygame.K_RIGHT, pygame.K_e):
            self.vm.place_facing = (self.vm.place_facing + step) % 360.0

    def _plan_key(self, k: int, shift: bool, ctrl: bool) -> None:
        plan = self.vm.plan
        assert plan is not None
        bot = self.state.bots[plan.bot]
        cm = FINE_STEP_CM if shift else COARSE_STEP_CM if ctrl else STEP_CM
        free = bot.stats.locomotion in FREE_TURNERS
        turn = (FINE_TURN_DEG if shift else FREE_TURN_DEG) if free else self.state.rules.turn_step
        if k in (pygame.K_UP, pygame.K_w):
            plan.forward(cm)
        elif k in (pygame.K_DOWN, pygame.K_s):
            plan.forward(-cm)
        elif k in (pygame.K_LEFT, pygame.K_q):
            plan.free_turn(-turn) if free else plan.turn(-turn)
        elif k in (pygame.K_RIGHT, pygame.K_e):
            plan.free_turn(turn) if free else plan.turn(turn)
        elif k == pygame.K_a:
            plan.strafe(270.0, cm)
        elif k == pygame.K_d:
            plan.strafe(90.0, cm)
        elif k == pygame.K_k:
            plan.loop()
        elif k == pygame.K_u:
            plan.lift("up")
        elif k == pygame.K_j:
            plan.lift("down")
        elif k == pygame.K_m:
            mines = [w.name for w in bot.stats.weapons if w.is_mine]
            if mines:
                planned = [s for s in plan.steps if type(s).__name__ == "DropMine"]
                plan.drop_mine(mines[len(planned) % len(mines)])
            else:
                self.say(f"{bot.id} carries no mines", "dim")
        elif k == pygame.K_BACKSPACE:
            plan.undo_step()
        elif k in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.commit_move()

    def _shoot_key(self, k: int, shift: bool) -> None:
        if k in (pygame.K_f, pygame.K_RETURN, pygame.K_KP_ENTER):
            self.fire()
        elif k == pygame.K_v:
            self.set_overwatch()
        elif k == pygame.K_x:
            self.self_destruct()
        elif k == pygame.K_r:
            if shift:
                self.use_service()
            else:
                self.vm.service_choice = (self.vm.service_choice + 1) % len(SERVICE_CHOICES)
                self.say(f"service: {self.vm.service} (Shift+R to use)")
        elif k in (pygame.K_p, pygame.K_SPACE):
            self.pass_turn()

    def _mouse_down(self, event: pygame.event.Event) -> None:
        self.mouse = event.pos
        vm = self.vm
        if event.button == 1:
            for b in self.buttons:
                if b.hit(event.pos):
                    self.command(b.action) if isinstance(b.action, str) else b.action()
                    return
            if self.prompt is not None or not self.on_table(event.pos):
                return
            x, y = self.table_point(event.pos)
            if self.expected() == "place" and self.human_to_act():
                bot = self.active_bot()
                self.act(Place(bot.id, round(x, 2), round(y, 2), vm.place_facing))
                return
            if self._grab_plan(x, y, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
                               or bool(getattr(event, "mod", 0) & pygame.KMOD_SHIFT)):
                return
            hit = bot_at(self.state, x, y)
            shooter = self.shooting_bot()
            if hit is not None and shooter is not None and vm.weapon is not None \
                    and hit.id != shooter.id and vm.selected == shooter.id:
                self.toggle_order(hit.id)
                vm.aim = hit.id
            elif hit is not None:
                if hit.id != vm.selected:
                    vm.weapon, vm.aim = None, None
                vm.selected = hit.id
            elif vm.weapon is not None:
                vm.aim = (round(x, 2), round(y, 2))
        elif event.button == 3 and self.on_table(event.pos):
            a = self._snap(self.table_point(event.pos))
            vm.ruler = (a, a)
            self._ruler_drag = True
        elif event.button == 2:
            self._pan_drag = event.pos

    def _snap(self, p: tuple[float, float]) -> tuple[float, float]:
        """A ruler end on a bot snaps to its centre."""
        hit = bot_at(self.state, *p)
        return hit.pos if hit is not None else p

    def _grab_plan(self, x: float, y: float, strafe: bool) -> bool:
        """A press on the planned move's end (or the bot) starts a drag of a step."""
        plan = self.vm.plan
        if plan is None:
            return False
        bot = self.state.bots[plan.bot]
        end = self._plan_end()
        if math.hypot(x - end[0], y - end[1]) > bot.radius + DRAG_GRAB_SLACK_CM:
            return False
        self._plan_drag = True
        self._strafe_drag = strafe and bot.stats.locomotion in FREE_TURNERS
        return True

    def _plan_end(self) -> tuple[float, float, float]:
        """Where the planned steps (without the dragged one) leave the bot."""
        plan = self.vm.plan
        assert plan is not None                     # asked while a move is planned
        bot = self.state.bots[plan.bot]
        if not plan.steps:
            return (bot.x, bot.y, bot.facing)
        saved, plan.tail = plan.tail, None
        pv = self.move_preview()
        plan.tail = saved
        shown = pv.shown if pv is not None else None
        if shown is None or not shown.path:
            return (bot.x, bot.y, bot.facing)
        p = shown.path[-1]
        return (p.x, p.y, p.facing)

    def _mouse_up(self, event: pygame.event.Event) -> None:
        self.mouse = event.pos
        if event.button == 1 and self._plan_drag:
            self._plan_drag = False
            if self.vm.plan is not None:
                self.vm.plan.end_drag()
        elif event.button == 3:
            self._ruler_drag = False
        elif event.button == 2:
            self._pan_drag = None

    def _mouse_move(self, event: pygame.event.Event) -> None:
        self.mouse = event.pos
        vm = self.vm
        if self._ruler_drag and vm.ruler is not None:
            vm.ruler = (vm.ruler[0], self._snap(self.table_point(event.pos)))
        elif self._pan_drag is not None:
            dx, dy = event.pos[0] - self._pan_drag[0], event.pos[1] - self._pan_drag[1]
            self.camera = self.camera.panned(dx, dy)
            self._pan_drag = event.pos
        elif self._plan_drag and vm.plan is not None:
            x, y = self.table_point(event.pos)
            ex, ey, facing = self._plan_end()
            dx, dy = x - ex, y - ey
            if self._strafe_drag:
                bearing = (math.degrees(math.atan2(dx, dy)) - facing) % 360.0
                vm.plan.drag_strafe(bearing, math.hypot(dx, dy))
            else:
                fx, fy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
                vm.plan.drag_straight(dx * fx + dy * fy)

    def toggle_fullscreen(self) -> None:
        """F11: full screen on or off; where the driver cannot, the window stays and says so."""
        if self.screen is None:
            self.say("full screen needs a real window", "dim")
            return
        try:
            pygame.display.toggle_fullscreen()
            self.resized(_window().get_size())
        except pygame.error as err:
            self.say(f"full screen is not available here ({err}); the window stays", "alarm")

    def toggle_projector(self) -> None:
        """F5: the table alone on a second window (the projector), at true scale."""
        from_window = self.projector
        if from_window is not None:
            from_window.close()
            self.projector = None
            self.say("projector window closed")
        else:
            opener = getattr(self, "open_projector", None)
            if opener is None:
                self.say("a second window needs a real display", "dim")
                return
            try:
                self.projector = opener(self)
                self.say("projector window open: the table alone at true scale")
            except (pygame.error, OSError, ValueError) as err:
                self.say(f"no second window: {err}", "alarm")
        self._panel = None
        self.camera = self._fit_camera()

    # --- physical dice -------------------------------------------------------------------
    def ask_die(self, purpose: str) -> int:
        """Physical dice (D8): show the purpose over the table and wait for a typed 1-6."""
        if self.screen is None:
            raise RuntimeError("physical dice need a window to ask in")
        self.dice_question = purpose
        try:
            value = read_typed_die(self.surface, purpose, self.draw)
        finally:
            self.dice_question = None
            self._panel_shown = None
        self.say(f"die typed in: {value} ({purpose})", "dice")
        return value

    # --- the frame -----------------------------------------------------------------------
    def step(self, dt: float = 1.0 / FPS) -> pygame.Surface:
        """One frame: handle queued events, let a robot act, update, draw."""
        for event in pending_events():
            self.handle(event)
        self.update(dt)
        out = self.draw()
        if self.projector is not None and self.calibration is None:
            self.projector.draw(self)
        return out

    def update(self, dt: float) -> None:
        vm = self.vm
        self._clock += dt
        self._belt_phase = (self._belt_phase + dt) % 1.0
        vm.effects.update(dt)
        vm.robot_wait = max(0.0, vm.robot_wait - dt)
        if self.reloader is not None:
            self.reloader.poll(self)
        vm.hover = None
        if vm.threat_on:
            bot = self.active_bot()
            viewer = vm.selected or (bot.id if bot else None)
            if (
                viewer is not None
                and viewer in self.state.bots
                and self.state.bots[viewer].on_table
            ):
                key = (viewer, state_key(self.state))
                if self.threat is None or self.threat.key != key:
                    self.threat = threat_map(self.state, viewer)
                self.threat.fill(THREAT_BUDGET_MS)
                if self.on_table(self.mouse):
                    vm.hover = hover_words(self.threat, *self.table_point(self.mouse))
        if self.robots:
            self.run_robot()

    @property
    def zoom_settled(self) -> bool:
        return self._clock - self._last_zoom >= ZOOM_SETTLE_S

    @property
    def moving(self) -> bool:
        """The view is being panned or zoomed (labels follow, bots are painted directly)."""
        return self._pan_drag is not None or not self.zoom_settled

    def draw(self) -> pygame.Surface:
        """Draw the whole view onto `self.surface` and return it."""
        started = time.perf_counter()
        surface = self.surface
        if self.calibration is not None:
            if self.projector is None:
                self.calibration.draw(surface)
                self._panel_shown = None
                return surface
            self.projector.calibrate(self.calibration)       # the ruler on the projector
            self.draw_table(surface, self.camera, self.table_area, laptop=True)
            text_box(surface, ["calibrating the projector: stretch the ruler on the table to 10 cm "
                               "(Left/Right, Enter, Esc)"], (10, 10), self.sizes().panel, "dice")
            return surface
        area = self.table_area
        self.draw_table(surface, self.camera, area, laptop=True)
        self._draw_panel(surface)
        if (self.prompt is not None and self.prompt.current is not None) or self.vm.help_on:
            self._panel_shown = None           # drawn over the panel: blit it afresh next time
        if self.prompt is not None and self.prompt.current is not None:
            watcher = self.state.bots.get(self.prompt.current.watcher)
            owner = watcher.player if watcher is not None else "?"
            draw_overwatch_prompt(surface, self.prompt, owner,
                                  player_colours(self.state).get(owner, style.TEXT))
        if self.vm.help_on:
            draw_help(surface)
        self.frame_ms = (time.perf_counter() - started) * 1000.0
        return surface

    def table_input(self) -> TableInput:
        """What the table painter needs this frame, from the model and the core."""
        vm = self.vm
        pm = self.premeasure()
        ghost = None
        if self.expected() == "place" and self.human_to_act() and self.on_table(self.mouse):
            bot = self.active_bot()
            x, y = self.camera.to_cm(*self.mouse)
            tw, th = self.state.arena.size
            if 0 <= x <= tw and 0 <= y <= th:
                refusal = self.game.legal(Place(bot.id, x, y, vm.place_facing))
                ghost = PlaceGhost(bot.radius, x, y, vm.place_facing,
                                   str(refusal) if refusal is not None else None)
        return TableInput(
            game=self.game, vm=vm, robots=self.robots, premeasure=pm,
            preview=self.move_preview(), threat=self.threat if vm.threat_on else None,
            focus=self._focus(pm, self.camera) if pm is not None else None,
            shooter=self.shooting_bot(), ghost=ghost, belt_phase=self._belt_phase,
            moving=self.moving, settled=self.zoom_settled,
            open_doors=tuple(door_keys(open_doors(self.state))),
            show_message=self.panel_rect is None)

    def draw_table(self, surface: pygame.Surface, cam: Camera, area: pygame.Rect,
                   laptop: bool = False, layers: WindowLayers | None = None) -> None:
        """The table and everything on it, into `area` (both windows use this, each
        with its own cached `layers`)."""
        paint_table(surface, cam, area, self.table_input(), layers or self.layers, laptop)

    def _focus(self, pm: Any, cam: Camera) -> str | None:
        hovered = nearest_target(pm, self.state, *cam.to_cm(*self.mouse))
        return hovered or (self.vm.aim if isinstance(self.vm.aim, str) else None)

    # --- the panel ------------------------------------------------------------------------
    def panel_input(self) -> PanelInput:
        vm = self.vm
        pv = self.move_preview() if vm.plan is not None else None
        plan_lines = [(t, _tone_of(c)) for t, c in plan_summary(pv)] if pv is not None else []
        if vm.plan is not None:
            steps = ", ".join(str(s) for s in vm.plan.all_steps()) or "(no steps yet)"
            plan_lines.insert(0, (f"plan: {steps}", "plain"))
            bot = self.state.bots.get(vm.plan.bot)
            why = danger(pv, bot) if pv is not None and bot is not None else None
            if why:
                plan_lines.append((f"{why}: Enter twice to commit", "alarm"))
        if self.expected() == "place" and self.human_to_act():
            plan_lines.append((f"click the table to place {self.state.active} "
                               f"(Left/Right: facing {vm.place_facing:g})", "dice"))
        options = self.options()
        pm = self.premeasure()
        focus = None
        if pm is not None:
            name = self._focus(pm, self.camera)
            focus = pm.target(name) if name else None
        return PanelInput(self.game, self.robots, self.sizes(), plan_lines, options,
                          headline(self.game, self.robots, options or None), focus,
                          str(getattr(self.game.journal, "path", None) or self.journal_name))

    def _draw_panel(self, surface: pygame.Surface) -> None:
        """The panel, redrawn only when what it shows changes."""
        rect = self.panel_rect
        if rect is None:
            self.buttons = []
            return
        vm = self.vm
        pm = self.premeasure()
        key = (vm.version, self.size, rect.topleft, vm.selected, vm.weapon, vm.measure_overwatch,
               vm.plan.all_steps() if vm.plan is not None else None, tuple(vm.orders),
               vm.message, len(vm.log.lines), vm.log.lines[-1].text if vm.log.lines else None,
               sum(ln.undone for ln in vm.log.lines), vm.service_choice, vm.threat_on,
               self.state.dice.used, vm.place_facing, vm.log.scroll, vm.confirm, vm.ui_scale,
               self._focus(pm, self.camera) if pm is not None else None)
        if self._panel is not None and self._panel[0] == key and self._panel_shown == (
                id(surface), key):
            return                             # the window still shows this very panel
        self._panel_shown = (id(surface), key)
        if self._panel is None or self._panel[0] != key:
            self.buttons = draw_panel(surface, rect, vm, self.panel_input())
            self._panel = (key, surface.subsurface(rect).copy(), rect)
        else:
            surface.blit(self._panel[1], self._panel[2].topleft)

    def run(self, clock: pygame.time.Clock | None = None) -> None:
        """The window's loop until it is closed."""
        clock = clock or pygame.time.Clock()
        while self.running:
            dt = clock.tick(FPS) / 1000.0
            self.step(dt)
            pygame.display.flip()


def _tone_of(colour: style.Colour) -> str:
    for name, c in style.TONES.items():
        if c == colour:
            return name
    if colour == style.REFUSAL:
        return "alarm"
    if colour == (255, 220, 80):
        return "dice"
    return "plain"
