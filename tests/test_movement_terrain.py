"""Movement through the field: walls, bots, doors, pits, cliffs, stairs, ramps,
escalators, belts, lifts and teleporters (R13, R16, R17, R36-R48, R53, D9-D11,
D16, D28, D29)."""
from __future__ import annotations

import pytest

from bottisota.core.actions import Forward, Lift, Loop, Move, Refusal, Turn
from bottisota.engine.movement.moves import commit_move, preview_move
from tests.builders import arena, bot, card, state

WALKER = card(move=16)
TANK = card(locomotion="tracked", move=12, turn=3, armour=4, structure=8)
CAR = card(locomotion="wheeled", move=12, turn=3, armour=4, structure=8)
FLIER = card(locomotion="flier", move=16, turn=2, armour=4, structure=6)
HOVER = card(locomotion="hover", move=12, armour=4, structure=6)


def go(s, *steps, bot_id="a"):
    return commit_move(s, Move(bot_id, tuple(steps)))


def pose(s, bot_id="a"):
    b = s.bots[bot_id]
    return (round(b.x, 2), round(b.y, 2), round(b.z, 2), round(b.facing, 1))


def types(result):
    return [e["type"] for e in result.events]


# --- walls and crashes (R13, D9, D10, D29) --------------------------------------------

WALL = {"type": "wall", "id": "block", "rect": [20, 20, 2, 20]}


def test_ground_bot_stops_at_a_wall_and_takes_the_collision_test():  # D10 D29
    s = state(arena(WALL), bot("a", "red", (10, 30), 90, WALKER), dice=[2, 6, 3])
    r = go(s, Forward(15), Forward(2))
    assert not isinstance(r, Refusal)
    assert pose(s) == (19.0, 30.0, 0.0, 90.0)
    assert r.ended == "collision" and r.dropped_steps == [1]
    assert r.spent == pytest.approx(9.0)
    assert s.bots["a"].damage == 1            # 6 passes, 3 - 2 = 1 fails
    assert s.dice.used == 3
    hit = next(e for e in r.events if e["type"] == "collision")
    assert hit["with"] == "wall 'block'" and hit["armour_mod"] == -2


def test_preview_of_a_wall_collision_shows_the_test_without_rolling():  # D10
    s = state(arena(WALL), bot("a", "red", (10, 30), 90, WALKER), dice=[])
    r = preview_move(s, Move("a", (Forward(15),)))
    assert (round(r.x, 2), round(r.y, 2)) == (19.0, 30.0)
    assert "collision" in types(r) and s.dice.used == 0 and s.bots["a"].x == 10


def test_flier_crashes_and_may_turn_away_from_the_wall():  # R13
    s = state(arena(WALL), bot("a", "red", (10, 30), 45, FLIER), dice=[1, 6])
    r = go(s, Forward(20), Turn(-45), Forward(3))
    assert r.ended == "crash" and "crash" in types(r)
    assert pose(s) == (19.0, 39.0, 0.0, 0.0)
    assert r.dropped_steps == [2]
    assert s.bots["a"].damage == 0


def test_flier_may_not_turn_toward_the_wall_after_a_crash():  # R13
    s = state(arena(WALL), bot("a", "red", (10, 30), 45, FLIER), dice=[1, 6])
    r = go(s, Forward(20), Turn(45))
    assert pose(s) == (19.0, 39.0, 0.0, 45.0)
    assert r.dropped_steps == [1]


# --- other bots (R11, R16, R17, D9-D11) -----------------------------------------------

def test_ground_bot_rams_a_bot_both_tested_mover_first_rammed_not_moved():  # D9 D10 D11
    s = state(arena(), bot("a", "red", (10, 30), 90, WALKER), bot("b", "blue", (16, 30), 0),
              dice=[1, 6, 1, 1])
    r = go(s, Forward(10))
    assert pose(s) == (14.0, 30.0, 0.0, 90.0)
    assert pose(s, "b") == (16.0, 30.0, 0.0, 0.0)
    assert (s.bots["a"].damage, s.bots["b"].damage) == (0, 1)
    tests = [e["bot"] for e in r.events if e["type"] == "armour_test"]
    assert tests == ["a", "b"]


