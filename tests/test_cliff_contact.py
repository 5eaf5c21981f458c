"""The closed-form cliff contact along a line (`cliff_contact.LineUnder`) answers as the
full search it shortcuts: where a faller comes to rest (R39, D16), where a ground base
first meets a cliff's face (R37, D29) and the contact tolerance (D4). Where it is sure it
answers the same as `under_higher_floor`; exact positions of falls and faces on straight
and turned cliffs with the fast paths on and off."""
from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bottisota.core.actions import Forward, Move, Refusal
from bottisota.core.compass import vector
from bottisota.engine.movement.cliff_contact import BESIDE_RAY, BESIDE_REACH, LineUnder
from bottisota.engine.movement.geometry import point_at
from bottisota.engine.movement.moves import preview_move
from bottisota.engine.movement.physics import (
    UNDER_RAYS,
    _rays,
    higher_floor_reached,
    higher_floor_reached_reference,
    under_higher_floor,
)
from bottisota.geometry.arena_index import FAST_PATHS
from bottisota.geometry.cliffs import cliff_lines
from tests.builders import arena, bot, card, state
from tests.test_cliff_edges import levels, near_an_edge

WALKER = card(move=16)
HIGH = {"type": "platform", "id": "high", "rect": [20, 0, 20, 60], "height": 6}
LOW = {"type": "platform", "id": "low", "rect": [40, 0, 20, 60], "height": 2}


def _both_ways(fn):
    """fn() with the fast paths on and off: both answers (they must agree)."""
    on = fn()
    FAST_PATHS.on = False
    try:
        off = fn()
    finally:
        FAST_PATHS.on = True
    return on, off


def _fall(s, bot_id="a", cm=5.0):
    r = preview_move(s, Move(bot_id, (Forward(cm),)))
    assert not isinstance(r, Refusal), r
    falls = [e for e in r.events if e["type"] == "fall"]
    assert len(falls) == 1
    return r, falls[0]


def test_a_faller_rests_just_clear_of_the_cliff_on_the_lower_floor():  # R39 D16
    # from the high deck (6) east onto the low one (2): the centre crosses x = 40 and goes
    # on until the whole base (r = 1) is off the higher floor, x = 41; the drop is 4
    s = state(arena(HIGH, LOW), bot("a", "red", (38, 30), 90, WALKER))
    (r_on, fall_on), (r_off, fall_off) = _both_ways(lambda: _fall(s))
    for r, fall in ((r_on, fall_on), (r_off, fall_off)):
        assert r.x == pytest.approx(41.0, abs=1e-6) and r.y == pytest.approx(30.0, abs=1e-9)
        assert r.z == 2.0 and fall["at"] == [41.0, 30.0] and fall["drop"] == 4.0
    assert r_on.x == pytest.approx(r_off.x, abs=1e-9)


def test_a_faller_at_an_angle_rests_where_its_base_clears_the_edge():  # R39 D16
    # heading 45 degrees: the centre goes on along its line to x = 41, y rising as much
    s = state(arena(HIGH, LOW), bot("a", "red", (38, 30), 45, WALKER))
    (r_on, fall_on), (r_off, _) = _both_ways(lambda: _fall(s))
    assert r_on.x == pytest.approx(41.0, abs=1e-6)
    assert r_on.y == pytest.approx(33.0, abs=1e-6)
    assert fall_on["at"] == [41.0, 33.0] and fall_on["drop"] == 4.0
    assert (r_on.x, r_on.y) == pytest.approx((r_off.x, r_off.y), abs=1e-9)


def test_a_faller_off_a_turned_platform_rests_one_radius_from_its_side():  # R39 D16
    # a deck turned 30 degrees: the faller crosses its east side and rests straight on
    # along its heading where no ray of its base reaches back over the side: its centre
    # 1 cm x cos(3.75 degrees) from that side's line
    deck = {"type": "platform", "id": "deck", "rect": [20, 20, 20, 20], "height": 4,
            "rotate": 30}
    s = state(arena(deck), bot("a", "red", (30, 30), 120, WALKER))
    (r_on, fall_on), (r_off, _) = _both_ways(lambda: _fall(s, cm=12.0))
    face = deck_side(s, r_on.x, r_on.y)
    assert face == pytest.approx(ray_cos(30.0), abs=1e-6)
    assert face == pytest.approx(0.997859, abs=1e-6)
    assert (r_on.x, r_on.y) == pytest.approx((r_off.x, r_off.y), abs=1e-9)
    assert fall_on["drop"] == 4.0 and r_on.z == 0.0
    assert not under_higher_floor(s, r_on.x, r_on.y, 1.0, 0.0, strict=True)


def ray_cos(turn: float) -> float:
    """How far a face turned `turn` degrees is met, as a fraction of the base's reach:
    the base is searched along UNDER_RAYS (32) rays from its centre, so a face is met
    where the ray nearest its normal (delta degrees off it) reaches it (docs D29)."""
    spacing = 360.0 / 32
    delta = min(turn % spacing, spacing - turn % spacing)
    return math.cos(math.radians(delta))


