"""The headless arena drawing: `bottisota render` and the cached arena layer."""
from __future__ import annotations

import pygame
import pytest
from shapely.geometry import LineString, Point, box

from bottisota.core.arena import Arena, Feature
from bottisota.view import style
from bottisota.view.arena_layer import ArenaLayer
from bottisota.view.camera import Camera
from bottisota.view.render import MARGIN, render_arena

SCALE = 10.0


def every_feature_arena() -> Arena:
    """One feature of every type, each with a known clear interior point."""
    feats = [
        dict(type="wall", shape=box(30, 0, 32, 40), height=10.0),
        dict(type="door", shape=box(30, 40, 32, 46)),
        dict(type="platform", shape=box(60, 50, 100, 70), height=4.0),
        dict(type="stairs", shape=box(100, 50, 108, 70), from_z=0.0, to_z=4.0, up=270.0),
        dict(type="ramp", shape=box(60, 42, 70, 50), from_z=0.0, to_z=4.0, up=0.0),
        dict(type="escalator", shape=box(86, 40, 90, 50), from_z=0.0, to_z=4.0, up=0.0, speed=2.0),
        dict(type="lift", shape=box(56, 60, 60, 64), top=4.0),
        dict(type="pit", shape=Point(20, 70).buffer(4)),
        dict(type="conveyor",
             shape=LineString([(0, 20), (25, 20), (25, 30)]).buffer(2, cap_style="flat"),
             path=((0.0, 20.0), (25.0, 20.0), (25.0, 30.0)), width=4.0, speed=2.0),
        dict(type="service", shape=Point(10, 10).buffer(3)),
        dict(type="teleporter", id="tp-east", shape=Point(100, 10).buffer(1.5)),
        dict(type="teleporter", id="tp-west", shape=Point(10, 80).buffer(1.5)),
        dict(type="goal", shape=Point(50, 45).buffer(2), points=2),
    ]
    return Arena(name="Every feature", size=(120.0, 90.0),
                 features=tuple(Feature(index=i, **f) for i, f in enumerate(feats)))


# a point inside each feature where only that feature's own fill shows
PROBES = {
    "wall": (31.0, 20.5),
    "door": (30.5, 44.5),
    "platform": (80.5, 55.5),
    "stairs": (101.5, 52.5),
    "ramp": (61.5, 43.5),
    "escalator": (87.5, 41.5),
    "lift": (57.5, 63.3),
    "pit": (18.5, 71.5),
    "conveyor": (12.5, 21.5),
    "service": (8.5, 11.5),
    "teleporter": (100.5, 11.2),
    "goal": (51.2, 44.3),
}


@pytest.fixture(scope="module")
def rendered():
    pygame.font.init()
    return render_arena(every_feature_arena(), SCALE)


def pixel(surface: pygame.Surface, cam: Camera, x: float, y: float) -> tuple[int, int, int]:
    return tuple(surface.get_at(cam.to_ipx(x, y)))[:3]


def test_camera_puts_the_table_origin_at_the_lower_left_margin(rendered):  # D1
    _surface, cam = rendered
    assert cam.to_px(0, 0) == (MARGIN, MARGIN + 900)
    assert cam.to_px(120, 90) == (MARGIN + 1200, MARGIN)
    assert cam.to_cm(MARGIN + 105, MARGIN + 900 - 37) == pytest.approx((10.5, 3.7))


def test_every_feature_type_has_its_own_colour(rendered):
    surface, cam = rendered
    seen = {kind: pixel(surface, cam, x, y) for kind, (x, y) in PROBES.items()}
    assert seen["wall"] == style.FEATURE_FILL["wall"]
    assert seen["door"] == style.FEATURE_FILL["door"]
    assert seen["pit"] == style.FEATURE_FILL["pit"]
    assert seen["lift"] == style.FEATURE_FILL["lift"]
    assert seen["conveyor"] == style.FEATURE_FILL["conveyor"]
    assert seen["service"] == style.FEATURE_FILL["service"]
    assert seen["teleporter"] == style.FEATURE_FILL["teleporter"]
    assert seen["goal"] == style.FEATURE_FILL["goal"]
    assert seen["platform"] == style.floor_shade(4.0)
    floor = pixel(surface, cam, 45.5, 15.5)
    assert floor == style.FLOOR
    colours = list(seen.values()) + [floor]
    assert len(set(colours)) == len(colours), seen


def test_a_slope_is_shaded_brighter_toward_its_top(
    rendered,
):  # R42 R43 stairs and ramps rise along `up`
    surface, cam = rendered
    low = pixel(surface, cam, 61.5, 42.3)      # ramp rises toward +y (up: 0)
    high = pixel(surface, cam, 61.5, 49.7)
    assert sum(high) > sum(low)
    low_st = pixel(surface, cam, 107.7, 52.5)  # stairs rise toward -x (up: 270)
    high_st = pixel(surface, cam, 100.3, 52.5)
    assert sum(high_st) > sum(low_st)


def test_platform_edges_are_drawn_as_cliffs_except_where_stairs_join(rendered):  # R37
    surface, cam = rendered
    assert pixel(surface, cam, 80.5, 70.0) == style.CLIFF_EDGE       # top edge: a cliff
    assert pixel(surface, cam, 100.0, 60.5) != style.CLIFF_EDGE      # joined by the stairs


def test_render_command_writes_a_png_at_the_asked_scale_with_its_dpi(tmp_path):
    from bottisota.cli import main

    out = tmp_path / "arena.png"
    assert main(["render", "duel", "-o", str(out), "--scale", "4"]) == 0
    img = pygame.image.load(str(out))
    assert img.get_size() == (318, 240)            # the 60 x 60 cm table and the key, 4 px/cm
    data = out.read_bytes()
    at = data.index(b"pHYs")
    ppm = int.from_bytes(data[at + 4:at + 8], "big")
    assert abs(ppm * 0.0254 - 4 * 2.54) < 0.05     # 10.16 dpi: 4 px/cm printed 1:1


def test_render_of_a_missing_arena_is_a_clear_error_with_exit_code_2(tmp_path, capsys):
    from bottisota.cli import main

    code = main(["render", str(tmp_path / "nope.yaml"), "-o", str(tmp_path / "a.png")])
    assert code == 2
    err = capsys.readouterr().err
    assert "nope.yaml" in err and "no such arena file" in err and "warehouse" in err
    assert "Traceback" not in err


def test_the_arena_layer_is_drawn_once_per_camera():
    pygame.font.init()
    layer = ArenaLayer(every_feature_arena())
    cam = Camera.fit((120.0, 90.0), (800, 600))
    a = layer.surface(cam, (800, 600))
    b = layer.surface(cam, (800, 600))
    assert a[0] is b[0] and layer.rebuilds == 1
    layer.surface(cam.zoomed(1.5, (400, 300)), (800, 600))
    assert layer.rebuilds == 2


def test_belt_chevrons_point_along_travel_and_move_with_the_phase():  # R44
    from bottisota.view.arena_layer import BELT_ARROW_SPACING, belt_marks

    belt = every_feature_arena().by_type("conveyor")[0]      # (0,20) -> (25,20) -> (25,30)
    still = belt_marks(belt, 0.0)
    moved = belt_marks(belt, 0.5)
    assert still[0][:2] == pytest.approx((BELT_ARROW_SPACING * 0.5, 20.0))
    assert still[0][2] == pytest.approx(90.0)                # east along the first leg
    assert moved[0][:2] == pytest.approx((BELT_ARROW_SPACING, 20.0))
    assert still[-1][2] == pytest.approx(0.0)                # north along the last leg
