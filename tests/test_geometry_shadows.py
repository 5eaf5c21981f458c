"""Shadow proofs (geometry.shadows) are sound: a line they prove blocked is
blocked by the exact check, on random arenas, with the thresholds that keep
proofs for big batches switched off so that every batch uses them."""
from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from bottisota.formats.loading import bundled_rules
from bottisota.geometry import shadows
from bottisota.geometry.arena_index import ArenaIndex, Disc
from tests.test_geometry_properties import SETTINGS, an_arena, coord_x, coord_y


@SETTINGS
@given(an_arena(), st.lists(st.tuples(coord_x, coord_y), min_size=2, max_size=12),
       st.lists(st.sampled_from([0.5, 1.0, 2.0, 3.0, 8.0]), min_size=12, max_size=12),
       st.sampled_from([5.0, 20.0, 60.0]))
def test_shadow_proofs_only_for_blocked_lines(a, points, tall, radius):
    index = ArenaIndex(a, bundled_rules())
    discs = [Disc(f"b{k}", x, y, 1.0, index.floor_z(x, y), tall[k])
             for k, (x, y) in enumerate(points)]
    shadow = shadows.Shadows(index._sight_surfaces[0], radius)
    if not shadow.count:
        return
    m = len(discs)
    rows, cols = np.nonzero(~np.eye(m, dtype=bool))
    x = np.array([d.x for d in discs])
    y = np.array([d.y for d in discs])
    top = np.array([d.z + d.height for d in discs])
    mid = np.array([d.z + d.height / 2 for d in discs])
    saved = shadows.LINES_PER_POINT
    shadows.LINES_PER_POINT = 0
    try:
        proven = shadow.proven_blocked(x, y, rows, cols, top[rows], mid[cols])
    finally:
        shadows.LINES_PER_POINT = saved
    for k in np.flatnonzero(proven):
        i, j = rows[k], cols[k]
        assert not index.sight_plain((x[i], y[i]), top[i], (x[j], y[j]), mid[j]).clear


@SETTINGS
@given(an_arena(), st.lists(st.tuples(coord_x, coord_y), min_size=2, max_size=12),
       st.lists(st.sampled_from([1.0, 1.5, 3.0]), min_size=12, max_size=12))
def test_sight_all_with_proofs_agrees_with_sight(a, points, tall):
    index = ArenaIndex(a, bundled_rules())
    discs = [Disc(f"b{k}", x, y, 1.0, index.floor_z(x, y), tall[k])
             for k, (x, y) in enumerate(points)]
    saved = shadows.MIN_LINES, shadows.LINES_PER_POINT
    shadows.MIN_LINES, shadows.LINES_PER_POINT = 0, 0
    try:
        matrix = index.sight_all(discs)
    finally:
        shadows.MIN_LINES, shadows.LINES_PER_POINT = saved
    for i, d in enumerate(discs):
        for j, e in enumerate(discs):
            if i != j:
                s = index.sight_plain((d.x, d.y), d.z + d.height, (e.x, e.y), e.z + e.height / 2,
                                discs=discs)
                assert bool(matrix[i, j]) == s.clear
