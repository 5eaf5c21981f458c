"""D35: a quantity equal to a rule's limit within 1e-6 (cm or degrees) meets it.

Positions are written in decimal centimetres (0.1 steps) as a person measures
them on the table; the sums the rules make of them (3 + 1 + 0.05 for a blast's
reach, 2.2 - 1.2 for a level difference) come out of float arithmetic a hair
off. Every check below puts a quantity exactly at a limit, and 1e-7 either
side of it: all of them meet the limit; 1e-4 past it does not.
"""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_shooting_world import bot, card, weapon, world

from bottisota.core.limits import LIMIT_TOLERANCE, beyond, reaches, short_of, within
from bottisota.engine import mines, turns
from bottisota.engine.goals import on_goal
from bottisota.engine.shooting import targeting
from bottisota.engine.shooting.blast import blast_area
from bottisota.engine.shooting.spray import spray_members
from bottisota.engine.shooting.targeting import Pose
from bottisota.engine.state import Goal, Mine

TENTHS = st.integers(min_value=50, max_value=400).map(lambda k: k / 10)   # 5.0 .. 40.0
NUDGE = st.sampled_from([0.0, 1e-7, -1e-7])     # at the limit, and either side of it
PAST = 1e-4                                     # clearly beyond it


@given(st.integers(0, 500), st.integers(0, 500), st.sampled_from([1, -1]))
def test_the_words_meet_a_limit_within_the_tolerance(a, b, sign):  # D35
    limit = a / 10 + b / 100            # a decimal such as 4.05, 30.0, 1.1
    made = sum([a / 10, b / 100 / 2, b / 100 / 2])     # the same, summed another way
    for q in (limit, made, limit + sign * 1e-7):
        assert within(q, limit) and reaches(q, limit)
        assert not beyond(q, limit) and not short_of(q, limit)
    assert beyond(limit + 2 * LIMIT_TOLERANCE, limit)
    assert short_of(limit - 2 * LIMIT_TOLERANCE, limit)


@settings(max_examples=60)
@given(TENTHS, TENTHS, NUDGE)
def test_a_bot_4_05_cm_from_a_blast_centre_is_in_it(cx, cy, nudge):  # D35 R34 D12 D4
    # marker radius 3 + base radius 1 + contact tolerance 0.05 = 4.05
    state = world([bot("in", cx + 4.05 + nudge, cy), bot("up", cx, cy + 4.05 + nudge),
                   bot("out", cx - 4.05 - PAST, cy)])
    members, _ = blast_area(state, (cx, cy), 0.0)
    assert sorted(m.bot for m in members) == ["in", "up"]


@settings(max_examples=60)
@given(st.integers(0, 60).map(lambda k: k / 10), NUDGE)
def test_floors_exactly_1_cm_apart_are_one_level_for_a_blast(low, nudge):  # D35 R35 D13
    # floors 2.2 and 1.2 differ by exactly 1 cm: not "more than 1 cm" (D13)
    high = low + 1.0 + nudge
    for z_bot, z_centre in ((high, low), (low, high), (2.2, 1.2), (1.2, 2.2)):
        state = world([bot("b", 34.0, 30.0, z=z_bot)])
        members, safe = blast_area(state, (30.0, 30.0), z_centre)
        assert [m.bot for m in members] == ["b"] and not safe
    state = world([bot("b", 34.0, 30.0, z=low + 1.0 + PAST)])
    assert [s.bot for s in blast_area(state, (30.0, 30.0), low)[1]] == ["b"]


@settings(max_examples=60)
@given(TENTHS, TENTHS, NUDGE)
def test_a_bot_4_05_cm_from_a_magnetic_mine_is_caught(mx, my, nudge):  # D35 R32 D33 D4
    # blast-sized marker radius 3 + base radius 1 + tolerance 0.05 = 4.05
    state = world([bot("b", mx + 4.05 + nudge, my), bot("far", mx, my - 4.05 - PAST)])
    mine = Mine("m1", "x", "x", "Magnet", mx, my, 0.0, 3.0, magnetic=True, active=True)
    assert mines.touches(state, mine, state.bots["b"])
    assert not mines.touches(state, mine, state.bots["far"])
    # and one level: floors 2.2 and 1.2 (D13)
    state.bots["b"].z, mine.z = 2.2, 1.2
    assert mines.touches(state, mine, state.bots["b"])


