"""Movement by locomotion: turns, costs, budgets, refusals (R7-R15, R56, D30, D34)."""
from __future__ import annotations

import pytest

from bottisota.core.actions import Back, Forward, Loop, Move, Refusal, Strafe, Turn
from bottisota.engine.movement.moves import commit_move, preview_move
from tests.builders import arena, bot, card, state


def tank(**kw):
    return card(locomotion="tracked", move=14, turn=4, armour=3, structure=8, **kw)


def car(**kw):
    return card(locomotion="wheeled", move=12, turn=3, armour=4, structure=6, **kw)


def flier(**kw):
    base = dict(locomotion="flier", move=14, turn=2, armour=4, structure=6)
    base.update(kw)
    return card(**base)


def one(card_value, at=(20, 20), facing=0.0, dice=(), feats=(), **kw):
    return state(arena(*feats), bot("a", "red", at, facing, card_value, **kw), dice=list(dice))


def go(s, *steps, bot_id="a"):
    return commit_move(s, Move(bot_id, tuple(steps)))


def pose(s, bot_id="a"):
    b = s.bots[bot_id]
    return (round(b.x, 2), round(b.y, 2), round(b.facing, 1))


# --- the shared scenario cases ------------------------------------------------------

def test_tracked_first_turn_free_later_turn_costs_turn_cm():  # R9 move_tracked_turns.yaml
    s = one(tank(), at=(20, 20), facing=0, dice=[1])
    r = go(s, Turn(-45), Forward(4), Turn(-45), Forward(6))
    assert not isinstance(r, Refusal)
    assert (round(r.x, 4), round(r.y, 4), round(r.facing, 1)) == (11.1716, 22.8284, 270.0)
    assert r.spent == pytest.approx(14.0)
    assert r.turns_used == 2
    assert s.bots["a"].moved == pytest.approx(14.0)
    assert s.dice.used == 0


def test_tracked_turn_beyond_the_movement_is_refused():  # R9
    s = one(tank(), dice=[])
    r = go(s, Turn(-45), Forward(6), Turn(-45), Forward(5))
    assert isinstance(r, Refusal) and r.rule == "R9" and r.step == 3
    assert pose(s) == (20, 20, 0)


# --- wheeled (R8) -------------------------------------------------------------------

def test_wheeled_free_first_turn_then_needs_turn_cm_between_turns():  # R8
    s = one(car())
    r = go(s, Turn(45), Forward(2), Turn(45))
    assert isinstance(r, Refusal) and r.rule == "R8" and r.step == 2
    assert "3 cm" in r.message


def test_wheeled_turns_again_after_moving_its_turn_value():  # R8
    s = one(car())
    r = go(s, Turn(45), Forward(3), Turn(45), Forward(2))
    assert not isinstance(r, Refusal)
    assert pose(s) == (24.12, 22.12, 90.0)
    assert r.spent == pytest.approx(5.0)


def test_wheeled_turn_credits_do_not_stack():  # R8
    s = one(car())
    r = go(s, Forward(6), Turn(90))
    assert isinstance(r, Refusal) and r.rule == "R8"
    s = one(car())
    assert not isinstance(go(s, Forward(6), Turn(45), Forward(3), Turn(45)), Refusal)
    assert pose(s) == (22.12, 28.12, 90.0)


def test_wheeled_ninety_degrees_at_the_start_needs_a_credit():  # R8
    r = go(one(car()), Turn(90))
    assert isinstance(r, Refusal) and r.rule == "R8" and r.step == 0


def test_wheeled_turns_only_in_steps_of_45():  # R8
    r = go(one(car()), Turn(30))
    assert isinstance(r, Refusal) and r.rule == "R8" and "45" in r.message


def test_wheeled_backward_costs_double_and_counts_for_turns():  # R8
    s = one(car())
    r = go(s, Back(3), Turn(45), Forward(2))
    assert not isinstance(r, Refusal)
    assert pose(s) == (21.41, 18.41, 45.0)
    assert r.spent == pytest.approx(8.0)
    assert [p.multiplier for p in r.pieces if p.kind == "back"] == [2.0]


