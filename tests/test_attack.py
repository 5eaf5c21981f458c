"""One attack on one bot: to-hit, hit count, special damage, armour (D5-D7, D25-D27, R5, D22)."""
from __future__ import annotations

import pytest
from test_shooting_world import bot, card, events_of, weapon, world

from bottisota.core.errors import DiceExhausted
from bottisota.engine.shooting.attack import attack


def duel(gun, dice, target_kw=None, shooter_kw=None, rules=None):
    shooter = bot("a", 20, 30, 90, gun, player="red", **(shooter_kw or {}))
    target = bot("b", 40, 30, 270, player="blue", **(target_kw or {}))
    return world([shooter, target], dice=dice, rules=rules), shooter, target


def test_a_hit_deals_two_hits_and_one_failed_armour_test_is_one_damage():  # D5 D6
    state, a, b = duel(weapon("Twin gun", to_hit=4, hits=2), [5, 6, 2])
    hit, events = attack(state, a, a.card.weapons[0], b)
    assert hit is True
    assert [e["roll"] for e in events_of(events, "armour_test")] == [6, 2]
    assert b.damage == 1 and not b.destroyed
    assert state.dice.used == 3


def test_a_roll_below_to_hit_misses_and_rolls_nothing_more():  # D5
    state, a, b = duel(weapon(to_hit=4), [3])
    hit, events = attack(state, a, a.card.weapons[0], b)
    assert hit is False
    assert [e["type"] for e in events] == ["to_hit"]
    assert b.damage == 0 and state.dice.used == 1


def test_natural_one_misses_even_with_a_big_bonus():  # R5 D5
    state, a, b = duel(weapon(to_hit=2), [1])
    hit, _ = attack(state, a, a.card.weapons[0], b, hit_mod=3)
    assert hit is False


def test_natural_six_hits_even_with_leaflets_and_a_high_need():  # R5 D5 D26
    state, a, b = duel(weapon(to_hit=6), [6, 4], shooter_kw={"leaflet": 3})
    hit, events = attack(state, a, a.card.weapons[0], b)
    assert hit is True
    assert events[0]["mod"] == -3 and events[0]["roll"] == 6


def test_leaflets_lower_the_to_hit_roll():  # D26
    state, a, b = duel(weapon(to_hit=4), [5], shooter_kw={"leaflet": 2})
    hit, events = attack(state, a, a.card.weapons[0], b)
    assert hit is False and events[0]["mod"] == -2


def test_d6_hits_are_rolled_after_the_to_hit_and_before_armour():  # D6 formats.md dice order
    state, a, b = duel(weapon(to_hit=4, hits="d6"), [4, 3, 1, 1, 6])
    hit, events = attack(state, a, a.card.weapons[0], b)
    assert hit is True
    assert events_of(events, "hits")[0]["amount"] == 3
    assert [e["passed"] for e in events_of(events, "armour_test")] == [False, False, True]
    assert b.damage == 2 and state.dice.used == 5


def test_weapon_armour_mod_is_added_to_the_armour_test():  # D6 formats.md armour_mod
    state, a, b = duel(weapon(to_hit=4, armour_mod=-1), [4, 4])
    hit, events = attack(state, a, a.card.weapons[0], b)
    test = events_of(events, "armour_test")[0]
    assert (test["roll"], test["mod"], test["passed"]) == (4, -1, False)
    assert b.damage == 1


def test_situation_armour_mod_helps_the_target():  # R34 blast +1 on armour
    state, a, b = duel(weapon(to_hit=4), [5, 3])
    hit, events = attack(state, a, a.card.weapons[0], b, armour_mod=1)
    assert events_of(events, "armour_test")[0]["mod"] == 1
    assert events_of(events, "armour_test")[0]["passed"] is True
    assert b.damage == 0


def test_rust_applies_per_hit_before_armour_and_is_capped():  # D25 D27
    state, a, b = duel(weapon("Rust gun", to_hit=4, hits=2, effect="rust"), [4, 6, 5],
                       target_kw={"rust": 2})
    hit, events = attack(state, a, a.card.weapons[0], b)
    kinds = [e["type"] for e in events]
    assert kinds == ["to_hit", "hits", "status", "armour_test", "armour_test", "damaged"]
    assert events_of(events, "status")[0]["rust"] == 3     # 2 + 2 capped at rust_max 3
    assert b.rust == 3
    # armour tests at -3: a 6 passes (R5), a 5 becomes 2 < 4 and fails
    assert [e["passed"] for e in events_of(events, "armour_test")] == [True, False]
    assert b.damage == 1


def test_leaflet_applies_one_step_per_hit_delivered():  # D26 D27
    state, a, b = duel(weapon("Leaflets", to_hit=4, hits=2, effect="leaflet"), [4, 6, 6])
    attack(state, a, a.card.weapons[0], b)
    assert b.leaflet == 2 and b.damage == 0


def test_special_damage_is_not_applied_on_a_miss():  # D27
    state, a, b = duel(weapon("Rust gun", to_hit=4, effect="rust"), [2])
    attack(state, a, a.card.weapons[0], b)
    assert b.rust == 0


def test_a_kill_scores_for_the_shooter():  # D7 D22
    state, a, b = duel(weapon(to_hit=4), [4, 1], target_kw={"bot_card": card(structure=1)})
    attack(state, a, a.card.weapons[0], b)
    assert b.destroyed
    assert state.scores == {"red": 5, "blue": 0}
    assert state.kills == {"red": 1}


def test_kill_credit_can_go_to_another_bot():  # D22
    state, a, b = duel(weapon(to_hit=4), [4, 1], target_kw={"bot_card": card(structure=1)})
    hit, events = attack(state, None, a.card.weapons[0], b, by="a")
    assert events_of(events, "destroyed")[0]["by"] == "a"
    assert state.scores["red"] == 5


def test_an_attack_without_shooter_uses_only_the_situation_modifier():  # D5 (mines)
    state, a, b = duel(weapon(to_hit=4), [4], shooter_kw={"leaflet": 3})
    hit, events = attack(state, None, a.card.weapons[0], b, hit_mod=-1)
    assert hit is False and events[0]["mod"] == -1 and events[0]["bot"] is None


def test_to_hit_and_hits_can_be_overridden():  # D21
    state, a, b = duel(weapon(to_hit=6, hits=1), [2, 3, 1, 1, 1])
    hit, events = attack(state, a, a.card.weapons[0], b, to_hit=2, hits="d6")
    assert hit is True and events_of(events, "hits")[0]["amount"] == 3 and b.damage == 3


def test_armour_tests_stop_once_the_target_is_destroyed():  # D7
    state, a, b = duel(weapon(to_hit=4, hits=3), [4, 1, 1],
                       target_kw={"bot_card": card(structure=2)})
    attack(state, a, a.card.weapons[0], b)
    assert b.destroyed and state.dice.used == 3


def test_forced_dice_running_out_is_an_error():  # D8
    state, a, b = duel(weapon(to_hit=4, hits=2), [4, 4])
    with pytest.raises(DiceExhausted):
        attack(state, a, a.card.weapons[0], b)
