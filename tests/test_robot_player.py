"""The robot player: a table and forced dice give the expected intention, move, shots,
overwatch answers and journal lines, through the Game API."""
from __future__ import annotations

from pathlib import Path

import pytest

from bottisota.core.actions import Forward, Move, Pass, Place, SetOverwatch, Shoot, ShotOrder, Turn
from bottisota.core.dice import Dice
from bottisota.engine.game import Game
from bottisota.formats.robot_tables import bundled_personalities, load_personality
from bottisota.robot.player import Robot
from tests.builders import ROBOT_TABLE, arena, bot, card, state, weapon

GUN = weapon("Gun", mount="nose", range=30)


@pytest.fixture()
def tester(tmp_path: Path):
    path = tmp_path / "tester.yaml"
    path.write_text(ROBOT_TABLE)
    return load_personality(path)


def game_with(dice: list[int], me=(10, 30, 90), foe=(40, 30), foe_overwatch=False) -> Game:
    a = arena(size=(80, 60))
    s = state(a, bot("a", "red", me[:2], me[2], card(weapons=[GUN])),
              bot("b", "blue", foe, 270, card(weapons=[GUN]), overwatch=foe_overwatch),
              dice=dice)
    s.players = ["red", "blue"]
    s.active, s.phase = "a", "move"
    return Game(s)


def test_forced_die_gives_the_rows_intention_and_its_move(tester):
    # enemy 30 cm dead ahead: rule 1; a 2 means close in: walk the whole 8 cm at it
    game = game_with([2])
    robot = Robot("red", tester)
    move = robot.decide(game)
    assert move == Move("a", (Forward(8.0),))
    assert robot.decisions[0].text() == \
        "red rolled 2 on 'enemy 10-40 cm, in arc': close in, fire all"
    [event] = robot.take_events()
    assert event["type"] == "robot_decision" and event["roll"] == 2 and event["line"] == 5


def test_after_the_move_it_fires_every_weapon_that_bears(tester):
    # D19: the shooting phase; the gun reaches 30 cm and the enemy is 22 cm ahead (R18, R19)
    game = game_with([2, 6])
    robot = Robot("red", tester)
    assert game.act(robot.decide(game)).ok
    shoot = robot.decide(game)
    assert shoot == Shoot("a", (ShotOrder("Gun", "b"),))
    assert game.legal(shoot) is None


def test_overwatch_intention_moves_half_then_sets_overwatch(tester):
    # R23: a 4 means hold and watch: it may move at most half of 8 cm, then sets overwatch
    game = game_with([4])
    robot = Robot("red", tester)
    move = robot.decide(game)
    assert move.steps == () or sum(s.cm for s in move.steps if isinstance(s, Forward)) <= 4.0
    assert game.act(move).ok
    assert robot.decide(game) == SetOverwatch("a")


def test_first_round_shooting_falls_back_to_pass(tester):
    # R7: nobody shoots in the first round: "fire all" becomes a pass
    game = game_with([2])
    game.state.round = 1
    robot = Robot("red", tester)
    assert game.act(robot.decide(game)).ok
    assert robot.decide(game) == Pass("a")


@pytest.mark.parametrize("blue_roll, holds, answer", [(5, ("b",), "hold"), (2, (), "fire")])
def test_robot_watcher_holds_or_fires_by_its_overwatch_table(tester, blue_roll, holds, answer):
    # R23: blue watches with a 30 cm gun; red rolls 6 (keep range, 24 cm: 0.8 of its gun)
    # and walks 6 cm into blue's reach; blue's robot rolls on 'otherwise' (1-3 fire, 4-6 hold)
    game = game_with([6, blue_roll], foe_overwatch=True, me=(10, 30, 90), foe=(40, 30))
    red, blue = Robot("red", tester), Robot("blue", tester)
    red.peers = blue.peers = {"red": red, "blue": blue}
    move = red.decide(game)
    assert move == Move("a", (Forward(6.0),), holds)
    assert [o.watcher for o in game.preview(Move("a", move.steps)).overwatch] == ["b"]
    assert blue.decisions[-1].text() == f"blue rolled {blue_roll} on 'otherwise': {answer}"


def test_placement_by_table_is_legal_and_faces_the_enemy(tester):
    # R6: a new bot is placed where its roll says: 1 -> near an enemy (25 cm off)
    game = game_with([1])
    s = game.state
    s.phase = "place"
    s.bots["a"].x, s.bots["a"].y = 0.0, 0.0      # not yet placed anywhere useful
    robot = Robot("red", tester)
    place = robot.decide(game)
    assert isinstance(place, Place) and game.legal(place) is None
    d = ((place.x - 40) ** 2 + (place.y - 30) ** 2) ** 0.5
    assert abs(d - 25.0) <= 3.0
    assert robot.decisions[0].choice == "near_enemy"


def test_robot_rolls_come_from_the_games_dice_stream(tester):
    # D8: the robot's die is the game's next roll, recorded with its purpose
    game = game_with([3])
    Robot("red", tester).decide(game)
    assert game.state.dice.rolls[0].value == 3
    assert game.state.dice.rolls[0].purpose == \
        "robot: red's turn table, 'enemy 10-40 cm, in arc'"


def test_a_decision_never_reads_the_clock(monkeypatch):
    # issue 10: counts bound the search, so every personality decides the same on a
    # loaded machine; with no guard the planner must not even look at the clock
    import bottisota.robot.planner as planner

    def no_clock():
        raise AssertionError("the planner read the clock")

    monkeypatch.setattr(planner.time, "perf_counter", no_clock)
    for name, p in bundled_personalities().items():
        game = game_with([], me=(10, 10, 0), foe=(60, 50))
        game.state.dice = Dice(seed=3)
        robot = Robot("red", p)
        robot.prepare(game)
        action = robot.decide(game)
        assert game.legal(action) is None, name
        assert robot.last_plan.previews <= planner.MAX_TRIES, name


def test_an_interactive_guard_that_cuts_the_search_is_journaled(tester):
    # the wall-clock guard (interactive play only) still gives a legal action, and the
    # cut is written down as an informational note beside the decision
    game = game_with([2])
    robot = Robot("red", tester, time_limit=1e-6)
    move = robot.decide(game)
    assert move == Move("a", ()) and game.legal(move) is None
    assert robot.last_plan.timed_out
    kinds = [e["type"] for e in robot.take_events()]
    assert kinds == ["robot_decision", "robot_search_cut"]
    assert game.act(move, []).ok


def test_holding_walker_turns_its_nose_onto_the_enemy(tester):
    # R19, R10: enemy to the right, outside the front arc: the fallback rule is rolled
    # (hold) and the walker stays put but turns freely to face it
    game = game_with([1], me=(10, 30, 0), foe=(30, 30))
    robot = Robot("red", tester)
    move = robot.decide(game)
    assert robot.decisions[0].rule.label == "otherwise"
    assert move == Move("a", (Turn(90.0),))
