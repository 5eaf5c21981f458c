"""Robots go looking for the enemy (issue 29): an intention that would wait (hold),
keep its distance or hide, with no enemy in sight or in reach, advances by the
navigation map toward the nearest enemy, to its keeping distance."""
from __future__ import annotations

import math
import os
from dataclasses import replace

import pytest

from bottisota.core.actions import Move, Pass
from bottisota.engine.game import Game
from bottisota.formats.content import arenas_dir
from bottisota.formats.loading import load_arena
from bottisota.formats.robot_tables import Intention, load_personality
from bottisota.robot.match import play
from bottisota.robot.navigation import grid_for
from bottisota.robot.planner import plan_move
from bottisota.robot.player import Robot
from bottisota.robot.simulate import setup
from bottisota.robot.situation import Situation
from tests.builders import bot, card, state, weapon

HOLDER = """\
name: holder
place:
  - table: {1-6: centre}
turn:
  - table: {1-6: {move: hold}}
overwatch:
  - table: {1-6: hold}
"""
GUN = weapon("Gun", mount="nose", range=12)


def duel_game(me=(6.0, 44.0), foe=(54.0, 44.0)) -> Game:
    """The bundled duel arena: red west of the north wall, blue east of it, out of
    sight of each other (the 10 cm wall between) and out of the 12 cm gun's reach."""
    s = state(load_arena(arenas_dir() / "duel.yaml"),
              bot("a", "red", me, 90, card(weapons=[GUN])),
              bot("b", "blue", foe, 270, card(weapons=[GUN])), dice=[1] * 200)
    s.players = ["red", "blue"]
    s.active, s.phase = "a", "move"
    return Game(s)


@pytest.fixture
def holder(tmp_path):
    path = tmp_path / "holder.yaml"
    path.write_text(HOLDER)
    return load_personality(path)


def test_the_starting_position_has_no_enemy_in_sight_or_reach():
    g = duel_game()
    sit = Situation(g.state, g.state.bots["a"])
    assert not sit.in_sight and not sit.in_reach


def test_a_holding_robot_with_no_enemy_in_sight_walks_toward_it(holder):
    # issue 29: a hold with nobody to shoot at or hide from advances by the map
    g = duel_game()
    robot = Robot("red", holder)
    grid = grid_for(g.state.arena, g.state.rules, g.state.bots["a"].stats)
    foe = g.state.bots["b"]
    travel = [grid.distance(g.state.bots["a"].pos, foe.pos)]
    for _ in range(3):
        move = robot.decide(g)
        assert isinstance(move, Move) and move.steps
        assert g.act(move, robot.take_events()).refusal is None
        assert g.act(robot.decide(g), robot.take_events()).refusal is None
        assert g.act(Move("b"), []).refusal is None         # blue stays
        assert g.act(Pass("b"), []).refusal is None
        travel.append(grid.distance(g.state.bots["a"].pos, foe.pos))
    # closer by the map every turn (the first two spend most of the 8 cm move)
    assert [round(t, 1) for t in travel] == [56.6, 47.3, 38.8, 34.7]


def test_advance_stops_at_the_keeping_distance_and_only_when_nothing_is_in_sight():
    g = duel_game()
    s, me, foe = g.state, g.state.bots["a"], g.state.bots["b"]
    held = plan_move(s, me, Intention(move="hold"), foe)
    assert held.move.steps == ()                          # asked to wait, it waits
    went = plan_move(s, me, Intention(move="hold"), foe, advance=True)
    assert went.result is not None
    x, y = went.result.x, went.result.y
    # the whole 8 cm move, toward the wall's end (it stands at x 28-32, y 38-50)
    assert math.hypot(x - me.x, y - me.y) == pytest.approx(8.0, abs=0.01)
    grid = grid_for(s.arena, s.rules, me.stats)
    assert grid.distance((x, y), foe.pos) < grid.distance(me.pos, foe.pos) - 7.0
    assert (round(x, 2), round(y, 2)) == (13.89, 45.31)


LONG = os.environ.get("BOTTISOTA_LONG_TESTS") == "1" or os.environ.get("CI") == "true"
ARENAS = sorted(p.stem for p in arenas_dir().glob("*.yaml"))
FIGHT_ROUNDS = 150      # rounds enough for robots that close to fight a game out


@pytest.mark.skipif(not LONG, reason="long: 20 games per arena (CI=true or BOTTISOTA_LONG_TESTS=1)")
@pytest.mark.parametrize("arena_name", ARENAS)
def test_robot_games_are_won_by_fighting_not_by_the_limit(arena_name):  # D24 D48 D49
    # issue 29: the default seats (aggressive against aggressive), given rounds enough,
    # end with one player left for most seeds, neither by the round limit nor a draw
    world = setup(arena_name, ["aggressive", "aggressive"])
    rules = replace(world["rules"], round_limit=FIGHT_ROUNDS)
    endings = []
    for seed in range(20):
        record = play(world["arena"], rules, world["cards"], world["mods"],
                      world["personalities"], seed=seed, round_limit=None)
        assert record.refusals == [] and record.errors == []
        endings.append(record.ended)
    won = sum("D24" in e and "limit" not in e for e in endings)
    assert won >= 12, endings
