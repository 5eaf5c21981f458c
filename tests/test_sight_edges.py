"""Property tests: one sight line's crossings worked out on the obstacles' edges
(`SightEdges`, the fire track's fast part) are Shapely's exact intersections'
(the same pieces over the same obstacles, the same heights) on random arenas,
for random lines and for lines made to be near-degenerate: ending on a corner
or an edge, through a corner, along an edge, a hair beside one. Where the
arithmetic cannot be trusted it says so (None) and Shapely cuts the line."""
from __future__ import annotations

import math

import numpy as np
import shapely
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_geometry_properties import an_arena, coord_x, coord_y

from bottisota.formats.loading import bundled_rules
from bottisota.geometry.arena_index import ArenaIndex, Disc
from bottisota.geometry.sight_edges import ring_edges
from bottisota.geometry.sightline import Line, surface_crossings

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
TOL = 1e-9


def shapely_crossings(index, line, closed):
    """The crossings as `sight_plain` worked them out before: Shapely's intersection
    with each sight obstacle the line meets, in arena order."""
    geom = line.geometry()
    shut = set(closed)
    met = [index._sight_surface(int(i), shut)
           for i in np.sort(index.tree.query(geom, predicate="intersects"))]
    return surface_crossings(line, geom, [s for s in met if s is not None])


def edge_crossings(index, line, closed):
    near = index.tree.query(line.geometry())
    near = np.sort(near[index._sight_mask(closed)[near]])
    return index._sight_edges.crossings(line, near.tolist())


def single(crossings):
    """A crossing of no length that lies inside another of the same feature (Shapely's
    intersection can give a circle's exit point twice) is no crossing of its own."""
    return [c for c in crossings
            if c.s1 - c.s0 > TOL or not any(
                d is not c and d.what == c.what and d.s0 - TOL <= c.s0 <= d.s1 + TOL
                and d.s1 - d.s0 > TOL for d in crossings)]


def single_track(track):
    """The same for a track: one feature met twice at one distance is met once."""
    out = []
    for t in track:
        if not any(u.what == t.what and math.isclose(u.distance, t.distance, abs_tol=TOL)
                   for u in out):
            out.append(t)
    return out


def same(found, expected):
    key = lambda c: (c.what, round(c.s0, 6))         # noqa: E731
    found, expected = single(found), single(expected)
    assert len(found) == len(expected), (found, expected)
    for c, d in zip(sorted(found, key=key), sorted(expected, key=key), strict=True):
        assert c.what == d.what
        for u, v in ((c.s0, d.s0), (c.s1, d.s1), (c.z0, d.z0), (c.z1, d.z1)):
            assert math.isclose(u, v, abs_tol=TOL), (found, expected)


def corners(index):
    """Every corner of every sight obstacle (doors closed)."""
    out = []
    for sf in index._sight_edges.surfaces:
        if sf is not None:
            rows = ring_edges(sf.region)
            if rows is not None:
                out += [(float(x), float(y)) for x, y in rows[:, :2]]
    return out


@st.composite
def a_line(draw, index):
    """A random line, or one made near-degenerate against some obstacle's edge."""
    p = (draw(coord_x), draw(coord_y))
    points = corners(index)
    kind = draw(st.sampled_from(["free", "to corner", "through corner", "along edge",
                                 "on edge", "beside edge", "beside corner"]))
    if kind == "free" or len(points) < 2:
        return p, (draw(coord_x), draw(coord_y))
    k = draw(st.integers(0, len(points) - 1))
    c = points[k]
    d = points[(k + 1) % len(points)]
    hair = draw(st.sampled_from([0.0, 1e-12, 1e-9, 1e-6, 1e-3]))
    if kind == "to corner":
        return p, c
    if kind == "through corner":
        return p, (c[0] + (c[0] - p[0]) * 0.5, c[1] + (c[1] - p[1]) * 0.5)
    if kind == "on edge":
        f = draw(st.floats(0.0, 1.0))
        return p, (c[0] + (d[0] - c[0]) * f, c[1] + (d[1] - c[1]) * f)
    length = math.dist(c, d)
    assume(length > 1e-6)
    nx, ny = (c[1] - d[1]) / length * hair, (d[0] - c[0]) / length * hair
    if kind == "beside corner":
        return (p[0] + nx, p[1] + ny), (c[0] + nx, c[1] + ny)
    f0, f1 = draw(st.floats(-1.0, 0.5)), draw(st.floats(0.5, 2.0))
    a = (c[0] + (d[0] - c[0]) * f0, c[1] + (d[1] - c[1]) * f0)
    b = (c[0] + (d[0] - c[0]) * f1, c[1] + (d[1] - c[1]) * f1)
    if kind == "beside edge":
        a, b = (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)
    return a, b