def deck_side(s, x, y) -> float:
    """Distance from (x, y) to the nearest cliff piece of the arena."""
    lines = cliff_lines(s.index, s.rules.step_height)
    return lines.nearest(x, y, list(range(len(lines))))


def test_a_base_meets_a_cliff_face_within_the_contact_tolerance():  # R37 D4 D29
    # walking east on the table at a deck 4 high (x = 20): the step is refused where the
    # base would overlap the face by more than the 0.05 cm tolerance, centre at x = 19.05
    deck = {"type": "platform", "id": "deck", "rect": [20, 0, 20, 60], "height": 4}
    s = state(arena(deck), bot("a", "red", (10, 30), 90, WALKER))
    b = s.bots["a"]
    on, off = _both_ways(lambda: higher_floor_reached(s, b, (10.0, 30.0), (1.0, 0.0), 12.0, 0.0))
    assert on is not None and off is not None
    assert on[0] == pytest.approx(9.05, abs=1e-9) and on[1] == "platform 'deck'"
    assert on[0] == pytest.approx(off[0], abs=1e-11)
    r = preview_move(s, Move("a", (Forward(12),)))
    assert isinstance(r, Refusal) and r.rule == "R37"


@pytest.mark.parametrize("turn", [0.0, 15.0, 30.0, 45.0, 60.0])
def test_a_turned_cliff_face_is_met_at_the_tolerance(turn):  # R37 D4 D29
    deck = {"type": "platform", "id": "deck", "rect": [30, 10, 20, 40], "height": 3,
            "rotate": turn}
    s = state(arena(deck), bot("a", "red", (8, 30), 90, WALKER))
    b = s.bots["a"]
    on, off = _both_ways(lambda: higher_floor_reached(s, b, (8.0, 30.0), (1.0, 0.0), 30.0, 0.0))
    assert on is not None and off is not None
    assert on[0] == pytest.approx(off[0], abs=1e-11)
    x, y = point_at((8.0, 30.0), (1.0, 0.0), on[0])
    # the base reaches the face by exactly the tolerance: radius less 0.05 cm (along
    # the ray nearest the face's normal)
    assert deck_side(s, x, y) == pytest.approx((1.0 - 0.05) * ray_cos(turn), abs=1e-7)
    assert on == higher_floor_reached_reference(s, b, (8.0, 30.0), (1.0, 0.0), 30.0, 0.0) or \
        on[0] == pytest.approx(
            higher_floor_reached_reference(s, b, (8.0, 30.0), (1.0, 0.0), 30.0, 0.0)[0],
            abs=1e-9)


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(st.data())
def test_the_closed_form_answers_as_the_full_search_where_sure(data):  # R37 R39 D4 D16 D29
    s = data.draw(levels())
    r = s.bots["a"].radius
    step = s.rules.step_height
    lines = cliff_lines(s.index, step)
    for _ in range(3):
        a = near_an_edge(data.draw, s, 4.0)
        d = vector(data.draw(st.floats(0.0, 360.0)))
        length = data.draw(st.floats(0.5, 8.0))
        strict = data.draw(st.booleans())
        reach = r - (0.0 if strict else s.rules.contact_tolerance) - 1e-9
        fixed = data.draw(st.booleans())
        z0 = s.index.floor_z(*a)
        line = LineUnder(s.index, lines, _rays(), a, d, length, reach, step,
                         z0 if fixed else None)
        marks = [length * k / 24 for k in range(25)] + \
            [data.draw(st.floats(0.0, length)) for _ in range(4)]
        for t in marks:
            sure = line.decide(t)
            if sure is None:
                continue
            x, y = point_at(a, d, t)
            z = z0 if fixed else s.index.floor_z(x, y)
            assert sure == under_higher_floor(s, x, y, r, z, strict), (a, d, t, z, strict)


def test_the_ray_nearest_an_edges_normal_reaches_across_it():  # D29
    # a centre this near an edge's line is under the higher floor by the one ray of
    # UNDER_RAYS nearest the edge's normal (physics._beside_higher looks 1e-6 cm out)
    assert BESIDE_REACH < BESIDE_RAY * math.cos(math.radians(180.0 / UNDER_RAYS))


def test_the_closed_form_is_sure_almost_everywhere_along_a_fall():  # R39
    # along a faller's line past a clean straight edge only the spots right at the
    # edge's line are left to the full search
    s = state(arena(HIGH, LOW), bot("a", "red", (38, 30), 90, WALKER))
    lines = cliff_lines(s.index, s.rules.step_height)
    line = LineUnder(s.index, lines, _rays(), (40.0 + 1e-3, 30.0), (1.0, 0.0), 4.0,
                     1.0 - 1e-9, s.rules.step_height, 2.0)
    answers = [line.decide(k * 0.05) for k in range(1, 81)]
    assert answers[:19] == [True] * 19                  # centre within 1 cm of the edge
    assert answers[19:] == [False] * 61                 # whole base clear