def test_wheeled_cannot_strafe():  # R8
    r = go(one(car()), Strafe(90, 2))
    assert isinstance(r, Refusal) and r.rule == "R8"


# --- walkers (R10) and hoverers (R15) ------------------------------------------------

def test_walker_turns_freely_and_pays_double_off_the_facing():  # R10
    s = one(card(move=20))
    r = go(s, Turn(30), Forward(4), Strafe(90, 2), Back(1))
    assert not isinstance(r, Refusal)
    assert r.spent == pytest.approx(4 + 4 + 2)
    assert pose(s) == (23.23, 21.6, 30.0)


def test_walker_strafe_straight_ahead_costs_single():  # R10
    s = one(card(move=8))
    r = go(s, Strafe(0, 5))
    assert r.spent == pytest.approx(5.0) and pose(s) == (20, 25, 0)


def test_hoverer_moves_any_way_at_single_cost():  # R15
    s = one(card(locomotion="hover", move=10))
    r = go(s, Strafe(90, 4), Back(3), Turn(17))
    assert r.spent == pytest.approx(7.0)
    assert pose(s) == (24, 17, 17.0)


def test_spending_more_than_the_movement_is_refused():  # R10
    s = one(card(move=8))
    r = go(s, Forward(5), Strafe(90, 2))
    assert isinstance(r, Refusal) and r.rule == "R10" and r.step == 1
    assert pose(s) == (20, 20, 0) and s.bots["a"].moved == 0


def test_movement_already_spent_this_turn_counts():  # R10
    s = one(card(move=8), moved=5)
    assert isinstance(go(s, Forward(4)), Refusal)
    r = go(s, Forward(3))
    assert r.left == pytest.approx(0.0) and s.bots["a"].moved == pytest.approx(8.0)


def test_hoverer_overspend_cites_r15():  # R15
    r = go(one(card(locomotion="hover", move=5)), Forward(6))
    assert isinstance(r, Refusal) and r.rule == "R15"


# --- fliers (R11-R14, D34) -------------------------------------------------------------

def test_flier_cannot_reverse_or_strafe():  # R12
    r = go(one(flier()), Back(2))
    assert isinstance(r, Refusal) and r.rule == "R12"
    r = go(one(flier()), Strafe(90, 2))
    assert isinstance(r, Refusal) and r.rule == "R12"


def test_flier_turns_like_a_wheeled_bot():  # R12
    s = one(flier())
    r = go(s, Turn(45), Forward(1), Turn(45))
    assert isinstance(r, Refusal) and r.rule == "R12"
    r = go(s, Turn(45), Forward(2), Turn(45), Forward(8))
    assert not isinstance(r, Refusal) and pose(s) == (29.41, 21.41, 90.0)


def test_flier_below_its_minimum_falls_and_is_destroyed():  # R12 D34
    s = one(flier(min_move=6))
    r = go(s, Forward(4))
    assert not isinstance(r, Refusal)
    assert s.bots["a"].destroyed and r.destroyed
    assert any(e["type"] == "fall" and e.get("cause") == "min_move" for e in r.events)
    p = preview_move(one(flier(min_move=6)), Move("a", (Forward(4),)))
    assert p.destroyed and p.ended == "min_move"


def test_flier_docked_at_a_service_point_does_not_fall():  # R51 D34
    s = one(flier(min_move=6), feats=[{"type": "service", "circle": [20, 24, 3]}])
    r = go(s, Forward(4))
    assert not s.bots["a"].destroyed and pose(s) == (20, 24, 0)
    assert any(e["type"] == "docked" for e in r.events)


def test_flier_loop_comes_back_turned_round():  # R14
    s = one(flier(), at=(20, 20), facing=90)
    r = go(s, Loop())
    assert not isinstance(r, Refusal)
    assert pose(s) == (20, 20, 270.0)
    assert r.spent == pytest.approx(12.0)
    assert [(round(p.x, 2), round(p.facing)) for p in r.path] == [
        (20, 90), (22, 90), (22, 270), (20, 270)]


