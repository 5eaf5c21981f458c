"""Push and pull beams (R29, R30, R16, D22)."""
from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from shapely.geometry import Point, box

from bottisota.core.arena import Arena, Feature
from bottisota.core.cards import BotCard, Weapon
from bottisota.core.dice import Dice
from bottisota.engine.shooting.beams import fling_plan, resolve_beams
from bottisota.engine.state import Bot, GameState, Mine
from bottisota.formats.loading import bundled_rules
from tests.builders import bare_table

RULES = bundled_rules()
PUSH = Weapon(name="Pusher", kind="push", mount="turret", range=30, to_hit=4, hits=1,
              strength=5.0)
PULL = Weapon(name="Tractor", kind="pull", mount="turret", range=30, to_hit=4, hits=1,
              strength=3.0)
BIG_PULL = Weapon(name="Big tractor", kind="pull", mount="turret", range=30, to_hit=4,
                  hits=1, strength=12.0)


def bot(bid: str, x: float, y: float, player: str, weapons: tuple[Weapon, ...] = (),
        damage: int = 0, locomotion: str = "walker", facing: float = 0.0) -> Bot:
    card = BotCard(id=bid, name=bid, locomotion=locomotion, move=8, armour=4, structure=6,
                   weapons=weapons)
    return Bot(id=bid, player=player, card=card, x=x, y=y, damage=damage, facing=facing)


def game(*bots: Bot, dice: list[int] | None = None, arena: Arena | None = None) -> GameState:
    return bare_table(*bots, dice=dice, arena_value=arena)


def shooter(x: float = 20.0, y: float = 50.0) -> Bot:
    return bot("a", x, y, "red", weapons=(PUSH, PULL, BIG_PULL), facing=90.0)


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


# --- the plan (no dice) --------------------------------------------------------------

def test_push_goes_straight_away_from_the_shooter_and_pull_toward_it():  # R29
    a, b = shooter(), bot("b", 26.0, 58.0, "blue")       # 10 cm away at facing 36.87
    assert fling_plan(a, b, "push", 5.0) == pytest.approx((36.8699, 5.0), abs=1e-3)
    assert fling_plan(a, b, "pull", 5.0) == pytest.approx((216.8699, 5.0), abs=1e-3)
    heading, distance = fling_plan(a, b, "pull", 12.0)   # the full strength: R29 exempts no bot
    assert heading == pytest.approx(216.8699, abs=1e-3)
    assert distance == pytest.approx(12.0)


# --- single beams (R29) --------------------------------------------------------------

def test_a_push_that_hits_flings_the_target_then_its_armour_is_tested():  # R29
    a, b = shooter(), bot("b", 30.0, 50.0, "blue")
    state = game(a, b, dice=[5, 3])                      # to-hit 5; armour 3 fails
    events = resolve_beams(state, a, [(PUSH, b)])
    t = types(events)
    assert t[:3] == ["to_hit", "hits", "beam"]
    assert t.index("bot_moved") < t.index("armour_test")
    assert (b.x, b.y) == pytest.approx((35.0, 50.0), abs=0.01)
    assert b.damage == 1
    assert state.dice.used == 2


def test_a_pull_brings_the_target_toward_the_shooter():  # R29
    a, b = shooter(), bot("b", 30.0, 50.0, "blue")
    state = game(a, b, dice=[4, 4])
    resolve_beams(state, a, [(PULL, b)])
    assert (b.x, b.y) == pytest.approx((27.0, 50.0), abs=0.01)
    assert b.damage == 0 and state.dice.used == 2


@pytest.mark.parametrize("start", [(20.0, 37.0), (30.0, 50.0), (26.0, 58.0), (12.0, 44.0)])
def test_a_pull_stronger_than_the_gap_drags_the_target_into_the_shooter(start):  # R29 D9 D10
    a, b = shooter(), bot("b", *start, "blue")
    gap = math.hypot(start[0] - 20.0, start[1] - 50.0)
    # to-hit 6; collision (b first): 1 hit, armour 6 passes; a: 1 hit, armour 6; beam armour 5
    state = game(a, b, dice=[6, 1, 6, 1, 6, 5])
    events = resolve_beams(state, a, [(BIG_PULL, b)])
    assert "collision" in types(events)
    collision = next(e for e in events if e["type"] == "collision")
    assert (collision["bot"], collision["with"]) == ("b", "a")
    assert math.hypot(b.x - 20.0, b.y - 50.0) == pytest.approx(2.0, abs=1e-6)   # at contact
    ux, uy = (start[0] - 20.0) / gap, (start[1] - 50.0) / gap
    assert (b.x, b.y) == pytest.approx((20.0 + 2 * ux, 50.0 + 2 * uy), abs=1e-6)
    assert (a.x, a.y) == (20.0, 50.0)                    # the shooter is not moved (D11)
    assert state.dice.used == 6                           # the collision test was rolled


