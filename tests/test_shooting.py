"""Shooting: legality with reasons and resolution with forced dice
(R7, R18-R25, R28, R29, R34, R38, R47, R49, R56, D14, D15, D19, D22, D32)."""
from __future__ import annotations

import pytest
from test_shooting_world import events_of

from bottisota.core.actions import Shoot, ShotOrder
from bottisota.engine.shooting.shots import (
    can_fire,
    check_shoot,
    resolve_shoot,
    spray_members,
    weapons_that_bear,
)
from bottisota.engine.shooting.targeting import Pose
from tests import builders as B


def shoot(state, shooter, *orders):
    return resolve_shoot(state, Shoot(shooter, tuple(ShotOrder(w, t) for w, t in orders)))


def plain(bot_id, at, facing=0.0, *weapons, player=None, **kw):
    return B.bot(bot_id, player or bot_id, at, facing, B.card(weapons=list(weapons)), **kw)


# --- the two shared example scenarios, as unit tests -------------------------------

def test_scenario_shoot_gun_hits():  # D5 D6 (scenarios/shoot_gun_hits.yaml)
    arena = B.arena(size=(80, 60))
    gunner = B.bot("gunner", "red", (20, 30), 45, B.card(locomotion="walker", move=8, armour=4,
                   structure=6, weapons=[{"name": "Twin gun", "kind": "gun", "mount": "nose",
                                          "range": 36, "to_hit": 4, "hits": 2}]))
    target = B.bot("target", "blue", (40, 50), 180, B.card(locomotion="wheeled", move=10,
                   turn=3, armour=4, structure=6, weapons=[]))
    state = B.state(arena, gunner, target, dice=[5, 6, 2])
    events = shoot(state, "gunner", ("Twin gun", "target"))
    assert state.bots["target"].damage == 1 and not state.bots["target"].destroyed
    assert [e["type"] for e in events] == ["shot", "to_hit", "hits", "armour_test",
                                           "armour_test", "damaged"]
    assert state.dice.used == 3


def test_scenario_shoot_wall_blocks():  # R22 (scenarios/shoot_wall_blocks.yaml)
    arena = B.arena({"type": "wall", "polygon": [[38, 20], [42, 20], [42, 40], [38, 40]]},
                    size=(80, 60))
    gunner = B.bot("gunner", "red", (20, 30), 90, B.card(weapons=[
        {"name": "Gun", "kind": "gun", "mount": "turret", "range": 50, "to_hit": 4, "hits": 1}]))
    target = B.bot("target", "blue", (60, 30), 270, B.card())
    state = B.state(arena, gunner, target, dice=[6])
    refusal = shoot(state, "gunner", ("Gun", "target"))
    assert str(refusal) == "R22: wall #0 blocks the line at (38.0, 30.0)"
    assert refusal.at == pytest.approx((38.0, 30.0))
    assert state.dice.used == 0 and state.bots["target"].damage == 0


# --- arcs and range -------------------------------------------------------------------

NOSE = B.weapon("Nose cannon", mount="nose", range=30)
TURRET = B.weapon("Turret", mount="turret", range=30)


def test_nose_weapons_refuse_targets_off_the_front_arc():  # R19
    state = B.state(B.arena(), plain("a", (20, 30), 0, NOSE), plain("b", (40, 40)))
    assert str(can_fire(state, "a", "Nose cannon", "b")) == \
        "R19: target is 63° off the nose; nose weapons reach 45°"


def test_the_nose_arc_boundary_is_inside_it():  # R19
    state = B.state(B.arena(), plain("a", (20, 30), 0, NOSE), plain("b", (30, 40)),
                    plain("c", (10, 40)))
    assert can_fire(state, "a", "Nose cannon", "b") is None     # exactly 45° right
    assert can_fire(state, "a", "Nose cannon", "c") is None     # exactly 45° left


def test_turret_weapons_fire_any_way():  # R20
    state = B.state(B.arena(), plain("a", (20, 30), 0, TURRET), plain("b", (20, 10)))
    assert can_fire(state, "a", "Turret", "b") is None


def test_range_is_centre_to_centre_and_refused_beyond():  # R18 D14
    state = B.state(B.arena(), plain("a", (10, 10), 0, NOSE), plain("b", (10, 51.2)),
                    plain("c", (10, 40)))
    assert str(can_fire(state, "a", "Nose cannon", "b")) == \
        "R18: target is 41.2 cm away; Nose cannon reaches 30 cm"
    assert can_fire(state, "a", "Nose cannon", "c") is None    # exactly 30 cm


