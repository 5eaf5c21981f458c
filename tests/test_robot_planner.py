"""The robot's planner: an intention becomes a legal move, judged by preview_move."""
from __future__ import annotations

import math
import time

import pytest

from bottisota.core.actions import Back, Forward, Move, Refusal, Turn
from bottisota.engine.movement.moves import preview_move
from bottisota.formats.robot_tables import Intention
from bottisota.robot.navigation import nav_grid
from bottisota.robot.planner import plan_move
from tests.builders import arena, bot, card, state, weapon

GUN = weapon("Gun", mount="nose", range=30)
LOCOMOTIONS = ("walker", "hover", "wheeled", "tracked", "flier")


def duel(locomotion: str, me=(10, 30, 90), foe=(40, 30), arena_value=None, **card_kw):
    a = arena_value or arena(size=(80, 60))
    c = card(locomotion=locomotion, move=8, turn=3, weapons=[GUN], **card_kw)
    s = state(a, bot("a", "red", me[:2], me[2], c), bot("b", "blue", foe, 270, card()), dice=[])
    return s, s.bots["a"], s.bots["b"]


def end_of(p) -> tuple[float, float, float]:
    """Where a plan ends: x, y to 0.01 cm and the facing to 0.1°."""
    return (round(p.result.x, 2), round(p.result.y, 2), round(p.result.facing, 1))


def plan(s, me, foe, intention: Intention):
    return plan_move(s, me, intention, foe)          # no clock: counts bound the search


@pytest.mark.parametrize("locomotion", LOCOMOTIONS)
def test_close_in_drives_straight_at_an_enemy_ahead(locomotion):
    # R8-R15: every locomotion spends its whole move (8 cm) straight at the enemy
    s, me, foe = duel(locomotion)
    p = plan(s, me, foe, Intention(move="close_in"))
    assert p.move == Move("a", (Forward(8.0),))
    assert end_of(p) == (18.0, 30.0, 90.0)


@pytest.mark.parametrize("locomotion, steps, end", [
    ("walker", (Turn(53.13), Forward(8.0)), (16.4, 14.8, 53.1)),        # R10 free turn
    ("hover", (Turn(53.13), Forward(8.0)), (16.4, 14.8, 53.1)),         # R15 free turn
    ("wheeled", (Turn(45.0), Forward(8.0)), (15.66, 15.66, 45.0)),      # R8 one free 45°
    ("tracked", (Turn(45.0), Forward(8.0)), (15.66, 15.66, 45.0)),      # R9 one free 45°
    ("flier", (Turn(45.0), Forward(8.0)), (15.66, 15.66, 45.0)),        # R12 like wheeled
])
def test_close_in_turns_by_the_locomotions_rhythm(locomotion, steps, end):
    s, me, foe = duel(locomotion, me=(10, 10, 0), foe=(50, 40))
    p = plan(s, me, foe, Intention(move="close_in"))
    assert p.move.steps == steps
    assert end_of(p) == end


def test_keep_range_backs_a_walker_off_and_turns_it_back_to_face():
    # R10: turning is free, so a walker turns about, walks 5 cm and faces the enemy again
    s, me, foe = duel("walker", foe=(25, 30))
    p = plan(s, me, foe, Intention(move="keep_range", range=20))
    assert p.move.steps == (Turn(180.0), Forward(5.0), Turn(-180.0))
    assert end_of(p) == (5.0, 30.0, 90.0)


def test_keep_range_reverses_a_wheeled_bot_at_double_cost():
    # R8: backward costs 2 cm per cm; 8 cm of movement backs it 4 cm, still facing the enemy
    s, me, foe = duel("wheeled", foe=(22, 30))
    p = plan(s, me, foe, Intention(move="keep_range", range=20))
    assert p.move.steps == (Back(4.0),)
    assert end_of(p) == (6.0, 30.0, 90.0)


def test_overwatch_intention_moves_at_most_half(monkeypatch):
    # R23: a bot that means to set overwatch spends at most half its movement
    s, me, foe = duel("walker")
    p = plan(s, me, foe, Intention(move="close_in", then="overwatch"))
    assert p.move == Move("a", (Forward(4.0),))
    assert round(p.result.spent, 2) == 4.0


def test_a_pit_in_the_way_is_walked_around():
    # R36: a ground bot entering a pit is destroyed; the robot steers clear of it
    pit = arena({"type": "pit", "circle": [15, 30, 2]}, size=(80, 60))
    s, me, foe = duel("walker", arena_value=pit)
    p = plan(s, me, foe, Intention(move="close_in"))
    assert not p.result.destroyed
    assert math.hypot(p.result.x - 15, p.result.y - 30) > 2.0
    assert round(p.result.x, 2) > 14.0          # still made progress toward the enemy


def test_a_wall_between_is_gone_around_not_rammed():
    # D9, D29: the way to the enemy is round the end of the wall, so the walker heads there
    wall = arena({"type": "wall", "rect": [20, 10, 2, 40]}, size=(80, 60))
    s, me, foe = duel("walker", arena_value=wall)
    p = plan(s, me, foe, Intention(move="close_in"))
    assert p.move.steps == (Turn(90.0), Forward(8.0), Turn(-104.93))
    assert end_of(p) == (10.0, 22.0, 75.1)      # toward the wall's south end, facing the enemy
    assert not p.result.ended


def test_grab_goal_goes_to_the_nearest_goal_marker():
    # D23: a goal marker 6 cm ahead: the walker ends its move on it
    goal = arena({"type": "goal", "circle": [16, 30, 2]}, size=(80, 60))
    s, me, foe = duel("walker", arena_value=goal, foe=(70, 50))
    p = plan(s, me, foe, Intention(move="grab_goal"))
    assert (round(p.result.x, 2), round(p.result.y, 2)) == (16.0, 30.0)


def test_wheeled_bot_uses_the_ramp_not_the_cliff():
    # R37, R43: ground bots cannot climb the platform's cliff; the ramp joins the floors
    a = arena({"type": "platform", "rect": [30, 0, 50, 60], "height": 4},
              {"type": "ramp", "rect": [20, 40, 10, 10], "from": 0, "to": 4, "up": 90},
              size=(80, 60))
    grid = nav_grid(a, state(a).rules, "wheeled", 1.0)
    straight = grid.distance((10, 20), (40, 20))
    assert straight > 40.0                     # the 30 cm straight line crosses the cliff
    flying = nav_grid(a, state(a).rules, "hover", 1.0)
    assert round(flying.distance((10, 20), (40, 20)), 2) == 30.0    # R11 fliers fly up cliffs


def test_every_plan_is_legal_by_the_movement_rules():
    for locomotion in LOCOMOTIONS:
        for intention in ("close_in", "keep_range", "flank", "retreat", "evade", "hold", "ram"):
            s, me, foe = duel(locomotion, foe=(30, 40), min_move=2 if locomotion == "flier" else 0)
            p = plan(s, me, foe, Intention(move=intention))
            assert not isinstance(preview_move(s, p.move), Refusal), (locomotion, intention)


def test_deadline_in_the_past_gives_the_safe_stay_move():
    # the time limit: no search at all, and the robot stays where it is
    s, me, foe = duel("walker")
    p = plan_move(s, me, Intention(move="close_in"), foe, time.perf_counter() - 1.0)
    assert p.timed_out and p.move == Move("a", ()) and p.previews == 0
