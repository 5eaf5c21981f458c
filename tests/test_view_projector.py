"""The projector window takes the table's own input: wheel zoom, middle-drag pan, a click
selects a bot or adds a shot at it (the same rules as the laptop's click); keys go on
to the laptop's controls; what stays laptop-only is said in the help."""
from __future__ import annotations

import pygame
import pytest

from bottisota.view.app import TableApp
from bottisota.view.help import help_lines
from bottisota.view.projector import ProjectorWindow
from bottisota.view.screenshots import screenshot_game
from bottisota.viewmodel.calibration_store import Calibration

pytestmark = pytest.mark.usefixtures("video")   # tests/conftest.py

Event = pygame.event.Event


def two_windows(active: str = "b1", phase: str = "shoot") -> TableApp:
    pygame.font.init()
    app = TableApp(screenshot_game(active, phase), (1280, 800))
    app.windows.projector = ProjectorWindow((1920, 1080), Calibration(12.8, 12.8))
    app.step(0.0)
    return app


def click(app: TableApp, pos: tuple[float, float], button: int = 1) -> None:
    p = (round(pos[0]), round(pos[1]))
    app.windows.projector.handle(Event(pygame.MOUSEBUTTONDOWN, pos=p, button=button), app)
    app.windows.projector.handle(Event(pygame.MOUSEBUTTONUP, pos=p, button=button), app)


def test_a_click_on_the_projector_selects_the_bot_there():
    app = two_windows()
    cam = app.windows.projector.camera_for(app.state.arena.size)
    click(app, cam.to_px(85.0, 65.0))                         # o1
    assert app.vm.selected == "o1"


def test_a_click_on_the_projector_adds_a_shot_as_on_the_laptop():  # R18
    app = two_windows()
    app.actions.choose_weapon(1)
    cam = app.windows.projector.camera_for(app.state.arena.size)
    click(app, cam.to_px(62.0, 22.0))                         # s1, with b1's first weapon chosen
    assert [o.target for o in app.vm.orders] == ["s1"]


def test_the_projector_zooms_and_pans_its_own_view_only():
    app = two_windows()
    laptop = app.windows.camera
    cam = app.windows.projector.camera_for(app.state.arena.size)
    app.windows.projector.handle(Event(pygame.MOUSEMOTION, pos=(900, 500), rel=(0, 0),
                                            buttons=(0, 0, 0)), app)
    app.windows.projector.handle(Event(pygame.MOUSEWHEEL, x=0, y=2, flipped=False), app)
    zoomed = app.windows.projector.camera
    assert zoomed.scale == pytest.approx(cam.scale * 1.15 ** 2)
    assert zoomed.to_cm(900, 500) == pytest.approx(cam.to_cm(900, 500))   # about the pointer
    app.windows.projector.handle(Event(pygame.MOUSEBUTTONDOWN, pos=(900, 500), button=2), app)
    app.windows.projector.handle(Event(pygame.MOUSEMOTION, pos=(950, 480), rel=(50, -20),
                                            buttons=(0, 1, 0)), app)
    assert app.windows.projector.camera.origin == pytest.approx((zoomed.origin[0] + 50,
                                                         zoomed.origin[1] - 20))
    assert app.windows.camera == laptop
    app.step(1 / 60)                                           # draws while zoomed and panned
    home = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_HOME, mod=0, unicode="")
    assert app.windows.projector.handle(home, app)
    assert app.windows.projector.camera_for(app.state.arena.size) == cam


def test_keys_on_the_projector_go_to_the_laptop_controls_and_help_says_what_is_laptop_only():
    app = two_windows()
    t = pygame.event.Event(pygame.KEYDOWN, key=pygame.K_t, mod=0, unicode="t")
    assert not app.windows.projector.handle(t, app)
    text = "\n".join(help_lines())
    assert "Projector window" in text and "Laptop only" in text
