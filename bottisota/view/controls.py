"""The table view's input: keys, mouse buttons, drags and the wheel turned into
view-model changes and calls into the game (`view.acting`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pygame

from bottisota.core.actions import (
    Place,
)
from bottisota.core.compass import heading, vector
from bottisota.core.i18n import _, number, other_language, set_language, translated
from bottisota.view import keys
from bottisota.view.app_state import (
    COARSE_STEP_CM,
    DRAG_GRAB_SLACK_CM,
    FINE_STEP_CM,
    FINE_TURN_DEG,
    FREE_TURN_DEG,
    FREE_TURNERS,
    STEP_CM,
)
from bottisota.view.bots_layer import bot_at
from bottisota.view.calibration import CalibrationScreen
from bottisota.view.frame import FrameDrawing
from bottisota.view.windows import window_surface
from bottisota.viewmodel.guidance import SERVICE_CHOICES
from bottisota.viewmodel.model import PANEL_MODES
from bottisota.viewmodel.plan import MovePlan
from bottisota.viewmodel.sizes import next_ui_scale
from bottisota.viewmodel.targets import order_refusal, weapon_refusal


@dataclass(frozen=True)
class KeyPress:
    """One key press as the key-binding table reads it."""

    key: int
    char: str
    ctrl: bool
    shift: bool


class InputHandling(FrameDrawing):
    """Keys and mouse (see the module doc)."""

    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event."""
        if self.projector is not None and self.projector.owns(event):
            if self.projector.handle(event, self):
                return
        if event.type == pygame.QUIT:
            self.running = False
            return
        if event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED) and self.screen is not None:
            self.resized(window_surface().get_size())
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

    def switch_language(self) -> None:
        """F8: Finnish <-> English; the panel, prompts and new log lines follow."""
        set_language(other_language())
        self.vm.log.retell()
        self._panel = None
        self._changed()
        self.say(_("language: English"), "dim")

    def _key(self, event: pygame.event.Event) -> None:
        """A key press, looked up in the key-binding table (`view.keys`) for where the
        view is: the help, a prompt, the referee's hand, anywhere, then the placing,
        planning or shooting of the bot whose turn it is."""
        mod = event.mod
        press = KeyPress(event.key, event.unicode or "", bool(mod & pygame.KMOD_CTRL),
                         bool(mod & pygame.KMOD_SHIFT))
        vm = self.vm
        if vm.help_on:
            if press.key in (pygame.K_ESCAPE, pygame.K_F1) or press.char == "?":
                vm.help_on = False
            return
        if self.prompt is not None:
            self._run(keys.PROMPTS, press)
            return
        if vm.confirm and press.key not in (*keys.ENTER, pygame.K_x):
            vm.confirm = None
            self.say(_("not done"), "dim")
            if press.key == pygame.K_ESCAPE:
                return
        if self.correcting.on and self._run(keys.CORRECT, press):
            return
        if self._run(keys.ANYWHERE, press):
            return
        if self.expected() == "place" and self.human_to_act():
            self._run(keys.PLACE, press)
        elif vm.plan is not None:
            self._run(keys.PLAN, press)
        elif self.shooting_bot() is not None:
            self._run(keys.SHOOT, press)

    def _run(self, section: str, press: KeyPress) -> bool:
        """Run the command the table binds this key to in `section`; False if none."""
        binding = keys.lookup(section, press.key, press.char, press.ctrl, press.shift)
        if binding is None:
            return False
        if binding.command.startswith("fix_"):
            if binding.command == "fix_commit":
                action = self.correcting.action()
                if action is not None and self.act(action):
                    self.correcting.reset()
            elif binding.command == "fix_drop" and self.correcting.draft is None:
                vm_note = self.correcting.toggle()
                self.vm.note(vm_note)
            else:
                self.correcting.run(binding.command, self.state, press)
            return True
        handler = self._handlers().get(binding.command)
        if handler is not None:
            handler(press)
        return True

    def _handlers(self) -> dict[str, Callable[[KeyPress], None]]:
        """The commands the key-binding table names (view.keys), each given its press."""
        vm = self.vm

        def toggle(name: str) -> Callable[[KeyPress], None]:
            return lambda p: setattr(vm, name, not getattr(vm, name))

        return {
            "help": toggle("help_on"), "fullscreen": lambda p: self.toggle_fullscreen(),
            "calibrate": lambda p: self._calibrate(), "true_scale": lambda p: self._true_scale(),
            "fit": lambda p: setattr(self, "camera", self._fit_camera()),
            "weapon": lambda p: self.pick_weapon(p.key - pygame.K_0),
            "measure_overwatch": toggle("measure_overwatch"), "threat": toggle("threat_on"),
            "grid": lambda p: self._toggle_grid(), "legend": toggle("show_legend"),
            "undo": lambda p: self.undo(), "redo": lambda p: self.redo(),
            "escape": lambda p: self._escape(), "panel": lambda p: self._next_panel(),
            "ui_scale": lambda p: self._next_ui_scale(),
            "projector": lambda p: self.toggle_projector(),
            "phone_links": lambda p: self.phones.toggle_links(self) if self.phones else None,
            "correct": lambda p: vm.note(self.correcting.toggle()),
            "language": lambda p: self.switch_language(), "skip": lambda p: self._skip(),
            "place_left": lambda p: self._place_turn(p, -1),
            "place_right": lambda p: self._place_turn(p, 1),
            **self._plan_handlers(),
            "fire": lambda p: self.fire(), "overwatch": lambda p: self.set_overwatch(),
            "self_destruct": lambda p: self.self_destruct(),
            "service": lambda p: self.use_service(), "service_next": lambda p: self._service_next(),
            "pass": lambda p: self.pass_turn(),
            "watch_fire": lambda p: self.answer_overwatch(True),
            "watch_hold": lambda p: self.answer_overwatch(False),
        }

    def _plan_handlers(self) -> dict[str, Callable[[KeyPress], None]]:
        """The planning commands: steps added to the active bot's plan."""
        def step(p: KeyPress) -> float:
            return FINE_STEP_CM if p.shift else COARSE_STEP_CM if p.ctrl else STEP_CM

        def turn(p: KeyPress, sign: int) -> None:
            plan = self.vm.plan
            if plan is None:
                return
            if self.state.bots[plan.bot].stats.locomotion in FREE_TURNERS:
                plan.free_turn(sign * (FINE_TURN_DEG if p.shift else FREE_TURN_DEG))
            else:
                plan.turn(sign * self.state.rules.turn_step)

        def on_plan(do: Callable[[MovePlan, KeyPress], Any]) -> Callable[[KeyPress], None]:
            return lambda p: None if self.vm.plan is None else do(self.vm.plan, p)

        return {
            "forward": on_plan(lambda plan, p: plan.forward(step(p))),
            "back": on_plan(lambda plan, p: plan.forward(-step(p))),
            "turn_left": lambda p: turn(p, -1), "turn_right": lambda p: turn(p, 1),
            "strafe_left": on_plan(lambda plan, p: plan.strafe(270.0, step(p))),
            "strafe_right": on_plan(lambda plan, p: plan.strafe(90.0, step(p))),
            "loop": on_plan(lambda plan, p: plan.loop()),
            "lift_up": on_plan(lambda plan, p: plan.lift("up")),
            "lift_down": on_plan(lambda plan, p: plan.lift("down")),
            "drop_mine": on_plan(lambda plan, p: self._drop_mine(plan)),
            "step_back": on_plan(lambda plan, p: plan.undo_step()),
            "commit": lambda p: self.commit_move(),
        }

    def _calibrate(self) -> None:
        cal = self.calibration_value
        self.calibration = CalibrationScreen(cal.mean if cal else self.camera.scale)

    def _true_scale(self) -> None:
        self.vm.true_scale = not self.vm.true_scale and self.calibration_value is not None
        if self.calibration_value is None:
            self.vm.note(_("no true scale yet: calibrate with F2"))
        self.camera = self._fit_camera()

    def _toggle_grid(self) -> None:
        self.vm.show_grid = not self.vm.show_grid
        self.layers.arena.grid = self.vm.show_grid
        self.layers.arena.invalidate()
        if self.projector is not None:
            self.projector.layers = None

    def _next_panel(self) -> None:
        vm = self.vm
        vm.panel = PANEL_MODES[(PANEL_MODES.index(vm.panel) + 1) % len(PANEL_MODES)]
        self._panel = None
        self.camera = self._fit_camera()

    def _next_ui_scale(self) -> None:
        vm = self.vm
        vm.ui_scale = next_ui_scale(vm.ui_scale)
        self._panel = None
        self.camera = self._fit_camera()
        vm.note(_("UI scale {ui_scale}").format(ui_scale=number(vm.ui_scale)))

    def _skip(self) -> None:
        self.vm.effects.skip()
        self.vm.robot_wait = 0.0

    def _place_turn(self, p: KeyPress, sign: int) -> None:
        step = FINE_TURN_DEG if p.shift else self.state.rules.turn_step
        self.vm.place_facing = (self.vm.place_facing + sign * step) % 360.0

    def _drop_mine(self, plan: MovePlan) -> None:
        bot = self.state.bots[plan.bot]
        mines = [w.name for w in bot.stats.weapons if w.is_mine]
        if mines:
            planned = [s for s in plan.steps if type(s).__name__ == "DropMine"]
            plan.drop_mine(mines[len(planned) % len(mines)])
        else:
            self.say(_("{id} carries no mines").format(id=bot.id), "dim")

    def _service_next(self) -> None:
        self.vm.service_choice = (self.vm.service_choice + 1) % len(SERVICE_CHOICES)
        self.vm.note(_("service: {service} (Shift+R to use)").format(service=self.vm.service))

    def command(self, name: str) -> None:
        """A panel button's command."""
        plan = self.vm.plan
        {"commit": self.commit_move, "clear_plan": plan.clear if plan else lambda: None,
         "step_back": plan.undo_step if plan else lambda: None, "fire": self.fire,
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
            if self.expected() != "place" and not self.correcting.on and self._grab_plan(
                    x, y, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
                    or bool(getattr(event, "mod", 0) & pygame.KMOD_SHIFT)):
                return
            self.click_table(x, y)
        elif event.button == 3 and self.on_table(event.pos):
            a = self._snap(self.table_point(event.pos))
            vm.ruler = (a, a)
            self._ruler_drag = True
        elif event.button == 2:
            self._pan_drag = event.pos

    def click_table(self, x: float, y: float) -> None:
        """A left click on the table at (x, y) cm, in either window: place the drawn bot,
        add or take back a shot at the bot there, select it, or aim a blast there."""
        vm = self.vm
        if self.prompt is not None:
            return
        if self.correcting.on:
            self.correcting.click(self.state, x, y, bot_at(self.state, x, y))
            if self.correcting.draft is not None:
                vm.selected = self.correcting.draft.bot
            return
        if self.expected() == "place" and self.human_to_act():
            bot = self.active_bot()
            self.act(Place(bot.id, round(x, 2), round(y, 2), vm.place_facing))
            return
        hit = bot_at(self.state, x, y)
        shooter = self.shooting_bot()
        if hit is not None and shooter is not None and vm.weapon is not None \
                and hit.id != shooter.id and shooter.stats.weapon(vm.weapon) is not None:
            vm.selected = shooter.id               # a click with a weapon chosen: a target
            vm.aim = hit.id
            queued = any(o.weapon == vm.weapon and o.target == hit.id for o in vm.orders)
            refusal = None if queued else order_refusal(self.game, shooter.id, vm.orders,
                                                        vm.weapon, hit.id)
            if refusal is not None:
                self.say(_("{weapon} cannot fire at {target}: {why}").format(
                             weapon=vm.weapon, target=hit.id, why=translated(refusal)), "alarm")
            else:
                self.toggle_order(hit.id)
        elif hit is not None:
            if hit.id != vm.selected:
                vm.weapon, vm.aim = None, None
            vm.selected = hit.id
        elif vm.weapon is not None:
            vm.aim = (round(x, 2), round(y, 2))

    def pick_weapon(self, n: int) -> None:
        """Keys 1-9: the n-th weapon. In a human's shooting phase it is the shooter's
        (whoever was selected to look at), and a weapon that cannot fire at all now
        (R7, R56, R21, R49) is not chosen: the message says why."""
        shooter = self.shooting_bot()
        if shooter is not None:
            if self.vm.selected != shooter.id:
                self.vm.weapon, self.vm.aim = None, None
            self.vm.selected = shooter.id
        self.choose_weapon(n)
        weapon = self.vm.weapon
        if shooter is not None and weapon is not None:
            refusal = weapon_refusal(self.game, shooter.id, weapon)
            if refusal is not None:
                self.vm.weapon = None
                self.say(_("{weapon} cannot fire: {why}").format(
                             weapon=weapon, why=translated(refusal)), "alarm")

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
        assert plan is not None
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
                bearing = (heading(dx, dy) - facing) % 360.0
                vm.plan.drag_strafe(bearing, math.hypot(dx, dy))
            else:
                fx, fy = vector(facing)
                vm.plan.drag_straight(dx * fx + dy * fy)
