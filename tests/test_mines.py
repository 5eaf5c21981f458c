"""Mines: dropping, touching, activation and strikes (R7, R21, R31-R33, R56, D19, D22, D33)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bottisota.core.actions import Refusal
from bottisota.core.cards import BotCard, Weapon
from bottisota.engine.events import apply_event
from bottisota.engine.mines import activate_mines, drop_mine, mine_strike, touching_mines
from bottisota.engine.state import Bot, GameState, Mine
from bottisota.formats.loading import bundled_rules
from tests.builders import bare_table

RULES = bundled_rules()

MINE = Weapon(name="Mine", kind="mine", to_hit=4, hits=2, ammo=3)
MAGNET = Weapon(name="Magnet mine", kind="magnetic_mine", to_hit=3, hits=1)
BOMB = Weapon(name="Bomb", kind="mine", to_hit=4, hits=1, explosive=True)
GUN = Weapon(name="Gun", kind="gun", to_hit=4, hits=1)


def card(cid: str = "c", locomotion: str = "walker", base: float = 2.0,
         armour: int = 4, structure: int = 6, weapons: tuple[Weapon, ...] = ()) -> BotCard:
    return BotCard(id=cid, name=cid, locomotion=locomotion, move=10, armour=armour,
                   structure=structure, base=base, weapons=weapons)


def game(*bots: Bot, dice: list[int] | None = None, round_: int = 2) -> GameState:
    """A bare 100 x 100 cm table with these bots, round 2, forced dice."""
    return bare_table(*bots, dice=dice, round_=round_)


def layer(x: float, y: float, weapons: tuple[Weapon, ...] = (MINE, MAGNET, BOMB, GUN),
          bid: str = "a", **kw) -> Bot:
    return Bot(id=bid, player="red", card=card("layer", weapons=weapons, **kw), x=x, y=y)


def target(bid: str, x: float, y: float, player: str = "blue", **kw) -> Bot:
    return Bot(id=bid, player=player, card=card(bid, **kw), x=x, y=y)


def active_mine(mid: str, x: float, y: float, r: float = 1.0, owner: str = "a",
                weapon: str = "Mine", magnetic: bool = False) -> Mine:
    return Mine(id=mid, owner=owner, player="red", weapon=weapon, x=x, y=y, z=0.0, r=r,
                magnetic=magnetic, active=True)


def snapshot(state: GameState) -> tuple:
    return (repr(state.mines), repr(state.bots), state.next_id, state.dice.used,
            dict(state.scores))


# --- dropping (R21, R31, D33) --------------------------------------------------------

def test_mine_is_dropped_under_the_bot_as_an_inactive_base_sized_marker():  # R21 R31 D33
    a = layer(20.0, 30.0)
    state = game(a)
    state.next_id = 7
    events = drop_mine(state, a, "Mine")
    assert [e["type"] for e in events] == ["ammo", "mine_dropped"]
    assert events[0] == {"type": "ammo", "bot": "a", "weapon": "Mine", "left": 2}
    assert events[1] == {"type": "mine_dropped", "mine": "mine-7", "bot": "a", "owner": "a",
                         "player": "red", "weapon": "Mine", "x": 20.0, "y": 30.0, "z": 0.0,
                         "r": 1.0, "magnetic": False}
    (mine,) = state.mines
    assert (mine.id, mine.owner, mine.player, mine.weapon) == ("mine-7", "a", "red", "Mine")
    assert (mine.x, mine.y, mine.z, mine.r) == (20.0, 30.0, 0.0, 1.0)
    assert not mine.magnetic and not mine.active
    assert state.next_id == 8
    assert a.ammo == {"Mine": 2}
    assert state.dice.used == 0


def test_mine_marker_takes_the_size_of_a_bigger_base():  # D33
    a = layer(20.0, 30.0, base=3.5)
    state = game(a)
    drop_mine(state, a, "Mine")
    assert state.mines[0].r == pytest.approx(1.75, abs=0.005)


def test_magnetic_mine_marker_is_blast_sized():  # R32 D33 D12
    a = layer(20.0, 30.0)
    state = game(a)
    events = drop_mine(state, a, "Magnet mine")
    assert [e["type"] for e in events] == ["mine_dropped"]   # no ammo limit: no ammo event
    assert state.mines[0].r == pytest.approx(RULES.blast_diameter / 2, abs=0.005)
    assert state.mines[0].r == pytest.approx(3.0, abs=0.005)
    assert state.mines[0].magnetic


def test_replaying_drop_events_gives_the_same_ids():  # R31 (journal replay)
    a = layer(20.0, 30.0)
    state = game(a)
    first = drop_mine(state, a, "Mine")
    second = drop_mine(state, a, "Magnet mine")
    twin = game(layer(20.0, 30.0))
    for e in first + second:
        apply_event(twin, e)
    assert [m.id for m in twin.mines] == ["mine-1", "mine-2"] == [m.id for m in state.mines]
    assert twin.next_id == state.next_id == 3


def test_a_flier_may_drop_a_mine_onto_another_bot_which_it_strikes_when_active():  # R31
    flier = Bot(id="a", player="red", x=40.0, y=40.0,
                card=card("flier", locomotion="flier", weapons=(MINE,)))
    b = target("b", 40.5, 40.0)
    state = game(flier, b, dice=[6, 2, 5])      # to-hit 6, armour 2 fails, armour 5 passes
    drop_mine(state, flier, "Mine")
    assert touching_mines(state, b) == []      # inactive until the shooting phase
    apply_event(state, {"type": "bot_moved", "bot": "a", "x": 50.0, "y": 40.0, "z": 0.0,
                        "facing": 90.0})
    events = activate_mines(state, "a")
    strike = [e for e in events if e["type"] == "mine_strike"]
    assert strike == [{"type": "mine_strike", "mine": "mine-1", "owner": "a", "bot": "b",
                       "weapon": "Mine"}]
    assert b.damage == 1
    assert state.mines == []
    assert state.dice.used == 3


@pytest.mark.parametrize("setup, rule, words", [
    (lambda s, a: setattr(s, "round", 1), "R7", "first round"),
    (lambda s, a: setattr(a, "new", True), "R56", "first move"),
])
def test_no_mines_in_the_first_round_or_on_a_new_bots_first_move(setup, rule, words):  # R7 R56
    a = layer(20.0, 30.0)
    state = game(a)
    setup(state, a)
    before = snapshot(state)
    refusal = drop_mine(state, a, "Mine")
    assert isinstance(refusal, Refusal)
    assert refusal.rule == rule and words in refusal.message
    assert str(refusal).startswith(f"{rule}: a ")
    assert snapshot(state) == before


@pytest.mark.parametrize("weapon, rule, words", [
    ("Gun", "R21", "is a gun, not a mine"),
    ("Laser", "R21", "has no weapon 'Laser'"),
])
def test_only_a_mine_weapon_of_the_bot_can_be_dropped(weapon, rule, words):  # R21
    a = layer(20.0, 30.0)
    state = game(a)
    before = snapshot(state)
    refusal = drop_mine(state, a, weapon)
    assert isinstance(refusal, Refusal) and refusal.rule == rule
    assert words in refusal.message
    assert snapshot(state) == before


def test_a_mine_weapon_out_of_ammo_is_refused():  # R21 R49
    a = layer(20.0, 30.0)
    a.ammo["Mine"] = 0
    state = game(a)
    before = snapshot(state)
    refusal = drop_mine(state, a, "Mine")
    assert isinstance(refusal, Refusal) and refusal.rule == "R49"
    assert "no mines left" in refusal.message
    assert snapshot(state) == before


def test_the_last_mine_can_be_dropped_and_then_no_more():  # R21 R49
    a = layer(20.0, 30.0)
    state = game(a)
    for left in (2, 1, 0):
        events = drop_mine(state, a, "Mine")
        assert events[0]["left"] == left
    assert isinstance(drop_mine(state, a, "Mine"), Refusal)
    assert len(state.mines) == 3


# --- touching (D33, D4, D13) ---------------------------------------------------------

def test_touching_mines_lists_active_touched_markers_nearest_first():  # D33 D4
    b = target("b", 10.0, 10.0)
    state = game(layer(80.0, 80.0), b)
    far = active_mine("m-far", 10.0, 11.9)          # centres 1.9 apart: overlapping
    near = active_mine("m-near", 8.6, 10.0)         # 1.4 apart
    asleep = Mine(id="m-asleep", owner="a", player="red", weapon="Mine", x=10.0, y=10.0,
                  z=0.0, r=1.0, active=False)
    clear = active_mine("m-clear", 12.1, 10.0)      # gap 0.1 > tolerance 0.05
    state.mines = [far, near, asleep, clear]
    assert [m.id for m in touching_mines(state, b)] == ["m-near", "m-far"]


def test_touching_a_marker_allows_the_contact_tolerance():  # D4 D33
    b = target("b", 10.0, 10.0)
    state = game(layer(80.0, 80.0), b)
    state.mines = [active_mine("m-in", 12.04, 10.0), active_mine("m-out", 10.0, 7.94)]
    assert [m.id for m in touching_mines(state, b)] == ["m-in"]


def test_a_bot_clearly_on_another_level_does_not_touch_the_marker():  # D33 D13
    b = target("b", 10.0, 10.0)
    b.z = 4.0
    state = game(layer(80.0, 80.0), b)
    state.mines = [active_mine("m", 10.5, 10.0)]
    assert touching_mines(state, b) == []
    b.z = 1.0                                       # a ramp: not clearly another level
    assert [m.id for m in touching_mines(state, b)] == ["m"]


# --- activation (R31, R32, D19) ------------------------------------------------------

def test_mines_become_active_at_the_owners_shooting_phase_and_only_its_own():  # R31 D19
    a = layer(20.0, 30.0)
    other = layer(70.0, 70.0, bid="c")
    state = game(a, other)
    drop_mine(state, a, "Mine")
    drop_mine(state, other, "Mine")
    apply_event(state, {"type": "bot_moved", "bot": "a", "x": 30.0, "y": 30.0, "z": 0.0,
                        "facing": 90.0})          # a drove on: nobody touches its mine
    events = activate_mines(state, "a")
    assert events == [{"type": "mine_active", "mine": "mine-1"}]
    assert [m.active for m in state.mines] == [True, False]
    assert state.dice.used == 0
    assert activate_mines(state, "a") == []         # already active: nothing new


def test_a_bot_still_on_an_activated_mine_is_struck_at_once_even_its_owner():  # R31
    a = layer(20.0, 30.0)
    state = game(a, dice=[1])                       # to-hit: a natural 1 misses (R5)
    drop_mine(state, a, "Mine")
    events = activate_mines(state, "a")
    assert [e["type"] for e in events][:4] == ["mine_active", "mine_strike", "mine_removed",
                                               "to_hit"]
    assert events[1]["bot"] == "a"
    assert a.damage == 0 and state.mines == []
    assert state.dice.used == 1


def test_magnetic_mine_slides_to_the_bot_closest_to_its_centre():  # R32
    a = layer(20.0, 30.0)
    b = target("b", 30.0, 33.0)                    # 3.00 from the mine's centre
    c = target("c", 30.0, 26.5)                    # 3.50
    state = game(a, b, c, dice=[5, 3])             # to-hit 5 (needs 3), armour 3 fails
    state.mines = [Mine(id="m", owner="a", player="red", weapon="Magnet mine",
                        x=30.0, y=30.0, z=0.0, r=3.0, magnetic=True)]
    events = activate_mines(state, "a")
    types = [e["type"] for e in events]
    assert types[:4] == ["mine_active", "mine_strike", "mine_moved", "mine_removed"]
    assert events[1]["bot"] == "b"
    assert (events[2]["x"], events[2]["y"]) == (30.0, 33.0)
    assert (b.damage, c.damage) == (1, 0)
    assert state.dice.used == 2


def test_magnetic_mine_draws_between_bots_equally_near():  # R32
    a = layer(20.0, 30.0)
    b = target("b", 33.0, 30.0)                    # both 3.00 from the centre
    c = target("c", 27.0, 30.0)
    # pick among [b, c]: a 4 gives index (4 - 1) % 2 = 1 -> c; then to-hit 6, armour 1
    state = game(a, b, c, dice=[4, 6, 1])
    state.mines = [Mine(id="m", owner="a", player="red", weapon="Magnet mine",
                        x=30.0, y=30.0, z=0.0, r=3.0, magnetic=True)]
    events = activate_mines(state, "a")
    strike = next(e for e in events if e["type"] == "mine_strike")
    moved = next(e for e in events if e["type"] == "mine_moved")
    assert strike["bot"] == "c" and (moved["x"], moved["y"]) == (27.0, 30.0)
    assert (b.damage, c.damage) == (0, 1)
    assert state.dice.used == 3
    assert "R32" in state.dice.rolls[0].purpose


def test_an_active_mine_nobody_touches_waits():  # R31
    a = layer(10.0, 30.0)
    b = target("b", 24.0, 30.0)                    # gap 1.0 from the 1 cm marker
    state = game(a, b)
    state.mines = [Mine(id="m", owner="a", player="red", weapon="Mine",
                        x=21.0, y=30.0, z=0.0, r=1.0)]
    events = activate_mines(state, "a")
    assert [e["type"] for e in events] == ["mine_active"]
    assert state.mines[0].active and state.dice.used == 0


# --- strikes (R31, R33, D22, R34) ----------------------------------------------------

def test_a_mine_rolls_to_hit_as_normal_and_may_miss():  # R33
    a = layer(20.0, 30.0)
    b = target("b", 50.0, 50.0)
    state = game(a, b, dice=[3])                   # needs 4: a 3 misses
    mine = active_mine("m", 51.5, 50.0)
    state.mines = [mine]
    assert touching_mines(state, b) == [mine]
    events = mine_strike(state, mine, b)
    assert [e["type"] for e in events] == ["mine_strike", "mine_removed", "to_hit"]
    assert events[2]["hit"] is False
    assert b.damage == 0 and state.mines == [] and state.dice.used == 1


def test_a_mine_rolls_for_itself_without_its_owners_leaflet_penalty():  # R33 D26
    a = layer(20.0, 30.0)
    a.leaflet = 3
    b = target("b", 50.0, 50.0)
    state = game(a, b, dice=[4, 5, 5])             # a 4 hits: no -3 from a's leaflets
    mine = active_mine("m", 51.5, 50.0)
    state.mines = [mine]
    events = mine_strike(state, mine, b)
    to_hit = next(e for e in events if e["type"] == "to_hit")
    assert (to_hit["roll"], to_hit["mod"], to_hit["hit"]) == (4, 0, True)
    assert b.damage == 0 and state.dice.used == 3


def test_a_mine_hit_deals_its_hits_with_armour_tests():  # R33 D6
    a = layer(20.0, 30.0)
    b = target("b", 50.0, 50.0)
    state = game(a, b, dice=[4, 3, 4])            # hit; armour 3 fails, 4 passes
    mine = active_mine("m", 51.5, 50.0)
    state.mines = [mine]
    events = mine_strike(state, mine, b)
    tests = [e for e in events if e["type"] == "armour_test"]
    assert [t["passed"] for t in tests] == [False, True]
    assert b.damage == 1 and state.dice.used == 3


def test_a_mine_kill_scores_for_the_mines_owner():  # D22 R31
    a = layer(20.0, 30.0)
    b = target("b", 50.0, 50.0)
    b.damage = 5
    state = game(a, b, dice=[5, 2])               # hit; first armour test fails: destroyed
    mine = active_mine("m", 50.0, 51.5)
    state.mines = [mine]
    events = mine_strike(state, mine, b)
    assert b.destroyed
    assert state.scores == {"red": RULES.kill_points} == {"red": 5}
    assert state.kills == {"red": 1}
    destroyed = next(e for e in events if e["type"] == "destroyed")
    assert destroyed["by"] == "a"
    assert state.dice.used == 2                    # the second hit needs no test


def test_an_explosive_mine_blasts_around_the_bot_it_strikes():  # R33 R34 D32
    a = layer(10.0, 10.0)
    b = target("b", 50.0, 50.0)
    c = target("c", 53.5, 50.0)                   # 3.5 from b: touches the 3 cm marker
    d = target("d", 55.0, 50.0)                   # 5.0: outside
    # b (centre): to-hit 4 hits, armour 3 fails; c: to-hit 4 - 1 = 3 misses
    state = game(a, b, c, d, dice=[4, 3, 4])
    mine = active_mine("m", 48.5, 50.0, weapon="Bomb")
    state.mines = [mine]
    events = mine_strike(state, mine, b)
    blast = next(e for e in events if e["type"] == "blast")
    assert (blast["x"], blast["y"], blast["members"]) == (50.0, 50.0, ["b", "c"])
    assert [e["mod"] for e in events if e["type"] == "to_hit"] == [0, RULES.blast_hit_mod]
    assert (b.damage, c.damage, d.damage) == (1, 0, 0)
    assert state.dice.used == 3
    assert state.mines == []


# --- property: a refused drop changes nothing ----------------------------------------

@settings(max_examples=80, deadline=None)
@given(round_=st.integers(min_value=1, max_value=3), new=st.booleans(),
       weapon=st.sampled_from(["Mine", "Magnet mine", "Gun", "Laser"]),
       ammo=st.integers(min_value=0, max_value=2), x=st.floats(min_value=5, max_value=95),
       y=st.floats(min_value=5, max_value=95))
def test_a_refused_drop_rolls_no_die_and_changes_nothing(round_, new, weapon, ammo, x, y):
    # R7 R21 R49 R56
    a = layer(x, y)
    a.new = new
    a.ammo["Mine"] = ammo
    state = game(a, target("b", 50.0, 50.0), dice=[6, 6, 6], round_=round_)
    before = snapshot(state)
    result = drop_mine(state, a, weapon)
    refused = (round_ == 1 or new or weapon in ("Gun", "Laser")
               or (weapon == "Mine" and ammo == 0))
    assert isinstance(result, Refusal) == refused
    assert state.dice.used == 0
    if refused:
        assert snapshot(state) == before
    else:
        assert len(state.mines) == 1
        assert (state.mines[0].x, state.mines[0].y) == (round(x, 4), round(y, 4))