@pytest.mark.parametrize("extra", [0.0, 0.03, 0.05])
def test_a_pull_that_only_reaches_contact_is_no_collision(extra):  # R29 D4
    a, b = shooter(), bot("b", 20.0, 36.0, "blue")       # 14 cm below a: 12 cm of gap
    just = Weapon(name="Just", kind="pull", mount="turret", range=30, to_hit=4, hits=1,
                  strength=12.0 + extra)
    state = game(a, b, dice=[6, 5])                      # to-hit, armour: no collision dice
    events = resolve_beams(state, a, [(just, b)])
    assert "collision" not in types(events)
    assert (b.x, b.y) == pytest.approx((20.0, 48.0 + extra), abs=1e-6)
    assert (a.damage, b.damage) == (0, 0) and state.dice.used == 2


def test_a_beam_that_misses_moves_nothing():  # R29
    a, b = shooter(), bot("b", 30.0, 50.0, "blue")
    state = game(a, b, dice=[3])
    events = resolve_beams(state, a, [(PUSH, b)])
    assert types(events) == ["to_hit"]
    assert (b.x, b.y) == (30.0, 50.0) and state.dice.used == 1


def test_beams_at_two_targets_resolve_one_after_the_other():  # R29
    a = shooter()
    b = bot("b", 30.0, 50.0, "blue")
    c = bot("c", 20.0, 40.0, "green")
    state = game(a, b, c, dice=[4, 4, 5, 6])
    events = resolve_beams(state, a, [(PUSH, b), (PULL, c)])
    assert [e["target"] for e in events if e["type"] == "to_hit"] == ["b", "c"]
    assert (b.x, b.y) == pytest.approx((35.0, 50.0), abs=0.01)
    assert (c.x, c.y) == pytest.approx((20.0, 43.0), abs=0.01)
    assert state.dice.used == 4


# --- pull and push together (R30) ---------------------------------------------------

def test_pull_and_push_both_hitting_deal_extra_hits_and_move_by_the_difference():  # R30
    a, b = shooter(), bot("b", 30.0, 50.0, "blue")
    # to-hit push 4, pull 5, extra d6 hits = 2; armour: push 4 ok, pull 4 ok,
    # extra at -1: 4 fails (3 < 4), 5 ok
    state = game(a, b, dice=[4, 5, 2, 4, 4, 4, 5])
    events = resolve_beams(state, a, [(PUSH, b), (PULL, b)])
    assert types(events)[:5] == ["to_hit", "hits", "to_hit", "hits", "hits"]
    extra = [e for e in events if e["type"] == "hits"][2]
    assert extra["amount"] == 2 and "R30" in extra["cause"]
    tests = [e for e in events if e["type"] == "armour_test"]
    assert [(t["roll"], t["mod"], t["passed"]) for t in tests] == [
        (4, 0, True), (4, 0, True), (4, RULES.pull_push_armour_mod, False), (5, -1, True)]
    assert (b.x, b.y) == pytest.approx((32.0, 50.0), abs=0.01)   # 5 - 3 = 2 away
    assert b.damage == 1
    assert state.dice.used == 7


def test_a_stronger_pull_moves_the_target_toward_the_shooter_by_the_difference():  # R30
    a, b = shooter(), bot("b", 40.0, 50.0, "blue")
    state = game(a, b, dice=[4, 4, 1, 5, 5, 5])
    resolve_beams(state, a, [(BIG_PULL, b), (PUSH, b)])
    assert (b.x, b.y) == pytest.approx((33.0, 50.0), abs=0.01)   # 12 - 5 = 7 closer
    assert state.dice.used == 6


def test_equal_pull_and_push_hold_the_target_in_place():  # R30
    a, b = shooter(), bot("b", 30.0, 50.0, "blue")
    even_pull = Weapon(name="Even", kind="pull", range=30, to_hit=4, hits=1, strength=5.0)
    state = game(a, b, dice=[4, 4, 1, 5, 5, 5])
    events = resolve_beams(state, a, [(PUSH, b), (even_pull, b)])
    assert "bot_moved" not in types(events)
    held = next(e for e in events if e["type"] == "beam")
    assert (held["kind"], held["distance"]) == ("held", 0.0)
    assert (b.x, b.y) == (30.0, 50.0) and state.dice.used == 6


