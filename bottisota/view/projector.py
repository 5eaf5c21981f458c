"""The projector window: a second pygame-ce `Window` showing the table alone, edge to
edge, at the projector display's true scale (or fitted, one key away), drawn by the
same painters from the same view model as the laptop window."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pygame

from bottisota.core.i18n import _
from bottisota.view.app_state import ZOOM_SETTLE_S
from bottisota.view.camera import Camera
from bottisota.view.margins import strip_height
from bottisota.viewmodel.calibration_store import Calibration
from bottisota.viewmodel.sizes import reading_sizes


class ProjectorWindow:
    """A second window for the table (`pygame.Window`), or an off-screen surface of the
    same size in tests (`window=None`)."""

    def __init__(self, size: tuple[int, int], calibration: Calibration | None,
                 window: Any = None, message: Callable[[str, str], None] | None = None) -> None:
        self.window = window
        self.surface = window.get_surface() if window is not None else pygame.Surface(size)
        self.calibration = calibration
        self.fit = calibration is None
        self.message = message or (lambda text, tone: None)
        self.camera: Camera | None = None
        self.layers: Any = None           # its own cached layers (set by the view)
        self.pointer: tuple[int, int] = (size[0] // 2, size[1] // 2)
        self.pan_from: tuple[int, int] | None = None   # a middle drag under way
        self.zoomed_at = -1.0             # the view's clock at its last zoom step

    @classmethod
    def open(cls, app: Any, display: int = 1, calibration: Calibration | None = None
             ) -> ProjectorWindow:
        """A borderless full-screen window on `display`; with one screen only, an
        ordinary window beside the laptop's (never over its controls), to be dragged
        to the projector's screen."""
        sizes = pygame.display.get_desktop_sizes()
        if len(sizes) < 2:
            w, h = sizes[0] if sizes else (1280, 720)
            size = (max(320, w // 2), max(240, h // 2))
            window = pygame.Window(_("Bottisota table"), size, position=(0, 0),
                                   resizable=True)   # the laptop's panel (right) stays in view
            app.say(_("only one screen: the projector's table opens in a window of its own; "
                      "drag it onto the projector's screen (F5 closes it)"), "dim")
            return cls(window.size, calibration, window, app.say)
        index = min(display, len(sizes) - 1)
        size = sizes[index]
        left = sum(w for w, _h in sizes[:index])          # displays side by side, left to right
        window = pygame.Window(_("Bottisota table"), size, position=(left, 0), borderless=True)
        if index > 0:
            try:
                window.set_fullscreen(desktop=True)        # full screen on the display it is on
            except pygame.error as err:
                app.say(_("the projector window stays a borderless window ({err})").format(
                            err=err), "dim")
        return cls(window.size, calibration, window, app.say)

    def owns(self, event: pygame.event.Event) -> bool:
        return self.window is not None and getattr(event, "window", None) is self.window

    def handle(self, event: pygame.event.Event, app: Any) -> bool:
        """Its own close, F3 (fit / true scale), Home (its own view again), wheel (zoom),
        middle drag (pan) and left click (select a bot, add a shot at it, place the
        drawn bot: `app.click_table`). Keys go on to the laptop's controls. Planning
        drags, the ruler and the panel stay on the laptop (help says so)."""
        if event.type == pygame.WINDOWCLOSE:
            app.windows.projector = None
            self.close()
            app.say(_("projector window closed"))
            app.windows.camera = app.windows.fit_camera()
            return True
        if event.type in (pygame.WINDOWRESIZED, pygame.WINDOWSIZECHANGED):
            self.surface = self.window.get_surface()
            self.camera = None
            self.layers = None
            return True
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_F3, pygame.K_HOME):
            if event.key == pygame.K_F3:
                self.fit = not self.fit or self.calibration is None
            self.camera = None
            return True
        cam = self.camera_for(app.state.arena.size, self.strip_room(app))
        if event.type == pygame.MOUSEWHEEL:
            self.camera = cam.zoomed(1.15 ** event.y, self.pointer)
            self.zoomed_at = app.frame.clock
            return True
        if event.type == pygame.MOUSEMOTION:
            self.pointer = event.pos
            if self.pan_from is not None:
                dx, dy = event.pos[0] - self.pan_from[0], event.pos[1] - self.pan_from[1]
                self.camera = cam.panned(dx, dy)
                self.pan_from = event.pos
            return True
        if event.type == pygame.MOUSEBUTTONDOWN:
            self.pointer = event.pos
            if event.button == 2:
                self.pan_from = event.pos
            elif event.button == 1:
                app.click_table(*cam.to_cm(*event.pos))
            return True
        if event.type == pygame.MOUSEBUTTONUP:
            if event.button == 2:
                self.pan_from = None
            return True
        return False

    def true_px_per_cm(self, cam: Camera) -> float:
        """Pixels per centimetre of the table itself: the calibration's (up the image,
        as capitals stand), or, uncalibrated, the camera's (the image is the table)."""
        return self.calibration.y if self.calibration is not None else cam.scale_y

    def strip_room(self, app: Any) -> int:
        """The height a turn strip takes at the reading size (a fitted table leaves it
        free above and below)."""
        cal = self.calibration
        scale = cal.y if cal is not None else self.surface.get_height() / app.state.arena.size[1]
        return strip_height(reading_sizes(scale, app.vm.reading_distance_cm).panel)

    def camera_for(self, table: tuple[float, float], room: int = 0) -> Camera:
        size = self.surface.get_size()
        if self.camera is None:
            if self.fit or self.calibration is None:
                self.camera = Camera.fit(table, size, margin=0, margin_y=room)
            else:
                cal = self.calibration
                self.camera = Camera.centred(table, size, cal.x, cal.y / cal.x)
                if table[0] * cal.x > size[0] + 1 or table[1] * cal.y > size[1] + 1:
                    self.message(_("the table at true scale is bigger than the projector's "
                                   "image: F3 fits it"), "alarm")
        return self.camera

    def draw(self, app: Any) -> pygame.Surface:
        """The table, its texts sized for the reading distance at the true scale."""
        cam = self.camera_for(app.state.arena.size, self.strip_room(app))
        area = pygame.Rect((0, 0), self.surface.get_size())
        if self.layers is None:
            self.layers = app.windows.new_layers()
        app.frame.draw_table(self.surface, cam, area, layers=self.layers,
                             settled=app.frame.clock - self.zoomed_at >= ZOOM_SETTLE_S
                             and self.pan_from is None, reading=self.true_px_per_cm(cam))
        if self.window is not None:
            self.window.flip()
        return self.surface

    def calibrate(self, screen: Any) -> None:
        """Show a calibration ruler (view.calibration.CalibrationScreen) on this display."""
        if self.layers is not None:
            self.layers.forget_shown()       # the table is painted whole afterwards
        screen.draw(self.surface)
        if self.window is not None:
            self.window.flip()

    def close(self) -> None:
        if self.window is not None:
            self.window.destroy()
            self.window = None
