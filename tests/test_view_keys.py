"""One key-binding table: every command it names is one the controller runs, every
key the help lists is in it, and the help wraps the longer Finnish words inside the
window."""
from __future__ import annotations

import pygame
import pytest

from bottisota.core.i18n import language, set_language
from bottisota.view import help as help_overlay
from bottisota.view import keys, style
from bottisota.view.app import TableApp
from bottisota.view.screenshots import screenshot_game

pytestmark = pytest.mark.usefixtures("video")   # tests/conftest.py


def test_every_command_of_the_table_is_run_by_the_controller():
    pygame.font.init()
    app = TableApp(screenshot_game("b1", "shoot"), (1280, 800))
    handled = set(app.controls._handlers())
    named = {b.command for b in keys.BINDINGS if b.command and not b.command.startswith("fix_")}
    assert named <= handled, named - handled


def test_the_help_lists_the_table():
    lines = "\n".join(help_overlay.help_lines())
    for b in keys.BINDINGS:
        if b.label:
            assert f"  {b.label}: {b.does}" in lines


def test_a_key_press_runs_its_binding():
    pygame.font.init()
    app = TableApp(screenshot_game("b1", "shoot"), (1280, 800))
    for k in (pygame.K_t, pygame.K_l):
        app.handle(pygame.event.Event(pygame.KEYDOWN, key=k, mod=0, unicode="", scancode=0))
    assert app.vm.threat_on and app.vm.show_legend


@pytest.mark.parametrize("size", [(1280, 800), (1024, 640)])
def test_the_finnish_help_wraps_inside_the_window(size):
    before = language()
    set_language("fi")
    try:
        pygame.font.init()
        w, h = size
        size_used = max(12, min(h * 2 // sum(len(r) + 2 for _t, r in help_overlay.KEYS), w // 70))
        while size_used > 12 and help_overlay._layout(size_used, (w - 80) // 2, h) is None:
            size_used -= 1
        laid = help_overlay._layout(size_used, (w - 80) // 2, h)
        assert laid is not None
        for x, y, text, tsize, _colour in laid:
            tw, th = style.text_size(text, tsize)
            assert x + tw <= w and y + th <= h, text
    finally:
        set_language(before)