def test_tracked_rammer_rerolls_its_first_failed_test_against_a_walker():  # R17
    s = state(arena(), bot("a", "red", (10, 30), 90, TANK), bot("b", "blue", (16, 30), 0),
              dice=[1, 2, 6, 1, 6])
    go(s, Forward(10))
    assert s.bots["a"].damage == 0
    rerolls = [e for e in s.dice.rolls if e.purpose.startswith("re-roll")]
    assert len(rerolls) == 1


def test_no_reroll_when_both_parties_are_wheeled_or_tracked():  # R17
    s = state(arena(), bot("a", "red", (10, 30), 90, TANK), bot("b", "blue", (16, 30), 0, CAR),
              dice=[1, 2, 1, 6])
    go(s, Forward(10))
    assert (s.bots["a"].damage, s.bots["b"].damage) == (1, 0)
    assert s.dice.used == 4


# --- doors (R47) ------------------------------------------------------------------------

def test_door_opens_at_the_touch_and_never_blocks():  # R47
    feats = [{"type": "wall", "rect": [20, 0, 2, 26]},
             {"type": "door", "id": "gate", "rect": [20, 26, 2, 8]},
             {"type": "wall", "rect": [20, 34, 2, 26]}]
    s = state(arena(*feats), bot("a", "red", (10, 30), 90, WALKER))
    r = go(s, Forward(15))
    assert pose(s) == (25.0, 30.0, 0.0, 90.0)
    opened = [e for e in r.events if e["type"] == "door_opened"]
    assert (
        len(opened) == 1 and opened[0]["door"] == "door 'gate'" and opened[0]["at"] == [19.0, 30.0]
    )


# --- pits (R36) -------------------------------------------------------------------------

PITS = [{"type": "pit", "circle": [40, 20, 5]}, {"type": "pit", "circle": [40, 45, 5]}]


def test_walker_entering_a_pit_is_destroyed_hoverer_floats_over():  # R36 pit_and_hover.yaml
    s = state(arena(*PITS), bot("walker", "red", (30, 20), 90, card(move=10)),
              bot("hover", "blue", (30, 45), 90, card(locomotion="hover", move=10)), dice=[1])
    r = go(s, Forward(8), bot_id="walker")
    assert s.bots["walker"].destroyed and r.ended == "pit"
    assert pose(s, "walker")[:2] == (35.0, 20.0)
    r = go(s, Forward(10), bot_id="hover")
    assert not s.bots["hover"].destroyed and pose(s, "hover")[:2] == (40.0, 45.0)


# --- cliffs and falls (R37, R39, R40, R41, D16, D29) -----------------------------------

PLATFORM = {"type": "platform", "id": "deck", "rect": [20, 0, 20, 60], "height": 4}


def test_ground_bot_may_not_drive_up_a_cliff():  # R37 D29
    s = state(arena(PLATFORM), bot("a", "red", (10, 30), 90, WALKER))
    r = go(s, Forward(12))
    assert isinstance(r, Refusal) and r.rule == "R37" and "platform 'deck'" in r.message
    # refused where the base meets the cliff's face, touching within D4 (docs/decisions.md D29)
    assert r.at == pytest.approx((19.05, 30.0), abs=1e-6)


def test_flier_climbs_a_cliff_paying_its_height_and_floats_down_free():  # R37 R41
    s = state(arena(PLATFORM), bot("a", "red", (10, 30), 90, FLIER))
    r = go(s, Forward(12))
    assert pose(s) == (22.0, 30.0, 4.0, 90.0) and r.spent == pytest.approx(16.0)
    s = state(arena(PLATFORM), bot("a", "red", (30, 30), 90, FLIER))
    r = go(s, Forward(12))
    assert pose(s) == (42.0, 30.0, 0.0, 90.0) and r.spent == pytest.approx(12.0)


