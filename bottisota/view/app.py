"""`bottisota play`: the referee's table view (issue 6).

`TableApp(game, size)` is the whole view around one `Game`: a test builds it
with a game and a window size, posts pygame events, calls `step()` for one
frame and reads `app.surface`. The view reads the state and sends actions;
every legality, cost, chance and consequence it shows comes from the core
(`Game.preview` / `Game.act`, `rules.shooting.premeasure`).
"""
from __future__ import annotations

import argparse
import math
import time
from typing import Any

import pygame

from bottisota.core.errors import JournalWriteError
from bottisota.core.actions import (SERVICE_CHOICES, Pass, Place, SelfDestruct, Service,
                                     SetOverwatch, Shoot, ShotOrder)
from bottisota.view import style
from bottisota.view.arena_layer import ArenaLayer, draw_belt_arrows
from bottisota.view.bots_layer import bot_at, draw_state, player_colours
from bottisota.view.calibration import CalibrationScreen, display_key, save_scale
from bottisota.view.camera import Camera
from bottisota.view.core_calls import MovePreview, premeasure, preview_move
from bottisota.view.help import draw_help
from bottisota.view.legend import draw_legend
from bottisota.view.move_overlay import draw_move_preview
from bottisota.view.plan import MovePlan
from bottisota.view.premeasure_overlay import draw_arc_fill, draw_premeasure, nearest_target
from bottisota.view.prompts import (OverwatchPrompt, draw_overwatch_prompt, pending_events,
                                    read_typed_die)
from bottisota.view.threat import draw_threat, state_key, threat_map
from bottisota.view.widgets import Button, draw_ruler
from bottisota.view.words import describe

PANEL_WIDTH = 400        # px, the side panel
STEP_CM = 1.0            # one key press of forward/back/strafe
FINE_STEP_CM = 0.1       # with Shift
COARSE_STEP_CM = 5.0     # with Ctrl
FREE_TURN_DEG = 15.0     # walkers and hoverers: one key press of turning
FINE_TURN_DEG = 1.0      # with Shift
LOG_LINES = 400          # kept in the log
FPS = 60
FREE_TURNERS = ("walker", "hover")
DRAG_GRAB_SLACK_CM = 1.0


