"""The sight-line memo (`targeting.line_of_sight`): the same line asked again in the
same position is answered from memory, and the answer is always the one worked
out afresh (`plain_line_of_sight`); a position changed in any way the line reads
(a bot moved into it, a door opened, a wreck removed) never meets an old answer."""
from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bottisota.core import shapes
from bottisota.core.arena import Arena, Feature
from bottisota.core.cards import BotCard
from bottisota.engine.shooting.targeting import (
    line_of_sight,
    plain_line_of_sight,
    pose_of,
)
from bottisota.engine.state import Bot, GameState
from tests.builders import bare_table

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

FEATURES = (Feature(0, "wall", shapes.rect(40, 0, 2, 40), height=4.0),
            Feature(1, "door", shapes.rect(40, 40, 2, 20), height=4.0),
            Feature(2, "wall", shapes.rect(40, 60, 2, 40), height=4.0),
            Feature(3, "wall", shapes.rect(70, 45, 4, 4), height=2.5))


def table(spots: list[tuple[float, float]]) -> GameState:
    state = bare_table(arena_value=Arena("memo", (100.0, 100.0), FEATURES))
    for k, (x, y) in enumerate(spots):
        card = BotCard(id=f"c{k}", name=f"c{k}", locomotion="walker", move=8, armour=4,
                       structure=6, weapons=(), base=4.0, height=2.0)
        state.bots[f"b{k}"] = Bot(id=f"b{k}", player=f"p{k}", card=card, x=x, y=y)
    return state


def same(state: GameState, a: str, b: str, through: bool = False) -> bool:
    shooter, target = state.bots[a], state.bots[b]
    memo = line_of_sight(state, shooter, target, through_bots=through)
    plain = plain_line_of_sight(state, shooter, target, pose_of(shooter), pose_of(target),
                                through)
    return memo == plain and memo.clear == plain.clear


def test_a_bot_stepping_into_the_line_blocks_it():  # R22
    state = table([(10.0, 20.0), (30.0, 20.0), (20.0, 80.0)])
    shooter, target = state.bots["b0"], state.bots["b1"]
    assert line_of_sight(state, shooter, target).clear
    assert line_of_sight(state, shooter, target).clear          # asked again: remembered
    state.bots["b2"].x, state.bots["b2"].y = 20.0, 20.0
    sight = line_of_sight(state, shooter, target)
    assert not sight.clear and sight.blocker == "b2"
    assert line_of_sight(state, shooter, target, through_bots=True).clear   # R28 sprays
    state.bots["b2"].removed = True                              # R55 the wreck is gone
    assert line_of_sight(state, shooter, target).clear


def test_a_bot_opening_the_door_clears_the_line():  # R47 R22
    state = table([(20.0, 50.0), (60.0, 50.0), (90.0, 90.0)])
    shooter, target = state.bots["b0"], state.bots["b1"]
    closed = line_of_sight(state, shooter, target)
    assert not closed.clear and closed.blocker is not None
    state.bots["b2"].x, state.bots["b2"].y = 44.0, 42.0          # its base touches the door
    assert line_of_sight(state, shooter, target).clear
    state.bots["b2"].x, state.bots["b2"].y = 90.0, 90.0          # and walks away again
    assert not line_of_sight(state, shooter, target).clear


def test_a_taller_card_sees_over_the_low_wall():  # R38 D15
    state = table([(60.0, 47.0), (85.0, 47.0)])
    shooter, target = state.bots["b0"], state.bots["b1"]
    assert not line_of_sight(state, shooter, target).clear
    state.bots["b0"].card = BotCard(id="tall", name="tall", locomotion="walker", move=8,
                                    armour=4, structure=6, weapons=(), base=4.0, height=6.0)
    assert line_of_sight(state, shooter, target).clear
    assert same(state, "b0", "b1")


def test_a_line_asked_from_a_planned_pose_serves_once_the_bot_stands_there():  # R22 R47
    """A robot asks the line from where it plans to stand (a pose, its stored place
    elsewhere); once it stands there, the same line is the remembered answer, and it is
    the plain one. Another bot moving still makes it afresh."""
    state = table([(10.0, 20.0), (60.0, 50.0), (90.0, 90.0)])
    shooter, target = state.bots["b0"], state.bots["b1"]
    planned = dataclasses.replace(pose_of(shooter), x=38.0, y=50.0)   # its base on the door
    asked = line_of_sight(state, shooter, target, spose=planned)
    shooter.x, shooter.y = 38.0, 50.0
    stood = line_of_sight(state, shooter, target)
    assert stood is asked and stood.clear
    assert stood == plain_line_of_sight(state, shooter, target, pose_of(shooter),
                                        pose_of(target))
    state.bots["b2"].x, state.bots["b2"].y = 50.0, 50.0             # into the line
    again = line_of_sight(state, shooter, target)
    assert again is not asked and not again.clear and again.blocker == "b2"


spot = st.tuples(st.floats(3.0, 97.0), st.floats(3.0, 97.0))


@SETTINGS
@given(st.lists(spot, min_size=3, max_size=4),
       st.lists(st.tuples(st.integers(0, 3), spot, st.booleans()), max_size=6))
def test_the_memo_answers_as_the_plain_line(spots, moves):  # R22 R38 D15 R47
    state = table(spots)
    ids = list(state.bots)
    for k, (x, y), through in [(0, spots[0], False), *moves]:
        bot = state.bots[ids[k % len(ids)]]
        bot.x, bot.y = x, y
        for a in ids:
            for b in ids:
                if a != b:
                    assert same(state, a, b, through)


@SETTINGS
@given(st.lists(spot, min_size=3, max_size=5), spot,
       st.one_of(st.none(), st.just("middle"), spot), st.integers(0, 4), st.booleans(),
       st.booleans())
def test_lines_from_planned_poses_answer_as_the_plain_line(spots, planned, other, gone,
                                                           through, the_door):  # R22 R47
    """The discs and open doors kept for the bots' places serve a line asked with the
    shooter, or another bot, put somewhere else (on the door, or off it), and with a
    wreck removed: every answer, blocker and point is the plain one."""
    state = table(spots)
    ids = list(state.bots)
    state.bots[ids[gone % len(ids)]].removed = gone >= 3        # R55 now and then
    shooter, target = state.bots[ids[0]], state.bots[ids[1]]
    line_of_sight(state, shooter, target)                       # the places kept first
    spose = dataclasses.replace(pose_of(shooter), x=38.0 if the_door else planned[0],
                                y=50.0 if the_door else planned[1])
    if other == "middle":                   # into the line, before any wall on it
        other = (spose.x + (target.x - spose.x) * 0.25, spose.y + (target.y - spose.y) * 0.25)
    poses = {} if other is None else {
        ids[2]: dataclasses.replace(pose_of(state.bots[ids[2]]), x=other[0], y=other[1])}
    asked = line_of_sight(state, shooter, target, spose=spose, through_bots=through,
                          poses=poses)
    plain = plain_line_of_sight(state, shooter, target, spose, pose_of(target), through,
                                poses)
    assert (asked.clear, asked.blocker, asked.point) == (plain.clear, plain.blocker,
                                                         plain.point)
