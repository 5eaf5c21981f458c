"""Property tests (issue 12): the fast point and segment questions of the compiled
arena (the point grid, floors of many points at once, the one-query filter of
segments meeting floors, the array filter under a base) answer exactly as the
plain ones they replace, on random arenas with heights, slopes and doors."""
from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import given
from hypothesis import strategies as st
from shapely.geometry import Point
from test_geometry_properties import SETTINGS, an_arena, coord_x, coord_y

from bottisota.core.compass import vector
from bottisota.engine.movement.geometry import may_meet
from bottisota.engine.movement.physics import UNDER_RAYS, under_higher_floor
from bottisota.engine.setup import new_state
from bottisota.formats.loading import bundled_rules
from bottisota.geometry.arena_index import FAST_PATHS, ArenaIndex

# points anywhere, off the table too, and exactly on feature corners and edges
anywhere = st.floats(-20.0, 130.0, allow_nan=False)


def _tree_at(index: ArenaIndex, x: float, y: float) -> tuple[int, ...]:
    return tuple(sorted(int(i) for i in index.tree.query(Point(x, y), predicate="intersects")))


def _corners(index: ArenaIndex) -> list[tuple[float, float]]:
    return [tuple(p) for s in index.shapes for p in shapely.get_coordinates(s).tolist()]


@SETTINGS
@given(an_arena(), st.lists(st.tuples(anywhere, anywhere), min_size=1, max_size=12))
def test_the_point_grid_finds_what_the_tree_finds(a, points):  # D17
    index = ArenaIndex(a, bundled_rules())
    for x, y in points + _corners(index):
        assert index._grid.at(x, y) == _tree_at(index, x, y)
        assert index.features_at(x, y) == [index.features[i] for i in _tree_at(index, x, y)]


@SETTINGS
@given(an_arena(), st.lists(st.tuples(coord_x, coord_y), min_size=1, max_size=12),
       st.floats(0.0, 3.0))
def test_floors_of_many_points_are_the_floors_of_each(a, points, spread):  # D16, D17
    index = ArenaIndex(a, bundled_rules())
    xs = [x for x, _ in points] + [points[0][0] + spread * math.sin(k) for k in range(16)]
    ys = [y for _, y in points] + [points[0][1] + spread * math.cos(k) for k in range(16)]
    xs += [x for x, _ in _corners(index)]
    ys += [y for _, y in _corners(index)]
    assert index.floor_z_many(xs, ys) == [index.floor_z(x, y)
                                          for x, y in zip(xs, ys, strict=True)]


@SETTINGS
@given(an_arena(), coord_x, coord_y, st.floats(0.1, 12.0))
def test_segments_meeting_floors_are_those_with_a_floor_on_them(a, x, y, reach):  # D16
    index = ArenaIndex(a, bundled_rules())
    ends = [(x + dx * reach, y + dy * reach)
            for dx, dy in (vector(k * 360.0 / 24) for k in range(24))]
    found = index.segments_meeting_floors((x, y), ends)
    for k, end in enumerate(ends):
        seg = shapely.linestrings([(x, y), end])
        meets = any(int(i) in index._floor_region
                    for i in index.tree.query(seg, predicate="intersects"))
        assert (k in found) == meets
        if k not in found:
            assert index.edge_crossings((x, y), end) == []


def _plain_under_higher_floor(state, x, y, r, z, strict=False) -> bool:
    """The check as it was written before the array filters (every floor tested,
    every ray walked one at a time, each point a tree query)."""
    rules = state.rules
    reach = r - (0.0 if strict else rules.contact_tolerance) - 1e-9
    if reach <= 0.0:
        return False
    index = state.index
    point = Point(x, y)
    if not any(surface.top > z + rules.step_height + 1e-9
               and may_meet(surface.region, (x, y), (x, y), reach)
               and surface.region.distance(point) < reach
               for surface in index.floors):
        return False
    for k in range(UNDER_RAYS):
        dx, dy = vector(k * 360.0 / UNDER_RAYS)
        if index.floor_z(x + dx * 1e-6, y + dy * 1e-6) > z + rules.step_height + 1e-9:
            return True
        rim = (x + dx * reach, y + dy * reach)
        if any(c.z_after > c.z_before
               for c in index._edge_crossings((x, y), rim, rules.step_height)):
            return True
    return False


@SETTINGS
@given(an_arena(), st.lists(st.tuples(coord_x, coord_y), min_size=1, max_size=6),
       st.sampled_from([0.5, 1.0, 2.5]), st.booleans())
def test_under_a_higher_floor_as_the_plain_check_says(a, points, r, strict):  # D16, R39
    rules = bundled_rules()
    state = new_state(a, rules, [], dice=1)
    saved = FAST_PATHS.on
    for x, y in points:
        for z in {0.0, state.index.floor_z(x, y)}:
            FAST_PATHS.on = False
            try:
                plain = _plain_under_higher_floor(state, x, y, r, z, strict)
            finally:
                FAST_PATHS.on = saved
            assert under_higher_floor(state, x, y, r, z, strict) == plain


def test_the_grid_places_points_on_cell_borders_and_off_the_table():  # D17
    # a 4 x 4 grid of unit squares: points on every shared edge and corner, and
    # points beyond the table's edge, find every square they touch
    from bottisota.core import shapes
    from bottisota.core.arena import Arena, Feature
    feats = tuple(Feature(k, "platform", shapes.rect(10.0 * (k % 4), 10.0 * (k // 4), 10, 10),
                          height=1.0 + k) for k in range(16))
    index = ArenaIndex(Arena("grid", (40.0, 40.0), feats), bundled_rules())
    for x in np.arange(-5.0, 46.0, 2.5).tolist():
        for y in np.arange(-5.0, 46.0, 2.5).tolist():
            assert index._grid.at(x, y) == _tree_at(index, x, y)
    assert index._grid.at(10.0, 10.0) == (0, 1, 4, 5)
    assert index.floor_z(10.0, 10.0) == 6.0          # the last listed of the four wins
    assert index._grid.at(math.nan, 3.0) is None


def test_floors_of_far_points_are_found_as_one_by_one():  # D16
    # points far off the table (huge but finite) land in the edge cells, as `floor_z`
    # places them one at a time
    from bottisota.core import shapes
    from bottisota.core.arena import Arena, Feature
    feats = (Feature(0, "platform", shapes.rect(0, 0, 40, 40), height=2.0),)
    index = ArenaIndex(Arena("far", (40.0, 40.0), feats), bundled_rules())
    xs = [1e300, -1e300, 20.0, 40.0, 1e18]
    ys = [20.0, 20.0, 1e300, 40.0, -1e18]
    assert index.floor_z_many(xs, ys) == [index.floor_z(x, y)
                                          for x, y in zip(xs, ys, strict=True)]
