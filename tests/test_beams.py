"""Push and pull beams (R29, R30, R16, D22)."""
from __future__ import annotations

import pytest
import yaml

from bottisota.content import rules_file
from bottisota.dice import Dice
from bottisota.model.arena import Arena
from bottisota.model.cards import BotCard, Weapon
from bottisota.model.house_rules import HouseRules
from bottisota.rules.beams import fling_plan, resolve_beams
from bottisota.rules.state import Bot, GameState

pytest.importorskip("bottisota.rules.movement", reason="movement.fling has not landed yet")

RULES = HouseRules(**yaml.safe_load(rules_file().read_text()))
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
    state = GameState(arena=arena or Arena(name="t", size=(100.0, 100.0)), rules=RULES,
                      dice=Dice(forced=list(dice or [])), round=2)
    for b in bots:
        state.bots[b.id] = b
        if b.player not in state.players:
            state.players.append(b.player)
    return state


def shooter(x: float = 20.0, y: float = 50.0) -> Bot:
    return bot("a", x, y, "red", weapons=(PUSH, PULL, BIG_PULL), facing=90.0)


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


# --- the plan (no dice) --------------------------------------------------------------

def test_push_goes_straight_away_from_the_shooter_and_pull_toward_it():  # R29
    a, b = shooter(), bot("b", 26.0, 58.0, "blue")       # 10 cm away at facing 36.87
    assert fling_plan(a, b, "push", 5.0) == pytest.approx((36.8699, 5.0), abs=1e-3)
    assert fling_plan(a, b, "pull", 5.0) == pytest.approx((216.8699, 5.0), abs=1e-3)
    heading, distance = fling_plan(a, b, "pull", 12.0)   # stops at base contact: 8 cm
    assert heading == pytest.approx(216.8699, abs=1e-3)
    assert distance == pytest.approx(8.0, abs=0.01)


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


def test_a_pull_stops_at_base_contact_with_the_shooter_without_a_collision():  # R29 D4
    a, b = shooter(), bot("b", 20.0, 36.0, "blue")       # 14 cm below a
    state = game(a, b, dice=[6, 5])                      # to-hit, armour: no collision dice
    events = resolve_beams(state, a, [(BIG_PULL, b)])
    assert (b.x, b.y) == pytest.approx((20.0, 48.0), abs=0.01)
    assert "collision" not in types(events)
    assert (a.damage, b.damage) == (0, 0)
    assert (a.x, a.y) == (20.0, 50.0)
    assert state.dice.used == 2


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
    assert types(events)[:5] == ["to_hit", "to_hit", "hits", "hits", "hits"]
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
    assert (b.x, b.y) == (30.0, 50.0) and state.dice.used == 6


def test_when_only_the_push_of_a_pair_hits_it_acts_alone():  # R29 R30
    a, b = shooter(), bot("b", 30.0, 50.0, "blue")
    state = game(a, b, dice=[4, 2, 5])                   # push hits, pull misses, armour ok
    events = resolve_beams(state, a, [(PUSH, b), (PULL, b)])
    assert len([e for e in events if e["type"] == "hits"]) == 1
    assert (b.x, b.y) == pytest.approx((35.0, 50.0), abs=0.01)
    assert state.dice.used == 3
