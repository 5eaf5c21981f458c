"""The box grid (issue 12): a short segment's questions (walls, doors, pits, floors and
cliff edges near it) look only at the grid cells it covers; the answers are those of
the plain array and tree tests (D4, D16, D29, R36, R37, R47)."""
from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bottisota.engine.movement import geometry as movement_geometry
from bottisota.engine.movement.geometry import parts_of
from bottisota.formats.loading import bundled_rules, load_arena
from bottisota.geometry.arena_index import FAST_PATHS, ArenaIndex
from bottisota.geometry.box_grid import BoxGrid
from bottisota.geometry.cliffs import cliff_lines
from bottisota.robot.simulate import arena_path

coord = st.floats(min_value=-5.0, max_value=105.0, allow_nan=False)
box = st.tuples(coord, coord, st.floats(0.0, 30.0), st.floats(0.0, 30.0)).map(
    lambda t: (t[0], t[1], t[0] + t[2], t[1] + t[3]))


@settings(max_examples=200, deadline=None)
@given(st.lists(box, min_size=1, max_size=60), box)
def test_candidates_hold_every_box_meeting_the_query(boxes, query):
    grid = BoxGrid(np.array(boxes))
    lo_x, lo_y, hi_x, hi_y = query
    found = grid.candidates(lo_x, lo_y, hi_x, hi_y)
    meeting = [k for k, (a, b, c, d) in enumerate(boxes)
               if a <= hi_x and c >= lo_x and b <= hi_y and d >= lo_y]
    if found is None:               # a query over many cells: the caller's array test
        return
    assert list(found) == sorted(set(found))
    assert set(meeting) <= set(found)


def test_a_box_touching_the_query_only_at_its_edge_is_a_candidate():
    grid = BoxGrid(np.array([(0.0, 0.0, 10.0, 10.0), (20.0, 0.0, 30.0, 10.0),
                             (40.0, 40.0, 50.0, 50.0)]))
    assert 1 in grid.candidates(30.0, 5.0, 31.0, 6.0)         # x == maxx exactly
    assert 0 in grid.candidates(-1.0, 10.0, 0.0, 11.0)        # a corner
    assert grid.candidates(32.0, 32.0, 33.0, 33.0) == ()      # in a cell no box touches
    assert grid.candidates(math.nan, 0.0, 1.0, 1.0) is None


def _warehouse() -> ArenaIndex:
    rules = bundled_rules()
    return ArenaIndex(load_arena(arena_path("warehouse"), rules), rules)


WAREHOUSE = _warehouse()
W, H = WAREHOUSE.size
point = st.tuples(st.floats(0.0, W), st.floats(0.0, H))
short = st.tuples(point, st.floats(0.0, 360.0), st.floats(0.0, 8.0)).map(
    lambda t: (t[0], (t[0][0] + math.sin(math.radians(t[1])) * t[2],
                      t[0][1] + math.cos(math.radians(t[1])) * t[2])))


def _both(fn):
    saved = FAST_PATHS.on
    try:
        FAST_PATHS.on = True
        fast = fn()
        FAST_PATHS.on = False
        plain = fn()
    finally:
        FAST_PATHS.on = saved
    return fast, plain


@settings(max_examples=300, deadline=None)
@given(short, st.floats(0.5, 3.0))
def test_segment_questions_answer_as_the_tree_does(seg, r):
    # R36 (pits entered), D16 (edges crossed), D4/D9 (walls touched), R37/D29 (cliff
    # edges near the base), R47 (doors reached): the grid's answers are the plain ones
    a, b = seg
    index = WAREHOUSE
    index.forget_answers()
    fast, plain = _both(lambda: (index._first_entry(a, b, ("pit", "teleporter")),
                                 index._edge_crossings(a, b),
                                 index._first_contact(a, b, r, doors=True),
                                 index._first_contact(a, b, r, doors=False)))
    assert fast == plain
    lines = cliff_lines(index, index.rules.step_height)
    fast_pieces, plain_pieces = _both(lambda: lines.near_segment(a, b, r).tolist())
    # the plain path's box pre-test is off with the fast paths: the tree alone answers
    assert fast_pieces == plain_pieces
    parts = parts_of(index)
    with_grid = [d.index for d in parts.doors_near(a, b, r)]
    every = [d.index for d in parts.doors if not (
        max(a[0], b[0]) < d.shape.bounds[0] - r or min(a[0], b[0]) > d.shape.bounds[2] + r
        or max(a[1], b[1]) < d.shape.bounds[1] - r or min(a[1], b[1]) > d.shape.bounds[3] + r)]
    assert with_grid == every


def test_many_doors_are_found_through_the_grid(monkeypatch):
    # R47: doors looked up through the grid (as in an arena of many doors) are the ones
    # the array test finds, in door order
    monkeypatch.setattr(movement_geometry, "MANY_DOORS", 0)
    rng = np.random.default_rng(5)
    index = WAREHOUSE
    parts = parts_of(index)
    assert len(parts.doors) >= 1
    for _ in range(300):
        ax, ay = rng.uniform(0, W), rng.uniform(0, H)
        bx, by = ax + rng.uniform(-6, 6), ay + rng.uniform(-6, 6)
        box = parts.door_boxes
        near = ~((max(ax, bx) < box[:, 0] - 1.0) | (min(ax, bx) > box[:, 2] + 1.0)
                 | (max(ay, by) < box[:, 1] - 1.0) | (min(ay, by) > box[:, 3] + 1.0))
        want = [parts.doors[k].index for k in np.flatnonzero(near).tolist()]
        got = [d.index for d in parts.doors_near((ax, ay), (bx, by), 1.0)]
        assert got == want
