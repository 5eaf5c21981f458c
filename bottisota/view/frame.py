"""One frame of the table view: update (effects, robots, threat view, the designer's
reload), draw the table in each window and the panel, then the extra overlays
(`FrameDrawing.draw_overlays`, drawn last); physical dice asked over the table."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

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
    PlaceGhost,
    TableInput,
    WindowLayers,
    paint_table,
)
from bottisota.view.windows import WindowControl
from bottisota.viewmodel.guidance import danger, headline
from bottisota.viewmodel.words import step_words

TABLE_BUSY_MS = 4.0     # a table drawn slower than this leaves a changed panel to the next frame


class FrameDrawing(WindowControl, GameActions):
    """Update and draw a frame (see the module doc)."""

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
        self.say(_("die typed in: {value} ({purpose})").format(
                     value=value, purpose=translated(purpose)), "dice")
        return value

    # --- the frame -----------------------------------------------------------------------
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
            # the threat view's model is loaded when the view is first switched on
            from bottisota.viewmodel.threat import hover_words, state_key, threat_map

            bot = self.active_bot()
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
                if self.on_table(self.mouse):
                    vm.hover = hover_words(self.threat, *self.table_point(self.mouse))
        if self.robots and self.frames_drawn:      # the table shown first
            self.run_robot()

    @property
    def zoom_settled(self) -> bool:
        return self._clock - self._last_zoom >= ZOOM_SETTLE_S

    @property
    def moving(self) -> bool:
        """The view is being panned or zoomed (labels follow, bots are painted directly)."""
        return self._pan_drag is not None or not self.zoom_settled

    def draw(self, panel_may_wait: bool = False) -> pygame.Surface:
        """Draw the whole view onto `self.surface` and return it. `panel_may_wait`: a
        frame of a running window, where a panel whose words changed may be drawn the
        frame after when this frame's table did much (see `_draw_panel`); a picture
        taken at once (a screenshot) shows everything up to date."""
        started = time.perf_counter()
        surface = self.surface
        if self.calibration is not None:
            if self.projector is None:
                self.calibration.draw(surface)
                self._panel_shown = None
                return surface
            self.projector.calibrate(self.calibration)       # the ruler on the projector
            self.draw_table(surface, self.camera, self.table_area, laptop=True)
            text_box(surface, [_("calibrating the projector: stretch the ruler on the table "
                                 "to 10 cm (Left/Right, Enter, Esc)")],
                     (10, 10), self.sizes().panel, "dice")
            return surface
        area = self.table_area
        self.draw_table(surface, self.camera, area, laptop=True)
        if self.correcting.on:
            self.correcting.draw(surface, self.camera, area, self.state, self.sizes().panel)
        busy = self._labels_placed or (time.perf_counter() - started) * 1000.0 > TABLE_BUSY_MS
        self._draw_panel(surface, may_wait=panel_may_wait and busy)
        if (self.prompt is not None and self.prompt.current is not None) or self.vm.help_on:
            self._keep_panel(surface)
            self._panel_shown = None           # drawn over the panel: blit it afresh next time
        if self.prompt is not None and self.prompt.current is not None:
            watcher = self.state.bots.get(self.prompt.current.watcher)
            owner = watcher.player if watcher is not None else "?"
            draw_overwatch_prompt(surface, self.prompt, owner,
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
            show_message=self.panel_rect is None, sprite_budget_ms=self.sprite_budget_ms)

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
        placed = paint_table(surface, cam, area, t, layers or self.layers, laptop,
                             may_place=laptop or not self._labels_placed,
                             may_keep=not laptop and self.phones is None and self.keep_frames,
                             reading=reading)
        if laptop:
            self._labels_placed = placed     # the projector places its own the frame after
        if self.phones is not None:
            self.phones.draw(surface, cam, area, self)   # what the phones show on the table

    def _focus(self, pm: Any, cam: Camera) -> str | None:
        hovered = nearest_target(pm, self.state, *cam.to_cm(*self.mouse))
        return hovered or (self.vm.aim if isinstance(self.vm.aim, str) else None)

    # --- the panel ------------------------------------------------------------------------
    def panel_input(self) -> PanelInput:
        vm = self.vm
        pv = self.move_preview() if vm.plan is not None else None
        plan_lines = [(t, _tone_of(c)) for t, c in plan_summary(pv)] if pv is not None else []
        if vm.plan is not None:
            steps = ", ".join(step_words(s) for s in vm.plan.all_steps()) or _("(no steps yet)")
            plan_lines.insert(0, (_("plan: {steps}").format(steps=steps), "plain"))
            bot = self.state.bots.get(vm.plan.bot)
            why = danger(pv, bot) if pv is not None and bot is not None else None
            if why:
                plan_lines.append((_("{why}: Enter twice to commit").format(why=why), "alarm"))
        if self.expected() == "place" and self.human_to_act():
            plan_lines.append((_("click the table to place {active} (Left/Right: facing "
                                 "{place_facing})").format(
                                   active=self.state.active,
                                   place_facing=number(vm.place_facing)), "dice"))
        options = self.options()
        pm = self.premeasure()
        focus = None
        if pm is not None:
            name = self._focus(pm, self.camera)
            focus = pm.target(name) if name else None
        journal = getattr(self.game.journal, "path", None) or self.journal_name
        return PanelInput(self.game, self.robots, self.sizes(), plan_lines, options,
                          headline(self.game, self.robots, options or None), focus,
                          str(journal) if journal else "")      # no journal: no line

    def _draw_panel(self, surface: pygame.Surface, may_wait: bool = False) -> None:
        """The panel, redrawn only when what it shows changes. `may_wait`: this frame's
        table did much (its labels placed after an action, a weapon chosen): a panel
        the window shows may stay as it is for this one frame and be drawn anew the
        frame after (never two frames running), so that no single frame does both."""
        rect = self.panel_rect
        if rect is None:
            self.buttons = []
            return
        vm = self.vm
        pm = self.premeasure()
        key = (vm.version, self.size, rect.topleft, vm.selected, vm.weapon, vm.measure_overwatch,
               self._panel_plan(), tuple(vm.orders),
               vm.message, len(vm.log.lines), vm.log.lines[-1].text if vm.log.lines else None,
               sum(ln.undone for ln in vm.log.lines), vm.service_choice, vm.threat_on,
               self.state.dice.used, vm.place_facing, vm.log.scroll, vm.confirm, vm.ui_scale,
               self._focus(pm, self.camera) if pm is not None else None)
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

    def _panel_plan(self) -> tuple | None:
        """The plan as the panel shows it: while a step is dragged, as it was when the
        drag began (the table shows the drag; the panel follows when it ends)."""
        plan = self.vm.plan
        if plan is None:
            self._drag_plan = None
        elif not self._plan_drag or self._drag_plan is None:
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
