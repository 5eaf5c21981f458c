"""Property tests: the pre-measure's fire tracks, blockers and blocking points (R22,
R28, R38, D15) are exactly `sight_plain`'s on random arenas with heights, doors and
bots, the first time and when asked again (kept answers), and follow a bot that moved."""
from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_geometry_properties import an_arena, coord_x, coord_y

from bottisota.core.cards import BotCard, Weapon
from bottisota.engine.shooting.geometry import disc_of, door_keys, open_doors, standing_bots
from bottisota.engine.shooting.premeasure import forget_sight, premeasure_weapons
from bottisota.engine.state import Bot
from bottisota.geometry.arena_index import FAST_PATHS
from tests.builders import bare_table

GUN = Weapon(name="Gun", kind="gun", mount="turret", range=200, to_hit=4, hits=1)
SPRAY = Weapon(name="Spray", kind="spray", mount="turret", range=200, to_hit=4, hits=1)
SETTINGS = settings(max_examples=80, deadline=None,
                    suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])

spots = st.lists(st.tuples(coord_x, coord_y, st.sampled_from([0.5, 1.0, 2.5]),
                           st.sampled_from([0.5, 1.5, 3.0, 8.0])), min_size=2, max_size=7)


def table(arena, placed):
    """A state with these bots (the first one armed) standing where they are put,
    each on the floor under its centre."""
    state = bare_table(arena_value=arena)
    index = state.index
    for k, (x, y, r, h) in enumerate(placed):
        card = BotCard(id=f"c{k}", name=f"c{k}", locomotion="walker", move=8, armour=4,
                       structure=6, weapons=(GUN, SPRAY) if k == 0 else (), height=h,
                       base=2 * r)
        bot = Bot(id=f"b{k}", player=f"p{k}", card=card, x=x, y=y, z=index.floor_z(x, y))
        state.bots[bot.id] = bot
        state.players.append(bot.player)
    return state


def expected(state, shooter_id, target_id, through):
    """`sight_plain` for the line from the shooter's top to the target's middle."""
    shooter, target = state.bots[shooter_id], state.bots[target_id]
    discs = [] if through else [disc_of(b) for b in standing_bots(state)
                                if b.id != shooter_id]
    return state.index.sight_plain(
        (shooter.x, shooter.y), shooter.z + shooter.card.height, (target.x, target.y),
        target.z + target.card.height / 2.0, discs=discs,
        open_doors=door_keys(open_doors(state)), ignore=(shooter_id, target_id))


def check(state, fresh):
    if fresh:
        forget_sight(state.index)
    found = premeasure_weapons(state, "b0", ["Gun", "Spray"])
    for name, through in (("Gun", False), ("Spray", True)):
        for t in found[name].targets:
            plain = expected(state, "b0", t.bot, through)
            assert t.in_sight == plain.clear, (name, t.bot)
            assert t.track == plain.track, (name, t.bot)
            assert t.blocker == plain.blocker, (name, t.bot)
            assert t.block_point == plain.point, (name, t.bot)
            assert t.sight.get() == plain


def with_fast_paths(on, body):
    saved = FAST_PATHS.on
    FAST_PATHS.on = on
    try:
        body()
    finally:
        FAST_PATHS.on = saved


@SETTINGS
@given(an_arena(), spots)
def test_fire_tracks_are_the_plain_sight(arena, placed):  # R22 R28 R38 D15
    state = table(arena, placed)
    check(state, fresh=True)
    check(state, fresh=False)        # asked again: the kept answers, the same
    with_fast_paths(False, lambda: check(state, fresh=False))


@SETTINGS
@given(an_arena(), spots, coord_x, coord_y, st.integers(0, 6))
def test_kept_answers_follow_a_bot_that_moved(arena, placed, x, y, which):  # R22 D15
    state = table(arena, placed)
    check(state, fresh=True)
    moved = f"b{which % len(placed)}"
    bot = state.bots[moved]
    state.bots[moved] = dataclasses.replace(bot, x=x, y=y, z=state.index.floor_z(x, y))
    check(state, fresh=False)        # nothing kept for the old position is reused
