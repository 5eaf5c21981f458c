"""`bottisota preview`: headless (SDL dummy), the window reloads within a second of a
save, marks findings at their spots and answers hover questions."""
from __future__ import annotations

import argparse
import os

import pygame

from bottisota.cli import main as cli_main
from bottisota.commands.preview import configure_parser, make_preview

ARENA = """name: Sketch
size: [60, 40]
features:
  - {type: platform, id: deck, rect: [30, 10, 20, 20], height: 4}
  - {type: stairs, rect: [22, 15, 8, 10], from: 0, to: 4, up: 90}
  - {type: teleporter, id: tp, circle: [5, 5, 1.5]}
"""


def preview_for(path, *extra):
    p = argparse.ArgumentParser()
    configure_parser(p)
    return make_preview(p.parse_args([str(path), *map(str, extra)]))


def touch_later(path, text):
    """Write the file and move its time forward (file systems with coarse clocks)."""
    path.write_text(text)
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))


def test_the_preview_reloads_within_a_second_of_a_save(tmp_path):
    path = tmp_path / "sketch.yaml"
    path.write_text(ARENA)
    pygame.display.init()
    preview = preview_for(path)
    preview.step(0.0, [])
    assert preview.generation == 1
    assert [f.code for f in preview.state.findings] == ["W012"]        # the lone teleporter
    touch_later(path, ARENA + "  - {type: teleporter, id: tp2, circle: [55, 35, 1.5]}\n")
    preview.step(0.1, [])                     # polled every 0.25 s: not yet
    preview.step(0.5, [])
    assert preview.generation == 2 and preview.state.findings == []
    touch_later(path, ARENA.replace("type: stairs", "type: stairz"))
    preview.step(1.0, [])
    assert preview.generation == 3 and preview.state.arena is None     # broken: last good shown
    assert preview.last_good is not None and preview.state.findings[0].code == "E001"
    assert preview.surface.get_width() > 400


def test_hover_tells_floor_height_features_and_reach(tmp_path):
    path = tmp_path / "sketch.yaml"
    path.write_text(ARENA)
    pygame.display.init()
    preview = preview_for(path)
    preview.step(0.0, [])
    lines = preview.hover_lines(40.0, 20.0)
    assert "floor height 4 cm" in lines and "reached by: every bot" in lines
    assert "features: platform 'deck'" in lines
    mouse = pygame.event.Event(pygame.MOUSEMOTION,
                               pos=tuple(map(int, preview.camera.to_px(40, 20))),
                               rel=(0, 0), buttons=(0, 0, 0))
    preview.step(0.1, [mouse])
    assert preview.table_point(preview.mouse) is not None


def test_a_finding_is_drawn_at_its_spot(tmp_path):
    path = tmp_path / "sketch.yaml"
    path.write_text(ARENA)
    pygame.display.init()
    preview = preview_for(path)
    preview.step(0.0, [])
    x, y = preview.camera.to_px(5, 5)
    ring = [preview.surface.get_at((round(x) + dx, round(y))) for dx in range(-20, 21)]
    assert any(tuple(c)[:3] == (255, 170, 0) for c in ring)


def test_the_command_runs_headless_for_some_frames(tmp_path, capsys):
    path = tmp_path / "sketch.yaml"
    path.write_text(ARENA)
    assert cli_main(["preview", str(path), "--frames", "2"]) == 0
    assert "preview closed after 1 loads" in capsys.readouterr().out


def test_an_error_is_marked_on_the_feature_its_key_names(tmp_path):
    from bottisota.view.preview import spot_of

    path = tmp_path / "sketch.yaml"
    path.write_text(ARENA)
    pygame.display.init()
    preview = preview_for(path)
    preview.step(0.0, [])
    touch_later(path, ARENA.replace("height: 4}", "height: 9}"))     # stairs no longer join
    preview.step(1.0, [])
    error = next(f for f in preview.state.findings if f.code == "E004")
    x, y = spot_of(error, preview.last_good)
    assert 22 <= x <= 30 and 15 <= y <= 25                           # on the stairs