def test_when_only_the_push_of_a_pair_hits_it_acts_alone():  # R29 R30
    a, b = shooter(), bot("b", 30.0, 50.0, "blue")
    state = game(a, b, dice=[4, 2, 5])                   # push hits, pull misses, armour ok
    events = resolve_beams(state, a, [(PUSH, b), (PULL, b)])
    assert len([e for e in events if e["type"] == "hits"]) == 1
    assert (b.x, b.y) == pytest.approx((35.0, 50.0), abs=0.01)
    assert state.dice.used == 3


# --- collisions and kill credit (R16, R29, D9, D10, D22) -----------------------------

def test_a_pushed_bot_stops_at_another_and_both_take_the_collision_test_first():
    # R29 R16 D9 D10: the collision dice come before the beam's armour test
    a, b = shooter(), bot("b", 30.0, 50.0, "blue")
    c = bot("c", 36.0, 50.0, "green")                    # b stops touching c at x = 34
    # to-hit 5; collision: b d6 = 1 hit, armour 6 ok; c d6 = 1 hit, armour 5 at -2
    # fails; then the beam's armour test for b: 3 fails
    state = game(a, b, c, dice=[5, 1, 6, 1, 5, 3])
    events = resolve_beams(state, a, [(PUSH, b)])
    assert (b.x, b.y) == pytest.approx((34.0, 50.0), abs=0.01)
    assert (c.x, c.y) == (36.0, 50.0)
    collision = next(e for e in events if e["type"] == "collision")
    assert (collision["bot"], collision["with"]) == ("b", "c")
    tests = [(e["bot"], e["cause"], e["passed"]) for e in events if e["type"] == "armour_test"]
    assert tests == [("b", "collision", True), ("c", "collision", False),
                     ("b", "a's Pusher", False)]
    assert (b.damage, c.damage) == (1, 1)
    assert state.dice.used == 6


def test_a_collision_kill_caused_by_a_beam_scores_for_the_beams_owner():  # D22 R29
    a, b = shooter(), bot("b", 30.0, 50.0, "blue")
    c = bot("c", 36.0, 50.0, "green", damage=5)
    # to-hit 6; b: 1 hit, armour 6; c: 1 hit, armour 2 - 2 fails: destroyed; b's beam armour 4
    state = game(a, b, c, dice=[6, 1, 6, 1, 2, 4])
    events = resolve_beams(state, a, [(PUSH, b)])
    assert c.destroyed
    killed = next(e for e in events if e["type"] == "destroyed")
    assert (killed["bot"], killed["by"]) == ("c", "a")
    assert state.scores == {"red": RULES.kill_points} and state.kills == {"red": 1}
    assert state.dice.used == 6


def test_a_bot_pushed_into_a_pit_is_destroyed_and_the_kill_is_the_shooters():  # R36 D22
    pit = Feature(index=0, type="pit", shape=Point(45.0, 50.0).buffer(3.0, quad_segs=64))
    arena = Arena(name="pit", size=(100.0, 100.0), features=(pit,))
    a, b = shooter(), bot("b", 30.0, 50.0, "blue")
    big_push = Weapon(name="Ram beam", kind="push", range=30, to_hit=4, hits=1,
                      strength=15.0)
    state = game(a, b, dice=[4], arena=arena)             # to-hit only: no armour tests
    events = resolve_beams(state, a, [(big_push, b)])
    assert b.destroyed
    killed = next(e for e in events if e["type"] == "destroyed")
    assert (killed["cause"], killed["by"]) == ("pit", "a")
    assert state.scores == {"red": 5}
    assert "armour_test" not in types(events)
    assert state.dice.used == 1


def test_a_bot_pushed_off_a_platform_falls_and_the_kill_is_the_shooters():  # R39 D22
    platform = Feature(index=0, type="platform", shape=box(0.0, 40.0, 35.0, 60.0), height=5.0)
    arena = Arena(name="ledge", size=(100.0, 100.0), features=(platform,))
    a, b = shooter(), bot("b", 31.0, 50.0, "blue", damage=3)   # the edge is 4 cm ahead
    a.z = b.z = 5.0
    state = game(a, b, dice=[4, 1], arena=arena)          # to-hit; fall 5 - 1 = 4 damage
    events = resolve_beams(state, a, [(PUSH, b)])
    fall = next(e for e in events if e["type"] == "fall")
    assert (fall["drop"], fall["damage"]) == (5.0, 4)
    assert b.destroyed and b.damage == 7
    assert (b.x, b.y, b.z) == pytest.approx((36.0, 50.0, 0.0), abs=0.01)   # clear of the cliff
    killed = next(e for e in events if e["type"] == "destroyed")
    assert (killed["cause"], killed["by"]) == ("fall", "a")
    assert state.scores == {"red": 5}
    assert state.dice.used == 2


