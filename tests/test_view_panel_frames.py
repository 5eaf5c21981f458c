"""The panel's frames: a changed panel may wait one frame after a busy table (never two
frames running, never in a picture taken at once), and a panel whose pixels are only
copied before something covers them shows the same pixels as one drawn afresh."""
from __future__ import annotations

import pygame
import pytest

from bottisota.view import frame
from bottisota.view.app import TableApp
from bottisota.view.screenshots import screenshot_game

pytestmark = pytest.mark.usefixtures("video")   # tests/conftest.py

SIZE = (1600, 900)


def shooting_app() -> TableApp:
    app = TableApp(screenshot_game("b1", "shoot"), SIZE, robot_pace=0.0)
    assert app.windows.panel_rect is not None
    app.step(0.0)
    return app


def settled_app() -> TableApp:
    """A shooting app with a weapon chosen and its panel drawn (two frames on)."""
    app = shooting_app()
    app.actions.choose_weapon(1)
    app.step(0.0)
    app.step(0.0)
    return app


def panel_pixels(app: TableApp) -> bytes:
    assert app.windows.panel_rect is not None
    return pygame.image.tobytes(app.windows.surface.subsurface(app.windows.panel_rect), "RGB")


def fresh_panel(app: TableApp) -> bytes:
    """The panel as a window drawing everything at once shows it now."""
    app.frame._panel = None
    app.draw()
    return panel_pixels(app)


def test_a_changed_panel_waits_one_frame_after_a_busy_table(monkeypatch):
    monkeypatch.setattr(frame, "TABLE_BUSY_MS", -1.0)      # every table counts as busy
    app = shooting_app()
    before = panel_pixels(app)
    app.actions.choose_weapon(1)                                   # the panel's words change
    app.step(0.0)
    assert panel_pixels(app) == before                     # this frame: the table only
    app.step(0.0)
    after = panel_pixels(app)
    assert after != before                                 # the frame after: the panel
    assert after == fresh_panel(app)


def test_a_panel_changing_every_frame_is_drawn_at_least_every_other_frame(monkeypatch):
    monkeypatch.setattr(frame, "TABLE_BUSY_MS", -1.0)
    app = shooting_app()
    shown = [panel_pixels(app)]
    for i in range(6):
        app.actions.choose_weapon(1 + i % 2)                       # weapon 1, 2, 1, ... each frame
        app.step(0.0)
        shown.append(panel_pixels(app))
    changed = [a != b for a, b in zip(shown, shown[1:], strict=False)]
    assert not any(not a and not b for a, b in zip(changed, changed[1:], strict=False))


def test_a_light_table_or_a_picture_taken_at_once_shows_the_panel_up_to_date(monkeypatch):
    app = shooting_app()
    monkeypatch.setattr(frame, "TABLE_BUSY_MS", 1e9)      # no table is busy
    app.frame._labels_placed = False
    app.vm.message = ("a word on the panel", "plain")      # no label placed by this change
    app.step(0.0)
    assert panel_pixels(app) == fresh_panel(app)
    monkeypatch.setattr(frame, "TABLE_BUSY_MS", -1.0)
    app.actions.choose_weapon(1)
    app.draw()                                             # a screenshot: never waits
    drawn = panel_pixels(app)
    assert drawn == fresh_panel(app)


def test_a_panel_covered_for_a_frame_comes_back_with_the_same_pixels():
    app = settled_app()
    shown = panel_pixels(app)

    def cover(surface: pygame.Surface, area: pygame.Rect) -> None:
        surface.fill((255, 0, 255))                        # over the panel too

    app.frame.overlays.append(cover)
    app.step(0.0)
    assert panel_pixels(app) != shown
    app.frame.overlays.remove(cover)
    app.step(0.0)
    assert panel_pixels(app) == shown                      # its pixels blitted back
    assert app.frame._panel_saved
    assert shown == fresh_panel(app)


def test_a_panel_never_copied_is_drawn_again_when_its_pixels_are_gone():
    app = settled_app()
    shown = panel_pixels(app)
    assert not app.frame._panel_saved                            # nothing covered it: no copy made
    app.windows.surface.fill((255, 0, 255))                        # something drew over the window
    app.frame._panel_shown = None                                # and said so
    app.step(0.0)
    assert panel_pixels(app) == shown


def test_the_headless_screenshot_shows_the_panel_as_the_table_stands(monkeypatch, tmp_path):
    # `play --headless --screenshot`: the last frame may have left its panel's new words
    # to the next; the picture is drawn at once (seen: a screenshot whose panel said
    # round 9 under a table in round 10)
    import argparse

    from bottisota.commands import play

    monkeypatch.setattr(frame, "TABLE_BUSY_MS", -1.0)
    app = shooting_app()
    before = panel_pixels(app)
    app.actions.choose_weapon(1)
    shot = tmp_path / "last.png"
    play._headless(app, argparse.Namespace(frames=1, screenshot=str(shot)))
    assert app.windows.panel_rect is not None
    saved = pygame.image.load(str(shot)).subsurface(app.windows.panel_rect)
    assert pygame.image.tobytes(saved, "RGB") == fresh_panel(app) != before
