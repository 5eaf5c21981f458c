"""One compass (D2: 0 = +y, clockwise): facing <-> vector and bearings are written once,
in core/compass.py, and every layer uses it (issue 26 item 5)."""
from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from bottisota.core.compass import bearing, heading, headings, vector

PACKAGE = Path(__file__).resolve().parents[1] / "bottisota"


@pytest.mark.parametrize("facing, expected", [
    (0.0, (0.0, 1.0)), (90.0, (1.0, 0.0)), (180.0, (0.0, -1.0)), (270.0, (-1.0, 0.0)),
])
def test_a_facing_points_the_way_d2_says(facing, expected):
    # D2: 0 = +y (up the table), 90 = +x, clockwise
    assert vector(facing) == pytest.approx(expected, abs=1e-15)
    assert heading(*vector(facing)) == pytest.approx(facing % 360.0)


def test_the_vector_is_the_arithmetic_the_journals_were_written_with():
    # bit for bit what every copy computed before (seeded games replay unchanged)
    for facing in (0.0, 12.5, 33.333, 90.0, 187.25, 359.99, -45.0, 721.0):
        rad = math.radians(facing)
        assert vector(facing) == (math.sin(rad), math.cos(rad))


def test_bearings_one_by_one_and_as_arrays():
    assert bearing((10.0, 10.0), (10.0, 20.0)) == 0.0
    assert bearing((10.0, 10.0), (0.0, 10.0)) == 270.0
    dx = np.array([0.0, 3.0, -1.0, -2.0])
    dy = np.array([1.0, 0.0, -1.0, 5.0])
    assert headings(dx, dy).tolist() == pytest.approx(
        [heading(a, b) for a, b in zip(dx.tolist(), dy.tolist(), strict=True)], abs=1e-12)


def test_no_module_writes_the_facing_to_vector_conversion_again():
    copy = re.compile(r"(sin|cos)\((math\.)?radians\(|degrees\((math\.|np\.)?(atan2|arctan2)\(")
    found = [f"{p.relative_to(PACKAGE)}:{n}" for p in sorted(PACKAGE.rglob("*.py"))
             if p.name != "compass.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if copy.search(line)]
    # flight.py measures an absolute angle off a heading in one numpy expression
    assert [f.split(":")[0] for f in found] == ["engine/shooting/flight.py"]
