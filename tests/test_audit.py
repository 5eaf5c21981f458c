"""An audit of the rules against the text (the Finnish original first): each test
pins one reading of one rule, cited, where the implementation was wrong or the
text is easy to misread. Decisions where the text is silent: docs/decisions.md."""
from __future__ import annotations

import pytest
from test_shooting_world import bot as sbot
from test_shooting_world import events_of, platform, weapon, world

from bottisota.core.actions import Back, Forward, Move, Refusal, Turn
from bottisota.engine.movement.moves import commit_move, preview_move
from bottisota.engine.shooting.shots import fire_one
from bottisota.engine.shooting.targeting import can_fire
from tests.builders import arena, bot, card, state

ROCKET = weapon("Rocket", kind="rocket", mount="nose", range=40, to_hit=4)


def car(**kw):
    return card(locomotion="wheeled", move=12, turn=3, armour=4, structure=6, **kw)


def go(s, *steps, bot_id="a"):
    return commit_move(s, Move(bot_id, tuple(steps)))


# --- R8: turn credit counts the movement spent ("liikkuvuudestaan") ------------------

def test_r8_reversing_earns_turn_credit_by_movement_spent():  # R8
    # Turn 3: 1.5 cm backward costs 3 cm of movement, which is the Turn value "of its
    # movement"; the original adds that reversing bots turn "as often as before".
    s = state(arena(), bot("a", "red", (20, 20), 0, car()))
    r = go(s, Back(1.5), Turn(45))
    assert not isinstance(r, Refusal)
    assert r.spent == pytest.approx(3.0) and s.bots["a"].facing == pytest.approx(45.0)


def test_r8_forward_still_needs_turn_cm():  # R8
    s = state(arena(), bot("a", "red", (20, 20), 0, car()))
    r = go(s, Forward(2.9), Turn(45))
    assert isinstance(r, Refusal) and r.rule == "R8"


# --- R42 D16: stairs, and their side edges -------------------------------------------

STAIRS = ({"type": "stairs", "rect": [30, 10, 8, 20], "from": 0, "to": 4, "up": 90},
          {"type": "platform", "rect": [38, 10, 20, 20], "height": 4})


def test_r42_wheeled_refused_up_stairs_allowed_down():  # R42 D29
    s = state(arena(*STAIRS), bot("a", "red", (25, 20), 90, car()))
    r = go(s, Forward(10))
    assert isinstance(r, Refusal) and r.rule == "R42"
    s = state(arena(*STAIRS), bot("a", "red", (45, 20), 270, car()))
    r = go(s, Forward(12))
    assert not isinstance(r, Refusal)
    assert (s.bots["a"].x, s.bots["a"].z) == (pytest.approx(33.0), pytest.approx(1.5))
    assert not [e for e in r.events if e["type"] == "fall"]


def test_d16_stepping_off_the_side_of_stairs_is_a_fall():  # R39 D16
    s = state(arena(*STAIRS), bot("a", "red", (36, 20), 0, car()), dice=[1])
    r = go(s, Forward(12))
    falls = [e for e in r.events if e["type"] == "fall"]
    assert len(falls) == 1 and falls[0]["drop"] == pytest.approx(3.0)
    # at rest just clear of the stairs' side (docs/decisions.md R39), not with its base under them
    assert s.bots["a"].damage == 2 and s.bots["a"].y == pytest.approx(31.0)


# --- R26 R27 D15 D31: flights in height ----------------------------------------------

def test_r26_a_raised_floor_higher_than_the_flight_stops_a_rocket():  # R26 D15 D31
    # The rocket passes t at t's middle (1 cm up) and flies on level: the 3 cm
    # platform's edge stops it; c on the platform is never rolled against.
    state_ = world([sbot("s", 10, 30, 90, ROCKET), sbot("t", 20, 30), sbot("c", 30, 30, z=3.0)],
                   features=[platform(0, 25, 20, 10, 20, 3.0, fid="deck")], dice=[2])
    events = fire_one(state_, state_.bots["s"], ROCKET, state_.bots["t"])
    assert [e["target"] for e in events_of(events, "to_hit")] == ["t"]
    end = events_of(events, "flight_end")[0]
    assert (end["x"], end["y"]) == (25.0, 30.0) and "deck" in end["how"]
    assert state_.dice.used == 1


