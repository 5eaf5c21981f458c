"""Rockets and missiles that miss fly on (R26, R27, D31)."""
from __future__ import annotations

import pytest
from test_shooting_world import bot, events_of, house_rules, wall, weapon, world

from bottisota.engine.shooting.flight import missile_turn_options
from bottisota.engine.shooting.shots import fire_one

ROCKET = weapon("Rocket", kind="rocket", mount="nose", range=40, to_hit=4)
MISSILE = weapon("Missile", kind="missile", mount="nose", range=40, to_hit=4)


def shoot(state, gun=None):
    s = state.bots["s"]
    return fire_one(state, s, gun or s.card.weapons[0], state.bots["t"])


def rolls(events):
    return [(e["target"], e["roll"], e["hit"]) for e in events_of(events, "to_hit")]


def test_a_rocket_that_misses_rolls_against_the_next_bot_on_its_line():  # R26 D31
    state = world([bot("s", 10, 30, 90, ROCKET), bot("t", 20, 30), bot("c", 30, 30.9),
                   bot("d", 35, 30)], dice=[2, 5, 3])
    events = shoot(state)
    assert rolls(events) == [("t", 2, False), ("c", 5, True)]
    assert state.bots["c"].damage == 1 and state.bots["d"].damage == 0
    assert events_of(events, "flight")[0]["from"] == [20.0, 30.0]
    assert events_of(events, "flight")[0]["to"] == [30.0, 30.0]
    assert state.dice.used == 3


def test_a_rocket_that_hits_nothing_is_removed_at_the_end_of_its_range():  # R26 D31
    # range 25 from the shooter at x=10 ends at x=35; e's base is 1.06 beyond it
    rocket = weapon("Rocket", kind="rocket", mount="nose", range=25, to_hit=4)
    state = world([bot("s", 10, 30, 90, rocket), bot("t", 20, 30), bot("c", 30, 30),
                   bot("e", 36.06, 30)], dice=[2, 3])
    events = shoot(state)
    assert rolls(events) == [("t", 2, False), ("c", 3, False)]
    end = events_of(events, "flight_end")[0]
    assert (end["x"], end["y"]) == (35.0, 30.0)
    assert end["how"] == "removed at the end of its range"


def test_a_rocket_touches_bases_within_the_contact_tolerance():  # R26 D4
    state = world([bot("s", 10, 30, 90, ROCKET), bot("t", 20, 30), bot("in", 30, 31.05),
                   bot("out", 40, 28.94)], dice=[2, 3])
    events = shoot(state)
    assert rolls(events) == [("t", 2, False), ("in", 3, False)]


def test_a_wall_stops_a_rocket():  # R26 D31
    state = world([bot("s", 10, 30, 90, ROCKET), bot("t", 20, 30), bot("c", 32, 30)],
                  features=[wall(0, 28, 25, 1, 10, fid="crate")], dice=[2])
    events = shoot(state)
    end = events_of(events, "flight_end")[0]
    assert (end["x"], end["y"], end["how"]) == (28.0, 30.0, "stopped by wall 'crate'")
    assert state.dice.used == 1


def test_a_rocket_that_hits_its_target_does_not_fly_on():  # R26
    state = world([bot("s", 10, 30, 90, ROCKET), bot("t", 20, 30), bot("c", 30, 30)],
                  dice=[4, 6])
    events = shoot(state)
    assert rolls(events) == [("t", 4, True)]
    assert not events_of(events, "flight")


def test_a_missile_turns_toward_the_nearest_bot_in_its_front_arc():  # R27 D31
    # after missing t at (20, 30) heading 90: m1 is 7.21 cm away 33.69° to the left,
    # m2 10 cm straight ahead
    state = world([bot("s", 10, 30, 90, MISSILE), bot("t", 20, 30), bot("m1", 26, 34),
                   bot("m2", 30, 30)], dice=[2, 5, 3])
    events = shoot(state)
    turn = events_of(events, "missile_turn")[0]
    assert turn["toward"] == "m1" and turn["turn"] == pytest.approx(-33.69, abs=0.01)
    assert turn["heading"] == pytest.approx(56.31, abs=0.01)
    assert rolls(events) == [("t", 2, False), ("m1", 5, True)]
    assert state.bots["m1"].damage == 1


def test_a_missile_turns_at_most_missile_turn_and_flies_past():  # R27 D31
    # capped at 20°: from (20, 30) heading 70 it passes m1 (26, 34) 1.71 cm off at
    # (26.58, 32.40); from there m2 is 55° off the heading, so it flies straight on
    state = world([bot("s", 10, 30, 90, MISSILE), bot("t", 20, 30), bot("m1", 26, 34),
                   bot("m2", 30, 30)], dice=[2], rules=house_rules(missile_turn=20))
    events = shoot(state)
    assert [(e["toward"], e["turn"]) for e in events_of(events, "missile_turn")] == [("m1", -20.0)]
    legs = [(e["from"], e["to"]) for e in events_of(events, "flight")]
    assert legs[0] == (
        [20.0, 30.0],
        [pytest.approx(26.583, abs=0.01), pytest.approx(32.396, abs=0.01)],
    )
    end = events_of(events, "flight_end")[0]
    # 40 - 10 - 7.006 = 22.994 cm more along 70°
    assert (end["x"], end["y"]) == (pytest.approx(48.19, abs=0.01), pytest.approx(40.26, abs=0.01))
    assert end["how"] == "deactivated at the end of its range"
    assert state.dice.used == 1


def test_equally_near_bots_with_equal_turns_are_drawn_by_die():  # R27
    # m1 and m2 mirror each other about the heading; pick(2) with a 4 -> index 1 -> m2
    state = world([bot("s", 10, 30, 90, MISSILE), bot("t", 20, 30), bot("m1", 26, 34),
                   bot("m2", 26, 26)], dice=[2, 4, 5, 4])
    events = shoot(state)
    turn = events_of(events, "missile_turn")[0]
    assert turn["toward"] == "m2" and turn["turn"] == pytest.approx(33.69, abs=0.01)
    assert rolls(events) == [("t", 2, False), ("m2", 5, True)]


def test_equally_near_bots_the_lesser_turn_wins():  # R27
    state = world([bot("s", 10, 30, 90, MISSILE), bot("t", 20, 30), bot("a", 25, 30),
                   bot("b", 24.330127, 32.5)], dice=[2, 3])
    options = missile_turn_options(state, 20, 30, 90, {"s", "t"})
    assert options.toward == ("a",) and options.turns == (0.0,)
    events = shoot(state)
    assert rolls(events) == [("t", 2, False), ("a", 3, False)]
    end = events_of(events, "flight_end")[0]
    assert (end["x"], end["y"]) == (50.0, 30.0)   # b is behind it after a: straight on


def test_bots_outside_the_front_arc_are_not_chased():  # R27
    state = world([bot("s", 10, 30, 90, MISSILE), bot("t", 20, 30), bot("side", 20, 36)])
    options = missile_turn_options(state, 20, 30, 90, {"s", "t"})
    assert options.toward == ()


def test_the_front_arc_boundary_is_inside():  # R27
    state = world([bot("s", 10, 30, 90, MISSILE), bot("t", 20, 30), bot("edge", 25, 35)])
    options = missile_turn_options(state, 20, 30, 90, {"s", "t"})
    assert options.toward == ("edge",) and options.turns == (pytest.approx(-45.0),)