def test_overwatch_fire_reaches_thirty_cm_and_allows_melee():  # R23
    long_gun = B.weapon("Long gun", range=50)
    claw = B.weapon("Claw", kind="melee", range=0)
    state = B.state(B.arena(), plain("w", (10, 30), 90, long_gun, claw), plain("m", (44, 30)),
                    plain("n", (10, 32.05)))
    assert str(can_fire(state, "w", "Long gun", "m", overwatch=True)) == \
        "R23: target is 34.0 cm away; overwatch fire reaches 30 cm"
    assert can_fire(state, "w", "Long gun", "m") is None
    assert weapons_that_bear(state, "w", "n", overwatch=True) == ["Long gun", "Claw"]
    assert weapons_that_bear(state, "w", "m", overwatch=True) == []


def test_poses_test_a_mover_at_a_point_of_its_path():  # R23 (game.py's overwatch)
    state = B.state(B.arena(), plain("w", (10, 30), 90, NOSE), plain("m", (60, 30)))
    assert can_fire(state, "w", "Nose cannon", "m", overwatch=True) is not None
    assert can_fire(state, "w", "Nose cannon", "m", overwatch=True,
                    target_pose=Pose(35, 30, 0, 270)) is None
    assert str(can_fire(state, "w", "Nose cannon", "m", shooter_pose=(10, 30, 0, 0),
                        target_pose=(35, 30, 0, 270))) == \
        "R19: target is 90° off the nose; nose weapons reach 45°"


# --- sight ------------------------------------------------------------------------------

def test_another_bot_on_the_line_blocks_a_gun():  # R22
    state = B.state(B.arena(), plain("a", (10, 30), 90, TURRET), plain("c", (20, 30)),
                    plain("b", (35, 30)))
    assert (
        str(can_fire(state, "a", "Turret", "b")) == "R22: bot 'c' blocks the line at (19.0, 30.0)"
    )


def test_a_closed_door_blocks_and_a_touched_door_is_open():  # R22 R47
    door = {"type": "door", "id": "gate", "rect": [22, 20, 1, 20]}
    state = B.state(B.arena(door), plain("a", (10, 30), 90, TURRET), plain("b", (35, 30)))
    assert (
        str(can_fire(state, "a", "Turret", "b"))
        == "R22: door 'gate' blocks the line at (22.0, 30.0)"
    )
    state = B.state(B.arena(door), plain("a", (10, 30), 90, TURRET), plain("b", (35, 30)),
                    plain("opener", (24.05, 38)))
    assert can_fire(state, "a", "Turret", "b") is None


def test_shooting_down_from_a_platform_over_a_low_wall():  # R38 D15
    # the line runs from the shooter's top (4 + 2 = 6) to the target's middle (1):
    # over the wall at x = 25 it is 3.5 cm high
    plat = {"type": "platform", "rect": [0, 20, 20, 20], "height": 4}
    low = {"type": "wall", "id": "low", "rect": [25, 25, 1, 10], "height": 3}
    tall = {"type": "wall", "id": "tall", "rect": [25, 25, 1, 10], "height": 4}
    state = B.state(B.arena(plat, low), plain("a", (10, 30), 90, TURRET), plain("b", (40, 30)))
    assert state.bots["a"].z == 4.0
    assert can_fire(state, "a", "Turret", "b") is None
    state = B.state(B.arena(plat, tall), plain("a", (10, 30), 90, TURRET), plain("b", (40, 30)))
    assert (
        str(can_fire(state, "a", "Turret", "b"))
        == "R38: wall 'tall' blocks the line at (25.0, 30.0)"
    )


def test_a_platform_edge_hides_a_bot_on_it_from_below():  # R38 D15
    # from the floor (top 2) to the middle of a bot on a 4 cm platform (5): at the
    # edge x = 30 the line is 4.4 cm high for b at 35, but 3.5 for c at 50
    plat = {"type": "platform", "id": "deck", "rect": [30, 20, 30, 20], "height": 4}
    state = B.state(B.arena(plat), plain("a", (10, 30), 90, TURRET), plain("b", (35, 30)),
                    plain("c", (50, 36)))
    assert can_fire(state, "a", "Turret", "b") is None
    far = B.weapon("Far", mount="turret", range=50)
    state = B.state(B.arena(plat), plain("a", (10, 30), 90, far), plain("c", (50, 30)))
    refusal = can_fire(state, "a", "Far", "c")
    assert refusal.rule == "R38" and refusal.at == pytest.approx((30.0, 30.0), abs=0.01)


# --- melee -------------------------------------------------------------------------------

CLAW = B.weapon("Claw", kind="melee", mount="nose", range=0, to_hit=3, hits=2)


