"""The pre-measure (for the view): arc, range, sight, fire track, chance,
corridor, blast, missile turn, fling; no dice, no change
(R18, R19, R22, R23, R26-R29, R34, R35, D14, D15, D26, D32)."""
from __future__ import annotations

import pytest

from bottisota.engine.shooting.shots import premeasure
from tests import builders as B


def plain(bot_id, at, facing=0.0, *weapons, **kw):
    return B.bot(bot_id, bot_id, at, facing, B.card(weapons=list(weapons)), **kw)


NOSE = B.weapon("Nose", mount="nose", range=30, to_hit=4)


def test_every_other_bot_is_measured_nearest_first():  # R18 R19 D14
    state = B.state(B.arena(), plain("a", (20, 30), 0, NOSE), plain("far", (20, 61.2 - 10)),
                    plain("side", (40, 40)), plain("ok", (30, 40)))
    pm = premeasure(state, "a", "Nose")
    assert [t.bot for t in pm.targets] == ["ok", "far", "side"]
    ok, far, side = pm.targets
    assert (round(ok.distance, 2), round(ok.off_nose, 1), ok.in_arc, ok.in_range, ok.in_sight) == \
        (14.14, 45.0, True, True, True)
    assert ok.can_fire and ok.refusal is None
    assert (round(side.off_nose, 1), side.in_arc) == (63.4, False)
    assert side.refusal == "R19: target is 63° off the nose; nose weapons reach 45°"
    assert (round(far.distance, 2), far.in_range) == (21.2, True)
    assert pm.can_hit() == ["ok", "far"]
    assert (pm.reach, pm.arc_half) == (30, 45.0)
    assert state.dice.used == 0


def test_the_to_hit_number_and_chance_include_the_shooters_modifiers():  # D5 D26 R5
    state = B.state(B.arena(), plain("a", (20, 30), 0, NOSE, status={"leaflet": 1}),
                    plain("b", (20, 40)))
    t = premeasure(state, "a", "Nose").target("b")
    assert (t.need, t.modifier) == (4, -1)
    assert t.chance == pytest.approx(2 / 6)        # 5 and 6 hit


def test_the_blocking_point_and_the_fire_track():  # R22 D15
    wall = {"type": "wall", "id": "crate-3", "rect": [19, 15, 2, 10], "height": 3}
    state = B.state(B.arena(wall), plain("a", (20, 10), 0, NOSE), plain("b", (20, 35)))
    t = premeasure(state, "a", "Nose").target("b")
    assert not t.in_sight and t.blocker == "wall 'crate-3'"
    assert t.block_point == pytest.approx((20.0, 15.0))
    assert t.refusal == "R22: wall 'crate-3' blocks the line at (20.0, 15.0)"
    # the line falls from 2 (shooter's top) to 1 (target's middle) over 25 cm
    assert [(p.distance, round(p.line_z, 2), p.obstacle_z) for p in t.track
            if p.what == "wall 'crate-3'"] == [(5.0, 1.8, 3.0), (15.0, 1.4, 3.0)]


def test_overwatch_reach_is_capped():  # R23
    long_gun = B.weapon("Long", mount="turret", range=50)
    state = B.state(B.arena(), plain("a", (10, 30), 0, long_gun), plain("b", (45, 30)))
    pm = premeasure(state, "a", "Long", overwatch=True)
    assert pm.reach == 30 and not pm.target("b").in_range
    assert pm.target("b").refusal == "R23: target is 35.0 cm away; overwatch fire reaches 30 cm"
    assert premeasure(state, "a", "Long").target("b").can_fire


def test_a_spray_shows_its_corridor_and_members():  # R28
    spray = B.weapon("Spray", kind="spray", mount="nose", range=30)
    state = B.state(B.arena(), plain("s", (10, 30), 90, spray), plain("e", (15, 31.05)),
                    plain("d", (25, 28.94)), plain("t", (30, 30)))
    pm = premeasure(state, "s", "Spray", target="t")
    assert pm.corridor_members == ("e", "t")
    assert pm.corridor.contains(B_point(20, 30.9)) and not pm.corridor.contains(B_point(20, 31.2))
    assert pm.target("t").in_sight          # sprays see through bots


