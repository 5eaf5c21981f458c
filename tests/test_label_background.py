"""Labels placed off the frame (issue 32: no work in the frame that can be done
elsewhere). In `play` the table asks for a label pass on a thread and goes on
drawing; a later frame takes the answer, which is the pass the frame would have made
itself. Meanwhile only labels that still stand clear are shown: nothing over a bot."""
from __future__ import annotations

import os
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from bottisota.view.app import TableApp  # noqa: E402
from bottisota.view.screenshots import screenshot_game  # noqa: E402
from bottisota.viewmodel.labels import (  # noqa: E402
    LabelWish,
    PlacedLabel,
    rect_meets_disc,
    still_standing,
)


def _shown(background: bool) -> list[PlacedLabel]:
    pygame.font.init()
    app = TableApp(screenshot_game("b1", "shoot"), (1920, 1080))
    app.frame.labels_in_background = background
    app.actions.choose_weapon(1)
    app.vm.aim = "s1"
    app.update(0.0)
    app.draw()
    if background:
        first = list(app.vm.labels)
        deadline = time.monotonic() + 30
        while app.windows.layers.placing.busy and time.monotonic() < deadline:
            time.sleep(0.01)
        assert first == []                   # a laptop's labels: none until the pass is in
        app.draw()
    return list(app.vm.labels)


def test_a_pass_made_off_the_frame_shows_what_the_frame_would_have_placed():
    shown = _shown(background=True)
    assert shown and shown == _shown(background=False)
    assert "no sight: door 'bay-door'" in [label.text for label in shown]


def test_while_a_pass_runs_no_label_stays_over_a_bot_or_where_it_no_longer_belongs():
    wall = PlacedLabel("wall", (10.0, 10.0, 40.0, 14.0), (30.0, 30.0), False, "plain", "w")
    pit = PlacedLabel("pit", (100.0, 10.0, 40.0, 14.0), (120.0, 30.0), False, "plain", "p")
    gone = PlacedLabel("red-1", (200.0, 10.0, 40.0, 14.0), (220.0, 30.0), False, "plain", "r")
    far = PlacedLabel("ramp", (300.0, 100.0, 40.0, 14.0), (300.0, 10.0), True, "plain", "m")
    wishes = [LabelWish(p.text, p.rect[2:], p.anchor, key=p.key) for p in (wall, pit, far)]
    moved_bot = (120.0, 15.0, 8.0)           # a bot now stands on the pit's label
    crossing = (310.0, 60.0, 6.0)            # and one across the ramp's leader line
    kept = still_standing([wall, pit, gone, far], wishes, [moved_bot, crossing], [])
    assert kept == [wall]
    assert not any(rect_meets_disc(p.rect, d) for p in kept for d in (moved_bot, crossing))