def test_ground_bot_falls_off_a_cliff_drop_minus_d6():  # R39 D16
    s = state(arena(PLATFORM), bot("a", "red", (30, 30), 90, WALKER), dice=[1])
    r = go(s, Forward(12), Forward(1))
    assert pose(s) == (41.0, 30.0, 0.0, 90.0)            # at rest just clear of the cliff
    assert s.bots["a"].damage == 3 and r.ended == "fall" and r.dropped_steps == [1]
    assert r.spent == pytest.approx(10.0)


def test_fall_preview_gives_the_damage_range():  # R39
    s = state(arena({**PLATFORM, "height": 5}), bot("a", "red", (30, 30), 90, WALKER))
    r = preview_move(s, Move("a", (Forward(12),)))
    fall = next(e for e in r.events if e["type"] == "fall")
    assert fall["damage_range"] == [0, 4] and fall["at"] == [41.0, 30.0]


def test_faller_lands_on_a_bot_below_and_knocks_it_back():  # R40
    s = state(arena(PLATFORM), bot("a", "red", (30, 30), 90, WALKER),
              bot("b", "blue", (41.5, 30), 0, card(armour=4)), dice=[1, 6, 5, 1])
    r = go(s, Forward(12))
    assert pose(s) == (41.0, 30.0, 0.0, 90.0)            # just clear of the cliff, on b
    assert pose(s, "b") == (43.0, 30.0, 0.0, 0.0)        # knocked back until clear
    assert s.bots["a"].damage == 3
    assert s.bots["b"].damage == 1                       # 6 ok, 5-1 ok, 1 fails
    assert [e["mod"] for e in r.events if e["type"] == "armour_test"] == [-1, -1, -1]


# --- stairs, ramps, escalators (R42, R43, R46) ---------------------------------------

STAIRS = {"type": "stairs", "id": "steps", "rect": [30, 20, 10, 20], "from": 0, "to": 4, "up": 90}
TOP = {"type": "platform", "id": "top", "rect": [40, 10, 20, 40], "height": 4}


def test_wheeled_and_tracked_may_not_climb_stairs():  # R42
    for c in (CAR, TANK):
        s = state(arena(STAIRS, TOP), bot("a", "red", (25, 30), 90, c))
        r = go(s, Forward(10))
        assert isinstance(r, Refusal) and r.rule == "R42"
        assert "stairs 'steps' at 30.0, 30.0" in r.message


def test_wheeled_may_go_down_stairs():  # R42
    s = state(arena(STAIRS, TOP), bot("a", "red", (38, 30), 270, CAR))
    r = go(s, Forward(10))
    assert pose(s) == (28.0, 30.0, 0.0, 270.0) and r.spent == pytest.approx(10.0)


def test_walker_climbs_stairs_at_double_cost_flier_not_slowed():  # R42
    s = state(arena(STAIRS, TOP), bot("a", "red", (25, 30), 90, WALKER))
    r = go(s, Forward(10))
    assert pose(s) == (35.0, 30.0, 2.0, 90.0) and r.spent == pytest.approx(15.0)
    s = state(arena(STAIRS, TOP), bot("a", "red", (25, 30), 90, FLIER))
    r = go(s, Forward(10))
    assert pose(s) == (35.0, 30.0, 2.0, 90.0) and r.spent == pytest.approx(10.0)


def test_ramps_cost_nothing_extra():  # R43
    ramp = {**STAIRS, "type": "ramp", "id": "slope"}
    s = state(arena(ramp, TOP), bot("a", "red", (25, 30), 90, CAR))
    r = go(s, Forward(10))
    assert pose(s) == (35.0, 30.0, 2.0, 90.0) and r.spent == pytest.approx(10.0)


def test_wheeled_rides_up_an_escalator_and_is_carried():  # R46
    esc = {**STAIRS, "type": "escalator", "id": "esc", "speed": 2}
    s = state(arena(esc, TOP), bot("a", "red", (25, 30), 90, CAR))
    r = go(s, Forward(8))
    assert pose(s) == (35.0, 30.0, 2.0, 90.0)
    assert r.spent == pytest.approx(8.0)
    assert "belt" in types(r)


# --- conveyor belts (R44, R45) ---------------------------------------------------------