def test_flier_loop_needs_free_space_ahead():  # R14
    s = one(flier(), at=(20, 20), facing=90, feats=[{"type": "wall", "rect": [24.5, 10, 1, 20]}])
    r = go(s, Loop())
    assert isinstance(r, Refusal) and r.rule == "R14" and "wall" in r.message
    s = one(flier(), at=(20, 20), facing=90, feats=[{"type": "platform", "rect": [24.5, 10, 5, 20],
                                                        "height": 3}])
    r = go(s, Loop())
    assert isinstance(r, Refusal) and r.rule == "R14" and "higher floor" in r.message


def test_only_fliers_loop():  # R14
    r = go(one(card()), Loop())
    assert isinstance(r, Refusal) and r.rule == "R14"


def test_hoverer_passes_over_a_bot_but_may_not_end_on_it():  # R11
    a = arena()
    s = state(a, bot("a", "red", (20, 20), 90, card(locomotion="hover", move=10)),
              bot("b", "blue", (25, 20), 0))
    r = go(s, Forward(10))
    assert not isinstance(r, Refusal) and pose(s) == (30, 20, 90)
    s = state(a, bot("a", "red", (20, 20), 90, card(locomotion="hover", move=10)),
              bot("b", "blue", (25, 20), 0))
    r = go(s, Forward(4))
    assert isinstance(r, Refusal) and r.rule == "R11" and "b" in r.message
    assert pose(s) == (20, 20, 90)


# --- first round and new bots (R7, R56) ------------------------------------------------

def test_no_ramming_walls_in_the_first_round():  # R7
    s = state(arena({"type": "wall", "rect": [25, 10, 2, 20]}),
              bot("a", "red", (20, 20), 90), round=1)
    r = go(s, Forward(6))
    assert isinstance(r, Refusal) and r.rule == "R7" and "wall" in r.message
    assert r.at == pytest.approx((24.0, 20.0))


def test_no_ramming_bots_in_the_first_round():  # R7
    s = state(arena(), bot("a", "red", (20, 20), 90), bot("b", "blue", (25, 20)), round=1)
    r = go(s, Forward(6))
    assert isinstance(r, Refusal) and r.rule == "R7" and "b" in r.message


def test_new_bot_may_not_push_other_bots():  # R56
    s = state(arena(), bot("a", "red", (20, 20), 90), bot("b", "blue", (25, 20)))
    s.bots["a"].new = True
    r = go(s, Forward(6))
    assert isinstance(r, Refusal) and r.rule == "R56"
    assert s.dice.used == 0


def test_leaving_the_table_is_refused():  # R2
    s = one(card(), at=(20, 56), facing=0)
    r = go(s, Forward(4))
    assert isinstance(r, Refusal) and r.rule == "R2"
    assert not isinstance(go(s, Forward(3)), Refusal) and pose(s) == (20, 59, 0)


def test_negative_distance_is_refused():  # D30
    r = go(one(card()), Forward(-1))
    assert isinstance(r, Refusal) and r.rule == "D30"


def test_refused_move_changes_nothing_and_rolls_nothing():  # D30
    s = state(arena({"type": "wall", "rect": [25, 10, 2, 20]}),
              bot("a", "red", (20, 20), 90, card(move=6)), dice=[3, 3, 3])
    before = (s.bots["a"].x, s.bots["a"].y, s.bots["a"].moved, s.dice.used)
    r = go(s, Forward(2), Turn(180), Forward(5))
    assert isinstance(r, Refusal) and r.step == 2
    assert (s.bots["a"].x, s.bots["a"].y, s.bots["a"].moved, s.dice.used) == before


def test_preview_rolls_nothing_and_matches_commit():  # D30
    s = one(card(move=20))
    steps = (Turn(30), Forward(4), Strafe(-90, 2), Back(1))
    p = preview_move(s, Move("a", steps))
    assert pose(s) == (20, 20, 0) and s.dice.used == 0
    c = go(s, *steps)
    assert p.path == c.path and (p.x, p.y, p.facing) == (c.x, c.y, c.facing)