def test_r26_a_rocket_flies_on_over_a_floor_lower_than_its_flight():  # R26 D15 D31
    state_ = world([sbot("s", 10, 30, 90, ROCKET), sbot("t", 20, 30), sbot("c", 30, 30, z=0.8)],
                   features=[platform(0, 25, 20, 10, 20, 0.8)], dice=[2, 3])
    events = fire_one(state_, state_.bots["s"], ROCKET, state_.bots["t"])
    assert [e["target"] for e in events_of(events, "to_hit")] == ["t", "c"]


def test_r26_a_rocket_fired_down_passes_over_a_bot_below_its_flight():  # R26 D15 D31
    # s and t on a 4 cm platform; the rocket flies on at 5 cm, off the platform's
    # end, over c on the floor (its top at 2 cm), and out to its range.
    state_ = world([sbot("s", 10, 30, 90, ROCKET, z=4.0), sbot("t", 20, 30, z=4.0),
                    sbot("c", 32, 30)],
                   features=[platform(0, 0, 20, 25, 20, 4.0)], dice=[2])
    events = fire_one(state_, state_.bots["s"], ROCKET, state_.bots["t"])
    assert [e["target"] for e in events_of(events, "to_hit")] == ["t"]
    end = events_of(events, "flight_end")[0]
    assert (end["x"], end["y"]) == (50.0, 30.0)


# --- R19 R22 R23 R25: arcs, sight, overwatch reach, melee between levels --------------

def test_r19_the_exact_45_degree_boundary_is_inside_the_nose_arc():  # R19
    gun = weapon("Gun", kind="gun", mount="nose", range=30, to_hit=4, hits=1)
    s = world([sbot("s", 10, 10, 0, gun), sbot("t", 20, 20), sbot("u", 20, 19.9)])
    assert can_fire(s, "s", "Gun", "t") is None
    refusal = can_fire(s, "s", "Gun", "u")
    assert refusal is not None and refusal.rule == "R19"


def test_r22_a_bot_exactly_tangent_to_the_line_blocks():  # R22 D15 (touching counts)
    gun = weapon("Gun", kind="gun", mount="turret", range=30, to_hit=4, hits=1)
    s = world([sbot("s", 10, 30, 90, gun), sbot("t", 30, 30), sbot("c", 20, 31.0)])
    refusal = can_fire(s, "s", "Gun", "t")
    assert refusal is not None and refusal.rule == "R22" and "'c'" in refusal.message
    s = world([sbot("s", 10, 30, 90, gun), sbot("t", 30, 30), sbot("c", 20, 31.01)])
    assert can_fire(s, "s", "Gun", "t") is None


def test_r23_overwatch_reach_is_capped_at_30_for_longer_weapons():  # R23 D12
    gun = weapon("Long gun", kind="gun", mount="turret", range=40, to_hit=4, hits=1)
    s = world([sbot("s", 10, 30, 90, gun), sbot("t", 40.5, 30)])
    assert can_fire(s, "s", "Long gun", "t") is None
    refusal = can_fire(s, "s", "Long gun", "t", overwatch=True)
    assert refusal is not None and refusal.rule == "R23"