BELT = {"type": "conveyor", "id": "belt", "path": [[0, 20], [30, 20], [30, 40]], "width": 4,
        "speed": 2}


def test_belt_carries_a_bot_ending_on_it_and_turns_it_at_the_bend():  # R44
    s = state(arena(BELT), bot("a", "red", (29, 14), 0, WALKER))
    r = go(s, Forward(6))
    assert pose(s) == (30.0, 21.0, 0.0, 270.0)
    assert r.spent == pytest.approx(6.0)


def test_belt_carry_stops_at_a_wall_with_a_collision():  # R44 D9
    wall = {"type": "wall", "rect": [30, 14, 2, 12]}
    s = state(arena({**BELT, "path": [[0, 20], [30, 20]]}, wall),
              bot("a", "red", (28, 14), 0, WALKER), dice=[1, 6])
    r = go(s, Forward(6))
    assert pose(s) == (29.0, 20.0, 0.0, 0.0)
    assert "collision" in types(r)


def test_bot_partly_off_the_belt_slides_on_and_faces_along_it():  # R45
    wall = {"type": "wall", "rect": [31, 22.2, 2, 5]}
    belt = {**BELT, "path": [[0, 20], [40, 20]]}
    s = state(arena(belt, wall), bot("a", "red", (30, 21.8), 80, WALKER))
    r = go(s)
    assert pose(s) == (32.0, 21.0, 0.0, 90.0)
    assert any(e["type"] == "belt" and e.get("slide") for e in r.events)


# --- lifts (R48) --------------------------------------------------------------------------

LIFT = [{"type": "platform", "rect": [24, 16, 20, 12], "height": 4},
        {"type": "lift", "id": "car", "rect": [20, 20, 4, 4], "top": 4}]


def test_lift_up_drives_onto_the_landing_for_half_the_move():  # R48
    s = state(arena(*LIFT), bot("a", "red", (22, 22), 90, card(move=8)))
    r = go(s, Lift("up"), Forward(2))
    assert pose(s) == (27.0, 22.0, 4.0, 90.0)
    assert r.spent == pytest.approx(6.0)


def test_lift_up_needs_a_landing_ahead():  # R48
    s = state(arena(*LIFT), bot("a", "red", (22, 22), 270, card(move=8)))
    r = go(s, Lift("up"))
    assert isinstance(r, Refusal) and r.rule == "R48" and "landing" in r.message


def test_lift_down_ends_on_the_car():  # R48
    s = state(arena(*LIFT), bot("a", "red", (25, 22), 90, card(move=8)))
    r = go(s, Lift("down"))
    assert pose(s) == (22.0, 22.0, 0.0, 90.0) and r.spent == pytest.approx(4.0)


def test_fliers_do_not_use_lifts():  # R48
    s = state(arena(*LIFT), bot("a", "red", (22, 22), 90, FLIER))
    r = go(s, Lift("up"))
    assert isinstance(r, Refusal) and r.rule == "R48"


# --- teleporters (R53, D28) --------------------------------------------------------------

TPS = [{"type": "teleporter", "id": "tp-a", "circle": [30, 30, 1.5]},
       {"type": "teleporter", "id": "tp-b", "circle": [60, 30, 1.5]},
       {"type": "teleporter", "id": "tp-c", "circle": [60, 50, 1.5]}]


def test_teleporter_moves_the_bot_to_a_random_free_one_and_the_move_goes_on():  # R53 D28
    s = state(arena(*TPS), bot("a", "red", (20, 30), 90, WALKER), dice=[2])
    r = go(s, Forward(12), Forward(2))
    assert pose(s) == (62.0, 50.0, 0.0, 90.0)
    assert r.spent == pytest.approx(8.5 + 2)
    tp = next(e for e in r.events if e["type"] == "teleport")
    assert tp["to"] == "teleporter 'tp-c'" and tp["candidates"] == [
        "teleporter 'tp-b'",
        "teleporter 'tp-c'",
    ]