@SETTINGS
@given(st.data(), an_arena(), st.sets(st.integers(0, 9)),
       st.floats(0.0, 12.0), st.floats(0.0, 12.0))
def test_edge_crossings_are_shapelys(data, a, opened, az, bz):  # D15
    index = ArenaIndex(a, bundled_rules())
    closed = index._closed_doors([i for i in opened if i < len(a.features)
                                  and a.features[i].type == "door"])
    for _ in range(6):
        p, q = data.draw(a_line(index))
        line = Line(p[0], p[1], az, q[0], q[1], bz)
        assume(line.length > 1e-6)
        found = edge_crossings(index, line, closed)
        if found is not None:
            same(found, shapely_crossings(index, line, closed))


@SETTINGS
@given(st.data(), an_arena(), st.floats(0.0, 12.0), st.floats(0.0, 12.0))
def test_full_sight_over_near_degenerate_lines_is_shapelys(data, a, az, bz):  # D15 R22
    # the whole answer (clear, first blocker, where, every crossing) over lines
    # grazing corners, along edges and ending on them: the same as when every
    # crossing is Shapely's (the arithmetic off)
    index = ArenaIndex(a, bundled_rules())
    bot = Disc("b", data.draw(coord_x), data.draw(coord_y), 1.0, 0.0, 2.0)
    for _ in range(4):
        p, q = data.draw(a_line(index))
        assume(math.dist(p, q) > 1e-6)
        fast = index.sight_plain(p, az, q, bz, discs=[bot])
        index._sight_edges.exact = [False] * len(index._sight_edges.exact)
        try:
            slow = index.sight_plain(p, az, q, bz, discs=[bot])
        finally:
            del index.__dict__["_sight_edges"]
        assert fast.clear == slow.clear
        assert fast.blocker == slow.blocker
        if fast.point is not None:
            assert math.dist(fast.point, slow.point) <= TOL
        fast_track, slow_track = single_track(fast.track), single_track(slow.track)
        assert len(fast_track) == len(slow_track)
        same_track(fast_track, slow_track)


def same_track(fast, slow) -> None:
    """The same crossings in the same order, but for crossings at one distance (two
    features meeting where the line passes), which may come in either order."""
    left = list(slow)
    for u in fast:
        match = [v for v in left if v.what == u.what
                 and math.isclose(u.distance, v.distance, abs_tol=TOL)
                 and math.isclose(u.obstacle_z, v.obstacle_z, abs_tol=TOL)]
        assert match, (u, left)
        assert all(v.distance > u.distance - TOL for v in left), (u, left)  # none skipped
        left.remove(match[0])


def test_generic_lines_need_no_shapely_cut():
    # a line crossing a square wall and starting inside a platform: pieces from the
    # edges alone (no fallback), the same as Shapely's
    from bottisota.core import shapes
    from bottisota.core.arena import Arena, Feature
    feats = (Feature(0, "wall", shapes.rect(40, 30, 10, 10), height=5.0),
             Feature(1, "platform", shapes.rect(0, 0, 20, 80), height=2.0),
             Feature(2, "wall", shapely.Polygon([(60, 10), (80, 10), (70, 25)]), height=1.0))
    index = ArenaIndex(Arena("t", (100.0, 80.0), feats), bundled_rules())
    line = Line(10.0, 31.0, 3.0, 95.0, 36.0, 1.0)
    found = edge_crossings(index, line, ())
    assert found is not None and len(found) == 2
    same(found, shapely_crossings(index, line, ()))
    assert {c.what for c in found} == {feats[0].label, feats[1].label}
    # along the wall's bottom edge: too near to tell, Shapely cuts it
    assert edge_crossings(index, Line(30.0, 30.0, 3.0, 60.0, 30.0, 1.0), ()) is None
