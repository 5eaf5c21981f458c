"""Shaping the arena on the preview (issue 33.1): edits written into the designer's own
YAML text (comments, order and layout kept), and the preview driven by synthetic
mouse events."""
from __future__ import annotations

import argparse
import difflib
import math
import os
import textwrap

import pygame
import pytest
import yaml

from bottisota.formats.arena_edit import ArenaEditor, EditError, turn_point

YARD = textwrap.dedent("""\
    # The yard: my first arena
    name: Yard
    size: [80, 60]
    features:
      # the crate in the middle
      - {type: wall, id: crate, rect: [30, 20, 4, 4], height: 3}
      - {type: platform, id: roof, rect: [50, 30, 20, 20], height: 4}   # the roof
      - {type: ramp, id: up, rect: [42, 30, 8, 6], from: 0, to: 4, up: 90}
      - type: pit
        circle: [15, 45, 3]      # keep clear
      - {type: teleporter, id: tp-west, circle: [5, 55, 1.5]}
      - {type: teleporter, id: tp-east, circle: [75, 5, 1.5]}
    """)

BLOCK = textwrap.dedent("""\
    name: Block
    size: [80, 60]
    features:
    - type: wall
      rect: [10, 10, 4, 4]   # a crate
      height: 3
    - type: ramp
      rect: [20, 20, 8, 6]
      from: 0
      to: 4
      up: 90
    - type: conveyor
      path:
        - [30, 40]
        - [50, 40]
      width: 4

    # the end
    """)