def test_teleporter_preview_stops_at_the_entry_with_the_candidates():  # R53
    s = state(arena(*TPS), bot("a", "red", (20, 30), 90, WALKER))
    r = preview_move(s, Move("a", (Forward(12), Forward(2))))
    assert (round(r.x, 2), round(r.y, 2)) == (28.5, 30.0)
    assert r.ended == "teleport" and r.teleport_candidates == [
        "teleporter 'tp-b'",
        "teleporter 'tp-c'",
    ]
    assert s.dice.used == 0


def test_occupied_teleporter_is_not_a_destination():  # R53
    s = state(arena(*TPS), bot("a", "red", (20, 30), 90, WALKER), bot("b", "blue", (60, 50.5), 0))
    r = go(s, Forward(12))
    assert pose(s)[:2] == (60.0, 30.0) and s.dice.used == 0
    assert r.spent == pytest.approx(8.5)


def test_bot_standing_on_a_teleporter_is_not_moved():  # R53
    s = state(arena(*TPS), bot("a", "red", (30, 30), 90, WALKER))
    r = go(s, Forward(3))
    assert pose(s)[:2] == (33.0, 30.0) and "teleport" not in types(r)


def test_side_of_stairs_is_a_cliff_for_ground_bots():  # R42 D29
    s = state(arena(STAIRS, TOP), bot("a", "red", (35, 14), 0, WALKER))
    r = go(s, Forward(10))
    assert isinstance(r, Refusal) and r.rule == "R37"
    assert r.at == pytest.approx((35.0, 19.05), abs=1e-6)    # the base at the face (D29)


def test_ground_bot_may_not_drive_from_a_lift_car_onto_the_landing():  # R48 D29
    s = state(arena(*LIFT), bot("a", "red", (22, 22), 90, card(move=8)))
    r = go(s, Forward(4))
    assert isinstance(r, Refusal) and r.rule == "R37"


def test_belt_end_carries_the_bot_straight_off_and_path_shows_every_leg():  # R44
    s = state(arena({**BELT, "path": [[0, 20], [20, 20]]}), bot("a", "red", (19.5, 14), 0, WALKER))
    r = go(s, Forward(6))
    assert pose(s) == (21.5, 20.0, 0.0, 0.0)
    s = state(arena(BELT), bot("a", "red", (29, 14), 0, WALKER))
    r = go(s, Forward(6))
    assert [(round(p.x, 2), round(p.y, 2), round(p.facing)) for p in r.path[-2:]] == \
        [(30.0, 20.0, 0), (30.0, 21.0, 270)]
    assert r.pieces[-1].kind == "carry" and r.pieces[-1].length == pytest.approx(2.0)


def test_preview_explains_pits_and_belts_without_dice():  # R36 R44
    s = state(arena(*PITS), bot("a", "red", (30, 20), 90, WALKER), dice=[])
    r = preview_move(s, Move("a", (Forward(8),)))
    assert r.destroyed and r.ended == "pit" and "pit" in types(r)
    s = state(arena(BELT), bot("a", "red", (29, 14), 0, WALKER), dice=[])
    r = preview_move(s, Move("a", (Forward(6),)))
    assert "belt" in types(r) and (round(r.x, 2), round(r.y, 2), round(r.facing)) == (
        30.0,
        21.0,
        270,
    )
    assert s.bots["a"].y == 14 and s.dice.used == 0


def test_ramming_a_bot_to_death_scores_the_kill_for_the_rammer():  # D10 D22
    s = state(arena(), bot("a", "red", (10, 30), 90, WALKER),
              bot("b", "blue", (16, 30), 0, card(structure=1)), dice=[1, 6, 1, 1])
    r = go(s, Forward(10))
    assert s.bots["b"].destroyed and s.scores.get("red") == s.rules.kill_points
    assert any(e["type"] == "destroyed" and e["by"] == "a" for e in r.events)


def test_tracked_bot_rerolls_a_failed_test_against_a_wall():  # R17 D10
    s = state(arena(WALL), bot("a", "red", (10, 30), 90, TANK), dice=[1, 1, 6])
    go(s, Forward(15))
    assert pose(s)[:2] == (19.0, 30.0) and s.bots["a"].damage == 0 and s.dice.used == 3