def test_r25_melee_on_stairs_between_levels_but_not_up_a_cliff():  # R25
    claw = weapon("Claw", kind="melee", mount="turret", range=0, to_hit=4, hits=1)
    steep = {"type": "stairs", "rect": [30, 10, 4, 20], "from": 0, "to": 4, "up": 90}
    s = state(arena(steep, {"type": "platform", "rect": [34, 10, 10, 20], "height": 4}),
              bot("a", "red", (30.5, 20), 90, card(weapons=[dict(
                  name="Claw", kind="melee", mount="turret", range=0, to_hit=4, hits=1)])),
              bot("b", "blue", (32.5, 20), 0))
    assert s.bots["b"].z - s.bots["a"].z == pytest.approx(2.0)   # more than one level apart
    assert can_fire(s, "a", claw.name, "b") is None
    s2 = state(arena({"type": "platform", "rect": [30, 10, 20, 20], "height": 4}),
               bot("a", "red", (28, 20), 90, card(weapons=[dict(
                   name="Claw", kind="melee", mount="turret", range=0, to_hit=4, hits=1)])),
               bot("b", "blue", (30.5, 20)))
    refusal = can_fire(s2, "a", "Claw", "b")
    assert refusal is not None and refusal.rule == "R25"


# --- R17: no re-roll when both parties are sturdy ---------------------------------------

def test_r17_no_reroll_when_both_are_wheeled_or_tracked():  # R17 D10
    # a rams b; both wheeled: d6 = 1 hit each, armour 1 fails (R5), no re-roll
    s = state(arena(), bot("a", "red", (20, 20), 90, car()), bot("b", "blue", (24, 20), 0, car()),
              dice=[1, 1, 1, 1])
    r = go(s, Forward(4))
    assert not isinstance(r, Refusal)
    tests = [e for e in r.events if e["type"] == "armour_test"]
    assert len(tests) == 2 and not any(e.get("reroll") for e in tests)
    assert s.dice.used == 4


def test_r17_a_sturdy_bot_rerolls_against_a_walker():  # R17 D10
    s = state(arena(), bot("a", "red", (20, 20), 90, car()), bot("b", "blue", (24, 20), 0),
              dice=[1, 1, 6, 1, 1])
    r = go(s, Forward(4))
    tests = [
        (e["bot"], e["roll"], bool(e.get("reroll"))) for e in r.events if e["type"] == "armour_test"
    ]
    assert tests == [("a", 1, False), ("a", 6, True), ("b", 1, False)]
    assert s.bots["a"].damage == 0 and s.bots["b"].damage == 1


# --- D34 R12 R51: a flier short of its minimum move ----------------------------------------

def test_d34_a_flier_short_of_min_move_falls_unless_docked():  # D34 R12 R51
    fl = card(locomotion="flier", move=10, turn=2, min_move=4)
    s = state(arena(), bot("a", "red", (20, 20), 0, fl))
    r = go(s, Forward(3))
    assert not isinstance(r, Refusal) and s.bots["a"].destroyed
    s = state(arena({"type": "service", "circle": [20, 23, 2]}), bot("a", "red", (20, 20), 0, fl))
    r = go(s, Forward(3))
    assert not s.bots["a"].destroyed and any(e["type"] == "docked" for e in r.events)
    s = state(arena(), bot("a", "red", (20, 20), 0, fl))
    assert not isinstance(go(s, Forward(4)), Refusal) and not s.bots["a"].destroyed


def test_r12_a_flier_cannot_reverse_even_a_little():  # R12
    fl = card(locomotion="flier", move=10, turn=2)
    r = preview_move(state(arena(), bot("a", "red", (20, 20), 0, fl)), Move("a", (Back(0.5),)))
    assert isinstance(r, Refusal) and r.rule == "R12"


# --- R31: a mine strikes whoever touches it when it wakes, its dropper too ------------

def test_r31_a_bot_ending_on_its_own_mine_is_struck():  # R31 R33 (docs/decisions.md)
    from bottisota.core.actions import DropMine
    from bottisota.engine.mines import activate_mines
    layer = dict(name="Mine layer", kind="mine", to_hit=2, hits=1)
    s = state(arena(), bot("a", "red", (20, 20), 90, card(locomotion="tracked", turn=3,
                                                        weapons=[layer])),
              bot("b", "blue", (50, 50)), dice=[3, 1])
    assert not isinstance(go(s, Forward(2), DropMine("Mine layer")), Refusal)
    events = activate_mines(s, "a")
    assert [e["bot"] for e in events if e["type"] == "mine_strike"] == ["a"]
    assert s.bots["a"].damage == 1
