"""Blasts: who is in the marker, who is safe, and the dice order (R34, R35, D12, D13, D32)."""
from __future__ import annotations

from test_shooting_world import bot, events_of, wall, weapon, world

from bottisota.engine.shooting.blast import blast_members, resolve_blast

BOMB = weapon("Bomb", kind="gun", to_hit=4, hits=1, explosive=True)


def test_members_touch_the_marker_nearest_first_ties_by_id():  # R34 D12
    # marker radius 3 + base radius 1 + tolerance 0.05 = 4.05 from the centre
    state = world([bot("t", 30, 30), bot("c", 26, 30), bot("b", 34, 30),
                   bot("near", 30, 33.0), bot("out", 30, 25.94), bot("far", 40, 30)])
    members = blast_members(state, (30, 30), 0.0)
    assert [m.bot for m in members] == ["t", "near", "b", "c"]
    assert members[0].centre and (members[0].hit_mod, members[0].armour_mod) == (0, 0)
    assert [(m.hit_mod, m.armour_mod) for m in members[1:]] == [(-1, 1)] * 3
    assert [round(m.distance, 2) for m in members] == [0.0, 3.0, 4.0, 4.0]


def test_the_marker_reach_includes_the_contact_tolerance():  # D4 D12
    state = world([bot("t", 30, 30), bot("edge", 34.05, 30), bot("past", 30, 25.94)])
    assert [m.bot for m in blast_members(state, (30, 30), 0.0)] == ["t", "edge"]


def test_the_centre_bot_is_the_one_whose_base_touches_the_centre_point():  # R34
    state = world([bot("a", 31.0, 30), bot("b", 28.5, 30)])
    members = blast_members(state, (30, 30), 0.0)
    assert [(m.bot, m.centre) for m in members] == [("a", True), ("b", False)]


def test_no_centre_bot_when_the_centre_is_on_empty_floor():  # R34
    state = world([bot("a", 32.5, 30)])
    members = blast_members(state, (30, 30), 0.0)
    assert [(m.bot, m.centre, m.hit_mod) for m in members] == [("a", False, -1)]


def test_a_wall_between_the_centre_and_a_bot_shields_it():  # R35 D13
    state = world([bot("t", 30, 30), bot("hid", 33.5, 30), bot("open", 30, 33.5)],
                  features=[wall(0, 31.2, 28, 0.5, 4, fid="crate")])
    assert [m.bot for m in blast_members(state, (30, 30), 0.0)] == ["t", "open"]


def test_a_closed_door_shields_and_an_open_one_does_not():  # R35 R47 D13
    door = wall(0, 31.2, 28, 0.5, 12, fid="gate", kind="door")
    state = world([bot("t", 30, 30), bot("hid", 33.5, 30)], features=[door])
    assert [m.bot for m in blast_members(state, (30, 30), 0.0)] == ["t"]
    # a bot touching the door opens it (R47)
    state = world([bot("t", 30, 30), bot("hid", 33.5, 30), bot("opener", 31.45, 41.05)],
                  features=[door])
    assert [m.bot for m in blast_members(state, (30, 30), 0.0)] == ["t", "hid"]


def test_bots_clearly_on_another_level_are_safe():  # R35 D13
    state = world([bot("t", 30, 30), bot("up", 33, 30, z=1.5), bot("step", 27, 30, z=1.0)])
    assert [m.bot for m in blast_members(state, (30, 30), 0.0)] == ["t", "step"]


def test_excluded_bots_are_not_members():  # D21 (self-destruct excludes nobody but may)
    state = world([bot("t", 30, 30), bot("b", 33, 30)])
    assert [m.bot for m in blast_members(state, (30, 30), 0.0, exclude=["t"])] == ["b"]


def test_each_member_rolls_its_own_attack_in_order():  # D32 R34 formats.md dice order
    # t: to-hit 4 hits, armour 3 fails; b (-1): to-hit 5 -> 4 hits, armour 3 +1 = 4 passes;
    # c (-1): to-hit 4 -> 3 misses.
    state = world([bot("s", 10, 30, 90, BOMB), bot("t", 30, 30), bot("b", 33, 30),
                   bot("c", 26.5, 30)], dice=[4, 3, 5, 3, 4])
    events = resolve_blast(state, state.bots["s"], BOMB, (30, 30), 0.0, "t")
    assert events[0]["type"] == "blast" and events[0]["members"] == ["t", "b", "c"]
    rolls = [(e["target"], e["roll"], e["mod"], e["hit"]) for e in events_of(events, "to_hit")]
    assert rolls == [("t", 4, 0, True), ("b", 5, -1, True), ("c", 4, -1, False)]
    tests = [(e["bot"], e["mod"], e["passed"]) for e in events_of(events, "armour_test")]
    assert tests == [("t", 0, False), ("b", 1, True)]
    assert [state.bots[i].damage for i in "tbc"] == [1, 0, 0]
    assert state.dice.used == 5


def test_blast_overrides_and_kill_credit():  # D21 D22
    from test_shooting_world import card
    state = world([bot("s", 30, 30, 0, BOMB, player="red"),
                   bot("b", 32.5, 30, player="blue", bot_card=card(structure=1))],
                  dice=[3, 2, 1])
    events = resolve_blast(state, None, BOMB, (30, 30), 0.0, None, to_hit=2, hits="d6", by="s",
                           exclude=["s"])
    # b is off centre: 3 - 1 = 2 >= 2 hits; d6 = 2 hits; first armour test 1 fails
    assert state.bots["b"].destroyed and state.scores["red"] == 5
    assert events_of(events, "hits")[0]["amount"] == 2