def test_a_bot_pushed_onto_an_active_mine_is_struck_before_the_beams_armour_test():
    # R29 R31 R33: the mine strikes during the fling, its dice before the beam's armour
    b = bot("b", 30.0, 50.0, "blue")
    mine_weapon = Weapon(name="Mine", kind="mine", to_hit=4, hits=1)
    a = bot("a", 20.0, 50.0, "red", weapons=(PUSH, mine_weapon))
    state = game(a, b, dice=[4, 5, 2, 6])     # beam to-hit; mine to-hit, armour 2 fails; 6
    state.mines = [Mine(id="mine-1", owner="a", player="red", weapon="Mine", x=37.0,
                        y=50.0, z=0.0, r=1.0, active=True)]
    events = resolve_beams(state, a, [(PUSH, b)])
    t = types(events)
    assert t.index("beam") < t.index("mine_strike") < t.index("armour_test")
    causes = [e["cause"] for e in events if e["type"] == "armour_test"]
    assert causes == ["mine-1 (Mine)", "a's Pusher"]
    assert (b.x, b.y) == pytest.approx((35.0, 50.0), abs=0.01)
    assert b.damage == 1 and state.mines == []
    assert state.dice.used == 4


def test_a_bot_pushed_across_an_active_mine_is_struck_on_the_way():  # R29 R31
    b = bot("b", 30.0, 50.0, "blue")
    big_push = Weapon(name="Big push", kind="push", to_hit=4, hits=1, strength=10.0)
    a = bot("a", 20.0, 50.0, "red", weapons=(big_push, Weapon(name="Mine", kind="mine")))
    state = game(a, b, dice=[4, 5, 2, 6])     # beam to-hit; mine to-hit, armour 2 fails; 6
    state.mines = [Mine(id="mine-1", owner="a", player="red", weapon="Mine", x=35.0,
                        y=50.0, z=0.0, r=1.0, active=True)]
    events = resolve_beams(state, a, [(big_push, b)])
    assert "mine_strike" in types(events)
    assert (b.x, b.y) == pytest.approx((40.0, 50.0), abs=0.01)
    assert b.damage == 1 and state.mines == [] and state.dice.used == 4


# --- property: no overlapping bases after a fling (D4, D9) ---------------------------

WALL = Feature(index=0, type="wall", shape=box(60.0, 20.0, 62.0, 80.0), height=10.0)


def _spread(points: list[tuple[float, float]]) -> bool:
    return all(math.dist(p, q) > 2.2 for p, q in itertools.combinations(points, 2))


@settings(max_examples=60, deadline=None)
@example(points=[(5.0, 28.0), (49.4375, 25.0)], kinds=["push"], strength=9.625, seed=0)
@given(points=st.lists(st.tuples(st.floats(min_value=5, max_value=55),
                                 st.floats(min_value=25, max_value=75)),
                       min_size=2, max_size=5).filter(_spread),
       kinds=st.lists(st.sampled_from(["push", "pull"]), min_size=1, max_size=2),
       strength=st.floats(min_value=0.5, max_value=30.0), seed=st.integers(0, 10_000))
def test_after_any_fling_no_two_bases_overlap(points, kinds, strength, seed):  # D4 D9 R29
    a = bot("a", *points[0], "red")
    others = [bot(f"b{i}", x, y, "blue") for i, (x, y) in enumerate(points[1:])]
    state = game(a, *others, arena=Arena(name="walled", size=(100.0, 100.0),
                                         features=(WALL,)))
    state.dice = Dice(seed=seed)
    weapons = [Weapon(name=f"beam {i}", kind=k, range=100, to_hit=2, hits=1,
                      strength=strength) for i, k in enumerate(kinds)]
    resolve_beams(state, a, [(w, others[0]) for w in weapons])
    live = state.live_bots()
    tol = RULES.contact_tolerance + 1e-6   # D4: overlap within the tolerance is touching
    for p, q in itertools.combinations(live, 2):
        assert p.distance_to(q) >= p.radius + q.radius - tol, (p.id, q.id)
    for b in live:
        assert WALL.shape.distance(Point(b.x, b.y)) >= b.radius - tol, b.id
        assert b.radius - 1e-3 <= b.x <= 100 - b.radius + 1e-3
        assert b.radius - 1e-3 <= b.y <= 100 - b.radius + 1e-3
