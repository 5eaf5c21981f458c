"""The table view's input: keys, mouse buttons, drags and the wheel turned into
view-model changes and calls into the game (`view.acting`). `Controls` is the
controller's input side: it owns where the pointer is and what it drags, looks key
presses up in the key-binding table (`view.keys`) and calls the table's collaborators
(`TableApp.windows`, `.actions`, `.frame`)."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

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
from bottisota.view.windows import window_surface
from bottisota.viewmodel.guidance import SERVICE_CHOICES
from bottisota.viewmodel.model import PANEL_MODES
from bottisota.viewmodel.plan import MovePlan
from bottisota.viewmodel.sizes import next_ui_scale
from bottisota.viewmodel.targets import order_refusal, weapon_refusal

if TYPE_CHECKING:
    from bottisota.engine.game import Game
    from bottisota.engine.state import GameState
    from bottisota.view.acting import GameActions
    from bottisota.view.camera_check import CameraHooks
    from bottisota.view.correcting import CorrectionMode
    from bottisota.view.frame import FrameDrawing
    from bottisota.view.phone_links import PhoneTable
    from bottisota.view.windows import WindowControl
    from bottisota.viewmodel.model import ViewModel


@dataclass(frozen=True)
class KeyPress:
    """One key press as the key-binding table reads it."""

    key: int
    char: str
    ctrl: bool
    shift: bool


class ControlsHost(Protocol):
    """What the controls read and change of the table (`view.app.TableApp`)."""

    running: bool                          # False: the window closes
    calibration: CalibrationScreen | None  # the F2 ruler screen, while shown

    @property
    def game(self) -> Game: ...
    @property
    def vm(self) -> ViewModel: ...
    @property
    def correcting(self) -> CorrectionMode: ...
    @property
    def phones(self) -> PhoneTable | None: ...
    @property
    def windows(self) -> WindowControl: ...
    @property
    def actions(self) -> GameActions: ...
    @property
    def frame(self) -> FrameDrawing: ...
    @property
    def camera_hooks(self) -> CameraHooks: ...
    def say(self, text: str, tone: str = "plain") -> None: ...


class Controls:
    """Keys and mouse (see the module doc)."""

    def __init__(self, app: ControlsHost) -> None:
        self.app = app
        self.windows = app.windows
        self.actions = app.actions
        self.mouse: tuple[int, int] = (0, 0)
        self.ruler_drag = False
        self.pan_drag: tuple[int, int] | None = None
        self.plan_drag = False
        self.strafe_drag = False

    @property
    def vm(self) -> ViewModel:
        return self.app.vm

    @property
    def state(self) -> GameState:
        return self.app.game.state

    def handle(self, event: pygame.event.Event) -> None:
        """One pygame event."""
        projector = self.windows.projector
        if projector is not None and projector.owns(event):
            if projector.handle(event, self.app):
                return
        if event.type == pygame.QUIT:
            self.app.running = False
            return
        if (event.type in (pygame.VIDEORESIZE, pygame.WINDOWSIZECHANGED)
                and self.windows.screen is not None):
            self.windows.resized(window_surface().get_size())
            return
        if self.app.calibration is not None:
            self.app.calibration.handle(event, projector.surface.get_size()
                                        if projector is not None else self.windows.size)
            if self.app.calibration.done:
                self.windows.calibrated(self.app.calibration.result)
                self.app.calibration = None
            return
        if self.app.frame.dice_question is not None:
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
            if self.windows.on_table(self.mouse):
                self.windows.camera = self.windows.camera.zoomed(1.15 ** event.y, self.mouse)
                self.app.frame.zoomed()
            else:                                   # over the panel: scroll the log
                self.vm.log.scroll_by(event.y * 3)

    def switch_language(self) -> None:
        """F8: Finnish <-> English; the panel, prompts and new log lines follow."""
        set_language(other_language())
        self.vm.log.retell()
        self.app.frame.forget_panel()
        self.actions.changed()
        self.app.say(_("language: English"), "dim")

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
        if self.actions.prompt is not None:
            self._run(keys.PROMPTS, press)
            return
        if vm.confirm and press.key not in (*keys.ENTER, pygame.K_x):
            vm.confirm = None
            self.app.say(_("not done"), "dim")
            if press.key == pygame.K_ESCAPE:
                return
        if self.app.correcting.on and self._run(keys.CORRECT, press):
            return
        if self._run(keys.ANYWHERE, press):
            return
        if self.actions.expected() == "place" and self.actions.human_to_act():
            self._run(keys.PLACE, press)
        elif vm.plan is not None:
            self._run(keys.PLAN, press)
        elif self.actions.shooting_bot() is not None:
            self._run(keys.SHOOT, press)

    def _run(self, section: str, press: KeyPress) -> bool:
        """Run the command the table binds this key to in `section`; False if none."""
        binding = keys.lookup(section, press.key, press.char, press.ctrl, press.shift)
        if binding is None:
            return False
        if binding.command.startswith("fix_"):
            if binding.command == "fix_commit":
                action = self.app.correcting.action()
                if action is not None and self.actions.act(action):
                    self.app.correcting.reset()
            elif binding.command == "fix_drop" and self.app.correcting.draft is None:
                vm_note = self.app.correcting.toggle()
                self.vm.note(vm_note)
            else:
                self.app.correcting.run(binding.command, self.state, press)
            return True
        handler = self._handlers().get(binding.command)
        if handler is not None:
            handler(press)
        return True

    def _handlers(self) -> dict[str, Callable[[KeyPress], None]]:
        """The commands the key-binding table names (view.keys), each given its press."""
        vm = self.vm
        acts = self.actions

        def toggle(name: str) -> Callable[[KeyPress], None]:
            return lambda p: setattr(vm, name, not getattr(vm, name))

        return {
            "help": toggle("help_on"), "fullscreen": lambda p: self.windows.toggle_fullscreen(),
            "calibrate": lambda p: self._calibrate(), "true_scale": lambda p: self._true_scale(),
            "fit": lambda p: setattr(self.windows, "camera", self.windows.fit_camera()),
            "weapon": lambda p: self.pick_weapon(p.key - pygame.K_0),
            "measure_overwatch": toggle("measure_overwatch"), "threat": toggle("threat_on"),
            "grid": lambda p: self._toggle_grid(), "legend": toggle("show_legend"),
            "undo": lambda p: acts.undo(), "redo": lambda p: acts.redo(),
            "escape": lambda p: self._escape(), "panel": lambda p: self._next_panel(),
            "ui_scale": lambda p: self._next_ui_scale(),
            "projector": lambda p: self.windows.toggle_projector(),
            "phone_links": lambda p: (self.app.phones.toggle_links(self.app)
                                     if self.app.phones else None),
            "correct": lambda p: vm.note(self.app.correcting.toggle()),
            "camera_accept": lambda p: self.app.camera_hooks.accept(),
            "language": lambda p: self.switch_language(), "skip": lambda p: self._skip(),
            "place_left": lambda p: self._place_turn(p, -1),
            "place_right": lambda p: self._place_turn(p, 1),
            **self._plan_handlers(),
            "fire": lambda p: acts.fire(), "overwatch": lambda p: acts.set_overwatch(),
            "self_destruct": lambda p: acts.self_destruct(),
            "service": lambda p: acts.use_service(), "service_next": lambda p: self._service_next(),
            "pass": lambda p: acts.pass_turn(),
            "watch_fire": lambda p: acts.answer_overwatch(True),
            "watch_hold": lambda p: acts.answer_overwatch(False),
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

        def on_plan(do: Callable[[MovePlan, KeyPress], object]) -> Callable[[KeyPress], None]:
            def run(p: KeyPress) -> None:
                if self.vm.plan is not None:
                    do(self.vm.plan, p)
            return run

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
            "commit": lambda p: self.actions.commit_move(),
        }

    def _calibrate(self) -> None:
        cal = self.windows.calibration_value
        self.app.calibration = CalibrationScreen(cal.mean if cal else self.windows.camera.scale)

    def _true_scale(self) -> None:
        self.vm.true_scale = not self.vm.true_scale and self.windows.calibration_value is not None
        if self.windows.calibration_value is None:
            self.vm.note(_("no true scale yet: calibrate with F2"))
        self.windows.camera = self.windows.fit_camera()

    def _toggle_grid(self) -> None:
        self.vm.show_grid = not self.vm.show_grid
        self.windows.layers.arena.grid = self.vm.show_grid
        self.windows.layers.arena.invalidate()
        if self.windows.projector is not None:
            self.windows.projector.layers = None

    def _next_panel(self) -> None:
        vm = self.vm
        vm.panel = PANEL_MODES[(PANEL_MODES.index(vm.panel) + 1) % len(PANEL_MODES)]
        self.app.frame.forget_panel()
        self.windows.camera = self.windows.fit_camera()

    def _next_ui_scale(self) -> None:
        vm = self.vm
        vm.ui_scale = next_ui_scale(vm.ui_scale)
        self.app.frame.forget_panel()
        self.windows.camera = self.windows.fit_camera()
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
            self.app.say(_("{id} carries no mines").format(id=bot.id), "dim")

    def _service_next(self) -> None:
        self.vm.service_choice = (self.vm.service_choice + 1) % len(SERVICE_CHOICES)
        self.vm.note(_("service: {service} (Shift+R to use)").format(service=self.vm.service))

    def command(self, name: str) -> None:
        """A panel button's command."""
        plan = self.vm.plan
        acts = self.actions
        commands: dict[str, Callable[[], object]] = {
            "commit": acts.commit_move, "clear_plan": plan.clear if plan else lambda: None,
            "step_back": plan.undo_step if plan else lambda: None, "fire": acts.fire,
            "overwatch": acts.set_overwatch, "service": acts.use_service,
            "self_destruct": acts.self_destruct, "pass": acts.pass_turn, "undo": acts.undo,
            "redo": acts.redo,
            "threat": lambda: setattr(self.vm, "threat_on", not self.vm.threat_on),
            "help": lambda: setattr(self.vm, "help_on", True)}
        commands.get(name, lambda: None)()

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
            for b in self.app.frame.buttons:
                if b.hit(event.pos):
                    self.command(b.action) if isinstance(b.action, str) else b.action()
                    return
            if self.actions.prompt is not None or not self.windows.on_table(event.pos):
                return
            x, y = self.windows.table_point(event.pos)
            placing = self.actions.expected() == "place"
            if not placing and not self.app.correcting.on and self._grab_plan(
                    x, y, bool(pygame.key.get_mods() & pygame.KMOD_SHIFT)
                    or bool(getattr(event, "mod", 0) & pygame.KMOD_SHIFT)):
                return
            self.click_table(x, y)
        elif event.button == 3 and self.windows.on_table(event.pos):
            a = self._snap(self.windows.table_point(event.pos))
            vm.ruler = (a, a)
            self.ruler_drag = True
        elif event.button == 2:
            self.pan_drag = event.pos

    def click_table(self, x: float, y: float) -> None:
        """A left click on the table at (x, y) cm, in either window: place the drawn bot,
        add or take back a shot at the bot there, select it, or aim a blast there."""
        vm = self.vm
        if self.actions.prompt is not None:
            return
        if self.app.correcting.on:
            self.app.correcting.click(self.state, x, y, bot_at(self.state, x, y))
            if self.app.correcting.draft is not None:
                vm.selected = self.app.correcting.draft.bot
            return
        if self.actions.expected() == "place" and self.actions.human_to_act():
            bot = self.actions.active_bot()
            assert bot is not None                 # a human is to act
            self.actions.act(Place(bot.id, round(x, 2), round(y, 2), vm.place_facing))
            return
        hit = bot_at(self.state, x, y)
        shooter = self.actions.shooting_bot()
        if hit is not None and shooter is not None and vm.weapon is not None \
                and hit.id != shooter.id and shooter.stats.weapon(vm.weapon) is not None:
            vm.selected = shooter.id               # a click with a weapon chosen: a target
            vm.aim = hit.id
            queued = any(o.weapon == vm.weapon and o.target == hit.id for o in vm.orders)
            refusal = None if queued else order_refusal(self.app.game, shooter.id, vm.orders,
                                                        vm.weapon, hit.id)
            if refusal is not None:
                self.app.say(_("{weapon} cannot fire at {target}: {why}").format(
                             weapon=vm.weapon, target=hit.id, why=translated(refusal)), "alarm")
            else:
                self.actions.toggle_order(hit.id)
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
        shooter = self.actions.shooting_bot()
        if shooter is not None:
            if self.vm.selected != shooter.id:
                self.vm.weapon, self.vm.aim = None, None
            self.vm.selected = shooter.id
        self.actions.choose_weapon(n)
        weapon = self.vm.weapon
        if shooter is not None and weapon is not None:
            refusal = weapon_refusal(self.app.game, shooter.id, weapon)
            if refusal is not None:
                self.vm.weapon = None
                self.app.say(_("{weapon} cannot fire: {why}").format(
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
        self.plan_drag = True
        self.strafe_drag = strafe and bot.stats.locomotion in FREE_TURNERS
        return True

    def _plan_end(self) -> tuple[float, float, float]:
        """Where the planned steps (without the dragged one) leave the bot."""
        plan = self.vm.plan
        assert plan is not None
        bot = self.state.bots[plan.bot]
        if not plan.steps:
            return (bot.x, bot.y, bot.facing)
        saved, plan.tail = plan.tail, None
        pv = self.actions.move_preview()
        plan.tail = saved
        shown = pv.shown if pv is not None else None
        if shown is None or not shown.path:
            return (bot.x, bot.y, bot.facing)
        p = shown.path[-1]
        return (p.x, p.y, p.facing)

    def _mouse_up(self, event: pygame.event.Event) -> None:
        self.mouse = event.pos
        if event.button == 1 and self.plan_drag:
            self.plan_drag = False
            if self.vm.plan is not None:
                self.vm.plan.end_drag()
        elif event.button == 3:
            self.ruler_drag = False
        elif event.button == 2:
            self.pan_drag = None

    def _mouse_move(self, event: pygame.event.Event) -> None:
        self.mouse = event.pos
        vm = self.vm
        if self.ruler_drag and vm.ruler is not None:
            vm.ruler = (vm.ruler[0], self._snap(self.windows.table_point(event.pos)))
        elif self.pan_drag is not None:
            dx, dy = event.pos[0] - self.pan_drag[0], event.pos[1] - self.pan_drag[1]
            self.windows.camera = self.windows.camera.panned(dx, dy)
            self.pan_drag = event.pos
        elif self.plan_drag and vm.plan is not None:
            x, y = self.windows.table_point(event.pos)
            ex, ey, facing = self._plan_end()
            dx, dy = x - ex, y - ey
            if self.strafe_drag:
                bearing = (heading(dx, dy) - facing) % 360.0
                vm.plan.drag_strafe(bearing, math.hypot(dx, dy))
            else:
                fx, fy = vector(facing)
                vm.plan.drag_straight(dx * fx + dy * fy)
