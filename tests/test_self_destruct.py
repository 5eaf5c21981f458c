"""Self-destruct (D21, R7, R34, R35, R56, D22)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from shapely.geometry import box

from bottisota.core.actions import Refusal
from bottisota.core.arena import Feature
from bottisota.core.cards import BotCard
from bottisota.engine.self_destruct import self_destruct
from bottisota.engine.state import Bot, GameState
from bottisota.formats.loading import bundled_rules
from tests.builders import bare_table

RULES = bundled_rules()
WALL = Feature(index=0, type="wall", shape=box(27.5, 25.0, 28.0, 35.0), height=10.0)


def bot(bid: str, x: float, y: float, player: str, z: float = 0.0, damage: int = 0) -> Bot:
    card = BotCard(id=bid, name=bid, locomotion="walker", move=8, armour=4, structure=6)
    return Bot(id=bid, player=player, card=card, x=x, y=y, z=z, damage=damage)


def game(*bots: Bot, dice: list[int] | None = None, round_: int = 2,
         walls: tuple[Feature, ...] = ()) -> GameState:
    return bare_table(*bots, dice=dice, round_=round_, features=walls)


def snapshot(state: GameState) -> tuple:
    return (repr(state.bots), repr(state.mines), state.dice.used, dict(state.scores),
            dict(state.kills), state.next_id)


def test_self_destruct_blasts_every_other_bot_in_the_area_then_destroys_the_bot():
    # D21 R34 R35: everyone but the bot is off the centre: to-hit 2 at -1, armour +1.
    a = bot("a", 30.0, 30.0, "red")
    b = bot("b", 32.5, 30.0, "blue")           # 2.5 away: in the area
    c = bot("c", 30.0, 34.0, "green")          # 4.0 away: touches the 3 cm marker
    d = bot("d", 30.0, 35.0, "green")          # 5.0 away: outside
    e = bot("e", 26.5, 30.0, "blue")           # 3.5 away, behind a wall (R35)
    f = bot("f", 30.0, 26.5, "blue", z=2.0)    # 3.5 away, clearly another level (R35, D13)
    # b: to-hit 3-1 = 2 hits, d6 hits = 2, armour 3+1 passes, 2+1 fails; c: 2-1 misses
    state = game(a, b, c, d, e, f, dice=[3, 2, 3, 2, 2], walls=(WALL,))
    events = self_destruct(state, "a")
    assert [ev["type"] for ev in events] == [
        "self_destruct", "blast", "to_hit", "hits", "armour_test", "armour_test", "damaged",
        "to_hit", "destroyed"]
    blast = events[1]
    assert (blast["x"], blast["y"], blast["members"]) == (30.0, 30.0, ["b", "c"])
    assert sorted(blast["safe"]) == ["e", "f"]
    to_hits = [ev for ev in events if ev["type"] == "to_hit"]
    assert [(t["target"], t["need"], t["mod"], t["hit"]) for t in to_hits] == [
        ("b", RULES.self_destruct_to_hit, RULES.blast_hit_mod, True), ("c", 2, -1, False)]
    assert [t["mod"] for t in events if t["type"] == "armour_test"] == [1, 1]
    assert (b.damage, c.damage, d.damage, e.damage, f.damage) == (1, 0, 0, 0, 0)
    assert a.destroyed and events[-1] == {"type": "destroyed", "bot": "a",
                                          "cause": "self-destruct", "by": None}
    assert state.scores == {} and state.kills == {}
    assert state.dice.used == 5


def test_kills_made_by_a_self_destruct_score_for_nobody():  # D21 D22
    a = bot("a", 30.0, 30.0, "red")
    b = bot("b", 32.5, 30.0, "blue", damage=5)
    state = game(a, b, dice=[6, 1, 1])          # hit, 1 hit, armour 1 fails (R5)
    events = self_destruct(state, "a")
    assert b.destroyed and a.destroyed
    killed = [ev for ev in events if ev["type"] == "destroyed"]
    assert [(k["bot"], k["by"]) for k in killed] == [("b", None), ("a", None)]
    assert state.scores == {} and state.kills == {}
    assert not any(ev["type"] == "score" for ev in events)
    assert state.dice.used == 3


def test_a_self_destruct_ignores_the_bots_leaflet_penalty():  # D21 D26
    a = bot("a", 30.0, 30.0, "red")
    a.leaflet = 3
    b = bot("b", 32.5, 30.0, "blue")
    state = game(a, b, dice=[3, 1, 5])          # 3 - 1 = 2 hits; 1 hit; armour 5+1 passes
    self_destruct(state, "a")
    assert b.damage == 0 and a.destroyed
    assert state.dice.rolls[0].value == 3 and state.dice.used == 3


def test_a_lone_bot_self_destructs_rolling_nothing():  # D21
    a = bot("a", 30.0, 30.0, "red")
    state = game(a, bot("b", 60.0, 60.0, "blue"))
    events = self_destruct(state, "a")
    assert [ev["type"] for ev in events] == ["self_destruct", "blast", "destroyed"]
    assert a.destroyed and state.dice.used == 0


@pytest.mark.parametrize("change, rule, words", [
    (lambda s: setattr(s, "round", 1), "R7", "first round"),
    (lambda s: setattr(s.bots["a"], "new", True), "R56", "first move"),
    (lambda s: setattr(s.bots["a"], "destroyed", True), "D21", "not on the table"),
])
def test_self_destruct_is_refused_in_the_first_round_for_new_bots_and_wrecks(
        change, rule, words):  # R7 R56 D21
    state = game(bot("a", 30.0, 30.0, "red"), bot("b", 32.5, 30.0, "blue"), dice=[6, 6, 1])
    change(state)
    before = snapshot(state)
    refusal = self_destruct(state, "a")
    assert isinstance(refusal, Refusal) and refusal.rule == rule
    assert words in refusal.message
    assert snapshot(state) == before


def test_self_destruct_of_an_unknown_bot_is_refused():  # D21
    state = game(bot("a", 30.0, 30.0, "red"))
    refusal = self_destruct(state, "zz")
    assert isinstance(refusal, Refusal) and str(refusal) == "D21: there is no bot 'zz'"


@settings(max_examples=60, deadline=None)
@given(round_=st.integers(min_value=1, max_value=3), new=st.booleans(),
       destroyed=st.booleans(), x=st.floats(min_value=5, max_value=95),
       y=st.floats(min_value=5, max_value=95))
def test_a_refused_self_destruct_rolls_no_die_and_changes_nothing(round_, new, destroyed,
                                                                   x, y):  # R7 R56 D21
    a = bot("a", x, y, "red")
    a.new, a.destroyed = new, destroyed
    b = bot("b", x + 2.5 if x < 50 else x - 2.5, y, "blue")
    state = game(a, b, dice=[6, 6, 6, 6, 6, 6, 6, 6], round_=round_)
    before = snapshot(state)
    result = self_destruct(state, "a")
    refused = round_ == 1 or new or destroyed
    assert isinstance(result, Refusal) == refused
    if refused:
        assert snapshot(state) == before
