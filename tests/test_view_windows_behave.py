"""Windows that behave and a log drawn once: a dead display exits as clearly as none,
the projector's closing is noticed, exit says where the game is saved and how to go
on, view settings stay out of the game's log, the newest line is drawn once, a draw's
dice are one row with what they decided."""
from __future__ import annotations

import os
import subprocess
import sys

import pygame
import pytest

from bottisota.commands.play import _goodbye
from bottisota.core.dice import Roll
from bottisota.view import style
from bottisota.view.app import TableApp
from bottisota.view.projector import ProjectorWindow
from bottisota.view.screenshots import screenshot_game
from bottisota.viewmodel.calibration_store import Calibration
from bottisota.viewmodel.dice_rows import dice_rows

pytestmark = pytest.mark.usefixtures("video")   # tests/conftest.py


def press(app: TableApp, k: int) -> None:
    app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))


def test_a_display_that_does_not_answer_exits_2_with_one_message(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("SDL_VIDEODRIVER", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=":87", XDG_DATA_HOME=str(tmp_path))
    out = subprocess.run([sys.executable, "-m", "bottisota", "play"], env=env,
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2, out.stderr
    assert "the display :87 does not answer" in out.stderr and "Traceback" not in out.stderr


def test_closing_the_projector_window_is_noticed():
    pygame.font.init()
    app = TableApp(screenshot_game("b1", "shoot"), (1280, 800))
    app.windows.projector = ProjectorWindow((1920, 1080), Calibration(12.0, 12.0))
    app.windows.projector.handle(pygame.event.Event(pygame.WINDOWCLOSE), app)
    assert app.windows.projector is None
    assert app.vm.log.lines[-1].text == "projector window closed"


def test_exit_says_where_the_game_is_and_how_to_go_on(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    _goodbye(screenshot_game("b1", "shoot"), str(path))
    assert capsys.readouterr().out.strip() == "no action was taken: nothing was saved"
    path.write_text("{}\n")
    _goodbye(screenshot_game("b1", "shoot"), str(path))
    assert capsys.readouterr().out.splitlines() == [
        f"the game is saved in {path}", f"go on with it: bottisota play --resume {path}"]


def test_view_settings_stay_out_of_the_game_log_and_the_newest_line_is_drawn_once(monkeypatch):
    pygame.font.init()
    app = TableApp(screenshot_game("b1", "shoot"), (1280, 800))
    lines = len(app.vm.log.lines)
    press(app, pygame.K_F4)
    assert len(app.vm.log.lines) == lines and app.vm.message[0].startswith("UI scale")
    app.say("a sentence said once")
    drawn: list[str] = []
    real = style.label
    monkeypatch.setattr(style, "label",
                        lambda t, s, c=style.TEXT: drawn.append(t) or real(t, s, c))
    app.frame._panel = None
    app.draw()
    assert drawn.count("a sentence said once") == 1


def test_a_card_draw_s_dice_are_one_row_with_what_they_decided():
    purpose = "draw: red's bot from the deck of 15 (1 of 15)"
    rows = dice_rows([Roll(purpose, 5), Roll(purpose, 4), Roll(purpose, 6), Roll(purpose, 6),
                      Roll("to hit", 3)])
    assert [(r.values, r.purpose, r.decided) for r in rows] == [
        ((5, 4), "draw: red's bot from the deck of 15", "= 13 of 15"),   # 4*6+3 = 27 < 30
        ((6, 6), "draw: red's bot from the deck of 15", "= rolled again"),
        ((3,), "to hit", "")]
