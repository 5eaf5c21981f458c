"""The table draws the cliffs the rules have (issue 26 item 5): the bright cliff lines
are the compiled arena's own cliff pieces (a jump of more than a step, D16, R37), not
"every platform outline minus the slopes", and floors are filled where the rules
count them (later floors cut out)."""
from __future__ import annotations

import pygame
import pytest
import shapely
from shapely.geometry import LineString

from bottisota.engine.movement.physics import under_higher_floor
from bottisota.geometry.cliffs import cliff_lines, cliff_runs
from bottisota.view import arena_layer, style
from bottisota.view.camera import Camera
from tests.builders import arena, bot, card, state

SCALE = 20.0            # px per cm: a drawn end is within 1/20 cm of its cm point


def two_overlaps_and_a_small_step():
    """`a` and `b` overlap at one height (3 cm): their outlines inside each other are
    no cliff; `e` (2 cm) touches `f` (2.4 cm): their shared edge is a step (0.4 cm,
    the bundled step is 0.5), no cliff; `c` is turned 30 degrees."""
    return arena(
        {"type": "platform", "id": "a", "rect": [10, 10, 10, 10], "height": 3},
        {"type": "platform", "id": "b", "rect": [15, 12, 10, 6], "height": 3},
        {"type": "platform", "id": "c", "rect": [34, 8, 8, 8], "rotate": 30, "height": 3},
        {"type": "platform", "id": "e", "rect": [30, 25, 8, 8], "height": 2},
        {"type": "platform", "id": "f", "rect": [38, 25, 6, 8], "height": 2.4},
        size=(60, 40))


def drawn_cliffs(a, rules, monkeypatch) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """The cliff lines `draw_arena` draws, in cm (read off its pygame.draw.line calls)."""
    cam = Camera(table=a.size, scale=SCALE, origin=(0.0, a.size[1] * SCALE))
    surface = pygame.Surface((round(a.size[0] * SCALE), round(a.size[1] * SCALE)))
    seen: list = []
    real = pygame.draw.line

    def spy(surf, colour, p, q, width=1):
        if tuple(colour) == tuple(style.CLIFF_EDGE):
            seen.append((cam.to_cm(*p), cam.to_cm(*q)))
        return real(surf, colour, p, q, width)

    monkeypatch.setattr(pygame.draw, "line", spy)
    arena_layer.draw_arena(surface, cam, a, grid=False, rules=rules)
    return seen


def test_the_drawn_cliffs_are_the_rules_cliff_pieces(monkeypatch):
    # R37 D16: the table shows exactly the edges the movement rules treat as cliffs
    a = two_overlaps_and_a_small_step()
    s = state(a, bot("x", "red", (5, 5), 0, card()))
    rules_pieces = cliff_lines(s.index, s.rules.step_height)
    expected = list(zip(map(tuple, rules_pieces.p0.tolist()), map(tuple, rules_pieces.p1.tolist()),
                        strict=True))           # flat floors: every piece is a cliff all along
    assert arena_layer.cliff_segments(s.index) == expected
    drawn = drawn_cliffs(a, s.rules, monkeypatch)
    assert len(drawn) == len(expected) > 0
    for (p, q), (p2, q2) in zip(drawn, expected, strict=True):
        assert p == pytest.approx(p2, abs=1 / SCALE) and q == pytest.approx(q2, abs=1 / SCALE)


