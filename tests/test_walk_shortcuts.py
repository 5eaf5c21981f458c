"""The walk's shortcuts give the plain answers (issue 12): the doors a base
already touches when its move starts (D4), remembered by spot, are the doors
worked out afresh, and a remembered answer is never changed by the walk that
gets it; the box tests before the tree queries for floor edges (D16) and cliff
pieces (R37) leave nothing out."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from bottisota.engine.movement.geometry import doors_touching, doors_touching_plain, parts_of
from bottisota.formats.loading import bundled_rules, load_arena
from bottisota.geometry.arena_index import FAST_PATHS
from bottisota.geometry.cliffs import cliff_lines
from bottisota.geometry.compiled import compile_arena
from bottisota.robot.simulate import arena_path
from tests.builders import arena

DOORS = arena({"type": "door", "id": "gate", "rect": [20, 20, 2, 20]},
              {"type": "door", "id": "hatch", "rect": [40, 10, 8, 2]},
              {"type": "wall", "rect": [60, 30, 2, 20], "height": 3}, size=(100, 60))


@settings(max_examples=150, deadline=None)
@given(st.floats(0, 100), st.floats(0, 60), st.sampled_from([2.0, 3.5, 5.0]),
       st.sampled_from([0.0, 0.1, 0.5]))
def test_doors_touching_remembered_is_the_plain_answer(x, y, r, tol):
    # D4: touching within the contact tolerance, asked twice from the same spot
    parts = parts_of(compile_arena(DOORS, bundled_rules()))
    plain = doors_touching_plain(parts, x, y, r, tol)
    first = doors_touching(parts, x, y, r, tol)
    assert first == plain
    first.add(999)                       # the walk adds the doors it opens
    assert doors_touching(parts, x, y, r, tol) == plain


def test_doors_touching_exact_positions():
    # D4: a 3 cm base centred 4 cm left of the gate's face touches it with 1 cm
    # tolerance, not with 0.5 cm
    parts = parts_of(compile_arena(DOORS, bundled_rules()))
    gate = next(d.index for d in parts.doors if d.id == "gate")
    assert doors_touching(parts, 16.0, 30.0, 3.0, 1.0) == {gate}
    assert doors_touching(parts, 16.0, 30.0, 3.0, 0.5) == set()
    assert doors_touching(parts, 16.0, 30.0, 3.0, 1.0) == {gate}


WAREHOUSE = compile_arena(load_arena(arena_path("warehouse"), bundled_rules()), bundled_rules())
LEDGES = compile_arena(arena({"type": "platform", "rect": [20, 20, 30, 20], "height": 4},
                             {"type": "platform", "rect": [70, 5, 10, 40], "height": 8},
                             {"type": "ramp", "rect": [50, 25, 10, 10], "from": 0, "to": 4,
                              "up": 270},
                             size=(100, 60)), bundled_rules())
point = st.tuples(st.floats(-5, 105), st.floats(-5, 65))


def _both_ways(ask):
    saved = FAST_PATHS.on
    try:
        FAST_PATHS.on = True
        fast = ask()
        FAST_PATHS.on = False
        plain = ask()
    finally:
        FAST_PATHS.on = saved
    return fast, plain


@settings(max_examples=200, deadline=None)
@given(point, point, st.sampled_from([0.0, 2.0, 4.5]), st.booleans())
def test_floor_box_test_finds_every_edge_crossing(a, b, reach, big):
    # D16, R37: the box test before the tree leaves out no floor edge and no cliff piece
    index = WAREHOUSE if big else LEDGES
    scale = 4.0 if big else 1.0
    a, b = (a[0] * scale, a[1] * scale), (b[0] * scale, b[1] * scale)
    fast, plain = _both_ways(lambda: index._edge_crossings(a, b, 1.0))
    assert fast == plain
    lines = cliff_lines(index, 1.0)
    fast_near, plain_near = _both_ways(lambda: lines.near_segment(a, b, reach).tolist())
    assert fast_near == plain_near
    fast_pt, plain_pt = _both_ways(lambda: lines.near_segment(a, a, reach).tolist())
    assert fast_pt == plain_pt


def test_floor_box_test_exact_positions():
    # D16: a run onto the 4 cm platform crosses its edge at x = 20; a run beside it
    # (its box missed by 0.5 cm) crosses nothing, and no cliff piece is within 0.4 cm
    crossing = LEDGES._edge_crossings((10.0, 30.0), (30.0, 30.0), 1.0)
    assert [(round(c.distance, 6), c.z_before, c.z_after) for c in crossing] == [(10.0, 0.0, 4.0)]
    assert LEDGES._edge_crossings((10.0, 40.5), (45.0, 40.5), 1.0) == []
    lines = cliff_lines(LEDGES, 1.0)
    assert lines.near_segment((10.0, 40.5), (45.0, 40.5), 0.4).tolist() == []
    assert len(lines.near_segment((10.0, 40.5), (45.0, 40.5), 0.6)) > 0