def test_melee_needs_base_contact_within_the_tolerance():  # R25 D4
    state = B.state(B.arena(), plain("a", (10, 30), 90, CLAW), plain("b", (12.05, 30)),
                    dice=[3, 4, 4])
    events = shoot(state, "a", ("Claw", "b"))
    assert events_of(events, "to_hit")[0]["hit"] is True
    state = B.state(B.arena(), plain("a", (10, 30), 90, CLAW), plain("b", (12.06, 30)))
    assert str(can_fire(state, "a", "Claw", "b")) == \
        "R25: b is 0.1 cm from base contact; melee needs bases touching"


def test_melee_refused_across_a_cliff_but_allowed_on_a_ramp():  # R25
    plat = {"type": "platform", "rect": [11, 20, 20, 20], "height": 4}
    state = B.state(B.arena(plat), plain("a", (10, 30), 90, CLAW), plain("b", (12, 30)))
    assert state.bots["b"].z == 4.0
    assert str(can_fire(state, "a", "Claw", "b")) == \
        "R25: b is on another level (+4.0 cm) with no stairs or ramp between"
    # a steep ramp from x = 10 (z 0) to x = 12 (z 4): b stands on it 3 cm above a
    ramp = {"type": "ramp", "rect": [10, 20, 2, 20], "from": 0, "to": 4, "up": 90}
    top = {"type": "platform", "rect": [12, 20, 10, 20], "height": 4}
    state = B.state(B.arena(top, ramp), plain("a", (9.5, 30), 90, CLAW), plain("b", (11.5, 30)))
    assert (state.bots["a"].z, state.bots["b"].z) == (0.0, pytest.approx(3.0))
    assert can_fire(state, "a", "Claw", "b") is None


# --- whole Shoot actions ---------------------------------------------------------------

def test_nobody_shoots_in_the_first_round():  # R7
    state = B.state(B.arena(), plain("a", (10, 30), 90, TURRET), plain("b", (30, 30)), round=1)
    assert str(check_shoot(state, Shoot("a", (ShotOrder("Turret", "b"),)))) == \
        "R7: nobody may shoot in the first round"


def test_a_new_bot_may_not_shoot():  # R56
    state = B.state(B.arena(), plain("a", (10, 30), 90, TURRET), plain("b", (30, 30)))
    state.bots["a"].new = True
    assert check_shoot(state, Shoot("a", (ShotOrder("Turret", "b"),))).rule == "R56"


def test_each_weapon_fires_at_most_once_and_at_a_real_target():  # D19
    state = B.state(B.arena(), plain("a", (10, 30), 90, TURRET), plain("b", (30, 30)))
    twice = Shoot("a", (ShotOrder("Turret", "b"), ShotOrder("Turret", "b")))
    assert str(check_shoot(state, twice)) == "D19: Turret may fire only once in a shooting phase"
    assert str(check_shoot(state, Shoot("a", (ShotOrder("Turret", "zz"),)))) == \
        "D19: there is no bot 'zz'"
    assert str(check_shoot(state, Shoot("a", (ShotOrder("Turret", "a"),)))) == \
        "D19: a cannot shoot itself"
    assert check_shoot(state, Shoot("a", (ShotOrder("Laser", "b"),))).rule == "R18"


def test_mines_are_not_shot():  # R21
    mine = B.weapon("Mine", kind="mine", range=0)
    state = B.state(B.arena(), plain("a", (10, 30), 90, mine), plain("b", (30, 30)))
    assert str(check_shoot(state, Shoot("a", (ShotOrder("Mine", "b"),)))) == \
        "R21: Mine is a mine: mines are dropped during the move, not shot"


def test_ammo_is_used_per_shot_and_an_empty_weapon_is_refused():  # R49
    gun = B.weapon("Rifle", ammo=1)
    state = B.state(B.arena(), plain("a", (10, 30), 90, gun), plain("b", (30, 30)), dice=[2])
    events = shoot(state, "a", ("Rifle", "b"))
    assert events_of(events, "ammo") == [{"type": "ammo", "bot": "a", "weapon": "Rifle", "left": 0}]
    assert state.bots["a"].ammo["Rifle"] == 0
    assert str(shoot(state, "a", ("Rifle", "b"))) == \
        "R49: Rifle is out of ammo; reload at a service point"
    assert state.dice.used == 1