class TableApp:
    """The table view of one game (see the module doc)."""

    def __init__(self, game: Any, size: tuple[int, int] = (1280, 800), *,
                 screen: pygame.Surface | None = None, robots: dict[str, Any] | None = None,
                 journal_name: str | None = None, physical_dice: bool = False,
                 true_scale: float | None = None, reloader: Any = None) -> None:
        if not pygame.font.get_init():
            pygame.font.init()
        self.game = game
        self.screen = screen
        self.surface = screen if screen is not None else pygame.Surface(size)
        self.robots = robots or {}
        self.notes: list[dict] = []    # robot decisions not yet journaled with an action
        self.journal_name = journal_name
        self.physical_dice = physical_dice
        self.true_scale = true_scale
        self.use_true_scale = False
        self.reloader = reloader
        self.arena_layer = ArenaLayer(game.state.arena)
        self.camera = self._fit_camera()
        self.running = True
        self.selected: str | None = None
        self.plan: MovePlan | None = None
        self._preview: MovePreview | None = None
        self._preview_key: tuple | None = None
        self.weapon: str | None = None
        self.measure_overwatch = False
        self.aim: str | tuple[float, float] | None = None
        self._pm_cache: tuple[tuple, Any] | None = None
        self._base: tuple[tuple, pygame.Surface] | None = None
        self._panel: tuple[tuple, pygame.Surface, tuple[int, int]] | None = None
        self.orders: list[ShotOrder] = []
        self.service_choice = 0
        self.self_destruct_armed = False
        self.place_facing = 0.0
        self.ruler: tuple[tuple[float, float], tuple[float, float]] | None = None
        self._ruler_drag = False
        self._pan_drag: tuple[int, int] | None = None
        self._plan_drag = False
        self._strafe_drag = False
        self.threat_on = False
        self.threat: Any = None
        self.show_grid = True
        self.show_legend = False
        self.help_on = False
        self.calibration: CalibrationScreen | None = None
        self.prompt: OverwatchPrompt | None = None
        self.dice_question: str | None = None
        self.log: list[tuple[str, style.Colour]] = []
        self.log_scroll = 0                          # lines scrolled back from the newest
        self.message: tuple[str, style.Colour] | None = None
        self.mouse: tuple[int, int] = (0, 0)
        self.version = 0
        self.buttons: list[Button] = []
        self.started = time.perf_counter()
        self.frame_ms: float = 0.0
        self._belt_phase = 0.0
        if journal_name:
            self.say(f"journal: {journal_name}", style.TEXT_DIM)
        for e in getattr(game, "start_events", []) or []:
            self._log_event(e)
        self._sync_selection()

    # --- geometry of the window --------------------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        return self.surface.get_size()

    @property
    def table_area(self) -> pygame.Rect:
        w, h = self.size
        return pygame.Rect(0, 0, max(100, w - PANEL_WIDTH), h)

    def _fit_camera(self) -> Camera:
        area = self.table_area
        if self.use_true_scale and self.true_scale:
            return Camera.centred(self.game.state.arena.size, area.size, self.true_scale)
        return Camera.fit(self.game.state.arena.size, area.size)

    def resized(self, size: tuple[int, int]) -> None:
        """The window changed size: a new surface (headless) and a fitted camera."""
        if self.screen is None:
            self.surface = pygame.Surface(size)
        else:
            self.surface = self.screen = pygame.display.get_surface()
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
        bot = self.active_bot()
        if bot is not None and self.expected() == "move" and self.human_to_act():
            if self.plan is None or self.plan.bot != bot.id:
                self.plan = MovePlan(bot.id)
            self.selected = bot.id
        else:
            self.plan = None
        if bot is not None and self.expected() == "shoot" and self.human_to_act():
            self.selected = bot.id
        if self.selected is not None and self.selected not in self.state.bots:
            self.selected = None
        self._preview = None
        self._preview_key = None

    # --- messages and the log ----------------------------------------------------------
    def say(self, text: str, colour: style.Colour = style.TEXT) -> None:
        self.message = (text, colour)
        self.log.append((text, colour))
        del self.log[:-LOG_LINES]

    def _log_event(self, e: dict) -> None:
        kind = e.get("type", "")
        colour = style.TEXT
        if kind in ("destroyed", "damaged", "pit", "fall"):
            colour = style.REFUSAL
        elif kind in ("to_hit", "armour_test"):
            colour = (255, 220, 80)
        elif kind == "score":
            colour = style.LEGAL
        self.log.append((describe(e), colour))
        del self.log[:-LOG_LINES]

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
                self._log_event(e)
                self.notes.append(e)

    def act(self, action: Any) -> bool:
        """Send an action to the game, with the robot decisions made since the last
        one as its notes; log its events or its refusal."""
        self.take_robot_notes()
        notes = list(self.notes)
        try:
            result = self.game.act(action, notes)
        except JournalWriteError as err:   # disk full: the game took the action back
            self.say(str(err), style.REFUSAL)
            return False
        except Exception as err:   # physical dice abandoned, a rule error: never crash the table
            self.say(f"could not act: {type(err).__name__}: {err}", style.REFUSAL)
            return False
        if result.refusal is not None:
            self.say(f"refused: {result.refusal}", style.REFUSAL)
            return False
        self.notes = []
        self.message = None
        for e in result.events[len(notes):]:     # the notes were logged when made
            self._log_event(e)
        self._changed()
        return True

    def _changed(self) -> None:
        self.version += 1
        self.orders = []
        self.self_destruct_armed = False
        self.aim = None
        self._pm_cache = None
        self._sync_selection()

    def undo(self) -> None:
        try:
            done = self.game.undo()
        except JournalWriteError as err:   # not journaled: nothing was undone
            self.say(str(err), style.REFUSAL)
            return
        if done:
            self.take_robot_notes()
            self.notes = []        # undo drops the dice rolled since the last action too
            self.say("undone", style.TEXT_DIM)
            self.plan = None
            self._changed()
        else:
            self.say("nothing to undo", style.TEXT_DIM)

    def redo(self) -> None:
        try:
            done = self.game.redo()
        except JournalWriteError as err:   # not journaled: nothing was redone
            self.say(str(err), style.REFUSAL)
            return
        if done:
            self.take_robot_notes()
            self.notes = []        # redo drops the dice rolled since the last action
            self.say("redone", style.TEXT_DIM)
            self.plan = None
            self._changed()
        else:
            self.say("nothing to redo", style.TEXT_DIM)

    # --- the move preview ----------------------------------------------------------------
    def move_preview(self) -> MovePreview | None:
        """The core's preview of the planned move (cached until the plan changes)."""
        if self.plan is None or self.plan.is_empty():
            return None
        key = (self.version, self.plan.all_steps())
        if key != self._preview_key:
            self._preview = preview_move(self.game, self.plan.move())
            self._preview_key = key
        return self._preview

    def commit_move(self) -> None:
        """Enter: ask the watchers the move would meet, then act."""
        if self.plan is None:
            return
        move = self.plan.move()
        pv = preview_move(self.game, move)
        if pv.refusal is not None:
            self.say(f"refused: {pv.refusal}", style.REFUSAL)
            return
        self._start_move(move, pv.offers)

    def _start_move(self, move: Any, offers: list[Any]) -> None:
        prompt = OverwatchPrompt(move, list(offers))
        self.prompt = prompt
        self._answer_robot_watchers()

    def _answer_robot_watchers(self) -> None:
        """Robot-played watchers answer at once; a human's watcher waits for F or H."""
        prompt = self.prompt
        while prompt is not None and not prompt.finished:
            offer = prompt.current
            watcher = self.state.bots.get(offer.watcher)
            robot = self.robots.get(watcher.player) if watcher is not None else None
            if robot is None:
                return
            prompt.answer(bool(robot.answer_overwatch(self.game, watcher, prompt.move.bot)))
            self.take_robot_notes()
        if prompt is not None and prompt.finished:
            self.prompt = None
            if self.act(prompt.final_move()) and self.plan is not None:
                self.plan = None
                self._sync_selection()

    def answer_overwatch(self, fire: bool) -> None:
        if self.prompt is None:
            return
        self.prompt.answer(fire)
        self._answer_robot_watchers()

    # --- pre-measure ---------------------------------------------------------------------
    def premeasure(self) -> Any:
        """The core's pre-measure for the selected bot's chosen weapon (cached)."""
        if self.selected is None or self.weapon is None:
            return None
        bot = self.state.bots.get(self.selected)
        if bot is None or not bot.on_table or bot.stats.weapon(self.weapon) is None:
            return None
        key = (self.version, self.selected, self.weapon, self.aim, self.measure_overwatch)
        if self._pm_cache is None or self._pm_cache[0] != key:
            try:
                pm = premeasure(self.state, self.selected, self.weapon, self.aim,
                                self.measure_overwatch)
            except (KeyError, ValueError) as err:
                self.say(f"cannot pre-measure: {err}", style.REFUSAL)
                pm = None
            self._pm_cache = (key, pm)
        return self._pm_cache[1]

    def choose_weapon(self, n: int) -> None:
        bot = self.state.bots.get(self.selected or "")
        if bot is None:
            return
        weapons = [w for w in bot.stats.weapons]
        if 1 <= n <= len(weapons):
            name = weapons[n - 1].name
            self.weapon = None if self.weapon == name else name
            self.aim = None

    # --- shooting phase ------------------------------------------------------------------
    def shooting_bot(self) -> Any:
        bot = self.active_bot()
        if bot is not None and self.expected() == "shoot" and self.human_to_act():
            return bot
        return None

    def toggle_order(self, target: str) -> None:
        """Add (or take back) a shot of the chosen weapon at a target."""
        if self.weapon is None:
            return
        for o in self.orders:
            if o.weapon == self.weapon:
                self.orders.remove(o)
                if o.target == target:
                    self.say(f"{self.weapon}: shot taken back", style.TEXT_DIM)
                    return
        self.orders.append(ShotOrder(self.weapon, target))
        self.say(f"{self.weapon} -> {target}", style.TEXT)

    def fire(self) -> None:
        bot = self.shooting_bot()
        if bot is None or not self.orders:
            self.say("choose a weapon (1-9) and click a target first", style.TEXT_DIM)
            return
        self.act(Shoot(bot.id, tuple(self.orders)))

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
        if not self.self_destruct_armed:
            self.self_destruct_armed = True
            self.say(f"press X again to self-destruct {bot.id}", style.REFUSAL)
            return
        self.act(SelfDestruct(bot.id))

    def use_service(self) -> None:
        bot = self.shooting_bot()
        if bot is not None:
            self.act(Service(bot.id, SERVICE_CHOICES[self.service_choice]))

    # --- robots --------------------------------------------------------------------------
    def run_robot(self) -> bool:
        """If a robot's seat is due (and nobody is being asked), it acts once."""
        if self.prompt is not None or self.expected() == "over":
            return False
        bot = self.active_bot()
        if bot is None or bot.player not in self.robots:
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
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED) and self.screen is not None:
            self.resized(pygame.display.get_surface().get_size())
            return
        if self.calibration is not None:
            self.calibration.handle(event, self.size)
            if self.calibration.done:
                if self.calibration.result:
                    self.true_scale = self.calibration.result
                    path = save_scale(self._display_key(), self.true_scale)
                    self.use_true_scale = True
                    self.camera = self._fit_camera()
                    self.say(f"true scale {self.true_scale:.2f} px/cm saved in {path}")
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
            else:                                   # over the panel: scroll the log
                self.log_scroll = max(0, min(len(self.log) - 1, self.log_scroll + event.y * 3))

    def _display_key(self) -> str:
        try:
            sizes = pygame.display.get_desktop_sizes()
            return display_key(sizes[0] if sizes else self.size)
        except pygame.error:
            return display_key(self.size)

    def _key(self, event: pygame.event.Event) -> None:
        k, mod = event.key, event.mod
        ctrl, shift = bool(mod & pygame.KMOD_CTRL), bool(mod & pygame.KMOD_SHIFT)
        if self.help_on:
            if k in (pygame.K_ESCAPE, pygame.K_F1) or event.unicode == "?":
                self.help_on = False
            return
        if self.prompt is not None:
            if k == pygame.K_f:
                self.answer_overwatch(True)
            elif k == pygame.K_h:
                self.answer_overwatch(False)
            return
        if k == pygame.K_F1 or event.unicode == "?":
            self.help_on = True
        elif k == pygame.K_F11:
            self.toggle_fullscreen()
        elif k == pygame.K_F2:
            self.calibration = CalibrationScreen(self.true_scale or self.camera.scale)
        elif k == pygame.K_F3:
            self.use_true_scale = not self.use_true_scale and bool(self.true_scale)
            if not self.true_scale:
                self.say("no true scale yet: calibrate with F2", style.TEXT_DIM)
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
            self.threat_on = not self.threat_on
        elif k == pygame.K_g:
            self.show_grid = not self.show_grid
            self.arena_layer.grid = self.show_grid
            self.arena_layer.invalidate()
        elif k == pygame.K_l:
            self.show_legend = not self.show_legend
        elif k == pygame.K_o:
            self.measure_overwatch = not self.measure_overwatch
        elif pygame.K_1 <= k <= pygame.K_9 and not ctrl:
            self.choose_weapon(k - pygame.K_0)
        elif self.expected() == "place" and self.human_to_act():
            self._place_key(k, shift)
        elif self.plan is not None:
            self._plan_key(k, shift, ctrl)
        elif self.shooting_bot() is not None:
            self._shoot_key(k, shift)

    def _escape(self) -> None:
        if self.plan is not None and not self.plan.is_empty():
            self.plan.clear()
        elif self.ruler is not None:
            self.ruler = None
        elif self.weapon is not None:
            self.weapon, self.aim = None, None
        elif self.orders:
            self.orders = []
        self.message = None

    def _place_key(self, k: int, shift: bool) -> None:
        step = FINE_TURN_DEG if shift else self.state.rules.turn_step
        if k in (pygame.K_LEFT, pygame.K_q):
            self.place_facing = (self.place_facing - step) % 360.0
        elif k in (pygame.K_RIGHT, pygame.K_e):
            self.place_facing = (self.place_facing + step) % 360.0

    def _plan_key(self, k: int, shift: bool, ctrl: bool) -> None:
        plan = self.plan
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
                self.say(f"{bot.id} carries no mines", style.TEXT_DIM)
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
                self.service_choice = (self.service_choice + 1) % len(SERVICE_CHOICES)
                self.say(f"service: {SERVICE_CHOICES[self.service_choice]} (Shift+R to use)")
        elif k in (pygame.K_p, pygame.K_SPACE):
            self.pass_turn()

    def _mouse_down(self, event: pygame.event.Event) -> None:
        self.mouse = event.pos
        if event.button == 1:
            for b in self.buttons:
                if b.hit(event.pos):
                    b.action()
                    return
            if self.prompt is not None or not self.on_table(event.pos):
                return
            x, y = self.table_point(event.pos)
            if self.expected() == "place" and self.human_to_act():
                bot = self.active_bot()
                self.act(Place(bot.id, round(x, 2), round(y, 2), self.place_facing))
                return
            if self._grab_plan(x, y, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
                               or bool(getattr(event, "mod", 0) & pygame.KMOD_SHIFT)):
                return
            hit = bot_at(self.state, x, y)
            shooter = self.shooting_bot()
            if hit is not None and shooter is not None and self.weapon is not None \
                    and hit.id != shooter.id and self.selected == shooter.id:
                self.toggle_order(hit.id)
                self.aim = hit.id
            elif hit is not None:
                if hit.id != self.selected:
                    self.weapon, self.aim = None, None
                self.selected = hit.id
            elif self.weapon is not None:
                self.aim = (round(x, 2), round(y, 2))
        elif event.button == 3 and self.on_table(event.pos):
            a = self._snap(self.table_point(event.pos))
            self.ruler = (a, a)
            self._ruler_drag = True
        elif event.button == 2:
            self._pan_drag = event.pos

    def _snap(self, p: tuple[float, float]) -> tuple[float, float]:
        """A ruler end on a bot snaps to its centre."""
        hit = bot_at(self.state, *p)
        return hit.pos if hit is not None else p

    def _grab_plan(self, x: float, y: float, strafe: bool) -> bool:
        """A press on the planned move's end (or the bot) starts a drag of a step."""
        if self.plan is None:
            return False
        bot = self.state.bots[self.plan.bot]
        end = self._plan_end()
        if math.hypot(x - end[0], y - end[1]) > bot.radius + DRAG_GRAB_SLACK_CM:
            return False
        self._plan_drag = True
        self._strafe_drag = strafe and bot.stats.locomotion in FREE_TURNERS
        return True

    def _plan_end(self) -> tuple[float, float, float]:
        """Where the planned steps (without the dragged one) leave the bot."""
        bot = self.state.bots[self.plan.bot]
        if not self.plan.steps:
            return (bot.x, bot.y, bot.facing)
        saved, self.plan.tail = self.plan.tail, None
        pv = self.move_preview()
        self.plan.tail = saved
        shown = pv.shown if pv is not None else None
        if shown is None or not shown.path:
            return (bot.x, bot.y, bot.facing)
        p = shown.path[-1]
        return (p.x, p.y, p.facing)

    def _mouse_up(self, event: pygame.event.Event) -> None:
        self.mouse = event.pos
        if event.button == 1 and self._plan_drag:
            self._plan_drag = False
            if self.plan is not None:
                self.plan.end_drag()
        elif event.button == 3:
            self._ruler_drag = False
        elif event.button == 2:
            self._pan_drag = None

    def _mouse_move(self, event: pygame.event.Event) -> None:
        self.mouse = event.pos
        if self._ruler_drag and self.ruler is not None:
            self.ruler = (self.ruler[0], self._snap(self.table_point(event.pos)))
        elif self._pan_drag is not None:
            dx, dy = event.pos[0] - self._pan_drag[0], event.pos[1] - self._pan_drag[1]
            self.camera = self.camera.panned(dx, dy)
            self._pan_drag = event.pos
        elif self._plan_drag and self.plan is not None:
            x, y = self.table_point(event.pos)
            ex, ey, facing = self._plan_end()
            dx, dy = x - ex, y - ey
            if self._strafe_drag:
                bearing = (math.degrees(math.atan2(dx, dy)) - facing) % 360.0
                self.plan.drag_strafe(bearing, math.hypot(dx, dy))
            else:
                fx, fy = math.sin(math.radians(facing)), math.cos(math.radians(facing))
                self.plan.drag_straight(dx * fx + dy * fy)

    def toggle_fullscreen(self) -> None:
        if self.screen is None:
            return
        pygame.display.toggle_fullscreen()
        self.resized(pygame.display.get_surface().get_size())

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
        self.say(f"die typed in: {value} ({purpose})", (255, 220, 80))
        return value

    # --- the frame -----------------------------------------------------------------------
    def step(self, dt: float = 1.0 / FPS) -> pygame.Surface:
        """One frame: handle queued events, let a robot act, update, draw."""
        for event in pending_events():
            self.handle(event)
        self.update(dt)
        return self.draw()

    def update(self, dt: float) -> None:
        self._belt_phase = (self._belt_phase + dt) % 1.0
        if self.reloader is not None:
            self.reloader.poll(self)
        if self.threat_on:
            viewer = self.selected or (self.active_bot().id if self.active_bot() else None)
            if viewer is not None and viewer in self.state.bots and self.state.bots[viewer].on_table:
                key = (viewer, state_key(self.state))
                if self.threat is None or self.threat.key != key:
                    self.threat = threat_map(self.state, viewer)
                self.threat.fill()
        if self.robots:
            self.run_robot()

    def draw(self) -> pygame.Surface:
        """Draw the whole view onto `self.surface` and return it."""
        started = time.perf_counter()
        surface = self.surface
        if self.calibration is not None:
            self.calibration.draw(surface)
            return surface
        cam = self.camera
        pm = self.premeasure()
        surface.blit(self._base_layer(pm), (0, 0))
        area = self.table_area
        surface.set_clip(area)
        draw_belt_arrows(surface, cam, self.state.arena, self._belt_phase)
        unplaced = self.state.active if self.expected() == "place" else None
        draw_state(surface, cam, self.state, self.selected, self._open_doors(), unplaced)
        pv = self.move_preview()
        if pv is not None and self.plan is not None:
            draw_move_preview(surface, cam, self.state.bots[self.plan.bot], pv,
                              player_colours(self.state), self.state.bots)
        self._draw_orders(surface)
        if pm is not None:
            hovered = nearest_target(pm, self.state, *self.table_point(self.mouse))
            focus = hovered or (self.aim if isinstance(self.aim, str) else None)
            inset = (area.x + 12, area.bottom - 142)
            draw_premeasure(surface, cam, self.state, pm, focus, inset, arc_fill=False)
        self._draw_place_ghost(surface)
        if self.ruler is not None:
            draw_ruler(surface, cam, *self.ruler)
        if self.show_legend:
            draw_legend(surface, (area.right - 230, area.y + 10), self.state.arena)
        surface.set_clip(None)
        self._draw_panel(surface)
        if self.prompt is not None and self.prompt.current is not None:
            watcher = self.state.bots.get(self.prompt.current.watcher)
            owner = watcher.player if watcher is not None else "?"
            draw_overwatch_prompt(surface, self.prompt, owner,
                                  player_colours(self.state).get(owner, style.TEXT))
        if self.help_on:
            draw_help(surface)
        self.frame_ms = (time.perf_counter() - started) * 1000.0
        return surface

    def _base_layer(self, pm: Any) -> pygame.Surface:
        """The cached arena layer with what stays put until the state changes baked in:
        the pre-measure's arc fill and the threat shading."""
        cam = self.camera
        arena = self.arena_layer.surface(cam, self.size)
        threat = self.threat if self.threat_on else None
        if pm is None and threat is None:
            return arena
        key = (id(arena), self.arena_layer.rebuilds, cam.scale, cam.origin, id(pm),
               id(threat), len(threat.cells) if threat is not None else 0)
        if self._base is None or self._base[0] != key:
            base = arena.copy()
            base.set_clip(self.table_area)
            if threat is not None:
                draw_threat(base, cam, threat)
            if pm is not None:
                draw_arc_fill(base, cam, self.state.bots[pm.bot], pm)
            base.set_clip(None)
            self._base = (key, base)
        return self._base[1]

    def _open_doors(self) -> tuple:
        """Doors the core says are open (R47: someone touches them)."""
        from bottisota.engine.shooting.geometry import door_keys, open_doors

        return tuple(door_keys(open_doors(self.state)))

    def _draw_orders(self, surface: pygame.Surface) -> None:
        shooter = self.shooting_bot()
        if shooter is None:
            return
        for o in self.orders:
            t = self.state.bots.get(o.target or "")
            if t is None:
                continue
            a, b = self.camera.to_px(shooter.x, shooter.y), self.camera.to_px(t.x, t.y)
            pygame.draw.line(surface, (255, 220, 80), a, b, 3)
            lab = style.label(o.weapon, 18, (255, 220, 80))
            surface.blit(lab, ((a[0] + b[0]) / 2 + 6, (a[1] + b[1]) / 2 - 20))

    def _draw_place_ghost(self, surface: pygame.Surface) -> None:
        if self.expected() != "place" or not self.human_to_act() or not self.on_table(self.mouse):
            return
        bot = self.active_bot()
        x, y = self.table_point(self.mouse)
        tw, th = self.state.arena.size
        if not (0 <= x <= tw and 0 <= y <= th):
            return
        refusal = self.game.legal(Place(bot.id, x, y, self.place_facing))
        colour = style.REFUSAL if refusal else style.GHOST
        c = self.camera.to_px(x, y)
        r = self.camera.length(bot.radius)
        pygame.draw.circle(surface, colour, c, r, 2)
        fx, fy = math.sin(math.radians(self.place_facing)), math.cos(math.radians(self.place_facing))
        pygame.draw.line(surface, colour, c, self.camera.to_px(x + fx * bot.radius, y + fy * bot.radius), 2)
        if refusal:
            surface.blit(style.label(str(refusal), 18, style.REFUSAL), (c[0] + r + 6, c[1]))

    # --- the side panel ------------------------------------------------------------------
    def _draw_panel(self, surface: pygame.Surface) -> None:
        """The side panel, redrawn only when what it shows changes."""
        from bottisota.view.panel import draw_panel

        area = self.table_area
        key = (self.version, self.size, self.selected, self.weapon, self.measure_overwatch,
               self.plan.all_steps() if self.plan is not None else None, tuple(self.orders),
               self.message, len(self.log), self.log[-1] if self.log else None,
               self.service_choice, self.threat_on, self.state.dice.used, self.place_facing,
               self.log_scroll)
        if self._panel is None or self._panel[0] != key:
            self.buttons = draw_panel(self, surface)
            rect = pygame.Rect(area.right, 0, self.size[0] - area.right, self.size[1])
            self._panel = (key, surface.subsurface(rect).copy(), rect.topleft)
        else:
            surface.blit(self._panel[1], self._panel[2])

    def run(self, clock: pygame.time.Clock | None = None) -> None:
        """The window's loop until it is closed."""
        clock = clock or pygame.time.Clock()
        while self.running:
            dt = clock.tick(FPS) / 1000.0
            self.step(dt)
            pygame.display.flip()


# --- the command ---------------------------------------------------------------------------

def configure_parser(p: argparse.ArgumentParser) -> None:
    p.add_argument("arena", nargs="?", metavar="ARENA",
                   help="arena file or bundled arena name (default: the bundled default arena)")
    p.add_argument("--players", default="red,blue", help="seat names, comma-separated (default red,blue)")
    p.add_argument("--robot", action="append", default=[], metavar="PLAYER[:PERSONALITY]",
                   help="a seat played by a robot: blue, blue:sniper, or red,blue (repeatable)")
    p.add_argument("--seed", type=int, default=None, help="seed of the dice")
    p.add_argument("--physical-dice", action="store_true", help="ask every roll on screen (1-6)")
    p.add_argument("--fullscreen", action="store_true", help="start in full screen")
    p.add_argument("--resume", metavar="GAME.jsonl", help="go on with a saved game (its journal)")
    p.add_argument("--edit", action="store_true",
                   help="designers: reload the arena and cards when their files change")
    p.add_argument("--size", default="1600x900", help="window size WxH (default 1600x900)")


def main(args: argparse.Namespace) -> int:
    """Open the table view and play until the window is closed."""
    from bottisota.view.session import open_session

    return open_session(args)