def test_escalator_carrying_down_moves_the_bot_away_from_up():  # R46
    esc = {**STAIRS, "type": "escalator", "id": "esc", "speed": 2, "carries": "down"}
    s = state(arena(esc, TOP), bot("a", "red", (38, 30), 270, CAR))
    go(s, Forward(3))
    assert pose(s) == (33.0, 30.0, 1.2, 270.0)


def test_faller_that_cannot_knock_the_bot_clear_rests_beside_it():  # R40 D4
    feats = [{"type": "platform", "rect": [0, 0, 20, 60], "height": 4},
             {"type": "wall", "rect": [22.5, 20, 2, 20]}]
    s = state(arena(*feats), bot("a", "red", (15, 30), 90, WALKER), bot("b", "blue", (21.5, 30), 0),
              dice=[6] * 12)
    p = preview_move(s, Move("a", (Forward(10),)))
    r = go(s, Forward(10))
    a, b = s.bots["a"], s.bots["b"]
    assert pose(s, "b")[:2] == (21.5, 30.0)
    assert (a.x - b.x) ** 2 + (a.y - b.y) ** 2 >= 4 - 1e-9
    # the nearest spot at the cliff's foot, base off the platform (x >= 21), clear of b (R40, D4)
    assert a.z == 0 and a.x >= 21.0 - 1e-9 and abs(a.y - 30) == pytest.approx(1.95, abs=0.01)
    assert s.index.disc_blocked(a.x, a.y, 1.0, doors=False) is None
    assert "landed_beside" in types(r) and (p.x, p.y) == (r.x, r.y)


def test_teleporter_with_no_free_exit_is_walked_over():  # R53
    s = state(
        arena(*TPS[:2]), bot("a", "red", (20, 30), 90, WALKER), bot("b", "blue", (60, 30.5), 0)
    )
    r = go(s, Forward(14))
    assert pose(s)[:2] == (34.0, 30.0) and r.spent == pytest.approx(14.0)
    tp = next(e for e in r.events if e["type"] == "teleport")
    assert tp["to"] is None and tp["candidates"] == []


def test_lift_landing_taken_by_a_bot_is_refused():  # R48
    s = state(
        arena(*LIFT), bot("a", "red", (22, 22), 90, card(move=8)), bot("b", "blue", (26, 22), 0)
    )
    s.bots["b"].z = 4.0
    r = go(s, Lift("up"))
    assert isinstance(r, Refusal) and r.rule == "R48" and "b stands" in r.message


def test_loop_needs_the_door_ahead_held_open():  # R14 R47
    feats = [{"type": "door", "id": "gate", "rect": [23, 10, 1, 20]}]
    s = state(arena(*feats), bot("a", "red", (20, 20), 90, FLIER))
    r = go(s, Loop())
    assert isinstance(r, Refusal) and r.rule == "R14" and "closed door 'gate'" in r.message
    s = state(arena(*feats), bot("a", "red", (20, 20), 90, FLIER), bot("b", "blue", (25, 12), 0))
    r = go(s, Loop())
    assert not isinstance(r, Refusal) and pose(s) == (20.0, 20.0, 0.0, 270.0)


def test_preview_of_a_crash_gives_its_numbers():  # R13
    s = state(arena(WALL), bot("a", "red", (10, 30), 90, FLIER), dice=[])
    r = preview_move(s, Move("a", (Forward(15),)))
    crash = next(e for e in r.events if e["type"] == "crash")
    assert crash["hits"] == "d6" and crash["armour_mod"] == -2 and crash["at"] == [19.0, 30.0]


def test_step_refused_after_a_random_teleport_cuts_the_move_there():  # R53 D28 D30
    s = state(arena(*TPS), bot("a", "red", (30, 20), 0, WALKER), dice=[2])
    r = go(s, Forward(10), Forward(10))
    assert not isinstance(r, Refusal) and r.ended == "cut"
    assert pose(s)[:2] == (60.0, 50.0)
    cut = next(e for e in r.events if e["type"] == "move_cut")
    assert cut["step"] == 1 and cut["reason"].startswith("R2:")
