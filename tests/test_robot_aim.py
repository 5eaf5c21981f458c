"""The robot's own yes-or-no shot check (`robot.aim.fires`) answers exactly as the
shooting rules' `can_fire` does, on random tables with walls, a raised platform,
other bots in the way and every kind of weapon (R18-R25, R38, R49, D15)."""
from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from bottisota.core.errors import InputError
from bottisota.engine.shooting.targeting import can_fire
from bottisota.robot import aim
from tests.builders import arena, bot, card, state, weapon

TABLE = arena({"type": "wall", "rect": [30, 10, 2, 20], "height": 3},
              {"type": "wall", "rect": [50, 35, 12, 1.5], "height": 10},
              {"type": "platform", "rect": [10, 40, 12, 10], "height": 4},
              {"type": "ramp", "rect": [22, 40, 8, 10], "up": 270, "from": 0, "to": 4},
              size=(80, 60))
WEAPONS = [weapon("Nose", mount="nose", range=40), weapon("Turret", range=25),
           weapon("Spray", kind="spray", range=15), weapon("Claw", kind="melee", range=0),
           weapon("Empty", range=60, ammo=1), weapon("Mine", kind="mine", range=0)]
spot = st.tuples(st.floats(2, 78), st.floats(2, 58), st.sampled_from([0.0, 45.0, 90.0, 200.0,
                                                                      315.0]))


@settings(max_examples=60, deadline=None)
@given(spot, spot, st.lists(spot, max_size=4), st.tuples(st.floats(2, 78), st.floats(2, 58),
                                                          st.floats(0, 359)))
def test_fires_agrees_with_can_fire(me, foe, others, pose):
    bots = [bot("a", "red", me[:2], me[2], card(weapons=WEAPONS), ammo={"Empty": 0}),
            bot("b", "blue", foe[:2], foe[2], card(structure=9))]
    bots += [bot(f"o{i}", "blue", o[:2], o[2]) for i, o in enumerate(others)]
    try:
        s = state(TABLE, *bots)
    except InputError:              # bases overlapping, or off the floor: not a table
        assume(False)
        return
    shooter, target = s.bots["a"], s.bots["b"]
    for where in (None, (pose[0], pose[1], 0.0, pose[2])):
        spose = aim.pose_of(shooter, where)
        tpose = aim.pose_of(target)
        sights: dict = {}
        for w in shooter.stats.weapons:
            expected = can_fire(s, "a", w.name, "b", shooter_pose=where) is None
            assert aim.fires(s, shooter, w.name, target, spose, tpose, sights) == expected, w.name
        expected_any = any(not w.is_mine and can_fire(s, "a", w.name, "b", shooter_pose=where)
                           is None for w in shooter.stats.weapons)
        assert aim.can_fire_from(s, shooter, target, where or spose) == expected_any
    assert aim.weapons_at(s, shooter, target) == [
        w.name for w in shooter.stats.weapons
        if not w.is_mine and can_fire(s, "a", w.name, "b") is None]
