"""Sight as the robots ask it (`situation.sees`, one row or column at a time): the
rows of one state share one all-pairs answer (`sight_all`) once enough are asked,
and every answer is the one the plain per-line path (`sight_plain`) gives, before
and after the sharing starts, and after a bot moves."""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bottisota.core import shapes
from bottisota.core.arena import Arena, Feature
from bottisota.core.cards import BotCard
from bottisota.engine.state import Bot, GameState
from bottisota.robot.situation import discs, sees
from tests.builders import bare_table

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

FEATURES = (Feature(0, "wall", shapes.rect(40, 0, 2, 40), height=4.0),
            Feature(1, "door", shapes.rect(40, 40, 2, 20), height=4.0),
            Feature(2, "wall", shapes.rect(40, 60, 2, 40), height=1.5),
            Feature(3, "wall", shapes.rect(70, 45, 4, 4), height=2.5),
            Feature(4, "wall", shapes.rect(20, 70, 8, 2), height=3.0))

spot = st.tuples(st.floats(2, 98, allow_nan=False).map(lambda v: round(v, 2)),
                 st.floats(2, 98, allow_nan=False).map(lambda v: round(v, 2)),
                 st.sampled_from((1.0, 2.0, 3.5)))


def table(spots: list[tuple[float, float, float]]) -> GameState:
    state = bare_table(arena_value=Arena("rows", (100.0, 100.0), FEATURES))
    for k, (x, y, h) in enumerate(spots):
        card = BotCard(id=f"c{k}", name=f"c{k}", locomotion="walker", move=8, armour=4,
                       structure=6, weapons=(), base=3.0, height=h)
        state.bots[f"b{k}"] = Bot(id=f"b{k}", player=f"p{k % 3}", card=card, x=x, y=y)
    return state


def plain(state: GameState, a: Bot, b: Bot) -> bool:
    return state.index.sight_plain((a.x, a.y), a.z + a.stats.height, (b.x, b.y),
                                   b.z + b.stats.height / 2.0, discs(state)).clear


def every_row(state: GameState) -> None:
    bots = state.live_bots()
    for a in bots:                       # a robot's `visible`: its row
        others = [b for b in bots if b is not a]
        assert sees(state, [(a, b) for b in others]) == [plain(state, a, b) for b in others]
    for b in bots:                       # a robot's `watched`: its column
        others = [a for a in bots if a is not b]
        assert sees(state, [(a, b) for a in others]) == [plain(state, a, b) for a in others]


@SETTINGS
@given(st.lists(spot, min_size=2, max_size=14), st.data())
def test_every_row_is_the_plain_answer(spots, data):
    state = table(spots)
    every_row(state)
    mover = state.bots[data.draw(st.sampled_from(sorted(state.bots)))]
    mover.x, mover.y = data.draw(spot)[:2]          # a new state: nothing old is read
    every_row(state)
    if len(state.bots) > 2:
        state.bots["b0"].removed = True             # the wreck is gone (R55)
        every_row(state)


def test_a_bot_not_where_it_stands_is_asked_alone():
    state = table([(10.0, 20.0, 2.0), (30.0, 20.0, 2.0), (20.0, 80.0, 2.0)])
    a, b = state.bots["b0"], state.bots["b1"]
    every_row(state)                                # the shared answer is built
    ghost = Bot(id="b2", player="p2", card=state.bots["b2"].card, x=20.0, y=20.0)
    assert sees(state, [(a, ghost), (a, b)]) == [True, True]
    assert sees(state, [(a, a)]) == [True]          # no line: nothing between