def changed_lines(before: str, after: str) -> list[str]:
    return [line for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                  lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def editor(tmp_path, text: str = YARD) -> ArenaEditor:
    path = tmp_path / "yard.yaml"
    path.write_text(text)
    return ArenaEditor.open(path)


def test_a_move_changes_only_the_numbers_it_moves(tmp_path):
    e = editor(tmp_path)
    assert e.move(0, 5, 0)
    assert changed_lines(YARD, e.text) == [
        "-  - {type: wall, id: crate, rect: [30, 20, 4, 4], height: 3}",
        "+  - {type: wall, id: crate, rect: [35, 20, 4, 4], height: 3}"]
    assert e.move(3, 0.25, -1.125)                    # a block-style feature, its comment
    assert "    circle: [15.25, 43.88, 3]      # keep clear" in e.text


def test_a_turn_adds_rotate_and_turns_a_slope_with_it(tmp_path):
    # formats.md: `rotate` clockwise about the centroid; a ramp rises toward `up` (D2)
    e = editor(tmp_path)
    assert e.rotate(2, 45)
    assert changed_lines(YARD, e.text)[1] == \
        "+  - {type: ramp, id: up, rect: [42, 30, 8, 6], rotate: 45, from: 0, to: 4, up: 135}"
    assert e.rotate(2, 330)
    assert "rect: [42, 30, 8, 6], rotate: 15, from: 0, to: 4, up: 105}" in e.text
    assert not e.rotate(3, 45)                        # a circle has nothing to turn
    b = editor(tmp_path, BLOCK)
    assert b.rotate(1, 90)
    assert changed_lines(BLOCK, b.text) == ["+  rotate: 90", "-  up: 90", "+  up: 180"]


def test_resize_add_and_delete_keep_every_other_line(tmp_path):
    e = editor(tmp_path)
    assert e.resize(1, 25, 18.5)
    assert "rect: [50, 30, 25, 18.5], height: 4}   # the roof" in e.text
    assert e.add("teleporter", 40, 10, e.new_id("teleporter"))
    assert e.text.endswith("  - {type: teleporter, id: tp-1, circle: [40, 10, 1.5]}\n")
    assert e.delete(3)
    assert "keep clear" not in e.text and "# the crate in the middle" in e.text
    data = yaml.safe_load(e.text)
    assert [f["type"] for f in data["features"]] == ["wall", "platform", "ramp", "teleporter",
                                                     "teleporter", "teleporter"]
    b = editor(tmp_path, BLOCK)
    assert b.add("wall", 60, 50)
    assert "  width: 4\n- {type: wall, rect: [58, 48, 4, 4], height: 10}\n\n# the end\n" \
        in b.text
    assert b.delete(2) and b.delete(2)
    assert b.text.endswith("  up: 90\n\n# the end\n")


def test_undo_and_redo_step_through_the_texts(tmp_path):
    e = editor(tmp_path)
    e.move(0, 1, 0)
    e.rotate(2, 15)
    assert e.undo() and e.undo() and e.text == YARD and not e.undo()
    assert e.redo() and "rect: [31, 20" in e.text
    e.move(0, 1, 0)
    assert not e.redo()                               # a new edit ends the redo history


def test_an_edit_of_a_feature_that_is_not_there_is_refused(tmp_path):
    e = editor(tmp_path)
    with pytest.raises(EditError):
        e.move(17, 1, 1)
    e.text = "name: X\nsize: [10, 10]\n"
    with pytest.raises(EditError):
        e.move(0, 1, 1)


def test_turning_a_point_is_clockwise_with_y_up():
    x, y = turn_point(0.0, 1.0, 0.0, 0.0, 90.0)       # straight up, turned right: +x
    assert (round(x, 9), round(y, 9)) == (1.0, 0.0)


# --- the preview driven by the mouse -------------------------------------------------------

@pytest.fixture
def preview(tmp_path):
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.display.init()
    pygame.font.init()
    from bottisota.commands.preview import configure_parser, make_preview

    path = tmp_path / "yard.yaml"
    path.write_text(YARD)
    p = argparse.ArgumentParser()
    configure_parser(p)
    pv = make_preview(p.parse_args([str(path)]))
    pv.step(0.0, [])
    yield pv
    pygame.display.quit()


def mouse(kind: int, pos: tuple[float, float]) -> pygame.event.Event:
    pos = (round(pos[0]), round(pos[1]))
    if kind == pygame.MOUSEMOTION:
        return pygame.event.Event(kind, pos=pos, rel=(0, 0), buttons=(1, 0, 0))
    return pygame.event.Event(kind, pos=pos, button=1)


def drag(pv, start: tuple[float, float], end: tuple[float, float], t: float) -> None:
    pv.step(t, [mouse(pygame.MOUSEBUTTONDOWN, start), mouse(pygame.MOUSEMOTION, end),
                mouse(pygame.MOUSEBUTTONUP, end)])


def button(pv, name: str) -> tuple[float, float]:
    rect = next(r for r, n in pv.tool.buttons if n == name)
    return rect.center


def test_drag_turn_add_and_undo_on_the_preview_change_the_file_by_exactly_those(preview):
    pv = preview
    path = pv.files[0]
    cam = pv.camera
    # drag the crate 5 cm right
    start = cam.to_px(32, 22)
    drag(pv, start, (start[0] + cam.length(5.0), start[1]), 1.0)
    assert pv.tool.selected == 0
    # select the ramp, then turn it 45° by its handle
    ramp = cam.to_px(46, 33)
    drag(pv, ramp, ramp, 2.0)
    assert pv.tool.selected == 2
    hx, hy = pv.tool.handles(pv.last_good)["rotate"]
    c = pv.tool.feature(pv.last_good, 2).shape.centroid
    r = math.hypot(hx - c.x, hy - c.y)
    drag(pv, cam.to_px(hx, hy), cam.to_px(c.x + r * math.sin(math.radians(45)),
                                          c.y + r * math.cos(math.radians(45))), 3.0)
    # a teleporter from the palette, placed by a click
    pv.step(4.0, [mouse(pygame.MOUSEBUTTONDOWN, button(pv, "teleporter")),
                  mouse(pygame.MOUSEBUTTONUP, button(pv, "teleporter"))])
    spot = cam.to_px(40, 10)
    pv.step(5.0, [mouse(pygame.MOUSEBUTTONDOWN, spot), mouse(pygame.MOUSEBUTTONUP, spot)])
    added = path.read_text()
    assert added.endswith("  - {type: teleporter, id: tp-1, circle: [40, 10, 1.5]}\n")
    assert pv.last_good is not None and len(pv.last_good.by_type("teleporter")) == 3
    # undo once: the teleporter goes; the drag and the turn stay
    pv.step(6.0, [mouse(pygame.MOUSEBUTTONDOWN, button(pv, "undo")),
                  mouse(pygame.MOUSEBUTTONUP, button(pv, "undo"))])
    assert changed_lines(YARD, path.read_text()) == [
        "-  - {type: wall, id: crate, rect: [30, 20, 4, 4], height: 3}",
        "+  - {type: wall, id: crate, rect: [35, 20, 4, 4], height: 3}",
        "-  - {type: ramp, id: up, rect: [42, 30, 8, 6], from: 0, to: 4, up: 90}",
        "+  - {type: ramp, id: up, rect: [42, 30, 8, 6], rotate: 45, from: 0, to: 4, up: 135}"]
    # the preview checked each change at once: the crate is drawn where the file says
    crate = pv.tool.feature(pv.last_good, 0)
    assert crate.shape.bounds[0] == 35.0
    assert pv.generation >= 5


def test_a_text_editor_save_is_taken_and_undo_goes_back_past_it(preview):
    pv = preview
    path = pv.files[0]
    path.write_text(YARD.replace("height: 3}", "height: 5}"))
    os.utime(path, ns=(1, 1))
    pv.step(10.0, [])
    assert pv.tool.editor.text == path.read_text()
    pv.step(10.05, [pygame.event.Event(pygame.KEYDOWN, key=pygame.K_z, mod=pygame.KMOD_CTRL,
                                       unicode="z", scancode=0)])
    assert path.read_text() == YARD


def test_sight_and_reach_views_from_a_spot(preview):
    pv = preview
    arena = pv.last_good
    area = pv.tool.sight_area(arena, 20, 22, 0.0)
    # the crate (3 cm tall, above a 2 cm eye) hides what is straight behind it
    assert not area.contains(__import__("shapely").geometry.Point(40, 22))
    assert area.contains(__import__("shapely").geometry.Point(20, 40))
    reach = pv.state.reach
    from_floor = reach.from_spot(10, 10)
    assert from_floor is not None and from_floor.sum() >= reach.ground.sum() * 0.9
    assert reach.from_spot(15, 45) is None            # in the pit: no base fits


def test_a_bundled_arena_is_shown_read_only():
    from bottisota.commands.preview import editable
    from bottisota.formats import content

    assert not editable(content.find("arena", "warehouse"))


def test_a_sight_or_reach_view_is_worked_out_once_per_spot(preview, monkeypatch):
    # the preview draws 30 frames a second: the view is not worked out again each frame
    pv = preview
    calls = []
    real = pv.tool.sight_area

    def counted(*a):
        calls.append(a[1:3])
        return real(*a)

    monkeypatch.setattr(pv.tool, "sight_area", counted)
    pv.tool.tool, pv.tool.spot = "sight", (20.0, 22.0)
    pv.draw()
    pv.draw()
    assert calls == [(20.0, 22.0)]
    pv.tool.spot = (30.0, 40.0)
    pv.draw()
    assert calls == [(20.0, 22.0), (30.0, 40.0)]


def test_the_arena_is_drawn_again_only_after_a_reload(preview, monkeypatch):
    from bottisota.view import preview as preview_module

    pv = preview
    drawn = []
    real = preview_module.render_arena
    monkeypatch.setattr(preview_module, "render_arena",
                        lambda *a, **k: drawn.append(a[0]) or real(*a, **k))
    pv.drawn = None
    pv.draw()
    pv.draw()
    assert len(drawn) == 1
    start = pv.camera.to_px(32, 22)
    drag(pv, start, (start[0] + pv.camera.length(5.0), start[1]), 20.0)    # an edit: reload
    assert len(drawn) == 2 and drawn[1] is pv.last_good
