"""Property test: the open doors (R47, D4) found through the doors' boxes first
are exactly those some standing bot's base touches, found the plain way (every
door against every bot), with bases placed right on a door's edge or corner,
a hair off it, and anywhere."""
from __future__ import annotations

import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bottisota.core import shapes
from bottisota.core.arena import Arena, Feature
from bottisota.core.cards import BotCard
from bottisota.engine.shooting.geometry import open_doors
from bottisota.engine.state import Bot
from tests.builders import bare_table

SETTINGS = settings(max_examples=120, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])

DOORS = (Feature(0, "door", shapes.rect(20, 20, 2, 10), height=4.0),
         Feature(1, "door", shapes.rotated(shapes.rect(50, 60, 10, 2), 30), height=4.0),
         Feature(2, "wall", shapes.rect(70, 10, 2, 30), height=4.0),
         Feature(3, "door", shapes.rect(72, 10, 2, 8), height=4.0))


def plain(state):
    tol = state.rules.contact_tolerance
    return {f for f in DOORS if f.type == "door" and any(
        shapely.dwithin(f.shape, shapely.Point(b.x, b.y), b.radius + tol + 1e-9)
        for b in state.bots.values() if not b.removed)}


@st.composite
def a_spot(draw):
    door = draw(st.sampled_from([f for f in DOORS if f.type == "door"]))
    corners = shapely.get_coordinates(door.shape).tolist()
    x, y = draw(st.sampled_from(corners))
    r = draw(st.sampled_from([0.5, 1.0, 2.5]))
    tol = 0.1   # D4's contact tolerance in the bundled rules, give or take
    off = draw(st.sampled_from([0.0, r, r + tol, r + tol + 1e-9, r + tol + 1e-6, 3.0]))
    dx, dy = draw(st.sampled_from([(1, 0), (-1, 0), (0, 1), (0, -1), (0.6, 0.8)]))
    if draw(st.booleans()):
        return draw(st.floats(1.0, 99.0)), draw(st.floats(1.0, 99.0)), r
    return x + dx * off, y + dy * off, r


@SETTINGS
@given(st.lists(a_spot(), min_size=1, max_size=8))
def test_open_doors_are_the_plain_ones(spots):  # R47 D4
    state = bare_table(arena_value=Arena("doors", (100.0, 100.0), DOORS))
    for k, (x, y, r) in enumerate(spots):
        card = BotCard(id=f"c{k}", name=f"c{k}", locomotion="walker", move=8, armour=4,
                       structure=6, weapons=(), base=2 * r)
        state.bots[f"b{k}"] = Bot(id=f"b{k}", player=f"p{k}", card=card, x=x, y=y)
    assert open_doors(state) == plain(state)


@SETTINGS
@given(st.lists(a_spot(), min_size=1, max_size=6), a_spot())
def test_a_bot_put_elsewhere_by_a_pose_opens_the_doors_it_touches_there(spots, elsewhere):
    # R47 D4: a mover at a point of its path (poses) counts there, not where it stands
    state = bare_table(arena_value=Arena("doors", (100.0, 100.0), DOORS))
    for k, (x, y, r) in enumerate(spots):
        card = BotCard(id=f"c{k}", name=f"c{k}", locomotion="walker", move=8, armour=4,
                       structure=6, weapons=(), base=2 * r)
        state.bots[f"b{k}"] = Bot(id=f"b{k}", player=f"p{k}", card=card, x=x, y=y)
    found = open_doors(state, {"b0": elsewhere[:2]})
    state.bots["b0"].x, state.bots["b0"].y = elsewhere[:2]
    assert found == plain(state) == open_doors(state)