def test_an_edge_inside_a_floor_of_its_height_or_a_step_is_not_drawn(monkeypatch):
    a = two_overlaps_and_a_small_step()
    s = state(a, bot("x", "red", (5, 5), 0, card()))
    drawn = shapely.union_all([LineString(seg) for seg in drawn_cliffs(a, s.rules, monkeypatch)])
    inside = LineString([(20, 12.5), (20, 17.5)])      # a's right edge, under b (both 3 cm)
    step = LineString([(38, 25.5), (38, 32.5)])        # e | f: 0.4 cm, a step (D16)
    outer = LineString([(10, 11), (10, 19)])            # a's left edge: 3 cm over the table
    old = shapely.union_all([f.shape.boundary for f in a.by_type("platform")])
    for line in (inside, step):                         # the old drawing showed them
        assert old.buffer(1e-6).covers(line)
        assert not drawn.buffer(0.1).covers(line) and drawn.intersection(line).length < 0.2
    assert drawn.buffer(0.1).covers(outer)
    # and the rules agree: a base may sit across either line, not across a's outer edge
    assert not under_higher_floor(s, 20.0, 15.0, 1.5, 3.0)
    assert not under_higher_floor(s, 37.5, 29.0, 1.5, 2.0)
    assert under_higher_floor(s, 9.5, 15.0, 1.5, 0.0)


def test_a_floor_is_filled_only_where_the_rules_count_it():
    a = arena({"type": "platform", "id": "low", "rect": [10, 10, 10, 10], "height": 1},
              {"type": "platform", "id": "high", "rect": [12, 12, 4, 4], "height": 6},
              {"type": "platform", "id": "hidden", "rect": [13, 13, 2, 2], "height": 9},
              {"type": "platform", "id": "top", "rect": [12, 12, 4, 4], "height": 2},
              size=(40, 30))
    s = state(a, bot("x", "red", (5, 5), 0, card()))
    regions = arena_layer.floor_regions(s.index)
    by_id = {f.id: f.index for f in a.features}
    assert by_id["hidden"] not in regions and by_id["high"] not in regions   # later ones win
    assert regions[by_id["low"]].area == pytest.approx(100 - 16)
    assert s.index.floor_z(14, 14) == 2.0
    cam = Camera(table=a.size, scale=SCALE, origin=(0.0, a.size[1] * SCALE))
    surface = pygame.Surface((round(a.size[0] * SCALE), round(a.size[1] * SCALE)))
    arena_layer.draw_arena(surface, cam, a, grid=False, rules=s.rules)
    centre = tuple(round(v) for v in cam.to_px(14.0, 14.0))
    assert tuple(surface.get_at(centre))[:3] == style.floor_shade(2.0)[:3]


def test_a_stairs_side_is_drawn_a_cliff_only_where_it_stands_over_a_step(monkeypatch):
    # D16, R37: stairs rising 0 -> 4 cm over 10 cm (up = +y, to a 4 cm platform) stand
    # more than the 0.5 cm step above the floor beside them from 1.25 cm up their run on
    a = arena({"type": "stairs", "id": "s", "rect": [20, 10, 6, 10], "from": 0, "to": 4,
               "up": 0},
              {"type": "platform", "id": "top", "rect": [16, 20, 14, 6], "height": 4},
              size=(50, 30))
    s = state(a, bot("x", "red", (5, 5), 0, card()))
    pieces = cliff_lines(s.index, s.rules.step_height)
    left_piece = [(p, q) for p, q in zip(pieces.p0.tolist(), pieces.p1.tolist(), strict=True)
                  if p[0] == q[0] == 20.0]
    assert [sorted((p[1], q[1])) for p, q in left_piece] == [[10.0, 20.0]]   # whole, in the rules
    runs = cliff_runs(s.index, s.rules.step_height)
    left = [seg for seg in runs if seg[0][0] == seg[1][0] == 20.0]
    assert len(left) == 1
    (_, ya), (_, yb) = left[0]
    assert sorted((ya, yb)) == pytest.approx([11.25, 20.0])
    drawn = shapely.union_all([LineString(seg) for seg in drawn_cliffs(a, s.rules, monkeypatch)])
    assert drawn.intersection(LineString([(20, 10), (20, 11.2)])).length == 0.0
    assert drawn.buffer(0.1).covers(LineString([(20, 11.3), (20, 20)]))
    # the rules agree: a base reaching under the stair's low end is under no higher floor
    # (at most 0.44 cm there), one under its high end is (R37 D29)
    assert not under_higher_floor(s, 19.8, 10.6, 0.5, 0.0)
    assert under_higher_floor(s, 19.5, 18.0, 1.0, 0.0)
