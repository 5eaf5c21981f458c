"""One frame of the table view: update (effects, robots, threat view, the designer's
reload), draw the table in each window and the panel, then the extra overlays
(`FrameDrawing.draw_overlays`, drawn last); physical dice asked over the table.
`FrameDrawing` owns what a frame keeps (the panel's pixels and key, the buttons, the
threat map, the clock, the frame's table input); it reads its host (`FrameHost`): the
game and view model, the window control (where to draw), the acting (the preview,
the pre-measure, the prompt) and where the pointer is."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Protocol

import pygame

from bottisota.core.actions import (
    Place,
)
from bottisota.core.i18n import _, number, translated
from bottisota.engine.shooting.geometry import door_keys, open_doors
from bottisota.view import style
from bottisota.view.acting import GameActions
from bottisota.view.app_state import (
    THREAT_BUDGET_MS,
    ZOOM_SETTLE_S,
)
from bottisota.view.bots_layer import player_colours
from bottisota.view.camera import Camera
from bottisota.view.help import draw_help
from bottisota.view.move_overlay import plan_summary
from bottisota.view.overlays import text_box
from bottisota.view.panel import PanelInput, draw_panel
from bottisota.view.premeasure_overlay import nearest_target
from bottisota.view.prompts import (
    draw_overwatch_prompt,
    read_typed_die,
)
from bottisota.view.table_painter import (
    SPRITE_BUDGET_MS,
    PlaceGhost,
    TableInput,
    WindowLayers,
    paint_table,
)
from bottisota.view.widgets import Button
from bottisota.view.windows import WindowControl
from bottisota.viewmodel.guidance import danger, headline
from bottisota.viewmodel.words import step_words

if TYPE_CHECKING:
    from bottisota.engine.game import Game
    from bottisota.engine.shooting.premeasure import Premeasure
    from bottisota.engine.state import GameState
    from bottisota.view.calibration import CalibrationScreen
    from bottisota.view.correcting import CorrectionMode
    from bottisota.view.phone_links import PhoneTable
    from bottisota.viewmodel.game_session import RobotPlayer
    from bottisota.viewmodel.model import ViewModel
    from bottisota.viewmodel.threat import ThreatMap

TABLE_BUSY_MS = 4.0     # a table drawn slower than this leaves a changed panel to the next frame


class Pointer(Protocol):
    """Where the pointer is and what it drags (the controls own it)."""

    @property
    def mouse(self) -> tuple[int, int]: ...
    @property
    def pan_drag(self) -> tuple[int, int] | None: ...
    @property
    def plan_drag(self) -> bool: ...


class FrameHost(Protocol):
    """What a frame reads of the table it draws."""

    @property
    def game(self) -> Game: ...
    @property
    def vm(self) -> ViewModel: ...
    @property
    def robots(self) -> Mapping[str, RobotPlayer]: ...
    @property
    def journal_name(self) -> str | None: ...
    @property
    def frames_drawn(self) -> int: ...
    @property
    def correcting(self) -> CorrectionMode: ...
    @property
    def calibration(self) -> CalibrationScreen | None: ...
    @property
    def phones(self) -> PhoneTable | None: ...
    @property
    def windows(self) -> WindowControl: ...
    @property
    def actions(self) -> GameActions: ...
    @property
    def controls(self) -> Pointer: ...


class FrameDrawing:
    """Update and draw a frame (see the module doc)."""

    def __init__(self, host: FrameHost) -> None:
        self.host = host
        self.windows = host.windows
        self.actions = host.actions
        self.threat: ThreatMap | None = None
        self.dice_question: str | None = None
        self.buttons: list[Button] = []
        self.frame_ms: float = 0.0
        self.sprite_budget_ms: float | None = SPRITE_BUDGET_MS   # None: stills, all exact
        self.labels_in_background = False   # `play`: label passes on a thread of their own
        self.overlays: list[Callable[[pygame.Surface, pygame.Rect], object]] = []   # drawn last
        # drawn over the table in each window (the camera's rings)
        self.table_overlays: list[Callable[[pygame.Surface, Camera, pygame.Rect], object]] = []
        self.keep_frames = True      # the projector keeps pixels that would not change
        self._panel: tuple[tuple[object, ...], pygame.Surface, pygame.Rect] | None = None
        self._panel_shown: tuple[object, ...] | None = None  # (surface, key) the pixels show
        self._panel_saved = False     # the kept surface holds the panel shown
        self._panel_waited = False    # the panel shown was left as it was last frame
        self._drag_plan: tuple[object, ...] | None = None   # the plan as the panel shows it
        self._belt_phase = 0.0
        self._last_zoom = -1.0
        self.clock = 0.0              # seconds of frames so far (zooms settle by it)
        self._frame_input: TableInput | None = None   # this frame's table input (both windows)
        self._labels_placed = False    # the laptop placed its labels this frame

    @property
    def vm(self) -> ViewModel:
        return self.host.vm

    @property
    def game(self) -> Game:
        return self.host.game

    @property
    def state(self) -> GameState:
        return self.host.game.state

    @property
    def pointer(self) -> Pointer:
        return self.host.controls

    def new_frame(self) -> None:
        """Before and after a frame: the table's input is worked out afresh."""
        self._frame_input = None

    def forget_panel(self) -> None:
        """What the panel covers or says changed: draw it afresh next frame."""
        self._panel = None

    # --- physical dice -------------------------------------------------------------------
    def ask_die(self, purpose: str) -> int:
        """Physical dice (D8): show the purpose over the table and wait for a typed 1-6."""
        if self.windows.screen is None:
            raise RuntimeError("physical dice need a window to ask in")
        self.dice_question = purpose
        try:
            value = read_typed_die(self.windows.surface, purpose, self.draw)
        finally:
            self.dice_question = None
            self._panel_shown = None
        self.actions.say(_("die typed in: {value} ({purpose})").format(
                             value=value, purpose=translated(purpose)), "dice")
        return value

    # --- the frame -----------------------------------------------------------------------
    def update(self, dt: float) -> None:
        vm = self.vm
        self.clock += dt
        self._belt_phase = (self._belt_phase + dt) % 1.0
        vm.effects.update(dt)
        vm.robot_wait = max(0.0, vm.robot_wait - dt)
        vm.hover = None
        if vm.threat_on:
            # the threat view's model is loaded when the view is first switched on
            from bottisota.viewmodel.threat import hover_words, state_key, threat_map

            bot = self.actions.active_bot()
            viewer = vm.selected or (bot.id if bot else None)
            shown = self.state.bots.get(viewer) if viewer is not None else None
            if shown is not None and shown.on_table:
                key = (shown.id, state_key(self.state))
                budget = THREAT_BUDGET_MS
                if self.threat is None or self.threat.key != key:
                    started = time.process_time()      # a new map's set-up is in the budget
                    self.threat = threat_map(self.state, shown.id)
                    budget -= (time.process_time() - started) * 1000.0
                self.threat.fill(max(THREAT_BUDGET_MS / 4, budget))
                mouse = self.pointer.mouse
                if self.windows.on_table(mouse):
                    vm.hover = hover_words(self.threat, *self.windows.table_point(mouse))
        if self.host.robots and self.host.frames_drawn:      # the table shown first
            self.actions.run_robot()

    def zoomed(self) -> None:
        """The camera was zoomed now: the arena is drawn anew once it settles."""
        self._last_zoom = self.clock

    @property
    def zoom_settled(self) -> bool:
        return self.clock - self._last_zoom >= ZOOM_SETTLE_S

    @property
    def moving(self) -> bool:
        """The view is being panned or zoomed (labels follow, bots are painted directly)."""
        return self.pointer.pan_drag is not None or not self.zoom_settled

    def draw(self, panel_may_wait: bool = False) -> pygame.Surface:
        """Draw the whole view onto `self.windows.surface` and return it. `panel_may_wait`: a
        frame of a running window, where a panel whose words changed may be drawn the
        frame after when this frame's table did much (see `_draw_panel`); a picture
        taken at once (a screenshot) shows everything up to date."""
        started = time.perf_counter()
        surface = self.windows.surface
        if self.host.calibration is not None:
            if self.windows.projector is None:
                self.host.calibration.draw(surface)
                self._panel_shown = None
                return surface
            self.windows.projector.calibrate(self.host.calibration)   # the ruler on the projector
            self.draw_table(surface, self.windows.camera, self.windows.table_area, laptop=True)
            text_box(surface, [_("calibrating the projector: stretch the ruler on the table "
                                 "to 10 cm (Left/Right, Enter, Esc)")],
                     (10, 10), self.windows.sizes().panel, "dice")
            return surface
        area = self.windows.table_area
        self.draw_table(surface, self.windows.camera, area, laptop=True)
        if self.host.correcting.on:
            self.host.correcting.draw(surface, self.windows.camera, area, self.state,
                                      self.windows.sizes().panel)
        busy = self._labels_placed or (time.perf_counter() - started) * 1000.0 > TABLE_BUSY_MS
        self._draw_panel(surface, may_wait=panel_may_wait and busy)
        prompt = self.actions.prompt
        if (prompt is not None and prompt.current is not None) or self.vm.help_on:
            self._keep_panel(surface)
            self._panel_shown = None           # drawn over the panel: blit it afresh next time
        if self.actions.prompt is not None and self.actions.prompt.current is not None:
            watcher = self.state.bots.get(self.actions.prompt.current.watcher)
            owner = watcher.player if watcher is not None else "?"
            draw_overwatch_prompt(surface, self.actions.prompt, owner,
                                  player_colours(self.state).get(owner, style.TEXT))
        if self.vm.help_on:
            draw_help(surface)
        self.draw_overlays(surface, area)
        self.frame_ms = (time.perf_counter() - started) * 1000.0
        return surface

    def draw_overlays(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        """The extra overlays (`self.overlays`, such as the phones' links), drawn last
        each frame over the laptop window's table `area` (the panel is blitted afresh
        next frame, as they may cover it)."""
        if self.overlays:
            self._keep_panel(surface)
        for overlay in self.overlays:
            overlay(surface, area)
        if self.overlays:
            self._panel_shown = None

    def table_input(self) -> TableInput:
        """What the table painter needs this frame, from the model and the core."""
        vm = self.vm
        pm = self.actions.premeasure()
        ghost = None
        if (self.actions.expected() == "place" and self.actions.human_to_act()
                and self.windows.on_table(self.pointer.mouse)):
            bot = self.actions.active_bot()
            assert bot is not None                 # a human is to act
            x, y = self.windows.camera.to_cm(*self.pointer.mouse)
            tw, th = self.state.arena.size
            if 0 <= x <= tw and 0 <= y <= th:
                refusal = self.game.legal(Place(bot.id, x, y, vm.place_facing))
                ghost = PlaceGhost(bot.radius, x, y, vm.place_facing,
                                   str(refusal) if refusal is not None else None)
        return TableInput(
            game=self.game, vm=vm, robots=self.host.robots, premeasure=pm,
            preview=self.actions.move_preview(), threat=self.threat if vm.threat_on else None,
            focus=self._focus(pm, self.windows.camera) if pm is not None else None,
            shooter=self.actions.shooting_bot(), ghost=ghost, belt_phase=self._belt_phase,
            moving=self.moving, settled=self.zoom_settled,
            open_doors=tuple(door_keys(open_doors(self.state))),
            show_message=self.windows.panel_rect is None, sprite_budget_ms=self.sprite_budget_ms,
            labels_in_background=self.labels_in_background)

    def draw_table(self, surface: pygame.Surface, cam: Camera, area: pygame.Rect,
                   laptop: bool = False, layers: WindowLayers | None = None,
                   settled: bool | None = None, reading: float | None = None) -> None:
        """The table and everything on it, into `area` (both windows use this, each
        with its own cached `layers`; the projector's frame reuses the laptop's input,
        made once per frame; `reading`: the projector's true pixels per cm, see
        `paint_table`)."""
        if laptop or self._frame_input is None:
            self._frame_input = self.table_input()
        t = self._frame_input
        if settled is not None and not laptop:     # the projector's own zoom under way, or not
            t = replace(t, settled=settled and t.settled, moving=t.moving or not settled)
        placed = paint_table(surface, cam, area, t, layers or self.windows.layers, laptop,
                             may_place=laptop or not self._labels_placed,
                             may_keep=not laptop and self.host.phones is None and self.keep_frames,
                             reading=reading)
        if laptop:
            self._labels_placed = placed     # the projector places its own the frame after
        if self.host.phones is not None:          # what the phones show on the table
            self.host.phones.draw(surface, cam, area, self.host)
        for overlay in self.table_overlays:
            overlay(surface, cam, area)

    def _focus(self, pm: Premeasure, cam: Camera) -> str | None:
        hovered = nearest_target(pm, self.state, *cam.to_cm(*self.pointer.mouse))
        return hovered or (self.vm.aim if isinstance(self.vm.aim, str) else None)

    # --- the panel ------------------------------------------------------------------------
    def panel_input(self) -> PanelInput:
        vm = self.vm
        pv = self.actions.move_preview() if vm.plan is not None else None
        plan_lines = [(t, _tone_of(c)) for t, c in plan_summary(pv)] if pv is not None else []
        if vm.plan is not None:
            steps = ", ".join(step_words(s) for s in vm.plan.all_steps()) or _("(no steps yet)")
            plan_lines.insert(0, (_("plan: {steps}").format(steps=steps), "plain"))
            bot = self.state.bots.get(vm.plan.bot)
            why = danger(pv, bot) if pv is not None and bot is not None else None
            if why:
                plan_lines.append((_("{why}: Enter twice to commit").format(why=why), "alarm"))
        if self.actions.expected() == "place" and self.actions.human_to_act():
            plan_lines.append((_("click the table to place {active} (Left/Right: facing "
                                 "{place_facing})").format(
                                   active=self.state.active,
                                   place_facing=number(vm.place_facing)), "dice"))
        options = self.actions.options()
        pm = self.actions.premeasure()
        focus = None
        if pm is not None:
            name = self._focus(pm, self.windows.camera)
            focus = pm.target(name) if name else None
        journal = getattr(self.game.journal, "path", None) or self.host.journal_name
        return PanelInput(self.game, self.host.robots, self.windows.sizes(), plan_lines, options,
                          headline(self.game, self.host.robots, options or None), focus,
                          str(journal) if journal else "")      # no journal: no line

    def _draw_panel(self, surface: pygame.Surface, may_wait: bool = False) -> None:
        """The panel, redrawn only when what it shows changes. `may_wait`: this frame's
        table did much (its labels placed after an action, a weapon chosen): a panel
        the window shows may stay as it is for this one frame and be drawn anew the
        frame after (never two frames running), so that no single frame does both."""
        rect = self.windows.panel_rect
        if rect is None:
            self.buttons = []
            return
        vm = self.vm
        pm = self.actions.premeasure()
        key = (vm.version, self.windows.size, rect.topleft, vm.selected, vm.weapon,
               vm.measure_overwatch,
               self._panel_plan(), tuple(vm.orders),
               vm.message, len(vm.log.lines), vm.log.lines[-1].text if vm.log.lines else None,
               sum(ln.undone for ln in vm.log.lines), vm.service_choice, vm.threat_on,
               self.state.dice.used, vm.place_facing, vm.log.scroll, vm.confirm, vm.ui_scale,
               self._focus(pm, self.windows.camera) if pm is not None else None)
        panel = self._panel
        shown = panel is not None and self._panel_shown == (id(surface), panel[0])
        if shown and panel is not None and panel[0] == key:
            return                             # the window still shows this very panel
        if shown and may_wait and not self._panel_waited:
            self._panel_waited = True          # the old panel stays one frame more
            return
        self._panel_waited = False
        self._panel_shown = (id(surface), key)
        if panel is not None and panel[0] == key and self._panel_saved:
            surface.blit(panel[1], panel[2].topleft)
            return
        self.buttons = draw_panel(surface, rect, vm, self.panel_input())
        kept = panel[1] if panel is not None else None
        if kept is None or kept.get_size() != rect.size:
            kept = pygame.Surface(rect.size)
        self._panel = (key, kept, rect)
        self._panel_saved = False      # its pixels are copied only before something covers them

    def _keep_panel(self, surface: pygame.Surface) -> None:
        """Copy the panel's pixels from the window before something is drawn over them
        (the next frame blits them back instead of drawing the panel again)."""
        panel = self._panel
        if (panel is not None and not self._panel_saved
                and self._panel_shown == (id(surface), panel[0])):
            panel[1].blit(surface, (0, 0), panel[2])
            self._panel_saved = True

    def _panel_plan(self) -> tuple[object, ...] | None:
        """The plan as the panel shows it: while a step is dragged, as it was when the
        drag began (the table shows the drag; the panel follows when it ends)."""
        plan = self.vm.plan
        if plan is None:
            self._drag_plan = None
        elif not self.pointer.plan_drag or self._drag_plan is None:
            self._drag_plan = plan.all_steps()
        return self._drag_plan


def _tone_of(colour: style.Colour) -> str:
    for name, c in style.TONES.items():
        if c == colour:
            return name
    if colour == style.REFUSAL:
        return "alarm"
    if colour == (255, 220, 80):
        return "dice"
    return "plain"