def B_point(x, y):
    from shapely.geometry import Point
    return Point(x, y)


def test_an_explosive_shows_the_marker_centre_bot_and_off_centre_members():  # R34 R35 D32
    shell = B.weapon("Shell", mount="turret", range=40, to_hit=4, explosive=True)
    wall = {"type": "wall", "id": "w", "rect": [31.5, 31, 0.3, 3]}
    state = B.state(B.arena(wall), plain("s", (10, 30), 90, shell), plain("t", (30, 30)),
                    plain("n", (33, 28)), plain("hid", (32.8, 32.4)))
    blast = premeasure(state, "s", "Shell", target="t").blast
    assert (blast.x, blast.y, blast.r, blast.centre) == (30, 30, 3.0, "t")
    assert [(m.bot, m.hit_mod, m.armour_mod) for m in blast.members] == [("t", 0, 0), ("n", -1, 1)]
    assert blast.chances == pytest.approx((3 / 6, 2 / 6))
    assert [s.bot for s in blast.safe] == ["hid"]
    assert blast.marker.area == pytest.approx(28.27, abs=0.05)


def test_an_explosive_aimed_at_a_point():  # R34
    shell = B.weapon("Shell", mount="turret", range=40, explosive=True)
    state = B.state(B.arena(), plain("s", (10, 30), 90, shell), plain("n", (31, 30)),
                    plain("o", (33, 30)))
    blast = premeasure(state, "s", "Shell", target=(30.0, 30.0)).blast
    assert blast.centre == "n"         # its base touches the centre point
    assert [(m.bot, m.hit_mod) for m in blast.members] == [("n", 0), ("o", -1)]


def test_a_missile_shows_its_possible_turn_after_a_miss():  # R27 D31
    missile = B.weapon("Missile", kind="missile", mount="nose", range=40)
    state = B.state(B.arena(), plain("s", (10, 30), 90, missile), plain("t", (20, 30)),
                    plain("m1", (26, 34)), plain("m2", (30, 30)))
    turn = premeasure(state, "s", "Missile", target="t").missile
    assert turn.toward == ("m1",) and turn.turns == (pytest.approx(-33.69, abs=0.01),)


def test_a_rocket_shows_its_onward_line():  # R26 D31
    rocket = B.weapon("Rocket", kind="rocket", mount="nose", range=40)
    state = B.state(B.arena({"type": "wall", "id": "w", "rect": [40, 20, 1, 20]}),
                    plain("s", (10, 30), 90, rocket), plain("t", (20, 30)), plain("c", (30, 30.9)))
    flight = premeasure(state, "s", "Rocket", target="t").flight
    assert flight.bots == ("c",) and flight.end == pytest.approx((40.0, 30.0))
    assert flight.stopped_by == "wall 'w'"


def test_a_push_shows_its_landing_spot():  # R29
    push = B.weapon("Pusher", kind="push", mount="nose", range=20, strength=5)
    state = B.state(B.arena(), plain("s", (10, 30), 90, push), plain("t", (20, 30)))
    fling = premeasure(state, "s", "Pusher", target="t").fling
    assert (fling.bot, round(fling.x, 2), round(fling.y, 2), fling.collisions) == \
        ("t", 25.0, 30.0, [])


def test_a_weapon_out_of_ammo_is_refused_for_every_target():  # R49
    gun = B.weapon("Rifle", ammo=1)
    state = B.state(
        B.arena(), plain("a", (10, 30), 90, gun, ammo={"Rifle": 0}), plain("b", (20, 30))
    )
    pm = premeasure(state, "a", "Rifle")
    assert pm.refusal.startswith("R49") and pm.can_hit() == []
