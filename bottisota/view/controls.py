"""The table view's input: keys, mouse buttons, drags and the wheel turned into
view-model changes and calls into the game (`view.acting`)."""

from __future__ import annotations

import math

import pygame

from bottisota.core.actions import (
    Place,
)
from bottisota.core.compass import heading, vector
from bottisota.core.i18n import _, number, other_language, set_language
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
from bottisota.viewmodel.sizes import next_ui_scale


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
            self.say(_("not done"), "dim")
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
                self.say(_("no true scale yet: calibrate with F2"), "dim")
            self.camera = self._fit_camera()
        elif k == pygame.K_F4:
            vm.ui_scale = next_ui_scale(vm.ui_scale)
            self._panel = None
            self.camera = self._fit_camera()
            self.say(_("UI scale {ui_scale}").format(ui_scale=number(vm.ui_scale)), "dim")
        elif k == pygame.K_F5:
            self.toggle_projector()
        elif k == pygame.K_F6 and self.phones is not None:
            self.phones.toggle_links(self)
        elif k == pygame.K_F8:
            self.switch_language()
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
                self.say(_("{id} carries no mines").format(id=bot.id), "dim")
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
                self.say(_("service: {service} (Shift+R to use)").format(service=self.vm.service))
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
            if self.expected() != "place" and self._grab_plan(
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
        if self.expected() == "place" and self.human_to_act():
            bot = self.active_bot()
            self.act(Place(bot.id, round(x, 2), round(y, 2), vm.place_facing))
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
