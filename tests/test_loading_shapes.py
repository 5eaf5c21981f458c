"""Shapes of formats.md as shapely polygons: exact areas, bounds and corners (D1, D2)."""
import math

import pytest

from bottisota.core.shapes import (
    CIRCLE_TOLERANCE,
    circle,
    rect,
    rotated,
    shape_from_dict,
    strip,
)


def corners(shape):
    return sorted((round(x, 2), round(y, 2)) for x, y in list(shape.exterior.coords)[:-1])


def test_rect_is_lower_left_corner_width_and_height():  # D1 y grows upward
    shape = rect(30, 0, 2, 40)
    assert shape.area == 80.0
    assert shape.bounds == (30.0, 0.0, 32.0, 40.0)


def test_rect_rotated_90_clockwise_about_its_centroid():  # D2 clockwise
    shape = shape_from_dict({"rect": [0, 0, 4, 2], "rotate": 90})
    assert corners(shape) == [(1.0, -1.0), (1.0, 3.0), (3.0, -1.0), (3.0, 3.0)]


def test_polygon_rotation_is_clockwise_not_counter_clockwise():  # D2
    shape = shape_from_dict({"polygon": [[0, 0], [4, 0], [0, 4]], "rotate": 90})
    # (0, 4) lies 4/3 left and 8/3 above the centroid (4/3, 4/3); a clockwise
    # quarter turn puts it 8/3 right and 4/3 above: (4, 2.67)
    assert (4.0, 2.67) in corners(shape)
    assert shape.area == pytest.approx(8.0, abs=1e-9)


@pytest.mark.parametrize("r", [0.5, 1.5, 3.0, 20.0, 60.0])
def test_circle_lies_within_the_tolerance_of_the_true_circle(r):
    shape = circle(10, 20, r)
    coords = list(shape.exterior.coords)
    for (x0, y0), (x1, y1) in zip(coords, coords[1:], strict=False):
        assert math.hypot(x0 - 10, y0 - 20) == pytest.approx(r, abs=1e-9)
        mid = math.hypot((x0 + x1) / 2 - 10, (y0 + y1) / 2 - 20)
        assert r - CIRCLE_TOLERANCE <= mid <= r
    assert shape.bounds == pytest.approx((10 - r, 20 - r, 10 + r, 20 + r), abs=1e-9)


def test_path_strip_has_flat_ends_and_mitred_corner():
    shape = strip([[0, 20], [25, 20], [25, 30]], 4)
    # [0, 27] x [18, 22] plus [23, 27] x [22, 30]
    assert shape.area == pytest.approx(140.0, abs=1e-9)
    assert shape.bounds == pytest.approx((0.0, 18.0, 27.0, 30.0), abs=1e-9)


def test_unrotatable_rotation_of_zero_keeps_the_shape():
    shape = rect(1, 2, 3, 4)
    assert rotated(shape, 0) is shape