def test_several_weapons_roll_in_the_order_given():  # D19 formats.md dice order
    g1, g2 = B.weapon("G1", to_hit=4), B.weapon("G2", to_hit=5)
    state = B.state(B.arena(), plain("a", (10, 30), 90, g1, g2), plain("b", (30, 30)),
                    plain("c", (10, 50)), dice=[5, 3, 6, 6])
    events = shoot(state, "a", ("G2", "c"), ("G1", "b"))
    assert [(e["weapon"], e["target"], e["roll"]) for e in events_of(events, "to_hit")] == \
        [("G2", "c", 5), ("G1", "b", 6)]
    assert state.bots["c"].damage == 1 and state.bots["b"].damage == 0


def test_a_kill_scores_five_for_the_shooters_player():  # D7 D22
    state = B.state(B.arena(), plain("a", (10, 30), 90, TURRET, player="red"),
                    B.bot("b", "blue", (30, 30), 0, B.card(structure=1)), dice=[4, 1])
    events = shoot(state, "a", ("Turret", "b"))
    assert events_of(events, "destroyed")[0]["by"] == "a"
    assert state.scores == {"red": 5, "blue": 0}


def test_a_second_shot_at_a_bot_already_destroyed_rolls_nothing():  # D7 R55
    g1, g2 = B.weapon("G1"), B.weapon("G2")
    state = B.state(B.arena(), plain("a", (10, 30), 90, g1, g2),
                    B.bot("b", "b", (30, 30), 0, B.card(structure=1)), dice=[4, 1])
    events = shoot(state, "a", ("G1", "b"), ("G2", "b"))
    assert events_of(events, "shot_skipped")[0]["weapon"] == "G2"
    assert state.dice.used == 2


# --- sprays --------------------------------------------------------------------------------

SPRAY = B.weapon("Spray", kind="spray", mount="nose", range=30, to_hit=4)


def test_a_spray_rolls_for_every_bot_whose_base_the_line_touches():  # R28 D4
    # e 1.05 cm off the line (in), c 0.8 (in), d 1.06 (out); nearest first to the shooter
    state = B.state(B.arena(), plain("s", (10, 30), 90, SPRAY), plain("e", (15, 31.05)),
                    plain("c", (20, 30.8)), plain("d", (25, 28.94)), plain("t", (30, 30)),
                    dice=[4, 5, 3, 6, 1])
    assert [m.bot for m in spray_members(state, state.bots["s"], (30, 30))] == ["e", "c", "t"]
    events = shoot(state, "s", ("Spray", "t"))
    assert [(e["target"], e["roll"], e["hit"]) for e in events_of(events, "to_hit")] == \
        [("e", 4, True), ("c", 3, False), ("t", 6, True)]
    assert [state.bots[i].damage for i in ("e", "c", "d", "t")] == [0, 0, 0, 1]


def test_a_spray_does_not_shoot_through_walls():  # R22 R28
    state = B.state(B.arena({"type": "wall", "id": "w", "rect": [20, 20, 1, 20]}),
                    plain("s", (10, 30), 90, SPRAY), plain("t", (30, 30)))
    assert (
        str(can_fire(state, "s", "Spray", "t")) == "R22: wall 'w' blocks the line at (20.0, 30.0)"
    )


# --- explosives and beams ------------------------------------------------------------------

def test_an_explosive_shot_blasts_at_the_target_centre():  # R34 D32
    shell = B.weapon("Shell", to_hit=4, explosive=True)
    state = B.state(B.arena(), plain("s", (10, 30), 90, shell), plain("t", (30, 30)),
                    plain("n", (33, 31)), dice=[4, 2, 5, 3])
    events = shoot(state, "s", ("Shell", "t"))
    blast = events_of(events, "blast")[0]
    assert (blast["x"], blast["y"], blast["members"]) == (30.0, 30.0, ["t", "n"])
    assert [(e["target"], e["mod"], e["hit"]) for e in events_of(events, "to_hit")] == \
        [("t", 0, True), ("n", -1, True)]
    assert [(e["bot"], e["mod"]) for e in events_of(events, "armour_test")] == [("t", 0), ("n", 1)]
    assert state.bots["t"].damage == 1 and state.bots["n"].damage == 0


def test_push_and_pull_are_handed_to_the_beams_rules(monkeypatch):  # R29
    import bottisota.engine.shooting.shots as beams  # shots calls resolve_beams by this name
    seen = []
    monkeypatch.setattr(beams, "resolve_beams",
                        lambda state, shooter, orders: seen.append(
                            (shooter.id, [(w.name, t.id) for w, t in orders])) or [])
    push = B.weapon("Pusher", kind="push", strength=5, ammo=2)
    state = B.state(B.arena(), plain("s", (10, 30), 90, push), plain("t", (20, 30)))
    events = shoot(state, "s", ("Pusher", "t"))
    assert seen == [("s", [("Pusher", "t")])]
    assert events_of(events, "ammo")[0]["left"] == 1
