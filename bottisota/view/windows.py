"""The table view's windows: the laptop window's geometry (panel, table area, text
sizes, the fitted or true-scale camera), full screen, the projector window (F5) and
calibration results (F2). `WindowControl` owns the window's surface, its camera,
its cached layers and the projector; it reads the game's arena and the view model's
panel settings from its host (`WindowHost`) and nothing else."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import pygame

from bottisota.core.i18n import _, number
from bottisota.view.app_state import PANEL_SHARE
from bottisota.view.arena_layer import ArenaLayer
from bottisota.view.camera import Camera
from bottisota.view.margins import strip_height
from bottisota.view.table_painter import WindowLayers
from bottisota.viewmodel.calibration_store import Calibration
from bottisota.viewmodel.model import PANEL_BOTTOM, PANEL_HIDDEN
from bottisota.viewmodel.sizes import TextSizes, text_sizes

if TYPE_CHECKING:
    from bottisota.engine.game import Game
    from bottisota.view.projector import ProjectorWindow
    from bottisota.viewmodel.model import ViewModel


class WindowHost(Protocol):
    """What the window control reads of the table it serves."""

    @property
    def game(self) -> Game: ...
    @property
    def vm(self) -> ViewModel: ...
    def say(self, text: str, tone: str = "plain") -> None: ...


class WindowControl:
    """Window geometry, full screen, the projector and calibration (see the module
    doc). `on_layout` is called when what the panel covers changes (a new size, the
    projector opened or closed): the frame drawer draws its panel afresh."""

    def __init__(self, host: WindowHost, size: tuple[int, int], screen: pygame.Surface | None,
                 calibration: Calibration | None, on_layout: Callable[[], None]) -> None:
        self.host = host
        self.screen = screen
        self.surface = screen if screen is not None else pygame.Surface(size)
        self.calibration_value = calibration
        self.on_layout = on_layout
        self.projector: ProjectorWindow | None = None   # the table alone, true scale
        self.layers = self.new_layers()
        self._windowed: tuple[int, int] | None = None   # the window's place before full screen
        self.camera = self.fit_camera()

    @property
    def vm(self) -> ViewModel:
        return self.host.vm

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
        state = self.host.game.state
        return WindowLayers(ArenaLayer(state.arena, grid=self.vm.show_grid, rules=state.rules))

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

    def fit_camera(self) -> Camera:
        area = self.table_area
        cal = self.calibration_value
        if self.vm.true_scale and cal is not None and self.projector is None:
            cam = Camera.centred(self.host.game.state.arena.size, area.size, cal.x, cal.y / cal.x)
            tw, th = self.host.game.state.arena.size
            if tw * cal.x > area.w + 1 or th * cal.y > area.h + 1:
                self.vm.say(_("the table at true scale is bigger than this window: F3 fits "
                              "it (or hide the panel with Tab)"), "alarm")
            return cam
        room = strip_height(text_sizes(1.0, self.size, self.vm.ui_scale).panel)
        return Camera.fit(self.host.game.state.arena.size, area.size, margin_y=room)

    def resized(self, size: tuple[int, int]) -> None:
        """The window changed size: a new surface (headless) and a fitted camera."""
        if self.screen is None:
            self.surface = pygame.Surface(size)
        else:
            self.surface = self.screen = window_surface()
        self.on_layout()
        self.camera = self.fit_camera()

    # --- input ---------------------------------------------------------------------------
    def on_table(self, pos: tuple[int, int]) -> bool:
        return self.table_area.collidepoint(pos)

    def table_point(self, pos: tuple[int, int]) -> tuple[float, float]:
        return self.camera.to_cm(*pos)

    def calibrated(self, result: Calibration | None) -> None:
        if result is None:
            return
        from_display = self.calibration_key()
        try:
            path = self.calibration_saver(from_display, result)
        except (OSError, ValueError) as err:
            self.host.say(_("the calibration could not be saved: {err}").format(err=err), "alarm")
            path = None
        if self.projector is not None:          # the ruler was on the projector's display
            self.projector.calibration = result
            self.projector.fit = False
            self.projector.camera = None
        else:
            self.calibration_value = result
            self.vm.true_scale = True
            self.camera = self.fit_camera()
        where = _(" in {path}").format(path=path) if path else ""
        self.host.say(_("true scale {x} x {y} px/cm saved{where}").format(
                     x=number(result.x), y=number(result.y), where=where))

    # set by the session (bottisota.commands.play): where calibrations go
    # and how the projector window opens (None: no second window, e.g. without a display)
    calibration_key: Callable[[], str] = staticmethod(lambda: "display0")
    calibration_saver: Callable[[str, Calibration], Path | None] = staticmethod(
        lambda key, cal: None)
    open_projector: Callable[[WindowHost], ProjectorWindow] | None = None

    def toggle_fullscreen(self) -> None:
        """F11: full screen on or off, the window back where and as big as it was; where
        the driver cannot, the window stays and says so."""
        if self.screen is None:
            self.vm.note(_("full screen needs a real window"))
            return
        try:
            if not pygame.display.is_fullscreen():
                self._windowed = pygame.display.get_window_position()
            pygame.display.toggle_fullscreen()
            if self._windowed is not None and not pygame.display.is_fullscreen():
                pygame.display.set_window_position(self._windowed)   # where it was
            self.resized(window_surface().get_size())
        except pygame.error as err:
            self.host.say(_("full screen is not available here ({err}); the window stays").format(
                         err=err), "alarm")

    def toggle_projector(self) -> None:
        """F5: the table alone on a second window (the projector), at true scale."""
        from_window = self.projector
        if from_window is not None:
            from_window.close()
            self.projector = None
            self.host.say(_("projector window closed"))
        else:
            opener = getattr(self, "open_projector", None)
            if opener is None:
                self.host.say(_("a second window needs a real display"), "dim")
                return
            try:
                self.projector = opener(self.host)
                self.host.say(_("projector window open: the table alone at true scale"))
            except (pygame.error, OSError, ValueError) as err:
                self.host.say(_("no second window: {err}").format(err=err), "alarm")
        self.on_layout()
        self.camera = self.fit_camera()


def window_surface() -> pygame.Surface:
    """The display's surface (a window is open whenever this is asked)."""
    surface = pygame.display.get_surface()
    if surface is None:
        raise pygame.error(_("no window is open"))
    return surface