@settings(max_examples=60)
@given(TENTHS, TENTHS, NUDGE, st.sampled_from([30.0, 12.5, 8.1]))
def test_a_target_exactly_at_range_is_in_range(sx, sy, nudge, rng):  # D35 R18 D14
    gun = weapon("Gun", range=rng)
    at = Pose(sx, sy, 0.0, 90.0)
    state = world([bot("s", sx, sy, 90.0, gun)])
    assert targeting.range_refusal(state, gun, at, Pose(sx + rng + nudge, sy, 0.0, 0.0),
                                   False) is None
    assert targeting.range_refusal(state, gun, at, Pose(sx, sy + rng + nudge, 0.0, 0.0),
                                   False) is None
    assert targeting.range_refusal(state, gun, at, Pose(sx + rng + PAST, sy, 0.0, 0.0),
                                   False) is not None


@settings(max_examples=60)
@given(TENTHS, TENTHS, st.sampled_from([1, 3, 5, 7]), st.sampled_from([0.0, 1e-7, -1e-7]))
def test_a_target_on_the_edge_of_the_nose_arc_is_in_it(sx, sy, octant, nudge):  # D35 R19 D44
    gun = weapon("Gun", mount="nose", range=60)
    d = octant * 1.1
    target = Pose(sx + d, sy + d, 0.0, 0.0)     # bearing 45 (as atan2 computes it)
    state = world([bot("s", sx, sy, 0.0, gun)])
    for f in (0.0 + nudge, 90.0 + nudge):       # the target lies exactly 45° off the facing
        assert targeting.arc_refusal(state, gun, Pose(sx, sy, 0.0, f), target) is None
    assert targeting.arc_refusal(state, gun, Pose(sx, sy, 0.0, 90.0 + PAST), target) is not None


@settings(max_examples=60)
@given(TENTHS, TENTHS, NUDGE)
def test_melee_contact_and_level_at_their_limits(sx, sy, nudge):  # D35 R25 D4 D13
    claws = weapon("Claws", kind="melee", range=1)
    a = bot("a", sx, sy, 90.0, claws, z=2.2)
    b = bot("b", sx + 2.05 + nudge, sy, 270.0, z=1.2)
    state = world([a, b])
    assert targeting.melee_refusal(state, a, b, targeting.pose_of(a), targeting.pose_of(b)) is None
    b.x = sx + 2.05 + PAST
    assert targeting.melee_refusal(state, a, b, targeting.pose_of(a),
                                   targeting.pose_of(b)) is not None


@settings(max_examples=40)
@given(st.sampled_from([8, 9, 11, 7]))
def test_overwatch_after_exactly_half_the_movement(move):  # D35 R23
    walker = card(move=move)
    moved = sum([0.1] * (move * 5))            # half the movement in 0.1 cm steps
    state = world([bot("a", 30, 30, bot_card=walker, moved=moved)])
    assert turns.can_set_overwatch_after(state, state.bots["a"])
    state.bots["a"].moved = move / 2 + PAST
    assert not turns.can_set_overwatch_after(state, state.bots["a"])


@settings(max_examples=40)
@given(TENTHS, TENTHS, NUDGE)
def test_a_centre_exactly_on_a_goal_markers_edge_is_on_it(gx, gy, nudge):  # D35 D17 D23
    goal = Goal(0, gx, gy, 1.1, 1)
    assert on_goal(goal, bot("a", gx + 1.1 + nudge, gy))
    assert not on_goal(goal, bot("a", gx + 1.1 + PAST, gy))


@settings(max_examples=40)
@given(TENTHS, NUDGE)
def test_a_spray_line_touching_a_base_at_the_limit_takes_it_in(y, nudge):  # D35 R28 D4
    state = world([bot("s", 5.0, y, 90.0), bot("t", 40.0, y, 0.0),
                   bot("side", 20.0, y + 1.05 + nudge), bot("off", 25.0, y - 1.05 - PAST)])
    got = [m.bot for m in spray_members(state, state.bots["s"], (40.0, y))]
    assert "side" in got and "off" not in got
